//! Stage 4: byte classes, subset construction and minimization.
//!
//! State 0 is the dead state and state 1 the start state; the others are
//! numbered in breadth-first order over the classes, so the output depends
//! only on the grammar. Labelled DFAs keep states with different labels apart
//! while minimizing, so every state can still say where it is.

use super::abnf::ByteSet;
use super::nfa::{Label, Nfa};
use std::collections::{HashMap, VecDeque};

pub const DEAD: u32 = 0;
pub const START: u32 = 1;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dfa {
    /// Byte to equivalence class.
    pub classes: [u8; 256],
    pub nclasses: usize,
    /// `trans[state * nclasses + class]`.
    pub trans: Vec<u32>,
    pub accept: Vec<bool>,
    pub labels: Vec<Label>,
}

impl Dfa {
    pub fn nstates(&self) -> usize {
        self.accept.len()
    }
    pub fn next(&self, s: u32, b: u8) -> u32 {
        self.trans[s as usize * self.nclasses + self.classes[b as usize] as usize]
    }
    /// Whole-input match.
    pub fn matches(&self, input: &[u8]) -> bool {
        let mut s = START;
        for &b in input {
            s = self.next(s, b);
            if s == DEAD {
                return false;
            }
        }
        self.accept[s as usize]
    }
    /// End of the longest match starting at 0.
    pub fn longest(&self, input: &[u8]) -> Option<usize> {
        let mut s = START;
        let mut last = self.accept[s as usize].then_some(0);
        for (i, &b) in input.iter().enumerate() {
            s = self.next(s, b);
            if s == DEAD {
                break;
            }
            if self.accept[s as usize] {
                last = Some(i + 1);
            }
        }
        last
    }
    /// Whether LF and CR lead to the dead state from every state, so that a
    /// run over a buffer of lines stops at the end of each valid one.
    pub fn stops_at_line_ends(&self) -> bool {
        (1..self.nstates() as u32)
            .all(|s| self.next(s, b'\n') == DEAD && self.next(s, b'\r') == DEAD)
    }

    /// Bytes with a transition out of `s` that is not dead.
    pub fn live_bytes(&self, s: u32) -> ByteSet {
        let mut set = ByteSet::empty();
        for b in 0..=255u8 {
            if self.next(s, b) != DEAD {
                set.insert(b);
            }
        }
        set
    }
}

/// Partition of the bytes such that every set on an NFA transition is a union
/// of classes. Class ids follow the first byte of each class.
fn byte_classes(nfa: &Nfa) -> ([u8; 256], usize) {
    let mut sets: Vec<ByteSet> = nfa
        .states
        .iter()
        .filter_map(|s| s.byte.map(|(set, _)| set))
        .collect();
    sets.sort();
    sets.dedup();
    let mut sig_to_class: HashMap<Vec<u64>, u8> = HashMap::new();
    let mut classes = [0u8; 256];
    for b in 0..=255u8 {
        let mut sig = vec![0u64; sets.len().div_ceil(64)];
        for (i, s) in sets.iter().enumerate() {
            if s.contains(b) {
                sig[i / 64] |= 1 << (i % 64);
            }
        }
        let n = sig_to_class.len();
        classes[b as usize] = *sig_to_class.entry(sig).or_insert(n as u8);
    }
    (classes, sig_to_class.len())
}

struct Closure {
    mark: Vec<u32>,
    gen: u32,
    stack: Vec<u32>,
}

impl Closure {
    fn close(&mut self, nfa: &Nfa, seeds: &[u32]) -> Vec<u32> {
        self.gen += 1;
        let mut out = Vec::new();
        self.stack.clear();
        for &s in seeds {
            if self.mark[s as usize] != self.gen {
                self.mark[s as usize] = self.gen;
                self.stack.push(s);
            }
        }
        while let Some(s) = self.stack.pop() {
            out.push(s);
            for &t in &nfa.states[s as usize].eps {
                if self.mark[t as usize] != self.gen {
                    self.mark[t as usize] = self.gen;
                    self.stack.push(t);
                }
            }
        }
        out.sort_unstable();
        out
    }
}

