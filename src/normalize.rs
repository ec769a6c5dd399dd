//! Normalization and equivalence: RFC 3986 section 6.2.2 (syntax-based) and,
//! on request, 6.2.3 (scheme-based) and RFC 5952 IPv6 text.

use crate::resolve::{reparse, DotAboveRoot};
use crate::{Component, UriRef, UriRefBuf};

/// Which normalization steps to apply. The default is RFC 3986 6.2.2 only.
///
/// ```
/// use urilex::{NormalizeOptions, UriRef};
/// let u = UriRef::parse("HTTP://Example.COM:80/a/./b/../%7euser").unwrap();
/// assert_eq!(u.normalized().as_str(), "http://example.com:80/a/~user");
/// let o = NormalizeOptions::new().scheme_based(true);
/// assert_eq!(u.normalized_with(o).as_str(), "http://example.com/a/~user");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NormalizeOptions {
    case: bool,
    percent: bool,
    dots: bool,
    empty_port: bool,
    scheme_based: bool,
    ipv6_rfc5952: bool,
}

impl Default for NormalizeOptions {
    fn default() -> Self {
        NormalizeOptions::new()
    }
}

impl NormalizeOptions {
    /// RFC 3986 6.2.2 (case, percent-encoding, dot segments) and 3.2.3 (an
    /// empty port's ":" is omitted).
    pub const fn new() -> Self {
        NormalizeOptions {
            case: true,
            percent: true,
            dots: true,
            empty_port: true,
            scheme_based: false,
            ipv6_rfc5952: false,
        }
    }
    /// 3.2.3: omit an empty port and its ":".
    pub const fn empty_port(self, on: bool) -> Self {
        NormalizeOptions {
            empty_port: on,
            ..self
        }
    }
    /// 6.2.2.1: lower-case scheme and host, upper-case percent hex.
    pub const fn case(self, on: bool) -> Self {
        NormalizeOptions { case: on, ..self }
    }
    /// 6.2.2.2: decode percent-encoded unreserved characters.
    pub const fn percent(self, on: bool) -> Self {
        NormalizeOptions {
            percent: on,
            ..self
        }
    }
    /// 6.2.2.3: remove dot segments from the paths of URIs.
    pub const fn dot_segments(self, on: bool) -> Self {
        NormalizeOptions { dots: on, ..self }
    }
    /// 6.2.3: drop a default or empty port; an empty http(s) path becomes "/".
    pub const fn scheme_based(self, on: bool) -> Self {
        NormalizeOptions {
            scheme_based: on,
            ..self
        }
    }
    /// Rewrite IPv6 addresses in RFC 5952 form (beyond RFC 3986).
    pub const fn ipv6_rfc5952(self, on: bool) -> Self {
        NormalizeOptions {
            ipv6_rfc5952: on,
            ..self
        }
    }
}

/// Default ports: RFC 1738 section 3 (ftp 21, http 80, gopher 70, nntp 119,
/// telnet 23, wais 210, prospero 1525) and the registrations of https (RFC
/// 9110: 443), ws/wss (RFC 6455: 80/443), ldap (RFC 4516 section 2:
/// 389), imap (RFC 5092 section 3: 143), pop (RFC 2384 section 3: 110)
/// and rtsp (RFC 7826 section 19.1: 554).
pub fn default_port(scheme: &str) -> Option<u16> {
    const TABLE: [(&str, u16); 14] = [
        ("ftp", 21),
        ("http", 80),
        ("gopher", 70),
        ("nntp", 119),
        ("telnet", 23),
        ("wais", 210),
        ("prospero", 1525),
        ("https", 443),
        ("ws", 80),
        ("wss", 443),
        ("ldap", 389),
        ("imap", 143),
        ("pop", 110),
        ("rtsp", 554),
    ];
    TABLE
        .iter()
        .find(|(s, _)| s.eq_ignore_ascii_case(scheme))
        .map(|&(_, p)| p)
}

/// Copies `s` as `o` asks: escapes' hex upper-cased (`case`), the
/// unreserved ones decoded (`percent`), and with `lower` letters
/// lower-cased (decoded ones too).
fn pct_copy(s: &str, unreserved: &[u64; 4], o: &NormalizeOptions, lower: bool, out: &mut String) {
    let decode = if o.percent { unreserved } else { &[0; 4] };
    crate::pct::copy_folded(s, decode, o.case, lower, out);
}

