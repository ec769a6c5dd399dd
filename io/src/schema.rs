//! Parse rows (`docs/schema.md`): which columns a row has, their types in
//! the row model ([`Schema::fields`]), and each column's value in a row as
//! a [`Cell`] of the model that the encoders of every format write. The
//! cells are made as the row is written, from the chunk's parsed records:
//! a valid reference's parts are spans of the chunk's buffer.

use crate::format::{Carried, CarriedKind, Extractor, InputFormat, LogField};
use crate::model::{Cell, Columns, ErrorCell, Field, Message, Type};
use crate::rows::{ChunkRows, Value};
use urilex::{Batch, Component, Entry, HostKind, ParseError, PartInfo, Profile, UriRef};

/// A column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Column {
    /// The line number in its input (1-based; a CSV record's first line).
    Line,
    /// The input's name (`-` for standard input).
    File,
    /// Whether URI column `u`'s reference is valid (null: none).
    Valid(u8),
    /// The rule the reference matched (profiles that choose it by scheme).
    Rule(u8),
    /// The request target's form (access logs).
    TargetForm,
    /// A part the profile declares.
    Part(u8, PartInfo),
    /// The kind of the classified part (`host_kind`).
    Kind(u8),
    /// The port as a number (null when absent, empty or over 65535).
    PortNumber(u8),
    /// The error: kind, part, index, rule, message, raw.
    Error(u8),
    /// The reference's text as taken out of its record.
    Input(u8),
    /// A log field carried into the row (`k`: its place among those asked
    /// for).
    Carried(usize, Carried),
}

/// The columns of the rows and how to read them.
#[derive(Clone, Debug)]
pub struct Schema {
    /// The columns, in order.
    pub columns: Vec<Column>,
    /// Their names.
    pub names: Vec<String>,
    /// The profile.
    pub profile: Profile,
    /// The parts the profile declares.
    parts: Vec<PartInfo>,
    /// Valid references' parts come straight from the batch's records (the
    /// profile's parts are all the default grammar's components, with no
    /// repetition and no rule by scheme).
    fast: bool,
    /// The names of the profile's kinds by index.
    entry_rule: &'static str,
}

impl Schema {
    /// Every column that can be asked for, default ones first; the default
    /// ones' count.
    fn available(profile: Profile, ex: &Extractor) -> (Vec<Column>, usize) {
        let parts: Vec<PartInfo> = profile.parts().collect();
        let kind = profile.kind_part();
        let port = profile.part("port");
        let mut cols = vec![Column::Line];
        let uris = ex.uri_columns();
        for u in 0..uris as u8 {
            cols.push(Column::Valid(u));
            if profile.schemes().next().is_some() {
                cols.push(Column::Rule(u));
            }
            if u == 0 && ex.has_target() {
                cols.push(Column::TargetForm);
            }
            for p in &parts {
                cols.push(Column::Part(u, *p));
                if Some(*p) == kind {
                    cols.push(Column::Kind(u));
                }
                if Some(*p) == port {
                    cols.push(Column::PortNumber(u));
                }
            }
            cols.push(Column::Error(u));
        }
        let defaults = cols.len();
        cols.push(Column::File);
        for u in 0..uris as u8 {
            cols.push(Column::Input(u));
        }
        for c in ex.format.decoder().carried() {
            cols.push(Column::Carried(0, *c));
        }
        (cols, defaults)
    }

    /// The schema for `fields` (`None`: the default columns). A field list
    /// names columns, `default` (the default ones) and `all`. Sets the
    /// extractor's carried fields to those asked for.
    pub fn new(
        profile: Profile,
        ex: &mut Extractor,
        fields: Option<&str>,
    ) -> Result<Schema, String> {
        let (available, defaults) = Schema::available(profile, ex);
        let mut columns = Vec::new();
        match fields {
            None => columns.extend_from_slice(&available[..defaults]),
            Some(list) => {
                for f in list.split(',').map(str::trim).filter(|f| !f.is_empty()) {
                    let pick: Vec<Column> = match f {
                        "default" => available[..defaults].to_vec(),
                        "all" => available.clone(),
                        _ => match available.iter().find(|c| name(profile, c) == f) {
                            Some(c) => vec![*c],
                            None if ex.format.decoder().carried_named(f).is_some() => {
                                let c = ex.format.decoder().carried_named(f);
                                vec![Column::Carried(0, c.unwrap_or(Carried::text("")))]
                            }
                            None => {
                                let names: Vec<String> =
                                    available.iter().map(|c| name(profile, c)).collect();
                                return Err(format!(
                                    "unknown field `{f}` (fields: default, all, {})",
                                    names.join(", ")
                                ));
                            }
                        },
                    };
                    for c in pick {
                        if !columns.contains(&c) {
                            columns.push(c);
                        }
                    }
                }
                if columns.is_empty() {
                    return Err("--fields names no field".into());
                }
            }
        }
        Ok(Schema::with_columns(profile, ex, columns))
    }

