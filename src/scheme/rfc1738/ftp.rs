//! `ftp` (RFC 1738 section 3.2).

use super::{decoded, server_port};
use crate::UriRef;
use std::borrow::Cow;
use std::fmt;

/// An `ftpurl`: `ftp://[user[:password]@]host[:port][/fpath[;type=X]]`.
#[derive(Clone, Debug)]
pub struct Ftp<'a>(pub(super) UriRef<'a>);

/// The `;type=` code of 3.2.2 (`a`, `i` or `d`, any case).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TypeCode {
    /// `a`: ASCII (`TYPE A`).
    Ascii,
    /// `i`: image, binary (`TYPE I`).
    Image,
    /// `d`: a directory listing (`NLST`).
    Directory,
}

/// How the client logs in (3.2.1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Login<'a> {
    /// No user name in the URL: `USER anonymous`, then the end user's
    /// e-mail address as the password.
    Anonymous,
    /// `USER` with this name (decoded; it may be empty, as in
    /// `ftp://@host.com/`), and `PASS` with the password if the URL has
    /// one (empty is not absent: `ftp://foo:@host.com/`); without it the
    /// server may ask, and the client prompts the user.
    User {
        /// For `USER`, decoded.
        user: Cow<'a, [u8]>,
        /// For `PASS`, decoded; `None` when the URL has no password.
        password: Option<Cow<'a, [u8]>>,
    },
}

/// One FTP command a URL stands for (3.2.2), its argument decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FtpCommand<'a> {
    /// `CWD` with one `<cwd>` element (possibly empty).
    Cwd(Cow<'a, [u8]>),
    /// `TYPE A` or `TYPE I`.
    Type(TypeCode),
    /// `RETR` the file `<name>`.
    Retr(Cow<'a, [u8]>),
    /// `NLST` `<name>` (no argument when the name is empty).
    Nlst(Cow<'a, [u8]>),
}

impl fmt::Display for FtpCommand<'_> {
    /// As sent on the control connection, bytes that are not UTF-8
    /// replaced.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let arg = |a: &Cow<[u8]>| String::from_utf8_lossy(a).into_owned();
        match self {
            FtpCommand::Cwd(a) if a.is_empty() => f.write_str("CWD"),
            FtpCommand::Cwd(a) => write!(f, "CWD {}", arg(a)),
            FtpCommand::Type(TypeCode::Ascii) => f.write_str("TYPE A"),
            FtpCommand::Type(_) => f.write_str("TYPE I"),
            FtpCommand::Retr(a) => write!(f, "RETR {}", arg(a)),
            FtpCommand::Nlst(a) if a.is_empty() => f.write_str("NLST"),
            FtpCommand::Nlst(a) => write!(f, "NLST {}", arg(a)),
        }
    }
}

impl<'a> Ftp<'a> {
    /// The host (a domain name or a dotted IPv4 address, 3.1).
    pub fn host(&self) -> &'a str {
        self.0.host_str().unwrap_or_default()
    }
    /// The port: the URL's, else 21 (3.2). `None` over 65535.
    pub fn port(&self) -> Option<u16> {
        server_port(&self.0)
    }
    /// The user name as written; `Some("")` for `ftp://@host.com/` (3.1).
    pub fn user(&self) -> Option<&'a str> {
        self.0.part("user")
    }
    /// The password as written; `Some("")` for `ftp://foo:@host.com/`.
    pub fn password(&self) -> Option<&'a str> {
        self.0.part("password")
    }
    /// The login of 3.2.1.
    pub fn login(&self) -> Login<'a> {
        match self.user() {
            None => Login::Anonymous,
            Some(u) => Login::User {
                user: decoded(u),
                password: self.password().map(decoded),
            },
        }
    }
    /// The url-path (`fpath`) as written, without its leading `/` and its
    /// `;type=`; `None` when the URL has none (`ftp://host`).
    pub fn path(&self) -> Option<&'a str> {
        self.0.part("fpath")
    }
    /// The path's segments, decoded: `%2F` inside a segment is a `/` of the
    /// name, not a separator (3.2.2).
    pub fn segments(&self) -> impl Iterator<Item = Cow<'a, [u8]>> + 'a {
        self.0.occurrences("fsegment").map(decoded)
    }
    /// The `<cwd>` elements: every segment but the last.
    pub fn cwd(&self) -> Vec<Cow<'a, [u8]>> {
        let mut s: Vec<_> = self.segments().collect();
        s.pop();
        s
    }
    /// The `<name>`: the last segment (empty for a path ending in `/`);
    /// `None` without a path.
    pub fn name(&self) -> Option<Cow<'a, [u8]>> {
        self.segments().last()
    }
    /// The `;type=` code, if given.
    pub fn typecode(&self) -> Option<TypeCode> {
        let t = self.0.part("ftptype")?;
        Some(match t.as_bytes()[0].to_ascii_lowercase() {
            b'a' => TypeCode::Ascii,
            b'i' => TypeCode::Image,
            _ => TypeCode::Directory,
        })
    }

    /// The commands of 3.2.2 after the login: a `CWD` per `<cwd>` element,
    /// then `NLST <name>` for type `d`, or `TYPE` and `RETR <name>` for `a`
    /// and `i`. Without a type code the client must guess (3.2.3): here
    /// `RETR` when there is a name, and `NLST` (a listing) when the name is
    /// empty or there is no path.
    ///
    /// ```
    /// use urilex::scheme::rfc1738::Url;
    /// let Url::Ftp(f) = Url::parse("ftp://myname@host.dom//etc/motd").unwrap() else { panic!() };
    /// let c: Vec<String> = f.commands().iter().map(|c| c.to_string()).collect();
    /// assert_eq!(c, ["CWD", "CWD etc", "RETR motd"]);
    /// ```
    pub fn commands(&self) -> Vec<FtpCommand<'a>> {
        let mut segments: Vec<_> = self.segments().collect();
        let name = segments.pop().unwrap_or_default();
        let mut out: Vec<FtpCommand<'a>> = segments.into_iter().map(FtpCommand::Cwd).collect();
        match self.typecode() {
            Some(TypeCode::Directory) => out.push(FtpCommand::Nlst(name)),
            Some(t) => {
                out.push(FtpCommand::Type(t));
                out.push(FtpCommand::Retr(name));
            }
            None if name.is_empty() => out.push(FtpCommand::Nlst(name)),
            None => out.push(FtpCommand::Retr(name)),
        }
        out
    }
}
