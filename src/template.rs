//! Output templates: trurl's `--get` language, so that a trurl user's
//! format strings work on urilex's parse, with a few extensions.
//!
//! A template is text with fields: `{name}`, or `[name]` with brackets (one
//! template uses one kind: the first `{` or `[` that opens a field
//! decides). The names are trurl's: `url` (the reference), `scheme`,
//! `user`, `password`, `options` (an IMAP notion RFC 3986 does not have:
//! always absent), `host`, `port`, `path`, `query`, `fragment`, `zoneid`
//! (the RFC 6874 zone, under that profile); `query:KEY` (the first value
//! of the key, see [`crate::query`]) and `query-all:KEY` (every value,
//! space-separated). Prefixes, as trurl's: `url:` or `:` (the text as
//! written, not decoded), `strict:` (a value whose decoding is not UTF-8
//! or holds NUL is an error instead of bytes), `must:` (an absent part is
//! an error instead of nothing), `default:` (the port: the scheme's
//! default when the reference names none), `puny:` and `idn:` (the host,
//! in `host`, `url` and the `host:` fields, as A-labels or U-labels by UTS
//! 46 non-transitional processing; feature `idna`; a name it cannot
//! convert is an error, as in libcurl; IP literals are left alone).
//! Backslash escapes: `\\`, `\t`, `\n`, `\r`, `\{`, `\[`; any other text
//! is copied.
//!
//! Extensions (trurl does not have them): `userinfo`, `authority`,
//! `path:N` (the Nth segment, 1-based, negative from the end),
//! `path:ext` (what follows the last `.` of the last segment, unfurl's
//! `%e`), `host:registrable`, `host:suffix`, `host:sub` and `host:root`
//! (by the Public Suffix List, feature `psl`: see [`crate::domain`]; the
//! name looked up is written, decoded and lower-cased, whatever the
//! prefixes), `host:nowww` (the host without a leading `www.`, as
//! ClickHouse's `domainWithoutWWW`), `whatwg:scheme`, `whatwg:host`,
//! `whatwg:port`, `whatwg:path` and `whatwg:href` (the reference as the
//! WHATWG URL Standard reads it, its getters' values: feature `whatwg`,
//! [`crate::whatwg`]; nothing where the Standard rejects it), and conditional separators: `+X` right after the opening brace
//! writes X before the field's value when it has one (`{+:port}`,
//! `{+?query}`, `{+#fragment}`), `+X` right before the closing brace after
//! it (`{userinfo+@}`); X is one of `? # : @ / ; &`. unfurl's `%` syntax is
//! the other way in ([`Template::parse_percent`]).
//!
//! Where urilex and trurl differ: values come from the reference as RFC
//! 3986 parses it, never guessed or rewritten (trurl, through libcurl,
//! adds a scheme to `example.com`, prints an empty path as `/`, re-encodes
//! every part and rewrites IPv4 hosts); `url` is the input's text; a
//! decoded value is written as the bytes it decodes to, where trurl prints
//! `.` for a NUL in a query value (with `strict:`, bytes that are not UTF-8
//! or a NUL are an error in both).
//!
//! ```
//! use urilex::{template::Template, UriRef};
//! let t = Template::parse("{scheme} {host} {default:port} {path} {query:id} {path:-1}").unwrap();
//! let u = UriRef::parse("https://example.com/a%20b/c.txt?id=7&id=8").unwrap();
//! let mut out = Vec::new();
//! t.render(&u, &mut out).unwrap();
//! assert_eq!(out, b"https example.com 443 /a b/c.txt 7 c.txt");
//! ```

use crate::query::{decode_into, params, Decode};
use crate::{Component, UriRef};
use std::borrow::Cow;
use std::fmt;

/// What a field names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Field {
    /// The whole reference.
    Url,
    /// One of the parts trurl names, or an extension's: `scheme`, `user`,
    /// `password`, `options`, `host`, `port`, `path`, `query`, `fragment`,
    /// `zoneid`, `userinfo`, `authority`.
    Part(Part),
    /// `query:KEY`: the first value of the key.
    QueryKey(String),
    /// `query-all:KEY`: every value of the key, space-separated.
    QueryAll(String),
    /// `path:N`: a path segment, 1-based; negative from the end.
    Segment(i32),
    /// `path:ext`: what follows the last `.` of the last segment.
    Extension,
    /// `host:registrable`, `host:suffix`, `host:sub`, `host:root`,
    /// `host:nowww`.
    Domain(DomainPart),
    /// `whatwg:scheme`, `whatwg:host`, `whatwg:port`, `whatwg:path`,
    /// `whatwg:href`: the reference as the WHATWG URL Standard reads it
    /// (feature `whatwg`, [`crate::whatwg`]), its getters' values.
    Whatwg(WhatwgPart),
}

/// What a `whatwg:` field names: a getter of the URL Standard.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WhatwgPart {
    /// `protocol`, without its `:`.
    Scheme,
    /// `hostname` (IPv6 in brackets).
    Host,
    /// `port` (none for the scheme's default).
    Port,
    /// `pathname`.
    Path,
    /// `href`: the whole URL, serialized.
    Href,
}

impl WhatwgPart {
    const ALL: [(WhatwgPart, &'static str); 5] = [
        (WhatwgPart::Scheme, "scheme"),
        (WhatwgPart::Host, "host"),
        (WhatwgPart::Port, "port"),
        (WhatwgPart::Path, "path"),
        (WhatwgPart::Href, "href"),
    ];

    fn name(self) -> &'static str {
        WhatwgPart::ALL
            .iter()
            .find(|(p, _)| *p == self)
            .map_or("", |(_, n)| n)
    }
}

/// The parts of a host name the `host:` fields name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DomainPart {
    /// `host:registrable`: the public suffix and one label more
    /// (feature `psl`).
    Registrable,
    /// `host:suffix`: the public suffix (feature `psl`).
    Suffix,
    /// `host:sub`: the labels before the registrable domain (feature
    /// `psl`).
    Sub,
    /// `host:root`: the registrable domain's own label, unfurl's `%r`
    /// (feature `psl`).
    Root,
    /// `host:nowww`: the host without a leading `www.` (ClickHouse's
    /// `domainWithoutWWW`).
    NoWww,
}

/// The IDNA prefixes (feature `idna`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Idna {
    /// `puny:`: the host in A-labels (`xn--…`).
    Puny,
    /// `idn:`: the host in U-labels (Unicode).
    Idn,
}

