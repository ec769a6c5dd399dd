//! Work on chunks across threads, results handed on in input order.
//!
//! A feeder thread pulls the items (reading and decompressing happen
//! there, or on the stream threads behind it), `threads` workers turn them
//! into outputs (parsing and formatting: the bulk of the time), and the
//! calling thread takes the outputs in input order (writing). At most
//! `2 * threads + 1` items are in flight, so memory stays bounded by the
//! chunk size whatever the input's size. With one thread everything runs
//! on the calling thread, one item after the other, unless the caller asks
//! for the reading apart ([`run_ordered_in_flight`]'s `read_apart`): then
//! a feeder thread reads, and the calling thread works and writes.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::Duration;

/// Runs `work` on every item of `items` (each worker with state from
/// `init`), and `sink` on the outputs in the items' order. Stops at the
/// first error of `sink` (the items not yet taken are never read).
/// Returns the workers' states as they ended (what each gathered over its
/// items, to be merged: counts).
pub fn run_ordered<I, W, O, E>(
    threads: usize,
    items: impl Iterator<Item = I> + Send + 'static,
    init: impl Fn() -> W + Sync,
    work: impl Fn(&mut W, I) -> O + Sync,
    sink: impl FnMut(O) -> Result<(), E>,
) -> Result<Vec<W>, E>
where
    I: Send + 'static,
    O: Send,
    W: Send,
{
    run_ordered_in_flight(threads, 2 * threads + 1, false, items, init, work, sink)
}

