//! `urilex validate`'s counts as a library sink: each worker counts the
//! verdicts of its chunks ([`Verdicts`]), the counts are added in input
//! order, and [`Pipeline::validate`] returns the sum. Plain lines take the
//! engine's shortest way (`urilex::validate_lines`: a verdict per line, no
//! record kept); other formats count each record's references, and the
//! records that give none (`format_errors`, `absent`) apart.
//!
//! ```
//! use urilex_io::rows::Engine;
//! use urilex_io::run::Pipeline;
//! use urilex_io::source::ReadOptions;
//!
//! let path = std::env::temp_dir().join(format!("urilex-verdicts-{}", std::process::id()));
//! std::fs::write(&path, "http://a/\nhttp://a b/\n/x\n").unwrap();
//! let files = [path.clone()];
//! let engine = Engine::lines(urilex::Profile::Rfc3986, 1 << 20);
//! let pipeline = Pipeline { files: &files, read: ReadOptions::default(), engine: &engine, threads: 2 };
//! let v = pipeline.validate(&mut |m| panic!("{m}")).unwrap();
//! assert_eq!((v.counts.total, v.counts.valid, v.invalid()), (3, 2, 1));
//! # std::fs::remove_file(path).unwrap();
//! ```

use crate::rows::{ChunkRows, Value};
use crate::run::{Done, Pipeline, RunError};
use crate::source::{ChunkKind, ReadOptions};
use std::io::{self, Write};

/// The verdicts of a run: references by validity (and invalid ones by
/// error kind), and the records that gave none.
#[derive(Default, Clone, Copy, Debug)]
pub struct Verdicts {
    /// References: total, valid, invalid by kind.
    pub counts: urilex::Counts,
    /// Records that do not fit their format (or are over the length limit).
    pub format_errors: u64,
    /// Records without a reference (a referer of `-`, a missing JSON
    /// field).
    pub absent: u64,
}

impl Verdicts {
    /// Adds `o`'s counts.
    pub fn add(&mut self, o: &Verdicts) {
        self.counts.add(&o.counts);
        self.format_errors += o.format_errors;
        self.absent += o.absent;
    }

    /// Invalid references and records that do not fit their format: what
    /// makes `validate` exit 1.
    pub fn invalid(&self) -> u64 {
        (self.counts.total - self.counts.valid) as u64 + self.format_errors
    }

    /// Counts URI column `u` of row `r`; the value when it is a valid
    /// reference (for a caller that counts more of it: `urilex stats`).
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

    /// The counts as `name<TAB>count` lines: total, valid, invalid and
    /// each kind that occurred; `format_errors` and `absent` where the
    /// input has records (`records`), or when a line was over the limit.
    pub fn write(&self, out: &mut impl Write, records: bool) -> io::Result<()> {
        let c = &self.counts;
        writeln!(out, "total\t{}", c.total)?;
        writeln!(out, "valid\t{}", c.valid)?;
        writeln!(out, "invalid\t{}", c.total - c.valid)?;
        for (k, n) in urilex::ErrorKind::ALL.iter().zip(c.invalid) {
            if n > 0 {
                writeln!(out, "invalid.{}\t{n}", k.as_str())?;
            }
        }
        if records || self.format_errors > 0 {
            writeln!(out, "format_errors\t{}", self.format_errors)?;
        }
        if records {
            writeln!(out, "absent\t{}", self.absent)?;
        }
        Ok(())
    }
}

impl Pipeline<'_> {
    /// The verdicts of every record's references (all URI columns); an
    /// input that cannot be read goes to `fault` and the others are still
    /// read.
    pub fn validate(&self, fault: &mut dyn FnMut(&str)) -> Result<Verdicts, RunError> {
        let mut all = Verdicts::default();
        let mut sink = |done: Done<Verdicts>| -> Result<(), RunError> {
            match done {
                Done::Rows(t, _) => all.add(&t),
                Done::Fault(m) => fault(&m),
            }
            Ok(())
        };
        if self.engine.extractor.format.is_lines() {
            // Plain lines: a verdict per line straight from the bytes.
            let parser = self.engine.parser(self.engine.extractor.syntax);
            let pipeline = Pipeline {
                read: ReadOptions {
                    chunk_bytes: 4 << 20,
                    number_lines: false,
                    ..self.read
                },
                ..*self
            };
            pipeline.run_chunks(
                || (),
                |_, c| match c.kind {
                    ChunkKind::Records => Verdicts {
                        counts: urilex::validate_lines(&parser, &c.data),
                        ..Verdicts::default()
                    },
                    ChunkKind::Overlong { .. } => Verdicts {
                        format_errors: 1,
                        ..Verdicts::default()
                    },
                },
                &mut sink,
            )?;
        } else {
            self.run(
                || (),
                |_, rows| {
                    let mut t = Verdicts::default();
                    for r in 0..rows.len() {
                        for u in 0..rows.ex.uris.len() {
                            t.count(rows, u, r);
                        }
                    }
                    t
                },
                &mut sink,
            )?;
        }
        Ok(all)
    }
}
