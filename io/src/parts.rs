//! Part files (`-o DIR/`), one per worker's run of chunks
//! (`part-00000.jsonl`, `part-00001.jsonl`, ...: in input order when their
//! names are sorted), written by the workers themselves, so that no one
//! file's writes are the bottleneck.

use crate::columnar::{encode_row_group, BatchBuilder, ParquetSink};
use crate::compress::{Compression, Framer};
use crate::pipeline::run_ordered_in_flight;
use crate::rows::{ChunkRows, Worker};
use crate::run::{OutputFormat, Pipeline, Report, RowOutput, RunError, Summary, Work};
use crate::text::{TextFormat, TextWriter};
use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// Where part files go, and what each holds.
#[derive(Clone, Debug)]
pub struct Parts {
    /// The directory (made if missing; it must hold no part files yet).
    pub dir: PathBuf,
    /// Text rows compressed (the name gets `.zst` or `.gz`).
    pub compress: Option<Compression>,
    /// About how many input bytes a part's run of chunks holds (a part
    /// ends after the chunk that reaches it).
    pub input_bytes: u64,
}

/// [`Parts::input_bytes`] unless told: 32 MiB of input, 32 parts a
/// gigabyte, so that 16 workers each write about two.
pub const DEFAULT_PART_INPUT: u64 = 32 << 20;

