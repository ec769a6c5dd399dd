//! The inputs of the resolution and normalization benchmarks, and one
//! timed round per implementation: shared by `benches/resolve.rs` and the
//! `resolve_peers` and `resolve_corpus` examples, so that all three time
//! the same work. Bases are parsed before a round; each round parses the
//! references (or lines) and resolves (or normalizes) them, as a caller
//! would, and returns the output length so nothing is optimized away.
#![allow(dead_code)]

use std::fmt::Write as _;
use std::hint::black_box;

pub const BASE: &str = "http://a/b/c/d;p?q";

/// RFC 3986 section 5.4's references but "http:g" (strict and non-strict
/// differ there).
pub const RFC_5_4: [&str; 41] = [
    "g:h",
    "g",
    "./g",
    "g/",
    "/g",
    "//g",
    "?y",
    "g?y",
    "#s",
    "g#s",
    "g?y#s",
    ";x",
    "g;x",
    "g;x?y#s",
    "",
    ".",
    "./",
    "..",
    "../",
    "../g",
    "../..",
    "../../",
    "../../g",
    "../../../g",
    "../../../../g",
    "/./g",
    "/../g",
    "g.",
    ".g",
    "g..",
    "..g",
    "./../g",
    "./g/.",
    "g/./h",
    "g/../h",
    "g;x=1/./y",
    "g;x=1/../y",
    "g?y/./x",
    "g?y/../x",
    "g#s/./x",
    "g#s/../x",
];

/// The 5.4 references against their base.
pub fn rfc_5_4_pairs() -> Vec<(String, String)> {
    RFC_5_4
        .iter()
        .map(|r| (BASE.to_string(), r.to_string()))
        .collect()
}

/// The lines of `text` that urilex and fluent-uri both accept.
pub fn valid_lines(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| urilex::UriRef::parse(l).is_ok() && fluent_uri::Uri::parse(*l).is_ok())
        .collect()
}

/// (base, reference) pairs from a corpus: each URL against the next, as an
/// absolute reference, its path and query, and a "../" form.
pub fn corpus_pairs(text: &str) -> Vec<(String, String)> {
    let urls = valid_lines(text);
    let mut out = Vec::new();
    for w in urls.windows(2).step_by(7).take(6000) {
        let (b, t) = (w[0], w[1]);
        let u = urilex::UriRef::parse(t).unwrap();
        out.push((b.to_string(), t.to_string()));
        let mut pq = u.path().to_string();
        if let Some(q) = u.query() {
            pq.push('?');
            pq.push_str(q);
        }
        out.push((b.to_string(), pq));
        let last = u.path().rsplit('/').next().unwrap_or("");
        if !last.contains(':') {
            out.push((b.to_string(), format!("../{last}")));
        }
    }
    out
}

pub fn urilex_bases(pairs: &[(String, String)]) -> Vec<urilex::UriRef<'_>> {
    pairs
        .iter()
        .map(|(b, _)| urilex::UriRef::parse(b).unwrap())
        .collect()
}

pub fn urilex_resolve(
    bases: &[urilex::UriRef],
    pairs: &[(String, String)],
    out: &mut String,
) -> usize {
    let mut n = 0;
    for (base, (_, r)) in bases.iter().zip(pairs) {
        let r = urilex::UriRef::parse(black_box(r)).unwrap();
        urilex::resolve_into(base, &r, urilex::ResolveOptions::new(), out).unwrap();
        n += out.len();
    }
    n
}

pub fn fluent_bases(pairs: &[(String, String)]) -> Vec<fluent_uri::Uri<&str>> {
    pairs
        .iter()
        .map(|(b, _)| fluent_uri::Uri::parse(b.as_str()).unwrap())
        .collect()
}

pub fn fluent_resolve(bases: &[fluent_uri::Uri<&str>], pairs: &[(String, String)]) -> usize {
    let mut n = 0;
    for (base, (_, r)) in bases.iter().zip(pairs) {
        let r = fluent_uri::UriRef::parse(black_box(r.as_str())).unwrap();
        n += r.resolve_against(base).map_or(0, |t| t.as_str().len());
    }
    n
}

/// iri-string's bases drop their fragment (RFC 3986 5.2.1 ignores it, and
/// its absolute-URI type has none).
pub fn iri_string_bases(pairs: &[(String, String)]) -> Vec<iri_string::types::UriAbsoluteString> {
    pairs
        .iter()
        .map(|(b, _)| {
            let b = b.split('#').next().unwrap().to_string();
            iri_string::types::UriAbsoluteString::try_from(b).unwrap()
        })
        .collect()
}

pub fn iri_string_resolve(
    bases: &[iri_string::types::UriAbsoluteString],
    pairs: &[(String, String)],
    out: &mut String,
) -> usize {
    let mut n = 0;
    for (base, (_, r)) in bases.iter().zip(pairs) {
        let r = iri_string::types::UriReferenceStr::new(black_box(r.as_str())).unwrap();
        out.clear();
        let _ = write!(out, "{}", r.resolve_against(base));
        n += out.len();
    }
    n
}

pub fn oxiri_bases(pairs: &[(String, String)]) -> Vec<oxiri::Iri<&str>> {
    pairs
        .iter()
        .map(|(b, _)| oxiri::Iri::parse(b.as_str()).unwrap())
        .collect()
}

pub fn oxiri_resolve(
    bases: &[oxiri::Iri<&str>],
    pairs: &[(String, String)],
    out: &mut String,
) -> usize {
    let mut n = 0;
    for (base, (_, r)) in bases.iter().zip(pairs) {
        out.clear();
        let r = oxiri::IriRef::parse(black_box(r.as_str())).unwrap();
        let _ = base.resolve_into(&r, out);
        n += out.len();
    }
    n
}

pub fn urilex_normalize(lines: &[&str], out: &mut String) -> usize {
    let mut n = 0;
    for l in lines {
        let u = urilex::UriRef::parse(black_box(l)).unwrap();
        urilex::normalize_into(&u, urilex::NormalizeOptions::new(), out);
        n += out.len();
    }
    n
}

pub fn fluent_normalize(lines: &[&str]) -> usize {
    let mut n = 0;
    for l in lines {
        n += fluent_uri::Uri::parse(black_box(*l))
            .unwrap()
            .normalize()
            .as_str()
            .len();
    }
    n
}

pub fn iri_string_normalize(lines: &[&str], out: &mut String) -> usize {
    let mut n = 0;
    for l in lines {
        let u = iri_string::types::UriStr::new(black_box(*l)).unwrap();
        out.clear();
        let _ = write!(out, "{}", u.normalize());
        n += out.len();
    }
    n
}
