//! The generated tables (`OUT_DIR/tables.rs`, from `abnf/` by `codegen/`)
//! and the small types and accessors they are written in.
//!
//! Nothing here knows a grammar: every byte class, transition and program
//! instruction comes from the generated file.

/// Where a DFA state is, for error messages: the component, the innermost
/// rule worth naming (an index into the profile's rule names, `u16::MAX` for
/// none) and a hint (`HINT_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Label {
    pub component: u8,
    pub rule: u16,
    pub hint: u8,
}

pub(crate) const HINT_PERCENT: u8 = 1;
pub(crate) const HINT_IP_LITERAL: u8 = 2;

impl Label {
    pub(crate) const fn new(component: u8, rule: u16, hint: u8) -> Label {
        Label {
            component,
            rule,
            hint,
        }
    }
}

/// A minimized DFA over byte classes. State 0 is dead, state 1 the start.
pub(crate) struct Dfa {
    pub classes: &'static [u8; 256],
    /// Number of classes: the width of one row of `trans`.
    pub stride: usize,
    pub trans: &'static [u16],
    pub accept: &'static [bool],
    /// One label per state for entry and component DFAs; empty for leaves.
    pub labels: &'static [Label],
}

pub(crate) const DEAD: u16 = 0;
pub(crate) const START: u16 = 1;

impl Dfa {
    #[inline(always)]
    pub(crate) fn step(&self, state: u16, byte: u8) -> u16 {
        self.trans[state as usize * self.stride + self.classes[byte as usize] as usize]
    }

    /// End of the longest match of `input[from..]`, if any.
    #[inline]
    pub(crate) fn longest(&self, input: &[u8], from: usize) -> Option<usize> {
        let mut s = START;
        let mut last = if self.accept[s as usize] {
            Some(from)
        } else {
            None
        };
        let mut i = from;
        while i < input.len() {
            s = self.step(s, input[i]);
            i += 1;
            if s == DEAD {
                break;
            }
            if self.accept[s as usize] {
                last = Some(i);
            }
        }
        last
    }

    /// Runs over the whole input. `Ok` when it matches; otherwise the index
    /// where it failed (the byte that led to the dead state, or the length
    /// when the input ended too soon) and the state just before.
    pub(crate) fn scan(&self, input: &[u8]) -> Result<(), (usize, u16)> {
        let mut s = START;
        for (i, &b) in input.iter().enumerate() {
            let t = self.step(s, b);
            if t == DEAD {
                return Err((i, s));
            }
            s = t;
        }
        if self.accept[s as usize] {
            Ok(())
        } else {
            Err((input.len(), s))
        }
    }
}

/// One instruction of a structure program (see `codegen/program.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    /// Longest match of the profile's leaf DFA n; fails if there is none.
    Leaf(u16),
    /// One byte from the profile's byte set n.
    Byte(u16),
    /// Go on with the next instruction; on failure come back and go to n.
    Split(u16),
    Jmp(u16),
    /// Record the position in capture slot n.
    Save(u8),
    /// Record the host kind n.
    Kind(u8),
    /// Succeed if the input is used up.
    Match,
}

/// A parse entry point or a component: its labelled DFA (verdicts and
/// errors) and its structure program (spans).
pub(crate) struct Entry {
    pub dfa: Dfa,
    pub ops: &'static [Op],
}

pub(crate) struct ProfileTables {
    pub rules: &'static [&'static str],
    pub sets: &'static [[u64; 4]],
    pub leaves: &'static [Dfa],
    /// Indexed by `Syntax as usize`.
    pub entries: [Option<Entry>; 4],
    /// Indexed by `Component as usize`.
    pub components: [Option<Entry>; 8],
}

/// The most backtracking frames a program may need; the generated file
/// asserts that each program fits.
pub(crate) const MAX_FRAMES: usize = 24;

/// The most `Save`/`Kind` instructions on one path through a program: the
/// size of the undo trail.
pub(crate) const MAX_TRAIL: usize = 32;

/// Whether a program's backtracking needs fit the runtime's fixed arrays.
pub(crate) const fn fits(frames: usize, trail: usize) -> bool {
    frames <= MAX_FRAMES && trail <= MAX_TRAIL
}

pub(crate) const fn all_below(t: &[u16], n: usize) -> bool {
    let mut i = 0;
    while i < t.len() {
        if t[i] as usize >= n {
            return false;
        }
        i += 1;
    }
    true
}

pub(crate) const fn bytes_below(t: &[u8; 256], n: usize) -> bool {
    let mut i = 0;
    while i < 256 {
        if t[i] as usize >= n {
            return false;
        }
        i += 1;
    }
    true
}

/// Every index in range, every jump forward (so programs stop), the last
/// instruction `Match`.
pub(crate) const fn program_ok(ops: &[Op], leaves: usize, sets: usize) -> bool {
    let mut pc = 0;
    while pc < ops.len() {
        let ok = match ops[pc] {
            Op::Leaf(l) => (l as usize) < leaves,
            Op::Byte(s) => (s as usize) < sets,
            Op::Split(t) | Op::Jmp(t) => (t as usize) > pc && (t as usize) < ops.len(),
            Op::Save(s) => s < 16,
            Op::Kind(k) => k < 4,
            Op::Match => true,
        };
        if !ok {
            return false;
        }
        pc += 1;
    }
    !ops.is_empty() && matches!(ops[ops.len() - 1], Op::Match)
}

include!(concat!(env!("OUT_DIR"), "/tables.rs"));
