//! Stage 6: Rust source for the tables, deterministic byte for byte.

use super::dfa::Dfa;
use super::ir::{ProfileSpec, COMPONENTS, ENTRIES};
use super::program::{Op, Pool, Program};
use super::tdfa::{Tdfa, FINAL_END, FINAL_KIND, SLOTS, SRC_KIND, SRC_POS};
use std::fmt::Write;

// The range form of a byte set, shared with the runtime's SSE2 kernel.
#[path = "../src/scan/ranges.rs"]
mod ranges;
use ranges::ranges_of;

pub struct Compiled {
    pub spec: ProfileSpec,
    pub pool: Pool,
    pub entries: Vec<Option<(Dfa, Program, Option<Tdfa>)>>,
    pub components: Vec<Option<(Dfa, Program, Option<Tdfa>)>>,
}

fn list<T: std::fmt::Display>(
    out: &mut String,
    items: impl IntoIterator<Item = T>,
    per_line: usize,
) {
    let items: Vec<String> = items.into_iter().map(|x| x.to_string()).collect();
    for chunk in items.chunks(per_line.max(1)) {
        out.push_str("    ");
        out.push_str(&chunk.join(", "));
        out.push_str(",\n");
    }
}

/// `ops`, for a tagged DFA, marks the transitions that write registers:
/// those are never skipped, so they are left out of the self-loop sets.
fn emit_dfa(out: &mut String, name: &str, d: &Dfa, labelled: bool, ops: Option<&[u16]>) {
    let plain = |i: usize| ops.map_or(true, |o| o[i] == 0);
    let n = d.nstates();
    assert!(
        n < u16::MAX as usize,
        "DFA {name} has {n} states; the tables hold u16 state ids"
    );
    let _ = writeln!(out, "static {name}_CLASSES: [u8; 256] = [");
    list(out, d.classes.iter(), 32);
    out.push_str("];\n");
    let _ = writeln!(out, "static {name}_TRANS: [u16; {}] = [", d.trans.len());
    for s in 0..n {
        let row = &d.trans[s * d.nclasses..(s + 1) * d.nclasses];
        out.push_str("    ");
        out.push_str(
            &row.iter()
                .map(|t| t.to_string())
                .collect::<Vec<_>>()
                .join(", "),
        );
        let _ = writeln!(out, ", // {s}");
    }
    out.push_str("];\n");
    let _ = writeln!(out, "static {name}_ACCEPT: [bool; {n}] = [");
    list(out, d.accept.iter(), 16);
    out.push_str("];\n");
    // Self-loop masks: bit c of STAY[s] says class c keeps the DFA in s, so
    // the runtime can skip such runs without a dependent table load per byte.
    let _ = writeln!(out, "static {name}_STAY: [u64; {n}] = [");
    let stay = (0..n).map(|s| {
        let mut m = 0u64;
        if s != 0 && d.nclasses <= 64 {
            for c in 0..d.nclasses {
                if d.trans[s * d.nclasses + c] as usize == s && plain(s * d.nclasses + c) {
                    m |= 1 << c;
                }
            }
        }
        format!("{m:#x}")
    });
    list(out, stay, 8);
    out.push_str("];\n");
    // The same self-loop sets as nibble tables for the SIMD kernels
    // (src/scan): lo[b & 15] & hi[b >> 4] != 0 exactly for the set's bytes
    // when they are all ASCII; all zero (no skipping) otherwise.
    let _ = writeln!(out, "static {name}_NIBBLES: [[u8; 32]; {n}] = [");
    let mut ranges = Vec::with_capacity(n);
    for s in 0..n {
        let mut t = [0u8; 32];
        let mut ascii = true;
        if s != 0 && d.nclasses <= 64 {
            for b in 0..=255u8 {
                let i = s * d.nclasses + d.classes[b as usize] as usize;
                if d.trans[i] as usize == s && plain(i) {
                    if b >= 0x80 {
                        ascii = false;
                    } else {
                        t[(b & 15) as usize] |= 1 << (b >> 4);
                    }
                }
            }
        }
        if !ascii || t[..16].iter().all(|&x| x == 0) {
            t = [0u8; 32];
        } else {
            for h in 0..8 {
                t[16 + h] = 1 << h;
            }
        }
        let _ = writeln!(out, "    {:?},", t);
        ranges.push(ranges_of(&t));
    }
    out.push_str("];\n");
    // And as ranges, for the SSE2 kernel (no byte shuffle there):
    // `[n, start, span, ...]`, `n` = 0xff when there are more than 15.
    let _ = writeln!(out, "static {name}_RANGES: [[u8; 32]; {n}] = [");
    for r in ranges {
        if r == [0u8; 32] {
            out.push_str("    [0; 32],\n");
        } else {
            let _ = writeln!(out, "    {:?},", r);
        }
    }
    out.push_str("];\n");
    if labelled {
        let _ = writeln!(out, "static {name}_LABELS: [Label; {n}] = [");
        let labels = d.labels.iter().map(|l| {
            format!(
                "Label::new({}, {}, {})",
                l.component.map_or(u8::MAX, |c| c),
                l.rule.map_or(u16::MAX, |r| r as u16),
                l.hint
            )
        });
        list(out, labels, 4);
        out.push_str("];\n");
    }
    let _ = writeln!(
        out,
        "const _: () = assert!(all_below(&{name}_TRANS, {n}) && bytes_below(&{name}_CLASSES, {}));",
        d.nclasses
    );
}