/// The label of a set of NFA states: among the labels of its byte-consuming
/// states, the one under which the most bytes can come next (the main way
/// on: `reg-name` rather than `dec-octet` at the start of a host, `h16`
/// inside an IPv6 address), then the deepest, then the first.
fn label_of(nfa: &Nfa, set: &[u32]) -> Label {
    let mut groups: Vec<(Label, ByteSet)> = Vec::new();
    for &s in set {
        let st = &nfa.states[s as usize];
        if let Some((bytes, _)) = st.byte {
            match groups.iter_mut().find(|(l, _)| *l == st.label) {
                Some((_, b)) => *b = b.union(&bytes),
                None => groups.push((st.label, bytes)),
            }
        }
    }
    let mut best: Option<(usize, u32, Label)> = None;
    for (l, b) in groups {
        let key = (b.iter().count(), l.depth);
        if best.is_none_or(|(w, d, _)| key > (w, d)) {
            best = Some((key.0, key.1, l));
        }
    }
    best.map(|(_, _, l)| Label { depth: 0, ..l })
        .unwrap_or_default()
}

/// Determinizes and minimizes. `labelled` keeps label distinctions.
pub fn build(nfa: &Nfa, labelled: bool) -> Dfa {
    let (classes, nclasses) = byte_classes(nfa);
    let mut reps = vec![0u8; nclasses];
    for b in (0..=255u8).rev() {
        reps[classes[b as usize] as usize] = b;
    }
    let mut cl = Closure {
        mark: vec![0; nfa.states.len()],
        gen: 0,
        stack: Vec::new(),
    };
    let mut ids: HashMap<Vec<u32>, u32> = HashMap::new();
    let mut sets: Vec<Vec<u32>> = vec![Vec::new()];
    ids.insert(Vec::new(), DEAD);
    let start = cl.close(nfa, &[nfa.start]);
    ids.insert(start.clone(), START);
    sets.push(start);
    let mut trans: Vec<u32> = Vec::new();
    let mut i = 0;
    while i < sets.len() {
        let set = sets[i].clone();
        for &rep in &reps {
            let mut seeds = Vec::new();
            for &s in &set {
                if let Some((bs, t)) = nfa.states[s as usize].byte {
                    if bs.contains(rep) {
                        seeds.push(t);
                    }
                }
            }
            let next = if seeds.is_empty() {
                Vec::new()
            } else {
                cl.close(nfa, &seeds)
            };
            let id = match ids.get(&next) {
                Some(&id) => id,
                None => {
                    let id = sets.len() as u32;
                    ids.insert(next.clone(), id);
                    sets.push(next);
                    id
                }
            };
            trans.push(id);
        }
        i += 1;
    }
    let accept: Vec<bool> = sets
        .iter()
        .map(|s| s.binary_search(&nfa.accept).is_ok())
        .collect();
    let labels: Vec<Label> = sets
        .iter()
        .map(|s| {
            if labelled {
                label_of(nfa, s)
            } else {
                Label::default()
            }
        })
        .collect();
    let raw = Dfa {
        classes,
        nclasses,
        trans,
        accept,
        labels,
    };
    compact_classes(renumber(&minimize(&raw)))
}

/// Moore's partition refinement, starting from (accepting, label).
fn minimize(d: &Dfa) -> Dfa {
    let n = d.nstates();
    let mut block: Vec<u32> = {
        let mut keys: HashMap<(bool, Label, bool), u32> = HashMap::new();
        (0..n)
            .map(|s| {
                let k = (d.accept[s], d.labels[s], s == DEAD as usize);
                let len = keys.len() as u32;
                *keys.entry(k).or_insert(len)
            })
            .collect()
    };
    let count = refine(&d.trans, d.nclasses, None, &mut block);
    let mut rep = vec![usize::MAX; count as usize];
    for s in 0..n {
        if rep[block[s] as usize] == usize::MAX {
            rep[block[s] as usize] = s;
        }
    }
    let mut trans = Vec::with_capacity(count as usize * d.nclasses);
    for &r in &rep {
        for c in 0..d.nclasses {
            trans.push(block[d.trans[r * d.nclasses + c] as usize]);
        }
    }
    let accept = rep.iter().map(|&r| d.accept[r]).collect();
    let labels = rep.iter().map(|&r| d.labels[r]).collect();
    // Remember where dead and start went, by putting them in place below.
    let mut out = Dfa {
        classes: d.classes,
        nclasses: d.nclasses,
        trans,
        accept,
        labels,
    };
    out = permute(&out, block[DEAD as usize], block[START as usize]);
    out
}

