//! Stage 2: resolved grammars and the profiles that the `;@` directives declare.
//!
//! Rule references become indices, rule names are matched case-insensitively
//! (RFC 5234 section 2.1), `=/` adds alternatives, and undefined rules,
//! duplicate definitions, prose that would have to be compiled and recursion
//! all fail with the file and line.

use super::abnf::{self, ByteSet, GrammarError, Node};
use std::collections::BTreeMap;
use std::path::Path;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Expr {
    Alt(Vec<Expr>),
    Seq(Vec<Expr>),
    Rep {
        min: u32,
        max: Option<u32>,
        e: Box<Expr>,
    },
    Set(ByteSet),
    Ref(usize),
    Empty,
}

#[derive(Clone, Debug)]
pub struct Rule {
    pub name: String,
    pub file: String,
    pub line: u32,
    pub expr: Expr,
}

#[derive(Clone, Debug, Default)]
pub struct Grammar {
    pub rules: Vec<Rule>,
    pub by_name: BTreeMap<String, usize>,
}

impl Grammar {
    pub fn lookup(&self, name: &str) -> Option<usize> {
        self.by_name.get(&name.to_ascii_lowercase()).copied()
    }
}

/// A part of a reference that a profile captures: `;@ part NAME RULE...`.
#[derive(Clone, Debug)]
pub struct PartSpec {
    /// The name as the grammar gives it (looked up case-insensitively).
    pub name: String,
    /// The Rust variant for the typed view (CamelCase of the name).
    pub variant: String,
    /// The rules whose text is this part.
    pub rules: Vec<usize>,
    /// Its index in the profile's layout: slots `2 * index` and `2 * index + 1`.
    pub index: usize,
    /// Where the directive is.
    pub line: u32,
    /// Set by the program compiler: the part occurs inside an unbounded
    /// repetition, so it has occurrences rather than one span.
    pub repeated: bool,
    /// A part the generator added to hold the span of a repetition's region
    /// (not declared, not listed to users).
    pub hidden: bool,
    /// For a repeated part: the layout index of the part whose span is its
    /// region (the rule holding the repetition), and that rule.
    pub region: Option<(usize, usize)>,
    /// Where its span is kept: slots `2 * slot` and `2 * slot + 1`. The
    /// index for the parts the default profile declares; parts that no one
    /// rule can record together share slots (see `program::assign_slots`).
    /// For a repeated part, only its number among its region's parts.
    pub slot: usize,
    /// The programs that can record it, as bits: bit 0 the entries, bit
    /// `1 + k` scheme rule `k` (all bits for a part none of them reaches).
    pub sources: u64,
}

/// A classification of the profile's classified part: `;@ kind PART NAME RULE...`.
#[derive(Clone, Debug)]
pub struct KindSpec {
    pub name: String,
    pub variant: String,
}

#[derive(Clone, Debug)]
pub struct ProfileSpec {
    /// Rust enum variant name.
    pub variant: String,
    /// Name on the command line.
    pub cli_name: String,
    pub description: String,
    pub is_default: bool,
    pub file: String,
    pub grammar: Grammar,
    /// Entry points in declaration order: name (`reference`, ...) and rule.
    pub entries: Vec<(String, usize)>,
    /// Declared parts (and hidden region parts), in index order once laid out.
    pub parts: Vec<PartSpec>,
    /// The layout index of the part that `;@ kind` classifies.
    pub kind_part: Option<usize>,
    /// How many layout indices the default profile's parts take: below
    /// this, a part's slot is its index.
    pub nfixed: usize,
    /// Kinds in layout order.
    pub kinds: Vec<KindSpec>,
    /// Rules that give each kind (index into `kinds`), in the grammar's order.
    pub kind_rules: Vec<(usize, usize)>,
    /// `;@ scheme NAME RULE`: a scheme (lower case) and the rule that its
    /// references match instead of the entry rule.
    pub schemes: Vec<(String, usize)>,
    pub percent: Option<usize>,
    pub ip_literal: Vec<usize>,
    /// The runtime's resolution algorithm (a Rust variant of
    /// `resolve::Algorithm`; an algorithm, not grammar).
    pub resolution: String,
    /// The rule of characters that percent-decoding may always restore.
    pub unreserved: Option<usize>,
}

