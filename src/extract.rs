//! Finding URIs in free text, as the documents urilex implements say: RFC
//! 3986 Appendix C and draft-fielding-uri-rfc2396bis-00 Appendix E ("Delimiting a URI in Context"),
//! draft-fielding-url-syntax-05 Appendix E, RFC 1738's appendix on URLs in context (`<URL:…>`),
//! and draft-fielding-uri-rfc2396bis-00 Appendix F (abbreviated URIs, on request).
//!
//! - `<…>` and `<URL:…>` (with or without a space after `URL:`): the
//!   brackets and the prefix are not part of the URI, and whitespace inside
//!   (line breaks included) is removed; a hyphen right before a line break
//!   is kept and the hit flagged [`Flags::AMBIGUOUS_HYPHEN`] ("the hyphen may
//!   or may not actually be part of the URI").
//! - `"…"`: the quotes are not part of the URI.
//! - Bare, between whitespace: trailing sentence punctuation and closing
//!   quotes are not taken, nor an unbalanced closing bracket; balanced
//!   brackets inside are.
//!
//! A candidate is a URI when it parses as an absolute URI under the chosen
//! profile and its scheme is followed by `//` or is one of [`SCHEMES`], so
//! that `Note:` or `e.g.:` is not one. U+00A0 (no-break space, which seed
//! 002 writes for every space) counts as whitespace.
//!
//! The scan is linear in the text. Every URI has a `:` right after its
//! scheme, so the colons drive it: a SIMD kernel marks them a kilobyte at
//! a time (first the blocks with a colon at all, one compare each, as
//! memchr does; then those blocks' candidates), and a colon is looked at
//! only when a letter comes before it or `/` or whitespace after it (every
//! scheme this module takes without `//` ends in a letter). From such a
//! colon the scheme is read backwards, and the bytes before it say how the
//! URI is delimited: `"`, `<` (after whitespace and `URL:`), or nothing.
//! Each byte is looked at a bounded number of times, and nothing is
//! allocated for a hit whose URI is a slice of the text.

use crate::engine::bits::Token;
use crate::{Parser, Profile, Syntax};
use std::borrow::Cow;
use std::ops::Range;

/// Schemes that make a URI without `//` after them: permanent entries of
/// IANA's "Uniform Resource Identifier (URI) Schemes" registry that are
/// written in running text, each with its defining document.
pub const SCHEMES: &[&str] = &[
    "mailto", // RFC 6068
    "news",   // RFC 5538
    "nntp",   // RFC 5538
    "urn",    // RFC 8141
    "tel",    // RFC 3966
    "fax",    // RFC 3966 (historical RFC 2806)
    "sms",    // RFC 5724
    "data",   // RFC 2397
    "sip",    // RFC 3261
    "sips",   // RFC 3261
    "xmpp",   // RFC 5122
    "geo",    // RFC 5870
    "cid",    // RFC 2392
    "mid",    // RFC 2392
    "tag",    // RFC 4151
    "ni",     // RFC 6920
    "about",  // RFC 6694
    "im",     // RFC 3860
    "pres",   // RFC 3859
];

/// How a hit was delimited in the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Delimiter {
    /// `<URL:…>`
    Url,
    /// `<…>`
    Angle,
    /// `"…"`
    Quote,
    /// None: between whitespace or punctuation.
    None,
}

impl Delimiter {
    /// `url`, `angle`, `quote` or `none`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Delimiter::Url => "url",
            Delimiter::Angle => "angle",
            Delimiter::Quote => "quote",
            Delimiter::None => "none",
        }
    }
}

/// What was done to find a hit, or what is uncertain about it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Flags(u8);

impl Flags {
    /// Whitespace inside the delimiters was removed.
    pub const WHITESPACE_REMOVED: Flags = Flags(1);
    /// A hyphen stood right before a line break: kept, but it may or may
    /// not be part of the URI (RFC 3986 Appendix C).
    pub const AMBIGUOUS_HYPHEN: Flags = Flags(2);
    /// An abbreviated URI (`www.…`, `ftp.…`) completed with its scheme
    /// (draft-fielding-uri-rfc2396bis-00 Appendix F); only with [`ExtractOptions::abbreviated`].
    pub const ABBREVIATED: Flags = Flags(4);
    /// A defanged URI (`hxxp://a[.]b`) put back; only with
    /// [`ExtractOptions::refang`].
    pub const REFANGED: Flags = Flags(8);

    /// Whether every flag of `other` is set.
    pub const fn contains(self, other: Flags) -> bool {
        self.0 & other.0 == other.0
    }
    /// The flags' names, in this order: `whitespace-removed`,
    /// `ambiguous-hyphen`, `abbreviated`, `refanged`.
    pub fn names(self) -> impl Iterator<Item = &'static str> {
        [
            (Flags::WHITESPACE_REMOVED, "whitespace-removed"),
            (Flags::AMBIGUOUS_HYPHEN, "ambiguous-hyphen"),
            (Flags::ABBREVIATED, "abbreviated"),
            (Flags::REFANGED, "refanged"),
        ]
        .into_iter()
        .filter(move |(f, _)| self.contains(*f))
        .map(|(_, n)| n)
    }
    fn with(self, f: Flags) -> Flags {
        Flags(self.0 | f.0)
    }
}

