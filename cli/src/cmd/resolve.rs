//! `urilex resolve`: each line resolved against a base (RFC 3986 5.2, or
//! the profile's own algorithm), or `base<TAB>reference` pairs.

use super::{At, Record};
use crate::args::{InputsArg, ProfileArg, ThreadsArg};
use crate::failure::Failure;
use clap::ValueEnum;
use urilex::{DotAboveRoot, Parser, ResolveOptions};
use urilex_io::model::{ErrorCell, Message};

#[derive(clap::Args)]
#[command(
    group = clap::ArgGroup::new("against").required(true).args(["base", "pairs"]),
    after_help = "Examples:
  urilex resolve --base http://a/b/c/d;p?q refs.txt        each line against one base
  printf 'http://a/b/c\\t../g\\n' | urilex resolve --pairs  base<TAB>reference per line
  urilex resolve --base http://a/b/c/d --dot-above-root error refs.txt
  urilex resolve --base http://a/b/ --format jsonl refs.txt   rows: line, input, result, error
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
    pub out: super::ops::LinesArg,
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
    let out = super::LinesOut {
        columns: super::result_columns(),
        format: a.out.format.to_io(),
        header: a.out.header,
        output: a.out.output.as_deref(),
        spread: a.out.spread,
    };
    super::run_lines(
        &a.inputs,
        a.threads.threads,
        out,
        || (String::new(), String::new()),
        |(buf, message), rec, at, out| {
            let result = resolve_record(&parser, fixed.as_ref(), opts, rec, &at, buf, message);
            super::put_result(out, &at, rec, result.map(|()| buf.as_str()));
        },
    )
}

/// A record's reference resolved into `buf`, or why not (its message in
/// `message`).
fn resolve_record<'m>(
    parser: &Parser,
    fixed: Option<&urilex::UriRef<'_>>,
    opts: ResolveOptions,
    rec: Record<'m>,
    at: &At,
    buf: &mut String,
    message: &'m mut String,
) -> Result<(), ErrorCell<'m>> {
    use std::fmt::Write as _;
    message.clear();
    let line = match rec {
        Ok(line) => line,
        Err(m) => {
            message.push_str(m);
            return Err(ErrorCell::format(message, None));
        }
    };
    let (base_bytes, ref_bytes) = match fixed {
        Some(_) => (&b""[..], line),
        None => match line.iter().position(|&b| b == b'\t') {
            Some(i) => (&line[..i], &line[i + 1..]),
            None => {
                message.push_str("expected base<TAB>reference");
                return Err(ErrorCell::format(message, None));
            }
        },
    };
    let base = match fixed {
        Some(u) => *u,
        None => match parser.parse_bytes(base_bytes) {
            Ok(u) => u,
            Err(e) => {
                let _ = write!(message, "base: {e}");
                let mut cell = ErrorCell::parse(e, base_bytes);
                cell.message = Message::Text(message);
                return Err(cell);
            }
        },
    };
    let reference = match at.parser(*parser).parse_bytes(ref_bytes) {
        Ok(u) => u,
        Err(e) => return Err(ErrorCell::parse(e, ref_bytes)),
    };
    urilex::resolve_into(&base, &reference, opts, buf).map_err(|e| {
        let _ = write!(message, "{e}");
        ErrorCell::other("resolve", message)
    })
}
