//! Parses a file with the batch engine N times (for profiling):
//! `cargo run --release --example batch_corpus -- FILE [N]`.
fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("FILE");
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let buf = std::fs::read(path).expect("read");
    let parser = urilex::Parser::new();
    let mut batch = urilex::Batch::new();
    let mut valid = 0;
    for _ in 0..n {
        batch.parse_lines(&parser, &buf);
        valid += batch.counts().valid;
    }
    println!("{valid} valid of {}", batch.len() * n);
}
