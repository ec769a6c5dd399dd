//! `urilex validate`: counts of valid and invalid lines.

use crate::args::{use_threads, InputsArg, ProfileArg, ThreadsArg};
use crate::failure::Failure;
use crate::input::for_each_chunk;
use std::io::{self, Write};
use urilex::Parser;

#[derive(clap::Args)]
#[command(after_help = "Examples:
  urilex validate access.log                 counts; exit 0 when every line is valid
  urilex validate --threads 1 a.log b.log    one thread, two files
  zcat big.log.gz | urilex validate          streamed, in bounded memory")]
pub struct Args {
    #[command(flatten)]
    pub profile: ProfileArg,
    #[command(flatten)]
    pub threads: ThreadsArg,
    #[command(flatten)]
    pub inputs: InputsArg,
}

pub fn run(a: Args) -> Result<(), Failure> {
    use_threads(a.threads.threads);
    let parser = Parser::new().profile(a.profile.profile);
    // Verdicts only (`validate_lines`: no spans are kept), a diagnosis for
    // invalid lines; the chunks' lines are not numbered.
    let mut c = urilex::Counts::default();
    let read = for_each_chunk(&a.inputs.files, 4 * super::BATCH_CHUNK, false, |chunk| {
        c.add(&urilex::validate_lines_parallel(
            &parser,
            chunk.bytes,
            a.threads.threads,
        ));
        Ok(())
    });
    let mut out = io::stdout().lock();
    write_counts(&mut out, &c)?;
    out.flush()?;
    read?;
    if c.total == c.valid {
        Ok(())
    } else {
        Err(Failure::Invalid)
    }
}

/// The counts block that `validate` and `stats` print.
pub fn write_counts(out: &mut impl Write, c: &urilex::Counts) -> io::Result<()> {
    writeln!(out, "total\t{}", c.total)?;
    writeln!(out, "valid\t{}", c.valid)?;
    writeln!(out, "invalid\t{}", c.total - c.valid)?;
    for (k, n) in urilex::ErrorKind::ALL.iter().zip(c.invalid) {
        if n > 0 {
            writeln!(out, "invalid.{}\t{n}", k.as_str())?;
        }
    }
    Ok(())
}
