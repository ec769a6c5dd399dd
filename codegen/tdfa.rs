//! Stage 5b: a tagged DFA for each structure program, so that the runtime
//! gets every span from one deterministic pass over the input.
//!
//! The program of stage 5 is read as an NFA: leaf DFA states and `Byte`
//! instructions consume bytes, `Split` is an ordered choice (the next
//! instruction first), `Save` and `Kind` are tags. The subset construction
//! follows Laurikari's tagged automata with one byte of lookahead (in the
//! manner of Trofimovich's TDFA(1)): a state is an ordered list of threads,
//! each an NFA position with, per capture slot, the register that holds its
//! value (registers start out unset, so "not set yet" is a value, not a
//! state). On a byte, each thread's epsilon closure is taken
//! only along paths that can consume that byte, so a tag is written only when
//! the byte confirms it; a tag that several live threads set at different
//! positions is kept in several registers until the input tells them apart.
//! Registers are numbered per slot in order of first use, which makes states
//! that differ only by register names equal and the automaton finite.
//!
//! Threads are kept in priority order and a later thread that reaches an
//! NFA position already taken is dropped: leftmost-first, like the
//! program's backtracking, and since the generator proved that each leaf's
//! longest match is the only viable one, the spans are the program's.
//!
//! The result is minimized (states with the same final action, and per class
//! the same target block and register operations, merge), numbered in
//! breadth-first order (state 0 dead, state 1 the start), and its rows are
//! padded to a power of two. The runtime is `run_tdfa` in `src/engine/run.rs`.

use super::dfa::{self, Dfa, DEAD, START};
use super::program::{Op, Pool, Program};
use std::collections::{HashMap, VecDeque};

