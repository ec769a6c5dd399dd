//! Parses a file of references line by line, N times (for profiling):
//! `cargo run --release --example parse_corpus -- FILE [N]`.
fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("FILE");
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let text = std::fs::read_to_string(path).expect("read");
    let lines: Vec<&str> = text.lines().collect();
    let mut ok = 0usize;
    for _ in 0..n {
        for l in &lines {
            ok += urilex::UriRef::parse(l).is_ok() as usize;
        }
    }
    println!("{ok} valid of {}", lines.len() * n);
}
