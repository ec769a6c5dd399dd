//! `w3c`: the W3C Extended Log File Format (W3C Working Draft
//! WD-logfile-960323), as IIS, Amazon CloudFront and other servers write
//! it. Lines starting with `#` are directives and give no rows; a
//! `#Fields:` directive names the columns of the records after it, and may
//! change mid-file (a chunk that starts after one still reads by it: the
//! reader hands each chunk the last one before it). Fields are separated
//! by spaces or tabs; a field of `-` is absent; a field starting with `"`
//! is a quoted string (`""` a quote in it).
//!
//! A row is a request: the target is `cs-uri` where the fields have it,
//! else `cs-uri-stem`, plus `?` and `cs-uri-query` when that is not `-`;
//! its form comes from `cs-method` (RFC 9112 section 3.2); the referer is
//! `cs(Referer)`. Any field can be carried by `--fields` under its W3C
//! name.

use super::{
    Carried, CarriedKind, Chunk, Context, Decoder, LogField, Registered, Rows, Sequence, TargetForm,
};
use std::sync::{Arc, Mutex};

pub(super) const REGISTERED: Registered = Registered {
    name: "w3c",
    argument: None,
    about: "W3C extended log format (IIS, CloudFront): `#Fields:` name the columns; the target, the referer",
    make: |_| Ok(Arc::new(W3c)),
};

const fn num(name: &'static str) -> Carried {
    Carried::new(name, CarriedKind::U64)
}

const fn small(name: &'static str) -> Carried {
    Carried::new(name, CarriedKind::U16)
}

/// The fields `--fields all` carries: those IIS and CloudFront write (a
/// file's `#Fields:` may name others, which `--fields` takes by name).
const KNOWN: [Carried; 42] = [
    Carried::text("date"),
    Carried::text("time"),
    Carried::text("s-sitename"),
    Carried::text("s-computername"),
    Carried::text("s-ip"),
    small("s-port"),
    Carried::text("c-ip"),
    small("c-port"),
    Carried::text("cs-username"),
    Carried::text("cs-method"),
    Carried::text("cs-uri-stem"),
    Carried::text("cs-uri-query"),
    Carried::text("cs-uri"),
    Carried::text("cs-version"),
    Carried::text("cs-protocol"),
    Carried::text("cs-protocol-version"),
    Carried::text("cs-host"),
    Carried::text("cs(Host)"),
    Carried::text("cs(User-Agent)"),
    Carried::text("cs(Cookie)"),
    Carried::text("cs(Referer)"),
    small("sc-status"),
    num("sc-substatus"),
    num("sc-win32-status"),
    num("sc-bytes"),
    num("cs-bytes"),
    Carried::text("time-taken"),
    Carried::text("time-to-first-byte"),
    Carried::text("sc-content-type"),
    num("sc-content-len"),
    num("sc-range-start"),
    num("sc-range-end"),
    Carried::text("x-edge-location"),
    Carried::text("x-edge-result-type"),
    Carried::text("x-edge-response-result-type"),
    Carried::text("x-edge-detailed-result-type"),
    Carried::text("x-edge-request-id"),
    Carried::text("x-host-header"),
    Carried::text("x-forwarded-for"),
    Carried::text("ssl-protocol"),
    Carried::text("ssl-cipher"),
    Carried::text("fle-status"),
];

/// The prefixes of W3C field identifiers (client, server, remote, and the
/// directions between them; `x-` for application-specific ones).
const PREFIXES: [&str; 8] = ["c", "s", "r", "cs", "sc", "sr", "rs", "x"];

struct W3c;

