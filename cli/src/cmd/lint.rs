//! `urilex lint`: security hazards, one row per record: `line`, `input`,
//! `valid`, `lints` (objects with `kind`, `start`, `end`, `text`), `error`
//! (the error object of every row); with `--whatwg`, a `whatwg` column (the
//! URL Standard's reading) and the differences between the two readings
//! among the lints (docs/security.md).

use super::Out;
use crate::args::{InputsArg, ProfileArg, RowsArg, ThreadsArg};
use crate::failure::Failure;
use urilex::whatwg::{Base, Differential};
use urilex::Parser;
use urilex_io::model::{Cell, Columns, ErrorCell, Type};
use urilex_io::rows::Uri;
use urilex_io::text::{json_text, put_u64};

#[derive(clap::Args)]
#[command(after_help = "Examples:
  urilex lint access.log        each line: input, valid, and its lints with kind and span
  echo 'http://u:p@h/' | urilex lint
  urilex lint --format parquet -o lints.parquet urls.txt
  urilex lint --whatwg --only-differences --input combined --field referer access.log
                                where a browser reads another host than RFC 3986
  urilex lint --whatwg --whatwg-base https://your.host/ --input combined access.log
                                the targets read as links of your site")]
pub struct Args {
    #[command(flatten)]
    pub profile: ProfileArg,
    /// Read each reference as the WHATWG URL Standard does too (browsers,
    /// Rust's `url` crate): a `whatwg` column (scheme, host, port, path,
    /// href; null when the Standard rejects it), and how the readings
    /// differ among the lints (`whatwg-host-differs`, `whatwg-only`,
    /// `rfc-only`, and the class: docs/security.md).
    #[arg(long)]
    pub whatwg: bool,
    /// With --whatwg: only the rows where the readings differ.
    #[arg(long, requires = "whatwg")]
    pub only_differences: bool,
    /// With --whatwg: read each reference against this base URL, as a
    /// browser reads a page's links (RFC 3986 5.2.2 takes the host from it
    /// too when a reference has none).
    #[arg(long, value_name = "URL", requires = "whatwg")]
    pub whatwg_base: Option<String>,
    #[command(flatten)]
    pub rows: RowsArg,
    #[command(flatten)]
    pub threads: ThreadsArg,
    #[command(flatten)]
    pub inputs: InputsArg,
}

/// The columns of a `lint` row (`whatwg` after `lints` with `--whatwg`).
pub fn columns(whatwg: bool) -> Columns {
    let mut c = vec![
        ("line", Type::U64, false),
        ("input", Type::Text, true),
        ("valid", Type::Bool, true),
        ("lints", Type::Json, true),
    ];
    if whatwg {
        c.push(("whatwg", Type::Json, true));
    }
    c.push(("error", Type::Error, true));
    Columns::of(c)
}

/// A worker's scratch: the lints' JSON and the WHATWG reading's.
#[derive(Default)]
struct Scratch {
    lints: Vec<u8>,
    whatwg: Vec<u8>,
}

pub fn run(a: Args) -> Result<(), Failure> {
    let base = match &a.whatwg_base {
        Some(b) => {
            Some(Base::parse(b).map_err(|e| Failure::Message(format!("--whatwg-base {e}")))?)
        }
        None => None,
    };
    let out = super::rows_out(&a.rows, columns(a.whatwg), false);
    // The engine parses each record's reference under the profile: its
    // reading is taken from the batch, not parsed again.
    let engine = a
        .inputs
        .engine(a.profile.profile, urilex::Syntax::Reference)
        .map_err(Failure::Message)?;
    let pipeline = urilex_io::run::Pipeline {
        files: &a.inputs.files,
        // A lint row is several times its record: chunks of 256 KiB keep
        // the rows' buffers small enough to stay in the cache and to be
        // reused rather than faulted in again.
        read: urilex_io::source::ReadOptions {
            chunk_bytes: 1 << 18,
            ..a.inputs.read_options(true)
        },
        engine: &engine,
        threads: a.threads.count(),
    };
    super::run_rows(&pipeline, out, Scratch::default, |s, rows, out| {
        let Out::Rows(out) = out else { return };
        for r in 0..rows.len() {
            let (rec, parsed) = match rows.uri(0, r) {
                Uri::Parsed(p) => (Ok(rows.text(0, r).unwrap_or_default()), Some(p)),
                Uri::Format(e) => (Err(e.message.as_str()), None),
                Uri::Absent => (Err("no reference in this record"), None),
                Uri::Asterisk => (Ok(&b"*"[..]), None),
            };
            row(&a, base.as_ref(), s, rec, parsed, rows.line(r), out);
        }
    })
}

