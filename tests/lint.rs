//! Security lints (seed 000 section 7, RFC 3986 section 7): each kind on
//! inputs that must and must not raise it, with exact spans.

use urilex::{LintKind as K, UriRef};

fn lints(s: &str) -> Vec<(K, &str)> {
    let u = UriRef::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"));
    u.lints()
        .into_iter()
        .map(|l| (l.kind, &s[l.span]))
        .collect()
}

#[test]
fn each_kind() {
    let cases: &[(&str, &[(K, &str)])] = &[
        ("ftp://user:pw@host/", &[(K::PasswordInUserinfo, "pw")]),
        ("ftp://user@host/", &[]),
        (
            "http://bank.example@evil.example/",
            &[(K::UserinfoInWebUri, "bank.example")],
        ),
        ("http://a:8080/", &[(K::NonDefaultPort, "8080")]),
        ("http://a:80/", &[]),
        (
            "gopher://a:25/",
            &[(K::NonDefaultPort, "25"), (K::ReservedPort, "25")],
        ),
        (
            "foo://a:22/",
            &[(K::UnusualScheme, "foo"), (K::ReservedPort, "22")],
        ),
        ("http://a:70000/", &[(K::PortOutOfRange, "70000")]),
        ("http://a:/", &[]),
        (
            "telnet://a/%0D%0Aquit%00",
            &[
                (K::EncodedControl, "%0D"),
                (K::EncodedControl, "%0A"),
                (K::EncodedControl, "%00"),
            ],
        ),
        (
            "http://a/%0d%0a",
            &[(K::EncodedControl, "%0d"), (K::EncodedControl, "%0a")],
        ),
        ("http://a/b/../../etc/passwd", &[(K::DotAboveRoot, "..")]),
        ("http://a/b/../c", &[]),
        ("../../x", &[]),
        ("/../x", &[(K::DotAboveRoot, "..")]),
        ("http://a/%2e%2e/x", &[(K::EncodedDotSegment, "%2e%2e")]),
        ("http://a/.%2E/x", &[(K::EncodedDotSegment, ".%2E")]),
        ("http://0x7f.1/", &[(K::AmbiguousIpv4, "0x7f.1")]),
        ("http://127.1/", &[(K::AmbiguousIpv4, "127.1")]),
        ("http://010.0.0.1/", &[(K::AmbiguousIpv4, "010.0.0.1")]),
        ("http://2130706433/", &[(K::AmbiguousIpv4, "2130706433")]),
        ("http://127.0.0.1/", &[]),
        ("http://1.2.3.4.example/", &[]),
        ("http://a%40b/", &[(K::EncodedDelimiterInAuthority, "%40")]),
        (
            "http://u%2Fx@h/",
            &[
                (K::UserinfoInWebUri, "u%2Fx"),
                (K::EncodedDelimiterInAuthority, "%2F"),
            ],
        ),
        ("http://h/%40", &[]),
        ("HTTP://a/", &[]),
        ("Http://a/", &[(K::MixedCaseScheme, "Http")]),
        ("javascript:alert(1)", &[(K::ScriptScheme, "javascript")]),
        ("data:text/html,x", &[(K::ScriptScheme, "data")]),
        ("x-custom:thing", &[(K::UnusualScheme, "x-custom")]),
        ("https://example.com/ok?q=1#f", &[]),
    ];
    for (input, want) in cases {
        assert_eq!(lints(input), *want, "{input}");
    }
}

#[test]
fn lints_over_the_corpora_stay_in_bounds() {
    let mut total = 0;
    for text in [
        include_str!("../benches/data/kasztp.txt"),
        include_str!("../benches/data/node_files.txt"),
    ] {
        for line in text.lines() {
            if let Ok(u) = UriRef::parse(line) {
                for l in u.lints() {
                    assert!(l.span.start <= l.span.end && l.span.end <= line.len());
                    assert!(line.get(l.span.clone()).is_some());
                    total += 1;
                }
            }
        }
    }
    assert!(total > 0);
}
