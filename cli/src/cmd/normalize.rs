//! `urilex normalize`: the normal form of each line (RFC 3986 6.2.2; 6.2.3
//! on request).

use crate::args::{InputsArg, ProfileArg, ThreadsArg};
use crate::failure::Failure;
use std::fmt::Write as _;
use urilex::edit::{Dedup, Editor};
use urilex::{NormalizeOptions, Parser};
use urilex_io::model::ErrorCell;

#[derive(clap::Args)]
#[command(after_help = "Examples:
  echo 'HTTP://Example.COM:80/a/./b' | urilex normalize                  http://example.com:80/a/b
  echo 'HTTP://Example.COM:80/a/./b' | urilex normalize --scheme-based   http://example.com/a/b
  urilex normalize --dedup --strip-tracking urls.txt | sort | uniq -c   count pages, not links
  urilex normalize --sort-query --strip-params 'sid,session*' urls.txt
--dedup is for counting and grouping: it is not meaning-preserving (a server
may care about its query's order or a stripped parameter).
  urilex normalize --format parquet -o normal.parquet urls.txt   rows: line, input, result, error
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
    /// For deduplication (not meaning-preserving): --scheme-based,
    /// --sort-query and --drop-fragment.
    #[arg(long)]
    pub dedup: bool,
    /// Sort the query's pairs, ignoring case (as trurl).
    #[arg(long)]
    pub sort_query: bool,
    /// Drop the fragment.
    #[arg(long)]
    pub drop_fragment: bool,
    /// Remove query pairs by name: NAME or PREFIX*, comma-separated.
    #[arg(long, value_name = "PATTERNS", value_delimiter = ',')]
    pub strip_params: Vec<String>,
    /// Remove the tracking parameters of urilex's list (utm_*, fbclid,
    /// gclid, msclkid, ...; `urilex::edit::TRACKING_PARAMS`, version 2026-11).
    #[arg(long)]
    pub strip_tracking: bool,
    #[command(flatten)]
    pub out: super::ops::LinesArg,
    #[command(flatten)]
    pub threads: ThreadsArg,
    #[command(flatten)]
    pub inputs: InputsArg,
}

pub fn run(a: Args) -> Result<(), Failure> {
    if a.dedup || a.sort_query || a.drop_fragment || a.strip_tracking || !a.strip_params.is_empty()
    {
        return dedup(a);
    }
    let parser = Parser::new().profile(a.profile.profile);
    let opts = NormalizeOptions::new()
        .scheme_based(a.scheme_based)
        .ipv6_rfc5952(a.ipv6_rfc5952);
    super::run_lines(
        &a.inputs,
        a.threads.threads,
        lines_out(&a.out),
        String::new,
        |s, rec, at, out| {
            let result = match rec {
                Ok(line) => match at.parser(parser).parse_bytes(line) {
                    Ok(u) => {
                        urilex::normalize_into(&u, opts, s);
                        Ok(s.as_str())
                    }
                    Err(e) => Err(ErrorCell::parse(e, line)),
                },
                Err(m) => Err(ErrorCell::format(m, None)),
            };
            super::put_result(out, &at, rec, result);
        },
    )
}

fn lines_out(a: &super::ops::LinesArg) -> super::LinesOut<'_> {
    super::LinesOut {
        columns: super::result_columns(),
        format: a.format.to_io(),
        header: a.header,
        output: a.output.as_deref(),
        spread: a.spread,
    }
}

/// Normalization with query and fragment edits (`urilex::edit::Dedup`).
fn dedup(a: Args) -> Result<(), Failure> {
    super::edit::refuse_uneditable(a.profile.profile, "normalize with query and fragment edits")?;
    let parser = Parser::new().profile(a.profile.profile);
    let mut d = Dedup::new()
        .scheme_based(a.dedup || a.scheme_based)
        .sort_query(a.dedup || a.sort_query)
        .drop_fragment(a.dedup || a.drop_fragment)
        .ipv6_rfc5952(a.ipv6_rfc5952);
    if a.strip_tracking {
        d = d.strip_tracking();
    }
    for p in &a.strip_params {
        d = d.strip(p);
    }
    super::run_lines(
        &a.inputs,
        a.threads.threads,
        lines_out(&a.out),
        || (Editor::new(), String::new(), String::new()),
        |(editor, s, message), rec, at, out| {
            let result = match rec {
                Ok(line) => match at.parser(parser).parse_bytes(line) {
                    Ok(u) => match d.apply(editor, &u, s) {
                        Ok(()) => Ok(s.as_str()),
                        Err(e) => {
                            message.clear();
                            let _ = write!(message, "{e}");
                            Err(ErrorCell::other("edit", message))
                        }
                    },
                    Err(e) => Err(ErrorCell::parse(e, line)),
                },
                Err(m) => Err(ErrorCell::format(m, None)),
            };
            super::put_result(out, &at, rec, result);
        },
    )
}
