//! Parsing URL corpora line by line: urilex beside fluent-uri and oxiri, in
//! one run, throughput in bytes. The corpora and the timed rounds are in
//! `support/parsing.rs`, shared with the `parse_peers` example.
//!
//!     cargo bench --bench parse

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

#[path = "support/parsing.rs"]
mod parsing;

fn parse(c: &mut Criterion) {
    for (name, lines) in parsing::corpora() {
        let bytes: usize = lines.iter().map(String::len).sum();
        let mut g = c.benchmark_group(format!("parse/{name}"));
        g.throughput(Throughput::Bytes(bytes as u64));
        let p = urilex::Parser::new();
        g.bench_function("urilex", |b| b.iter(|| parsing::urilex(&lines)));
        let buf: Vec<u8> = lines.join("\n").into_bytes();
        g.bench_function("urilex-batch", |b| {
            let mut batch = urilex::Batch::new();
            b.iter(|| parsing::urilex_batch(&p, &mut batch, &buf))
        });
        g.bench_function("urilex-validate-lines", |b| {
            b.iter(|| parsing::urilex_validate_lines(&p, &buf))
        });
        g.bench_function("urilex-validate-dfa", |b| {
            b.iter(|| parsing::urilex_dfa(&p, &lines))
        });
        g.bench_function("fluent-uri", |b| b.iter(|| parsing::fluent(&lines)));
        g.bench_function("oxiri", |b| b.iter(|| parsing::oxiri(&lines)));
        g.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).warm_up_time(std::time::Duration::from_millis(500)).measurement_time(std::time::Duration::from_secs(2));
    targets = parse
}
criterion_main!(benches);