/// One URI found in the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hit<'a> {
    /// The URI: delimiters, the `URL:` prefix and embedded whitespace
    /// removed (then owned), completed or refanged on request.
    pub uri: Cow<'a, str>,
    /// Its bytes in the text (inside the delimiters; for a URI broken by
    /// whitespace, from its first byte to its last).
    pub span: Range<usize>,
    /// How it was delimited.
    pub delimiter: Delimiter,
    /// What was done to it.
    pub flags: Flags,
}

/// Extraction options: the profile candidates must parse under (RFC 3986
/// by default), and the two steps that are only taken on request.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ExtractOptions {
    profile: Profile,
    abbreviated: bool,
    refang: bool,
}

impl ExtractOptions {
    /// RFC 3986, no abbreviated URIs, no refanging.
    pub const fn new() -> ExtractOptions {
        ExtractOptions {
            profile: Profile::Rfc3986,
            abbreviated: false,
            refang: false,
        }
    }
    /// Candidates must parse as absolute URIs under `profile`.
    pub const fn profile(self, profile: Profile) -> ExtractOptions {
        ExtractOptions { profile, ..self }
    }
    /// Also find `www.example.com/x` and `ftp.example.com`, completed with
    /// `http://` and `ftp://` (draft-fielding-uri-rfc2396bis-00 Appendix F).
    pub const fn abbreviated(self, yes: bool) -> ExtractOptions {
        ExtractOptions {
            abbreviated: yes,
            ..self
        }
    }
    /// Also find defanged indicators (`hxxp://example[.]com`, `[:]//`,
    /// `(.)`, `[@]`) and put them back, flagged [`Flags::REFANGED`].
    pub const fn refang(self, yes: bool) -> ExtractOptions {
        ExtractOptions {
            refang: yes,
            ..self
        }
    }
}

/// Every URI in `text`, in order.
///
/// ```
/// use urilex::extract::{find_iter, Delimiter, ExtractOptions};
/// let text = b"Yes, Jim, I found it under \"http://www.w3.org/Addressing/\",\n\
/// but you can probably pick it up from <ftp://foo.example.\ncom/rfc/>.";
/// let hits: Vec<_> = find_iter(text, ExtractOptions::new()).collect();
/// assert_eq!(hits[0].uri, "http://www.w3.org/Addressing/");
/// assert_eq!(hits[0].delimiter, Delimiter::Quote);
/// assert_eq!(hits[1].uri, "ftp://foo.example.com/rfc/");
/// assert_eq!(&text[hits[1].span.clone()], b"ftp://foo.example.\ncom/rfc/");
/// ```
pub fn find_iter(text: &[u8], options: ExtractOptions) -> FindIter<'_> {
    let parser = Parser::new().profile(options.profile).syntax(Syntax::Uri);
    let token = token_set(options.profile);
    FindIter {
        text,
        pos: 0,
        stop: text.len(),
        floor: 0,
        parser,
        options,
        class: classes(options.profile),
        token,
        kern: crate::scan::classifier(),
        trigger: [trigger_set(options)],
        block: usize::MAX,
        bits: 0,
        colon: crate::scan::colon_kernel(),
        chunk: usize::MAX,
        marks: [0; crate::scan::CHUNK],
        pending: 0,
        word: 0,
        word_at: 0,
        fast: Fast::of(&parser, token.as_ref().map(|(n, _)| n)),
        token_bits: Token::new(),
    }
}

/// The bytes a candidate is looked for at, as a classifier set (bit `h` of
/// entry `l` for byte `16 h + l`): every `:`, and with the options the
/// first bytes of abbreviated (`www.`, `ftp.`) and defanged (`hxxp`,
/// `fxp`, `[`) tokens.
fn trigger_set(options: ExtractOptions) -> [u8; 16] {
    let abbreviated: &[u8] = if options.abbreviated { b"wWfF" } else { b"" };
    let refang: &[u8] = if options.refang { b"hHfF[" } else { b"" };
    let mut set = [0u8; 16];
    for &b in b":".iter().chain(abbreviated).chain(refang) {
        set[usize::from(b & 15)] |= 1 << (b >> 4);
    }
    set
}

/// The most bytes a hit in `<…>` or `"…"` spans from its opening
/// delimiter: text cut for searching in parts (see [`FindIter::stop_at`])
/// needs this much after a cut to finish the candidates begun before it.
/// A bare, abbreviated or defanged hit never spans a line end.
pub const MAX_DELIMITED: usize = 8192;

