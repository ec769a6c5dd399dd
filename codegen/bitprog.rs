//! Stage 5b: the fast path. A structure program (stage 5) run over bitmaps
//! of the line instead of its bytes, with every choice decided without
//! backtracking.
//!
//! The runtime classifies a line once: for each *run set* (the self-loop
//! set of a leaf DFA state, ASCII only, at most [`MAX_RUNS`] per profile)
//! one bitmap of the bytes outside the set. A leaf state with a run set
//! then skips its run with one trailing-zero count, so scalar work happens
//! once per component, not once per byte. Every other leaf state steps one
//! byte at a time through generated code (`emit_leaf`: straight code and
//! loops where the DFA allows, else a `match` on the state): the leaves
//! stay exact.
//!
//! This file is the analysis; `fastemit.rs` writes the code.
//!
//! What this stage proves, per `Split` of an entry's program, is a rule that
//! picks the branch the backtracking program would take (its first branch
//! if that one succeeds, else the second) from a test on the input:
//!
//! - **peek**: the two branches' FIRST sets (and ends) are disjoint, so the
//!   next byte decides;
//! - **prefix**: the first branch starts with an optional leaf and one to
//!   three bytes, `x d1 d2 ...`, and no input the second branch accepts
//!   starts with a string of `L(x) d1 d2 ...` (an emptiness check on the
//!   product of the two automata). Then the branch is the first exactly
//!   when the leaf's longest match is followed by those bytes;
//! - **inside**: a choice between two leaves that meet again (IPv4 or
//!   reg-name), where the first leaf's bytes all keep the second's start
//!   state, the second's start state accepts, and what follows can start
//!   with no byte of the second: both end where the second's longest match
//!   ends, and the branch is the first exactly when its longest match ends
//!   there too;
//! - **shared run** (a way to run a prefix test, not a rule of its own):
//!   when the second branch starts, at the same position, with a leaf that
//!   is one run (reg-name after an optional `userinfo "@"`) whose bytes all
//!   keep the prefix leaf's start state, the test runs that leaf and reads
//!   the prefix leaf's match off its end, going on only when the byte there
//!   could (a `:` in a userinfo); the second branch then takes that run's
//!   end instead of running it again ([`shared_run`]);
//! - **commit**: none of those holds (the grammar itself lets both
//!   branches start alike). The fast path takes the first branch whenever
//!   it can start here (its prefix test holds, when it has the prefix shape;
//!   else the next byte is in its FIRST set), and otherwise the second.
//!   The backtracking program prefers the first branch too, so if that
//!   branch succeeds its spans are the program's; if it fails, the fast
//!   path answers nothing and the exact engine, which would try the second
//!   branch, takes the line.
//!
//! A fast path therefore either returns the very spans the program would,
//! or nothing; it never errs. Errors always come from the exact engine.

use super::abnf::ByteSet;
use super::dfa::{Dfa, DEAD, START};
use super::program::{Op, Pool, Program};
use std::collections::{HashMap, HashSet, VecDeque};

use super::escape;

/// Most run sets a profile classifies a line into (the runtime's bitmap
/// count; one more is the line end).
pub const MAX_RUNS: usize = 8;

/// Marks a leaf state without a run set.
pub const NO_RUN: u8 = u8::MAX;

/// Per profile: the run sets and, per leaf, each state's run set.
pub struct Runs {
    pub sets: Vec<ByteSet>,
    pub leaf_runs: Vec<Vec<u8>>,
    /// Bit k: the runs of set k go on through escapes (see [`escape_loop`]).
    pub escapes: u16,
}

/// Whether leaf state `r` (run set `run`) loops through escapes and
/// nothing else: `%` leads to a state that only takes a hex digit, to a
/// state that only takes a hex digit back to `r`, neither accepting, and
/// the hex digits are in the run set. Then a run over the set in which
/// each `%` that begins an escape (`%` and two hex digits) is no stop ends
/// where the leaf, stepping through the escapes, would leave `r` for good,
/// in `r`, with no accepting state passed on the way: the run may take the
/// escapes, and `r` needs no `%` step (see [`fold_escapes`]). A `%` that
/// begins no escape stays a stop, and there the leaf stops as it did.
pub(crate) fn escape_loop(d: &Dfa, r: u32, run: &ByteSet) -> bool {
    let a = d.next(r, escape::INTRO);
    if a == DEAD || a == r || d.accept[a as usize] {
        return false;
    }
    let Some(digit) = (0..=255u8).find(|&x| escape::is_digit(x)) else {
        return false;
    };
    let b = d.next(a, digit);
    if b == DEAD || b == a || b == r || d.accept[b as usize] {
        return false;
    }
    (0..=255u8).all(|x| {
        let (ta, tb) = (d.next(a, x), d.next(b, x));
        if escape::is_digit(x) {
            ta == b && tb == r && run.contains(x)
        } else {
            ta == DEAD && tb == DEAD
        }
    })
}

