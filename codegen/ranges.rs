//! Byte sets as ranges, for the SSE2 kernel (which has no byte shuffle to
//! read nibble tables with). One function for two users: the generator
//! (`emit`), which writes a range table for every DFA state, and the
//! library, which reads this text from the generated `tables.rs` and whose
//! tests check sets with it.

/// The range count that stands for "more than 15".
pub const TOO_MANY: u8 = 0xff;

/// A nibble-table set (byte `b` is in it when `lo[b & 15] & hi[b >> 4]` is
/// not zero) as its maximal runs of consecutive bytes: `[n, start_0,
/// span_0, start_1, span_1, ...]` with `span = last - start`, or `n` =
/// `TOO_MANY` (0xff) past 15 runs.
pub fn ranges_of(set: &[u8; 32]) -> [u8; 32] {
    let inside = |b: usize| b < 256 && set[b & 15] & set[16 + (b >> 4)] != 0;
    let mut r = [0u8; 32];
    let mut n = 0;
    let mut start = None;
    for b in 0..=256usize {
        match (start, inside(b)) {
            (None, true) => start = Some(b),
            (Some(s), false) => {
                if n == 15 {
                    r[0] = TOO_MANY;
                    return r;
                }
                r[1 + 2 * n] = s as u8;
                r[2 + 2 * n] = (b - 1 - s) as u8;
                n += 1;
                start = None;
            }
            _ => {}
        }
    }
    r[0] = n as u8;
    r
}
