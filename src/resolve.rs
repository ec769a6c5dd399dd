//! Reference resolution: RFC 3986 section 5.2 (the default), and the
//! algorithms of the two drafts it grew from, chosen by the base's profile.
//!
//! Results are written into a caller-supplied `String`, so resolving many
//! references reuses one buffer; [`UriRef::resolve`] is the owned shortcut.

use crate::{Parser, Profile, UriRef, UriRefBuf};
use core::fmt;

/// Which resolution algorithm a profile uses (its grammar file's
/// `;@ resolution` directive).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Algorithm {
    /// RFC 3986 sections 5.2.1 to 5.3.
    Rfc3986,
    /// draft-fielding-uri-rfc2396bis-00 section 5.2: dot segments are
    /// removed only while merging a relative path; an absolute path is used
    /// as it is; leading `..` segments are retained.
    Rfc2396bis00,
    /// draft-fielding-url-syntax-05 section 5.2: the query joins the buffer
    /// before dot segments are removed (step 6).
    UrlDraft05,
}

/// What to do with a `..` that would climb above the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DotAboveRoot {
    /// Drop it (RFC 3986 5.2.4): `http://a/b` + `../../g` gives `http://a/g`.
    Remove,
    /// Keep it in the path: `http://a/../g` (the drafts' Appendix C).
    Keep,
    /// Refuse the reference with [`ResolveError::AboveRoot`].
    Error,
}

/// Resolution options.
///
/// ```
/// use urilex::{ResolveOptions, UriRef};
/// let base = UriRef::parse("http://a/b/c/d;p?q").unwrap();
/// let r = UriRef::parse("http:g").unwrap();
/// assert_eq!(base.resolve(&r).unwrap().to_string(), "http:g");
/// let lenient = ResolveOptions::new().strict(false);
/// assert_eq!(base.resolve_with(&r, lenient).unwrap().to_string(), "http://a/b/c/g");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct ResolveOptions {
    non_strict: bool,
    dots: Option<DotAboveRoot>,
}

impl ResolveOptions {
    /// Strict, with the profile's treatment of `..` above the root.
    pub const fn new() -> Self {
        ResolveOptions {
            non_strict: false,
            dots: None,
        }
    }
    /// `false` ignores a reference's scheme when it equals the base's
    /// (RFC 3986 5.2.2, "non-strict").
    pub const fn strict(self, strict: bool) -> Self {
        ResolveOptions {
            non_strict: !strict,
            ..self
        }
    }
    /// How to treat `..` above the root (default: `Remove` for RFC 3986,
    /// `Keep` for the draft profiles, as their Appendix C shows).
    pub const fn dot_above_root(self, d: DotAboveRoot) -> Self {
        ResolveOptions {
            dots: Some(d),
            ..self
        }
    }
}

/// Why a reference could not be resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ResolveError {
    /// The base has no scheme (RFC 3986 5.1: a base URI must be absolute).
    BaseNotAbsolute,
    /// `..` climbed above the root and [`DotAboveRoot::Error`] was asked for.
    AboveRoot,
    /// The result would be longer than urilex's `u32` offsets hold.
    TooLong,
    /// Under a draft profile, the target is not a valid reference of its
    /// grammar: seed 000's section 5.2 merges any base path, but a relative
    /// path against an opaque base (`mailto:a[b]` + `x`) gives a hierarchical
    /// path that may hold characters only opaque parts allow.
    InvalidTarget,
}

impl fmt::Display for ResolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ResolveError::BaseNotAbsolute => "base URI is not absolute (it has no scheme)",
            ResolveError::AboveRoot => "\"..\" climbs above the root of the path",
            ResolveError::TooLong => "resolved URI is longer than 4 GiB",
            ResolveError::InvalidTarget => {
                "the resolved target is not valid in the profile's grammar (opaque base?)"
            }
        })
    }
}

impl std::error::Error for ResolveError {}

/// The five parts of RFC 3986 5.2's pseudocode.
#[derive(Clone, Copy)]
struct Parts<'a> {
    scheme: Option<&'a str>,
    authority: Option<&'a str>,
    path: &'a str,
    query: Option<&'a str>,
    fragment: Option<&'a str>,
}

