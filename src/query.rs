//! Query parameters: the `key=value` pairs of a query, as HTML forms and
//! most of the web write them (RFC 3986 section 3.4 gives a query no inner
//! syntax; this is a convention on top of it, so the separator is a
//! choice: `&` by default, `;` and others on request).
//!
//! Every pair is kept, in order: a repeated key gives every value, not
//! just the last. A pair without `=` has no value (`None`), `a=` an empty
//! one; `=v` has an empty key. Empty pieces between two separators (`a&&b`)
//! are no pairs. Keys and values are given as written (slices of the
//! query, no allocation) and decoded on request: percent-decoding, and with
//! [`Decode::Form`] also `+` as a space (the `application/x-www-form-urlencoded`
//! convention, which RFC 3986 does not have).
//!
//! ```
//! use urilex::query::{params, Decode};
//! let q = "utm_source=mail&id=7&tag=a&tag=b%20c&flag&=x&q=a+b";
//! let pairs: Vec<(&str, Option<&str>)> = params(q).map(|p| (p.key, p.value)).collect();
//! assert_eq!(pairs, [
//!     ("utm_source", Some("mail")), ("id", Some("7")), ("tag", Some("a")),
//!     ("tag", Some("b%20c")), ("flag", None), ("", Some("x")), ("q", Some("a+b")),
//! ]);
//! let tags: Vec<_> = params(q).named("tag", Decode::Percent).map(|p| p.value_decoded(Decode::Percent)).collect();
//! assert_eq!(tags, [Some(b"a".as_slice().into()), Some(b"b c".as_slice().into())]);
//! let first = params(q).named("q", Decode::Form).next().unwrap();
//! assert_eq!(first.value_decoded(Decode::Form).unwrap().as_ref(), b"a b");
//! ```

use std::borrow::Cow;
use std::ops::Range;

/// How a key or a value is decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Decode {
    /// As written.
    None,
    /// Every valid `%XX` to its byte (RFC 3986 section 2.1); a `%` that
    /// begins no escape stays as it is.
    #[default]
    Percent,
    /// The same, and `+` as a space (HTML forms).
    Form,
}

/// One pair of a query, as written.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Param<'a> {
    /// The key: the text before the first `=` (all of the pair without one).
    pub key: &'a str,
    /// The value: the text after the first `=`; `None` without one.
    pub value: Option<&'a str>,
    /// Where the pair lies in the query.
    pub span: Range<usize>,
}

impl<'a> Param<'a> {
    /// The key, decoded.
    pub fn key_decoded(&self, how: Decode) -> Cow<'a, [u8]> {
        decode(self.key, how)
    }

    /// The value, decoded; `None` without one.
    pub fn value_decoded(&self, how: Decode) -> Option<Cow<'a, [u8]>> {
        self.value.map(|v| decode(v, how))
    }
}

/// `text` decoded as `how` says (no allocation when nothing changes).
pub fn decode(text: &str, how: Decode) -> Cow<'_, [u8]> {
    let b = text.as_bytes();
    let busy = |c: &u8| *c == b'%' || (how == Decode::Form && *c == b'+');
    if how == Decode::None || !b.iter().any(busy) {
        return Cow::Borrowed(b);
    }
    let mut out = Vec::with_capacity(b.len());
    decode_into(text, how, &mut out);
    Cow::Owned(out)
}

/// `text` decoded as `how` says, appended to `out`.
///
/// ```
/// use urilex::query::{decode_into, Decode};
/// let mut out = b"> ".to_vec();
/// decode_into("a+b%2Bc%", Decode::Form, &mut out);
/// assert_eq!(out, b"> a b+c%");
/// ```
pub fn decode_into(text: &str, how: Decode, out: &mut Vec<u8>) {
    decode_bytes_into(text.as_bytes(), how, out)
}

/// [`decode_into`] of bytes.
pub(crate) fn decode_bytes_into(b: &[u8], how: Decode, out: &mut Vec<u8>) {
    if how == Decode::None {
        out.extend_from_slice(b);
        return;
    }
    let mut i = 0;
    while i < b.len() {
        // Runs of bytes that stay as they are, copied at once.
        let next = if how == Decode::Form {
            memchr::memchr2(b'%', b'+', &b[i..])
        } else {
            memchr::memchr(b'%', &b[i..])
        };
        let run = next.map_or(b.len(), |k| i + k);
        out.extend_from_slice(&b[i..run]);
        i = run;
        if i == b.len() {
            break;
        }
        match b[i] {
            b'%' => match crate::pct::pct_at(b, i) {
                Some(v) => {
                    out.push(v);
                    i += 3;
                    continue;
                }
                None => out.push(b'%'),
            },
            _ => out.push(b' '),
        }
        i += 1;
    }
}

/// The pairs of `query` separated by `&`.
pub fn params(query: &str) -> Params<'_> {
    params_with(query, b'&')
}

/// The pairs of `query` separated by `separator` (trurl's
/// `--query-separator`; `;` is the other common one).
pub fn params_with(query: &str, separator: u8) -> Params<'_> {
    Params {
        query,
        at: 0,
        separator,
    }
}

/// The pairs of a query, in order (see [`params`]).
#[derive(Clone, Debug)]
pub struct Params<'a> {
    query: &'a str,
    at: usize,
    separator: u8,
}