/// Moore's refinement of the partition `block` (numbered 0..): two states
/// stay together while, for every class, their transitions go to the same
/// block and (given `outputs`, one per transition) have the same output.
/// Returns the number of blocks.
pub fn refine(
    trans: &[u32],
    nclasses: usize,
    outputs: Option<&[u16]>,
    block: &mut Vec<u32>,
) -> u32 {
    let n = block.len();
    let mut count = block.iter().copied().max().map_or(0, |m| m + 1);
    loop {
        let mut keys: HashMap<Vec<u32>, u32> = HashMap::new();
        let next: Vec<u32> = (0..n)
            .map(|s| {
                let mut sig = Vec::with_capacity(2 * nclasses + 1);
                sig.push(block[s]);
                for c in 0..nclasses {
                    let i = s * nclasses + c;
                    sig.push(block[trans[i] as usize]);
                    if let Some(o) = outputs {
                        sig.push(o[i] as u32);
                    }
                }
                let len = keys.len() as u32;
                *keys.entry(sig).or_insert(len)
            })
            .collect();
        let new_count = keys.len() as u32;
        *block = next;
        if new_count == count {
            return count;
        }
        count = new_count;
    }
}

/// The states `dead`, then `start`, then the rest reachable from `start` in
/// breadth-first order over the classes: the numbering every DFA here has.
pub fn bfs_order(trans: &[u32], nclasses: usize, dead: u32, start: u32) -> Vec<u32> {
    let n = trans.len() / nclasses;
    let mut order = vec![dead];
    if start != dead {
        order.push(start);
    }
    let mut seen = vec![false; n];
    seen[dead as usize] = true;
    seen[start as usize] = true;
    let mut q: VecDeque<u32> = VecDeque::from([start]);
    while let Some(s) = q.pop_front() {
        for c in 0..nclasses {
            let t = trans[s as usize * nclasses + c];
            if !seen[t as usize] {
                seen[t as usize] = true;
                order.push(t);
                q.push_back(t);
            }
        }
    }
    order
}

/// Moves `dead` to 0 and `start` to 1, the rest in breadth-first order.
fn permute(d: &Dfa, dead: u32, start: u32) -> Dfa {
    let n = d.nstates();
    let order = bfs_order(&d.trans, d.nclasses, dead, start);
    let mut new_id = vec![u32::MAX; n];
    for (i, &s) in order.iter().enumerate() {
        new_id[s as usize] = i as u32;
    }
    let mut trans = Vec::with_capacity(order.len() * d.nclasses);
    for &s in &order {
        for c in 0..d.nclasses {
            trans.push(new_id[d.trans[s as usize * d.nclasses + c] as usize]);
        }
    }
    Dfa {
        classes: d.classes,
        nclasses: d.nclasses,
        trans,
        accept: order.iter().map(|&s| d.accept[s as usize]).collect(),
        labels: order.iter().map(|&s| d.labels[s as usize]).collect(),
    }
}

fn renumber(d: &Dfa) -> Dfa {
    permute(d, DEAD, START)
}

/// Merges classes whose columns became identical after minimization.
fn compact_classes(d: Dfa) -> Dfa {
    let n = d.nstates();
    let mut col_id: HashMap<Vec<u32>, u8> = HashMap::new();
    let mut old_to_new = vec![0u8; d.nclasses];
    let mut firsts = Vec::new();
    for (c, slot) in old_to_new.iter_mut().enumerate() {
        let col: Vec<u32> = (0..n).map(|s| d.trans[s * d.nclasses + c]).collect();
        let len = col_id.len() as u8;
        *slot = *col_id.entry(col).or_insert_with(|| {
            firsts.push(c);
            len
        });
    }
    let m = firsts.len();
    let mut trans = Vec::with_capacity(n * m);
    for s in 0..n {
        for &c in &firsts {
            trans.push(d.trans[s * d.nclasses + c]);
        }
    }
    let mut classes = [0u8; 256];
    for b in 0..256 {
        classes[b] = old_to_new[d.classes[b] as usize];
    }
    Dfa {
        classes,
        nclasses: m,
        trans,
        accept: d.accept,
        labels: d.labels,
    }
}