impl Parts {
    /// Makes the directory, and refuses one that holds part files already
    /// (a part left from an earlier run would be read as this run's).
    pub fn prepare(&self) -> io::Result<()> {
        std::fs::create_dir_all(&self.dir)?;
        for e in std::fs::read_dir(&self.dir)? {
            let name = e?.file_name();
            let name = name.to_string_lossy();
            if name.starts_with("part-") || name.starts_with(".part-") {
                return Err(io::Error::new(
                    io::ErrorKind::AlreadyExists,
                    format!(
                        "it holds part files already ({name}): remove them, or give another directory"
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The name of part `index` in `format`: `part-00000.jsonl`, with
    /// `.zst` or `.gz` when compressed.
    pub fn name(&self, index: u64, format: OutputFormat) -> String {
        let ext = match format {
            OutputFormat::Jsonl => "jsonl",
            OutputFormat::Tsv => "tsv",
            OutputFormat::Csv => "csv",
            OutputFormat::Arrow => "arrows",
            OutputFormat::Parquet => "parquet",
        };
        let z = match (format.is_text(), self.compress) {
            (true, Some(c)) => c.extension(),
            _ => "",
        };
        format!("part-{index:05}.{ext}{z}")
    }

    /// Removes the parts still being written (hidden `.part-` files), for
    /// an interrupt: the parts in the directory are then whole ones.
    pub fn remove_partial(dir: &Path) {
        if let Ok(entries) = std::fs::read_dir(dir) {
            for e in entries.flatten() {
                if e.file_name().to_string_lossy().starts_with(".part-") {
                    let _ = std::fs::remove_file(e.path());
                }
            }
        }
    }
}

/// What goes into every part: the format, the header line (TSV, CSV),
/// the Arrow schema (Arrow, Parquet).
#[derive(Clone)]
pub struct PartKind {
    /// The format.
    pub format: OutputFormat,
    /// Written first in each text part (empty for none).
    pub header: Vec<u8>,
    /// The columns, for Arrow and Parquet parts.
    pub arrow: SchemaRef,
}

/// One part, being written by one worker under a hidden name
/// (`.part-00000.jsonl.partial`), given its name when whole.
pub struct Part {
    hidden: PathBuf,
    path: PathBuf,
    inner: Inner,
    framed: Vec<u8>,
}

enum Inner {
    Text(File),
    Arrow(arrow_ipc::writer::StreamWriter<BufWriter<File>>),
    Parquet(ParquetSink<BufWriter<File>>),
}

fn other(e: impl std::fmt::Display) -> RunError {
    RunError::Other(e.to_string())
}

impl Part {
    /// Starts part `index` of `parts` (its header or schema written).
    pub fn create(
        parts: &Parts,
        index: u64,
        kind: &PartKind,
        framer: &mut Framer,
    ) -> Result<Part, RunError> {
        let name = parts.name(index, kind.format);
        let path = parts.dir.join(&name);
        let hidden = parts.dir.join(format!(".{name}.partial"));
        let file = File::create(&hidden)?;
        let mut framed = Vec::new();
        let inner = match kind.format {
            OutputFormat::Arrow => Inner::Arrow(
                arrow_ipc::writer::StreamWriter::try_new(BufWriter::new(file), &kind.arrow)
                    .map_err(other)?,
            ),
            OutputFormat::Parquet => Inner::Parquet(
                ParquetSink::new(BufWriter::new(file), kind.arrow.clone()).map_err(other)?,
            ),
            _ => {
                let mut file = file;
                // The header; compressed, a frame of its own (an empty one
                // when there is none: a part of no rows is a valid stream).
                if !kind.header.is_empty() || framer.compresses() {
                    framer.frame(&kind.header, &mut framed)?;
                    file.write_all(&framed)?;
                }
                Inner::Text(file)
            }
        };
        Ok(Part {
            hidden,
            path,
            inner,
            framed,
        })
    }

    /// Writes a chunk's text rows (compressed as `framer` says).
    pub fn text(&mut self, text: &[u8], framer: &mut Framer) -> Result<(), RunError> {
        let Inner::Text(f) = &mut self.inner else {
            return Err(RunError::Other(
                "text rows for an Arrow or Parquet part".into(),
            ));
        };
        if text.is_empty() {
            return Ok(());
        }
        if framer.compresses() {
            framer.frame(text, &mut self.framed)?;
            f.write_all(&self.framed)?;
        } else {
            f.write_all(text)?;
        }
        Ok(())
    }

    /// Writes a chunk's rows as a record batch (Arrow) or row group
    /// (Parquet).
    pub fn batch(&mut self, batch: &RecordBatch) -> Result<(), RunError> {
        if batch.num_rows() == 0 {
            return Ok(());
        }
        match &mut self.inner {
            Inner::Arrow(w) => w.write(batch).map_err(other),
            Inner::Parquet(s) => {
                let rg = encode_row_group(&s.encoder(), batch).map_err(other)?;
                s.append(rg).map_err(other)
            }
            Inner::Text(_) => Err(RunError::Other("a record batch for a text part".into())),
        }
    }

    /// Ends the part (Arrow's end marker, Parquet's footer) and gives it
    /// its name.
    pub fn finish(self) -> Result<(), RunError> {
        let hidden = self.hidden.clone();
        let r = (|| -> Result<(), RunError> {
            match self.inner {
                Inner::Text(f) => drop(f),
                Inner::Arrow(mut w) => {
                    w.finish().map_err(other)?;
                    w.into_inner().map_err(other)?.flush()?;
                }
                Inner::Parquet(s) => s.finish().map_err(other)?,
            }
            std::fs::rename(&self.hidden, &self.path)?;
            Ok(())
        })();
        if r.is_err() {
            let _ = std::fs::remove_file(&hidden);
        }
        r
    }

    /// Gives the part up after a failure: its hidden file is removed.
    pub fn abandon(self) {
        let _ = std::fs::remove_file(&self.hidden);
    }
}

/// A worker's part for its run of chunks: opened at the run's first
/// chunk, written chunk by chunk, named when the run ends.
pub struct PartWriter<'a> {
    parts: &'a Parts,
    kind: &'a PartKind,
    index: u64,
    part: Option<Part>,
    framer: &'a mut Framer,
}

impl PartWriter<'_> {
    fn open(&mut self) -> Result<&mut Part, RunError> {
        if self.part.is_none() {
            let p = Part::create(self.parts, self.index, self.kind, self.framer)?;
            self.part = Some(p);
        }
        Ok(self.part.as_mut().expect("opened"))
    }

    /// A chunk's text rows (compressed as the parts say).
    pub fn text(&mut self, text: &[u8]) -> Result<(), RunError> {
        self.open()?;
        let part = self.part.as_mut().expect("opened");
        part.text(text, self.framer)
    }

    /// A chunk's rows as a record batch (Arrow and Parquet parts).
    pub fn batch(&mut self, batch: &RecordBatch) -> Result<(), RunError> {
        self.open()?.batch(batch)
    }
}

/// Consecutive jobs, about `bytes` of input together: a part's run.
struct Runs<I> {
    jobs: I,
    bytes: u64,
}

impl<I: Iterator<Item = Work>> Iterator for Runs<I> {
    type Item = Vec<Work>;
    fn next(&mut self) -> Option<Vec<Work>> {
        let mut run = Vec::new();
        let mut bytes = 0u64;
        for w in self.jobs.by_ref() {
            if let Work::Job(j) = &w {
                bytes += j.chunk.data.len() as u64;
            }
            run.push(w);
            if bytes >= self.bytes {
                break;
            }
        }
        (!run.is_empty()).then_some(run)
    }
}

/// What a worker's run came to: rows written, input bytes, the inputs'
/// faults met (in order), and whether its part was written whole.
struct RunDone {
    rows: u64,
    bytes: u64,
    faults: Vec<String>,
    result: Result<(), RunError>,
    /// Whether it wrote a part (a run of faults alone writes none).
    part: bool,
}

impl Pipeline<'_> {
    /// Writes part files into `parts.dir`: the inputs' chunks in runs of
    /// about `parts.input_bytes`, each run read, parsed and written by one
    /// worker into its own part (`part-00000.jsonl`, ...), so that the
    /// parts' names in order are the rows in order, and no one file's
    /// writes hold the workers back. `chunk` writes a chunk's rows into the
    /// worker's part and says how many it wrote. The inputs' faults are
    /// reported in order, after the rows of the run they were met in.
    pub fn write_parts<S: Send>(
        &self,
        parts: &Parts,
        kind: &PartKind,
        init: impl Fn() -> S + Sync,
        chunk: impl Fn(&mut S, &ChunkRows<'_>, &mut PartWriter<'_>) -> Result<usize, RunError> + Sync,
        report: Report<'_>,
    ) -> Result<Summary, RunError> {
        parts.prepare()?;
        let runs = Runs {
            jobs: self.jobs(),
            bytes: parts.input_bytes.max(1),
        };
        let engine = self.engine;
        let compress = if kind.format.is_text() {
            parts.compress
        } else {
            None
        };
        let mut summary = Summary::default();
        let Report { fault, progress } = report;
        let mut any = false;
        // Runs are large: one being worked on per worker, and one waiting.
        run_ordered_in_flight(
            self.threads,
            self.threads + 1,
            false,
            (0u64..).zip(runs),
            || (Worker::default(), init(), Framer::new(compress)),
            |(worker, state, framer), (index, run)| {
                let mut done = RunDone {
                    rows: 0,
                    bytes: 0,
                    faults: Vec::new(),
                    result: Ok(()),
                    part: false,
                };
                let mut w = PartWriter {
                    parts,
                    kind,
                    index,
                    part: None,
                    framer,
                };
                for work in run {
                    match work {
                        Work::Fault(m) => done.faults.push(m),
                        Work::Job(job) if done.result.is_ok() => {
                            done.bytes += job.chunk.input_bytes;
                            let r = job
                                .chunk
                                .data
                                .with_pages(|_| chunk(state, &worker.parse(engine, &job), &mut w));
                            match r {
                                Ok(n) => done.rows += n as u64,
                                Err(e) => done.result = Err(e),
                            }
                        }
                        Work::Job(_) => {}
                    }
                }
                if let Some(part) = w.part.take() {
                    done.part = true;
                    done.result = match done.result {
                        Ok(()) => part.finish(),
                        Err(e) => {
                            part.abandon();
                            Err(e)
                        }
                    };
                }
                done
            },
            |done: RunDone| -> Result<(), RunError> {
                any |= done.part;
                summary.rows += done.rows;
                summary.faults += done.faults.len() as u64;
                for m in &done.faults {
                    fault(m);
                }
                progress(done.bytes);
                done.result
            },
        )?;
        if !any {
            // No rows at all: one part still, as one file would be (its
            // header, a valid compressed stream, an Arrow or Parquet file
            // of no rows).
            Part::create(parts, 0, kind, &mut Framer::new(compress))?.finish()?;
        }
        Ok(summary)
    }

    /// [`Pipeline::write`] into part files (parse rows in any format).
    pub fn write_rows_parts(
        &self,
        rows: RowOutput<'_>,
        parts: &Parts,
        report: Report<'_>,
    ) -> Result<Summary, RunError> {
        let builder = BatchBuilder::new(rows.schema.clone());
        let tf = rows.format.text().unwrap_or(TextFormat::Csv);
        let header = if rows.header && rows.format.is_text() && tf != TextFormat::Jsonl {
            TextWriter::new(tf, rows.schema.clone()).header()
        } else {
            Vec::new()
        };
        let kind = PartKind {
            format: rows.format,
            header,
            arrow: builder.arrow_schema(),
        };
        let schema = rows.schema;
        if rows.format.is_text() {
            self.write_parts(
                parts,
                &kind,
                || (TextWriter::new(tf, schema.clone()), Vec::new()),
                |(w, buf), rows, part| {
                    let len = w.write(rows, buf);
                    part.text(&buf[..len])?;
                    Ok(rows.len())
                },
                report,
            )
        } else {
            self.write_parts(
                parts,
                &kind,
                || (),
                |_, rows, part| {
                    let batch = builder.build(rows);
                    part.batch(&batch)?;
                    Ok(batch.num_rows())
                },
                report,
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn part_names_sort_in_order() {
        let p = Parts {
            dir: "d".into(),
            compress: Some(Compression::Gzip(6)),
            input_bytes: 1,
        };
        assert_eq!(p.name(7, OutputFormat::Jsonl), "part-00007.jsonl.gz");
        assert_eq!(p.name(12, OutputFormat::Parquet), "part-00012.parquet");
        let mut names: Vec<String> = [10_000u64, 3, 99_999, 10]
            .iter()
            .map(|&i| p.name(i, OutputFormat::Tsv))
            .collect();
        names.sort();
        assert_eq!(names[0], "part-00003.tsv.gz");
        assert_eq!(names[1], "part-00010.tsv.gz");
        assert_eq!(names[3], "part-99999.tsv.gz");
    }
}
