//! A reference parser for RFC 1738 (seed 002), written directly from the
//! BNF of its section 5 with small backtracking combinators, independent of
//! urilex's generator: every rule below is the BNF's, in the BNF's order,
//! with the changes `abnf/rfc1738.abnf` notes (schemes in any case, the
//! scheme's rule chosen by the scheme, `ip-schemepart` tried before
//! `*xchar`, the gopher selector and search without the escapes section
//! 3.4 reserves). A parse is the first full match in the grammar's order
//! (alternatives left to right, optional parts present first, repetitions
//! longest first); it lists every named part's spans in order.
#![allow(dead_code)]

use std::rc::Rc;

/// A parse in progress: the position, and the parts recorded so far.
#[derive(Clone, Debug)]
pub struct State {
    pub pos: usize,
    pub parts: Vec<(&'static str, usize, usize)>,
}

type Iter<'a> = Box<dyn Iterator<Item = State> + 'a>;
/// A rule: from a state, every way to go on, in the grammar's order.
type Rule = dyn for<'a> Fn(&'a [u8], State) -> Iter<'a>;
#[derive(Clone)]
pub struct P(Rc<Rule>);

impl P {
    fn run<'a>(&self, s: &'a [u8], st: State) -> Iter<'a> {
        (self.0)(s, st)
    }
}

fn p(f: impl for<'a> Fn(&'a [u8], State) -> Iter<'a> + 'static) -> P {
    P(Rc::new(f))
}

/// One byte for which `f` holds.
fn class(f: fn(u8) -> bool) -> P {
    p(move |s, st| {
        if st.pos < s.len() && f(s[st.pos]) {
            Box::new(std::iter::once(State {
                pos: st.pos + 1,
                parts: st.parts,
            }))
        } else {
            Box::new(std::iter::empty())
        }
    })
}

/// A literal, ASCII case ignored.
fn lit(l: &'static str) -> P {
    p(move |s, st| {
        let end = st.pos + l.len();
        if end <= s.len() && s[st.pos..end].eq_ignore_ascii_case(l.as_bytes()) {
            Box::new(std::iter::once(State {
                pos: end,
                parts: st.parts,
            }))
        } else {
            Box::new(std::iter::empty())
        }
    })
}

fn seq(xs: Vec<P>) -> P {
    p(move |s, st| {
        let mut it: Iter = Box::new(std::iter::once(st));
        for x in xs.clone() {
            it = Box::new(it.flat_map(move |st| x.run(s, st)));
        }
        it
    })
}

fn alt(xs: Vec<P>) -> P {
    p(move |s, st| {
        let xs = xs.clone();
        Box::new(xs.into_iter().flat_map(move |x| x.run(s, st.clone())))
    })
}

fn empty() -> P {
    p(|_, st| Box::new(std::iter::once(st)))
}

fn opt(x: P) -> P {
    alt(vec![x, empty()])
}

/// `*x`: as many as possible first; each round must consume.
fn star(x: P) -> P {
    fn go<'a>(x: P, s: &'a [u8], st: State) -> Iter<'a> {
        let here = st.clone();
        let x2 = x.clone();
        let more = x
            .run(s, st.clone())
            .filter(move |r| r.pos > st.pos)
            .flat_map(move |r| go(x2.clone(), s, r));
        Box::new(more.chain(std::iter::once(here)))
    }
    p(move |s, st| go(x.clone(), s, st))
}

/// `1*x`.
fn plus(x: P) -> P {
    seq(vec![x.clone(), star(x)])
}

/// Records the text `x` matches as part `name`.
fn part(name: &'static str, x: P) -> P {
    p(move |s, st| {
        let start = st.pos;
        Box::new(x.run(s, st).map(move |mut r| {
            r.parts.push((name, start, r.pos));
            r
        }))
    })
}

fn alpha(b: u8) -> bool {
    b.is_ascii_alphabetic()
}
fn digit(b: u8) -> bool {
    b.is_ascii_digit()
}
fn hex(b: u8) -> bool {
    b.is_ascii_hexdigit()
}
fn safe(b: u8) -> bool {
    b"$-_.+".contains(&b)
}
fn extra(b: u8) -> bool {
    b"!*'(),".contains(&b)
}
fn reserved(b: u8) -> bool {
    b";/?:@&=".contains(&b)
}
fn unreserved(b: u8) -> bool {
    alpha(b) || digit(b) || safe(b) || extra(b)
}
fn any_of(set: &'static [u8]) -> P {
    p(move |s, st| {
        if st.pos < s.len() && set.contains(&s[st.pos]) {
            Box::new(std::iter::once(State {
                pos: st.pos + 1,
                parts: st.parts,
            }))
        } else {
            Box::new(std::iter::empty())
        }
    })
}

