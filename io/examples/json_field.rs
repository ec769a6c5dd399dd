//! Finding a JSON Lines field: urilex-io's scanner over the raw bytes
//! (`urilex_io::json::field`) against building each line's document with
//! serde_json and reading the field from it, interleaved in one process
//! (best of ROUNDS), on FILE (JSON Lines) and a dotted PATH:
//!
//!   cargo run --release -p urilex-io --example json_field -- FILE url.original [ROUNDS]
//!
//! Both give the same strings (checked); the scanner stops at the field and
//! does not check the rest of the line, serde_json reads all of it.
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let file = args.next().expect("FILE");
    let path = args.next().expect("PATH");
    let rounds: usize = args.next().map_or(5, |r| r.parse().expect("ROUNDS"));
    let text = std::fs::read(&file).expect("read FILE");
    let lines: Vec<&[u8]> = text
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .collect();
    let pointer = format!("/{}", path.replace('.', "/"));
    let mut out = Vec::new();
    let scan = |out: &mut Vec<u8>| {
        let mut n = 0usize;
        for l in &lines {
            out.clear();
            if let Ok(Some(())) = urilex_io::json::field(l, &path, out) {
                n += out.len();
            }
        }
        n
    };
    let dom = || {
        let mut n = 0usize;
        for l in &lines {
            if let Ok(v) = serde_json::from_slice::<serde_json::Value>(l) {
                // Flattened (`{"url.original":...}`) or nested, as the
                // scanner looks.
                let found = v.get(&path).or_else(|| v.pointer(&pointer));
                if let Some(s) = found.and_then(|v| v.as_str()) {
                    n += s.len();
                }
            }
        }
        n
    };
    assert_eq!(scan(&mut out), dom(), "the two read the same strings");
    let (mut best_scan, mut best_dom) = (f64::MAX, f64::MAX);
    for _ in 0..rounds {
        let t = Instant::now();
        std::hint::black_box(scan(&mut out));
        best_scan = best_scan.min(t.elapsed().as_secs_f64());
        let t = Instant::now();
        std::hint::black_box(dom());
        best_dom = best_dom.min(t.elapsed().as_secs_f64());
    }
    let mb = text.len() as f64 / 1e6;
    println!(
        "{} lines, {mb:.0} MB: scanner {:.0} MB/s, serde_json DOM {:.0} MB/s, ratio {:.2}",
        lines.len(),
        mb / best_scan,
        mb / best_dom,
        best_dom / best_scan
    );
}