/// Leaf `d` as a batch steps through it: each state whose run set goes on
/// through escapes (`escapes`, bit k for set k) without its `%` step,
/// which the run takes (see [`escape_loop`]); `None` when it has no such
/// state (the batch runs the leaf as it is).
pub fn fold_escapes(d: &Dfa, runs: &[u8], escapes: u16) -> Option<Dfa> {
    let folded: Vec<usize> = (0..d.nstates())
        .filter(|&s| runs[s] != NO_RUN && escapes >> runs[s] & 1 == 1)
        .collect();
    if folded.is_empty() {
        return None;
    }
    // `%` in a class of its own, so that its step alone can go.
    let intro = escape::INTRO as usize;
    let (old, nc) = (d.classes[intro] as usize, d.nclasses + 1);
    let mut e = d.clone();
    e.classes[intro] = d.nclasses as u8;
    e.nclasses = nc;
    e.trans = (0..d.nstates())
        .flat_map(|s| {
            let row = &d.trans[s * d.nclasses..(s + 1) * d.nclasses];
            row.iter().copied().chain([row[old]])
        })
        .collect();
    for s in folded {
        e.trans[s * nc + d.nclasses] = DEAD;
    }
    Some(e)
}

/// How a split is decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rule {
    Peek,
    /// `leaf`: the leaf and the instruction that runs it in the first
    /// branch, which reuses the test's match when only the split leads
    /// there.
    /// `proven`: no input of the second branch starts with the prefix
    /// (else the first branch is a commitment, see **commit**).
    Prefix {
        leaf: Option<(usize, usize)>,
        sets: Vec<usize>,
        proven: bool,
    },
    Inside {
        x: usize,
        y: usize,
        x_kinds: Vec<u8>,
        y_kinds: Vec<u8>,
        join: usize,
    },
    Partial,
}

impl Rule {
    pub fn name(&self) -> &'static str {
        match self {
            Rule::Peek => "peek",
            Rule::Prefix { proven: true, .. } => "prefix",
            Rule::Prefix { proven: false, .. } => "commit-prefix",
            Rule::Inside { .. } => "inside",
            Rule::Partial => "commit",
        }
    }
}

pub(crate) fn self_loop(d: &Dfa, s: u32) -> ByteSet {
    let mut set = ByteSet::empty();
    for b in 0..=255u8 {
        if d.next(s, b) == s {
            set.insert(b);
        }
    }
    set
}

pub(crate) fn ascii(s: &ByteSet) -> bool {
    s.0[2] == 0 && s.0[3] == 0
}

pub(crate) fn count(s: &ByteSet) -> u32 {
    s.0.iter().map(|w| w.count_ones()).sum()
}

