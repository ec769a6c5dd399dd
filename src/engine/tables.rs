//! The generated tables (`OUT_DIR/tables.rs`, from `abnf/` by `codegen/`)
//! and the small types and accessors they are written in.
//!
//! Nothing here knows a grammar: every byte class, transition and program
//! instruction comes from the generated file. The generated code names only
//! what this module defines or imports, so it reaches into no other part
//! of the crate.

pub(crate) use super::line::in_set;
use super::line::{Line, Sink};
use crate::scan::RowSets;

/// Which resolution algorithm a profile uses (its grammar file's
/// `;@ resolution` directive).
///
/// Only the generated tables of a profile name its algorithm: a build
/// without the drafts' features (`rfc2396bis-00`, `url-draft-05`) never
/// constructs theirs, and keeps the small code that would run them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(dead_code)]
pub(crate) enum Algorithm {
    /// RFC 3986 sections 5.2.1 to 5.3.
    Rfc3986,
    /// draft-fielding-uri-rfc2396bis-00 section 5.2: dot segments are
    /// removed only while merging a relative path; an absolute path is used
    /// as it is; leading `..` segments are retained.
    Rfc2396bis00,
    /// draft-fielding-url-syntax-05 section 5.2: the query joins the buffer
    /// before dot segments are removed (step 6).
    UrlDraft05,
    /// The grammar has no relative references (RFC 1738: section 2.3 leaves
    /// them to RFC 1808; URNs are absolute), so nothing resolves against it.
    None,
}

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
    /// Per state, the classes that lead back to the same state (bit per
    /// class; 0 for the dead state and when there are more than 64 classes).
    pub stay: &'static [u64],
    /// Per state, the same self-loop set as nibble tables for the SIMD
    /// kernels (all zero when the set is not ASCII).
    pub nibbles: &'static [[u8; 32]],
    /// Per state, the same set as byte ranges for the SSE2 kernel.
    pub ranges: &'static [[u8; 32]],
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

    /// First index at or after `i` whose byte leaves state `s`: the run of
    /// self-loop bytes is skipped with no load that depends on the state.
    #[inline(always)]
    pub(crate) fn skip(&self, s: u16, input: &[u8], mut i: usize) -> usize {
        let stay = self.stay[s as usize];
        if stay != 0 {
            let in_run = |b: u8| (stay >> self.classes[b as usize]) & 1 != 0;
            // Most runs are short: eight bytes one at a time first.
            let first = (i + 8).min(input.len());
            while i < first && in_run(input[i]) {
                i += 1;
            }
            // A run still going: sixteen or thirty-two bytes at a time, the
            // input's last bytes included. The tables hold the same set, so
            // the loop below then stops at once (or does the work when the
            // tables are empty).
            if i == first && i < input.len() {
                let s = s as usize;
                i = crate::scan::skip(&self.nibbles[s], &self.ranges[s], input, i);
            }
            while i < input.len() && in_run(input[i]) {
                i += 1;
            }
        }
        i
    }

    /// End of the longest match of `input[from..]`, if any.
    #[inline]
    pub(crate) fn longest(&self, input: &[u8], from: usize) -> Option<usize> {
        let mut s = START;
        let mut last = None;
        let mut i = from;
        loop {
            i = self.skip(s, input, i);
            if self.accept[s as usize] {
                last = Some(i);
            }
            if i >= input.len() {
                break;
            }
            s = self.step(s, input[i]);
            if s == DEAD {
                break;
            }
            i += 1;
        }
        crate::steps::add(i - from + 1);
        last
    }

    /// Runs from `from` until the input ends or a byte leads to the dead
    /// state: that index (or the length), and the state before it.
    #[inline]
    pub(crate) fn run_from(&self, input: &[u8], from: usize) -> (usize, u16) {
        let mut s = START;
        let mut i = from;
        loop {
            i = self.skip(s, input, i);
            let Some(&b) = input.get(i) else { break };
            let t = self.step(s, b);
            if t == DEAD {
                break;
            }
            s = t;
            i += 1;
        }
        crate::steps::add(i - from + 1);
        (i, s)
    }

    /// Whether LF and CR lead to the dead state from every state (what the
    /// generator decides for `Entry::line_ends`; for the tests).
    #[cfg(test)]
    pub(crate) fn stops_at_line_ends(&self) -> bool {
        (1..self.accept.len())
            .all(|s| self.step(s as u16, b'\n') == DEAD && self.step(s as u16, b'\r') == DEAD)
    }

    /// Runs over the whole input. `Ok` when it matches; otherwise the index
    /// where it failed (the byte that led to the dead state, or the length
    /// when the input ended too soon) and the state just before.
    pub(crate) fn scan(&self, input: &[u8]) -> Result<(), (usize, u16)> {
        match self.run_from(input, 0) {
            (i, s) if i == input.len() && self.accept[s as usize] => Ok(()),
            failed => Err(failed),
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
    /// Go on with the next instruction; on failure come back and go to the
    /// first field. The others index `ProfileTables::firsts`: the bytes (and
    /// whether the end) that can come next on each branch.
    Split(u16, u16, u16),
    Jmp(u16),
    /// Record the position in capture slot n.
    Save(u8),
    /// Record the host kind n.
    Kind(u8),
    /// Succeed if the input is used up.
    Match,
}

/// A tagged DFA (see `codegen/tdfa.rs`): a DFA whose transitions may write
/// the current position into registers, and whose accepting states say
/// which register holds each capture slot.
pub(crate) struct Tdfa {
    /// The transitions; self-loops that write registers are not in `stay`.
    pub dfa: Dfa,
    /// `dfa.stride` is `1 << shift`.
    pub shift: u32,
    /// Per transition: the next state (low 16 bits) and the offset of its
    /// register writes in `ops` (high 16 bits; 0 for none), from one load.
    pub packed: &'static [u32],
    /// Register writes, from an offset: a count, then that many copies
    /// `dst << 8 | src` within the register file (see `R_POS`). The
    /// runtime runs `apply`; this table is what it is checked against.
    #[cfg_attr(not(test), allow(dead_code))]
    pub ops: &'static [u16],
    /// The same register writes as code: `apply(o, regs, pos)` performs the
    /// list at offset `o` of `ops` with `pos` as the current position
    /// (tested against `ops`).
    pub apply: fn(u32, &mut [u32; REG_FILE], u32),
    /// The spans of an accepting state from the registers, as code: what
    /// `finals` says, one constant read per slot (tested against it).
    pub finish: fn(usize, &[u32; REG_FILE]) -> Spans,
    /// Per state, `nslots` bytes: where each capture slot and (last) the
    /// kind are at the end, an index into the register file (registers,
    /// then the input's length, then the kinds). Registers start out as
    /// `NONE` (never set).
    #[cfg_attr(not(test), allow(dead_code))]
    pub finals: &'static [u8],
    /// Capture slots of the profile: two per part, then the kind.
    #[cfg_attr(not(test), allow(dead_code))]
    pub nslots: usize,
}

/// The register file of a tagged DFA run: `MAX_REGS` registers (unset at
/// first), then the values that copies and final actions read besides
/// them: the input's length, the `MAX_KINDS` kinds, the current position.
pub(crate) const R_END: usize = MAX_REGS;
pub(crate) const R_KIND: usize = MAX_REGS + 1;
pub(crate) const R_POS: usize = MAX_REGS + 1 + MAX_KINDS;
/// A power of two, so that masking an index is its bounds check.
pub(crate) const REG_FILE: usize = (R_POS + 1).next_power_of_two();

/// The packed transitions agree with the DFA's, every operation list is in
/// range and copies within the register file (writing only registers), every
/// final slot is in the register file, and rows are a power of two wide.
pub(crate) const fn tdfa_ok(
    packed: &[u32],
    trans: &[u16],
    ops: &[u16],
    finals: &[u8],
    stride: usize,
) -> bool {
    if packed.len() != trans.len() || !stride.is_power_of_two() {
        return false;
    }
    let mut i = 0;
    while i < packed.len() {
        if packed[i] & 0xffff != trans[i] as u32 {
            return false;
        }
        let o = (packed[i] >> 16) as usize;
        if o >= ops.len() || o + ops[o] as usize >= ops.len() {
            return false;
        }
        let mut k = 1;
        while k <= ops[o] as usize {
            let op = ops[o + k];
            let (dst, src) = ((op >> 8) as usize, (op & 0xff) as usize);
            if dst >= MAX_REGS || src > R_POS {
                return false;
            }
            k += 1;
        }
        i += 1;
    }
    let mut s = 0;
    while s < finals.len() {
        if finals[s] as usize >= R_POS {
            return false;
        }
        s += 1;
    }
    true
}

/// A parse entry point or a component: its labelled DFA (verdicts and
/// errors), its structure program and, when the generator could build it,
/// the same program as a tagged DFA (spans in one pass).
pub(crate) struct Entry {
    pub dfa: Dfa,
    pub ops: &'static [Op],
    /// Whether the program alone parses exactly (every leaf's longest match
    /// the only viable one); when not, the generator made sure `tdfa` is
    /// there, and it is the parser.
    pub exact: bool,
    /// The program over a classified line (`codegen/bitprog.rs`): true
    /// when it wrote the program's spans, false for an invalid line or one
    /// it leaves to the exact engine. Every exact entry has one.
    pub fast: Option<FastPath>,
    /// The same program without spans: whether the line is valid, true
    /// only when the fast path can tell (`validate_lines`).
    pub valid: Option<FastValid>,
    /// The same over a batch's bitmaps, where runs go on through escapes
    /// (the variant the line loops of `Profile::fast_lines` inline; here
    /// for the checks that it answers as `fast` does).
    pub batch: Option<FastPath>,
    pub tdfa: Option<Tdfa>,
    /// Whether LF and CR lead both DFAs to the dead state from every state,
    /// so that a run over a buffer of lines stops at each valid line's end
    /// (decided by the generator: no grammar here allows either byte).
    pub line_ends: bool,
    /// The grammar's name for it (`URI-reference`, `relative-URI`, ...).
    pub rule: &'static str,
}

/// A profile name [`Profile::by_name`] could not give: unknown, or defined
/// by a grammar whose cargo feature this build lacks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownProfile {
    name: String,
    feature: Option<&'static str>,
}

