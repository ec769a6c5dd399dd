//! Extraction searched in two parts, as the CLI does across cores: the
//! first part stops at `cut` (a line start, `stop_at`), and the second
//! begins at the cut or past the first part's last hit (`position()`,
//! `start_at`: the bytes before it are its context). Shared by
//! `tests/extract.rs` and the `extract` fuzz target.

use urilex::extract::{find_iter, ExtractOptions, Hit};

/// The hits of `text` found in two parts cut at `cut`.
pub fn in_two_parts(text: &[u8], o: ExtractOptions, cut: usize) -> Vec<Hit<'_>> {
    let mut it = find_iter(text, o).stop_at(cut);
    let mut parts = Vec::new();
    let mut end = 0;
    while let Some(h) = it.next() {
        parts.push(h);
        end = it.position();
    }
    parts.extend(find_iter(text, o).start_at(cut.max(end)));
    parts
}
