//! The inputs, in order, as chunks that end at record ends.
//!
//! A plain file is memory-mapped and cut in place (no copy). Standard input
//! and compressed files are streams: a thread of their own reads (and
//! decompresses) blocks into a bounded queue, and the chunks are cut from
//! what has arrived, so memory stays bounded whatever the input's size and
//! a row can be written as soon as its line is in (`tail -f`). gzip (every
//! member of a concatenated stream, as `zcat` reads it) and zstd (every
//! frame) are recognised by their magic bytes, on files and on standard
//! input alike; the next compressed files start decompressing on threads
//! of their own while the current one is processed, so several files use
//! several cores.
//!
//! A record is a line (it ends at LF; a CR before the LF is the line
//! format's business), or for CSV a run of lines up to an LF outside a
//! quoted field (RFC 4180 lets quoted fields hold line breaks; a field is
//! quoted only where it starts with `"`: [`crate::delimited::Quotes`]). A record
//! longer than [`ReadOptions::max_record_bytes`] becomes a chunk of its own
//! of kind [`ChunkKind::Overlong`], reported as an error row by whoever
//! reads it; when streaming, its bytes are skipped, never held.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, Read};
use std::ops::{Deref, Range};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc};

use crate::delimited::Quotes;

/// How the inputs are cut.
#[derive(Clone, Copy, Debug)]
pub struct ReadOptions {
    /// About how many bytes a chunk holds (a chunk ends at the first record
    /// end at or after this many bytes).
    pub chunk_bytes: usize,
    /// A record longer than this is a chunk of kind [`ChunkKind::Overlong`]
    /// (or, with `split_long_records`, cut into pieces of this size).
    pub max_record_bytes: usize,
    /// Cut a record longer than `max_record_bytes` into chunks of whole
    /// [`ChunkKind::Records`] kind of at most that many bytes, instead of
    /// one overlong chunk: for free text, whose lines mean nothing to its
    /// reader (`urilex extract`), so that memory stays bounded and no byte
    /// is dropped. A chunk may then end inside a line.
    pub split_long_records: bool,
    /// Records end at an LF outside a quoted field (CSV), not at every LF.
    pub csv_quotes: bool,
    /// Number the lines ([`Chunk::first_line`]); a pass over each chunk,
    /// which a caller that reports no line can spare.
    pub number_lines: bool,
    /// How many compressed files may decompress at once (the current one
    /// and those after it), each on a thread of its own.
    pub decompress_ahead: usize,
    /// Cut a stream's chunks where a mapped file of the same bytes is cut
    /// (just past the first record end at or after `chunk_bytes`, and at
    /// its end), not also when what has arrived runs dry nor at
    /// [`STREAM_CHUNK`]: for outputs nobody reads before they end
    /// (Parquet, whose row groups are chunks), so that a pipe's row
    /// groups are a file's, never the scraps a pipe delivers at a time.
    /// Each chunk in flight is then a copy of `chunk_bytes` or so.
    pub full_chunks: bool,
    /// Of each input, only the records that start in this byte range
    /// `[start, end)` (a record starts at byte 0 or after an LF), their
    /// lines numbered as in the whole input: disjoint ranges that cover a
    /// file give each record once, so that several readers can share one
    /// file (a SQL scan's partitions). Only for a file read in place
    /// (not compressed, not a stream; any other input is a fault) and a
    /// format whose records are lines and need nothing from before them
    /// ([`crate::format::InputFormat::splittable`]).
    pub range: Option<(u64, u64)>,
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            chunk_bytes: 1 << 20,
            max_record_bytes: 16 << 20,
            csv_quotes: false,
            split_long_records: false,
            number_lines: true,
            decompress_ahead: 2,
            full_chunks: false,
            range: None,
        }
    }
}

/// The bytes of a chunk: a range of a memory-mapped file, or a copy.
pub enum Data {
    /// A range of a mapped file (shared by the chunks cut from it).
    Mapped(Arc<Mapped>, Range<usize>),
    /// Bytes read from a stream.
    Owned(Vec<u8>),
}

impl Deref for Data {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Data::Mapped(m, r) => &m[r.clone()],
            Data::Owned(v) => v,
        }
    }
}

impl Data {
    /// `work` on the bytes, with a mapped range's pages mapped in one call
    /// first (`populate`) and unmapped after (`release`):
    /// what a worker does with a chunk it reads once.
    pub fn with_pages<T>(&self, work: impl FnOnce(&[u8]) -> T) -> T {
        self.populate();
        let out = work(self);
        self.release();
        out
    }

    /// Maps the pages of a mapped range in one call (Linux 5.14's
    /// `MADV_POPULATE_READ`), for the worker about to read it: the file is
    /// mapped lazily, so that its page tables are filled by the workers
    /// side by side, each for its own chunks, a chunk at a time rather
    /// than a fault per 64 KiB. Nothing to do for other data, and nothing
    /// lost where the kernel refuses: the pages then fault in as read.
    fn populate(&self) {
        #[cfg(target_os = "linux")]
        if let Data::Mapped(m, r) = self {
            if let Mapped::Map(map) = &**m {
                let _ = map.advise_range(memmap2::Advice::PopulateRead, r.start, r.len());
            }
        }
    }

