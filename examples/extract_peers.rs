//! Extraction timed against linkify 0.11 in one process, interleaved round
//! by round (each one's best round), on generated text
//! (`benches/support/text.rs`, also `cargo bench --bench extract`): prose
//! with URIs in mail, Markdown, HTML, JSON and Apache log lines, the URIs
//! drawn from the bundled URL corpora (benches/data/); and, where the
//! sibling `../shared` has it, the RFC 3986 text (prose with few URIs).
//! (Recall and precision: `examples/extract_recall.rs`, on outside
//! fixtures.)
//!
//!     cargo run --release --example extract_peers [ROUNDS]
#[path = "../benches/support/race.rs"]
mod race;
#[path = "../benches/support/text.rs"]
mod text;

use linkify::{LinkFinder, LinkKind};
use race::{race, Job};
use urilex::extract::{find_iter, ExtractOptions};

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(15);
    let text = text::corpus(200_000);
    let finder = {
        let mut f = LinkFinder::new();
        f.kinds(&[LinkKind::Url]);
        f
    };
    let o = ExtractOptions::new();
    let a = find_iter(text.as_bytes(), o).count();
    let b = finder.links(&text).count();
    println!(
        "hits: urilex {a}, linkify {b} ({} MB)",
        text.len() / 1_000_000
    );
    let mut jobs: Vec<(&str, Job)> = vec![
        ("linkify", Box::new(|| finder.links(&text).count())),
        ("urilex", Box::new(|| find_iter(text.as_bytes(), o).count())),
    ];
    race(
        "generated text",
        (text.len(), text.lines().count()),
        1,
        rounds,
        &mut jobs,
    );

    // Prose with few URIs: the RFC 3986 text, where the sibling checkout
    // of ../shared has it (repeated to 28 MB); memchr counting its colons
    // is the floor a colon-driven finder can reach there.
    let rfc = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/rfc/rfc3986.txt");
    if let Ok(one) = std::fs::read_to_string(rfc) {
        let prose = one.repeat(28_000_000 / one.len().max(1));
        let a = find_iter(prose.as_bytes(), o).count();
        let b = finder.links(&prose).count();
        println!("RFC 3986 text: hits urilex {a}, linkify {b}");
        let mut jobs: Vec<(&str, Job)> = vec![
            ("linkify", Box::new(|| finder.links(&prose).count())),
            (
                "urilex",
                Box::new(|| find_iter(prose.as_bytes(), o).count()),
            ),
            // The floor: counting the colons, with no look at them.
            (
                "memchr count of ':'",
                Box::new(|| memchr::memchr_iter(b':', prose.as_bytes()).count()),
            ),
        ];
        race(
            "RFC 3986 text",
            (prose.len(), prose.lines().count()),
            1,
            rounds,
            &mut jobs,
        );
    }
}
