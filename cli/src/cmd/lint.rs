//! `urilex lint`: security hazards, one JSON row per record: `line`,
//! `input`, `valid`, `lints`, `error` (the error object of every row).

use crate::args::{InputsArg, ProfileArg, ThreadsArg};
use crate::failure::Failure;
use crate::output::{error_field, json_str};
use std::io::Write;
use urilex::Parser;
use urilex_io::schema::ErrorCell;

#[derive(clap::Args)]
#[command(after_help = "Examples:
  urilex lint access.log        each line: input, valid, and its lints with kind and span
  echo 'http://u:p@h/' | urilex lint")]
pub struct Args {
    #[command(flatten)]
    pub profile: ProfileArg,
    #[command(flatten)]
    pub threads: ThreadsArg,
    #[command(flatten)]
    pub inputs: InputsArg,
}

pub fn run(a: Args) -> Result<(), Failure> {
    let parser = Parser::new().profile(a.profile.profile);
    super::run_lines(
        &a.inputs,
        a.threads.threads,
        || (),
        |_, rec, at, out| {
            write!(out, "{{\"line\":{},\"input\":", at.line)?;
            let line = match rec {
                Ok(line) => line,
                Err(m) => {
                    // The record did not fit its format: no reference.
                    out.write_all(b"null,\"valid\":null,\"lints\":[]")?;
                    error_field(out, &ErrorCell::format(m, None))?;
                    return out.write_all(b"}\n");
                }
            };
            json_str(out, Some(&String::from_utf8_lossy(line)))?;
            match at.parser(parser).parse_bytes(line) {
                Ok(u) => {
                    out.write_all(b",\"valid\":true,\"lints\":[")?;
                    for (i, l) in u.lints().iter().enumerate() {
                        if i > 0 {
                            out.write_all(b",")?;
                        }
                        out.write_all(b"{\"kind\":")?;
                        json_str(out, Some(l.kind.as_str()))?;
                        write!(
                            out,
                            ",\"start\":{},\"end\":{},\"text\":",
                            l.span.start, l.span.end
                        )?;
                        json_str(out, u.as_str().get(l.span.clone()))?;
                        out.write_all(b"}")?;
                    }
                    out.write_all(b"],\"error\":null}\n")
                }
                Err(e) => {
                    out.write_all(b",\"valid\":false,\"lints\":[]")?;
                    error_field(out, &ErrorCell::parse(e, line))?;
                    out.write_all(b"}\n")
                }
            }
        },
    )
}