fn dfa_value(name: &str, d: &Dfa, labelled: bool) -> String {
    format!(
        "Dfa {{ classes: &{name}_CLASSES, stride: {}, trans: &{name}_TRANS, accept: &{name}_ACCEPT, stay: &{name}_STAY, nibbles: &{name}_NIBBLES, ranges: &{name}_RANGES, labels: {} }}",
        d.nclasses,
        if labelled { format!("&{name}_LABELS") } else { "&[]".to_string() }
    )
}

/// `regs` is `MAX_REGS`: after the registers, the runtime's register file
/// holds the input's length (`regs`), host kinds 0 to 3 (`regs + 1 + k`)
/// and the current position (`regs + 5`), so that every operation is a
/// plain copy and every final slot one read.
fn emit_tdfa(out: &mut String, name: &str, t: &Tdfa, regs: usize) {
    emit_dfa(out, name, &t.dfa, false, Some(&t.op_at));
    // Operation lists flattened: a count, then `dst << 8 | src` per write.
    let mut flat: Vec<u16> = Vec::new();
    let mut offset = Vec::new();
    for l in &t.op_lists {
        offset.push(flat.len());
        flat.push(l.len() as u16);
        flat.extend(l.iter().map(|&(d, s)| {
            let s = match s {
                SRC_POS => regs as u8 + 5,
                k if k >= SRC_KIND => regs as u8 + 1 + (k - SRC_KIND),
                r => r,
            };
            (d as u16) << 8 | s as u16
        }));
    }
    assert!(
        flat.len() < u16::MAX as usize,
        "tagged DFA {name}: too many operations"
    );
    // Transitions packed for the hot loop: the next state in the low half,
    // the offset of its register writes in `OPS` in the high half (0: none).
    assert!(
        offset.iter().all(|&o| o < 1 << 16),
        "tagged DFA {name}: operation offsets need more than 16 bits"
    );
    let _ = writeln!(out, "static {name}_PACKED: [u32; {}] = [", t.op_at.len());
    let packed = t
        .dfa
        .trans
        .iter()
        .zip(&t.op_at)
        .map(|(&next, &o)| next | (offset[o as usize] as u32) << 16);
    list(out, packed, 16);
    out.push_str("];\n");
    let _ = writeln!(out, "static {name}_OPS: [u16; {}] = [", flat.len());
    list(out, flat.iter().map(|x| format!("{x:#06x}")), 16);
    out.push_str("];\n");
    // The same lists as code: one arm per list, keyed by its offset, each
    // write a store of a constant index (the position and host kinds as
    // values), so the hot loop runs no interpreter over `OPS`.
    let _ = writeln!(
        out,
        "#[allow(non_snake_case, clippy::single_match)]\n#[inline(always)]\nfn {name}_APPLY(o: u32, r: &mut [u32; REG_FILE], pos: u32) {{\n    match o {{"
    );
    for (l, &at) in t.op_lists.iter().zip(&offset) {
        if l.is_empty() {
            continue;
        }
        let mut arm = String::new();
        for &(d, s) in l {
            let v = match s {
                SRC_POS => "pos".to_string(),
                k if k >= SRC_KIND => format!("{}", k - SRC_KIND),
                r => format!("r[{r}]"),
            };
            let _ = write!(arm, " r[{d}] = {v};");
        }
        let _ = writeln!(out, "        {at} => {{{arm} }}");
    }
    out.push_str("        _ => {}\n    }\n}\n");
    let _ = writeln!(
        out,
        "static {name}_FINALS: [[u8; {SLOTS}]; {}] = [",
        t.finals.len()
    );
    for f in &t.finals {
        let f = f.map(|x| match x {
            FINAL_END => regs as u8,
            k if k >= FINAL_KIND => regs as u8 + 1 + (k - FINAL_KIND),
            r => r,
        });
        let _ = writeln!(out, "    {f:?},");
    }
    out.push_str("];\n");
    // The same rows as code: one arm per distinct row (its states joined),
    // every read at a constant index.
    let mut rows: Vec<([u8; SLOTS], Vec<usize>)> = Vec::new();
    for (s, f) in t.finals.iter().enumerate() {
        if !t.dfa.accept[s] {
            continue;
        }
        let f = f.map(|x| match x {
            FINAL_END => regs as u8,
            k if k >= FINAL_KIND => regs as u8 + 1 + (k - FINAL_KIND),
            r => r,
        });
        match rows.iter_mut().find(|(row, _)| *row == f) {
            Some((_, states)) => states.push(s),
            None => rows.push((f, vec![s])),
        }
    }
    let _ = writeln!(
        out,
        "#[allow(non_snake_case)]\nfn {name}_FINISH(s: usize, r: &[u32; REG_FILE]) -> Spans {{\n    match s {{"
    );
    for (row, states) in &rows {
        let states: Vec<String> = states.iter().map(|s| s.to_string()).collect();
        let slots: Vec<String> = row[..SLOTS - 1].iter().map(|k| format!("r[{k}]")).collect();
        let _ = writeln!(
            out,
            "        {} => Spans {{ slots: [{}], kind: r[{}] as u8 }},",
            states.join(" | "),
            slots.join(", "),
            row[SLOTS - 1]
        );
    }
    out.push_str("        _ => Spans::EMPTY,\n    }\n}\n");
    let _ = writeln!(
        out,
        "const _: () = assert!(tdfa_ok(&{name}_PACKED, &{name}_TRANS, &{name}_OPS, &{name}_FINALS, {}));",
        t.dfa.nclasses
    );
}

