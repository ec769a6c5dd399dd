//! Finding URIs in text: urilex beside linkify 0.11 on the same 28 MB of
//! generated mail, Markdown, HTML, JSON and log lines (`support/text.rs`),
//! in one run, throughput in bytes. `cargo run --release --example
//! extract_peers` is the quick check with recall.
//!
//!     cargo bench --bench extract

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use linkify::{LinkFinder, LinkKind};
use urilex::extract::{find_iter, ExtractOptions};

#[path = "support/text.rs"]
mod text;

fn extract(c: &mut Criterion) {
    let text = text::corpus(200_000);
    let mut g = c.benchmark_group("extract/generated-text");
    g.throughput(Throughput::Bytes(text.len() as u64));
    let o = ExtractOptions::new();
    g.bench_function("urilex", |b| {
        b.iter(|| find_iter(text.as_bytes(), o).count())
    });
    let mut finder = LinkFinder::new();
    finder.kinds(&[LinkKind::Url]);
    g.bench_function("linkify", |b| b.iter(|| finder.links(&text).count()));
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).warm_up_time(std::time::Duration::from_millis(500)).measurement_time(std::time::Duration::from_secs(3));
    targets = extract
}
criterion_main!(benches);
