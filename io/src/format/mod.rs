//! Input formats: where the references are in each record, and taking
//! them out.
//!
//! A log format is one [`Decoder`], in a file of its own, registered in
//! [`DECODERS`] (the one list that `--input`, its help, the docs' table
//! and the SQL tables' options read). A chunk of records becomes an
//! [`Extracted`]: per record one row, and per URI column (the reference,
//! or a log's target and referer) the values of all rows joined by LF into
//! buffers that the batch engine parses at once, one buffer per grammar
//! entry (a log's request targets are read in the form their method gives
//! them). A record that does not fit the format is a row with a
//! [`FormatError`]; nothing is dropped.

mod access;
mod csv;
mod header;
mod jsonl;
mod lines;
mod tsv;
mod w3c;

pub use crate::logline::TargetForm;
use crate::source::{Chunk, ChunkKind};
use std::any::Any;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use urilex::Syntax;

/// A log format: how its records are cut, and what rows they give.
pub trait Decoder: Send + Sync {
    /// Its `--input` value, argument included (`csv:url`).
    fn spec(&self) -> String;
    /// Its name in messages (`combined format`, `CSV`).
    fn label(&self) -> &'static str;
    /// Where a record may end: at every LF, or only outside quotes.
    fn cut(&self) -> Cut {
        Cut::Lines
    }
    /// Whether its rows are requests (a target, with its form, and a
    /// referer): `--field` applies.
    fn requests(&self) -> bool {
        false
    }
    /// Whether its records may hold a referer (`--field referer|both`).
    fn has_referer(&self) -> bool {
        false
    }
    /// Whether its values are the chunk's lines as they are (no copy):
    /// the `lines` format.
    fn in_place(&self) -> bool {
        false
    }
    /// Whether readers of separate byte ranges of one file get its rows
    /// right (`ReadOptions::range`): its records are lines that need
    /// nothing from the records before them (no header, no directive).
    fn splittable(&self) -> bool {
        false
    }
    /// The fields it can carry into rows, in row order (`--fields all`).
    fn carried(&self) -> &'static [Carried] {
        &[]
    }
    /// A carried field by name: one of [`carried`](Self::carried), or one
    /// a format that names its fields in the input accepts.
    fn carried_named(&self, name: &str) -> Option<Carried> {
        self.carried().iter().find(|c| c.name == name).copied()
    }
    /// What its chunks need from the chunks before them (a header, a
    /// directive), read in input order by the reader's thread.
    fn sequence(&self) -> Box<dyn Sequence> {
        Box::new(NoContext)
    }
    /// Takes the rows out of `chunk`'s records (whole records) into `out`
    /// (a [`Rows`] with the options).
    fn decode(&self, chunk: &Chunk, context: &Context, out: &mut Rows<'_>);
}

/// What a chunk's decoding needs from before it: the column a header
/// named, the fields a directive declared (each decoder its own type).
pub type Context = Option<Arc<dyn Any + Send + Sync>>;

/// The state a decoder carries from chunk to chunk, in input order.
pub trait Sequence: Send {
    /// The context of `chunk`, the next in input order; an error is a
    /// fault of its input, whose later chunks are then skipped.
    fn next(&mut self, chunk: &Chunk) -> Result<Context, String>;
}

struct NoContext;

impl Sequence for NoContext {
    fn next(&mut self, _: &Chunk) -> Result<Context, String> {
        Ok(None)
    }
}

/// Where records end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cut {
    /// At every LF.
    Lines,
    /// At an LF outside a quoted field (RFC 4180).
    CsvQuotes,
}

/// Makes a decoder from its `--input` argument.
pub type Make = fn(Option<&str>) -> Result<Arc<dyn Decoder>, String>;

/// A registered format.
pub struct Registered {
    /// Its `--input` name.
    pub name: &'static str,
    /// Its argument, if it takes one.
    pub argument: Option<Argument>,
    /// What it reads, one line (the help and the docs' table).
    pub about: &'static str,
    /// Makes it from its argument.
    pub make: Make,
}

/// A format's argument.
#[derive(Clone, Copy)]
pub struct Argument {
    /// As the usage writes it (`COL`).
    pub usage: &'static str,
    /// As a message names it (`a column`).
    pub what: &'static str,
    /// An example (`2`).
    pub example: &'static str,
}

/// Every format, in the order the help lists them.
pub static DECODERS: &[Registered] = &[
    lines::REGISTERED,
    access::COMMON,
    access::COMBINED,
    w3c::REGISTERED,
    jsonl::REGISTERED,
    tsv::REGISTERED,
    csv::REGISTERED,
];

impl Registered {
    /// `name` or `name:ARG`.
    pub fn usage(&self) -> String {
        match self.argument {
            Some(a) => format!("{}:{}", self.name, a.usage),
            None => self.name.to_string(),
        }
    }
}