    /// Unmaps the whole pages of a mapped range once its worker is done
    /// with it (`MADV_DONTNEED`): the page table entries go side by side on
    /// the workers instead of all at once when the map is dropped, a
    /// serial tenth of a second per 2 GB. The bytes stay readable: a later
    /// read of the range maps the file's pages again.
    fn release(&self) {
        #[cfg(target_os = "linux")]
        if let Data::Mapped(m, r) = self {
            if let Mapped::Map(map) = &**m {
                const PAGE: usize = 4096;
                let base = map.as_ptr() as usize;
                let start = (base + r.start).next_multiple_of(PAGE) - base;
                let end = ((base + r.end) & !(PAGE - 1)).saturating_sub(base);
                if start < end {
                    // SAFETY: the map is a shared (MAP_SHARED), read-only
                    // map of the file (memmap2's `Mmap`). For a shared file
                    // map, MADV_DONTNEED only drops this process's page
                    // table entries: the pages are the page cache's, never
                    // copies of our own (a private map's copy-on-write
                    // pages are what it would discard, and a read-only map
                    // has none), and nothing was written through the map,
                    // so nothing is lost. A later read of the range faults
                    // in the file's page again, with the same bytes (unless
                    // the file changed, the risk every map takes; see
                    // `open_file`). No reference into the range is
                    // invalidated: its addresses stay mapped and readable.
                    #[allow(unsafe_code)]
                    let _ = unsafe {
                        map.unchecked_advise_range(
                            memmap2::UncheckedAdvice::DontNeed,
                            start,
                            end - start,
                        )
                    };
                }
            }
        }
    }
}

/// A file's bytes: memory-mapped, or read whole (where mapping failed).
pub enum Mapped {
    /// The map.
    Map(memmap2::Mmap),
    /// The bytes read.
    Read(Vec<u8>),
}

impl Deref for Mapped {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Mapped::Map(m) => m,
            Mapped::Read(v) => v,
        }
    }
}

/// What a chunk holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChunkKind {
    /// Whole records.
    Records,
    /// One record longer than the limit: `bytes` is its length (what was
    /// seen of it), and [`Chunk::data`] holds at most its first bytes.
    Overlong {
        /// Its length in bytes.
        bytes: u64,
    },
}

/// One chunk of one input.
pub struct Chunk {
    /// Which input (index in the list given to [`Reader::new`]).
    pub input: usize,
    /// Its name (`-` for standard input).
    pub name: Arc<str>,
    /// The 1-based number of the chunk's first line in its input (0 when
    /// lines are not numbered).
    pub first_line: u64,
    /// The bytes.
    pub data: Data,
    /// Whole records, or one overlong record.
    pub kind: ChunkKind,
    /// Whether the chunk begins its input (its first record is a header
    /// where the format has one).
    pub starts_input: bool,
    /// Bytes of the input file this chunk accounts for (compressed bytes
    /// for a compressed file), for a progress display.
    pub input_bytes: u64,
}

/// What the reader yields: chunks in order, and the faults of inputs that
/// could not be read (or not to their end), in order with the chunks.
pub enum Item {
    /// A chunk.
    Chunk(Chunk),
    /// An input could not be opened or read further: the message names it.
    Fault(String),
}

/// Blocks read from a stream at a time, and how many may wait in its queue.
const BLOCK: usize = 256 << 10;
const QUEUED: usize = 16;

/// A stream's block; an empty one is its end marker (see [`cut_short`]).
type Block = io::Result<Vec<u8>>;

/// The inputs as an iterator of [`Item`]s.
pub struct Reader {
    paths: Vec<PathBuf>,
    opts: ReadOptions,
    next: usize,
    current: Option<Current>,
    /// Streams started ahead of their turn (compressed files), by input.
    started: VecDeque<(usize, Stream)>,
}

enum Current {
    Mapped {
        input: usize,
        name: Arc<str>,
        map: Arc<Mapped>,
        pos: usize,
        /// Where its records end (the file's end, or a range's).
        end: usize,
        line: u64,
    },
    Stream {
        input: usize,
        name: Arc<str>,
        state: StreamState,
    },
}

struct Stream {
    rx: mpsc::Receiver<Block>,
    read: Arc<AtomicU64>,
    /// The reading thread, joined when the stream is dropped where its
    /// input is a file: once the queue is closed it ends after at most
    /// one more block, so nothing it holds outlives the reader. Standard
    /// input's is left to end on its own, since a read of a terminal or
    /// an idle pipe may wait for ever.
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for Stream {
    fn drop(&mut self) {
        if let Some(thread) = self.thread.take() {
            // Close the queue first, so that a thread waiting to send
            // gives up.
            let (_, closed) = mpsc::sync_channel(0);
            drop(std::mem::replace(&mut self.rx, closed));
            let _ = thread.join();
        }
    }
}

struct StreamState {
    stream: Stream,
    buf: Vec<u8>,
    line: u64,
    /// Skipping the rest of an overlong record, with where its quotes
    /// stand (CSV).
    skipping: Option<Quotes>,
    eof: bool,
    /// The queue had no block left when last looked at.
    dry: bool,
    /// A read error, reported after the bytes that came before it.
    fault: Option<Item>,
    started: bool,
    reported: u64,
}

impl Reader {
    /// A reader of `paths` in order (standard input for `-`, and when the
    /// list is empty).
    pub fn new(paths: &[PathBuf], opts: ReadOptions) -> Reader {
        let paths = if paths.is_empty() {
            vec![PathBuf::from("-")]
        } else {
            paths.to_vec()
        };
        let opts = ReadOptions {
            chunk_bytes: opts.chunk_bytes.clamp(1, opts.max_record_bytes.max(1)),
            max_record_bytes: opts.max_record_bytes.max(1),
            decompress_ahead: opts.decompress_ahead.max(1),
            ..opts
        };
        Reader {
            paths,
            opts,
            next: 0,
            current: None,
            started: VecDeque::new(),
        }
    }