/// The run sets of a profile: self-loop sets of leaf states with two bytes
/// or more, all ASCII (the nibble classifier's limit) and without LF or CR,
/// the most used first
/// (ties by first appearance) up to [`MAX_RUNS`].
pub fn runs(pool: &Pool) -> Runs {
    let mut uses: Vec<(ByteSet, usize, usize)> = Vec::new();
    for d in &pool.leaves {
        for s in 1..d.nstates() as u32 {
            let set = self_loop(d, s);
            // A run never crosses a line end: batches classify whole
            // buffers, and a run must stop at the end of its line. Nor
            // takes a NUL: the kernels read the bytes past an input's end
            // as NULs, which the runtime then takes for stops.
            if count(&set) < 2
                || !ascii(&set)
                || set.contains(b'\n')
                || set.contains(b'\r')
                || set.contains(0)
            {
                continue;
            }
            match uses.iter_mut().find(|(x, _, _)| *x == set) {
                Some(u) => u.1 += 1,
                None => {
                    let n = uses.len();
                    uses.push((set, 1, n));
                }
            }
        }
    }
    uses.sort_by(|a, b| b.1.cmp(&a.1).then(a.2.cmp(&b.2)));
    uses.truncate(MAX_RUNS);
    uses.sort_by_key(|u| u.2);
    let sets: Vec<ByteSet> = uses.into_iter().map(|u| u.0).collect();
    let leaf_runs = pool
        .leaves
        .iter()
        .map(|d| {
            (0..d.nstates() as u32)
                .map(|s| {
                    if s == DEAD {
                        return NO_RUN;
                    }
                    let set = self_loop(d, s);
                    sets.iter()
                        .position(|x| *x == set)
                        .map_or(NO_RUN, |k| k as u8)
                })
                .collect()
        })
        .collect::<Vec<Vec<u8>>>();
    // A set's runs go on through escapes when every leaf state whose run
    // set it is loops through them.
    let mut escapes = 0u16;
    for (k, set) in sets.iter().enumerate() {
        let states: Vec<(&Dfa, u32)> = pool
            .leaves
            .iter()
            .zip(&leaf_runs)
            .flat_map(|(d, r)| {
                (1..d.nstates() as u32)
                    .filter(move |&s| r[s as usize] == k as u8)
                    .map(move |s| (d, s))
            })
            .collect();
        if !states.is_empty() && states.iter().all(|&(d, s)| escape_loop(d, s, set)) {
            escapes |= 1 << k;
        }
    }
    Runs {
        sets,
        leaf_runs,
        escapes,
    }
}

/// The 16-byte low-nibble table of an ASCII set (the high table is fixed:
/// `1 << h` for `h < 8`): bit `h` of entry `l` says whether byte
/// `16 h + l` is in the set.
pub fn lo_table(s: &ByteSet) -> [u8; 16] {
    let mut t = [0u8; 16];
    for b in 0..128u8 {
        if s.contains(b) {
            t[(b & 15) as usize] |= 1 << (b >> 4);
        }
    }
    t
}

/// A state of the NFA of a program's continuation: the instruction and,
/// for a leaf, the leaf's DFA state.
pub(crate) type PState = (usize, u32);

/// The language of a program from a given instruction, as an NFA whose
/// states are instructions (and leaf states); `Match` accepts at the end.
pub(crate) struct ProgNfa<'a> {
    ops: &'a [Op],
    pool: &'a Pool,
}

impl ProgNfa<'_> {
    fn close(&self, pc: usize, out: &mut Vec<PState>, seen: &mut HashSet<usize>) {
        if !seen.insert(pc) {
            return;
        }
        match self.ops[pc] {
            Op::Save(_) | Op::Kind(_) => self.close(pc + 1, out, seen),
            Op::Jmp(t) => self.close(t, out, seen),
            Op::Split(alt, _, _) => {
                self.close(pc + 1, out, seen);
                self.close(alt, out, seen);
            }
            Op::Leaf(l) => {
                out.push((pc, START));
                if self.pool.leaves[l].accept[START as usize] {
                    self.close(pc + 1, out, seen);
                }
            }
            Op::Byte(_) | Op::Match => out.push((pc, 0)),
        }
    }
    fn start(&self, pc: usize) -> Vec<PState> {
        let mut out = Vec::new();
        self.close(pc, &mut out, &mut HashSet::new());
        out
    }
    fn step(&self, (pc, s): PState, b: u8, out: &mut Vec<PState>) {
        match self.ops[pc] {
            Op::Leaf(l) => {
                let d = &self.pool.leaves[l];
                let t = d.next(s, b);
                if t != DEAD {
                    out.push((pc, t));
                    if d.accept[t as usize] {
                        self.close(pc + 1, out, &mut HashSet::new());
                    }
                }
            }
            Op::Byte(set) if self.pool.sets[set].contains(b) => {
                self.close(pc + 1, out, &mut HashSet::new());
            }
            _ => {}
        }
    }
    fn accepts(&self, (pc, _): PState) -> bool {
        matches!(self.ops[pc], Op::Match)
    }
    /// Bytes any of `states` can go on with.
    fn firsts(&self, states: &[PState]) -> ByteSet {
        let mut set = ByteSet::empty();
        for &st in states {
            for b in 0..=255u8 {
                let mut v = Vec::new();
                self.step(st, b, &mut v);
                if !v.is_empty() {
                    set.insert(b);
                }
            }
        }
        set
    }
}

