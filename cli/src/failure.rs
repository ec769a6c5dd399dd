//! How a run ends: the exit status and what goes to stderr.

use std::io;
use std::process::ExitCode;

pub enum Failure {
    /// The reader of our output went away: stop quietly.
    BrokenPipe,
    /// `validate` found invalid lines (exit status 1).
    Invalid,
    /// Some inputs could not be read; each was reported on stderr when it
    /// was met, and the others were processed (exit status 2, as grep).
    Inputs,
    /// A usage or I/O error, printed as `urilex: MESSAGE` (exit status 2).
    Message(String),
    /// A program run for us (`urilex sql`) ended with this status, having
    /// said why itself.
    Status(u8),
}

impl Failure {
    pub fn exit(result: Result<(), Failure>) -> ExitCode {
        match result {
            Ok(()) => ExitCode::SUCCESS,
            Err(Failure::Invalid) => ExitCode::from(1),
            Err(Failure::BrokenPipe) => ExitCode::SUCCESS,
            Err(Failure::Inputs) => ExitCode::from(2),
            Err(Failure::Status(c)) => ExitCode::from(c),
            Err(Failure::Message(m)) => {
                say(&m);
                ExitCode::from(2)
            }
        }
    }
}

impl Failure {
    /// The end of a run that read every input it could: 2 when some could
    /// not be read (each said when met), 1 when some references were
    /// invalid, else success.
    pub fn of(faults: u64, invalid: u64) -> Result<(), Failure> {
        if faults > 0 {
            Err(Failure::Inputs)
        } else if invalid > 0 {
            Err(Failure::Invalid)
        } else {
            Ok(())
        }
    }
}

impl From<urilex_io::run::RunError> for Failure {
    fn from(e: urilex_io::run::RunError) -> Self {
        match e {
            urilex_io::run::RunError::Io(e) => Failure::from(e),
            urilex_io::run::RunError::Other(m) => Failure::Message(m),
        }
    }
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Self {
        if e.kind() == io::ErrorKind::BrokenPipe {
            Failure::BrokenPipe
        } else {
            Failure::Message(format!("write error: {e}"))
        }
    }
}

/// Writes `urilex: MESSAGE` on standard error. A standard error that cannot
/// take it (a full disk, a closed pipe) loses the message, never the run:
/// `eprintln!` would panic there.
pub fn say(m: &dyn std::fmt::Display) {
    use std::io::Write;
    let _ = writeln!(io::stderr(), "urilex: {m}");
}