impl<'a> Parts<'a> {
    fn of(u: &UriRef<'a>) -> Parts<'a> {
        Parts {
            scheme: u.scheme(),
            authority: u.authority(),
            path: u.path(),
            query: u.query(),
            fragment: u.fragment(),
        }
    }
}

/// Resolves `reference` against `base` into `out` (cleared first). Nothing is
/// allocated when `out` has room.
///
/// ```
/// use urilex::{resolve_into, ResolveOptions, UriRef};
/// let base = UriRef::parse("http://a/b/c/d;p?q").unwrap();
/// let mut out = String::new();
/// for (r, want) in [("../g", "http://a/b/g"), ("?y", "http://a/b/c/d;p?y"), ("../../../g", "http://a/g")] {
///     resolve_into(&base, &UriRef::parse(r).unwrap(), ResolveOptions::new(), &mut out).unwrap();
///     assert_eq!(out, want);
/// }
/// ```
pub fn resolve_into(
    base: &UriRef<'_>,
    reference: &UriRef<'_>,
    opts: ResolveOptions,
    out: &mut String,
) -> Result<(), ResolveError> {
    out.clear();
    let Some(base_scheme) = base.scheme() else {
        return Err(ResolveError::BaseNotAbsolute);
    };
    // Non-strict resolution (5.2.2) drops a scheme equal to the base's.
    let r_scheme = reference
        .scheme()
        .filter(|s| !(opts.non_strict && s.eq_ignore_ascii_case(base_scheme)));
    let algorithm = base.profile().resolution();
    let dots = opts.dots.unwrap_or(match algorithm {
        Algorithm::Rfc3986 => DotAboveRoot::Remove,
        _ => DotAboveRoot::Keep,
    });
    let r = || Parts {
        scheme: r_scheme,
        ..Parts::of(reference)
    };
    let result = match algorithm {
        // The base's parts as they are needed (its fragment never is).
        Algorithm::Rfc3986 => rfc3986(base, reference, r_scheme.is_some(), dots, out),
        Algorithm::Rfc2396bis00 => draft_2396bis(&Parts::of(base), &r(), dots, out),
        Algorithm::UrlDraft05 => draft_url05(&Parts::of(base), &r(), dots, out),
    };
    if result.is_err() {
        out.clear();
    }
    result?;
    if out.len() >= u32::MAX as usize {
        out.clear();
        return Err(ResolveError::TooLong);
    }
    // RFC 3986's algorithm yields valid references (property- and
    // fuzz-tested); the drafts' can merge into an opaque base's path.
    if algorithm != Algorithm::Rfc3986
        && !Parser::new()
            .profile(base.profile())
            .is_valid(out.as_bytes())
    {
        out.clear();
        return Err(ResolveError::InvalidTarget);
    }
    Ok(())
}

/// RFC 3986 5.2.2 to 5.3 straight from the two texts. 5.3 puts back exactly
/// the delimiters the parse took off, so the target is text copied from the
/// base and the reference up to where its path starts, its path (5.2.4 on
/// the merge's directory and the reference's path), and the reference's
/// text after its path (its query and fragment as written). Before the
/// path:
/// - for a reference with a scheme, its own text;
/// - with an authority, the base's scheme and ":", then the reference's "//"
///   and authority;
/// - otherwise the base up to its path, and the merge's directory (5.2.3)
///   for a relative path: the base's path up to its last "/", or "/" when
///   the base has an authority and an empty path.
///
/// A reference with none of these and an empty path takes the base up to its
/// path, or up to its query's end when it has no query itself, and then all
/// of its own text. `r_scheme`: whether the reference keeps its scheme
/// (non-strict resolution may drop it from the parts, not from the text).
#[inline]
fn rfc3986(
    b: &UriRef<'_>,
    reference: &UriRef<'_>,
    r_scheme: bool,
    dots: DotAboveRoot,
    out: &mut String,
) -> Result<(), ResolveError> {
    use crate::Component;
    let (btext, rtext) = (b.as_str(), reference.as_str());
    let r_at = reference.span(Component::Path).unwrap_or(0..0);
    let b_at = b.span(Component::Path).unwrap_or(0..0);
    // Spans from a parse are at char boundaries (ASCII delimiters); `get`
    // keeps a hand-made value from panicking.
    let r_path = rtext.get(r_at.clone()).unwrap_or("");
    let tail = rtext.get(r_at.end..).unwrap_or("");
    let r_authority = reference.span(Component::Authority);
    crate::steps::add(rtext.len() + 1);
    if !r_scheme && r_authority.is_none() && r_path.is_empty() {
        let keep = match b.span(Component::Query) {
            Some(q) if reference.span(Component::Query).is_none() => q.end,
            _ => b_at.end,
        };
        let head = btext.get(..keep).unwrap_or("");
        out.reserve(head.len() + tail.len());
        out.push_str(head);
        out.push_str(tail);
        return Ok(());
    }
    // The base's text kept (with the merge's directory at its end, but
    // for the "/" of an empty path, `slash`, which is not in the text),
    // where the reference's copy starts, the directory, whether the target
    // has an authority.
    let (keep, from, dir, slash, authority);
    if r_scheme {
        (keep, from, dir, slash) = (0, 0, "", false);
        authority = r_authority.is_some();
    } else if let Some(a) = r_authority {
        keep = b.span(Component::Scheme).map_or(0, |s| s.end + 1);
        (from, dir, slash, authority) = (a.start.saturating_sub(2), "", false, true);
    } else {
        authority = b.span(Component::Authority).is_some();
        from = r_at.start;
        let path = btext.get(b_at.clone()).unwrap_or("");
        (keep, dir, slash) = if r_path.starts_with('/') {
            (b_at.start, "", false)
        } else if path.is_empty() && authority {
            (b_at.start, "/", true)
        } else {
            let cut = path.bytes().rposition(|c| c == b'/').map_or(0, |i| i + 1);
            (b_at.start + cut, &path[..cut], false)
        };
    }
    let head = btext.get(..keep).unwrap_or("");
    let dir_plain = !has_dot_segment(dir);
    if dir_plain && !has_dot_segment(r_path) {
        // Rule E moves everything: the texts as they are.
        let copied = rtext.get(from..).unwrap_or("");
        out.reserve(head.len() + 1 + copied.len());
        out.push_str(head);
        if slash {
            out.push('/');
        }
        out.push_str(copied);
        return Ok(());
    }
    let in_text = if slash { 0 } else { dir.len() };
    out.push_str(&head[..head.len() - in_text]);
    out.push_str(rtext.get(from..r_at.start).unwrap_or(""));
    let path_start = out.len();
    crate::steps::add(dir.len() + r_path.len() + 1);
    dot_segments(dir, dir_plain, r_path, out, dots)?;
    guard_double_slash(out, path_start, authority);
    out.push_str(tail);
    Ok(())
}

/// RFC 3986 5.2.4 on a rooted path, as a segment stack on the output:
/// `segments` is the path after its first "/", and what `out` holds above
/// `floor` (where the path starts) is segments already kept, each with its
/// "/" before it. Each segment is written the same way, so "." writes
/// nothing and ".." takes the last written segment back; a final "." or ".."
/// leaves a "/" (rules B and C at the input's end). Plain segments are
/// copied in runs, up to the next one that starts with ".". Whether a ".."
/// found nothing to take (it climbed above the root).
fn push_segments(out: &mut String, floor: usize, segments: &str) -> bool {
    let mut rest = segments;
    let mut climbed = false;
    loop {
        if !rest.starts_with('.') {
            out.push('/');
            match crate::scan::find_dot_segment(rest.as_bytes()) {
                Some(k) => {
                    out.push_str(&rest[..k]);
                    rest = &rest[k + 1..];
                }
                None => {
                    out.push_str(rest);
                    return climbed;
                }
            }
        }
        let (n, up) = match rest.as_bytes() {
            [b'.'] | [b'.', b'/', ..] => (1, false),
            [b'.', b'.'] | [b'.', b'.', b'/', ..] => (2, true),
            // A segment such as ".x" or "...": an ordinary one.
            bytes => {
                let end = bytes.iter().position(|&c| c == b'/');
                out.push('/');
                match end {
                    Some(k) => {
                        out.push_str(&rest[..k]);
                        rest = &rest[k + 1..];
                        continue;
                    }
                    None => {
                        out.push_str(rest);
                        return climbed;
                    }
                }
            }
        };
        if up {
            match out.as_bytes()[floor..].iter().rposition(|&c| c == b'/') {
                Some(cut) => out.truncate(floor + cut),
                None => climbed = true,
            }
        }
        if n == rest.len() {
            out.push('/');
            return climbed;
        }
        rest = &rest[n + 1..];
    }
}

/// RFC 3986 3.3: without an authority a path cannot begin with "//" (it
/// would read as an authority). Dot removal can produce one (`foo:/` +
/// `.//@@`); "/." in front keeps the path and the parse.
#[inline]
fn guard_double_slash(out: &mut String, path_start: usize, has_authority: bool) {
    if !has_authority && out.as_bytes()[path_start..].starts_with(b"//") {
        out.insert_str(path_start, "/.");
    }
}

#[inline]
fn finish(out: &mut String, query: Option<&str>, fragment: Option<&str>) {
    if let Some(q) = query {
        out.push('?');
        out.push_str(q);
    }
    if let Some(f) = fragment {
        out.push('#');
        out.push_str(f);
    }
}

/// Whether a segment of the path `s` starts with ".": where 5.2.4 (and
/// 6.2.2.3) may have work; without one, the path is its own result.
#[inline(always)]
pub(crate) fn has_dot_segment(s: &str) -> bool {
    s.starts_with('.') || crate::scan::find_dot_segment(s.as_bytes()).is_some()
}

/// RFC 3986 5.2.4 on `out[start..]`, in place: the rules A to E in turn,
/// for normalization (6.2.2.3, on the path it has just written) and for
/// the merges that the segment stack (`push_segments`) leaves. `dots`
/// only changes what a ".." with nothing to pop does (`pop_in_place`).
/// The output never gets ahead of the input (each rule drops input, moves a
/// segment down, or writes no more than the ".." it consumed), so it is
/// written over the input it has consumed: `w <= r` throughout. Every cut
/// is at a "/" or a ".", so the text stays UTF-8.
pub(crate) fn remove_dot_segments_in_place(
    out: &mut String,
    start: usize,
    dots: DotAboveRoot,
) -> Result<(), ResolveError> {
    crate::steps::add(out.len() - start + 1);
    let mut v = std::mem::take(out).into_bytes();
    let n = v.len();
    let (mut r, mut w) = (start, start);
    // Where kept ".." segments end: nothing below is popped.
    let mut floor = start;
    let result = loop {
        if r >= n {
            break Ok(());
        }
        let step = match &v[r..n] {
            // A: "../" at the start of a relative path.
            [b'.', b'.', b'/', ..] => {
                r += 3;
                if dots == DotAboveRoot::Remove {
                    Ok(())
                } else {
                    pop_in_place(&mut v, &mut w, &mut floor, dots, false).map(|()| {
                        if dots == DotAboveRoot::Keep && w == floor {
                            v[w] = b'/';
                            w += 1;
                            floor = w;
                        }
                    })
                }
            }
            // A: "./" at the start; B: "/./" becomes "/" (the input goes
            // on at its second "/").
            [b'.', b'/', ..] | [b'/', b'.', b'/', ..] => {
                r += 2;
                Ok(())
            }
            // C: "/../" becomes "/", and the last output segment goes.
            [b'/', b'.', b'.', b'/', ..] => {
                r += 3;
                pop_in_place(&mut v, &mut w, &mut floor, dots, true)
            }
            // B: "/." at the end becomes "/"; D: a lone "." goes.
            [b'/', b'.'] | [b'.'] => {
                if v[r] == b'/' {
                    v[w] = b'/';
                    w += 1;
                }
                break Ok(());
            }
            // C: "/.." at the end becomes "/" and pops; D: a lone "..".
            [b'/', b'.', b'.'] | [b'.', b'.'] => {
                let lead = v[r] == b'/';
                let popped = if lead || dots != DotAboveRoot::Remove {
                    pop_in_place(&mut v, &mut w, &mut floor, dots, lead)
                } else {
                    Ok(())
                };
                if lead && popped.is_ok() {
                    // At most "/.." was written for the three bytes read.
                    v.truncate(w);
                    v.push(b'/');
                    w += 1;
                }
                break popped;
            }
            // E, up to the next segment that starts with ".".
            rest => {
                let len = 1 + crate::scan::find_dot_segment(&rest[1..]).unwrap_or(rest.len() - 1);
                v.copy_within(r..r + len, w);
                (r, w) = (r + len, w + len);
                Ok(())
            }
        };
        if step.is_err() {
            break step;
        }
    };
    v.truncate(w);
    *out = String::from_utf8(v).unwrap_or_else(|e| {
        // Not reached: only whole ASCII-delimited segments were moved.
        String::from_utf8_lossy(e.as_bytes()).into_owned()
    });
    result
}

/// Pops the last segment of the output `v[..w]` (not below `floor`, where
/// kept ".." segments end), or deals with a ".." that climbs above the
/// root: dropped, an error, or kept (written over the ".." just read).
fn pop_in_place(
    v: &mut [u8],
    w: &mut usize,
    floor: &mut usize,
    dots: DotAboveRoot,
    rooted: bool,
) -> Result<(), ResolveError> {
    if *w > *floor {
        let cut = v[*floor..*w].iter().rposition(|&c| c == b'/').unwrap_or(0);
        *w = *floor + cut;
        return Ok(());
    }
    match dots {
        DotAboveRoot::Remove => Ok(()),
        DotAboveRoot::Error => Err(ResolveError::AboveRoot),
        DotAboveRoot::Keep => {
            let kept: &[u8] = if rooted { b"/.." } else { b".." };
            v[*w..*w + kept.len()].copy_from_slice(kept);
            *w += kept.len();
            *floor = *w;
            Ok(())
        }
    }
}

/// RFC 3986 5.2.4 on `dir` + `path`, appending to `out`: a merged path is
/// the base's directory (empty or ending in "/") followed by the reference's
/// path, so merging needs no buffer.
///
/// The input buffer of 5.2.4 is `rest`, preceded by a "/" when `lead` is
/// set (and followed by `next`, the part not reached yet). Rule E moves not
/// one segment but every segment up to the next one that starts with ".",
/// found eight bytes at a time; rules A to D look at most four bytes ahead,
/// never past the end of `dir`, which ends with "/". `dots` only changes
/// what a ".." with nothing to pop does. Every cut is at a "/" or a ".",
/// so even a non-ASCII input is sliced at char boundaries.
///
/// Inlined for its common case, where no segment starts with "." and rule
/// E moves everything as it is; the rest is `dot_segments`. Resolution
/// calls `dot_segments` itself; this is the tests' way in.
#[cfg(test)]
#[inline(always)]
fn remove_dot_segments_parts(
    dir: &str,
    path: &str,
    out: &mut String,
    dots: DotAboveRoot,
) -> Result<(), ResolveError> {
    debug_assert!(dir.is_empty() || dir.ends_with('/'));
    crate::steps::add(dir.len() + path.len() + 1);
    let dir_plain = !has_dot_segment(dir);
    if dir_plain && !has_dot_segment(path) {
        out.push_str(dir);
        out.push_str(path);
        return Ok(());
    }
    dot_segments(dir, dir_plain, path, out, dots)
}

/// `remove_dot_segments_parts` where some segment starts with "."
/// (`dir_plain`: not one of the directory's). Inlined for its rooted case;
/// the rules one by one are `remove_dot_segments_in_place`.
#[inline(always)]
fn dot_segments(
    dir: &str,
    dir_plain: bool,
    path: &str,
    out: &mut String,
    dots: DotAboveRoot,
) -> Result<(), ResolveError> {
    // A rooted input whose directory has no dot segment (every merge with
    // a rooted directory, every absolute path): a segment stack on the
    // output, the directory's segments written first.
    let floor = out.len();
    let rooted = if dir.is_empty() {
        path.strip_prefix('/')
    } else if dir_plain && dir.starts_with('/') {
        out.push_str(&dir[..dir.len() - 1]);
        Some(path)
    } else {
        None
    };
    if let Some(segments) = rooted {
        if !push_segments(out, floor, segments) || dots == DotAboveRoot::Remove {
            return Ok(());
        }
        // A ".." above the root to keep or refuse: the rules one by one.
        out.truncate(floor);
    }
    out.push_str(dir);
    out.push_str(path);
    remove_dot_segments_in_place(out, floor, dots)
}

/// The drafts' string-buffer dot removal (seed 000 5.2 steps 3-7, seed 001
/// 5.2 steps 6d-6g), done with a segment stack: "." segments go, a segment
/// followed by ".." goes with it, a trailing "." or "<segment>/.." leaves the
/// trailing "/", and what is left of leading ".." follows `dots`.
fn draft_dots(buf: &str, out: &mut String, dots: DotAboveRoot) -> Result<(), ResolveError> {
    crate::steps::add(buf.len() + 1);
    let rooted = buf.starts_with('/');
    let body = if rooted { &buf[1..] } else { buf };
    let segs: Vec<&str> = body.split('/').collect();
    let mut stack: Vec<&str> = Vec::with_capacity(segs.len());
    let last = segs.len() - 1;
    for (i, &s) in segs.iter().enumerate() {
        match s {
            "." => {
                if i == last {
                    stack.push("");
                }
            }
            ".." => match stack.last() {
                Some(&prev)
                    if prev != ".." && !(prev.is_empty() && stack.len() == 1 && !rooted) =>
                {
                    stack.pop();
                    if i == last {
                        stack.push("");
                    }
                }
                _ => match dots {
                    DotAboveRoot::Keep => {
                        stack.push("..");
                        if i == last {
                            stack.push("");
                        }
                    }
                    DotAboveRoot::Remove => {
                        if i == last {
                            stack.push("");
                        }
                    }
                    DotAboveRoot::Error => return Err(ResolveError::AboveRoot),
                },
            },
            s => stack.push(s),
        }
    }
    if rooted {
        out.push('/');
    }
    for (i, s) in stack.iter().enumerate() {
        if i > 0 {
            out.push('/');
        }
        out.push_str(s);
    }
    Ok(())
}

/// draft-fielding-uri-rfc2396bis-00 section 5.2.
fn draft_2396bis(
    b: &Parts,
    r: &Parts,
    dots: DotAboveRoot,
    out: &mut String,
) -> Result<(), ResolveError> {
    if let Some(s) = r.scheme {
        recompose(out, Some(s), r.authority, r.path, r.query, r.fragment);
        return Ok(());
    }
    let scheme = b.scheme;
    if r.authority.is_some() {
        recompose(out, scheme, r.authority, r.path, r.query, r.fragment);
        return Ok(());
    }
    if r.path.is_empty() {
        if r.query.is_some() {
            recompose(out, scheme, b.authority, b.path, r.query, r.fragment);
        } else {
            // "An empty reference refers to the current document."
            recompose(out, scheme, b.authority, b.path, b.query, r.fragment);
        }
        return Ok(());
    }
    if r.path.starts_with('/') {
        recompose(out, scheme, b.authority, r.path, r.query, r.fragment);
        return Ok(());
    }
    // merge: steps 1-8.
    let mut buf = String::with_capacity(b.path.len() + r.path.len() + 1);
    match b.path.rfind('/') {
        _ if b.path.is_empty() => buf.push('/'),
        Some(i) => buf.push_str(&b.path[..=i]),
        None => {}
    }
    buf.push_str(r.path);
    head(out, scheme, b.authority);
    let at = out.len();
    draft_dots(&buf, out, dots)?;
    guard_double_slash(out, at, b.authority.is_some());
    finish(out, r.query, r.fragment);
    Ok(())
}

/// draft-fielding-url-syntax-05 section 5.2.
fn draft_url05(
    b: &Parts,
    r: &Parts,
    dots: DotAboveRoot,
    out: &mut String,
) -> Result<(), ResolveError> {
    // Step 2: empty path, no scheme, site or query: the current document.
    if r.path.is_empty() && r.scheme.is_none() && r.authority.is_none() && r.query.is_none() {
        recompose(out, b.scheme, b.authority, b.path, b.query, r.fragment);
        return Ok(());
    }
    // Step 3.
    if r.scheme.is_some() {
        recompose(out, r.scheme, r.authority, r.path, r.query, r.fragment);
        return Ok(());
    }
    // Steps 4 and 5.
    if r.authority.is_some() {
        recompose(out, b.scheme, r.authority, r.path, r.query, r.fragment);
        return Ok(());
    }
    if r.path.starts_with('/') {
        recompose(out, b.scheme, b.authority, r.path, r.query, r.fragment);
        return Ok(());
    }
    // Step 6: the query joins the buffer before the dots are removed.
    let mut buf = String::with_capacity(b.path.len() + r.path.len() + 2);
    if let Some(i) = b.path.rfind('/') {
        buf.push_str(&b.path[..=i]);
    }
    buf.push_str(r.path);
    if let Some(q) = r.query {
        buf.push('?');
        buf.push_str(q);
    }
    let mut cleaned = String::with_capacity(buf.len());
    draft_dots(&buf, &mut cleaned, dots)?;
    // 6h, 6i: the query is what follows the first "?".
    let (path, query) = match cleaned.find('?') {
        Some(i) => (&cleaned[..i], Some(&cleaned[i + 1..])),
        None => (&cleaned[..], None),
    };
    head(out, b.scheme, b.authority);
    let at = out.len();
    out.push_str(path);
    guard_double_slash(out, at, b.authority.is_some());
    finish(out, query, r.fragment);
    Ok(())
}

fn head(out: &mut String, scheme: Option<&str>, authority: Option<&str>) {
    if let Some(s) = scheme {
        out.push_str(s);
        out.push(':');
    }
    if let Some(a) = authority {
        out.push_str("//");
        out.push_str(a);
    }
}

/// RFC 3986 5.3 (and the drafts' step 7).
fn recompose(
    out: &mut String,
    scheme: Option<&str>,
    authority: Option<&str>,
    path: &str,
    query: Option<&str>,
    fragment: Option<&str>,
) {
    head(out, scheme, authority);
    out.push_str(path);
    finish(out, query, fragment);
}

impl<'a> UriRef<'a> {
    /// Resolves `reference` against this base (RFC 3986 5.2, or the
    /// profile's own algorithm), strictly.
    ///
    /// ```
    /// use urilex::UriRef;
    /// let base = UriRef::parse("http://a/b/c/d;p?q").unwrap();
    /// let t = base.resolve(&UriRef::parse("../../g").unwrap()).unwrap();
    /// assert_eq!(t.as_str(), "http://a/g");
    /// assert_eq!(t.as_ref().path(), "/g");
    /// ```
    pub fn resolve(&self, reference: &UriRef<'_>) -> Result<UriRefBuf, ResolveError> {
        self.resolve_with(reference, ResolveOptions::new())
    }