impl UnknownProfile {
    /// The cargo feature of urilex that brings the profile, if a grammar
    /// defines one by that name.
    pub fn feature(&self) -> Option<&'static str> {
        self.feature
    }
}

impl std::fmt::Display for UnknownProfile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.feature {
            Some(feat) => write!(
                f,
                "profile `{}` is not in this build: enable urilex's cargo feature `{feat}`",
                self.name
            ),
            None => {
                write!(f, "no profile named `{}` (profiles: ", self.name)?;
                let names: Vec<&str> = DEFINED.iter().map(|(n, _)| *n).collect();
                write!(f, "{})", names.join(", "))
            }
        }
    }
}

impl std::error::Error for UnknownProfile {}

/// Marks an absent span boundary.
pub(crate) const NONE: u32 = u32::MAX;

/// Capture slots as the programs write them: part `c` spans
/// `slots[2c]..slots[2c + 1]` (the profile's layout; `MAX_SLOTS` is the
/// largest any grammar needs); `kind` is the classified part's kind or
/// `u8::MAX`; `source` the program that wrote them (0 an entry's, `1 + k`
/// scheme rule `k`'s), which says whose part a shared slot holds; `fixed`
/// the default grammar's parts the profile declares (`ProfileTables::fixed`),
/// whose slots are theirs: another's may hold one of the profile's own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Spans {
    pub slots: [u32; MAX_SLOTS],
    pub kind: u8,
    pub source: u8,
    pub fixed: u8,
}

