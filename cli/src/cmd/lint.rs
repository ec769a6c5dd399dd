//! `urilex lint`: security hazards, one row per record: `line`, `input`,
//! `valid`, `lints` (objects with `kind`, `start`, `end`, `text`), `error`
//! (the error object of every row).

use super::Out;
use crate::args::{InputsArg, ProfileArg, RowsArg, ThreadsArg};
use crate::failure::Failure;
use urilex::Parser;
use urilex_io::model::{Cell, Columns, ErrorCell, Type};
use urilex_io::text::{json_text, put_u64};

#[derive(clap::Args)]
#[command(after_help = "Examples:
  urilex lint access.log        each line: input, valid, and its lints with kind and span
  echo 'http://u:p@h/' | urilex lint
  urilex lint --format parquet -o lints.parquet urls.txt")]
pub struct Args {
    #[command(flatten)]
    pub profile: ProfileArg,
    #[command(flatten)]
    pub rows: RowsArg,
    #[command(flatten)]
    pub threads: ThreadsArg,
    #[command(flatten)]
    pub inputs: InputsArg,
}

/// The columns of a `lint` row.
pub fn columns() -> Columns {
    Columns::of([
        ("line", Type::U64, false),
        ("input", Type::Text, true),
        ("valid", Type::Bool, true),
        ("lints", Type::Json, true),
        ("error", Type::Error, true),
    ])
}

pub fn run(a: Args) -> Result<(), Failure> {
    let parser = Parser::new().profile(a.profile.profile);
    let out = super::LinesOut {
        columns: columns(),
        format: Some(a.rows.format.unwrap_or(crate::args::Format::Jsonl).to_io()),
        header: a.rows.header,
        output: a.rows.output.as_deref(),
    };
    super::run_lines(
        &a.inputs,
        a.threads.threads,
        out,
        Vec::new,
        |lints, rec, at, out| {
            let Out::Rows(out) = out else { return };
            let line = Cell::U64(at.line);
            let input = match rec {
                Ok(input) => input,
                Err(m) => {
                    // The record did not fit its format: no reference.
                    let e = ErrorCell::format(m, None).into();
                    return out.push([line, Cell::Null, Cell::Null, Cell::Json(b"[]"), e]);
                }
            };
            match at.parser(parser).parse_bytes(input) {
                Ok(u) => {
                    lints.clear();
                    lints.push(b'[');
                    for (i, l) in u.lints().iter().enumerate() {
                        if i > 0 {
                            lints.push(b',');
                        }
                        lints.extend_from_slice(b"{\"kind\":");
                        json_text(lints, l.kind.as_str().as_bytes());
                        lints.extend_from_slice(b",\"start\":");
                        put_u64(lints, l.span.start as u64);
                        lints.extend_from_slice(b",\"end\":");
                        put_u64(lints, l.span.end as u64);
                        lints.extend_from_slice(b",\"text\":");
                        match u.as_str().get(l.span.clone()) {
                            Some(t) => json_text(lints, t.as_bytes()),
                            None => lints.extend_from_slice(b"null"),
                        }
                        lints.push(b'}');
                    }
                    lints.push(b']');
                    out.push([
                        line,
                        Cell::Text(input),
                        Cell::Bool(true),
                        Cell::Json(lints),
                        Cell::Null,
                    ]);
                }
                Err(e) => out.push([
                    line,
                    Cell::Text(input),
                    Cell::Bool(false),
                    Cell::Json(b"[]"),
                    ErrorCell::parse(e, input).into(),
                ]),
            }
        },
    )
}
