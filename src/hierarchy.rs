//! A reference's hierarchy, as ClickHouse's `URLHierarchy` and
//! `URLPathHierarchy` give it: the reference cut after each run of `/`,
//! `?` and `#` in its path, query and fragment (a run counts as one), from
//! the shortest to the whole.
//!
//! Only a reference with a scheme and an authority (`scheme://…`) has a
//! hierarchy; for the others the hierarchy is the reference alone, and
//! the path hierarchy is empty (as ClickHouse). ClickHouse recognises the
//! scheme by its own scan of the text; here it is RFC 3986's scheme and
//! authority.
//!
//! ```
//! use urilex::{hierarchy::hierarchy, UriRef};
//! let u = UriRef::parse("https://example.com/a/b?c=1").unwrap();
//! let all: Vec<&str> = hierarchy(&u, false).collect();
//! assert_eq!(all, ["https://example.com/", "https://example.com/a/", "https://example.com/a/b?", "https://example.com/a/b?c=1"]);
//! let path: Vec<&str> = hierarchy(&u, true).collect();
//! assert_eq!(path, ["/a/", "/a/b?", "/a/b?c=1"]);
//! ```

use crate::{Component, UriRef};

/// The hierarchy of `u` (`path_only`: from the path on, without the
/// first level, as `URLPathHierarchy`).
pub fn hierarchy<'a>(u: &UriRef<'a>, path_only: bool) -> Hierarchy<'a> {
    let text = u.as_str();
    // Where the authority ends: the rest starts with `/`, `?`, `#` or is
    // empty.
    let rest = match (u.scheme(), u.span(Component::Authority)) {
        (Some(_), Some(a)) => Some(a.end),
        _ => None,
    };
    match rest {
        None => Hierarchy {
            text,
            start: 0,
            pos: if path_only { text.len() } else { 0 },
            first: !path_only,
            whole: true,
        },
        Some(r) => Hierarchy {
            text,
            start: if path_only { r } else { 0 },
            // The first level takes the authority and one separator.
            pos: (r + 1).min(text.len()),
            first: !path_only,
            whole: false,
        },
    }
}

/// The levels of a hierarchy, shortest first.
#[derive(Clone, Debug)]
pub struct Hierarchy<'a> {
    text: &'a str,
    /// Where every level starts.
    start: usize,
    /// Where the next cut is searched from.
    pos: usize,
    /// The first level is still to come.
    first: bool,
    /// A reference without a hierarchy: itself, once.
    whole: bool,
}

fn sep(b: u8) -> bool {
    matches!(b, b'/' | b'?' | b'#')
}

impl<'a> Iterator for Hierarchy<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let b = self.text.as_bytes();
        if self.whole {
            if self.first {
                self.first = false;
                return Some(self.text);
            }
            return None;
        }
        if self.first {
            self.first = false;
            return Some(&self.text[self.start..self.pos]);
        }
        let mut p = self.pos;
        while p < b.len() && sep(b[p]) {
            p += 1;
        }
        if p == b.len() {
            self.pos = p;
            return None;
        }
        while p < b.len() && !sep(b[p]) {
            p += 1;
        }
        if p < b.len() {
            p += 1;
        }
        self.pos = p;
        Some(&self.text[self.start..p])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(u: &str, path_only: bool) -> Vec<String> {
        hierarchy(&UriRef::parse(u).unwrap(), path_only)
            .map(String::from)
            .collect()
    }

    /// ClickHouse's documented examples, and runs of separators.
    #[test]
    fn levels() {
        assert_eq!(
            h("https://example.com/browse/CONV-6788", false),
            [
                "https://example.com/",
                "https://example.com/browse/",
                "https://example.com/browse/CONV-6788"
            ]
        );
        assert_eq!(
            h("https://example.com/browse/CONV-6788", true),
            ["/browse/", "/browse/CONV-6788"]
        );
        assert_eq!(h("http://h//a//", false), ["http://h/", "http://h//a/"]);
        assert_eq!(h("http://h", false), ["http://h"]);
        assert_eq!(h("http://h", true), Vec::<String>::new());
        assert_eq!(h("http://h/", false), ["http://h/"]);
        assert_eq!(
            h("http://h?q#f", false),
            ["http://h?", "http://h?q#", "http://h?q#f"]
        );
        assert_eq!(h("http://u@h:8/a#b/c", true), ["/a#", "/a#b/", "/a#b/c"]);
        // No authority: the reference alone, and no path hierarchy.
        assert_eq!(h("mailto:a@b", false), ["mailto:a@b"]);
        assert_eq!(h("mailto:a@b", true), Vec::<String>::new());
        assert_eq!(h("/a/b", false), ["/a/b"]);
        assert_eq!(h("//h/a", false), ["//h/a"]);
    }
}
