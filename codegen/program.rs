//! Stage 5: the structure of a reference as a small backtracking program.
//!
//! Rules that contain a component (or a host kind) are compiled into
//! instructions; every other rule they use becomes a *leaf*: a DFA that the
//! runtime runs for its longest match. Leaves never backtrack, so before
//! emitting a program the generator proves that the longest match is the only
//! one that can lead to a parse: no accepting state of a leaf may continue on
//! a byte that can come right after it. A grammar for which that fails is
//! rejected with the rule's file and line. The program has no loops, so it
//! stops, and it runs in time linear in the input.

use super::abnf::{ByteSet, GrammarError};
use super::dfa::{self, Dfa, DEAD};
use super::ir::{mentions, Expr, ProfileSpec};
use super::nfa;
use std::collections::HashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// Longest match of leaf DFA n; fails when it matches nothing.
    Leaf(usize),
    /// One byte of set n.
    Byte(usize),
    /// Try the next instruction; on failure resume at this one. The two
    /// other fields index `Pool::firsts`: what the next byte can be (or the
    /// end) on each branch, so the runtime can skip a branch that cannot
    /// succeed and push a backtracking frame only when both can.
    Split(usize, usize, usize),
    Jmp(usize),
    /// Record the position in capture slot n (component n/2, start or end).
    Save(u8),
    /// Record the host kind.
    Kind(u8),
    /// Succeed if at the end of the input.
    Match,
}

#[derive(Default)]
pub struct Pool {
    pub leaves: Vec<Dfa>,
    pub leaf_names: Vec<String>,
    leaf_keys: HashMap<Expr, usize>,
    pub sets: Vec<ByteSet>,
    set_keys: HashMap<ByteSet, usize>,
    pub firsts: Vec<(ByteSet, bool)>,
    first_keys: HashMap<(ByteSet, bool), usize>,
}

impl Pool {
    fn first(&mut self, f: (ByteSet, bool)) -> usize {
        let n = self.firsts.len();
        *self.first_keys.entry(f).or_insert_with(|| {
            self.firsts.push(f);
            n
        })
    }
    fn set(&mut self, s: ByteSet) -> usize {
        let n = self.sets.len();
        *self.set_keys.entry(s).or_insert_with(|| {
            self.sets.push(s);
            n
        })
    }
}

pub struct Program {
    pub ops: Vec<Op>,
    /// Most backtracking frames alive at once.
    pub max_frames: usize,
    /// Most `Save`/`Kind` instructions on one path (the runtime's undo trail).
    pub max_trail: usize,
}

struct Compiler<'a> {
    spec: &'a ProfileSpec,
    pool: &'a mut Pool,
    ops: Vec<Op>,
    /// Where each leaf instruction came from, for error messages.
    origin: HashMap<usize, (String, u32)>,
    rule_stack: Vec<usize>,
}

