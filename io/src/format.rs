//! Input formats: where the reference is on each record, and taking it out.
//!
//! A chunk of records becomes an [`Extracted`]: per record one row, and per
//! URI column (the reference, or a combined log's target and referer) the
//! values of all rows joined by LF into buffers that the batch engine
//! parses at once, one buffer per grammar entry (a log's request targets
//! are read in the form their method gives them). A record that does not
//! fit the format is a row with a [`FormatError`]; nothing is dropped.

use crate::logline::{self, LogLine};
use crate::source::{Chunk, ChunkKind};
use std::fmt;
use std::str::FromStr;
use urilex::Syntax;

/// Where the references are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputFormat {
    /// One reference per line (a CR before the LF is not part of it).
    Lines,
    /// Apache/nginx Common Log Format: the request line's target.
    Common,
    /// Combined Log Format: the request target, and the referer.
    Combined,
    /// JSON Lines: the string at a dotted path of each object.
    Jsonl(String),
    /// Tab-separated columns (no quoting).
    Tsv(ColumnRef),
    /// Comma-separated values with RFC 4180 quoting.
    Csv(ColumnRef),
}

/// A column of a TSV or CSV input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ColumnRef {
    /// By position, 0-based (written 1-based in the flag).
    Number(usize),
    /// By name, from each input's first record (the header, which gives no
    /// row).
    Name(String),
}

impl FromStr for InputFormat {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let (kind, arg) = match s.split_once(':') {
            Some((k, a)) => (k, Some(a)),
            None => (s, None),
        };
        let need = |what: &str| -> Result<&str, String> {
            arg.filter(|a| !a.is_empty())
                .ok_or_else(|| format!("`{kind}` needs {what}, as in `{kind}:{}`", example(kind)))
        };
        let column = |a: &str| match a.parse::<usize>() {
            Ok(0) => Err("columns are numbered from 1".to_string()),
            Ok(n) => Ok(ColumnRef::Number(n - 1)),
            Err(_) => Ok(ColumnRef::Name(a.to_string())),
        };
        let none = |f: InputFormat| match arg {
            Some(_) => Err(format!("`{kind}` takes no argument")),
            None => Ok(f),
        };
        match kind {
            "lines" => none(InputFormat::Lines),
            "common" => none(InputFormat::Common),
            "combined" => none(InputFormat::Combined),
            "jsonl" => Ok(InputFormat::Jsonl(need("a field")?.to_string())),
            "tsv" => Ok(InputFormat::Tsv(column(need("a column")?)?)),
            "csv" => Ok(InputFormat::Csv(column(need("a column")?)?)),
            _ => Err(format!(
                "unknown input format `{kind}` (lines, common, combined, jsonl:FIELD, tsv:COL, csv:COL)"
            )),
        }
    }
}

fn example(kind: &str) -> &'static str {
    match kind {
        "jsonl" => "url.original",
        _ => "2",
    }
}

impl fmt::Display for InputFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let col = |c: &ColumnRef| match c {
            ColumnRef::Number(n) => (n + 1).to_string(),
            ColumnRef::Name(s) => s.clone(),
        };
        match self {
            InputFormat::Lines => f.write_str("lines"),
            InputFormat::Common => f.write_str("common"),
            InputFormat::Combined => f.write_str("combined"),
            InputFormat::Jsonl(p) => write!(f, "jsonl:{p}"),
            InputFormat::Tsv(c) => write!(f, "tsv:{}", col(c)),
            InputFormat::Csv(c) => write!(f, "csv:{}", col(c)),
        }
    }
}

impl InputFormat {
    /// Whether records may span lines (quoted CSV fields).
    pub fn csv_quotes(&self) -> bool {
        matches!(self, InputFormat::Csv(_))
    }
    /// Whether it is an access log format.
    pub fn is_log(&self) -> bool {
        matches!(self, InputFormat::Common | InputFormat::Combined)
    }
    /// The column named by header, if any.
    pub fn header_name(&self) -> Option<&str> {
        match self {
            InputFormat::Tsv(ColumnRef::Name(n)) | InputFormat::Csv(ColumnRef::Name(n)) => Some(n),
            _ => None,
        }
    }
    /// Its name in messages (`combined format`).
    fn label(&self) -> &'static str {
        match self {
            InputFormat::Lines => "lines",
            InputFormat::Common => "common format",
            InputFormat::Combined => "combined format",
            InputFormat::Jsonl(_) => "JSON Lines",
            InputFormat::Tsv(_) => "TSV",
            InputFormat::Csv(_) => "CSV",
        }
    }
}

