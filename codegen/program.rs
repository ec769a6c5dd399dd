//! Stage 5: the structure of a reference as a small backtracking program.
//!
//! Rules that contain a component (or a host kind) are compiled into
//! instructions; every other rule they use becomes a *leaf*: a DFA that the
//! runtime runs for its longest match. Leaves never backtrack, so before
//! emitting a program the generator proves that the longest match is the only
//! one that can lead to a parse: no accepting state of a leaf may continue on
//! a byte that can come right after it, unless following the bytes that come
//! after it (a few, such as the "%09" after a gopher selector) always kills
//! the leaf before it accepts again. A grammar for which that fails is
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
    /// Whether every leaf's longest match is the only viable one, so that
    /// the program alone parses exactly. When not (a leaf may take bytes of
    /// what follows it, though only one of its matches can lead on: RFC
    /// 8141's r-component before "?="), the tagged DFA, which follows every
    /// candidate, is the parser, and the generator requires one.
    pub exact: bool,
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
    /// Per part index: whether this program records the part.
    save: Vec<bool>,
    /// Whether it records the kind.
    kinds: bool,
    /// Whether unbounded repetitions become loops (a region's program).
    loops: bool,
}

impl Compiler<'_> {
    fn saved(&self, r: usize, active: u64) -> Vec<usize> {
        self.spec
            .parts_of(r)
            .filter(|&c| self.save[c] && active & (1u64 << c) == 0)
            .collect()
    }

    fn triggers(&self, r: usize, active: u64, in_kind: bool) -> bool {
        !self.saved(r, active).is_empty()
            || (self.kinds && !in_kind && self.spec.host_kind_of(r).is_some())
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
                let comps = self.saved(r, active);
                let kind = if in_kind || !self.kinds {
                    None
                } else {
                    self.spec.host_kind_of(r)
                };
                let mut active2 = active;
                for &c in &comps {
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
                for &c in comps.iter().rev() {
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
            Expr::Rep { min, max: None, e } if self.loops => {
                for _ in 0..*min {
                    self.compile(e, active, in_kind)?;
                }
                // L: Split(END); e; Jmp(L); END:
                let top = self.ops.len();
                self.ops.push(Op::Split(0, 0, 0));
                let body = self.ops.len();
                self.compile(e, active, in_kind)?;
                if self.ops.len() == body {
                    let (file, line) = self.here();
                    return Err(GrammarError {
                        file,
                        line,
                        message: "a repetition around a repeated part matches nothing".into(),
                    });
                }
                self.ops.push(Op::Jmp(top));
                let end = self.ops.len();
                self.ops[top] = Op::Split(end, 0, 0);
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

/// FIRST sets of a split's two branches: bytes, and whether the end may come.
type Choice = (usize, usize, (ByteSet, bool), (ByteSet, bool));

/// The part both kinds of program share: `e` compiled with `save` (per
/// part index) and `kinds`, `Match` appended, every leaf's longest match
/// proven, and each split's two FIRST sets (`(pc, alt, left, right)`), with
/// whether a loop could go round without consuming (`cyclic`) and whether
/// the longest matches alone are exact (`Program::exact`).
fn lower(
    spec: &ProfileSpec,
    pool: &mut Pool,
    e: &Expr,
    save: Vec<bool>,
    region: Option<usize>,
) -> Result<(Vec<Op>, Vec<Choice>, bool, bool), GrammarError> {
    let mut c = Compiler {
        spec,
        pool,
        ops: Vec::new(),
        origin: HashMap::new(),
        rule_stack: region.into_iter().collect(),
        save,
        kinds: region.is_none(),
        loops: region.is_some(),
    };
    c.compile(e, 0, false)?;
    c.ops.push(Op::Match);
    let exact = check_longest_match(&c)?;
    let mut memo = Memo::default();
    let mut choices = Vec::new();
    for pc in 0..c.ops.len() {
        if let Op::Split(alt, _, _) = c.ops[pc] {
            let l = first(&c.ops, c.pool, pc + 1, &mut memo);
            let r = first(&c.ops, c.pool, alt, &mut memo);
            choices.push((pc, alt, l, r));
        }
    }
    Ok((c.ops, choices, memo.cyclic, exact))
}

/// Writes each split's FIRST sets into it, as indices into the pool.
fn set_firsts(ops: &mut [Op], pool: &mut Pool, choices: Vec<Choice>) {
    for (pc, alt, l, r) in choices {
        ops[pc] = Op::Split(alt, pool.first(l), pool.first(r));
    }
}

/// Compiles the alternation of `rules` (an entry or a component) to a
/// program that records every part that is not repeated (and the kind).
pub fn compile(
    spec: &ProfileSpec,
    pool: &mut Pool,
    rules: &[usize],
) -> Result<Program, GrammarError> {
    let save = (0..spec.nparts())
        .map(|i| spec.part_at(i).is_some_and(|p| !p.repeated))
        .collect();
    let e = if rules.len() == 1 {
        Expr::Ref(rules[0])
    } else {
        Expr::Alt(rules.iter().map(|&r| Expr::Ref(r)).collect())
    };
    let (mut ops, choices, _, exact) = lower(spec, pool, &e, save, None)?;
    set_firsts(&mut ops, pool, choices);
    to_slots(spec, &mut ops);
    let max_frames = longest_path(&ops, |op| matches!(op, Op::Split(..)));
    let max_trail = longest_path(&ops, |op| matches!(op, Op::Save(_) | Op::Kind(_)));
    Ok(Program {
        ops,
        exact,
        max_frames,
        max_trail,
    })
}

/// A region's program: the rule `region` with its repetitions as loops,
/// recording only the repeated parts whose region it is. The runtime walks
/// it over the region's span to list the parts' occurrences one by one,
/// without backtracking: the generator proves that every choice (a loop's
/// "again or done", an alternative) is decided by the next byte or the
/// region's end, and that each leaf's longest match is the only viable one.
pub fn compile_region(
    spec: &ProfileSpec,
    pool: &mut Pool,
    region: usize,
) -> Result<Program, GrammarError> {
    let save = (0..spec.nparts())
        .map(|i| {
            spec.part_at(i)
                .is_some_and(|p| p.repeated && p.region.is_some_and(|(_, r)| r == region))
        })
        .collect();
    // The region's body (its own rule is the region's span, not saved).
    let rule = &spec.grammar.rules[region];
    let (mut ops, choices, cyclic, exact) = lower(spec, pool, &rule.expr, save, Some(region))?;
    let fail = |message: String| GrammarError {
        file: rule.file.clone(),
        line: rule.line,
        message,
    };
    if cyclic {
        return Err(fail(format!(
            "a repetition in rule `{}` can go round without consuming a byte",
            rule.name
        )));
    }
    if !exact {
        return Err(fail(format!(
            "the parts repeated in rule `{}` cannot be listed by longest matches: a part there \
             can take bytes of what follows it",
            rule.name
        )));
    }
    for (_, _, l, r) in &choices {
        let both = l.0.intersect(&r.0);
        if !both.is_empty() || (l.1 && r.1) {
            let on = if both.is_empty() {
                "the region's end".to_string()
            } else {
                format!("{both:?}")
            };
            return Err(fail(format!(
                "the parts repeated in rule `{}` cannot be listed with one byte of lookahead: \
                 a choice there can go both ways on {on}",
                rule.name
            )));
        }
    }
    set_firsts(&mut ops, pool, choices);
    to_slots(spec, &mut ops);
    Ok(Program {
        ops,
        exact,
        max_frames: 0,
        max_trail: 0,
    })
}

/// Programs are compiled with a part's layout index in its `Save`s; the
/// runtime keeps spans by slot.
fn to_slots(spec: &ProfileSpec, ops: &mut [Op]) {
    for op in ops {
        if let Op::Save(s) = op {
            let part = spec.part_at(*s as usize / 2).expect("a saved part");
            *s = (2 * part.slot + *s as usize % 2) as u8;
        }
    }
}

/// Gives every part its slot. The default profile's parts keep their
/// index (their typed accessors read it directly); any other part takes
/// the slot of a default part the profile lacks, or shares one with parts
/// that no one program can record together: the entries
/// (one program for this purpose) and each scheme rule record the parts
/// whose rules they reach. RFC 1738's ten scheme rules have some thirty
/// parts but at most four beyond the default's each, and lack four of the
/// default's, so every reference stays as small as RFC 6874's. A part records which programs can set it (`sources`); the
/// runtime checks that against the program a reference was parsed by
/// before it reads a shared slot.
pub fn assign_slots(spec: &mut ProfileSpec) -> Result<(), GrammarError> {
    let mut roots: Vec<Vec<usize>> = vec![spec.entries.iter().map(|(_, r)| *r).collect()];
    roots.extend(spec.schemes.iter().map(|(_, r)| vec![*r]));
    if roots.len() > 64 {
        return Err(GrammarError {
            file: spec.file.clone(),
            line: 1,
            message: "a profile has at most 63 scheme rules".into(),
        });
    }
    let g = &spec.grammar;
    let reach: Vec<Vec<bool>> = roots
        .iter()
        .map(|rs| {
            let mut seen = vec![false; g.rules.len()];
            let mut todo = rs.clone();
            while let Some(r) = todo.pop() {
                if !std::mem::replace(&mut seen[r], true) {
                    refs(&g.rules[r].expr, &mut todo);
                }
            }
            seen
        })
        .collect();
    let fixed = spec.nfixed;
    // Per slot: the programs that already record some part there. The
    // default profile's indices that this profile does not declare are
    // free for its own parts (the typed accessors of those components are
    // told, by the profile's `fixed` mask, that it has none).
    let mut taken: Vec<u64> = vec![0; fixed];
    let mut per_region: HashMap<Option<usize>, usize> = HashMap::new();
    let mut order: Vec<usize> = (0..spec.parts.len()).collect();
    order.sort_by_key(|&i| (spec.parts[i].index >= fixed, spec.parts[i].index));
    for i in order {
        let p = &spec.parts[i];
        let sources = reach
            .iter()
            .enumerate()
            .filter(|(_, r)| p.rules.iter().any(|&x| r[x]))
            .fold(0u64, |m, (k, _)| m | 1 << k);
        // A part no program reaches is read only by its own validation:
        // it keeps a slot to itself.
        let sources = if sources == 0 { u64::MAX } else { sources };
        // A repeated part is never in a reference's spans: only its
        // region's program records it, as the walker goes. Its number
        // only tells it from the other parts of that region.
        if p.repeated && p.index >= fixed {
            let region = p.region.map(|(_, r)| r);
            let slot = *per_region
                .entry(region)
                .and_modify(|n| *n += 1)
                .or_insert(0);
            let p = &mut spec.parts[i];
            p.slot = slot;
            p.sources = sources;
            continue;
        }
        let slot = if p.index < fixed {
            p.index
        } else {
            match (0..taken.len()).find(|&k| taken[k] & sources == 0) {
                Some(k) => k,
                None => {
                    taken.push(0);
                    taken.len() - 1
                }
            }
        };
        // A default part's slot is its own: its typed accessor reads it
        // without asking which program wrote the spans.
        taken[slot] |= if p.index < fixed { u64::MAX } else { sources };
        let p = &mut spec.parts[i];
        p.slot = slot;
        p.sources = sources;
    }
    Ok(())
}

/// The rules `e` refers to.
fn refs(e: &Expr, out: &mut Vec<usize>) {
    match e {
        Expr::Ref(r) => out.push(*r),
        Expr::Alt(xs) | Expr::Seq(xs) => xs.iter().for_each(|x| refs(x, out)),
        Expr::Rep { e, .. } => refs(e, out),
        Expr::Set(_) | Expr::Empty => {}
    }
}

/// Finds the parts that sit inside a repetition (unbounded, or of more
/// than one copy) on the way from an entry or scheme rule, marks them
/// repeated, and gives each its region: the rule whose own expression holds
/// the repetition. The region's span is recorded by the main program (in
/// a hidden part, unless a declared part is exactly that rule); its
/// occurrences come from the region's program. A part repeated under two
/// different rules, or also met outside its region, is refused.
pub fn find_repeated(spec: &mut ProfileSpec) -> Result<(), GrammarError> {
    // Per part index: the owners of the repetitions around it, and for
    // every occurrence the rules on the way to it.
    let mut owners: Vec<Vec<usize>> = vec![Vec::new(); spec.nparts()];
    let mut paths: Vec<Vec<Vec<usize>>> = vec![Vec::new(); spec.nparts()];
    let mut tops: Vec<usize> = spec.entries.iter().map(|(_, r)| *r).collect();
    tops.extend(spec.schemes.iter().map(|(_, r)| *r));
    let has_part = |g: &super::ir::Grammar, e: &Expr, spec: &ProfileSpec| {
        mentions(g, e, &|r| spec.parts_of(r).next().is_some())
    };
    #[allow(clippy::too_many_arguments)]
    fn walk(
        spec: &ProfileSpec,
        e: &Expr,
        owner: Option<usize>,
        rule: usize,
        stack: &mut Vec<usize>,
        owners: &mut Vec<Vec<usize>>,
        paths: &mut Vec<Vec<Vec<usize>>>,
        has_part: &dyn Fn(&super::ir::Grammar, &Expr, &ProfileSpec) -> bool,
    ) {
        let g = &spec.grammar;
        if !has_part(g, e, spec) {
            return;
        }
        match e {
            Expr::Alt(xs) | Expr::Seq(xs) => {
                for x in xs {
                    walk(spec, x, owner, rule, stack, owners, paths, has_part);
                }
            }
            Expr::Rep { max, e, .. } => {
                let repeats = max.is_none_or(|m| m > 1);
                let o = if repeats { owner.or(Some(rule)) } else { owner };
                walk(spec, e, o, rule, stack, owners, paths, has_part);
            }
            Expr::Ref(r) => {
                let declared: Vec<usize> = spec
                    .parts
                    .iter()
                    .filter(|p| !p.hidden && p.rules.contains(r))
                    .map(|p| p.index)
                    .collect();
                for c in declared {
                    if let Some(o) = owner {
                        if !owners[c].contains(&o) {
                            owners[c].push(o);
                        }
                    }
                    paths[c].push(stack.clone());
                }
                if stack.contains(r) {
                    return;
                }
                stack.push(*r);
                let body = g.rules[*r].expr.clone();
                walk(spec, &body, owner, *r, stack, owners, paths, has_part);
                stack.pop();
            }
            Expr::Set(_) | Expr::Empty => {}
        }
    }
    for &t in &tops {
        let mut stack = vec![t];
        let body = spec.grammar.rules[t].expr.clone();
        // The top rule itself may be a part (never repeated).
        walk(
            spec,
            &body,
            None,
            t,
            &mut stack,
            &mut owners,
            &mut paths,
            &has_part,
        );
    }
    let mut hidden = Vec::new();
    for c in 0..owners.len() {
        let Some(part) = spec.part_at(c) else {
            continue;
        };
        let (name, line) = (part.name.clone(), part.line);
        let err = |m: String| GrammarError {
            file: spec.file.clone(),
            line,
            message: m,
        };
        match owners[c].as_slice() {
            [] => {}
            [r] => {
                let r = *r;
                if let Some(p) = paths[c].iter().find(|p| !p.contains(&r)) {
                    let g = &spec.grammar;
                    let via: Vec<&str> = p.iter().map(|&x| g.rules[x].name.as_str()).collect();
                    return Err(err(format!(
                        "part `{name}` is repeated in rule `{}` but also found outside it (via {})",
                        g.rules[r].name,
                        via.join(" -> ")
                    )));
                }
                hidden.push((c, r));
            }
            rs => {
                let g = &spec.grammar;
                let names: Vec<&str> = rs.iter().map(|&x| g.rules[x].name.as_str()).collect();
                return Err(err(format!(
                    "part `{name}` is repeated in several rules ({}); give each its own part",
                    names.join(", ")
                )));
            }
        }
    }
    for (c, r) in hidden {
        // The region's span: a declared part that is exactly the rule, or
        // a hidden part added for it (one per region rule).
        let slot = match spec
            .parts
            .iter()
            .find(|p| p.rules == [r] && !p.repeated && p.index != c)
        {
            Some(p) => p.index,
            None => {
                let index = spec.nparts();
                let name = format!("@{}", spec.grammar.rules[r].name);
                spec.parts.push(super::ir::PartSpec {
                    variant: String::new(),
                    name,
                    rules: vec![r],
                    index,
                    line: 0,
                    repeated: false,
                    hidden: true,
                    region: None,
                    slot: index,
                    sources: u64::MAX,
                });
                index
            }
        };
        let p = spec.parts.iter_mut().find(|p| p.index == c).expect("part");
        p.repeated = true;
        p.region = Some((slot, r));
    }
    Ok(())
}

/// Bytes that can come first from `pc` on, and whether the end can.
/// FIRST sets by instruction. A region's loops jump back; a loop whose
/// body could come round without consuming a byte is noted in `cyclic`.
#[derive(Default)]
struct Memo {
    done: HashMap<usize, (ByteSet, bool)>,
    busy: std::collections::HashSet<usize>,
    cyclic: bool,
}

fn first(ops: &[Op], pool: &Pool, pc: usize, memo: &mut Memo) -> (ByteSet, bool) {
    if let Some(&r) = memo.done.get(&pc) {
        return r;
    }
    if !memo.busy.insert(pc) {
        memo.cyclic = true;
        return (ByteSet::empty(), false);
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
    memo.busy.remove(&pc);
    memo.done.insert(pc, r);
    r
}

fn check_longest_match(c: &Compiler) -> Result<bool, GrammarError> {
    let mut exact = true;
    let mut memo = Memo::default();
    for (pc, op) in c.ops.iter().enumerate() {
        if let Op::Leaf(l) = *op {
            let d = &c.pool.leaves[l];
            let (follow, _) = first(&c.ops, c.pool, pc + 1, &mut memo);
            let mut paths: Option<Vec<Path>> = None;
            for s in 0..d.nstates() as u32 {
                if !d.accept[s as usize] {
                    continue;
                }
                let Some(b) = follow.iter().find(|&b| d.next(s, b) != DEAD) else {
                    continue;
                };
                // The leaf could go on with the byte that follows it; it is
                // still safe when it can never take some of what comes next
                // up to an accepting state from which what comes next could
                // begin again (the selector of RFC 1738 before "%09", an
                // r-component of RFC 8141 before "?=").
                let paths = paths.get_or_insert_with(|| {
                    let mut out = Vec::new();
                    let mut budget = OVERRUN_BUDGET;
                    let ok = follow_paths(c, pc + 1, Path::default(), &mut out, &mut budget);
                    if ok {
                        out
                    } else {
                        Vec::new()
                    }
                });
                if !paths.is_empty() && !overruns(d, s, paths, true) {
                    continue;
                }
                // It can take bytes of what follows, but what follows
                // could not begin again from there: only one of its
                // matches leads on, not always the longest.
                if !paths.is_empty() && !overruns(d, s, paths, false) {
                    exact = false;
                    continue;
                }
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
    Ok(exact)
}

/// How many bytes of what follows a leaf the proof looks at.
const OVERRUN_DEPTH: usize = 4;
/// How many instructions it may visit listing them before it gives up
/// (and refuses the grammar).
const OVERRUN_BUDGET: usize = 4096;

/// One way the program can go on after a leaf: a byte set per byte, then
/// the input's end (`end`) or more that is not followed (`open`).
#[derive(Clone, Debug, Default)]
struct Path {
    sets: Vec<ByteSet>,
    end: bool,
}

/// Lists the paths from `pc` on, up to `OVERRUN_DEPTH` bytes; a following
/// leaf contributes its first byte and leaves the path open. `false` when
/// the budget ran out.
fn follow_paths(
    c: &Compiler,
    pc: usize,
    mut path: Path,
    out: &mut Vec<Path>,
    budget: &mut usize,
) -> bool {
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    if path.sets.len() >= OVERRUN_DEPTH {
        out.push(path);
        return true;
    }
    match c.ops[pc] {
        Op::Byte(s) => {
            path.sets.push(c.pool.sets[s]);
            follow_paths(c, pc + 1, path, out, budget)
        }
        Op::Leaf(l) => {
            let other = &c.pool.leaves[l];
            let mut open = path.clone();
            open.sets.push(other.live_bytes(dfa::START));
            out.push(open);
            !other.accept[dfa::START as usize] || follow_paths(c, pc + 1, path, out, budget)
        }
        Op::Split(alt, _, _) => {
            follow_paths(c, pc + 1, path.clone(), out, budget)
                && follow_paths(c, alt, path, out, budget)
        }
        Op::Jmp(t) => follow_paths(c, t, path, out, budget),
        Op::Save(_) | Op::Kind(_) => follow_paths(c, pc + 1, path, out, budget),
        Op::Match => {
            path.end = true;
            out.push(path);
            true
        }
    }
}

/// Whether leaf `d`, in accepting state `s`, might take bytes of what
/// follows it: reading the bytes of some path that follows, it reaches an
/// accepting state (`strict`; else only one from which some path could
/// begin again on the bytes left, so that two of its matches could lead
/// on), or it is still alive where the path goes on unseen.
fn overruns(d: &Dfa, s: u32, paths: &[Path], strict: bool) -> bool {
    paths.iter().any(|p| {
        let mut states = vec![s];
        for (j, set) in p.sets.iter().enumerate() {
            let mut next: Vec<u32> = states
                .iter()
                .flat_map(|&q| set.iter().map(move |b| d.next(q, b)))
                .filter(|&q| q != DEAD)
                .collect();
            next.sort_unstable();
            next.dedup();
            if next.is_empty() {
                return false;
            }
            if next.iter().any(|&q| d.accept[q as usize])
                && (strict
                    || paths
                        .iter()
                        .any(|p2| compatible(&p.sets[j + 1..], p.end, p2)))
            {
                return true;
            }
            states = next;
        }
        !p.end
    })
}

/// Whether text that goes on with `rest` (then ends, if `end`) could also
/// be read by path `p`.
fn compatible(rest: &[ByteSet], end: bool, p: &Path) -> bool {
    let n = rest.len().min(p.sets.len());
    if (0..n).any(|i| rest[i].intersect(&p.sets[i]).is_empty()) {
        return false;
    }
    !(end && p.sets.len() > rest.len() || p.end && rest.len() > p.sets.len())
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
