//! `tsv:COL`: tab-separated columns, no quoting; the column by 1-based
//! number, or by name from each input's header.

use super::header;
use super::{
    numbered_lines, Argument, Chunk, ColumnRef, Context, Decoder, Registered, Rows, Sequence,
};
use std::sync::Arc;

pub(super) const REGISTERED: Registered = Registered {
    name: "tsv",
    argument: Some(Argument {
        usage: "COL",
        what: "a column",
        example: "2",
    }),
    about: "tab-separated columns: a column by 1-based number or header name",
    make: |a| {
        Ok(Arc::new(Tsv {
            column: ColumnRef::parse(a.unwrap_or_default())?,
        }))
    },
};

struct Tsv {
    column: ColumnRef,
}

fn fields(records: &[u8]) -> Vec<Vec<u8>> {
    urilex::lines(records)
        .next()
        .map(|(_, l)| l.split(|&b| b == b'\t').map(<[u8]>::to_vec).collect())
        .unwrap_or_default()
}

impl Decoder for Tsv {
    fn spec(&self) -> String {
        format!("tsv:{}", self.column)
    }
    fn label(&self) -> &'static str {
        "TSV"
    }
    /// By number its records are lines needing nothing before them; by
    /// name each input's header comes first.
    fn splittable(&self) -> bool {
        matches!(self.column, ColumnRef::Number(_))
    }
    fn sequence(&self) -> Box<dyn Sequence> {
        header::sequence(&self.column, fields)
    }
    fn decode(&self, chunk: &Chunk, context: &Context, rows: &mut Rows<'_>) {
        let column = header::index(&self.column, context);
        let skip = header::skips_header(&self.column, chunk);
        for (k, (line, rec)) in numbered_lines(chunk).enumerate() {
            if k == 0 && skip {
                continue;
            }
            match rec.split(|&b| b == b'\t').nth(column) {
                Some(v) => rows.value(line, Some(v)),
                None => rows.error(line, format_args!("no column {}", column + 1), None),
            }
        }
    }
}
