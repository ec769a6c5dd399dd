//! Apache/nginx access log lines: the Common Log Format
//! (`%h %l %u %t "%r" %>s %b`) and the Combined one (`... "%{Referer}i"
//! "%{User-agent}i"`), fields after those ignored (nginx's `$request_time`
//! and the like).
//!
//! The loggers escape what they write inside quotes: Apache writes `\"`,
//! `\\` and `\xhh` (and `\n`, `\r`, `\t` for those controls), nginx
//! `\xHH`. Each quoted field is unescaped before it is read, so a target
//! holds the bytes the client sent.

use std::ops::Range;
use urilex::Syntax;

/// The form of a request target (RFC 9112 section 3.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TargetForm {
    /// `absolute-path [ "?" query ]`.
    Origin,
    /// An absolute URI.
    Absolute,
    /// `host:port`, after CONNECT.
    Authority,
    /// `*`, after OPTIONS.
    Asterisk,
}

impl TargetForm {
    /// The names, in the order of the variants.
    pub const NAMES: [&'static str; 4] = ["origin", "absolute", "authority", "asterisk"];
    /// Its name in rows.
    pub fn as_str(self) -> &'static str {
        Self::NAMES[self as usize]
    }
    /// The grammar entry the target is parsed with.
    pub fn syntax(self) -> Option<Syntax> {
        match self {
            TargetForm::Origin => Some(Syntax::OriginForm),
            TargetForm::Absolute => Some(Syntax::AbsoluteUri),
            TargetForm::Authority => Some(Syntax::AuthorityForm),
            TargetForm::Asterisk => None,
        }
    }
    /// The form of `target` sent with `method` (RFC 9112 section 3.2):
    /// authority after CONNECT, asterisk for OPTIONS `*`, origin for a
    /// target starting with `/`, absolute otherwise.
    pub fn of(method: &[u8], target: &[u8]) -> TargetForm {
        if method == b"CONNECT" {
            TargetForm::Authority
        } else if target == b"*" && method == b"OPTIONS" {
            TargetForm::Asterisk
        } else if target.first() == Some(&b'/') {
            TargetForm::Origin
        } else {
            TargetForm::Absolute
        }
    }
}

/// A log line's fields as they are in the line.
pub struct Raw<'a> {
    client: &'a [u8],
    ident: &'a [u8],
    user: &'a [u8],
    time: &'a [u8],
    request: &'a [u8],
    status: &'a [u8],
    bytes: &'a [u8],
    referer: Option<&'a [u8]>,
    user_agent: Option<&'a [u8]>,
    /// Which quoted fields hold a backslash (bit 0 the request, 1 the
    /// referer, 2 the user agent): the others need no unescaping.
    escaped: u8,
}

/// A log line's fields as spans of an arena, unescaped; `None` for `-`.
pub struct LogLine {
    /// The client (`%h`).
    pub client: Option<(u32, u32)>,
    /// The identity (`%l`).
    pub ident: Option<(u32, u32)>,
    /// The user (`%u`).
    pub user: Option<(u32, u32)>,
    /// The time, without brackets (`%t`).
    pub time: Option<(u32, u32)>,
    /// The request line (`%r`).
    pub request: (u32, u32),
    /// The status (`%>s`).
    pub status: Option<(u32, u32)>,
    /// The size (`%b`).
    pub bytes: Option<(u32, u32)>,
    /// The referer (combined).
    pub referer: Option<(u32, u32)>,
    /// The user agent (combined).
    pub user_agent: Option<(u32, u32)>,
}

