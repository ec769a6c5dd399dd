//! The escape a batch's runs may go on through: `%` and two hex digits.
//! One definition for two users: the generator (`bitprog`) marks the run
//! sets whose leaf states loop through exactly this and nothing else, and
//! the library reads this text from the generated `tables.rs`: the batch's
//! bit machinery clears the stops of those sets at each escape of this
//! form, and `pct/` builds its decoding on it.

/// The byte that begins an escape.
pub const INTRO: u8 = b'%';

/// Whether `b` may follow [`INTRO`], twice, in an escape.
pub const fn is_digit(b: u8) -> bool {
    b.is_ascii_hexdigit()
}

/// Whether `text[at..]` begins an escape.
#[inline(always)]
pub fn escape_at(text: &[u8], at: usize) -> bool {
    matches!(text.get(at..at + 3), Some(&[i, h, l]) if i == INTRO && is_digit(h) && is_digit(l))
}
