//! Published parse vectors (tests/data/parse.jsonl, sources in
//! tests/data/SOURCES.json), every record checked.

use serde_json::Value;
use urilex::{Component, Parser, Syntax, UriRef};

fn records() -> Vec<Value> {
    include_str!("data/parse.jsonl")
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect()
}

/// The verdict RFC 3986 gives, where a record is flagged as contested.
fn rfc_verdict(r: &Value) -> bool {
    let valid = r["valid"].as_bool().expect("valid");
    if let Some(v) = r.get("rfc3986_literal").and_then(Value::as_bool) {
        return v;
    }
    if r.get("contested").and_then(Value::as_bool) == Some(true) {
        let note = r["note"].as_str().unwrap_or("");
        if note.contains("zone ID") {
            // RFC 3986 section 3.2.2: IP-literal = "[" ( IPv6address / IPvFuture ) "]".
            // A zone ID ("%25en1") is RFC 6874's extension, not RFC 3986's grammar.
            return false;
        }
        if note.contains("reg-name") {
            // RFC 3986 section 3.2.2: "256.256.256.256" is not an IPv4address
            // (dec-octet stops at 255) but matches reg-name, so it is valid.
            return true;
        }
        panic!("contested record without a decision: {r}");
    }
    valid
}

fn syntax_of(r: &Value) -> Syntax {
    match r.get("grammar").and_then(Value::as_str) {
        None | Some("URI-reference") | Some("IRI-reference") => Syntax::Reference,
        Some("URI") | Some("IRI") => Syntax::Uri,
        Some(g) => panic!("unknown grammar {g}"),
    }
}

