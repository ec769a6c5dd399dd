//! `mailto` (RFC 1738 section 3.5).

use super::decoded;
use crate::UriRef;
use std::borrow::Cow;

/// A `mailtourl`: `mailto:<rfc822-addr-spec>`, encoded.
#[derive(Clone, Debug)]
pub struct Mailto<'a>(pub(super) UriRef<'a>);

impl<'a> Mailto<'a> {
    /// The address as written (`%` in it must be encoded, 3.5).
    pub fn encoded(&self) -> &'a str {
        self.0.part("encoded822addr").unwrap_or_default()
    }
    /// The RFC 822 address, decoded.
    ///
    /// ```
    /// use urilex::scheme::rfc1738::Url;
    /// let Url::Mailto(m) = Url::parse("mailto:user%25relay@example.org").unwrap() else { panic!() };
    /// assert_eq!(m.address(), b"user%relay@example.org".as_slice());
    /// ```
    pub fn address(&self) -> Cow<'a, [u8]> {
        decoded(self.encoded())
    }
}
