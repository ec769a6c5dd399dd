//! `urilex urn`: URNs (RFC 8141, or draft-ietf-urnbis-rfc2141bis-urn-03), one per line, split
//! into their parts; or with `--equiv`, pairs compared for lexical
//! equivalence.

use super::{At, Out, Record};
use crate::args::{urn_profile_parser, InputsArg, RowsArg, ThreadsArg};
use crate::failure::Failure;
use std::fmt::Write as _;
use std::io::Write as _;
use urilex::urn::{QueryRule, Urn};
use urilex::Profile;
use urilex_io::model::{Cell, Columns, ErrorCell, Message, Type};
use urilex_io::table::Rows;
use urilex_io::text::json_text;

#[derive(clap::ValueEnum, Clone, Copy, PartialEq, Eq)]
pub enum QueryArg {
    /// Step 5a of draft-ietf-urnbis-rfc2141bis-urn-03 section 5: ignore the query.
    Drop,
    /// Step 5b: compare the directives in a preferred keyword order.
    Reorder,
}

#[derive(clap::Args)]
#[command(after_help = "Examples:
  echo 'urn:ISBN:0-395-36341-1?+res?=q#f' | urilex urn
  urilex urn --profile urn-draft-03 urns.txt          directives as [keywd, value] pairs
  printf 'URN:foo:a123%2c456\\turn:FOO:a123%2C456\\n' | urilex urn --equiv          true
  printf 'urn:foo:a?x=y\\turn:foo:a\\n' | urilex urn --equiv --profile urn-draft-03 --query reorder
