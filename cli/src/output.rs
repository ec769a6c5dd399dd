//! Writing rows: JSON strings, and the fields of a `parse` row, which come
//! from the profile's part list (a grammar's new part is a new field with
//! no code here).

use std::io::{self, Write};
use urilex::{ParseError, UriRef};

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
}

impl Columns {
    pub fn of(profile: urilex::Profile) -> Columns {
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
        Columns { parts, kind, names }
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

/// One `parse` row; an invalid row's error names its 1-based `line`.
pub fn write_json(
    out: &mut impl Write,
    cols: &Columns,
    r: &Result<UriRef, ParseError>,
    line: u64,
) -> io::Result<()> {
    match r {
        Ok(u) => {
            out.write_all(b"{\"valid\":true")?;
            let mut names = cols.names.iter();
            cols.each(u, |f| {
                write!(out, ",\"{}\":", names.next().map_or("", |n| n.as_str()))?;
                json_field(out, f)
            })?;
            out.write_all(b"}\n")
        }
        Err(e) => {
            out.write_all(b"{\"valid\":false")?;
            for name in &cols.names {
                write!(out, ",\"{name}\":null")?;
            }
            out.write_all(b",\"error\":{\"kind\":")?;
            json_str(out, Some(e.kind().as_str()))?;
            out.write_all(b",\"component\":")?;
            json_str(out, e.part())?;
            write!(out, ",\"line\":{line},\"index\":{},\"rule\":", e.index())?;
            json_str(out, Some(e.rule()))?;
            out.write_all(b",\"message\":")?;
            json_str(out, Some(&e.to_string()))?;
            out.write_all(b"}}\n")
        }
    }
}

fn tsv(out: &mut impl Write, s: Option<&str>) -> io::Result<()> {
    out.write_all(s.unwrap_or("\\N").as_bytes())
}

/// TSV cells: `\\N` for absent; a repeated part's occurrences as a JSON array.
pub fn write_tsv(
    out: &mut impl Write,
    cols: &Columns,
    r: &Result<UriRef, ParseError>,
) -> io::Result<()> {
    match r {
        Ok(u) => {
            out.write_all(b"true")?;
            cols.each(u, |f| {
                out.write_all(b"\t")?;
                match f {
                    Field::One(s) => tsv(out, s),
                    many => json_field(out, many),
                }
            })?;
            out.write_all(b"\t\\N\n")
        }
        Err(e) => {
            out.write_all(b"false")?;
            for _ in &cols.names {
                out.write_all(b"\t\\N")?;
            }
            writeln!(out, "\t{e}")
        }
    }
}
