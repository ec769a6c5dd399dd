//! Where a WHATWG URL parser reads a reference differently (feature
//! `whatwg`).
//!
//! Browsers, Node, Rust's `url` crate and, in part, curl follow the WHATWG
//! URL Standard, not RFC 3986: they strip tabs and line breaks, read `\`
//! as `/` after a special scheme, ignore missing or extra slashes there,
//! decode and map hosts (UTS 46), and read `127.1` or `0x7f.1` as IPv4
//! addresses. A validator that follows the RFC and a client that follows
//! the Standard can then name two different hosts for one string: the
//! gap that server-side request forgery and open redirects go through
//! (Claroty and Snyk's 2022 study of URL-parsing confusion; Orange Tsai,
//! "A New Era of SSRF").
//!
//! [`Differential::of`] reads a reference both ways: its WHATWG reading
//! ([`Reading`]: the Standard's getters, by the `url` crate, with no base
//! URL unless one is given), and the [`Difference`]s: the hosts differ,
//! only one reading accepts it, and the class of the difference where it
//! can be named. The hosts are compared after RFC 3986 6.2.2
//! normalization of both (case, unreserved characters decoded), IPv6
//! literals as addresses, a host the RFC reading does not have as empty.
//!
//! ```
//! use urilex::whatwg::{Differential, Difference};
//! use urilex::UriRef;
//!
//! // Invalid to RFC 3986, host evil.com to a browser.
//! let d = Differential::of(br"http://evil.com\@good.com/", None, None);
//! assert_eq!(d.reading.unwrap().host(), "evil.com");
//! assert!(d.differences.contains(&Difference::WhatwgOnly));
//! assert!(d.differences.contains(&Difference::Backslash));
//!
//! // A registered name to RFC 3986, 127.0.0.1 to a browser.
//! let u = UriRef::parse("http://127.1/").unwrap();
//! let d = Differential::of(b"http://127.1/", Some(&u), None);
//! assert_eq!(d.differences, [Difference::HostDiffers, Difference::Ipv4Number]);
//!
//! // The same everywhere: no difference.
//! let u = UriRef::parse("https://example.com/a?b#c").unwrap();
//! assert!(Differential::of(b"https://example.com/a?b#c", Some(&u), None).differences.is_empty());
//! ```

use crate::{HostKind, UriRef};
use std::net::Ipv6Addr;
use std::ops::Range;
use url::Position;

pub use url::Url;

/// A URL as the WHATWG URL Standard's getters give it: `protocol` without
/// its `:` ([`scheme`](Self::scheme)), `hostname` ([`host`](Self::host),
/// IPv6 in brackets), `port` (`""` for none or the scheme's default),
/// `pathname` ([`path`](Self::path)), `href`; `""` where there is none.
/// One string, the `href`, and where each getter's value is in it.
#[derive(Clone)]
pub struct Reading {
    href: String,
    scheme: Range<usize>,
    host: Range<usize>,
    port: Range<usize>,
    path: Range<usize>,
}

/// Readings are equal when their getters are.
impl PartialEq for Reading {
    fn eq(&self, o: &Reading) -> bool {
        self.href == o.href
            && self.scheme() == o.scheme()
            && self.host() == o.host()
            && self.port() == o.port()
            && self.path() == o.path()
    }
}

impl Eq for Reading {}

impl std::fmt::Debug for Reading {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reading")
            .field("scheme", &self.scheme())
            .field("host", &self.host())
            .field("port", &self.port())
            .field("path", &self.path())
            .field("href", &self.href())
            .finish()
    }
}

impl Reading {
    /// The getters of a parsed URL.
    pub fn of(u: Url) -> Reading {
        let at = |p: Position| u[..p].len();
        let host = match u.host_str() {
            Some(_) => at(Position::BeforeHost)..at(Position::AfterHost),
            None => 0..0,
        };
        Reading {
            scheme: 0..u.scheme().len(),
            host,
            port: at(Position::BeforePort)..at(Position::AfterPort),
            path: at(Position::BeforePath)..at(Position::AfterPath),
            href: String::from(u),
        }
    }

    /// The WHATWG reading of `input` (its bytes read as UTF-8, as a
    /// browser decodes them), against `base` when there is one; `None`
    /// when the Standard rejects it.
    pub fn parse(input: &[u8], base: Option<&Url>) -> Option<Reading> {
        let text = String::from_utf8_lossy(input);
        Url::options()
            .base_url(base)
            .parse(&text)
            .ok()
            .map(Reading::of)
    }