/// `L(x) d1 d2 ... dm Σ*` as an NFA: states `Leaf(s)`, `Byte(j)` (about to
/// take set j), `Any`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) enum TState {
    Leaf(u32),
    Byte(usize),
    Any,
}

pub(crate) struct Prefix<'a> {
    leaf: Option<&'a Dfa>,
    sets: Vec<&'a ByteSet>,
}

impl Prefix<'_> {
    fn after_leaf(&self, out: &mut Vec<TState>) {
        out.push(if self.sets.is_empty() {
            TState::Any
        } else {
            TState::Byte(0)
        });
    }
    fn start(&self) -> Vec<TState> {
        let mut out = Vec::new();
        match self.leaf {
            Some(d) => {
                out.push(TState::Leaf(START));
                if d.accept[START as usize] {
                    self.after_leaf(&mut out);
                }
            }
            None => self.after_leaf(&mut out),
        }
        out
    }
    fn step(&self, s: TState, b: u8, out: &mut Vec<TState>) {
        match s {
            TState::Leaf(q) => {
                let d = self.leaf.expect("a leaf state has a leaf");
                let t = d.next(q, b);
                if t != DEAD {
                    out.push(TState::Leaf(t));
                    if d.accept[t as usize] {
                        self.after_leaf(out);
                    }
                }
            }
            TState::Byte(j) => {
                if self.sets[j].contains(b) {
                    out.push(if j + 1 == self.sets.len() {
                        TState::Any
                    } else {
                        TState::Byte(j + 1)
                    });
                }
            }
            TState::Any => out.push(TState::Any),
        }
    }
}

/// Whether no input accepted by the program from `pc` has a prefix in
/// `L(prefix)`: a search of the product of the two NFAs.
pub(crate) fn disjoint(nfa: &ProgNfa, pc: usize, prefix: &Prefix, reps: &[u8]) -> bool {
    let mut seen: HashSet<(PState, TState)> = HashSet::new();
    let mut queue = VecDeque::new();
    for a in nfa.start(pc) {
        for &t in &prefix.start() {
            if seen.insert((a, t)) {
                queue.push_back((a, t));
            }
        }
    }
    while let Some((a, t)) = queue.pop_front() {
        if nfa.accepts(a) && t == TState::Any {
            return false;
        }
        for &b in reps {
            let mut na = Vec::new();
            nfa.step(a, b, &mut na);
            if na.is_empty() {
                continue;
            }
            let mut nt = Vec::new();
            prefix.step(t, b, &mut nt);
            for &x in &na {
                for &y in &nt {
                    if seen.insert((x, y)) {
                        queue.push_back((x, y));
                    }
                }
            }
        }
    }
    true
}

/// One byte of each class of the partition that every leaf's classes and
/// every set of the pool refine.
pub(crate) fn representatives(pool: &Pool) -> Vec<u8> {
    let mut sig: HashMap<Vec<u32>, u8> = HashMap::new();
    let mut reps = Vec::new();
    for b in 0..=255u8 {
        let mut key: Vec<u32> = pool
            .leaves
            .iter()
            .map(|d| u32::from(d.classes[b as usize]))
            .collect();
        key.extend(pool.sets.iter().map(|s| u32::from(s.contains(b))));
        key.extend(pool.firsts.iter().map(|s| u32::from(s.0.contains(b))));
        if let std::collections::hash_map::Entry::Vacant(v) = sig.entry(key) {
            v.insert(b);
            reps.push(b);
        }
    }
    reps
}

/// The next instruction at or after `pc` that is not a `Save` or `Kind`
/// (following jumps), and the kinds passed on the way.
pub(crate) fn skip_marks(
    ops: &[Op],
    mut pc: usize,
    kinds: &mut Vec<u8>,
    saves: &mut bool,
) -> usize {
    loop {
        match ops[pc] {
            Op::Save(_) => {
                *saves = true;
                pc += 1
            }
            Op::Kind(k) => {
                kinds.push(k);
                pc += 1
            }
            Op::Jmp(t) => pc = t,
            _ => return pc,
        }
    }
}

/// The bytes with a live transition out of some state of `d`.
pub(crate) fn alphabet(d: &Dfa) -> ByteSet {
    let mut set = ByteSet::empty();
    for s in 1..d.nstates() as u32 {
        set = set.union(&d.live_bytes(s));
    }
    set
}

