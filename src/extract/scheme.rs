//! Schemes: the registered ones a URI may have without `//`, and the
//! byte classes a scheme and a URI are read with.

#[allow(unused_imports)]
use super::*;

/// Schemes that make a URI without `//` after them: permanent entries of
/// IANA's "Uniform Resource Identifier (URI) Schemes" registry that are
/// written in running text, each with its defining document.
pub const SCHEMES: &[&str] = &[
    "mailto", // RFC 6068
    "news",   // RFC 5538
    "nntp",   // RFC 5538
    "urn",    // RFC 8141
    "tel",    // RFC 3966
    "fax",    // RFC 3966 (historical RFC 2806)
    "sms",    // RFC 5724
    "data",   // RFC 2397
    "sip",    // RFC 3261
    "sips",   // RFC 3261
    "xmpp",   // RFC 5122
    "geo",    // RFC 5870
    "cid",    // RFC 2392
    "mid",    // RFC 2392
    "tag",    // RFC 4151
    "ni",     // RFC 6920
    "about",  // RFC 6694
    "im",     // RFC 3860
    "pres",   // RFC 3859
];

/// Whether the scheme of `uri` is followed by `//` or registered.
pub(super) fn scheme_ok(uri: &[u8]) -> bool {
    let Some(colon) = uri.iter().position(|&b| b == b':') else {
        return false;
    };
    uri[colon + 1..].starts_with(b"//") || registered(&uri[..colon])
}

/// Whether `scheme` is one of [`SCHEMES`] (in any case): its bytes in
/// lower case as one integer, against the list's (prose has many words
/// before a colon, so this is asked often).
pub(super) fn registered(scheme: &[u8]) -> bool {
    const KEYS: [u64; SCHEMES.len()] = {
        let mut keys = [0u64; SCHEMES.len()];
        let mut i = 0;
        while i < SCHEMES.len() {
            keys[i] = key(SCHEMES[i].as_bytes());
            i += 1;
        }
        keys
    };
    scheme.len() <= 7 && KEYS.contains(&key(scheme))
}

/// Up to seven bytes in ASCII lower case, and their count, as an integer.
pub(super) const fn key(s: &[u8]) -> u64 {
    let mut k = s.len() as u64;
    let mut i = 0;
    while i < s.len() && i < 7 {
        k |= (s[i].to_ascii_lowercase() as u64) << (8 * (i + 1));
        i += 1;
    }
    k
}

/// Byte classes, one table load per byte, read off the profile's tables
/// (nothing here restates a grammar): `URI` for bytes some reference of the
/// profile may hold, `SCHEME` for the scheme's bytes, `SCHEME_START` for
/// those a scheme may begin with.
pub(super) const URI: u8 = 1;

pub(super) const SCHEME: u8 = 2;

pub(super) const SCHEME_START: u8 = 4;

pub(super) fn classes(profile: Profile) -> [u8; 256] {
    let t = profile.tables();
    core::array::from_fn(|b| {
        let b = b as u8;
        (crate::engine::in_set(t.bytes, b) as u8 * URI)
            | (t.scheme_byte(b) as u8 * SCHEME)
            | (t.scheme_start(b) as u8 * SCHEME_START)
    })
}

/// The longest scheme of a URI in `"…"` or `<…>` (a bare one's is
/// unbounded).
pub(super) const MAX_SCHEME: usize = 32;
