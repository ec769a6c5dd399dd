//! URI references: the borrowed [`UriRef`], the owned [`UriRefBuf`], and the
//! [`Parser`] that makes them under a [`Profile`] and a [`Syntax`].
//!
//! A parsed reference is its input plus `u32` offsets: component `c` spans
//! `input[start..end]`, or is absent. Absent and empty stay apart: `http://a?`
//! has an empty query, `http://a` has none.

use super::diagnose;
use crate::engine::bits::{fast_single_into, MAX_LINE};
use crate::engine::FastValid;
use crate::engine::ProfileTables;
use crate::engine::{self as parse, Spans};
use crate::uri::error::ParseError;
use crate::uri::host::Host;
use crate::Profile;
use core::fmt;
use core::str::FromStr;

pub use crate::engine::{Component, HostKind, PartInfo, Syntax};

impl fmt::Display for Component {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Parsing options: the grammar profile and the rule to match.
///
/// ```
/// use urilex::{Parser, Profile, Syntax};
/// let p = Parser::new().profile(Profile::Rfc3986).syntax(Syntax::AbsoluteUri);
/// assert!(p.parse("http://a/b?q").is_ok());
/// assert!(p.parse("http://a/b#f").is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Parser {
    profile: Profile,
    syntax: Syntax,
}

impl Parser {
    /// RFC 3986 `URI-reference`.
    pub const fn new() -> Parser {
        Parser {
            profile: Profile::Rfc3986,
            syntax: Syntax::Reference,
        }
    }
    /// Uses the grammar of `profile`.
    pub const fn profile(self, profile: Profile) -> Parser {
        Parser { profile, ..self }
    }
    /// Matches the input against `syntax`.
    pub const fn syntax(self, syntax: Syntax) -> Parser {
        Parser { syntax, ..self }
    }
    /// The profile in use.
    pub const fn get_profile(&self) -> Profile {
        self.profile
    }
    /// The syntax (entry point) in use.
    pub const fn get_syntax(&self) -> Syntax {
        self.syntax
    }