/// The iterator of [`find_iter`].
#[derive(Clone, Debug)]
pub struct FindIter<'a> {
    text: &'a [u8],
    /// Where the search goes on.
    pos: usize,
    /// No candidate begins at or after this.
    stop: usize,
    /// Nothing before this belongs to a new hit (the end of the last one).
    floor: usize,
    parser: Parser,
    options: ExtractOptions,
    /// Byte classes of the profile (see `classes`).
    class: [u8; 256],
    /// The bytes a reference of the profile may hold, as the scan kernels
    /// take a set (`None` if one is not ASCII: the class table serves).
    token: Option<(crate::scan::Nibbles, crate::scan::Ranges)>,
    /// The classifier, and the one set it marks: where candidates are
    /// looked for (see `trigger_set`).
    kern: crate::scan::Classify,
    trigger: [[u8; 16]; 1],
    /// The 64-byte block of the text last classified (a multiple of 64,
    /// `usize::MAX` before the first), and its trigger bits.
    block: usize,
    bits: u64,
    /// With the colons as the only triggers: the kernel that marks the
    /// candidate colons (see `scan::colon_chunk`), a chunk of
    /// [`CHUNK`](crate::scan::CHUNK) blocks at a time; the chunk's start
    /// (`usize::MAX` before the first), its marks, the words of them not
    /// yet looked at (a bit per word that has a mark), and the marks not
    /// yet taken of the word at `word_at`.
    colon: crate::scan::ColonChunk,
    chunk: usize,
    marks: crate::scan::Marks,
    pending: u32,
    word: u64,
    word_at: usize,
    /// The profile's bitmap validator (`None` where there is none), and
    /// the bitmaps of the last token it looked at.
    fast: Option<Fast>,
    token_bits: Token,
}

/// The fast path's validator of absolute URIs and the sets a token is
/// classified into: the validator's run sets, then the bytes a reference
/// may hold (whose first outsider ends the token).
#[derive(Clone, Debug)]
struct Fast {
    valid: crate::engine::FastValid,
    sets: crate::scan::RowSets,
    /// Whether every run set lies in the token's set: then a token's end
    /// is a stop of every run, and the validator needs no stops put there.
    within: bool,
}

impl Fast {
    /// From the parser's validator and the token's set (see `token_set`).
    fn of(parser: &Parser, token: Option<&crate::scan::Nibbles>) -> Option<Fast> {
        let (valid, runs) = parser.plain_valid()?;
        let token = token?;
        if runs.len() >= crate::scan::MAX_CLASSES {
            return None;
        }
        let mut sets = [[0u8; 16]; crate::scan::MAX_CLASSES];
        sets[..runs.len()].copy_from_slice(runs);
        sets[runs.len()].copy_from_slice(&token[..16]);
        let within = runs
            .iter()
            .all(|r| r.iter().zip(token.iter()).all(|(r, t)| r & !t == 0));
        Some(Fast {
            valid,
            sets: crate::scan::RowSets::new(&sets[..=runs.len()]),
            within,
        })
    }
}

/// The profile's reference bytes as nibble tables and ranges, for finding
/// a token's end many bytes at a time.
fn token_set(profile: Profile) -> Option<(crate::scan::Nibbles, crate::scan::Ranges)> {
    let n = crate::scan::nibbles_of(profile.tables().bytes)?;
    Some((n, crate::scan::ranges_of(&n)))
}

/// Whitespace: ASCII, and U+00A0 (0xC2 0xA0).
fn space_at(t: &[u8], i: usize) -> usize {
    match t[i] {
        b if ascii_space(b) => 1,
        0xc2 if t.get(i + 1) == Some(&0xa0) => 2,
        _ => 0,
    }
}

/// ASCII whitespace: space, tab, LF, VT, FF, CR.
const fn ascii_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// Whether the scheme of `uri` is followed by `//` or registered.
fn scheme_ok(uri: &[u8]) -> bool {
    let Some(colon) = uri.iter().position(|&b| b == b':') else {
        return false;
    };
    uri[colon + 1..].starts_with(b"//") || registered(&uri[..colon])
}

/// Whether `scheme` is one of [`SCHEMES`] (in any case): its bytes in
/// lower case as one integer, against the list's (prose has many words
/// before a colon, so this is asked often).
fn registered(scheme: &[u8]) -> bool {
    const KEYS: [u64; SCHEMES.len()] = {
        let mut keys = [0u64; SCHEMES.len()];
        let mut i = 0;
        while i < SCHEMES.len() {
            keys[i] = key(SCHEMES[i].as_bytes());
            i += 1;
        }
        keys
    };
    scheme.len() <= 7 && KEYS.contains(&key(scheme))
}

/// Up to seven bytes in ASCII lower case, and their count, as an integer.
const fn key(s: &[u8]) -> u64 {
    let mut k = s.len() as u64;
    let mut i = 0;
    while i < s.len() && i < 7 {
        k |= (s[i].to_ascii_lowercase() as u64) << (8 * (i + 1));
        i += 1;
    }
    k
}

/// Byte classes, one table load per byte, read off the profile's tables
/// (nothing here restates a grammar): `URI` for bytes some reference of the
/// profile may hold, `SCHEME` for the scheme's bytes, `SCHEME_START` for
/// those a scheme may begin with.
const URI: u8 = 1;
const SCHEME: u8 = 2;
const SCHEME_START: u8 = 4;

