//! `jsonl:FIELD`: JSON Lines, the string at a dotted path of each object
//! ([`crate::json`] reads it); a missing or null field is no reference.

use super::{numbered_lines, Argument, Chunk, Context, Decoder, Registered, Rows};
use std::sync::Arc;

pub(super) const REGISTERED: Registered = Registered {
    name: "jsonl",
    argument: Some(Argument {
        usage: "FIELD",
        what: "a field",
        example: "url.original",
    }),
    about: "JSON Lines: the string at a dotted path of each object (`url.original`)",
    make: |path| {
        Ok(Arc::new(Jsonl {
            path: path.unwrap_or_default().to_string(),
        }))
    },
};

struct Jsonl {
    path: String,
}

impl Decoder for Jsonl {
    fn splittable(&self) -> bool {
        true
    }

    fn spec(&self) -> String {
        format!("jsonl:{}", self.path)
    }
    fn label(&self) -> &'static str {
        "JSON Lines"
    }
    fn decode(&self, chunk: &Chunk, _: &Context, rows: &mut Rows<'_>) {
        let mut value = std::mem::take(&mut rows.out.arena);
        for (line, rec) in numbered_lines(chunk) {
            value.clear();
            match crate::json::field(rec, &self.path, &mut value) {
                Ok(Some(())) => rows.value(line, Some(&value)),
                Ok(None) => rows.value(line, None),
                Err((what, at)) => rows.error(line, what, Some(at)),
            }
        }
        value.clear();
        rows.out.arena = value;
    }
}
