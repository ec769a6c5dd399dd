//! A TSV or CSV column by number, or by name from each input's header.

use super::{Chunk, ColumnRef, Context, Sequence};
use std::sync::Arc;

/// Reads a column named by header: in each input's first chunk, the
/// header's fields (`fields` splits the first record).
struct ByName {
    name: String,
    fields: fn(&[u8]) -> Vec<Vec<u8>>,
    /// The column found in the current input.
    column: Context,
}

impl Sequence for ByName {
    fn next(&mut self, chunk: &Chunk) -> Result<Context, String> {
        if !chunk.starts_input {
            return Ok(self.column.clone());
        }
        let header = (self.fields)(&chunk.data);
        let strip = |h: &[u8]| h.strip_prefix(b"\xef\xbb\xbf").unwrap_or(h).to_vec();
        match header.iter().position(|h| strip(h) == self.name.as_bytes()) {
            Some(k) => {
                self.column = Some(Arc::new(k));
                Ok(self.column.clone())
            }
            None => {
                let names: Vec<String> = header
                    .iter()
                    .map(|h| String::from_utf8_lossy(&strip(h)).into_owned())
                    .collect();
                Err(format!(
                    "{}: no column `{}` in the header (its columns: {})",
                    chunk.name,
                    self.name,
                    names.join(", ")
                ))
            }
        }
    }
}

/// The sequence of a column given as `column`: by name, each input's
/// header read by `fields`; by number, none.
pub(super) fn sequence(column: &ColumnRef, fields: fn(&[u8]) -> Vec<Vec<u8>>) -> Box<dyn Sequence> {
    match column {
        ColumnRef::Name(name) => Box::new(ByName {
            name: name.clone(),
            fields,
            column: None,
        }),
        ColumnRef::Number(_) => Box::new(super::NoContext),
    }
}

/// The column's index: its number, or what the header gave.
pub(super) fn index(column: &ColumnRef, context: &Context) -> usize {
    match column {
        ColumnRef::Number(n) => *n,
        ColumnRef::Name(_) => context
            .as_ref()
            .and_then(|c| c.downcast_ref::<usize>())
            .copied()
            .unwrap_or(0),
    }
}

/// Whether a chunk's first record is a header, which gives no row.
pub(super) fn skips_header(column: &ColumnRef, chunk: &Chunk) -> bool {
    chunk.starts_input && matches!(column, ColumnRef::Name(_))
}