    /// Parses a string.
    #[inline(always)]
    pub fn parse<'a>(&self, input: &'a str) -> Result<UriRef<'a>, ParseError> {
        // The reference is made first and its spans written into it, where
        // they were made apart and then copied in (callgrind, AVX2, kasztp:
        // 517 -> 508 instructions a parse).
        let mut r = UriRef {
            src: input,
            spans: Spans::EMPTY,
            profile: self.profile,
        };
        self.spans_into(input.as_bytes(), &mut r.spans)?;
        Ok(r)
    }

    /// Parses bytes, which need not be UTF-8: anything that is not ASCII is
    /// an error in every grammar urilex has, with its offset.
    pub fn parse_bytes<'a>(&self, input: &'a [u8]) -> Result<UriRef<'a>, ParseError> {
        let spans = self.spans(input)?;
        // A match is ASCII (the grammars are), so this cannot fail; if a
        // future grammar admitted other bytes, invalid UTF-8 is still refused.
        match core::str::from_utf8(input) {
            Ok(src) => Ok(UriRef {
                src,
                spans,
                profile: self.profile,
            }),
            Err(e) => Err(ParseError {
                kind: crate::ErrorKind::InvalidCharacter,
                part: None,
                index: e.valid_up_to() as u32,
                byte: input.get(e.valid_up_to()).copied(),
                rule: self.entry(input).map_or("", |(_, e)| e.rule),
            }),
        }
    }

    /// Whether the input matches, without building a reference.
    pub fn is_valid(&self, input: &[u8]) -> bool {
        self.entry(input)
            .is_ok_and(|(_, e)| e.dfa.scan(input).is_ok())
    }

    /// The tables and entry for this parser's syntax, or why `input` cannot
    /// be parsed at all (too long, or a syntax the profile lacks).
    #[inline(always)]
    fn entry(
        &self,
        input: &[u8],
    ) -> Result<(&'static ProfileTables, &'static crate::engine::Entry), ParseError> {
        if input.len() >= u32::MAX as usize {
            return Err(diagnose::too_long());
        }
        let t: &'static ProfileTables = self.profile.tables();
        match &t.entries[self.syntax as usize] {
            Some(entry) => Ok((t, dispatch(t, entry, input))),
            None => Err(diagnose::unsupported(self.syntax.as_str())),
        }
    }

    #[inline(always)]
    pub(crate) fn spans(&self, input: &[u8]) -> Result<Spans, ParseError> {
        let mut spans = Spans::EMPTY;
        self.spans_into(input, &mut spans)?;
        Ok(spans)
    }

    /// [`spans`](Self::spans) written into `out` (`Spans::EMPTY`); on an
    /// error `out` holds whatever the fast path had saved.
    #[inline(always)]
    pub(crate) fn spans_into(&self, input: &[u8], out: &mut Spans) -> Result<(), ParseError> {
        let (t, entry) = self.entry(input)?;
        // One input: the fast path first where the rows kernel reads the
        // input's blocks in place (AVX-512 VBMI, AVX2) or where there is no
        // tagged DFA; elsewhere the tagged DFA (one pass, no setup: where
        // a short input is copied into a zero-padded block first, the
        // classification waits for that copy's stores and costs more than
        // it saves). Measured with `examples/parse_corpus.rs`, the bundled
        // corpora, ns per URL: on an Intel VBMI machine fast path 29.8,
        // 29.3, 39.8 and 47.5, tagged DFA 56, 46, 58 and 75; on an AMD
        // Zen 3 (AVX2) see the README.
        let fast = match entry.fast {
            Some(fast)
                if input.len() <= MAX_LINE
                    && (entry.tdfa.is_none() || crate::scan::rows_in_place()) =>
            {
                fast_single_into(input, &t.single_sets, fast, out)
            }
            _ => false,
        };
        if !fast {
            let found = match &entry.tdfa {
                Some(tdfa) => parse::run_tdfa(tdfa, input),
                None => {
                    // The generator gives every entry whose program is not
                    // exact a tagged DFA.
                    debug_assert!(entry.exact);
                    parse::run_program(t, entry.ops, input)
                }
            };
            match found {
                Some(spans) => *out = spans,
                None => return Err(self.error(t, entry, input, None)),
            }
        }
        out.source = source(t, entry);
        set_path(out, input.len());
        Ok(())
    }

    /// The validating DFA of this parser's syntax, when the profile does
    /// not choose its rule by the scheme (so the DFA alone decides).
    pub(crate) fn plain_dfa(&self) -> Option<&'static crate::engine::Dfa> {
        let t: &'static ProfileTables = self.profile.tables();
        if !t.schemes.is_empty() {
            return None;
        }
        t.entries[self.syntax as usize].as_ref().map(|e| &e.dfa)
    }

    /// The fast path's validator of this parser's syntax and the run sets
    /// it reads, when the profile does not choose its rule by the scheme.
    pub(crate) fn plain_valid(&self) -> Option<(FastValid, &'static [[u8; 16]])> {
        let t: &'static ProfileTables = self.profile.tables();
        if !t.schemes.is_empty() {
            return None;
        }
        let e = t.entries[self.syntax as usize].as_ref()?;
        Some((e.valid?, t.single_sets.sets()))
    }

    /// The validating DFA, when one run of it over a buffer of lines stops
    /// at each valid line's end (see `validate_lines`).
    pub(crate) fn line_dfa(&self) -> Option<&'static crate::engine::Dfa> {
        self.line_entry().map(|e| &e.dfa)
    }

    /// The tagged DFA of `spans`, when one run of it over a buffer of lines
    /// stops at each valid line's end (see `Batch::parse_lines`).
    pub(crate) fn line_tdfa(&self) -> Option<&'static crate::engine::Tdfa> {
        self.line_entry()?.tdfa.as_ref()
    }

    /// This parser's entry, when its DFAs stop at line ends (and the
    /// profile does not choose its rule by the scheme, line by line).
    fn line_entry(&self) -> Option<&'static crate::engine::Entry> {
        let t: &'static ProfileTables = self.profile.tables();
        if !t.schemes.is_empty() {
            return None;
        }
        t.entries[self.syntax as usize]
            .as_ref()
            .filter(|e| e.line_ends)
    }

    /// Valid or the error, from one run of the validating DFA (no spans):
    /// the fast path of `validate_lines`.
    pub(crate) fn verdict(&self, input: &[u8]) -> Result<(), ParseError> {
        let (t, entry) = self.entry(input)?;
        entry
            .dfa
            .scan(input)
            .map_err(|failed| self.error(t, entry, input, Some(failed)))
    }

    /// The error for an input `entry` rejects; `failed` is the DFA's failure
    /// point when the caller has already scanned.
    #[cold]
    fn error(
        &self,
        t: &ProfileTables,
        entry: &crate::engine::Entry,
        input: &[u8],
        failed: Option<(usize, u16)>,
    ) -> ParseError {
        let rule = entry.rule;
        let mut err = match failed {
            Some((index, state)) => diagnose::diagnose_at(t, entry, rule, input, index, state),
            None => diagnose::diagnose(t, entry, rule, input),
        };
        // A DFA cannot tell a userinfo (RFC 3986) or a user and password
        // (RFC 1738) from a host and port until it meets the "@": without
        // one, the fault is where the reading without them fails.
        if err.part.is_some_and(|p| p != Component::Scheme.as_str()) {
            if let Some(e) = diagnose::diagnose_without_userinfo(t, entry, input, &err) {
                err = e;
            }
        }
        if matches!(self.syntax, Syntax::Uri | Syntax::AbsoluteUri) {
            let relative = t.entries[Syntax::RelativeRef as usize].as_ref();
            if relative.is_some_and(|r| r.dfa.scan(input).is_ok()) {
                err = ParseError {
                    kind: crate::ErrorKind::MissingScheme,
                    index: 0,
                    byte: input.first().copied(),
                    part: Some(Component::Scheme.as_str()),
                    rule: err.rule,
                };
            }
        }
        err
    }

    /// Checks one component on its own (`host`, `path`, `query`, ...).
    ///
    /// ```
    /// use urilex::{Component, Parser};
    /// assert!(Parser::new().validate_component(Component::Query, b"a=1&b=/?").is_ok());
    /// assert!(Parser::new().validate_component(Component::Port, b"80a").is_err());
    /// ```
    pub fn validate_component(&self, component: Component, input: &[u8]) -> Result<(), ParseError> {
        if input.len() >= u32::MAX as usize {
            return Err(diagnose::too_long());
        }
        self.validate_part_at(component as usize, component.as_str(), input)
    }

    /// Checks one part on its own, by the name the profile's grammar gives it.
    ///
    /// ```
    /// # #[cfg(feature = "rfc6874")] {
    /// use urilex::{Parser, Profile};
    /// let p = Parser::new().profile(Profile::Rfc6874);
    /// assert!(p.validate_part("zone", b"eth0").is_ok());
    /// assert!(p.validate_part("zone", b"eth 0").is_err());
    /// assert!(Parser::new().validate_part("zone", b"eth0").is_err()); // RFC 3986 has none
    /// # }
    /// ```
    pub fn validate_part(&self, name: &str, input: &[u8]) -> Result<(), ParseError> {
        match self.profile.part(name) {
            Some(p) => self.validate_part_at(p.index(), p.name(), input),
            None => Err(diagnose::unsupported("part")),
        }
    }

    fn validate_part_at(
        &self,
        index: usize,
        name: &'static str,
        input: &[u8],
    ) -> Result<(), ParseError> {
        if input.len() >= u32::MAX as usize {
            return Err(diagnose::too_long());
        }
        let t = self.profile.tables();
        let Some(Some(entry)) = t.components.get(index) else {
            return Err(diagnose::unsupported(name));
        };
        entry
            .dfa
            .scan(input)
            .map_err(|(index, state)| diagnose::diagnose_at(t, entry, name, input, index, state))
    }

    /// Parses a host on its own and tells its kind.
    ///
    /// ```
    /// use urilex::{Host, Parser};
    /// assert_eq!(Parser::new().parse_host("[::1]").unwrap(), Host::Ipv6(std::net::Ipv6Addr::LOCALHOST));
    /// ```
    pub fn parse_host<'a>(&self, input: &'a str) -> Result<Host<'a>, ParseError> {
        let bytes = input.as_bytes();
        if bytes.len() >= u32::MAX as usize {
            return Err(diagnose::too_long());
        }
        let t = self.profile.tables();
        let Some(Some(entry)) = t.components.get(crate::engine::KIND_COMPONENT as usize) else {
            return Err(diagnose::unsupported(
                crate::engine::KIND_COMPONENT.as_str(),
            ));
        };
        let found = match &entry.tdfa {
            Some(tdfa) => parse::run_tdfa(tdfa, bytes),
            None => parse::run_program(t, entry.ops, bytes),
        };
        match found {
            Some(spans) => {
                let zone = (self.profile.part("zone"))
                    .and_then(|z| spans.get_part(&z))
                    .map(|(s, _)| s);
                Ok(Host::from_parts(input, spans.host_kind(), zone))
            }
            None => Err(diagnose::diagnose(t, entry, entry.rule, bytes)),
        }
    }
}

