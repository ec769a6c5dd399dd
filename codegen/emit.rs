//! Stage 6: Rust source for the tables, deterministic byte for byte.

use super::bitprog;
use super::dfa::Dfa;
use super::fastemit;
use super::ir::ProfileSpec;
use super::program::{Op, Pool, Program};
use super::tdfa::{Tdfa, FINAL_END, FINAL_KIND, SRC_KIND, SRC_POS};
use std::fmt::Write;

use super::ranges::ranges_of;

pub type Built = (Dfa, Program, Option<Tdfa>);

pub struct Compiled {
    pub spec: ProfileSpec,
    pub pool: Pool,
    /// Per entry the profile declares, in order: its name and automata.
    pub entries: Vec<(String, Built)>,
    /// Per `;@ scheme`: the scheme and the automata of its rule.
    pub schemes: Vec<(String, Built)>,
    /// Per part index of the layout (`None` for unused and hidden ones).
    pub parts: Vec<Option<Built>>,
    /// Per region rule: the rule, the part holding its span, its program.
    pub regions: Vec<(usize, usize, Program)>,
}

impl Compiled {
    fn all(&self) -> impl Iterator<Item = &Built> {
        self.entries
            .iter()
            .map(|(_, b)| b)
            .chain(self.schemes.iter().map(|(_, b)| b))
            .chain(self.parts.iter().flatten())
    }
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
    let plain = |i: usize| ops.is_none_or(|o| o[i] == 0);
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
/// holds the input's length (`regs`), kinds 0 to `kinds - 1` (`regs + 1 +
/// k`) and the current position (`regs + 1 + kinds`), so that every
/// operation is a plain copy and every final slot one read. `max_slots` is
/// the runtime's span slots (`MAX_SLOTS`).
#[allow(clippy::too_many_arguments)]
fn emit_tdfa(
    out: &mut String,
    name: &str,
    t: &Tdfa,
    regs: usize,
    kinds: usize,
    max_slots: usize,
    fixed: u8,
) {
    let pos_reg = regs + 1 + kinds;
    let nslots = t.nslots;
    emit_dfa(out, name, &t.dfa, false, Some(&t.op_at));
    // Operation lists flattened: a count, then `dst << 8 | src` per write.
    let mut flat: Vec<u16> = Vec::new();
    let mut offset = Vec::new();
    for l in &t.op_lists {
        offset.push(flat.len());
        flat.push(l.len() as u16);
        flat.extend(l.iter().map(|&(d, s)| {
            let s = match s {
                SRC_POS => pos_reg as u8,
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
        "#[allow(non_snake_case, unused_variables, clippy::single_match, clippy::match_single_binding)]\n#[inline(always)]\nfn {name}_APPLY(o: u32, r: &mut [u32; REG_FILE], pos: u32) {{\n    match o {{"
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
        "static {name}_FINALS: [u8; {}] = [",
        t.finals.len() * nslots
    );
    let fix = |f: &Vec<u8>| -> Vec<u8> {
        f.iter()
            .map(|&x| match x {
                FINAL_END => regs as u8,
                k if k >= FINAL_KIND => regs as u8 + 1 + (k - FINAL_KIND),
                r => r,
            })
            .collect()
    };
    for f in &t.finals {
        let f = fix(f);
        let f: Vec<String> = f.iter().map(|x| x.to_string()).collect();
        let _ = writeln!(out, "    {},", f.join(", "));
    }
    out.push_str("];\n");
    // The same rows as code: one arm per distinct row (its states joined),
    // every read at a constant index.
    let mut rows: Vec<(Vec<u8>, Vec<usize>)> = Vec::new();
    for (s, f) in t.finals.iter().enumerate() {
        if !t.dfa.accept[s] {
            continue;
        }
        let f = fix(f);
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
        let mut slots: Vec<String> = row[..nslots - 1]
            .iter()
            .map(|k| format!("r[{k}]"))
            .collect();
        slots.resize(max_slots, "NONE".to_string());
        let _ = writeln!(
            out,
            "        {} => Spans {{ slots: [{}], kind: r[{}] as u8, source: 0, fixed: {fixed:#04x} }},",
            states.join(" | "),
            slots.join(", "),
            row[nslots - 1]
        );
    }
    out.push_str("        _ => Spans::EMPTY,\n    }\n}\n");
    let _ = writeln!(
        out,
        "const _: () = assert!(tdfa_ok(&{name}_PACKED, &{name}_TRANS, &{name}_OPS, &{name}_FINALS, {}));",
        t.dfa.nclasses
    );
    let _ = nslots;
}

fn tdfa_value(name: &str, t: &Tdfa) -> String {
    format!(
        "Tdfa {{ dfa: {}, shift: {}, packed: &{name}_PACKED, ops: &{name}_OPS, apply: {name}_APPLY, finish: {name}_FINISH, finals: &{name}_FINALS, nslots: {} }}",
        dfa_value(name, &t.dfa, false),
        t.dfa.nclasses.trailing_zeros(),
        t.nslots
    )
}

fn emit_program(out: &mut String, name: &str, p: &Program, pool: &Pool, spec: &ProfileSpec) {
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
                    spec.parts
                        .iter()
                        .filter(|p| p.slot == *s as usize / 2)
                        .map(|p| p.name.as_str())
                        .collect::<Vec<_>>()
                        .join("/"),
                    if s % 2 == 0 { "start" } else { "end" }
                ),
            ),
            Op::Kind(k) => (
                format!("Op::Kind({k})"),
                spec.kinds[*k as usize].name.clone(),
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
    let loops = p
        .ops
        .iter()
        .enumerate()
        .any(|(pc, op)| matches!(op, Op::Jmp(t) if *t <= pc));
    let _ = writeln!(
        out,
        "const _: () = assert!(program_ok(&{name}_OPS, {}, {}, {}, {loops}) && fits({}, {}));",
        pool.leaves.len(),
        pool.sets.len(),
        pool.firsts.len(),
        p.max_frames,
        p.max_trail
    );
}

/// The entry names of all profiles: the default profile's in its order,
/// then the others' new ones (the runtime's `Syntax`).
fn syntaxes(profiles: &[Compiled]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let order = profiles
        .iter()
        .filter(|p| p.spec.is_default)
        .chain(profiles.iter().filter(|p| !p.spec.is_default));
    for p in order {
        for (n, _) in &p.entries {
            if !names.contains(n) {
                names.push(n.clone());
            }
        }
    }
    names
}

/// A public enum generated from the grammar: one variant per name.
fn emit_enum(
    out: &mut String,
    name: &str,
    doc: &str,
    derive_default: bool,
    items: &[(String, String, String)],
) {
    out.push_str(doc);
    let _ = writeln!(
        out,
        "#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord{})]",
        if derive_default { ", Default" } else { "" }
    );
    out.push_str("#[non_exhaustive]\n");
    let _ = writeln!(out, "pub enum {name} {{");
    for (i, (variant, _, vdoc)) in items.iter().enumerate() {
        let _ = writeln!(out, "    /// {vdoc}");
        if derive_default && i == 0 {
            out.push_str("    #[default]\n");
        }
        let _ = writeln!(out, "    {variant} = {i},");
    }
    out.push_str("}\n\n");
    let _ = writeln!(out, "impl {name} {{");
    let _ = writeln!(out, "    /// Every variant, in the grammar's order.");
    let _ = writeln!(
        out,
        "    pub const ALL: [{name}; {}] = [{}];\n",
        items.len(),
        items
            .iter()
            .map(|(v, _, _)| format!("{name}::{v}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let _ = writeln!(out, "    /// The name the grammar gives it.\n    pub const fn as_str(self) -> &'static str {{\n        match self {{");
    for (v, n, _) in items {
        let _ = writeln!(out, "            {name}::{v} => {n:?},");
    }
    out.push_str("        }\n    }\n\n");
    let _ = writeln!(
        out,
        "    /// The variant with this name (ASCII case ignored).\n    pub fn from_name(name: &str) -> Option<{name}> {{\n        {name}::ALL.iter().copied().find(|x| x.as_str().eq_ignore_ascii_case(name))\n    }}\n"
    );
    let _ = writeln!(
        out,
        "    #[allow(dead_code)]\n    pub(crate) const fn from_index(i: u8) -> Option<{name}> {{\n        if (i as usize) < {name}::ALL.len() {{ Some({name}::ALL[i as usize]) }} else {{ None }}\n    }}\n}}\n"
    );
}

/// The cargo feature that compiles a profile: its command-line name, or
/// none for the default profile, which is always compiled.
pub fn feature(p: &Compiled) -> Option<&str> {
    (!p.spec.is_default).then_some(p.spec.cli_name.as_str())
}

/// `#[cfg(feature = "...")]` and `indent` before an item of a profile that a
/// feature brings, nothing for the default profile.
fn gate(p: &Compiled, indent: &str) -> String {
    feature(p).map_or(String::new(), |f| {
        format!("#[cfg(feature = {f:?})]\n{indent}")
    })
}

/// The file of a profile's tables beside `tables.rs`.
pub fn profile_file(p: &Compiled) -> String {
    format!("profile_{}.rs", p.spec.cli_name.replace('-', "_"))
}

/// The generated files: `tables.rs` (what every profile shares, the
/// `Profile` enum, and an `include!` of each profile's file behind its
/// feature) and one file per profile, as (name, text) in a fixed order.
pub fn emit(profiles: &[Compiled]) -> Vec<(String, String)> {
    let mut out = String::new();
    out.push_str(
        "// @generated by urilex's build.rs (codegen/) from the grammars in abnf/. Do not edit.\n\
         // Regenerate with `cargo build`; refresh the reviewed copy in codegen/golden/ with\n\
         // `UPDATE_GOLDEN=1 cargo test --test codegen`.\n\n",
    );
    {
        // Its inner docs become comments: the module's doc is the line above.
        let text = include_str!("escape.rs")
            .replace("//! ", "// ")
            .replace("//!", "//");
        let _ = writeln!(
            out,
            "/// `codegen/escape.rs`, shared by the generator and the runtime.\n#[allow(dead_code)]\npub(crate) mod escape {{\n{text}}}\n"
        );
    }
    let built = || profiles.iter().flat_map(|p| p.all());
    let frames = built().map(|(_, p, _)| p.max_frames).max().unwrap_or(0);
    let trail = built().map(|(_, p, _)| p.max_trail).max().unwrap_or(0);
    let _ = writeln!(
        out,
        "/// Most backtracking frames any program needs.\npub(crate) const MAX_FRAMES: usize = {};",
        frames.max(1)
    );
    let _ = writeln!(out, "/// Most `Save`/`Kind` instructions on one path of any program.\npub(crate) const MAX_TRAIL: usize = {};", trail.max(1));
    let max_regs = built()
        .filter_map(|(_, _, t)| t.as_ref().map(|t| t.nregs))
        .max()
        .unwrap_or(1);
    let max_kinds = profiles
        .iter()
        .map(|p| p.spec.kinds.len())
        .max()
        .unwrap_or(0)
        .max(1);
    let max_slots = profiles
        .iter()
        .map(|p| 2 * p.spec.npairs())
        .max()
        .unwrap_or(0)
        .max(2);
    assert!(max_regs + 1 + max_kinds < SRC_KIND as usize);
    assert!(max_kinds < (FINAL_END - FINAL_KIND) as usize);
    let _ = writeln!(
        out,
        "/// Most registers any tagged DFA uses.\npub(crate) const MAX_REGS: usize = {max_regs};"
    );
    let _ = writeln!(
        out,
        "/// Most kinds any profile gives its classified part.\npub(crate) const MAX_KINDS: usize = {max_kinds};"
    );
    let _ = writeln!(
        out,
        "/// Span slots of the profile with the most: two per slot pair.\npub(crate) const MAX_SLOTS: usize = {max_slots};"
    );
    let def = profiles.iter().find(|p| p.spec.is_default);
    let def_slots = def.map_or(0, |p| 2 * p.spec.nparts());
    let _ = writeln!(
        out,
        "/// Span slots of the default profile's parts (the typed `Component`s).\npub(crate) const DEFAULT_SLOTS: usize = {def_slots};\n"
    );

    // Syntax: the entry points.
    let syn = syntaxes(profiles);
    let items: Vec<(String, String, String)> = syn
        .iter()
        .map(|n| {
            let rules: Vec<String> = profiles
                .iter()
                .filter_map(|p| {
                    let (_, r) = p.spec.entries.iter().find(|(e, _)| e == n)?;
                    Some(format!(
                        "`{}` ({})",
                        p.spec.grammar.rules[*r].name, p.spec.cli_name
                    ))
                })
                .collect();
            (
                super::ir::camel(n),
                n.clone(),
                format!("Entry `{n}`: {}.", rules.join(", ")),
            )
        })
        .collect();
    emit_enum(
        &mut out,
        "Syntax",
        "/// Which rule of a profile the whole input must match: the entry points\n/// the grammars declare with `;@ entry`. The first is the default.\n///\n/// ```\n/// assert_eq!(urilex::Syntax::default().as_str(), \"reference\");\n/// ```\n",
        true,
        &items,
    );
    let _ = writeln!(
        out,
        "/// Number of entry points.\npub(crate) const SYNTAXES: usize = {};\n",
        syn.len()
    );

    // Component and HostKind: the default profile's parts and kinds.
    if let Some(def) = def {
        let g = &def.spec.grammar;
        let items: Vec<(String, String, String)> = def
            .spec
            .parts
            .iter()
            .filter(|p| !p.hidden)
            .map(|p| {
                let rules: Vec<&str> = p.rules.iter().map(|&r| g.rules[r].name.as_str()).collect();
                (
                    p.variant.clone(),
                    p.name.clone(),
                    format!(
                        "`{}`: rule {} of `abnf/{}`.",
                        p.name,
                        rules.join(" / "),
                        def.spec.file
                    ),
                )
            })
            .collect();
        emit_enum(
            &mut out,
            "Component",
            "/// The parts of the default grammar, as a typed view: every profile keeps\n/// them at the same index. Other parts a profile declares are read by name\n/// (`UriRef::part`).\n///\n/// ```\n/// assert_eq!(urilex::Component::Userinfo.as_str(), \"userinfo\");\n/// ```\n",
            false,
            &items,
        );
        let kind_part = def.spec.kind_part.and_then(|k| def.spec.part_at(k));
        let items: Vec<(String, String, String)> = def
            .spec
            .kinds
            .iter()
            .enumerate()
            .map(|(k, kind)| {
                let rules: Vec<&str> = def
                    .spec
                    .kind_rules
                    .iter()
                    .filter(|(_, kk)| *kk == k)
                    .map(|(r, _)| g.rules[*r].name.as_str())
                    .collect();
                (
                    kind.variant.clone(),
                    kind.name.clone(),
                    format!("`{}`: the part matched {}.", kind.name, rules.join(" or ")),
                )
            })
            .collect();
        emit_enum(
            &mut out,
            "HostKind",
            &format!(
                "/// What kind of `{}` a reference has, as the default grammar's `;@ kind`\n/// directives classify it.\n///\n/// ```\n/// assert_eq!(urilex::HostKind::RegName.as_str(), \"reg-name\");\n/// ```\n",
                kind_part.map_or("", |p| p.name.as_str())
            ),
            false,
            &items,
        );
        let _ = writeln!(
            out,
            "/// The part the default profile classifies (`HostKind`).\npub(crate) const KIND_COMPONENT: Component = Component::{};\n",
            kind_part.map_or("Host", |p| p.variant.as_str())
        );
    }

    // The Profile enum.
    out.push_str(
        "/// A grammar that urilex parses with; one per `.abnf` file in `abnf/` that declares\n",
    );
    out.push_str("/// `;@ profile`.\n///\n/// ```\n/// use urilex::Profile;\n");
    out.push_str("/// assert_eq!(Profile::default(), Profile::Rfc3986);\n");
    out.push_str("/// assert_eq!(Profile::from_name(\"rfc3986\"), Some(Profile::Rfc3986));\n/// assert!(Profile::ALL.contains(&Profile::Rfc3986));\n/// ```\n");
    out.push_str("#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]\n#[non_exhaustive]\npub enum Profile {\n");
    for p in profiles {
        let _ = writeln!(
            out,
            "    /// {} (grammar `abnf/{}`{}).",
            p.spec.description,
            p.spec.file,
            feature(p).map_or(String::from(", always compiled"), |f| format!(
                ", cargo feature `{f}`"
            ))
        );
        if p.spec.is_default {
            out.push_str("    #[default]\n");
        }
        let _ = writeln!(out, "    {}{},", gate(p, "    "), p.spec.variant);
    }
    out.push_str("}\n\n");
    let _ = writeln!(
        out,
        "/// Every profile the grammars define, compiled or not: its name and the\n/// cargo feature that brings it (empty for the default, always compiled).\npub(crate) const DEFINED: &[(&str, &str)] = &[{}];\n",
        profiles
            .iter()
            .map(|p| format!("({:?}, {:?})", p.spec.cli_name, feature(p).unwrap_or("")))
            .collect::<Vec<_>>()
            .join(", ")
    );
    out.push_str("impl Profile {\n    /// Every profile this build compiled, in file-name order of their grammars.\n");
    let _ = writeln!(
        out,
        "    pub const ALL: &'static [Profile] = &[{}];\n",
        profiles
            .iter()
            .map(|p| format!(
                "{}Profile::{}",
                gate(p, "").replace('\n', " "),
                p.spec.variant
            ))
            .collect::<Vec<_>>()
            .join(", ")
    );
    out.push_str("    /// The name used on the command line.\n    pub const fn name(self) -> &'static str {\n        match self {\n");
    for p in profiles {
        let _ = writeln!(
            out,
            "            {}Profile::{} => {:?},",
            gate(p, "            "),
            p.spec.variant,
            p.spec.cli_name
        );
    }
    out.push_str("        }\n    }\n\n    /// What the grammar is.\n    pub const fn description(self) -> &'static str {\n        match self {\n");
    for p in profiles {
        let _ = writeln!(
            out,
            "            {}Profile::{} => {:?},",
            gate(p, "            "),
            p.spec.variant,
            p.spec.description
        );
    }
    out.push_str("        }\n    }\n\n    /// The profile with this command-line name.\n    pub fn from_name(name: &str) -> Option<Profile> {\n");
    out.push_str("        Profile::ALL.iter().copied().find(|p| p.name() == name)\n    }\n\n");
    out.push_str("    pub(crate) const fn resolution(self) -> Algorithm {\n        match self {\n");
    for p in profiles {
        let _ = writeln!(
            out,
            "            {}Profile::{} => Algorithm::{},",
            gate(p, "            "),
            p.spec.variant,
            p.spec.resolution
        );
    }
    out.push_str("        }\n    }\n\n");
    for (what, f, kind, doc) in [
        (
            "LINES",
            "fast_loop",
            "FastLoop",
            "the batch variant of its fast path",
        ),
        ("COUNT", "count_loop", "CountLoop", "its spanless fast path"),
    ] {
        let _ = writeln!(
            out,
            "    /// `v` run with {doc}, for the entry at `syntax` of a profile that\n    /// does not choose its rule by the scheme; `None` for an entry without one.\n    #[inline]\n    pub(crate) fn {f}<V: {kind}>(self, syntax: Syntax, v: V) -> Option<V::Out> {{\n        match self {{"
        );
        for (i, p) in profiles.iter().enumerate() {
            let _ = writeln!(
                out,
                "            {}Profile::{} => P{i}_{what}(syntax as usize, v),",
                gate(p, "            "),
                p.spec.variant
            );
        }
        out.push_str("        }\n    }\n\n");
    }
    out.push_str(
        "    pub(crate) const fn tables(self) -> &'static ProfileTables {\n        match self {\n",
    );
    for (i, p) in profiles.iter().enumerate() {
        let _ = writeln!(
            out,
            "            {}Profile::{} => &P{i},",
            gate(p, "            "),
            p.spec.variant
        );
    }
    out.push_str("        }\n    }\n}\n\n");

    let mut files = Vec::new();
    for (i, p) in profiles.iter().enumerate() {
        let name = profile_file(p);
        let _ = writeln!(
            out,
            "{}include!(concat!(env!(\"OUT_DIR\"), \"/{name}\"));",
            gate(p, "")
        );
        let mut text = String::from(
            "// @generated by urilex's build.rs (codegen/) from the grammars in abnf/. Do not edit.\n\n",
        );
        emit_profile(&mut text, i, p, &syn, max_regs, max_kinds, max_slots);
        files.push((name, text));
    }
    files.insert(0, (String::from("tables.rs"), out));
    // The kernels' file (`src/scan/` includes it; they know nothing else of
    // the crate).
    files.push((
        String::from("ranges.rs"),
        format!(
            "// @generated by urilex's build.rs: a copy of codegen/ranges.rs, shared by the\n// generator and the SSE2 kernel. Do not edit.\n\n{}",
            include_str!("ranges.rs").replace("//! ", "// ").replace("//!", "//")
        ),
    ));
    files
}

fn set_words(s: &[u64; 4]) -> String {
    format!("[{:#x}, {:#x}, {:#x}, {:#x}]", s[0], s[1], s[2], s[3])
}

fn emit_profile(
    out: &mut String,
    i: usize,
    p: &Compiled,
    syn: &[String],
    max_regs: usize,
    max_kinds: usize,
    max_slots: usize,
) {
    let g = &p.spec.grammar;
    let _ = writeln!(
        out,
        "// ---- profile {} (abnf/{}) ----\n",
        p.spec.cli_name, p.spec.file
    );
    let _ = writeln!(out, "static P{i}_RULES: [&str; {}] = [", g.rules.len());
    list(out, g.rules.iter().map(|r| format!("{:?}", r.name)), 6);
    out.push_str("];\n");
    let _ = writeln!(
        out,
        "static P{i}_SETS: [[u64; 4]; {}] = [",
        p.pool.sets.len()
    );
    for s in &p.pool.sets {
        let _ = writeln!(out, "    {}, // {:?}", set_words(&s.0), s);
    }
    out.push_str("];\n");
    let _ = writeln!(
        out,
        "static P{i}_FIRSTS: [([u64; 4], bool); {}] = [",
        p.pool.firsts.len()
    );
    for (s, end) in &p.pool.firsts {
        let _ = writeln!(out, "    ({}, {end}), // {:?}", set_words(&s.0), s);
    }
    out.push_str("];\n");
    for (l, d) in p.pool.leaves.iter().enumerate() {
        let _ = writeln!(out, "// leaf {l}: {}", p.pool.leaf_names[l]);
        emit_dfa(out, &format!("P{i}_L{l}"), d, false, None);
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
    // The fast path's run sets (then the line end) and each leaf state's.
    let runs = bitprog::runs(&p.pool);
    let _ = writeln!(
        out,
        "static P{i}_RUNS: [[u8; 16]; {}] = [",
        runs.sets.len() + 1
    );
    for s in runs
        .sets
        .iter()
        .chain(std::iter::once(&super::abnf::ByteSet::single(b'\n')))
    {
        let _ = writeln!(out, "    {:?}, // {:?}", bitprog::lo_table(s), s);
    }
    out.push_str("];\n");
    // Each leaf as it is (one input, a token), and where the profile has
    // run sets that go on through escapes, as a batch runs it (`E`: its
    // bitmaps are folded, see `bitprog::escape_loop`).
    let batch = if runs.escapes != 0 { "E" } else { "" };
    for (l, r) in runs.leaf_runs.iter().enumerate() {
        fastemit::emit_leaf(out, i, l, &p.pool.leaves[l], r, "");
        if batch.is_empty() {
            continue;
        }
        match bitprog::fold_escapes(&p.pool.leaves[l], r, runs.escapes) {
            Some(d) => fastemit::emit_leaf(out, i, l, &d, r, batch),
            // No state of it goes on through escapes: the batch's is the
            // same leaf.
            None => {
                let _ = writeln!(
                    out,
                    "#[allow(non_snake_case, dead_code)]\n#[inline(always)]\nfn P{i}_L{l}_LEAF{batch}(l: &Line, i: usize) -> Option<usize> {{\n    P{i}_L{l}_LEAF(l, i)\n}}"
                );
            }
        }
    }
    let _ = writeln!(
        out,
        "/// The run sets whose runs go on through escapes.\nconst P{i}_ESCAPES: u16 = {:#x};",
        runs.escapes
    );
    // Each automaton, then its value as an `Entry`.
    let entry = |out: &mut String,
                 name: String,
                 what: String,
                 rule: String,
                 b: &Built,
                 with_fast: bool,
                 loops: bool|
     -> String {
        let (d, prog, tdfa) = b;
        let _ = writeln!(out, "// {what}");
        emit_dfa(out, &name, d, true, None);
        emit_program(out, &name, prog, &p.pool, &p.spec);
        let fast = (with_fast && bitprog::eligible(prog)).then(|| {
            let at = out.len();
            let rules = bitprog::decide(prog, &p.pool);
            let fixed = Some(p.spec.fixed_mask());
            let report = fastemit::emit_fast(out, &name, prog, &p.pool, i, &rules, (fixed, ""));
            fastemit::emit_fast(out, &name, prog, &p.pool, i, &rules, (None, ""));
            // The batch's variants (`E`) and loop, for an entry that parses
            // lines on its own (no rule chosen by the scheme).
            let rec = if loops { batch } else { "" };
            if !rec.is_empty() {
                fastemit::emit_fast(out, &name, prog, &p.pool, i, &rules, (fixed, rec));
                fastemit::emit_fast(out, &name, prog, &p.pool, i, &rules, (None, rec));
            }
            let mut head = format!("// fast path of {what}:");
            for (pc, rule) in &report {
                let _ = write!(head, " split {pc} {rule},");
            }
            head.pop();
            head.push('\n');
            out.insert_str(at, &head);
            // `validate_lines`' loop with its own instance of the spanless
            // fast path inlined (`Entry::count`), and the line loop with
            // the batch variant inlined, generic over the caller's sink
            // (`Profile::fast_lines`; the batch's records).
            if loops {
                let _ = writeln!(
                    out,
                    "#[allow(non_snake_case, clippy::redundant_closure)]\n#[inline(never)]\nfn {name}_COUNT<V: CountLoop>(v: V) -> V::Out {{\n    v.run(&P{i}, #[inline(always)] |l| {name}_VALID{rec}(l))\n}}"
                );
                let _ = writeln!(
                    out,
                    "#[allow(non_snake_case, clippy::redundant_closure)]\n#[inline(never)]\nfn {name}_LINES<V: FastLoop>(v: V) -> V::Out {{\n    v.run(&P{i}, #[inline(always)] |l, s| {name}_FAST{rec}::<V::Spans>(l, s))\n}}"
                );
            }
            (
                format!("Some({name}_FAST::<Spans>)"),
                format!("Some({name}_VALID)"),
                format!("Some({name}_FAST{rec}::<Spans>)"),
            )
        });
        if let Some(t) = tdfa {
            emit_tdfa(
                out,
                &format!("{name}_T"),
                t,
                max_regs,
                max_kinds,
                max_slots,
                p.spec.fixed_mask(),
            );
        }
        format!(
            "Entry {{ dfa: {}, ops: &{name}_OPS, exact: {}, fast: {}, valid: {}, batch: {}, tdfa: {}, line_ends: {}, rule: {:?} }}",
            dfa_value(&name, d, true),
            prog.exact,
            fast.as_ref().map_or("None", |f| f.0.as_str()),
            fast.as_ref().map_or("None", |f| f.1.as_str()),
            fast.as_ref().map_or("None", |f| f.2.as_str()),
            match tdfa {
                Some(_) => format!(
                    "Some({})",
                    tdfa_value(&format!("{name}_T"), tdfa.as_ref().unwrap())
                ),
                None => "None".to_string(),
            },
            d.stops_at_line_ends() && tdfa.as_ref().is_none_or(|t| t.dfa.stops_at_line_ends()),
            rule
        )
    };
    let mut entries = vec!["None".to_string(); syn.len()];
    for (k, (n, b)) in p.entries.iter().enumerate() {
        let r = p.spec.entries[k].1;
        let at = syn
            .iter()
            .position(|s| s == n)
            .expect("entry in the syntax list");
        entries[at] = format!(
            "Some({})",
            entry(
                out,
                format!("P{i}_E{k}"),
                format!("entry {n}"),
                g.rules[r].name.clone(),
                b,
                true,
                p.schemes.is_empty()
            )
        );
    }
    // The line loops by syntax (the entries' index in `P{i}.entries`).
    let loops: Vec<(usize, usize)> = p
        .entries
        .iter()
        .enumerate()
        .filter(|(k, _)| out.contains(&format!("fn P{i}_E{k}_LINES<")))
        .map(|(k, (n, _))| (syn.iter().position(|s| s == n).expect("entry"), k))
        .collect();
    for (what, kind, doc) in [
        ("LINES", "FastLoop", "batch fast path"),
        ("COUNT", "CountLoop", "spanless fast path"),
    ] {
        let _ = writeln!(
            out,
            "/// `v` run with the {doc} of the entry at `syntax`; `None` when it has none.\n#[allow(non_snake_case)]\n#[inline]"
        );
        if loops.is_empty() {
            let _ = writeln!(out, "fn P{i}_{what}<V: {kind}>(_syntax: usize, _v: V) -> Option<V::Out> {{\n    None\n}}");
        } else {
            let _ = writeln!(
                out,
                "fn P{i}_{what}<V: {kind}>(syntax: usize, v: V) -> Option<V::Out> {{\n    Some(match syntax {{"
            );
            for (at, k) in &loops {
                let _ = writeln!(out, "        {at} => P{i}_E{k}_{what}(v),");
            }
            out.push_str("        _ => return None,\n    })\n}\n");
        }
    }
    let mut schemes = Vec::new();
    for (k, (n, b)) in p.schemes.iter().enumerate() {
        let r = p.spec.schemes[k].1;
        let e = entry(
            out,
            format!("P{i}_S{k}"),
            format!("scheme {n}"),
            g.rules[r].name.clone(),
            b,
            true,
            false,
        );
        schemes.push(format!("({n:?}, {e})"));
    }
    let mut parts = Vec::new();
    for (k, b) in p.parts.iter().enumerate() {
        parts.push(match (b, p.spec.part_at(k)) {
            (Some(b), Some(part)) => {
                let rules: Vec<&str> = part
                    .rules
                    .iter()
                    .map(|&r| g.rules[r].name.as_str())
                    .collect();
                format!(
                    "Some({})",
                    entry(
                        out,
                        format!("P{i}_C{k}"),
                        format!("part {}", part.name),
                        rules.join(" / "),
                        b,
                        false,
                        false
                    )
                )
            }
            _ => "None".to_string(),
        });
    }
    // Bytes each part may hold literally: those that keep an accepting
    // state of its DFA where it is (percent-encoding's sets).
    let _ = writeln!(
        out,
        "static P{i}_LITERAL: [[u64; 4]; {}] = [",
        p.parts.len()
    );
    for item in &p.parts {
        let mut set = [0u64; 4];
        if let Some((d, _, _)) = item {
            for st in 0..d.nstates() {
                if !d.accept[st] || st == 0 {
                    continue;
                }
                for b in 0..=255u8 {
                    if b != b'%'
                        && d.trans[st * d.nclasses + d.classes[b as usize] as usize] as usize == st
                    {
                        set[(b >> 6) as usize] |= 1 << (b & 63);
                    }
                }
            }
        }
        let _ = writeln!(out, "    {},", set_words(&set));
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
        "static P{i}_UNRESERVED: [u64; 4] = {};",
        set_words(&unres)
    );
    // Every byte some reference of the profile may hold: those with a live
    // transition from a live state of an entry's DFA.
    let mut bytes = [0u64; 4];
    for (_, (d, _, _)) in p.entries.iter().chain(&p.schemes) {
        for st in 1..d.nstates() {
            for b in 0..=255u8 {
                if d.trans[st * d.nclasses + d.classes[b as usize] as usize] != super::dfa::DEAD {
                    bytes[(b >> 6) as usize] |= 1 << (b & 63);
                }
            }
        }
    }
    let _ = writeln!(out, "static P{i}_BYTES: [u64; 4] = {};", set_words(&bytes));
    // Regions: the programs that list repeated parts.
    let mut regions = Vec::new();
    for (k, (rule, slot, prog)) in p.regions.iter().enumerate() {
        let name = format!("P{i}_R{k}");
        let _ = writeln!(out, "// region {}", g.rules[*rule].name);
        emit_program(out, &name, prog, &p.pool, &p.spec);
        let slot = p.spec.part_at(*slot).map_or(*slot, |x| x.slot);
        regions.push(format!("Region {{ slot: {slot}, ops: &{name}_OPS }}"));
    }
    // The layout: every part index, named ("" where the profile has none).
    let infos: Vec<String> = (0..p.spec.nparts())
        .map(|k| match p.spec.part_at(k) {
            Some(part) => format!(
                "PartInfo {{ name: {:?}, index: {k}, slot: {}, sources: {:#x}, repeated: {}, hidden: {}, region: {} }}",
                part.name,
                part.slot,
                part.sources,
                part.repeated,
                part.hidden,
                part.region
                    .and_then(|(_, r)| p.regions.iter().position(|(x, _, _)| *x == r))
                    .map_or(u8::MAX as usize, |x| x)
            ),
            None => format!(
                "PartInfo {{ name: \"\", index: {k}, slot: {k}, sources: 0, repeated: false, hidden: true, region: 255 }}"
            ),
        })
        .collect();
    let _ = writeln!(out, "static P{i}_PARTS: [PartInfo; {}] = [", infos.len());
    list(out, infos, 1);
    out.push_str("];\n");
    let kinds: Vec<String> = p
        .spec
        .kinds
        .iter()
        .map(|k| format!("{:?}", k.name))
        .collect();
    let fixed = p.spec.fixed_mask();
    let _ = writeln!(
        out,
        "static P{i}: ProfileTables = ProfileTables {{\n    fixed: {fixed:#04x},\n    rules: &P{i}_RULES,\n    parts: &P{i}_PARTS,\n    kind_part: {},\n    kinds: &[{}],\n    literal: &P{i}_LITERAL,\n    unreserved: &P{i}_UNRESERVED,\n    bytes: &P{i}_BYTES,\n    sets: &P{i}_SETS,\n    firsts: &P{i}_FIRSTS,\n    leaves: &P{i}_LEAVES,\n    line_sets: RowSets::new(&P{i}_RUNS).with_escapes(P{i}_ESCAPES),\n    single_sets: RowSets::new(P{i}_RUNS.split_at(P{i}_RUNS.len() - 1).0),\n    regions: &[{}],\n    entries: [\n        {},\n    ],\n    schemes: &[\n        {}\n    ],\n    components: &[\n        {},\n    ],\n}};\n",
        p.spec.kind_part.map_or(u8::MAX as usize, |k| k),
        kinds.join(", "),
        regions.join(", "),
        entries.join(",\n        "),
        schemes.join(",\n        "),
        parts.join(",\n        ")
    );
}