impl ProfileSpec {
    /// The layout index of the declared part that `rule` is, if any (for
    /// error labels: hidden region parts are not named to users).
    pub fn component_of(&self, rule: usize) -> Option<usize> {
        self.parts
            .iter()
            .find(|p| !p.hidden && p.rules.contains(&rule))
            .map(|p| p.index)
    }
    /// Every part (declared or hidden) that `rule` is, by layout index.
    pub fn parts_of(&self, rule: usize) -> impl Iterator<Item = usize> + '_ {
        self.parts
            .iter()
            .filter(move |p| p.rules.contains(&rule))
            .map(|p| p.index)
    }
    /// The kind that `rule` gives its part, if any.
    pub fn host_kind_of(&self, rule: usize) -> Option<usize> {
        self.kind_rules
            .iter()
            .find(|(r, _)| *r == rule)
            .map(|(_, k)| *k)
    }
    /// Number of part indices in the layout (some may be unused).
    pub fn nparts(&self) -> usize {
        self.parts.iter().map(|p| p.index + 1).max().unwrap_or(0)
    }
    /// The part at a layout index.
    pub fn part_at(&self, index: usize) -> Option<&PartSpec> {
        self.parts.iter().find(|p| p.index == index)
    }
    /// Number of slot pairs the parts' spans take (shared ones once; a
    /// repeated part's number, which only its region's program uses, is
    /// below it too).
    pub fn npairs(&self) -> usize {
        self.parts.iter().map(|p| p.slot + 1).max().unwrap_or(0)
    }
    /// The default profile's parts this profile declares, as bits by index
    /// (`Spans::fixed`: a typed accessor reads its slot only if set).
    pub fn fixed_mask(&self) -> u8 {
        self.parts
            .iter()
            .filter(|p| p.index < self.nfixed.min(8) && !p.hidden)
            .fold(0u8, |m, p| m | 1 << p.index)
    }
    /// Number of capture slots: two per slot pair and one for the kind.
    pub fn nslots(&self) -> usize {
        2 * self.npairs() + 1
    }
}

/// `reg-name` -> `RegName`, `rfc2396bis-00` -> `Rfc2396bis00`.
pub fn camel(name: &str) -> String {
    name.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut cs = w.chars();
            let first = cs.next().map(|c| c.to_ascii_uppercase());
            first.into_iter().chain(cs).collect::<String>()
        })
        .collect()
}

/// `NAME` or `NAME=Variant`.
fn named(word: &str) -> (String, String) {
    match word.split_once('=') {
        Some((n, v)) => (n.to_string(), v.to_string()),
        None => (word.to_string(), camel(word)),
    }
}

fn gerr(file: &str, line: u32, message: impl Into<String>) -> GrammarError {
    GrammarError {
        file: file.to_string(),
        line,
        message: message.into(),
    }
}

/// Loads every `*.abnf` file in `dir` that declares a `;@ profile`, sorted by
/// file name, with its includes. Files without a profile (like `core.abnf`)
/// are still parsed, so that their syntax errors surface. Parts and kinds are
/// laid out so that those the default profile declares have the same index
/// in every profile (the runtime's typed views, `Component` and `HostKind`).
pub fn load_profiles(dir: &Path) -> Result<Vec<ProfileSpec>, GrammarError> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| {
            gerr(
                &dir.display().to_string(),
                0,
                format!("cannot read grammar directory: {e}"),
            )
        })?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "abnf"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let text = std::fs::read_to_string(&path)
            .map_err(|e| gerr(&name, 0, format!("cannot read: {e}")))?;
        let parsed = abnf::parse(&name, &text)?;
        if parsed.directives.iter().any(|d| d.words[0] == "profile") {
            out.push(build_profile(dir, &name, parsed)?);
        } else {
            // A library of rules: it must resolve on its own.
            resolve(vec![(name.clone(), parsed.rules)])?;
        }
    }
    let defaults = out.iter().filter(|p| p.is_default).count();
    if defaults != 1 && !out.is_empty() {
        return Err(gerr(
            "abnf/",
            0,
            format!("exactly one profile must say `;@ default`, found {defaults}"),
        ));
    }
    layout(&mut out);
    Ok(out)
}

