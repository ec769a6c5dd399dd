//! A plain recursive-descent parser written directly from RFC 3986 Appendix A,
//! independent of the generated tables: the oracle for the differential tests.
//! Each function names the rule it implements.
#![allow(dead_code)]

pub type Span = Option<(usize, usize)>;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RefParse {
    pub scheme: Span,
    pub authority: Span,
    pub userinfo: Span,
    pub host: Span,
    pub port: Span,
    pub path: Span,
    pub query: Span,
    pub fragment: Span,
    pub host_kind: Option<&'static str>,
}

fn alpha(b: u8) -> bool {
    b.is_ascii_alphabetic()
}
fn digit(b: u8) -> bool {
    b.is_ascii_digit()
}
fn hexdig(b: u8) -> bool {
    b.is_ascii_hexdigit()
}
/// unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"   (2.3)
fn unreserved(b: u8) -> bool {
    alpha(b) || digit(b) || matches!(b, b'-' | b'.' | b'_' | b'~')
}
/// sub-delims = "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "="   (2.2)
fn sub_delim(b: u8) -> bool {
    matches!(
        b,
        b'!' | b'$' | b'&' | b'\'' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'='
    )
}

/// Length of a `pct-encoded` at `i` (2.1), or 0.
fn pct(s: &[u8], i: usize) -> usize {
    if s.get(i) == Some(&b'%')
        && s.get(i + 1).is_some_and(|&b| hexdig(b))
        && s.get(i + 2).is_some_and(|&b| hexdig(b))
    {
        3
    } else {
        0
    }
}

/// Consumes `*( single-byte-class / pct-encoded )` from `i`; returns the end.
fn run(s: &[u8], mut i: usize, class: impl Fn(u8) -> bool) -> usize {
    loop {
        match s.get(i) {
            Some(&b) if class(b) => i += 1,
            Some(b'%') if pct(s, i) == 3 => i += 3,
            _ => return i,
        }
    }
}

/// pchar = unreserved / pct-encoded / sub-delims / ":" / "@"   (3.3)
fn pchar(b: u8) -> bool {
    unreserved(b) || sub_delim(b) || b == b':' || b == b'@'
}

/// segment = *pchar; returns the end.
fn segment(s: &[u8], i: usize) -> usize {
    run(s, i, pchar)
}

/// path-abempty = *( "/" segment )   (3.3)
fn path_abempty(s: &[u8], mut i: usize) -> usize {
    while s.get(i) == Some(&b'/') {
        i = segment(s, i + 1);
    }
    i
}

/// scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )   (3.1); end if present.
fn scheme(s: &[u8]) -> Option<usize> {
    if !s.first().is_some_and(|&b| alpha(b)) {
        return None;
    }
    let mut i = 1;
    while s
        .get(i)
        .is_some_and(|&b| alpha(b) || digit(b) || matches!(b, b'+' | b'-' | b'.'))
    {
        i += 1;
    }
    Some(i)
}

/// dec-octet: 0-255 without leading zeros   (3.2.2)
fn dec_octet(p: &[u8]) -> bool {
    match p.len() {
        1 => digit(p[0]),
        2 => (b'1'..=b'9').contains(&p[0]) && digit(p[1]),
        3 => {
            p.iter().all(|&b| digit(b))
                && (p[0] == b'1'
                    || (p[0] == b'2' && (p[1] < b'5' || (p[1] == b'5' && p[2] <= b'5'))))
        }
        _ => false,
    }
}

/// IPv4address = dec-octet "." dec-octet "." dec-octet "." dec-octet   (3.2.2)
pub fn ipv4address(s: &[u8]) -> bool {
    let parts: Vec<&[u8]> = s.split(|&b| b == b'.').collect();
    parts.len() == 4 && parts.iter().all(|p| dec_octet(p))
}

/// h16 = 1*4HEXDIG   (3.2.2)
fn h16(p: &[u8]) -> bool {
    (1..=4).contains(&p.len()) && p.iter().all(|&b| hexdig(b))
}

/// Groups of one side of "::": h16s, the last of which may be an IPv4 (ls32).
/// Returns the number of 16-bit pieces, or None.
fn h16_list(p: &[u8], ipv4_allowed_last: bool) -> Option<usize> {
    if p.is_empty() {
        return Some(0);
    }
    let groups: Vec<&[u8]> = p.split(|&b| b == b':').collect();
    let mut n = 0;
    for (i, g) in groups.iter().enumerate() {
        if i + 1 == groups.len() && ipv4_allowed_last && g.contains(&b'.') {
            if !ipv4address(g) {
                return None;
            }
            n += 2;
        } else if h16(g) {
            n += 1;
        } else {
            return None;
        }
    }
    Some(n)
}

/// IPv6address, the nine alternatives of 3.2.2: without "::" exactly eight
/// pieces (the last two may be an IPv4address); with one "::" at most seven.
pub fn ipv6address(s: &[u8]) -> bool {
    let mut found = None;
    for i in 0..s.len().saturating_sub(1) {
        if &s[i..i + 2] == b"::" {
            if found.is_some() {
                return false;
            }
            found = Some(i);
        }
    }
    match found {
        None => h16_list(s, true) == Some(8),
        Some(i) => {
            let (left, right) = (&s[..i], &s[i + 2..]);
            // "::" must not be part of ":::"; sides must not start/end with ':'.
            if left.last() == Some(&b':') || right.first() == Some(&b':') {
                return false;
            }
            match (h16_list(left, false), h16_list(right, true)) {
                (Some(a), Some(b)) => a + b <= 7,
                _ => false,
            }
        }
    }
}

/// IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )   (3.2.2)
pub fn ipvfuture(s: &[u8]) -> bool {
    if !matches!(s.first(), Some(b'v') | Some(b'V')) {
        return false;
    }
    let mut i = 1;
    while s.get(i).is_some_and(|&b| hexdig(b)) {
        i += 1;
    }
    if i == 1 || s.get(i) != Some(&b'.') {
        return false;
    }
    let rest = &s[i + 1..];
    !rest.is_empty()
        && rest
            .iter()
            .all(|&b| unreserved(b) || sub_delim(b) || b == b':')
}

/// authority = [ userinfo "@" ] host [ ":" port ]   (3.2), over s[a..e].
fn authority(s: &[u8], a: usize, e: usize, out: &mut RefParse) -> bool {
    out.authority = Some((a, e));
    let mut h = a;
    if let Some(at) = s[a..e].iter().position(|&b| b == b'@') {
        // userinfo = *( unreserved / pct-encoded / sub-delims / ":" )
        let end = run(s, a, |b| unreserved(b) || sub_delim(b) || b == b':');
        if end != a + at {
            return false;
        }
        out.userinfo = Some((a, a + at));
        h = a + at + 1;
    }
    // host = IP-literal / IPv4address / reg-name
    let host_end;
    if s.get(h) == Some(&b'[') && h < e {
        let Some(close) = s[h..e].iter().position(|&b| b == b']') else {
            return false;
        };
        let inner = &s[h + 1..h + close];
        if ipv6address(inner) {
            out.host_kind = Some("ipv6");
        } else if ipvfuture(inner) {
            out.host_kind = Some("ipvfuture");
        } else {
            return false;
        }
        host_end = h + close + 1;
    } else {
        // reg-name = *( unreserved / pct-encoded / sub-delims )
        host_end = run(s, h, |b| unreserved(b) || sub_delim(b)).min(e);
        out.host_kind = Some(if ipv4address(&s[h..host_end]) {
            "ipv4"
        } else {
            "reg-name"
        });
    }
    out.host = Some((h, host_end));
    if host_end == e {
        return true;
    }
    if s[host_end] != b':' {
        return false;
    }
    // port = *DIGIT
    if !s[host_end + 1..e].iter().all(|&b| digit(b)) {
        return false;
    }
    out.port = Some((host_end + 1, e));
    true
}

/// "//" authority path-abempty, from i (which points at "//").
fn net(s: &[u8], i: usize, out: &mut RefParse) -> Option<usize> {
    let a = i + 2;
    let e = s[a..]
        .iter()
        .position(|&b| matches!(b, b'/' | b'?' | b'#'))
        .map_or(s.len(), |p| a + p);
    if !authority(s, a, e, out) {
        return None;
    }
    let p = path_abempty(s, e);
    out.path = Some((e, p));
    Some(p)
}

/// path-absolute = "/" [ segment-nz *( "/" segment ) ]   (3.3), from i at "/".
fn path_absolute(s: &[u8], i: usize) -> usize {
    let first = segment(s, i + 1);
    if first == i + 1 {
        i + 1
    } else {
        path_abempty(s, first)
    }
}

/// `[ "?" query ] [ "#" fragment ]`, then the end; from i.
fn tail(s: &[u8], mut i: usize, out: &mut RefParse, fragment_ok: bool) -> bool {
    let qf = |b| pchar(b) || b == b'/' || b == b'?';
    if s.get(i) == Some(&b'?') {
        let e = run(s, i + 1, qf);
        out.query = Some((i + 1, e));
        i = e;
    }
    if fragment_ok && s.get(i) == Some(&b'#') {
        let e = run(s, i + 1, qf);
        out.fragment = Some((i + 1, e));
        i = e;
    }
    i == s.len()
}

/// URI = scheme ":" hier-part [ "?" query ] [ "#" fragment ]   (3)
pub fn uri(s: &[u8], fragment_ok: bool) -> Option<RefParse> {
    let se = scheme(s)?;
    if s.get(se) != Some(&b':') {
        return None;
    }
    let mut out = RefParse {
        scheme: Some((0, se)),
        ..Default::default()
    };
    let i = se + 1;
    // hier-part
    let end = if s[i..].starts_with(b"//") {
        net(s, i, &mut out)?
    } else if s.get(i) == Some(&b'/') {
        let e = path_absolute(s, i);
        out.path = Some((i, e));
        e
    } else {
        // path-rootless = segment-nz *( "/" segment ), or path-empty
        let first = segment(s, i);
        let e = if first > i { path_abempty(s, first) } else { i };
        out.path = Some((i, e));
        e
    };
    tail(s, end, &mut out, fragment_ok).then_some(out)
}

/// relative-ref = relative-part [ "?" query ] [ "#" fragment ]   (4.2)
pub fn relative_ref(s: &[u8]) -> Option<RefParse> {
    let mut out = RefParse::default();
    let end = if s.starts_with(b"//") {
        net(s, 0, &mut out)?
    } else if s.first() == Some(&b'/') {
        let e = path_absolute(s, 0);
        out.path = Some((0, e));
        e
    } else {
        // path-noscheme = segment-nz-nc *( "/" segment ), or path-empty
        let first = run(s, 0, |b| unreserved(b) || sub_delim(b) || b == b'@');
        if first > 0 && s.get(first) == Some(&b':') {
            return None;
        }
        let e = if first > 0 { path_abempty(s, first) } else { 0 };
        out.path = Some((0, e));
        e
    };
    tail(s, end, &mut out, true).then_some(out)
}

/// URI-reference = URI / relative-ref   (4.1)
pub fn uri_reference(s: &[u8]) -> Option<RefParse> {
    uri(s, true).or_else(|| relative_ref(s))
}
