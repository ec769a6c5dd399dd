//! `prospero` (RFC 1738 section 3.11).

use super::{decoded, server_port};
use crate::UriRef;
use std::borrow::Cow;

/// A `prosperourl`: `prospero://host[:port]/<hsoname>;<field>=<value>...`.
#[derive(Clone, Debug)]
pub struct Prospero<'a>(pub(super) UriRef<'a>);

impl<'a> Prospero<'a> {
    /// The host (3.1).
    pub fn host(&self) -> &'a str {
        self.0.host_str().unwrap_or_default()
    }
    /// The port: the URL's, else 1525 (3.11). `None` over 65535.
    pub fn port(&self) -> Option<u16> {
        server_port(&self.0)
    }
    /// The host-specific object name, decoded: opaque to the client; it
    /// may begin with `/` (`prospero://host.dom//pros/name` names
    /// `/pros/name`, 3.11).
    pub fn hsoname(&self) -> Cow<'a, [u8]> {
        decoded(self.0.part("ppath").unwrap_or_default())
    }
    /// The `;field=value` pairs after the name, decoded, in order.
    ///
    /// ```
    /// use urilex::scheme::rfc1738::Url;
    /// let Url::Prospero(p) = Url::parse("prospero://h/x;OBJECT-VERSION=2;a%3Db=c").unwrap() else { panic!() };
    /// let f: Vec<_> = p.fields().collect();
    /// assert_eq!(f[0], (b"OBJECT-VERSION"[..].into(), b"2"[..].into()));
    /// assert_eq!(f[1], (b"a=b"[..].into(), b"c"[..].into()));
    /// ```
    pub fn fields(&self) -> impl Iterator<Item = (Cow<'a, [u8]>, Cow<'a, [u8]>)> + 'a {
        self.0
            .occurrences("fieldname")
            .zip(self.0.occurrences("fieldvalue"))
            .map(|(n, v)| (decoded(n), decoded(v)))
    }
}