    /// [`resolve`](Self::resolve) with options.
    pub fn resolve_with(
        &self,
        reference: &UriRef<'_>,
        opts: ResolveOptions,
    ) -> Result<UriRefBuf, ResolveError> {
        let mut out = String::new();
        resolve_into(self, reference, opts, &mut out)?;
        Ok(reparse(out, self.profile()))
    }
}

/// Parses a result of resolution or normalization as a reference of
/// `profile`. Results are valid references: every part comes from valid
/// input, and the 3.3 guard keeps a path from reading as an authority. The
/// tests check this on every vector and on generated pairs; should it ever
/// fail, the text is kept whole as a path rather than panicking.
pub(crate) fn reparse(text: String, profile: Profile) -> UriRefBuf {
    match Parser::new().profile(profile).parse(&text) {
        Ok(u) => {
            let spans = u.spans_raw();
            UriRefBuf::from_parts(text, spans, profile)
        }
        Err(_) => {
            debug_assert!(false, "result does not parse: {text:?}");
            UriRefBuf::whole_path(text, profile)
        }
    }
}

/// Writes into `out` the shortest reference `r` such that resolving `r`
/// against `base` (RFC 3986, strict) gives `target`; when `target` has
/// another scheme or authority, or no reference can give it back (its path
/// holds dot segments, which resolution always removes), `target` itself.
///
/// ```
/// use urilex::{relativize_into, UriRef};
/// let base = UriRef::parse("http://a/b/c/d;p?q").unwrap();
/// let mut out = String::new();
/// for (target, want) in [
///     ("http://a/b/c/g", "g"),
///     ("http://a/b/g?y", "../g?y"),
///     ("http://a/b/c/d;p?y", "?y"),
///     ("http://a/b/c/d;p?q#s", "#s"),
///     ("http://a/x/y", "/x/y"),
///     ("https://a/b", "https://a/b"),
/// ] {
///     relativize_into(&base, &UriRef::parse(target).unwrap(), &mut out);
///     assert_eq!(out, want);
/// }
/// ```
pub fn relativize_into(base: &UriRef<'_>, target: &UriRef<'_>, out: &mut String) {
    out.clear();
    let b = Parts::of(base);
    let t = Parts::of(target);
    let same = b.scheme.is_some() && b.scheme == t.scheme && b.authority == t.authority;
    if !same || base.profile().resolution() != Algorithm::Rfc3986 {
        out.push_str(target.as_str());
        return;
    }
    let mut best: Option<String> = None;
    let mut scratch = String::new();
    let mut consider = |cand: String, best: &mut Option<String>| {
        if best.as_ref().is_some_and(|b| b.len() <= cand.len()) {
            return;
        }
        let Ok(r) = Parser::new().profile(base.profile()).parse(&cand) else {
            return;
        };
        if resolve_into(base, &r, ResolveOptions::new(), &mut scratch).is_ok()
            && scratch == target.as_str()
        {
            *best = Some(cand);
        }
    };
    // "?query" (when given) and "#fragment" (the target's).
    let suffix = |s: &mut String, query: Option<&str>| {
        if let Some(q) = query {
            s.push('?');
            s.push_str(q);
        }
        if let Some(f) = t.fragment {
            s.push('#');
            s.push_str(f);
        }
    };
    let tail = |s: &mut String| suffix(s, t.query);
    // Same path: nothing, "?query", or the fragment alone.
    if t.path == b.path {
        let mut c = String::new();
        suffix(&mut c, t.query.filter(|_| t.query != b.query));
        consider(c, &mut best);
    }
    // A relative path from the base's directory.
    if t.path.starts_with('/') && b.path.starts_with('/') {
        let base_dir: Vec<&str> = b.path[1..b.path.rfind('/').unwrap_or(0).max(1)]
            .split('/')
            .collect();
        let base_dir: Vec<&str> = if b.path.rfind('/') == Some(0) {
            Vec::new()
        } else {
            base_dir
        };
        let target_segs: Vec<&str> = t.path[1..].split('/').collect();
        let (dir_t, last_t) = target_segs.split_at(target_segs.len() - 1);
        let common = base_dir
            .iter()
            .zip(dir_t)
            .take_while(|(x, y)| x == y)
            .count();
        let mut c = String::new();
        for _ in common..base_dir.len() {
            c.push_str("../");
        }
        for s in &dir_t[common..] {
            c.push_str(s);
            c.push('/');
        }
        c.push_str(last_t[0]);
        if c.is_empty() {
            c.push('.');
            if t.path.ends_with('/') {
                c.push('/');
            }
        } else if c.ends_with("..") && (c == ".." || c.ends_with("/..")) {
            c.push('/');
        }
        tail(&mut c);
        // Each candidate also with "./" in front: where the first segment
        // would read as a scheme or the path as an authority, only that form
        // parses and resolves back (`consider` checks), and it wins.
        consider(format!("./{c}"), &mut best);
        consider(c, &mut best);
        // The last segment alone, when the query must go away.
        let mut c = String::from(if last_t[0].is_empty() {
            "./"
        } else {
            last_t[0]
        });
        tail(&mut c);
        consider(format!("./{c}"), &mut best);
        consider(c, &mut best);
    }
    // An absolute path, then a network path.
    if t.path.starts_with('/') && !t.path.starts_with("//") {
        let mut c = String::from(t.path);
        tail(&mut c);
        consider(c, &mut best);
    }
    if let Some(a) = t.authority {
        let mut c = format!("//{a}{}", t.path);
        tail(&mut c);
        consider(c, &mut best);
    }
    out.push_str(best.as_deref().unwrap_or(target.as_str()));
}

impl<'a> UriRef<'a> {
    /// The shortest reference that resolves against this base to `target`
    /// (see [`relativize_into`]).
    ///
    /// ```
    /// use urilex::UriRef;
    /// let base = UriRef::parse("http://example.com/docs/guide/intro").unwrap();
    /// let target = UriRef::parse("http://example.com/docs/api/index?x#y").unwrap();
    /// let r = base.relativize(&target);
    /// assert_eq!(r.as_str(), "../api/index?x#y");
    /// assert_eq!(base.resolve(&r.as_ref()).unwrap().as_str(), target.as_str());
    /// ```
    pub fn relativize(&self, target: &UriRef<'_>) -> UriRefBuf {
        let mut out = String::new();
        relativize_into(self, target, &mut out);
        reparse(out, self.profile())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first implementation of RFC 3986 5.2.2, with 5.2.3, 5.2.4 and 5.3
    /// component by component (`Parts`), kept as the oracle for `rfc3986`,
    /// which copies from the texts.
    fn rfc3986_parts(
        base_scheme: &str,
        b: &UriRef<'_>,
        r: &Parts,
        dots: DotAboveRoot,
        out: &mut String,
    ) -> Result<(), ResolveError> {
        let (scheme, authority, query);
        // 5.2.2's target path: the reference's (dots removed), the base's as
        // it is, or the merge (5.2.3) of the base's directory and the
        // reference's path.
        let (dir, path, clean): (&str, &str, bool);
        if let Some(s) = r.scheme {
            (scheme, authority, query) = (s, r.authority, r.query);
            (dir, path, clean) = ("", r.path, true);
        } else {
            scheme = base_scheme;
            if r.authority.is_some() {
                (authority, query) = (r.authority, r.query);
                (dir, path, clean) = ("", r.path, true);
            } else {
                authority = b.authority();
                let b_path = b.path();
                if r.path.is_empty() {
                    (dir, path, clean) = ("", b_path, false);
                    query = if r.query.is_some() {
                        r.query
                    } else {
                        b.query()
                    };
                } else {
                    query = r.query;
                    dir = if r.path.starts_with('/') {
                        ""
                    } else if authority.is_some() && b_path.is_empty() {
                        // 5.2.3: "/" + the reference's path.
                        "/"
                    } else {
                        // 5.2.3: the base path up to and with its last "/".
                        let cut = b_path.bytes().rposition(|c| c == b'/').map_or(0, |i| i + 1);
                        &b_path[..cut]
                    };
                    (path, clean) = (r.path, true);
                }
            }
        }
        let len = |x: Option<&str>| x.map_or(0, |x| x.len() + 2);
        out.reserve(
            scheme.len()
                + len(authority)
                + dir.len()
                + path.len()
                + len(query)
                + len(r.fragment)
                + 3,
        );
        out.push_str(scheme);
        out.push(':');
        if let Some(a) = authority {
            out.push_str("//");
            out.push_str(a);
        }
        let path_start = out.len();
        if clean {
            remove_dot_segments_parts(dir, path, out, dots)?;
        } else {
            out.push_str(path);
        }
        guard_double_slash(out, path_start, authority.is_some());
        finish(out, query, r.fragment);
        Ok(())
    }

    /// The copies from the texts (`rfc3986`) give what the component-by-
    /// component recomposition gives: generated references and corpus
    /// lines against bases with and without an authority, a path, a query
    /// or dot segments, strict and non-strict, for each way of treating
    /// ".." above the root.
    #[test]
    fn text_copies_match_the_recomposition() {
        let mut rng = crate::parse::gen::Rng(0x5_2_2);
        let mut refs: Vec<Vec<u8>> = (0..20_000)
            .map(|_| crate::parse::gen::input(&mut rng))
            .collect();
        let text = include_bytes!("../benches/data/kasztp.txt");
        refs.extend(crate::lines(text).take(5_000).map(|(_, l)| l.to_vec()));
        for r in [
            "http:g",
            "HTTP:/g",
            "http://x/./y",
            "http:/a/../b",
            "//h/./x",
            "/./x",
            "/a?b#c",
            "../../g",
            "./../g?x",
            "..//g",
            "../..//g#f",
            "./g/.",
            ".",
            "..",
            "",
            "?y",
            "#s",
            "g/./h",
            "g/../h?q#f",
            "/./g",
            "/../g",
            ".x/../y",
            "a/.../b/..",
            "./..",
            "../.",
            "a/./",
            "/a/b/../..",
            "/..",
            "//x/../y/.",
            "http:/a/./../b",
            "HTTP:a/./../b",
        ] {
            refs.push(r.as_bytes().to_vec());
        }
        let bases = [
            "http://a/b/c/d;p?q",
            "http://a",
            "http://",
            "http://u@a:8/?q#f",
            "foo:bar",
            "foo:/x/y",
            "file:///x/y",
            "urn:a:b",
            "foo:/x",
            "foo:a/b/",
            "http://a/b/./c/d",
            "http://a/b/c/?q",
            "http://a?q",
        ];
        let (mut taken, mut dotted, mut general) = (0, 0, String::new());
        let mut out = String::new();
        for b in bases {
            let base = UriRef::parse(b).unwrap();
            for r in &refs {
                let Ok(reference) = UriRef::parse_bytes(r) else {
                    continue;
                };
                let ways = [
                    (true, DotAboveRoot::Remove),
                    (false, DotAboveRoot::Remove),
                    (true, DotAboveRoot::Keep),
                    (true, DotAboveRoot::Error),
                ];
                for (strict, dots) in ways {
                    let opts = ResolveOptions::new().strict(strict).dot_above_root(dots);
                    let mut parts = Parts::of(&reference);
                    let scheme = base.scheme().unwrap();
                    if !strict && parts.scheme.is_some_and(|s| s.eq_ignore_ascii_case(scheme)) {
                        parts.scheme = None;
                    }
                    general.clear();
                    let want = rfc3986_parts(scheme, &base, &parts, dots, &mut general);
                    let at = || format!("{b} + {:?} {strict} {dots:?}", reference.as_str());
                    out.clear();
                    let got = rfc3986(&base, &reference, parts.scheme.is_some(), dots, &mut out);
                    assert_eq!(got, want, "{}", at());
                    if want.is_ok() {
                        assert_eq!(out, general, "{}", at());
                        taken += 1;
                        dotted += usize::from(has_dot_segment(reference.path()));
                    }
                    // And resolve_into, which takes it, agrees.
                    let got = resolve_into(&base, &reference, opts, &mut out);
                    assert_eq!(got, want, "{}", at());
                    if want.is_ok() {
                        assert_eq!(out, general, "{}", at());
                    }
                }
            }
        }
        assert!(taken > 100_000 && dotted > 10_000, "{taken} {dotted}");
    }

    /// The oracle's pop: the last segment of the output (not below `floor`, where kept ".."
    /// segments end), or deals with a ".." that climbs above the root.
    fn pop(
        out: &mut String,
        floor: &mut usize,
        dots: DotAboveRoot,
        rooted: bool,
    ) -> Result<(), ResolveError> {
        if out.len() > *floor {
            let tail = &out.as_bytes()[*floor..];
            let cut = tail.iter().rposition(|&c| c == b'/').unwrap_or(0);
            out.truncate(*floor + cut);
            Ok(())
        } else {
            match dots {
                DotAboveRoot::Remove => Ok(()),
                DotAboveRoot::Error => Err(ResolveError::AboveRoot),
                DotAboveRoot::Keep => {
                    out.push_str(if rooted { "/.." } else { ".." });
                    *floor = out.len();
                    Ok(())
                }
            }
        }
    }

    // The first implementation of 5.2.4: the RFC's rules A to E read one
    // byte at a time from the merged path as two slices, writing to a
    // second buffer. Kept as the oracle for `remove_dot_segments_parts`
    // (it pops with the same `pop`).
    /// The input of 5.2.4 as the concatenation of two slices (a merged path is
    /// the base's directory followed by the reference's path), so merging needs
    /// no buffer. Valid references are ASCII, so byte offsets are char
    /// boundaries; `get` keeps even a non-ASCII input from panicking.
    struct Two<'a> {
        a: &'a str,
        b: &'a str,
    }

