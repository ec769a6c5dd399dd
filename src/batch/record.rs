//! One reference's result in a batch: a 40-byte record (five plain words in
//! storage), and building it from spans or from an error.

use crate::engine::bits::head_word;
use crate::engine::{Spans, DEFAULT_SLOTS, MAX_SLOTS, NONE};
use crate::{ParseError, Parser};

pub(super) const VALID: u8 = crate::engine::bits::VALID_STATUS;
/// Set in `status` when the spans live in `Batch::long`.
pub(super) const LONG: u8 = 0x80;

/// One reference's result: 40 bytes, five aligned 8-byte words without
/// padding (so `scan::push_streaming` can store it word by word).
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(8))]
pub(super) struct Record {
    /// Offset of the line in the buffer (0 for slices).
    pub(super) start: u32,
    /// `VALID`, or the error kind + 1; `LONG` when spans are in the side table.
    pub(super) status: u8,
    /// Bit c: component c is present.
    pub(super) present: u8,
    /// Host kind, or `u8::MAX`.
    pub(super) host_kind: u8,
    /// Error component, or `u8::MAX`.
    pub(super) err_component: u8,
    /// Valid: start and end of each of the default grammar's parts (the
    /// typed `Component`s), relative to `start`. Invalid: error index (two
    /// halves), offending byte + 1 (0 at end), and the rule's index in the
    /// profile's rule table.
    pub(super) spans: [u16; DEFAULT_SLOTS],
}

// The record is laid out for the default grammar's eight parts: five
// 8-byte words that `scan::push_streaming` stores one by one and that
// `scan::unset_mask` reads as one 64-byte line. A default grammar with
// another number of parts stops the build here, to have both resized.
// References with parts beyond these (other profiles) keep all their
// spans in the side table.
const _: () = assert!(DEFAULT_SLOTS == 16 && DEFAULT_SLOTS <= MAX_SLOTS);
const _: () = assert!(core::mem::size_of::<Record>() == 40);
// No padding: the fields' sizes add up to the whole.
const _: () = {
    use core::mem::size_of;
    assert!(
        size_of::<u32>() + 4 * size_of::<u8>() + size_of::<[u16; DEFAULT_SLOTS]>()
            == size_of::<Record>()
    );
};

impl Record {
    /// A record from the five words it is stored as (see `words`).
    #[inline(always)]
    pub(super) fn from_words(w: [u64; 5]) -> Record {
        let h = w[0];
        Record {
            start: h as u32,
            status: (h >> 32) as u8,
            present: (h >> 40) as u8,
            host_kind: (h >> 48) as u8,
            err_component: (h >> 56) as u8,
            spans: core::array::from_fn(|k| (w[1 + k / 4] >> (16 * (k % 4))) as u16),
        }
    }

    /// The five plain words a record is stored as: the fields in order,
    /// little-endian. Batches keep words, so that `scan::push_streaming`
    /// stores them without knowing what a record is.
    #[inline(always)]
    pub(super) fn words(&self) -> [u64; 5] {
        let mut w = [0u64; 5];
        w[0] = head_word(
            self.start,
            self.status,
            self.present,
            self.host_kind,
            self.err_component,
        );
        for (k, &s) in self.spans.iter().enumerate() {
            w[1 + k / 4] |= u64::from(s) << (16 * (k % 4));
        }
        w
    }

    /// The 32-bit value kept in `spans[0..2]`: the error index of an invalid
    /// reference, or a long line's place in the side table.
    pub(super) fn wide(&self) -> u32 {
        self.spans[0] as u32 | (self.spans[1] as u32) << 16
    }
    pub(super) fn set_wide(&mut self, v: u32) {
        self.spans[0] = v as u16;
        self.spans[1] = (v >> 16) as u16;
    }
}

/// The record of a valid line: inlined into the hot loop, so the spans
/// go from the run's registers to the record without a round trip through
/// memory.
#[inline(always)]
pub(super) fn valid_record(
    start: usize,
    line: &[u8],
    spans: Spans,
    long: &mut Vec<Spans>,
) -> Record {
    let mut rec = Record {
        start: start as u32,
        status: VALID,
        host_kind: spans.kind,
        err_component: u8::MAX,
        ..Record::default()
    };
    // Branch-free: a component is present when both its ends are set.
    // An absent span's halves are never read (`present` says so), so the
    // offsets are only narrowed, which compiles to a few vector moves.
    // Bit c from bits 2c and 2c + 1 of the unset slots.
    let inline: &[u32; DEFAULT_SLOTS] = spans
        .slots
        .first_chunk()
        .expect("MAX_SLOTS >= DEFAULT_SLOTS");
    let unset = u32::from(crate::scan::unset_mask(inline));
    let both = pairs(!(unset | unset >> 1));
    rec.present = both & spans.fixed;
    // Parts beyond the default grammar's (another profile's, in slots of
    // its own or of default parts it lacks) do not fit the record, nor
    // does the scheme rule that parsed it (which says whose parts shared
    // slots hold): such a reference keeps its spans in the side table.
    let extra = spans.source != 0
        || both & !spans.fixed != 0
        || spans.slots[DEFAULT_SLOTS..].iter().any(|&s| s != NONE);
    if line.len() <= u16::MAX as usize && !extra {
        rec.spans = inline.map(|s| s as u16);
    } else {
        rec.status = LONG;
        rec.set_wide(long.len() as u32);
        long.push(spans);
    }
    rec
}

/// Bit c set when bit 2c of `bits` is (part c of the layout has both its
/// start, bit 2c, and its end, bit 2c + 1, where `bits` marks them).
#[inline(always)]
fn pairs(bits: u32) -> u8 {
    let mut both = bits & 0x5555;
    both = (both | both >> 1) & 0x3333;
    both = (both | both >> 2) & 0x0f0f;
    both = (both | both >> 4) & 0x00ff;
    both as u8
}

/// The record of one line (spans of a line over `u16::MAX` go to `long`):
/// for each item of `parse_items`, each line of a profile without a
/// line-stopping DFA, and the lines `parse_buf`'s run gave up on. Out of
/// line, so that `parse_buf`'s hot loop stays small.
#[inline(never)]
pub(super) fn record(parser: &Parser, start: usize, line: &[u8], long: &mut Vec<Spans>) -> Record {
    match parser.spans(line) {
        Ok(spans) => valid_record(start, line, spans, long),
        Err(e) => error_record(parser, start, &e),
    }
}

/// The record of an invalid line.
#[cold]
pub(super) fn error_record(parser: &Parser, start: usize, e: &ParseError) -> Record {
    let mut rec = Record {
        start: start as u32,
        status: e.kind as u8 + 1,
        host_kind: u8::MAX,
        err_component: e
            .part
            .and_then(|n| parser.get_profile().part(n))
            .map_or(u8::MAX, |p| p.index() as u8),
        ..Record::default()
    };
    rec.set_wide(e.index);
    rec.spans[2] = e.byte.map_or(0, |b| b as u16 + 1);
    rec.spans[3] = parser
        .get_profile()
        .tables()
        .rules
        .iter()
        .position(|r| *r == e.rule)
        .map_or(u16::MAX, |i| i as u16);
    rec
}
