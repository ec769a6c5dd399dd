//! Stage 1: ABNF text (RFC 5234, plus RFC 7405 `%s`/`%i` strings) to syntax trees.
//!
//! A rule starts in column 0 and continues on lines that begin with white
//! space. Comments run from `;` to the end of the line; comments that begin
//! with `;@` are urilex directives and are returned separately.

use std::fmt;

/// A set of bytes, one bit per byte value.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct ByteSet(pub [u64; 4]);

impl ByteSet {
    pub fn empty() -> Self {
        ByteSet([0; 4])
    }
    pub fn single(b: u8) -> Self {
        let mut s = Self::empty();
        s.insert(b);
        s
    }
    pub fn range(lo: u8, hi: u8) -> Self {
        let mut s = Self::empty();
        for b in lo..=hi {
            s.insert(b);
        }
        s
    }
    pub fn insert(&mut self, b: u8) {
        self.0[(b >> 6) as usize] |= 1u64 << (b & 63);
    }
    pub fn contains(&self, b: u8) -> bool {
        self.0[(b >> 6) as usize] & (1u64 << (b & 63)) != 0
    }
    pub fn union(&self, o: &ByteSet) -> ByteSet {
        let mut r = *self;
        for i in 0..4 {
            r.0[i] |= o.0[i];
        }
        r
    }
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 4]
    }
    pub fn intersect(&self, o: &ByteSet) -> ByteSet {
        let mut r = *self;
        for i in 0..4 {
            r.0[i] &= o.0[i];
        }
        r
    }
    /// The bytes of `self` not in `o`.
    pub fn minus(&self, o: &ByteSet) -> ByteSet {
        let mut r = *self;
        for i in 0..4 {
            r.0[i] &= !o.0[i];
        }
        r
    }
    pub fn iter(&self) -> impl Iterator<Item = u8> + '_ {
        (0..=255u8).filter(move |&b| self.contains(b))
    }
    /// A quoted ABNF character: case-insensitive for letters unless `sensitive`.
    pub fn char_val(c: u8, sensitive: bool) -> Self {
        let mut s = Self::single(c);
        if !sensitive && c.is_ascii_alphabetic() {
            s.insert(c.to_ascii_lowercase());
            s.insert(c.to_ascii_uppercase());
        }
        s
    }
}

impl fmt::Debug for ByteSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[")?;
        let mut b = 0u32;
        while b < 256 {
            if self.contains(b as u8) {
                let lo = b;
                while b + 1 < 256 && self.contains((b + 1) as u8) {
                    b += 1;
                }
                if lo == b {
                    write!(f, "{:02x} ", lo)?;
                } else {
                    write!(f, "{:02x}-{:02x} ", lo, b)?;
                }
            }
            b += 1;
        }
        write!(f, "]")
    }
}

/// An ABNF expression as written.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Node {
    Alt(Vec<Node>),
    Seq(Vec<Node>),
    Rep {
        min: u32,
        max: Option<u32>,
        node: Box<Node>,
    },
    /// One byte from a set (a `%x` value or range, or one quoted character).
    Set(ByteSet),
    /// A reference to a rule, with the line it appears on.
    Ref {
        name: String,
        line: u32,
    },
    /// The empty string (`0<...>`, `0*0x`, `""`).
    Empty,
    /// Prose `<...>`, which cannot be compiled unless repeated zero times.
    Prose {
        text: String,
        line: u32,
    },
}

#[derive(Clone, Debug)]
pub struct RawRule {
    pub name: String,
    pub incremental: bool,
    pub node: Node,
    pub line: u32,
}

#[derive(Clone, Debug)]
pub struct Directive {
    pub words: Vec<String>,
    pub line: u32,
}

#[derive(Clone, Debug)]
pub struct ParsedFile {
    pub rules: Vec<RawRule>,
    pub directives: Vec<Directive>,
}