    impl<'a> Two<'a> {
        fn len(&self) -> usize {
            self.a.len() + self.b.len()
        }
        fn at(&self, i: usize) -> Option<u8> {
            match self.a.as_bytes().get(i) {
                Some(&c) => Some(c),
                None => self.b.as_bytes().get(i - self.a.len()).copied(),
            }
        }
        fn starts_with(&self, p: &str) -> bool {
            p.bytes().enumerate().all(|(i, c)| self.at(i) == Some(c))
        }
        fn is(&self, p: &str) -> bool {
            self.len() == p.len() && self.starts_with(p)
        }
        fn skip(&mut self, n: usize) {
            if n <= self.a.len() {
                self.a = self.a.get(n..).unwrap_or("");
            } else {
                let k = n - self.a.len();
                self.a = "";
                self.b = self.b.get(k..).unwrap_or("");
            }
        }
        /// Moves the first segment, with its leading "/" if any, to `out`.
        fn move_segment(&mut self, out: &mut String) {
            let from = usize::from(self.at(0) == Some(b'/'));
            let mut end = from;
            while let Some(c) = self.at(end) {
                if c == b'/' {
                    break;
                }
                end += 1;
            }
            let in_a = end.min(self.a.len());
            out.push_str(self.a.get(..in_a).unwrap_or(""));
            if end > self.a.len() {
                out.push_str(self.b.get(..end - self.a.len()).unwrap_or(""));
            }
            self.skip(end);
        }
    }