impl Spans {
    pub(crate) const EMPTY: Spans = Spans {
        slots: [NONE; MAX_SLOTS],
        kind: u8::MAX,
        source: 0,
        fixed: u8::MAX,
    };

    /// A part of the default grammar: its slot is its index, when the
    /// profile declares it.
    #[inline]
    pub(crate) fn get(&self, c: Component) -> Option<(usize, usize)> {
        if (self.fixed >> (c as u32)) & 1 == 0 {
            return None;
        }
        self.get_slot(c as usize)
    }

    /// The span of a part of the profile these spans are of, if set by the
    /// program that wrote them.
    #[inline]
    pub(crate) fn get_part(&self, p: &PartInfo) -> Option<(usize, usize)> {
        if !self.holds(p) {
            return None;
        }
        self.get_slot(p.slot as usize)
    }

    /// Whether the program that wrote these spans can record part `p`.
    #[inline]
    pub(crate) fn holds(&self, p: &PartInfo) -> bool {
        (p.sources >> (self.source & 63)) & 1 != 0
    }

    /// The scheme rule (its index) that wrote these spans, if one did.
    pub(crate) fn scheme_rule(&self) -> Option<usize> {
        (self.source as usize).checked_sub(1)
    }

    /// The span in slot pair `i`, if set.
    #[inline]
    pub(crate) fn get_slot(&self, i: usize) -> Option<(usize, usize)> {
        let (s, e) = (*self.slots.get(2 * i)?, *self.slots.get(2 * i + 1)?);
        if s == NONE || e == NONE {
            None
        } else {
            Some((s as usize, e as usize))
        }
    }