/// Which reference of an access log line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogField {
    /// The request target.
    Target,
    /// The referer (combined format).
    Referer,
    /// Both, as two URI columns (the referer's names prefixed `referer_`).
    Both,
}

/// The form of a request target (RFC 9112 section 3.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TargetForm {
    /// `absolute-path [ "?" query ]`.
    Origin,
    /// An absolute URI.
    Absolute,
    /// `host:port`, after CONNECT.
    Authority,
    /// `*`, after OPTIONS.
    Asterisk,
}

impl TargetForm {
    /// The names, in the order of the variants.
    pub const NAMES: [&'static str; 4] = ["origin", "absolute", "authority", "asterisk"];
    /// Its name in rows.
    pub fn as_str(self) -> &'static str {
        Self::NAMES[self as usize]
    }
    /// The grammar entry the target is parsed with.
    pub fn syntax(self) -> Option<Syntax> {
        match self {
            TargetForm::Origin => Some(Syntax::OriginForm),
            TargetForm::Absolute => Some(Syntax::AbsoluteUri),
            TargetForm::Authority => Some(Syntax::AuthorityForm),
            TargetForm::Asterisk => None,
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
        if value.iter().any(|&b| b == b'\n' || b == b'\r') {
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

/// Carried log fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Carried {
    /// `%h`.
    Client,
    /// `%l`.
    Ident,
    /// `%u`.
    User,
    /// `%t`, without its brackets.
    Time,
    /// The request line's method.
    Method,
    /// The request line's protocol (`HTTP/1.1`).
    Protocol,
    /// `%>s`.
    Status,
    /// `%b`.
    Bytes,
    /// The referer as logged (combined).
    Referer,
    /// The user agent (combined).
    UserAgent,
}

impl Carried {
    /// Every carried field, in row order.
    pub const ALL: [Carried; 10] = [
        Carried::Client,
        Carried::Ident,
        Carried::User,
        Carried::Time,
        Carried::Method,
        Carried::Protocol,
        Carried::Status,
        Carried::Bytes,
        Carried::Referer,
        Carried::UserAgent,
    ];
    /// Its column name.
    pub fn name(self) -> &'static str {
        match self {
            Carried::Client => "client",
            Carried::Ident => "ident",
            Carried::User => "user",
            Carried::Time => "time",
            Carried::Method => "method",
            Carried::Protocol => "protocol",
            Carried::Status => "status",
            Carried::Bytes => "bytes",
            Carried::Referer => "referer",
            Carried::UserAgent => "user_agent",
        }
    }
    /// Whether the common format has it.
    pub fn in_common(self) -> bool {
        !matches!(self, Carried::Referer | Carried::UserAgent)
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
    /// For access logs: which references.
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

    /// Takes the rows out of `chunk`; `column` is the TSV/CSV column's index
    /// (resolved from the header when given by name).
    pub fn extract(&self, chunk: &Chunk, column: usize, out: &mut Extracted) {
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
        if let ChunkKind::Overlong { bytes } = chunk.kind {
            let msg = format!(
                "line {}: longer than the limit of {} bytes ({bytes} bytes; --max-line-bytes)",
                chunk.first_line, self.max_record_bytes
            );
            self.error_row(out, chunk.first_line, msg, None);
            return;
        }
        let bytes: &[u8] = &chunk.data;
        let skip_header = chunk.starts_input && self.format.header_name().is_some();
        match &self.format {
            InputFormat::Lines => {
                out.in_place = true;
            }
            InputFormat::Common | InputFormat::Combined => {
                let combined = self.format == InputFormat::Combined;
                for (k, (_, rec)) in urilex::lines(bytes).enumerate() {
                    let line = chunk.first_line + k as u64;
                    self.log_row(out, rec, line, combined);
                }
            }
            InputFormat::Jsonl(path) => {
                for (k, (_, rec)) in urilex::lines(bytes).enumerate() {
                    let line = chunk.first_line + k as u64;
                    self.json_row(out, rec, line, path);
                }
            }
            InputFormat::Tsv(_) => {
                for (k, (_, rec)) in urilex::lines(bytes).enumerate() {
                    if k == 0 && skip_header {
                        continue;
                    }
                    let line = chunk.first_line + k as u64;
                    match rec.split(|&b| b == b'\t').nth(column) {
                        Some(v) => {
                            out.uris[0].push(self.syntax, v);
                            self.row_done(out, line);
                        }
                        None => self.error_row(
                            out,
                            line,
                            format!("line {line}: no column {} (TSV)", column + 1),
                            None,
                        ),
                    }
                }
            }
            InputFormat::Csv(_) => {
                let mut line = chunk.first_line;
                let mut field = Vec::new();
                for (k, rec) in crate::delimited::csv_records(bytes).enumerate() {
                    let lfs = crate::source::count_lfs(rec) + 1;
                    if !(k == 0 && skip_header) {
                        match crate::delimited::csv_field(rec, column, &mut field) {
                            Ok(true) => {
                                out.uris[0].push(self.syntax, &field);
                                self.row_done(out, line);
                            }
                            Ok(false) => self.error_row(
                                out,
                                line,
                                format!("line {line}: no column {} (CSV)", column + 1),
                                None,
                            ),
                            Err(at) => self.error_row(
                                out,
                                line,
                                format!("line {line}: unclosed quote (CSV)"),
                                Some(at),
                            ),
                        }
                    }
                    line += lfs;
                }
            }
        }
    }

    fn row_done(&self, out: &mut Extracted, line: u64) {
        out.rows += 1;
        out.lines.push(line);
    }

    /// A row for a record that does not fit the format.
    fn error_row(&self, out: &mut Extracted, line: u64, message: String, index: Option<usize>) {
        let e = out.errors.len() as u32;
        out.errors.push(FormatError { message, index });
        for u in &mut out.uris {
            u.slots.push(Slot::Format(e));
        }
        if self.format.is_log() && self.field != LogField::Referer {
            out.forms.push(None);
        }
        for _ in &self.carry {
            out.carried.push(None);
        }
        self.row_done(out, line);
    }

    fn log_row(&self, out: &mut Extracted, rec: &[u8], line: u64, combined: bool) {
        let label = self.format.label();
        let parsed = match logline::parse(rec, combined) {
            Ok(l) => l,
            Err((what, at)) => {
                return self.error_row(out, line, format!("line {line}: {what} ({label})"), at)
            }
        };
        let start = out.arena.len();
        let l = LogLine::unescape(&parsed, &mut out.arena, !self.carry.is_empty());
        let request = &out.arena[l.request.0 as usize..l.request.1 as usize];
        let target = match logline::request_target(request) {
            Ok(t) => t,
            Err(what) => {
                out.arena.truncate(start);
                return self.error_row(out, line, format!("line {line}: {what} ({label})"), None);
            }
        };
        let form = target.form;
        let (t0, t1) = (
            l.request.0 as usize + target.target.start,
            l.request.0 as usize + target.target.end,
        );
        let mut k = 0;
        if self.field != LogField::Referer {
            let u = &mut out.uris[0];
            match form.syntax() {
                Some(s) => u.push(s, &out.arena[t0..t1]),
                None => u.slots.push(Slot::Asterisk),
            }
            out.forms.push(Some(form));
            k = 1;
        }
        if self.field != LogField::Target {
            let u = &mut out.uris[k];
            match l.referer {
                Some((a, b)) => u.push(self.syntax, &out.arena[a as usize..b as usize]),
                None => u.slots.push(Slot::Absent),
            }
        }
        for c in &self.carry {
            let span = match c {
                Carried::Client => l.client,
                Carried::Ident => l.ident,
                Carried::User => l.user,
                Carried::Time => l.time,
                Carried::Method => Some(offset(l.request.0, target.method.clone())),
                Carried::Protocol => target.protocol.clone().map(|p| offset(l.request.0, p)),
                Carried::Status => l.status,
                Carried::Bytes => l.bytes,
                Carried::Referer => l.referer,
                Carried::UserAgent => l.user_agent,
            };
            out.carried.push(span);
        }
        self.row_done(out, line);
    }

    fn json_row(&self, out: &mut Extracted, rec: &[u8], line: u64, path: &str) {
        let mut value = std::mem::take(&mut out.arena);
        value.clear();
        match crate::json::field(rec, path, &mut value) {
            Ok(Some(())) => {
                out.uris[0].push(self.syntax, &value);
                self.row_done(out, line);
            }
            Ok(None) => {
                out.uris[0].slots.push(Slot::Absent);
                self.row_done(out, line);
            }
            Err((what, at)) => self.error_row(
                out,
                line,
                format!("line {line}: {what} (JSON Lines)"),
                Some(at),
            ),
        }
        value.clear();
        out.arena = value;
    }
}

fn offset(base: u32, r: std::ops::Range<usize>) -> (u32, u32) {
    (base + r.start as u32, base + r.end as u32)
}
