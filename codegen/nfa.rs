//! Stage 3: Thompson NFAs over bytes, built from resolved rules.
//!
//! Each state that consumes a byte carries a label: the component it belongs
//! to, the innermost rule worth naming in an error, and a hint (inside a
//! percent-encoding after its `%`, or inside an IP literal). The DFA stage
//! carries the labels over so that the runtime can say where an input failed.

use super::abnf::ByteSet;
use super::ir::{is_charlike, Expr, Grammar, ProfileSpec};

pub const HINT_NONE: u8 = 0;
pub const HINT_PERCENT: u8 = 1;
pub const HINT_IP_LITERAL: u8 = 2;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Label {
    pub component: Option<u8>,
    pub rule: Option<usize>,
    pub hint: u8,
    pub depth: u32,
}

#[derive(Clone, Debug, Default)]
pub struct NState {
    pub eps: Vec<u32>,
    pub byte: Option<(ByteSet, u32)>,
    pub label: Label,
}

#[derive(Clone, Debug)]
pub struct Nfa {
    pub states: Vec<NState>,
    pub start: u32,
    pub accept: u32,
}

#[derive(Clone, Copy, Debug, Default)]
struct Ctx {
    component: Option<u8>,
    rule: Option<usize>,
    depth: u32,
    in_ip: bool,
    in_pct: bool,
}

struct Builder<'a> {
    g: &'a Grammar,
    spec: Option<&'a ProfileSpec>,
    states: Vec<NState>,
}

impl Builder<'_> {
    fn new_state(&mut self) -> u32 {
        self.states.push(NState::default());
        (self.states.len() - 1) as u32
    }
    fn eps(&mut self, from: u32, to: u32) {
        self.states[from as usize].eps.push(to);
    }

    fn build(&mut self, e: &Expr, ctx: Ctx) -> (u32, u32) {
        match e {
            Expr::Empty => {
                let s = self.new_state();
                (s, s)
            }
            Expr::Set(set) => {
                let s = self.new_state();
                let t = self.new_state();
                let hint = if ctx.in_pct {
                    HINT_PERCENT
                } else if ctx.in_ip {
                    HINT_IP_LITERAL
                } else {
                    HINT_NONE
                };
                self.states[s as usize].byte = Some((*set, t));
                self.states[s as usize].label = Label {
                    component: ctx.component,
                    rule: ctx.rule,
                    hint,
                    depth: ctx.depth,
                };
                (s, t)
            }
            Expr::Seq(xs) => self.seq(xs, ctx, ctx),
            Expr::Alt(xs) => {
                let s = self.new_state();
                let t = self.new_state();
                for x in xs {
                    let (a, b) = self.build(x, ctx);
                    self.eps(s, a);
                    self.eps(b, t);
                }
                (s, t)
            }
            Expr::Rep { min, max, e } => {
                let start = self.new_state();
                let mut cur = start;
                for _ in 0..*min {
                    let (a, b) = self.build(e, ctx);
                    self.eps(cur, a);
                    cur = b;
                }
                match max {
                    None => {
                        let l = self.new_state();
                        self.eps(cur, l);
                        let (a, b) = self.build(e, ctx);
                        self.eps(l, a);
                        self.eps(b, l);
                        cur = l;
                    }
                    Some(m) => {
                        // Nested optionals, (x(x(x)?)?)?, rather than x?x?x?:
                        // the same language, with small epsilon closures.
                        let end = self.new_state();
                        for _ in *min..*m {
                            let (a, b) = self.build(e, ctx);
                            self.eps(cur, a);
                            self.eps(cur, end);
                            cur = b;
                        }
                        self.eps(cur, end);
                        cur = end;
                    }
                }
                (start, cur)
            }
            Expr::Ref(r) => {
                let r = *r;
                let g = self.g;
                let mut inner = ctx;
                let mut percent = false;
                if let Some(spec) = self.spec {
                    if let Some(c) = spec.component_of(r) {
                        inner.component = Some(c as u8);
                    }
                    if spec.ip_literal.contains(&r) {
                        inner.in_ip = true;
                    }
                    percent = spec.percent == Some(r);
                    if percent || !is_charlike(g, spec.percent, &g.rules[r].expr) {
                        inner.rule = Some(r);
                        inner.depth += 1;
                    }
                } else {
                    inner.rule = Some(r);
                    inner.depth += 1;
                }
                match (&g.rules[r].expr, percent) {
                    // The first byte of a percent-encoding (the `%`) belongs to
                    // the surrounding rule; the bytes after it are the encoding's.
                    (Expr::Seq(xs), true) => {
                        let mut rest = inner;
                        rest.in_pct = true;
                        let mut first = ctx;
                        first.component = inner.component;
                        self.seq(xs, first, rest)
                    }
                    (e, _) => self.build(e, inner),
                }
            }
        }
    }

    fn seq(&mut self, xs: &[Expr], first: Ctx, rest: Ctx) -> (u32, u32) {
        let s = self.new_state();
        let mut cur = s;
        for (i, x) in xs.iter().enumerate() {
            let (a, b) = self.build(x, if i == 0 { first } else { rest });
            self.eps(cur, a);
            cur = b;
        }
        (s, cur)
    }
}

/// An NFA for the alternation of `rules`, labelled from `spec` when given.
pub fn from_rules(g: &Grammar, spec: Option<&ProfileSpec>, rules: &[usize]) -> Nfa {
    let alt = Expr::Alt(rules.iter().map(|&r| Expr::Ref(r)).collect());
    from_expr(g, spec, &alt)
}

pub fn from_expr(g: &Grammar, spec: Option<&ProfileSpec>, e: &Expr) -> Nfa {
    let mut b = Builder {
        g,
        spec,
        states: Vec::new(),
    };
    let (start, accept) = b.build(e, Ctx::default());
    Nfa {
        states: b.states,
        start,
        accept,
    }
}