    pub(crate) fn host_kind(&self) -> Option<HostKind> {
        HostKind::from_index(self.kind)
    }
}

impl Sink for Spans {
    #[inline(always)]
    fn fixed(&mut self, fixed: u8) {
        self.fixed = fixed;
    }
    #[inline(always)]
    fn save(&mut self, slot: usize, pos: usize) {
        self.slots[slot] = pos as u32;
    }
    #[inline(always)]
    fn kind(&mut self, kind: u8) {
        self.kind = kind;
    }
}

/// A generated fast path (`Entry::fast`): writes the spans and says
/// whether it could (the spans are then the program's).
pub(crate) type FastPath = fn(&Line<'_>, &mut Spans) -> bool;

/// The same without spans (`Entry::valid`): true when the line is valid,
/// false when it is not or the fast path cannot tell.
pub(crate) type FastValid = fn(&Line<'_>) -> bool;

/// A loop over a buffer's lines that takes an entry's batch fast path
/// (`Profile::fast_loop`): the generated code hands the fast path over,
/// compiled into one instance of the loop per entry, and knows nothing of
/// the loop (`bits::fast_lines`) or of where the spans go (`Spans`).
pub(crate) trait FastLoop {
    /// Where the fast path writes one line's spans.
    type Spans: Sink;
    /// What the loop answers.
    type Out;
    /// The loop over the lines, with `fast` for the tables `t`.
    fn run(
        self,
        t: &ProfileTables,
        fast: impl Fn(&Line<'_>, &mut Self::Spans) -> bool,
    ) -> Self::Out;
}

/// The same for the spanless fast path (`Profile::count_loop`,
/// `bits::count_lines`).
pub(crate) trait CountLoop {
    /// What the loop answers.
    type Out;
    /// The loop over the lines, with `valid` for the tables `t`.
    fn run(self, t: &ProfileTables, valid: impl Fn(&Line<'_>) -> bool) -> Self::Out;
}

/// A part of a reference that a profile's grammar declares (`;@ part`).
///
/// ```
/// # #[cfg(feature = "rfc6874")] {
/// use urilex::Profile;
/// let zone = Profile::Rfc6874.part("zone").unwrap();
/// assert_eq!(zone.name(), "zone");
/// assert!(Profile::Rfc3986.part("zone").is_none());
/// assert!(Profile::Rfc3986.parts().any(|p| p.name() == "host"));
/// # }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PartInfo {
    pub(crate) name: &'static str,
    pub(crate) index: u8,
    /// Where its span is kept (`Spans::slots[2 * slot..]`): its index for
    /// the default grammar's parts; parts no one program records together
    /// may share one.
    pub(crate) slot: u8,
    /// The programs that can record it (bit 0 the entries, bit `1 + k`
    /// scheme rule `k`; see `Spans::source`; all bits for a part that only
    /// its own validation records).
    pub(crate) sources: u64,
    pub(crate) repeated: bool,
    pub(crate) hidden: bool,
    /// For a repeated part, its region in `ProfileTables::regions`.
    pub(crate) region: u8,
}

/// The program that lists the occurrences of repeated parts: it runs over
/// the span in slot `slot` (of the rule that holds the repetition).
pub(crate) struct Region {
    pub slot: u8,
    pub ops: &'static [Op],
}

impl PartInfo {
    /// Its name, as the grammar's `;@ part` directive gives it.
    pub const fn name(&self) -> &'static str {
        self.name
    }
    /// Its index in the profile's layout (`UriRef::part_at`); the parts of
    /// the default grammar (`Component`) have the same index in every profile.
    pub const fn index(&self) -> usize {
        self.index as usize
    }
    /// Whether it sits inside a repetition of its grammar, so that a
    /// reference may hold it several times (`UriRef::occurrences`).
    pub const fn is_repeated(&self) -> bool {
        self.repeated
    }
}

pub(crate) struct ProfileTables {
    /// The default grammar's parts this profile declares, as bits by
    /// index (their slots are theirs; the others may hold its own parts).
    pub fixed: u8,
    pub rules: &'static [&'static str],
    /// The layout: per part index, the part (hidden where the profile has
    /// none at that index, or where the generator keeps a region's span).
    pub parts: &'static [PartInfo],
    /// The part the `;@ kind` directives classify, or `u8::MAX`.
    pub kind_part: usize,
    /// The kinds' names by index ("" for a default kind this profile lacks).
    pub kinds: &'static [&'static str],
    /// Per part, the bytes it may hold without percent-encoding.
    pub literal: &'static [[u64; 4]],
    /// The characters of the grammar's `unreserved` rule.
    pub unreserved: &'static [u64; 4],
    /// Every byte some reference of the profile may hold.
    pub bytes: &'static [u64; 4],
    pub sets: &'static [[u64; 4]],
    /// FIRST sets of split branches: bytes, and whether the end may come.
    pub firsts: &'static [([u64; 4], bool)],
    pub leaves: &'static [Dfa],
    /// The fast path's run sets as low-nibble tables (see
    /// `scan::Classify`), prepared for the rows kernels
    /// (`scan::ClassifyRows`) at build time: all of them with the line
    /// end's last (a batch's), and without the line end (a single
    /// input's).
    pub line_sets: RowSets,
    pub single_sets: RowSets,
    /// Programs for repeated parts (see `PartInfo::region`).
    pub regions: &'static [Region],
    /// Indexed by `Syntax as usize`.
    pub entries: [Option<Entry>; SYNTAXES],
    /// `;@ scheme` rules: a lower-case scheme and the entry that references
    /// with that scheme match instead of the syntax's rule.
    pub schemes: &'static [(&'static str, Entry)],
    /// Indexed by part index: each part's rules on their own.
    pub components: &'static [Option<Entry>],
}

