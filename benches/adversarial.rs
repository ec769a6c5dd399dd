//! Time per byte on pathological inputs at 1 MB and 16 MB (the issue's
//! bound: 16 MB within 1.2x of 1 MB per byte). The step counts that prove
//! linearity without timing are in stress/tests/adversarial.rs.
//!
//!     cargo bench --bench adversarial

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};

const MB: usize = 1 << 20;

fn shapes(n: usize) -> Vec<(&'static str, String)> {
    vec![
        (
            "huge-line",
            format!(
                "http://example.com/{}?{}",
                "a".repeat(n / 2),
                "q=1&".repeat(n / 8)
            ),
        ),
        ("at-signs", "@".repeat(n)),
        ("dot-dot", format!("http://a{}", "/..".repeat(n / 3))),
        ("pct41", "%41".repeat(n / 3)),
    ]
}

fn bench(c: &mut Criterion) {
    for n in [MB, 16 * MB] {
        for (name, s) in shapes(n) {
            let mut g = c.benchmark_group(format!("adversarial/{name}"));
            g.throughput(Throughput::Bytes(s.len() as u64));
            g.sample_size(10);
            g.bench_function(format!("parse-{}MB", n / MB), |b| {
                b.iter(|| urilex::UriRef::parse(black_box(&s)).is_ok())
            });
            if let Ok(u) = urilex::UriRef::parse(&s) {
                let mut out = String::new();
                g.bench_function(format!("normalize-{}MB", n / MB), |b| {
                    b.iter(|| {
                        urilex::normalize_into(&u, urilex::NormalizeOptions::new(), &mut out);
                        out.len()
                    })
                });
            }
            g.finish();
        }
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(std::time::Duration::from_millis(300)).measurement_time(std::time::Duration::from_secs(2));
    targets = bench
}
criterion_main!(benches);