impl<'a> Params<'a> {
    /// The pairs whose key, decoded as `how` says, is `key`.
    pub fn named<'k>(self, key: &'k str, how: Decode) -> impl Iterator<Item = Param<'a>> + 'k
    where
        'a: 'k,
    {
        self.filter(move |p| p.key_decoded(how).as_ref() == key.as_bytes())
    }
}

impl<'a> Iterator for Params<'a> {
    type Item = Param<'a>;

    fn next(&mut self) -> Option<Param<'a>> {
        let b = self.query.as_bytes();
        loop {
            if self.at > b.len() || (self.at == b.len() && !b.is_empty()) {
                return None;
            }
            let start = self.at;
            let end = memchr::memchr(self.separator, &b[start..]).map_or(b.len(), |k| start + k);
            // Past the separator (or past the end: the last piece).
            self.at = end + 1;
            if end == start {
                if end == b.len() {
                    return None;
                }
                continue;
            }
            // A separator is ASCII: the cuts fall on character boundaries.
            let piece = &self.query[start..end];
            let (key, value) = match piece.find('=') {
                Some(eq) => (&piece[..eq], Some(&piece[eq + 1..])),
                None => (piece, None),
            };
            return Some(Param {
                key,
                value,
                span: start..end,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(q: &str) -> Vec<(&str, Option<&str>)> {
        params(q).map(|p| (p.key, p.value)).collect()
    }

    #[test]
    fn pieces_pairs_and_empties() {
        assert_eq!(pairs(""), []);
        assert_eq!(pairs("&"), []);
        assert_eq!(pairs("&&a&&"), [("a", None)]);
        assert_eq!(pairs("a"), [("a", None)]);
        assert_eq!(pairs("a="), [("a", Some(""))]);
        assert_eq!(pairs("="), [("", Some(""))]);
        assert_eq!(pairs("a=b=c"), [("a", Some("b=c"))]);
        assert_eq!(
            pairs("a=1&a=2&a"),
            [("a", Some("1")), ("a", Some("2")), ("a", None)]
        );
        let spans: Vec<_> = params("x=1&&yy").map(|p| p.span).collect();
        assert_eq!(spans, [0..3, 5..7]);
        let semi: Vec<_> = params_with("a=1;b=2&c", b';')
            .map(|p| (p.key, p.value))
            .collect();
        assert_eq!(semi, [("a", Some("1")), ("b", Some("2&c"))]);
    }

    #[test]
    fn decoding() {
        assert_eq!(decode("a%20b+c", Decode::None).as_ref(), b"a%20b+c");
        assert_eq!(decode("a%20b+c", Decode::Percent).as_ref(), b"a b+c");
        assert_eq!(decode("a%20b+c", Decode::Form).as_ref(), b"a b c");
        // A `%` that begins no escape stays; `%00` and non-UTF-8 bytes come
        // out as bytes.
        assert_eq!(decode("100%", Decode::Percent).as_ref(), b"100%");
        assert_eq!(decode("%zz%4", Decode::Percent).as_ref(), b"%zz%4");
        assert_eq!(
            decode("%00%FF%c3%a9", Decode::Percent).as_ref(),
            b"\0\xff\xc3\xa9"
        );
        assert!(matches!(decode("plain", Decode::Form), Cow::Borrowed(_)));
        // Keys compare decoded.
        let q = "a%62=1&ab=2&a+b=3&a%20b=4";
        let ab: Vec<_> = params(q)
            .named("ab", Decode::Percent)
            .map(|p| p.value)
            .collect();
        assert_eq!(ab, [Some("1"), Some("2")]);
        let spaced: Vec<_> = params(q)
            .named("a b", Decode::Form)
            .map(|p| p.value)
            .collect();
        assert_eq!(spaced, [Some("3"), Some("4")]);
    }

    /// On random queries over a small alphabet: the pairs' spans are the
    /// non-empty pieces between separators, in order, and each pair is its
    /// piece split at the first `=`.
    #[test]
    fn pairs_are_the_pieces() {
        let mut x: u64 = 0x3986;
        for _ in 0..20_000 {
            let mut q = String::new();
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            for k in 0..(x % 12) {
                q.push(b"a=&;%2+\xc3"[((x >> (4 * k)) % 8) as usize] as char);
            }
            for sep in [b'&', b';'] {
                let want: Vec<(usize, usize)> = {
                    let mut v = Vec::new();
                    let mut start = 0;
                    for (i, c) in q.bytes().chain([sep]).enumerate() {
                        if c == sep {
                            if i > start {
                                v.push((start, i));
                            }
                            start = i + 1;
                        }
                    }
                    v
                };
                let got: Vec<Param> = params_with(&q, sep).collect();
                assert_eq!(got.len(), want.len(), "{q:?}");
                for (p, &(s, e)) in got.iter().zip(&want) {
                    assert_eq!(p.span, s..e, "{q:?}");
                    let piece = &q[s..e];
                    match p.value {
                        Some(v) => assert_eq!(format!("{}={v}", p.key), piece),
                        None => assert!(p.key == piece && !piece.contains('=')),
                    }
                }
            }
        }
    }
}