pub(crate) fn prefix_rule(
    ops: &[Op],
    pool: &Pool,
    pc: usize,
    alt: usize,
    reps: &[u8],
) -> Option<Rule> {
    let nfa = ProgNfa { ops, pool };
    let (mut kinds, mut saves) = (Vec::new(), false);
    let mut at = skip_marks(ops, pc + 1, &mut kinds, &mut saves);
    let leaf = match ops[at] {
        Op::Leaf(l) => {
            let pc = at;
            at = skip_marks(ops, at + 1, &mut kinds, &mut saves);
            Some((l, pc))
        }
        _ => None,
    };
    let mut sets = Vec::new();
    while sets.len() < 3 {
        match ops[at] {
            Op::Byte(s) => {
                sets.push(s);
                at = skip_marks(ops, at + 1, &mut kinds, &mut saves);
            }
            _ => break,
        }
    }
    if sets.is_empty() {
        return None;
    }
    let p = Prefix {
        leaf: leaf.map(|(l, _)| &pool.leaves[l]),
        sets: sets.iter().map(|&s| &pool.sets[s]).collect(),
    };
    let proven = disjoint(&nfa, alt, &p, reps);
    Some(Rule::Prefix { leaf, sets, proven })
}

pub(crate) fn inside_rule(ops: &[Op], pool: &Pool, pc: usize, alt: usize) -> Option<Rule> {
    let branch = |from: usize| -> Option<(usize, Vec<u8>, usize)> {
        let mut pc = from;
        let mut kinds = Vec::new();
        while let Op::Kind(k) = ops[pc] {
            kinds.push(k);
            pc += 1;
        }
        let Op::Leaf(l) = ops[pc] else { return None };
        let mut join = pc + 1;
        if let Op::Jmp(t) = ops[join] {
            join = t;
        }
        Some((l, kinds, join))
    };
    let (x, x_kinds, jx) = branch(pc + 1)?;
    let (y, y_kinds, jy) = branch(alt)?;
    if jx != jy {
        return None;
    }
    let (dx, dy) = (&pool.leaves[x], &pool.leaves[y]);
    if !dy.accept[START as usize] {
        return None;
    }
    let ax = alphabet(dx);
    let stay = self_loop(dy, START);
    if ax.intersect(&stay) != ax {
        return None;
    }
    let nfa = ProgNfa { ops, pool };
    let follow = nfa.firsts(&nfa.start(jx));
    if !follow.intersect(&alphabet(dy)).is_empty() {
        return None;
    }
    Some(Rule::Inside {
        x,
        y,
        x_kinds,
        y_kinds,
        join: jx,
    })
}

/// Whether the longest match of prefix leaf `x` can be read off that of
/// leaf `y` from the same position (**shared run**), and if so the bytes
/// on which it must go on from there. `y`'s start state accepts and takes
/// only its self-loop set R and, if any, escapes back to itself
/// ([`escape_loop`]): its match from `i` ends at the first position `q`
/// outside R that begins no escape. `x`'s start state accepts, keeps
/// itself on every byte of R, and loops through escapes too when `y` does:
/// after `i..q` it is still in its start state. So `x`'s match from `i`
/// is `x`'s match from `q` when the byte at `q` goes on from `x`'s start
/// state (the set returned: those bytes, less R, which `q` never holds),
/// and ends at `q` otherwise. The second branch of the split runs `y` at
/// the same position, and takes its match from the test's.
pub(crate) fn shared_run(x: &Dfa, y: &Dfa) -> Option<ByteSet> {
    if !x.accept[START as usize] || !y.accept[START as usize] {
        return None;
    }
    let (r, u) = (self_loop(y, START), self_loop(x, START));
    if r.is_empty() || r.intersect(&u) != r {
        return None;
    }
    let extra = y.live_bytes(START).minus(&r);
    let escapes = if extra.is_empty() {
        false
    } else if extra == ByteSet::single(escape::INTRO) && escape_loop(y, START, &r) {
        true
    } else {
        return None;
    };
    if escapes && !escape_loop(x, START, &u) {
        return None;
    }
    Some(x.live_bytes(START).minus(&r))
}

