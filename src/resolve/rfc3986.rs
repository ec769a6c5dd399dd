//! RFC 3986 section 5.2.2 to 5.3, spliced from the two texts: the target's
//! parts are copied from the base or the reference, and a merged or rooted
//! path goes through remove_dot_segments on the way out.

#[allow(unused_imports)]
use super::*;

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
pub(super) fn rfc3986(
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
pub(super) fn push_segments(out: &mut String, floor: usize, segments: &str) -> bool {
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
pub(super) fn guard_double_slash(out: &mut String, path_start: usize, has_authority: bool) {
    if !has_authority && out.as_bytes()[path_start..].starts_with(b"//") {
        out.insert_str(path_start, "/.");
    }
}

#[inline]
pub(super) fn finish(out: &mut String, query: Option<&str>, fragment: Option<&str>) {
    if let Some(q) = query {
        out.push('?');
        out.push_str(q);
    }
    if let Some(f) = fragment {
        out.push('#');
        out.push_str(f);
    }
}
