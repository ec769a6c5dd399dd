//! Validates and batch-parses an in-memory file with 1 and 2 threads
//! (best of ROUNDS, default 15), to see parallel scaling without memory-map
//! effects. The machine is shared: a round whose second core is taken by
//! someone else is slow, so only the best rounds say what the code does.
//! `cargo run --release --features rayon --example threads_probe -- FILE [ROUNDS]`
fn main() {
    let path = std::env::args().nth(1).expect("FILE");
    let rounds: usize = std::env::args()
        .nth(2)
        .and_then(|r| r.parse().ok())
        .unwrap_or(15);
    let buf = std::fs::read(path).expect("read");
    let p = urilex::Parser::new();
    let mut batch = urilex::Batch::new();
    let mut best = Vec::new();
    for t in [1usize, 2] {
        let mut best_v = f64::MAX;
        let mut best_b = f64::MAX;
        for _ in 0..rounds {
            let s = std::time::Instant::now();
            let c = urilex::validate_lines_parallel(&p, &buf, t);
            best_v = best_v.min(s.elapsed().as_secs_f64());
            let s = std::time::Instant::now();
            batch.parse_lines_parallel(&p, &buf, t);
            best_b = best_b.min(s.elapsed().as_secs_f64());
            assert_eq!(c.total, batch.len());
        }
        println!(
            "threads {t}: validate {:.1} ms, batch {:.1} ms",
            best_v * 1e3,
            best_b * 1e3
        );
        best.push((best_v, best_b));
    }
    println!(
        "2 threads against 1: validate {:.2}x, batch {:.2}x",
        best[0].0 / best[1].0,
        best[0].1 / best[1].1
    );
}
