//! The whole way from inputs to outputs: read, take the references out,
//! parse, then hand each chunk's rows (or whatever a caller makes of them)
//! on in input order, across threads.

use crate::columnar::{
    encode_row_group, encode_row_group_later, BatchBuilder, EncodedRowGroup, ParquetSink,
};
use crate::compress::{Compression, Framer};
use crate::format::InputFormat;
use crate::handoff::{Handoff, Queue};
use crate::pipeline::{run_ordered, run_ordered_in_flight};
use crate::rows::{ChunkRows, Engine, Job, Worker};
use crate::schema::Schema;
use crate::source::{Chunk, Item, ReadOptions, Reader};
use crate::text::{TextFormat, TextWriter};
use arrow_array::RecordBatch;
use std::collections::BTreeMap;
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

pub(crate) enum Work {
    Job(Job),
    Fault(String),
}

/// The reader's items as jobs, each chunk with the context its format's
/// [`Sequence`](crate::format::Sequence) gives it (a header's column, a
/// W3C `#Fields:` line); a context that fails is a fault of its input,
/// whose records are then skipped.
fn jobs(reader: Reader, format: InputFormat) -> impl Iterator<Item = Work> + Send + 'static {
    let mut sequence = format.decoder().sequence();
    let mut skipping: Option<usize> = None;
    reader.filter_map(move |item| match item {
        Item::Fault(m) => Some(Work::Fault(m)),
        Item::Chunk(chunk) => {
            if skipping == Some(chunk.input) {
                return None;
            }
            match sequence.next(&chunk) {
                Ok(context) => Some(Work::Job(Job { chunk, context })),
                Err(m) => {
                    skipping = Some(chunk.input);
                    Some(Work::Fault(m))
                }
            }
        }
    })
}

/// One run of the log pipeline: the inputs, how they are cut, the engine
/// (a decoder and a parser) and the worker threads. [`Pipeline::run`]
/// hands each chunk's parsed rows to a function on the workers and the
/// results to a sink in input order; [`Pipeline::write`] and
/// [`Pipeline::write_at`] are that run with a row writer as the sink.
#[derive(Clone, Copy)]
pub struct Pipeline<'a> {
    /// The input files (standard input when empty, and for `-`).
    pub files: &'a [PathBuf],
    /// How they are cut into chunks (the format's cut and record limit
    /// are the engine's, whatever this says).
    pub read: ReadOptions,
    /// How records become rows.
    pub engine: &'a Engine,
    /// Worker threads (at least one).
    pub threads: usize,
}

/// The rows a writer writes: their schema, format, for TSV and CSV
/// whether a header line comes first, and for text whether it is
/// compressed.
#[derive(Clone, Copy)]
pub struct RowOutput<'a> {
    /// The columns.
    pub schema: &'a Schema,
    /// The format.
    pub format: OutputFormat,
    /// A header line (TSV, CSV).
    pub header: bool,
    /// Text rows compressed on the workers, a frame (member) per chunk
    /// (ignored for Arrow and Parquet, which compress their own way).
    pub compress: Option<Compression>,
}

/// Who hears of a run's inputs' faults (each when met, in order with the
/// rows) and of its progress (each chunk's input bytes).
pub struct Report<'r> {
    /// An input's fault; the message names it.
    pub fault: &'r mut dyn FnMut(&str),
    /// Input bytes done.
    pub progress: &'r mut dyn FnMut(u64),
}

/// Where [`Pipeline::write_at`] writes: a regular file from offset `start`
/// on (its own position neither used nor moved; not opened to append), by
/// up to `writers` threads at once, what they finished recorded in
/// `positions`.
pub struct FileAt<'p> {
    /// The file.
    pub file: std::fs::File,
    /// Where the rows start.
    pub start: u64,
    /// Threads writing at once.
    pub writers: usize,
    /// The record of what is written whole.
    pub positions: &'p Positions,
}

