//! The whole way from inputs to outputs: read, take the references out,
//! parse, then hand each chunk's rows (or whatever a caller makes of them)
//! on in input order, across threads.

use crate::columnar::{encode_row_group, BatchBuilder, ParquetSink};
use crate::delimited::csv_header;
use crate::format::InputFormat;
use crate::pipeline::run_ordered;
use crate::rows::{ChunkRows, Engine, Job, Worker};
use crate::schema::Schema;
use crate::source::{Item, ReadOptions, Reader};
use crate::text::{TextFormat, TextWriter};
use std::io::{self, Write};
use std::path::PathBuf;

/// A chunk's result, or an input's fault, in input order.
pub enum Done<T> {
    /// What the caller made of a chunk's rows, and the input bytes it
    /// accounts for (for a progress display).
    Rows(T, u64),
    /// An input that could not be read, or not to its end; the message
    /// names it.
    Fault(String),
}

enum Work {
    Job(Job),
    Fault(String),
}

/// The reader's items as jobs: a TSV/CSV column given by name is looked up
/// in each input's header (an input without it is a fault, and its
/// records are skipped).
fn jobs(reader: Reader, format: InputFormat) -> impl Iterator<Item = Work> + Send + 'static {
    let mut column = match &format {
        InputFormat::Tsv(crate::format::ColumnRef::Number(n))
        | InputFormat::Csv(crate::format::ColumnRef::Number(n)) => *n,
        _ => 0,
    };
    let mut skipping: Option<usize> = None;
    reader.filter_map(move |item| match item {
        Item::Fault(m) => Some(Work::Fault(m)),
        Item::Chunk(chunk) => {
            if skipping == Some(chunk.input) {
                return None;
            }
            if let (Some(name), true) = (format.header_name(), chunk.starts_input) {
                let header = match &format {
                    InputFormat::Csv(_) => crate::delimited::csv_records(&chunk.data)
                        .next()
                        .map(|r| csv_header(r).unwrap_or_default())
                        .unwrap_or_default(),
                    _ => urilex::lines(&chunk.data)
                        .next()
                        .map(|(_, l)| l.split(|&b| b == b'\t').map(<[u8]>::to_vec).collect())
                        .unwrap_or_default(),
                };
                let strip = |h: &[u8]| h.strip_prefix(b"\xef\xbb\xbf").unwrap_or(h).to_vec();
                match header.iter().position(|h| strip(h) == name.as_bytes()) {
                    Some(k) => column = k,
                    None => {
                        skipping = Some(chunk.input);
                        let names: Vec<String> = header
                            .iter()
                            .map(|h| String::from_utf8_lossy(&strip(h)).into_owned())
                            .collect();
                        return Some(Work::Fault(format!(
                            "{}: no column `{name}` in the header (its columns: {})",
                            chunk.name,
                            names.join(", ")
                        )));
                    }
                }
            }
            Some(Work::Job(Job { chunk, column }))
        }
    })
}

/// Reads `files` (standard input when empty) and runs `each` on every
/// chunk's parsed rows on `threads` workers (each with state from
/// `init`), then `sink` on the results in input order.
pub fn process<S, T, E>(
    files: &[PathBuf],
    read: ReadOptions,
    engine: &Engine,
    threads: usize,
    init: impl Fn() -> S + Sync,
    each: impl Fn(&mut S, &ChunkRows<'_>) -> T + Sync,
    sink: impl FnMut(Done<T>) -> Result<(), E>,
) -> Result<(), E>
where
    T: Send,
{
    let read = ReadOptions {
        csv_quotes: engine.extractor.format.csv_quotes(),
        max_record_bytes: engine.extractor.max_record_bytes,
        ..read
    };
    let reader = Reader::new(files, read);
    run_ordered(
        threads,
        jobs(reader, engine.extractor.format.clone()),
        || (Worker::default(), init()),
        |(worker, state), work| match work {
            Work::Fault(m) => Done::Fault(m),
            Work::Job(job) => {
                let bytes = job.chunk.input_bytes;
                let rows = worker.parse(engine, &job);
                Done::Rows(each(state, &rows), bytes)
            }
        },
        sink,
    )
}

/// An output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputFormat {
    /// JSON Lines.
    Jsonl,
    /// TSV.
    Tsv,
    /// CSV.
    Csv,
    /// Arrow IPC stream.
    Arrow,
    /// Parquet (zstd).
    Parquet,
}

/// What a run of [`write_rows`] saw.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Rows written.
    pub rows: u64,
    /// Inputs that could not be read (each reported on `faults`).
    pub faults: u64,
}

/// Why [`write_rows`] stopped.
#[derive(Debug)]
pub enum RunError {
    /// Writing the output failed (a closed pipe among them).
    Io(io::Error),
    /// The Arrow or Parquet writer failed.
    Other(String),
}

impl From<io::Error> for RunError {
    fn from(e: io::Error) -> Self {
        RunError::Io(e)
    }
}

