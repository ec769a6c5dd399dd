//! Stage 5b, the writing half: the fast path of `bitprog`'s analysis as
//! Rust source. Each leaf DFA as straight code and loops where its cycles
//! allow, else a `match` on the state (`emit_leaf`); each entry's program
//! over the line's bitmaps, every choice by the rule `bitprog::decide`
//! proved for it (`emit_fast`).

use super::abnf::ByteSet;
use super::bitprog::*;
use super::dfa::{Dfa, DEAD, START};
use super::program::{Op, Pool, Program};
#[allow(unused_imports)]
use std::collections::{HashMap, HashSet, VecDeque};
use std::fmt::Write;

fn set_words(s: &[u64; 4]) -> String {
    format!("[{:#x}, {:#x}, {:#x}, {:#x}]", s[0], s[1], s[2], s[3])
}

/// A Rust pattern matching the bytes of `set`, as ranges.
fn pattern(set: &ByteSet) -> String {
    let mut arms = Vec::new();
    let mut b = 0usize;
    while b < 256 {
        if set.contains(b as u8) {
            let start = b;
            while b + 1 < 256 && set.contains(b as u8 + 1) {
                b += 1;
            }
            arms.push(if start == b {
                format!("{start:#04x}")
            } else {
                format!("{start:#04x}..={b:#04x}")
            });
        }
        b += 1;
    }
    arms.join(" | ")
}

/// A byte set as a `match` pattern when it is a few ranges (cheaper than
/// a table lookup), else `None`.
fn small(set: &ByteSet) -> Option<String> {
    let pat = pattern(set);
    (!pat.is_empty() && pat.matches('|').count() < 3).then_some(pat)
}

/// Leaf `n` of profile `p` as a Rust function `P{p}_L{n}_LEAF{suffix}(l: &Line,
/// i: usize) -> Option<usize>`, the end of its longest match from `i`:
/// structured code where the DFA allows ([`structured_leaf`]), else the
/// DFA's states as arms of a `match`; either way a state with a run set
/// first skips its run in one step (`Line::stop`), then one byte goes to
/// the next state. The run set is the state's self-loop set exactly, so
/// the byte after a run never keeps the state.
pub fn emit_leaf(out: &mut String, p: usize, n: usize, d: &Dfa, runs: &[u8], suffix: &str) {
    if let Some(body) = structured_leaf(d, runs) {
        let _ = writeln!(
            out,
            "#[allow(non_snake_case, dead_code, unreachable_patterns, unused_mut, unused_variables, unused_labels, unused_assignments, unreachable_code, clippy::all)]\n#[inline(always)]\nfn P{p}_L{n}_LEAF{suffix}(l: &Line, mut i: usize) -> Option<usize> {{\n    let mut last = None;\n{body}}}"
        );
        return;
    }
    let _ = writeln!(
        out,
        "#[allow(non_snake_case, dead_code, unreachable_patterns, unused_mut, unused_variables, clippy::all)]\n#[inline(always)]\nfn P{p}_L{n}_LEAF{suffix}(l: &Line, mut i: usize) -> Option<usize> {{\n    let mut last = None;\n    let mut s = {START}u32;\n    loop {{\n        match s {{"
    );
    for s in 1..d.nstates() as u32 {
        let _ = writeln!(out, "            {s} => {{");
        let run = runs[s as usize];
        if run != NO_RUN {
            let _ = writeln!(out, "                i = l.stop({run}, i);");
        }
        if d.accept[s as usize] {
            out.push_str("                last = Some(i);\n");
        }
        let mut targets: Vec<(u32, ByteSet)> = Vec::new();
        for b in 0..=255u8 {
            let t = d.next(s, b);
            if t == DEAD || (t == s && run != NO_RUN) {
                continue;
            }
            match targets.iter_mut().find(|(x, _)| *x == t) {
                Some((_, set)) => set.insert(b),
                None => targets.push((t, ByteSet::single(b))),
            }
        }
        if targets.is_empty() {
            out.push_str("                return last;\n            }\n");
            continue;
        }
        out.push_str("                let Some(b) = l.at(i) else { return last };\n                s = match b {\n");
        for (t, set) in &targets {
            let _ = writeln!(out, "                    {} => {t},", pattern(set));
        }
        out.push_str("                    _ => return last,\n                };\n                i += 1;\n            }\n");
    }
    out.push_str("            _ => return last,\n        }\n    }\n}\n");
}

