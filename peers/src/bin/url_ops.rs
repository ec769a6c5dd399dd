//! The operations of `urilex get`/`params`/`keys --count` written with the
//! `url` crate (and `psl` for registrable domains): what a Rust user
//! writes without urilex. One line per input line for `host` and
//! `registrable` (empty when there is none or the line is not a URL),
//! `line<TAB>key<TAB>value` per pair for `params` (the `url` crate's
//! `query_pairs` decode as a form does: `+` is a space; urilex's `params`
//! writes each side as written and decoded), `key<TAB>count` by count for
//! `keys-count`.
//!
//!   url_ops host|registrable|params|keys-count FILE
use std::collections::HashMap;
use std::io::Write;

fn main() {
    let mode = std::env::args().nth(1).expect("MODE");
    let path = std::env::args().nth(2).expect("FILE");
    let file = std::fs::File::open(path).unwrap();
    // SAFETY: read-only map of a file nobody changes during the run.
    let map = unsafe { memmap2::Mmap::map(&file).unwrap() };
    let body = map.strip_suffix(b"\n").unwrap_or(&map);
    let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let mut counts: HashMap<String, u64> = HashMap::new();
    for (i, line) in body.split(|&b| b == b'\n').enumerate() {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let text = String::from_utf8_lossy(line);
        let parsed = url::Url::parse(&text);
        match mode.as_str() {
            "host" => {
                if let Ok(u) = &parsed {
                    out.write_all(u.host_str().unwrap_or("").as_bytes())
                        .unwrap();
                }
                out.write_all(b"\n").unwrap();
            }
            "registrable" => {
                if let Some(d) = parsed
                    .as_ref()
                    .ok()
                    .and_then(|u| u.host_str().map(str::to_ascii_lowercase))
                {
                    if let Some(r) = psl::domain(d.as_bytes()).filter(|r| r.suffix().is_known()) {
                        out.write_all(r.as_bytes()).unwrap();
                    }
                }
                out.write_all(b"\n").unwrap();
            }
            "params" => {
                if let Ok(u) = &parsed {
                    for (k, v) in u.query_pairs() {
                        writeln!(out, "{}\t{k}\t{v}", i + 1).unwrap();
                    }
                }
            }
            "keys-count" => {
                if let Ok(u) = &parsed {
                    for (k, _) in u.query_pairs() {
                        *counts.entry(k.into_owned()).or_insert(0) += 1;
                    }
                }
            }
            m => panic!("unknown mode {m}"),
        }
    }
    if mode == "keys-count" {
        let mut all: Vec<(String, u64)> = counts.into_iter().collect();
        all.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        for (k, n) in all {
            writeln!(out, "{k}\t{n}").unwrap();
        }
    }
    out.flush().unwrap();
}
