//! Batches across threads, on the caller's rayon pool or the global one:
//! the buffer is cut after line ends into pieces, each piece's records go
//! to a part of the batch of their own, and the order of the lines is kept.

use super::record::{Record, LONG};
use super::*;
use crate::engine::Spans;

/// From this many bytes of input on, a parallel parse stores the records
/// past the caches (`scan::push_streaming`): they outgrow them anyway, and
/// a store that first reads its line doubles the memory traffic, which
/// the threads share. (One thread measured no faster with it.)
#[cfg(feature = "rayon")]
pub(super) const STREAM_FROM: usize = 8 << 20;

#[cfg(feature = "rayon")]
pub(super) fn thread_count(threads: usize) -> usize {
    if threads == 0 {
        rayon::current_num_threads()
    } else {
        threads
    }
}

impl Batch {
    /// [`parse_lines`](Self::parse_lines) across threads, keeping the order
    /// of the lines. Needs the `rayon` feature.
    ///
    /// It runs on the caller's rayon pool (inside `ThreadPool::install`) or
    /// on rayon's global pool, and never starts threads of its own; `threads`
    /// is how many of them to split the work for (0: every thread of that
    /// pool; 1: no splitting, on the calling thread).
    ///
    /// ```
    /// # #[cfg(feature = "rayon")] {
    /// let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// let buf = "http://a/b\n".repeat(20_000);
    /// let mut batch = urilex::Batch::new();
    /// pool.install(|| batch.parse_lines_parallel(&urilex::Parser::new(), buf.as_bytes(), 0));
    /// assert_eq!(batch.len(), 20_000);
    /// # }
    /// ```
    ///
    /// The buffer is cut after line ends into pieces, and each thread fills
    /// the records of its pieces into their own parts of the batch: nothing
    /// counts the lines first, and nothing is copied afterwards.
    #[cfg(feature = "rayon")]
    pub fn parse_lines_parallel(&mut self, parser: &Parser, buf: &[u8], threads: usize) {
        use rayon::prelude::*;
        let threads = thread_count(threads);
        if threads <= 1 || buf.len() < 1 << 16 {
            return self.parse_lines(parser, buf);
        }
        let cuts = line_cuts(buf, threads * 8);
        let pieces: Vec<(usize, usize)> = cuts.windows(2).map(|w| (w[0], w[1])).collect();
        self.clear(parser, buf.len(), super::Source::Lines);
        // Parts kept from an earlier call keep their storage.
        let mut parts = core::mem::take(&mut self.parts);
        parts.resize_with(pieces.len(), Vec::new);
        let stream = buf.len() >= STREAM_FROM;
        let longs: Vec<Vec<Spans>> = pieces
            .par_iter()
            .zip(parts.par_iter_mut())
            .map(|(&(a, b), part)| {
                // `clear` above emptied every part.
                let mut long = Vec::new();
                let mut out = Records {
                    base: a,
                    records: part,
                    stream,
                    long: &mut long,
                };
                parse_buf(parser, &buf[a..b], &mut out);
                // Before the join hands the part to this thread's caller.
                if stream {
                    crate::scan::stream_fence();
                }
                long
            })
            .collect();
        self.parts = parts;
        self.firsts.clear();
        let mut first = 0;
        for p in &self.parts {
            self.firsts.push(first);
            first += p.len();
        }
        // Long lines' spans: renumber each part's into one side table.
        if longs.iter().any(|l| !l.is_empty()) {
            for (part, l) in self.parts.iter_mut().zip(longs) {
                let base = self.long.len() as u32;
                if base > 0 {
                    for w in part.iter_mut() {
                        let mut r = Record::from_words(*w);
                        if r.status & LONG != 0 {
                            r.set_wide(r.wide() + base);
                            *w = r.words();
                        }
                    }
                }
                self.long.extend_from_slice(&l);
            }
        }
    }
}

/// [`validate_lines`] across threads: on the caller's rayon pool or the
/// global one (never a pool of its own), the work split for `threads` of
/// them (0: all of the pool's).
#[cfg(feature = "rayon")]
pub fn validate_lines_parallel(parser: &Parser, buf: &[u8], threads: usize) -> Counts {
    use rayon::prelude::*;
    let threads = thread_count(threads);
    if threads <= 1 || buf.len() < 1 << 16 {
        return validate_lines(parser, buf);
    }
    let cuts = line_cuts(buf, threads * 8);
    let parts: Vec<Counts> = cuts
        .par_windows(2)
        .map(|w| validate_lines(parser, &buf[w[0]..w[1]]))
        .collect();
    let mut c = Counts::default();
    for p in &parts {
        c.add(p);
    }
    c
}

/// Cut points (0, ..., len) just after line ends, about `pieces` apart.
#[cfg(feature = "rayon")]
pub(super) fn line_cuts(buf: &[u8], pieces: usize) -> Vec<usize> {
    let mut cuts = vec![0usize];
    for k in 1..pieces {
        let at = buf.len() * k / pieces;
        if at <= *cuts.last().unwrap_or(&0) {
            continue;
        }
        match memchr::memchr(b'\n', &buf[at..]) {
            Some(i) if at + i + 1 < buf.len() => cuts.push(at + i + 1),
            _ => break,
        }
    }
    cuts.push(buf.len());
    cuts
}