    /// RFC 3986 5.2.4 on `a` + `b`, appending to `out`. The rules A to E are
    /// the RFC's; `dots` only changes what a ".." with nothing to pop does.
    fn oracle_parts(
        a: &str,
        b: &str,
        out: &mut String,
        dots: DotAboveRoot,
    ) -> Result<(), ResolveError> {
        // Fast path: no "." or ".." segment anywhere, so 5.2.4 moves every
        // segment as it is (rule E only).
        let has_dot = |s: &str| s.starts_with('.') || s.contains("/.");
        if !(has_dot(a) || has_dot(b) || (a.ends_with('/') && b.starts_with('.'))) {
            out.push_str(a);
            out.push_str(b);
            return Ok(());
        }
        let mut floor = out.len();
        let mut inp = Two { a, b };
        while inp.len() > 0 {
            if inp.starts_with("../") {
                // A: "../" at the start of a relative path.
                inp.skip(3);
                if dots != DotAboveRoot::Remove {
                    pop(out, &mut floor, dots, false)?;
                    if dots == DotAboveRoot::Keep && out.len() == floor {
                        out.push('/');
                        floor = out.len();
                    }
                }
            } else if inp.starts_with("./") {
                inp.skip(2); // A
            } else if inp.starts_with("/./") {
                inp.skip(2); // B
            } else if inp.is("/.") {
                inp = Two { a: "/", b: "" }; // B
            } else if inp.starts_with("/../") {
                inp.skip(3); // C
                pop(out, &mut floor, dots, true)?;
            } else if inp.is("/..") {
                inp = Two { a: "/", b: "" }; // C
                pop(out, &mut floor, dots, true)?;
            } else if inp.is(".") {
                inp = Two { a: "", b: "" }; // D
            } else if inp.is("..") {
                inp = Two { a: "", b: "" }; // D
                if dots != DotAboveRoot::Remove {
                    pop(out, &mut floor, dots, false)?;
                }
            } else {
                inp.move_segment(out); // E
            }
        }
        Ok(())
    }