fn escape() -> P {
    seq(vec![lit("%"), class(hex), class(hex)])
}
fn uchar() -> P {
    alt(vec![class(unreserved), escape()])
}
fn xchar() -> P {
    alt(vec![class(unreserved), class(reserved), escape()])
}
fn digits() -> P {
    plus(class(digit))
}
fn alphadigit() -> P {
    class(|b| alpha(b) || digit(b))
}

// Section 5, general form.
fn hostname() -> P {
    let domainlabel = alt(vec![
        alphadigit(),
        seq(vec![
            alphadigit(),
            star(alt(vec![alphadigit(), lit("-")])),
            alphadigit(),
        ]),
    ]);
    let toplabel = alt(vec![
        class(alpha),
        seq(vec![
            class(alpha),
            star(alt(vec![alphadigit(), lit("-")])),
            alphadigit(),
        ]),
    ]);
    seq(vec![star(seq(vec![domainlabel, lit(".")])), toplabel])
}
fn hostnumber() -> P {
    seq(vec![
        digits(),
        lit("."),
        digits(),
        lit("."),
        digits(),
        lit("."),
        digits(),
    ])
}
fn host() -> P {
    part("host", alt(vec![hostname(), hostnumber()]))
}
fn hostport() -> P {
    seq(vec![
        host(),
        opt(seq(vec![lit(":"), part("port", digits())])),
    ])
}
fn user_chars() -> P {
    star(alt(vec![uchar(), any_of(b";?&=")]))
}
fn login() -> P {
    seq(vec![
        opt(seq(vec![
            part(
                "userinfo",
                seq(vec![
                    part("user", user_chars()),
                    opt(seq(vec![lit(":"), part("password", user_chars())])),
                ]),
            ),
            lit("@"),
        ])),
        hostport(),
    ])
}
fn scheme() -> P {
    part(
        "scheme",
        plus(class(|b| alpha(b) || digit(b) || b"+-.".contains(&b))),
    )
}
fn genericurl() -> P {
    let ip = seq(vec![
        lit("//"),
        part("authority", login()),
        opt(seq(vec![lit("/"), part("urlpath", star(xchar()))])),
    ]);
    seq(vec![
        scheme(),
        lit(":"),
        part("schemepart", alt(vec![ip, star(xchar())])),
    ])
}

fn scheme_lit(name: &'static str) -> P {
    part("scheme", lit(name))
}

// FTP (3.2) and FILE (3.10).
fn fpath() -> P {
    let fsegment = || part("fsegment", star(alt(vec![uchar(), any_of(b"?:@&=")])));
    part(
        "fpath",
        seq(vec![fsegment(), star(seq(vec![lit("/"), fsegment()]))]),
    )
}
fn ftpurl() -> P {
    seq(vec![
        scheme_lit("ftp"),
        lit("://"),
        part("authority", login()),
        opt(seq(vec![
            lit("/"),
            fpath(),
            opt(seq(vec![lit(";type="), part("ftptype", any_of(b"AIDaid"))])),
        ])),
    ])
}
fn fileurl() -> P {
    seq(vec![
        scheme_lit("file"),
        lit("://"),
        opt(alt(vec![host(), lit("localhost")])),
        lit("/"),
        fpath(),
    ])
}

// HTTP (3.3).
fn search() -> P {
    part("search", star(alt(vec![uchar(), any_of(b";:@&=")])))
}
fn httpurl() -> P {
    let hsegment = || part("hsegment", star(alt(vec![uchar(), any_of(b";:@&=")])));
    seq(vec![
        scheme_lit("http"),
        lit("://"),
        part("authority", hostport()),
        opt(seq(vec![
            lit("/"),
            part(
                "hpath",
                seq(vec![hsegment(), star(seq(vec![lit("/"), hsegment()]))]),
            ),
            opt(seq(vec![lit("?"), search()])),
        ])),
    ])
}

