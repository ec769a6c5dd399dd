//! The one row model of every output: a row is a [`Cell`] per column, the
//! columns are [`Columns`] (name, [`Type`], nullable), and one encoder per
//! format writes any row of any command (`text` for JSON Lines, TSV and
//! CSV; `columnar` for Arrow IPC and Parquet). Parse rows make their cells
//! from a chunk's parsed records as they are written ([`crate::schema`]);
//! every other command (the operations' tables, counts, `lint`, `urn`,
//! `resolve`, `normalize`, `extract`, `--semantics`) pushes cells into a
//! [`crate::table::Rows`].
//!
//! Text cells borrow: a part of a valid reference, a carried field or an
//! input is a span of the chunk's own buffer, never a copy, until an
//! encoder writes it.

use arrow_schema::{DataType, Field as ArrowField, Fields, Schema as ArrowSchema, SchemaRef};
use std::collections::HashMap;
use std::sync::Arc;
use urilex::ParseError;

/// A text output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextFormat {
    /// One JSON object per line.
    Jsonl,
    /// Tab-separated, `\N` for null, `\\`, `\t`, `\n`, `\r` escaped.
    Tsv,
    /// RFC 4180 CSV: empty for null, `""` for an empty string.
    Csv,
}

/// The fields of the error column, in order.
pub const ERROR_FIELDS: [&str; 6] = ["kind", "part", "index", "rule", "message", "raw"];

/// A column's type: the same field has the same type in every command
/// (`line` U64, `valid` Bool, `error` Error, `input` Text).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Type {
    /// Boolean.
    Bool,
    /// UInt16 (a port, an HTTP status).
    U16,
    /// UInt64.
    U64,
    /// UTF-8 text (Utf8; bytes that are not UTF-8 become U+FFFD).
    Text,
    /// Bytes that are usually text (Binary: the exact bytes).
    Bytes,
    /// A name from a small set (a kind, a rule, a target form):
    /// dictionary-encoded.
    Name,
    /// A repeated part's occurrences (a List of Utf8).
    List,
    /// The error struct: kind, part, index, rule, message, raw.
    Error,
    /// A nested value as JSON text (Utf8, extension type `arrow.json`).
    Json,
}

impl Type {
    /// The Arrow type.
    pub fn arrow(self) -> DataType {
        match self {
            Type::Bool => DataType::Boolean,
            Type::U16 => DataType::UInt16,
            Type::U64 => DataType::UInt64,
            Type::Text | Type::Json => DataType::Utf8,
            Type::Bytes => DataType::Binary,
            Type::Name => name_type(),
            Type::List => {
                DataType::List(Arc::new(ArrowField::new_list_field(DataType::Utf8, false)))
            }
            Type::Error => DataType::Struct(error_fields()),
        }
    }
}

/// The dictionary type of names.
pub(crate) fn name_type() -> DataType {
    DataType::Dictionary(Box::new(DataType::Int16), Box::new(DataType::Utf8))
}

/// The children of the error struct.
pub(crate) fn error_fields() -> Fields {
    Fields::from(vec![
        ArrowField::new("kind", name_type(), true),
        ArrowField::new("part", DataType::Utf8, true),
        ArrowField::new("index", DataType::UInt64, true),
        ArrowField::new("rule", DataType::Utf8, true),
        ArrowField::new("message", DataType::Utf8, true),
        ArrowField::new("raw", DataType::Binary, true),
    ])
}

/// A column: its name, type and whether it may be null.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// The name.
    pub name: String,
    /// The type.
    pub ty: Type,
    /// Whether a row may have no value.
    pub nullable: bool,
}

/// A row's columns, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Columns(pub Vec<Field>);

