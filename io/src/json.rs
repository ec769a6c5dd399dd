//! One string field of a JSON object, found by a scanner over the raw bytes:
//! no document is built. The whole line is checked as JSON (RFC 8259, as
//! strictly as `serde_json` reads it: UTF-8, no control characters in
//! strings, escapes and surrogate pairs, the number grammar, nothing after
//! the object, at most 127 levels of nesting), so a line cut short after
//! its field, or with anything but one object on it, is an error, never a
//! value. A dotted path (`http.request.referrer`) is looked up both
//! flattened (`{"http.request.referrer":...}`, as ECS documents often are)
//! and nested (`{"http":{"request":{"referrer":...}}}`).
//!
//! Which member is the field, when several could be: a key repeated in
//! one object counts by its last occurrence (as `serde_json` and most
//! readers keep it); the whole path as a key of the object wins; otherwise
//! the shortest key that is a prefix of the path (up to a `.`) whose value
//! is an object holding the rest of the path, by the same rule.

/// What went wrong, and at which byte of the line.
pub type Fault = (&'static str, usize);

/// The bytes a string's scan stops at: `"`, `\\` and the controls.
static STOPS: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 0x20 {
        t[c] = true;
        c += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t
};

/// The first byte of `b` from `i` on that a string's scan stops at (or
/// `b.len()`): eight bytes at a time as one word (no vector search's
/// start-up: strings in logs are short), the rest by a table.
#[inline]
fn next_stop(b: &[u8], mut i: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // The high bit of each byte that is zero in `x` (exact for the lowest
    // such byte, which is the one used).
    let zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGH;
    while let Some(word) = b.get(i..i + 8) {
        let w = u64::from_le_bytes(word.try_into().unwrap_or([0; 8]));
        let stops = (w.wrapping_sub(ONES * 0x20) & !w & HIGH)
            | zero(w ^ (ONES * u64::from(b'"')))
            | zero(w ^ (ONES * u64::from(b'\\')));
        if stops != 0 {
            return i + (stops.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < b.len() && !STOPS[b[i] as usize] {
        i += 1;
    }
    i
}

/// `serde_json`'s nesting limit: its 128th level of arrays and objects is
/// an error.
const MAX_DEPTH: usize = 127;

/// Writes the string at `path` of the object `line` into `out`, unescaped
/// (`\/` is `/`, `\u0041` is `A`, surrogate pairs joined): `Ok(Some(()))`;
/// `Ok(None)` when the field is missing or `null`; an error when the line
/// is not one JSON object, or the field is not a string.
pub fn field(line: &[u8], path: &str, out: &mut Vec<u8>) -> Result<Option<()>, Fault> {
    if let Err(e) = std::str::from_utf8(line) {
        return Err(("not JSON: invalid UTF-8", e.valid_up_to()));
    }
    let mut s = Scan {
        b: line,
        i: 0,
        key: Vec::new(),
    };
    s.ws();
    if s.peek() != Some(b'{') {
        return Err(("not a JSON object", s.i));
    }
    let found = s.object(Some(path.as_bytes()), 1)?;
    s.ws();
    if s.i < line.len() {
        return Err(("not JSON: text after the object", s.i));
    }
    let Some(at) = found else {
        return Ok(None);
    };
    s.i = at;
    match s.peek() {
        Some(b'"') => {
            s.string(Some(out))?;
            Ok(Some(()))
        }
        Some(b'n') => Ok(None),
        Some(b'{') => Err(("the field is an object, not a string", at)),
        Some(b'[') => Err(("the field is an array, not a string", at)),
        Some(b't' | b'f') => Err(("the field is a boolean, not a string", at)),
        _ => Err(("the field is a number, not a string", at)),
    }
}

struct Scan<'a> {
    b: &'a [u8],
    i: usize,
    /// A key, unescaped (reused).
    key: Vec<u8>,
}

impl Scan<'_> {
    #[inline]
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    #[inline]
    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\r' | b'\n')) {
            self.i += 1;
        }
    }

    fn expect(&mut self, c: u8, what: &'static str) -> Result<(), Fault> {
        self.ws();
        if self.peek() == Some(c) {
            self.i += 1;
            Ok(())
        } else {
            Err((what, self.i))
        }
    }

    /// At `{`, `depth` levels deep: checks the object through its `}`, and
    /// with a `path` says where the path's value is (see the module's
    /// rule), if anywhere.
    fn object(&mut self, path: Option<&[u8]>, depth: usize) -> Result<Option<usize>, Fault> {
        if depth > MAX_DEPTH {
            return Err(("not JSON: nested too deeply", self.i));
        }
        self.i += 1;
        self.ws();
        if self.peek() == Some(b'}') {
            self.i += 1;
            return Ok(None);
        }
        // The whole path as a key (its last occurrence), and per prefix
        // key (by its length) what its last occurrence held.
        let mut exact = None;
        let mut nested: Vec<(usize, Option<usize>)> = Vec::new();
        loop {
            self.ws();
            if self.peek() != Some(b'"') {
                return Err(("not JSON: expected a key", self.i));
            }
            // The key: its bytes in the line unless it has escapes (then
            // unescaped into `self.key`); not looked at off the path.
            let at = self.i;
            let escaped = self.string(None)?;
            let (mut exact_key, mut prefix) = (false, None);
            if let Some(p) = path {
                let b = self.b;
                let key: &[u8] = if escaped {
                    let end = self.i;
                    let mut key = std::mem::take(&mut self.key);
                    key.clear();
                    self.i = at;
                    let r = self.string(Some(&mut key));
                    self.i = end;
                    self.key = key;
                    r?;
                    &self.key
                } else {
                    &b[at + 1..self.i - 1]
                };
                exact_key = p == key;
                if p.len() > key.len() && p.starts_with(key) && p[key.len()] == b'.' {
                    prefix = Some((p, key.len()));
                }
            }
            self.expect(b':', "not JSON: expected ':'")?;
            self.ws();
            if exact_key {
                exact = Some(self.i);
                self.value(depth)?;
            } else if let Some((p, n)) = prefix {
                let held = if self.peek() == Some(b'{') {
                    self.object(Some(&p[n + 1..]), depth + 1)?
                } else {
                    self.value(depth)?;
                    None
                };
                match nested.iter_mut().find(|(len, _)| *len == n) {
                    Some(e) => e.1 = held,
                    None => nested.push((n, held)),
                }
            } else {
                self.value(depth)?;
            }
            self.ws();
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b'}') => {
                    self.i += 1;
                    break;
                }
                _ => return Err(("not JSON: expected ',' or '}'", self.i)),
            }
        }
        if exact.is_some() {
            return Ok(exact);
        }
        nested.sort_unstable_by_key(|e| e.0);
        Ok(nested.into_iter().find_map(|e| e.1))
    }

    /// Checks one value, `depth` levels deep in its container.
    fn value(&mut self, depth: usize) -> Result<(), Fault> {
        self.ws();
        match self.peek() {
            Some(b'"') => self.string(None).map(drop),
            Some(b'{') => self.object(None, depth + 1).map(drop),
            Some(b'[') => self.array(depth + 1),
            Some(b't') => self.literal(b"true"),
            Some(b'f') => self.literal(b"false"),
            Some(b'n') => self.literal(b"null"),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => Err(("not JSON: expected a value", self.i)),
        }
    }

    fn array(&mut self, depth: usize) -> Result<(), Fault> {
        if depth > MAX_DEPTH {
            return Err(("not JSON: nested too deeply", self.i));
        }
        self.i += 1;
        self.ws();
        if self.peek() == Some(b']') {
            self.i += 1;
            return Ok(());
        }
        loop {
            self.value(depth)?;
            self.ws();
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b']') => {
                    self.i += 1;
                    return Ok(());
                }
                _ => return Err(("not JSON: expected ',' or ']'", self.i)),
            }
        }
    }

    fn literal(&mut self, word: &[u8]) -> Result<(), Fault> {
        if self.b[self.i..].starts_with(word) {
            self.i += word.len();
            Ok(())
        } else {
            Err(("not JSON: expected a value", self.i))
        }
    }

    /// `-? (0 | [1-9] digits) (. digits)? ([eE] [+-]? digits)?`.
    fn number(&mut self) -> Result<(), Fault> {
        let start = self.i;
        let bad = ("not JSON: bad number", start);
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        match self.peek() {
            Some(b'0') => self.i += 1,
            Some(b'1'..=b'9') => self.digits(),
            _ => return Err(bad),
        }
        if self.peek() == Some(b'.') {
            self.i += 1;
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(bad);
            }
            self.digits();
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.i += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.i += 1;
            }
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(bad);
            }
            self.digits();
        }
        Ok(())
    }

    fn digits(&mut self) {
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.i += 1;
        }
    }

    /// At `"`: a string through its closing quote, unescaped into `out`
    /// when given; whether it had escapes.
    fn string(&mut self, mut out: Option<&mut Vec<u8>>) -> Result<bool, Fault> {
        let start = self.i;
        self.i += 1;
        let b = self.b;
        let mut escaped = false;
        loop {
            // Up to a quote, a backslash or a control byte.
            let from = self.i;
            let i = next_stop(b, from);
            let Some(&stop) = b.get(i) else {
                return Err(("not JSON: unclosed string", start));
            };
            if let Some(o) = out.as_deref_mut() {
                o.extend_from_slice(&b[from..i]);
            }
            self.i = i;
            match stop {
                b'"' => {
                    self.i += 1;
                    return Ok(escaped);
                }
                b'\\' => escaped = true,
                _ => return Err(("not JSON: control character in a string", i)),
            }
            let at = self.i;
            let c = self.b.get(self.i + 1).copied();
            self.i += 2;
            let byte = match c {
                Some(b'"') => b'"',
                Some(b'\\') => b'\\',
                Some(b'/') => b'/',
                Some(b'b') => 8,
                Some(b'f') => 12,
                Some(b'n') => b'\n',
                Some(b'r') => b'\r',
                Some(b't') => b'\t',
                Some(b'u') => {
                    let ch = self.unicode(at)?;
                    if let Some(o) = out.as_deref_mut() {
                        let mut tmp = [0u8; 4];
                        o.extend_from_slice(ch.encode_utf8(&mut tmp).as_bytes());
                    }
                    continue;
                }
                _ => return Err(("not JSON: bad escape", at)),
            };
            if let Some(o) = out.as_deref_mut() {
                o.push(byte);
            }
        }
    }

    /// After `\u`: the code point, a surrogate pair joined.
    fn unicode(&mut self, at: usize) -> Result<char, Fault> {
        let hi = self.hex4().ok_or(("not JSON: bad \\u escape", at))?;
        let cp = if (0xD800..0xDC00).contains(&hi) {
            let lo = (self.b.get(self.i..self.i + 2) == Some(b"\\u"))
                .then(|| {
                    self.i += 2;
                    self.hex4()
                })
                .flatten()
                .filter(|lo| (0xDC00..0xE000).contains(lo))
                .ok_or(("not JSON: unpaired surrogate in a \\u escape", at))?;
            0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
        } else if (0xDC00..0xE000).contains(&hi) {
            return Err(("not JSON: unpaired surrogate in a \\u escape", at));
        } else {
            hi
        };
        char::from_u32(cp).ok_or(("not JSON: bad \\u escape", at))
    }

    fn hex4(&mut self) -> Option<u32> {
        let h = self.b.get(self.i..self.i + 4)?;
        if !h.iter().all(u8::is_ascii_hexdigit) {
            return None;
        }
        let v = h
            .iter()
            .fold(0, |v, &c| v * 16 + (c as char).to_digit(16).unwrap_or(0));
        self.i += 4;
        Some(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn get(line: &str, path: &str) -> Result<Option<String>, Fault> {
        let mut v = Vec::new();
        field(line.as_bytes(), path, &mut v).map(|o| o.map(|()| String::from_utf8(v).unwrap()))
    }

    #[test]
    fn fields_nested_flattened_and_escaped() {
        let l = r#"{"a":1,"skip":{"x":[1,{"y":"}"}]},"url":{"original":"http:\/\/a\/b?\u0041=\ud83d\ude00"}}"#;
        assert_eq!(get(l, "url.original").unwrap().unwrap(), "http://a/b?A=😀");
        let l = r#"{"url.original":"x","url":{"full":"y"}}"#;
        assert_eq!(get(l, "url.original").unwrap().unwrap(), "x");
        assert_eq!(get(l, "url.full").unwrap().unwrap(), "y");
        assert_eq!(get(l, "url.none").unwrap(), None);
        assert_eq!(get(r#"{"u":null}"#, "u").unwrap(), None);
        assert_eq!(
            get(r#"{"u":3}"#, "u").unwrap_err().0,
            "the field is a number, not a string"
        );
        assert!(get("not json", "u").is_err());
        assert!(get(r#"{"u":"\ud800"}"#, "u").is_err());
        assert!(get(r#"{"a":"x"#, "u").is_err());
        // An escaped key is the key it spells.
        assert_eq!(get(r#"{"u\u0072l":"x"}"#, "url").unwrap().unwrap(), "x");
    }

    /// Issue 45, fault 5: a line that is not one JSON object is an error
    /// row, whatever comes after the field.
    #[test]
    fn json_line_cut_short_after_its_field() {
        for bad in [
            r#"{"url":"http://a/", garbage"#,
            r#"{"url":"http://a/","#,
            r#"{"url":"http://a/""#,
            r#"{"url":"http://a/"} trailing"#,
            r#"{"url":"http://a/"}{"url":"http://b/"}"#,
            r#"{"url":"http://a/","n":01}"#,
            r#"{"url":"http://a/","n":tru}"#,
            r#"{"url":"http://a/","s":"tab	inside"}"#,
            r#"{"url":"http://a/",}"#,
            r#"{"url":"http://a/","a":[1,]}"#,
            "{\"url\":\"http://a/\",\"x\":\"\u{80}\"}\u{0}",
        ] {
            let e = get(bad, "url").expect_err(bad);
            assert!(e.0.starts_with("not JSON"), "{bad}: {e:?}");
        }
        assert!(get("{\"url\":\"http://a/\"} \r", "url").unwrap().is_some());
        let mut v = Vec::new();
        assert_eq!(
            field(b"{\"url\":\"a\",\"x\":\"\xff\"}", "url", &mut v),
            Err(("not JSON: invalid UTF-8", 16))
        );
    }

    /// The same line read by `serde_json` (the tests' oracle): accepted and
    /// rejected alike, the same value, for repeated keys, nesting at the
    /// limit and numbers of every form.
    #[test]
    fn agrees_with_serde_json() {
        let deep = |n: usize| format!("{{\"u\":\"x\",\"d\":{}{}}}", "[".repeat(n), "]".repeat(n));
        let lines = [
            r#"{"u":"a","u":"b"}"#.to_string(),
            r#"{"u":"a","u":null}"#.to_string(),
            r#"{"u":{"v":"a"},"u":{"w":1}}"#.to_string(),
            r#"{"u":{"v":"a"},"u.v":"b"}"#.to_string(),
            r#"{"n":-0.5e+3,"m":1E9,"u":"\u00e9\n"}"#.to_string(),
            r#"{"n":-,"u":"a"}"#.to_string(),
            r#"{"n":1.,"u":"a"}"#.to_string(),
            deep(126),
            deep(127),
            deep(200),
        ];
        for l in &lines {
            let ours = get(l, "u");
            let theirs: Result<serde_json::Value, _> = serde_json::from_str(l);
            match theirs {
                Err(_) => assert!(ours.is_err(), "{l}: {ours:?}"),
                Ok(v) => {
                    let want = match &v["u"] {
                        serde_json::Value::String(s) => Some(s.clone()),
                        _ => None,
                    };
                    if v["u"].is_object() {
                        assert!(ours.is_err(), "{l}");
                    } else {
                        assert_eq!(ours.unwrap(), want, "{l}");
                    }
                }
            }
        }
        assert_eq!(
            get(r#"{"u":{"v":"a"},"u.v":"b"}"#, "u.v").unwrap().unwrap(),
            "b"
        );
        assert_eq!(get(r#"{"u":{"v":"a"},"u":{"w":1}}"#, "u.v").unwrap(), None);
    }

    /// The word-at-a-time scan stops where the table does, for every byte
    /// at every place in a word.
    #[test]
    fn next_stop_agrees_with_the_table() {
        for c in 0..=255u8 {
            for at in 0..20 {
                let mut b = vec![b'a'; 24];
                b[at] = c;
                b[at + 2] = 0xC3;
                let want = (0..b.len())
                    .find(|&k| STOPS[b[k] as usize])
                    .unwrap_or(b.len());
                for from in 0..=at {
                    assert_eq!(next_stop(&b, from), want.max(from), "{c} {at} {from}");
                }
            }
        }
    }
}