/// The entry a reference matches: the profile's `;@ scheme` rule for its
/// scheme (compared ignoring ASCII case, RFC 3986 3.1), when the entry's
/// grammar lets the input begin with a scheme and its `:`; else `entry`.
#[inline(always)]
fn dispatch(
    t: &'static ProfileTables,
    entry: &'static crate::engine::Entry,
    input: &[u8],
) -> &'static crate::engine::Entry {
    if t.schemes.is_empty() {
        return entry;
    }
    dispatch_scheme(t, entry, input)
}

/// Which program `entry` is, as `Spans::source` says it: 0 for the
/// profile's entries, `1 + k` for its scheme rule `k`.
#[inline(always)]
fn source(t: &ProfileTables, entry: &crate::engine::Entry) -> u8 {
    if t.schemes.is_empty() {
        return 0;
    }
    t.schemes
        .iter()
        .position(|(_, e)| core::ptr::eq(e, entry))
        .map_or(0, |k| k as u8 + 1)
}

#[inline(never)]
fn dispatch_scheme(
    t: &'static ProfileTables,
    entry: &'static crate::engine::Entry,
    input: &[u8],
) -> &'static crate::engine::Entry {
    let longest = t.schemes.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
    let head = &input[..input.len().min(longest + 1)];
    let Some(colon) = head.iter().position(|&b| b == b':') else {
        return entry;
    };
    let scheme = &input[..colon];
    let Some((_, e)) = t
        .schemes
        .iter()
        .find(|(n, _)| n.as_bytes().eq_ignore_ascii_case(scheme))
    else {
        return entry;
    };
    // Only where the syntax itself admits a scheme here (not in a
    // relative reference, say): its DFA is still alive after the colon.
    match entry.dfa.run_from(&input[..=colon], 0) {
        (i, s) if i == colon + 1 && s != crate::engine::DEAD => e,
        _ => entry,
    }
}