    /// The scheme, lower-cased (`protocol` without its `:`).
    pub fn scheme(&self) -> &str {
        &self.href[self.scheme.clone()]
    }

    /// The host (`hostname`): a domain, an IPv4 address, an IPv6 address
    /// in brackets, or an opaque host; `""` when there is none.
    pub fn host(&self) -> &str {
        &self.href[self.host.clone()]
    }

    /// The port; `""` when there is none or it is the scheme's default.
    pub fn port(&self) -> &str {
        &self.href[self.port.clone()]
    }

    /// The path (`pathname`; an opaque path as written, for `mailto:` and
    /// the like).
    pub fn path(&self) -> &str {
        &self.href[self.path.clone()]
    }

    /// The whole URL, serialized.
    pub fn href(&self) -> &str {
        &self.href
    }
}

/// How the two readings of a reference differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Difference {
    /// Both accept it and name different hosts.
    HostDiffers,
    /// The WHATWG parser accepts what RFC 3986 rejects.
    WhatwgOnly,
    /// RFC 3986 accepts what the WHATWG parser rejects (a relative
    /// reference without a base, a port over 65535, a forbidden host
    /// code point, ...).
    RfcOnly,
    /// A `\`, which the Standard reads as `/` after a special scheme.
    Backslash,
    /// Missing or extra slashes after a special scheme (`http:/x`,
    /// `http:x`, `http:///x`), which the Standard ignores.
    Slashes,
    /// Leading or trailing spaces or controls, or tabs and line breaks
    /// inside, which the Standard strips.
    Whitespace,
    /// A host the Standard reads as an IPv4 address written otherwise
    /// (`127.1`, `0x7f.1`, `2130706433`, octal `0177.0.0.1`).
    Ipv4Number,
    /// A host with characters beyond ASCII (or percent-encoded ones), which
    /// the Standard maps by UTS 46.
    Idna,
    /// An `@` where a reader splitting at the first `/` would see userinfo.
    Userinfo,
    /// A percent-encoded host, which the Standard decodes.
    EncodedHost,
    /// The scheme's case, or a scheme the two readings do not agree on.
    Scheme,
}

impl Difference {
    /// Every kind, in order.
    pub const ALL: [Difference; 11] = [
        Difference::HostDiffers,
        Difference::WhatwgOnly,
        Difference::RfcOnly,
        Difference::Backslash,
        Difference::Slashes,
        Difference::Whitespace,
        Difference::Ipv4Number,
        Difference::Idna,
        Difference::Userinfo,
        Difference::EncodedHost,
        Difference::Scheme,
    ];

    /// The kind's name in output (a lint kind).
    ///
    /// ```
    /// assert_eq!(urilex::whatwg::Difference::HostDiffers.as_str(), "whatwg-host-differs");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            Difference::HostDiffers => "whatwg-host-differs",
            Difference::WhatwgOnly => "whatwg-only",
            Difference::RfcOnly => "rfc-only",
            Difference::Backslash => "whatwg-backslash",
            Difference::Slashes => "whatwg-slashes",
            Difference::Whitespace => "whatwg-whitespace",
            Difference::Ipv4Number => "whatwg-ipv4-number",
            Difference::Idna => "whatwg-idna",
            Difference::Userinfo => "whatwg-userinfo",
            Difference::EncodedHost => "whatwg-encoded-host",
            Difference::Scheme => "whatwg-scheme",
        }
    }
}

/// A base URL for references read as a browser reads a page's links: the
/// WHATWG parser's, and the RFC 3986 reading of the same text (RFC 3986
/// 5.2.2 takes a reference's host from it when the reference has none).
#[derive(Clone, Debug)]
pub struct Base {
    url: Url,
    /// The host of its RFC 3986 reading (`""` when it has none).
    host: String,
}

impl Base {
    /// `text` as a base: an absolute URI to both readings.
    pub fn parse(text: &str) -> Result<Base, String> {
        let rfc = UriRef::parse(text).map_err(|e| format!("{text:?}: {e}"))?;
        if rfc.scheme().is_none() {
            return Err(format!(
                "{text:?}: a base URI must be absolute (RFC 3986 5.1)"
            ));
        }
        let url = Url::parse(text).map_err(|e| format!("{text:?}: {e} (WHATWG URL)"))?;
        Ok(Base {
            url,
            host: rfc.host_str().unwrap_or("").to_string(),
        })
    }

