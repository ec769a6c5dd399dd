//! Resolution and normalization: urilex beside fluent-uri, iri-string and
//! oxiri (resolve_into), in one run. Each iteration parses the references
//! and resolves them (or normalizes them), as a caller would; the rounds
//! are in `support/peers.rs`, shared with the `resolve_peers` example.
//!
//!     cargo bench --bench resolve

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

#[path = "support/peers.rs"]
mod peers;

fn bench_pairs(c: &mut Criterion, name: &str, pairs: &[(String, String)]) {
    let bytes: usize = pairs.iter().map(|(b, r)| b.len() + r.len()).sum();
    let mut g = c.benchmark_group(format!("resolve/{name}"));
    g.throughput(Throughput::Bytes(bytes as u64));
    // Bases are parsed once, outside the timed loop, for every implementation.
    let mut out = String::with_capacity(256);
    let ours = peers::urilex_bases(pairs);
    g.bench_function("urilex", |b| {
        b.iter(|| peers::urilex_resolve(&ours, pairs, &mut out))
    });
    let fluent = peers::fluent_bases(pairs);
    g.bench_function("fluent-uri", |b| {
        b.iter(|| peers::fluent_resolve(&fluent, pairs))
    });
    let iris = peers::iri_string_bases(pairs);
    g.bench_function("iri-string", |b| {
        b.iter(|| peers::iri_string_resolve(&iris, pairs, &mut out))
    });
    let ox = peers::oxiri_bases(pairs);
    g.bench_function("oxiri", |b| {
        b.iter(|| peers::oxiri_resolve(&ox, pairs, &mut out))
    });
    g.finish();
}

fn resolve(c: &mut Criterion) {
    bench_pairs(c, "rfc3986-5.4", &peers::rfc_5_4_pairs());
    let kasztp = include_str!("data/kasztp.txt");
    bench_pairs(c, "corpus-pairs", &peers::corpus_pairs(kasztp));
}

fn normalize(c: &mut Criterion) {
    for (name, text) in [
        ("kasztp", include_str!("data/kasztp.txt")),
        ("node_files", include_str!("data/node_files.txt")),
    ] {
        let lines = peers::valid_lines(text);
        let bytes: usize = lines.iter().map(|l| l.len()).sum();
        let mut g = c.benchmark_group(format!("normalize/{name}"));
        g.throughput(Throughput::Bytes(bytes as u64));
        let mut out = String::with_capacity(256);
        g.bench_function("urilex", |b| {
            b.iter(|| peers::urilex_normalize(&lines, &mut out))
        });
        g.bench_function("fluent-uri", |b| b.iter(|| peers::fluent_normalize(&lines)));
        g.bench_function("iri-string", |b| {
            b.iter(|| peers::iri_string_normalize(&lines, &mut out))
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
