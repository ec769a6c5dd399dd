//! One JSON row per line of a file, parsed with fluent-uri (RFC 3986):
//! what a Rust user writes without urilex.
use fluent_uri::UriRef;
use serde::Serialize;
use std::io::{BufWriter, Write};

#[derive(Serialize)]
struct Row<'a> {
    line: u64,
    valid: bool,
    scheme: Option<&'a str>,
    authority: Option<&'a str>,
    userinfo: Option<&'a str>,
    host: Option<&'a str>,
    port: Option<&'a str>,
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
    let body = map.strip_suffix(b"\n").unwrap_or(&map);
    let mut out = BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    for (i, line) in body.split(|&b| b == b'\n').enumerate() {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let text = String::from_utf8_lossy(line);
        let parsed = UriRef::parse(text.as_ref());
        let row = match &parsed {
            Ok(u) => {
                let a = u.authority();
                Row {
                    line: i as u64 + 1,
                    valid: true,
                    scheme: u.scheme().map(|s| s.as_str()),
                    authority: a.map(|a| a.as_str()),
                    userinfo: a.and_then(|a| a.userinfo()).map(|s| s.as_str()),
                    host: a.map(|a| a.host()),
                    port: a.and_then(|a| a.port()).map(|s| s.as_str()),
                    path: Some(u.path().as_str()),
                    query: u.query().map(|s| s.as_str()),
                    fragment: u.fragment().map(|s| s.as_str()),
                    error: None,
                }
            }
            Err(e) => Row {
                line: i as u64 + 1,
                valid: false,
                scheme: None,
                authority: None,
                userinfo: None,
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