/// A field with its prefixes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    /// What it names.
    pub field: Field,
    /// `url:` or `:`: as written, not decoded.
    pub encoded: bool,
    /// `strict:`: decoding to bytes that are not UTF-8, or to NUL, is an
    /// error.
    pub strict: bool,
    /// `must:`: an absent part is an error.
    pub must: bool,
    /// `default:`: the scheme's default port when the reference names none.
    pub default_port: bool,
    /// `puny:` or `idn:`: the host converted (UTS 46, non-transitional).
    pub idna: Option<Idna>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Piece {
    Text(Vec<u8>),
    Field(Spec),
    /// The byte, when the field has a value (a conditional separator).
    When(u8, Spec),
}

/// The separators a field may carry (`{+?query}`, `{userinfo+@}`).
const SEPARATORS: &[u8] = b"?#:@/;&";

/// A parsed template (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Template {
    pieces: Vec<Piece>,
    one_line: bool,
    #[cfg(feature = "psl")]
    section: crate::domain::Section,
}

/// Why a template cannot be parsed: the fault and its byte offset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TemplateError {
    /// Byte offset in the template.
    pub index: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for TemplateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {} of the template", self.message, self.index)
    }
}

impl std::error::Error for TemplateError {}

/// Why a reference cannot be written with a template.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RenderError {
    /// `must:` and the part is absent.
    Missing(String),
    /// `strict:` and the decoded part is not UTF-8 or holds NUL.
    Undecodable(String),
    /// `puny:` or `idn:` and the host is not a name IDNA can convert.
    Idna(String),
    /// [`Template::render_batch`] on a reference the batch found invalid.
    Invalid(crate::ParseError),
}

impl fmt::Display for RenderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RenderError::Missing(p) => write!(f, "no {p} (must:)"),
            RenderError::Undecodable(p) => {
                write!(
                    f,
                    "{p} decodes to bytes that are not UTF-8 text or hold NUL (strict:)"
                )
            }
            RenderError::Idna(p) => write!(f, "{p} is not a name IDNA can convert (puny:, idn:)"),
            RenderError::Invalid(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for RenderError {}

/// The parts trurl names, and the extensions' `userinfo` and `authority`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// `scheme`.
    Scheme,
    /// `user`: the user info up to its first `:`.
    User,
    /// `password`: the user info after its first `:`.
    Password,
    /// `options`: an IMAP notion RFC 3986 does not have (always absent).
    Options,
    /// `host`.
    Host,
    /// `port` (an empty port is absent).
    Port,
    /// `path` (an empty path is absent).
    Path,
    /// `query`.
    Query,
    /// `fragment`.
    Fragment,
    /// `zoneid`: RFC 6874's zone.
    ZoneId,
    /// `userinfo`.
    UserInfo,
    /// `authority`.
    Authority,
}

impl Part {
    const ALL: [Part; 12] = [
        Part::Scheme,
        Part::User,
        Part::Password,
        Part::Options,
        Part::Host,
        Part::Port,
        Part::Path,
        Part::Query,
        Part::Fragment,
        Part::ZoneId,
        Part::UserInfo,
        Part::Authority,
    ];

    /// The name in templates.
    pub fn name(self) -> &'static str {
        match self {
            Part::Scheme => "scheme",
            Part::User => "user",
            Part::Password => "password",
            Part::Options => "options",
            Part::Host => "host",
            Part::Port => "port",
            Part::Path => "path",
            Part::Query => "query",
            Part::Fragment => "fragment",
            Part::ZoneId => "zoneid",
            Part::UserInfo => "userinfo",
            Part::Authority => "authority",
        }
    }
}

impl Template {
    /// Parses a template.
    ///
    /// ```
    /// use urilex::template::Template;
    /// assert!(Template::parse("{host}:{port}").is_ok());
    /// let e = Template::parse("{hots}").unwrap_err();
    /// assert_eq!(e.to_string(), "unknown field `hots` at byte 1 of the template");
    /// assert!(Template::parse("{host} [port]").is_err()); // braces and brackets mixed
    /// ```
    pub fn parse(text: &str) -> Result<Template, TemplateError> {
        let b = text.as_bytes();
        let mut pieces = Vec::new();
        let mut lit = Vec::new();
        let mut open: Option<u8> = None;
        let mut i = 0;
        let err = |index: usize, message: String| TemplateError { index, message };
        while i < b.len() {
            match b[i] {
                b'\\' if i + 1 < b.len() => {
                    let c = match b[i + 1] {
                        b'\\' => b'\\',
                        b't' => b'\t',
                        b'n' => b'\n',
                        b'r' => b'\r',
                        b'{' => b'{',
                        b'[' => b'[',
                        _ => {
                            // Not an escape: the backslash is text.
                            lit.push(b'\\');
                            i += 1;
                            continue;
                        }
                    };
                    lit.push(c);
                    i += 2;
                }
                c @ (b'{' | b'[') if open.is_none_or(|o| o == c) => {
                    let close = if c == b'{' { b'}' } else { b']' };
                    let Some(len) = b[i + 1..].iter().position(|&x| x == close) else {
                        // No close: text, as trurl copies it.
                        lit.push(c);
                        i += 1;
                        continue;
                    };
                    open = Some(c);
                    let mut inner = &text[i + 1..i + 1 + len];
                    // A conditional separator before (`+?`) or after
                    // (`+@`) the field.
                    let sep = |s: &[u8]| s.len() == 2 && s[0] == b'+' && SEPARATORS.contains(&s[1]);
                    let before = (inner.len() > 2 && sep(&inner.as_bytes()[..2])).then(|| {
                        let s = inner.as_bytes()[1];
                        inner = &inner[2..];
                        s
                    });
                    let after = (inner.len() > 2 && sep(&inner.as_bytes()[inner.len() - 2..]))
                        .then(|| {
                            let s = inner.as_bytes()[inner.len() - 1];
                            inner = &inner[..inner.len() - 2];
                            s
                        });
                    let at = i + 1 + usize::from(before.is_some()) * 2;
                    let spec = parse_field(inner).map_err(|m| err(at, m))?;
                    if !lit.is_empty() {
                        pieces.push(Piece::Text(std::mem::take(&mut lit)));
                    }
                    if let Some(s) = before {
                        pieces.push(Piece::When(s, spec.clone()));
                    }
                    pieces.push(Piece::Field(spec.clone()));
                    if let Some(s) = after {
                        pieces.push(Piece::When(s, spec));
                    }
                    i += len + 2;
                }
                c @ (b'{' | b'[') => {
                    // The other kind: trurl does not mix them.
                    let close = if c == b'{' { b'}' } else { b']' };
                    if b[i + 1..].contains(&close) {
                        return Err(err(
                            i,
                            String::from("`{` and `[` fields mixed in one template"),
                        ));
                    }
                    lit.push(c);
                    i += 1;
                }
                c => {
                    lit.push(c);
                    i += 1;
                }
            }
        }
        if !lit.is_empty() {
            pieces.push(Piece::Text(lit));
        }
        Ok(Template::of(pieces))
    }