    const MODES: [DotAboveRoot; 3] = [
        DotAboveRoot::Remove,
        DotAboveRoot::Keep,
        DotAboveRoot::Error,
    ];

    /// `p` after `prefix`, through the oracle and through
    /// `remove_dot_segments_parts` split after every "/" (the directory of
    /// a merge), in every mode.
    fn check(prefix: &str, p: &str) -> usize {
        let mut checked = 0;
        let cuts = std::iter::once(0).chain(p.match_indices('/').map(|(i, _)| i + 1));
        for cut in cuts {
            let (dir, path) = p.split_at(cut);
            for dots in MODES {
                let mut want = prefix.to_string();
                let want = oracle_parts(p, "", &mut want, dots).map(|()| want);
                let mut got = prefix.to_string();
                let got = remove_dot_segments_parts(dir, path, &mut got, dots).map(|()| got);
                assert_eq!(got, want, "{prefix:?} + {dir:?} + {path:?} {dots:?}");
                checked += 1;
            }
        }
        // In place on the whole path, after the prefix.
        for dots in MODES {
            let mut want = prefix.to_string();
            let want = oracle_parts(p, "", &mut want, dots).map(|()| want);
            let mut got = format!("{prefix}{p}");
            let got = remove_dot_segments_in_place(&mut got, prefix.len(), dots).map(|()| got);
            assert_eq!(got, want, "in place: {prefix:?} + {p:?} {dots:?}");
            checked += 1;
        }
        checked
    }

