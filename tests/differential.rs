//! The generated parser against a plain reference parser written from RFC
//! 3986's grammar (tests/support/reference.rs): same verdict and every span
//! on seeded generated inputs. CI runs 60,000 inputs; the full million:
//!
//!     URILEX_DIFF_N=1000000 cargo test --release --test differential

#[path = "support/gen.rs"]
mod gen;
#[path = "support/reference.rs"]
mod reference;

use urilex::{Component, Parser, Syntax, UriRef};

fn count() -> usize {
    std::env::var("URILEX_DIFF_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(60_000)
}

fn spans(u: &UriRef) -> reference::RefParse {
    let get = |c| u.span(c).map(|r: std::ops::Range<usize>| (r.start, r.end));
    reference::RefParse {
        scheme: get(Component::Scheme),
        authority: get(Component::Authority),
        userinfo: get(Component::Userinfo),
        host: get(Component::Host),
        port: get(Component::Port),
        path: get(Component::Path),
        query: get(Component::Query),
        fragment: get(Component::Fragment),
        host_kind: u.host_kind().map(|k| k.as_str()),
    }
}

#[test]
fn generated_parser_agrees_with_reference_parser() {
    let n = count();
    let mut rng = gen::Rng(0x005E_ED0F_0123_4567);
    let (mut valid, mut invalid, mut disagreements) = (0usize, 0usize, Vec::new());
    let abs = Parser::new().syntax(Syntax::AbsoluteUri);
    let uri = Parser::new().syntax(Syntax::Uri);
    let rel = Parser::new().syntax(Syntax::RelativeRef);
    for _ in 0..n {
        let input = gen::input(&mut rng);
        let want = reference::uri_reference(&input);
        let got = UriRef::parse_bytes(&input);
        match (&got, &want) {
            (Ok(u), Some(w)) => {
                valid += 1;
                if &spans(u) != w {
                    disagreements.push(format!(
                        "{:?}: spans {:?} vs reference {:?}",
                        String::from_utf8_lossy(&input),
                        spans(u),
                        w
                    ));
                }
            }
            (Err(_), None) => invalid += 1,
            _ => disagreements.push(format!(
                "{:?}: urilex {:?} vs reference {:?}",
                String::from_utf8_lossy(&input),
                got.map(|_| ()),
                want.is_some()
            )),
        }
        // The DFA verdict (error path, batch validation) agrees too.
        assert_eq!(
            Parser::new().is_valid(&input),
            want.is_some(),
            "{:?}",
            String::from_utf8_lossy(&input)
        );
        // The other entry points against the reference.
        assert_eq!(
            uri.parse_bytes(&input).is_ok(),
            reference::uri(&input, true).is_some(),
            "URI {:?}",
            String::from_utf8_lossy(&input)
        );
        assert_eq!(
            abs.parse_bytes(&input).is_ok(),
            reference::uri(&input, false).is_some(),
            "absolute-URI {:?}",
            String::from_utf8_lossy(&input)
        );
        assert_eq!(
            rel.parse_bytes(&input).is_ok(),
            reference::relative_ref(&input).is_some(),
            "relative-ref {:?}",
            String::from_utf8_lossy(&input)
        );
        if let Err(e) = &got {
            assert!(e.index() <= input.len());
        }
    }
    eprintln!(
        "differential: {n} inputs, {valid} valid, {invalid} invalid, {} disagreements",
        disagreements.len()
    );
    assert!(
        disagreements.is_empty(),
        "{} disagreements, first ones:\n{}",
        disagreements.len(),
        disagreements[..disagreements.len().min(20)].join("\n")
    );
    // The generator must exercise both sides.
    assert!(
        valid > n / 5 && invalid > n / 5,
        "valid {valid}, invalid {invalid}"
    );
}