/// The fields of one line, or what is missing and where.
pub fn parse(line: &[u8], combined: bool) -> Result<Raw<'_>, (&'static str, Option<usize>)> {
    let mut t = Tokens { line, pos: 0 };
    let client = t.bare().ok_or(("empty line", Some(0)))?;
    let ident = t.bare().ok_or(("no identity field", Some(t.pos)))?;
    let user = t.bare().ok_or(("no user field", Some(t.pos)))?;
    let time = t.bracketed().ok_or(("no [time] field", Some(t.pos)))?;
    let at = t.pos;
    let (request, e) = t.quoted().ok_or(("no request line", Some(at)))?;
    let mut escaped = u8::from(e);
    if request == b"-" || request.is_empty() {
        return Err(("no request line", Some(at)));
    }
    let status = t.bare().ok_or(("no status", Some(t.pos)))?;
    let bytes = t.bare().ok_or(("no size", Some(t.pos)))?;
    let (referer, user_agent) = if combined {
        let (r, e) = t.quoted().ok_or(("no referer field", Some(t.pos)))?;
        escaped |= u8::from(e) << 1;
        let (u, e) = t.quoted().ok_or(("no user agent field", Some(t.pos)))?;
        escaped |= u8::from(e) << 2;
        (Some(r), Some(u))
    } else {
        (None, None)
    };
    Ok(Raw {
        client,
        ident,
        user,
        time,
        request,
        status,
        bytes,
        referer,
        user_agent,
        escaped,
    })
}

impl LogLine {
    /// The fields of `raw`, unescaped into `arena`: the request line and
    /// the referer always, the others only when `all` (they are carried).
    pub fn unescape(raw: &Raw<'_>, arena: &mut Vec<u8>, all: bool) -> LogLine {
        // `escaped`: a quoted field with a backslash in it.
        let mut put = |field: &[u8], escaped: bool| -> (u32, u32) {
            let a = arena.len() as u32;
            if escaped {
                unescape(field, arena);
            } else {
                arena.extend_from_slice(field);
            }
            (a, arena.len() as u32)
        };
        let dash = |f: &[u8]| all && f != b"-";
        LogLine {
            request: put(raw.request, raw.escaped & 1 != 0),
            referer: raw
                .referer
                .filter(|r| *r != b"-")
                .map(|r| put(r, raw.escaped & 2 != 0)),
            client: all.then(|| put(raw.client, false)),
            ident: dash(raw.ident).then(|| put(raw.ident, false)),
            user: dash(raw.user).then(|| put(raw.user, false)),
            time: all.then(|| put(raw.time, false)),
            status: dash(raw.status).then(|| put(raw.status, false)),
            bytes: dash(raw.bytes).then(|| put(raw.bytes, false)),
            user_agent: raw
                .user_agent
                .filter(|r| dash(r))
                .map(|r| put(r, raw.escaped & 4 != 0)),
        }
    }
}

struct Tokens<'a> {
    line: &'a [u8],
    pos: usize,
}

/// The place of the first space among the eight bytes of `word` (little
/// endian), if one is: the bytes that are spaces become zeros, and a byte
/// keeps its high bit after adding 0x7f to its low seven bits or OR-ing
/// itself exactly when it is not zero (no carry crosses a byte).
#[inline(always)]
fn first_space(word: u64) -> Option<usize> {
    const LOW: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let x = word ^ 0x2020_2020_2020_2020;
    let zero = !(((x & LOW) + LOW) | x) & !LOW;
    (zero != 0).then(|| zero.trailing_zeros() as usize / 8)
}

