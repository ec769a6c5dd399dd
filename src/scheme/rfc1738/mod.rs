//! The ten schemes of RFC 1738, section 3, as typed views.
//!
//! [`Profile::Rfc1738`] parses a URL with the grammar of its scheme
//! (`abnf/rfc1738.abnf`, from section 5, each rule dispatched by the
//! scheme); the views here read the parts that grammar names and add what
//! the prose of section 3 says they mean: default ports, decoded names,
//! the FTP commands a URL stands for (3.2.2), the Gopher type an empty path
//! means (3.4), and so on. Every view borrows the parsed reference; nothing
//! is allocated unless a value has to be percent-decoded (`Cow`).
//!
//! ```
//! use urilex::scheme::rfc1738::{Url, FtpCommand};
//! let Url::Ftp(f) = Url::parse("ftp://myname@host.dom/%2Fetc/motd").unwrap() else { panic!() };
//! assert_eq!(f.user(), Some("myname"));
//! assert_eq!(f.port(), Some(21));
//! assert_eq!(
//!     f.commands(),
//!     vec![FtpCommand::Cwd(b"/etc"[..].into()), FtpCommand::Retr(b"motd"[..].into())]
//! );
//! ```

use crate::{ParseError, Parser, Profile, UriRef};
use std::borrow::Cow;

mod file;
mod ftp;
mod gopher;
mod http;
mod mailto;
mod news;
mod nntp;
mod prospero;
mod telnet;
mod wais;

pub use file::File;
pub use ftp::{Ftp, FtpCommand, Login, TypeCode};
pub use gopher::Gopher;
pub use http::Http;
pub use mailto::Mailto;
pub use news::{News, NewsTarget};
pub use nntp::Nntp;
pub use prospero::Prospero;
pub use telnet::Telnet;
pub use wais::{Wais, WaisTarget};