/// Part and kind indices: the default profile's in declaration order, and in
/// every other profile the same index for the same name, new names after.
fn layout(specs: &mut [ProfileSpec]) {
    let Some(def) = specs.iter().find(|p| p.is_default) else {
        return;
    };
    let base: Vec<String> = def
        .parts
        .iter()
        .map(|p| p.name.to_ascii_lowercase())
        .collect();
    let base_kinds: Vec<String> = def.kinds.iter().map(|k| k.name.clone()).collect();
    for spec in specs.iter_mut() {
        let mut next = base.len();
        for p in spec.parts.iter_mut() {
            p.index = match base.iter().position(|b| *b == p.name.to_ascii_lowercase()) {
                Some(i) => i,
                None => {
                    next += 1;
                    next - 1
                }
            };
        }
        for p in spec.parts.iter_mut() {
            p.slot = p.index;
        }
        spec.nfixed = base.len();
        spec.kind_part = spec.kind_part.map(|i| spec.parts[i].index);
        spec.parts.sort_by_key(|p| p.index);
        // Kinds: the default's names keep their index (a placeholder where
        // this profile lacks one), new names follow in declaration order.
        let mut kinds: Vec<KindSpec> = Vec::new();
        let mut remap = vec![0usize; spec.kinds.len()];
        for b in &base_kinds {
            match spec.kinds.iter().position(|k| k.name == *b) {
                Some(k) => {
                    remap[k] = kinds.len();
                    kinds.push(spec.kinds[k].clone());
                }
                None => kinds.push(KindSpec {
                    name: String::new(),
                    variant: String::new(),
                }),
            }
        }
        for (k, kind) in spec.kinds.iter().enumerate() {
            if !base_kinds.contains(&kind.name) {
                remap[k] = kinds.len();
                kinds.push(kind.clone());
            }
        }
        for (_, k) in spec.kind_rules.iter_mut() {
            *k = remap[*k];
        }
        spec.kinds = kinds;
    }
}

