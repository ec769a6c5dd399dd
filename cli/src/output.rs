//! Writing rows: JSON strings, and the fields of a `parse` row, which come
//! from the profile's part list (a grammar's new part is a new field with
//! no code here).

use std::io::{self, Write};
use urilex::{ParseError, UriRef};
use urilex_io::schema::ErrorCell;

/// `,"error":` and the error object every command's rows have (`kind`,
/// `part`, `index`, `rule`, `message`, `raw`: docs/schema.md).
pub fn error_field(out: &mut impl Write, e: &ErrorCell<'_>) -> io::Result<()> {
    let mut v = b",\"error\":".to_vec();
    urilex_io::text::json_error_object(&mut v, e);
    out.write_all(&v)
}

pub fn json_str(out: &mut impl Write, s: Option<&str>) -> io::Result<()> {
    match s {
        None => out.write_all(b"null"),
        Some(s)
            if s.bytes()
                .all(|b| b.is_ascii_graphic() && b != b'"' && b != b'\\' || b == b' ') =>
        {
            out.write_all(b"\"")?;
            out.write_all(s.as_bytes())?;
            out.write_all(b"\"")
        }
        Some(s) => serde_json::to_writer(&mut *out, s).map_err(io::Error::other),
    }
}

/// The fields of a `parse` row, from the profile's part list: every part it
/// declares in layout order, the kind of the classified part right after
/// it (`host_kind`), then for invalid rows the error. A grammar's new part
/// is a new field with no code here.
pub struct Columns {
    parts: Vec<urilex::PartInfo>,
    /// The classified part's index in `parts`.
    kind: Option<usize>,
    /// Field names in order.
    pub names: Vec<String>,
    /// The profile picks its rule by the scheme (RFC 1738): a JSON row
    /// names the rule and has a `parts` object of that rule's parts, since
    /// no one list of fields fits every scheme.
    by_rule: bool,
    /// The rule of the parser's entry (for rows no scheme rule matched).
    entry_rule: &'static str,
    /// Add each row's typed fields (`--semantics`).
    pub semantics: bool,
}

impl Columns {
    pub fn of(parser: &urilex::Parser) -> Columns {
        let profile = parser.get_profile();
        let parts: Vec<_> = profile.parts().collect();
        let kind = profile
            .kind_part()
            .and_then(|k| parts.iter().position(|p| p.index() == k.index()));
        let mut names = Vec::new();
        for (i, p) in parts.iter().enumerate() {
            names.push(p.name().to_string());
            if kind == Some(i) {
                names.push(format!("{}_kind", p.name()));
            }
        }
        Columns {
            parts,
            kind,
            names,
            by_rule: profile.schemes().next().is_some(),
            entry_rule: profile.entry_rule(parser.get_syntax()).unwrap_or(""),
            semantics: false,
        }
    }

    /// Each field's value for a valid reference, in order: one text, or for
    /// a repeated part its occurrences (nothing is collected per row).
    fn each<'a>(
        &self,
        u: &UriRef<'a>,
        mut f: impl FnMut(Field<'a>) -> io::Result<()>,
    ) -> io::Result<()> {
        for (i, p) in self.parts.iter().enumerate() {
            f(if p.is_repeated() {
                Field::Many(u.occurrences_at(p.index()))
            } else {
                Field::One(u.part_at(p.index()))
            })?;
            if self.kind == Some(i) {
                f(Field::One(u.kind_name()))?;
            }
        }
        Ok(())
    }
}

enum Field<'a> {
    One(Option<&'a str>),
    Many(urilex::Occurrences<'a>),
}

fn json_field(out: &mut impl Write, f: Field) -> io::Result<()> {
    match f {
        Field::One(s) => json_str(out, s),
        Field::Many(xs) => {
            out.write_all(b"[")?;
            for (i, x) in xs.enumerate() {
                if i > 0 {
                    out.write_all(b",")?;
                }
                json_str(out, Some(x))?;
            }
            out.write_all(b"]")
        }
    }
}

/// A row of a profile that picks its rule by the scheme: the rule, then a
/// `parts` object of every part that rule can hold (`null` absent, `""`
/// empty, a repeated part as an array), the kind, and with `--semantics`
/// the typed fields.
fn write_json_by_rule(
    out: &mut impl Write,
    cols: &Columns,
    u: &UriRef,
    line: u64,
) -> io::Result<()> {
    write!(out, "{{\"line\":{line},\"valid\":true,\"rule\":")?;
    json_str(out, Some(u.scheme_rule().unwrap_or(cols.entry_rule)))?;
    out.write_all(b",\"parts\":{")?;
    for (i, (p, text)) in u.rule_parts().enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        json_str(out, Some(p.name()))?;
        out.write_all(b":")?;
        if p.is_repeated() {
            json_field(out, Field::Many(u.occurrences_at(p.index())))?;
        } else {
            json_str(out, text)?;
        }
    }
    out.write_all(b"}")?;
    if let Some(k) = cols.kind.map(|k| &cols.parts[k]) {
        write!(out, ",\"{}_kind\":", k.name())?;
        json_str(out, u.kind_name())?;
    }
    if cols.semantics {
        out.write_all(b",\"semantics\":")?;
        let v = crate::semantics::of(u).unwrap_or(serde_json::Value::Null);
        serde_json::to_writer(&mut *out, &v).map_err(io::Error::other)?;
    }
    out.write_all(b",\"error\":null}\n")
}

/// One `parse` row of the reference `input` at `line`.
pub fn write_json(
    out: &mut impl Write,
    cols: &Columns,
    r: &Result<UriRef, ParseError>,
    input: &[u8],
    line: u64,
) -> io::Result<()> {
    match r {
        Ok(u) if cols.by_rule => write_json_by_rule(out, cols, u, line),
        Ok(u) => {
            write!(out, "{{\"line\":{line},\"valid\":true")?;
            let mut names = cols.names.iter();
            cols.each(u, |f| {
                write!(out, ",\"{}\":", names.next().map_or("", |n| n.as_str()))?;
                json_field(out, f)
            })?;
            out.write_all(b",\"error\":null}\n")
        }
        Err(e) => {
            write!(out, "{{\"line\":{line},\"valid\":false")?;
            if cols.by_rule {
                out.write_all(b",\"rule\":null,\"parts\":null")?;
                if cols.semantics {
                    out.write_all(b",\"semantics\":null")?;
                }
            } else {
                for name in &cols.names {
                    write!(out, ",\"{name}\":null")?;
                }
            }
            error_field(out, &ErrorCell::parse(*e, input))?;
            out.write_all(b"}\n")
        }
    }
}
