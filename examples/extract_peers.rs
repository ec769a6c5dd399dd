//! Extraction timed against linkify 0.11 in one process, interleaved round
//! by round (each one's best round), on text generated here: prose with
//! URIs in mail, Markdown, HTML, JSON and Apache log lines, the URIs drawn
//! from the bundled URL corpora (benches/data/). Also the recall of both on
//! the realistic table of tests/extract.rs (URIs with a scheme).
//!
//!     cargo run --release --example extract_peers [ROUNDS]
#[path = "../tests/support/extract_cases.rs"]
mod cases;
#[path = "../benches/support/race.rs"]
mod race;

use linkify::{LinkFinder, LinkKind};
use race::{race, Job};
use urilex::extract::{find_iter, ExtractOptions};

/// Deterministic text: about `lines` lines, one in three with a URI.
fn corpus(lines: usize) -> String {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/data");
    let mut urls: Vec<String> = Vec::new();
    for f in ["kasztp.txt", "node_files.txt"] {
        let text = std::fs::read_to_string(format!("{dir}/{f}")).expect("bundled corpus");
        urls.extend(
            text.lines()
                .filter(|l| l.starts_with("http") && !l.contains(['"', '<', '>', ' ']))
                .map(str::to_string),
        );
    }
    let words = [
        "the", "resource", "was", "moved", "see", "details", "in", "ticket", "and", "please",
        "check", "whether", "cache", "server", "returned", "an", "error", "for", "request", "ok",
    ];
    let mut x: u64 = 0x7E57_C0DE;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x as usize
    };
    let mut out = String::new();
    for _ in 0..lines {
        let url = &urls[next() % urls.len()];
        let mut prose = String::new();
        for _ in 0..8 + next() % 8 {
            prose.push_str(words[next() % words.len()]);
            prose.push(' ');
        }
        match next() % 9 {
            0 => out.push_str(&format!("{prose}see {url}.\n")),
            1 => out.push_str(&format!("{prose}[link]({url}) {prose}\n")),
            2 => out.push_str(&format!("<a href=\"{url}\">{prose}</a>\n")),
            3 => out.push_str(&format!("{{\"url\":\"{url}\",\"note\":\"{prose}\"}}\n")),
            4 => out.push_str(&format!(
                "10.0.0.1 - - [10/Oct/2000:13:55:36 -0700] \"GET /a HTTP/1.1\" 200 2326 \"{url}\" \"Mozilla/5.0 (X11; Linux x86_64)\"\n"
            )),
            5 => out.push_str(&format!("{prose}<{url}> {prose}\n")),
            _ => out.push_str(&format!("{prose}{prose}\n")),
        }
    }
    out
}

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(15);
    let text = corpus(200_000);
    let finder = {
        let mut f = LinkFinder::new();
        f.kinds(&[LinkKind::Url]);
        f
    };
    let o = ExtractOptions::new();
    let a = find_iter(text.as_bytes(), o).count();
    let b = finder.links(&text).count();
    println!(
        "hits: urilex {a}, linkify {b} ({} MB)",
        text.len() / 1_000_000
    );
    let mut jobs: Vec<(&str, Job)> = vec![
        ("linkify", Box::new(|| finder.links(&text).count())),
        ("urilex", Box::new(|| find_iter(text.as_bytes(), o).count())),
    ];
    race(
        "generated text",
        (text.len(), text.lines().count()),
        1,
        rounds,
        &mut jobs,
    );

    // Recall on the realistic table: expected URIs found, over all expected.
    let (mut want, mut ours, mut theirs) = (0, 0, 0);
    for (input, expected) in cases::REALISTIC {
        let got: Vec<String> = find_iter(input.as_bytes(), o)
            .map(|h| h.uri.into_owned())
            .collect();
        let lk: Vec<&str> = finder.links(input).map(|l| l.as_str()).collect();
        for e in *expected {
            want += 1;
            ours += usize::from(got.iter().any(|g| g == e));
            theirs += usize::from(lk.contains(e));
        }
    }
    println!("recall on the realistic table: urilex {ours}/{want}, linkify {theirs}/{want}");
}
