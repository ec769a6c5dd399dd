//! CSV records and fields (RFC 4180): fields separated by `,`; a field
//! that starts with a double quote is quoted, and may hold `,`, line breaks
//! and `""` (one quote) up to its closing quote. A record ends at an LF
//! outside a quoted field; a CR before it is dropped. Lenient where RFC
//! 4180 is strict and the intent is clear, as Python's `csv` module and the
//! `csv` crate read it: a quote inside a field that does not start with one
//! is an ordinary byte (`1,http://a/x"y` is two fields, and the record ends
//! at its line's end), and text after a closing quote is appended to the
//! field. A quoted field never closed runs to the end of the input: that
//! record is one error row (or, past the record limit, one overlong row).
//!
//! [`Quotes`] is the one reading of where records end, shared by the record
//! splitter here and the chunk cutter (`source`), so that both cut the same
//! records from any input, whole or in pieces.

/// Where a scan for record ends stands between two pieces of input: inside
/// a quoted field or not, a quote just seen inside one (closing, or the
/// first of `""`: the next byte tells), and whether the next byte starts a
/// field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Quotes {
    quoted: bool,
    pending: bool,
    field_start: bool,
}

impl Quotes {
    /// At the start of a record.
    pub const RECORD_START: Quotes = Quotes {
        quoted: false,
        pending: false,
        field_start: true,
    };

    /// Every record end (the index of its LF) in `buf`, read as the bytes
    /// that follow those already scanned; the state after the last one (or
    /// after all of `buf`) is left in `self`.
    pub fn ends<'a>(&'a mut self, buf: &'a [u8]) -> impl Iterator<Item = usize> + 'a {
        let mut at = 0;
        std::iter::from_fn(move || {
            let end = at + self.next_end(&buf[at..])?;
            at = end + 1;
            Some(end)
        })
    }

    /// The index in `buf` of the LF that ends the current record, reading
    /// `buf` as the bytes that follow those already scanned; the state is
    /// then [`Quotes::RECORD_START`] (the next record starts after that LF).
    /// `None` when `buf` ends inside the record: the state is then the one
    /// after all of `buf`, ready for the next piece.
    pub fn next_end(&mut self, buf: &[u8]) -> Option<usize> {
        let mut i = 0;
        if self.pending {
            // The quote before `buf` closed its field, or was half of `""`.
            match buf.first() {
                None => return None,
                Some(b'"') => i = 1,
                Some(_) => {
                    self.quoted = false;
                    self.field_start = false;
                }
            }
            self.pending = false;
        }
        loop {
            if self.quoted {
                let q = i + memchr::memchr(b'"', &buf[i..])?;
                match buf.get(q + 1) {
                    None => {
                        self.pending = true;
                        return None;
                    }
                    // `""`: one quote, still inside.
                    Some(b'"') => i = q + 2,
                    Some(_) => {
                        self.quoted = false;
                        self.field_start = false;
                        i = q + 1;
                    }
                }
                continue;
            }
            let Some(k) = memchr::memchr2(b'"', b'\n', &buf[i..]) else {
                // The last byte was read outside quotes (a closing quote,
                // a literal one, or any other): a field starts after it
                // only if it is a comma.
                if let Some(&last) = buf.last() {
                    self.field_start = last == b',';
                }
                return None;
            };
            let p = i + k;
            if buf[p] == b'\n' {
                *self = Quotes::RECORD_START;
                return Some(p);
            }
            // Every byte from `i` to `p` was read outside quotes (and none
            // is an LF), so the one before `p` (if in `buf`) says whether a
            // field starts.
            let starts = if p == 0 {
                self.field_start
            } else {
                buf[p - 1] == b','
            };
            if starts {
                self.quoted = true;
            }
            i = p + 1;
        }
    }
}

/// The records of `buf` (whole records, as the reader cuts them), each
/// without its LF and a CR before it.
pub fn csv_records(buf: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut rest = buf;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let mut quotes = Quotes::RECORD_START;
        let (rec, next) = match quotes.next_end(rest) {
            Some(e) => (&rest[..e], &rest[e + 1..]),
            None => (rest, &rest[rest.len()..]),
        };
        rest = next;
        Some(rec.strip_suffix(b"\r").unwrap_or(rec))
    })
}

/// Field `k` of `record` (0-based), unquoted into `out`: `Ok(false)` when
/// the record has fewer fields, `Err(offset)` for a quote never closed.
pub fn csv_field(record: &[u8], k: usize, out: &mut Vec<u8>) -> Result<bool, usize> {
    out.clear();
    let mut i = 0;
    let mut n = 0;
    loop {
        // Field n starts at i.
        let want = n == k;
        if record.get(i) == Some(&b'"') {
            let open = i;
            i += 1;
            loop {
                let Some(q) = memchr::memchr(b'"', &record[i..]) else {
                    return Err(open);
                };
                if want {
                    out.extend_from_slice(&record[i..i + q]);
                }
                i += q + 1;
                if record.get(i) == Some(&b'"') {
                    if want {
                        out.push(b'"');
                    }
                    i += 1;
                } else {
                    break;
                }
            }
        }
        let end = memchr::memchr(b',', &record[i..]).map_or(record.len(), |c| i + c);
        if want {
            out.extend_from_slice(&record[i..end]);
            return Ok(true);
        }
        if end == record.len() {
            return Ok(false);
        }
        i = end + 1;
        n += 1;
    }
}

