//! Bug: `urilex urn --profile urn-draft-03` accepted `urn:foo:a%00`, but
//! draft-ietf-urnbis-rfc2141bis-urn-03 section 2.5.3 says: "The NUL octet (0
//! hex) ... MUST NOT be used in URNs, in either unencoded or percent-encoded
//! form." Found in review. Fixed in the grammar (`abnf/urn-draft-03.abnf`,
//! note 5: `urn-pct-encoded` is `pct-encoded` without `%00`, in the NSS,
//! directive values and the fragment). RFC 8141 states no such rule (its
//! section 2 takes RFC 3986's `pchar`), so `rfc8141` keeps accepting it.

use urilex::{ErrorKind, Parser, Profile};

#[test]
fn the_draft_refuses_percent_encoded_nul_everywhere() {
    let draft = Parser::new().profile(Profile::UrnDraft03);
    for (input, index, part) in [
        ("urn:foo:a%00", 11, "nss"),
        ("urn:foo:%00b", 10, "nss"),
        ("urn:isbn:x?s=%00", 15, "value"),
        ("urn:foo:a#%00", 12, "fragment"),
    ] {
        let e = draft.parse(input).unwrap_err();
        assert_eq!(
            (e.kind(), e.index(), e.part()),
            (ErrorKind::InvalidCharacter, index, Some(part)),
            "{input}: {e}"
        );
        assert!(e.to_string().contains("rule urn-pct-encoded"), "{e}");
        assert!(!draft.is_valid(input.as_bytes()), "{input}");
    }
    // Every other escape stays, in either case.
    for input in [
        "urn:foo:a%0a",
        "urn:foo:a%10",
        "urn:foo:%0F%f0",
        "urn:isbn:x?s=%01#%2F",
    ] {
        assert!(draft.parse(input).is_ok(), "{input}");
    }
}

#[test]
fn rfc8141_has_no_such_rule() {
    let rfc = Parser::new().profile(Profile::Rfc8141);
    for input in [
        "urn:foo:a%00",
        "urn:foo:%00b",
        "urn:foo:a#%00",
        "urn:foo:a?=%00",
    ] {
        assert!(rfc.parse(input).is_ok(), "{input}");
    }
}
