//! Recall and precision of `urilex::extract` and of linkify 0.11 on
//! outside fixtures, scored the same way for both: the fixtures of
//! robinst/linkify's `tests/url.rs` and of markdown-it/linkify-it
//! (`tests/data/extract/`, sources in its SOURCES.md). For each fixture's
//! input a finder's links are compared with the expected ones by text: a
//! hit counts when its text equals an expected link (each expected link
//! matched once). Recall is hits over expected links, precision hits over
//! links found. Nothing here is asserted by a test: it is a measurement.
//!
//! Each set is split by whether the expected link has a scheme
//! (`scheme:`...); urilex finds only URIs, which have one (and with
//! `--abbreviated`, `www.`/`ftp.` names, completed), where linkify also
//! finds e-mail addresses and, configured so, bare domains.
//!
//!     cargo run --release --example extract_recall

use linkify::{LinkFinder, LinkKind};
use serde_json::Value;
use urilex::extract::{find_iter, ExtractOptions};

struct Case {
    input: String,
    links: Vec<String>,
}

fn load(text: &str, keep: impl Fn(&Value) -> bool) -> Vec<Case> {
    text.lines()
        .map(|l| serde_json::from_str::<Value>(l).expect("a JSON line"))
        .filter(|v| keep(v))
        .map(|v| Case {
            input: v["input"].as_str().unwrap_or_default().to_string(),
            links: v["links"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|x| x.as_str().map(String::from))
                        .collect()
                })
                .unwrap_or_default(),
        })
        .collect()
}

/// Whether a link begins with a scheme and its ":".
fn has_scheme(link: &str) -> bool {
    let b = link.as_bytes();
    let Some(colon) = link.find(':') else {
        return false;
    };
    colon > 0
        && b[0].is_ascii_alphabetic()
        && b[..colon]
            .iter()
            .all(|c| c.is_ascii_alphanumeric() || b"+-.".contains(c))
}

#[derive(Default, Clone, Copy)]
struct Score {
    expected: usize,
    found: usize,
    hits: usize,
}

impl Score {
    fn add(&mut self, expected: &[String], found: &[String]) {
        let mut left: Vec<&String> = expected.iter().collect();
        for f in found {
            if let Some(k) = left.iter().position(|e| *e == f) {
                left.swap_remove(k);
                self.hits += 1;
            }
        }
        self.expected += expected.len();
        self.found += found.len();
    }
    fn show(&self) -> String {
        let pct = |a: usize, b: usize| {
            if b == 0 {
                100.0
            } else {
                100.0 * a as f64 / b as f64
            }
        };
        format!(
            "recall {:>3}/{:<3} {:5.1}%   precision {:>3}/{:<3} {:5.1}%",
            self.hits,
            self.expected,
            pct(self.hits, self.expected),
            self.hits,
            self.found,
            pct(self.hits, self.found)
        )
    }
}

type Finder<'a> = (&'a str, Box<dyn Fn(&str) -> Vec<String> + 'a>);

fn main() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/extract/");
    let read = |f: &str| std::fs::read_to_string(format!("{dir}{f}")).expect("fixtures");
    let linkify_url = read("linkify-url.jsonl");
    let sets: Vec<(&str, Vec<Case>)> = vec![
        (
            "linkify tests/url.rs, default finder's cases",
            load(&linkify_url, |v| v["finder"] == "scheme"),
        ),
        (
            "linkify tests/url.rs, no-scheme finder's cases",
            load(&linkify_url, |v| v["finder"] == "no-scheme"),
        ),
        (
            "linkify-it links.txt + not_links.txt",
            load(&read("linkify-it.jsonl"), |_| true),
        ),
    ];
    let lk_default = LinkFinder::new();
    let mut lk_bare = LinkFinder::new();
    lk_bare.url_must_have_scheme(false);
    lk_bare.kinds(&[LinkKind::Url, LinkKind::Email]);
    let finders: Vec<Finder> = vec![
        (
            "urilex extract",
            Box::new(|s: &str| {
                find_iter(s.as_bytes(), ExtractOptions::new())
                    .map(|h| h.uri.into_owned())
                    .collect()
            }),
        ),
        (
            "urilex extract --abbreviated",
            Box::new(|s: &str| {
                find_iter(s.as_bytes(), ExtractOptions::new().abbreviated(true))
                    .map(|h| h.uri.into_owned())
                    .collect()
            }),
        ),
        (
            "linkify (default: URLs with a scheme, e-mail)",
            Box::new(|s: &str| {
                lk_default
                    .links(s)
                    .map(|l| l.as_str().to_string())
                    .collect()
            }),
        ),
        (
            "linkify (url_must_have_scheme(false))",
            Box::new(|s: &str| lk_bare.links(s).map(|l| l.as_str().to_string()).collect()),
        ),
    ];
    for (name, cases) in &sets {
        let with: usize = cases
            .iter()
            .flat_map(|c| &c.links)
            .filter(|l| has_scheme(l))
            .count();
        let total: usize = cases.iter().map(|c| c.links.len()).sum();
        println!(
            "{name}: {} inputs, {total} expected links ({with} with a scheme)",
            cases.len()
        );
        for (fname, find) in &finders {
            let (mut all, mut scheme) = (Score::default(), Score::default());
            for c in cases {
                let found = find(&c.input);
                all.add(&c.links, &found);
                // The same, counting only links with a scheme on both sides.
                let e: Vec<String> = c.links.iter().filter(|l| has_scheme(l)).cloned().collect();
                let f: Vec<String> = found.into_iter().filter(|l| has_scheme(l)).collect();
                scheme.add(&e, &f);
            }
            println!("  {fname:<46} all: {}", all.show());
            println!("  {:<46} with a scheme: {}", "", scheme.show());
        }
    }
}
