//! Interleaved timing for the `*_peers` examples: every job runs once per
//! round, round after round, and each job's best round is kept, so the
//! machine's slow spells hit all of them alike.
#![allow(dead_code)]

use std::hint::black_box;
use std::time::{Duration, Instant};

pub type Job<'a> = Box<dyn FnMut() -> usize + 'a>;

/// Runs every job `reps` times a round for `rounds` rounds, interleaved;
/// prints each one's best round as MB/s over `bytes`, ns per item over
/// `items`, and as a ratio to the first job's time.
pub fn race(
    name: &str,
    (bytes, items): (usize, usize),
    reps: usize,
    rounds: usize,
    jobs: &mut [(&str, Job)],
) {
    let mut best = vec![Duration::MAX; jobs.len()];
    for _ in 0..rounds {
        for (k, (_, job)) in jobs.iter_mut().enumerate() {
            let t = Instant::now();
            for _ in 0..reps {
                black_box(job());
            }
            best[k] = best[k].min(t.elapsed());
        }
    }
    println!("{name}");
    for (k, (label, _)) in jobs.iter().enumerate() {
        let mbs = (bytes * reps) as f64 / best[k].as_secs_f64() / 1e6;
        let ns = best[k].as_secs_f64() * 1e9 / (items * reps) as f64;
        let ratio = best[0].as_secs_f64() / best[k].as_secs_f64();
        println!(
            "  {label:<20} {mbs:8.0} MB/s {ns:7.1} ns/item  {ratio:5.2}x {}",
            jobs[0].0
        );
    }
}