impl Profile {
    /// The profile with this command-line name, or why there is none: a
    /// profile whose cargo feature this build lacks names the feature.
    ///
    /// ```
    /// use urilex::Profile;
    /// assert_eq!(Profile::by_name("rfc3986"), Ok(Profile::Rfc3986));
    /// let e = Profile::by_name("rfc9999").unwrap_err();
    /// assert!(e.to_string().starts_with("no profile named `rfc9999`"));
    /// assert_eq!(e.feature(), None);
    /// // Every profile the grammars define, compiled or not.
    /// let defined: Vec<_> = Profile::defined().collect();
    /// assert!(defined.contains(&("rfc3986", None)));
    /// assert!(defined.contains(&("rfc1738", Some("rfc1738"))));
    /// assert_eq!(defined.len(), 7);
    /// assert_eq!(Profile::by_name("rfc1738").err().and_then(|e| e.feature()), Profile::from_name("rfc1738").is_none().then_some("rfc1738"));
    /// # #[cfg(not(feature = "rfc1738"))]
    /// assert_eq!(
    ///     Profile::by_name("rfc1738").unwrap_err().to_string(),
    ///     "profile `rfc1738` is not in this build: enable urilex's cargo feature `rfc1738`"
    /// );
    /// ```
    pub fn by_name(name: &str) -> Result<Profile, UnknownProfile> {
        if let Some(p) = Profile::from_name(name) {
            return Ok(p);
        }
        let feature = DEFINED.iter().find(|(n, _)| *n == name).map(|&(_, f)| f);
        Err(UnknownProfile {
            name: name.to_string(),
            feature,
        })
    }

    /// The names of every profile the grammars define, whether this build
    /// compiled it or not, with the cargo feature that brings it (`None`
    /// for the default profile, always compiled).
    pub fn defined() -> impl Iterator<Item = (&'static str, Option<&'static str>)> {
        DEFINED
            .iter()
            .map(|&(n, f)| (n, (!f.is_empty()).then_some(f)))
    }

    /// The parts its grammar declares (`;@ part`), in layout order.
    ///
    /// ```
    /// let names: Vec<_> = urilex::Profile::Rfc3986.parts().map(|p| p.name()).collect();
    /// assert_eq!(names, ["scheme", "authority", "userinfo", "host", "port", "path", "query", "fragment"]);
    /// ```
    pub fn parts(self) -> impl Iterator<Item = PartInfo> {
        self.tables().parts.iter().copied().filter(|p| !p.hidden)
    }

