//! The forms a URI takes in text (RFC 3986 Appendix C): in `<...>` or
//! `<URL:...>`, in `"..."`, bare, abbreviated, defanged.

#[allow(unused_imports)]
use super::*;

/// The byte before a scheme, for [`FindIter::lane`]: `"` opens a quoted
/// URI, `<` a bracketed one, ASCII whitespace may follow a `<`; a `:` (of
/// `URL:`) and 0xA0 (U+00A0's last byte) are for the general path; any
/// other makes the URI bare.
pub(super) const BARE: u8 = 0;

pub(super) const QUOTE: u8 = 1;

pub(super) const ANGLE: u8 = 2;

pub(super) const SPACE: u8 = 3;

pub(super) const OTHER: u8 = 4;

pub(super) const LANE: [u8; 256] = {
    let mut t = [BARE; 256];
    t[b'"' as usize] = QUOTE;
    t[b'<' as usize] = ANGLE;
    let mut b = 0;
    while b < 256 {
        if ascii_space(b as u8) {
            t[b] = SPACE;
        }
        b += 1;
    }
    t[b':' as usize] = OTHER;
    t[0xa0] = OTHER;
    t
};

/// Blocks without a candidate after which the search for the next trigger
/// goes to memchr, when the options add triggers to the colons.
pub(super) const JUMP: usize = 4;

impl<'a> FindIter<'a> {
    /// The `<` whose URI starts at `s`: before `s`, whitespace, or
    /// whitespace, `URL:` and whitespace, then `<`, after the last hit.
    pub(super) fn opener(&self, s: usize) -> Option<(usize, Delimiter)> {
        let t = self.text;
        let i = self.space_before(s);
        if i > self.floor && t[i - 1] == b'<' {
            return Some((i - 1, Delimiter::Angle));
        }
        if i >= self.floor + 4 && t[i - 4..i].eq_ignore_ascii_case(b"URL:") {
            let j = self.space_before(i - 4);
            if j > self.floor && t[j - 1] == b'<' {
                return Some((j - 1, Delimiter::Url));
            }
        }
        None
    }

    /// The URI in `"…"` or `<…>` whose scheme starts at `s`, if there is
    /// one: with `fast` (the scheme's colon, when the scheme qualifies) by
    /// the fast path first, then by the general one.
    pub(super) fn delimited(&mut self, s: usize, fast: Option<usize>) -> Option<(Hit<'a>, usize)> {
        let t = self.text;
        if s > self.floor && t[s - 1] == b'"' {
            fast.and_then(|p| self.fast_hit(s, p, Delimiter::Quote))
                .or_else(|| self.quote(s - 1))
        } else {
            let (d, kind) = self.opener(s)?;
            fast.and_then(|p| self.fast_hit(s, p, kind))
                .or_else(|| self.angle(d))
        }
    }

