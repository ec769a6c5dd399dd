//! Parsing URL corpora line by line: urilex beside fluent-uri and oxiri, in
//! one run, throughput in bytes. The corpora are in benches/data/ (and, when
//! present, the two uncopyable ones in ../shared/data/urls/).
//!
//!     cargo bench --bench parse

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use std::path::Path;

fn corpora() -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    let local = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/data");
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/urls");
    for (dir, name) in [
        (&local, "kasztp"),
        (&local, "node_files"),
        (&shared, "isaacs_files"),
        (&shared, "userbait"),
    ] {
        if let Ok(text) = std::fs::read_to_string(dir.join(format!("{name}.txt"))) {
            out.push((name.to_string(), text.lines().map(str::to_string).collect()));
        }
    }
    out
}

fn parse(c: &mut Criterion) {
    for (name, lines) in corpora() {
        let bytes: usize = lines.iter().map(String::len).sum();
        let mut g = c.benchmark_group(format!("parse/{name}"));
        g.throughput(Throughput::Bytes(bytes as u64));
        g.bench_function("urilex", |b| {
            b.iter(|| {
                let mut ok = 0usize;
                for l in &lines {
                    ok += urilex::UriRef::parse(black_box(l)).is_ok() as usize;
                }
                ok
            })
        });
        let buf: Vec<u8> = lines.join("\n").into_bytes();
        g.bench_function("urilex-batch", |b| {
            let p = urilex::Parser::new();
            let mut batch = urilex::Batch::new();
            b.iter(|| {
                batch.parse_lines(&p, black_box(&buf));
                batch.len()
            })
        });
        g.bench_function("urilex-validate-dfa", |b| {
            let p = urilex::Parser::new();
            b.iter(|| {
                let mut ok = 0usize;
                for l in &lines {
                    ok += p.is_valid(black_box(l.as_bytes())) as usize;
                }
                ok
            })
        });
        g.bench_function("fluent-uri", |b| {
            b.iter(|| {
                let mut ok = 0usize;
                for l in &lines {
                    ok += fluent_uri::UriRef::parse(black_box(l.as_str())).is_ok() as usize;
                }
                ok
            })
        });
        g.bench_function("oxiri", |b| {
            b.iter(|| {
                let mut ok = 0usize;
                for l in &lines {
                    ok += oxiri::IriRef::parse(black_box(l.as_str())).is_ok() as usize;
                }
                ok
            })
        });
        g.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).warm_up_time(std::time::Duration::from_millis(500)).measurement_time(std::time::Duration::from_secs(2));
    targets = parse
}
criterion_main!(benches);