impl Pipeline<'_> {
    /// Reads the inputs and runs `each` on every chunk's parsed rows on
    /// the workers (each with state from `init`), then `sink` on the
    /// results in input order. Returns the workers' states as they ended
    /// (what each gathered, to merge: see [`crate::tally`]).
    pub fn run<S, T, E>(
        &self,
        init: impl Fn() -> S + Sync,
        each: impl Fn(&mut S, &ChunkRows<'_>) -> T + Sync,
        sink: impl FnMut(Done<T>) -> Result<(), E>,
    ) -> Result<Vec<S>, E>
    where
        T: Send,
        S: Send,
    {
        let engine = self.engine;
        // Reading on a thread of its own even beside one worker, where the
        // reader counts each chunk's line ends for the line numbers: that
        // count then runs beside the rows of the chunk before (docs/
        // performance.md, "One worker, reading apart"). Without the count a
        // chunk's reading is too little for the hand-off to pay.
        run_ordered_in_flight(
            self.threads,
            2 * self.threads + 1,
            self.read.number_lines,
            self.jobs(),
            || (Worker::default(), init()),
            |(worker, state), work| done(work, |job| each(state, &worker.parse(engine, job))),
            sink,
        )
        .map(|states| states.into_iter().map(|(_, s)| s).collect())
    }

    /// Reads the inputs and runs `each` on every chunk as it was cut, its
    /// pages mapped while it runs (no decoding, no parsing: work on the
    /// bytes themselves, as `urilex validate`'s verdicts on lines), then
    /// `sink` in input order. Returns the workers' states.
    pub fn run_chunks<S, T, E>(
        &self,
        init: impl Fn() -> S + Sync,
        each: impl Fn(&mut S, &Chunk) -> T + Sync,
        sink: impl FnMut(Done<T>) -> Result<(), E>,
    ) -> Result<Vec<S>, E>
    where
        T: Send,
        S: Send,
    {
        run_ordered(
            self.threads,
            self.jobs(),
            init,
            |state, work| done(work, |job| each(state, &job.chunk)),
            sink,
        )
    }

    /// `each` on every chunk as it was cut, one after the other on this
    /// thread, the inputs' faults in order between them: for work whose
    /// state runs from chunk to chunk (`urilex extract`'s text across
    /// chunk ends). Stops at `each`'s first error.
    pub fn each_chunk<E>(
        &self,
        mut each: impl FnMut(Done<&Chunk>) -> Result<(), E>,
    ) -> Result<(), E> {
        for work in self.jobs() {
            match done(work, |job| {
                each(Done::Rows(&job.chunk, job.chunk.input_bytes))
            }) {
                Done::Rows(r, _) => r?,
                Done::Fault(m) => each(Done::Fault(m))?,
            }
        }
        Ok(())
    }

    /// The inputs' chunks as jobs, cut as the format says (records end
    /// where its decoder's cut says, at most the engine's limit long).
    pub(crate) fn jobs(&self) -> impl Iterator<Item = Work> + Send + 'static {
        let ex = &self.engine.extractor;
        let read = ReadOptions {
            csv_quotes: ex.format.csv_quotes(),
            max_record_bytes: ex.max_record_bytes,
            ..self.read
        };
        jobs(Reader::new(self.files, read), ex.format.clone())
    }
}

/// A job's work (`each`, its chunk's pages mapped while it runs), or an
/// input's fault.
fn done<T>(work: Work, each: impl FnOnce(&Job) -> T) -> Done<T> {
    match work {
        Work::Fault(m) => Done::Fault(m),
        Work::Job(job) => {
            let bytes = job.chunk.input_bytes;
            Done::Rows(job.chunk.data.with_pages(|_| each(&job)), bytes)
        }
    }
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

impl OutputFormat {
    /// Whether rows in it are text lines (JSON Lines, TSV, CSV).
    pub fn is_text(self) -> bool {
        self.text().is_some()
    }

    /// Its text encoder's format (none for Arrow and Parquet).
    pub fn text(self) -> Option<TextFormat> {
        match self {
            OutputFormat::Jsonl => Some(TextFormat::Jsonl),
            OutputFormat::Tsv => Some(TextFormat::Tsv),
            OutputFormat::Csv => Some(TextFormat::Csv),
            OutputFormat::Arrow | OutputFormat::Parquet => None,
        }
    }
}

/// What a run of [`Pipeline::write`] saw.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Rows written.
    pub rows: u64,
    /// Inputs that could not be read (each reported on `faults`).
    pub faults: u64,
}

