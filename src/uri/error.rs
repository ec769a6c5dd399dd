//! Parse errors: what went wrong, in which component, at which byte, and
//! which grammar rule was being matched.

use crate::Component;
use core::fmt;

/// The kind of fault. Each kind documents what [`ParseError::index`] points at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A byte that the grammar does not allow where it appears; `index` is
    /// that byte. Non-ASCII bytes and invalid UTF-8 land here too.
    InvalidCharacter,
    /// A `%` not followed by two hex digits; `index` is the byte after the
    /// `%` that is not a hex digit (or the end of the input).
    InvalidPercentEncoding,
    /// An IP literal (`[...]`) that is not a well-formed IPv6 or IPvFuture
    /// address; `index` is the first byte that cannot continue it.
    InvalidIpLiteral,
    /// The input ended inside a construct; `index` is the input's length.
    UnexpectedEnd,
    /// An absolute URI was asked for and the input is a relative reference;
    /// `index` is 0.
    MissingScheme,
    /// The input is longer than urilex's `u32` offsets can hold; `index` is
    /// `u32::MAX`.
    TooLong,
    /// The profile does not define the requested syntax or component;
    /// `index` is 0.
    Unsupported,
}

impl ErrorKind {
    pub(crate) fn from_index(i: u8) -> Option<ErrorKind> {
        ErrorKind::ALL.get(i as usize).copied()
    }

    /// Every kind, in declaration order (the order of `Batch::counts`).
    pub const ALL: [ErrorKind; 7] = [
        ErrorKind::InvalidCharacter,
        ErrorKind::InvalidPercentEncoding,
        ErrorKind::InvalidIpLiteral,
        ErrorKind::UnexpectedEnd,
        ErrorKind::MissingScheme,
        ErrorKind::TooLong,
        ErrorKind::Unsupported,
    ];

    /// A short name, as used in JSON output.
    ///
    /// ```
    /// assert_eq!(urilex::ErrorKind::InvalidCharacter.as_str(), "invalid-character");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            ErrorKind::InvalidCharacter => "invalid-character",
            ErrorKind::InvalidPercentEncoding => "invalid-percent-encoding",
            ErrorKind::InvalidIpLiteral => "invalid-ip-literal",
            ErrorKind::UnexpectedEnd => "unexpected-end",
            ErrorKind::MissingScheme => "missing-scheme",
            ErrorKind::TooLong => "too-long",
            ErrorKind::Unsupported => "unsupported",
        }
    }
}

/// Why an input is not a URI reference. Small and `Copy`.
///
/// ```
/// let err = urilex::UriRef::parse("http://a/b c").unwrap_err();
/// assert_eq!(err.kind(), urilex::ErrorKind::InvalidCharacter);
/// assert_eq!(err.index(), 10);
/// assert_eq!(err.component(), Some(urilex::Component::Path));
/// assert_eq!(err.to_string(), "invalid character ' ' (0x20) at byte 10 in path (rule segment)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ParseError {
    pub(crate) kind: ErrorKind,
    /// The part (by the grammar's name) the fault is in.
    pub(crate) part: Option<&'static str>,
    pub(crate) index: u32,
    pub(crate) byte: Option<u8>,
    pub(crate) rule: &'static str,
}

impl ParseError {
    /// What went wrong.
    pub const fn kind(&self) -> ErrorKind {
        self.kind
    }
    /// The component being matched, when the grammar places the fault in
    /// one of the default grammar's parts.
    pub fn component(&self) -> Option<Component> {
        Component::from_name(self.part?)
    }
    /// The part being matched, by the name the profile's grammar gives it
    /// (also parts that [`Component`] has no variant for, such as RFC 6874's
    /// `zone`).
    ///
    /// ```
    /// # #[cfg(feature = "rfc6874")] {
    /// use urilex::{Parser, Profile};
    /// let e = Parser::new().profile(Profile::Rfc6874).parse("http://[::1%25a%2]/").unwrap_err();
    /// assert_eq!(e.part(), Some("zone"));
    /// assert_eq!(e.component(), None);
    /// # }
    /// ```
    pub const fn part(&self) -> Option<&'static str> {
        self.part
    }
    /// Byte offset of the fault in the input (see [`ErrorKind`]).
    pub const fn index(&self) -> usize {
        self.index as usize
    }
    /// The offending byte, or `None` at the end of the input.
    pub const fn byte(&self) -> Option<u8> {
        self.byte
    }
    /// The innermost grammar rule being matched, as named in the `.abnf` file.
    pub const fn rule(&self) -> &'static str {
        self.rule
    }
}

struct Found(Option<u8>);

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(b) if b.is_ascii_graphic() || b == b' ' => {
                write!(f, " {:?} (0x{:02X})", b as char, b)
            }
            Some(b) => write!(f, " 0x{:02X}", b),
            None => Ok(()),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            ErrorKind::InvalidCharacter => match self.byte {
                Some(b) if b >= 0x80 => write!(f, "non-ASCII byte{}", Found(self.byte))?,
                Some(b) if b.is_ascii_control() => write!(f, "control byte{}", Found(Some(b)))?,
                _ => write!(f, "invalid character{}", Found(self.byte))?,
            },
            ErrorKind::InvalidPercentEncoding => match self.byte {
                Some(_) => write!(
                    f,
                    "invalid percent-encoding, expected a hex digit, found{}",
                    Found(self.byte)
                )?,
                None => write!(f, "incomplete percent-encoding")?,
            },
            ErrorKind::InvalidIpLiteral => match self.byte {
                Some(_) => write!(f, "invalid IP literal, unexpected{}", Found(self.byte))?,
                None => write!(f, "unterminated IP literal")?,
            },
            ErrorKind::UnexpectedEnd => write!(f, "unexpected end of input")?,
            ErrorKind::MissingScheme => write!(
                f,
                "missing scheme (a relative reference where a URI is required)"
            )?,
            ErrorKind::TooLong => return write!(f, "input longer than 4 GiB"),
            ErrorKind::Unsupported => {
                return write!(f, "not defined by this profile (rule {})", self.rule)
            }
        }
        write!(f, " at byte {}", self.index)?;
        if let Some(c) = self.part {
            write!(f, " in {c}")?;
        }
        write!(f, " (rule {})", self.rule)
    }
}

impl std::error::Error for ParseError {}