    /// The fast path's common case, with one table lookup in place of
    /// the choice among delimiters: the scheme `s..p` (followed by `//` or
    /// registered) right after `"`, `<`, or `<` and one whitespace byte, or
    /// after none of these and no whitespace before them (bare). The
    /// delimiter and what [`fast_hit`](Self::fast_hit) gives for it; `None`
    /// for any other (a `URL:` prefix, more whitespace, U+00A0), which the
    /// general sequence decides.
    #[inline(always)]
    pub(super) fn lane(
        &mut self,
        s: usize,
        p: usize,
    ) -> Option<(Delimiter, Option<(Hit<'a>, usize)>)> {
        let t = self.text;
        if p - s > MAX_SCHEME || s < self.floor + 2 {
            return None;
        }
        let one = LANE[usize::from(t[s - 1])];
        let kind = if one == SPACE {
            match LANE[usize::from(t[s - 2])] {
                ANGLE => ANGLE,
                BARE | QUOTE => BARE,
                _ => OTHER,
            }
        } else {
            one
        };
        let delimiter = match kind {
            BARE => Delimiter::None,
            QUOTE => Delimiter::Quote,
            ANGLE => Delimiter::Angle,
            _ => return None,
        };
        Some((delimiter, self.fast_hit(s, p, delimiter)))
    }

    /// The start of the whitespace that ends at `i` (back to the last
    /// hit's end): the bytes `space_at` reads forwards.
    pub(super) fn space_before(&self, mut i: usize) -> usize {
        let t = self.text;
        loop {
            if i > self.floor && ascii_space(t[i - 1]) {
                i -= 1;
            } else if i >= self.floor + 2 && t[i - 1] == 0xa0 && t[i - 2] == 0xc2 {
                i -= 2;
            } else {
                return i;
            }
        }
    }

    /// Whether `uri` is a URI as this module takes them.
    pub(super) fn accept(&self, uri: &[u8]) -> bool {
        scheme_ok(uri) && self.parser.is_valid(uri)
    }

    /// A delimited URI in one DFA pass: from `start`, the profile's DFA
    /// must reach the closing byte `close` in an accepting state. `None`
    /// when that does not settle it (whitespace inside, a scheme-chosen
    /// rule): the general path decides.
    pub(super) fn direct(&self, start: usize, limit: usize, close: u8) -> Option<usize> {
        let d = self.parser.plain_dfa()?;
        let t = self.text;
        let (e, state) = d.run_from(&t[..limit], start);
        (e < limit && t[e] == close && d.accept[state as usize] && scheme_ok(&t[start..e]))
            .then_some(e)
    }

    /// `<…>` at `p`: the hit, and where the search goes on.
    pub(super) fn angle(&self, p: usize) -> Option<(Hit<'a>, usize)> {
        let t = self.text;
        // A scheme must come first (after whitespace and "URL:").
        let mut q = p + 1;
        while q < t.len() && space_at(t, q) > 0 {
            q += space_at(t, q);
        }
        let url_prefix = t.len() >= q + 4 && t[q..q + 4].eq_ignore_ascii_case(b"URL:");
        if url_prefix {
            q += 4;
            while q < t.len() && space_at(t, q) > 0 {
                q += space_at(t, q);
            }
        }
        if !self.starts_with_scheme(q) {
            return None;
        }
        let limit = t.len().min(p + MAX_DELIMITED);
        if let Some(e) = self.direct(q, limit, b'>') {
            let delimiter = if url_prefix {
                Delimiter::Url
            } else {
                Delimiter::Angle
            };
            return Some((
                Hit {
                    uri: self.borrowed(q..e)?,
                    span: q..e,
                    delimiter,
                    flags: Flags::default(),
                },
                e + 1,
            ));
        }
        // The closing ">" before another "<" and within 8 KiB: each byte
        // is looked at by one bracket only.
        let limit = t.len().min(p + MAX_DELIMITED);
        let close = p
            + 1
            + t[p + 1..limit]
                .iter()
                .position(|&b| b == b'>' || b == b'<')?;
        if t[close] != b'>' {
            return None;
        }
        let mut start = p + 1;
        while start < close && space_at(t, start) > 0 {
            start += space_at(t, start);
        }
        let mut delimiter = Delimiter::Angle;
        if t[start..close].len() >= 4 && t[start..start + 4].eq_ignore_ascii_case(b"URL:") {
            delimiter = Delimiter::Url;
            start += 4;
            while start < close && space_at(t, start) > 0 {
                start += space_at(t, start);
            }
        }
        let mut end = close;
        while end > start && t[end - 1].is_ascii_whitespace() {
            end -= 1;
        }
        let (uri, flags) = self.joined(start..end)?;
        if !self.accept(uri.as_bytes()) {
            return None;
        }
        Some((
            Hit {
                uri,
                span: start..end,
                delimiter,
                flags,
            },
            close + 1,
        ))
    }

    /// The text of `r` without its whitespace, and the flags that says.
    pub(super) fn joined(&self, r: Range<usize>) -> Option<(Cow<'a, str>, Flags)> {
        let t = self.text;
        let mut i = r.start;
        while i < r.end && space_at(t, i) == 0 {
            i += 1;
        }
        if i == r.end {
            return Some((self.borrowed(r)?, Flags::default()));
        }
        let mut out = Vec::with_capacity(r.len());
        let mut flags = Flags::WHITESPACE_REMOVED;
        let mut i = r.start;
        while i < r.end {
            let n = space_at(t, i);
            if n == 0 {
                out.push(t[i]);
                i += 1;
                continue;
            }
            let run = i;
            while i < r.end && space_at(t, i) > 0 {
                i += space_at(t, i);
            }
            let breaks = t[run..i].contains(&b'\n');
            if breaks && out.last() == Some(&b'-') {
                flags = flags.with(Flags::AMBIGUOUS_HYPHEN);
            }
        }
        String::from_utf8(out).ok().map(|s| (Cow::Owned(s), flags))
    }

    /// `"…"` at `p`, on one line.
    pub(super) fn quote(&self, p: usize) -> Option<(Hit<'a>, usize)> {
        let t = self.text;
        if !self.starts_with_scheme(p + 1) {
            return None;
        }
        let limit = t.len().min(p + MAX_DELIMITED);
        if let Some(e) = self.direct(p + 1, limit, b'"') {
            return Some((
                Hit {
                    uri: self.borrowed(p + 1..e)?,
                    span: p + 1..e,
                    delimiter: Delimiter::Quote,
                    flags: Flags::default(),
                },
                e + 1,
            ));
        }
        let close = p + 1 + memchr::memchr2(b'"', b'\n', &t[p + 1..limit])?;
        if t[close] != b'"' {
            return None;
        }
        let r = p + 1..close;
        if t[r.clone()].iter().any(|b| b.is_ascii_whitespace()) || !self.accept(&t[r.clone()]) {
            return None;
        }
        Some((
            Hit {
                uri: self.borrowed(r.clone())?,
                span: r,
                delimiter: Delimiter::Quote,
                flags: Flags::default(),
            },
            close + 1,
        ))
    }

    /// A bare URI whose scheme is `s..p` (`p` its colon, the scheme
    /// followed by `//` or registered): the hit (or none) and where the
    /// search goes on.
    pub(super) fn bare(&self, s: usize, p: usize) -> (Option<Hit<'a>>, usize) {
        let t = self.text;
        // The token: the bytes a URI may hold from the scheme on (many at
        // a time), less trailing punctuation and unbalanced brackets; it is
        // a candidate as a whole, never a prefix cut at an invalid byte
        // (`hxxp://c[.]d` is no hit). One DFA run then decides it.
        let window = &t[..t.len().min(s + (1 << 20))];
        let e = match &self.token {
            Some((nib, ranges)) => crate::scan::skip(nib, ranges, window, p + 1),
            None => {
                let mut e = p + 1;
                while e < window.len() && self.uri_byte(window[e]) {
                    e += 1;
                }
                e
            }
        };
        let end = trim(t, s, e);
        let valid = match self.parser.plain_dfa() {
            Some(d) => d.scan(&t[s..end]).is_ok(),
            None => self.parser.is_valid(&t[s..end]),
        };
        let hit = (end > p + 1 && valid)
            .then(|| self.borrowed(s..end))
            .flatten()
            .map(|uri| Hit {
                uri,
                span: s..end,
                delimiter: Delimiter::None,
                flags: Flags::default(),
            });
        (hit, e.max(p + 1))
    }

    /// `www.…` or `ftp.…` starting at `s` (draft-fielding-uri-rfc2396bis-00 Appendix F).
    pub(super) fn abbreviated(&self, s: usize) -> Option<(Hit<'a>, usize)> {
        let t = self.text;
        if s > 0 && (self.uri_byte(t[s - 1]) && !b"([".contains(&t[s - 1])) {
            return None;
        }
        let scheme: &[u8] = if t[s..].len() > 4 && t[s..s + 4].eq_ignore_ascii_case(b"www.") {
            b"http://"
        } else if t[s..].len() > 4 && t[s..s + 4].eq_ignore_ascii_case(b"ftp.") {
            b"ftp://"
        } else {
            return None;
        };
        let mut e = s;
        while e < t.len() && self.uri_byte(t[e]) {
            e += 1;
        }
        let end = trim(t, s, e);
        let mut full = scheme.to_vec();
        full.extend_from_slice(&t[s..end]);
        if end <= s + 4 || !self.parser.is_valid(&full) {
            return None;
        }
        // One character after the prefix and nothing more ("www.x") is
        // too little to take for a name.
        if end - s == 5 && !b"/?#:".contains(&t[s + 4]) {
            return None;
        }
        Some((
            Hit {
                uri: Cow::Owned(String::from_utf8(full).ok()?),
                span: s..end,
                delimiter: Delimiter::None,
                flags: Flags::ABBREVIATED,
            },
            end,
        ))
    }

    /// A defanged token starting at `s` (no whitespace inside): refanged,
    /// then searched as a bare URI.
    pub(super) fn refanged(&self, s: usize) -> Option<(Hit<'a>, usize)> {
        let t = self.text;
        let mut e = s;
        while e < t.len()
            && !t[e].is_ascii_whitespace()
            && t[e] != b'<'
            && t[e] != b'>'
            && t[e] != b'"'
        {
            e += 1;
        }
        let token = &t[s..e];
        let (fixed, changed) = refang(token);
        if !changed {
            return None;
        }
        let colon = fixed.iter().position(|&b| b == b':')?;
        let mut end = colon + 1;
        while end < fixed.len() && self.uri_byte(fixed[end]) {
            end += 1;
        }
        let end = trim(&fixed, 0, end);
        let uri = &fixed[..end];
        if !uri.iter().take(colon).all(|&b| self.scheme_byte(b)) || !self.accept(uri) {
            return None;
        }
        Some((
            Hit {
                uri: Cow::Owned(String::from_utf8(uri.to_vec()).ok()?),
                span: s..e,
                delimiter: Delimiter::None,
                flags: Flags::REFANGED,
            },
            e,
        ))
    }

    /// The text as a `str` where it is ASCII, for a hit without changes.
    pub(super) fn borrowed(&self, r: Range<usize>) -> Option<Cow<'a, str>> {
        let b = &self.text[r];
        crate::scan::ascii_str(b)
            .or_else(|| core::str::from_utf8(b).ok())
            .map(Cow::Borrowed)
    }
}