fn build_profile(
    dir: &Path,
    file: &str,
    parsed: abnf::ParsedFile,
) -> Result<ProfileSpec, GrammarError> {
    // Included rules first, so that the file's own `=/` can extend them.
    let mut sources = Vec::new();
    for d in &parsed.directives {
        if d.words[0] == "include" {
            let inc = d
                .words
                .get(1)
                .ok_or_else(|| gerr(file, d.line, "include needs a file name"))?;
            let text = std::fs::read_to_string(dir.join(inc))
                .map_err(|e| gerr(file, d.line, format!("cannot include `{inc}`: {e}")))?;
            sources.push((inc.clone(), abnf::parse(inc, &text)?.rules));
        }
    }
    sources.push((file.to_string(), parsed.rules));
    let grammar = resolve(sources)?;
    let rule = |line: u32, name: &str| {
        grammar.lookup(name).ok_or_else(|| {
            gerr(
                file,
                line,
                format!("directive names undefined rule `{name}`"),
            )
        })
    };
    let mut spec = ProfileSpec {
        variant: String::new(),
        cli_name: String::new(),
        description: String::new(),
        is_default: false,
        file: file.to_string(),
        grammar: Grammar::default(),
        entries: Vec::new(),
        parts: Vec::new(),
        kind_part: None,
        nfixed: 0,
        kinds: Vec::new(),
        kind_rules: Vec::new(),
        schemes: Vec::new(),
        percent: None,
        ip_literal: Vec::new(),
        resolution: String::new(),
        unreserved: None,
    };
    let mut kind_part_name: Option<(String, u32)> = None;
    for d in &parsed.directives {
        let w = &d.words;
        let arg = |i: usize| {
            w.get(i)
                .ok_or_else(|| gerr(file, d.line, format!("`{}` needs more arguments", w[0])))
        };
        match w[0].as_str() {
            "profile" => {
                spec.variant = arg(1)?.clone();
                spec.cli_name = arg(2)?.clone();
                spec.description = arg(3)?.clone();
            }
            "default" => spec.is_default = true,
            "include" => {}
            "entry" => {
                let name = arg(1)?.clone();
                if spec.entries.iter().any(|(n, _)| *n == name) {
                    return Err(gerr(file, d.line, format!("entry `{name}` given twice")));
                }
                spec.entries.push((name, rule(d.line, arg(2)?)?));
            }
            "part" => {
                // `;@ part NAME RULE...`, or `;@ part RULE`: named after it.
                let name = arg(1)?.clone();
                let names: Vec<&String> = if w.len() == 2 {
                    vec![&w[1]]
                } else {
                    w[2..].iter().collect()
                };
                if spec
                    .parts
                    .iter()
                    .any(|p| p.name.eq_ignore_ascii_case(&name))
                {
                    return Err(gerr(file, d.line, format!("part `{name}` given twice")));
                }
                let mut rules = Vec::new();
                for n in names {
                    let r = rule(d.line, n)?;
                    if let Some(p) = spec.parts.iter().find(|p| p.rules.contains(&r)) {
                        return Err(gerr(
                            file,
                            d.line,
                            format!("rule `{n}` is already part `{}`", p.name),
                        ));
                    }
                    rules.push(r);
                }
                let (name, variant) = named(&name);
                spec.parts.push(PartSpec {
                    name,
                    variant,
                    rules,
                    index: spec.parts.len(),
                    line: d.line,
                    repeated: false,
                    hidden: false,
                    region: None,
                    slot: 0,
                    sources: u64::MAX,
                });
            }
            "kind" => {
                // `;@ kind PART NAME[=Variant] RULE...`
                let part = arg(1)?.clone();
                arg(3)?;
                match &kind_part_name {
                    Some((p, _)) if !p.eq_ignore_ascii_case(&part) => {
                        return Err(gerr(
                            file,
                            d.line,
                            format!("a profile classifies one part; `{p}` already has kinds"),
                        ))
                    }
                    _ => kind_part_name = Some((part, d.line)),
                }
                let (name, variant) = named(arg(2)?);
                let k = match spec.kinds.iter().position(|k| k.name == name) {
                    Some(k) => k,
                    None => {
                        spec.kinds.push(KindSpec { name, variant });
                        spec.kinds.len() - 1
                    }
                };
                for n in &w[3..] {
                    spec.kind_rules.push((rule(d.line, n)?, k));
                }
            }
            "scheme" => {
                let name = arg(1)?.to_ascii_lowercase();
                if spec.schemes.iter().any(|(n, _)| *n == name) {
                    return Err(gerr(file, d.line, format!("scheme `{name}` given twice")));
                }
                if name.is_empty()
                    || !name.as_bytes()[0].is_ascii_alphabetic()
                    || !name
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b))
                {
                    return Err(gerr(
                        file,
                        d.line,
                        format!("`{name}` is not a scheme name (RFC 3986 3.1)"),
                    ));
                }
                spec.schemes.push((name, rule(d.line, arg(2)?)?));
            }
            "percent" => spec.percent = Some(rule(d.line, arg(1)?)?),
            "unreserved" => spec.unreserved = Some(rule(d.line, arg(1)?)?),
            "resolution" => spec.resolution = camel(arg(1)?),
            "ip-literal" => {
                for n in &w[1..] {
                    spec.ip_literal.push(rule(d.line, n)?);
                }
            }
            other => return Err(gerr(file, d.line, format!("unknown directive `{other}`"))),
        }
    }
    if spec.variant.is_empty() || !spec.variant.as_bytes()[0].is_ascii_uppercase() {
        return Err(gerr(
            file,
            1,
            "`;@ profile` needs a CamelCase variant name, a CLI name and a description",
        ));
    }
    if spec.entries.is_empty() {
        return Err(gerr(
            file,
            1,
            "a profile needs at least one `;@ entry NAME RULE`",
        ));
    }
    if spec.resolution.is_empty() {
        return Err(gerr(file, 1, "a profile needs `;@ resolution ALGORITHM`"));
    }
    if let Some((name, line)) = kind_part_name {
        spec.kind_part = Some(
            spec.parts
                .iter()
                .position(|p| p.name.eq_ignore_ascii_case(&name))
                .ok_or_else(|| {
                    gerr(
                        file,
                        line,
                        format!("`;@ kind` names undeclared part `{name}`"),
                    )
                })?,
        );
    }
    spec.grammar = grammar;
    Ok(spec)
}

/// Resolves the rules of several files into one grammar.
pub fn resolve(sources: Vec<(String, Vec<abnf::RawRule>)>) -> Result<Grammar, GrammarError> {
    let mut g = Grammar::default();
    let mut raw: Vec<(String, abnf::RawRule)> = Vec::new();
    for (file, rules) in sources {
        for r in rules {
            let key = r.name.to_ascii_lowercase();
            match g.by_name.get(&key) {
                Some(&i) if r.incremental => {
                    let prev = raw[i].1.node.clone();
                    raw[i].1.node = Node::Alt(vec![prev, r.node]);
                }
                Some(&i) => {
                    return Err(gerr(
                        &file,
                        r.line,
                        format!(
                            "rule `{}` is already defined at {}:{}",
                            r.name, raw[i].0, raw[i].1.line
                        ),
                    ))
                }
                None if r.incremental => {
                    return Err(gerr(
                        &file,
                        r.line,
                        format!("`=/` for rule `{}` that is not defined yet", r.name),
                    ))
                }
                None => {
                    g.by_name.insert(key, raw.len());
                    raw.push((file.clone(), r));
                }
            }
        }
    }
    for (file, r) in &raw {
        let expr = convert(&g, file, &r.node)?;
        g.rules.push(Rule {
            name: r.name.clone(),
            file: file.clone(),
            line: r.line,
            expr,
        });
    }
    check_recursion(&g)?;
    Ok(g)
}

