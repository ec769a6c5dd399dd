//! Resolves every `base<TAB>reference` line of a file N times (for
//! profiling): `cargo run --release --example resolve_corpus -- FILE [N]
//! [urilex|fluent-uri|oxiri]`. Bases are parsed once; each round parses
//! the references, as the `resolve` benchmark does. The peers are there to
//! compare instruction counts under callgrind.
fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("FILE");
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let who = args.next().unwrap_or_else(|| "urilex".into());
    let text = std::fs::read_to_string(path).expect("read");
    let pairs: Vec<(&str, &str)> = text.lines().filter_map(|l| l.split_once('\t')).collect();
    let mut out = String::with_capacity(256);
    let mut total = 0;
    match who.as_str() {
        "urilex" => {
            let bases: Vec<_> = pairs
                .iter()
                .map(|(b, _)| urilex::UriRef::parse(b).expect("base"))
                .collect();
            for _ in 0..n {
                for (base, (_, r)) in bases.iter().zip(&pairs) {
                    if let Ok(r) = urilex::UriRef::parse(r) {
                        let opts = urilex::ResolveOptions::new();
                        if urilex::resolve_into(base, &r, opts, &mut out).is_ok() {
                            total += out.len();
                        }
                    }
                }
            }
        }
        "fluent-uri" => {
            let bases: Vec<_> = pairs
                .iter()
                .map(|(b, _)| fluent_uri::Uri::parse(*b).expect("base"))
                .collect();
            for _ in 0..n {
                for (base, (_, r)) in bases.iter().zip(&pairs) {
                    if let Ok(r) = fluent_uri::UriRef::parse(*r) {
                        total += r.resolve_against(base).map_or(0, |t| t.as_str().len());
                    }
                }
            }
        }
        "oxiri" => {
            let bases: Vec<_> = pairs
                .iter()
                .map(|(b, _)| oxiri::Iri::parse(*b).expect("base"))
                .collect();
            for _ in 0..n {
                for (base, (_, r)) in bases.iter().zip(&pairs) {
                    if let Ok(r) = oxiri::IriRef::parse(*r) {
                        out.clear();
                        if base.resolve_into(&r, &mut out).is_ok() {
                            total += out.len();
                        }
                    }
                }
            }
        }
        other => panic!("unknown implementation {other}"),
    }
    println!("{total}");
}