    fn of(pieces: Vec<Piece>) -> Template {
        Template {
            pieces,
            one_line: false,
            #[cfg(feature = "psl")]
            section: crate::domain::Section::All,
        }
    }

    /// Every field written as the reference has it (percent-encoded, not
    /// decoded), as the `url:` or `:` prefix does for one: trurl's
    /// `--urlencode`.
    ///
    /// ```
    /// use urilex::{template::Template, UriRef};
    /// let u = UriRef::parse("https://example.org/foo?a=1&b=%23&a=%26#hello").unwrap();
    /// let mut out = Vec::new();
    /// let t = Template::parse("{query:b} {query-all:a}").unwrap();
    /// t.render(&u, &mut out).unwrap();
    /// assert_eq!(out, b"# 1 &");
    /// out.clear();
    /// t.url_encoded(true).render(&u, &mut out).unwrap();
    /// assert_eq!(out, b"%23 1 %26");
    /// ```
    pub fn url_encoded(mut self, on: bool) -> Template {
        if on {
            for p in &mut self.pieces {
                if let Piece::Field(spec) | Piece::When(_, spec) = p {
                    spec.encoded = true;
                }
            }
        }
        self
    }

    /// Writes CR and LF that come out of a value as `%0D` and `%0A`
    /// (the template's own text is written as it is), so that each
    /// reference gives one line.
    ///
    /// ```
    /// use urilex::{template::Template, UriRef};
    /// let t = Template::parse("{path}\\n").unwrap().one_line(true);
    /// let mut out = Vec::new();
    /// t.render(&UriRef::parse("/a%0Ab").unwrap(), &mut out).unwrap();
    /// assert_eq!(out, b"/a%0Ab\n");
    /// ```
    pub fn one_line(mut self, on: bool) -> Template {
        self.one_line = on;
        self
    }

    /// Which rules of the Public Suffix List the `host:` fields use
    /// (default: all, the private domains' too).
    ///
    /// ```
    /// use urilex::{domain::Section, template::Template, UriRef};
    /// let u = UriRef::parse("https://me.github.io/").unwrap();
    /// let mut out = Vec::new();
    /// let t = Template::parse("{host:registrable} {host:suffix}").unwrap();
    /// t.render(&u, &mut out).unwrap();
    /// assert_eq!(out, b"me.github.io github.io");
    /// out.clear();
    /// t.section(Section::Icann).render(&u, &mut out).unwrap();
    /// assert_eq!(out, b"github.io io");
    /// ```
    #[cfg(feature = "psl")]
    pub fn section(mut self, section: crate::domain::Section) -> Template {
        self.section = section;
        self
    }

    /// Parses unfurl's `%` syntax: `%s` scheme, `%u` user info, `%d`
    /// domain (the host), `%P` port, `%p` path, `%e` the path's extension,
    /// `%q` query, `%f` fragment, `%a` authority, `%@` `%:` `%?` `%#` the
    /// separators when their part is there (`@` after the user info, `:`
    /// before the port, `?` before the query, `#` before the fragment),
    /// `%%` a percent sign, and with the Public Suffix List (feature `psl`)
    /// `%S` the subdomain, `%r` the root (the registrable domain's own
    /// label) and `%t` the public suffix. Values are written as in the
    /// reference (unfurl writes the raw query too); without the feature,
    /// `%S`, `%r` and `%t` are refused, with their offset.
    ///
    /// ```
    /// use urilex::{template::Template, UriRef};
    /// let t = Template::parse_percent("%s://%d%:%P%p%?%q %e").unwrap();
    /// let mut out = Vec::new();
    /// t.render(&UriRef::parse("https://a.example/x/y.html?k=v").unwrap(), &mut out).unwrap();
    /// assert_eq!(out, b"https://a.example/x/y.html?k=v html");
    /// ```
    pub fn parse_percent(text: &str) -> Result<Template, TemplateError> {
        let raw = |field: Field| Spec {
            field,
            encoded: true,
            strict: false,
            must: false,
            default_port: false,
            idna: None,
        };
        let part = |p: Part| raw(Field::Part(p));
        let b = text.as_bytes();
        let mut pieces = Vec::new();
        let mut lit = Vec::new();
        let mut i = 0;
        while i < b.len() {
            if b[i] != b'%' || i + 1 == b.len() {
                lit.push(b[i]);
                i += 1;
                continue;
            }
            let piece = match b[i + 1] {
                b'%' => {
                    lit.push(b'%');
                    i += 2;
                    continue;
                }
                b's' => Piece::Field(part(Part::Scheme)),
                b'u' => Piece::Field(part(Part::UserInfo)),
                b'd' => Piece::Field(part(Part::Host)),
                b'P' => Piece::Field(part(Part::Port)),
                b'p' => Piece::Field(part(Part::Path)),
                b'e' => Piece::Field(raw(Field::Extension)),
                b'q' => Piece::Field(part(Part::Query)),
                b'f' => Piece::Field(part(Part::Fragment)),
                b'a' => Piece::Field(part(Part::Authority)),
                b'@' => Piece::When(b'@', part(Part::UserInfo)),
                b':' => Piece::When(b':', part(Part::Port)),
                b'?' => Piece::When(b'?', part(Part::Query)),
                b'#' => Piece::When(b'#', part(Part::Fragment)),
                #[cfg(feature = "psl")]
                b'S' => Piece::Field(raw(Field::Domain(DomainPart::Sub))),
                #[cfg(feature = "psl")]
                b'r' => Piece::Field(raw(Field::Domain(DomainPart::Root))),
                #[cfg(feature = "psl")]
                b't' => Piece::Field(raw(Field::Domain(DomainPart::Suffix))),
                #[cfg(not(feature = "psl"))]
                c @ (b'S' | b'r' | b't') => {
                    return Err(TemplateError {
                        index: i,
                        message: format!(
                            "`%{}` needs the Public Suffix List: urilex's feature `psl`",
                            c as char
                        ),
                    })
                }
                c => {
                    return Err(TemplateError {
                        index: i,
                        message: format!("unknown directive `%{}`", c as char),
                    })
                }
            };
            if !lit.is_empty() {
                pieces.push(Piece::Text(std::mem::take(&mut lit)));
            }
            pieces.push(piece);
            i += 2;
        }
        if !lit.is_empty() {
            pieces.push(Piece::Text(lit));
        }
        Ok(Template::of(pieces))
    }