    /// The schema of `columns` (available ones), in that order. Sets the
    /// extractor's carried fields to those among them.
    fn with_columns(profile: Profile, ex: &mut Extractor, mut columns: Vec<Column>) -> Schema {
        ex.carry.clear();
        for c in &mut columns {
            if let Column::Carried(k, f) = c {
                *k = ex.carry.len();
                ex.carry.push(*f);
            }
        }
        let names = columns.iter().map(|c| name(profile, c)).collect();
        let parts: Vec<PartInfo> = profile.parts().collect();
        let default_kinds = HostKind::ALL.iter().map(|k| k.as_str());
        let fast = parts
            .iter()
            .all(|p| p.index() < Component::ALL.len() && !p.is_repeated())
            && profile.schemes().next().is_none()
            && profile.kinds().eq(default_kinds);
        // Valid parts are copied without escaping: the grammar must admit
        // no byte that JSON, TSV or CSV would have to escape.
        assert!(
            (0..=255u8).all(|b| !profile.admits(b) || plain_byte(b)),
            "profile {} admits a byte that needs escaping in a valid reference",
            profile.name()
        );
        Schema {
            columns,
            names,
            profile,
            parts,
            fast,
            entry_rule: profile.entry_rule(ex.syntax).unwrap_or(""),
        }
    }

    /// The schema of columns `keep` of this one (indices, in the order
    /// given): a projection. Sets the extractor's carried fields to those
    /// among them, so that the decoders take out of each record only the
    /// fields a projected row holds.
    pub fn project(&self, keep: &[usize], ex: &mut Extractor) -> Schema {
        let columns = keep.iter().filter_map(|&k| self.columns.get(k).copied());
        Schema::with_columns(self.profile, ex, columns.collect())
    }

    /// Whether any column is read from a reference (its validity, a part,
    /// the error, its text): if none is, a row needs no parse.
    pub fn reads_references(&self) -> bool {
        self.columns.iter().any(|c| {
            !matches!(
                c,
                Column::Line | Column::File | Column::Carried(..) | Column::TargetForm
            )
        })
    }

    /// The columns of one reference alone, as the SQL functions' and the
    /// Python package's structs have them: the default columns of plain
    /// values less `line` (`valid`, `rule` where the profile has one, the
    /// parts with `host_kind` and `port_number`, `error`).
    pub fn references(profile: Profile, syntax: urilex::Syntax) -> Schema {
        Schema::references_keeping(profile, syntax, |_| true)
    }

    /// [`Schema::references`] with only the columns `keep` says (in their
    /// order): the columns a caller does not build from the batch itself.
    pub fn references_keeping(
        profile: Profile,
        syntax: urilex::Syntax,
        keep: impl Fn(&Column) -> bool,
    ) -> Schema {
        let mut ex = Extractor {
            format: InputFormat::lines(),
            syntax,
            field: LogField::Target,
            carry: Vec::new(),
            max_record_bytes: usize::MAX,
        };
        let (mut columns, defaults) = Schema::available(profile, &ex);
        columns.truncate(defaults);
        columns.retain(|c| !matches!(c, Column::Line) && keep(c));
        Schema::with_columns(profile, &mut ex, columns)
    }

    /// [`cells`](Self::cells) for a reference that is not a log's row:
    /// the reference `i` of `batch`, parsed from `buf`, or none (`None`: a
    /// null, every cell null). Columns of records (`line`, `file`,
    /// carried fields) are null.
    #[inline]
    pub fn reference_cells<'a>(
        &self,
        value: Option<(&'a Batch, &'a [u8], usize)>,
        mut f: impl FnMut(usize, Cell<'a>),
    ) {
        let uri = match value {
            None => Uri::Absent,
            Some((batch, buf, index)) => self.entry_uri(batch.entry(index), batch, buf, index),
        };
        for (k, c) in self.columns.iter().enumerate() {
            let cell = match c {
                Column::Valid(0)
                | Column::Rule(0)
                | Column::Part(0, _)
                | Column::Kind(0)
                | Column::PortNumber(0)
                | Column::Error(0) => self.uri_cell(&uri, c),
                _ => Cell::Null,
            };
            f(k, cell);
        }
    }

