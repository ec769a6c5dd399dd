//! The parsing engine: the spans come from a profile's tagged DFA (one pass,
//! `run_tdfa`) or, where the generator built none, from its structure
//! program (`run_program`); only when the input is rejected does the
//! labelled DFA run, for the exact error.
//!
//! The program (see `codegen/program.rs`) is a loop-free list of
//! instructions over leaf DFAs; the generator has proven that taking each
//! leaf's longest match never loses a parse, so the program decides exactly
//! the grammar's language. Backtracking is bounded by the program's size, so
//! the work is linear in the input. The tagged DFA (`codegen/tdfa.rs`) is
//! the same program made deterministic; the unit test below checks that the
//! two agree.

use super::tables::{
    in_set, Op, ProfileTables, Spans, Tdfa, DEAD, MAX_FRAMES, MAX_KINDS, MAX_TRAIL, NONE, REG_FILE,
    R_END, R_KIND, START,
};

/// Runs a structure program over the whole input. `None` when the input does
/// not match.
#[inline]
pub(crate) fn run_program(t: &ProfileTables, ops: &[Op], input: &[u8]) -> Option<Spans> {
    let mut spans = Spans::EMPTY;
    spans.fixed = t.fixed;
    // Backtracking frames: (pc to resume at, position, trail length).
    let mut frames = [(0u16, 0u32, 0u8); MAX_FRAMES];
    let mut nframes = 0usize;
    // Undo trail: (slot, old value); slot `u8::MAX` is the kind.
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
                    trail[ntrail] = (u8::MAX, spans.kind as u32);
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
                if slot == u8::MAX {
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

/// Runs a tagged DFA over the whole input: the spans of the program's parse
/// in one pass, or `None` when the input does not match. Runs of bytes that
/// keep the state and write nothing are skipped as in `Dfa::scan`.
#[inline(always)]
pub(crate) fn run_tdfa(t: &Tdfa, input: &[u8]) -> Option<Spans> {
    match run_tdfa_from(t, input, 0) {
        (stop, spans) if stop == input.len() => spans,
        _ => None,
    }
}

/// Runs a tagged DFA from `from` until the input ends or a byte leads to
/// the dead state: that index, and the spans (relative to `from`) if the
/// input ended there, or the spans `input[from..stop]` would have. Batches
/// of lines run it over the whole buffer: no URI holds an LF, so a valid
/// line's run stops at its end.
#[inline(always)]
pub(crate) fn run_tdfa_from(t: &Tdfa, input: &[u8], from: usize) -> (usize, Option<Spans>) {
    let d = &t.dfa;
    // The registers (unset at first), the length, the host kinds, the
    // position.
    let mut regs = [NONE; REG_FILE];
    for k in 0..MAX_KINDS {
        regs[R_KIND + k] = k as u32;
    }
    let mut s = START;
    let mut i = from;
    loop {
        i = d.skip(s, input, i);
        let Some(&b) = input.get(i) else { break };
        let at = ((s as usize) << t.shift) + d.classes[b as usize] as usize;
        let e = t.packed[at];
        if e as u16 == DEAD {
            break;
        }
        s = e as u16;
        let o = (e >> 16) as usize;
        if o != 0 {
            (t.apply)(o as u32, &mut regs, (i - from) as u32);
        }
        i += 1;
    }
    crate::steps::add(i - from + 1);
    let s = s as usize;
    if !d.accept[s] {
        return (i, None);
    }
    regs[R_END] = (i - from) as u32;
    (i, Some((t.finish)(s, &regs)))
}

/// A walk over a region's program (see `codegen/program.rs`,
/// `compile_region`) that yields the spans of one repeated part, one at a
/// time: no backtracking (the generator proved every choice is decided by
/// the next byte), no allocation, and work linear in the region.
#[derive(Clone, Debug)]
pub(crate) struct Occurrences {
    profile: crate::Profile,
    ops: &'static [Op],
    pc: usize,
    pos: usize,
    end: usize,
    slot: u8,
    start: usize,
}

impl Occurrences {
    /// The occurrences of the part at layout index `part` in `spans`;
    /// `None` when it is not a repeated part of the profile.
    pub(crate) fn new(profile: crate::Profile, spans: &Spans, part: usize) -> Option<Occurrences> {
        let t = profile.tables();
        let info = t.parts.get(part).filter(|p| p.repeated)?;
        let region = t.regions.get(info.region as usize)?;
        let held = spans.holds(info);
        let (pos, end, ops) = match spans.get_slot(region.slot as usize).filter(|_| held) {
            Some((s, e)) => (s, e, region.ops),
            None => (0, 0, &[Op::Match][..]),
        };
        Some(Occurrences {
            profile,
            ops,
            pc: 0,
            pos,
            end,
            slot: 2 * info.slot,
            start: pos,
        })
    }

    /// The next occurrence in `input` (the reference the spans are of).
    pub(crate) fn next_in(&mut self, input: &[u8]) -> Option<(usize, usize)> {
        let input = input.get(..self.end)?;
        let t = self.profile.tables();
        loop {
            match *self.ops.get(self.pc)? {
                Op::Leaf(l) => {
                    self.pos = t.leaves[l as usize].longest(input, self.pos)?;
                    self.pc += 1;
                }
                Op::Byte(s) => {
                    if !input
                        .get(self.pos)
                        .is_some_and(|&b| in_set(&t.sets[s as usize], b))
                    {
                        return self.stop();
                    }
                    self.pos += 1;
                    self.pc += 1;
                }
                Op::Split(alt, l, r) => {
                    let (ls, le) = &t.firsts[l as usize];
                    let (rs, re) = &t.firsts[r as usize];
                    let (left, right) = match input.get(self.pos) {
                        Some(&b) => (in_set(ls, b), in_set(rs, b)),
                        None => (*le, *re),
                    };
                    if left {
                        self.pc += 1;
                    } else if right {
                        self.pc = alt as usize;
                    } else {
                        return self.stop();
                    }
                }
                Op::Jmp(to) => self.pc = to as usize,
                Op::Save(s) => {
                    self.pc += 1;
                    if s == self.slot {
                        self.start = self.pos;
                    } else if s == self.slot + 1 {
                        return Some((self.start, self.pos));
                    }
                }
                Op::Kind(_) => self.pc += 1,
                Op::Match => return self.stop(),
            }
        }
    }

    fn stop(&mut self) -> Option<(usize, usize)> {
        self.pc = self.ops.len();
        None
    }
}

/// One transition's register writes read from the `ops` table, each a
/// plain copy within the register file (`R_POS` holds the position): the
/// reference that the generated `apply` functions are tested against.
#[cfg(test)]
fn write_regs(regs: &mut [u32; REG_FILE], ops: &[u16]) {
    for &op in ops {
        // In range: `tdfa_ok` checked every operation at compile time.
        regs[(op >> 8) as usize & (REG_FILE - 1)] = regs[(op & 0xff) as usize & (REG_FILE - 1)];
    }
}

#[cfg(test)]
#[path = "../../tests/support/gen.rs"]
pub(crate) mod gen;

#[cfg(test)]
mod tests {
    use super::super::tables::{Entry, MAX_SLOTS, R_POS};
    use super::*;
    use crate::Profile;

    /// Inputs for the comparisons: generated references, the bundled
    /// corpora, and every component of those that RFC 3986 can parse (so
    /// that component automata see inputs they accept).
    fn inputs() -> Vec<Vec<u8>> {
        let n: usize = std::env::var("URILEX_TDFA_N")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(30_000);
        let mut rng = super::gen::Rng(0x7D_FA00_5EED);
        let mut out: Vec<Vec<u8>> = (0..n).map(|_| super::gen::input(&mut rng)).collect();
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/data");
        for f in ["kasztp.txt", "node_files.txt"] {
            let text = std::fs::read(format!("{dir}/{f}")).expect("bundled corpus");
            out.extend(crate::lines(&text).map(|(_, l)| l.to_vec()));
        }
        let t = Profile::Rfc3986.tables();
        let entry = t.entries[0].as_ref().expect("URI-reference");
        let mut parts = Vec::new();
        for i in &out {
            if let Some(s) = run_program(t, entry.ops, i) {
                for c in 0..MAX_SLOTS / 2 {
                    let (a, b) = (s.slots[2 * c], s.slots[2 * c + 1]);
                    if a != NONE && b != NONE {
                        parts.push(i[a as usize..b as usize].to_vec());
                    }
                }
            }
        }
        out.extend(parts);
        // RFC 1738's schemes and the published URNs, and their parts,
        // which the generated inputs hardly ever reach.
        let urls = include_str!("../../tests/data/rfc1738-urls.txt");
        let urns = include_str!("../../tests/data/urn.jsonl").lines().map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("a JSON line");
            v["input"].as_str().expect("an input").to_string()
        });
        // By name: a profile this build did not compile is left out.
        let urns: Vec<String> = urns.collect();
        let samples: Vec<(Profile, String)> = Profile::from_name("rfc1738")
            .into_iter()
            .flat_map(|p| urls.lines().map(move |u| (p, u.to_string())))
            .chain(
                ["rfc8141", "urn-draft-03"]
                    .into_iter()
                    .filter_map(Profile::from_name)
                    .flat_map(|p| urns.iter().map(move |u| (p, u.clone()))),
            )
            .collect();
        for (p, u) in &samples {
            let t = p.tables();
            let u = u.as_bytes();
            out.push(u.to_vec());
            for e in t.programs() {
                if let Some(s) = run_program(t, e.ops, u) {
                    for c in 0..MAX_SLOTS / 2 {
                        let (a, b) = (s.slots[2 * c], s.slots[2 * c + 1]);
                        if a != NONE && b != NONE {
                            out.push(u[a as usize..b as usize].to_vec());
                        }
                    }
                }
            }
        }
        out
    }

    /// Every entry and component, in every profile, that has a tagged DFA.
    fn tagged() -> impl Iterator<Item = (Profile, &'static Entry, &'static Tdfa)> {
        Profile::ALL.iter().flat_map(|&p| {
            let t = p.tables();
            let entries = t
                .entries
                .iter()
                .chain(t.components)
                .flatten()
                .chain(t.schemes.iter().map(|(_, e)| e));
            entries.filter_map(move |e| Some((p, e, e.tdfa.as_ref()?)))
        })
    }

    /// Every tagged DFA gives exactly its program's spans and host kind, and
    /// rejects exactly what the program rejects, in every profile.
    #[test]
    fn tagged_dfas_agree_with_programs() {
        let inputs = inputs();
        let mut checked = 0;
        let mut inexact = 0;
        for (p, e, tdfa) in tagged() {
            let mut accepted = 0;
            // Where the program is not exact, the tagged DFA is the
            // parser; it is checked against the reference parsers (tests/).
            if !e.exact {
                inexact += 1;
                checked += 1;
                continue;
            }
            for i in &inputs {
                let want = run_program(p.tables(), e.ops, i);
                let got = run_tdfa(tdfa, i);
                assert_eq!(
                    got,
                    want,
                    "{p:?} {}: {:?}",
                    e.rule,
                    String::from_utf8_lossy(i)
                );
                accepted += want.is_some() as usize;
            }
            assert!(accepted > 0, "{p:?} {}: nothing accepted", e.rule);
            checked += 1;
        }
        // Every entry, component and scheme rule has one, except seed
        // 000's automata over the generator's size limit (its four entries
        // and its authority).
        let all: Vec<(Profile, &Entry)> = Profile::ALL
            .iter()
            .flat_map(|&p| {
                let t = p.tables();
                t.entries
                    .iter()
                    .chain(t.components)
                    .flatten()
                    .chain(t.schemes.iter().map(|(_, e)| e))
                    .map(move |e| (p, e))
            })
            .collect();
        let without: Vec<_> = all.iter().filter(|(_, e)| e.tdfa.is_none()).collect();
        assert_eq!(checked + without.len(), all.len());
        let seed000 = usize::from(Profile::from_name("rfc2396bis-00").is_some());
        assert_eq!(without.len(), 5 * seed000);
        assert!(without.iter().all(|(p, _)| p.name() == "rfc2396bis-00"));
        // A program that is not exact always has its tagged DFA (only RFC
        // 8141's r-component before "?=" needs that today).
        assert!(without.iter().all(|(_, e)| e.exact));
        assert!(inexact <= 3, "{inexact}");
        let t = Profile::Rfc3986.tables();
        assert!(t
            .entries
            .iter()
            .chain(t.components)
            .flatten()
            .all(|e| e.tdfa.is_some()));
    }

    /// Every fast path gives exactly its program's spans and host kind
    /// where it answers, and answers for no input the program rejects; it
    /// may leave an input to the exact engine only at a split the generator
    /// could not decide. RFC 3986's entries decide every split, so there it
    /// answers for every input the program accepts (and up to 255 bytes).
    #[test]
    fn fast_paths_agree_with_programs() {
        use super::super::bits::{check_entry, Single, MAX_LINE};
        let inputs = inputs();
        let mut covered = 0;
        for &p in Profile::ALL {
            let t = p.tables();
            for e in t.programs() {
                let Some(fast) = e.fast else {
                    assert!(
                        !e.exact,
                        "{p:?} {}: an exact entry without a fast path",
                        e.rule
                    );
                    continue;
                };
                covered += 1;
                let (mut accepted, mut answered) = (0usize, 0usize);
                for i in inputs.iter().filter(|i| i.len() <= MAX_LINE) {
                    let want = run_program(t, e.ops, i);
                    let single = Single::<5>::new(i, &t.single_sets);
                    // Its variants agree with it, and where it answers it
                    // gives the program's spans (the record variant over
                    // bitmaps with escapes folded, as a batch's are).
                    let sets = t.single_sets.clone().with_escapes(t.line_sets.escapes());
                    let folded = Single::<5>::new(i, &sets);
                    let got = check_entry(p, e, i, &single.line(i), &folded.line(i))
                        .unwrap_or_else(|m| panic!("{m}"));
                    // The same with rows sized to the input (single parsing).
                    assert_eq!(
                        super::super::bits::fast_single(i, &t.single_sets, fast),
                        got,
                        "{p:?} {}: sized rows",
                        e.rule
                    );
                    answered += usize::from(got.is_some());
                    if want.is_some() {
                        accepted += 1;
                        if p == Profile::Rfc3986 {
                            assert!(
                                got.is_some(),
                                "{p:?} {}: left {:?} to the exact engine",
                                e.rule,
                                String::from_utf8_lossy(i)
                            );
                        }
                    }
                }
                // The share of accepted inputs the fast path takes (run
                // with --nocapture for the report).
                eprintln!(
                    "{p:?} {}: fast path answered {answered} of {accepted} accepted",
                    e.rule
                );
            }
        }
        // RFC 3986 alone has 6; with every profile there are over 20.
        let floor = if Profile::ALL.len() == 1 { 6 } else { 20 };
        assert!(covered >= floor, "{covered}");
    }

    /// Every tagged DFA's generated `apply` performs exactly the register
    /// writes its `ops` table lists, for every list a transition uses.
    #[test]
    fn generated_register_writes_match_the_ops_table() {
        let mut rng = super::gen::Rng(0x0A99_17E5);
        let mut lists = 0;
        for (p, e, tdfa) in tagged() {
            let mut offsets: Vec<u32> = tdfa.packed.iter().map(|e| e >> 16).collect();
            offsets.sort_unstable();
            offsets.dedup();
            for &o in &offsets {
                for _ in 0..4 {
                    let mut regs = [NONE; REG_FILE];
                    for r in regs.iter_mut().take(R_END) {
                        *r = rng.next() as u32;
                    }
                    for k in 0..MAX_KINDS {
                        regs[R_KIND + k] = k as u32;
                    }
                    let pos = rng.next() as u32 >> 1;
                    regs[R_POS] = pos;
                    let mut want = regs;
                    let n = tdfa.ops[o as usize] as usize;
                    write_regs(&mut want, &tdfa.ops[o as usize + 1..=o as usize + n]);
                    let mut got = regs;
                    (tdfa.apply)(o, &mut got, pos);
                    assert_eq!(got[..R_END], want[..R_END], "{p:?} {} list {o}", e.rule);
                }
                lists += 1;
            }
        }
        assert!(lists > 100, "{lists}");
    }

    /// The generated `FINISH` of every tagged DFA reads, for each accepting
    /// state, the registers its `FINALS` row names (random register files).
    #[test]
    fn generated_finals_match_the_finals_table() {
        let mut rng = super::gen::Rng(0xF1_4A15);
        let mut states = 0;
        for (p, e, tdfa) in tagged() {
            for (s, f) in tdfa.finals.chunks(tdfa.nslots).enumerate() {
                if !tdfa.dfa.accept[s] {
                    continue;
                }
                let n = tdfa.nslots;
                let mut regs = [NONE; REG_FILE];
                for r in regs.iter_mut() {
                    *r = rng.next() as u32;
                }
                let get = |k: usize| regs[f[k] as usize & (REG_FILE - 1)];
                let got = (tdfa.finish)(s, &regs);
                let want: [u32; MAX_SLOTS] =
                    std::array::from_fn(|k| if k < n - 1 { get(k) } else { NONE });
                assert_eq!(got.slots, want, "{p:?} {} {s}", e.rule);
                assert_eq!(got.kind, get(n - 1) as u8, "{p:?} {} {s}", e.rule);
                states += 1;
            }
        }
        assert!(states > 100, "{states}");
    }

    /// Every DFA's SSE2 ranges are `ranges_of` its nibble tables: the two
    /// tables the generator emits per state describe one set.
    #[test]
    fn emitted_ranges_match_the_nibble_tables() {
        let mut dfas = 0;
        for &p in Profile::ALL {
            let t = p.tables();
            let entries = t.entries.iter().chain(t.components).flatten();
            let all = entries
                .flat_map(|e| std::iter::once(&e.dfa).chain(e.tdfa.as_ref().map(|t| &t.dfa)))
                .chain(t.leaves);
            for d in all {
                assert_eq!(d.nibbles.len(), d.ranges.len());
                for (n, r) in d.nibbles.iter().zip(d.ranges) {
                    assert_eq!(*r, crate::scan::ranges_of(n), "{p:?}");
                }
                dfas += 1;
            }
        }
        assert!(dfas > 20, "{dfas}");
    }

    /// The generator's `line_ends` says what the tables say, and every
    /// entry of the bundled grammars has it (no URI holds an LF or a CR).
    #[test]
    fn line_ends_flag_matches_the_tables() {
        for &p in Profile::ALL {
            for e in p.tables().entries.iter().flatten() {
                let tables = e.dfa.stops_at_line_ends()
                    && e.tdfa.as_ref().is_none_or(|t| t.dfa.stops_at_line_ends());
                assert_eq!(e.line_ends, tables, "{p:?} {}", e.rule);
                assert!(e.line_ends, "{p:?} {}", e.rule);
            }
        }
    }
}