/// Why [`Pipeline::write`] stopped.
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

impl Pipeline<'_> {
    /// Whether the thread that writes Arrow or Parquet output has time
    /// for more than writing: with one worker it waits on it most of the
    /// run, so it makes the arrays (Arrow) or compresses the pages
    /// (Parquet) beside it; with more, one thread would not keep up, and
    /// each worker does its own.
    fn writer_has_time(&self) -> bool {
        self.threads == 1
    }

    /// Every row in `rows`' format to `out`: formatted (or encoded) on the
    /// workers, written in order.
    pub fn write<W: Write + Send>(
        &self,
        rows: RowOutput<'_>,
        out: W,
        report: Report<'_>,
    ) -> Result<Summary, RunError> {
        let mut summary = Summary::default();
        let Report {
            fault: faults,
            progress,
        } = report;
        let schema = rows.schema;
        match rows.format {
            OutputFormat::Jsonl | OutputFormat::Tsv | OutputFormat::Csv => {
                let mut end = 0;
                let report = Report {
                    fault: faults,
                    progress,
                };
                summary = self.write_text(rows, TextOut::Stream(out), report, &mut end)?;
            }
            // The record batches are encoded and written on a thread of
            // their own (`Queue`): the IPC encoder's copy of every buffer
            // and the kernel's copy into the output run beside the
            // workers, with one worker as with several. When it has time
            // (`writer_has_time`), it also makes the columns Arrow arrays
            // (Arrow's checks of their offsets and UTF-8: about a sixth of
            // the worker's instructions).
            OutputFormat::Arrow => {
                let builder = BatchBuilder::new(schema.clone());
                let arrays_there = self.writer_has_time();
                std::thread::scope(|scope| -> Result<(), RunError> {
                    let builder = &builder;
                    let arrow_schema = builder.arrow_schema();
                    let mut ipc = Queue::new(
                        scope,
                        BATCHES_QUEUED,
                        move |batches: std::sync::mpsc::Receiver<ForIpc>| {
                            let mut w = arrow_ipc::writer::StreamWriter::try_new(
                                io::BufWriter::with_capacity(IPC_BUFFER, out),
                                &arrow_schema,
                            )
                            .map_err(arrow_error)?;
                            for batch in batches {
                                let batch = match batch {
                                    ForIpc::Batch(b) => b,
                                    ForIpc::Columns(c) => builder.finish_columns(c),
                                };
                                w.write(&batch).map_err(arrow_error)?;
                                // Each batch whole in the output at once (a
                                // reader at the other end of a pipe sees it).
                                w.flush().map_err(arrow_error)?;
                            }
                            w.finish().map_err(arrow_error)?;
                            w.into_inner().map_err(arrow_error)?.flush()?;
                            Ok(())
                        },
                    );
                    self.run(
                        || (),
                        |_, rows| match arrays_there {
                            true => ForIpc::Columns(builder.build_columns(rows)),
                            false => ForIpc::Batch(builder.build(rows)),
                        },
                        counted(&mut summary, faults, progress, |batch: ForIpc| {
                            let n = batch.num_rows();
                            if n > 0 {
                                ipc.send(batch)?;
                            }
                            Ok(n)
                        }),
                    )?;
                    ipc.finish()
                })?
            }
            // When the writing side has time (`writer_has_time`), the
            // pages of the string columns (most of the bytes) are
            // compressed on a thread of their own, which appends the row
            // groups, beside the worker: zstd is about a third of the
            // worker's time.
            OutputFormat::Parquet => std::thread::scope(|scope| -> Result<(), RunError> {
                let out = Handoff::new(scope, out);
                let builder = BatchBuilder::new(schema.clone());
                let sink = ParquetSink::new(out, builder.arrow_schema()).map_err(parquet_error)?;
                let encoder = sink.encoder();
                let later = self.writer_has_time();
                let mut groups = match later {
                    false => RowGroups::Here(sink),
                    true => RowGroups::Queued(Queue::new(
                        scope,
                        ROW_GROUPS_QUEUED,
                        move |groups: std::sync::mpsc::Receiver<EncodedRowGroup>| {
                            let mut sink = sink;
                            for rg in groups {
                                sink.append(rg).map_err(parquet_error)?;
                            }
                            sink.into_inner().map_err(parquet_error)?.finish()?;
                            Ok(())
                        },
                    )),
                };
                self.run(
                    || (),
                    |_, rows| {
                        let batch = builder.build(rows);
                        let rg = match later {
                            true => encode_row_group_later(&encoder, &batch),
                            false => encode_row_group(&encoder, &batch),
                        };
                        (batch.num_rows(), rg)
                    },
                    counted(
                        &mut summary,
                        faults,
                        progress,
                        |(n, rg): (usize, parquet::errors::Result<EncodedRowGroup>)| {
                            groups.append(rg.map_err(parquet_error)?)?;
                            Ok(n)
                        },
                    ),
                )?;
                groups.finish()
            })?,
        }
        Ok(summary)
    }
}

