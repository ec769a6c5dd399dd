//! `gopher` (RFC 1738 section 3.4).

use super::{decoded, server_port};
use crate::UriRef;
use std::borrow::Cow;

/// A `gopherurl`: `gopher://host[:port]/<gophertype><selector>`, then
/// optionally `%09<search>` and `%09<gopher+_string>`.
#[derive(Clone, Debug)]
pub struct Gopher<'a>(pub(super) UriRef<'a>);

impl<'a> Gopher<'a> {
    /// The host (3.1).
    pub fn host(&self) -> &'a str {
        self.0.host_str().unwrap_or_default()
    }
    /// The port: the URL's, else 70 (3.4.1). `None` over 65535.
    pub fn port(&self) -> Option<u16> {
        server_port(&self.0)
    }
    /// The Gopher type: one character (decoded if written `%XX`); `1` (a
    /// directory) when the path is empty (3.4.1).
    pub fn gopher_type(&self) -> u8 {
        match self.0.part("gtype") {
            Some(t) => decoded(t)[0],
            None => b'1',
        }
    }
    /// The selector, decoded; empty when the path is (3.4.1). It may begin
    /// with a copy of the type character (`/00/Weather` has type `0` and
    /// selector `0/Weather`).
    pub fn selector(&self) -> Cow<'a, [u8]> {
        self.0.part("selector").map(decoded).unwrap_or_default()
    }
    /// The search string after the first `%09`, decoded (3.4.2); `None`
    /// when there is none.
    pub fn search(&self) -> Option<Cow<'a, [u8]>> {
        self.0.part("search").map(decoded)
    }
    /// The Gopher+ string after the second `%09`, decoded (3.4.3): `+` for
    /// the default view, `?` for an item with a +ASK form, `!`/`$` for
    /// attributes (3.4.4-3.4.9).
    pub fn gopher_plus(&self) -> Option<Cow<'a, [u8]>> {
        self.0.part("gopher+_string").map(decoded)
    }

    /// What the client sends to the server (3.4.2, 3.4.3): the selector,
    /// then a tab and the search, then a tab and the Gopher+ string, then
    /// CR LF.
    ///
    /// ```
    /// use urilex::scheme::rfc1738::Url;
    /// let Url::Gopher(g) = Url::parse("gopher://h/7find%09rfc%201738").unwrap() else { panic!() };
    /// assert_eq!(g.request(), b"find\trfc 1738\r\n");
    /// ```
    pub fn request(&self) -> Vec<u8> {
        let mut out = self.selector().into_owned();
        if let Some(s) = self.search() {
            out.push(b'\t');
            out.extend_from_slice(&s);
        }
        if let Some(g) = self.gopher_plus() {
            out.push(b'\t');
            out.extend_from_slice(&g);
        }
        out.extend_from_slice(b"\r\n");
        out
    }
}