// Slots: part `c` start is `2c`, end `2c + 1`; the last slot is the kind
// of the profile's classified part (the profile's layout gives the count).
// Every register starts out as "unset", so a slot that no thread has set
// needs no state of its own, and neither does the kind: both are data,
// which keeps the automaton about the size of the validating DFA.
/// Source value of an operation: the current position.
pub const SRC_POS: u8 = 0xfe;
/// Source value of an operation: host kind k is `SRC_KIND + k`.
pub const SRC_KIND: u8 = 0xf0;
/// Final action value: the slot is the input's length.
pub const FINAL_END: u8 = 0xfe;
/// Final action value: host kind k is `FINAL_KIND + k`.
pub const FINAL_KIND: u8 = 0xf0;
/// Give up (and let the runtime use the program) beyond this many states
/// before minimization or after it. Seed 000's grammar counts hostname
/// label lengths (`0*61`), which gives its automata about 1,300 states:
/// they stay on the program, and the generated source stays small.
const MAX_STATES: usize = 20_000;
const MAX_MINIMAL: usize = 1_024;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Kernel {
    /// About to run instruction pc.
    At(usize),
    /// Inside the leaf of instruction pc, in that leaf's DFA state.
    In(usize, u32),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Val {
    /// Register n of the slot.
    Reg(u8),
    /// The current position (only while a transition is built).
    Pos,
    /// Host kind n (only while a transition is built).
    Kind(u8),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Thread {
    k: Kernel,
    regs: Vec<Val>,
}

/// One register operation: `dst := src`, registers numbered globally
/// (`SRC_POS` as a source is the position of the byte being read).
pub type RegOp = (u8, u8);

#[derive(Clone, Debug)]
pub struct Tdfa {
    /// The transitions; `labels` is empty.
    pub dfa: Dfa,
    /// Per transition, the index into `op_lists` (0: no operations).
    pub op_at: Vec<u16>,
    /// Operation lists; list 0 is empty.
    pub op_lists: Vec<Vec<RegOp>>,
    /// Per state: where each slot's final value comes from (a register,
    /// `FINAL_END`, or `FINAL_KIND + k` for the kind slot).
    pub finals: Vec<Vec<u8>>,
    /// Slots per state: two per part and the kind.
    pub nslots: usize,
    /// Registers used, including the scratch register for swaps (a copy
    /// cycle goes through it).
    pub nregs: usize,
}

struct Nfa<'a> {
    ops: &'a [Op],
    pool: &'a Pool,
    kind_slot: usize,
}

impl Nfa<'_> {
    /// Appends, in priority order, what `from` can become by consuming
    /// `la` (or, for `None`, whether it can accept at the end), with the
    /// tags set on the way. `visited` is shared by all threads of one step:
    /// a later arrival at an instruction can only repeat earlier results.
    fn close(&self, from: &Thread, la: Option<u8>, visited: &mut [bool], out: &mut Vec<Thread>) {
        match from.k {
            Kernel::At(pc) => self.walk(pc, from.regs.clone(), la, visited, out),
            Kernel::In(pc, q) => self.leaf(pc, q, from.regs.clone(), la, visited, out),
        }
    }

    /// Inside the leaf of instruction `pc` in its state `q`: consume `la`
    /// within the leaf (the longer match first), or leave it if `q` accepts.
    fn leaf(
        &self,
        pc: usize,
        q: u32,
        regs: Vec<Val>,
        la: Option<u8>,
        visited: &mut [bool],
        out: &mut Vec<Thread>,
    ) {
        let Op::Leaf(l) = self.ops[pc] else {
            unreachable!("In kernels are leaves")
        };
        let d = &self.pool.leaves[l];
        if let Some(b) = la {
            let q2 = d.next(q, b);
            if q2 != DEAD {
                out.push(Thread {
                    k: Kernel::In(pc, q2),
                    regs: regs.clone(),
                });
            }
        }
        if d.accept[q as usize] {
            self.walk(pc + 1, regs, la, visited, out);
        }
    }

    fn walk(
        &self,
        pc: usize,
        mut regs: Vec<Val>,
        la: Option<u8>,
        visited: &mut [bool],
        out: &mut Vec<Thread>,
    ) {
        if visited[pc] {
            return;
        }
        visited[pc] = true;
        match self.ops[pc] {
            Op::Leaf(_) => self.leaf(pc, START, regs, la, visited, out),
            Op::Byte(s) => {
                if la.is_some_and(|b| self.pool.sets[s].contains(b)) {
                    out.push(Thread {
                        k: Kernel::At(pc + 1),
                        regs,
                    });
                }
            }
            Op::Split(alt, _, _) => {
                self.walk(pc + 1, regs.clone(), la, visited, out);
                self.walk(alt, regs, la, visited, out);
            }
            Op::Jmp(t) => self.walk(t, regs, la, visited, out),
            Op::Save(slot) => {
                regs[slot as usize] = Val::Pos;
                self.walk(pc + 1, regs, la, visited, out);
            }
            Op::Kind(k) => {
                let ks = self.kind_slot;
                regs[ks] = Val::Kind(k);
                self.walk(pc + 1, regs, la, visited, out);
            }
            Op::Match => {
                if la.is_none() {
                    // A thread that accepts; its kernel does not matter.
                    out.push(Thread {
                        k: Kernel::At(pc),
                        regs,
                    });
                }
            }
        }
    }
}

/// Byte classes that refine every leaf's classes and every byte set.
fn classes(ops: &[Op], pool: &Pool) -> ([u8; 256], usize, Vec<u8>) {
    let mut leaves = Vec::new();
    let mut sets = Vec::new();
    for op in ops {
        match *op {
            Op::Leaf(l) => leaves.push(l),
            Op::Byte(s) => sets.push(s),
            _ => {}
        }
    }
    leaves.sort();
    leaves.dedup();
    sets.sort();
    sets.dedup();
    let mut ids: HashMap<Vec<u16>, u8> = HashMap::new();
    let mut map = [0u8; 256];
    let mut reps = Vec::new();
    for b in 0..=255u8 {
        let sig: Vec<u16> = leaves
            .iter()
            .map(|&l| pool.leaves[l].classes[b as usize] as u16)
            .chain(sets.iter().map(|&s| pool.sets[s].contains(b) as u16))
            .collect();
        let n = ids.len();
        let id = *ids.entry(sig).or_insert_with(|| {
            reps.push(b);
            n as u8
        });
        map[b as usize] = id;
    }
    (map, reps.len(), reps)
}

/// A register that takes a value on a transition: slot, register, source.
type Move = (usize, u8, Val);