/// One step of a structured leaf's layout: a state, or a loop whose
/// first state (its header) is the only one entered from outside it.
enum Item {
    State(u32),
    Loop(u32, Vec<u32>),
}

impl Item {
    fn head(&self) -> u32 {
        match *self {
            Item::State(s) | Item::Loop(s, _) => s,
        }
    }
}

/// A leaf's DFA as structured code, with no state variable, when its
/// states allow it: every cycle (other than a state's loop on itself)
/// passes through one header state, the only state of its strongly
/// connected component entered from outside it. Then the components,
/// in topological order, lay out as straight code and loops: a jump to a
/// later state is a `break` out of the labelled block that ends where the
/// state's code begins, a jump back to a header is a `continue` of its
/// loop, and a state's loop on itself is its run (`Line::stop`) or a
/// byte loop. The state machine's `match` inside a `loop` (the other
/// form) leaves the compiler an indirect jump per state change where it
/// does not resolve the state; this form has none. `None`: a DFA this
/// layout does not fit (nested cycles), which keeps the other form.
fn structured_leaf(d: &Dfa, runs: &[u8]) -> Option<String> {
    let n = d.nstates();
    let mut edges: Vec<Vec<(u32, ByteSet)>> = vec![Vec::new(); n];
    let mut selfs: Vec<ByteSet> = vec![ByteSet::empty(); n];
    for s in 1..n {
        for b in 0..=255u8 {
            let t = d.next(s as u32, b);
            if t == DEAD {
                continue;
            }
            if t == s as u32 {
                selfs[s].insert(b);
                continue;
            }
            match edges[s].iter_mut().find(|(x, _)| *x == t) {
                Some((_, set)) => set.insert(b),
                None => edges[s].push((t, ByteSet::single(b))),
            }
        }
    }
    // The states reached from the start, and their components (Tarjan's
    // algorithm, iterative), found in reverse topological order.
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0usize; n];
    let mut on = vec![false; n];
    let mut stack: Vec<u32> = Vec::new();
    let mut comps: Vec<Vec<u32>> = Vec::new();
    let mut counter = 0;
    let mut work: Vec<(u32, usize)> = vec![(START, 0)];
    index[START as usize] = counter;
    low[START as usize] = counter;
    counter += 1;
    stack.push(START);
    on[START as usize] = true;
    while let Some(&mut (v, ref mut k)) = work.last_mut() {
        if let Some(&(w, _)) = edges[v as usize].get(*k) {
            *k += 1;
            if index[w as usize] == usize::MAX {
                index[w as usize] = counter;
                low[w as usize] = counter;
                counter += 1;
                stack.push(w);
                on[w as usize] = true;
                work.push((w, 0));
            } else if on[w as usize] {
                low[v as usize] = low[v as usize].min(index[w as usize]);
            }
            continue;
        }
        work.pop();
        if let Some(&(u, _)) = work.last() {
            low[u as usize] = low[u as usize].min(low[v as usize]);
        }
        if low[v as usize] == index[v as usize] {
            let mut comp = Vec::new();
            loop {
                let w = stack.pop().expect("on the stack");
                on[w as usize] = false;
                comp.push(w);
                if w == v {
                    break;
                }
            }
            comps.push(comp);
        }
    }
    comps.reverse();
    let mut comp_of = vec![usize::MAX; n];
    for (c, comp) in comps.iter().enumerate() {
        for &s in comp {
            comp_of[s as usize] = c;
        }
    }
    let mut items = Vec::new();
    let mut header = vec![false; n];
    for (c, comp) in comps.iter().enumerate() {
        if comp.len() == 1 {
            items.push(Item::State(comp[0]));
            continue;
        }
        // The header: the one state entered from outside (or the start).
        let entries: Vec<u32> = comp
            .iter()
            .copied()
            .filter(|&s| {
                s == START
                    || (1..n).any(|u| {
                        comp_of[u] != c
                            && comp_of[u] != usize::MAX
                            && edges[u].iter().any(|&(t, _)| t == s)
                    })
            })
            .collect();
        let [h] = entries[..] else {
            return None;
        };
        header[h as usize] = true;
        // The rest in topological order without the edges back to the
        // header; a cycle left is a nested loop, which this layout does
        // not take.
        let inside = |s: u32| comp_of[s as usize] == c && s != h;
        let mut indeg = vec![0usize; n];
        for &s in comp {
            for &(t, _) in &edges[s as usize] {
                if inside(t) {
                    indeg[t as usize] += 1;
                }
            }
        }
        let mut order = vec![h];
        let mut ready: Vec<u32> = Vec::new();
        let mut next = 0;
        while next < order.len() {
            let s = order[next];
            next += 1;
            for &(t, _) in &edges[s as usize] {
                if inside(t) {
                    indeg[t as usize] -= 1;
                    if indeg[t as usize] == 0 {
                        ready.push(t);
                    }
                }
            }
            order.append(&mut ready);
        }
        if order.len() != comp.len() {
            return None;
        }
        items.push(Item::Loop(h, order));
    }
    let layout = Layout {
        d,
        runs,
        edges,
        selfs,
        header,
        comp_of,
    };
    let mut out = String::new();
    layout.items(&mut out, &items, 1);
    Some(out)
}