    /// Opens input `i`, or says why it cannot be read.
    fn open(&mut self, i: usize) -> Result<Current, String> {
        let path = self.paths[i].clone();
        let name: Arc<str> = Arc::from(path.to_string_lossy().as_ref());
        if let Some(k) = self.started.iter().position(|(j, _)| *j == i) {
            let (_, stream) = self.started.remove(k).expect("found");
            return Ok(Current::Stream {
                input: i,
                name,
                state: StreamState::new(stream),
            });
        }
        let ranged = |what: &str| {
            format!(
                "{}: a byte range of {what} cannot be read (only of a file read in place)",
                path.display()
            )
        };
        if path.as_os_str() == "-" {
            if self.opts.range.is_some() {
                return Err(ranged("standard input"));
            }
            let stream = spawn_stream(Box::new(io::stdin()), false);
            return Ok(Current::Stream {
                input: i,
                name,
                state: StreamState::new(stream),
            });
        }
        let fail = |e: io::Error| format!("{}: {e}", path.display());
        match open_file(&path).map_err(fail)? {
            Opened::Mapped(map) => {
                let (pos, end) = match self.opts.range {
                    Some((start, end)) => range_records(&map, start, end),
                    None => (0, map.len()),
                };
                let line = if self.opts.number_lines && pos > 0 {
                    1 + count_lfs(&map[..pos])
                } else {
                    1
                };
                Ok(Current::Mapped {
                    input: i,
                    name,
                    map: Arc::new(map),
                    pos,
                    end,
                    line,
                })
            }
            // An empty file is read as a stream (it cannot be mapped): its
            // ranges hold nothing.
            Opened::Stream(_)
                if self.opts.range.is_some()
                    && std::fs::metadata(&path).is_ok_and(|m| m.is_file() && m.len() == 0) =>
            {
                Ok(Current::Mapped {
                    input: i,
                    name,
                    map: Arc::new(Mapped::Read(Vec::new())),
                    pos: 0,
                    end: 0,
                    line: 1,
                })
            }
            Opened::Stream(_) if self.opts.range.is_some() => {
                Err(ranged("a compressed file or a stream"))
            }
            Opened::Stream(s) => Ok(Current::Stream {
                input: i,
                name,
                state: StreamState::new(s),
            }),
        }
    }

    /// Starts the compressed files after input `i` decompressing, up to
    /// `decompress_ahead` streams at once.
    fn start_ahead(&mut self, i: usize) {
        let mut k = i + 1;
        while self.started.len() + 1 < self.opts.decompress_ahead && k < self.paths.len() {
            let p = &self.paths[k];
            if p.as_os_str() != "-" && !self.started.iter().any(|(j, _)| *j == k) {
                if let Ok(true) = is_compressed(p) {
                    if let Ok(Opened::Stream(s)) = open_file(p) {
                        self.started.push_back((k, s));
                    }
                }
            }
            k += 1;
        }
    }

    fn next_mapped(
        opts: &ReadOptions,
        input: usize,
        name: &Arc<str>,
        map: &Arc<Mapped>,
        pos: &mut usize,
        end: usize,
        line: &mut u64,
    ) -> Option<Item> {
        let rest = &map[*pos..end];
        if rest.is_empty() {
            return None;
        }
        let starts_input = *pos == 0;
        let (len, kind, skip) = match cut(rest, opts) {
            Cut::All => (rest.len(), ChunkKind::Records, 0),
            Cut::At(c) => (c, ChunkKind::Records, 0),
            Cut::Overlong { before: 0, .. } if opts.split_long_records => {
                (opts.max_record_bytes, ChunkKind::Records, 0)
            }
            Cut::Overlong { before: 0, len } => (
                len.min(1024),
                ChunkKind::Overlong { bytes: len as u64 },
                len,
            ),
            Cut::Overlong { before, .. } => (before, ChunkKind::Records, 0),
        };
        let skip = skip.max(len);
        let data = Data::Mapped(map.clone(), *pos..*pos + len);
        let first_line = if opts.number_lines { *line } else { 0 };
        if opts.number_lines {
            *line += count_lfs(&map[*pos..*pos + skip]);
        }
        // The LF that ends an overlong record is part of it.
        let mut skip = skip;
        if matches!(kind, ChunkKind::Overlong { .. })
            && *pos + skip < end
            && map[*pos + skip] == b'\n'
        {
            skip += 1;
            if opts.number_lines {
                *line += 1;
            }
        }
        *pos += skip;
        Some(Item::Chunk(Chunk {
            input,
            name: name.clone(),
            first_line,
            data,
            kind,
            starts_input,
            input_bytes: skip as u64,
        }))
    }
}

impl Iterator for Reader {
    type Item = Item;

    fn next(&mut self) -> Option<Item> {
        loop {
            if self.current.is_none() {
                if self.next >= self.paths.len() {
                    return None;
                }
                let i = self.next;
                self.next += 1;
                self.start_ahead(i);
                match self.open(i) {
                    Ok(c) => self.current = Some(c),
                    Err(m) => return Some(Item::Fault(m)),
                }
            }
            let opts = self.opts;
            let item = match self.current.as_mut().expect("opened above") {
                Current::Mapped {
                    input,
                    name,
                    map,
                    pos,
                    end,
                    line,
                } => Reader::next_mapped(&opts, *input, name, map, pos, *end, line),
                Current::Stream { input, name, state } => state.next(&opts, *input, name),
            };
            match item {
                Some(item) => return Some(item),
                None => self.current = None,
            }
        }
    }
}

impl StreamState {
    fn new(stream: Stream) -> StreamState {
        StreamState {
            stream,
            buf: Vec::new(),
            line: 1,
            skipping: None,
            eof: false,
            dry: false,
            fault: None,
            started: false,
            reported: 0,
        }
    }

    fn chunk(&mut self, opts: &ReadOptions, input: usize, name: &Arc<str>, len: usize) -> Item {
        let rest = self.buf.split_off(len);
        let bytes = std::mem::replace(&mut self.buf, rest);
        let first_line = if opts.number_lines { self.line } else { 0 };
        if opts.number_lines {
            self.line += count_lfs(&bytes);
        }
        let read = self.stream.read.load(Ordering::Relaxed);
        let input_bytes = read - self.reported;
        self.reported = read;
        let starts_input = !self.started;
        self.started = true;
        Item::Chunk(Chunk {
            input,
            name: name.clone(),
            first_line,
            data: Data::Owned(bytes),
            kind: ChunkKind::Records,
            starts_input,
            input_bytes,
        })
    }

