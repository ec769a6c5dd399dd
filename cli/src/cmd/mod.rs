//! The subcommands, one module each: its flags (`Args`, with the shared
//! ones flattened in from `args`), its `--help` examples, and `run`.

pub mod extract;
pub mod lint;
pub mod normalize;
pub mod parse;
pub mod resolve;
pub mod stats;
pub mod urn;
pub mod validate;

/// Chunks handed to the batch engine: large enough for every core.
pub const BATCH_CHUNK: usize = 16 << 20;
/// Chunks for the line-by-line subcommands.
pub const LINE_CHUNK: usize = 1 << 20;

use crate::failure::Failure;
use crate::input::for_each_chunk;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;

/// Where a line is, for rows and messages: `FILE:LINE` (grep's and the
/// compilers' form; `-` is standard input).
pub struct At<'a> {
    pub name: &'a str,
    pub line: u64,
}

impl std::fmt::Display for At<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.name, self.line)
    }
}

/// Runs `row` on every line of every input, in order, with where it is;
/// the output is flushed after each chunk, so rows of a paused stream show.
pub fn run_lines(
    files: &[PathBuf],
    mut row: impl FnMut(&[u8], At, &mut BufWriter<io::StdoutLock<'static>>) -> io::Result<()>,
) -> Result<(), Failure> {
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    for_each_chunk(files, LINE_CHUNK, true, |c| {
        for (k, (_, line)) in urilex::lines(c.bytes).enumerate() {
            let at = At {
                name: c.name,
                line: c.first_line + k as u64,
            };
            row(line, at, &mut out)?;
        }
        out.flush()?;
        Ok(())
    })
}
