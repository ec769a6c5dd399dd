//! Validates and batch-parses an in-memory file with 1 and 2 threads
//! (best of 5), to see parallel scaling without memory-map effects.
//! `cargo run --release --features rayon --example threads_probe -- FILE`
fn main() {
    let path = std::env::args().nth(1).expect("FILE");
    let buf = std::fs::read(path).expect("read");
    let p = urilex::Parser::new();
    let mut batch = urilex::Batch::new();
    for t in [1usize, 2] {
        let mut best_v = f64::MAX;
        let mut best_b = f64::MAX;
        for _ in 0..5 {
            let s = std::time::Instant::now();
            let c = urilex::validate_lines_parallel(&p, &buf, t);
            best_v = best_v.min(s.elapsed().as_secs_f64());
            let s = std::time::Instant::now();
            batch.parse_lines_parallel(&p, &buf, t);
            best_b = best_b.min(s.elapsed().as_secs_f64());
            assert_eq!(c.total, batch.len());
        }
        println!(
            "threads {t}: validate {:.3} s, batch {:.3} s",
            best_v, best_b
        );
    }
}
