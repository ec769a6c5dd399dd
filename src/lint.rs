//! Security lints (draft-fielding-uri-rfc2396bis-00 section 7, RFC 3986
//! section 7): hazards in a valid reference, reported with their byte span.
//! Lints only report; nothing is decoded or changed.

use crate::pct::pct_at;
use crate::{default_port, Component, Host, HostKind, UriRef};
use core::fmt;
use core::ops::Range;

/// What a lint is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum LintKind {
    /// A password in the userinfo ("strongly discouraged", RFC 3986 3.2.1,
    /// draft-fielding-uri-rfc2396bis-00 section 7). The span is the password.
    PasswordInUserinfo,
    /// Userinfo in an http(s) URI: `http://bank.example@evil.example/`
    /// reads as going to bank.example (RFC 3986 7.6, semantic attacks).
    UserinfoInWebUri,
    /// A port that is not the scheme's default (draft-fielding-uri-rfc2396bis-00 section 7: "a port
    /// number other than that reserved for the network protocol").
    NonDefaultPort,
    /// A port below 1024 that is not the scheme's default ("especially when
    /// it is a number within the reserved space").
    ReservedPort,
    /// A port above 65535.
    PortOutOfRange,
    /// A percent-encoded CR, LF or NUL: unescaped before transmission it
    /// could add lines to a protocol (draft-fielding-uri-rfc2396bis-00 section 7, RFC 3986 7.3).
    EncodedControl,
    /// A ".." that climbs above the root of an absolute path: RFC 3986
    /// 5.2.4 silently drops it, a server that does not may serve what lies
    /// above its root.
    DotAboveRoot,
    /// A percent-encoded "." or ".." segment (`%2e%2e`), which some servers
    /// decode before removing dot segments.
    EncodedDotSegment,
    /// A reg-name that looks like a number but is not a strict IPv4 address
    /// (`0x7f.1`, `127.1`, `010.0.0.1`, `2130706433`): many resolvers read it
    /// as an address (RFC 3986 7.4).
    AmbiguousIpv4,
    /// An "@", "/", "?", "#" or "\" that appears only after percent-decoding
    /// the authority: a decoder would split it differently.
    EncodedDelimiterInAuthority,
    /// A scheme with both upper- and lower-case letters.
    MixedCaseScheme,
    /// A scheme that runs code where the URI is followed (javascript,
    /// vbscript, data).
    ScriptScheme,
    /// A scheme outside the common registered ones.
    UnusualScheme,
}

impl LintKind {
    /// The kind's name in output.
    ///
    /// ```
    /// assert_eq!(urilex::LintKind::PasswordInUserinfo.as_str(), "password-in-userinfo");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            LintKind::PasswordInUserinfo => "password-in-userinfo",
            LintKind::UserinfoInWebUri => "userinfo-in-web-uri",
            LintKind::NonDefaultPort => "non-default-port",
            LintKind::ReservedPort => "reserved-port",
            LintKind::PortOutOfRange => "port-out-of-range",
            LintKind::EncodedControl => "encoded-control",
            LintKind::DotAboveRoot => "dot-above-root",
            LintKind::EncodedDotSegment => "encoded-dot-segment",
            LintKind::AmbiguousIpv4 => "ambiguous-ipv4",
            LintKind::EncodedDelimiterInAuthority => "encoded-delimiter-in-authority",
            LintKind::MixedCaseScheme => "mixed-case-scheme",
            LintKind::ScriptScheme => "script-scheme",
            LintKind::UnusualScheme => "unusual-scheme",
        }
    }
}

/// One finding: its kind and where it is in the input.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Lint {
    /// What it is.
    pub kind: LintKind,
    /// Its bytes in the input.
    pub span: Range<usize>,
}

impl fmt::Display for Lint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at bytes {}..{}",
            self.kind.as_str(),
            self.span.start,
            self.span.end
        )
    }
}

/// Schemes common enough not to be "unusual": the IANA permanent
/// registrations that appear in logs, and RFC 1738's.
const COMMON_SCHEMES: &[&str] = &[
    "http",
    "https",
    "ftp",
    "ftps",
    "sftp",
    "file",
    "mailto",
    "news",
    "nntp",
    "telnet",
    "gopher",
    "wais",
    "prospero",
    "ws",
    "wss",
    "urn",
    "tel",
    "sms",
    "ldap",
    "ldaps",
    "ssh",
    "git",
    "svn",
    "irc",
    "ircs",
    "xmpp",
    "sip",
    "sips",
    "rtsp",
    "coap",
    "coaps",
    "mqtt",
    "dns",
    "geo",
    "magnet",
    "blob",
    "about",
    "cid",
    "mid",
    "data",
    "javascript",
    "vbscript",
    "imap",
    "pop",
    "smb",
    "nfs",
    "snmp",
    "redis",
    "rediss",
    "postgres",
    "postgresql",
    "mysql",
    "mongodb",
    "s3",
    "node",
    "chrome",
    "resource",
    "tag",
    "info",
    "doi",
    "ni",
    "acct",
    "crid",
    "jar",
];