/// What a structured leaf's code is written from: the DFA, its states' run
/// sets, each state's jumps (its loop on itself apart) and the header and
/// component of each state.
struct Layout<'d> {
    d: &'d Dfa,
    runs: &'d [u8],
    edges: Vec<Vec<(u32, ByteSet)>>,
    selfs: Vec<ByteSet>,
    header: Vec<bool>,
    comp_of: Vec<usize>,
}

impl Layout<'_> {
    /// Lays out `items` (see [`structured_leaf`]): each item's code after
    /// the labelled block `'sK` (K its first state) closes, so that
    /// `break 'sK` goes to it.
    fn items(&self, out: &mut String, items: &[Item], depth: usize) {
        let pad = "    ".repeat(depth);
        for item in items[1..].iter().rev() {
            let _ = writeln!(out, "{pad}'s{}: {{", item.head());
        }
        for (j, item) in items.iter().enumerate() {
            if j > 0 {
                let _ = writeln!(out, "{pad}}} // 's{}", item.head());
            }
            match item {
                Item::State(s) => self.state(out, *s, depth),
                Item::Loop(h, states) => {
                    let _ = writeln!(out, "{pad}'l{h}: loop {{");
                    let inner: Vec<Item> = states.iter().map(|&s| Item::State(s)).collect();
                    self.items(out, &inner, depth + 1);
                    let _ = writeln!(out, "{pad}}}");
                }
            }
        }
    }

    /// One state of a structured leaf: its run (or byte loop), whether it
    /// accepts, and the next byte's jump.
    fn state(&self, out: &mut String, s: u32, depth: usize) {
        let (d, edges, header, comp_of) = (self.d, &self.edges, &self.header, &self.comp_of);
        let pad = "    ".repeat(depth);
        let _ = writeln!(out, "{pad}// state {s}");
        let run = self.runs[s as usize];
        if run != NO_RUN {
            let _ = writeln!(out, "{pad}i = l.stop({run}, i);");
        } else if !self.selfs[s as usize].is_empty() {
            let _ = writeln!(
                out,
                "{pad}while matches!(l.at(i), Some({})) {{ i += 1; }}",
                pattern(&self.selfs[s as usize])
            );
        }
        if d.accept[s as usize] {
            let _ = writeln!(out, "{pad}last = Some(i);");
        }
        if edges[s as usize].is_empty() {
            let _ = writeln!(out, "{pad}return last;");
            return;
        }
        let _ = writeln!(out, "{pad}let Some(b) = l.at(i) else {{ return last }};");
        let _ = writeln!(out, "{pad}i += 1;");
        let _ = writeln!(out, "{pad}match b {{");
        for (t, set) in &edges[s as usize] {
            let jump = if header[*t as usize] && comp_of[*t as usize] == comp_of[s as usize] {
                format!("continue 'l{t}")
            } else {
                format!("break 's{t}")
            };
            let _ = writeln!(out, "{pad}    {} => {jump},", pattern(set));
        }
        let _ = writeln!(out, "{pad}    _ => return last,");
        let _ = writeln!(out, "{pad}}}");
    }
}