/// The occurrences of one part in a reference, from
/// [`UriRef::occurrences`]: each item is the part's text; [`Occurrences::spans`]
/// gives their byte ranges instead.
#[derive(Clone, Debug)]
pub struct Occurrences<'a> {
    src: &'a str,
    walk: Option<parse::Occurrences>,
    single: Option<core::ops::Range<usize>>,
}

impl<'a> Occurrences<'a> {
    fn next_span(&mut self) -> Option<core::ops::Range<usize>> {
        match &mut self.walk {
            Some(w) => w.next_in(self.src.as_bytes()).map(|(s, e)| s..e),
            None => self.single.take(),
        }
    }

    /// The byte ranges of the remaining occurrences instead of their text.
    pub fn spans(self) -> impl Iterator<Item = core::ops::Range<usize>> + 'a {
        let mut o = self;
        core::iter::from_fn(move || o.next_span())
    }
}

impl<'a> Iterator for Occurrences<'a> {
    type Item = &'a str;
    fn next(&mut self) -> Option<&'a str> {
        let r = self.next_span()?;
        self.src.get(r)
    }
}

/// Every reference has a path (RFC 3986 3.3). Where a draft grammar leaves
/// it out, it is empty where the query or the fragment starts, or at the end.
#[inline(always)]
pub(crate) fn set_path(spans: &mut Spans, len: usize) {
    let p = Component::Path as usize * 2;
    // A profile without RFC 3986's path may keep one of its own parts in
    // that slot: it has no path to set.
    if (spans.fixed >> (Component::Path as u32)) & 1 != 0 && spans.slots[p] == parse::NONE {
        let at = [Component::Query, Component::Fragment]
            .iter()
            .find_map(|&c| spans.get(c).map(|(s, _)| s.saturating_sub(1)))
            .unwrap_or(len) as u32;
        spans.slots[p] = at;
        spans.slots[p + 1] = at;
    }
}

/// A URI reference borrowing its input.
///
/// ```
/// use urilex::{HostKind, UriRef};
/// let r = UriRef::parse("http://user@example.com:8080/a/b?q=1#top").unwrap();
/// assert_eq!(r.scheme(), Some("http"));
/// assert_eq!(r.authority(), Some("user@example.com:8080"));
/// assert_eq!(r.userinfo(), Some("user"));
/// assert_eq!(r.host_str(), Some("example.com"));
/// assert_eq!(r.host_kind(), Some(HostKind::RegName));
/// assert_eq!(r.port(), Some("8080"));
/// assert_eq!(r.port_u16(), Some(8080));
/// assert_eq!(r.path(), "/a/b");
/// assert_eq!(r.query(), Some("q=1"));
/// assert_eq!(r.fragment(), Some("top"));
/// assert_eq!(UriRef::parse("http://a?").unwrap().query(), Some(""));
/// assert_eq!(UriRef::parse("http://a").unwrap().query(), None);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct UriRef<'a> {
    src: &'a str,
    spans: Spans,
    profile: Profile,
}

