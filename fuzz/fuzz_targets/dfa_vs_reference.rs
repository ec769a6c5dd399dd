//! The generated parser against the plain reference parser of the tests.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../../tests/support/reference.rs"]
mod reference;

fuzz_target!(|data: &[u8]| {
    let want = reference::uri_reference(data);
    let got = urilex::UriRef::parse_bytes(data);
    assert_eq!(
        got.is_ok(),
        want.is_some(),
        "{:?}",
        String::from_utf8_lossy(data)
    );
    if let (Ok(u), Some(w)) = (got, want) {
        let span = |c| u.span(c).map(|r: std::ops::Range<usize>| (r.start, r.end));
        assert_eq!(span(urilex::Component::Scheme), w.scheme);
        assert_eq!(span(urilex::Component::Authority), w.authority);
        assert_eq!(span(urilex::Component::Userinfo), w.userinfo);
        assert_eq!(span(urilex::Component::Host), w.host);
        assert_eq!(span(urilex::Component::Port), w.port);
        assert_eq!(span(urilex::Component::Path), w.path);
        assert_eq!(span(urilex::Component::Query), w.query);
        assert_eq!(span(urilex::Component::Fragment), w.fragment);
        assert_eq!(u.host_kind().map(|k| k.as_str()), w.host_kind);
    }
});