/// inet_aton-style numbers: 1 to 4 parts, each decimal, octal (leading 0)
/// or hex (0x), as many resolvers accept.
fn looks_numeric(host: &str) -> bool {
    let h = host.strip_suffix('.').unwrap_or(host);
    // Both forms start with a digit (`0x...` or decimal): most names do not.
    if !h.as_bytes().first().is_some_and(u8::is_ascii_digit) {
        return false;
    }
    let mut parts = 0;
    h.split('.').all(|p| {
        parts += 1;
        parts <= 4
            && if let Some(x) = p.strip_prefix("0x").or_else(|| p.strip_prefix("0X")) {
                x.bytes().all(|b| b.is_ascii_hexdigit())
            } else {
                !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit())
            }
    })
}

/// The valid `%XX` escapes within `range` of `b`: their offsets and values.
fn escapes(b: &[u8], range: Range<usize>) -> impl Iterator<Item = (usize, u8)> + '_ {
    let mut i = range.start;
    core::iter::from_fn(move || {
        while i < range.end {
            let at = i;
            match pct_at(b, at) {
                Some(v) => {
                    i += 3;
                    return Some((at, v));
                }
                None => i += 1,
            }
        }
        None
    })
}

/// Whether `seg` is `.` or `..` with at least one dot percent-encoded
/// (`%2e`, `.%2E`, `%2e%2e`).
fn encoded_dot_segment(seg: &str) -> bool {
    let b = seg.as_bytes();
    let (mut dots, mut encoded, mut i) = (0, false, 0);
    while i < b.len() {
        if b[i] == b'.' {
            i += 1;
        } else if b[i] == b'%'
            && b.get(i + 1) == Some(&b'2')
            && matches!(b.get(i + 2), Some(b'e' | b'E'))
        {
            encoded = true;
            i += 3;
        } else {
            return false;
        }
        dots += 1;
    }
    encoded && (dots == 1 || dots == 2)
}