/// Writes the normal form of `u` into `out` (cleared first).
///
/// Under the draft profiles a step can change how the grammar reads the
/// result. draft-fielding-uri-rfc2396bis-00's `authority = server / reg-name` reads `%55ser:` as a
/// reg-name but the decoded `User:` as a server with an empty port, which a
/// further pass drops; and removing dot segments from its `opaque-part`
/// (`file:.e/../x[y]`) gives a hierarchical path where `[` is not allowed.
/// There a step that would make the result invalid is not taken (dot
/// removal first, then decoding), and passes repeat until nothing changes
/// (each only decodes, lower-cases or drops; at most 8). RFC 3986's grammar
/// has neither problem: one pass is its normal form (property-tested).
pub fn normalize_into(u: &UriRef<'_>, o: NormalizeOptions, out: &mut String) {
    normalize_once(u, o, out);
    if u.profile() == crate::Profile::Rfc3986 {
        return;
    }
    let parser = crate::Parser::new().profile(u.profile());
    let valid = |s: &str| parser.parse(s).is_ok();
    let steps = [
        o,
        o.dot_segments(false),
        o.dot_segments(false).percent(false),
    ];
    if !valid(out) {
        let Some(ok) = steps[1..].iter().find(|&&step| {
            normalize_once(u, step, out);
            valid(out)
        }) else {
            out.clear();
            out.push_str(u.as_str());
            return;
        };
        let _ = ok;
    }
    let mut next = String::new();
    for _ in 0..8 {
        let Ok(v) = parser.parse(out) else { return };
        let Some(_) = steps.iter().find(|&&step| {
            normalize_once(&v, step, &mut next);
            valid(&next)
        }) else {
            return;
        };
        if next == *out {
            return;
        }
        std::mem::swap(out, &mut next);
    }
}

fn normalize_once(u: &UriRef<'_>, o: NormalizeOptions, out: &mut String) {
    crate::steps::add(u.as_str().len() + 1);
    out.clear();
    if already_normal(u, &o) {
        out.push_str(u.as_str());
        return;
    }
    normalize_parts(u, o, out);
}

/// A grammar without RFC 3986's path (RFC 1738's: a rule per scheme, its
/// path split into that scheme's parts) cannot be rebuilt from the generic
/// components, and its paths do not mean what RFC 3986's dot segments
/// mean (an FTP "." is a CWD): only what holds in every part is done, in
/// place, the text otherwise kept byte for byte: the case of the scheme
/// and the host (6.2.2.1; RFC 1738 2.1 and 3.1 make both case-insensitive)
/// and of percent-encodings, and the decoding of characters that need no
/// encoding (6.2.2.2; RFC 1738 2.2: encoding them does not change a URL).
fn normalize_text(u: &UriRef<'_>, o: NormalizeOptions, out: &mut String) {
    let unreserved = u.profile().tables().unreserved;
    let text = u.as_str();
    let mut at = 0;
    let mut spans = [u.span(Component::Scheme), u.span(Component::Host)];
    spans.sort_by_key(|r| r.as_ref().map(|r| r.start));
    for r in spans.into_iter().flatten() {
        if r.start < at {
            continue;
        }
        pct_copy(&text[at..r.start], unreserved, &o, false, out);
        pct_copy(&text[r.clone()], unreserved, &o, o.case, out);
        at = r.end;
    }
    pct_copy(&text[at..], unreserved, &o, false, out);
}