impl Decoder for W3c {
    fn spec(&self) -> String {
        "w3c".into()
    }
    fn label(&self) -> &'static str {
        "W3C"
    }
    fn requests(&self) -> bool {
        true
    }
    fn has_referer(&self) -> bool {
        true
    }
    fn carried(&self) -> &'static [Carried] {
        &KNOWN
    }
    fn carried_named(&self, name: &str) -> Option<Carried> {
        if let Some(c) = KNOWN.iter().find(|c| c.name.eq_ignore_ascii_case(name)) {
            return Some(*c);
        }
        identifier(name).then(|| Carried::text(intern(name)))
    }
    fn sequence(&self) -> Box<dyn Sequence> {
        Box::new(LastFields(None))
    }

    fn decode(&self, chunk: &Chunk, context: &Context, rows: &mut Rows<'_>) {
        let mut layout: Option<Arc<Layout>> = context
            .as_ref()
            .and_then(|c| c.clone().downcast::<Layout>().ok());
        let mut carry = layout.as_ref().map(|l| l.carry(&rows.ex.carry));
        let mut fields = Vec::new();
        for (line, rec) in super::numbered_lines(chunk) {
            if let Some(directive) = rec.strip_prefix(b"#") {
                if let Some(names) = directive.strip_prefix(b"Fields:") {
                    let l = Layout::new(names);
                    carry = Some(l.carry(&rows.ex.carry));
                    layout = Some(Arc::new(l));
                }
                continue;
            }
            let (Some(l), Some(carry)) = (&layout, &carry) else {
                rows.error(line, "no #Fields directive before the record", Some(0));
                continue;
            };
            if let Err((what, at)) = split(rec, &mut fields) {
                rows.error(line, what, Some(at));
                continue;
            }
            if fields.len() != l.names.len() {
                let at = fields.get(l.names.len()).map_or(rec.len(), |f| f.start);
                let what = format_args!(
                    "{} fields where #Fields names {}",
                    fields.len(),
                    l.names.len()
                );
                rows.error(line, what, Some(at));
                continue;
            }
            l.row(rows, rec, line, &fields, carry);
        }
    }
}

/// The fields a `#Fields:` directive names, and where the ones a row
/// needs are.
struct Layout {
    names: Vec<String>,
    uri: Option<usize>,
    stem: Option<usize>,
    query: Option<usize>,
    method: Option<usize>,
    referer: Option<usize>,
}

impl Layout {
    fn new(directive: &[u8]) -> Layout {
        let names: Vec<String> = directive
            .split(|&b| b == b' ' || b == b'\t')
            .filter(|n| !n.is_empty())
            .map(|n| String::from_utf8_lossy(n).into_owned())
            .collect();
        let at = |name: &str| names.iter().position(|n| n.eq_ignore_ascii_case(name));
        Layout {
            uri: at("cs-uri"),
            stem: at("cs-uri-stem"),
            query: at("cs-uri-query"),
            method: at("cs-method"),
            referer: at("cs(Referer)"),
            names,
        }
    }

    /// Where each carried field asked for is among the fields.
    fn carry(&self, wanted: &[Carried]) -> Vec<Option<usize>> {
        wanted
            .iter()
            .map(|c| {
                self.names
                    .iter()
                    .position(|n| n.eq_ignore_ascii_case(c.name))
            })
            .collect()
    }

    fn row(
        &self,
        rows: &mut Rows<'_>,
        rec: &[u8],
        line: u64,
        fields: &[Field],
        carry: &[Option<usize>],
    ) {
        if rows.ex.has_target() && self.uri.is_none() && self.stem.is_none() {
            return rows.error(line, "no cs-uri-stem or cs-uri in #Fields", None);
        }
        let arena = &mut rows.out.arena;
        let put = |k: Option<usize>, arena: &mut Vec<u8>| k.and_then(|k| fields[k].put(rec, arena));
        // The target only where `--field` wants it.
        let stem = self.uri.or(self.stem).filter(|_| rows.ex.has_target());
        let target = match (self.uri, put(stem, arena)) {
            (None, Some((a, b))) => match put(self.query, arena) {
                // The query was put right after the stem: `?` between.
                Some((_, e)) => {
                    arena.insert(b as usize, b'?');
                    Some((a, e + 1))
                }
                None => Some((a, b)),
            },
            (_, t) => t,
        };
        // The referer likewise; the method is read where it is (it only
        // decides the target's form).
        let referer = match rows.ex.field {
            LogField::Target => None,
            _ => put(self.referer, arena),
        };
        let out = &mut *rows.out;
        out.carried
            .extend(carry.iter().map(|&k| put(k, &mut out.arena)));
        let method = self.method.map_or(&b""[..], |k| fields[k].text(rec));
        let arena = &rows.out.arena;
        let target = target.map(|(a, b)| {
            let form = TargetForm::of(method, &arena[a as usize..b as usize]);
            (form, (a, b))
        });
        rows.request(target, referer);
        rows.done(line);
    }
}

/// A field of a record: its bytes, and whether they are quoted (then
/// without the quotes, `""` still doubled).
#[derive(Clone, Copy)]
struct Field {
    start: usize,
    end: usize,
    quoted: bool,
}

