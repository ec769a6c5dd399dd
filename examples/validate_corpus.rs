//! Validates a file with `validate_lines` N times (for profiling):
//! `cargo run --release --example validate_corpus -- FILE [N]`.
fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("FILE");
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let buf = std::fs::read(path).expect("read");
    let parser = urilex::Parser::new();
    let (mut valid, mut total) = (0, 0);
    for _ in 0..n {
        let c = urilex::validate_lines(&parser, &buf);
        valid += c.valid;
        total += c.total;
    }
    println!("{valid} valid of {total}");
}