fn tdfa_value(name: &str, t: &Tdfa) -> String {
    format!(
        "Tdfa {{ dfa: {}, shift: {}, packed: &{name}_PACKED, ops: &{name}_OPS, apply: {name}_APPLY, finish: {name}_FINISH, finals: &{name}_FINALS }}",
        dfa_value(name, &t.dfa, false),
        t.dfa.nclasses.trailing_zeros()
    )
}

fn emit_program(out: &mut String, name: &str, p: &Program, pool: &Pool) {
    let _ = writeln!(out, "static {name}_OPS: [Op; {}] = [", p.ops.len());
    for (pc, op) in p.ops.iter().enumerate() {
        let (text, comment) = match op {
            Op::Leaf(l) => (format!("Op::Leaf({l})"), pool.leaf_names[*l].clone()),
            Op::Byte(s) => (format!("Op::Byte({s})"), format!("{:?}", pool.sets[*s])),
            Op::Split(t, l, r) => (format!("Op::Split({t}, {l}, {r})"), String::new()),
            Op::Jmp(t) => (format!("Op::Jmp({t})"), String::new()),
            Op::Save(s) => (
                format!("Op::Save({s})"),
                format!(
                    "{} {}",
                    COMPONENTS[*s as usize / 2],
                    if s % 2 == 0 { "start" } else { "end" }
                ),
            ),
            Op::Kind(k) => (
                format!("Op::Kind({k})"),
                super::ir::HOST_KINDS[*k as usize].to_string(),
            ),
            Op::Match => ("Op::Match".to_string(), String::new()),
        };
        if comment.is_empty() {
            let _ = writeln!(out, "    {text}, // {pc}");
        } else {
            let _ = writeln!(out, "    {text}, // {pc}: {comment}");
        }
    }
    out.push_str("];\n");
    let _ = writeln!(
        out,
        "const _: () = assert!(program_ok(&{name}_OPS, {}, {}, {}) && fits({}, {}));",
        pool.leaves.len(),
        pool.sets.len(),
        pool.firsts.len(),
        p.max_frames,
        p.max_trail
    );
}