impl<'a> UriRef<'a> {
    /// Parses an RFC 3986 `URI-reference`.
    pub fn parse(input: &'a str) -> Result<UriRef<'a>, ParseError> {
        Parser::new().parse(input)
    }

    /// Parses bytes as an RFC 3986 `URI-reference` (log lines are not always UTF-8).
    ///
    /// ```
    /// let err = urilex::UriRef::parse_bytes(b"/caf\xe9").unwrap_err();
    /// assert_eq!(err.index(), 4);
    /// ```
    pub fn parse_bytes(input: &'a [u8]) -> Result<UriRef<'a>, ParseError> {
        Parser::new().parse_bytes(input)
    }

    /// The whole reference, as given.
    #[inline]
    pub fn as_str(&self) -> &'a str {
        self.src
    }

    /// The profile it was parsed with.
    #[inline]
    pub fn profile(&self) -> Profile {
        self.profile
    }

    #[inline]
    fn get(&self, c: Component) -> Option<&'a str> {
        self.spans.get(c).and_then(|(s, e)| self.src.get(s..e))
    }

    /// The span of a component in the input, if present.
    ///
    /// ```
    /// let r = urilex::UriRef::parse("http://a/b").unwrap();
    /// assert_eq!(r.span(urilex::Component::Path), Some(8..10));
    /// ```
    #[inline]
    pub fn span(&self, c: Component) -> Option<core::ops::Range<usize>> {
        if c == Component::Path && self.has_path() {
            return Some(self.path_span());
        }
        self.spans.get(c).map(|(s, e)| s..e)
    }