/// [`run_ordered`] with at most `in_flight` items between the reader and
/// the sink (read ahead, being worked on, or done and waiting for an
/// earlier one): fewer for large items. With `read_apart`, one worker
/// (on the calling thread, which also runs `sink`) still has a feeder
/// thread beside it: the items are read (a mapped file's pages faulted in,
/// its line ends counted) while the worker is on the one before, where a
/// worker that reads for itself waits for both in turn. For work that
/// takes long beside its reading (rows built and written); a verdict per
/// line over a chunk takes too little for the hand-off per item to pay.
pub fn run_ordered_in_flight<I, W, O, E>(
    threads: usize,
    in_flight: usize,
    read_apart: bool,
    items: impl Iterator<Item = I> + Send + 'static,
    init: impl Fn() -> W + Sync,
    work: impl Fn(&mut W, I) -> O + Sync,
    mut sink: impl FnMut(O) -> Result<(), E>,
) -> Result<Vec<W>, E>
where
    I: Send + 'static,
    O: Send,
    W: Send,
{
    let threads = threads.max(1);
    if threads == 1 {
        let mut w = init();
        if !read_apart {
            for item in items {
                sink(work(&mut w, item))?;
            }
            return Ok(vec![w]);
        }
        // The one worker stays on this thread and only the reading moves:
        // a spawned worker's buffers came from an arena of its own, which
        // glibc gave back and the kernel zeroed again chunk after chunk
        // (`clear_page_erms` 13% of the worker's time, Arrow IPC output).
        // In flight: the item being worked on, those queued, and the one
        // the feeder holds while it waits to queue it.
        let (tx, rx) = mpsc::sync_channel::<I>(in_flight.saturating_sub(2).max(1));
        let feeder = std::thread::spawn(move || {
            for item in items {
                if tx.send(item).is_err() {
                    break;
                }
            }
        });
        for item in rx.iter() {
            sink(work(&mut w, item))?;
        }
        // The queue closed: the feeder has ended, by the items' end or a
        // panic, which goes on up (rows after it were never read).
        if let Err(panic) = feeder.join() {
            std::panic::resume_unwind(panic);
        }
        return Ok(vec![w]);
    }
    let in_flight = in_flight.max(threads + 1);
    let stop = AtomicBool::new(false);
    let (job_tx, job_rx) = mpsc::sync_channel::<(u64, I)>(threads);
    // Tokens bound the items between the feeder and the sink.
    let (token_tx, token_rx) = mpsc::sync_channel::<()>(in_flight);
    for _ in 0..in_flight {
        token_tx.send(()).expect("room for every token");
    }
    // The feeder is joined only when every item was written: after a
    // failed write it may be waiting for input that never comes (a
    // terminal, `tail -f`); it ends when it next finds no token or no
    // worker.
    let feeder = std::thread::spawn(move || {
        for (seq, item) in (0u64..).zip(items) {
            if token_rx.recv().is_err() || job_tx.send((seq, item)).is_err() {
                break;
            }
        }
    });
    let mut token_tx = Some(token_tx);
    let job_rx = Mutex::new(job_rx);
    std::thread::scope(|scope| {
        let (out_tx, out_rx) = mpsc::channel::<(u64, O)>();
        let (init, work, job_rx, stop) = (&init, &work, &job_rx, &stop);
        let mut workers = Vec::with_capacity(threads);
        for _ in 0..threads {
            let out_tx = out_tx.clone();
            workers.push(scope.spawn(move || {
                // A panic here stops the others (the sink would wait for
                // this item forever), then goes on up at the join below.
                let _stop = StopOnPanic(stop);
                let mut w = init();
                loop {
                    let next = match job_rx.lock() {
                        Ok(rx) => rx.recv_timeout(Duration::from_millis(50)),
                        Err(_) => break,
                    };
                    match next {
                        Ok((seq, item)) => {
                            if stop.load(Ordering::Relaxed) {
                                break;
                            }
                            if out_tx.send((seq, work(&mut w, item))).is_err() {
                                break;
                            }
                        }
                        Err(mpsc::RecvTimeoutError::Timeout) if !stop.load(Ordering::Relaxed) => {}
                        Err(_) => break,
                    }
                }
                w
            }));
        }
        drop(out_tx);
        let mut waiting = BTreeMap::new();
        let mut next = 0u64;
        let mut result = Ok(());
        for (seq, out) in out_rx.iter() {
            if result.is_err() {
                continue;
            }
            waiting.insert(seq, out);
            while let Some(out) = waiting.remove(&next) {
                next += 1;
                result = sink(out);
                if result.is_err() {
                    stop.store(true, Ordering::Relaxed);
                    token_tx = None;
                    waiting.clear();
                    break;
                }
                if let Some(t) = &token_tx {
                    let _ = t.send(());
                }
            }
        }
        result?;
        // A worker that panicked sent no output for its item, so the items
        // after it were never written: its panic goes on up (a join that
        // took it would leave a short output and a success behind).
        let mut done = Vec::with_capacity(workers.len());
        for w in workers {
            match w.join() {
                Ok(w) => done.push(w),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        // The workers ended on the closed queue, so the feeder has ended
        // too: by the items' end, or by a panic in the reading, which goes
        // on up (the items after it were never read; the run would
        // otherwise end short, with a success).
        if let Err(panic) = feeder.join() {
            std::panic::resume_unwind(panic);
        }
        Ok(done)
    })
}

/// Sets its flag when dropped by a panic.
struct StopOnPanic<'a>(&'a AtomicBool);

impl Drop for StopOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.store(true, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn outputs_come_in_order_for_any_thread_count() {
        for threads in [1, 2, 3, 8] {
            let mut seen = Vec::new();
            super::run_ordered(
                threads,
                (0..1000u32).collect::<Vec<_>>().into_iter(),
                || 0u32,
                |calls, i| {
                    *calls += 1;
                    if i % 7 == 0 {
                        std::thread::yield_now();
                    }
                    i * 2
                },
                |o| -> Result<(), ()> {
                    seen.push(o);
                    Ok(())
                },
            )
            .unwrap();
            assert_eq!(seen, (0..1000).map(|i| i * 2).collect::<Vec<_>>());
        }
    }

    #[test]
    fn one_worker_reading_apart_reads_on_another_thread_in_order() {
        use std::sync::{Arc, Mutex};
        use std::thread::{current, ThreadId};
        let readers = Arc::new(Mutex::new(Vec::<ThreadId>::new()));
        let items = (0..500u32).map({
            let readers = readers.clone();
            move |i| {
                readers.lock().unwrap().push(current().id());
                i
            }
        });
        let workers = Mutex::new(Vec::<ThreadId>::new());
        let mut seen = Vec::new();
        let states = super::run_ordered_in_flight(
            1,
            3,
            true,
            items,
            || 0u32,
            |calls, i| {
                *calls += 1;
                workers.lock().unwrap().push(current().id());
                i + 1
            },
            |o| -> Result<(), ()> {
                seen.push(o);
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(seen, (1..=500).collect::<Vec<_>>());
        // One worker, which took every item.
        assert_eq!(states, vec![500]);
        let (readers, workers) = (readers.lock().unwrap(), workers.into_inner().unwrap());
        assert_eq!(readers.len(), 500);
        let (reader, worker) = (readers[0], workers[0]);
        assert!(readers.iter().all(|&t| t == reader));
        assert!(workers.iter().all(|&t| t == worker));
        // The worker is the caller (its buffers from the caller's arena).
        assert!(reader != worker && worker == current().id());
    }

    #[test]
    #[should_panic(expected = "reading item 7")]
    fn a_feeder_that_panics_beside_one_worker_fails_the_run() {
        let items = (0..100u32).inspect(|&i| assert!(i != 7, "reading item {i}"));
        let _ = super::run_ordered_in_flight(
            1,
            3,
            true,
            items,
            || (),
            |_, i| i,
            |_| -> Result<(), ()> { Ok(()) },
        );
    }

    #[test]
    #[should_panic(expected = "reading item 7")]
    fn a_feeder_that_panics_beside_several_workers_fails_the_run() {
        let items = (0..100u32).inspect(|&i| assert!(i != 7, "reading item {i}"));
        let _ = super::run_ordered(3, items, || (), |_, i| i, |_| -> Result<(), ()> { Ok(()) });
    }

    #[test]
    fn one_worker_reading_inline_runs_on_the_calling_thread() {
        let me = std::thread::current().id();
        let mut seen = Vec::new();
        super::run_ordered_in_flight(
            1,
            3,
            false,
            (0..100u32).inspect(move |_| assert_eq!(std::thread::current().id(), me)),
            || (),
            |_, i| {
                assert_eq!(std::thread::current().id(), me);
                i
            },
            |o| -> Result<(), ()> {
                seen.push(o);
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(seen, (0..100).collect::<Vec<_>>());
    }

    #[test]
    #[should_panic(expected = "item 5")]
    fn a_worker_that_panics_fails_the_run() {
        let _ = super::run_ordered(
            2,
            0..100_000u32,
            || (),
            |_, i| {
                assert!(i != 5, "item {i}");
                i
            },
            |_| -> Result<(), ()> { Ok(()) },
        );
    }

    #[test]
    fn a_sink_error_stops_the_run() {
        // Several workers; one beside a feeder; one reading inline.
        for (threads, apart) in [(2, false), (1, true), (1, false)] {
            let mut n = 0;
            let r = super::run_ordered_in_flight(
                threads,
                2 * threads + 1,
                apart,
                0..100_000u32,
                || (),
                |_, i| i,
                |o| {
                    n += 1;
                    if o == 10 {
                        Err("stop")
                    } else {
                        Ok(())
                    }
                },
            );
            assert_eq!(r.err(), Some("stop"), "{threads} {apart}");
            assert_eq!(n, 11, "{threads} {apart}");
        }
    }
}
