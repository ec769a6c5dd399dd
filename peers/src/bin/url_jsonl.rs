//! One JSON row per line of a file, parsed with the `url` crate (WHATWG):
//! what a Rust user writes without urilex. Relative references, which the
//! WHATWG parser rejects without a base, are error rows.
use serde::Serialize;
use std::io::{BufWriter, Write};

#[derive(Serialize)]
struct Row<'a> {
    line: u64,
    valid: bool,
    scheme: Option<&'a str>,
    username: Option<&'a str>,
    host: Option<&'a str>,
    port: Option<u16>,
    path: Option<&'a str>,
    query: Option<&'a str>,
    fragment: Option<&'a str>,
    error: Option<String>,
}

fn main() {
    let path = std::env::args().nth(1).expect("FILE");
    let file = std::fs::File::open(path).unwrap();
    // SAFETY: read-only map of a file nobody changes during the run.
    let map = unsafe { memmap2::Mmap::map(&file).unwrap() };
    let mut out = BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let body = map.strip_suffix(b"\n").unwrap_or(&map);
    for (i, line) in body.split(|&b| b == b'\n').enumerate() {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let text = String::from_utf8_lossy(line);
        let row = match url::Url::parse(&text) {
            Ok(u) => {
                let r = Row {
                    line: i as u64 + 1,
                    valid: true,
                    scheme: Some(u.scheme()),
                    username: Some(u.username()),
                    host: u.host_str(),
                    port: u.port(),
                    path: Some(u.path()),
                    query: u.query(),
                    fragment: u.fragment(),
                    error: None,
                };
                serde_json::to_writer(&mut out, &r).unwrap();
                out.write_all(b"\n").unwrap();
                continue;
            }
            Err(e) => Row {
                line: i as u64 + 1,
                valid: false,
                scheme: None,
                username: None,
                host: None,
                port: None,
                path: None,
                query: None,
                fragment: None,
                error: Some(e.to_string()),
            },
        };
        serde_json::to_writer(&mut out, &row).unwrap();
        out.write_all(b"\n").unwrap();
    }
    out.flush().unwrap();
}