/// An error with the file and line it was found at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GrammarError {
    pub file: String,
    pub line: u32,
    pub message: String,
}

impl fmt::Display for GrammarError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.message)
    }
}

impl std::error::Error for GrammarError {}

/// Parses one ABNF file.
pub fn parse(file: &str, text: &str) -> Result<ParsedFile, GrammarError> {
    let err = |line: u32, message: String| GrammarError {
        file: file.to_string(),
        line,
        message,
    };
    let mut rules = Vec::new();
    let mut directives = Vec::new();
    // Logical rule being collected: its text (comments removed), and for each
    // byte the line it came from.
    let mut cur: Option<(Vec<u8>, Vec<u32>)> = None;
    let flush = |cur: &mut Option<(Vec<u8>, Vec<u32>)>,
                 rules: &mut Vec<RawRule>|
     -> Result<(), GrammarError> {
        if let Some((bytes, lines)) = cur.take() {
            rules.push(parse_rule(file, &bytes, &lines)?);
        }
        Ok(())
    };
    for (i, raw_line) in text.lines().enumerate() {
        let lineno = i as u32 + 1;
        let line = raw_line.trim_end_matches('\r');
        if let Some(rest) = line.strip_prefix(";@") {
            let words = split_words(rest).map_err(|m| err(lineno, m))?;
            if !words.is_empty() {
                directives.push(Directive {
                    words,
                    line: lineno,
                });
            }
            continue;
        }
        if !line.is_ascii() {
            return Err(err(lineno, "non-ASCII character in grammar".into()));
        }
        let code = strip_comment(line);
        let starts_rule = line
            .as_bytes()
            .first()
            .is_some_and(|b| !b.is_ascii_whitespace() && *b != b';');
        if starts_rule {
            flush(&mut cur, &mut rules)?;
            let bytes = code.as_bytes().to_vec();
            let lines = vec![lineno; bytes.len()];
            cur = Some((bytes, lines));
        } else if !code.trim().is_empty() {
            match cur.as_mut() {
                Some((bytes, lines)) => {
                    bytes.push(b' ');
                    lines.push(lineno);
                    bytes.extend_from_slice(code.as_bytes());
                    lines.extend(std::iter::repeat_n(lineno, code.len()));
                }
                None => return Err(err(lineno, "continuation line outside of any rule".into())),
            }
        }
    }
    flush(&mut cur, &mut rules)?;
    Ok(ParsedFile { rules, directives })
}

fn split_words(s: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut it = s.chars().peekable();
    while let Some(&c) = it.peek() {
        if c.is_whitespace() {
            it.next();
        } else if c == '"' {
            it.next();
            let mut w = String::new();
            loop {
                match it.next() {
                    Some('"') => break,
                    Some(c) => w.push(c),
                    None => return Err("unterminated quoted word in directive".into()),
                }
            }
            words.push(w);
        } else {
            let mut w = String::new();
            while let Some(&c) = it.peek() {
                if c.is_whitespace() {
                    break;
                }
                w.push(c);
                it.next();
            }
            words.push(w);
        }
    }
    Ok(words)
}

/// Removes a `;` comment, leaving quoted strings and prose intact.
fn strip_comment(line: &str) -> &str {
    let b = line.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += 1;
                }
            }
            b'<' => {
                while i < b.len() && b[i] != b'>' {
                    i += 1;
                }
            }
            b';' => return &line[..i],
            _ => {}
        }
        i += 1;
    }
    line
}

struct Cursor<'a> {
    file: &'a str,
    s: &'a [u8],
    lines: &'a [u32],
    pos: usize,
}

