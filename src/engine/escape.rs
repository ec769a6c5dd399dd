//! The escape a batch's runs may go on through: `%` and two hex digits.
//! One definition, compiled into both the generator (`codegen/bitprog.rs`
//! includes this file), which marks the run sets whose leaf states loop
//! through exactly this and nothing else, and the library, which clears
//! the stops of those sets at each escape of this form (`bits.rs`).

/// The byte that begins an escape.
pub const INTRO: u8 = b'%';

/// Whether `b` may follow [`INTRO`], twice, in an escape.
pub const fn is_digit(b: u8) -> bool {
    b.is_ascii_hexdigit()
}