/// Renames registers per slot in order of first use; returns the renamed
/// threads and, per slot, `(new register, source)` for every register whose
/// value is not already in place.
fn canonical(threads: Vec<Thread>, nslots: usize) -> (Vec<Thread>, Vec<Move>) {
    let mut out = threads;
    let mut moves = Vec::new();
    for slot in 0..nslots {
        let mut names: Vec<Val> = Vec::new();
        for t in out.iter_mut() {
            let v = t.regs[slot];
            let n = match names.iter().position(|&x| x == v) {
                Some(n) => n,
                None => {
                    names.push(v);
                    names.len() - 1
                }
            };
            t.regs[slot] = Val::Reg(n as u8);
        }
        for (n, v) in names.into_iter().enumerate() {
            if v != Val::Reg(n as u8) {
                moves.push((slot, n as u8, v));
            }
        }
    }
    (out, moves)
}

/// Builds the tagged DFA of a program, or `None` when it would be too big
/// (the runtime then runs the program).
pub fn build(p: &Program, pool: &Pool, nslots: usize) -> Option<Tdfa> {
    let nfa = Nfa {
        ops: &p.ops,
        pool,
        kind_slot: nslots - 1,
    };
    let (class_of, nclasses, reps) = classes(&p.ops, pool);
    let start = vec![Thread {
        k: Kernel::At(0),
        regs: vec![Val::Reg(0); nslots],
    }];
    let mut states: Vec<Vec<Thread>> = vec![Vec::new(), start.clone()];
    let mut index: HashMap<Vec<Thread>, u32> = HashMap::new();
    index.insert(Vec::new(), DEAD);
    index.insert(start, START);
    // Per transition: target and the moves (slot, register, source).
    let mut trans: Vec<(u32, Vec<Move>)> = Vec::new();
    let mut finals = Vec::new();
    let mut queue: VecDeque<u32> = VecDeque::from([DEAD, START]);
    while let Some(s) = queue.pop_front() {
        // States are numbered in the order they are queued, so rows and
        // finals are pushed in state order.
        debug_assert_eq!(s as usize, finals.len());
        let threads = states[s as usize].clone();
        let mut row = Vec::new();
        for &b in &reps {
            let mut visited = vec![false; p.ops.len()];
            let mut out = Vec::new();
            for t in &threads {
                nfa.close(t, Some(b), &mut visited, &mut out);
            }
            let mut seen = std::collections::HashSet::new();
            let next: Vec<Thread> = out.into_iter().filter(|t| seen.insert(t.k)).collect();
            let (next, moves) = canonical(next, nslots);
            let id = match index.get(&next) {
                Some(&id) => id,
                None => {
                    let id = states.len() as u32;
                    if states.len() >= MAX_STATES {
                        return None;
                    }
                    states.push(next.clone());
                    index.insert(next, id);
                    queue.push_back(id);
                    id
                }
            };
            let moves = if id == DEAD { Vec::new() } else { moves };
            row.push((id, moves));
        }
        let mut visited = vec![false; p.ops.len()];
        let mut out = Vec::new();
        for t in &threads {
            nfa.close(t, None, &mut visited, &mut out);
        }
        finals.push(out.into_iter().next());
        trans.extend(row);
    }

    // Registers: per slot as many as any state uses (every register a
    // transition writes is one of its target state's).
    let mut per_slot = vec![0usize; nslots];
    for t in states.iter().flatten() {
        for (slot, v) in t.regs.iter().enumerate() {
            if let Val::Reg(r) = v {
                per_slot[slot] = per_slot[slot].max(*r as usize + 1);
            }
        }
    }
    let mut base = vec![0usize; nslots];
    let mut total = 0;
    for slot in 0..nslots {
        base[slot] = total;
        total += per_slot[slot];
    }
    let scratch = total;
    let nregs = total + 1;
    if nregs >= SRC_POS as usize {
        return None;
    }
    let global = |slot: usize, r: u8| (base[slot] + r as usize) as u8;

    // Operation lists, in an order that reads every register before
    // overwriting it.
    let mut lists: Vec<Vec<RegOp>> = vec![Vec::new()];
    let mut list_ids: HashMap<Vec<RegOp>, u16> = HashMap::new();
    list_ids.insert(Vec::new(), 0);
    let mut op_at = Vec::with_capacity(trans.len());
    for (_, moves) in &trans {
        let mut copies: Vec<(u8, u8)> = Vec::new();
        let mut sets: Vec<RegOp> = Vec::new();
        for &(slot, r, src) in moves {
            match src {
                Val::Pos => sets.push((global(slot, r), SRC_POS)),
                Val::Kind(k) => sets.push((global(slot, r), SRC_KIND + k)),
                Val::Reg(o) => copies.push((global(slot, r), global(slot, o))),
            }
        }
        let mut seq = Vec::new();
        while !copies.is_empty() {
            let free = (0..copies.len()).find(|&i| !copies.iter().any(|&(_, s)| s == copies[i].0));
            match free {
                Some(i) => seq.push(copies.remove(i)),
                None => {
                    // A cycle: park one source in the scratch register.
                    let (d, s) = copies[0];
                    seq.push((scratch as u8, s));
                    copies[0] = (d, scratch as u8);
                }
            }
        }
        seq.extend(sets);
        let id = match list_ids.get(&seq) {
            Some(&id) => id,
            None => {
                let id = lists.len() as u16;
                lists.push(seq.clone());
                list_ids.insert(seq, id);
                id
            }
        };
        op_at.push(id);
    }
    let fin: Vec<Option<Vec<u8>>> = finals
        .iter()
        .map(|f| {
            f.as_ref().map(|t| {
                (0..nslots)
                    .map(|slot| match t.regs[slot] {
                        Val::Pos => FINAL_END,
                        Val::Kind(k) => FINAL_KIND + k,
                        Val::Reg(r) => global(slot, r),
                    })
                    .collect()
            })
        })
        .collect();

    // Minimize: Moore refinement from the final actions (the dead state
    // alone), with each transition's operation list as its output.
    let mut block: Vec<u32> = {
        let mut ids: HashMap<Option<Vec<u8>>, u32> = HashMap::new();
        fin.iter()
            .enumerate()
            .map(|(s, f)| {
                let key = if s == DEAD as usize {
                    Some(vec![0xfd; nslots])
                } else {
                    f.clone()
                };
                let k = ids.len() as u32;
                *ids.entry(key).or_insert(k)
            })
            .collect()
    };
    let targets: Vec<u32> = trans.iter().map(|&(t, _)| t).collect();
    let count = dfa::refine(&targets, nclasses, Some(&op_at), &mut block) as usize;
    if count > MAX_MINIMAL {
        return None;
    }
    // One representative per block, then numbered breadth-first.
    let mut rep = vec![usize::MAX; count];
    for (s, &b) in block.iter().enumerate() {
        if rep[b as usize] == usize::MAX {
            rep[b as usize] = s;
        }
    }
    let quotient: Vec<u32> = rep
        .iter()
        .flat_map(|&r| (0..nclasses).map(move |c| r * nclasses + c))
        .map(|i| block[targets[i] as usize])
        .collect();
    let order = dfa::bfs_order(
        &quotient,
        nclasses,
        block[DEAD as usize],
        block[START as usize],
    );
    let mut num = vec![u32::MAX; count];
    for (i, &b) in order.iter().enumerate() {
        num[b as usize] = i as u32;
    }
    let m = order.len();
    let mut new_trans = Vec::with_capacity(m * nclasses);
    let mut new_ops = Vec::with_capacity(m * nclasses);
    let mut accept = Vec::with_capacity(m);
    let mut finals_out = Vec::with_capacity(m);
    for &b in &order {
        let s = rep[b as usize];
        for c in 0..nclasses {
            let i = s * nclasses + c;
            new_trans.push(num[block[targets[i] as usize] as usize]);
            new_ops.push(op_at[i]);
        }
        accept.push(s != DEAD as usize && fin[s].is_some());
        finals_out.push(fin[s].clone().unwrap_or_else(|| vec![0; nslots]));
    }
    // Rows padded to a power of two (with dead transitions that no class
    // reaches), so that the runtime finds a transition with a shift rather
    // than a multiplication on its dependency chain.
    let width = nclasses.next_power_of_two();
    let mut trans = Vec::with_capacity(m * width);
    let mut op_at = Vec::with_capacity(m * width);
    for s in 0..m {
        trans.extend_from_slice(&new_trans[s * nclasses..(s + 1) * nclasses]);
        trans.resize((s + 1) * width, DEAD);
        op_at.extend_from_slice(&new_ops[s * nclasses..(s + 1) * nclasses]);
        op_at.resize((s + 1) * width, 0);
    }
    Some(Tdfa {
        dfa: Dfa {
            classes: class_of,
            nclasses: width,
            trans,
            accept,
            labels: Vec::new(),
        },
        op_at,
        op_lists: lists,
        finals: finals_out,
        nslots,
        nregs,
    })
}
