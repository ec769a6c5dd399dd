//! The WHATWG differential (`urilex::whatwg`, feature `whatwg`): the
//! WHATWG reading of every Web Platform Tests URL case without a base
//! (tests/data/whatwg/urltestdata.json), and a table of confusion payloads
//! per class with the kinds they must give, each checked against the RFC
//! 3986 grammar.

use serde_json::Value;
use urilex::whatwg::{Base, Difference, Differential, Reading};
use urilex::UriRef;

fn data(name: &str) -> String {
    let p = format!("{}/tests/data/whatwg/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p}: {e}"))
}

/// The WPT case's name as the `url` crate's own runner writes it (its
/// expected failures are listed by it).
fn name(input: &str) -> String {
    format!("<{}>", input.escape_default())
}

#[test]
fn wpt_url_cases_without_a_base() {
    let cases: Vec<Value> = serde_json::from_str(&data("urltestdata.json")).unwrap();
    let known = data("url-crate-expected-failures.txt");
    let known: Vec<&str> = known.lines().collect();
    let (mut checked, mut failures, mut skipped) = (0, 0, Vec::new());
    for c in cases.iter().filter(|c| c.is_object()) {
        if !c["base"].is_null() {
            continue;
        }
        let input = c["input"].as_str().unwrap();
        if known.contains(&name(input).as_str()) {
            skipped.push(name(input));
            continue;
        }
        let got = Reading::parse(input.as_bytes(), None);
        if c["failure"] == true {
            assert!(got.is_none(), "{}: accepted as {got:?}", name(input));
            failures += 1;
        } else {
            let got = got.unwrap_or_else(|| panic!("{}: rejected", name(input)));
            let protocol = c["protocol"].as_str().unwrap();
            let want = [
                protocol.strip_suffix(':').unwrap_or(protocol),
                c["hostname"].as_str().unwrap(),
                c["port"].as_str().unwrap(),
                c["pathname"].as_str().unwrap(),
                c["href"].as_str().unwrap(),
            ];
            let got_ = [got.scheme(), got.host(), got.port(), got.path(), got.href()];
            assert_eq!(got_, want, "{}", name(input));
        }
        checked += 1;
        // Through the differential too: the same reading, whatever the
        // RFC 3986 reading (the straight line where it applies).
        let rfc = UriRef::parse(input).ok();
        let d = Differential::of(input.as_bytes(), rfc.as_ref(), None);
        assert_eq!(
            d.reading,
            Reading::parse(input.as_bytes(), None),
            "{}",
            name(input)
        );
        if d.differences.is_empty() {
            assert_eq!(rfc.is_some(), d.reading.is_some(), "{}", name(input));
        }
    }
    // The url crate's known failures without a base, named (all file: URLs).
    assert_eq!(
        skipped,
        [
            r"<file:\\\\//>",
            r"<file:\\\\\\\\>",
            r"<file:\\\\\\\\?fox>",
            r"<file:\\\\\\\\#guppy>",
            "<file://spider///>",
            r"<file:\\\\localhost//>",
            r"<file://\\/localhost//cat>",
            "<file://localhost//a//../..//>",
            "<file://example.net/C:/>",
            "<file://1.2.3.4/C:/>",
            "<file://[1::8]/C:/>",
            "<file://localhost//a//../..//foo>",
            "<file://localhost////foo>",
            "<file:////foo>",
            "<file:.//p>",
            "<file:/.//p>",
        ]
    );
    assert!(checked > 400, "{checked} cases");
    assert!(failures > 100, "{failures} failures");
}