/// The leaves the program runs first from `from` without taking a byte
/// (through marks, jumps and peeks): each with the instruction that runs
/// it, a `Leaf` or an inside rule's split (its second leaf).
pub(crate) fn first_leaves(ops: &[Op], rules: &[Option<Rule>], from: usize) -> Vec<(usize, usize)> {
    let (mut found, mut seen, mut stack) = (Vec::new(), HashSet::new(), vec![from]);
    while let Some(at) = stack.pop() {
        if at >= ops.len() || !seen.insert(at) {
            continue;
        }
        match ops[at] {
            Op::Save(_) | Op::Kind(_) => stack.push(at + 1),
            Op::Jmp(t) => stack.push(t),
            Op::Leaf(y) => found.push((at, y)),
            Op::Split(t, _, _) => match &rules[at] {
                Some(Rule::Peek) => stack.extend([t, at + 1]),
                Some(Rule::Inside { y, .. }) => found.push((at, *y)),
                _ => {}
            },
            _ => {}
        }
    }
    found
}

/// Per prefix split whose leaf shares a run with its second branch
/// ([`shared_run`]): the split, the leaf `y` and the bytes on which `x`
/// goes on; and per instruction that runs that `y` there, the split.
pub(crate) type Shares = (HashMap<usize, (usize, ByteSet)>, HashMap<usize, usize>);

pub(crate) fn shares(ops: &[Op], pool: &Pool, rules: &[Option<Rule>]) -> Shares {
    let (mut tests, mut sites) = (HashMap::new(), HashMap::new());
    for (pc, rule) in rules.iter().enumerate() {
        let (
            Some(Rule::Prefix {
                leaf: Some((x, _)), ..
            }),
            Op::Split(alt, _, _),
        ) = (rule, &ops[pc])
        else {
            continue;
        };
        let firsts = first_leaves(ops, rules, *alt);
        let Some((y, more)) = firsts
            .iter()
            .find_map(|&(_, y)| shared_run(&pool.leaves[*x], &pool.leaves[y]).map(|m| (y, m)))
        else {
            continue;
        };
        for &(site, _) in firsts.iter().filter(|&&(_, l)| l == y) {
            sites.entry(site).or_insert(pc);
        }
        tests.insert(pc, (y, more));
    }
    (tests, sites)
}

/// The rule for each split of a program (`None` for other instructions).
pub fn decide(p: &Program, pool: &Pool) -> Vec<Option<Rule>> {
    let reps = representatives(pool);
    let ops = &p.ops;
    (0..ops.len())
        .map(|pc| {
            let Op::Split(alt, fa, fb) = ops[pc] else {
                return None;
            };
            let (a, b) = (&pool.firsts[fa], &pool.firsts[fb]);
            if a.0.intersect(&b.0).is_empty() && !(a.1 && b.1) {
                return Some(Rule::Peek);
            }
            let prefix = prefix_rule(ops, pool, pc, alt, &reps);
            if let Some(r @ Rule::Prefix { proven: true, .. }) = prefix {
                return Some(r);
            }
            if let Some(r) = inside_rule(ops, pool, pc, alt) {
                return Some(r);
            }
            Some(prefix.unwrap_or(Rule::Partial))
        })
        .collect()
}

/// For each instruction of a program whose jumps all go forward, the
/// slots (bit n: slot n) that some path from the start saves before it.
/// (Every grammar's programs save each slot at most once on a path.)
pub(crate) fn saved_before(ops: &[Op]) -> Vec<u64> {
    let mut may = vec![0u64; ops.len() + 1];
    for pc in 0..ops.len() {
        let here = may[pc]
            | match ops[pc] {
                Op::Save(slot) => 1 << slot,
                _ => 0,
            };
        match ops[pc] {
            Op::Jmp(t) => may[t] |= here,
            Op::Split(alt, _, _) => {
                may[alt] |= here;
                may[pc + 1] |= here;
            }
            Op::Match => {}
            _ => may[pc + 1] |= here,
        }
    }
    may
}

/// Whether the program can have a fast path: exact, every jump forward
/// (so no loops), and no slot saved twice on one path (so that a sink
/// writes a slot knowing it is unset: `Sink::save`).
pub fn eligible(p: &Program) -> bool {
    let forward = p.ops.iter().enumerate().all(|(pc, op)| match *op {
        Op::Jmp(t) | Op::Split(t, _, _) => t > pc,
        _ => true,
    });
    p.exact && forward && {
        let before = saved_before(&p.ops);
        p.ops.iter().enumerate().all(|(pc, op)| match *op {
            Op::Save(slot) => before[pc] >> slot & 1 == 0,
            _ => true,
        })
    }
}
