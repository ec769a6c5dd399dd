//! One reference's result in a batch: a 40-byte record (five plain words in
//! storage), and building it from spans or from an error.

use crate::engine::{Sink, Spans, DEFAULT_SLOTS, MAX_SLOTS, NONE};
use crate::{Component, ParseError, Parser};

/// A record's status for a valid line.
pub(super) const VALID: u8 = 0;
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

/// The first of a record's five words: the line's offset, its status,
/// which parts are present, the host kind and the error's part, low byte
/// first. The one statement of that layout, for [`Record::words`] and for
/// the records [`RecordSink`] builds.
#[inline(always)]
fn head_word(start: u32, status: u8, present: u8, kind: u8, err: u8) -> u64 {
    u64::from(start)
        | u64::from(status) << 32
        | u64::from(present) << 40
        | u64::from(kind) << 48
        | u64::from(err) << 56
}

/// A record's spans as the fast path writes them (the engine's
/// [`Sink`]): the `u16` offsets of the default grammar's parts packed four
/// to a word, as the record stores them, and which slots were written, so
/// that the record's words follow without a pass over 32-bit spans
/// ([`RecordSink::record`]). Kept in words rather than in `u16`s: a record
/// read back from narrow stores waits for them (store forwarding fails);
/// inlined into the line loop, the words stay in registers.
pub(super) struct RecordSink<const KEEP: u8 = ALL_PARTS> {
    /// Slot `k`'s offset in bits `16 (k % 4)..` of word `k / 4`; an unset
    /// slot holds 0, so that a first save is one `|` (a record's absent
    /// parts are never read: `present` says which are there).
    words: [u64; DEFAULT_SLOTS / 4],
    /// Bit n: part n's start (slot `2 n`) was written; its end (`2 n + 1`).
    /// Kept apart, so that the parts with both are one `&` (the slot of
    /// each write is a constant in the generated code).
    starts: u8,
    ends: u8,
    kind: u8,
    fixed: u8,
    /// A slot past the record's was written: the record cannot hold it.
    over: bool,
}

// A part's start and end bits are one byte each; four slots to a word.
const _: () = assert!(DEFAULT_SLOTS <= 16 && DEFAULT_SLOTS.is_multiple_of(4));

/// Every part of the default grammar (bit c for `Component` c): what a
/// [`RecordSink`] keeps unless told to keep fewer.
pub(super) const ALL_PARTS: u8 = u8::MAX;

impl<const KEEP: u8> RecordSink<KEEP> {
    #[inline(always)]
    pub(super) fn new() -> RecordSink<KEEP> {
        RecordSink {
            words: [0; DEFAULT_SLOTS / 4],
            starts: 0,
            ends: 0,
            kind: u8::MAX,
            fixed: 0,
            over: false,
        }
    }

    /// Whether slot `slot` was written.
    #[inline(always)]
    fn written(&self, slot: usize) -> bool {
        let part = slot / 2;
        let bits = if slot.is_multiple_of(2) {
            self.starts
        } else {
            self.ends
        };
        part < 8 && bits >> part & 1 == 1
    }

    /// A valid line's record words (the sink's words are the record's
    /// spans already): `None` when the spans do not fit a record (a part
    /// beyond the default grammar's, or no path where the profile has
    /// one), and the exact engine must build it from the full spans.
    #[inline(always)]
    pub(super) fn record(&self, start: usize) -> Option<[u64; 5]> {
        let both = self.starts & self.ends;
        let path = 1u8 << (Component::Path as u32);
        // A path must be there where the profile has one, when it is kept.
        let no_path = KEEP & path != 0 && self.fixed & path != 0 && both & path == 0;
        if self.over || both & !self.fixed != 0 || no_path {
            return None;
        }
        let head = head_word(start as u32, VALID, both & self.fixed, self.kind, u8::MAX);
        let [a, b, c, d] = self.words;
        Some([head, a, b, c, d])
    }
}

impl<const KEEP: u8> Sink for RecordSink<KEEP> {
    #[inline(always)]
    fn fixed(&mut self, fixed: u8) {
        self.fixed = fixed;
    }
    #[inline(always)]
    fn save(&mut self, slot: usize, pos: usize) {
        debug_assert!(!self.written(slot), "slot {slot} saved twice");
        // A line of a window is shorter than 64 KB, so that the offset
        // needs no mask to stay in its 16 bits.
        debug_assert!(pos <= 0xffff);
        // A part not kept is not saved (`slot` is a constant in the
        // generated code, so the test and the save fold away); a slot past
        // the default grammar's still marks the record as one it cannot
        // hold.
        if slot < DEFAULT_SLOTS && KEEP >> (slot / 2) & 1 == 0 {
            return;
        }
        match self.words.get_mut(slot / 4) {
            Some(w) => {
                *w |= (pos as u64) << (16 * (slot % 4));
                if slot.is_multiple_of(2) {
                    self.starts |= 1 << (slot / 2);
                } else {
                    self.ends |= 1 << (slot / 2);
                }
            }
            None => self.over = true,
        }
    }
    #[inline(always)]
    fn kind(&mut self, kind: u8) {
        self.kind = kind;
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