impl Field {
    /// Its bytes in the record (a quoted one without its quotes, `""`
    /// still doubled); `-` is empty.
    fn text<'r>(&self, rec: &'r [u8]) -> &'r [u8] {
        let raw = &rec[self.start..self.end];
        if raw == b"-" && !self.quoted {
            b""
        } else {
            raw
        }
    }

    /// Its value appended to `arena`, as a span (`None`: `-`, absent).
    fn put(&self, rec: &[u8], arena: &mut Vec<u8>) -> Option<(u32, u32)> {
        let raw = &rec[self.start..self.end];
        if raw == b"-" && !self.quoted {
            return None;
        }
        let a = arena.len() as u32;
        self.value(raw, arena);
        Some((a, arena.len() as u32))
    }

    fn value(&self, raw: &[u8], out: &mut Vec<u8>) {
        if !self.quoted {
            return out.extend_from_slice(raw);
        }
        let mut rest = raw;
        while let Some(q) = memchr::memchr(b'"', rest) {
            out.extend_from_slice(&rest[..=q]);
            rest = &rest[q + 2..];
        }
        out.extend_from_slice(rest);
    }
}

/// The fields of `rec`, separated by runs of spaces and tabs.
fn split(rec: &[u8], out: &mut Vec<Field>) -> Result<(), (&'static str, usize)> {
    out.clear();
    let blank = |b: u8| b == b' ' || b == b'\t';
    let mut i = 0;
    loop {
        while rec.get(i).is_some_and(|&b| blank(b)) {
            i += 1;
        }
        if i == rec.len() {
            break;
        }
        if rec[i] == b'"' {
            let open = i;
            let start = i + 1;
            let mut j = start;
            let end = loop {
                match memchr::memchr(b'"', &rec[j..]) {
                    None => return Err(("unclosed quote", open)),
                    Some(q) if rec.get(j + q + 1) == Some(&b'"') => j += q + 2,
                    Some(q) => break j + q,
                }
            };
            i = end + 1;
            if rec.get(i).is_some_and(|&b| !blank(b)) {
                return Err(("a quoted field runs on after its closing quote", i));
            }
            out.push(Field {
                start,
                end,
                quoted: true,
            });
        } else {
            let start = i;
            while rec.get(i).is_some_and(|&b| !blank(b)) {
                i += 1;
            }
            out.push(Field {
                start,
                end: i,
                quoted: false,
            });
        }
    }
    if out.is_empty() {
        return Err(("empty line", 0));
    }
    Ok(())
}

/// Whether `name` is a W3C field identifier with a prefix (`x-foo`,
/// `cs(Accept)`), which `--fields` takes though no list names it.
fn identifier(name: &str) -> bool {
    let prefixed = |sep: char| {
        name.split_once(sep)
            .is_some_and(|(p, rest)| PREFIXES.contains(&p) && !rest.is_empty())
    };
    let header = prefixed('(') && name.ends_with(')');
    let plain = prefixed('-');
    (header || plain)
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.()".contains(&b))
}

/// One `'static` copy of each carried name no list has (column names are
/// `'static`); as many as the distinct names asked for.
fn intern(name: &str) -> &'static str {
    static NAMES: Mutex<Vec<&'static str>> = Mutex::new(Vec::new());
    let mut names = NAMES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(n) = names.iter().find(|n| **n == name) {
        return n;
    }
    let n: &'static str = Box::leak(name.to_owned().into_boxed_str());
    names.push(n);
    n
}

/// The last `#Fields:` directive before each chunk, in its input.
struct LastFields(Context);

impl Sequence for LastFields {
    fn next(&mut self, chunk: &Chunk) -> Result<Context, String> {
        if chunk.starts_input {
            self.0 = None;
        }
        let before = self.0.clone();
        if chunk.kind == super::ChunkKind::Records {
            let data: &[u8] = &chunk.data;
            let at_line_start = |i: usize| i == 0 || data[i - 1] == b'\n';
            // Forward (memchr's SIMD prefilter), keeping the last: a
            // reverse search has no prefilter and reads a chunk several
            // times slower, on the reader's one thread.
            if let Some(i) = memchr::memmem::find_iter(data, b"#Fields:")
                .filter(|&i| at_line_start(i))
                .last()
            {
                let rest = &data[i + b"#Fields:".len()..];
                let end = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
                let names = rest[..end].strip_suffix(b"\r").unwrap_or(&rest[..end]);
                self.0 = Some(Arc::new(Layout::new(names)));
            }
        }
        Ok(before)
    }
}
