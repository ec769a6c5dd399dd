//! `urilex validate`: counts of valid and invalid references.

use crate::args::{InputsArg, ProfileArg, ThreadsArg};
use crate::failure::Failure;
use std::io::{self, Write};

#[derive(clap::Args)]
#[command(after_help = "Examples:
  urilex validate urls.txt                   counts; exit 0 when every line is valid
  urilex validate --threads 1 a.txt b.txt    one thread, two files
  urilex validate --input combined access.log.gz
                                             request targets of a compressed log
  zcat big.txt.gz | urilex validate          streamed, in bounded memory
Records that do not fit the input format are counted apart (`format_errors`),
and so are records without a reference (`absent`, as a JSON field that is
missing).")]
pub struct Args {
    #[command(flatten)]
    pub profile: ProfileArg,
    #[command(flatten)]
    pub threads: ThreadsArg,
    #[command(flatten)]
    pub inputs: InputsArg,
}

/// Counts of a run: the library's, and the records that gave no reference.
pub fn run(a: Args) -> Result<(), Failure> {
    let engine = a
        .inputs
        .engine(a.profile.profile, urilex::Syntax::Reference)
        .map_err(Failure::Message)?;
    let mut faults = 0;
    let verdicts = urilex_io::run::Pipeline {
        files: &a.inputs.files,
        read: a.inputs.read_options(true),
        engine: &engine,
        threads: a.threads.count(),
    }
    .validate(&mut |m| {
        faults += 1;
        crate::failure::say(&m);
    })?;
    let mut out = io::stdout().lock();
    verdicts.write(&mut out, !a.inputs.input.is_lines())?;
    out.flush()?;
    Failure::of(faults, verdicts.invalid())
}