    /// A component's text, if present: the text of [`span`](Self::span).
    /// The path is always present where the profile's grammar has RFC
    /// 3986's path, possibly empty; under RFC 1738, whose grammar splits
    /// each scheme's path into parts of its own, it is absent (as in a
    /// [`Batch`](crate::Batch)).
    ///
    /// ```
    /// use urilex::{Component, UriRef};
    /// assert_eq!(UriRef::parse("http://a").unwrap().component(Component::Path), Some(""));
    /// ```
    #[inline]
    pub fn component(&self, c: Component) -> Option<&'a str> {
        if c == Component::Path {
            return self.has_path().then(|| self.path());
        }
        self.get(c)
    }

    /// The scheme, without its `:`.
    #[inline]
    pub fn scheme(&self) -> Option<&'a str> {
        self.get(Component::Scheme)
    }
    /// The authority, without its `//`; `Some("")` for `file:///x`.
    #[inline]
    pub fn authority(&self) -> Option<&'a str> {
        self.get(Component::Authority)
    }
    /// The userinfo, without its `@`.
    #[inline]
    pub fn userinfo(&self) -> Option<&'a str> {
        self.get(Component::Userinfo)
    }
    /// The host's exact text, IP literals with their brackets.
    #[inline]
    pub fn host_str(&self) -> Option<&'a str> {
        self.get(Component::Host)
    }
    /// The kind of the host, when there is one.
    #[inline]
    pub fn host_kind(&self) -> Option<HostKind> {
        self.host_str().and(self.spans.host_kind())
    }
    /// The host, typed.
    ///
    /// ```
    /// use urilex::{Host, UriRef};
    /// use std::net::Ipv4Addr;
    /// assert_eq!(UriRef::parse("//127.0.0.1/").unwrap().host(), Some(Host::Ipv4(Ipv4Addr::LOCALHOST)));
    /// assert_eq!(UriRef::parse("//[v1.x]/").unwrap().host(), Some(Host::IpvFuture("v1.x")));
    /// ```
    pub fn host(&self) -> Option<Host<'a>> {
        let kind = self.spans.host_kind();
        // Only an IPv6 literal holds a zone: no part lookup for the others.
        let zone = if kind == Some(HostKind::Ipv6) {
            self.zone_in_host()
        } else {
            None
        };
        self.host_str().map(|h| Host::from_parts(h, kind, zone))
    }
    /// Where the profile's `zone` part (RFC 6874's zone identifier) starts
    /// in the host's text, when the reference has one.
    pub(crate) fn zone_in_host(&self) -> Option<usize> {
        let host = self.span(Component::Host)?;
        let zone = self.part_span("zone")?;
        zone.start.checked_sub(host.start)
    }

    /// The port's text, without its `:`; `Some("")` for `http://a:/`.
    #[inline]
    pub fn port(&self) -> Option<&'a str> {
        self.get(Component::Port)
    }
    /// The port as a number, `None` when absent, empty or above 65535.
    pub fn port_u16(&self) -> Option<u16> {
        port_number(self.port()?.as_bytes())
    }
    /// The path; every reference has one, possibly empty (RFC 3986 3.3).
    #[inline]
    pub fn path(&self) -> &'a str {
        let r = self.path_span();
        self.src.get(r).unwrap_or("")
    }
    /// Whether the profile's grammar has RFC 3986's path (all but RFC
    /// 1738's, which splits each scheme's path into its own parts: there
    /// `path()` is empty and `span(Component::Path)` is `None`).
    #[inline]
    fn has_path(&self) -> bool {
        (self.spans.fixed >> (Component::Path as u32)) & 1 != 0
    }
    #[inline]
    fn path_span(&self) -> core::ops::Range<usize> {
        // `Parser::spans` always sets the path; the fallback keeps a
        // hand-made value from panicking.
        let (s, e) = self
            .spans
            .get(Component::Path)
            .unwrap_or((self.src.len(), self.src.len()));
        s..e
    }
    /// The query, without its `?`.
    #[inline]
    pub fn query(&self) -> Option<&'a str> {
        self.get(Component::Query)
    }
    /// The fragment, without its `#`.
    #[inline]
    pub fn fragment(&self) -> Option<&'a str> {
        self.get(Component::Fragment)
    }
    /// A part's text by the name its profile's grammar gives it (`;@ part`),
    /// ASCII case ignored; `None` when absent or not a part of the profile.
    ///
    /// ```
    /// # #[cfg(feature = "rfc6874")] {
    /// use urilex::{Parser, Profile};
    /// let r = Parser::new().profile(Profile::Rfc6874).parse("http://[fe80::1%25eth0]:8080/").unwrap();
    /// assert_eq!(r.part("zone"), Some("eth0"));
    /// assert_eq!(r.part("port"), Some("8080"));
    /// assert_eq!(r.part("no-such-part"), None);
    /// # }
    /// ```
    pub fn part(&self, name: &str) -> Option<&'a str> {
        self.part_at(self.profile.part(name)?.index())
    }

    /// A part's text by its index in the profile's layout
    /// ([`PartInfo::index`]). For a repeated part, its first occurrence.
    pub fn part_at(&self, index: usize) -> Option<&'a str> {
        self.span_at(index).and_then(|r| self.src.get(r))
    }

    /// A part's span in the input, by name (a repeated part's first).
    pub fn part_span(&self, name: &str) -> Option<core::ops::Range<usize>> {
        self.span_at(self.profile.part(name)?.index())
    }

    /// The span of the part at a layout index: every reference has a path
    /// (RFC 3986 3.3); a repeated part's is its first occurrence.
    fn span_at(&self, index: usize) -> Option<core::ops::Range<usize>> {
        if index == Component::Path as usize && self.has_path() {
            return Some(self.path_span());
        }
        match parse::Occurrences::new(self.profile, &self.spans, index) {
            Some(mut o) => o.next_in(self.src.as_bytes()).map(|(s, e)| s..e),
            None => self.slot_span(index),
        }
    }

    /// The span of a part that is not repeated, by layout index.
    fn slot_span(&self, index: usize) -> Option<core::ops::Range<usize>> {
        let info = self.profile.tables().parts.get(index)?;
        self.spans.get_part(info).map(|(s, e)| s..e)
    }

    /// Every occurrence of a part, in order: for a part inside a repetition
    /// of its grammar ([`PartInfo::is_repeated`]) each time it occurs, for
    /// any other part its one span if present. No allocation; each call to
    /// `next` walks on from the last occurrence (linear in the reference).
    ///
    /// An unknown name gives an empty iterator.
    pub fn occurrences(&self, name: &str) -> Occurrences<'a> {
        let index = self.profile.part(name).map_or(usize::MAX, |p| p.index());
        self.occurrences_at(index)
    }

    /// [`occurrences`](Self::occurrences) by layout index.
    pub fn occurrences_at(&self, index: usize) -> Occurrences<'a> {
        let walk = parse::Occurrences::new(self.profile, &self.spans, index);
        let single = match walk {
            Some(_) => None,
            None if index == Component::Path as usize && self.has_path() => Some(self.path_span()),
            None => self.slot_span(index),
        };
        Occurrences {
            src: self.src,
            walk,
            single,
        }
    }

    /// Every part the profile declares, with its text in this reference
    /// (`None` when absent), in layout order.
    ///
    /// ```
    /// let r = urilex::UriRef::parse("http://a/b?").unwrap();
    /// let v: Vec<_> = r.parts().map(|(p, t)| (p.name(), t)).collect();
    /// assert_eq!(v[0], ("scheme", Some("http")));
    /// assert_eq!(v[6], ("query", Some("")));
    /// ```
    pub fn parts(&self) -> impl Iterator<Item = (PartInfo, Option<&'a str>)> + '_ {
        self.profile
            .parts()
            .map(move |p| (p, self.part_at(p.index())))
    }

    /// The `;@ scheme` rule this reference matched (its scheme chose it),
    /// or `None` when it matched its entry's rule.
    ///
    /// ```
    /// # #[cfg(feature = "rfc1738")] {
    /// use urilex::{Parser, Profile};
    /// let p = Parser::new().profile(Profile::Rfc1738);
    /// assert_eq!(p.parse("ftp://host/file").unwrap().scheme_rule(), Some("ftpurl"));
    /// assert_eq!(p.parse("x-other:thing").unwrap().scheme_rule(), None);
    /// # }
    /// ```
    pub fn scheme_rule(&self) -> Option<&'static str> {
        let k = self.spans.scheme_rule()?;
        self.profile.tables().schemes.get(k).map(|(_, e)| e.rule)
    }

    /// The scheme name of the grammar's `;@ scheme` line whose rule parsed
    /// this reference (`"ftp"` for `ftpurl`), as the grammar spells it;
    /// `None` as for [`scheme_rule`](Self::scheme_rule).
    #[cfg_attr(not(feature = "rfc1738"), allow(dead_code))]
    pub(crate) fn scheme_entry(&self) -> Option<&'static str> {
        let k = self.spans.scheme_rule()?;
        self.profile.tables().schemes.get(k).map(|&(name, _)| name)
    }

    /// The parts the rule this reference matched can hold, with their text
    /// here (`None` when absent): for a profile that picks its rule by the
    /// scheme, that rule's parts only (an ftp URL lists `fpath` and
    /// `ftptype`, not `gtype`); otherwise the same as [`parts`](Self::parts).
    /// A repeated part gives its first occurrence.
    ///
    /// ```
    /// # #[cfg(feature = "rfc1738")] {
    /// use urilex::{Parser, Profile};
    /// let u = Parser::new().profile(Profile::Rfc1738).parse("news:*").unwrap();
    /// let v: Vec<_> = u.rule_parts().map(|(p, t)| (p.name(), t)).collect();
    /// assert_eq!(v, [("scheme", Some("news")), ("host", None), ("grouppart", Some("*")), ("group", None), ("article", None)]);
    /// # }
    /// ```
    pub fn rule_parts(&self) -> impl Iterator<Item = (PartInfo, Option<&'a str>)> + '_ {
        self.profile
            .parts()
            .filter(move |p| self.spans.holds(p))
            .map(move |p| (p, self.part_at(p.index())))
    }

    /// The kind the grammar's `;@ kind` directives give the classified part
    /// (for the bundled grammars, the host): its name, also for kinds that
    /// [`HostKind`] has no variant for.
    pub fn kind_name(&self) -> Option<&'static str> {
        let t = self.profile.tables();
        self.slot_span(t.kind_part)?;
        t.kinds
            .get(self.spans.kind as usize)
            .copied()
            .filter(|k| !k.is_empty())
    }

    /// Has a scheme (RFC 3986 4.3).
    #[inline]
    pub fn is_absolute(&self) -> bool {
        self.scheme().is_some()
    }
    /// Has no scheme (RFC 3986 4.2).
    #[inline]
    pub fn is_relative(&self) -> bool {
        !self.is_absolute()
    }
    pub(crate) fn from_spans(src: &'a str, spans: Spans, profile: Profile) -> UriRef<'a> {
        UriRef {
            src,
            spans,
            profile,
        }
    }

    pub(crate) fn spans_raw(&self) -> Spans {
        self.spans
    }

    /// An owned copy.
    pub fn to_owned(&self) -> UriRefBuf {
        UriRefBuf {
            src: self.src.to_string(),
            spans: self.spans,
            profile: self.profile,
        }
    }
}

