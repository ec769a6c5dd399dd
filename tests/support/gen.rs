//! Seeded generation of URI-reference-like inputs: pieces built from the
//! RFC 3986 grammar, then mutated toward the edges (percent signs, IP
//! literals, empty authorities, colons in first segments, huge ports,
//! dot segments, non-ASCII bytes, controls, spaces, brackets in paths).
#![allow(dead_code)]

pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
    pub fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len())]
    }
}

const SCHEMES: &[&str] = &[
    "http", "https", "ftp", "file", "a", "A+b-c.d", "urn", "mailto", "x1", "1x", "-a", "",
];
const USERINFO: &[&str] = &[
    "user",
    "user:pass",
    "",
    ":",
    "a%20b",
    "a@b",
    "%zz",
    "u;=!$",
    "[x]",
];
const REGNAMES: &[&str] = &[
    "example.com",
    "",
    "a",
    "localhost",
    "xn--bcher-kva.ch",
    "a_b~c",
    "%41%42",
    "a%2",
    "ex ample",
    "a:b",
    "WWW.EXAMPLE.COM",
    "!$&'()*+,;=",
    "1.2.3.4",
    "0.0.0.0",
    "255.255.255.255",
    "256.1.1.1",
    "01.2.3.4",
    "1.2.3",
    "1.2.3.4.5",
    "1..2.3",
    "0x7f.1",
    "127.1",
    "1.2.3.04",
];
const IPVFUTURE: &[&str] = &[
    "v1.x", "vF.a:b", "v.x", "v1.", "V7.!$", "v12ab.~", "vg.x", "v1x",
];
const PORTS: &[&str] = &[
    "",
    "80",
    "080",
    "65535",
    "65536",
    "99999999999999999999",
    "8a",
    "0",
    "-1",
    " 80",
];
const SEGMENTS: &[&str] = &[
    "a",
    "b",
    "",
    ".",
    "..",
    "%41",
    "%4",
    "%zz",
    "%",
    "a:b",
    "@",
    "[x]",
    " ",
    "a b",
    "\u{e9}",
    "~user",
    "g;x=1",
    "!$&'()*+,;=",
    "c%2Fd",
    "\t",
    "x#y",
    "x?y",
    "%00",
    "%0D%0A",
];
const QUERIES: &[&str] = &[
    "", "q", "a=1&b=2", "/?:@", "x y", "%2", "a#b", "?", "[", "%25", "&&",
];

fn h16(r: &mut Rng) -> String {
    let max = if r.chance(5) { 6 } else { 4 };
    let digits = 1 + r.below(max);
    let mut out = String::new();
    for _ in 0..digits {
        let alphabet = if r.chance(3) { 23 } else { 22 };
        out.push(b"0123456789abcdefABCDEFg"[r.below(alphabet)] as char);
    }
    out
}

fn ipv4(r: &mut Rng) -> String {
    let parts = if r.chance(90) { 4 } else { 3 + 2 * r.below(2) };
    (0..parts)
        .map(|_| match r.below(6) {
            0 => "0".to_string(),
            1 => "255".to_string(),
            2 => "256".to_string(),
            3 => "01".to_string(),
            _ => r.below(256).to_string(),
        })
        .collect::<Vec<_>>()
        .join(".")
}

fn ipv6(r: &mut Rng) -> String {
    let total = if r.chance(80) { 8 } else { 6 + r.below(5) };
    let ipv4_tail = r.chance(20);
    let n = if ipv4_tail {
        total.saturating_sub(2)
    } else {
        total
    };
    let mut groups: Vec<String> = (0..n).map(|_| h16(r)).collect();
    if ipv4_tail {
        groups.push(ipv4(r));
    }
    if r.chance(70) && !groups.is_empty() {
        // Compress a run of groups into "::".
        let start = r.below(groups.len() + 1);
        let len = r
            .below(groups.len() - start + 1)
            .max(if r.chance(80) { 1 } else { 0 });
        let len = len.min(groups.len() - start);
        let left = groups[..start].join(":");
        let right = groups[start + len..].join(":");
        let mut s = format!("{left}::{right}");
        if r.chance(5) {
            s.push_str("::");
        }
        s
    } else {
        groups.join(":")
    }
}

fn host(r: &mut Rng) -> String {
    match r.below(10) {
        0..=4 => r.pick(REGNAMES).to_string(),
        5 => ipv4(r),
        6..=7 => format!("[{}]", ipv6(r)),
        8 => format!("[{}]", r.pick(IPVFUTURE)),
        _ => match r.below(4) {
            0 => format!("[{}%25eth0]", ipv6(r)),
            1 => format!("[{}", ipv6(r)),
            2 => ipv6(r),
            _ => "[]".to_string(),
        },
    }
}

fn path(r: &mut Rng, absolute: bool) -> String {
    let n = r.below(5);
    let segs: Vec<&str> = (0..n).map(|_| r.pick(SEGMENTS)).collect();
    let mut p = segs.join("/");
    if absolute || r.chance(30) {
        p.insert(0, '/');
    }
    if r.chance(10) {
        p.insert(0, '/');
    }
    p
}

/// One input built from the grammar's pieces.
pub fn piece(r: &mut Rng) -> Vec<u8> {
    let mut s = String::new();
    if r.chance(60) {
        s.push_str(r.pick(SCHEMES));
        s.push(':');
    }
    let has_authority = r.chance(60);
    if has_authority {
        s.push_str("//");
        if r.chance(25) {
            s.push_str(r.pick(USERINFO));
            s.push('@');
        }
        s.push_str(&host(r));
        if r.chance(30) {
            s.push(':');
            s.push_str(r.pick(PORTS));
        }
    }
    let rooted = has_authority && r.chance(80);
    s.push_str(&path(r, rooted));
    if r.chance(30) {
        s.push('?');
        s.push_str(r.pick(QUERIES));
    }
    if r.chance(20) {
        s.push('#');
        s.push_str(r.pick(QUERIES));
    }
    s.into_bytes()
}

const SPECIAL: &[u8] = b"%:/?#[]@!$&'()*+,;=.-_~ \t\r\0\x7f\x80\xc3\xa9\xff0aAZvV";

/// A piece, sometimes mutated by byte insertions, deletions and changes.
pub fn input(r: &mut Rng) -> Vec<u8> {
    let mut v = piece(r);
    if r.chance(40) {
        for _ in 0..1 + r.below(3) {
            let at = r.below(v.len() + 1);
            match r.below(3) {
                0 => v.insert(at, SPECIAL[r.below(SPECIAL.len())]),
                1 if at < v.len() => {
                    v.remove(at);
                }
                _ if at < v.len() => v[at] = SPECIAL[r.below(SPECIAL.len())],
                _ => v.push(r.next() as u8),
            }
        }
    }
    v
}