/// The fields of a header record, unquoted.
pub fn csv_header(record: &[u8]) -> Result<Vec<Vec<u8>>, usize> {
    let mut v = Vec::new();
    let mut f = Vec::new();
    let mut k = 0;
    while csv_field(record, k, &mut f)? {
        v.push(std::mem::take(&mut f));
        k += 1;
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_and_fields() {
        let buf = b"a,\"x,\"\"y\"\"\nz\",c\r\nb,,\"\"\n\"open";
        let recs: Vec<&[u8]> = csv_records(buf).collect();
        assert_eq!(recs.len(), 3);
        let mut f = Vec::new();
        assert_eq!(csv_field(recs[0], 1, &mut f), Ok(true));
        assert_eq!(f, b"x,\"y\"\nz");
        assert_eq!(csv_field(recs[0], 2, &mut f), Ok(true));
        assert_eq!(f, b"c");
        assert_eq!(csv_field(recs[0], 3, &mut f), Ok(false));
        assert_eq!(csv_field(recs[1], 1, &mut f), Ok(true));
        assert_eq!(f, b"");
        assert_eq!(csv_field(recs[1], 2, &mut f), Ok(true));
        assert_eq!(f, b"");
        assert_eq!(csv_field(recs[2], 0, &mut f), Err(0));
        assert_eq!(
            csv_header(b"id,\"url\",x").unwrap(),
            [b"id".to_vec(), b"url".to_vec(), b"x".to_vec()]
        );
    }

    /// Issue 45, fault 1: a quote inside an unquoted field (`x"y`) opens
    /// nothing; the record still ends at its line's end, as Python's `csv`
    /// module and the `csv` crate read it. Only a field that starts with
    /// `"` is quoted.
    #[test]
    fn csv_stray_quote_swallows_nothing() {
        let buf = b"1,http://a/x\"y\n2,http://b/\n3,\"http://c/,\"\"q\"\"\"\n4,a\"\"b\n5, \"c\n";
        let recs: Vec<&[u8]> = csv_records(buf).collect();
        assert_eq!(recs.len(), 5, "{recs:?}");
        let mut f = Vec::new();
        assert_eq!(csv_field(recs[0], 1, &mut f), Ok(true));
        assert_eq!(f, b"http://a/x\"y");
        assert_eq!(csv_field(recs[2], 1, &mut f), Ok(true));
        assert_eq!(f, b"http://c/,\"q\"");
        assert_eq!(csv_field(recs[3], 1, &mut f), Ok(true));
        assert_eq!(f, b"a\"\"b");
        // A space before the quote: the field does not start with it.
        assert_eq!(csv_field(recs[4], 1, &mut f), Ok(true));
        assert_eq!(f, b" \"c");
        // Text after a closing quote is appended; a quote there is literal.
        let recs: Vec<&[u8]> = csv_records(b"\"a\"b\"c,d\ne\n").collect();
        assert_eq!(recs.len(), 2);
        assert_eq!(csv_field(recs[0], 0, &mut f), Ok(true));
        assert_eq!(f, b"ab\"c");
        // A quoted field never closed runs to the end: one record, an error.
        let recs: Vec<&[u8]> = csv_records(b"1,ok\n2,\"open\n3,x\n4,y\n").collect();
        assert_eq!(recs.len(), 2);
        assert_eq!(csv_field(recs[1], 1, &mut f), Err(2));
    }

    /// The scan's state carried between pieces gives the record ends of the
    /// whole, wherever the input is cut (inside `""`, after a closing
    /// quote, after a `,` before a quote).
    #[test]
    fn quotes_carried_across_pieces() {
        // (Found by the csv fuzz target: a piece that ends with a literal
        // quote, `\r"`, leaves no field start for the next piece's `"`.)
        let text = b"a,\"b\"\"\nc\",\"d\"e\"\nx\"y,\"z\"\n\"\"\n,\"q\n\"\r\n\r\"\"\nx\r\n";
        let ends = |pieces: &[&[u8]]| {
            let mut q = Quotes::RECORD_START;
            let mut ends = Vec::new();
            let mut base = 0;
            for p in pieces {
                ends.extend(q.ends(p).map(|e| base + e));
                base += p.len();
            }
            ends
        };
        let whole = ends(&[text]);
        assert_eq!(whole.len(), 6, "{whole:?}");
        for a in 0..=text.len() {
            for b in a..=text.len() {
                let got = ends(&[&text[..a], &text[a..b], &text[b..]]);
                assert_eq!(got, whole, "cut at {a} and {b}");
            }
        }
    }
}