impl Cursor<'_> {
    fn line(&self) -> u32 {
        let i = self.pos.min(self.lines.len().saturating_sub(1));
        self.lines.get(i).copied().unwrap_or(0)
    }
    fn err<T>(&self, msg: impl Into<String>) -> Result<T, GrammarError> {
        Err(GrammarError {
            file: self.file.to_string(),
            line: self.line(),
            message: msg.into(),
        })
    }
    fn peek(&self) -> Option<u8> {
        self.s.get(self.pos).copied()
    }
    fn ws(&mut self) {
        while self.peek().is_some_and(|c| c == b' ' || c == b'\t') {
            self.pos += 1;
        }
    }
    fn digits(&mut self, radix: u32) -> Option<u32> {
        let start = self.pos;
        let mut v: u32 = 0;
        while let Some(d) = self.peek().and_then(|c| (c as char).to_digit(radix)) {
            v = v.checked_mul(radix)?.checked_add(d)?;
            self.pos += 1;
        }
        (self.pos > start).then_some(v)
    }
}

fn parse_rule(file: &str, s: &[u8], lines: &[u32]) -> Result<RawRule, GrammarError> {
    let mut c = Cursor {
        file,
        s,
        lines,
        pos: 0,
    };
    let line = c.line();
    let start = c.pos;
    while c
        .peek()
        .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'-')
    {
        c.pos += 1;
    }
    let name = String::from_utf8_lossy(&s[start..c.pos]).into_owned();
    if name.is_empty() || !name.as_bytes()[0].is_ascii_alphabetic() {
        return c.err(format!(
            "expected a rule name, found `{}`",
            String::from_utf8_lossy(s).trim()
        ));
    }
    c.ws();
    if c.peek() != Some(b'=') {
        return c.err(format!("expected `=` after rule name `{name}`"));
    }
    c.pos += 1;
    let incremental = c.peek() == Some(b'/');
    if incremental {
        c.pos += 1;
    }
    let node = alternation(&mut c)?;
    c.ws();
    if c.pos < s.len() {
        return c.err(format!(
            "unexpected `{}` in rule `{name}`",
            c.peek().unwrap_or(b'?') as char
        ));
    }
    Ok(RawRule {
        name,
        incremental,
        node,
        line,
    })
}

fn alternation(c: &mut Cursor) -> Result<Node, GrammarError> {
    let mut alts = vec![concatenation(c)?];
    loop {
        c.ws();
        if c.peek() == Some(b'/') {
            c.pos += 1;
            alts.push(concatenation(c)?);
        } else {
            break;
        }
    }
    Ok(if alts.len() == 1 {
        alts.pop().unwrap_or(Node::Empty)
    } else {
        Node::Alt(alts)
    })
}

fn concatenation(c: &mut Cursor) -> Result<Node, GrammarError> {
    let mut items = Vec::new();
    loop {
        c.ws();
        match c.peek() {
            None | Some(b'/') | Some(b')') | Some(b']') => break,
            _ => items.push(repetition(c)?),
        }
    }
    if items.is_empty() {
        return c.err("empty alternative");
    }
    Ok(if items.len() == 1 {
        items.pop().unwrap_or(Node::Empty)
    } else {
        Node::Seq(items)
    })
}

fn repetition(c: &mut Cursor) -> Result<Node, GrammarError> {
    let min = c.digits(10);
    let (min, max, rep) = if c.peek() == Some(b'*') {
        c.pos += 1;
        let max = c.digits(10);
        (min.unwrap_or(0), max, true)
    } else if let Some(n) = min {
        (n, Some(n), true)
    } else {
        (1, Some(1), false)
    };
    if let Some(m) = max {
        if m < min {
            return c.err(format!(
                "repetition {min}*{m} has its maximum below its minimum"
            ));
        }
    }
    let node = element(c)?;
    if !rep {
        return Ok(node);
    }
    if max == Some(0) {
        return Ok(Node::Empty);
    }
    Ok(Node::Rep {
        min,
        max,
        node: Box::new(node),
    })
}

