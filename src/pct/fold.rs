//! The folded copy: escapes' hex digits upper-cased, the escapes of a set
//! of bytes decoded, letters optionally lower-cased, for normalization (RFC
//! 3986 sections 6.2.2.1 and 6.2.2.2) and URN equivalence (RFC 8141
//! section 3.1).

use super::{pct_at, push_pct};
use crate::engine::in_set;

/// Appends `s` to `out` with each escape whose value is in `decode`
/// decoded (lower-cased too with `lower`), each other escape's hex digits
/// upper-cased when `upper_hex` (else copied as they are), and with
/// `lower` every letter lower-cased. Runs with nothing to change are copied
/// whole, found by the SWAR/SSE2 finder.
pub(crate) fn copy_folded(
    s: &str,
    decode: &[u64; 4],
    upper_hex: bool,
    lower: bool,
    out: &mut String,
) {
    let b = s.as_bytes();
    let next = |from: usize| crate::scan::find_pct_or_upper(&b[from..], lower).map(|k| from + k);
    let Some(first) = next(0) else {
        out.push_str(s);
        return;
    };
    out.push_str(&s[..first]);
    let mut i = first;
    while i < b.len() {
        if let Some(v) = pct_at(b, i) {
            if in_set(decode, v) {
                out.push(if lower { v.to_ascii_lowercase() } else { v } as char);
            } else if upper_hex {
                push_pct(out, v);
            } else {
                out.push_str(&s[i..i + 3]);
            }
            i += 3;
        } else {
            // Copy up to the next byte that needs work.
            let end = next(i + 1).unwrap_or(b.len());
            let c = b[i];
            if lower && c.is_ascii_uppercase() {
                out.push(c.to_ascii_lowercase() as char);
                out.push_str(&s[i + 1..end]);
            } else {
                out.push_str(&s[i..end]);
            }
            i = end;
        }
    }
}

/// Appends `s` with the hex digits of its escapes in upper case, nothing
/// decoded (RFC 8141 section 3.1; draft-ietf-urnbis-rfc2141bis-urn-03
/// section 5 step 3).
#[cfg_attr(not(feature = "rfc8141"), allow(dead_code))]
pub(crate) fn push_upper(s: &str, out: &mut String) {
    copy_folded(s, &[0; 4], true, false, out);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_as_documented() {
        let unreserved = {
            let mut set = [0u64; 4];
            for b in (b'a'..=b'z')
                .chain(b'A'..=b'Z')
                .chain(b'0'..=b'9')
                .chain(*b"-._~")
            {
                set[(b >> 6) as usize] |= 1 << (b & 63);
            }
            set
        };
        let mut out = String::new();
        copy_folded("A%7e%2fB%41", &unreserved, true, false, &mut out);
        assert_eq!(out, "A~%2FBA");
        out.clear();
        copy_folded("A%7e%2fB%41", &unreserved, true, true, &mut out);
        assert_eq!(out, "a~%2fba".replace("%2f", "%2F"));
        out.clear();
        copy_folded("A%7e%2f", &unreserved, false, false, &mut out);
        assert_eq!(out, "A~%2f");
        out.clear();
        push_upper("x%2fy%zz%", &mut out);
        assert_eq!(out, "x%2Fy%zz%");
    }
}
