//! Parsing timed against fluent-uri and oxiri in one process, interleaved
//! round by round, each one's best round kept (see `resolve_peers`): single
//! `UriRef::parse`, the batch (`Batch::parse_lines`, all spans) and the
//! validating DFA over each bundled corpus, and over `../shared/data/urls`'
//! corpora when they are there. The corpora and the rounds are the
//! benchmark's own (`benches/support/parsing.rs`); `cargo bench --bench
//! parse` stays the reference, this is the quick check while working.
//!
//!     cargo run --release --example parse_peers [ROUNDS]
//!     URILEX_KERNEL=avx2 cargo run --release --example parse_peers   # the AVX2 kernels
//!
//! The same race with ada's `can_parse` (the verdict-only WHATWG peer, C++,
//! kept out of the core's build) runs from `peers/`:
//!
//!     cd peers && cargo run --release --example parse_peers [ROUNDS]
#[path = "../benches/support/parsing.rs"]
mod parsing;
#[path = "../benches/support/peers_race.rs"]
mod peers_race;
#[path = "../benches/support/race.rs"]
mod race;

fn main() {
    peers_race::run(std::path::Path::new(env!("CARGO_MANIFEST_DIR")), |_| {
        Vec::new()
    });
}
