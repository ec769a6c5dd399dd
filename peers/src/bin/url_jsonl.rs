//! One JSON row per line of a file, parsed with the `url` crate (WHATWG):
//! what a Rust user writes without urilex. Relative references, which the
//! WHATWG parser rejects without a base, are error rows.
use serde::Serialize;

#[derive(Serialize, Default)]
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
    urilex_peers::rows(|line, text, out| {
        let parsed = url::Url::parse(text);
        let row = match &parsed {
            Ok(u) => Row {
                line,
                valid: true,
                scheme: Some(u.scheme()),
                username: Some(u.username()),
                host: u.host_str(),
                port: u.port(),
                path: Some(u.path()),
                query: u.query(),
                fragment: u.fragment(),
                error: None,
            },
            Err(e) => Row {
                line,
                error: Some(e.to_string()),
                ..Row::default()
            },
        };
        serde_json::to_writer(out, &row).unwrap();
    });
}
