//! `http` (RFC 1738 section 3.3).

use super::server_port;
use crate::UriRef;

/// An `httpurl`: `http://host[:port][/hpath[?search]]`. No user name or
/// password (3.3), no fragment.
#[derive(Clone, Debug)]
pub struct Http<'a>(pub(super) UriRef<'a>);

impl<'a> Http<'a> {
    /// The host (3.1).
    pub fn host(&self) -> &'a str {
        self.0.host_str().unwrap_or_default()
    }
    /// The port: the URL's, else 80 (3.3). `None` over 65535.
    pub fn port(&self) -> Option<u16> {
        server_port(&self.0)
    }
    /// The path (an HTTP selector) as written, without the `/` that ends
    /// the host; `None` when the URL has none (`http://host`).
    pub fn path(&self) -> Option<&'a str> {
        self.0.part("hpath")
    }
    /// The path's `/`-separated segments as written ("/" may denote
    /// hierarchy in HTTP, 3.3); they are not decoded, since within them
    /// ";" and "?" are reserved and their encoded forms mean otherwise.
    pub fn segments(&self) -> impl Iterator<Item = &'a str> + 'a {
        self.0.occurrences("hsegment")
    }
    /// The query string after `?`, as written.
    pub fn search(&self) -> Option<&'a str> {
        self.0.part("search")
    }
}