/// Record batches waiting for the Arrow IPC thread (each a chunk's rows).
const BATCHES_QUEUED: usize = 4;

/// A chunk's rows for the Arrow IPC thread: a record batch, or (from a
/// single worker) the columns it makes into one.
enum ForIpc {
    Batch(RecordBatch),
    Columns(crate::columnar::Columns),
}

impl ForIpc {
    fn num_rows(&self) -> usize {
        match self {
            ForIpc::Batch(b) => b.num_rows(),
            ForIpc::Columns(c) => c.num_rows(),
        }
    }
}

/// Row groups waiting for the Parquet thread of a single worker (each a
/// chunk's rows, its string pages not yet compressed).
const ROW_GROUPS_QUEUED: usize = 4;

/// Where the encoded row groups go: the file's sink, or the thread that
/// compresses their pages and appends them to it.
enum RowGroups<'scope, W: Write + Send> {
    Here(ParquetSink<W>),
    Queued(Queue<'scope, EncodedRowGroup, RunError>),
}

impl<W: Write + Send> RowGroups<'_, W> {
    fn append(&mut self, rg: EncodedRowGroup) -> Result<(), RunError> {
        match self {
            RowGroups::Here(sink) => sink.append(rg).map_err(parquet_error),
            RowGroups::Queued(q) => q.send(rg),
        }
    }
}

impl RowGroups<'_, Handoff<'_>> {
    /// The footer written and the output flushed, or the thread's first
    /// error.
    fn finish(self) -> Result<(), RunError> {
        match self {
            RowGroups::Here(sink) => Ok(sink.into_inner().map_err(parquet_error)?.finish()?),
            RowGroups::Queued(q) => q.finish(),
        }
    }
}

/// The Arrow IPC thread's buffer: the message headers and paddings
/// gather there; a buffer of this size or more goes past it.
const IPC_BUFFER: usize = 1 << 16;

/// Where text rows go: a stream, written in order by one thread, or a
/// regular file, written at each chunk's offset by several threads at once
/// (the copy into the file is then not one thread's work).
enum TextOut<'p, W> {
    Stream(W),
    /// The file, where the rows start, how many threads write, and the
    /// record of what they wrote.
    #[cfg(unix)]
    At(std::fs::File, u64, usize, &'p Positions),
}

