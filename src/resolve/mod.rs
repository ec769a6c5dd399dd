//! Reference resolution: RFC 3986 section 5.2 (the default), and the
//! algorithms of the two drafts it grew from, chosen by the base's profile.
//!
//! Results are written into a caller-supplied `String`, so resolving many
//! references reuses one buffer; [`UriRef::resolve`] is the owned shortcut.

use crate::engine::Algorithm;
use crate::{Parser, Profile, UriRef, UriRefBuf};
use core::fmt;

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
    /// grammar: draft-fielding-uri-rfc2396bis-00's section 5.2 merges any base path, but a relative
    /// path against an opaque base (`mailto:a[b]` + `x`) gives a hierarchical
    /// path that may hold characters only opaque parts allow.
    InvalidTarget,
    /// The base's profile defines no relative references: RFC 1738 (its
    /// section 2.3 leaves them to RFC 1808) and the URN grammars (a URN is
    /// absolute; RFC 8141 and draft-ietf-urnbis-rfc2141bis-urn-03 define no resolution).
    NoRelativeReferences,
}

impl fmt::Display for ResolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ResolveError::BaseNotAbsolute => "base URI is not absolute (it has no scheme)",
            ResolveError::AboveRoot => "\"..\" climbs above the root of the path",
            ResolveError::TooLong => "resolved URI is longer than 4 GiB",
            ResolveError::NoRelativeReferences => {
                "the profile's grammar defines no relative references (RFC 1738, URNs): nothing resolves against it"
            }
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
    if algorithm == Algorithm::None {
        return Err(ResolveError::NoRelativeReferences);
    }
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
        Algorithm::None => unreachable!("returned above"),
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

mod dots;
mod drafts;
mod relativize;
mod rfc3986;

#[allow(unused_imports)]
use dots::*;
pub(crate) use dots::{has_dot_segment, remove_dot_segments_in_place};
use drafts::*;
pub use relativize::relativize_into;
use rfc3986::*;

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

#[cfg(test)]
mod tests;