/// The fast path of one program as a Rust function `{name}_FAST<S:
/// Sink>(l: &Line, s: &mut S) -> bool` (a sink of spans: `Spans`, or a
/// batch record's), positions counted from the line's bitmaps'
/// start (`Line::start`) and saved from the line's: the program's instructions as straight-line
/// code, its jumps (all forward) as `break`s out of nested labelled blocks,
/// block `'bK` ending where the code of the instruction block starting at
/// leader K begins. `p` is the profile's index (its `P{p}_*` tables).
/// `variant` names the leaves it calls and is added to its own name: `E`
/// for the batch's, whose leaves take escapes in their runs
/// ([`fold_escapes`]). Returns the rules' names, for the report the generated
/// file carries.
pub fn emit_fast(
    out: &mut String,
    name: &str,
    prog: &Program,
    pool: &Pool,
    p: usize,
    rules: &[Option<Rule>],
    (fixed, variant): (Option<u8>, &str),
) -> Vec<(usize, String)> {
    // `rules`: `decide`'s, once for both functions. `fixed`: the spans'
    // `fixed` mask, for the function that writes spans; `None` for the one
    // that only says whether the line is valid (`{name}_VALID(l: &Line) ->
    // bool`: no `Save`, no `Kind`).
    let ops = &prog.ops;
    let mut leaders: Vec<usize> = vec![0];
    for (pc, op) in ops.iter().enumerate() {
        match *op {
            Op::Jmp(t) => leaders.push(t),
            Op::Split(alt, _, _) => {
                leaders.push(alt);
                leaders.push(pc + 1);
                if let Some(Rule::Inside { join, .. }) = &rules[pc] {
                    leaders.push(*join);
                }
            }
            _ => {}
        }
    }
    leaders.sort_unstable();
    leaders.dedup();
    // A prefix test's leaf match, kept for the first branch's own run of
    // the leaf (`x{split}`), when nothing else jumps into the branch on the
    // way there.
    let mut reuse: HashMap<usize, usize> = HashMap::new();
    for (pc, rule) in rules.iter().enumerate() {
        if let Some(Rule::Prefix {
            leaf: Some((_, at)),
            ..
        }) = rule
        {
            let entered = ops.iter().any(|op| match *op {
                Op::Jmp(t) | Op::Split(t, _, _) => t > pc && t <= *at,
                _ => false,
            });
            let split_inside = ops[pc + 1..*at]
                .iter()
                .any(|op| matches!(op, Op::Split(..)));
            if !entered && !split_inside {
                reuse.insert(*at, pc);
            }
        }
    }
    // Prefix tests that run the second branch's first leaf instead of
    // their own (`y{split}`: where it ran, and its match).
    let (tests, sites) = shares(ops, pool, rules);
    let go = |t: usize| format!("break 'b{t};");
    let leaf = |l: usize, at: &str| format!("P{p}_L{l}_LEAF{variant}(l, {at})");
    // The leaf `l` at `i` run by instruction `pc`: the shared match when a
    // prefix test ran it at the same position.
    let leaf_at = |l: usize, pc: usize| match sites.get(&pc) {
        Some(split) => format!(
            "(if y{split}.0 == i {{ Some(y{split}.1) }} else {{ {} }})",
            leaf(l, "i")
        ),
        None => leaf(l, "i"),
    };
    let first = |f: usize| {
        let (s, e) = &pool.firsts[f];
        match small(s) {
            Some(pat) => {
                format!("match l.at(i) {{ Some({pat}) => true, Some(_) => false, None => {e} }}")
            }
            None => format!("l.first(&{}, {e}, i)", set_words(&s.0)),
        }
    };
    let byte_in = |set: &ByteSet, at: &str| match small(set) {
        Some(pat) => format!("matches!(l.at({at}), Some({pat}))"),
        None => format!("l.byte_in(&{}, {at})", set_words(&set.0)),
    };
    let _ = writeln!(
        out,
        "#[allow(non_snake_case, unused_labels, unused_assignments, unused_mut, unused_variables, unused_parens, unreachable_code, clippy::all)]\n#[inline(always)]\n{}\n    let base = l.start();\n    let mut i = base;",
        match fixed {
            Some(f) => format!("fn {name}_FAST{variant}<S: Sink>(l: &Line, s: &mut S) -> bool {{\n    s.fixed({f:#x});"),
            None => format!("fn {name}_VALID{variant}(l: &Line) -> bool {{"),
        }
    );
    let spans = fixed.is_some();
    let mut kept: Vec<usize> = reuse.values().copied().collect();
    kept.sort_unstable();
    for split in kept {
        let _ = writeln!(out, "    let mut x{split}: Option<usize> = None;");
    }
    let mut shared: Vec<usize> = tests.keys().copied().collect();
    shared.sort_unstable();
    for split in shared {
        let _ = writeln!(
            out,
            "    let mut y{split}: (usize, usize) = (usize::MAX, 0);"
        );
    }
    // Open the labels, outermost (the last leader) first.
    for &k in leaders.iter().skip(1).rev() {
        let _ = writeln!(out, "    'b{k}: {{");
    }
    let mut report = Vec::new();
    for (k, &start) in leaders.iter().enumerate() {
        if k > 0 {
            let _ = writeln!(out, "    }} // 'b{start}");
        }
        let end = leaders.get(k + 1).copied().unwrap_or(ops.len());
        for pc in start..end {
            let line = match &ops[pc] {
                Op::Leaf(l) => format!(
                    "i = match {} {{ Some(e) => e, None => return false }};",
                    match reuse.get(&pc) {
                        Some(split) => format!("x{split}"),
                        None => leaf_at(*l, pc),
                    }
                ),
                Op::Byte(set) => format!(
                    "if !{} {{ return false; }} i += 1;",
                    byte_in(&pool.sets[*set], "i")
                ),
                Op::Save(slot) if spans => format!("s.save({slot}, i - base);"),
                Op::Kind(kd) if spans => format!("s.kind({kd});"),
                Op::Save(_) | Op::Kind(_) => String::new(),
                Op::Jmp(t) => go(*t),
                Op::Match => "return i == l.end();".to_string(),
                Op::Split(alt, fa, _) => {
                    let rule = rules[pc].clone().expect("a split has a rule");
                    let text = match &rule {
                        Rule::Peek => format!("if !{} {{ {} }}", first(*fa), go(*alt)),
                        Rule::Prefix { leaf: x, sets, .. } => {
                            let mut t = String::from("let mut j = i; let ok = ");
                            if let Some((x, at)) = x {
                                // The leaf's match: its own, or read off the
                                // second branch's first leaf's.
                                let own = match tests.get(&pc) {
                                    Some((y, more)) => format!(
                                        "{{ let q = match {} {{ Some(e) => e, None => j }}; y{pc} = (j, q); {} }}",
                                        leaf(*y, "j"),
                                        if more.is_empty() {
                                            "Some(q)".to_string()
                                        } else {
                                            format!(
                                                "if {} {{ {} }} else {{ Some(q) }}",
                                                byte_in(more, "q"),
                                                leaf(*x, "q")
                                            )
                                        }
                                    ),
                                    None => leaf(*x, "j"),
                                };
                                let m = if reuse.contains_key(at) {
                                    let _ = write!(t, "{{ x{pc} = {own}; true }} && ");
                                    format!("x{pc}")
                                } else {
                                    own
                                };
                                let _ = write!(
                                    t,
                                    "match {m} {{ Some(e) => {{ j = e; true }} None => false }}"
                                );
                            } else {
                                t.push_str("true");
                            }
                            for s in sets {
                                let _ = write!(
                                    t,
                                    " && {} && {{ j += 1; true }}",
                                    byte_in(&pool.sets[*s], "j")
                                );
                            }
                            let _ = write!(t, "; if !ok {{ {} }}", go(*alt));
                            t
                        }
                        Rule::Inside {
                            x,
                            y,
                            x_kinds,
                            y_kinds,
                            join,
                        } => {
                            let kinds = |ks: &[u8]| {
                                ks.iter()
                                    .map(|k| format!("s.kind({k}); "))
                                    .collect::<String>()
                            };
                            if spans {
                                format!(
                                    "let e = match {} {{ Some(e) => e, None => return false }}; if {} == Some(e) {{ {}}} else {{ {}}} i = e; {}",
                                    leaf_at(*y, pc),
                                    leaf(*x, "i"),
                                    kinds(x_kinds),
                                    kinds(y_kinds),
                                    go(*join)
                                )
                            } else {
                                // Both branches end where `y` does.
                                format!(
                                    "i = match {} {{ Some(e) => e, None => return false }}; {}",
                                    leaf_at(*y, pc),
                                    go(*join)
                                )
                            }
                        }
                        // The first branch when it can start here; if it then
                        // fails, the exact engine tries the second.
                        Rule::Partial => format!("if !{} {{ {} }}", first(*fa), go(*alt)),
                    };
                    // A prefix test that shares its run says so.
                    let shared = if tests.contains_key(&pc) {
                        "-shared"
                    } else {
                        ""
                    };
                    report.push((pc, format!("{}{shared}", rule.name())));
                    text
                }
            };
            let _ = writeln!(out, "        {line} // {pc}");
        }
    }
    out.push_str("}\n");
    report
}
