//! Percent-encoding (RFC 3986 section 2.1): encoding for a component, with
//! each component's allowed characters taken from the generated tables, and
//! decoding to bytes or UTF-8. Nothing is allocated when nothing changes.

use crate::tables::in_set;
use crate::{Component, Profile};
use std::borrow::Cow;
use std::fmt;

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
    if s.get(i) != Some(&b'%') {
        return None;
    }
    Some(hex(*s.get(i + 1)?)? << 4 | hex(*s.get(i + 2)?)?)
}

pub(crate) fn push_pct(out: &mut String, v: u8) {
    out.push('%');
    out.push(UPPER_HEX[(v >> 4) as usize] as char);
    out.push(UPPER_HEX[(v & 15) as usize] as char);
}

/// Encodes `input` for `component` of an RFC 3986 reference: bytes the
/// component's grammar allows stay, a valid `%XX` stays (no double
/// encoding), everything else becomes `%XX` with upper-case hex.
///
/// ```
/// use urilex::{pct, Component};
/// assert_eq!(pct::encode(Component::Query, "a b&c=d/é"), "a%20b&c=d/%C3%A9");
/// assert_eq!(pct::encode(Component::Path, "/already%20done"), "/already%20done");
/// assert_eq!(pct::encode(Component::Userinfo, "me@host"), "me%40host");
/// assert!(matches!(pct::encode(Component::Path, "/plain"), std::borrow::Cow::Borrowed(_)));
/// ```
pub fn encode(component: Component, input: &str) -> Cow<'_, str> {
    encode_with(Profile::default(), component, input)
}

/// [`encode`] under the grammar of `profile`.
pub fn encode_with(profile: Profile, component: Component, input: &str) -> Cow<'_, str> {
    let allowed = &profile.tables().literal[component as usize];
    let b = input.as_bytes();
    let keep = |i: usize| in_set(allowed, b[i]) || pct_at(b, i).is_some();
    let Some(first) = (0..b.len()).find(|&i| !keep(i)) else {
        return Cow::Borrowed(input);
    };
    let mut out = String::with_capacity(b.len() + 16);
    out.push_str(&input[..first]);
    let mut i = first;
    while i < b.len() {
        if pct_at(b, i).is_some() {
            out.push_str(&input[i..i + 3]);
            i += 3;
        } else if in_set(allowed, b[i]) {
            out.push(b[i] as char);
            i += 1;
        } else {
            push_pct(&mut out, b[i]);
            i += 1;
        }
    }
    Cow::Owned(out)
}

/// A decoding failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DecodeError {
    /// A `%` at this byte offset is not followed by two hex digits.
    MalformedPercent {
        /// Offset of the `%`.
        index: usize,
    },
    /// The decoded bytes are not UTF-8; the offset is in the decoded bytes.
    InvalidUtf8 {
        /// Offset of the first byte that is not UTF-8.
        index: usize,
    },
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::MalformedPercent { index } => {
                write!(
                    f,
                    "malformed percent-encoding at byte {index}: '%' needs two hex digits"
                )
            }
            DecodeError::InvalidUtf8 { index } => {
                write!(f, "decoded bytes are not UTF-8 at byte {index}")
            }
        }
    }
}

impl std::error::Error for DecodeError {}

/// Decodes every `%XX` to its byte.
///
/// ```
/// use urilex::pct;
/// assert_eq!(pct::decode("a%20b%FF").unwrap().as_ref(), b"a b\xff");
/// assert!(pct::decode("100%").is_err());
/// ```
pub fn decode(input: &str) -> Result<Cow<'_, [u8]>, DecodeError> {
    let b = input.as_bytes();
    let Some(first) = b.iter().position(|&c| c == b'%') else {
        return Ok(Cow::Borrowed(b));
    };
    let mut out = Vec::with_capacity(b.len());
    out.extend_from_slice(&b[..first]);
    let mut i = first;
    while i < b.len() {
        if b[i] == b'%' {
            out.push(pct_at(b, i).ok_or(DecodeError::MalformedPercent { index: i })?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    Ok(Cow::Owned(out))
}

/// Decodes to UTF-8 text.
///
/// ```
/// use urilex::pct;
/// assert_eq!(pct::decode_utf8("caf%C3%A9").unwrap(), "café");
/// assert_eq!(pct::decode_utf8("%C3").unwrap_err(), pct::DecodeError::InvalidUtf8 { index: 0 });
/// ```
pub fn decode_utf8(input: &str) -> Result<Cow<'_, str>, DecodeError> {
    match decode(input)? {
        Cow::Borrowed(_) => Ok(Cow::Borrowed(input)),
        Cow::Owned(v) => {
            String::from_utf8(v)
                .map(Cow::Owned)
                .map_err(|e| DecodeError::InvalidUtf8 {
                    index: e.utf8_error().valid_up_to(),
                })
        }
    }
}