    fn next(&mut self, opts: &ReadOptions, input: usize, name: &Arc<str>) -> Option<Item> {
        loop {
            if let Some(quotes) = self.skipping {
                // Drop the rest of an overlong record, up to its end.
                match record_end_after(&self.buf, opts.csv_quotes, quotes) {
                    Ok(end) => {
                        if opts.number_lines {
                            self.line += count_lfs(&self.buf[..end]);
                        }
                        self.buf.drain(..end);
                        self.skipping = None;
                    }
                    Err(quotes) => {
                        if opts.number_lines {
                            self.line += count_lfs(&self.buf);
                        }
                        self.buf.clear();
                        self.skipping = Some(quotes);
                    }
                }
            }
            if self.skipping.is_none() && !self.buf.is_empty() {
                // A chunk of the records that have arrived, once the queue
                // has run dry or enough are in.
                let end = last_record_end(&self.buf, opts.csv_quotes);
                if let Some(o) = first_overlong(&self.buf[..end], opts) {
                    if o.start > 0 {
                        return Some(self.chunk(opts, input, name, o.start));
                    }
                    if opts.split_long_records {
                        return Some(self.chunk(opts, input, name, opts.max_record_bytes));
                    }
                    return Some(self.overlong(opts, input, name, o.len(), true));
                }
                if opts.full_chunks {
                    // Where a mapped file of the same bytes is cut
                    // (`cut`), so that a pipe's Parquet row groups are a
                    // file's.
                    match cut(&self.buf, opts) {
                        Cut::At(e) => return Some(self.chunk(opts, input, name, e)),
                        Cut::All if self.eof => {
                            let len = self.buf.len();
                            return Some(self.chunk(opts, input, name, len));
                        }
                        _ => {}
                    }
                } else if end > 0 && (self.buf.len() >= stream_chunk(opts) || self.eof || self.dry)
                {
                    return Some(self.chunk(opts, input, name, end));
                }
                let pending = self.buf.len() - end;
                if pending > opts.max_record_bytes {
                    if end > 0 {
                        return Some(self.chunk(opts, input, name, end));
                    }
                    if opts.split_long_records {
                        return Some(self.chunk(opts, input, name, opts.max_record_bytes));
                    }
                    return Some(self.overlong(opts, input, name, pending, false));
                }
                if self.eof {
                    let len = self.buf.len();
                    return Some(self.chunk(opts, input, name, len));
                }
            }
            if self.eof {
                return self.fault.take();
            }
            // Wait for a block, then take what else has arrived.
            let first = self.stream.rx.recv().ok();
            self.take(opts, name, first);
            self.dry = false;
            while !self.eof && self.buf.len() < stream_chunk(opts) {
                match self.stream.rx.try_recv() {
                    Err(mpsc::TryRecvError::Empty) => {
                        self.dry = true;
                        break;
                    }
                    r => self.take(opts, name, r.ok()),
                }
            }
        }
    }

    /// What the reading thread sent (`None`: its queue closed): a block
    /// gathered, the end marker (an empty block), or a fault.
    fn take(&mut self, opts: &ReadOptions, name: &str, got: Option<Block>) {
        match got {
            Some(Ok(b)) if b.is_empty() => self.eof = true,
            Some(Ok(b)) => append(&mut self.buf, &b, stream_chunk(opts)),
            Some(Err(e)) => self.fail(name, e),
            None => self.fail(name, cut_short()),
        }
    }

    /// The stream broke: what arrived before is still read, then the fault
    /// is reported (a reading thread that ended without its end marker
    /// among them: see [`cut_short`]).
    fn fail(&mut self, name: &str, e: io::Error) {
        self.eof = true;
        self.fault = Some(Item::Fault(format!("{name}: {e}")));
    }

