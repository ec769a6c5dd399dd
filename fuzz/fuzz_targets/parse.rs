//! Any bytes: no panic; spans in bounds, ordered and not overlapping; the
//! text re-parses to the same spans; the DFA verdict equals the parser's;
//! every part of the rule a reference matched lies in it, and RFC 1738's
//! typed views read any URL of that profile; a URN's normal form is a
//! URN whose normal form is itself.
#![no_main]
use libfuzzer_sys::fuzz_target;
use urilex::{Component, Parser, Profile, UriRef};

fuzz_target!(|data: &[u8]| {
    for p in Profile::ALL {
        let parser = Parser::new().profile(*p);
        let r = parser.parse_bytes(data);
        assert_eq!(r.is_ok(), parser.is_valid(data));
        match r {
            Ok(u) => {
                let mut last = 0;
                for c in [
                    Component::Scheme,
                    Component::Userinfo,
                    Component::Host,
                    Component::Port,
                    Component::Path,
                    Component::Query,
                    Component::Fragment,
                ] {
                    if let Some(s) = u.span(c) {
                        assert!(s.start <= s.end && s.end <= data.len());
                        assert!(s.start >= last, "{c:?} overlaps");
                        last = s.end;
                    }
                }
                for (info, _) in u.rule_parts() {
                    for r in u.occurrences_at(info.index()).spans() {
                        assert!(r.start <= r.end && r.end <= data.len(), "{}", info.name());
                    }
                }
                if *p == Profile::Rfc1738 {
                    views(u);
                }
                if let Some(urn) = urilex::urn::Urn::of(u) {
                    use urilex::urn::QueryRule;
                    let n = urn.normalized(QueryRule::Reorder);
                    assert!(urn.equivalent(&urn, QueryRule::Drop));
                    // The normal form is a URN of the same profile, and its own.
                    let again = urilex::urn::Urn::parse_with(*p, &n).expect("normal form parses");
                    assert_eq!(again.normalized(QueryRule::Reorder), n);
                    let _ = urn.effective_directives().count();
                }
                let text = u.to_string();
                let again = parser.parse(&text).expect("Display re-parses");
                for c in Component::ALL {
                    assert_eq!(u.span(c), again.span(c));
                }
            }
            Err(e) => assert!(e.index() <= data.len()),
        }
    }
    let _ = UriRef::parse_bytes(data);
});

fn views(u: UriRef<'_>) {
    use urilex::scheme::rfc1738::Url;
    let url = Url::of(u).expect("an RFC 1738 reference");
    let _ = (url.port(), url.default_port());
    match url {
        Url::Ftp(f) => {
            let _ = (f.login(), f.typecode(), f.name(), f.cwd());
            for c in f.commands() {
                let _ = c.to_string();
            }
        }
        Url::Http(h) => {
            let _ = (h.path(), h.search(), h.segments().count());
        }
        Url::Gopher(g) => {
            let _ = (g.gopher_type(), g.request());
        }
        Url::Mailto(m) => {
            let _ = m.address();
        }
        Url::News(n) => {
            let _ = (n.target(), n.article_host());
        }
        Url::Nntp(n) => {
            let _ = (n.group(), n.article());
        }
        Url::Telnet(t) => {
            let _ = (t.user(), t.password(), t.host());
        }
        Url::Wais(w) => {
            let _ = (w.database(), w.target());
        }
        Url::File(f) => {
            let _ = (f.is_local(), f.segments().count());
        }
        Url::Prospero(p) => {
            let _ = (p.hsoname(), p.fields().count());
        }
        _ => {}
    }
}
