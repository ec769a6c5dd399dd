//! The core's `parse_peers` race (`examples/parse_peers.rs`, the same
//! jobs from `benches/support/peers_race.rs`) with ada's `can_parse`
//! added: WHATWG URLs, a verdict per line and no URL built (the `ada-url`
//! crate's C++), the verdict-only peer the issue tracker asks about. It
//! rejects the corpora's relative references (no base is given), so it
//! decides fewer lines than the RFC 3986 parsers accept: its figure is a
//! verdict against a full parse, and against `validate_lines`' verdict.
//!
//!     cd peers && cargo run --release --example parse_peers [ROUNDS]
#[path = "../../benches/support/parsing.rs"]
mod parsing;
#[path = "../../benches/support/peers_race.rs"]
mod peers_race;
#[path = "../../benches/support/race.rs"]
mod race;

fn main() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    peers_race::run(&root, |lines| {
        vec![(
            "ada-can_parse",
            Box::new(move || {
                lines
                    .iter()
                    .filter(|l| ada_url::Url::can_parse(std::hint::black_box(l), None))
                    .count()
            }),
        )]
    });
}
