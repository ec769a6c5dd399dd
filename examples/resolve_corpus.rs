//! Resolves every `base<TAB>reference` line of a file N times (for
//! profiling): `cargo run --release --example resolve_corpus -- FILE [N]
//! [urilex|fluent-uri|oxiri]`. Bases are parsed once; each round parses
//! the references, as the `resolve` benchmark does (its rounds, from
//! `benches/support/peers.rs`). The peers are there to compare instruction
//! counts under callgrind. Every line must hold a valid pair.
#[path = "../benches/support/peers.rs"]
mod peers;

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("FILE");
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let who = args.next().unwrap_or_else(|| "urilex".into());
    let text = std::fs::read_to_string(path).expect("read");
    let pairs: Vec<(String, String)> = text
        .lines()
        .filter_map(|l| l.split_once('\t'))
        .map(|(b, r)| (b.to_string(), r.to_string()))
        .collect();
    let mut out = String::with_capacity(256);
    let mut total = 0;
    match who.as_str() {
        "urilex" => {
            let bases = peers::urilex_bases(&pairs);
            for _ in 0..n {
                total += peers::urilex_resolve(&bases, &pairs, &mut out);
            }
        }
        "fluent-uri" => {
            let bases = peers::fluent_bases(&pairs);
            for _ in 0..n {
                total += peers::fluent_resolve(&bases, &pairs);
            }
        }
        "oxiri" => {
            let bases = peers::oxiri_bases(&pairs);
            for _ in 0..n {
                total += peers::oxiri_resolve(&bases, &pairs, &mut out);
            }
        }
        other => panic!("unknown implementation {other}"),
    }
    println!("{total}");
}
