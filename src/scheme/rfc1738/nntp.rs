//! `nntp` (RFC 1738 section 3.7).

use super::server_port;
use crate::UriRef;

/// An `nntpurl`: `nntp://host[:port]/<newsgroup-name>[/<article-number>]`.
#[derive(Clone, Debug)]
pub struct Nntp<'a>(pub(super) UriRef<'a>);

impl<'a> Nntp<'a> {
    /// The host (3.1).
    pub fn host(&self) -> &'a str {
        self.0.host_str().unwrap_or_default()
    }
    /// The port: the URL's, else 119 (3.7). `None` over 65535.
    pub fn port(&self) -> Option<u16> {
        server_port(&self.0)
    }
    /// The newsgroup.
    pub fn group(&self) -> &'a str {
        self.0.part("group").unwrap_or_default()
    }
    /// The article number as written.
    pub fn article_text(&self) -> Option<&'a str> {
        self.0.part("digits")
    }
    /// The article number (`None` without one, or when it does not fit 64
    /// bits).
    ///
    /// ```
    /// use urilex::scheme::rfc1738::Url;
    /// let Url::Nntp(n) = Url::parse("nntp://news.example/comp.lang.c/0042").unwrap() else { panic!() };
    /// assert_eq!((n.group(), n.article(), n.port()), ("comp.lang.c", Some(42), Some(119)));
    /// ```
    pub fn article(&self) -> Option<u64> {
        self.article_text()?.parse().ok()
    }
}