fn classes(profile: Profile) -> [u8; 256] {
    let t = profile.tables();
    core::array::from_fn(|b| {
        let b = b as u8;
        (crate::engine::in_set(t.bytes, b) as u8 * URI)
            | (t.scheme_byte(b) as u8 * SCHEME)
            | (t.scheme_start(b) as u8 * SCHEME_START)
    })
}

/// The byte before a scheme, for [`FindIter::lane`]: `"` opens a quoted
/// URI, `<` a bracketed one, ASCII whitespace may follow a `<`; a `:` (of
/// `URL:`) and 0xA0 (U+00A0's last byte) are for the general path; any
/// other makes the URI bare.
const BARE: u8 = 0;
const QUOTE: u8 = 1;
const ANGLE: u8 = 2;
const SPACE: u8 = 3;
const OTHER: u8 = 4;
const LANE: [u8; 256] = {
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

/// The longest scheme of a URI in `"…"` or `<…>` (a bare one's is
/// unbounded).
const MAX_SCHEME: usize = 32;

/// Blocks without a candidate after which the search for the next trigger
/// goes to memchr, when the options add triggers to the colons.
const JUMP: usize = 4;

/// Bytes that end a bare URI's trailing run when unbalanced, or always.
const TRAILING: &[u8] = b".,;:!?'";

/// [`TRAILING`] as a 256-bit set (one test in place of a search).
const TRAILING_SET: [u64; 4] = {
    let mut set = [0u64; 4];
    let mut i = 0;
    while i < TRAILING.len() {
        let b = TRAILING[i];
        set[(b >> 6) as usize] |= 1 << (b & 63);
        i += 1;
    }
    set
};

impl<'a> FindIter<'a> {
    /// Leaves out the candidates that begin at or after `at`, which must be
    /// a line start: the text after it is read only to finish those begun
    /// before (up to [`MAX_DELIMITED`] bytes). Text searched in parts, each
    /// cut at a line start and searched up to the next cut this way (with
    /// that much text after it), gives the hits of one search over the
    /// whole, as long as a part starts after the last hit of the one before
    /// when that hit runs past the cut.
    ///
    /// ```
    /// use urilex::extract::{find_iter, ExtractOptions};
    /// let text = b"see <http://a.example/\n  b>\nand http://c.example/\n";
    /// let cut = 28; // the start of the third line
    /// let first: Vec<_> = find_iter(text, ExtractOptions::new()).stop_at(cut).collect();
    /// assert_eq!(first.len(), 1);
    /// assert_eq!(first[0].uri, "http://a.example/b");
    /// ```
    pub fn stop_at(mut self, at: usize) -> FindIter<'a> {
        self.stop = at.min(self.text.len());
        self
    }

    /// Where the search goes on: after the last hit's closing delimiter
    /// (or further, past text already searched).
    pub fn position(&self) -> usize {
        self.pos
    }

    #[inline(always)]
    fn uri_byte(&self, b: u8) -> bool {
        self.class[b as usize] & URI != 0
    }

    #[inline(always)]
    fn scheme_byte(&self, b: u8) -> bool {
        self.class[b as usize] & SCHEME != 0
    }

    #[inline(always)]
    fn scheme_start(&self, b: u8) -> bool {
        self.class[b as usize] & SCHEME_START != 0
    }

    /// Whether `t[at..]` begins with a scheme and its `:` (within 32
    /// bytes): a quick test before looking for a closing delimiter.
    fn starts_with_scheme(&self, at: usize) -> bool {
        let t = self.text;
        if !t.get(at).is_some_and(|&b| self.scheme_start(b)) {
            return false;
        }
        let end = t.len().min(at + MAX_SCHEME + 1);
        let mut i = at + 1;
        while i < end && self.scheme_byte(t[i]) {
            i += 1;
        }
        i < end && t[i] == b':'
    }

    /// The text as a `str` where it is ASCII, for a hit without changes.
    fn borrowed(&self, r: Range<usize>) -> Option<Cow<'a, str>> {
        let b = &self.text[r];
        crate::scan::ascii_str(b)
            .or_else(|| core::str::from_utf8(b).ok())
            .map(Cow::Borrowed)
    }

    /// The next trigger byte at or after `pos`, from the classified
    /// blocks.
    #[inline(always)]
    fn next_trigger(&mut self) -> Option<usize> {
        let len = self.text.len();
        if self.pos >= len {
            return None;
        }
        if self.colons_only() {
            return self.next_colon();
        }
        let mut block = self.pos & !63;
        let mut bits = if block == self.block {
            self.bits
        } else {
            self.classify(block)
        };
        bits &= !0u64 << (self.pos & 63);
        let mut empty = 0;
        while bits == 0 {
            block += 64;
            if block >= len {
                return None;
            }
            // Past blocks without a trigger, memchr finds the next colon
            // (prose has few: it runs there at memory speed); the options'
            // triggers before it are found when their blocks are
            // classified.
            if empty == JUMP {
                match memchr::memchr(b':', &self.text[block..]) {
                    Some(k) => block = (block + k) & !63,
                    None => return None,
                }
            }
            bits = self.classify(block);
            empty += 1;
        }
        Some(block + bits.trailing_zeros() as usize)
    }

    /// The next candidate colon at or after `pos`. A chunk's marks are
    /// taken in order, a word at a time from the words that have one (no
    /// loop over empty blocks, whose exit would be mispredicted); a colon
    /// before `pos` (inside the last hit) is passed over.
    #[inline(always)]
    fn next_colon(&mut self) -> Option<usize> {
        loop {
            while self.word != 0 {
                let p = self.word_at + self.word.trailing_zeros() as usize;
                self.word &= self.word - 1;
                if p >= self.pos {
                    return Some(p);
                }
            }
            if self.pending != 0 {
                let w = self.pending.trailing_zeros() as usize;
                self.pending &= self.pending - 1;
                self.word = self.marks[w];
                self.word_at = self.chunk + 64 * w;
                continue;
            }
            const SPAN: usize = 64 * crate::scan::CHUNK;
            let at = match self.chunk {
                usize::MAX => self.pos,
                c => self.pos.max(c + SPAN),
            };
            if at >= self.text.len() {
                return None;
            }
            self.chunk = at;
            self.pending = crate::scan::colon_chunk(self.colon, self.text, at, &mut self.marks);
        }
    }

    /// Marks the trigger bytes of the block at `block`.
    fn classify(&mut self, block: usize) -> u64 {
        let t = self.text;
        let bits = match t.get(block..block + 64) {
            Some(b) => self.mark(b.try_into().expect("64 bytes")),
            None => {
                // Past the end: NUL, which is no trigger.
                let mut pad = [0u8; 64];
                let rest = &t[block..];
                pad[..rest.len()].copy_from_slice(rest);
                self.mark(&pad)
            }
        };
        self.block = block;
        self.bits = bits;
        bits
    }

    /// The trigger bytes of 64 bytes, by the classifier: the colons and the
    /// options' bytes.
    #[inline(always)]
    fn mark(&self, b: &[u8; 64]) -> u64 {
        let mut out = [0u64; 1];
        (self.kern)(b, &self.trigger, &mut out, 1);
        !out[0]
    }

    /// Whether the colons are the only triggers (no option asks for more).
    #[inline(always)]
    fn colons_only(&self) -> bool {
        !(self.options.abbreviated || self.options.refang)
    }

    /// Whether `/` or whitespace follows the colon at `p`: where `//` may
    /// begin (in brackets it may be broken by whitespace).
    #[inline(always)]
    fn slash_or_space_after(&self, p: usize) -> bool {
        let t = self.text;
        t.get(p + 1) == Some(&b'/') || (p + 1 < t.len() && space_at(t, p + 1) > 0)
    }

    /// The start of the scheme that ends at the colon `p`: scheme bytes
    /// back to the last hit's end, from the first that may begin one (`p`
    /// when there is none).
    #[inline(always)]
    fn scheme_start_before(&self, p: usize) -> usize {
        let t = self.text;
        let mut s = p;
        while s > self.floor && self.scheme_byte(t[s - 1]) {
            s -= 1;
        }
        while s < p && !self.scheme_start(t[s]) {
            s += 1;
        }
        s
    }

    /// The `<` whose URI starts at `s`: before `s`, whitespace, or
    /// whitespace, `URL:` and whitespace, then `<`, after the last hit.
    fn opener(&self, s: usize) -> Option<(usize, Delimiter)> {
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
    fn delimited(&mut self, s: usize, fast: Option<usize>) -> Option<(Hit<'a>, usize)> {
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

    /// The candidate whose scheme is `s..p` by the fast path: its token (the
    /// bytes a reference may hold) classified once, and the URI taken when
    /// the token ends at the closing delimiter (or, bare, once trimmed) and
    /// the bitmap validator accepts it. `None` when that does not settle
    /// it: the general path decides, with the same answer where this one
    /// gives one. The scheme must be followed by `//` or registered.
    #[inline(always)]
    fn fast_hit(&mut self, s: usize, p: usize, delimiter: Delimiter) -> Option<(Hit<'a>, usize)> {
        let t = self.text;
        let f = self.fast.as_ref()?;
        let (valid, within) = (f.valid, f.within);
        let token = self.token_bits.classify(t, s, &f.sets)?;
        let e = s + token.len();
        let close = match delimiter {
            Delimiter::Quote => b'"',
            Delimiter::Url | Delimiter::Angle => b'>',
            Delimiter::None => 0,
        };
        let (end, next) = if close == 0 {
            (trim(t, s, e), e)
        } else {
            // A URI of scheme "URL" right after `<` is read as the `URL:`
            // prefix: the general path's case.
            if t.get(e) != Some(&close)
                || (delimiter == Delimiter::Angle
                    && t[s..].len() >= 4
                    && t[s..s + 4].eq_ignore_ascii_case(b"URL:"))
            {
                return None;
            }
            (e, e + 1)
        };
        let cut = end < e || !within;
        if end <= p + 1 || !valid(&self.token_bits.line(t, s, end - s, cut)) {
            return None;
        }
        Some((
            Hit {
                uri: Cow::Borrowed(&token[..end - s]),
                span: s..end,
                delimiter,
                flags: Flags::default(),
            },
            next,
        ))
    }

    /// The fast path's common case, with one table lookup in place of
    /// the choice among delimiters: the scheme `s..p` (followed by `//` or
    /// registered) right after `"`, `<`, or `<` and one whitespace byte, or
    /// after none of these and no whitespace before them (bare). The
    /// delimiter and what [`fast_hit`](Self::fast_hit) gives for it; `None`
    /// for any other (a `URL:` prefix, more whitespace, U+00A0), which the
    /// general sequence decides.
    #[inline(always)]
    fn lane(&mut self, s: usize, p: usize) -> Option<(Delimiter, Option<(Hit<'a>, usize)>)> {
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
    fn space_before(&self, mut i: usize) -> usize {
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
    fn accept(&self, uri: &[u8]) -> bool {
        scheme_ok(uri) && self.parser.is_valid(uri)
    }

    /// A delimited URI in one DFA pass: from `start`, the profile's DFA
    /// must reach the closing byte `close` in an accepting state. `None`
    /// when that does not settle it (whitespace inside, a scheme-chosen
    /// rule): the general path decides.
    fn direct(&self, start: usize, limit: usize, close: u8) -> Option<usize> {
        let d = self.parser.plain_dfa()?;
        let t = self.text;
        let (e, state) = d.run_from(&t[..limit], start);
        (e < limit && t[e] == close && d.accept[state as usize] && scheme_ok(&t[start..e]))
            .then_some(e)
    }

    /// `<…>` at `p`: the hit, and where the search goes on.
    fn angle(&self, p: usize) -> Option<(Hit<'a>, usize)> {
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
    fn joined(&self, r: Range<usize>) -> Option<(Cow<'a, str>, Flags)> {
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
    fn quote(&self, p: usize) -> Option<(Hit<'a>, usize)> {
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
    fn bare(&self, s: usize, p: usize) -> (Option<Hit<'a>>, usize) {
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
    fn abbreviated(&self, s: usize) -> Option<(Hit<'a>, usize)> {
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
    fn refanged(&self, s: usize) -> Option<(Hit<'a>, usize)> {
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
}

/// The end of a bare URI from `s` to `e` once trailing sentence
/// punctuation, closing quotes and unbalanced closing brackets are left out.
/// Most URIs end in none of these: one test, inlined, says so.
#[inline(always)]
fn trim(t: &[u8], s: usize, e: usize) -> usize {
    match t[s..e].last() {
        Some(&b) if TRIMMED[usize::from(b >> 6)] >> (b & 63) & 1 != 0 => trim_end(t, s, e),
        _ => e,
    }
}

/// [`TRAILING`] and the closing brackets, as a 256-bit set: the bytes
/// [`trim_end`] may leave out.
const TRIMMED: [u64; 4] = {
    let mut set = TRAILING_SET;
    let mut i = 0;
    while i < 3 {
        let b = b")]}"[i];
        set[(b >> 6) as usize] |= 1 << (b & 63);
        i += 1;
    }
    set
};

/// [`trim`] once the last byte is one it may leave out.
#[inline(never)]
fn trim_end(t: &[u8], s: usize, mut e: usize) -> usize {
    // Per bracket pair, its opening and closing counts in the candidate,
    // taken once a closing bracket of the pair ends it and kept as bytes
    // are dropped, so the whole is linear. (A plain count: the candidates
    // are short, and memchr's setup and its exit branches cost more than
    // the count itself there.)
    let mut n: [Option<(usize, usize)>; 3] = [None; 3];
    loop {
        let Some(&last) = t[s..e].last() else {
            return e;
        };
        if TRAILING_SET[usize::from(last >> 6)] >> (last & 63) & 1 != 0 {
            e -= 1;
            continue;
        }
        let (k, open) = match last {
            b')' => (0, b'('),
            b']' => (1, b'['),
            b'}' => (2, b'{'),
            _ => return e,
        };
        let (opened, closed) = n[k].get_or_insert_with(|| {
            let count = |c: u8| t[s..e].iter().filter(|&&b| b == c).count();
            match count(open) {
                // None opened: every closing one at the end goes (any
                // count above zero says so).
                0 => (0, e - s),
                opened => (opened, count(last)),
            }
        });
        if *closed > *opened {
            *closed -= 1;
            e -= 1;
        } else {
            return e;
        }
    }
}

/// A defanged token put back: `hxxp`/`hxxps`/`fxp` schemes, `[.]`, `(.)`,
/// `[:]`, `[://]`, `[@]`, `[dot]`. Whether anything changed.
fn refang(token: &[u8]) -> (Vec<u8>, bool) {
    let mut out = Vec::with_capacity(token.len());
    let mut changed = false;
    let mut i = 0;
    let lower: Vec<u8> = token.iter().map(|b| b.to_ascii_lowercase()).collect();
    for (from, to) in [
        (&b"hxxps"[..], &b"https"[..]),
        (b"hxxp", b"http"),
        (b"fxp", b"ftp"),
    ] {
        if lower.starts_with(from) {
            out.extend_from_slice(to);
            i = from.len();
            changed = true;
            break;
        }
    }
    while i < token.len() {
        let rest = &lower[i..];
        let swap: Option<(&[u8], &[u8])> = [
            (&b"[://]"[..], &b"://"[..]),
            (b"[:]", b":"),
            (b"[.]", b"."),
            (b"(.)", b"."),
            (b"{.}", b"."),
            (b"[dot]", b"."),
            (b"[@]", b"@"),
            (b"[/]", b"/"),
        ]
        .into_iter()
        .find(|(f, _)| rest.starts_with(f));
        match swap {
            Some((f, to)) => {
                out.extend_from_slice(to);
                i += f.len();
                changed = true;
            }
            None => {
                out.push(token[i]);
                i += 1;
            }
        }
    }
    (out, changed)
}

impl<'a> Iterator for FindIter<'a> {
    type Item = Hit<'a>;

    fn next(&mut self) -> Option<Hit<'a>> {
        let t = self.text;
        loop {
            let Some(p) = self.next_trigger().filter(|&p| p < self.stop) else {
                return self.last();
            };
            let got = if t[p] == b':' {
                // A hit's scheme is followed by `//` (which in brackets
                // may be broken by whitespace) or is registered, and every
                // registered one ends in a letter: any other colon (a time
                // of day, a JSON key's) is passed over before its scheme is
                // read.
                let slash_or_space = self.slash_or_space_after(p);
                if !(slash_or_space || (p > 0 && t[p - 1].is_ascii_alphabetic())) {
                    self.pos = p + 1;
                    continue;
                }
                let s = self.scheme_start_before(p);
                let ok = s < p && (t[p + 1..].starts_with(b"//") || registered(&t[s..p]));
                if s == p || !(ok || slash_or_space) {
                    self.pos = p + 1;
                    continue;
                }
                // Delimited (within `MAX_SCHEME`, as `starts_with_scheme`
                // reads it), the fast path first where the scheme
                // qualifies; then bare, where it does.
                let fast = ok.then_some(p);
                let found = match if ok { self.lane(s, p) } else { None } {
                    Some((_, Some(hit))) => Some(hit),
                    // The lane's fast path said no: what the sequence below
                    // does after that same answer, without asking again.
                    Some((Delimiter::None, None)) => None,
                    Some((_, None)) => self
                        .delimited(s, None)
                        .or_else(|| self.fast_hit(s, p, Delimiter::None)),
                    None => (p - s <= MAX_SCHEME)
                        .then(|| self.delimited(s, fast))
                        .flatten()
                        .or_else(|| fast.and_then(|p| self.fast_hit(s, p, Delimiter::None))),
                };
                match found {
                    Some(hit) => Some(hit),
                    None if !ok => {
                        self.pos = p + 1;
                        continue;
                    }
                    None => match self.bare(s, p) {
                        (Some(h), next) => Some((h, next)),
                        (None, next) => {
                            self.pos = next;
                            continue;
                        }
                    },
                }
            } else {
                // A URI in `"…"` or `<…>` that starts here is taken as it
                // is before its first byte starts a defanged or
                // abbreviated one.
                let delimited = if self.starts_with_scheme(p) {
                    self.delimited(p, None)
                } else {
                    None
                };
                if let Some((h, next)) = delimited {
                    self.pos = next;
                    self.floor = next;
                    return Some(h);
                }
                let at_token = p == 0 || space_at(t, p - 1) > 0 || b"(\"'<".contains(&t[p - 1]);
                let mut hit = None;
                if at_token && self.options.refang {
                    hit = self.refanged(p);
                }
                if hit.is_none() && self.options.abbreviated && at_token {
                    hit = self.abbreviated(p);
                }
                hit
            };
            match got {
                Some((h, next)) => {
                    self.pos = next;
                    self.floor = next;
                    return Some(h);
                }
                None => self.pos = p + 1,
            }
        }
    }
}

impl<'a> FindIter<'a> {
    /// Past the last trigger before the stop: the one hit that may still
    /// begin before it, a `<` whose URI starts after it (whitespace,
    /// line breaks included, may come between them). Then the end.
    fn last(&mut self) -> Option<Hit<'a>> {
        let stop = self.stop;
        self.pos = self.text.len();
        if stop >= self.text.len() || stop <= self.floor {
            return None;
        }
        let (d, _) = self.opener(stop)?;
        let (h, next) = self.angle(d)?;
        self.pos = next;
        self.floor = next;
        Some(h)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trailing_punctuation_and_brackets() {
        let t = b"x) (see http://a/b_(c)). ok";
        let s = 8;
        assert_eq!(&t[s..trim(t, s, 24)], b"http://a/b_(c)");
        let (r, changed) = refang(b"hxxps[:]//a[.]b(.)c[@]d");
        assert!(changed);
        assert_eq!(r, b"https://a.b.c@d");
    }

    /// `registered` knows every scheme of the list in any case, and
    /// nothing else.
    #[test]
    fn registered_schemes_are_recognized_in_any_case() {
        for s in SCHEMES {
            assert!(s.len() <= 7, "{s}");
            assert!(registered(s.as_bytes()));
            assert!(registered(s.to_ascii_uppercase().as_bytes()));
            assert!(!registered(format!("{s}x").as_bytes()));
            assert!(!registered(&s.as_bytes()[1..]));
        }
        for s in ["http", "Note", "e.g.", "", "mailtox", "mailt"] {
            assert!(!registered(s.as_bytes()), "{s}");
        }
    }

    /// Every scheme taken without `//` ends in a letter: the colon filter
    /// in `next` relies on it.
    #[test]
    fn registered_schemes_end_in_a_letter() {
        for s in SCHEMES {
            assert!(
                s.as_bytes().last().is_some_and(u8::is_ascii_alphabetic),
                "{s}"
            );
        }
    }

    /// Text made of pieces URIs are made of, delimiters and whitespace,
    /// deterministic.
    fn pieces_text(seed: u64, n: usize) -> Vec<u8> {
        const PIECES: [&[u8]; 22] = [
            b"http://",
            b"https://a.example/",
            b"<URL:",
            b"< ",
            b"<",
            b">",
            b"\"",
            b"mailto:",
            b"www.",
            b"hxxps[:]//",
            b"[.]",
            b"ftp.",
            b" ",
            b"\n",
            b"URL: ",
            b"a.b/c",
            b"(x)",
            b")",
            b".",
            b"%41",
            b"\xc2\xa0",
            b"-\n",
        ];
        let alphabet = b"ab:/?#[]@!$&'()*+,;=-._~%0129 \n<>\"";
        let mut x = seed | 1;
        let mut out = Vec::new();
        for _ in 0..n {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            if x.is_multiple_of(3) {
                out.extend_from_slice(PIECES[(x >> 8) as usize % PIECES.len()]);
            } else {
                out.push(alphabet[(x >> 16) as usize % alphabet.len()]);
            }
        }
        out
    }

    /// The fast path classifies a token two blocks at a time: URIs of every
    /// length across those blocks and past the fast path's limit, bare,
    /// quoted, bracketed, trimmed, and ending the text, give the general
    /// path's hits, and the whole URI.
    #[test]
    fn fast_path_takes_tokens_of_every_length() {
        for n in 0..300 {
            let uri = format!("http://a.example/{}", "x".repeat(n));
            for (open, close) in [("", " ok"), ("\"", "\""), ("<", ">"), ("(", ").")] {
                for before in ["see ", ""] {
                    let text = format!("{before}{open}{uri}{close}");
                    let fast: Vec<Hit> =
                        find_iter(text.as_bytes(), ExtractOptions::new()).collect();
                    let mut general = find_iter(text.as_bytes(), ExtractOptions::new());
                    general.fast = None;
                    assert_eq!(fast, general.collect::<Vec<_>>(), "{text}");
                    assert_eq!(fast.len(), 1, "{text}");
                    assert_eq!(fast[0].uri, uri, "{text}");
                }
            }
            let text = format!("see {uri}");
            let hits: Vec<Hit> = find_iter(text.as_bytes(), ExtractOptions::new()).collect();
            assert_eq!(hits.len(), 1);
            assert_eq!(hits[0].uri, uri);
        }
    }

    /// Every profile's run sets lie in its token set, so that a token's end
    /// needs no stops put in for the validator (`Fast::within`); where one
    /// did not, the stops would be put in, more slowly.
    #[test]
    fn run_sets_lie_in_the_token_set() {
        let mut fast = 0;
        for profile in Profile::ALL {
            let it = find_iter(b"", ExtractOptions::new().profile(*profile));
            if let Some(f) = &it.fast {
                assert!(f.within, "{profile:?}");
                fast += 1;
            }
        }
        assert!(fast > 0);
    }

    /// The fast path (a token classified once, the bitmap validator) gives
    /// the hits the general path (the DFA) gives, in every profile that has
    /// one, with and without the options.
    #[test]
    fn fast_path_agrees_with_the_general_path() {
        let mut compared = 0;
        for profile in Profile::ALL {
            for round in 0..12u64 {
                let text = pieces_text(0x5eed + round, 20_000);
                let o = ExtractOptions::new()
                    .profile(*profile)
                    .abbreviated(round % 3 == 1)
                    .refang(round % 3 == 2);
                let it = find_iter(&text, o);
                if it.fast.is_none() {
                    continue;
                }
                let mut general = find_iter(&text, o);
                general.fast = None;
                let a: Vec<Hit> = it.collect();
                let b: Vec<Hit> = general.collect();
                assert_eq!(a, b, "{profile:?} round {round}");
                compared += a.len();
            }
        }
        assert!(compared > 1000, "{compared}");
    }
}