impl<'a> Tokens<'a> {
    fn skip_spaces(&mut self) {
        while self.line.get(self.pos) == Some(&b' ') {
            self.pos += 1;
        }
    }
    /// A run of non-space bytes. Most are short (a dash, a status, a
    /// size, an address): the first 16 bytes are looked at as two words
    /// ([`first_space`]), which finds their end in fewer instructions than
    /// a call to `memchr` takes to begin (callgrind: about 60 a field).
    #[inline(always)]
    fn bare(&mut self) -> Option<&'a [u8]> {
        self.skip_spaces();
        let start = self.pos;
        let rest = &self.line[start..];
        let word = |at: usize| u64::from_le_bytes(rest[at..at + 8].try_into().expect("8 bytes"));
        let n = match rest.len() {
            16.. => match (first_space(word(0)), first_space(word(8))) {
                (Some(n), _) => n,
                (None, Some(n)) => 8 + n,
                (None, None) => 16 + memchr::memchr(b' ', &rest[16..]).unwrap_or(rest.len() - 16),
            },
            _ => memchr::memchr(b' ', rest).unwrap_or(rest.len()),
        };
        self.pos += n;
        (n > 0).then(|| &self.line[start..start + n])
    }
    /// `[...]`, without the brackets.
    fn bracketed(&mut self) -> Option<&'a [u8]> {
        self.skip_spaces();
        if self.line.get(self.pos) != Some(&b'[') {
            return None;
        }
        let start = self.pos + 1;
        let n = memchr::memchr(b']', &self.line[start..])?;
        self.pos = start + n + 1;
        Some(&self.line[start..start + n])
    }
    /// `"..."`, without the quotes, still escaped (a backslash escapes
    /// the byte after it), and whether it holds a backslash.
    fn quoted(&mut self) -> Option<(&'a [u8], bool)> {
        self.skip_spaces();
        if self.line.get(self.pos) != Some(&b'"') {
            return None;
        }
        let start = self.pos + 1;
        let mut i = start;
        let mut escaped = false;
        while let Some(k) = memchr::memchr2(b'"', b'\\', self.line.get(i..)?) {
            i += k;
            if self.line[i] == b'"' {
                self.pos = i + 1;
                return Some((&self.line[start..i], escaped));
            }
            escaped = true;
            i += 2;
        }
        None
    }
}

/// Undoes the loggers' escapes: `\"`, `\\`, `\xhh`, `\n`, `\r`, `\t`; any
/// other backslash is kept as it is.
pub fn unescape(field: &[u8], out: &mut Vec<u8>) {
    let mut rest = field;
    while let Some(i) = memchr::memchr(b'\\', rest) {
        out.extend_from_slice(&rest[..i]);
        let e = &rest[i..];
        let hex = |b: u8| (b as char).to_digit(16).map(|d| d as u8);
        let (byte, len) = match e.get(1) {
            Some(b'"') => (Some(b'"'), 2),
            Some(b'\\') => (Some(b'\\'), 2),
            Some(b'n') => (Some(b'\n'), 2),
            Some(b'r') => (Some(b'\r'), 2),
            Some(b't') => (Some(b'\t'), 2),
            Some(b'x') => match (
                e.get(2).and_then(|&b| hex(b)),
                e.get(3).and_then(|&b| hex(b)),
            ) {
                (Some(h), Some(l)) => (Some(h << 4 | l), 4),
                _ => (None, 1),
            },
            _ => (None, 1),
        };
        match byte {
            Some(b) => out.push(b),
            None => out.push(b'\\'),
        }
        rest = &e[len..];
    }
    out.extend_from_slice(rest);
}

/// A request line's parts, as offsets in it.
pub struct Target {
    /// The method.
    pub method: Range<usize>,
    /// The target.
    pub target: Range<usize>,
    /// The protocol (`HTTP/1.1`), if the line has one.
    pub protocol: Option<Range<usize>>,
    /// The target's form.
    pub form: TargetForm,
}

