//! The `serde` feature (this crate enables it, so CI runs it): references
//! serialize as their text and deserialize by parsing, refusing invalid text.

use urilex::{UriRef, UriRefBuf};

#[test]
fn round_trip_as_strings() {
    let owned: UriRefBuf = "https://example.com:8443/a?b#c".parse().unwrap();
    let json = serde_json::to_string(&owned).unwrap();
    assert_eq!(json, "\"https://example.com:8443/a?b#c\"");
    let back: UriRefBuf = serde_json::from_str(&json).unwrap();
    assert_eq!(back, owned);
    let borrowed: UriRef<'_> = serde_json::from_str(&json).unwrap();
    assert_eq!(borrowed.port_u16(), Some(8443));
    assert_eq!(serde_json::to_string(&borrowed).unwrap(), json);
    let err = serde_json::from_str::<UriRefBuf>("\"http://a b\"").unwrap_err();
    assert!(err.to_string().contains("invalid character ' '"), "{err}");
}