    /// The WHATWG parser's base.
    pub fn url(&self) -> &Url {
        &self.url
    }
}

/// A reference read both ways.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Differential {
    /// The WHATWG reading; `None` when the Standard rejects the reference.
    pub reading: Option<Reading>,
    /// How the readings differ: at most one of [`Difference::HostDiffers`],
    /// [`Difference::WhatwgOnly`] and [`Difference::RfcOnly`] first, then
    /// the classes it can be named by; empty when they agree.
    pub differences: Vec<Difference>,
}

impl Differential {
    /// Reads `input` both ways: `rfc` is its RFC 3986 reading (`None`:
    /// invalid), `base` the base URL both read it against, if any.
    pub fn of(input: &[u8], rfc: Option<&UriRef<'_>>, base: Option<&Base>) -> Differential {
        let reading = match (rfc, base) {
            // The straight line: the RFC reading gives the Standard's.
            (Some(u), None) => match simple_reading(u) {
                Some(r) => {
                    return Differential {
                        reading: Some(r),
                        differences: Vec::new(),
                    }
                }
                None => Reading::parse(input, None),
            },
            _ => Reading::parse(input, base.map(Base::url)),
        };
        let main = match (rfc, &reading) {
            (None, None) => None,
            (None, Some(_)) => Some(Difference::WhatwgOnly),
            (Some(_), None) => Some(Difference::RfcOnly),
            (Some(u), Some(w)) => {
                (!same_host(rfc_host(u, base), w.host())).then_some(Difference::HostDiffers)
            }
        };
        let Some(main) = main else {
            return Differential {
                reading,
                differences: Vec::new(),
            };
        };
        let mut differences = vec![main];
        differences.extend(classes(input, rfc, reading.as_ref()));
        Differential {
            reading,
            differences,
        }
    }
}

/// The host RFC 3986 gives the reference (resolved against `base` by RFC
/// 3986 5.2.2 when there is one): `""` when it has none.
fn rfc_host<'a>(u: &UriRef<'a>, base: Option<&'a Base>) -> &'a str {
    let own = u.scheme().is_some() || u.authority().is_some();
    match base {
        Some(b) if !own => &b.host,
        _ => u.host_str().unwrap_or(""),
    }
}

/// Whether two hosts are the same after RFC 3986 6.2.2 normalization of
/// both (ASCII case, percent-encoded unreserved characters decoded, the
/// hex digits of the rest upper-cased), IPv6 literals as addresses.
fn same_host(rfc: &str, whatwg: &str) -> bool {
    let v6 = |h: &str| {
        h.strip_prefix('[')
            .and_then(|h| h.strip_suffix(']'))
            .and_then(|h| h.parse::<Ipv6Addr>().ok())
    };
    if let (Some(a), Some(b)) = (v6(rfc), v6(whatwg)) {
        return a == b;
    }
    normal_host(rfc) == normal_host(whatwg)
}

/// A host in RFC 3986 6.2.2 normal form: letters lower-cased, escapes of
/// the grammar's unreserved characters decoded, the others' hex digits
/// upper-cased (the normalizer's own fold).
fn normal_host(h: &str) -> Vec<u8> {
    let mut out = String::with_capacity(h.len());
    let unreserved = &crate::Profile::Rfc3986.tables().unreserved;
    crate::pct::copy_folded(h, unreserved, true, true, &mut out);
    out.into_bytes()
}

/// The special schemes of the URL Standard (`file` apart: its slashes
/// differ).
fn special(scheme: &str) -> bool {
    ["http", "https", "ws", "wss", "ftp"]
        .iter()
        .any(|s| scheme.eq_ignore_ascii_case(s))
}