/// A record's row: its reference's lints (and WHATWG reading), or the
/// error of a record that does not fit its format.
fn row(
    a: &Args,
    base: Option<&Base>,
    s: &mut Scratch,
    rec: Result<&[u8], &str>,
    parsed: Option<Result<urilex::UriRef<'_>, urilex::ParseError>>,
    at: u64,
    out: &mut urilex_io::table::Rows,
) {
    let line = Cell::U64(at);
    let input = match rec {
        Ok(input) => input,
        Err(m) => {
            // The record did not fit its format: no reference.
            let e = ErrorCell::format(m, None).into();
            if a.only_differences {
                return;
            }
            let mut cells = vec![line, Cell::Null, Cell::Null, Cell::Json(b"[]")];
            if a.whatwg {
                cells.push(Cell::Null);
            }
            cells.push(e);
            return out.push(cells);
        }
    };
    // `*` (OPTIONS): not a reference, and nothing to lint.
    let parsed = parsed.unwrap_or_else(|| parser_for_asterisk(input));
    let (lints, whatwg) = (&mut s.lints, &mut s.whatwg);
    lints.clear();
    lints.push(b'[');
    if let Ok(u) = &parsed {
        for l in u.lints() {
            if lints.len() > 1 {
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
    }
    let mut cells = Vec::with_capacity(6);
    cells.push(line);
    cells.push(Cell::Text(input));
    cells.push(Cell::Bool(parsed.is_ok()));
    if a.whatwg {
        let d = Differential::of(input, parsed.as_ref().ok(), base);
        if a.only_differences && d.differences.is_empty() {
            return;
        }
        for k in &d.differences {
            if lints.len() > 1 {
                lints.push(b',');
            }
            lints.extend_from_slice(b"{\"kind\":\"");
            lints.extend_from_slice(k.as_str().as_bytes());
            lints.extend_from_slice(b"\",\"start\":null,\"end\":null,\"text\":null}");
        }
        lints.push(b']');
        cells.push(Cell::Json(lints));
        whatwg.clear();
        match &d.reading {
            None => cells.push(Cell::Null),
            Some(r) => {
                for (i, (k, v)) in [
                    ("scheme", r.scheme()),
                    ("host", r.host()),
                    ("port", r.port()),
                    ("path", r.path()),
                    ("href", r.href()),
                ]
                .into_iter()
                .enumerate()
                {
                    whatwg.extend_from_slice(if i == 0 { b"{\"" } else { b",\"" });
                    whatwg.extend_from_slice(k.as_bytes());
                    whatwg.extend_from_slice(b"\":");
                    json_text(whatwg, v.as_bytes());
                }
                whatwg.push(b'}');
                cells.push(Cell::Json(whatwg));
            }
        }
    } else {
        lints.push(b']');
        cells.push(Cell::Json(lints));
    }
    cells.push(match parsed {
        Ok(_) => Cell::Null,
        Err(e) => ErrorCell::parse(e, input).into(),
    });
    out.push(cells);
}

/// The asterisk-form target's reading (RFC 3986 has no `*` reference).
fn parser_for_asterisk(input: &[u8]) -> Result<urilex::UriRef<'_>, urilex::ParseError> {
    Parser::new().parse_bytes(input)
}
