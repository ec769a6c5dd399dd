//! Where rows go, so that an interrupt or a failed write leaves a file of
//! whole rows: text rows into a regular file at each chunk's offset by
//! several writers (`urilex parse`), or any rows in order, gated.

use crate::args::SpreadArg;
use crate::failure::Failure;
use crate::input::{file_output, output, output_handle};
use crate::interrupt::{on_interrupt, Gated};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use urilex_io::compress::Compression;
use urilex_io::parts::Parts;
use urilex_io::run::{FileAt, Pipeline, Positions, Report, RowOutput, Summary};

/// Where rows go, by `-o`, `--compress` and `--part-bytes`: one stream
/// (standard output or a file), its text compressed or not, or part files
/// in a directory.
pub struct Dest<'a> {
    /// The file (standard output when none; unused for parts).
    pub path: Option<&'a Path>,
    /// Text rows compressed.
    pub compress: Option<Compression>,
    /// Part files.
    pub parts: Option<Parts>,
}

/// The destination `-o PATH` names for rows in a text format (`text`) or
/// not: a directory when it ends in `/` or is one; compressed text when
/// `--compress` says, or the file's name ends in `.zst` or `.gz`.
pub fn destination<'a>(
    path: Option<&'a Path>,
    spread: &SpreadArg,
    text: bool,
) -> Result<Dest<'a>, Failure> {
    let dir = part_dir(path);
    let compress = compression(
        if dir.is_some() { None } else { path },
        spread.compress,
        text,
    )?;
    Ok(Dest {
        path,
        compress,
        parts: dir.map(|d| Parts {
            dir: PathBuf::from(d),
            compress,
            input_bytes: spread.part_bytes,
        }),
    })
}

/// The directory of part files `-o PATH` names: a path that ends in `/`,
/// or an existing directory.
pub fn part_dir(path: Option<&Path>) -> Option<&Path> {
    path.filter(|p| {
        p.as_os_str()
            .to_string_lossy()
            .ends_with(std::path::MAIN_SEPARATOR)
            || p.is_dir()
    })
}

/// How text written to `file` (none: standard output, or parts) is
/// compressed: as `asked` (`--compress`), else as the file's name says
/// (`.zst`, `.gz`); only text (`text`) may be.
pub fn compression(
    file: Option<&Path>,
    asked: Option<Compression>,
    text: bool,
) -> Result<Option<Compression>, Failure> {
    if asked.is_some() && !text {
        return Err(Failure::Message(
            "--compress is for text rows (JSON Lines, TSV, CSV): Parquet's pages are compressed (zstd) already, and Arrow IPC is for reading in place".into(),
        ));
    }
    let implied = file.filter(|_| text).and_then(Compression::of_path);
    Ok(asked.or(implied))
}

/// Part files' interrupt: the parts being written (hidden files) are
/// removed, those whole stay. Call it before the pipeline starts its
/// threads.
pub fn parts_interrupt(parts: &Parts) -> Result<(), Failure> {
    parts
        .prepare()
        .map_err(|e| Failure::Message(format!("{}: {e}", parts.dir.display())))?;
    let dir = parts.dir.clone();
    on_interrupt(Box::new(move || Parts::remove_partial(&dir)));
    Ok(())
}

/// The output for rows written in order: the file at `path` (standard
/// output when none). Into a regular file, an interrupt waits for the
/// chunk being written, and a failed write is cut back: whole rows (Arrow
/// and Parquet, `binary`, are not cut back: one interrupted has no
/// footer). Compressed text (`compressed`) is not written to a terminal
/// either, and is cut back to whole frames. Call it before the pipeline
/// starts its threads.
pub fn in_order(
    path: Option<&Path>,
    binary: bool,
    compressed: bool,
) -> Result<Box<dyn Write + Send>, Failure> {
    let out = output(path, binary || compressed)?;
    let file = output_handle(path);
    let (false, Some(file)) = (binary, file) else {
        return Ok(out);
    };
    let gate = Arc::new(Mutex::new(()));
    let g = gate.clone();
    on_interrupt(Box::new(move || {
        let _held = g.lock();
        // Held until the process ends.
        std::mem::forget(_held);
    }));
    Ok(Box::new(Gated {
        inner: out,
        gate,
        file,
    }))
}

/// `out` compressed as `how` says, by the thread that writes it: the
/// text in frames (gzip members) of about 1 MiB, each one write of `out`
/// (so that an interrupt cuts back to whole frames), an empty frame
/// first (an output with no text is still a stream `zstd -d` reads). For
/// the operations, whose rows come in order from one writer; `parse`'s
/// workers compress their own chunks instead.
pub fn compressed(
    mut out: Box<dyn Write + Send>,
    how: Compression,
) -> Result<Box<dyn Write + Send>, Failure> {
    let mut empty = Vec::new();
    urilex_io::compress::Framer::new(Some(how)).frame(b"", &mut empty)?;
    out.write_all(&empty)?;
    Ok(Box::new(std::io::BufWriter::with_capacity(
        1 << 20,
        urilex_io::compress::FramedWrite::new(out, how),
    )))
}

/// Parse rows, written as `rows` says to `path` (standard output when
/// none): text into a regular file at each chunk's offset by up to four
/// writers at once (an interrupt leaves the rows before the first gap),
/// anything else [`in_order`].
pub fn parse_rows(
    pipeline: &Pipeline<'_>,
    rows: RowOutput<'_>,
    dest: &Dest<'_>,
    report: Report<'_>,
) -> Result<Summary, Failure> {
    if let Some(parts) = &dest.parts {
        parts_interrupt(parts)?;
        return Ok(pipeline.write_rows_parts(rows, parts, report)?);
    }
    let rows = RowOutput {
        compress: dest.compress,
        ..rows
    };
    let path = dest.path;
    let binary = !rows.format.is_text();
    let at = if binary { None } else { file_output(path)? };
    let Some(mut f) = at else {
        let out = in_order(path, binary, rows.compress.is_some())?;
        return Ok(pipeline.write(rows, out, report)?);
    };
    // Chunks written ahead of a gap are cut off at an interrupt.
    let positions = Arc::new(Positions::new());
    let p = positions.clone();
    on_interrupt(Box::new(move || {
        let _ = p.interrupt();
    }));
    let at = FileAt {
        file: f.file.try_clone()?,
        start: f.start,
        writers: pipeline.threads.clamp(1, 4),
        positions: &positions,
    };
    let (summary, end) = pipeline.write_at(rows, at, report)?;
    if f.stdout {
        use std::io::Seek;
        f.file.seek(std::io::SeekFrom::Start(end))?;
    }
    Ok(summary)
}