Each row: line, valid, nid, nss, r, q, f (null absent, \"\" empty), for the
draft directives, and error (kind, part, index, rule, message, raw). With
--equiv each line is `a<TAB>b` and its output line `true` or `false`
(`ERROR FILE:LINE: message` if either is not a URN); with --format, rows of
line, a, b, equivalent and error.")]
pub struct Args {
    /// URN grammar: `rfc8141` (RFC 8141) or `urn-draft-03` (draft-ietf-urnbis-rfc2141bis-urn-03).
    #[arg(long, default_value = "rfc8141", value_parser = urn_profile_parser())]
    pub profile: Profile,
    /// Compare `a<TAB>b` pairs for lexical equivalence (RFC 8141 section
    /// 3, or draft-ietf-urnbis-rfc2141bis-urn-03 section 5).
    #[arg(long)]
    pub equiv: bool,
    /// What equivalence does with a query (draft-ietf-urnbis-rfc2141bis-urn-03 step 5a or 5b); under
    /// rfc8141 the r- and q-components are always ignored.
    #[arg(long, value_enum, default_value_t = QueryArg::Drop, requires = "equiv")]
    pub query: QueryArg,
    #[command(flatten)]
    pub rows: RowsArg,
    #[command(flatten)]
    pub threads: ThreadsArg,
    #[command(flatten)]
    pub inputs: InputsArg,
}

/// The columns of a `urn` row (`directives` under the draft's profile).
pub fn columns(draft: bool) -> Columns {
    let mut c = vec![
        ("line", Type::U64, false),
        ("valid", Type::Bool, true),
        ("nid", Type::Text, true),
        ("nss", Type::Text, true),
        ("r", Type::Text, true),
        ("q", Type::Text, true),
        ("f", Type::Text, true),
    ];
    if draft {
        c.push(("directives", Type::Json, true));
    }
    c.push(("error", Type::Error, true));
    Columns::of(c)
}

/// The columns of a `urn --equiv` row.
fn equiv_columns() -> Columns {
    Columns::of([
        ("line", Type::U64, false),
        ("a", Type::Text, true),
        ("b", Type::Text, true),
        ("equivalent", Type::Bool, true),
        ("error", Type::Error, true),
    ])
}

pub fn run(a: Args) -> Result<(), Failure> {
    let profile = a.profile;
    let rule = match a.query {
        QueryArg::Drop => QueryRule::Drop,
        QueryArg::Reorder => QueryRule::Reorder,
    };
    let draft = profile.part("directive").is_some();
    // --equiv's default is a line of `true` or `false`.
    let columns = if a.equiv {
        equiv_columns()
    } else {
        columns(draft)
    };
    let out = super::rows_out(&a.rows, columns, a.equiv);
    super::run_lines(
        &a.inputs,
        a.threads.threads,
        out,
        || (String::new(), Vec::new()),
        |(message, json), rec, at, out| {
            if a.equiv {
                return equiv(profile, rule, rec, &at, out);
            }
            let Out::Rows(out) = out else { return };
            let line = match rec {
                Ok(line) => line,
                Err(m) => return invalid_row(out, draft, ErrorCell::format(m, None), at.line),
            };
            let Ok(text) = std::str::from_utf8(line) else {
                // The grammar's error: where the first byte that is not ASCII is.
                let e = urilex::Parser::new()
                    .profile(profile)
                    .parse_bytes(line)
                    .unwrap_err();
                return invalid_row(out, draft, ErrorCell::parse(e, line), at.line);
            };
            match Urn::parse_with(profile, text) {
                Ok(u) => {
                    let mut cells = vec![
                        Cell::U64(at.line),
                        Cell::Bool(true),
                        Cell::Text(u.nid().as_bytes()),
                        Cell::Text(u.nss().as_bytes()),
                        opt(u.r_component()),
                        opt(u.q_component()),
                        opt(u.f_component()),
                    ];
                    if draft {
                        json.clear();
                        json.push(b'[');
                        for (i, (k, v)) in u.directives().enumerate() {
                            json.extend_from_slice(if i == 0 { b"[" } else { b",[" });
                            json_text(json, k.as_bytes());
                            json.push(b',');
                            json_text(json, v.as_bytes());
                            json.push(b']');
                        }
                        json.push(b']');
                        cells.push(Cell::Json(json));
                    }
                    cells.push(Cell::Null);
                    out.push(cells);
                }
                Err(e) => {
                    // The URN module's message (the draft's NID rule says
                    // more than the grammar's).
                    message.clear();
                    let _ = write!(message, "{e}");
                    let mut cell = ErrorCell::parse(e.error, line);
                    cell.message = Message::Text(message);
                    invalid_row(out, draft, cell, at.line)
                }
            }
        },
    )
}

/// A `urn --equiv` record: `a<TAB>b` compared, as a row or a text line
/// (`true`, `false`, or `ERROR FILE:LINE: message`).
fn equiv(profile: Profile, rule: QueryRule, rec: Record<'_>, at: &At, out: &mut Out<'_>) {
    let pair = rec.and_then(|line| {
        let text = std::str::from_utf8(line).map_err(|_| "not UTF-8")?;
        text.split_once('\t')
            .ok_or("expected two URNs separated by a tab")
    });
    let verdict = pair.map_err(str::to_string).and_then(|(x, y)| {
        match (Urn::parse_with(profile, x), Urn::parse_with(profile, y)) {
            (Ok(x), Ok(y)) => Ok(x.equivalent(&y, rule)),
            (Err(e), _) | (_, Err(e)) => Err(e.to_string()),
        }
    });
    match out {
        Out::Text(t) => {
            let _ = match &verdict {
                Ok(v) => writeln!(t, "{v}"),
                Err(m) => writeln!(t, "ERROR {at}: {m}"),
            };
        }
        Out::Rows(r) => {
            let (x, y) = match pair {
                Ok((x, y)) => (Cell::Text(x.as_bytes()), Cell::Text(y.as_bytes())),
                Err(_) => (Cell::Null, Cell::Null),
            };
            let (v, e) = match &verdict {
                Ok(v) => (Cell::Bool(*v), Cell::Null),
                Err(m) => (Cell::Null, ErrorCell::other("urn", m).into()),
            };
            r.push([Cell::U64(at.line), x, y, v, e]);
        }
    }
}

fn opt(s: Option<&str>) -> Cell<'_> {
    s.map_or(Cell::Null, |s| Cell::Text(s.as_bytes()))
}

/// The row of a record that is not a URN: every part null, and the error.
fn invalid_row(out: &mut Rows, draft: bool, e: ErrorCell<'_>, line: u64) {
    let valid = match e.kind {
        "format" => Cell::Null,
        _ => Cell::Bool(false),
    };
    let mut cells = vec![Cell::U64(line), valid];
    cells.extend((0..5 + usize::from(draft)).map(|_| Cell::Null));
    cells.push(e.into());
    out.push(cells);
}