#[test]
fn every_parse_vector() {
    let mut failures = Vec::new();
    let recs = records();
    assert_eq!(recs.len(), 737);
    for r in &recs {
        let input = r["input"].as_str().expect("input");
        let want = rfc_verdict(r);
        let got = Parser::new().syntax(syntax_of(r)).parse(input);
        match (&got, want) {
            (Ok(u), true) => check_components(u, r, &mut failures),
            (Err(_), false) => {}
            (Ok(_), false) => failures.push(format!(
                "{input:?}: accepted, expected invalid ({})",
                r["source"]
            )),
            (Err(e), true) => failures.push(format!(
                "{input:?}: rejected ({e}), expected valid ({})",
                r["source"]
            )),
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

fn check_components(u: &UriRef, r: &Value, failures: &mut Vec<String>) {
    let fields = [
        ("scheme", Some(Component::Scheme)),
        ("authority", Some(Component::Authority)),
        ("userinfo", Some(Component::Userinfo)),
        ("host", Some(Component::Host)),
        ("port", Some(Component::Port)),
        ("path", Some(Component::Path)),
        ("query", Some(Component::Query)),
        ("fragment", Some(Component::Fragment)),
        ("host_kind", None),
    ];
    for (name, comp) in fields {
        let Some(want) = r.get(name) else { continue };
        let got = match comp {
            Some(c) => u.component(c).map(str::to_string),
            None => u.host_kind().map(|k| k.as_str().to_string()),
        };
        let want = want.as_str().map(str::to_string);
        if got != want {
            failures.push(format!(
                "{:?}: {name} = {got:?}, expected {want:?} ({})",
                u.as_str(),
                r["source"]
            ));
        }
    }
}

/// RFC 3986 section 1.1.2's examples, and the seeds' example URIs.
#[test]
fn rfc_and_seed_examples() {
    for s in [
        "ftp://ftp.is.co.za/rfc/rfc1808.txt",
        "http://www.ietf.org/rfc/rfc2396.txt",
        "ldap://[2001:db8::7]/c=GB?objectClass?one",
        "mailto:John.Doe@example.com",
        "news:comp.infosystems.www.servers.unix",
        "tel:+1-816-555-1212",
        "telnet://192.0.2.16:80/",
        "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
        "http://www.ics.uci.edu/pub/ietf/uri/#Related",
        "http://a/b/c/d;p?q",
        "foo://example.com:8042/over/there?name=ferret#nose",
        "urn:example:animal:ferret:nose",
    ] {
        for p in urilex::Profile::ALL {
            let r = Parser::new().profile(*p).parse(s);
            // Seed 001 (1997) predates IP literals in brackets (RFC 2732);
            // RFC 1738 (seed 002) too (3.1: a host is a domain name or a
            // dotted IPv4 address), and has no fragment ("#" is unsafe,
            // 2.2; the fragment is not part of the URL, its appendix).
            // (By name: `ALL` holds the profiles this build compiled.)
            let want = match p.name() {
                "url-draft-05" => !s.contains('['),
                "rfc1738" => !s.contains(['[', '#']),
                // The URN grammars take URNs only (RFC 8141 section 2, seed
                // 004 section 2): the two examples with the scheme "urn"
                // are valid under both.
                "rfc8141" | "urn-draft-03" => s.starts_with("urn:"),
                _ => true,
            };
            assert_eq!(r.is_ok(), want, "{s} under {}: {:?}", p.name(), r);
        }
    }
    // RFC 3986 section 3's example split.
    let r = UriRef::parse("foo://example.com:8042/over/there?name=ferret#nose").unwrap();
    assert_eq!(
        (r.scheme(), r.authority(), r.path(), r.query(), r.fragment()),
        (
            Some("foo"),
            Some("example.com:8042"),
            "/over/there",
            Some("name=ferret"),
            Some("nose")
        )
    );
    // Seed 000 Appendix B's worked example.
    let r = UriRef::parse("http://www.ics.uci.edu/pub/ietf/uri/#Related").unwrap();
    assert_eq!(r.authority(), Some("www.ics.uci.edu"));
    assert_eq!(r.path(), "/pub/ietf/uri/");
    assert_eq!(r.query(), None);
    assert_eq!(r.fragment(), Some("Related"));
}

/// Records flagged `iri_valid` are IRIs (RFC 3987), not URIs: RFC 3986
/// section 2 builds URIs from a subset of US-ASCII only, so each must be
/// rejected at a non-ASCII byte.
#[test]
fn iri_only_records_fail_on_their_first_non_ascii_byte() {
    let mut n = 0;
    for r in records() {
        if r.get("iri_valid").and_then(Value::as_bool) != Some(true) {
            continue;
        }
        n += 1;
        let input = r["input"].as_str().unwrap();
        let err = Parser::new()
            .syntax(syntax_of(&r))
            .parse(input)
            .unwrap_err();
        let first = input.bytes().position(|b| b >= 0x80).unwrap();
        assert_eq!(err.index(), first, "{input:?}: {err}");
        assert_eq!(err.kind(), urilex::ErrorKind::InvalidCharacter);
        assert!(err.to_string().starts_with("non-ASCII byte"), "{err}");
    }
    assert_eq!(n, 6);
}

/// Every valid vector: `Display` gives the input back exactly, the owned
/// twin parses it the same way, and `port_u16` is the port when it fits.
#[test]
fn display_owned_twin_and_port_number() {
    for r in records() {
        let input = r["input"].as_str().unwrap();
        let Ok(u) = Parser::new().syntax(syntax_of(&r)).parse(input) else {
            continue;
        };
        assert_eq!(u.to_string(), input);
        if syntax_of(&r) == Syntax::Reference {
            let owned: urilex::UriRefBuf = input.parse().unwrap();
            assert_eq!(owned.to_string(), input);
            assert_eq!(owned.as_ref(), u);
        }
        let want = u.port().and_then(|p| p.parse::<u16>().ok());
        assert_eq!(u.port_u16(), want, "{input}");
    }
    for (input, want) in [
        ("http://a:65535/", Some(65535)),
        ("http://a:65536/", None),
        ("http://a:080/", Some(80)),
        ("http://a:/", None),
        ("http://a/", None),
        ("http://a:99999999999999999999/", None),
    ] {
        assert_eq!(UriRef::parse(input).unwrap().port_u16(), want, "{input}");
    }
}
