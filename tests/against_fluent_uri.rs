//! urilex against fluent-uri (an independent RFC 3986 implementation): same
//! verdict and same components on generated inputs, the corpora and the
//! published vectors. Any disagreement must be listed in `decided_by_rfc`
//! with the section of RFC 3986 that settles it; there are none today.

#[path = "support/gen.rs"]
mod gen;

use fluent_uri::component::Host as FHost;
use urilex::UriRef;

type Parts = (
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    String,
    Option<String>,
    Option<String>,
    Option<&'static str>,
);

fn ours(s: &str) -> Option<Parts> {
    let u = UriRef::parse(s).ok()?;
    let o = |x: Option<&str>| x.map(str::to_string);
    Some((
        o(u.scheme()),
        o(u.authority()),
        o(u.userinfo()),
        o(u.host_str()),
        o(u.port()),
        u.path().to_string(),
        o(u.query()),
        o(u.fragment()),
        u.host_kind().map(|k| k.as_str()),
    ))
}

fn theirs(s: &str) -> Option<Parts> {
    let u = fluent_uri::UriRef::parse(s).ok()?;
    let a = u.authority();
    let kind = a.as_ref().map(|a| match a.host_parsed() {
        FHost::Ipv4(..) => "ipv4",
        FHost::Ipv6(..) => "ipv6",
        FHost::RegName(..) => "reg-name",
        _ => "ipvfuture",
    });
    Some((
        u.scheme().map(|x| x.as_str().to_string()),
        a.as_ref().map(|a| a.as_str().to_string()),
        a.as_ref()
            .and_then(|a| a.userinfo())
            .map(|x| x.as_str().to_string()),
        a.as_ref().map(|a| a.host().to_string()),
        a.as_ref()
            .and_then(|a| a.port())
            .map(|x| x.as_str().to_string()),
        u.path().as_str().to_string(),
        u.query().map(|x| x.as_str().to_string()),
        u.fragment().map(|x| x.as_str().to_string()),
        kind,
    ))
}

/// Inputs on which the two may differ, with the RFC's decision.
fn decided_by_rfc(_input: &str) -> Option<&'static str> {
    None
}

fn compare(inputs: impl Iterator<Item = String>) -> (usize, Vec<String>) {
    let mut n = 0;
    let mut diffs = Vec::new();
    for s in inputs {
        n += 1;
        let (a, b) = (ours(&s), theirs(&s));
        if a != b && decided_by_rfc(&s).is_none() {
            diffs.push(format!("{s:?}\n  urilex:     {a:?}\n  fluent-uri: {b:?}"));
        }
    }
    (n, diffs)
}

fn report(what: &str, (n, diffs): (usize, Vec<String>)) {
    eprintln!(
        "against fluent-uri, {what}: {n} inputs, {} disagreements",
        diffs.len()
    );
    assert!(
        diffs.is_empty(),
        "{what}: {} disagreements:\n{}",
        diffs.len(),
        diffs[..diffs.len().min(15)].join("\n")
    );
}

#[test]
fn generated_inputs() {
    let mut rng = gen::Rng(0xF1_0E17);
    let inputs = (0..100_000).filter_map(|_| String::from_utf8(gen::input(&mut rng)).ok());
    report("generated", compare(inputs));
}

#[test]
fn corpora_and_vectors() {
    let mut lines: Vec<String> = Vec::new();
    for text in [
        include_str!("../benches/data/kasztp.txt"),
        include_str!("../benches/data/node_files.txt"),
    ] {
        lines.extend(text.lines().map(str::to_string));
    }
    for l in include_str!("data/parse.jsonl").lines() {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        lines.push(v["input"].as_str().unwrap().to_string());
    }
    report("corpora and vectors", compare(lines.into_iter()));
}
