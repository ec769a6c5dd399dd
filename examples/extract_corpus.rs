//! Extracts the URIs of the generated benchmark text N times (for
//! profiling): `cargo run --release --example extract_corpus -- [N] [FILE]`.
//! Without FILE, the text of `benches/support/text.rs`.
#[path = "../benches/support/text.rs"]
mod text;

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let buf = match args.next() {
        Some(path) => std::fs::read(path).expect("read"),
        None => text::corpus(200_000).into_bytes(),
    };
    let o = urilex::extract::ExtractOptions::new();
    let mut hits = 0;
    let t = std::time::Instant::now();
    for _ in 0..n {
        hits += urilex::extract::find_iter(&buf, o).count();
    }
    let s = t.elapsed().as_secs_f64();
    println!("{hits} hits, {:.0} MB/s", (buf.len() * n) as f64 / s / 1e6);
}