    /// A chunk for the overlong record at the start of `buf`, `len` bytes
    /// so far; `complete` when its end is in `buf`.
    fn overlong(
        &mut self,
        opts: &ReadOptions,
        input: usize,
        name: &Arc<str>,
        len: usize,
        complete: bool,
    ) -> Item {
        let keep = len.min(opts.max_record_bytes).min(1024);
        let head = self.buf[..keep].to_vec();
        let first_line = if opts.number_lines { self.line } else { 0 };
        let starts_input = !self.started;
        self.started = true;
        let mut quotes = Quotes::RECORD_START;
        if opts.csv_quotes {
            quotes.next_end(&self.buf[..len]);
        }
        if opts.number_lines {
            self.line += count_lfs(&self.buf[..len]);
        }
        self.buf.drain(..len);
        if complete {
            // Its LF.
            if self.buf.first() == Some(&b'\n') {
                self.buf.remove(0);
                if opts.number_lines {
                    self.line += 1;
                }
            }
        } else {
            self.skipping = Some(quotes);
        }
        Item::Chunk(Chunk {
            input,
            name: name.clone(),
            first_line,
            data: Data::Owned(head),
            kind: ChunkKind::Overlong { bytes: len as u64 },
            starts_input,
            input_bytes: 0,
        })
    }
}

/// Chunks cut from a stream are at most this big (but for
/// `full_chunks`): a stream's chunks are copies held until their rows are
/// written, and memory stays bounded whatever the chunk size asked for.
const STREAM_CHUNK: usize = 512 << 10;

/// How much of a stream is gathered before a chunk is looked for: at
/// most [`STREAM_CHUNK`], or for whole chunks (`full_chunks`) just past
/// the chunk size, where [`cut`] finds the chunk's end as a file's.
fn stream_chunk(opts: &ReadOptions) -> usize {
    if opts.full_chunks {
        opts.chunk_bytes.saturating_add(1)
    } else {
        opts.chunk_bytes.min(STREAM_CHUNK)
    }
}

/// Appends a block to a stream's gathered bytes, the buffer growing by
/// doubling as a `Vec`'s does but to no more than `gather` and a block
/// past it: chunks are cut from it at about `gather`, and each chunk in
/// flight keeps its buffer, which would otherwise be up to twice its size
/// (a 2 MiB chunk in 4 MiB).
fn append(buf: &mut Vec<u8>, block: &[u8], gather: usize) {
    let need = buf.len() + block.len();
    if need > buf.capacity() {
        let most = gather.saturating_add(BLOCK).max(need);
        let cap = buf.capacity().saturating_mul(2).clamp(need, most);
        buf.reserve_exact(cap - buf.len());
    }
    buf.extend_from_slice(block);
}

/// Where the next chunk of a mapped file ends.
enum Cut {
    /// The rest is one chunk.
    All,
    /// The chunk ends here (just after a record end).
    At(usize),
    /// The record at `before` is `len` bytes long (without its LF), over
    /// the limit: the records before it are a chunk, then it is one.
    Overlong { before: usize, len: usize },
}

/// The first record end at or after `opts.chunk_bytes` (see [`Cut`]). A
/// record over the limit is always found here: a chunk's records before
/// the cut are shorter than the chunk size, which is at most the limit.
fn cut(rest: &[u8], opts: &ReadOptions) -> Cut {
    let size = opts.chunk_bytes;
    if rest.len() <= size {
        return Cut::All;
    }
    let (start, end) = if opts.csv_quotes {
        // Record ends (LFs outside quoted fields) before and after `size`.
        let mut start = 0;
        let mut end = None;
        let mut quotes = Quotes::RECORD_START;
        for i in quotes.ends(rest) {
            if i < size {
                start = i + 1;
            } else {
                end = Some(i);
                break;
            }
        }
        (start, end)
    } else {
        let start = memchr::memrchr(b'\n', &rest[..size]).map_or(0, |i| i + 1);
        let end = memchr::memchr(b'\n', &rest[size..]).map(|i| size + i);
        (start, end)
    };
    let last = end.unwrap_or(rest.len());
    if last - start > opts.max_record_bytes {
        return Cut::Overlong {
            before: start,
            len: last - start,
        };
    }
    match end {
        Some(e) if e + 1 < rest.len() => Cut::At(e + 1),
        _ => Cut::All,
    }
}

/// Just past the last record end in `buf` (0 when there is none), for a
/// `buf` that starts a record.
fn last_record_end(buf: &[u8], csv: bool) -> usize {
    if !csv {
        return memchr::memrchr(b'\n', buf).map_or(0, |i| i + 1);
    }
    let mut quotes = Quotes::RECORD_START;
    let last = quotes.ends(buf).last();
    last.map_or(0, |e| e + 1)
}

/// Just past the first record end in `buf`, for a record whose bytes so
/// far left `quotes`; or, when `buf` has none, where they stand after it.
fn record_end_after(buf: &[u8], csv: bool, mut quotes: Quotes) -> Result<usize, Quotes> {
    if !csv {
        return memchr::memchr(b'\n', buf)
            .map(|i| i + 1)
            .ok_or(Quotes::RECORD_START);
    }
    match quotes.next_end(buf) {
        Some(i) => Ok(i + 1),
        None => Err(quotes),
    }
}

/// The first record of `buf` (whole records) longer than the limit: its
/// span without its LF. Only a buffer longer than the limit can hold one.
fn first_overlong(buf: &[u8], opts: &ReadOptions) -> Option<Range<usize>> {
    if buf.len() <= opts.max_record_bytes {
        return None;
    }
    let mut quotes = Quotes::RECORD_START;
    let ends: Box<dyn Iterator<Item = usize>> = if opts.csv_quotes {
        Box::new(quotes.ends(buf))
    } else {
        Box::new(memchr::memchr_iter(b'\n', buf))
    };
    let mut start = 0;
    for i in ends {
        if i - start > opts.max_record_bytes {
            return Some(start..i);
        }
        start = i + 1;
    }
    None
}

/// How many LFs `bytes` holds.
/// Where the records that start in `[start, end)` of `bytes` begin and
/// end: from the first record start at or after `start` (byte 0, or a byte
/// after an LF) to the end of the last record that starts before `end`.
fn range_records(bytes: &[u8], start: u64, end: u64) -> (usize, usize) {
    let len = bytes.len();
    let start = usize::try_from(start).unwrap_or(usize::MAX).min(len);
    let end = usize::try_from(end).unwrap_or(usize::MAX).min(len);
    // The record starting at `k` is the range's when the byte before it
    // (k - 1) is an LF: search from `start - 1`.
    let after_lf = |from: usize| match memchr::memchr(b'\n', &bytes[from..]) {
        Some(k) => from + k + 1,
        None => len,
    };
    let first = if start == 0 { 0 } else { after_lf(start - 1) };
    let last = if end == 0 { 0 } else { after_lf(end - 1) };
    (first, last.max(first))
}

pub(crate) fn count_lfs(bytes: &[u8]) -> u64 {
    memchr::memchr_iter(b'\n', bytes).count() as u64
}

/// The compressions recognised by their first bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Compression {
    Gzip,
    Zstd,
}

fn compression(head: &[u8]) -> Option<Compression> {
    if head.starts_with(&[0x1f, 0x8b]) {
        Some(Compression::Gzip)
    } else if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
        Some(Compression::Zstd)
    } else {
        None
    }
}

/// Whether `path` is a file the reader maps and reads in place (a
/// non-empty regular file, not compressed): what a byte range
/// ([`ReadOptions::range`]) can be read of.
pub fn read_in_place(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() > 0)
        && is_compressed(path).is_ok_and(|c| !c)
}

fn is_compressed(path: &Path) -> io::Result<bool> {
    let mut head = [0u8; 4];
    let n = read_head(&mut File::open(path)?, &mut head)?;
    Ok(compression(&head[..n]).is_some())
}

