//! Work handed to a thread of its own, in order. [`Queue`]: items taken
//! one by one by a scoped thread (the Arrow IPC encoder takes the record
//! batches, so that its copies and the writes run beside the workers).
//! [`Handoff`]: a writer whose bytes are gathered into blocks of about
//! [`BLOCK`] bytes and written to the real output on such a thread (the
//! Parquet file's row groups). Either way the caller goes on with the next
//! batch while the kernel copies the last one into the file, as the text
//! writer's thread does for text rows: with one worker, the work and the
//! writes overlap.

use std::io::{self, Write};
use std::sync::mpsc;
use std::thread::{Scope, ScopedJoinHandle};

/// About how many bytes go to the writing thread at once.
pub const BLOCK: usize = 1 << 20;

/// Blocks waiting for the writing thread: enough to ride out a slow
/// write, few enough to bound the memory.
const QUEUED: usize = 4;

/// Items for a scoped thread, which takes them in the order sent. Dropped
/// without [`Queue::finish`], the queue closes and the thread ends with
/// the scope, its result unseen.
pub struct Queue<'scope, T, E> {
    tx: Option<mpsc::SyncSender<T>>,
    thread: Option<ScopedJoinHandle<'scope, Result<(), E>>>,
}

impl<'scope, T: Send + 'scope, E: From<io::Error> + Send + 'scope> Queue<'scope, T, E> {
    /// `take` on a thread of `scope`, given the items as they are sent
    /// (at most `depth` wait for it); it returns when the queue closes, or
    /// at its first error, which [`Queue::send`] or [`Queue::finish`]
    /// then returns.
    pub fn new<'env>(
        scope: &'scope Scope<'scope, 'env>,
        depth: usize,
        take: impl FnOnce(mpsc::Receiver<T>) -> Result<(), E> + Send + 'scope,
    ) -> Queue<'scope, T, E> {
        let (tx, rx) = mpsc::sync_channel::<T>(depth);
        Queue {
            tx: Some(tx),
            thread: Some(scope.spawn(move || take(rx))),
        }
    }

    /// Hands `item` to the thread (waiting while `depth` items wait); the
    /// thread's error if it has stopped on one.
    pub fn send(&mut self, item: T) -> Result<(), E> {
        match &self.tx {
            Some(tx) if tx.send(item).is_ok() => Ok(()),
            _ => Err(self.end().err().unwrap_or_else(|| closed().into())),
        }
    }

    /// Closes the queue and waits for the thread: its result.
    fn end(&mut self) -> Result<(), E> {
        self.tx = None;
        match self.thread.take().map(ScopedJoinHandle::join) {
            Some(Ok(r)) => r,
            Some(Err(_)) => Err(io::Error::other("the writing thread panicked").into()),
            None => Err(closed().into()),
        }
    }

    /// Closes the queue and waits for the thread to take every item: the
    /// first error it met.
    pub fn finish(mut self) -> Result<(), E> {
        self.end()
    }
}

/// See the module's text. Dropped without [`Handoff::finish`], the blocks
/// gathered so far are written and the thread ends with the scope.
pub struct Handoff<'scope> {
    buf: Vec<u8>,
    queue: Queue<'scope, Vec<u8>, io::Error>,
    /// Blocks written, back for reuse.
    spare: mpsc::Receiver<Vec<u8>>,
    /// Whether [`Handoff::finish`] has ended the queue.
    done: bool,
}

impl<'scope> Handoff<'scope> {
    /// Writes into `out` on a thread of `scope`.
    pub fn new<'env, W: Write + Send + 'scope>(
        scope: &'scope Scope<'scope, 'env>,
        mut out: W,
    ) -> Handoff<'scope> {
        let (back, spare) = mpsc::sync_channel::<Vec<u8>>(QUEUED + 1);
        let queue = Queue::new(scope, QUEUED, move |rx: mpsc::Receiver<Vec<u8>>| {
            for block in rx {
                out.write_all(&block)?;
                let _ = back.try_send(block);
            }
            out.flush()
        });
        Handoff {
            buf: Vec::with_capacity(BLOCK),
            queue,
            spare,
            done: false,
        }
    }

    /// Hands the gathered bytes to the thread; its error if it has
    /// stopped on one.
    fn ship(&mut self) -> io::Result<()> {
        if self.buf.is_empty() {
            return Ok(());
        }
        let mut next = self.spare.try_recv().unwrap_or_default();
        next.clear();
        next.reserve(BLOCK);
        let full = std::mem::replace(&mut self.buf, next);
        self.queue.send(full)
    }

    /// Writes what is left and waits for every write: the first error
    /// any of them met.
    pub fn finish(mut self) -> io::Result<()> {
        self.done = true;
        self.ship()?;
        self.queue.end()
    }
}

fn closed() -> io::Error {
    io::Error::other("the output was closed after an error")
}

impl Write for Handoff<'_> {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        self.buf.extend_from_slice(data);
        if self.buf.len() >= BLOCK {
            self.ship()?;
        }
        Ok(data.len())
    }

    /// Hands what is gathered to the thread without waiting for it to be
    /// written ([`Handoff::finish`] waits).
    fn flush(&mut self) -> io::Result<()> {
        self.ship()
    }
}

impl Drop for Handoff<'_> {
    fn drop(&mut self) {
        if !self.done {
            let _ = self.ship();
            let _ = self.queue.end();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records every write; fails once `fail_after` bytes are taken.
    struct Sink<'a> {
        got: &'a mut Vec<u8>,
        fail_after: usize,
    }

    impl Write for Sink<'_> {
        fn write(&mut self, data: &[u8]) -> io::Result<usize> {
            if self.got.len() + data.len() > self.fail_after {
                return Err(io::Error::other("disk full"));
            }
            self.got.extend_from_slice(data);
            Ok(data.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn every_byte_arrives_in_order() {
        // Writes of many sizes, flushes between some: the output is their
        // concatenation.
        let mut want = Vec::new();
        let mut got = Vec::new();
        std::thread::scope(|s| {
            let mut h = Handoff::new(
                s,
                Sink {
                    got: &mut got,
                    fail_after: usize::MAX,
                },
            );
            for i in 0..3000usize {
                let data: Vec<u8> = (0..(i * 37) % 5000).map(|k| (k + i) as u8).collect();
                h.write_all(&data).unwrap();
                want.extend_from_slice(&data);
                if i % 7 == 0 {
                    h.flush().unwrap();
                }
            }
            h.finish().unwrap();
        });
        assert_eq!(got, want);
    }

    #[test]
    fn a_failed_write_is_reported() {
        let mut got = Vec::new();
        let r = std::thread::scope(|s| {
            let mut h = Handoff::new(
                s,
                Sink {
                    got: &mut got,
                    fail_after: 3 * BLOCK,
                },
            );
            let block = vec![7u8; BLOCK / 2];
            for _ in 0..64 {
                h.write_all(&block)?;
            }
            h.finish()
        });
        let e = r.expect_err("the sink fails after 3 blocks");
        assert!(e.to_string().contains("disk full"), "{e}");
        assert!(got.len() <= 3 * BLOCK);
    }

    #[test]
    fn nothing_written_is_nothing() {
        let mut got = Vec::new();
        std::thread::scope(|s| {
            let h = Handoff::new(
                s,
                Sink {
                    got: &mut got,
                    fail_after: usize::MAX,
                },
            );
            h.finish().unwrap();
        });
        assert!(got.is_empty());
    }
}
