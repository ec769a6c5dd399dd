//! The resolution algorithms of the two drafts RFC 3986 grew from: seed
//! 000's 5.2 (dots removed only while merging, `..` above the root kept)
//! and draft-fielding-url-syntax-05's 5.2 (the query joins the buffer before dot removal).

#[allow(unused_imports)]
use super::*;

/// The drafts' string-buffer dot removal (draft-fielding-uri-rfc2396bis-00 5.2 steps 3-7, draft-fielding-url-syntax-05
/// 5.2 steps 6d-6g), done with a segment stack: "." segments go, a segment
/// followed by ".." goes with it, a trailing "." or `"<segment>/.."` leaves the
/// trailing "/", and what is left of leading ".." follows `dots`.
pub(super) fn draft_dots(
    buf: &str,
    out: &mut String,
    dots: DotAboveRoot,
) -> Result<(), ResolveError> {
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
pub(super) fn draft_2396bis(
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
pub(super) fn draft_url05(
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

pub(super) fn head(out: &mut String, scheme: Option<&str>, authority: Option<&str>) {
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
pub(super) fn recompose(
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