fn convert(g: &Grammar, file: &str, n: &Node) -> Result<Expr, GrammarError> {
    Ok(match n {
        Node::Alt(xs) => Expr::Alt(
            xs.iter()
                .map(|x| convert(g, file, x))
                .collect::<Result<_, _>>()?,
        ),
        Node::Seq(xs) => Expr::Seq(
            xs.iter()
                .map(|x| convert(g, file, x))
                .collect::<Result<_, _>>()?,
        ),
        Node::Rep { min, max, node } => Expr::Rep {
            min: *min,
            max: *max,
            e: Box::new(convert(g, file, node)?),
        },
        Node::Set(s) => Expr::Set(*s),
        Node::Empty => Expr::Empty,
        Node::Ref { name, line } => Expr::Ref(
            g.lookup(name)
                .ok_or_else(|| gerr(file, *line, format!("undefined rule `{name}`")))?,
        ),
        Node::Prose { text, line } => {
            return Err(gerr(
                file,
                *line,
                format!("prose value <{text}> cannot be compiled (only as `0<...>`)"),
            ))
        }
    })
}

fn refs(e: &Expr, out: &mut Vec<usize>) {
    match e {
        Expr::Alt(xs) | Expr::Seq(xs) => xs.iter().for_each(|x| refs(x, out)),
        Expr::Rep { e, .. } => refs(e, out),
        Expr::Ref(r) => out.push(*r),
        Expr::Set(_) | Expr::Empty => {}
    }
}

/// Grammars must be regular to become DFAs: no rule may refer to itself,
/// directly or through others.
fn check_recursion(g: &Grammar) -> Result<(), GrammarError> {
    // 0 = unvisited, 1 = on the stack, 2 = done
    let mut color = vec![0u8; g.rules.len()];
    let mut stack = Vec::new();
    fn visit(
        g: &Grammar,
        r: usize,
        color: &mut [u8],
        stack: &mut Vec<usize>,
    ) -> Result<(), GrammarError> {
        if color[r] == 2 {
            return Ok(());
        }
        if color[r] == 1 {
            let start = stack.iter().position(|&x| x == r).unwrap_or(0);
            let cycle: Vec<_> = stack[start..]
                .iter()
                .chain([&r])
                .map(|&i| g.rules[i].name.as_str())
                .collect();
            let rule = &g.rules[r];
            return Err(gerr(
                &rule.file,
                rule.line,
                format!("recursive rule: {}", cycle.join(" -> ")),
            ));
        }
        color[r] = 1;
        stack.push(r);
        let mut out = Vec::new();
        refs(&g.rules[r].expr, &mut out);
        for x in out {
            visit(g, x, color, stack)?;
        }
        stack.pop();
        color[r] = 2;
        Ok(())
    }
    for r in 0..g.rules.len() {
        visit(g, r, &mut color, &mut stack)?;
    }
    Ok(())
}

/// Whether a rule only ever matches one byte, or is the percent-encoding
/// rule, or chooses among such rules: such rules are too small to name in an
/// error ("invalid character in segment" says more than "in pchar").
pub fn is_charlike(g: &Grammar, percent: Option<usize>, e: &Expr) -> bool {
    match e {
        Expr::Set(_) => true,
        Expr::Ref(r) => Some(*r) == percent || is_charlike(g, percent, &g.rules[*r].expr),
        Expr::Alt(xs) => xs.iter().all(|x| is_charlike(g, percent, x)),
        Expr::Seq(xs) => xs.len() == 1 && is_charlike(g, percent, &xs[0]),
        Expr::Rep { .. } | Expr::Empty => false,
    }
}

/// Does `e` contain (through references) any rule for which `pred` holds?
pub fn mentions(g: &Grammar, e: &Expr, pred: &dyn Fn(usize) -> bool) -> bool {
    match e {
        Expr::Alt(xs) | Expr::Seq(xs) => xs.iter().any(|x| mentions(g, x, pred)),
        Expr::Rep { e, .. } => mentions(g, e, pred),
        Expr::Ref(r) => pred(*r) || mentions(g, &g.rules[*r].expr, pred),
        Expr::Set(_) | Expr::Empty => false,
    }
}