/// The list of formats for a message: `lines, common, ..., csv:COL`.
pub fn usages() -> String {
    DECODERS
        .iter()
        .map(Registered::usage)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The names of the formats whose records have a referer.
pub fn with_referers() -> Vec<&'static str> {
    DECODERS
        .iter()
        .filter(|r| (r.make)(Some("1")).is_ok_and(|d| d.has_referer()))
        .map(|r| r.name)
        .collect()
}

/// An input format: a registered decoder with its argument.
#[derive(Clone)]
pub struct InputFormat {
    decoder: Arc<dyn Decoder>,
}

impl InputFormat {
    /// One reference per line.
    pub fn lines() -> InputFormat {
        InputFormat {
            decoder: Arc::new(lines::Lines),
        }
    }
    /// The decoder.
    pub fn decoder(&self) -> &dyn Decoder {
        &*self.decoder
    }
    /// Whether it is `lines`.
    pub fn is_lines(&self) -> bool {
        self.decoder.in_place()
    }
    /// Whether records may span lines (quoted CSV fields).
    pub fn csv_quotes(&self) -> bool {
        self.decoder.cut() == Cut::CsvQuotes
    }
    /// Whether one file can be read as byte ranges by separate readers
    /// ([`Decoder::splittable`]).
    pub fn splittable(&self) -> bool {
        self.decoder.splittable()
    }
    /// Whether its rows are requests (access logs, W3C logs).
    pub fn is_log(&self) -> bool {
        self.decoder.requests()
    }
}

impl FromStr for InputFormat {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let (kind, arg) = match s.split_once(':') {
            Some((k, a)) => (k, Some(a)),
            None => (s, None),
        };
        let Some(r) = DECODERS.iter().find(|r| r.name == kind) else {
            return Err(format!("unknown input format `{kind}` ({})", usages()));
        };
        let decoder = match (r.argument, arg) {
            (None, Some(_)) => return Err(format!("`{kind}` takes no argument")),
            (Some(a), None | Some("")) => {
                return Err(format!(
                    "`{kind}` needs {}, as in `{kind}:{}`",
                    a.what, a.example
                ))
            }
            _ => (r.make)(arg)?,
        };
        Ok(InputFormat { decoder })
    }
}

impl fmt::Display for InputFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.decoder.spec())
    }
}

impl fmt::Debug for InputFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "InputFormat({})", self.decoder.spec())
    }
}

impl PartialEq for InputFormat {
    fn eq(&self, other: &Self) -> bool {
        self.decoder.spec() == other.decoder.spec()
    }
}

impl Eq for InputFormat {}

/// A column of a TSV or CSV input, as its flag gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ColumnRef {
    /// By position, 0-based (written 1-based in the flag).
    Number(usize),
    /// By name, from each input's first record (the header, which gives no
    /// row).
    Name(String),
}

impl ColumnRef {
    fn parse(a: &str) -> Result<ColumnRef, String> {
        match a.parse::<usize>() {
            Ok(0) => Err("columns are numbered from 1".to_string()),
            Ok(n) => Ok(ColumnRef::Number(n - 1)),
            Err(_) => Ok(ColumnRef::Name(a.to_string())),
        }
    }
}

impl fmt::Display for ColumnRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ColumnRef::Number(n) => write!(f, "{}", n + 1),
            ColumnRef::Name(s) => f.write_str(s),
        }
    }
}

/// Which reference of a request log line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogField {
    /// The request target.
    Target,
    /// The referer.
    Referer,
    /// Both, as two URI columns (the referer's names prefixed `referer_`).
    Both,
}

/// A field of a log record carried into its row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Carried {
    /// Its column name.
    pub name: &'static str,
    /// Its type.
    pub kind: CarriedKind,
}

/// The type of a carried field's column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CarriedKind {
    /// Text as logged.
    Text,
    /// A number under 65536 (an HTTP status, a port; null when not).
    U16,
    /// A number (a count of bytes; null when not).
    U64,
}

impl Carried {
    /// A field of type `kind`.
    pub const fn new(name: &'static str, kind: CarriedKind) -> Carried {
        Carried { name, kind }
    }
    /// A text field.
    pub const fn text(name: &'static str) -> Carried {
        Carried {
            name,
            kind: CarriedKind::Text,
        }
    }
}

/// The rows a decoder is filling, with what it needs to fill them.
pub struct Rows<'a> {
    /// The rows so far.
    pub out: &'a mut Extracted,
    /// The options.
    pub ex: &'a Extractor,
}

