//! Profile `rfc6874` (abnf/rfc6874.abnf): RFC 3986 with RFC 6874's zone
//! identifiers in IPv6 literals, a grammar added as one file. The zone is a
//! part of its own, read by name and by index through the public API.

use serde_json::Value;
use std::net::Ipv6Addr;
use urilex::{Batch, Component, ErrorKind, Host, HostKind, Parser, Profile, UriRef};

fn p() -> Parser {
    Parser::new().profile(Profile::Rfc6874)
}

#[test]
fn zone_is_its_own_part() {
    let r = p().parse("http://[fe80::1%25eth0]/").unwrap();
    assert_eq!(r.host_kind(), Some(HostKind::Ipv6));
    assert_eq!(r.kind_name(), Some("ipv6"));
    assert_eq!(r.host_str(), Some("[fe80::1%25eth0]"));
    assert_eq!(r.part("zone"), Some("eth0"));
    assert_eq!(r.part("ZONE"), Some("eth0"), "names compare ignoring case");
    assert_eq!(r.part_span("zone"), Some(18..22));
    let zone = Profile::Rfc6874.part("zone").unwrap();
    assert_eq!(r.part_at(zone.index()), Some("eth0"));
    assert!(!zone.is_repeated());
    // The address without its zone (RFC 6874 section 2).
    assert_eq!(
        r.host(),
        Some(Host::Ipv6("fe80::1".parse::<Ipv6Addr>().unwrap()))
    );
    // The default grammar's parts keep their index in this profile.
    for c in Component::ALL {
        assert_eq!(
            Profile::Rfc6874.part(c.as_str()).unwrap().index(),
            c as usize
        );
    }
    // No zone: absent, not empty.
    let r = p().parse("http://[fe80::1]/").unwrap();
    assert_eq!(r.part("zone"), None);
    assert_eq!(r.host_kind(), Some(HostKind::Ipv6));
}

#[test]
fn rfc3986_rejects_what_rfc6874_adds() {
    for s in [
        "http://[fe80::1%25eth0]/",
        "//[::1%25lo]",
        "http://[FF02::2%25%26]",
    ] {
        assert!(p().parse(s).is_ok(), "{s}");
        assert!(UriRef::parse(s).is_err(), "{s}");
        // And the default profile has no zone part to ask for.
        assert_eq!(Profile::Rfc3986.part("zone"), None);
    }
}

/// RFC 6874 section 2: the zone follows `%25` (a bare `%` is not allowed),
/// is one or more unreserved or percent-encoded characters, and only an
/// IPv6address takes one.
#[test]
fn what_rfc6874_refuses() {
    let cases = [
        ("http://[fe80::1%eth0]/", 16, ErrorKind::InvalidIpLiteral),
        ("http://[fe80::1%25]/", 18, ErrorKind::InvalidIpLiteral),
        ("http://[fe80::1%25eth 0]/", 21, ErrorKind::InvalidIpLiteral),
        ("http://[v1.x%25eth0]/", 12, ErrorKind::InvalidIpLiteral),
        ("http://[1.2.3.4%25eth0]/", 9, ErrorKind::InvalidIpLiteral),
    ];
    for (s, at, kind) in cases {
        let e = p().parse(s).unwrap_err();
        assert_eq!((e.index(), e.kind()), (at, kind), "{s}: {e}");
    }
}

/// The zone-ID vectors of tests/data/parse.jsonl (python-hyper/rfc3986's
/// suite, flagged there as valid only under RFC 6874) parse, with the zone
/// as the text between `%25` and `]`; every other vector gets the same
/// verdict and components as under RFC 3986.
#[test]
fn published_vectors() {
    let mut zones = 0;
    for line in include_str!("data/parse.jsonl").lines() {
        let r: Value = serde_json::from_str(line).unwrap();
        let input = r["input"].as_str().unwrap();
        let note = r["note"].as_str().unwrap_or("");
        if note.contains("zone ID") {
            let u = p().parse(input).unwrap_or_else(|e| panic!("{input}: {e}"));
            let host = u.host_str().unwrap();
            let want = &host[host.find("%25").unwrap() + 3..host.len() - 1];
            assert_eq!(u.part("zone"), Some(want), "{input}");
            assert_eq!(u.host_kind(), Some(HostKind::Ipv6), "{input}");
            zones += 1;
            continue;
        }
        let a = UriRef::parse(input);
        let b = p().parse(input);
        assert_eq!(a.is_ok(), b.is_ok(), "{input}");
        if let (Ok(a), Ok(b)) = (a, b) {
            for c in Component::ALL {
                assert_eq!(a.component(c), b.component(c), "{input} {c}");
            }
            assert_eq!(a.host_kind(), b.host_kind(), "{input}");
            assert_eq!(b.part("zone"), None);
        }
    }
    assert_eq!(zones, 15);
}

/// Batches keep the parts beyond the default grammar's (here the zone).
#[test]
fn batch_keeps_the_zone() {
    let buf = b"http://[fe80::1%25eth0]:80/a\nhttp://a/b\nhttp://[::1%25]/\n//[::1%25x%2F]\n";
    let mut batch = Batch::new();
    batch.parse_lines(&p(), buf);
    assert_eq!(batch.len(), 4);
    let zone = |i: usize| batch.get(i, buf).ok().and_then(|u| u.part("zone"));
    assert_eq!(zone(0), Some("eth0"));
    assert_eq!(batch.component(0, Component::Port, buf), Some(&b"80"[..]));
    assert_eq!(zone(1), None);
    assert!(batch.get(1, buf).is_ok());
    assert!(!batch.is_valid(2));
    assert_eq!(zone(3), Some("x%2F"));
}

#[test]
fn the_zone_on_its_own() {
    assert!(p().validate_part("zone", b"eth0").is_ok());
    assert!(p().validate_part("zone", b"%2F").is_ok());
    let e = p().validate_part("zone", b"").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::UnexpectedEnd);
    assert_eq!(p().validate_part("zone", b"a/b").unwrap_err().index(), 1);
}

/// Normalization keeps the zone: RFC 3986 6.2.2.1 lowers the host's case,
/// but a zone names an interface (RFC 6874 section 2 takes it from RFC
/// 4007's `<zone_id>`), so its case is kept; percent-encoding is still
/// normalized (6.2.2.1, 6.2.2.2), and RFC 5952's form keeps the zone too.
#[test]
fn normalization_keeps_the_zone() {
    use urilex::NormalizeOptions;
    let u = p().parse("HTTP://[FE80::A%25En%301]:80/a/./b").unwrap();
    let n = u.normalized();
    assert_eq!(n.as_str(), "http://[fe80::a%25En01]:80/a/b");
    assert_eq!(n.as_ref().part("zone"), Some("En01"));
    assert_eq!(n.as_ref().normalized().as_str(), n.as_str(), "idempotent");
    let n = u.normalized_with(NormalizeOptions::new().ipv6_rfc5952(true));
    assert_eq!(n.as_str(), "http://[fe80::a%25En01]:80/a/b");
    let u = p().parse("http://[fe80:0:0:0:0:0:0:1%25eth0]/").unwrap();
    let n = u.normalized_with(NormalizeOptions::new().ipv6_rfc5952(true));
    assert_eq!(n.as_str(), "http://[fe80::1%25eth0]/");
    let u = p().parse("http://[fe80::1%25eth0]/").unwrap();
    assert!(u.equivalent(&p().parse("http://[FE80::1%25eth0]/").unwrap()));
    assert!(!u.equivalent(&p().parse("http://[fe80::1%25ETH0]/").unwrap()));
}