// GOPHER (3.4): the selector holds no %09, %0A, %0D; the search no %09.
fn escape_but(not: &'static [&'static str]) -> P {
    p(move |s, st| {
        let e = st.pos + 3;
        let ok = e <= s.len()
            && s[st.pos] == b'%'
            && hex(s[st.pos + 1])
            && hex(s[st.pos + 2])
            && !not
                .iter()
                .any(|n| s[st.pos..e].eq_ignore_ascii_case(n.as_bytes()));
        if ok {
            Box::new(std::iter::once(State {
                pos: e,
                parts: st.parts,
            }))
        } else {
            Box::new(std::iter::empty())
        }
    })
}
fn gopherurl() -> P {
    let selector = part(
        "selector",
        star(alt(vec![
            class(unreserved),
            class(reserved),
            escape_but(&["%09", "%0A", "%0D"]),
        ])),
    );
    let gsearch = part(
        "search",
        star(alt(vec![
            class(unreserved),
            escape_but(&["%09"]),
            any_of(b";:@&="),
        ])),
    );
    seq(vec![
        scheme_lit("gopher"),
        lit("://"),
        part("authority", hostport()),
        opt(seq(vec![
            lit("/"),
            opt(seq(vec![
                part("gtype", xchar()),
                opt(seq(vec![
                    selector,
                    opt(seq(vec![
                        lit("%09"),
                        gsearch,
                        opt(seq(vec![lit("%09"), part("gopher+_string", star(xchar()))])),
                    ])),
                ])),
            ])),
        ])),
    ])
}

// MAILTO (3.5).
fn mailtourl() -> P {
    seq(vec![
        scheme_lit("mailto"),
        lit(":"),
        part("encoded822addr", plus(xchar())),
    ])
}

// NEWS (3.6) and NNTP (3.7).
fn group() -> P {
    part(
        "group",
        seq(vec![
            class(alpha),
            star(class(|b| alpha(b) || digit(b) || b"-.+_".contains(&b))),
        ]),
    )
}
fn newsurl() -> P {
    let article = part(
        "article",
        seq(vec![
            plus(alt(vec![uchar(), any_of(b";/?:&=")])),
            lit("@"),
            host(),
        ]),
    );
    seq(vec![
        scheme_lit("news"),
        lit(":"),
        part("grouppart", alt(vec![lit("*"), group(), article])),
    ])
}
fn nntpurl() -> P {
    seq(vec![
        scheme_lit("nntp"),
        lit("://"),
        part("authority", hostport()),
        lit("/"),
        group(),
        opt(seq(vec![lit("/"), part("digits", digits())])),
    ])
}

// TELNET (3.8).
fn telneturl() -> P {
    seq(vec![
        scheme_lit("telnet"),
        lit("://"),
        part("authority", login()),
        opt(lit("/")),
    ])
}

// WAIS (3.9).
fn waisurl() -> P {
    let start = || {
        seq(vec![
            scheme_lit("wais"),
            lit("://"),
            part("authority", hostport()),
            lit("/"),
            part("database", star(uchar())),
        ])
    };
    alt(vec![
        start(),
        seq(vec![start(), lit("?"), search()]),
        seq(vec![
            start(),
            lit("/"),
            part("wtype", star(uchar())),
            lit("/"),
            part("wpath", star(uchar())),
        ]),
    ])
}

// PROSPERO (3.11).
fn prosperourl() -> P {
    let psegment = || star(alt(vec![uchar(), any_of(b"?:@&=")]));
    let fieldchars = || star(alt(vec![uchar(), any_of(b"?:@&")]));
    let fieldspec = part(
        "fieldspec",
        seq(vec![
            lit(";"),
            part("fieldname", fieldchars()),
            lit("="),
            part("fieldvalue", fieldchars()),
        ]),
    );
    seq(vec![
        scheme_lit("prospero"),
        lit("://"),
        part("authority", hostport()),
        lit("/"),
        part(
            "ppath",
            seq(vec![psegment(), star(seq(vec![lit("/"), psegment()]))]),
        ),
        star(fieldspec),
    ])
}

/// The parts of `input` as RFC 1738 reads it (each part's spans in
/// order), or `None` when it is not a URL.
pub fn parse(input: &[u8]) -> Option<Vec<(&'static str, usize, usize)>> {
    let colon = input.iter().position(|&b| b == b':')?;
    let scheme = input[..colon].to_ascii_lowercase();
    let rule = match scheme.as_slice() {
        b"ftp" => ftpurl(),
        b"file" => fileurl(),
        b"http" => httpurl(),
        b"gopher" => gopherurl(),
        b"mailto" => mailtourl(),
        b"news" => newsurl(),
        b"nntp" => nntpurl(),
        b"telnet" => telneturl(),
        b"wais" => waisurl(),
        b"prospero" => prosperourl(),
        _ => genericurl(),
    };
    let start = State {
        pos: 0,
        parts: Vec::new(),
    };
    let mut found = rule.run(input, start).find(|r| r.pos == input.len())?;
    found.parts.sort_by_key(|&(n, s, e)| (n, s, e));
    Some(found.parts)
}
