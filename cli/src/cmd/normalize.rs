//! `urilex normalize`: the normal form of each line (RFC 3986 6.2.2; 6.2.3
//! on request).

use crate::args::{InputsArg, ProfileArg, ThreadsArg};
use crate::failure::Failure;
use std::io::Write;
use urilex::{NormalizeOptions, Parser};

#[derive(clap::Args)]
#[command(after_help = "Examples:
  echo 'HTTP://Example.COM:80/a/./b' | urilex normalize                  http://example.com:80/a/b
  echo 'HTTP://Example.COM:80/a/./b' | urilex normalize --scheme-based   http://example.com/a/b
An invalid line gives `ERROR FILE:LINE: message` in its row.")]
pub struct Args {
    #[command(flatten)]
    pub profile: ProfileArg,
    /// Add scheme-based normalization (default ports, empty http path).
    #[arg(long)]
    pub scheme_based: bool,
    /// Write IPv6 addresses in RFC 5952 form.
    #[arg(long)]
    pub ipv6_rfc5952: bool,
    #[command(flatten)]
    pub threads: ThreadsArg,
    #[command(flatten)]
    pub inputs: InputsArg,
}

pub fn run(a: Args) -> Result<(), Failure> {
    let parser = Parser::new().profile(a.profile.profile);
    let opts = NormalizeOptions::new()
        .scheme_based(a.scheme_based)
        .ipv6_rfc5952(a.ipv6_rfc5952);
    super::run_lines(
        &a.inputs,
        a.threads.threads,
        String::new,
        |s, rec, at, out| {
            let line = match rec {
                Ok(line) => line,
                Err(m) => return writeln!(out, "ERROR {at}: {m}"),
            };
            match at.parser(parser).parse_bytes(line) {
                Ok(u) => {
                    urilex::normalize_into(&u, opts, s);
                    out.write_all(s.as_bytes())?;
                    out.write_all(b"\n")
                }
                Err(e) => writeln!(out, "ERROR {at}: {e}"),
            }
        },
    )
}
