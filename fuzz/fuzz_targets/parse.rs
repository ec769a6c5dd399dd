//! Any bytes: no panic; spans in bounds, ordered and not overlapping; the
//! text re-parses to the same spans; the DFA verdict equals the parser's.
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
                for c in [Component::Scheme, Component::Userinfo, Component::Host, Component::Port, Component::Path, Component::Query, Component::Fragment] {
                    if let Some(s) = u.span(c) {
                        assert!(s.start <= s.end && s.end <= data.len());
                        assert!(s.start >= last, "{c:?} overlaps");
                        last = s.end;
                    }
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