impl fmt::Display for UriRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.src)
    }
}

impl fmt::Debug for UriRef<'_> {
    /// Every part the profile declares, by the grammar's names (repeated
    /// parts as lists), and the classified part's kind.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        struct List<'a>(Occurrences<'a>);
        impl fmt::Debug for List<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_list().entries(self.0.clone()).finish()
            }
        }
        let mut d = f.debug_struct("UriRef");
        d.field("profile", &self.profile);
        for p in self.profile.parts() {
            if p.is_repeated() {
                d.field(p.name(), &List(self.occurrences_at(p.index())));
            } else {
                d.field(p.name(), &self.part_at(p.index()));
            }
        }
        if self.profile.kind_part().is_some() {
            d.field("kind", &self.kind_name());
        }
        d.finish()
    }
}

impl AsRef<str> for UriRef<'_> {
    fn as_ref(&self) -> &str {
        self.src
    }
}

/// An owned URI reference: a `String` plus the same offsets as [`UriRef`].
///
/// ```
/// let r: urilex::UriRefBuf = "https://example.com/x".parse().unwrap();
/// assert_eq!(r.as_ref().host_str(), Some("example.com"));
/// assert_eq!(r.to_string(), "https://example.com/x");
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct UriRefBuf {
    src: String,
    spans: Spans,
    profile: Profile,
}