/// `normalize_once` component by component, into the cleared `out`.
fn normalize_parts(u: &UriRef<'_>, o: NormalizeOptions, out: &mut String) {
    // Room for the result but for an empty http(s) path's "/" and for
    // RFC 5952 text, which may be longer.
    out.reserve(u.as_str().len() + 1);
    if u.profile().part(Component::Path.as_str()).is_none() {
        return normalize_text(u, o, out);
    }
    let unreserved = u.profile().tables().unreserved;
    let scheme = u.scheme();
    if let Some(s) = scheme {
        out.push_str(s);
        if o.case {
            out.make_ascii_lowercase();
        }
        out.push(':');
    }
    let has_authority = u.authority().is_some();
    if has_authority {
        out.push_str("//");
        if let Some(ui) = u.userinfo() {
            pct_copy(ui, unreserved, &o, false, out);
            out.push('@');
        }
        let host = u.host_str().unwrap_or("");
        // A part of the profile's grammar nested in the host that RFC 3986
        // does not have (RFC 6874's zone) keeps its letters' case: 6.2.2.1
        // makes the host case-insensitive, not what another grammar puts
        // inside it (a zone names an interface, and those are not).
        let keep = foreign_in_host(u);
        match (o.ipv6_rfc5952, o.ipv6_rfc5952.then(|| u.host()).flatten()) {
            (true, Some(crate::Host::Ipv6(a))) => {
                out.push('[');
                out.push_str(&a.to_string());
                // What follows the address in the literal ("%25" and the
                // zone part) is copied, never dropped.
                let (_, after) = crate::uri::host::ipv6_literal(host, u.zone_in_host());
                pct_copy(after, unreserved, &o, false, out);
                out.push(']');
            }
            _ => match keep {
                Some(r) => {
                    pct_copy(&host[..r.start], unreserved, &o, o.case, out);
                    pct_copy(&host[r.clone()], unreserved, &o, false, out);
                    pct_copy(&host[r.end..], unreserved, &o, o.case, out);
                }
                None => pct_copy(host, unreserved, &o, o.case, out),
            },
        }
        if let Some(p) = u.port() {
            // 3.2.3: normalizers omit an empty port with its ":"; 6.2.3: and
            // the scheme's default port.
            let default = scheme.and_then(default_port);
            let drop = (o.empty_port && p.is_empty())
                || (o.scheme_based && default.is_some() && default == u.port_u16());
            if !drop {
                out.push(':');
                out.push_str(p);
            }
        }
    }
    let path_at = out.len();
    pct_copy(u.path(), unreserved, &o, false, out);
    // 6.2.2.3, for URIs: "apply remove_dot_segments to the path". Also for
    // absolute-path and network-path references: resolution applies
    // remove_dot_segments to exactly their path (5.2.2, `R.path` starting
    // with "/"), so removing the dots now changes no target. A
    // relative-path reference keeps its dot segments until it is resolved
    // (its ".." may climb the base's path). After 6.2.2.2, so that "%2E"
    // counts as a dot. A ".." above the root is dropped. In place: `out`
    // needs no second buffer.
    if o.dots
        && (scheme.is_some() || out[path_at..].starts_with('/'))
        && crate::resolve::has_dot_segment(&out[path_at..])
    {
        // `Remove` never fails.
        let _ = crate::resolve::remove_dot_segments_in_place(out, path_at, DotAboveRoot::Remove);
    }
    if o.scheme_based
        && has_authority
        && out.len() == path_at
        && scheme.is_some_and(|s| s.eq_ignore_ascii_case("http") || s.eq_ignore_ascii_case("https"))
    {
        out.push('/');
    }
    // A relative reference must stay one: decoding can turn its first
    // segment into a scheme (under the drafts' grammars "hp%61ss:x" is a
    // path, "hpass:x" a URI). References are read as URIs first, so if the
    // profile's URI grammar now takes the text, "./" in front keeps it a
    // path (RFC 3986 4.2).
    if scheme.is_none() && !has_authority {
        let uri = crate::Parser::new()
            .profile(u.profile())
            .syntax(crate::Syntax::Uri);
        if uri.is_valid(out.as_bytes()) {
            out.insert_str(path_at, "./");
        }
    }
    // RFC 3986 3.3: without an authority the path cannot begin with "//":
    // "/." keeps it a path. Unless the profile's grammar already reads the
    // text as it was meant, with no authority (seed 001's opaque-part:
    // `http://a.b-/` is an opaque URL there, whose path "//a.b-/" must stay).
    if !has_authority && out[path_at..].starts_with("//") {
        let kept = u.profile() != crate::Profile::default()
            && crate::Parser::new()
                .profile(u.profile())
                .parse(out)
                .is_ok_and(|v| v.authority().is_none());
        if !kept {
            out.insert_str(path_at, "/.");
        }
    }
    if let Some(q) = u.query() {
        out.push('?');
        pct_copy(q, unreserved, &o, false, out);
    }
    if let Some(f) = u.fragment() {
        out.push('#');
        pct_copy(f, unreserved, &o, false, out);
    }
}

/// The span, within the host's text, of a part that the profile declares
/// inside the host and that is not one of RFC 3986's components.
fn foreign_in_host(u: &UriRef<'_>) -> Option<core::ops::Range<usize>> {
    let host = u.span(crate::Component::Host)?;
    u.profile()
        .parts()
        .filter(|p| crate::Component::from_name(p.name()).is_none())
        .filter_map(|p| u.part_span(p.name()))
        .find(|r| host.start <= r.start && r.end <= host.end && r.start < r.end)
        .map(|r| r.start - host.start..r.end - host.start)
}