impl Columns {
    /// Columns from `(name, type, nullable)`.
    pub fn of<'n>(fields: impl IntoIterator<Item = (&'n str, Type, bool)>) -> Columns {
        Columns(
            fields
                .into_iter()
                .map(|(name, ty, nullable)| Field {
                    name: name.to_string(),
                    ty,
                    nullable,
                })
                .collect(),
        )
    }

    /// The number of columns.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The Arrow schema.
    pub fn arrow(&self) -> SchemaRef {
        let fields: Vec<ArrowField> = self
            .0
            .iter()
            .map(|f| {
                let a = ArrowField::new(&f.name, f.ty.arrow(), f.nullable);
                if f.ty == Type::Json {
                    a.with_metadata(HashMap::from([(
                        "ARROW:extension:name".to_string(),
                        "arrow.json".to_string(),
                    )]))
                } else {
                    a
                }
            })
            .collect();
        Arc::new(ArrowSchema::new(fields))
    }

    /// The header line of TSV and CSV: the error column flattened into
    /// `error_kind`, `error_part`, ...
    pub fn header(&self, format: TextFormat) -> Vec<u8> {
        let sep = if format == TextFormat::Csv { "," } else { "\t" };
        let mut names = Vec::new();
        for f in &self.0 {
            if f.ty == Type::Error {
                for e in ERROR_FIELDS {
                    names.push(format!("{}_{e}", f.name));
                }
            } else {
                names.push(f.name.clone());
            }
        }
        let mut h = names.join(sep).into_bytes();
        h.push(b'\n');
        h
    }
}

/// One column's value in one row.
#[derive(Clone, Debug)]
pub enum Cell<'a> {
    /// Null.
    Null,
    /// A boolean.
    Bool(bool),
    /// A number.
    U64(u64),
    /// Text of a valid reference: ASCII without `"`, `\` or control bytes
    /// (checked against the profile's grammar when the schema is made).
    Plain(&'a [u8]),
    /// Any other text (may need escaping; may be not UTF-8).
    Text(&'a [u8]),
    /// A name from a fixed set (a kind, a target form, a rule): ASCII like
    /// `Plain`, and `'static`, so dictionary columns keep it as it is.
    Name(&'static str),
    /// A repeated part's occurrences (boxed, as the error: a cell is small
    /// to move, and these are rare).
    List(Box<urilex::Occurrences<'a>>),
    /// An error.
    Error(Box<ErrorCell<'a>>),
    /// A nested value (a list of objects: `lint`'s lints, a URN's
    /// directives, RFC 1738's typed fields) as JSON text: in a JSON row as
    /// it is, a text cell in TSV and CSV, Arrow's canonical `arrow.json`
    /// extension type (Utf8) in Arrow and Parquet.
    Json(&'a [u8]),
}

impl<'a> From<ErrorCell<'a>> for Cell<'a> {
    fn from(e: ErrorCell<'a>) -> Cell<'a> {
        Cell::Error(Box::new(e))
    }
}

/// The error column's value.
#[derive(Clone, Debug)]
pub struct ErrorCell<'a> {
    /// `invalid-character`, ..., or `format` for a record that does not
    /// fit its format.
    pub kind: &'static str,
    /// The part the grammar places it in.
    pub part: Option<&'static str>,
    /// Byte offset in the reference (or in the record, for `format`).
    pub index: Option<u64>,
    /// The grammar rule.
    pub rule: Option<&'static str>,
    /// The whole message.
    pub message: Message<'a>,
    /// The reference's bytes when they are not UTF-8.
    pub raw: Option<&'a [u8]>,
}

impl<'a> ErrorCell<'a> {
    /// The error of a reference that does not parse: `input` is the
    /// reference (its bytes go in `raw` when they are not UTF-8).
    pub fn parse(e: ParseError, input: &'a [u8]) -> ErrorCell<'a> {
        let raw = std::str::from_utf8(input).is_err().then_some(input);
        ErrorCell {
            kind: e.kind().as_str(),
            part: e.part(),
            index: Some(e.index() as u64),
            rule: Some(e.rule()).filter(|r| !r.is_empty()),
            message: Message::Parse(e),
            raw,
        }
    }

    /// An error that is not the grammar's (`resolve`, `edit`): its kind
    /// and message, no place.
    pub fn other(kind: &'static str, message: &'a str) -> ErrorCell<'a> {
        ErrorCell {
            kind,
            part: None,
            index: None,
            rule: None,
            message: Message::Text(message),
            raw: None,
        }
    }

    /// The error of a record that does not fit its format (kind `format`,
    /// `index` in the record when known).
    pub fn format(message: &'a str, index: Option<u64>) -> ErrorCell<'a> {
        ErrorCell {
            kind: "format",
            part: None,
            index,
            rule: None,
            message: Message::Text(message),
            raw: None,
        }
    }
}

/// An error's message: a parse error's (formatted when written), or text.
#[derive(Clone, Debug)]
pub enum Message<'a> {
    /// A parse error.
    Parse(ParseError),
    /// Text.
    Text(&'a str),
}

impl std::fmt::Display for Message<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Message::Parse(e) => e.fmt(f),
            Message::Text(t) => f.write_str(t),
        }
    }
}
