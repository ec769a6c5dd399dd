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

mod candidates;
mod fast;
mod forms;
mod scheme;
mod trim;

use crate::engine::bits::Token;
use crate::{Parser, Profile, Syntax};
use fast::*;
use forms::*;
pub use scheme::SCHEMES;
use scheme::*;
use std::borrow::Cow;
use std::ops::Range;
use trim::*;

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
    let Setup {
        parser,
        class,
        token,
        fast,
    } = setup(options.profile).clone();
    FindIter {
        text,
        pos: 0,
        stop: text.len(),
        floor: 0,
        parser,
        options,
        class,
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
        fast,
        token_bits: Token::new(),
    }
}

/// What a search needs of its profile: its parser, byte classes, token
/// set and bitmap validator. Made once per profile and kept (about 24,000
/// instructions each time before: a search of one short text, such as
/// one value of a column, paid that per value).
#[derive(Clone)]
struct Setup {
    parser: Parser,
    class: [u8; 256],
    token: Option<(crate::scan::Nibbles, crate::scan::Ranges)>,
    fast: Option<Fast>,
}

fn setup(profile: Profile) -> &'static Setup {
    use std::sync::OnceLock;
    // A slot per profile, each made when first searched with.
    static MADE: OnceLock<Vec<OnceLock<Setup>>> = OnceLock::new();
    let made = MADE.get_or_init(|| Profile::ALL.iter().map(|_| OnceLock::new()).collect());
    let at = Profile::ALL
        .iter()
        .position(|&p| p == profile)
        .expect("every profile is in Profile::ALL");
    made[at].get_or_init(|| {
        let parser = Parser::new().profile(profile).syntax(Syntax::Uri);
        let token = token_set(profile);
        Setup {
            parser,
            class: classes(profile),
            fast: Fast::of(&parser, token.as_ref().map(|(n, _)| n)),
            token,
        }
    })
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

    /// Begins the search at `at`, as a search of the whole text goes on
    /// after a hit that ends there: no hit starts before `at`, and the
    /// bytes before it are read only as the context of a candidate at it
    /// (whether it starts a token). A part of text searched after another
    /// part's last hit ran past their cut starts there this way: a slice
    /// starting at `at` would take its first byte as a token's start.
    ///
    /// ```
    /// use urilex::extract::{find_iter, ExtractOptions};
    /// let text = b"<http://a.example/>\nsee http://b.example/\n";
    /// let o = ExtractOptions::new();
    /// let whole: Vec<_> = find_iter(text, o).collect();
    /// let rest: Vec<_> = find_iter(text, o).start_at(19).collect();
    /// assert_eq!(rest, whole[1..]);
    /// assert_eq!(rest[0].span, 24..41);
    /// ```
    pub fn start_at(mut self, at: usize) -> FindIter<'a> {
        let at = at.min(self.text.len());
        self.pos = at;
        self.floor = at;
        self
    }

    /// Where the search goes on: after the last hit's closing delimiter
    /// (or further, past text already searched).
    pub fn position(&self) -> usize {
        self.pos
    }
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
mod tests;
