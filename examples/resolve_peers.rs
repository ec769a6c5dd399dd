//! Resolution and normalization timed against fluent-uri and oxiri in one
//! process, the implementations interleaved round by round, each one's best
//! round kept. On a shared, noisy machine this gives steadier ratios than
//! separate criterion runs (`cargo bench --bench resolve` stays the
//! reference; this is the quick check while working):
//!
//!     cargo run --release --example resolve_peers [ROUNDS | --pairs]
use std::hint::black_box;
use std::time::{Duration, Instant};

const BASE: &str = "http://a/b/c/d;p?q";
const RFC_5_4: &str = "g:h g ./g g/ /g //g ?y g?y #s g#s g?y#s ;x g;x g;x?y#s . ./ .. ../ ../g \
    ../.. ../../ ../../g ../../../g ../../../../g /./g /../g g. .g g.. ..g ./../g ./g/. g/./h \
    g/../h g;x=1/./y g;x=1/../y g?y/./x g?y/../x g#s/./x g#s/../x";

/// The `resolve` benchmark's pairs: each corpus URL against the next, as an
/// absolute reference, its path and query, and a "../" form.
fn corpus_pairs(text: &str) -> Vec<(String, String)> {
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
        out.push((b.to_string(), pq));
        let last = u.path().rsplit('/').next().unwrap_or("");
        if !last.contains(':') {
            out.push((b.to_string(), format!("../{last}")));
        }
    }
    out
}

type Job<'a> = Box<dyn FnMut() -> usize + 'a>;

/// Runs every job `rounds` times, interleaved; prints each one's best time
/// as MB/s and as a ratio to the first job's.
fn race(name: &str, bytes: usize, reps: usize, rounds: usize, jobs: &mut [(&str, Job)]) {
    let mut best = vec![Duration::MAX; jobs.len()];
    for _ in 0..rounds {
        for (k, (_, job)) in jobs.iter_mut().enumerate() {
            let t = Instant::now();
            for _ in 0..reps {
                black_box(job());
            }
            best[k] = best[k].min(t.elapsed());
        }
    }
    println!("{name}");
    for (k, (label, _)) in jobs.iter().enumerate() {
        let mbs = (bytes * reps) as f64 / best[k].as_secs_f64() / 1e6;
        let ratio = best[0].as_secs_f64() / best[k].as_secs_f64();
        println!("  {label:<12} {mbs:8.0} MB/s  {ratio:5.2}x {}", jobs[0].0);
    }
}

fn resolve_set(name: &str, pairs: &[(String, String)], reps: usize, rounds: usize) {
    let bytes: usize = pairs.iter().map(|(b, r)| b.len() + r.len()).sum();
    let ours: Vec<_> = pairs
        .iter()
        .map(|(b, _)| urilex::UriRef::parse(b).unwrap())
        .collect();
    let fluent: Vec<_> = pairs
        .iter()
        .map(|(b, _)| fluent_uri::Uri::parse(b.as_str()).unwrap())
        .collect();
    let ox: Vec<_> = pairs
        .iter()
        .map(|(b, _)| oxiri::Iri::parse(b.as_str()).unwrap())
        .collect();
    let mut out = String::with_capacity(256);
    let mut out2 = String::with_capacity(256);
    let mut jobs: Vec<(&str, Job)> = vec![
        (
            "fluent-uri",
            Box::new(|| {
                let mut n = 0;
                for (base, (_, r)) in fluent.iter().zip(pairs) {
                    let r = fluent_uri::UriRef::parse(black_box(r.as_str())).unwrap();
                    n += r
                        .resolve_against(base)
                        .map(|t| t.as_str().len())
                        .unwrap_or(0);
                }
                n
            }),
        ),
        (
            "urilex",
            Box::new(|| {
                let mut n = 0;
                for (base, (_, r)) in ours.iter().zip(pairs) {
                    let r = urilex::UriRef::parse(black_box(r)).unwrap();
                    urilex::resolve_into(base, &r, urilex::ResolveOptions::new(), &mut out)
                        .unwrap();
                    n += out.len();
                }
                n
            }),
        ),
        (
            "oxiri",
            Box::new(|| {
                let mut n = 0;
                for (base, (_, r)) in ox.iter().zip(pairs) {
                    out2.clear();
                    let r = oxiri::IriRef::parse(black_box(r.as_str())).unwrap();
                    let _ = base.resolve_into(&r, &mut out2);
                    n += out2.len();
                }
                n
            }),
        ),
    ];
    race(name, bytes, reps, rounds, &mut jobs);
}

fn normalize_set(name: &str, text: &str, reps: usize, rounds: usize) {
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| urilex::UriRef::parse(l).is_ok() && fluent_uri::Uri::parse(*l).is_ok())
        .collect();
    let bytes: usize = lines.iter().map(|l| l.len()).sum();
    let mut out = String::with_capacity(256);
    let mut jobs: Vec<(&str, Job)> = vec![
        (
            "fluent-uri",
            Box::new(|| {
                let mut n = 0;
                for l in &lines {
                    n += fluent_uri::Uri::parse(black_box(*l))
                        .unwrap()
                        .normalize()
                        .as_str()
                        .len();
                }
                n
            }),
        ),
        (
            "urilex",
            Box::new(|| {
                let mut n = 0;
                for l in &lines {
                    let u = urilex::UriRef::parse(black_box(l)).unwrap();
                    urilex::normalize_into(&u, urilex::NormalizeOptions::new(), &mut out);
                    n += out.len();
                }
                n
            }),
        ),
    ];
    race(name, bytes, reps, rounds, &mut jobs);
}

fn main() {
    let kasztp = include_str!("../benches/data/kasztp.txt");
    // `--pairs`: print the corpus pairs as `base<TAB>reference` lines (for
    // the resolve_corpus example under callgrind).
    if std::env::args().nth(1).as_deref() == Some("--pairs") {
        for (b, r) in corpus_pairs(kasztp) {
            println!("{b}\t{r}");
        }
        return;
    }
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(15);
    let node = include_str!("../benches/data/node_files.txt");
    let rfc: Vec<(String, String)> = RFC_5_4
        .split(' ')
        .filter(|s| !s.is_empty())
        .chain([""])
        .map(|r| (BASE.to_string(), r.to_string()))
        .collect();
    assert_eq!(rfc.len(), 41); // RFC 3986 5.4 but "http:g", as in benches/resolve.rs
    resolve_set("resolve/rfc3986-5.4", &rfc, 2000, rounds);
    resolve_set("resolve/corpus-pairs", &corpus_pairs(kasztp), 5, rounds);
    normalize_set("normalize/kasztp", kasztp, 5, rounds);
    normalize_set("normalize/node_files", node, 5, rounds);
}