    /// Every path of up to ten bytes over "/", "." and "a".
    #[test]
    fn dot_removal_matches_the_oracle_exhaustively() {
        let alphabet = ['/', '.', 'a'];
        let mut checked = 0;
        for len in 0..=10u32 {
            for mut code in 0..3usize.pow(len) {
                let mut p = String::new();
                for _ in 0..len {
                    p.push(alphabet[code % 3]);
                    code /= 3;
                }
                checked += check("", &p) + check("s://h", &p);
            }
        }
        assert!(checked > 1_000_000, "{checked}");
    }

    /// Longer paths with real segments, percent signs and non-ASCII text.
    #[test]
    fn dot_removal_matches_the_oracle_on_generated_paths() {
        let pieces = [
            "/",
            ".",
            "..",
            "a",
            "bc",
            "%2E",
            "é",
            ";p",
            "../",
            "./",
            "/..",
            "/.",
            ".a",
            "..b",
            "abcdefghij",
        ];
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..30_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let mut x = seed;
            let mut p = String::new();
            for _ in 0..(x % 16) {
                x = x.rotate_right(7) ^ 0x5851_f42d_4c95_7f2d;
                p.push_str(pieces[(x % pieces.len() as u64) as usize]);
            }
            check("", &p);
        }
    }
}
