//! The text writers' straight line for the common row: one valid
//! reference whose parts come from its batch record. The row is composed
//! in a buffer of the writer's from fixed pieces (a column's key with
//! `null`, or with the opening quote) and the part's bytes, each copied
//! in 16-byte blocks (a fixed-size move instead of a call to `memcpy`
//! per part; the bytes past a part are overwritten by what follows), then
//! appended to the chunk's output at once. Any other row (invalid, absent,
//! a profile whose parts are not all in the record, a column this does not
//! know) takes the general path of [`crate::schema::Schema::cells`].

use crate::model::TextFormat;
use crate::schema::{Column, Schema};
use urilex::{Component, Entry, HostKind};

/// A fixed piece of text (at most 48 bytes), padded for block copies.
#[derive(Clone, Copy)]
struct Piece {
    bytes: [u8; 48],
    len: usize,
}

impl Piece {
    fn new(parts: &[&[u8]]) -> Option<Piece> {
        let mut p = Piece {
            bytes: [0; 48],
            len: 0,
        };
        for s in parts {
            if p.len + s.len() > 48 {
                return None;
            }
            p.bytes[p.len..p.len + s.len()].copy_from_slice(s);
            p.len += s.len();
        }
        Some(p)
    }
}

#[derive(Clone)]
enum Op {
    /// A piece.
    Const(Piece),
    /// The line number after a key.
    Line(Piece),
    /// Whether URI column `u` is valid: `yes`, or `null` when it has no
    /// reference.
    Valid { u: usize, yes: Piece, null: Piece },
    /// A part of URI column `u`: when absent `null`, else `open`, the
    /// bytes, `close`.
    Part {
        u: usize,
        c: Component,
        null: Piece,
        open: Piece,
    },
    /// The host kind: `null`, or the kind's piece.
    Kind {
        u: usize,
        null: Piece,
        kinds: [Piece; 4],
    },
    /// The port as a number: `null`, or `key` and the digits.
    Port { u: usize, null: Piece, key: Piece },
    /// The request target's form (set by the caller per row).
    Form { null: Piece, forms: [Piece; 4] },
}

/// The straight-line writer of one schema and format.
#[derive(Clone)]
pub struct FastRows {
    ops: Vec<Op>,
    close: Piece,
    csv: bool,
    json: bool,
    /// Room past a row's limit that the fixed pieces may take.
    room: usize,
    /// The last row's line number as text.
    number: Number,
}

/// A line number's decimal digits, kept from row to row: a row's number
/// is most often the last row's plus one, and adding one to the digits
/// in place touches one digit nine times in ten (formatting each number
/// anew cost about 150 instructions a row, callgrind: the compiler
/// divided by every power of 100 before it knew how many digits there
/// were).
#[derive(Clone)]
struct Number {
    value: u64,
    /// The digits, first at 0, and room for a fixed-size copy.
    digits: [u8; 24],
    len: usize,
}

impl Number {
    fn new() -> Number {
        let mut n = Number {
            value: 0,
            digits: [0; 24],
            len: 0,
        };
        n.set(0);
        n
    }

    /// Makes `n` the number held.
    #[cold]
    #[inline(never)]
    fn set(&mut self, n: u64) {
        let (buf, i) = decimal(n);
        let len = buf.len() - i;
        self.digits = [0; 24];
        self.digits[..len].copy_from_slice(&buf[i..]);
        self.len = len;
        self.value = n;
    }

    /// Makes `n` the number held: one more than the last by an
    /// increment of its digits, else anew.
    #[inline(always)]
    fn to(&mut self, n: u64) {
        // (No u64 is twenty nines, so a carry past the first digit leaves
        // at most 20 digits.)
        if self.value.checked_add(1) != Some(n) {
            return self.set(n);
        }
        self.value = n;
        let mut i = self.len;
        while i > 0 {
            i -= 1;
            if self.digits[i] != b'9' {
                self.digits[i] += 1;
                return;
            }
            self.digits[i] = b'0';
        }
        // All nines: a one in front, the zeros one place on.
        self.digits[self.len] = b'0';
        self.digits[0] = b'1';
        self.len += 1;
    }
}

/// Room in the row buffer; a row that would not fit takes the general path.
const ROW: usize = 16 << 10;
/// Slack past the end of what is written (block copies overrun).
const SLACK: usize = 64;

