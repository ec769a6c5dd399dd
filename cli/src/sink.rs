//! Where rows go, so that an interrupt or a failed write leaves a file of
//! whole rows: text rows into a regular file at each chunk's offset by
//! several writers (`urilex parse`), or any rows in order, gated.

use crate::failure::Failure;
use crate::input::{file_output, output, output_handle};
use crate::interrupt::{on_interrupt, Gated};
use std::io::Write;
use std::path::Path;
use std::sync::{Arc, Mutex};
use urilex_io::run::{FileAt, Pipeline, Positions, Report, RowOutput, Summary};

/// The output for rows written in order: the file at `path` (standard
/// output when none). Into a regular file, an interrupt waits for the
/// chunk being written, and a failed write is cut back: whole rows (Arrow
/// and Parquet, `binary`, are not cut back: one interrupted has no
/// footer). Call it before the pipeline starts its threads.
pub fn in_order(path: Option<&Path>, binary: bool) -> Result<Box<dyn Write + Send>, Failure> {
    let out = output(path, binary)?;
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

/// Parse rows, written as `rows` says to `path` (standard output when
/// none): text into a regular file at each chunk's offset by up to four
/// writers at once (an interrupt leaves the rows before the first gap),
/// anything else [`in_order`].
pub fn parse_rows(
    pipeline: &Pipeline<'_>,
    rows: RowOutput<'_>,
    path: Option<&Path>,
    report: Report<'_>,
) -> Result<Summary, Failure> {
    let binary = !rows.format.is_text();
    let at = if binary { None } else { file_output(path)? };
    let Some(mut f) = at else {
        return Ok(pipeline.write(rows, in_order(path, binary)?, report)?);
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
