//! `lines`: one reference per line (a CR before the LF is not part of
//! it). The chunk itself is the batch engine's buffer: nothing is copied.

use super::{Chunk, Context, Decoder, Registered, Rows};
use std::sync::Arc;

pub(super) const REGISTERED: Registered = Registered {
    name: "lines",
    argument: None,
    about: "one reference per line",
    make: |_| Ok(Arc::new(Lines)),
};

pub(super) struct Lines;

impl Decoder for Lines {
    fn splittable(&self) -> bool {
        true
    }

    fn spec(&self) -> String {
        "lines".into()
    }
    fn label(&self) -> &'static str {
        "lines"
    }
    fn in_place(&self) -> bool {
        true
    }
    fn decode(&self, _: &Chunk, _: &Context, rows: &mut Rows<'_>) {
        // The chunk is the batch's buffer: its rows are the batch's lines,
        // counted once it has parsed them.
        rows.out.in_place = true;
    }
}