    /// Writes `u` with the template into `out` (appended to).
    ///
    /// A value is written into `out` as it is made: nothing is allocated
    /// but what `out` grows by, except for the `puny:` and `idn:`
    /// conversions. On an error, `out` holds what was written before it.
    pub fn render(&self, u: &UriRef<'_>, out: &mut Vec<u8>) -> Result<(), RenderError> {
        for p in &self.pieces {
            match p {
                Piece::Text(t) => out.extend_from_slice(t),
                Piece::Field(spec) => self.value(spec, spec.must, spec.strict, u, out)?,
                Piece::When(sep, spec) => {
                    if self.present(spec, u, out) {
                        out.push(*sep);
                    }
                }
            }
        }
        Ok(())
    }

    /// Whether [`render_batch`](Self::render_batch) can write this
    /// template: its fields are the reference, its components, `user`,
    /// `password` and the `host:` fields, with no prefix but `url:`/`:`
    /// and `must:` (what a batch's record holds, without the reference's
    /// other parts).
    pub fn entry_ready(&self) -> bool {
        self.pieces.iter().all(|p| match p {
            Piece::Text(_) => true,
            Piece::Field(s) | Piece::When(_, s) => {
                !s.strict
                    && !s.default_port
                    && s.idna.is_none()
                    && match s.field {
                        Field::Url | Field::Domain(_) => true,
                        Field::Part(p) => !matches!(p, Part::Options | Part::ZoneId),
                        _ => false,
                    }
            }
        })
    }

    /// Writes valid reference `i` of `batch` (parsed from `buf`) with the
    /// template, read from its record instead of a [`UriRef`]: the same
    /// output as [`render`](Self::render), for a template that is
    /// [`entry_ready`](Self::entry_ready) (any other field writes
    /// nothing). An invalid reference is [`RenderError::Invalid`], with
    /// its error.
    ///
    /// ```
    /// use urilex::{template::Template, Batch, Parser};
    /// let buf = b"https://me@example.com:8/a%20b?q#f\n";
    /// let mut batch = Batch::new();
    /// batch.parse_lines(&Parser::new(), buf);
    /// let t = Template::parse("{user}|{host}{+:port}|{path}|{:path}{+?query}").unwrap();
    /// assert!(t.entry_ready());
    /// let mut out = Vec::new();
    /// t.render_batch(&batch, 0, buf, &mut out).unwrap();
    /// assert_eq!(out, b"me|example.com:8|/a b|/a%20b?q");
    /// ```
    pub fn render_batch(
        &self,
        batch: &crate::Batch,
        i: usize,
        buf: &[u8],
        out: &mut Vec<u8>,
    ) -> Result<(), RenderError> {
        let e = batch.entry(i);
        if !e.is_valid() {
            return Err(match batch.parse_error(i) {
                Some(p) => RenderError::Invalid(p),
                None => RenderError::Missing(String::from("reference")),
            });
        }
        // Spans are relative to the line's start; only `url` needs its end.
        let line = &buf[e.line_start().min(buf.len())..];
        let whole = || batch.line(i, buf);
        let span = |spec: &Spec| -> Option<core::ops::Range<usize>> {
            let p = match spec.field {
                Field::Url => return Some(0..whole().len()),
                Field::Part(p) => p,
                _ => return None,
            };
            let c = match p {
                Part::Scheme => Component::Scheme,
                Part::Host => Component::Host,
                Part::Port => Component::Port,
                Part::Path => Component::Path,
                Part::Query => Component::Query,
                Part::Fragment => Component::Fragment,
                Part::UserInfo | Part::User | Part::Password => Component::Userinfo,
                Part::Authority => Component::Authority,
                Part::Options | Part::ZoneId => return None,
            };
            let r = e.span(c)?;
            match p {
                Part::Port | Part::Path if r.is_empty() => None,
                Part::User => {
                    let colon = line[r.clone()].iter().position(|&b| b == b':');
                    Some(r.start..colon.map_or(r.end, |k| r.start + k))
                }
                Part::Password => {
                    let colon = line[r.clone()].iter().position(|&b| b == b':')?;
                    Some(r.start + colon + 1..r.end)
                }
                _ => Some(r),
            }
        };
        // A `host:` field, written at the end of `out`; whether there was one.
        let domain = |d: DomainPart, spec: &Spec, out: &mut Vec<u8>| -> bool {
            let host = e.span(Component::Host).map(|r| &line[r]);
            if d != DomainPart::NoWww {
                return self.domain_part(d, host, e.host_kind(), out);
            }
            match host.filter(|_| e.host_kind() == Some(crate::HostKind::RegName)) {
                Some(h) => {
                    let h = without_www(h);
                    let how = if spec.encoded {
                        Decode::None
                    } else {
                        Decode::Percent
                    };
                    let mark = out.len();
                    crate::query::decode_bytes_into(h, how, out);
                    if self.one_line {
                        self.one_line_from(mark, out);
                    }
                    true
                }
                None => false,
            }
        };
        for p in &self.pieces {
            match p {
                Piece::Text(t) => out.extend_from_slice(t),
                Piece::When(sep, spec) => {
                    let there = match spec.field {
                        Field::Domain(d) => {
                            let mark = out.len();
                            let there = domain(d, spec, out);
                            out.truncate(mark);
                            there
                        }
                        _ => span(spec).is_some(),
                    };
                    if there {
                        out.push(*sep);
                    }
                }
                Piece::Field(
                    spec @ Spec {
                        field: Field::Domain(d),
                        ..
                    },
                ) => {
                    if !domain(*d, spec, out) && spec.must {
                        return Err(RenderError::Missing(field_name(&spec.field)));
                    }
                }
                Piece::Field(spec) => match span(spec) {
                    Some(r) => {
                        let v = &line[r];
                        let escaped = has_pct(v);
                        // `url` is the reference as written.
                        if spec.encoded || !escaped || spec.field == Field::Url {
                            // A valid reference holds no CR or LF.
                            out.extend_from_slice(v);
                        } else {
                            let mark = out.len();
                            crate::query::decode_bytes_into(v, Decode::Percent, out);
                            if self.one_line {
                                self.one_line_from(mark, out);
                            }
                        }
                    }
                    None if spec.must => return Err(RenderError::Missing(field_name(&spec.field))),
                    None => {}
                },
            }
        }
        Ok(())
    }

    /// Writes the CR and LF of `out[mark..]` as `%0D` and `%0A`.
    fn one_line_from(&self, mark: usize, out: &mut Vec<u8>) {
        if memchr::memchr2(b'\n', b'\r', &out[mark..]).is_some() {
            let tail = out.split_off(mark);
            for b in tail {
                match b {
                    b'\n' => out.extend_from_slice(b"%0A"),
                    b'\r' => out.extend_from_slice(b"%0D"),
                    _ => out.push(b),
                }
            }
        }
    }

