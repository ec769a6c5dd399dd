//! Percent-encoding (RFC 3986 section 2.1), in one place: the form of an
//! escape, encoding for a component (each component's allowed characters
//! taken from the generated tables), decoding to bytes or UTF-8, and the
//! copy that upper-cases escapes' hex digits and decodes the unreserved
//! ones, which normalization and URN equivalence share. Nothing is
//! allocated when nothing changes.
//!
//! The form of an escape (`%` and two hex digits) is written once, in
//! `codegen/escape.rs`: the generator reads it to mark the run sets that
//! loop through escapes, and the engine's generated tables hold the same
//! text, which the batch's bit machinery and this module read.

mod decode;
mod encode;
mod fold;

#[cfg(feature = "rfc1738")]
pub(crate) use decode::decode_or_raw;
pub use decode::{decode, decode_utf8, DecodeError};
pub use encode::{encode, encode_with, EncodeError};
pub(crate) use fold::copy_folded;
#[cfg(feature = "rfc8141")]
pub(crate) use fold::push_upper;

use crate::engine::escape::INTRO;

/// The value of hex digit `b`.
#[inline]
fn hex(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

const UPPER_HEX: &[u8; 16] = b"0123456789ABCDEF";

/// The value of a valid `%XX` at `i`.
#[inline]
pub(crate) fn pct_at(s: &[u8], i: usize) -> Option<u8> {
    if s.get(i) != Some(&INTRO) {
        return None;
    }
    Some(hex(*s.get(i + 1)?)? << 4 | hex(*s.get(i + 2)?)?)
}

/// Appends the escape of `v`, with upper-case hex digits.
pub(crate) fn push_pct(out: &mut String, v: u8) {
    out.push(INTRO as char);
    out.push(UPPER_HEX[(v >> 4) as usize] as char);
    out.push(UPPER_HEX[(v & 15) as usize] as char);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::escape::escape_at;

    /// The escape's form and its value agree on every three bytes that
    /// could begin one.
    #[test]
    fn escape_at_and_pct_at_agree() {
        for h in 0..=255u8 {
            for l in 0..=255u8 {
                let t = [b'%', h, l];
                assert_eq!(escape_at(&t, 0), pct_at(&t, 0).is_some(), "{t:?}");
            }
        }
        assert!(!escape_at(b"%4", 0) && pct_at(b"%4", 0).is_none());
        let mut s = String::new();
        for v in 0..=255u8 {
            s.clear();
            push_pct(&mut s, v);
            assert_eq!(pct_at(s.as_bytes(), 0), Some(v));
            assert!(!s.bytes().any(|c| c.is_ascii_lowercase()));
        }
    }
}
