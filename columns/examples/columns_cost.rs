//! One column function over a corpus, `ROUNDS` times: for instruction
//! counts (callgrind) and timing of the kernels without Python around
//! them.
//!
//!     cargo run --release -p urilex-columns --example columns_cost -- FILE FUNCTION [ROUNDS]
//!     valgrind --tool=callgrind target/release/examples/columns_cost FILE parse 1
use arrow_array::{ArrayRef, StringArray};
use std::sync::Arc;
use urilex_columns::{function, Literals};

/// As in the Python package and urilex-sql, whose calls these time.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read(&args[1]).expect("a corpus");
    let name = &args[2];
    let rounds: usize = args.get(3).map_or(1, |r| r.parse().expect("a number"));
    let lines: Vec<&str> = text
        .split(|&b| b == b'\n')
        .filter_map(|l| std::str::from_utf8(l).ok())
        .filter(|l| !l.is_empty())
        .collect();
    let col: ArrayRef = Arc::new(StringArray::from(lines.clone()));
    let f = function(name).expect("a column function");
    let args = Literals(Vec::new());
    let t = std::time::Instant::now();
    let mut best = f64::MAX;
    for _ in 0..rounds {
        let s = std::time::Instant::now();
        let r = f.eval(&col, &args).expect("a result");
        best = best.min(s.elapsed().as_secs_f64());
        std::hint::black_box(r);
    }
    eprintln!(
        "{name}: {} rows, best {:.1} ns/row ({rounds} rounds, {:.2} s)",
        lines.len(),
        best * 1e9 / lines.len() as f64,
        t.elapsed().as_secs_f64()
    );
}
