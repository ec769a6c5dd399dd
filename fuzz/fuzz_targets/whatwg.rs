//! The WHATWG differential (`urilex::whatwg`): it never panics; its
//! reading is always the `url` crate's (where it takes the straight line
//! from the RFC 3986 reading, and where it parses); a reference the two
//! readings agree on has no difference; and a difference comes with one
//! of the three main kinds first. The same against a base.
#![no_main]

use libfuzzer_sys::fuzz_target;
use urilex::whatwg::{simple_reading_for_tests, Base, Difference, Differential, Reading};
use urilex::Parser;

fuzz_target!(|data: &[u8]| {
    if data.len() > 4096 {
        return;
    }
    let rfc = Parser::new().parse_bytes(data).ok();
    let parsed = Reading::parse(data, None);
    if let Some(u) = &rfc {
        if let Some(simple) = simple_reading_for_tests(u) {
            assert_eq!(Some(&simple), parsed.as_ref(), "the straight line");
        }
    }
    let d = Differential::of(data, rfc.as_ref(), None);
    assert_eq!(d.reading, parsed);
    check(&d, rfc.is_some());
    thread_local! {
        static BASE: Base = Base::parse("https://good.example/app/x?q").unwrap();
    }
    BASE.with(|base| {
        let d = Differential::of(data, rfc.as_ref(), Some(base));
        assert_eq!(d.reading, Reading::parse(data, Some(base.url())));
        check(&d, rfc.is_some());
    });
});

fn check(d: &Differential, valid: bool) {
    let main = [
        Difference::HostDiffers,
        Difference::WhatwgOnly,
        Difference::RfcOnly,
    ];
    match d.differences.first() {
        None => assert_eq!(
            valid,
            d.reading.is_some(),
            "agree: both accept or both reject"
        ),
        Some(k) => {
            assert!(main.contains(k), "{:?}", d.differences);
            assert!(d.differences[1..].iter().all(|k| !main.contains(k)));
            match k {
                Difference::WhatwgOnly => assert!(!valid && d.reading.is_some()),
                Difference::RfcOnly => assert!(valid && d.reading.is_none()),
                _ => assert!(valid && d.reading.is_some()),
            }
        }
    }
}