impl Compiler<'_> {
    fn triggers(&self, r: usize, active: u64, in_kind: bool) -> bool {
        self.spec
            .component_of(r)
            .is_some_and(|c| active & (1u64 << c) == 0)
            || (!in_kind && self.spec.host_kind_of(r).is_some())
    }

    fn needs_structure(&self, e: &Expr, active: u64, in_kind: bool) -> bool {
        mentions(&self.spec.grammar, e, &|r| {
            self.triggers(r, active, in_kind)
        })
    }

    fn here(&self) -> (String, u32) {
        let g = &self.spec.grammar;
        match self.rule_stack.last() {
            Some(&r) => (g.rules[r].file.clone(), g.rules[r].line),
            None => (self.spec.file.clone(), 1),
        }
    }

    fn leaf(&mut self, e: &Expr) {
        let g = &self.spec.grammar;
        let idx = match self.pool.leaf_keys.get(e) {
            Some(&i) => i,
            None => {
                let n = nfa::from_expr(g, None, e);
                let d = dfa::build(&n, false);
                let name = match e {
                    Expr::Ref(r) => g.rules[*r].name.clone(),
                    _ => match self.rule_stack.last() {
                        Some(&r) => format!("{} (part)", g.rules[r].name),
                        None => "(part)".to_string(),
                    },
                };
                let i = self.pool.leaves.len();
                self.pool.leaves.push(d);
                self.pool.leaf_names.push(name);
                self.pool.leaf_keys.insert(e.clone(), i);
                i
            }
        };
        let here = self.here();
        self.origin.insert(self.ops.len(), here);
        self.ops.push(Op::Leaf(idx));
    }

    fn compile(&mut self, e: &Expr, active: u64, in_kind: bool) -> Result<(), GrammarError> {
        if !self.needs_structure(e, active, in_kind) {
            match e {
                Expr::Empty => {}
                Expr::Set(s) => {
                    let i = self.pool.set(*s);
                    self.ops.push(Op::Byte(i));
                }
                Expr::Seq(xs) if xs.iter().all(|x| matches!(x, Expr::Set(_))) => {
                    for x in xs {
                        if let Expr::Set(s) = x {
                            let i = self.pool.set(*s);
                            self.ops.push(Op::Byte(i));
                        }
                    }
                }
                _ => self.leaf(e),
            }
            return Ok(());
        }
        match e {
            Expr::Ref(r) => {
                let r = *r;
                let comp = self
                    .spec
                    .component_of(r)
                    .filter(|&c| active & (1u64 << c) == 0);
                let kind = if in_kind {
                    None
                } else {
                    self.spec.host_kind_of(r)
                };
                let mut active2 = active;
                if let Some(c) = comp {
                    self.ops.push(Op::Save(2 * c as u8));
                    active2 |= 1u64 << c;
                }
                if let Some(k) = kind {
                    self.ops.push(Op::Kind(k as u8));
                }
                self.rule_stack.push(r);
                let body = self.spec.grammar.rules[r].expr.clone();
                if self.needs_structure(&body, active2, in_kind || kind.is_some()) {
                    self.compile(&body, active2, in_kind || kind.is_some())?;
                } else {
                    self.leaf(&Expr::Ref(r));
                }
                self.rule_stack.pop();
                if let Some(c) = comp {
                    self.ops.push(Op::Save(2 * c as u8 + 1));
                }
            }
            Expr::Seq(xs) => {
                for x in xs {
                    self.compile(x, active, in_kind)?;
                }
            }
            Expr::Alt(xs) => {
                let mut to_end = Vec::new();
                for (i, x) in xs.iter().enumerate() {
                    if i + 1 < xs.len() {
                        let split = self.ops.len();
                        self.ops.push(Op::Split(0, 0, 0));
                        self.compile(x, active, in_kind)?;
                        to_end.push(self.ops.len());
                        self.ops.push(Op::Jmp(0));
                        let next = self.ops.len();
                        self.ops[split] = Op::Split(next, 0, 0);
                    } else {
                        self.compile(x, active, in_kind)?;
                    }
                }
                let end = self.ops.len();
                for j in to_end {
                    self.ops[j] = Op::Jmp(end);
                }
            }
            Expr::Rep { min, max, e } => {
                let Some(max) = max else {
                    let (file, line) = self.here();
                    return Err(GrammarError {
                        file,
                        line,
                        message:
                            "unbounded repetition around a component: components must be delimited \
                                  by the structure of the grammar"
                                .into(),
                    });
                };
                for _ in 0..*min {
                    self.compile(e, active, in_kind)?;
                }
                let mut splits = Vec::new();
                for _ in *min..*max {
                    splits.push(self.ops.len());
                    self.ops.push(Op::Split(0, 0, 0));
                    self.compile(e, active, in_kind)?;
                }
                let end = self.ops.len();
                for s in splits {
                    self.ops[s] = Op::Split(end, 0, 0);
                }
            }
            Expr::Set(_) | Expr::Empty => unreachable!("sets and empty never need structure"),
        }
        Ok(())
    }
}