    /// Calls `f` with each column's cell in row `r`, in order.
    #[inline]
    pub fn cells<'a>(&self, rows: &ChunkRows<'a>, r: usize, mut f: impl FnMut(usize, Cell<'a>)) {
        let mut uris: [Option<Uri<'a>>; 2] = [None, None];
        for (k, c) in self.columns.iter().enumerate() {
            let cell = match *c {
                Column::Line => Cell::U64(rows.line(r)),
                Column::File => Cell::Text(rows.name.as_bytes()),
                Column::TargetForm => match rows.form(r) {
                    Some(t) => Cell::Name(t.as_str()),
                    None => Cell::Null,
                },
                Column::Carried(i, what) => match rows.carried(r, i) {
                    None => Cell::Null,
                    Some(t) if what.kind != CarriedKind::Text => {
                        match std::str::from_utf8(t).ok().and_then(|s| s.parse().ok()) {
                            Some(n) => Cell::U64(n),
                            None => Cell::Null,
                        }
                    }
                    Some(t) => Cell::Text(t),
                },
                Column::Input(u) => match rows.text(u as usize, r) {
                    Some(t) => Cell::Text(t),
                    None => Cell::Null,
                },
                Column::Valid(u)
                | Column::Rule(u)
                | Column::Part(u, _)
                | Column::Kind(u)
                | Column::PortNumber(u)
                | Column::Error(u) => {
                    let uri = uris[u as usize].get_or_insert_with(|| self.uri(rows, u, r));
                    self.uri_cell(uri, c)
                }
            };
            f(k, cell);
        }
    }

    fn uri<'a>(&self, rows: &ChunkRows<'a>, u: u8, r: usize) -> Uri<'a> {
        match rows.value(u as usize, r) {
            Value::Absent => Uri::Absent,
            Value::Asterisk => Uri::Asterisk,
            Value::Format(e) => {
                Uri::Error(ErrorCell::format(&e.message, e.index.map(|i| i as u64)))
            }
            Value::Entry {
                entry,
                batch,
                buf,
                index,
            } => self.entry_uri(entry, batch, buf, index),
            Value::Single(Ok(v), _) => self.valid(v),
            Value::Single(Err(e), bytes) => uri_error(e, bytes),
        }
    }

    /// The reference a batch parsed: its parts from the record when the
    /// schema is fast, else through a [`UriRef`].
    #[inline]
    fn entry_uri<'a>(
        &self,
        entry: Entry<'a>,
        batch: &'a Batch,
        buf: &'a [u8],
        index: usize,
    ) -> Uri<'a> {
        if entry.is_valid() && self.fast {
            return Uri::Fast(entry, &buf[entry.line_start()..]);
        }
        match batch.get(index, buf) {
            Ok(v) => self.valid(v),
            Err(e) => uri_error(e, batch.line(index, buf)),
        }
    }

    fn valid<'a>(&self, v: UriRef<'a>) -> Uri<'a> {
        let mut parts = [None; MAX_PARTS];
        for (p, t) in v.rule_parts() {
            if let Some(slot) = parts.get_mut(p.index()) {
                *slot = t;
            }
        }
        Uri::Valid(v, parts)
    }

    fn uri_cell<'a>(&self, uri: &Uri<'a>, c: &Column) -> Cell<'a> {
        match (uri, c) {
            (Uri::Absent, _) => Cell::Null,
            (Uri::Error(e), Column::Valid(_)) => match e.kind {
                "format" => Cell::Null,
                _ => Cell::Bool(false),
            },
            (Uri::Error(e), Column::Error(_)) => Cell::Error(Box::new(ErrorCell {
                kind: e.kind,
                part: e.part,
                index: e.index,
                rule: e.rule,
                message: match &e.message {
                    Message::Parse(p) => Message::Parse(*p),
                    Message::Text(t) => Message::Text(t),
                },
                raw: e.raw,
            })),
            (Uri::Error(_), _) => Cell::Null,
            (_, Column::Valid(_)) => Cell::Bool(true),
            (_, Column::Error(_)) => Cell::Null,
            (Uri::Asterisk, _) => Cell::Null,
            (Uri::Fast(e, line), Column::Part(_, p)) => match e.span(Component::ALL[p.index()]) {
                Some(s) => Cell::Plain(&line[s]),
                None => Cell::Null,
            },
            (Uri::Fast(e, _), Column::Kind(_)) => match e.host_kind() {
                Some(k) => Cell::Name(k.as_str()),
                None => Cell::Null,
            },
            (Uri::Fast(e, line), Column::PortNumber(_)) => {
                port_number(e.span(Component::Port).map(|s| &line[s]))
            }
            (Uri::Fast(..), _) => Cell::Null,
            (Uri::Valid(v, parts), Column::Part(_, p)) => {
                if p.is_repeated() {
                    if parts[p.index()].is_none() {
                        return Cell::Null;
                    }
                    return Cell::List(Box::new(v.occurrences_at(p.index())));
                }
                match parts[p.index()] {
                    Some(t) => Cell::Plain(t.as_bytes()),
                    None => Cell::Null,
                }
            }
            (Uri::Valid(v, _), Column::Kind(_)) => match v.kind_name() {
                Some(k) => Cell::Name(k),
                None => Cell::Null,
            },
            (Uri::Valid(v, _), Column::PortNumber(_)) => {
                port_number(v.part("port").map(str::as_bytes))
            }
            (Uri::Valid(v, _), Column::Rule(_)) => {
                Cell::Name(v.scheme_rule().unwrap_or(self.entry_rule))
            }
            (Uri::Valid(..), _) => Cell::Null,
        }
    }

    /// The columns in the row model: names, types, nullability.
    pub fn fields(&self) -> Columns {
        let fields = self.columns.iter().zip(&self.names).map(|(c, n)| {
            let ty = match c {
                Column::Line => Type::U64,
                Column::Valid(_) => Type::Bool,
                Column::Rule(_) | Column::TargetForm | Column::Kind(_) => Type::Name,
                Column::Part(_, p) if p.is_repeated() => Type::List,
                Column::PortNumber(_) => Type::U16,
                Column::Error(_) => Type::Error,
                Column::Carried(_, c) if c.kind == CarriedKind::U16 => Type::U16,
                Column::Carried(_, c) if c.kind == CarriedKind::U64 => Type::U64,
                Column::Part(..) | Column::File | Column::Input(_) | Column::Carried(..) => {
                    Type::Text
                }
            };
            Field {
                name: n.clone(),
                ty,
                nullable: *c != Column::Line,
            }
        });
        Columns(fields.collect())
    }

    /// Whether valid references' parts come straight from batch records.
    pub fn fast(&self) -> bool {
        self.fast
    }

    /// The declared parts.
    pub fn parts(&self) -> &[PartInfo] {
        &self.parts
    }
}

