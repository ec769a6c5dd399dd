//! `wais` (RFC 1738 section 3.9).

use super::server_port;
use crate::UriRef;

/// A `waisurl`: `wais://host[:port]/<database>`, with `?<search>` or
/// `/<wtype>/<wpath>`.
#[derive(Clone, Debug)]
pub struct Wais<'a>(pub(super) UriRef<'a>);

/// Which of the three forms of 3.9 a WAIS URL has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WaisTarget<'a> {
    /// `waisdatabase`: a searchable database.
    Database,
    /// `waisindex`: a particular search.
    Search(&'a str),
    /// `waisdoc`: a document, by its type and its document id (opaque, to
    /// be taken apart only by the server that issued it).
    Document {
        /// The object type, as written.
        wtype: &'a str,
        /// The document id, as written.
        wpath: &'a str,
    },
}

impl<'a> Wais<'a> {
    /// The host (3.1).
    pub fn host(&self) -> &'a str {
        self.0.host_str().unwrap_or_default()
    }
    /// The port: the URL's, else 210 (3.9). `None` over 65535.
    pub fn port(&self) -> Option<u16> {
        server_port(&self.0)
    }
    /// The database name as written.
    pub fn database(&self) -> &'a str {
        self.0.part("database").unwrap_or_default()
    }
    /// The form and what it adds.
    ///
    /// ```
    /// use urilex::scheme::rfc1738::{Url, WaisTarget};
    /// let Url::Wais(w) = Url::parse("wais://h/db/TEXT/0%2C1").unwrap() else { panic!() };
    /// assert_eq!(w.target(), WaisTarget::Document { wtype: "TEXT", wpath: "0%2C1" });
    /// ```
    pub fn target(&self) -> WaisTarget<'a> {
        if let Some(s) = self.0.part("search") {
            WaisTarget::Search(s)
        } else if let (Some(wtype), Some(wpath)) = (self.0.part("wtype"), self.0.part("wpath")) {
            WaisTarget::Document { wtype, wpath }
        } else {
            WaisTarget::Database
        }
    }
}