/// What the writers of [`Pipeline::write_at`] have written: chunks finish out
/// of order, so the file may have later rows before a gap that an earlier
/// chunk is still filling. [`Positions::interrupt`] (from any thread: an
/// interrupt) and a write error leave the file a prefix of whole rows: the
/// writes under way finish, none starts after, and the file is cut where
/// the first gap begins (no hole of NUL bytes, no row cut in half).
#[derive(Default)]
pub struct Positions {
    state: std::sync::Mutex<Written>,
    idle: std::sync::Condvar,
}

#[derive(Default)]
struct Written {
    /// The file (once the run has started), to cut.
    file: Option<std::sync::Arc<std::fs::File>>,
    /// The end of the prefix written whole.
    prefix: u64,
    /// Chunks written past a gap: start to end.
    ahead: BTreeMap<u64, u64>,
    /// Writes under way.
    busy: usize,
    stopped: bool,
    /// Stopped for an interrupt: no writer goes on.
    interrupted: bool,
}

impl Positions {
    /// A record for a run that writes from offset `start` on.
    pub fn new() -> Positions {
        Positions::default()
    }

    fn begin(&self, file: std::sync::Arc<std::fs::File>, start: u64) {
        if let Ok(mut w) = self.state.lock() {
            w.file = Some(file);
            w.prefix = start;
        }
    }

    /// Whether a write may start (none may after a stop); the caller then
    /// writes and calls [`Positions::wrote`]. After [`Positions::interrupt`]
    /// the caller waits for good: the process is about to end by the
    /// signal, and the run must neither write nor finish as if whole.
    fn claim(&self) -> bool {
        let interrupted = match self.state.lock() {
            Ok(mut w) if !w.stopped => {
                w.busy += 1;
                return true;
            }
            Ok(w) => w.interrupted,
            Err(_) => return false,
        };
        if interrupted {
            loop {
                std::thread::park();
            }
        }
        false
    }

    fn wrote(&self, at: u64, len: u64, ok: bool) {
        if let Ok(mut guard) = self.state.lock() {
            let w = &mut *guard;
            w.busy -= 1;
            if ok {
                if at == w.prefix {
                    w.prefix += len;
                    while let Some(end) = w.ahead.remove(&w.prefix) {
                        w.prefix = end;
                    }
                } else {
                    w.ahead.insert(at, at + len);
                }
            }
            self.idle.notify_all();
        }
    }

    /// [`Positions::stop`] for an interrupt, from any thread, for a process
    /// about to end by the signal: a writer that would start a write after
    /// it waits for good instead, so that the run never finishes as if it
    /// had written everything.
    pub fn interrupt(&self) -> io::Result<u64> {
        if let Ok(mut w) = self.state.lock() {
            w.interrupted = true;
        }
        self.stop()
    }

    /// Stops the run's writes: waits for those under way, then cuts the
    /// file after its prefix of whole rows. Returns that prefix's end.
    pub fn stop(&self) -> io::Result<u64> {
        let Ok(mut w) = self.state.lock() else {
            return Err(io::Error::other("a writer panicked"));
        };
        w.stopped = true;
        while w.busy > 0 {
            w = match self.idle.wait(w) {
                Ok(w) => w,
                Err(_) => return Err(io::Error::other("a writer panicked")),
            };
        }
        if let Some(f) = &w.file {
            // Chunks past a gap, and a chunk that a failed write cut short.
            if f.metadata()?.len() > w.prefix {
                f.set_len(w.prefix)?;
            }
            w.ahead.clear();
        }
        Ok(w.prefix)
    }
}