/// Every row of `files` in `format` to `out`: formatted (or encoded) on
/// the workers, written in order. Faults of inputs go to `faults` when
/// met; `progress` hears of each chunk's input bytes.
#[allow(clippy::too_many_arguments)]
pub fn write_rows<W: Write + Send>(
    files: &[PathBuf],
    read: ReadOptions,
    engine: &Engine,
    schema: &Schema,
    format: OutputFormat,
    header: bool,
    threads: usize,
    out: W,
    faults: &mut dyn FnMut(&str),
    progress: &mut dyn FnMut(u64),
) -> Result<Summary, RunError> {
    let mut summary = Summary::default();
    match format {
        OutputFormat::Jsonl | OutputFormat::Tsv | OutputFormat::Csv => {
            let tf = match format {
                OutputFormat::Jsonl => TextFormat::Jsonl,
                OutputFormat::Tsv => TextFormat::Tsv,
                _ => TextFormat::Csv,
            };
            let mut out = out;
            if header && tf != TextFormat::Jsonl {
                out.write_all(&TextWriter::new(tf, schema.clone()).header())?;
            }
            // Buffers go back to the workers once written.
            let pool = std::sync::Mutex::new(Vec::<Vec<u8>>::new());
            // Writing has a thread of its own, so that the copy into the
            // output (for a file in memory, the kernel's page allocation)
            // overlaps the formatting, with one worker as with several.
            let (tx, rx) = std::sync::mpsc::sync_channel::<(Vec<u8>, usize)>(1);
            std::thread::scope(|scope| -> Result<(), RunError> {
                let pool = &pool;
                let writer = scope.spawn(move || -> io::Result<()> {
                    for (buf, len) in rx {
                        out.write_all(&buf[..len])?;
                        out.flush()?;
                        if let Ok(mut p) = pool.lock() {
                            p.push(buf);
                        }
                    }
                    out.flush()
                });
                let r = process(
                    files,
                    read,
                    engine,
                    threads,
                    || TextWriter::new(tf, schema.clone()),
                    |w, rows| {
                        let mut buf = pool
                            .lock()
                            .ok()
                            .and_then(|mut p| p.pop())
                            .unwrap_or_default();
                        let len = w.write(rows, &mut buf);
                        (buf, len, rows.len())
                    },
                    |done| -> Result<(), RunError> {
                        match done {
                            Done::Rows((buf, len, n), bytes) => {
                                summary.rows += n as u64;
                                progress(bytes);
                                // A writer that stopped has its error.
                                if tx.send((buf, len)).is_err() {
                                    return Err(RunError::Other(String::new()));
                                }
                            }
                            Done::Fault(m) => {
                                summary.faults += 1;
                                faults(&m);
                            }
                        }
                        Ok(())
                    },
                );
                drop(tx);
                let w = writer
                    .join()
                    .unwrap_or_else(|_| Err(io::Error::other("the writer panicked")));
                w?;
                r
            })?;
        }
        OutputFormat::Arrow => {
            let builder = BatchBuilder::new(schema.clone());
            let mut w = arrow_ipc::writer::StreamWriter::try_new(out, &builder.arrow_schema())
                .map_err(|e| RunError::Other(e.to_string()))?;
            process(
                files,
                read,
                engine,
                threads,
                || (),
                |_, rows| builder.build(rows),
                |done| -> Result<(), RunError> {
                    match done {
                        Done::Rows(batch, bytes) => {
                            summary.rows += batch.num_rows() as u64;
                            if batch.num_rows() > 0 {
                                w.write(&batch).map_err(arrow_error)?;
                                w.flush().map_err(arrow_error)?;
                            }
                            progress(bytes);
                        }
                        Done::Fault(m) => {
                            summary.faults += 1;
                            faults(&m);
                        }
                    }
                    Ok(())
                },
            )?;
            w.finish().map_err(arrow_error)?;
            w.into_inner().map_err(arrow_error)?.flush()?;
        }
        OutputFormat::Parquet => {
            let builder = BatchBuilder::new(schema.clone());
            let mut sink = ParquetSink::new(out, builder.arrow_schema()).map_err(parquet_error)?;
            let encoder = sink.encoder();
            process(
                files,
                read,
                engine,
                threads,
                || (),
                |_, rows| {
                    let batch = builder.build(rows);
                    (batch.num_rows(), encode_row_group(&encoder, &batch))
                },
                |done| -> Result<(), RunError> {
                    match done {
                        Done::Rows((n, rg), bytes) => {
                            summary.rows += n as u64;
                            sink.append(rg.map_err(parquet_error)?)
                                .map_err(parquet_error)?;
                            progress(bytes);
                        }
                        Done::Fault(m) => {
                            summary.faults += 1;
                            faults(&m);
                        }
                    }
                    Ok(())
                },
            )?;
            sink.finish().map_err(parquet_error)?;
        }
    }
    Ok(summary)
}

fn arrow_error(e: arrow_schema::ArrowError) -> RunError {
    match e {
        arrow_schema::ArrowError::IoError(_, e) => RunError::Io(e),
        e => RunError::Other(e.to_string()),
    }
}

fn parquet_error(e: parquet::errors::ParquetError) -> RunError {
    match e {
        parquet::errors::ParquetError::External(e) => match e.downcast::<io::Error>() {
            Ok(e) => RunError::Io(*e),
            Err(e) => RunError::Other(e.to_string()),
        },
        e => RunError::Other(e.to_string()),
    }
}