/// The method, the target (from the first space after the method to the
/// last ` HTTP/`, or to the end for a request line without a version, as
/// HTTP/0.9 wrote them) and its form (RFC 9112 section 3.2).
pub fn request_target(request: &[u8]) -> Result<Target, &'static str> {
    let sp = memchr::memchr(b' ', request).ok_or("no target in the request line")?;
    if sp == 0 {
        return Err("no method in the request line");
    }
    let start = sp + 1;
    let rest = &request[start..];
    // The last ` HTTP/` is most often after the last space, which is
    // cheaper to find than to search for the string (memmem makes a
    // searcher at each call); no ` HTTP/` can start after the last space.
    let last = match memchr::memrchr(b' ', rest) {
        Some(i) if rest[i + 1..].starts_with(b"HTTP/") => Some(i),
        _ => memchr::memmem::rfind(rest, b" HTTP/"),
    };
    let (end, protocol) = match last {
        Some(i) => (start + i, Some(start + i + 1..request.len())),
        None => (request.len(), None),
    };
    if end <= start {
        return Err("no target in the request line");
    }
    let method = &request[..sp];
    let target = &request[start..end];
    let form = TargetForm::of(method, target);
    Ok(Target {
        method: 0..sp,
        target: start..end,
        protocol,
        form,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unescapes_as_the_loggers_write() {
        let mut v = Vec::new();
        unescape(br#"a\"b\\c\x41\x2fd\qe\x4"#, &mut v);
        assert_eq!(v, br#"a"b\cA/d\qe\x4"#);
    }

    #[test]
    fn request_lines() {
        let t = request_target(b"GET /a b HTTP/1.1").unwrap();
        assert_eq!(t.target, 4..8);
        assert_eq!(t.form, TargetForm::Origin);
        let t = request_target(b"CONNECT example.com:443 HTTP/1.1").unwrap();
        assert_eq!(t.form, TargetForm::Authority);
        let t = request_target(b"OPTIONS * HTTP/1.1").unwrap();
        assert_eq!(t.form, TargetForm::Asterisk);
        let t = request_target(b"GET http://a/ HTTP/1.0").unwrap();
        assert_eq!(t.form, TargetForm::Absolute);
        let t = request_target(b"GET /old").unwrap();
        assert_eq!((t.target, t.protocol), (4..8, None));
        assert!(request_target(b"\x16\x03\x01").is_err());
        // The last ` HTTP/`, whether or not the last space begins it.
        let t = request_target(b"GET /x HTTP/ HTTP/1.0").unwrap();
        assert_eq!((t.target, t.protocol), (4..12, Some(13..21)));
        let t = request_target(b"GET /x HTTP/1.1 junk").unwrap();
        assert_eq!((t.target, t.protocol), (4..6, Some(7..20)));
        let t = request_target(b"GET /x HTTPS/1.1").unwrap();
        assert_eq!((t.target, t.protocol), (4..16, None));
    }

    /// A bare field ends at the first space, found two words at a time
    /// within 16 bytes and by memchr past them (or in a rest shorter than
    /// 16): `first_space` on every byte at every place against a search
    /// byte by byte, and fields of every length from 1 to 39, each with
    /// and without more text after it.
    #[test]
    fn bare_fields_end_at_the_first_space() {
        for b in 0..=255u8 {
            for at in 0..8 {
                let mut w = [b'a'; 8];
                w[at] = b;
                let want = w.iter().position(|&c| c == b' ');
                assert_eq!(first_space(u64::from_le_bytes(w)), want, "{b} at {at}");
            }
        }
        let mut t = Tokens {
            line: b"   ",
            pos: 0,
        };
        assert_eq!(t.bare(), None);
        for len in 1..40 {
            for tail in 0..20 {
                let mut line = vec![b' '; 2];
                line.extend(std::iter::repeat_n(b'x', len));
                line.extend(std::iter::repeat_n(b' ', tail.min(1)));
                line.extend(std::iter::repeat_n(b'y', tail));
                let mut t = Tokens {
                    line: &line,
                    pos: 0,
                };
                let field = t.bare();
                assert_eq!(field.map(<[u8]>::len), Some(len), "{len} {tail}");
                assert_eq!(t.pos, 2 + len, "{len} {tail}");
            }
        }
    }

    #[test]
    fn combined_fields() {
        let line = br#"1.2.3.4 - frank [10/Oct/2000:13:55:36 -0700] "GET /a\"b HTTP/1.0" 200 2326 "http://x/" "Mozilla/4.08 [en]""#;
        let raw = parse(line, true).unwrap();
        let mut arena = Vec::new();
        let l = LogLine::unescape(&raw, &mut arena, true);
        let s = |(a, b): (u32, u32)| &arena[a as usize..b as usize];
        assert_eq!(s(l.request), br#"GET /a"b HTTP/1.0"#);
        // Only the request held a backslash.
        assert_eq!(raw.escaped, 1);
        assert_eq!(s(l.user.unwrap()), b"frank");
        assert_eq!(l.ident, None);
        assert_eq!(s(l.referer.unwrap()), b"http://x/");
        assert_eq!(s(l.time.unwrap()), b"10/Oct/2000:13:55:36 -0700");
        assert!(parse(b"1.2.3.4 - - [x] \"-\" 400 0", false).is_err());
        assert!(parse(br#"1.2.3.4 - - [x] "GET / HTTP/1.1" 200 1"#, true).is_err());
    }
}
