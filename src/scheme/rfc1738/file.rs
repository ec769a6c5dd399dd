//! `file` (RFC 1738 section 3.10).

use super::decoded;
use crate::UriRef;
use std::borrow::Cow;

/// A `fileurl`: `file://[host]/<path>`: a file on a particular host, with
/// no protocol said for getting it.
#[derive(Clone, Debug)]
pub struct File<'a>(pub(super) UriRef<'a>);

impl<'a> File<'a> {
    /// The host as written; `None` for `file:///path`.
    pub fn host(&self) -> Option<&'a str> {
        self.0.host_str()
    }
    /// Whether the URL means the machine interpreting it: the host is
    /// `localhost` (any case) or empty (3.10).
    pub fn is_local(&self) -> bool {
        match self.host() {
            None => true,
            Some(h) => h.is_empty() || h.eq_ignore_ascii_case("localhost"),
        }
    }
    /// The path as written, without the `/` after the host.
    pub fn path(&self) -> &'a str {
        self.0.part("fpath").unwrap_or_default()
    }
    /// The `<directory>/.../<name>` segments, decoded.
    pub fn segments(&self) -> impl Iterator<Item = Cow<'a, [u8]>> + 'a {
        self.0.occurrences("fsegment").map(decoded)
    }
}
