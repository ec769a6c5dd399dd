//! `urilex lint --whatwg` written with the crates a Rust user has: each
//! line parsed by fluent-uri (RFC 3986) and by the `url` crate (WHATWG),
//! the WHATWG getters and whether the two readings differ (only one
//! accepts it, or the hosts differ, compared lower-cased) as one JSON row
//! per line. The lint classes urilex adds are not computed: a lower bound
//! on the work.
use serde::Serialize;

#[derive(Serialize)]
struct Whatwg<'a> {
    scheme: &'a str,
    host: &'a str,
    port: String,
    path: &'a str,
    href: &'a str,
}

#[derive(Serialize)]
struct Row<'a> {
    line: u64,
    input: &'a str,
    valid: bool,
    whatwg: Option<Whatwg<'a>>,
    differs: Option<&'static str>,
}

fn main() {
    urilex_peers::rows(|line, text, out| {
        let rfc = fluent_uri::UriRef::parse(text);
        let w = url::Url::parse(text);
        let differs = match (&rfc, &w) {
            (Err(_), Err(_)) => None,
            (Err(_), Ok(_)) => Some("whatwg-only"),
            (Ok(_), Err(_)) => Some("rfc-only"),
            (Ok(r), Ok(u)) => {
                let a = r.authority().map(|a| a.host().to_ascii_lowercase());
                let b = u.host_str().unwrap_or("");
                (a.as_deref().unwrap_or("") != b).then_some("whatwg-host-differs")
            }
        };
        let row = Row {
            line,
            input: text,
            valid: rfc.is_ok(),
            whatwg: w.as_ref().ok().map(|u| Whatwg {
                scheme: u.scheme(),
                host: u.host_str().unwrap_or(""),
                port: u.port().map_or_else(String::new, |p| p.to_string()),
                path: u.path(),
                href: u.as_str(),
            }),
            differs,
        };
        serde_json::to_writer(out, &row).unwrap();
    });
}