impl FastRows {
    /// The writer for `schema` in `format`, if its columns allow one.
    pub fn new(schema: &Schema, format: TextFormat) -> Option<FastRows> {
        if !schema.fast() {
            return None;
        }
        let json = format == TextFormat::Jsonl;
        let csv = format == TextFormat::Csv;
        let sep: &[u8] = if csv { b"," } else { b"\t" };
        let mut ops = Vec::new();
        for (k, (c, name)) in schema.columns.iter().zip(&schema.names).enumerate() {
            let key: Vec<u8> = if json {
                let lead: &[u8] = if k == 0 { b"{\"" } else { b",\"" };
                [lead, name.as_bytes(), b"\":"].concat()
            } else if k == 0 {
                Vec::new()
            } else {
                sep.to_vec()
            };
            let null_text: &[u8] = match (json, csv) {
                (true, _) => b"null",
                (false, true) => b"",
                (false, false) => b"\\N",
            };
            let null = Piece::new(&[&key, null_text])?;
            let quote: &[u8] = if json { b"\"" } else { b"" };
            let open = Piece::new(&[&key, quote])?;
            let text = |t: &[u8]| Piece::new(&[&key, quote, t, quote]);
            let op = match c {
                Column::Line => Op::Line(Piece::new(&[&key])?),
                Column::Valid(u) => Op::Valid {
                    u: usize::from(*u),
                    yes: Piece::new(&[&key, b"true"])?,
                    null,
                },
                Column::Error(_) if json => Op::Const(null),
                Column::Error(_) => {
                    let mut cells = key.clone();
                    for i in 0..6 {
                        if i > 0 {
                            cells.extend_from_slice(sep);
                        }
                        cells.extend_from_slice(null_text);
                    }
                    Op::Const(Piece::new(&[&cells])?)
                }
                Column::Part(u, p) => Op::Part {
                    u: usize::from(*u),
                    c: Component::ALL[p.index()],
                    null,
                    open,
                },
                Column::Kind(u) => Op::Kind {
                    u: usize::from(*u),
                    null,
                    kinds: [
                        text(HostKind::ALL[0].as_str().as_bytes())?,
                        text(HostKind::ALL[1].as_str().as_bytes())?,
                        text(HostKind::ALL[2].as_str().as_bytes())?,
                        text(HostKind::ALL[3].as_str().as_bytes())?,
                    ],
                },
                Column::PortNumber(u) => Op::Port {
                    u: usize::from(*u),
                    null,
                    key: Piece::new(&[&key])?,
                },
                Column::TargetForm => {
                    let f = crate::format::TargetForm::NAMES;
                    Op::Form {
                        null,
                        forms: [
                            text(f[0].as_bytes())?,
                            text(f[1].as_bytes())?,
                            text(f[2].as_bytes())?,
                            text(f[3].as_bytes())?,
                        ],
                    }
                }
                _ => return None,
            };
            ops.push(op);
        }
        let close = Piece::new(&[if json { b"}\n" } else { b"\n" }])?;
        let room = ROW + 48 * (ops.len() + 1) + SLACK;
        Some(FastRows {
            ops,
            close,
            csv,
            json,
            room,
            number: Number::new(),
        })
    }

