//! Normalization (RFC 3986 6.2.2, 6.2.3), equivalence and percent-encoding,
//! against tests/data/normalize.jsonl and properties.

#[path = "support/gen.rs"]
mod gen;

#[path = "support/expect.rs"]
mod expect;

#[path = "support/counting.rs"]
mod counting;

use serde_json::Value;
use urilex::{normalize_into, pct, Component, NormalizeOptions, UriRef};

#[test]
fn published_normalize_vectors() {
    let mut bad = Vec::new();
    let mut n = 0;
    for line in include_str!("data/normalize.jsonl").lines() {
        let r: Value = serde_json::from_str(line).unwrap();
        n += 1;
        let input = r["input"].as_str().unwrap();
        let (o, want) = expect::normalize_expectation(&r);
        let u = UriRef::parse(input).unwrap_or_else(|e| panic!("{input:?}: {e}"));
        let got = u.normalized_with(o);
        if got.as_str() != want {
            bad.push(format!(
                "{input:?}: got {:?}, want {want:?} ({})",
                got.as_str(),
                r["source"]
            ));
        }
    }
    assert_eq!(n, 248);
    assert!(
        bad.is_empty(),
        "{} failures:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn scheme_based_steps() {
    let o = NormalizeOptions::new().scheme_based(true);
    for (input, want) in [
        ("http://a:80/x", "http://a/x"),
        ("https://a:443", "https://a/"),
        ("http://a", "http://a/"),
        ("http://a:/", "http://a/"),
        ("ftp://a:21/f", "ftp://a/f"),
        ("gopher://a:70/1", "gopher://a/1"),
        ("nntp://a:119/g", "nntp://a/g"),
        ("telnet://a:23/", "telnet://a/"),
        ("wais://a:210/db", "wais://a/db"),
        ("prospero://a:1525/x", "prospero://a/x"),
        ("ws://a:80/", "ws://a/"),
        ("wss://a:443/", "wss://a/"),
        ("http://a:8080/x", "http://a:8080/x"),
        ("foo://a:80", "foo://a:80"),
        ("http://a:080/", "http://a/"),
    ] {
        assert_eq!(
            UriRef::parse(input).unwrap().normalized_with(o).as_str(),
            want,
            "{input}"
        );
    }
}

#[test]
fn normalization_is_idempotent_and_equivalence_holds() {
    let mut rng = gen::Rng(0x1DE0);
    let mut checked = 0;
    let all = NormalizeOptions::new()
        .scheme_based(true)
        .ipv6_rfc5952(true);
    let corpus = include_str!("../benches/data/kasztp.txt")
        .lines()
        .take(20_000)
        .map(|s| s.as_bytes().to_vec());
    let generated = (0..60_000).map(|_| gen::input(&mut rng));
    for input in corpus.chain(generated) {
        let Ok(u) = UriRef::parse_bytes(&input) else {
            continue;
        };
        for o in [NormalizeOptions::new(), all] {
            let once = u.normalized_with(o);
            let twice = once.as_ref().normalized_with(o);
            assert_eq!(
                once.as_str(),
                twice.as_str(),
                "not idempotent: {:?}",
                u.as_str()
            );
            // The result parses to the same components it was built from.
            assert!(
                UriRef::parse(once.as_str()).is_ok(),
                "{:?} -> {:?}",
                u.as_str(),
                once.as_str()
            );
        }
        assert!(u.equivalent(&u.normalized().as_ref()), "{:?}", u.as_str());
        checked += 1;
    }
    assert!(checked > 30_000, "{checked}");
}

#[test]
fn percent_encoding_uses_the_grammar_sets() {
    // Query and fragment allow pchar / "/" / "?" (RFC 3986 3.4, 3.5).
    assert_eq!(
        pct::encode(Component::Query, "/?:@!$&'()*+,;=-._~").unwrap(),
        "/?:@!$&'()*+,;=-._~"
    );
    assert_eq!(
        pct::encode(Component::Query, "#[] \"<>\\^`{|}").unwrap(),
        "%23%5B%5D%20%22%3C%3E%5C%5E%60%7B%7C%7D"
    );
    // A path allows "/" but not "?" or "#".
    assert_eq!(
        pct::encode(Component::Path, "/a b?c#d").unwrap(),
        "/a%20b%3Fc%23d"
    );
    // userinfo has ":" but not "@".
    assert_eq!(
        pct::encode(Component::Userinfo, "u:p@x").unwrap(),
        "u:p%40x"
    );
    // Never double-encode; a lone "%" is encoded.
    assert_eq!(
        pct::encode(Component::Path, "100%25 of 100%").unwrap(),
        "100%25%20of%20100%25"
    );
    // Every output is valid for its component.
    let mut rng = gen::Rng(5);
    for _ in 0..20_000 {
        let raw: String = String::from_utf8_lossy(&gen::input(&mut rng)).into_owned();
        for c in [
            Component::Userinfo,
            Component::Path,
            Component::Query,
            Component::Fragment,
        ] {
            let e = pct::encode(c, &raw).unwrap();
            assert!(
                urilex::Parser::new()
                    .validate_component(c, e.as_bytes())
                    .is_ok(),
                "{c:?} {raw:?} -> {e:?}"
            );
            // Decoding gives back the input where it held no valid %XX.
            if !raw.contains('%') {
                assert_eq!(pct::decode_utf8(&e).unwrap(), raw);
            }
        }
    }
    assert_eq!(
        pct::decode("%41%zz"),
        Err(pct::DecodeError::MalformedPercent { index: 3 })
    );
    assert_eq!(
        pct::decode_utf8("ok%E2%82"),
        Err(pct::DecodeError::InvalidUtf8 { index: 2 })
    );
}

/// Normalizing many references into one reused buffer allocates nothing
/// per call once the buffer has grown (RFC 3986 profile): the published
/// vectors (dot segments, percent-encoding, case, ports) and a bundled
/// corpus, with every step on, the scheme-based ones included.
#[test]
fn normalize_into_a_reused_buffer_allocates_nothing() {
    let mut inputs: Vec<String> = include_str!("data/normalize.jsonl")
        .lines()
        .map(|l| {
            let r: Value = serde_json::from_str(l).unwrap();
            r["input"].as_str().unwrap().to_string()
        })
        .collect();
    let corpus = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/benches/data/kasztp.txt"
    ))
    .unwrap();
    inputs.extend(corpus.lines().take(5000).map(str::to_string));
    inputs.extend(
        [
            "http://a/b/c/./../../g",
            "s:a/./b/../c/%2E%2E/d",
            "HTTP://A:80/%7e/./x/..",
        ]
        .map(String::from),
    );
    let refs: Vec<UriRef<'_>> = inputs
        .iter()
        .filter_map(|s| UriRef::parse(s).ok())
        .collect();
    assert!(refs.len() > 5000);
    let mut dotted = 0;
    for o in [
        NormalizeOptions::new(),
        NormalizeOptions::new().scheme_based(true),
    ] {
        let mut out = String::with_capacity(1 << 16);
        let before = counting::allocs();
        for u in &refs {
            normalize_into(u, o, &mut out);
            dotted += usize::from(u.path().contains("/."));
        }
        assert_eq!(counting::allocs() - before, 0, "{o:?}");
    }
    assert!(dotted > 20, "{dotted}");
}
