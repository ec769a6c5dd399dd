//! The finders normalization and resolution use: the first `%` (or
//! upper-case letter), for percent-encoding normalization, and the first
//! `/.`, for dot-segment removal. SSE2 (every x86_64 CPU's: nothing to
//! detect) from sixteen bytes on, with SWAR twins (eight bytes at a time
//! in plain integer arithmetic) for the rest and elsewhere.

const LOW: u64 = 0x7f7f_7f7f_7f7f_7f7f;
const ONES: u64 = 0x0101_0101_0101_0101;

/// The high bit of each byte of `x` that equals `c`, exactly: adding 0x7f
/// to the low seven bits sets the high bit unless they are all zero.
#[inline(always)]
fn eq(x: u64, c: u8) -> u64 {
    let y = x ^ (u64::from(c) * ONES);
    !(((y & LOW) + LOW) | y) & !LOW
}

/// The high bit of each byte of `x` in `a..=b` (ASCII bounds), exactly:
/// on the low seven bits nothing carries across bytes, and bytes of 0x80 or
/// more are masked out.
#[inline(always)]
fn within(x: u64, a: u8, b: u8) -> u64 {
    let low = x & LOW;
    let at_least_a = low + (0x80 - u64::from(a)) * ONES;
    let above_b = low + (0x7f - u64::from(b)) * ONES;
    at_least_a & !above_b & !x & !LOW
}

/// The first "%", or with `upper` the first of "%" and "A" to "Z": where
/// percent-encoding normalization (RFC 3986 6.2.2.1, 6.2.2.2) has work.
/// Sixteen bytes at a time with SSE2 from sixteen bytes on, else eight.
#[inline(always)]
pub(crate) fn find_pct_or_upper(s: &[u8], upper: bool) -> Option<usize> {
    #[cfg(all(target_arch = "x86_64", not(feature = "force-scalar")))]
    if s.len() >= 16 {
        // SAFETY: every x86_64 CPU supports SSE2, and the input has the
        // sixteen bytes the kernel needs.
        return unsafe { super::x86_64::find_pct_or_upper_sse2(s, upper) };
    }
    find_pct_or_upper_swar(s, upper)
}

/// `find_pct_or_upper` eight bytes at a time in integer arithmetic (the
/// scalar twin of the SSE2 kernel).
#[inline(always)]
pub(crate) fn find_pct_or_upper_swar(s: &[u8], upper: bool) -> Option<usize> {
    let upper = if upper { u64::MAX } else { 0 };
    first_mark(s, |x| eq(x, b'%') | (within(x, b'A', b'Z') & upper))
}

/// First index `k` with `s[k] == b'/'` and `s[k + 1] == b'.'`: where a
/// path segment that starts with "." begins (RFC 3986 5.2.4 has work to
/// do only there). Sixteen places at a time with SSE2 from seventeen bytes
/// on, else eight bytes at a time.
#[inline(always)]
pub(crate) fn find_dot_segment(s: &[u8]) -> Option<usize> {
    #[cfg(all(target_arch = "x86_64", not(feature = "force-scalar")))]
    if s.len() >= 17 {
        // SAFETY: every x86_64 CPU supports SSE2, and the input has the
        // seventeen bytes the kernel needs.
        return unsafe { super::x86_64::find_dot_segment_sse2(s) };
    }
    find_dot_segment_swar(s)
}

/// `find_dot_segment` eight bytes at a time in integer arithmetic (the
/// scalar twin of the SSE2 kernel).
#[inline(always)]
pub(crate) fn find_dot_segment_swar(s: &[u8]) -> Option<usize> {
    // A "/" in the last byte of the previous word.
    let mut carry = 0;
    // Each "." whose "/" is the byte before: the "/" is one to the left.
    first_mark(s, |x| {
        let slash = eq(x, b'/');
        let pairs = ((slash << 8) | carry) & eq(x, b'.');
        carry = slash >> 56;
        pairs
    })
    .map(|k| k - 1)
}

