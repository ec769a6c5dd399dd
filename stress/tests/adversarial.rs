//! Pathological inputs of 1 MB and 16 MB through parse, resolve and
//! normalize: the answers are right, nothing panics, and the work (counted
//! in steps by the `step-count` feature, not timed) grows linearly.

use urilex::{steps, ErrorKind, NormalizeOptions, Parser, Profile, ResolveOptions, UriRef};

const MB: usize = 1 << 20;

fn repeat_to(unit: &str, len: usize) -> String {
    unit.repeat(len / unit.len())
}

/// Work of `f(len)` at 1 MB and 16 MB: the larger may cost at most 16x the
/// smaller (10% more for inputs whose content differs between the sizes),
/// plus a constant. Inputs that fail early cost the same at both sizes.
fn assert_linear(what: &str, mut f: impl FnMut(usize)) {
    steps::take();
    f(MB);
    let small = steps::take();
    f(16 * MB);
    let large = steps::take();
    assert!(
        small > 0,
        "{what}: no steps counted (is the step-count feature on?)"
    );
    assert!(
        large <= 16 * small + small * 16 / 10 + 4096,
        "{what}: {small} steps at 1 MB, {large} at 16 MB: not linear"
    );
    eprintln!(
        "{what}: {small} steps at 1 MB, {large} at 16 MB ({:.2}x)",
        large as f64 / small as f64
    );
}

fn parse_err(s: &[u8]) -> urilex::ParseError {
    UriRef::parse_bytes(s).expect_err("must be invalid")
}

#[test]
fn all_percent_signs() {
    assert_linear("%%%", |n| {
        let s = "%".repeat(n);
        let e = parse_err(s.as_bytes());
        assert_eq!(
            (e.kind(), e.index()),
            (ErrorKind::InvalidPercentEncoding, 1)
        );
        // Each line of a long run of "%2" fails at its first bad escape too.
        let e = parse_err(repeat_to("%2", n).as_bytes());
        assert_eq!(
            (e.kind(), e.index()),
            (ErrorKind::InvalidPercentEncoding, 2)
        );
    });
    // A valid escape run: linear, and valid.
    assert_linear("%41", |n| {
        assert!(UriRef::parse(&repeat_to("%41", n)).is_ok());
    });
}

#[test]
fn bracket_then_colons() {
    assert_linear("[:::", |n| {
        let s = format!("//[{}", ":".repeat(n));
        let e = parse_err(s.as_bytes());
        assert_eq!(e.kind(), ErrorKind::InvalidIpLiteral);
        assert_eq!(e.index(), 5, "{e}"); // "//[::" then a third ":" (RFC 3986 3.2.2)
        let s = format!("[{}", ":".repeat(n));
        assert_eq!(parse_err(s.as_bytes()).index(), 0);
    });
}

#[test]
fn millions_of_dot_dot_segments() {
    let base = UriRef::parse("http://a/b/c/d").unwrap();
    let mut out = String::new();
    assert_linear("/..", |n| {
        let r = repeat_to("/..", n);
        let u = UriRef::parse(&r).unwrap();
        assert_eq!(u.path().len(), r.len());
        urilex::resolve_into(&base, &u, ResolveOptions::new(), &mut out).unwrap();
        assert_eq!(out, "http://a/");
        let rel = format!("{}g", repeat_to("../", n));
        urilex::resolve_into(
            &base,
            &UriRef::parse(&rel).unwrap(),
            ResolveOptions::new(),
            &mut out,
        )
        .unwrap();
        assert_eq!(out, "http://a/g");
        let abs = format!("http://a{r}");
        assert_eq!(
            UriRef::parse(&abs).unwrap().normalized().as_str(),
            "http://a/"
        );
        // The draft profiles' own algorithms keep them, still linearly.
        let p = Parser::new().profile(Profile::Rfc2396bis00);
        let b = p.parse("http://a/b/c/d").unwrap();
        let t = b.resolve(&p.parse(&rel).unwrap()).unwrap();
        assert!(t.as_str().starts_with("http://a/../"));
    });
    // Alternating segments and dot-dots, the worst case for popping.
    assert_linear("/aaaa/..", |n| {
        let s = format!("http://h{}", repeat_to("/aaaaaaaaaa/..", n));
        assert_eq!(
            UriRef::parse(&s).unwrap().normalized().as_str(),
            "http://h/"
        );
    });
}

#[test]
fn at_signs() {
    assert_linear("@@@", |n| {
        let s = "@".repeat(n);
        let u = UriRef::parse(&s).unwrap();
        assert_eq!(u.path(), s);
        let s = format!("//{s}");
        let e = parse_err(s.as_bytes());
        assert_eq!(e.index(), 3);
        let s = format!("http://{}", "@".repeat(n));
        assert!(UriRef::parse(&s).is_err());
    });
}

#[test]
fn one_huge_line() {
    assert_linear("huge", |n| {
        let s = format!(
            "http://example.com/{}?{}#{}",
            "a".repeat(n / 2),
            "q=1&".repeat(n / 8),
            "f".repeat(n / 4)
        );
        let u = UriRef::parse(&s).unwrap();
        assert_eq!(u.path().len(), n / 2 + 1);
        let norm = u.normalized_with(NormalizeOptions::new().scheme_based(true));
        assert_eq!(norm.as_str().len(), s.len());
        let mut bad = s.clone().into_bytes();
        let last = bad.len() - 1;
        bad[last] = b' ';
        assert_eq!(parse_err(&bad).index(), last);
    });
}

#[test]
fn many_empty_lines() {
    assert_linear("empty lines", |n| {
        let text = "\n".repeat(n);
        let mut count = 0;
        for line in text.split('\n').take(n) {
            assert!(UriRef::parse(line).is_ok());
            count += 1;
        }
        assert_eq!(count, n);
    });
}

#[test]
fn random_bytes() {
    let mut x: u64 = 0x243F_6A88_85A3_08D3;
    let mut bytes = |n: usize| -> Vec<u8> {
        (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect()
    };
    assert_linear("random", |n| {
        let data = bytes(n);
        let mut valid = 0;
        for line in data.split(|&b| b == b'\n') {
            if let Ok(u) = UriRef::parse_bytes(line) {
                valid += 1;
                let _ = u.normalized();
            } else if let Err(e) = UriRef::parse_bytes(line) {
                assert!(e.index() <= line.len());
            }
        }
        assert!(valid < data.len());
        // The whole buffer as one reference.
        assert!(UriRef::parse_bytes(&data).is_err());
    });
}

#[test]
fn every_profile_and_entry_on_hostile_shapes() {
    let shapes = [
        "%".repeat(MB),
        format!("//[{}", ":".repeat(MB)),
        repeat_to("/..", MB),
        "@".repeat(MB),
        repeat_to("a:", MB),
    ];
    for p in Profile::ALL {
        for syntax in [
            urilex::Syntax::Reference,
            urilex::Syntax::Uri,
            urilex::Syntax::AbsoluteUri,
            urilex::Syntax::RelativeRef,
        ] {
            for s in &shapes {
                let parser = Parser::new().profile(*p).syntax(syntax);
                steps::take();
                let r = parser.parse(s);
                let work = steps::take();
                assert!(
                    work < 40 * s.len() as u64 + 10_000,
                    "{} {syntax:?}: {work} steps for {} bytes",
                    p.name(),
                    s.len()
                );
                if let Err(e) = r {
                    assert!(e.index() <= s.len());
                }
                for c in urilex::Component::ALL {
                    let _ = parser.validate_component(c, s.as_bytes());
                }
            }
        }
    }
}
