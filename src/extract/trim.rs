//! Where a candidate ends: whitespace, trailing punctuation and unbalanced
//! brackets left out, and defanged indicators put back.

#[allow(unused_imports)]
use super::*;

/// Whitespace: ASCII, and U+00A0 (0xC2 0xA0).
pub(super) fn space_at(t: &[u8], i: usize) -> usize {
    match t[i] {
        b if ascii_space(b) => 1,
        0xc2 if t.get(i + 1) == Some(&0xa0) => 2,
        _ => 0,
    }
}

/// ASCII whitespace: space, tab, LF, VT, FF, CR.
pub(super) const fn ascii_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// Bytes that end a bare URI's trailing run when unbalanced, or always.
pub(super) const TRAILING: &[u8] = b".,;:!?'";

/// [`TRAILING`] as a 256-bit set (one test in place of a search).
pub(super) const TRAILING_SET: [u64; 4] = {
    let mut set = [0u64; 4];
    let mut i = 0;
    while i < TRAILING.len() {
        let b = TRAILING[i];
        set[(b >> 6) as usize] |= 1 << (b & 63);
        i += 1;
    }
    set
};

/// The end of a bare URI from `s` to `e` once trailing sentence
/// punctuation, closing quotes and unbalanced closing brackets are left out.
/// Most URIs end in none of these: one test, inlined, says so.
#[inline(always)]
pub(super) fn trim(t: &[u8], s: usize, e: usize) -> usize {
    match t[s..e].last() {
        Some(&b) if TRIMMED[usize::from(b >> 6)] >> (b & 63) & 1 != 0 => trim_end(t, s, e),
        _ => e,
    }
}

/// [`TRAILING`] and the closing brackets, as a 256-bit set: the bytes
/// [`trim_end`] may leave out.
pub(super) const TRIMMED: [u64; 4] = {
    let mut set = TRAILING_SET;
    let mut i = 0;
    while i < 3 {
        let b = b")]}"[i];
        set[(b >> 6) as usize] |= 1 << (b & 63);
        i += 1;
    }
    set
};

/// [`trim`] once the last byte is one it may leave out.
#[inline(never)]
pub(super) fn trim_end(t: &[u8], s: usize, mut e: usize) -> usize {
    // Per bracket pair, its opening and closing counts in the candidate,
    // taken once a closing bracket of the pair ends it and kept as bytes
    // are dropped, so the whole is linear. (A plain count: the candidates
    // are short, and memchr's setup and its exit branches cost more than
    // the count itself there.)
    let mut n: [Option<(usize, usize)>; 3] = [None; 3];
    loop {
        let Some(&last) = t[s..e].last() else {
            return e;
        };
        if TRAILING_SET[usize::from(last >> 6)] >> (last & 63) & 1 != 0 {
            e -= 1;
            continue;
        }
        let (k, open) = match last {
            b')' => (0, b'('),
            b']' => (1, b'['),
            b'}' => (2, b'{'),
            _ => return e,
        };
        let (opened, closed) = n[k].get_or_insert_with(|| {
            let count = |c: u8| t[s..e].iter().filter(|&&b| b == c).count();
            match count(open) {
                // None opened: every closing one at the end goes (any
                // count above zero says so).
                0 => (0, e - s),
                opened => (opened, count(last)),
            }
        });
        if *closed > *opened {
            *closed -= 1;
            e -= 1;
        } else {
            return e;
        }
    }
}

/// A defanged token put back: `hxxp`/`hxxps`/`fxp` schemes, `[.]`, `(.)`,
/// `[:]`, `[://]`, `[@]`, `[dot]`. Whether anything changed.
pub(super) fn refang(token: &[u8]) -> (Vec<u8>, bool) {
    let mut out = Vec::with_capacity(token.len());
    let mut changed = false;
    let mut i = 0;
    let lower: Vec<u8> = token.iter().map(|b| b.to_ascii_lowercase()).collect();
    for (from, to) in [
        (&b"hxxps"[..], &b"https"[..]),
        (b"hxxp", b"http"),
        (b"fxp", b"ftp"),
    ] {
        if lower.starts_with(from) {
            out.extend_from_slice(to);
            i = from.len();
            changed = true;
            break;
        }
    }
    while i < token.len() {
        let rest = &lower[i..];
        let swap: Option<(&[u8], &[u8])> = [
            (&b"[://]"[..], &b"://"[..]),
            (b"[:]", b":"),
            (b"[.]", b"."),
            (b"(.)", b"."),
            (b"{.}", b"."),
            (b"[dot]", b"."),
            (b"[@]", b"@"),
            (b"[/]", b"/"),
        ]
        .into_iter()
        .find(|(f, _)| rest.starts_with(f));
        match swap {
            Some((f, to)) => {
                out.extend_from_slice(to);
                i += f.len();
                changed = true;
            }
            None => {
                out.push(token[i]);
                i += 1;
            }
        }
    }
    (out, changed)
}
