//! `urilex lint`: security hazards, one JSON row per input line.

use crate::args::{InputsArg, ProfileArg, ThreadsArg};
use crate::failure::Failure;
use crate::output::json_str;
use std::io::Write;
use urilex::Parser;

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
            let line = match rec {
                Ok(line) => line,
                Err(m) => {
                    write!(
                        out,
                        "{{\"input\":null,\"valid\":false,\"lints\":[],\"line\":{},\"error\":",
                        at.line
                    )?;
                    json_str(out, Some(m))?;
                    return out.write_all(b"}\n");
                }
            };
            out.write_all(b"{\"input\":")?;
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
                    out.write_all(b"]}\n")
                }
                Err(e) => {
                    write!(
                        out,
                        ",\"valid\":false,\"lints\":[],\"line\":{},\"error\":",
                        at.line
                    )?;
                    json_str(out, Some(&e.to_string()))?;
                    out.write_all(b"}\n")
                }
            }
        },
    )
}
