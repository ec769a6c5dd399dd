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

/// The runtime's component names, in the order of `urilex::Component`.
pub const COMPONENTS: [&str; 8] = [
    "scheme",
    "authority",
    "userinfo",
    "host",
    "port",
    "path",
    "query",
    "fragment",
];
/// The runtime's entry points, in the order of `urilex::Grammar`'s variants.
pub const ENTRIES: [&str; 4] = ["reference", "uri", "absolute", "relative"];
/// Reference-resolution algorithms the runtime implements (`src/resolve.rs`),
/// by directive name and Rust variant.
pub const RESOLUTIONS: [(&str, &str); 3] = [
    ("rfc3986", "Rfc3986"),
    ("rfc2396bis-00", "Rfc2396bis00"),
    ("url-draft-05", "UrlDraft05"),
];
/// The runtime's host kinds, in the order of `urilex::HostKind`.
pub const HOST_KINDS: [&str; 4] = ["ipv4", "ipv6", "ipvfuture", "reg-name"];

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
    /// Entry rule for each of `ENTRIES`.
    pub entries: [Option<usize>; 4],
    /// Rules that make up each of `COMPONENTS`.
    pub components: [Vec<usize>; 8],
    /// Rules that give each of `HOST_KINDS`, in the order they are tried.
    pub host_kinds: Vec<(usize, usize)>,
    pub percent: Option<usize>,
    pub ip_literal: Vec<usize>,
    /// Index into `RESOLUTIONS`.
    pub resolution: usize,
    /// The rule of characters that percent-decoding may always restore.
    pub unreserved: Option<usize>,
}

impl ProfileSpec {
    pub fn component_of(&self, rule: usize) -> Option<usize> {
        self.components.iter().position(|rs| rs.contains(&rule))
    }
    pub fn host_kind_of(&self, rule: usize) -> Option<usize> {
        self.host_kinds
            .iter()
            .find(|(r, _)| *r == rule)
            .map(|(_, k)| *k)
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
/// are still parsed, so that their syntax errors surface.
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
    Ok(out)
}

fn build_profile(
    dir: &Path,
    file: &str,
    parsed: abnf::ParsedFile,
) -> Result<ProfileSpec, GrammarError> {
    let mut sources = vec![(file.to_string(), parsed.rules)];
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
        entries: [None; 4],
        components: Default::default(),
        host_kinds: Vec::new(),
        percent: None,
        ip_literal: Vec::new(),
        resolution: 0,
        unreserved: None,
    };
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
                let a1 = arg(1)?;
                let k = ENTRIES.iter().position(|e| e == a1).ok_or_else(|| {
                    gerr(
                        file,
                        d.line,
                        format!("unknown entry `{}`; known: {ENTRIES:?}", w[1]),
                    )
                })?;
                spec.entries[k] = Some(rule(d.line, arg(2)?)?);
            }
            "component" => {
                let a1 = arg(1)?;
                let k = COMPONENTS.iter().position(|e| e == a1).ok_or_else(|| {
                    gerr(
                        file,
                        d.line,
                        format!("unknown component `{}`; known: {COMPONENTS:?}", w[1]),
                    )
                })?;
                arg(2)?;
                for n in &w[2..] {
                    spec.components[k].push(rule(d.line, n)?);
                }
            }
            "host-kind" => {
                let a1 = arg(1)?;
                let k = HOST_KINDS.iter().position(|e| e == a1).ok_or_else(|| {
                    gerr(
                        file,
                        d.line,
                        format!("unknown host kind `{}`; known: {HOST_KINDS:?}", w[1]),
                    )
                })?;
                arg(2)?;
                for n in &w[2..] {
                    spec.host_kinds.push((rule(d.line, n)?, k));
                }
            }
            "percent" => spec.percent = Some(rule(d.line, arg(1)?)?),
            "unreserved" => spec.unreserved = Some(rule(d.line, arg(1)?)?),
            "resolution" => {
                let a1 = arg(1)?;
                spec.resolution =
                    RESOLUTIONS
                        .iter()
                        .position(|(n, _)| n == a1)
                        .ok_or_else(|| {
                            let known: Vec<_> = RESOLUTIONS.iter().map(|(n, _)| *n).collect();
                            gerr(
                                file,
                                d.line,
                                format!("unknown resolution `{a1}`; known: {known:?}"),
                            )
                        })?;
            }
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
    if spec.entries[0].is_none() {
        return Err(gerr(
            file,
            1,
            "a profile needs at least `;@ entry reference RULE`",
        ));
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
