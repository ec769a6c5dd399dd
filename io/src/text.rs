//! Rows as text: JSON Lines, TSV and CSV, a chunk at a time into a buffer
//! that the caller reuses (the workers format, the writer only writes).
//!
//! A valid reference's parts are copied as they are: the grammars admit
//! no byte that any of these formats escapes (checked when the schema is
//! made), so only error messages, carried log fields and inputs are
//! escaped. JSON text that is not UTF-8 (a carried field after `\xhh`
//! unescaping) has U+FFFD for each bad sequence; the exact bytes of an
//! invalid reference are in the error's `raw` field, as lowercase hex in
//! text formats.

use crate::fast::{decimal, FastRows};
use crate::model::{Cell, Columns, ErrorCell, Type};
use crate::rows::{ChunkRows, Record};
use crate::schema::Schema;
use std::fmt::Write as _;

pub use crate::model::TextFormat;

/// The text encoder of rows of the model: a row's cells, one at a time,
/// as JSON Lines, TSV or CSV. Every command's rows are written by it.
pub struct RowText {
    format: TextFormat,
    /// JSON: each column's `,"name":` (the first without the comma).
    keys: Vec<Vec<u8>>,
    /// Which columns are the error struct (six TSV/CSV fields).
    errors: Vec<bool>,
    scratch: String,
}

impl RowText {
    /// An encoder of rows of `columns` in `format`.
    pub fn new(format: TextFormat, columns: &Columns) -> RowText {
        let keys = columns
            .0
            .iter()
            .enumerate()
            .map(|(k, f)| {
                let mut key = Vec::new();
                key.extend_from_slice(if k == 0 { b"{\"" } else { b",\"" });
                key.extend_from_slice(f.name.as_bytes());
                key.extend_from_slice(b"\":");
                key
            })
            .collect();
        RowText {
            format,
            keys,
            errors: columns.0.iter().map(|f| f.ty == Type::Error).collect(),
            scratch: String::new(),
        }
    }

    /// Appends column `k`'s cell (columns come in order, from 0).
    #[inline]
    pub fn cell(&mut self, out: &mut Vec<u8>, k: usize, cell: Cell<'_>) {
        match self.format {
            TextFormat::Jsonl => {
                out.extend_from_slice(&self.keys[k]);
                json_cell(out, cell, &mut self.scratch);
            }
            TextFormat::Tsv | TextFormat::Csv => {
                let csv = self.format == TextFormat::Csv;
                let sep = if csv { b',' } else { b'\t' };
                if k > 0 {
                    out.push(sep);
                }
                if matches!(cell, Cell::Null) && self.errors[k] {
                    out.extend_from_slice(null_error_cells(csv));
                } else {
                    delimited_cell(out, cell, csv, sep, &mut self.scratch);
                }
            }
        }
    }

    /// Ends the row.
    #[inline]
    pub fn end(&mut self, out: &mut Vec<u8>) {
        if self.format == TextFormat::Jsonl {
            out.push(b'}');
        }
        out.push(b'\n');
    }

    /// Appends a row of cells.
    pub fn row<'a>(&mut self, out: &mut Vec<u8>, cells: impl IntoIterator<Item = Cell<'a>>) {
        for (k, c) in cells.into_iter().enumerate() {
            self.cell(out, k, c);
        }
        self.end(out);
    }
}

/// Writes rows of one schema as text.
pub struct TextWriter {
    format: TextFormat,
    schema: Schema,
    /// The general path: the model's encoder.
    text: RowText,
    /// The straight line for rows of one valid reference.
    fast: Option<FastRows>,
}

impl TextWriter {
    /// A writer of `schema`'s rows.
    pub fn new(format: TextFormat, schema: Schema) -> TextWriter {
        TextWriter {
            fast: FastRows::new(&schema, format),
            text: RowText::new(format, &schema.fields()),
            format,
            schema,
        }
    }

    /// The header line (TSV and CSV; the error column flattened into
    /// `error_kind`, `error_part`, ...).
    pub fn header(&self) -> Vec<u8> {
        self.schema.fields().header(self.format)
    }

