//! `urilex resolve`: each line resolved against a base (RFC 3986 5.2, or
//! the profile's own algorithm), or `base<TAB>reference` pairs.

use crate::args::{InputsArg, ProfileArg, ThreadsArg};
use crate::failure::Failure;
use clap::ValueEnum;
use std::io::Write;
use urilex::{DotAboveRoot, Parser, ResolveOptions};

#[derive(clap::Args)]
#[command(
    group = clap::ArgGroup::new("against").required(true).args(["base", "pairs"]),
    after_help = "Examples:
  urilex resolve --base http://a/b/c/d;p?q refs.txt        each line against one base
  printf 'http://a/b/c\\t../g\\n' | urilex resolve --pairs  base<TAB>reference per line
  urilex resolve --base http://a/b/c/d --dot-above-root error refs.txt
Either --base or --pairs is needed. An invalid line gives `ERROR FILE:LINE: message` in its row."
)]
pub struct Args {
    /// The base URI every line is resolved against.
    #[arg(long, conflicts_with = "pairs")]
    pub base: Option<String>,
    /// Each line is `base<TAB>reference`.
    #[arg(long)]
    pub pairs: bool,
    /// Grammar profile; its resolution algorithm comes with it.
    #[command(flatten)]
    pub profile: ProfileArg,
    /// Ignore a reference's scheme when it equals the base's (RFC 3986 5.2.2).
    #[arg(long)]
    pub non_strict: bool,
    /// What `..` above the root does (default: the profile's).
    #[arg(long, value_enum)]
    pub dot_above_root: Option<DotArg>,
    #[command(flatten)]
    pub threads: ThreadsArg,
    #[command(flatten)]
    pub inputs: InputsArg,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum DotArg {
    Remove,
    Keep,
    Error,
}

pub fn run(a: Args) -> Result<(), Failure> {
    let parser = Parser::new().profile(a.profile.profile);
    let mut opts = ResolveOptions::new().strict(!a.non_strict);
    if let Some(d) = a.dot_above_root {
        opts = opts.dot_above_root(match d {
            DotArg::Remove => DotAboveRoot::Remove,
            DotArg::Keep => DotAboveRoot::Keep,
            DotArg::Error => DotAboveRoot::Error,
        });
    }
    let fixed = match &a.base {
        Some(b) => {
            let u = parser
                .parse(b)
                .map_err(|e| Failure::Message(format!("--base {b:?}: {e}")))?;
            if u.scheme().is_none() {
                return Err(Failure::Message(format!(
                    "--base {b:?}: a base URI must be absolute (RFC 3986 5.1)"
                )));
            }
            Some(u)
        }
        None => None,
    };
    super::run_lines(
        &a.inputs,
        a.threads.threads,
        String::new,
        |buf, rec, at, out| {
            let line = match rec {
                Ok(line) => line,
                Err(m) => return writeln!(out, "ERROR {at}: {m}"),
            };
            let (base_bytes, ref_bytes) = match &fixed {
                Some(_) => (&b""[..], line),
                None => match line.iter().position(|&b| b == b'\t') {
                    Some(i) => (&line[..i], &line[i + 1..]),
                    None => return writeln!(out, "ERROR {at}: expected base<TAB>reference"),
                },
            };
            let base = match &fixed {
                Some(u) => *u,
                None => match parser.parse_bytes(base_bytes) {
                    Ok(u) => u,
                    Err(e) => return writeln!(out, "ERROR {at}: base: {e}"),
                },
            };
            let reference = match at.parser(parser).parse_bytes(ref_bytes) {
                Ok(u) => u,
                Err(e) => return writeln!(out, "ERROR {at}: {e}"),
            };
            match urilex::resolve_into(&base, &reference, opts, buf) {
                Ok(()) => {
                    out.write_all(buf.as_bytes())?;
                    out.write_all(b"\n")
                }
                Err(e) => writeln!(out, "ERROR {at}: {e}"),
            }
        },
    )
}
