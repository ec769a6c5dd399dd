//! The subcommands, one module each: its flags (`Args`, with the shared
//! ones flattened in from `args`), its `--help` examples, and `run`.

pub mod edit;
pub mod extract;
pub mod get;
pub mod hierarchy;
pub mod lint;
pub mod normalize;
pub mod ops;
pub mod params;
pub mod parse;
pub mod resolve;
pub mod sql;
pub mod stats;
pub mod urn;
pub mod validate;

/// Chunks handed to the batch engine: large enough for every core.
pub const BATCH_CHUNK: usize = 16 << 20;

use crate::failure::Failure;
use std::io::{self, Write};

/// Where a line is, for rows and messages: `FILE:LINE` (grep's and the
/// compilers' form; `-` is standard input).
pub struct At<'a> {
    pub name: &'a str,
    pub line: u64,
    /// The rule the record's reference is read with when its record says
    /// (an access log's request target, by its form).
    pub syntax: Option<urilex::Syntax>,
}

impl At<'_> {
    /// `parser`, reading this record's reference with the rule its record
    /// gives it, where the profile has that rule.
    pub fn parser(&self, parser: urilex::Parser) -> urilex::Parser {
        match self.syntax {
            Some(s) if parser.get_profile().entry_rule(s).is_some() => parser.syntax(s),
            _ => parser,
        }
    }
}

impl std::fmt::Display for At<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.name, self.line)
    }
}

/// A record's reference for the line-by-line subcommands: its text, or
/// why there is none (the record does not fit its format, or has no
/// reference, as a referer of `-`).
pub type Record<'a> = Result<&'a [u8], &'a str>;

/// Runs `row` on every record of every input (read as `inputs` says), on
/// `threads` workers each with state from `init`; the rows each record
/// gives are written in input order, a chunk at a time (so rows of a
/// paused stream show). An input that cannot be read is reported when met
/// and the others are still read (exit status 2).
pub fn run_lines<S: Send>(
    inputs: &crate::args::InputsArg,
    threads: usize,
    init: impl Fn() -> S + Sync,
    row: impl Fn(&mut S, Record<'_>, At, &mut Vec<u8>) -> io::Result<()> + Sync,
) -> Result<(), Failure> {
    let threads = crate::args::ThreadsArg { threads }.count();
    let engine = inputs
        .engine(urilex::Profile::Rfc3986, urilex::Syntax::Reference)
        .map_err(Failure::Message)?;
    let mut out = crate::input::output(None, false)?;
    let mut failed = false;
    let r = urilex_io::run::Pipeline {
        files: &inputs.files,
        read: inputs.read_options(true),
        engine: &engine,
        threads,
    }
    .run(
        || (init(), Vec::new()),
        |(state, buf), rows| {
            buf.clear();
            for r in 0..rows.len() {
                let at = At {
                    name: rows.name,
                    line: rows.line(r),
                    syntax: rows.form(r).and_then(|f| f.syntax()),
                };
                let rec = match rows.value(0, r) {
                    urilex_io::rows::Value::Format(e) => Err(e.message.as_str()),
                    urilex_io::rows::Value::Absent => Err("no reference in this record"),
                    _ => Ok(rows.text(0, r).unwrap_or_default()),
                };
                // Writing to a Vec does not fail.
                let _ = row(state, rec, at, buf);
            }
            buf.clone()
        },
        |done| -> Result<(), Failure> {
            match done {
                urilex_io::run::Done::Rows(b, _) => {
                    out.write_all(&b)?;
                    out.flush()?;
                }
                urilex_io::run::Done::Fault(m) => {
                    failed = true;
                    crate::failure::say(&m);
                }
            }
            Ok(())
        },
    );
    r?;
    Failure::of(u64::from(failed), 0)
}