impl Pipeline<'_> {
    /// [`Pipeline::write`] for the text formats into a regular file at
    /// `at`, written by several threads at each chunk's place; the end
    /// offset is returned with the summary. After a write error, or
    /// [`Positions::stop`], the file holds a prefix of whole rows.
    #[cfg(unix)]
    pub fn write_at(
        &self,
        rows: RowOutput<'_>,
        at: FileAt<'_>,
        report: Report<'_>,
    ) -> Result<(Summary, u64), RunError> {
        let mut end = at.start;
        let out: TextOut<std::io::Sink> =
            TextOut::At(at.file, at.start, at.writers.max(1), at.positions);
        let s = self.write_text(rows, out, report, &mut end)?;
        Ok((s, end))
    }

    fn write_text<W: Write + Send>(
        &self,
        rows: RowOutput<'_>,
        out: TextOut<'_, W>,
        report: Report<'_>,
        end: &mut u64,
    ) -> Result<Summary, RunError> {
        let RowOutput {
            schema,
            format,
            header,
            compress,
        } = rows;
        let Report {
            fault: faults,
            progress,
        } = report;
        let mut summary = Summary::default();
        let tf = format.text().unwrap_or(TextFormat::Csv);
        let mut head = if header && tf != TextFormat::Jsonl {
            TextWriter::new(tf, schema.clone()).header()
        } else {
            Vec::new()
        };
        if compress.is_some() {
            // The header as a frame of its own; with none, an empty frame,
            // so that even no rows at all are a valid stream.
            let mut z = Vec::new();
            Framer::new(compress).frame(&head, &mut z)?;
            head = z;
        }
        // Buffers go back to the workers once written.
        let pool = std::sync::Mutex::new(Vec::<Vec<u8>>::new());
        // Writing has threads of its own, so that the copy into the output
        // (for a file in memory, the kernel's page allocation) overlaps the
        // formatting, with one worker as with several.
        let (writers, mut offset) = match &out {
            TextOut::Stream(_) => (1, 0),
            #[cfg(unix)]
            TextOut::At(_, start, n, _) => (*n, *start),
        };
        let positions = match &out {
            TextOut::Stream(_) => None,
            #[cfg(unix)]
            TextOut::At(_, _, _, p) => Some(*p),
        };
        // A chunk's rows, or (`None`) a request to say when all rows before it
        // are written: an input's fault is reported after the rows before it,
        // in order, where standard error and the output are one file.
        type Msg = Option<(Vec<u8>, usize, u64)>;
        let (tx, rx) =
            std::sync::mpsc::sync_channel::<(Msg, Option<std::sync::mpsc::Sender<()>>)>(writers);
        let rx = std::sync::Mutex::new(rx);
        let failed = std::sync::Mutex::new(None::<io::Error>);
        let result = std::thread::scope(|scope| -> Result<(), RunError> {
            let (pool, rx, failed) = (&pool, &rx, &failed);
            let fail = move |e: io::Error| {
                if let Ok(mut f) = failed.lock() {
                    f.get_or_insert(e);
                }
            };
            let take = move || rx.lock().ok().and_then(|r| r.recv().ok());
            // Says "written" to whoever waits, once every row before is.
            let done = |ack: Option<std::sync::mpsc::Sender<()>>| {
                if let Some(a) = ack {
                    let _ = a.send(());
                }
            };
            let give = move |buf: Vec<u8>| {
                if let Ok(mut p) = pool.lock() {
                    p.push(buf);
                }
            };
            match out {
                TextOut::Stream(mut out) => {
                    scope.spawn(move || {
                        let r = (|| -> io::Result<()> {
                            out.write_all(&head)?;
                            while let Some((msg, ack)) = take() {
                                if let Some((buf, len, _)) = msg {
                                    out.write_all(&buf[..len])?;
                                    give(buf);
                                }
                                out.flush()?;
                                done(ack);
                            }
                            out.flush()
                        })();
                        if let Err(e) = r {
                            fail(e);
                            // Drain, so that the sink is never stuck.
                            while let Some((_, ack)) = take() {
                                done(ack);
                            }
                        }
                    });
                }
                #[cfg(unix)]
                TextOut::At(file, start, n, positions) => {
                    use std::os::unix::fs::FileExt;
                    let file = std::sync::Arc::new(file);
                    positions.begin(file.clone(), start);
                    if positions.claim() {
                        let r = file.write_all_at(&head, start);
                        positions.wrote(start, head.len() as u64, r.is_ok());
                        if let Err(e) = r {
                            fail(e);
                        }
                    }
                    offset += head.len() as u64;
                    for _ in 0..n {
                        let file = file.clone();
                        scope.spawn(move || {
                            let mut ok = true;
                            while let Some((msg, ack)) = take() {
                                let Some((buf, len, at)) = msg else {
                                    done(ack);
                                    continue;
                                };
                                if ok && positions.claim() {
                                    let r = file.write_all_at(&buf[..len], at);
                                    positions.wrote(at, len as u64, r.is_ok());
                                    if let Err(e) = r {
                                        fail(e);
                                        ok = false;
                                    }
                                }
                                give(buf);
                            }
                        });
                    }
                }
            }
            // A fault is reported once the rows before it are written (a
            // stream's writer says so; a positional file is not the shared
            // position that messages go to).
            let tx_fault = tx.clone();
            let mut in_order = |m: &str| {
                if positions.is_none() {
                    let (ack, heard) = std::sync::mpsc::channel();
                    if tx_fault.send((None, Some(ack))).is_ok() {
                        let _ = heard.recv();
                    }
                }
                faults(m);
            };
            let pooled = || {
                pool.lock()
                    .ok()
                    .and_then(|mut p| p.pop())
                    .unwrap_or_default()
            };
            let r = self.run(
                || (TextWriter::new(tf, schema.clone()), Framer::new(compress)),
                |(w, framer), rows| {
                    let mut buf = pooled();
                    let len = w.write(rows, &mut buf);
                    if !framer.compresses() {
                        return (buf, len, rows.len());
                    }
                    let mut z = pooled();
                    if let Err(e) = framer.frame(&buf[..len], &mut z) {
                        fail(e);
                    }
                    give(buf);
                    let len = z.len();
                    (z, len, rows.len())
                },
                counted(&mut summary, &mut in_order, progress, |(buf, len, n)| {
                    if failed.lock().map(|f| f.is_some()).unwrap_or(true) {
                        return Err(RunError::Other(String::new()));
                    }
                    let at = offset;
                    offset += len as u64;
                    // A writer that stopped has its error.
                    if tx.send((Some((buf, len, at)), None)).is_err() {
                        return Err(RunError::Other(String::new()));
                    }
                    Ok(n)
                }),
            );
            drop(tx_fault);
            drop(tx);
            r.map(|_| ())
        })
        .map_err(|e| match failed.lock().ok().and_then(|mut f| f.take()) {
            Some(io) => RunError::Io(io),
            None => e,
        })
        .and_then(|()| match failed.lock().ok().and_then(|mut f| f.take()) {
            Some(io) => Err(RunError::Io(io)),
            None => Ok(()),
        });
        if let (Err(_), Some(p)) = (&result, positions) {
            // A failed write leaves whole rows: the chunk it cut short and
            // those written after a gap are cut off.
            let _ = p.stop();
        }
        result?;
        *end = offset;
        Ok(summary)
    }
}

/// [`Pipeline::run`]'s sink for a writer: counts the rows, reports faults and
/// progress, and hands each chunk's output to `put`, which writes it and
/// says how many rows it held.
fn counted<'a, T>(
    summary: &'a mut Summary,
    faults: &'a mut dyn FnMut(&str),
    progress: &'a mut dyn FnMut(u64),
    mut put: impl FnMut(T) -> Result<usize, RunError> + 'a,
) -> impl FnMut(Done<T>) -> Result<(), RunError> + 'a {
    move |done| {
        match done {
            Done::Rows(out, bytes) => {
                summary.rows += put(out)? as u64;
                progress(bytes);
            }
            Done::Fault(m) => {
                summary.faults += 1;
                faults(&m);
            }
        }
        Ok(())
    }
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
