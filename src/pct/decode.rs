//! Decoding to bytes or UTF-8.

use super::pct_at;
use std::borrow::Cow;
use std::fmt;

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

/// The decoded bytes of `s`, or `s` as it is when an escape is malformed
/// (for views of parts the grammar has already checked, where that cannot
/// happen).
#[cfg(feature = "rfc1738")]
pub(crate) fn decode_or_raw(s: &str) -> Cow<'_, [u8]> {
    decode(s).unwrap_or(Cow::Borrowed(s.as_bytes()))
}
