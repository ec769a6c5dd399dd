//! CSV records and fields (RFC 4180): fields separated by `,`, a field in
//! double quotes may hold `,`, line breaks and `""` (one quote). A record
//! ends at an LF outside quotes; a CR before it is dropped. Lenient where
//! RFC 4180 is strict and the intent is clear: a quote inside an unquoted
//! field is kept as it is, and text after a closing quote is appended.

/// The records of `buf` (whole records, as the reader cuts them).
pub fn csv_records(buf: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut rest = buf;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let mut odd = false;
        let mut end = rest.len();
        let mut next = rest.len();
        for i in memchr::memchr2_iter(b'"', b'\n', rest) {
            if rest[i] == b'"' {
                odd = !odd;
            } else if !odd {
                end = i;
                next = i + 1;
                break;
            }
        }
        let rec = &rest[..end];
        rest = &rest[next..];
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
}