/// Confusion payloads, a few per class (Claroty/Snyk 2022's classes, Orange
/// Tsai's examples, the URL Standard's own rules): the RFC 3986 verdict
/// and the kinds each must give.
#[test]
fn confusion_payloads_per_class() {
    use Difference::*;
    #[rustfmt::skip]
    let table: &[(&str, bool, &str, &[Difference])] = &[
        // (input, valid under RFC 3986, WHATWG host or "!" for rejected, kinds)
        // Backslash confusion.
        (r"http://evil.com\@good.com/", false, "evil.com", &[WhatwgOnly, Backslash, Userinfo]),
        (r"http:\\evil.com\x", false, "evil.com", &[WhatwgOnly, Backslash]),
        (r"https://good.com\.evil.com/", false, "good.com", &[WhatwgOnly, Backslash]),
        // Slashes confusion: RFC 3986 has no host, the Standard does.
        ("http:/evil.com/x", true, "evil.com", &[HostDiffers, Slashes]),
        ("http:evil.com/x", true, "evil.com", &[HostDiffers, Slashes]),
        ("http:///evil.com/x", true, "evil.com", &[HostDiffers, Slashes]),
        ("https:////evil.com", true, "evil.com", &[HostDiffers, Slashes]),
        // Whitespace and controls stripped.
        (" http://good.com/", false, "good.com", &[WhatwgOnly, Whitespace]),
        ("http://go\tod.com/", false, "good.com", &[WhatwgOnly, Whitespace]),
        ("http://good.com/\n", false, "good.com", &[WhatwgOnly, Whitespace]),
        // IPv4 number forms: registered names to RFC 3986.
        ("http://127.1/", true, "127.0.0.1", &[HostDiffers, Ipv4Number]),
        ("http://0x7f.1/", true, "127.0.0.1", &[HostDiffers, Ipv4Number]),
        ("http://2130706433/", true, "127.0.0.1", &[HostDiffers, Ipv4Number]),
        ("http://0177.0.0.1/", true, "127.0.0.1", &[HostDiffers, Ipv4Number]),
        ("http://0x7f000001/admin", true, "127.0.0.1", &[HostDiffers, Ipv4Number]),
        // IDNA mapping.
        ("http://ｅｖｉｌ.com/", false, "evil.com", &[WhatwgOnly, Idna]),
        ("http://evil%E3%80%82com/", true, "evil.com", &[HostDiffers, Idna, EncodedHost]),
        ("http://bücher.example/", false, "xn--bcher-kva.example", &[WhatwgOnly, Idna]),
        // Userinfo: more than one @, or one a naive split misreads.
        ("http://a@b@evil.com/", false, "evil.com", &[WhatwgOnly, Userinfo]),
        ("http://good.com#@evil.com/", true, "good.com", &[]),
        // Encoded host characters the Standard decodes.
        ("http://%65vil.com/", true, "evil.com", &[]),
        ("http://evil%2ecom/", true, "evil.com", &[]),
        ("http://evil.com%2f@good.com/", true, "good.com", &[]),
        ("http://good.com%00.evil.com/", true, "!", &[RfcOnly, EncodedHost]),
        // Scheme case and mix-up.
        ("HTTP://127.1/", true, "127.0.0.1", &[HostDiffers, Ipv4Number, Scheme]),
        ("hTtP:/evil.com", true, "evil.com", &[HostDiffers, Slashes, Scheme]),
        // RFC 3986 only.
        ("/relative/path", true, "!", &[RfcOnly]),
        ("http://good.com:99999/", true, "!", &[RfcOnly]),
        ("http://[v7.evil]/", true, "!", &[RfcOnly]),
        ("http://a<b.com/", false, "!", &[]),
        // The same to both.
        ("https://good.com/a/../b?c'd#e", true, "good.com", &[]),
        ("http://[::1]:8080/", true, "[::1]", &[]),
        ("http://[0:0::1]/", true, "[::1]", &[]),
        ("mailto:someone@example.com", true, "", &[]),
        ("urn:isbn:0451450523", true, "", &[]),
        ("HTTPS://GOOD.COM/", true, "good.com", &[]),
    ];
    for &(input, valid, host, kinds) in table {
        let rfc = UriRef::parse(input);
        assert_eq!(rfc.is_ok(), valid, "{input:?}: RFC 3986 verdict {rfc:?}");
        let d = Differential::of(input.as_bytes(), rfc.as_ref().ok(), None);
        match &d.reading {
            None => assert_eq!(host, "!", "{input:?}: rejected"),
            Some(r) => assert_eq!(r.host(), host, "{input:?}"),
        }
        assert_eq!(d.differences, kinds, "{input:?}");
    }
}

/// Against a base, as a browser reads a page's links (an access log's
/// targets against the site).
#[test]
fn against_a_base() {
    let base = Base::parse("https://good.com/app/").unwrap();
    let read = |input: &str| {
        let rfc = UriRef::parse(input);
        Differential::of(input.as_bytes(), rfc.as_ref().ok(), Some(&base))
    };
    let d = read(r"/\evil.com/x");
    assert_eq!(d.reading.as_ref().unwrap().host(), "evil.com");
    assert_eq!(
        d.differences,
        [Difference::WhatwgOnly, Difference::Backslash]
    );
    let d = read("/a/b?c");
    assert_eq!(d.reading.unwrap().href(), "https://good.com/a/b?c");
    assert!(d.differences.is_empty());
    let d = read("//evil.com/x");
    assert_eq!(d.reading.unwrap().host(), "evil.com");
    assert!(d.differences.is_empty(), "both read evil.com");
    let d = read("http:evil.com/x");
    assert_eq!(d.reading.unwrap().host(), "evil.com");
    assert_eq!(
        d.differences,
        [Difference::HostDiffers, Difference::Slashes]
    );
    assert!(Base::parse("/relative").is_err());
}

/// The template fields: the Standard's getters of a valid reference.
#[test]
fn template_fields() {
    use urilex::template::Template;
    let t =
        Template::parse("{whatwg:scheme}|{whatwg:host}|{whatwg:port}|{whatwg:path}|{whatwg:href}")
            .unwrap();
    let render = |s: &str| {
        let mut out = Vec::new();
        t.render(&UriRef::parse(s).unwrap(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    };
    assert_eq!(
        render("HTTP://127.1:8080/a/./b"),
        "http|127.0.0.1|8080|/a/b|http://127.0.0.1:8080/a/b"
    );
    assert_eq!(
        render("https://Example.COM:443"),
        "https|example.com||/|https://example.com/"
    );
    assert_eq!(render("/relative"), "||||");
    let must = Template::parse("{must:whatwg:host}").unwrap();
    let mut out = Vec::new();
    assert!(must
        .render(&UriRef::parse("/relative").unwrap(), &mut out)
        .is_err());
    assert!(Template::parse("{whatwg:query}").is_err());
}