/// Compiles the alternation of `rules` (an entry or a component) to a program.
pub fn compile(
    spec: &ProfileSpec,
    pool: &mut Pool,
    rules: &[usize],
) -> Result<Program, GrammarError> {
    let mut c = Compiler {
        spec,
        pool,
        ops: Vec::new(),
        origin: HashMap::new(),
        rule_stack: Vec::new(),
    };
    let e = if rules.len() == 1 {
        Expr::Ref(rules[0])
    } else {
        Expr::Alt(rules.iter().map(|&r| Expr::Ref(r)).collect())
    };
    c.compile(&e, 0, false)?;
    c.ops.push(Op::Match);
    check_longest_match(&c)?;
    // Fill in the FIRST sets of each split's two branches.
    let mut memo = HashMap::new();
    for pc in 0..c.ops.len() {
        if let Op::Split(alt, _, _) = c.ops[pc] {
            let l = first(&c.ops, c.pool, pc + 1, &mut memo);
            let r = first(&c.ops, c.pool, alt, &mut memo);
            c.ops[pc] = Op::Split(alt, c.pool.first(l), c.pool.first(r));
        }
    }
    let max_frames = longest_path(&c.ops, |op| matches!(op, Op::Split(..)));
    let max_trail = longest_path(&c.ops, |op| matches!(op, Op::Save(_) | Op::Kind(_)));
    Ok(Program {
        ops: c.ops,
        max_frames,
        max_trail,
    })
}

/// Bytes that can come first from `pc` on, and whether the end can.
fn first(
    ops: &[Op],
    pool: &Pool,
    pc: usize,
    memo: &mut HashMap<usize, (ByteSet, bool)>,
) -> (ByteSet, bool) {
    if let Some(&r) = memo.get(&pc) {
        return r;
    }
    let r = match ops[pc] {
        Op::Byte(s) => (pool.sets[s], false),
        Op::Leaf(l) => {
            let d = &pool.leaves[l];
            let own = d.live_bytes(dfa::START);
            if d.accept[dfa::START as usize] {
                let (b, end) = first(ops, pool, pc + 1, memo);
                (own.union(&b), end)
            } else {
                (own, false)
            }
        }
        Op::Split(alt, _, _) => {
            let (a, ea) = first(ops, pool, pc + 1, memo);
            let (b, eb) = first(ops, pool, alt, memo);
            (a.union(&b), ea || eb)
        }
        Op::Jmp(t) => first(ops, pool, t, memo),
        Op::Save(_) | Op::Kind(_) => first(ops, pool, pc + 1, memo),
        Op::Match => (ByteSet::empty(), true),
    };
    memo.insert(pc, r);
    r
}

fn check_longest_match(c: &Compiler) -> Result<(), GrammarError> {
    let mut memo = HashMap::new();
    for (pc, op) in c.ops.iter().enumerate() {
        if let Op::Leaf(l) = *op {
            let d = &c.pool.leaves[l];
            let (follow, _) = first(&c.ops, c.pool, pc + 1, &mut memo);
            for s in 0..d.nstates() as u32 {
                if !d.accept[s as usize] {
                    continue;
                }
                for b in follow.iter() {
                    if d.next(s, b) != DEAD {
                        let (file, line) = c.origin.get(&pc).cloned().unwrap_or_default();
                        return Err(GrammarError {
                            file,
                            line,
                            message: format!(
                                "rule `{}` can go on with byte {:#04x} ({:?}) where what follows it can begin \
                                 with that byte; urilex needs the components of a reference to be \
                                 delimited so that their longest match is the only one",
                                c.pool.leaf_names[l], b, b as char
                            ),
                        });
                    }
                }
            }
        }
    }
    Ok(())
}

/// The most instructions for which `count` holds on any path through the
/// program. Jumps only go forward, so one backward pass gives it.
fn longest_path(ops: &[Op], count: impl Fn(&Op) -> bool) -> usize {
    let mut best = vec![0usize; ops.len() + 1];
    for pc in (0..ops.len()).rev() {
        let here = usize::from(count(&ops[pc]));
        best[pc] = match ops[pc] {
            Op::Split(alt, _, _) => {
                assert!(alt > pc, "backward split");
                here + best[pc + 1].max(best[alt])
            }
            Op::Jmp(t) => {
                assert!(t > pc, "backward jump");
                best[t]
            }
            Op::Match => 0,
            _ => here + best[pc + 1],
        };
    }
    best[0]
}