impl<'a> UriRef<'a> {
    /// The security lints of this reference, in order of position.
    ///
    /// ```
    /// use urilex::{LintKind, UriRef};
    /// let u = UriRef::parse("http://user:secret@0x7f.1:25/%0D%0AQUIT").unwrap();
    /// let kinds: Vec<LintKind> = u.lints().iter().map(|l| l.kind).collect();
    /// assert_eq!(
    ///     kinds,
    ///     [LintKind::UserinfoInWebUri, LintKind::PasswordInUserinfo, LintKind::AmbiguousIpv4,
    ///      LintKind::NonDefaultPort, LintKind::ReservedPort, LintKind::EncodedControl, LintKind::EncodedControl]
    /// );
    /// assert_eq!(&u.as_str()[u.lints()[1].span.clone()], "secret");
    /// ```
    pub fn lints(&self) -> Vec<Lint> {
        let mut out = Vec::new();
        let text = self.as_str();
        let span = |c: Component| self.span(c);
        // Scheme.
        if let (Some(s), Some(r)) = (self.scheme(), span(Component::Scheme)) {
            if s.bytes().any(|b| b.is_ascii_uppercase())
                && s.bytes().any(|b| b.is_ascii_lowercase())
            {
                out.push(Lint {
                    kind: LintKind::MixedCaseScheme,
                    span: r.clone(),
                });
            }
            let is = |k: &&str| s.eq_ignore_ascii_case(k);
            if ["javascript", "vbscript", "data"].iter().any(is) {
                out.push(Lint {
                    kind: LintKind::ScriptScheme,
                    span: r.clone(),
                });
            } else if !COMMON_SCHEMES.iter().any(is) {
                out.push(Lint {
                    kind: LintKind::UnusualScheme,
                    span: r,
                });
            }
        }
        // Userinfo.
        if let (Some(ui), Some(r)) = (self.userinfo(), span(Component::Userinfo)) {
            if let Some(colon) = ui.find(':') {
                out.push(Lint {
                    kind: LintKind::PasswordInUserinfo,
                    span: r.start + colon + 1..r.end,
                });
            }
            if self
                .scheme()
                .is_some_and(|s| s.eq_ignore_ascii_case("http") || s.eq_ignore_ascii_case("https"))
            {
                out.push(Lint {
                    kind: LintKind::UserinfoInWebUri,
                    span: r,
                });
            }
        }
        // Most references have no escape: one look.
        let escaped = memchr::memchr(b'%', text.as_bytes()).is_some();
        // Encoded delimiters in the authority.
        if let Some(r) = span(Component::Authority).filter(|_| escaped) {
            for (i, v) in escapes(text.as_bytes(), r) {
                if matches!(v, b'@' | b'/' | b'?' | b'#' | b'\\') {
                    out.push(Lint {
                        kind: LintKind::EncodedDelimiterInAuthority,
                        span: i..i + 3,
                    });
                }
            }
        }
        // Host.
        // A host that resolvers may read as an IPv4 number but that is not
        // four dec-octets: a reg-name (RFC 3986 7.4), or a draft grammar's
        // looser number (seed 001's `hostnumber`, `010.0.0.1`).
        if let (Some(h), Some(r), Some(HostKind::RegName | HostKind::Ipv4)) =
            (self.host_str(), span(Component::Host), self.host_kind())
        {
            if looks_numeric(h) && !matches!(self.host(), Some(Host::Ipv4(_))) {
                out.push(Lint {
                    kind: LintKind::AmbiguousIpv4,
                    span: r,
                });
            }
        }
        // Port.
        if let (Some(p), Some(r)) = (self.port(), span(Component::Port)) {
            if !p.is_empty() {
                match self.port_u16() {
                    None => out.push(Lint {
                        kind: LintKind::PortOutOfRange,
                        span: r,
                    }),
                    Some(n) => {
                        let default = self.scheme().and_then(default_port);
                        if default.is_some_and(|d| d != n) {
                            out.push(Lint {
                                kind: LintKind::NonDefaultPort,
                                span: r.clone(),
                            });
                        }
                        if n < 1024 && default != Some(n) {
                            out.push(Lint {
                                kind: LintKind::ReservedPort,
                                span: r,
                            });
                        }
                    }
                }
            }
        }
        // Path: dot segments above the root, encoded dot segments.
        let path = self.path();
        let pr = self.span(Component::Path).unwrap_or(0..0);
        // Most paths have neither `..` nor an escape: one look each.
        let dots = memchr::memmem::find(path.as_bytes(), b"..").is_some();
        if dots && (path.starts_with('/') || self.authority().is_some()) {
            let mut depth: i64 = 0;
            let mut at = pr.start;
            for seg in path.split('/').skip(usize::from(path.starts_with('/'))) {
                let start = at + usize::from(path.starts_with('/') || at > pr.start);
                match seg {
                    ".." => {
                        depth -= 1;
                        if depth < 0 {
                            out.push(Lint {
                                kind: LintKind::DotAboveRoot,
                                span: start..start + 2,
                            });
                            depth = 0;
                        }
                    }
                    "." | "" => {}
                    _ => depth += 1,
                }
                at = start + seg.len();
            }
        }
        let mut at = pr.start;
        let segments = if escaped { path } else { "" };
        for seg in segments.split('/') {
            if encoded_dot_segment(seg) {
                out.push(Lint {
                    kind: LintKind::EncodedDotSegment,
                    span: at..at + seg.len(),
                });
            }
            at += seg.len() + 1;
        }
        // Encoded CR, LF, NUL anywhere.
        let all = if escaped { 0..text.len() } else { 0..0 };
        for (i, v) in escapes(text.as_bytes(), all) {
            if matches!(v, b'\r' | b'\n' | 0) {
                out.push(Lint {
                    kind: LintKind::EncodedControl,
                    span: i..i + 3,
                });
            }
        }
        out.sort_by_key(|l| (l.span.start, l.kind));
        out
    }
}

#[cfg(test)]
mod encoded_dots {
    /// The segment test against its definition (`%2e` decoded, then `.`
    /// or `..`), on every string of up to 6 of the bytes that matter.
    #[test]
    fn matches_its_definition() {
        let alphabet = [b'.', b'%', b'2', b'e', b'E', b'a'];
        let mut seg = Vec::new();
        fn all(seg: &mut Vec<u8>, alphabet: &[u8], n: usize) {
            let s = std::str::from_utf8(seg).unwrap();
            let lower = s.to_ascii_lowercase();
            let decoded = lower.replace("%2e", ".");
            let want = lower.contains("%2e") && (decoded == "." || decoded == "..");
            assert_eq!(super::encoded_dot_segment(s), want, "{s:?}");
            if n == 0 {
                return;
            }
            for &b in alphabet {
                seg.push(b);
                all(seg, alphabet, n - 1);
                seg.pop();
            }
        }
        all(&mut seg, &alphabet, 6);
    }
}