    /// The part with this name, ASCII case ignored.
    pub fn part(self, name: &str) -> Option<PartInfo> {
        self.parts().find(|p| p.name.eq_ignore_ascii_case(name))
    }

    /// The part its `;@ kind` directives classify (the host, in the bundled
    /// grammars), if any.
    ///
    /// ```
    /// assert_eq!(urilex::Profile::Rfc3986.kind_part().map(|p| p.name()), Some("host"));
    /// ```
    pub fn kind_part(self) -> Option<PartInfo> {
        let t = self.tables();
        t.parts.get(t.kind_part).copied().filter(|p| !p.hidden)
    }

    /// The kinds its grammar gives the classified part (`;@ kind`).
    pub fn kinds(self) -> impl Iterator<Item = &'static str> {
        self.tables()
            .kinds
            .iter()
            .copied()
            .filter(|k| !k.is_empty())
    }

    /// Whether some valid reference of the profile holds byte `b` (from the
    /// generated tables). No bundled grammar admits `"`, `\\`, a control
    /// byte or a byte over 0x7F, so a writer may copy a valid reference's
    /// parts into JSON, TSV or CSV without escaping them.
    ///
    /// ```
    /// use urilex::Profile;
    /// assert!(Profile::Rfc3986.admits(b'%'));
    /// assert!(!Profile::Rfc3986.admits(b'"'));
    /// assert!(!Profile::Rfc3986.admits(b'\n'));
    /// ```
    pub fn admits(self, b: u8) -> bool {
        in_set(self.tables().bytes, b)
    }

    /// The schemes whose references match their own rule (`;@ scheme`).
    pub fn schemes(self) -> impl Iterator<Item = &'static str> {
        self.tables().schemes.iter().map(|(n, _)| *n)
    }

    /// The grammar rule an entry point (`;@ entry`) matches, if the
    /// profile has that entry.
    ///
    /// ```
    /// # #[cfg(feature = "rfc1738")] {
    /// use urilex::{Profile, Syntax};
    /// assert_eq!(Profile::Rfc3986.entry_rule(Syntax::Uri), Some("URI"));
    /// assert_eq!(Profile::Rfc1738.entry_rule(Syntax::RelativeRef), None);
    /// # }
    /// ```
    pub fn entry_rule(self, syntax: super::Syntax) -> Option<&'static str> {
        self.tables().entries[syntax as usize]
            .as_ref()
            .map(|e| e.rule)
    }
}

impl ProfileTables {
    /// The programs a reference is parsed with: every entry's, then every
    /// `;@ scheme` rule's.
    pub(crate) fn programs(&self) -> impl Iterator<Item = &Entry> {
        self.entries
            .iter()
            .flatten()
            .chain(self.schemes.iter().map(|(_, e)| e))
    }

    /// Whether `b` may begin the profile's scheme (from its DFA).
    pub(crate) fn scheme_start(&self, b: u8) -> bool {
        self.components
            .get(Component::Scheme as usize)
            .and_then(Option::as_ref)
            .is_some_and(|e| e.dfa.step(START, b) != DEAD)
    }
    /// Whether `b` may stand in the profile's scheme (its literal set).
    pub(crate) fn scheme_byte(&self, b: u8) -> bool {
        self.literal
            .get(Component::Scheme as usize)
            .is_some_and(|set| in_set(set, b))
    }
}

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

/// Every index in range, every split forward, the last instruction
/// `Match`; jumps forward too (so a structure program stops), except in a
/// region's program (`loops`), whose loops are a `Split` ahead and a `Jmp`
/// back, each round consuming input (the generator checked).
pub(crate) const fn program_ok(
    ops: &[Op],
    leaves: usize,
    sets: usize,
    firsts: usize,
    loops: bool,
) -> bool {
    let mut pc = 0;
    while pc < ops.len() {
        let ok = match ops[pc] {
            Op::Leaf(l) => (l as usize) < leaves,
            Op::Byte(s) => (s as usize) < sets,
            Op::Split(t, l, r) => {
                (t as usize) > pc
                    && (t as usize) < ops.len()
                    && (l as usize) < firsts
                    && (r as usize) < firsts
            }
            Op::Jmp(t) => (loops || (t as usize) > pc) && (t as usize) < ops.len(),
            Op::Save(s) => (s as usize) < MAX_SLOTS,
            Op::Kind(k) => (k as usize) < MAX_KINDS,
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