fn element(c: &mut Cursor) -> Result<Node, GrammarError> {
    let line = c.line();
    match c.peek() {
        Some(b'(') | Some(b'[') => {
            let open = c.peek();
            c.pos += 1;
            let inner = alternation(c)?;
            c.ws();
            let close = if open == Some(b'(') { b')' } else { b']' };
            if c.peek() != Some(close) {
                return c.err(format!("expected `{}`", close as char));
            }
            c.pos += 1;
            Ok(if open == Some(b'[') {
                Node::Rep {
                    min: 0,
                    max: Some(1),
                    node: Box::new(inner),
                }
            } else {
                inner
            })
        }
        Some(b'"') => quoted(c, false),
        Some(b'%') => {
            c.pos += 1;
            match c.peek().map(|b| b.to_ascii_lowercase()) {
                Some(b's') => {
                    c.pos += 1;
                    quoted(c, true)
                }
                Some(b'i') => {
                    c.pos += 1;
                    quoted(c, false)
                }
                Some(b) if b == b'x' || b == b'd' || b == b'b' => {
                    c.pos += 1;
                    let radix = match b {
                        b'x' => 16,
                        b'd' => 10,
                        _ => 2,
                    };
                    num_val(c, radix)
                }
                _ => c.err("expected b, d, x, s or i after `%`"),
            }
        }
        Some(b'<') => {
            let start = c.pos + 1;
            while c.peek().is_some_and(|b| b != b'>') {
                c.pos += 1;
            }
            if c.peek() != Some(b'>') {
                return c.err("unterminated prose value `<...`");
            }
            let text = String::from_utf8_lossy(&c.s[start..c.pos]).into_owned();
            c.pos += 1;
            Ok(Node::Prose { text, line })
        }
        Some(b) if b.is_ascii_alphabetic() => {
            let start = c.pos;
            while c
                .peek()
                .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'-')
            {
                c.pos += 1;
            }
            Ok(Node::Ref {
                name: String::from_utf8_lossy(&c.s[start..c.pos]).into_owned(),
                line,
            })
        }
        Some(b) => c.err(format!("unexpected `{}`", b as char)),
        None => c.err("unexpected end of rule"),
    }
}

fn quoted(c: &mut Cursor, sensitive: bool) -> Result<Node, GrammarError> {
    if c.peek() != Some(b'"') {
        return c.err("expected `\"`");
    }
    c.pos += 1;
    let mut items = Vec::new();
    loop {
        match c.peek() {
            Some(b'"') => {
                c.pos += 1;
                break;
            }
            Some(b) if (0x20..=0x7e).contains(&b) => {
                items.push(Node::Set(ByteSet::char_val(b, sensitive)));
                c.pos += 1;
            }
            _ => return c.err("unterminated or invalid quoted string"),
        }
    }
    Ok(match items.len() {
        0 => Node::Empty,
        1 => items.pop().unwrap_or(Node::Empty),
        _ => Node::Seq(items),
    })
}

fn num_val(c: &mut Cursor, radix: u32) -> Result<Node, GrammarError> {
    let byte = |c: &mut Cursor| -> Result<u8, GrammarError> {
        match c.digits(radix) {
            Some(v) if v <= 255 => Ok(v as u8),
            Some(v) => c.err(format!(
                "value {v} does not fit in one byte (urilex grammars are over bytes)"
            )),
            None => c.err("expected digits in numeric value"),
        }
    };
    let first = byte(c)?;
    match c.peek() {
        Some(b'-') => {
            c.pos += 1;
            let hi = byte(c)?;
            if hi < first {
                return c.err("range with its end below its start");
            }
            Ok(Node::Set(ByteSet::range(first, hi)))
        }
        Some(b'.') => {
            let mut items = vec![Node::Set(ByteSet::single(first))];
            while c.peek() == Some(b'.') {
                c.pos += 1;
                items.push(Node::Set(ByteSet::single(byte(c)?)));
            }
            Ok(Node::Seq(items))
        }
        _ => Ok(Node::Set(ByteSet::single(first))),
    }
}
