//! Resolution tests: RFC 3986 5.4, both drafts' Appendix C, dot removal
//! against its specification, relativization round trips.

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
        scheme.len() + len(authority) + dir.len() + path.len() + len(query) + len(r.fragment) + 3,
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
    let mut rng = crate::engine::gen::Rng(0x5_2_2);
    let mut refs: Vec<Vec<u8>> = (0..20_000)
        .map(|_| crate::engine::gen::input(&mut rng))
        .collect();
    let text = include_bytes!("../../benches/data/kasztp.txt");
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