impl Rows<'_> {
    /// Ends a row that came from the record at `line`.
    pub fn done(&mut self, line: u64) {
        self.out.rows += 1;
        self.out.lines.push(line);
    }

    /// A row for a record that does not fit the format.
    pub fn error(&mut self, line: u64, what: impl fmt::Display, index: Option<usize>) {
        let label = self.ex.format.decoder().label();
        self.fault(line, format!("line {line}: {what} ({label})"), index);
    }

    /// A row for a record that does not fit, with its whole message.
    fn fault(&mut self, line: u64, message: String, index: Option<usize>) {
        let e = self.out.errors.len() as u32;
        self.out.errors.push(FormatError { message, index });
        for u in &mut self.out.uris {
            u.slots.push(Slot::Format(e));
        }
        if self.ex.has_target() {
            self.out.forms.push(None);
        }
        for _ in &self.ex.carry {
            self.out.carried.push(None);
        }
        self.done(line);
    }

    /// The reference of a row's one URI column (formats that are not
    /// request logs).
    pub fn value(&mut self, line: u64, value: Option<&[u8]>) {
        let u = &mut self.out.uris[0];
        match value {
            Some(v) => u.push(self.ex.syntax, v),
            None => u.slots.push(Slot::Absent),
        }
        self.done(line);
    }

    /// A request's target (`None`: absent) and referer (`None`: absent),
    /// each where `--field` wants it; values are spans of the arena.
    pub fn request(
        &mut self,
        target: Option<(TargetForm, (u32, u32))>,
        referer: Option<(u32, u32)>,
    ) {
        let out = &mut *self.out;
        let mut k = 0;
        if self.ex.field != LogField::Referer {
            let u = &mut out.uris[0];
            match target {
                Some((form, (a, b))) => match form.syntax() {
                    Some(s) => u.push(s, &out.arena[a as usize..b as usize]),
                    None => u.slots.push(Slot::Asterisk),
                },
                None => u.slots.push(Slot::Absent),
            }
            out.forms.push(target.map(|t| t.0));
            k = 1;
        }
        if self.ex.field != LogField::Target {
            let u = &mut out.uris[k];
            match referer {
                Some((a, b)) => u.push(self.ex.syntax, &out.arena[a as usize..b as usize]),
                None => u.slots.push(Slot::Absent),
            }
        }
    }
}

/// A record that does not fit its format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError {
    /// What was expected, e.g. `no request line (combined format)`.
    pub message: String,
    /// Byte offset in the record where it was found, if known.
    pub index: Option<usize>,
}

/// Where a row's reference is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    /// No reference: a referer of `-`, a JSON field that is missing or null.
    Absent,
    /// Item `index` of group `group`.
    Value {
        /// The group (buffer) it is in.
        group: u8,
        /// Its place in the group.
        index: u32,
    },
    /// A value holding CR or LF (after unescaping), which cannot go into a
    /// buffer of lines: parsed on its own, `singles[index]`.
    Single {
        /// Which single.
        index: u32,
        /// The syntax it is parsed with.
        syntax: SyntaxOf,
    },
    /// The asterisk-form target `*` (not a URI; no parts).
    Asterisk,
    /// The record did not fit the format: `errors[index]`.
    Format(u32),
}

/// The syntax of a single value: its group's.
pub type SyntaxOf = u8;

/// The values of one URI column for a chunk's rows.
#[derive(Default)]
pub struct UriColumn {
    /// Per row (empty for `lines`, where row `i` is item `i` of group 0).
    pub slots: Vec<Slot>,
    /// Per group: the syntax its values are parsed with, and the values
    /// joined by LF (empty for `lines`, whose group is the chunk itself).
    pub groups: Vec<(Syntax, Vec<u8>, u32)>,
    /// Values that hold CR or LF.
    pub singles: Vec<Vec<u8>>,
}

impl UriColumn {
    /// Row `r`'s slot.
    #[inline]
    pub fn slot(&self, r: usize) -> Slot {
        match self.slots.get(r) {
            Some(s) => *s,
            None => Slot::Value {
                group: 0,
                index: r as u32,
            },
        }
    }

    fn group(&mut self, syntax: Syntax) -> u8 {
        match self.groups.iter().position(|g| g.0 == syntax) {
            Some(g) => g as u8,
            None => {
                self.groups.push((syntax, Vec::new(), 0));
                (self.groups.len() - 1) as u8
            }
        }
    }

    /// Adds a row with `value`, parsed with `syntax`.
    pub fn push(&mut self, syntax: Syntax, value: &[u8]) {
        let g = self.group(syntax);
        // One call rather than a test a byte (about 150 instructions for
        // the target of an access log line, callgrind).
        if memchr::memchr2(b'\n', b'\r', value).is_some() {
            self.slots.push(Slot::Single {
                index: self.singles.len() as u32,
                syntax: g,
            });
            self.singles.push(value.to_vec());
            return;
        }
        let group = &mut self.groups[g as usize];
        group.1.extend_from_slice(value);
        group.1.push(b'\n');
        self.slots.push(Slot::Value {
            group: g,
            index: group.2,
        });
        group.2 += 1;
    }
}

