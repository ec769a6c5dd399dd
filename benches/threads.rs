//! The batch engine with 1 and 2 threads over an input of more than 100 MB
//! built from the bundled corpora.
//!
//!     cargo bench --bench threads --features rayon

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};

fn input() -> Vec<u8> {
    let mut buf = Vec::new();
    while buf.len() < 100 << 20 {
        for text in [
            &include_bytes!("data/kasztp.txt")[..],
            include_bytes!("data/node_files.txt"),
        ] {
            buf.extend_from_slice(text);
            buf.push(b'\n');
        }
    }
    buf
}

fn threads(c: &mut Criterion) {
    let buf = input();
    let parser = urilex::Parser::new();
    let mut g = c.benchmark_group("batch-100MB");
    g.throughput(Throughput::Bytes(buf.len() as u64));
    g.sample_size(10);
    for t in [1usize, 2] {
        let mut batch = urilex::Batch::new();
        g.bench_function(format!("threads-{t}"), |b| {
            b.iter(|| {
                batch.parse_lines_parallel(&parser, black_box(&buf), t);
                batch.len()
            })
        });
    }
    g.finish();
}

criterion_group!(benches, threads);
criterion_main!(benches);