/// A URL of RFC 1738, viewed by its scheme (section 3); `Other` for a
/// scheme section 3 does not define (its `genericurl`, section 5).
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Url<'a> {
    /// 3.2
    Ftp(Ftp<'a>),
    /// 3.3
    Http(Http<'a>),
    /// 3.4
    Gopher(Gopher<'a>),
    /// 3.5
    Mailto(Mailto<'a>),
    /// 3.6
    News(News<'a>),
    /// 3.7
    Nntp(Nntp<'a>),
    /// 3.8
    Telnet(Telnet<'a>),
    /// 3.9
    Wais(Wais<'a>),
    /// 3.10
    File(File<'a>),
    /// 3.11
    Prospero(Prospero<'a>),
    /// Any other scheme: `scheme ":" schemepart`, with the login and
    /// url-path of section 3.1 when the scheme part has that form.
    Other(UriRef<'a>),
}

impl<'a> Url<'a> {
    /// Parses `input` under [`Profile::Rfc1738`] and views it by scheme.
    ///
    /// ```
    /// use urilex::scheme::rfc1738::Url;
    /// assert!(matches!(Url::parse("news:*"), Ok(Url::News(_))));
    /// let e = Url::parse("ftp://host/a;type=x").unwrap_err();
    /// assert_eq!(e.part(), Some("ftptype"));
    /// ```
    pub fn parse(input: &'a str) -> Result<Url<'a>, ParseError> {
        let u = Parser::new().profile(Profile::Rfc1738).parse(input)?;
        Ok(Url::of(u).expect("parsed under RFC 1738"))
    }

    /// Views a reference parsed under [`Profile::Rfc1738`]; `None` for one
    /// of another profile (its parts are not RFC 1738's).
    ///
    /// The view follows the rule the grammar chose for the URL (its
    /// `;@ scheme` table, `abnf/rfc1738.abnf`): a URL that the generic
    /// `genericurl` parsed is `Other`, whatever its scheme.
    pub fn of(u: UriRef<'a>) -> Option<Url<'a>> {
        if u.profile() != Profile::Rfc1738 {
            return None;
        }
        Some(match u.scheme_entry() {
            Some("ftp") => Url::Ftp(Ftp(u)),
            Some("http") => Url::Http(Http(u)),
            Some("gopher") => Url::Gopher(Gopher(u)),
            Some("mailto") => Url::Mailto(Mailto(u)),
            Some("news") => Url::News(News(u)),
            Some("nntp") => Url::Nntp(Nntp(u)),
            Some("telnet") => Url::Telnet(Telnet(u)),
            Some("wais") => Url::Wais(Wais(u)),
            Some("file") => Url::File(File(u)),
            Some("prospero") => Url::Prospero(Prospero(u)),
            // A scheme the grammar gives a rule of its own but this module
            // no view (none today: the test below holds the two lists
            // together), or none: the generic view.
            _ => Url::Other(u),
        })
    }

    /// The parsed reference the view reads.
    pub fn uri(&self) -> &UriRef<'a> {
        match self {
            Url::Ftp(v) => &v.0,
            Url::Http(v) => &v.0,
            Url::Gopher(v) => &v.0,
            Url::Mailto(v) => &v.0,
            Url::News(v) => &v.0,
            Url::Nntp(v) => &v.0,
            Url::Telnet(v) => &v.0,
            Url::Wais(v) => &v.0,
            Url::File(v) => &v.0,
            Url::Prospero(v) => &v.0,
            Url::Other(u) => u,
        }
    }

    /// The port section 3 gives the scheme when the URL names none (ftp 21,
    /// http 80, gopher 70, nntp 119, telnet 23, wais 210, prospero 1525;
    /// [`crate::default_port`] holds them).
    pub fn default_port(&self) -> Option<u16> {
        match self {
            Url::Other(_) | Url::File(_) | Url::Mailto(_) | Url::News(_) => None,
            _ => self.uri().scheme().and_then(crate::default_port),
        }
    }

    /// The port to connect to: the URL's own (3.1), else the default of
    /// the scheme. `None` for a scheme without a server, or for a port
    /// over 65535 (the grammar's `digits` has no bound).
    pub fn port(&self) -> Option<u16> {
        server_port(self.uri())
    }
}

/// Percent-decoded text of a part of a valid URL (every `%` there starts
/// a valid escape, so this cannot fail; were it ever to, the text is kept).
pub(crate) fn decoded(s: &str) -> Cow<'_, [u8]> {
    crate::pct::decode_or_raw(s)
}

/// The port of a server-based scheme's URL, or its scheme's default
/// (section 3, from the one table, [`crate::default_port`]).
pub(crate) fn server_port(u: &UriRef<'_>) -> Option<u16> {
    match u.port() {
        Some(p) => p.parse().ok(),
        None => u.scheme().and_then(crate::default_port),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every scheme the grammar gives a rule of its own has its view here:
    /// a URL of each, parsed, is not `Other`.
    #[test]
    fn every_scheme_rule_has_a_view() {
        let t = Profile::Rfc1738.tables();
        assert_eq!(t.schemes.len(), 10);
        for &(name, _) in t.schemes {
            let url = format!("{name}://host/x");
            let u = Parser::new().profile(Profile::Rfc1738).parse(&url);
            // Not every scheme takes this form (mailto, news): those are
            // checked through the sample URLs below.
            if let Ok(u) = u {
                if u.scheme_entry() == Some(name) {
                    assert!(!matches!(Url::of(u), Some(Url::Other(_))), "{name}");
                }
            }
        }
        let names: Vec<&str> = t.schemes.iter().map(|&(n, _)| n).collect();
        for text in include_str!("../../../tests/data/rfc1738-urls.txt").lines() {
            let u = Parser::new().profile(Profile::Rfc1738).parse(text).unwrap();
            let other = matches!(Url::of(u), Some(Url::Other(_)));
            assert_eq!(other, u.scheme_entry().is_none(), "{text}");
            if let Some(n) = u.scheme_entry() {
                assert!(names.contains(&n));
            }
        }
    }
}