/// A chunk's rows, taken out of its records.
#[derive(Default)]
pub struct Extracted {
    /// Rows (for `lines`, set once the chunk is parsed).
    pub rows: usize,
    /// Per row its line number (empty: `first_line + row`).
    pub lines: Vec<u64>,
    /// The chunk's first line.
    pub first_line: u64,
    /// The URI columns (one, or a log's target and referer).
    pub uris: Vec<UriColumn>,
    /// Per row, the target's form (access logs' target column only).
    pub forms: Vec<Option<TargetForm>>,
    /// The format errors that slots point to.
    pub errors: Vec<FormatError>,
    /// Carried fields: per row, per carried field asked for, a span of
    /// `arena` (`None`: absent, as `-`).
    pub carried: Vec<Option<(u32, u32)>>,
    /// The bytes the carried spans point into.
    pub arena: Vec<u8>,
    /// Whether the values are the chunk's lines (`lines`: no copy).
    pub in_place: bool,
}

impl Extracted {
    /// Row `r`'s line number.
    #[inline]
    pub fn line(&self, r: usize) -> u64 {
        match self.lines.get(r) {
            Some(&l) => l,
            None => self.first_line + r as u64,
        }
    }
}

/// How a chunk is read.
#[derive(Clone, Debug)]
pub struct Extractor {
    /// The format.
    pub format: InputFormat,
    /// The syntax of plain values (lines, JSON, CSV/TSV, referers).
    pub syntax: Syntax,
    /// For request logs: which references.
    pub field: LogField,
    /// Carried log fields asked for, in row order.
    pub carry: Vec<Carried>,
    /// A record longer than this is an error row.
    pub max_record_bytes: usize,
}

impl Extractor {
    /// The number of URI columns a row has.
    pub fn uri_columns(&self) -> usize {
        if self.format.is_log() && self.field == LogField::Both {
            2
        } else {
            1
        }
    }

    /// Whether rows have a request target (and its form).
    pub fn has_target(&self) -> bool {
        self.format.is_log() && self.field != LogField::Referer
    }

    /// Takes the rows out of `chunk`, with the context its format's
    /// [`Sequence`] gave it.
    pub fn extract(&self, chunk: &Chunk, context: &Context, out: &mut Extracted) {
        out.rows = 0;
        out.lines.clear();
        out.first_line = chunk.first_line;
        out.uris.resize_with(self.uri_columns(), UriColumn::default);
        for u in &mut out.uris {
            u.slots.clear();
            u.singles.clear();
            for g in &mut u.groups {
                g.1.clear();
                g.2 = 0;
            }
        }
        out.forms.clear();
        out.errors.clear();
        out.carried.clear();
        out.arena.clear();
        out.in_place = false;
        let mut rows = Rows { out, ex: self };
        if let ChunkKind::Overlong { bytes } = chunk.kind {
            let message = format!(
                "line {}: longer than the limit of {} bytes ({bytes} bytes; --max-line-bytes)",
                chunk.first_line, self.max_record_bytes
            );
            rows.fault(chunk.first_line, message, None);
            return;
        }
        self.format.decoder().decode(chunk, context, &mut rows);
    }
}

/// The records of `chunk` with their line numbers (records end at LF; a
/// CR before it is not part of the record).
pub fn numbered_lines(chunk: &Chunk) -> impl Iterator<Item = (u64, &[u8])> {
    let first_line = chunk.first_line;
    urilex::lines(&chunk.data)
        .enumerate()
        .map(move |(k, (_, rec))| (first_line + k as u64, rec))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The formats whose files may be read in byte ranges are those whose
    /// records are lines needing nothing from before them: TSV by column
    /// number, not by name (its header), nor W3C (its `#Fields`
    /// directive) or CSV (quoted line breaks, a header).
    #[test]
    fn splittable_formats() {
        let split: Vec<&str> = DECODERS
            .iter()
            .filter(|r| (r.make)(Some("1")).is_ok_and(|d| d.splittable()))
            .map(|r| r.name)
            .collect();
        assert_eq!(split, ["lines", "common", "combined", "jsonl", "tsv"]);
        for f in ["lines", "combined", "jsonl:url", "tsv:2"] {
            assert!(f.parse::<InputFormat>().unwrap().splittable(), "{f}");
        }
        for f in ["w3c", "tsv:url", "csv:url", "csv:2"] {
            assert!(!f.parse::<InputFormat>().unwrap().splittable(), "{f}");
        }
    }
}
