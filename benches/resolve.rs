//! Resolution and normalization: urilex beside fluent-uri, iri-string and
//! oxiri (resolve_into), in one run. Each iteration parses the references
//! and resolves them (or normalizes them), as a caller would.
//!
//!     cargo bench --bench resolve

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use std::fmt::Write as _;

const BASE: &str = "http://a/b/c/d;p?q";
const RFC_5_4: [&str; 41] = [
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

/// (base, reference) pairs from the corpora: each URL against the next, as
/// an absolute reference, its path and query, and a "../" form.
fn corpus_pairs() -> Vec<(String, String)> {
    let text = include_str!("data/kasztp.txt");
    let urls: Vec<&str> = text
        .lines()
        .filter(|l| urilex::UriRef::parse(l).is_ok() && fluent_uri::Uri::parse(*l).is_ok())
        .collect();
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
        out.push((b.to_string(), pq.clone()));
        let last = u.path().rsplit('/').next().unwrap_or("");
        if !last.contains(':') {
            out.push((b.to_string(), format!("../{last}")));
        }
    }
    out
}

fn bench_pairs(c: &mut Criterion, name: &str, pairs: &[(String, String)]) {
    let bytes: usize = pairs.iter().map(|(b, r)| b.len() + r.len()).sum();
    let mut g = c.benchmark_group(format!("resolve/{name}"));
    g.throughput(Throughput::Bytes(bytes as u64));
    // Bases are parsed once, outside the timed loop, for every implementation.
    let ours: Vec<_> = pairs
        .iter()
        .map(|(b, _)| urilex::UriRef::parse(b).unwrap())
        .collect();
    g.bench_function("urilex", |bch| {
        let mut out = String::with_capacity(256);
        bch.iter(|| {
            let mut n = 0;
            for (base, (_, r)) in ours.iter().zip(pairs) {
                let r = urilex::UriRef::parse(black_box(r)).unwrap();
                urilex::resolve_into(base, &r, urilex::ResolveOptions::new(), &mut out).unwrap();
                n += out.len();
            }
            n
        })
    });
    let fluent: Vec<_> = pairs
        .iter()
        .map(|(b, _)| fluent_uri::Uri::parse(b.as_str()).unwrap())
        .collect();
    g.bench_function("fluent-uri", |bch| {
        bch.iter(|| {
            let mut n = 0;
            for (base, (_, r)) in fluent.iter().zip(pairs) {
                let r = fluent_uri::UriRef::parse(black_box(r.as_str())).unwrap();
                n += r
                    .resolve_against(base)
                    .map(|t| t.as_str().len())
                    .unwrap_or(0);
            }
            n
        })
    });
    let iris: Vec<_> = pairs
        .iter()
        .map(|(b, _)| {
            iri_string::types::UriAbsoluteString::try_from(b.split('#').next().unwrap().to_string())
                .unwrap()
        })
        .collect();
    g.bench_function("iri-string", |bch| {
        let mut out = String::with_capacity(256);
        bch.iter(|| {
            let mut n = 0;
            for (base, (_, r)) in iris.iter().zip(pairs) {
                let r = iri_string::types::UriReferenceStr::new(black_box(r.as_str())).unwrap();
                out.clear();
                let _ = write!(out, "{}", r.resolve_against(base));
                n += out.len();
            }
            n
        })
    });
    let ox: Vec<_> = pairs
        .iter()
        .map(|(b, _)| oxiri::Iri::parse(b.as_str()).unwrap())
        .collect();
    g.bench_function("oxiri", |bch| {
        let mut out = String::with_capacity(256);
        bch.iter(|| {
            let mut n = 0;
            for (base, (_, r)) in ox.iter().zip(pairs) {
                out.clear();
                let r = oxiri::IriRef::parse(black_box(r.as_str())).unwrap();
                let _ = base.resolve_into(&r, &mut out);
                n += out.len();
            }
            n
        })
    });
    g.finish();
}

fn resolve(c: &mut Criterion) {
    let rfc: Vec<(String, String)> = RFC_5_4
        .iter()
        .map(|r| (BASE.to_string(), r.to_string()))
        .collect();
    bench_pairs(c, "rfc3986-5.4", &rfc);
    bench_pairs(c, "corpus-pairs", &corpus_pairs());
}

fn normalize(c: &mut Criterion) {
    for (name, text) in [
        ("kasztp", include_str!("data/kasztp.txt")),
        ("node_files", include_str!("data/node_files.txt")),
    ] {
        let lines: Vec<&str> = text
            .lines()
            .filter(|l| urilex::UriRef::parse(l).is_ok() && fluent_uri::Uri::parse(*l).is_ok())
            .collect();
        let bytes: usize = lines.iter().map(|l| l.len()).sum();
        let mut g = c.benchmark_group(format!("normalize/{name}"));
        g.throughput(Throughput::Bytes(bytes as u64));
        g.bench_function("urilex", |b| {
            let mut out = String::with_capacity(256);
            b.iter(|| {
                let mut n = 0;
                for l in &lines {
                    let u = urilex::UriRef::parse(black_box(l)).unwrap();
                    urilex::normalize_into(&u, urilex::NormalizeOptions::new(), &mut out);
                    n += out.len();
                }
                n
            })
        });
        g.bench_function("fluent-uri", |b| {
            b.iter(|| {
                let mut n = 0;
                for l in &lines {
                    n += fluent_uri::Uri::parse(black_box(*l))
                        .unwrap()
                        .normalize()
                        .as_str()
                        .len();
                }
                n
            })
        });
        g.bench_function("iri-string", |b| {
            let mut out = String::with_capacity(256);
            b.iter(|| {
                let mut n = 0;
                for l in &lines {
                    let u = iri_string::types::UriStr::new(black_box(*l)).unwrap();
                    out.clear();
                    let _ = write!(out, "{}", u.normalize());
                    n += out.len();
                }
                n
            })
        });
        g.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(15).warm_up_time(std::time::Duration::from_millis(400)).measurement_time(std::time::Duration::from_secs(2));
    targets = resolve, normalize
}
criterion_main!(benches);
