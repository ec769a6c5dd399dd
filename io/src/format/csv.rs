//! `csv:COL`: comma-separated values with RFC 4180 quoting (a record may
//! span lines inside quotes); the column by 1-based number, or by name
//! from each input's header ([`crate::delimited`] reads the records).

use super::header;
use super::{Argument, Chunk, ColumnRef, Context, Cut, Decoder, Registered, Rows, Sequence};
use crate::delimited::{csv_field, csv_header, csv_records};
use std::sync::Arc;

pub(super) const REGISTERED: Registered = Registered {
    name: "csv",
    argument: Some(Argument {
        usage: "COL",
        what: "a column",
        example: "2",
    }),
    about: "CSV (RFC 4180 quoting): a column by 1-based number or header name",
    make: |a| {
        Ok(Arc::new(Csv {
            column: ColumnRef::parse(a.unwrap_or_default())?,
        }))
    },
};

struct Csv {
    column: ColumnRef,
}

fn fields(records: &[u8]) -> Vec<Vec<u8>> {
    csv_records(records)
        .next()
        .map(|r| csv_header(r).unwrap_or_default())
        .unwrap_or_default()
}

impl Decoder for Csv {
    fn spec(&self) -> String {
        format!("csv:{}", self.column)
    }
    fn label(&self) -> &'static str {
        "CSV"
    }
    fn cut(&self) -> Cut {
        Cut::CsvQuotes
    }
    fn sequence(&self) -> Box<dyn Sequence> {
        header::sequence(&self.column, fields)
    }
    fn decode(&self, chunk: &Chunk, context: &Context, rows: &mut Rows<'_>) {
        let column = header::index(&self.column, context);
        let skip = header::skips_header(&self.column, chunk);
        let mut line = chunk.first_line;
        let mut field = Vec::new();
        for (k, rec) in csv_records(&chunk.data).enumerate() {
            let lfs = crate::source::count_lfs(rec) + 1;
            if !(k == 0 && skip) {
                match csv_field(rec, column, &mut field) {
                    Ok(true) => rows.value(line, Some(&field)),
                    Ok(false) => rows.error(line, format_args!("no column {}", column + 1), None),
                    Err(at) => rows.error(line, "unclosed quote", Some(at)),
                }
            }
            line += lfs;
        }
    }
}
