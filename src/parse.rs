//! The parsing engine: runs a profile's structure program for the spans and,
//! only when it fails, the labelled DFA for the exact error.
//!
//! The program (see `codegen/program.rs`) is a loop-free list of
//! instructions over leaf DFAs; the generator has proven that taking each
//! leaf's longest match never loses a parse, so the program decides exactly
//! the grammar's language. Backtracking is bounded by the program's size, so
//! the work is linear in the input.

use crate::error::{ErrorKind, ParseError};
use crate::tables::{
    in_set, Entry, Op, ProfileTables, DEAD, HINT_IP_LITERAL, HINT_PERCENT, MAX_FRAMES, MAX_TRAIL,
};
use crate::{Component, HostKind};

/// Marks an absent span boundary.
pub(crate) const NONE: u32 = u32::MAX;

/// Capture slots as the programs write them: component `c` spans
/// `slots[2c]..slots[2c + 1]`; `kind` is the host kind or `u8::MAX`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Spans {
    pub slots: [u32; 16],
    pub kind: u8,
}

impl Spans {
    pub(crate) const EMPTY: Spans = Spans {
        slots: [NONE; 16],
        kind: u8::MAX,
    };

    #[inline]
    pub(crate) fn get(&self, c: Component) -> Option<(usize, usize)> {
        let i = c as usize * 2;
        let (s, e) = (self.slots[i], self.slots[i + 1]);
        if s == NONE || e == NONE {
            None
        } else {
            Some((s as usize, e as usize))
        }
    }

    pub(crate) fn host_kind(&self) -> Option<HostKind> {
        HostKind::from_index(self.kind)
    }
}

/// Runs a structure program over the whole input. `None` when the input does
/// not match.
#[inline]
pub(crate) fn run_program(t: &ProfileTables, ops: &[Op], input: &[u8]) -> Option<Spans> {
    let mut spans = Spans::EMPTY;
    // Backtracking frames: (pc to resume at, position, trail length).
    let mut frames = [(0u16, 0u32, 0u8); MAX_FRAMES];
    let mut nframes = 0usize;
    // Undo trail: (slot, old value); slot 16 is the host kind.
    let mut trail = [(0u8, 0u32); MAX_TRAIL];
    let mut ntrail = 0usize;
    let mut pc = 0usize;
    let mut pos = 0usize;
    let mut executed = 0usize;
    let result = loop {
        executed += 1;
        let ok = match ops[pc] {
            Op::Leaf(l) => match t.leaves[l as usize].longest(input, pos) {
                Some(end) => {
                    pos = end;
                    pc += 1;
                    true
                }
                None => false,
            },
            Op::Byte(s) => {
                if pos < input.len() && in_set(&t.sets[s as usize], input[pos]) {
                    pos += 1;
                    pc += 1;
                    true
                } else {
                    false
                }
            }
            Op::Split(alt, l, r) => {
                let (ls, le) = &t.firsts[l as usize];
                let (rs, re) = &t.firsts[r as usize];
                let (left, right) = match input.get(pos) {
                    Some(&b) => (in_set(ls, b), in_set(rs, b)),
                    None => (*le, *re),
                };
                if left {
                    if right && nframes < MAX_FRAMES {
                        frames[nframes] = (alt, pos as u32, ntrail as u8);
                        nframes += 1;
                    }
                    pc += 1;
                    true
                } else if right {
                    pc = alt as usize;
                    true
                } else {
                    false
                }
            }
            Op::Jmp(to) => {
                pc = to as usize;
                true
            }
            Op::Save(slot) => {
                if ntrail < MAX_TRAIL {
                    trail[ntrail] = (slot, spans.slots[slot as usize]);
                    ntrail += 1;
                }
                spans.slots[slot as usize] = pos as u32;
                pc += 1;
                true
            }
            Op::Kind(k) => {
                if ntrail < MAX_TRAIL {
                    trail[ntrail] = (16, spans.kind as u32);
                    ntrail += 1;
                }
                spans.kind = k;
                pc += 1;
                true
            }
            Op::Match => {
                if pos == input.len() {
                    break Some(spans);
                }
                false
            }
        };
        if !ok {
            if nframes == 0 {
                break None;
            }
            nframes -= 1;
            let (to, at, tl) = frames[nframes];
            while ntrail > tl as usize {
                ntrail -= 1;
                let (slot, old) = trail[ntrail];
                if slot == 16 {
                    spans.kind = old as u8;
                } else {
                    spans.slots[slot as usize] = old;
                }
            }
            pc = to as usize;
            pos = at as usize;
        }
    };
    crate::steps::add(executed);
    result
}

/// The exact error for an input that `entry` rejects: the labelled DFA runs
/// to the first byte that no valid input can have there.
pub(crate) fn diagnose(
    t: &ProfileTables,
    entry: &Entry,
    entry_rule: &'static str,
    input: &[u8],
) -> ParseError {
    let (index, state) = match entry.dfa.scan(input) {
        Err(e) => e,
        // The DFA accepts what the program rejected: impossible when the
        // generator's longest-match proof holds. Report it rather than panic.
        Ok(()) => (input.len(), DEAD),
    };
    diagnose_at(t, entry, entry_rule, input, index, state)
}

/// The error for a DFA run that failed at `index` in `state` (the result
/// of `Dfa::scan`, so callers that already scanned do not scan again).
pub(crate) fn diagnose_at(
    t: &ProfileTables,
    entry: &Entry,
    entry_rule: &'static str,
    input: &[u8],
    index: usize,
    state: u16,
) -> ParseError {
    let label = entry.dfa.labels.get(state as usize).copied();
    let byte = input.get(index).copied();
    let hint = label.map_or(0, |l| l.hint);
    let kind = match (hint, byte) {
        (HINT_PERCENT, _) => ErrorKind::InvalidPercentEncoding,
        (HINT_IP_LITERAL, _) => ErrorKind::InvalidIpLiteral,
        (_, None) => ErrorKind::UnexpectedEnd,
        (_, Some(_)) => ErrorKind::InvalidCharacter,
    };
    let component = label.and_then(|l| Component::from_index(l.component));
    let rule = label
        .and_then(|l| t.rules.get(l.rule as usize).copied())
        .unwrap_or(entry_rule);
    ParseError {
        kind,
        component,
        index: index as u32,
        byte,
        rule,
    }
}

pub(crate) fn too_long() -> ParseError {
    ParseError {
        kind: ErrorKind::TooLong,
        component: None,
        index: u32::MAX,
        byte: None,
        rule: "",
    }
}

pub(crate) fn unsupported(rule: &'static str) -> ParseError {
    ParseError {
        kind: ErrorKind::Unsupported,
        component: None,
        index: 0,
        byte: None,
        rule,
    }
}