impl UriRefBuf {
    pub(crate) fn from_parts(src: String, spans: Spans, profile: Profile) -> UriRefBuf {
        UriRefBuf {
            src,
            spans,
            profile,
        }
    }

    pub(crate) fn whole_path(src: String, profile: Profile) -> UriRefBuf {
        let mut spans = Spans::EMPTY;
        spans.slots[Component::Path as usize * 2] = 0;
        spans.slots[Component::Path as usize * 2 + 1] = src.len() as u32;
        UriRefBuf {
            src,
            spans,
            profile,
        }
    }

    /// Parses and copies an RFC 3986 `URI-reference`.
    pub fn parse(input: &str) -> Result<UriRefBuf, ParseError> {
        UriRef::parse(input).map(|r| r.to_owned())
    }
    /// Borrows it as a [`UriRef`].
    #[allow(clippy::should_implement_trait)]
    pub fn as_ref(&self) -> UriRef<'_> {
        UriRef {
            src: &self.src,
            spans: self.spans,
            profile: self.profile,
        }
    }
    /// The text.
    pub fn as_str(&self) -> &str {
        &self.src
    }
    /// The text, given up.
    pub fn into_string(self) -> String {
        self.src
    }
}

impl FromStr for UriRefBuf {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        UriRefBuf::parse(s)
    }
}

impl fmt::Display for UriRefBuf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.src)
    }
}

impl fmt::Debug for UriRefBuf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.as_ref(), f)
    }
}

#[cfg(feature = "serde")]
mod serde_impl {
    use super::{UriRef, UriRefBuf};
    use serde::{de, Deserialize, Deserializer, Serialize, Serializer};

    impl Serialize for UriRef<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_str(self.as_str())
        }
    }
    impl Serialize for UriRefBuf {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_str(self.as_str())
        }
    }
    impl<'de: 'a, 'a> Deserialize<'de> for UriRef<'a> {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            let s: &'de str = <&str>::deserialize(d)?;
            UriRef::parse(s).map_err(de::Error::custom)
        }
    }
    impl<'de> Deserialize<'de> for UriRefBuf {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            let s = String::deserialize(d)?;
            UriRefBuf::parse(&s).map_err(de::Error::custom)
        }
    }
}

/// The number a port's digits stand for (RFC 3986 3.2.3, `port = *DIGIT`):
/// `None` when empty or over 65535; leading zeros count for nothing. For
/// a port already known to be digits, as a valid reference's is.
///
/// ```
/// assert_eq!(urilex::port_number(b"000080"), Some(80));
/// assert_eq!(urilex::port_number(b"65536"), None);
/// assert_eq!(urilex::port_number(b""), None);
/// ```
pub fn port_number(port: &[u8]) -> Option<u16> {
    if port.is_empty() {
        return None;
    }
    let mut v: u32 = 0;
    for &b in port {
        v = v * 10 + u32::from(b.wrapping_sub(b'0'));
        if v > u32::from(u16::MAX) {
            return None;
        }
    }
    Some(v as u16)
}
