//! `telnet` (RFC 1738 section 3.8).

use super::server_port;
use crate::UriRef;

/// A `telneturl`: `telnet://[user[:password]@]host[:port][/]`: an
/// interactive service, not a data object; the user name and password are
/// advisory (3.8).
#[derive(Clone, Debug)]
pub struct Telnet<'a>(pub(super) UriRef<'a>);

impl<'a> Telnet<'a> {
    /// The host (3.1).
    pub fn host(&self) -> &'a str {
        self.0.host_str().unwrap_or_default()
    }
    /// The port: the URL's, else 23 (3.8). `None` over 65535.
    pub fn port(&self) -> Option<u16> {
        server_port(&self.0)
    }
    /// The user name as written (empty is not absent, 3.1).
    pub fn user(&self) -> Option<&'a str> {
        self.0.part("user")
    }
    /// The password as written.
    pub fn password(&self) -> Option<&'a str> {
        self.0.part("password")
    }
}
