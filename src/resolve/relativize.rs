//! Relativization: the shortest reference that resolves against a base to
//! a given target (the inverse of RFC 3986 5.2, checked round trip).

#[allow(unused_imports)]
use super::*;

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