pub fn emit(profiles: &[Compiled]) -> String {
    let mut out = String::new();
    out.push_str(
        "// @generated by urilex's build.rs (codegen/) from the grammars in abnf/. Do not edit.\n\
         // Regenerate with `cargo build`; refresh the reviewed copy in codegen/golden/ with\n\
         // `UPDATE_GOLDEN=1 cargo test --test codegen`.\n\n",
    );
    let progs = profiles
        .iter()
        .flat_map(|p| p.entries.iter().chain(&p.components))
        .flatten();
    let frames = progs
        .clone()
        .map(|(_, p, _)| p.max_frames)
        .max()
        .unwrap_or(0);
    let trail = progs.map(|(_, p, _)| p.max_trail).max().unwrap_or(0);
    let _ = writeln!(
        out,
        "/// Most backtracking frames any program needs.\npub(crate) const MAX_FRAMES: usize = {};",
        frames.max(1)
    );
    let _ = writeln!(out, "/// Most `Save`/`Kind` instructions on one path of any program.\npub(crate) const MAX_TRAIL: usize = {};", trail.max(1));
    let max_regs = profiles
        .iter()
        .flat_map(|p| p.entries.iter().chain(&p.components))
        .flatten()
        .filter_map(|(_, _, t)| t.as_ref().map(|t| t.nregs))
        .max()
        .unwrap_or(1);
    assert!(max_regs + 5 < super::tdfa::SRC_KIND as usize);
    let _ = writeln!(
        out,
        "/// Most registers any tagged DFA uses.\npub(crate) const MAX_REGS: usize = {};\n",
        max_regs
    );
    // The Profile enum.
    out.push_str(
        "/// A grammar that urilex parses with; one per `.abnf` file in `abnf/` that declares\n",
    );
    out.push_str("/// `;@ profile`.\n///\n/// ```\n/// use urilex::Profile;\n");
    out.push_str("/// assert_eq!(Profile::default(), Profile::Rfc3986);\n");
    out.push_str("/// assert_eq!(Profile::from_name(\"rfc2396bis-00\"), Some(Profile::Rfc2396bis00));\n/// ```\n");
    out.push_str("#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]\n#[non_exhaustive]\npub enum Profile {\n");
    for p in profiles {
        let _ = writeln!(
            out,
            "    /// {} (grammar `abnf/{}`).",
            p.spec.description, p.spec.file
        );
        if p.spec.is_default {
            out.push_str("    #[default]\n");
        }
        let _ = writeln!(out, "    {},", p.spec.variant);
    }
    out.push_str("}\n\n");
    out.push_str("impl Profile {\n    /// Every profile, in file-name order of their grammars.\n");
    let _ = writeln!(
        out,
        "    pub const ALL: &'static [Profile] = &[{}];\n",
        profiles
            .iter()
            .map(|p| format!("Profile::{}", p.spec.variant))
            .collect::<Vec<_>>()
            .join(", ")
    );
    out.push_str("    /// The name used on the command line.\n    pub const fn name(self) -> &'static str {\n        match self {\n");
    for p in profiles {
        let _ = writeln!(
            out,
            "            Profile::{} => {:?},",
            p.spec.variant, p.spec.cli_name
        );
    }
    out.push_str("        }\n    }\n\n    /// What the grammar is.\n    pub const fn description(self) -> &'static str {\n        match self {\n");
    for p in profiles {
        let _ = writeln!(
            out,
            "            Profile::{} => {:?},",
            p.spec.variant, p.spec.description
        );
    }
    out.push_str("        }\n    }\n\n    /// The profile with this command-line name.\n    pub fn from_name(name: &str) -> Option<Profile> {\n");
    out.push_str("        Profile::ALL.iter().copied().find(|p| p.name() == name)\n    }\n\n");
    out.push_str("    pub(crate) const fn resolution(self) -> crate::resolve::Algorithm {\n        match self {\n");
    for p in profiles {
        let _ = writeln!(
            out,
            "            Profile::{} => crate::resolve::Algorithm::{},",
            p.spec.variant,
            super::ir::RESOLUTIONS[p.spec.resolution].1
        );
    }
    out.push_str("        }\n    }\n\n");
    out.push_str(
        "    pub(crate) const fn tables(self) -> &'static ProfileTables {\n        match self {\n",
    );
    for (i, p) in profiles.iter().enumerate() {
        let _ = writeln!(out, "            Profile::{} => &P{i},", p.spec.variant);
    }
    out.push_str("        }\n    }\n}\n\n");

    for (i, p) in profiles.iter().enumerate() {
        let g = &p.spec.grammar;
        let _ = writeln!(
            out,
            "// ---- profile {} (abnf/{}) ----\n",
            p.spec.cli_name, p.spec.file
        );
        let _ = writeln!(out, "static P{i}_RULES: [&str; {}] = [", g.rules.len());
        list(&mut out, g.rules.iter().map(|r| format!("{:?}", r.name)), 6);
        out.push_str("];\n");
        let _ = writeln!(
            out,
            "static P{i}_SETS: [[u64; 4]; {}] = [",
            p.pool.sets.len()
        );
        for s in &p.pool.sets {
            let _ = writeln!(
                out,
                "    [{:#x}, {:#x}, {:#x}, {:#x}], // {:?}",
                s.0[0], s.0[1], s.0[2], s.0[3], s
            );
        }
        out.push_str("];\n");
        let _ = writeln!(
            out,
            "static P{i}_FIRSTS: [([u64; 4], bool); {}] = [",
            p.pool.firsts.len()
        );
        for (s, end) in &p.pool.firsts {
            let _ = writeln!(
                out,
                "    ([{:#x}, {:#x}, {:#x}, {:#x}], {end}), // {:?}",
                s.0[0], s.0[1], s.0[2], s.0[3], s
            );
        }
        out.push_str("];\n");
        for (l, d) in p.pool.leaves.iter().enumerate() {
            let _ = writeln!(out, "// leaf {l}: {}", p.pool.leaf_names[l]);
            emit_dfa(&mut out, &format!("P{i}_L{l}"), d, false, None);
        }
        let _ = writeln!(
            out,
            "static P{i}_LEAVES: [Dfa; {}] = [",
            p.pool.leaves.len()
        );
        for (l, d) in p.pool.leaves.iter().enumerate() {
            let _ = writeln!(out, "    {},", dfa_value(&format!("P{i}_L{l}"), d, false));
        }
        out.push_str("];\n");
        let emit_entries =
            |out: &mut String,
             prefix: &str,
             names: &[&str],
             items: &[Option<(Dfa, Program, Option<Tdfa>)>]| {
                for (k, item) in items.iter().enumerate() {
                    if let Some((d, prog, tdfa)) = item {
                        let _ = writeln!(out, "// {prefix} {}", names[k]);
                        let name = format!("P{i}_{prefix}{k}");
                        emit_dfa(out, &name, d, true, None);
                        emit_program(out, &name, prog, &p.pool);
                        if let Some(t) = tdfa {
                            emit_tdfa(out, &format!("{name}_T"), t, max_regs);
                        }
                    }
                }
            };
        emit_entries(&mut out, "E", &ENTRIES, &p.entries);
        emit_entries(&mut out, "C", &COMPONENTS, &p.components);
        // Bytes each component may hold literally: those that keep an
        // accepting state of its DFA where it is (percent-encoding's sets).
        let _ = writeln!(out, "static P{i}_LITERAL: [[u64; 4]; 8] = [");
        for item in &p.components {
            let mut set = [0u64; 4];
            if let Some((d, _, _)) = item {
                for st in 0..d.nstates() {
                    if !d.accept[st] || st == 0 {
                        continue;
                    }
                    for b in 0..=255u8 {
                        if b != b'%'
                            && d.trans[st * d.nclasses + d.classes[b as usize] as usize] as usize
                                == st
                        {
                            set[(b >> 6) as usize] |= 1 << (b & 63);
                        }
                    }
                }
            }
            let _ = writeln!(
                out,
                "    [{:#x}, {:#x}, {:#x}, {:#x}],",
                set[0], set[1], set[2], set[3]
            );
        }
        out.push_str("];\n");
        // The `;@ unreserved` rule's characters (percent-decoding may restore
        // them anywhere, RFC 3986 2.3 and 6.2.2.2).
        let mut unres = [0u64; 4];
        if let Some(r) = p.spec.unreserved {
            let d = super::dfa::build(&super::nfa::from_rules(g, None, &[r]), false);
            for b in 0..=255u8 {
                let t = d.next(super::dfa::START, b);
                if t != super::dfa::DEAD && d.accept[t as usize] {
                    unres[(b >> 6) as usize] |= 1 << (b & 63);
                }
            }
        }
        let _ = writeln!(
            out,
            "static P{i}_UNRESERVED: [u64; 4] = [{:#x}, {:#x}, {:#x}, {:#x}];",
            unres[0], unres[1], unres[2], unres[3]
        );
        // The grammar's own name for an entry or a component, for errors.
        let rule_names = |prefix: &str, k: usize| -> String {
            let rules: Vec<usize> = if prefix == "E" {
                p.spec.entries[k].into_iter().collect()
            } else {
                p.spec.components[k].clone()
            };
            rules
                .iter()
                .map(|&r| g.rules[r].name.as_str())
                .collect::<Vec<_>>()
                .join(" / ")
        };
        let entry_list = |prefix: &str, items: &[Option<(Dfa, Program, Option<Tdfa>)>]| -> String {
            items
                .iter()
                .enumerate()
                .map(|(k, item)| match item {
                    Some((d, _, t)) => format!(
                        "Some(Entry {{ dfa: {}, ops: &P{i}_{prefix}{k}_OPS, tdfa: {}, line_ends: {}, rule: {:?} }})",
                        dfa_value(&format!("P{i}_{prefix}{k}"), d, true),
                        match t {
                            Some(t) => format!("Some({})", tdfa_value(&format!("P{i}_{prefix}{k}_T"), t)),
                            None => "None".to_string(),
                        },
                        d.stops_at_line_ends() && t.as_ref().map_or(true, |t| t.dfa.stops_at_line_ends()),
                        rule_names(prefix, k)
                    ),
                    None => "None".to_string(),
                })
                .collect::<Vec<_>>()
                .join(",\n        ")
        };
        let _ = writeln!(
            out,
            "static P{i}: ProfileTables = ProfileTables {{\n    rules: &P{i}_RULES,\n    literal: &P{i}_LITERAL,\n    unreserved: &P{i}_UNRESERVED,\n    sets: &P{i}_SETS,\n    firsts: &P{i}_FIRSTS,\n    leaves: &P{i}_LEAVES,\n    entries: [\n        {},\n    ],\n    components: [\n        {},\n    ],\n}};\n",
            entry_list("E", &p.entries),
            entry_list("C", &p.components)
        );
    }
    out
}