/// Reads up to `head.len()` bytes (fewer only at the end of the input).
fn read_head(r: &mut dyn Read, head: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < head.len() {
        match r.read(&mut head[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// Counts the bytes read through it (a compressed file's progress).
struct Counting<R> {
    inner: R,
    read: Arc<AtomicU64>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// A thread that reads `input` (decompressing it when its first bytes say
/// it is compressed) into a bounded queue of blocks; `join` says whether
/// dropping the stream waits for the thread (`Stream::thread`).
fn spawn_stream(input: Box<dyn Read + Send>, join: bool) -> Stream {
    let (tx, rx) = mpsc::sync_channel::<Block>(QUEUED);
    let read = Arc::new(AtomicU64::new(0));
    let counter = read.clone();
    let thread = std::thread::spawn(move || {
        let mut input = Counting {
            inner: input,
            read: counter,
        };
        let mut head = [0u8; 4];
        let n = match read_head(&mut input, &mut head) {
            Ok(n) => n,
            Err(e) => {
                let _ = tx.send(Err(e));
                return;
            }
        };
        let whole = io::Cursor::new(head[..n].to_vec()).chain(input);
        let (mut reader, what): (Box<dyn Read>, &str) = match compression(&head[..n]) {
            Some(Compression::Gzip) => (
                Box::new(flate2::read::MultiGzDecoder::new(
                    io::BufReader::with_capacity(BLOCK, whole),
                )),
                "gzip stream",
            ),
            Some(Compression::Zstd) => match zstd::stream::read::Decoder::new(whole) {
                Ok(d) => (Box::new(d), "zstd stream"),
                Err(e) => {
                    let _ = tx.send(Err(e));
                    return;
                }
            },
            None => (Box::new(whole), ""),
        };
        loop {
            let mut block = vec![0u8; BLOCK];
            match reader.read(&mut block) {
                Ok(0) => {
                    // The end marker: no other block is empty.
                    let _ = tx.send(Ok(Vec::new()));
                    break;
                }
                Ok(n) => {
                    block.truncate(n);
                    if tx.send(Ok(block)).is_err() {
                        break;
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    let e = if what.is_empty() {
                        e
                    } else {
                        io::Error::new(e.kind(), format!("reading the {what}: {e}"))
                    };
                    let _ = tx.send(Err(e));
                    break;
                }
            }
        }
    });
    Stream {
        rx,
        read,
        thread: join.then_some(thread),
    }
}

/// What a stream whose reading thread ended before its input did reports
/// (the thread panicked: in a decoder, or in the input's own `read`):
/// the blocks before it are read, then the input is a fault, never a
/// clean end with its last records silently missing.
fn cut_short() -> io::Error {
    io::Error::other("the reading thread stopped before the end of the input")
}

enum Opened {
    Mapped(Mapped),
    Stream(Stream),
}

/// A plain regular file is mapped; a compressed one, or one that is not a
/// regular file (a pipe, a device), is streamed.
fn open_file(path: &Path) -> io::Result<Opened> {
    let mut file = File::open(path)?;
    let meta = file.metadata()?;
    if meta.is_dir() {
        return Err(io::Error::other("is a directory"));
    }
    if !meta.is_file() || meta.len() == 0 {
        // A pipe or a device may wait for ever: not joined.
        let join = meta.is_file();
        return Ok(Opened::Stream(spawn_stream(Box::new(file), join)));
    }
    let mut head = [0u8; 4];
    let n = read_head(&mut file, &mut head)?;
    if compression(&head[..n]).is_some() {
        let file = File::open(path)?;
        return Ok(Opened::Stream(spawn_stream(Box::new(file), true)));
    }
    // SAFETY: the map is read-only and lives as long as the chunks cut from
    // it (they hold an `Arc` of it). If another process changes the file
    // meanwhile, the changed bytes are read like any other input; a
    // truncation could fault, the usual risk of mapping a file that changes
    // underfoot, taken for the speed on large logs. Not populated up front
    // (MAP_POPULATE fills every page table entry on this thread before any
    // work starts: a tenth of a second per GB, serial); the workers do it
    // chunk by chunk (`Data::populate`).
    #[allow(unsafe_code)]
    match unsafe { memmap2::MmapOptions::new().map(&file) } {
        Ok(m) => Ok(Opened::Mapped(Mapped::Map(m))),
        Err(_) => {
            let mut v = Vec::new();
            File::open(path)?.read_to_end(&mut v)?;
            Ok(Opened::Mapped(Mapped::Read(v)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(bytes: &[u8], opts: ReadOptions) -> Vec<(u64, Vec<u8>, ChunkKind)> {
        let dir = std::env::temp_dir().join(format!("urilex-io-src-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join(format!("{}.txt", bytes.len()));
        std::fs::write(&p, bytes).unwrap();
        let v = Reader::new(&[p], opts)
            .map(|i| match i {
                Item::Chunk(c) => (c.first_line, c.data.to_vec(), c.kind),
                Item::Fault(m) => panic!("{m}"),
            })
            .collect();
        v
    }

    #[test]
    fn released_chunks_still_read_their_bytes() {
        // Chunks that share pages, cut at line ends that are not page
        // boundaries: each populated, released, then read again (as a
        // writer of rows might), and the next one's bytes untouched.
        let text: Vec<u8> = (0..40_000u32)
            .flat_map(|i| {
                format!("http://h{i}.example/{}\n", "p".repeat((i % 97) as usize)).into_bytes()
            })
            .collect();
        let dir = std::env::temp_dir().join(format!("urilex-io-release-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("big.txt");
        std::fs::write(&p, &text).unwrap();
        let opts = ReadOptions {
            chunk_bytes: 10_000,
            ..ReadOptions::default()
        };
        let mut joined = Vec::new();
        let mut mapped = 0;
        for item in Reader::new(&[p], opts) {
            let Item::Chunk(c) = item else {
                panic!("fault")
            };
            mapped += usize::from(matches!(c.data, Data::Mapped(..)));
            let before = c.data.with_pages(<[u8]>::to_vec);
            assert_eq!(&*c.data, &before[..]);
            joined.extend_from_slice(&c.data);
        }
        assert!(mapped > 100, "the file was mapped and cut: {mapped} chunks");
        assert_eq!(joined, text);
        let _ = std::fs::remove_dir_all(dir);
    }

    /// Reads `path` with `range`: its chunks' first lines and bytes.
    fn ranged(path: &Path, range: (u64, u64), chunk_bytes: usize) -> Vec<(u64, Vec<u8>)> {
        let opts = ReadOptions {
            chunk_bytes,
            range: Some(range),
            ..ReadOptions::default()
        };
        Reader::new(&[path.to_path_buf()], opts)
            .map(|i| match i {
                Item::Chunk(c) => (c.first_line, c.data.to_vec()),
                Item::Fault(m) => panic!("{m}"),
            })
            .collect()
    }

    #[test]
    fn byte_ranges_that_cover_a_file_give_each_record_once() {
        // Every way to cut the file in three (cuts at LFs, just after,
        // inside records, at the ends, empty ranges): the ranges' chunks
        // joined are the file, each numbered as in the whole file.
        let dir = std::env::temp_dir().join(format!("urilex-io-range-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for text in [&b"a\nbb\n\nccc\ndddd\ne"[..], b"\n\nx\n", b"one", b""] {
            let p = dir.join("ranges.txt");
            std::fs::write(&p, text).unwrap();
            let n = text.len() as u64;
            for a in 0..=n + 1 {
                for b in a..=n + 1 {
                    for chunk_bytes in [2, 100] {
                        let mut joined = Vec::new();
                        for r in [(0, a), (a, b), (b, n + 5)] {
                            for (first, bytes) in ranged(&p, r, chunk_bytes) {
                                let at = joined.len();
                                assert_eq!(first, 1 + count_lfs(&text[..at]), "{r:?}");
                                joined.extend_from_slice(&bytes);
                            }
                        }
                        assert_eq!(joined, text, "cut at {a} and {b}, chunks of {chunk_bytes}");
                    }
                }
            }
        }
        // An overlong record in a range is one chunk, its LF with it.
        let mut text = b"a\n".to_vec();
        text.extend(std::iter::repeat_n(b'x', 100));
        text.extend(b"\nb\n");
        let p = dir.join("overlong.txt");
        std::fs::write(&p, &text).unwrap();
        let opts = ReadOptions {
            chunk_bytes: 8,
            max_record_bytes: 50,
            range: Some((1, 50)),
            ..ReadOptions::default()
        };
        let v: Vec<_> = Reader::new(std::slice::from_ref(&p), opts)
            .map(|i| match i {
                Item::Chunk(c) => (c.first_line, c.kind),
                Item::Fault(m) => panic!("{m}"),
            })
            .collect();
        assert_eq!(v, [(2, ChunkKind::Overlong { bytes: 100 })]);
        // A compressed file cannot be cut: a fault naming it.
        let gz = dir.join("x.gz");
        std::fs::write(
            &gz,
            [
                0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0,
            ],
        )
        .unwrap();
        let opts = ReadOptions {
            range: Some((0, 10)),
            ..ReadOptions::default()
        };
        let items: Vec<_> = Reader::new(std::slice::from_ref(&gz), opts).collect();
        assert!(
            matches!(&items[..], [Item::Fault(m)] if m.contains("x.gz") && m.contains("byte range")),
        );
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn chunks_end_at_line_ends_and_number_lines() {
        let text = b"a\nbb\nccc\ndddd\ne".to_vec();
        for size in 1..text.len() + 2 {
            let opts = ReadOptions {
                chunk_bytes: size,
                ..ReadOptions::default()
            };
            let v = all(&text, opts);
            let joined: Vec<u8> = v.iter().flat_map(|c| c.1.clone()).collect();
            assert_eq!(joined, text, "size {size}");
            let mut line = 1;
            for (first, bytes, _) in &v {
                assert_eq!(*first, line);
                assert!(bytes.ends_with(b"\n") || bytes.ends_with(b"e"));
                line += count_lfs(bytes);
            }
        }
    }

    #[test]
    fn an_overlong_line_is_a_chunk_of_its_own() {
        let mut text = b"a\n".to_vec();
        text.extend(std::iter::repeat_n(b'x', 100));
        text.extend(b"\nb\n");
        let opts = ReadOptions {
            chunk_bytes: 8,
            max_record_bytes: 50,
            ..ReadOptions::default()
        };
        let v = all(&text, opts);
        let kinds: Vec<_> = v.iter().map(|c| (c.0, c.2)).collect();
        assert_eq!(
            kinds,
            [
                (1, ChunkKind::Records),
                (2, ChunkKind::Overlong { bytes: 100 }),
                (3, ChunkKind::Records)
            ]
        );
        assert_eq!(v[2].1, b"b\n");
    }

    #[test]
    fn csv_records_hold_quoted_line_ends() {
        // Quoted fields with line breaks and `""`, and quotes inside
        // unquoted fields (literal: they open nothing), cut at every size:
        // the same records as the whole text read at once.
        let text =
            b"a,\"x\ny\"\nb,c\n\"q\nq\",d\n1,http://a/x\"y\n2,z\"\n3,\"p\"\"\n\",x\n4,\"\"\"\"\n"
                .to_vec();
        let whole: Vec<Vec<u8>> = crate::delimited::csv_records(&text)
            .map(<[u8]>::to_vec)
            .collect();
        assert_eq!(whole.len(), 7, "{whole:?}");
        for size in 1..text.len() + 2 {
            let opts = ReadOptions {
                chunk_bytes: size,
                csv_quotes: true,
                ..ReadOptions::default()
            };
            let v = all(&text, opts);
            let got: Vec<Vec<u8>> = v
                .iter()
                .flat_map(|c| crate::delimited::csv_records(&c.1).map(<[u8]>::to_vec))
                .collect();
            assert_eq!(got, whole, "size {size}");
        }
    }

    /// `split_long_records` (free text): a line longer than the limit is cut
    /// into chunks of at most the limit, every byte kept, from a file and
    /// from a stream alike; line numbers stay right.
    #[test]
    fn long_records_split_keep_every_byte() {
        let mut text = b"a\n".to_vec();
        text.extend((0..1000u32).map(|i| b'a' + (i % 26) as u8));
        text.extend(b"\nb\nc");
        for chunk_bytes in [1, 7, 64, 5000] {
            let opts = ReadOptions {
                chunk_bytes,
                max_record_bytes: 100,
                split_long_records: true,
                ..ReadOptions::default()
            };
            let v = all(&text, opts);
            assert!(v.iter().all(|c| c.2 == ChunkKind::Records));
            // A chunk ends at the first record end past its size (at most
            // the limit), and a record is at most the limit and its LF.
            let most = chunk_bytes.min(100) + 101;
            assert!(v.iter().all(|c| c.1.len() <= most), "{chunk_bytes}");
            let joined: Vec<u8> = v.iter().flat_map(|c| c.1.clone()).collect();
            assert_eq!(joined, text);
            let mut line = 1;
            for (first, bytes, _) in &v {
                assert_eq!(*first, line);
                line += count_lfs(bytes);
            }
            // The same from a stream.
            let mut got = Vec::new();
            let mut st = StreamState::new(test_stream(text.clone()));
            let name: Arc<str> = Arc::from("-");
            while let Some(Item::Chunk(c)) = st.next(&Reader::new(&[], opts).opts, 0, &name) {
                assert!(c.data.len() <= STREAM_CHUNK.max(most));
                got.extend_from_slice(&c.data);
            }
            assert_eq!(got, text);
        }
    }

    /// A reading thread that panics (here the input's own `read`, after
    /// two lines) makes the stream a fault after the records that came
    /// before it; it was once a clean end, the rest of the input silently
    /// missing and the run's status 0.
    #[test]
    fn a_reading_thread_that_panics_is_a_fault_not_an_end() {
        struct Breaks(&'static [u8]);
        impl Read for Breaks {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                assert!(!self.0.is_empty(), "a decoder's bug");
                let n = buf.len().min(self.0.len());
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let opts = Reader::new(&[], ReadOptions::default()).opts;
        let mut st = StreamState::new(spawn_stream(Box::new(Breaks(b"http://a/\nb\n")), true));
        let name: Arc<str> = Arc::from("-");
        let (mut got, mut fault) = (Vec::new(), None);
        while let Some(item) = st.next(&opts, 0, &name) {
            match item {
                Item::Chunk(c) => got.extend_from_slice(&c.data),
                Item::Fault(f) => fault = Some(f),
            }
        }
        assert_eq!(got, b"http://a/\nb\n");
        let fault = fault.expect("a fault, not an end");
        assert!(fault.contains("stopped before the end"), "{fault}");
    }

    /// A stream's gathered bytes are the blocks in order, and the buffer
    /// grows to no more than the gathering size and a block (a chunk cut
    /// from it keeps that buffer while its rows are made).
    #[test]
    fn gathered_bytes_stay_within_a_block_of_the_chunk() {
        for gather in [1, 1000, (512 << 10) + 1, (2 << 20) + 1] {
            for block in [1, 4096, BLOCK] {
                let mut buf = Vec::new();
                let mut want = Vec::new();
                let mut k = 0u8;
                while buf.len() < gather {
                    let b = vec![k; block];
                    k = k.wrapping_add(1);
                    append(&mut buf, &b, gather);
                    want.extend_from_slice(&b);
                    assert!(buf.capacity() <= gather + BLOCK, "{gather} {block}");
                }
                assert!(buf == want, "{gather} {block}");
            }
        }
        // A block larger than the bound is taken whole.
        let mut buf = vec![1u8; 10];
        append(&mut buf, &vec![2u8; 3 * BLOCK], 16);
        assert_eq!(buf.len(), 10 + 3 * BLOCK);
    }

    /// With `full_chunks` (Parquet's), a stream is cut where the mapped
    /// file of the same bytes is: the same chunks, so the same row groups
    /// from a pipe as from a file. Lines of many lengths, an unterminated
    /// last line or none, chunk sizes around the lines' and the blocks'.
    #[test]
    fn whole_chunks_from_a_stream_are_the_files() {
        for (lines, last) in [(30_000u32, true), (30_000, false), (7, false), (0, true)] {
            let mut text: Vec<u8> = (0..lines)
                .flat_map(|i| {
                    let p = "x".repeat((i * 7 % 131) as usize);
                    format!("http://h{i}.example/{p}\n").into_bytes()
                })
                .collect();
            if !last {
                text.extend_from_slice(b"http://unterminated/");
            }
            for chunk_bytes in [1, 100, 4096, 65_536, BLOCK - 1, BLOCK + 7, 2 << 20] {
                let opts = ReadOptions {
                    chunk_bytes,
                    full_chunks: true,
                    ..ReadOptions::default()
                };
                let want = if text.is_empty() {
                    Vec::new()
                } else {
                    all(&text, opts)
                };
                let mut got = Vec::new();
                let mut st = StreamState::new(test_stream(text.clone()));
                let name: Arc<str> = Arc::from("-");
                let reader = Reader::new(&[], opts);
                while let Some(Item::Chunk(c)) = st.next(&reader.opts, 0, &name) {
                    got.push((c.first_line, c.data.to_vec(), c.kind));
                }
                assert_eq!(got.len(), want.len(), "{lines} {last} {chunk_bytes}");
                assert!(got == want, "{lines} {last} {chunk_bytes}");
            }
        }
    }

    fn test_stream(bytes: Vec<u8>) -> Stream {
        spawn_stream(Box::new(std::io::Cursor::new(bytes)), true)
    }
}