    /// Whether the field has a value for `u` (what a conditional separator
    /// asks): it is written at the end of `out`, then taken back.
    fn present(&self, spec: &Spec, u: &UriRef<'_>, out: &mut Vec<u8>) -> bool {
        if let Field::Part(p) = &spec.field {
            return part(u, *p, spec.default_port).is_some();
        }
        let mark = out.len();
        let ok = self.value(spec, true, false, u, out).is_ok();
        out.truncate(mark);
        ok
    }
}

fn parse_field(inner: &str) -> Result<Spec, String> {
    let mut spec = Spec {
        field: Field::Url,
        encoded: false,
        strict: false,
        must: false,
        default_port: false,
        idna: None,
    };
    let mut rest = inner;
    loop {
        if let Some(r) = rest.strip_prefix("url:") {
            spec.encoded = true;
            rest = r;
        } else if let Some(r) = rest.strip_prefix("strict:") {
            spec.strict = true;
            rest = r;
        } else if let Some(r) = rest.strip_prefix("must:") {
            spec.must = true;
            rest = r;
        } else if let Some(r) = rest.strip_prefix("default:") {
            spec.default_port = true;
            rest = r;
        } else if let Some((how, r)) = rest
            .strip_prefix("puny:")
            .map(|r| (Idna::Puny, r))
            .or_else(|| rest.strip_prefix("idn:").map(|r| (Idna::Idn, r)))
        {
            if !cfg!(feature = "idna") {
                return Err(String::from(
                    "`puny:` and `idn:` need IDNA: urilex's feature `idna`",
                ));
            }
            spec.idna = Some(how);
            rest = r;
        } else if let Some(r) = rest.strip_prefix(':') {
            spec.encoded = true;
            rest = r;
        } else {
            break;
        }
    }
    spec.field = if rest == "url" {
        Field::Url
    } else if let Some(k) = rest.strip_prefix("query:") {
        Field::QueryKey(k.to_string())
    } else if let Some(k) = rest.strip_prefix("query-all:") {
        Field::QueryAll(k.to_string())
    } else if rest == "path:ext" {
        Field::Extension
    } else if let Some(n) = rest.strip_prefix("path:") {
        match n.parse::<i32>() {
            Ok(n) if n != 0 => Field::Segment(n),
            _ => {
                return Err(format!(
                    "`path:{n}`: a segment number (1, 2, ..., or -1, -2, ...) or `ext`"
                ))
            }
        }
    } else if let Some(h) = rest.strip_prefix("host:") {
        let part = match h {
            "registrable" => DomainPart::Registrable,
            "suffix" => DomainPart::Suffix,
            "sub" => DomainPart::Sub,
            "root" => DomainPart::Root,
            "nowww" => DomainPart::NoWww,
            _ => {
                return Err(format!(
                    "`host:{h}`: one of registrable, suffix, sub, root, nowww"
                ))
            }
        };
        if part != DomainPart::NoWww && !cfg!(feature = "psl") {
            return Err(format!(
                "`host:{h}` needs the Public Suffix List: urilex's feature `psl`"
            ));
        }
        Field::Domain(part)
    } else if let Some(w) = rest.strip_prefix("whatwg:") {
        let Some(&(part, _)) = WhatwgPart::ALL.iter().find(|(_, n)| *n == w) else {
            return Err(format!(
                "`whatwg:{w}`: one of scheme, host, port, path, href"
            ));
        };
        if !cfg!(feature = "whatwg") {
            return Err(format!(
                "`whatwg:{w}` needs the WHATWG URL parser: urilex's feature `whatwg`"
            ));
        }
        Field::Whatwg(part)
    } else if let Some(&p) = Part::ALL.iter().find(|p| p.name() == rest) {
        Field::Part(p)
    } else {
        return Err(format!("unknown field `{rest}`"));
    };
    Ok(spec)
}

/// Writes getter `p` of the URL Standard's reading of `u` (no base):
/// `false`, nothing written, when the Standard rejects it or the value is
/// empty (no host, no port).
#[cfg(feature = "whatwg")]
fn whatwg_value(p: WhatwgPart, u: &UriRef<'_>, out: &mut Vec<u8>) -> bool {
    let d = crate::whatwg::Differential::of(u.as_str().as_bytes(), Some(u), None);
    let Some(r) = d.reading else {
        return false;
    };
    let v = match p {
        WhatwgPart::Scheme => r.scheme(),
        WhatwgPart::Host => r.host(),
        WhatwgPart::Port => r.port(),
        WhatwgPart::Path => r.path(),
        WhatwgPart::Href => r.href(),
    };
    out.extend_from_slice(v.as_bytes());
    !v.is_empty()
}

#[cfg(not(feature = "whatwg"))]
fn whatwg_value(_: WhatwgPart, _: &UriRef<'_>, _: &mut Vec<u8>) -> bool {
    false
}

fn field_name(field: &Field) -> String {
    match field {
        Field::Url => String::from("url"),
        Field::Part(p) => p.name().to_string(),
        Field::QueryKey(k) => format!("query:{k}"),
        Field::QueryAll(k) => format!("query-all:{k}"),
        Field::Segment(n) => format!("path:{n}"),
        Field::Extension => String::from("path:ext"),
        Field::Whatwg(p) => format!("whatwg:{}", p.name()),
        Field::Domain(d) => String::from(match d {
            DomainPart::Registrable => "host:registrable",
            DomainPart::Suffix => "host:suffix",
            DomainPart::Sub => "host:sub",
            DomainPart::Root => "host:root",
            DomainPart::NoWww => "host:nowww",
        }),
    }
}

impl Template {
    /// Writes one field's value at the end of `out` (`must` and `strict`
    /// as the caller asks: a conditional separator's probe sets `must`
    /// alone). On an error, what the field wrote is taken back.
    fn value(
        &self,
        spec: &Spec,
        must: bool,
        strict: bool,
        u: &UriRef<'_>,
        out: &mut Vec<u8>,
    ) -> Result<(), RenderError> {
        let mark = out.len();
        let r = self.write_value(spec, must, u, out).and_then(|()| {
            if self.one_line {
                self.one_line_from(mark, out);
            }
            let v = &out[mark..];
            if strict && (v.contains(&0) || std::str::from_utf8(v).is_err()) {
                Err(RenderError::Undecodable(field_name(&spec.field)))
            } else {
                Ok(())
            }
        });
        if r.is_err() {
            out.truncate(mark);
        }
        r
    }