/// Whether `normalize_once` would copy `u` unchanged, found with a few
/// scans instead of a component-by-component copy: most references in logs
/// are already in normal form. Only for RFC 3986 and the default steps'
/// subsets (6.2.3 and RFC 5952 rewrite more), and it answers `false`
/// whenever some step might change the text:
/// - a "%" anywhere (6.2.2.1 upper-cases its hex, 6.2.2.2 may decode it);
/// - an upper-case letter in the scheme or the host (6.2.2.1);
/// - an empty port (3.2.3 drops its ":");
/// - a URI's or a rooted reference's path with a segment starting with
///   "." (6.2.2.3).
///
/// RFC 3986's parse of a relative reference has no scheme and the input
/// was valid, so the fixes at the end of `normalize_once` (the "./" before a
/// first segment that reads as a scheme, the "/." before "//") have nothing
/// to do on an unchanged text.
fn already_normal(u: &UriRef<'_>, o: &NormalizeOptions) -> bool {
    if u.profile() != crate::Profile::Rfc3986 || o.scheme_based || o.ipv6_rfc5952 {
        return false;
    }
    let upper = |s: Option<&str>| {
        s.is_some_and(|s| crate::scan::find_pct_or_upper(s.as_bytes(), true).is_some())
    };
    let scheme = u.scheme();
    let pct = || crate::scan::find_pct_or_upper(u.as_str().as_bytes(), false).is_some();
    !((o.percent || o.case) && pct())
        && !(o.case && (upper(scheme) || upper(u.host_str())))
        && !(o.empty_port && u.port() == Some(""))
        && !(o.dots
            && (scheme.is_some() || u.path().starts_with('/'))
            && crate::resolve::has_dot_segment(u.path()))
}

impl<'a> UriRef<'a> {
    /// The RFC 3986 6.2.2 normal form.
    ///
    /// ```
    /// let u = urilex::UriRef::parse("eXAMPLE://a/./b/../b/%63/%7bfoo%7d").unwrap();
    /// assert_eq!(u.normalized().as_str(), "example://a/b/c/%7Bfoo%7D");
    /// ```
    pub fn normalized(&self) -> UriRefBuf {
        self.normalized_with(NormalizeOptions::new())
    }

    /// The normal form under `opts`.
    pub fn normalized_with(&self, opts: NormalizeOptions) -> UriRefBuf {
        let mut out = String::with_capacity(self.as_str().len());
        normalize_into(self, opts, &mut out);
        reparse(out, self.profile())
    }

    /// Whether two references are equivalent: equal after 6.2.2 and 6.2.3
    /// normalization (RFC 3986 6.1).
    ///
    /// ```
    /// use urilex::UriRef;
    /// let a = UriRef::parse("HTTP://www.Example.com:80/%7Euser").unwrap();
    /// let b = UriRef::parse("http://www.example.com/~user").unwrap();
    /// assert!(a.equivalent(&b));
    /// ```
    pub fn equivalent(&self, other: &UriRef<'_>) -> bool {
        let o = NormalizeOptions::new().scheme_based(true);
        let (mut x, mut y) = (String::new(), String::new());
        normalize_into(self, o, &mut x);
        normalize_into(other, o, &mut y);
        x == y
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::gen;

    /// Where `already_normal` says so, the full normalization gives the
    /// input back, under every combination of the steps it covers; and it
    /// says so for most of the corpora (the point of having it).
    #[test]
    fn already_normal_only_where_nothing_changes() {
        let mut rng = gen::Rng(0x0A11_0CA1);
        let mut inputs: Vec<Vec<u8>> = (0..30_000).map(|_| gen::input(&mut rng)).collect();
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/data");
        let mut corpus = 0;
        for f in ["kasztp.txt", "node_files.txt"] {
            let text = std::fs::read(format!("{dir}/{f}")).expect("bundled corpus");
            let lines: Vec<Vec<u8>> = crate::lines(&text).map(|(_, l)| l.to_vec()).collect();
            corpus += lines.len();
            inputs.extend(lines);
        }
        let mut out = String::new();
        let (mut fast, mut fast_corpus) = (0, 0);
        for (n, i) in inputs.iter().enumerate() {
            let Ok(u) = UriRef::parse_bytes(i) else {
                continue;
            };
            for bits in 0..16u8 {
                let o = NormalizeOptions::new()
                    .case(bits & 1 != 0)
                    .percent(bits & 2 != 0)
                    .dot_segments(bits & 4 != 0)
                    .empty_port(bits & 8 != 0);
                if already_normal(&u, &o) {
                    out.clear();
                    normalize_parts(&u, o, &mut out);
                    assert_eq!(out, u.as_str(), "{o:?}");
                    if bits == 15 {
                        fast += 1;
                        fast_corpus += usize::from(n >= inputs.len() - corpus);
                    }
                }
            }
        }
        assert!(fast > 1000, "{fast}");
        assert!(fast_corpus * 2 > corpus, "{fast_corpus} of {corpus}");
    }
}
