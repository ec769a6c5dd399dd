//! Resolution and normalization timed against fluent-uri and oxiri in one
//! process, the implementations interleaved round by round, each one's best
//! round kept. On a shared, noisy machine this gives steadier ratios than
//! separate criterion runs (`cargo bench --bench resolve` stays the
//! reference; this is the quick check while working). The inputs and the
//! rounds are the benchmark's own (`benches/support/peers.rs`).
//!
//!     cargo run --release --example resolve_peers [ROUNDS | --pairs]
#[path = "../benches/support/peers.rs"]
mod peers;
#[path = "../benches/support/race.rs"]
mod race;
use race::{race, Job};

fn resolve_set(name: &str, pairs: &[(String, String)], reps: usize, rounds: usize) {
    let bytes: usize = pairs.iter().map(|(b, r)| b.len() + r.len()).sum();
    let ours = peers::urilex_bases(pairs);
    let fluent = peers::fluent_bases(pairs);
    let ox = peers::oxiri_bases(pairs);
    let (mut out, mut out2) = (String::with_capacity(256), String::with_capacity(256));
    let mut jobs: Vec<(&str, Job)> = vec![
        (
            "fluent-uri",
            Box::new(|| peers::fluent_resolve(&fluent, pairs)),
        ),
        (
            "urilex",
            Box::new(|| peers::urilex_resolve(&ours, pairs, &mut out)),
        ),
        (
            "oxiri",
            Box::new(|| peers::oxiri_resolve(&ox, pairs, &mut out2)),
        ),
    ];
    race(name, (bytes, pairs.len()), reps, rounds, &mut jobs);
}

fn normalize_set(name: &str, text: &str, reps: usize, rounds: usize) {
    let lines = peers::valid_lines(text);
    let bytes: usize = lines.iter().map(|l| l.len()).sum();
    let mut out = String::with_capacity(256);
    let mut jobs: Vec<(&str, Job)> = vec![
        ("fluent-uri", Box::new(|| peers::fluent_normalize(&lines))),
        (
            "urilex",
            Box::new(|| peers::urilex_normalize(&lines, &mut out)),
        ),
    ];
    race(name, (bytes, lines.len()), reps, rounds, &mut jobs);
}

fn main() {
    let kasztp = include_str!("../benches/data/kasztp.txt");
    // `--pairs`: print the corpus pairs as `base<TAB>reference` lines (for
    // the resolve_corpus example under callgrind).
    if std::env::args().nth(1).as_deref() == Some("--pairs") {
        for (b, r) in peers::corpus_pairs(kasztp) {
            println!("{b}\t{r}");
        }
        return;
    }
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(15);
    let node = include_str!("../benches/data/node_files.txt");
    resolve_set("resolve/rfc3986-5.4", &peers::rfc_5_4_pairs(), 2000, rounds);
    resolve_set(
        "resolve/corpus-pairs",
        &peers::corpus_pairs(kasztp),
        5,
        rounds,
    );
    normalize_set("normalize/kasztp", kasztp, 5, rounds);
    normalize_set("normalize/node_files", node, 5, rounds);
}