    fn write_value(
        &self,
        spec: &Spec,
        must: bool,
        u: &UriRef<'_>,
        out: &mut Vec<u8>,
    ) -> Result<(), RenderError> {
        let missing = || {
            if must {
                Err(RenderError::Missing(field_name(&spec.field)))
            } else {
                Ok(())
            }
        };
        let how = if spec.encoded {
            Decode::None
        } else {
            Decode::Percent
        };
        let mark = out.len();
        match &spec.field {
            Field::Url => match (spec.idna, u.span(Component::Host)) {
                (Some(_), Some(h)) if u.host_kind() == Some(crate::HostKind::RegName) => {
                    let text = u.as_str();
                    out.extend_from_slice(&text.as_bytes()[..h.start]);
                    let at = out.len();
                    decode_into(&text[h.clone()], Decode::Percent, out);
                    idna(spec, at, out)?;
                    out.extend_from_slice(&text.as_bytes()[h.end..]);
                    Ok(())
                }
                _ => {
                    out.extend_from_slice(u.as_str().as_bytes());
                    Ok(())
                }
            },
            Field::Part(p) => match part(u, *p, spec.default_port) {
                Some(v) => {
                    decode_into(&v, how, out);
                    if *p == Part::Host && u.host_kind() == Some(crate::HostKind::RegName) {
                        idna(spec, mark, out)?;
                    }
                    Ok(())
                }
                None => missing(),
            },
            Field::QueryKey(k) => {
                let q = u.query().unwrap_or("");
                match params(q).named(k, Decode::Percent).next() {
                    Some(p) => {
                        decode_into(p.value.unwrap_or(""), how, out);
                        Ok(())
                    }
                    None => missing(),
                }
            }
            Field::QueryAll(k) => {
                let q = u.query().unwrap_or("");
                let mut any = false;
                for p in params(q).named(k, Decode::Percent) {
                    if any {
                        out.push(b' ');
                    }
                    any = true;
                    decode_into(p.value.unwrap_or(""), how, out);
                }
                if any {
                    Ok(())
                } else {
                    missing()
                }
            }
            Field::Segment(n) => match path_segment(u.path(), *n) {
                Some(v) => {
                    decode_into(v, how, out);
                    Ok(())
                }
                None => missing(),
            },
            Field::Extension => {
                let last = u.path().rsplit('/').next().unwrap_or("");
                match last.rfind('.') {
                    Some(k) => {
                        decode_into(&last[k + 1..], how, out);
                        Ok(())
                    }
                    None => missing(),
                }
            }
            Field::Domain(DomainPart::NoWww) => {
                match u
                    .host_str()
                    .filter(|_| u.host_kind() == Some(crate::HostKind::RegName))
                {
                    Some(h) => {
                        let h = without_www(h.as_bytes());
                        // Cut at an ASCII byte: still text.
                        decode_into(core::str::from_utf8(h).unwrap_or_default(), how, out);
                        idna(spec, mark, out)
                    }
                    None => missing(),
                }
            }
            Field::Domain(d) => {
                let host = u.host_str().map(str::as_bytes);
                if self.domain_part(*d, host, u.host_kind(), out) {
                    idna(spec, mark, out)
                } else {
                    missing()
                }
            }
            Field::Whatwg(p) => {
                if whatwg_value(*p, u, out) {
                    Ok(())
                } else {
                    missing()
                }
            }
        }
    }

    /// Writes a part of the name of a host (its text as written and its
    /// kind) by the Public Suffix List: the name looked up is written at
    /// the end of `out`, and the part moved to where it starts. `false`
    /// (nothing written) when there is none.
    #[cfg(feature = "psl")]
    fn domain_part(
        &self,
        d: DomainPart,
        host: Option<&[u8]>,
        kind: Option<crate::HostKind>,
        out: &mut Vec<u8>,
    ) -> bool {
        use crate::domain;
        let mark = out.len();
        let found = (|| {
            if kind? != crate::HostKind::RegName {
                return None;
            }
            if !domain::push_lookup_name_bytes(host?, out) {
                return None;
            }
            let name = &out[mark..];
            let dom = domain::of_name(name, self.section)?;
            let range = |part: &[u8]| {
                let start = part.as_ptr() as usize - name.as_ptr() as usize;
                start..start + part.len()
            };
            Some(match d {
                DomainPart::Registrable => range(dom.registrable()?),
                DomainPart::Suffix => range(dom.suffix()),
                DomainPart::Sub => range(dom.sub()?),
                DomainPart::Root => range(dom.root()?),
                DomainPart::NoWww => return None,
            })
        })();
        match found {
            Some(r) => {
                out.copy_within(mark + r.start..mark + r.end, mark);
                out.truncate(mark + r.len());
                true
            }
            None => {
                out.truncate(mark);
                false
            }
        }
    }

    #[cfg(not(feature = "psl"))]
    fn domain_part(
        &self,
        _: DomainPart,
        _: Option<&[u8]>,
        _: Option<crate::HostKind>,
        _: &mut Vec<u8>,
    ) -> bool {
        false
    }
}

/// Whether `v` holds a `%`: eight bytes at a time (values are short, so
/// a call to a search routine costs more than the search).
#[inline]
fn has_pct(v: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let word_has = |w: u64| {
        let x = w ^ (ONES * b'%' as u64);
        (x.wrapping_sub(ONES) & !x & HIGHS) != 0
    };
    let mut words = v.chunks_exact(8);
    for w in &mut words {
        if word_has(u64::from_le_bytes(w.try_into().expect("8 bytes"))) {
            return true;
        }
    }
    let rest = words.remainder();
    let mut last = [0u8; 8];
    last[..rest.len()].copy_from_slice(rest);
    word_has(u64::from_le_bytes(last))
}

/// Converts the host name written at `out[at..]` as `puny:` or `idn:` asks
/// (nothing without either).
#[cfg(feature = "idna")]
fn idna(spec: &Spec, at: usize, out: &mut Vec<u8>) -> Result<(), RenderError> {
    let Some(how) = spec.idna else {
        return Ok(());
    };
    let fail = || RenderError::Idna(field_name(&spec.field));
    let name = std::str::from_utf8(&out[at..]).map_err(|_| fail())?;
    let converted = match how {
        Idna::Puny => ::idna::domain_to_ascii(name).map_err(|_| fail())?,
        Idna::Idn => {
            let (s, r) = ::idna::domain_to_unicode(name);
            r.map_err(|_| fail())?;
            s
        }
    };
    out.truncate(at);
    out.extend_from_slice(converted.as_bytes());
    Ok(())
}

#[cfg(not(feature = "idna"))]
fn idna(_: &Spec, _: usize, _: &mut Vec<u8>) -> Result<(), RenderError> {
    Ok(())
}

