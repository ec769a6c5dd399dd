//! One JSON row per line of a file, parsed with fluent-uri (RFC 3986):
//! what a Rust user writes without urilex.
use fluent_uri::UriRef;
use serde::Serialize;

#[derive(Serialize, Default)]
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
    urilex_peers::rows(|line, text, out| {
        let parsed = UriRef::parse(text);
        let row = match &parsed {
            Ok(u) => {
                let a = u.authority();
                Row {
                    line,
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
                line,
                error: Some(e.to_string()),
                ..Row::default()
            },
        };
        serde_json::to_writer(out, &row).unwrap();
    });
}