/// Parts a profile may declare (the layout's size is far below this).
const MAX_PARTS: usize = 64;

/// A row's reference, resolved once for all its columns. It lives on the
/// stack, one per URI column of the row being written: boxing the large
/// variant would allocate per row.
#[allow(clippy::large_enum_variant)]
enum Uri<'a> {
    Absent,
    Asterisk,
    Error(ErrorCell<'a>),
    /// Valid, its spans from the batch record, over its line.
    Fast(Entry<'a>, &'a [u8]),
    /// Valid, through the reference; each part's text by index (only the
    /// parts of the rule it matched).
    Valid(UriRef<'a>, [Option<&'a str>; MAX_PARTS]),
}

fn uri_error<'a>(e: ParseError, input: &'a [u8]) -> Uri<'a> {
    Uri::Error(ErrorCell::parse(e, input))
}

fn port_number(port: Option<&[u8]>) -> Cell<'static> {
    match port.and_then(urilex::port_number) {
        Some(n) => Cell::U64(u64::from(n)),
        None => Cell::Null,
    }
}

/// Whether `b` may be copied into JSON, TSV and CSV text as it is (CSV
/// still quotes a value with a comma).
pub fn plain_byte(b: u8) -> bool {
    (0x20..0x7f).contains(&b) && b != b'"' && b != b'\\'
}

/// A column's name.
fn name(profile: Profile, c: &Column) -> String {
    let pre = |u: u8| if u == 1 { "referer_" } else { "" };
    let kind = profile.kind_part().map_or("kind", |p| p.name());
    let port = profile.part("port").map_or("port", |p| p.name());
    match *c {
        Column::Line => "line".into(),
        Column::File => "file".into(),
        Column::Valid(u) => format!("{}valid", pre(u)),
        Column::Rule(u) => format!("{}rule", pre(u)),
        Column::TargetForm => "target_form".into(),
        Column::Part(u, p) => format!("{}{}", pre(u), p.name()),
        Column::Kind(u) => format!("{}{kind}_kind", pre(u)),
        Column::PortNumber(u) => format!("{}{port}_number", pre(u)),
        Column::Error(u) => format!("{}error", pre(u)),
        Column::Input(u) => format!("{}input", pre(u)),
        Column::Carried(_, f) => f.name.into(),
    }
}