/// A part's text as written: trurl's names, and the extensions' (a
/// slice of the reference; only a default port is made).
fn part<'a>(u: &UriRef<'a>, name: Part, default_port: bool) -> Option<Cow<'a, str>> {
    let text = match name {
        Part::Scheme => u.scheme(),
        Part::UserInfo => u.userinfo(),
        Part::User => u
            .userinfo()
            .map(|i| i.split_once(':').map_or(i, |(a, _)| a)),
        Part::Password => u.userinfo().and_then(|i| i.split_once(':')).map(|(_, p)| p),
        Part::Options => None,
        Part::Host => u.host_str(),
        Part::Authority => u.authority(),
        Part::Port => match u.port().filter(|p| !p.is_empty()) {
            Some(p) => Some(p),
            None if default_port => {
                return u
                    .scheme()
                    .and_then(crate::default_port)
                    .map(|p| Cow::Owned(p.to_string()))
            }
            None => None,
        },
        // An empty path is absent, as trurl's "nothing".
        Part::Path => u.component(Component::Path).filter(|p| !p.is_empty()),
        Part::Query => u.query(),
        Part::Fragment => u.fragment(),
        Part::ZoneId => u.part("zone"),
    };
    text.map(Cow::Borrowed)
}

/// `host` without a leading `www.` (any case): `host:nowww`, as
/// ClickHouse's `domainWithoutWWW`.
fn without_www(host: &[u8]) -> &[u8] {
    match host.get(..4) {
        Some(w) if w.eq_ignore_ascii_case(b"www.") => &host[4..],
        _ => host,
    }
}