/// The classes of a difference, from the input's text and the readings.
fn classes(input: &[u8], rfc: Option<&UriRef<'_>>, w: Option<&Reading>) -> Vec<Difference> {
    let mut out = Vec::new();
    let c0 = |b: &u8| *b <= b' ';
    if input.contains(&b'\\') {
        out.push(Difference::Backslash);
    }
    // The input's scheme as written, and what follows its colon.
    let trimmed = {
        let start = input.iter().position(|b| !c0(b)).unwrap_or(input.len());
        &input[start..]
    };
    let colon = trimmed
        .iter()
        .position(|&b| !(b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.')));
    let scheme = match colon {
        Some(k) if k > 0 && trimmed[k] == b':' && trimmed[0].is_ascii_alphabetic() => {
            Some(std::str::from_utf8(&trimmed[..k]).unwrap_or(""))
        }
        _ => None,
    };
    if let Some(s) = scheme.filter(|s| special(s)) {
        let after = &trimmed[s.len() + 1..];
        let slashes = after
            .iter()
            .take_while(|&&b| b == b'/' || b == b'\\' || b == b'\t' || b == b'\n' || b == b'\r')
            .filter(|&&b| b == b'/' || b == b'\\')
            .count();
        if slashes != 2 {
            out.push(Difference::Slashes);
        }
    }
    let stripped_inside = input.iter().any(|&b| matches!(b, b'\t' | b'\n' | b'\r'));
    if input.first().is_some_and(c0) || input.last().is_some_and(c0) || stripped_inside {
        out.push(Difference::Whitespace);
    }
    // The authority as a naive reader takes it: after `//`, up to the
    // first `/`, `?` or `#`; its host after the last `@`, without a port.
    let authority = trimmed
        .windows(2)
        .position(|p| p == b"//")
        .map(|k| {
            let rest = &trimmed[k + 2..];
            let end = rest
                .iter()
                .position(|&b| matches!(b, b'/' | b'?' | b'#'))
                .unwrap_or(rest.len());
            &rest[..end]
        })
        .unwrap_or(b"");
    let naive_host = {
        let h = match authority.iter().rposition(|&b| b == b'@') {
            Some(k) => &authority[k + 1..],
            None => authority,
        };
        match h.first() {
            Some(b'[') => h,
            _ => match h.iter().rposition(|&b| b == b':') {
                Some(k) => &h[..k],
                None => h,
            },
        }
    };
    if let Some(w) = w {
        let naive = normal_host(&String::from_utf8_lossy(naive_host));
        if w.host().parse::<std::net::Ipv4Addr>().is_ok() && naive != w.host().as_bytes() {
            out.push(Difference::Ipv4Number);
        }
    }
    let encoded_high = authority
        .windows(3)
        .any(|t| t[0] == b'%' && matches!(t[1], b'8'..=b'9' | b'a'..=b'f' | b'A'..=b'F'));
    let mapped = w.is_some_and(|w| w.host().contains("xn--"))
        && !authority
            .to_ascii_lowercase()
            .windows(4)
            .any(|t| t == b"xn--");
    if !authority.is_ascii() || encoded_high || mapped {
        out.push(Difference::Idna);
    }
    if authority.contains(&b'@') {
        out.push(Difference::Userinfo);
    }
    if authority.contains(&b'%') {
        out.push(Difference::EncodedHost);
    }
    let scheme_case = scheme.is_some_and(|s| s.bytes().any(|b| b.is_ascii_uppercase()));
    let mixed_up = match (rfc.and_then(|u| u.scheme()), w) {
        (Some(a), Some(w)) => !a.eq_ignore_ascii_case(w.scheme()),
        _ => false,
    };
    if scheme_case || mixed_up {
        out.push(Difference::Scheme);
    }
    out
}

/// The Standard's reading of a reference, made from its RFC 3986 reading
/// where the two provably agree: a special scheme (`http`, `https`, `ws`,
/// `wss`, `ftp`, `file`) with an authority and no userinfo; a host of
/// ASCII letters, digits, `-` and `.` in non-empty labels that does not
/// end in a number and has no `xn--` label (UTS 46 leaves it as it is,
/// lower-cased), or a dotted-decimal IPv4 address (RFC 3986's
/// `IPv4address`, serialized the same), or for `file` none (but not
/// `localhost`, which the Standard empties); a port without a leading zero
/// (none for `file`); a path without dot segments (plain or encoded), and
/// for `file` without `//` and not starting with a drive letter; a query
/// without `'` (the Standard's special-query set encodes it). The other
/// characters RFC 3986 admits are in none of the Standard's percent-encode
/// sets of the path, query and fragment. `None` otherwise (the caller
/// parses).
fn simple_reading(u: &UriRef<'_>) -> Option<Reading> {
    // The URL Standard's special schemes; their default ports are RFC
    // 3986 6.2.3's table, `crate::default_port` (`file` has none).
    const SCHEMES: [&str; 6] = ["http", "https", "ws", "wss", "ftp", "file"];
    let written = u.scheme()?;
    let &scheme = SCHEMES.iter().find(|s| written.eq_ignore_ascii_case(s))?;
    let file = scheme == "file";
    let default = crate::default_port(scheme).unwrap_or(0);
    if u.userinfo().is_some() {
        return None;
    }
    let host = u.host_str()?;
    match u.host_kind()? {
        HostKind::Ipv4 => {}
        HostKind::RegName if file && host.is_empty() => {}
        HostKind::RegName => {
            if !simple_name(host) || file && host.eq_ignore_ascii_case("localhost") {
                return None;
            }
        }
        _ => return None,
    }
    let port = match u.port() {
        // `file://c:/` is a drive letter to the Standard.
        Some(_) if file => return None,
        None | Some("") => "",
        Some(p) if p.starts_with('0') || p.len() > 5 => return None,
        Some(p) => {
            let n: u32 = p.parse().ok()?;
            if n > 65535 {
                return None;
            }
            if n == u32::from(default) {
                ""
            } else {
                p
            }
        }
    };
    let path = u.path();
    // A dot segment starts the path or follows a `/` with `.` or `%`.
    let p = path.as_bytes();
    let maybe = matches!(p.first(), Some(b'.' | b'%'))
        || memchr::memmem::find(p, b"/.").is_some()
        || memchr::memmem::find(p, b"/%").is_some();
    let dotted = maybe
        && path.split('/').any(|s| {
            matches!(s.len(), 1..=6)
                && matches!(
                    s.to_ascii_lowercase().as_str(),
                    "." | ".." | "%2e" | ".%2e" | "%2e." | "%2e%2e"
                )
        });
    if dotted {
        return None;
    }
    if file {
        let b = path.as_bytes();
        let drive = b.len() >= 3
            && b[1].is_ascii_alphabetic()
            && matches!(b[2], b':' | b'|')
            && matches!(b.get(3), None | Some(b'/' | b'\\' | b'?' | b'#'));
        if drive || path.contains("//") {
            return None;
        }
    }
    let query = u.query();
    if query.is_some_and(|q| q.contains('\'')) {
        return None;
    }
    let path = if path.is_empty() { "/" } else { path };
    let mut href = String::with_capacity(u.as_str().len() + 1);
    href.push_str(scheme);
    href.push_str("://");
    let h = href.len();
    href.push_str(host);
    href[h..].make_ascii_lowercase();
    let host = h..href.len();
    let port = if port.is_empty() {
        href.len()..href.len()
    } else {
        href.push(':');
        let p = href.len();
        href.push_str(port);
        p..href.len()
    };
    let p = href.len();
    href.push_str(path);
    let path = p..href.len();
    if let Some(q) = query {
        href.push('?');
        href.push_str(q);
    }
    if let Some(f) = u.fragment() {
        href.push('#');
        href.push_str(f);
    }
    Some(Reading {
        scheme: 0..scheme.len(),
        host,
        port,
        path,
        href,
    })
}

/// Whether a registered name is one UTS 46 leaves as it is (lower-cased)
/// and the Standard does not read as a number: ASCII letters, digits and
/// `-` in non-empty labels (a trailing `.` allowed), no `xn--` label, the
/// last label neither all digits nor `0x`-prefixed.
fn simple_name(host: &str) -> bool {
    let b = host.as_bytes();
    let b = b.strip_suffix(b".").unwrap_or(b);
    if b.is_empty() {
        return false;
    }
    let mut start = 0;
    for i in 0..=b.len() {
        let end = i == b.len();
        if !end && b[i] != b'.' {
            if !(b[i].is_ascii_alphanumeric() || b[i] == b'-') {
                return false;
            }
            continue;
        }
        let label = &b[start..i];
        if label.is_empty() || label.len() >= 4 && label[..4].eq_ignore_ascii_case(b"xn--") {
            return false;
        }
        if end
            && (label.iter().all(u8::is_ascii_digit)
                || label.len() >= 2 && label[..2].eq_ignore_ascii_case(b"0x"))
        {
            return false;
        }
        start = i + 1;
    }
    true
}

/// [`simple_reading`], for the fuzz target that checks it against the
/// `url` crate on every input it takes.
#[cfg(feature = "internals")]
pub fn simple_reading_for_tests(u: &UriRef<'_>) -> Option<Reading> {
    simple_reading(u)
}