/// The first byte whose high bit `marks` sets in the word holding it, eight
/// bytes at a time in plain integer arithmetic: `marks` sees the words of
/// `s` in order (little-endian), the last one zero-padded (no grammar
/// character is NUL, so the padding matches nothing a caller looks for).
#[inline(always)]
fn first_mark(s: &[u8], mut marks: impl FnMut(u64) -> u64) -> Option<usize> {
    let mut chunks = s.chunks_exact(8);
    for (n, chunk) in chunks.by_ref().enumerate() {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let m = marks(u64::from_le_bytes(word));
        if m != 0 {
            return Some(n * 8 + m.trailing_zeros() as usize / 8);
        }
    }
    let at = s.len() - chunks.remainder().len();
    let m = marks(tail_word(chunks.remainder()));
    (m != 0).then(|| at + m.trailing_zeros() as usize / 8)
}

/// Up to seven bytes as a little-endian word, zero above them. Two
/// overlapping loads instead of a loop: their common bytes are equal, so
/// or-ing them in place is exact.
#[inline(always)]
fn tail_word(t: &[u8]) -> u64 {
    let n = t.len();
    debug_assert!(n < 8);
    if n >= 4 {
        let lo = u32::from_le_bytes([t[0], t[1], t[2], t[3]]) as u64;
        let hi = u32::from_le_bytes([t[n - 4], t[n - 3], t[n - 2], t[n - 1]]) as u64;
        lo | hi << (8 * (n - 4))
    } else if n > 0 {
        t[0] as u64 | (t[n / 2] as u64) << (8 * (n / 2)) | (t[n - 1] as u64) << (8 * (n - 1))
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every byte value at every place of up to six words (three SSE2
    /// blocks, the last one overlapping), after four offsets, with and
    /// without upper case, against the obvious search: the dispatching
    /// search (SSE2 from 16 bytes on x86_64) and the SWAR one.
    #[test]
    fn find_pct_or_upper_matches_the_obvious_search() {
        for upper in [false, true] {
            let naive = |s: &[u8]| {
                s.iter()
                    .position(|&c| c == b'%' || (upper && c.is_ascii_uppercase()))
            };
            for len in 0..=50 {
                for at in 0..len {
                    for b in 0..=255u8 {
                        let mut s = vec![b'a'; len];
                        s[at] = b;
                        // A second probe later on, so a miss finds it.
                        if at + 3 < len {
                            s[at + 3] = b'%';
                        }
                        for from in [0, 1, 7, 15].into_iter().filter(|&f| f <= len) {
                            let want = naive(&s[from..]);
                            let at = || format!("{s:?}[{from}..] {upper}");
                            assert_eq!(find_pct_or_upper(&s[from..], upper), want, "{}", at());
                            assert_eq!(find_pct_or_upper_swar(&s[from..], upper), want, "{}", at());
                        }
                    }
                }
            }
        }
    }

    fn naive(s: &[u8]) -> Option<usize> {
        s.windows(2).position(|w| w == b"/.")
    }

    /// Every placement of "/" and "." (and near misses) at every offset and
    /// length up to six words (three SSE2 blocks), against the obvious
    /// search: the dispatching search and the SWAR one.
    #[test]
    fn find_dot_segment_matches_the_obvious_search() {
        let alphabet = [b'/', b'.', b'a', b'/' ^ 0x80, b'.' ^ 0x80, 0, 0xff, b'o'];
        let mut seed = 1u64;
        for len in 0..=50 {
            for _ in 0..1500 {
                let s: Vec<u8> = (0..len)
                    .map(|_| {
                        seed = seed
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        alphabet[(seed >> 61) as usize]
                    })
                    .collect();
                for from in 0..=s.len() {
                    let want = naive(&s[from..]);
                    assert_eq!(find_dot_segment(&s[from..]), want, "{s:?}[{from}..]");
                    assert_eq!(find_dot_segment_swar(&s[from..]), want, "{s:?}[{from}..]");
                }
            }
        }
        for len in [18, 40] {
            for b in 0..=255u8 {
                for at in 0..len - 1 {
                    let mut s = vec![b'x'; len];
                    s[at] = b'/';
                    s[at + 1] = b;
                    assert_eq!(find_dot_segment(&s), naive(&s));
                    assert_eq!(find_dot_segment_swar(&s), naive(&s));
                    // And "." after every byte value.
                    s[at] = b;
                    s[at + 1] = b'.';
                    assert_eq!(find_dot_segment(&s), naive(&s));
                    assert_eq!(find_dot_segment_swar(&s), naive(&s));
                }
            }
        }
    }
}