/// Segment `n` of `path` as written (not decoded), as the `path:N` field
/// counts them: 1 is the first after the leading `/`, -1 the last; `None`
/// past either end, for 0, and for an empty path.
///
/// ```
/// use urilex::template::path_segment;
/// assert_eq!(path_segment("/a/b%20c/d", 2), Some("b%20c"));
/// assert_eq!(path_segment("/a/b/", -1), Some(""));
/// assert_eq!(path_segment("a/b", -2), Some("a"));
/// assert_eq!(path_segment("/a", 2), None);
/// ```
pub fn path_segment(path: &str, n: i32) -> Option<&str> {
    if n == 0 {
        return None;
    }
    let body = path.strip_prefix('/').unwrap_or(path);
    if body.is_empty() {
        return None;
    }
    let count = body.split('/').count() as i32;
    let k = if n > 0 { n - 1 } else { count + n };
    if k < 0 {
        return None;
    }
    body.split('/').nth(k as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn get(t: &str, u: &str) -> Result<String, String> {
        let t = Template::parse(t).map_err(|e| e.to_string())?;
        let u = crate::UriRef::parse(u).map_err(|e| e.to_string())?;
        let mut out = Vec::new();
        t.render(&u, &mut out).map_err(|e| e.to_string())?;
        Ok(String::from_utf8_lossy(&out).into_owned())
    }

    /// RFC 3986 section 3's example and 1.1.2's, field by field.
    #[test]
    fn components() {
        let u = "foo://example.com:8042/over/there?name=ferret#nose";
        assert_eq!(
            get("{scheme}|{host}|{port}|{path}|{query}|{fragment}", u).unwrap(),
            "foo|example.com|8042|/over/there|name=ferret|nose"
        );
        assert_eq!(
            get("[scheme]|[host]|[port]", u).unwrap(),
            "foo|example.com|8042"
        );
        assert_eq!(get("{url}", u).unwrap(), u);
        assert_eq!(
            get("{authority} {query:name} {path:1} {path:-1} {path:3}", u).unwrap(),
            "example.com:8042 ferret over there "
        );
        let u = "ftp://me:secret@ftp.is.co.za/rfc/rfc1808.txt";
        assert_eq!(
            get("{user} {password} {userinfo} {path:ext} {options}", u).unwrap(),
            "me secret me:secret txt "
        );
        assert_eq!(get("{default:port} {port}", u).unwrap(), "21 ");
        assert_eq!(get("{default:port}", "foo://h/").unwrap(), "");
        // Absent and empty: a URN has no host; "http://a" has an empty path.
        assert_eq!(
            get("<{host}><{path}>", "urn:oasis:names").unwrap(),
            "<><oasis:names>"
        );
        assert_eq!(get("<{path}>", "http://a").unwrap(), "<>");
        assert_eq!(
            get("{must:host}", "urn:a:b").unwrap_err(),
            "no host (must:)"
        );
        // An IPv6 host keeps its brackets, as trurl prints it; no zone
        // under RFC 3986.
        assert_eq!(
            get("{host} {port} <{zoneid}>", "http://[::1]:8/").unwrap(),
            "[::1] 8 <>"
        );
    }

    #[test]
    fn decoding_and_prefixes() {
        let u = "http://h/a%20b?k=%C3%A9&k=2&z=%00&bad=%FF";
        assert_eq!(
            get("{path} {:path} {url:path}", u).unwrap(),
            "/a b /a%20b /a%20b"
        );
        assert_eq!(
            get("{query:k} {query-all:k} {query:none}|", u).unwrap(),
            "é é 2 |"
        );
        assert_eq!(get("{strict:query:k}", u).unwrap(), "é");
        assert!(get("{strict:query:z}", u).unwrap_err().contains("strict:"));
        assert!(get("{strict:query:bad}", u)
            .unwrap_err()
            .contains("strict:"));
        assert_eq!(get("{:query:bad}", u).unwrap(), "%FF");
        #[cfg(not(feature = "idna"))]
        assert!(Template::parse("{puny:host}")
            .unwrap_err()
            .to_string()
            .contains("IDNA"));
        // A failed `strict:` field takes back what it wrote.
        let t = Template::parse("a{strict:query:bad}").unwrap();
        let mut out = Vec::new();
        let r = t.render(&crate::UriRef::parse(u).unwrap(), &mut out);
        assert!(r.is_err());
        assert_eq!(out, b"a");
    }

    /// The Public Suffix List fields (the list's own rules in
    /// `domain::tests`); `host:nowww` needs no list.
    #[test]
    fn host_names() {
        let u = "http://WWW.Example.co.uk:8/";
        assert_eq!(
            get("{host:nowww}|{:host:nowww}", u).unwrap(),
            "Example.co.uk|Example.co.uk"
        );
        assert_eq!(
            get("{host:nowww}", "http://www2.example/").unwrap(),
            "www2.example"
        );
        assert_eq!(get("<{host:nowww}>", "http://[::1]/").unwrap(), "<>");
        #[cfg(not(feature = "psl"))]
        assert!(Template::parse("{host:registrable}").is_err());
        #[cfg(feature = "psl")]
        {
            assert_eq!(
                get("{host:registrable}|{host:suffix}|{host:sub}|{host:root}", u).unwrap(),
                "example.co.uk|co.uk|www|example"
            );
            assert_eq!(
                get(
                    "{host:registrable}|{host:suffix}|{host:sub}|",
                    "http://a.b.GitHub.io./"
                )
                .unwrap(),
                "b.github.io|github.io|a|"
            );
            // No list answer: IP literals, unknown suffixes, a bare suffix's
            // registrable domain; `must:` makes it an error.
            assert_eq!(
                get("<{host:registrable}>", "http://192.0.2.1/").unwrap(),
                "<>"
            );
            assert_eq!(
                get("<{host:suffix}>", "http://intranet.corp/").unwrap(),
                "<>"
            );
            assert_eq!(
                get("<{host:registrable}>{host:suffix}", "http://co.uk/").unwrap(),
                "<>co.uk"
            );
            assert!(get("{must:host:registrable}", "http://co.uk/").is_err());
            assert_eq!(
                get("{+.host:sub}", "http://example.com/").unwrap_err(),
                "unknown field `+.host:sub` at byte 1 of the template"
            );
            assert_eq!(
                get("{host:sub+@}x", "http://a.example.com/").unwrap(),
                "a@x"
            );
            assert_eq!(get("{host:sub+@}x", "http://example.com/").unwrap(), "x");
            assert!(Template::parse("{host:tld}").is_err());
        }
    }

    #[test]
    fn percent_search() {
        for n in 0..40 {
            for at in 0..n {
                let mut v = vec![b'a'; n];
                assert!(!has_pct(&v));
                v[at] = b'%';
                assert!(has_pct(&v), "{n} {at}");
                // Bytes either side of `%` (0x25) do not count.
                v[at] = 0x24;
                assert!(!has_pct(&v));
                v[at] = 0xa5;
                assert!(!has_pct(&v));
            }
        }
    }

    /// UTS 46 (non-transitional): `ß` stays, upper case folds.
    #[cfg(feature = "idna")]
    #[test]
    fn puny_and_idn() {
        let u = "https://B%C3%BCcher.example/x?y";
        assert_eq!(get("{puny:host}", u).unwrap(), "xn--bcher-kva.example");
        assert_eq!(
            get("{puny:url}", u).unwrap(),
            "https://xn--bcher-kva.example/x?y"
        );
        assert_eq!(
            get("{idn:host}", "http://xn--bcher-kva.example/").unwrap(),
            "bücher.example"
        );
        assert_eq!(
            get("{puny:host}", "http://fa%C3%9F.de/").unwrap(),
            "xn--fa-hia.de"
        );
        // IP literals are left as they are.
        assert_eq!(get("{puny:host}", "http://[::1]/").unwrap(), "[::1]");
        assert_eq!(
            get("{puny:host}", "http://192.0.2.1/").unwrap(),
            "192.0.2.1"
        );
        // Not a name IDNA converts: an error naming the field.
        assert!(get("{puny:host}", "http://%FF.example/")
            .unwrap_err()
            .contains("IDNA"));
        assert!(get("{idn:host}", "http://xn--a.example/")
            .unwrap_err()
            .contains("IDNA"));
        #[cfg(feature = "psl")]
        assert_eq!(
            get(
                "{idn:host:registrable}",
                "http://www.xn--85x722f.xn--55qx5d.cn/"
            )
            .unwrap(),
            "食狮.公司.cn"
        );
    }

    /// `zoneid` is RFC 6874's zone part, decoded.
    #[cfg(feature = "rfc6874")]
    #[test]
    fn zone_id() {
        let p = crate::Parser::new().profile(crate::Profile::Rfc6874);
        let u = p.parse("http://[fe80::1%25en%2541]:80/").unwrap();
        let mut out = Vec::new();
        Template::parse("{zoneid} {:zoneid} {host}")
            .unwrap()
            .render(&u, &mut out)
            .unwrap();
        assert_eq!(out, b"en%41 en%2541 [fe80::1%en%41]");
    }

    #[test]
    fn conditional_separators() {
        let t = "{scheme}://{userinfo+@}{host}{+:port}{path}{+?query}{+#fragment}";
        for u in [
            "http://h",
            "http://u:p@h:81/a?q#f",
            "http://h:/a?",
            "http://@h#",
            "ftp://h/x?a=1",
        ] {
            // Present parts (empty ones too) get their separator: the
            // reference comes back whole.
            assert_eq!(get(t, u).unwrap(), u.replace("h:/", "h/"), "{u}");
        }
        assert_eq!(
            get("{+/path:2}|{+&query:b}", "http://h/a/b?b=1").unwrap(),
            "/b|&1"
        );
        assert_eq!(
            get("{+/path:3}|{+&query:c}", "http://h/a/b?b=1").unwrap(),
            "|"
        );
        // unfurl's syntax.
        let pct = |t: &str, u: &str| {
            let mut out = Vec::new();
            let t = Template::parse_percent(t).map_err(|e| e.to_string())?;
            t.render(&crate::UriRef::parse(u).unwrap(), &mut out)
                .map_err(|e| e.to_string())?;
            Ok::<_, String>(String::from_utf8(out).unwrap())
        };
        let u = "https://me:pw@sub.example.com:8080/users/a%20b.jpg?a=1&b=2#sec";
        assert_eq!(pct("%s|%u|%d|%P|%p|%e|%q|%f|%a|100%%", u).unwrap(), "https|me:pw|sub.example.com|8080|/users/a%20b.jpg|jpg|a=1&b=2|sec|me:pw@sub.example.com:8080|100%");
        assert_eq!(pct("%s://%u%@%d%:%P%p%?%q%#%f", u).unwrap(), u);
        assert_eq!(
            pct("%s://%u%@%d%:%P%p%?%q%#%f", "http://h/").unwrap(),
            "http://h/"
        );
        #[cfg(not(feature = "psl"))]
        assert!(pct("%r", u).unwrap_err().contains("Public Suffix List"));
        #[cfg(feature = "psl")]
        assert_eq!(pct("%S|%r|%t", u).unwrap(), "sub|example|com");
        assert!(pct("%z", u).unwrap_err().contains("unknown directive"));
        assert_eq!(pct("50%", u).unwrap(), "50%");
    }

    #[test]
    fn escapes_and_text() {
        let u = "http://h/p";
        assert_eq!(
            get("a\\tb\\n\\\\\\{host} \\[x] \\q", u).unwrap(),
            "a\tb\n\\{host} [x] \\q"
        );
        assert_eq!(get("{ no close", u).unwrap(), "{ no close");
        assert_eq!(get("", u).unwrap(), "");
        assert!(Template::parse("{host} [path]").is_err());
        assert_eq!(Template::parse("{path:0}").unwrap_err().index, 1);
        assert!(Template::parse("{hots}").is_err());
    }
}