    /// Writes the row whose URI columns hold the valid references `uris`
    /// (each its record, and its line at the start of a slice that runs on
    /// to the end of its buffer; `None` for a column with no reference) at
    /// `out[pos..]`, growing `out` as needed (its length is room, not
    /// content): the end of the row, or `None` (nothing written) when it
    /// takes the general path.
    #[inline]
    pub fn write(
        &mut self,
        out: &mut Vec<u8>,
        mut pos: usize,
        number: u64,
        form: Option<crate::format::TargetForm>,
        uris: &[Option<(Entry<'_>, &[u8])>],
    ) -> Option<usize> {
        let limit = pos + ROW;
        if out.len() < limit + self.room {
            // A quarter more than needed: buffers are reused, so this settles
            // near the largest chunk's rows without doubling past them.
            let grow = (limit + self.room).max(out.len() + out.len() / 4);
            out.resize(grow, 0);
        }
        let row = &mut out[..];
        // The line number's digits move on only where a column shows them.
        let kept = &mut self.number;
        for op in &self.ops {
            match op {
                Op::Const(p) => pos = put(row, pos, p),
                Op::Line(key) => {
                    pos = put(row, pos, key);
                    kept.to(number);
                    row[pos..pos + 24].copy_from_slice(&kept.digits);
                    pos += kept.len;
                }
                Op::Valid { u, yes, null } => {
                    pos = put(row, pos, if uris[*u].is_some() { yes } else { null });
                }
                Op::Part { u, c, null, open } => {
                    match uris[*u].as_ref().and_then(|(e, l)| Some((e.span(*c)?, *l))) {
                        None => pos = put(row, pos, null),
                        Some((s, line)) => {
                            let n = s.end - s.start;
                            if pos + n + SLACK > limit {
                                return None;
                            }
                            if self.csv && (n == 0 || line[s.clone()].contains(&b',')) {
                                pos = put(row, pos, open);
                                row[pos] = b'"';
                                pos = copy(row, pos + 1, line, s.start, s.end);
                                row[pos] = b'"';
                                pos += 1;
                                continue;
                            }
                            pos = put(row, pos, open);
                            pos = copy(row, pos, line, s.start, s.end);
                            // JSON's closing quote; TSV and CSV write over it.
                            row[pos] = b'"';
                            pos += usize::from(self.json);
                        }
                    }
                }
                Op::Kind { u, null, kinds } => {
                    pos = match uris[*u].as_ref().and_then(|(e, _)| e.host_kind()) {
                        Some(k) => put(row, pos, &kinds[k as usize]),
                        None => put(row, pos, null),
                    }
                }
                Op::Port { u, null, key } => {
                    let n = uris[*u]
                        .as_ref()
                        .and_then(|(e, line)| urilex::port_number(&line[e.span(Component::Port)?]));
                    match n {
                        Some(n) => {
                            pos = put(row, pos, key);
                            pos = digits(row, pos, u64::from(n));
                        }
                        None => pos = put(row, pos, null),
                    }
                }
                Op::Form { null, forms } => {
                    pos = match form {
                        Some(f) => put(row, pos, &forms[f as usize]),
                        None => put(row, pos, null),
                    }
                }
            }
        }
        Some(put(row, pos, &self.close))
    }
}

#[inline(always)]
fn put(row: &mut [u8], pos: usize, p: &Piece) -> usize {
    row[pos..pos + 48].copy_from_slice(&p.bytes);
    pos + p.len
}

/// Copies `src[s..e]` to `row[pos..]` in blocks where `src` has the
/// bytes past `e` to read (the row has the slack to write them): the
/// first 32 bytes as one fixed-size move (most parts are shorter), the
/// rest 16 at a time. Each range is checked once: checked at each 16-byte
/// block, the copy took 16 instructions a block, and a loop from the
/// first byte took some 35 to set up for a part of one or two blocks.
#[inline(always)]
fn copy(row: &mut [u8], pos: usize, src: &[u8], s: usize, e: usize) -> usize {
    let n = e - s;
    let blocks = n.max(32).next_multiple_of(16);
    match (src.get(s..s + blocks), row.get_mut(pos..pos + blocks)) {
        (Some(from), Some(to)) => {
            let (head, rest) = to.split_at_mut(32);
            head.copy_from_slice(&from[..32]);
            if n > 32 {
                for (to, from) in rest.chunks_exact_mut(16).zip(from[32..].chunks_exact(16)) {
                    to.copy_from_slice(from);
                }
            }
        }
        _ => row[pos..pos + n].copy_from_slice(&src[s..e]),
    }
    pos + n
}

#[inline(always)]
fn digits(row: &mut [u8], pos: usize, n: u64) -> usize {
    let (buf, i) = decimal(n);
    let len = buf.len() - i;
    row[pos..pos + len].copy_from_slice(&buf[i..]);
    pos + len
}

/// The decimal digits of `n`: a buffer and where they start in it.
#[inline(always)]
pub(crate) fn decimal(mut n: u64) -> ([u8; 20], usize) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    // Two digits a step.
    while n >= 100 {
        let d = (n % 100) as usize * 2;
        n /= 100;
        i -= 2;
        buf[i..i + 2].copy_from_slice(&PAIRS[d..d + 2]);
    }
    if n >= 10 {
        let d = n as usize * 2;
        i -= 2;
        buf[i..i + 2].copy_from_slice(&PAIRS[d..d + 2]);
    } else {
        i -= 1;
        buf[i] = b'0' + n as u8;
    }
    (buf, i)
}

/// `00`, `01`, ..., `99`.
const PAIRS: [u8; 200] = {
    let mut t = [0u8; 200];
    let mut k = 0;
    while k < 100 {
        t[2 * k] = b'0' + (k / 10) as u8;
        t[2 * k + 1] = b'0' + (k % 10) as u8;
        k += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    /// The digits kept from row to row are the number's, whether a row's
    /// number is the last one's plus one (carries through every place,
    /// up to u64::MAX) or any other.
    #[test]
    fn a_line_number_kept_is_its_decimal_text() {
        let mut n = super::Number::new();
        let check = |n: &super::Number, v: u64| {
            assert_eq!(&n.digits[..n.len], v.to_string().as_bytes(), "{v}");
            assert!(n.digits[n.len..].iter().all(|&d| d == 0), "{v}");
        };
        check(&n, 0);
        let mut runs: Vec<u64> = vec![0, 7, 95, 995, 9_995, 99_995, 123_456_789_995];
        runs.extend((1..20).map(|e| 10u64.pow(e) - 5));
        runs.push(u64::MAX - 6);
        for start in runs {
            n.to(start);
            check(&n, start);
            for v in start + 1..=start.saturating_add(6) {
                n.to(v);
                check(&n, v);
            }
        }
        // Backwards, the same number again, and a wrap to zero.
        for v in [500, 400, 400, 401, u64::MAX, 0, 1, 10, 9, 10] {
            n.to(v);
            check(&n, v);
        }
    }

    #[test]
    fn decimal_is_to_string() {
        let mut ns = vec![
            0,
            1,
            9,
            10,
            11,
            99,
            100,
            101,
            999,
            1000,
            u64::MAX,
            u64::MAX - 1,
        ];
        ns.extend((0..64).map(|s| 1u64 << s));
        ns.extend((1..20).map(|e| 10u64.pow(e) - 1));
        ns.extend((1..20).map(|e| 10u64.pow(e)));
        for n in ns {
            let (buf, i) = super::decimal(n);
            assert_eq!(&buf[i..], n.to_string().as_bytes());
        }
    }
}
