//! `urilex validate`: counts of valid and invalid references.

use crate::args::{InputsArg, ProfileArg, ThreadsArg};
use crate::failure::Failure;
use std::io::{self, Write};
use urilex::Parser;
use urilex_io::rows::{ChunkRows, Value};

#[derive(clap::Args)]
#[command(after_help = "Examples:
  urilex validate urls.txt                   counts; exit 0 when every line is valid
  urilex validate --threads 1 a.txt b.txt    one thread, two files
  urilex validate --input combined access.log.gz
                                             request targets of a compressed log
  zcat big.txt.gz | urilex validate          streamed, in bounded memory
Records that do not fit the input format are counted apart (`format_errors`),
and so are records without a reference (`absent`, as a JSON field that is
missing).")]
pub struct Args {
    #[command(flatten)]
    pub profile: ProfileArg,
    #[command(flatten)]
    pub threads: ThreadsArg,
    #[command(flatten)]
    pub inputs: InputsArg,
}

/// Counts of a run: the library's, and the records that gave no reference.
#[derive(Default, Clone, Copy)]
pub struct Tally {
    pub counts: urilex::Counts,
    pub format_errors: u64,
    pub absent: u64,
}

impl Tally {
    pub fn add(&mut self, o: &Tally) {
        self.counts.add(&o.counts);
        self.format_errors += o.format_errors;
        self.absent += o.absent;
    }

    /// Counts row `r`'s reference in URI column `u`; its parts when valid.
    pub fn count<'a>(&mut self, rows: &ChunkRows<'a>, u: usize, r: usize) -> Option<Value<'a>> {
        let v = rows.value(u, r);
        let c = &mut self.counts;
        match &v {
            Value::Absent => self.absent += 1,
            Value::Format(_) => self.format_errors += 1,
            Value::Asterisk => {
                c.total += 1;
                c.valid += 1;
            }
            Value::Entry {
                entry,
                batch,
                index,
                ..
            } => {
                c.total += 1;
                if entry.is_valid() {
                    c.valid += 1;
                    return Some(v);
                }
                // The record is decoded again only for an invalid reference.
                if let Some(e) = batch.error(*index) {
                    c.invalid[e.kind as usize] += 1;
                }
            }
            Value::Single(res, _) => {
                c.total += 1;
                match res {
                    Ok(_) => {
                        c.valid += 1;
                        return Some(v);
                    }
                    Err(e) => c.invalid[e.kind() as usize] += 1,
                }
            }
        }
        None
    }
}

pub fn run(a: Args) -> Result<(), Failure> {
    let threads = a.threads.count();
    let engine = a
        .inputs
        .engine(a.profile.profile, urilex::Syntax::Reference)
        .map_err(Failure::Message)?;
    let mut tally = Tally::default();
    let mut failed = false;
    let lines = a.inputs.input.is_lines();
    if lines {
        // Verdicts only (`validate_lines`: no spans are kept), a diagnosis
        // for invalid lines; the lines are not numbered.
        let parser = Parser::new().profile(a.profile.profile);
        let read = urilex_io::source::ReadOptions {
            chunk_bytes: 4 << 20,
            ..a.inputs.read_options(false)
        };
        urilex_io::run::Pipeline {
            files: &a.inputs.files,
            read,
            engine: &engine,
            threads,
        }
        .run_chunks(
            || (),
            |_, c| match c.kind {
                urilex_io::source::ChunkKind::Records => Tally {
                    counts: urilex::validate_lines(&parser, &c.data),
                    ..Tally::default()
                },
                urilex_io::source::ChunkKind::Overlong { .. } => Tally {
                    format_errors: 1,
                    ..Tally::default()
                },
            },
            |done| -> Result<(), Failure> {
                match done {
                    urilex_io::run::Done::Rows(t, _) => tally.add(&t),
                    urilex_io::run::Done::Fault(m) => {
                        failed = true;
                        crate::failure::say(&m);
                    }
                }
                Ok(())
            },
        )?;
    } else {
        urilex_io::run::Pipeline {
            files: &a.inputs.files,
            read: a.inputs.read_options(true),
            engine: &engine,
            threads,
        }
        .run(
            || (),
            |_, rows| {
                let mut t = Tally::default();
                for r in 0..rows.len() {
                    for u in 0..rows.ex.uris.len() {
                        t.count(rows, u, r);
                    }
                }
                t
            },
            |done| -> Result<(), Failure> {
                match done {
                    urilex_io::run::Done::Rows(t, _) => tally.add(&t),
                    urilex_io::run::Done::Fault(m) => {
                        failed = true;
                        crate::failure::say(&m);
                    }
                }
                Ok(())
            },
        )?;
    }
    let mut out = io::stdout().lock();
    write_counts(&mut out, &tally, !lines)?;
    out.flush()?;
    let c = tally.counts;
    let invalid = (c.total - c.valid) as u64 + tally.format_errors;
    Failure::of(u64::from(failed), invalid)
}

/// The counts block that `validate` and `stats` print (records that gave
/// no reference too, for the formats that can have them, or when any
/// line was over the limit).
pub fn write_counts(out: &mut impl Write, t: &Tally, records: bool) -> io::Result<()> {
    let c = &t.counts;
    writeln!(out, "total\t{}", c.total)?;
    writeln!(out, "valid\t{}", c.valid)?;
    writeln!(out, "invalid\t{}", c.total - c.valid)?;
    for (k, n) in urilex::ErrorKind::ALL.iter().zip(c.invalid) {
        if n > 0 {
            writeln!(out, "invalid.{}\t{n}", k.as_str())?;
        }
    }
    if records || t.format_errors > 0 {
        writeln!(out, "format_errors\t{}", t.format_errors)?;
    }
    if records {
        writeln!(out, "absent\t{}", t.absent)?;
    }
    Ok(())
}