    /// Writes the rows of `rows` at the start of `out`, whose length is
    /// room (kept from chunk to chunk, so that no chunk pays to zero or
    /// grow it again), not content: the number of bytes written.
    pub fn write(&mut self, rows: &ChunkRows<'_>, out: &mut Vec<u8>) -> usize {
        let n = rows.len();
        let columns = rows.ex.uris.len();
        let mut pos = 0;
        let mut slow = Vec::new();
        for r in 0..n {
            if let Some(f) = &mut self.fast {
                // Each URI column a valid reference from its record, or none.
                let mut uris: [Option<(urilex::Entry<'_>, &[u8])>; 2] = [None, None];
                let mut fits = columns <= 2;
                for (u, slot) in uris.iter_mut().enumerate().take(columns) {
                    match rows.record(u, r) {
                        Record::Entry(entry, buf) if entry.is_valid() => {
                            *slot = Some((entry, &buf[entry.line_start()..]));
                        }
                        Record::Absent if u > 0 => {}
                        _ => fits = false,
                    }
                }
                if fits {
                    if let Some(end) =
                        f.write(out, pos, rows.line(r), rows.form(r), &uris[..columns])
                    {
                        pos = end;
                        continue;
                    }
                }
            }
            slow.clear();
            self.row(rows, r, &mut slow);
            if out.len() < pos + slow.len() {
                let grow = (pos + slow.len()).max(out.len() + out.len() / 4);
                out.resize(grow, 0);
            }
            out[pos..pos + slow.len()].copy_from_slice(&slow);
            pos += slow.len();
        }
        pos
    }

    /// Appends row `r` to `out`, by the general path.
    fn row(&mut self, rows: &ChunkRows<'_>, r: usize, out: &mut Vec<u8>) {
        let text = &mut self.text;
        self.schema
            .cells(rows, r, |k, cell| text.cell(out, k, cell));
        text.end(out);
    }

    /// Turns the straight-line path for valid rows off (tests compare the
    /// two paths).
    pub fn general_only(mut self) -> TextWriter {
        self.fast = None;
        self
    }
}

fn json_cell(out: &mut Vec<u8>, cell: Cell<'_>, scratch: &mut String) {
    match cell {
        Cell::Null => out.extend_from_slice(b"null"),
        Cell::Bool(true) => out.extend_from_slice(b"true"),
        Cell::Bool(false) => out.extend_from_slice(b"false"),
        Cell::U64(n) => put_u64(out, n),
        Cell::Plain(t) => {
            out.push(b'"');
            out.extend_from_slice(t);
            out.push(b'"');
        }
        Cell::Name(t) => {
            out.push(b'"');
            out.extend_from_slice(t.as_bytes());
            out.push(b'"');
        }
        Cell::Text(t) => json_text(out, t),
        Cell::Json(t) => out.extend_from_slice(t),
        Cell::List(xs) => {
            out.push(b'[');
            for (i, x) in xs.enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                json_text(out, x.as_bytes());
            }
            out.push(b']');
        }
        Cell::Error(e) => json_error(out, &e, scratch),
    }
}

/// An error as the `error` object of a JSON row (`kind`, `part`, `index`,
/// `rule`, `message`, `raw`), as every command writes it.
pub fn json_error_object(out: &mut Vec<u8>, e: &ErrorCell<'_>) {
    json_error(out, e, &mut String::new());
}

fn json_error(out: &mut Vec<u8>, e: &ErrorCell<'_>, scratch: &mut String) {
    out.extend_from_slice(b"{\"kind\":\"");
    out.extend_from_slice(e.kind.as_bytes());
    out.extend_from_slice(b"\",\"part\":");
    json_opt(out, e.part);
    out.extend_from_slice(b",\"index\":");
    match e.index {
        Some(i) => put_u64(out, i),
        None => out.extend_from_slice(b"null"),
    }
    out.extend_from_slice(b",\"rule\":");
    json_opt(out, e.rule);
    out.extend_from_slice(b",\"message\":");
    scratch.clear();
    let _ = write!(scratch, "{}", e.message);
    json_text(out, scratch.as_bytes());
    out.extend_from_slice(b",\"raw\":");
    match e.raw {
        Some(raw) => {
            out.push(b'"');
            hex(out, raw);
            out.push(b'"');
        }
        None => out.extend_from_slice(b"null"),
    }
    out.push(b'}');
}

fn json_opt(out: &mut Vec<u8>, s: Option<&str>) {
    match s {
        Some(s) => json_text(out, s.as_bytes()),
        None => out.extend_from_slice(b"null"),
    }
}

/// A JSON string of `t`: `"` and `\` escaped, control bytes as `\u00XX`,
/// sequences that are not UTF-8 as U+FFFD.
pub fn json_text(out: &mut Vec<u8>, t: &[u8]) {
    out.push(b'"');
    // Most text needs no escape and is ASCII: one branchless pass tells.
    if t.iter()
        .fold(true, |ok, &b| ok & crate::schema::plain_byte(b))
    {
        out.extend_from_slice(t);
        out.push(b'"');
        return;
    }
    for chunk in t.utf8_chunks() {
        let s = chunk.valid().as_bytes();
        let mut from = 0;
        for (i, &b) in s.iter().enumerate() {
            let esc: &[u8] = match b {
                b'"' => b"\\\"",
                b'\\' => b"\\\\",
                b'\n' => b"\\n",
                b'\r' => b"\\r",
                b'\t' => b"\\t",
                0..=0x1f | 0x7f => b"",
                _ => continue,
            };
            out.extend_from_slice(&s[from..i]);
            if esc.is_empty() {
                out.extend_from_slice(b"\\u00");
                out.push(HEX[(b >> 4) as usize]);
                out.push(HEX[(b & 15) as usize]);
            } else {
                out.extend_from_slice(esc);
            }
            from = i + 1;
        }
        out.extend_from_slice(&s[from..]);
        if !chunk.invalid().is_empty() {
            out.extend_from_slice("\u{FFFD}".as_bytes());
        }
    }
    out.push(b'"');
}

const HEX: &[u8; 16] = b"0123456789abcdef";

fn hex(out: &mut Vec<u8>, bytes: &[u8]) {
    for &b in bytes {
        out.push(HEX[(b >> 4) as usize]);
        out.push(HEX[(b & 15) as usize]);
    }
}

/// Decimal digits of `n`.
pub fn put_u64(out: &mut Vec<u8>, n: u64) {
    let (buf, i) = decimal(n);
    out.extend_from_slice(&buf[i..]);
}

fn delimited_cell(out: &mut Vec<u8>, cell: Cell<'_>, csv: bool, sep: u8, scratch: &mut String) {
    match cell {
        Cell::Null if csv => {}
        Cell::Null => out.extend_from_slice(b"\\N"),
        Cell::Bool(true) => out.extend_from_slice(b"true"),
        Cell::Bool(false) => out.extend_from_slice(b"false"),
        Cell::U64(n) => put_u64(out, n),
        Cell::Name(t) => text_cell(out, t.as_bytes(), csv),
        Cell::Plain(t) if !csv => out.extend_from_slice(t),
        Cell::Plain(t) if !t.is_empty() && memchr::memchr(b',', t).is_none() => {
            out.extend_from_slice(t)
        }
        Cell::Plain(t) | Cell::Text(t) | Cell::Json(t) => text_cell(out, t, csv),
        Cell::List(xs) => {
            let mut j = Vec::new();
            json_cell(&mut j, Cell::List(xs), scratch);
            text_cell(out, &j, csv);
        }
        Cell::Error(e) => {
            let s = [sep];
            text_cell(out, e.kind.as_bytes(), csv);
            out.extend_from_slice(&s);
            opt_cell(out, e.part.map(str::as_bytes), csv);
            out.extend_from_slice(&s);
            match e.index {
                Some(i) => put_u64(out, i),
                None if csv => {}
                None => out.extend_from_slice(b"\\N"),
            }
            out.extend_from_slice(&s);
            opt_cell(out, e.rule.map(str::as_bytes), csv);
            out.extend_from_slice(&s);
            scratch.clear();
            let _ = write!(scratch, "{}", e.message);
            text_cell(out, scratch.as_bytes(), csv);
            out.extend_from_slice(&s);
            match e.raw {
                Some(raw) => hex(out, raw),
                None if csv => {}
                None => out.extend_from_slice(b"\\N"),
            }
        }
    }
}

fn opt_cell(out: &mut Vec<u8>, t: Option<&[u8]>, csv: bool) {
    match t {
        Some(t) => text_cell(out, t, csv),
        None if csv => {}
        None => out.extend_from_slice(b"\\N"),
    }
}

/// Text in a TSV cell (escaped) or a CSV field (quoted when needed).
pub fn text_cell(out: &mut Vec<u8>, t: &[u8], csv: bool) {
    if csv {
        let quote = t.is_empty() || t.iter().any(|&b| matches!(b, b',' | b'"' | b'\n' | b'\r'));
        if !quote {
            out.extend_from_slice(t);
            return;
        }
        out.push(b'"');
        for &b in t {
            if b == b'"' {
                out.push(b'"');
            }
            out.push(b);
        }
        out.push(b'"');
        return;
    }
    // Most cells need no escape: one branchless pass tells.
    let plain = t.iter().fold(true, |ok, &b| {
        ok & !matches!(b, b'\\' | b'\t' | b'\n' | b'\r')
    });
    if plain {
        out.extend_from_slice(t);
        return;
    }
    for &b in t {
        match b {
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\t' => out.extend_from_slice(b"\\t"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            _ => out.push(b),
        }
    }
}

/// Error cells take six TSV/CSV fields; a null error is six empty ones.
pub(crate) fn null_error_cells(csv: bool) -> &'static [u8] {
    if csv {
        b",,,,,"
    } else {
        b"\\N\t\\N\t\\N\t\\N\t\\N\t\\N"
    }
}
