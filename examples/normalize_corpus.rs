//! Normalizes every line of a file N times (for profiling):
//! `cargo run --release --example normalize_corpus -- FILE [N]`.
fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("FILE");
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let text = std::fs::read_to_string(path).expect("read");
    let mut out = String::new();
    let mut total = 0;
    for _ in 0..n {
        for l in text.lines() {
            if let Ok(u) = urilex::UriRef::parse(l) {
                urilex::normalize_into(&u, urilex::NormalizeOptions::new(), &mut out);
                total += out.len();
            }
        }
    }
    println!("{total}");
}
