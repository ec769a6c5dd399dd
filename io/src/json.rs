//! One string field of a JSON object, found by a scanner over the raw bytes:
//! no document is built, values before the field are skipped, and the
//! object is read only as far as the field (what follows it is not
//! checked). A dotted path (`http.request.referrer`) is looked up both
//! nested (`{"http":{"request":{"referrer":...}}}`) and flattened
//! (`{"http.request.referrer":...}`, as ECS documents often are).

/// What went wrong, and at which byte of the line.
pub type Fault = (&'static str, usize);

/// Writes the string at `path` of the object `line` into `out`, unescaped
/// (`\/` is `/`, `\u0041` is `A`, surrogate pairs joined): `Ok(Some(()))`;
/// `Ok(None)` when the field is missing or `null`.
pub fn field(line: &[u8], path: &str, out: &mut Vec<u8>) -> Result<Option<()>, Fault> {
    let mut s = Scan { b: line, i: 0 };
    s.ws();
    if s.peek() != Some(b'{') {
        return Err(("not a JSON object", s.i));
    }
    s.object(path.as_bytes(), out)
}

struct Scan<'a> {
    b: &'a [u8],
    i: usize,
}

impl Scan<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }
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

    /// At `{`: finds `path` in this object (or under it).
    fn object(&mut self, path: &[u8], out: &mut Vec<u8>) -> Result<Option<()>, Fault> {
        self.i += 1;
        self.ws();
        if self.peek() == Some(b'}') {
            return Ok(None);
        }
        let mut key = Vec::new();
        loop {
            self.ws();
            if self.peek() != Some(b'"') {
                return Err(("not JSON: expected a key", self.i));
            }
            key.clear();
            self.string(&mut key)?;
            self.expect(b':', "not JSON: expected ':'")?;
            self.ws();
            if key == path {
                return self.take(out);
            }
            let nested = path.len() > key.len()
                && path.starts_with(&key)
                && path[key.len()] == b'.'
                && self.peek() == Some(b'{');
            if nested {
                if let Some(()) = self.object(&path[key.len() + 1..], out)? {
                    return Ok(Some(()));
                }
                // Not under this key: the rest of this object may still
                // hold it flattened; `object` stopped after its `}`.
            } else {
                self.skip()?;
            }
            self.ws();
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b'}') => {
                    self.i += 1;
                    return Ok(None);
                }
                _ => return Err(("not JSON: expected ',' or '}'", self.i)),
            }
        }
    }

    /// The field's value.
    fn take(&mut self, out: &mut Vec<u8>) -> Result<Option<()>, Fault> {
        match self.peek() {
            Some(b'"') => {
                self.string(out)?;
                Ok(Some(()))
            }
            Some(b'n') if self.b[self.i..].starts_with(b"null") => Ok(None),
            Some(b'{') => Err(("the field is an object, not a string", self.i)),
            Some(b'[') => Err(("the field is an array, not a string", self.i)),
            Some(b't' | b'f') => Err(("the field is a boolean, not a string", self.i)),
            Some(b'-' | b'0'..=b'9') => Err(("the field is a number, not a string", self.i)),
            _ => Err(("not JSON: expected a value", self.i)),
        }
    }

    /// Skips a value, checking only what is needed to find its end.
    fn skip(&mut self) -> Result<(), Fault> {
        self.ws();
        match self.peek() {
            Some(b'"') => {
                let start = self.i;
                self.i += 1;
                loop {
                    let rest = &self.b[self.i..];
                    match memchr::memchr2(b'"', b'\\', rest) {
                        Some(k) if rest[k] == b'"' => {
                            self.i += k + 1;
                            return Ok(());
                        }
                        Some(k) => self.i += k + 2,
                        None => return Err(("not JSON: unclosed string", start)),
                    }
                }
            }
            Some(b'{' | b'[') => {
                let start = self.i;
                let mut depth = 0usize;
                while let Some(c) = self.peek() {
                    match c {
                        b'"' => {
                            self.skip()?;
                            continue;
                        }
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => {
                            depth -= 1;
                            if depth == 0 {
                                self.i += 1;
                                return Ok(());
                            }
                        }
                        _ => {}
                    }
                    self.i += 1;
                }
                Err(("not JSON: unclosed object or array", start))
            }
            Some(c) if c == b'-' || c.is_ascii_alphanumeric() => {
                while matches!(self.peek(), Some(c) if c == b'-' || c == b'+' || c == b'.' || c.is_ascii_alphanumeric())
                {
                    self.i += 1;
                }
                Ok(())
            }
            _ => Err(("not JSON: expected a value", self.i)),
        }
    }

    /// At `"`: a string, unescaped into `out`.
    fn string(&mut self, out: &mut Vec<u8>) -> Result<(), Fault> {
        let start = self.i;
        self.i += 1;
        loop {
            let rest = &self.b[self.i..];
            let Some(k) = memchr::memchr2(b'"', b'\\', rest) else {
                return Err(("not JSON: unclosed string", start));
            };
            out.extend_from_slice(&rest[..k]);
            self.i += k;
            if rest[k] == b'"' {
                self.i += 1;
                return Ok(());
            }
            let at = self.i;
            let c = self.b.get(self.i + 1).copied();
            self.i += 2;
            match c {
                Some(b'"') => out.push(b'"'),
                Some(b'\\') => out.push(b'\\'),
                Some(b'/') => out.push(b'/'),
                Some(b'b') => out.push(8),
                Some(b'f') => out.push(12),
                Some(b'n') => out.push(b'\n'),
                Some(b'r') => out.push(b'\r'),
                Some(b't') => out.push(b'\t'),
                Some(b'u') => {
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
                    let ch = char::from_u32(cp).ok_or(("not JSON: bad \\u escape", at))?;
                    let mut tmp = [0u8; 4];
                    out.extend_from_slice(ch.encode_utf8(&mut tmp).as_bytes());
                }
                _ => return Err(("not JSON: bad escape", at)),
            }
        }
    }

    fn hex4(&mut self) -> Option<u32> {
        let h = self.b.get(self.i..self.i + 4)?;
        let s = std::str::from_utf8(h).ok()?;
        let v = u32::from_str_radix(s, 16).ok()?;
        if !h.iter().all(u8::is_ascii_hexdigit) {
            return None;
        }
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
    }
}
