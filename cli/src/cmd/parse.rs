//! `urilex parse`: one row per input line with every part the profile's
//! grammar declares.

use crate::args::{
    syntax_parser, use_threads, Format, FormatArg, InputsArg, ProfileArg, ThreadsArg,
};
use crate::failure::Failure;
use crate::input::for_each_chunk;
use crate::output::{write_json, write_tsv, Columns};
use std::io::{self, BufWriter, Write};
use urilex::{Parser, Profile, Syntax};

#[derive(clap::Args)]
#[command(after_help = "Examples:
  urilex parse samples/requests.txt                  one JSON row per line
  urilex parse --format tsv --header access.log      TSV with a header row
  urilex parse --profile rfc6874 <<< 'http://[fe80::1%25eth0]/'
  urilex parse --syntax absolute-uri urls.txt        lines must have a scheme
  urilex parse --profile rfc1738 --semantics samples/rfc1738.txt
                                                     RFC 1738 URLs: each scheme's parts and their meaning
  tail -f access.log | urilex parse                  rows as lines arrive")]
pub struct Args {
    #[command(flatten)]
    pub profile: ProfileArg,
    /// Rule each line must match.
    #[arg(long, default_value = "reference", value_parser = syntax_parser())]
    pub syntax: Syntax,
    #[command(flatten)]
    pub format: FormatArg,
    /// Print a header row first (TSV; JSON Lines rows name their fields).
    #[arg(long)]
    pub header: bool,
    /// With `--profile rfc1738`: add each URL's typed fields as RFC 1738
    /// section 3 defines them (default port, decoded names, the FTP
    /// commands, the Gopher type, ...) in a `semantics` object.
    #[arg(long)]
    pub semantics: bool,
    #[command(flatten)]
    pub threads: ThreadsArg,
    #[command(flatten)]
    pub inputs: InputsArg,
}

pub fn run(a: Args) -> Result<(), Failure> {
    if a.header && a.format.format == Format::Jsonl {
        return Err(Failure::Message(
            "--header is for --format tsv: JSON Lines rows name their fields".into(),
        ));
    }
    use_threads(a.threads.threads);
    let parser = Parser::new().profile(a.profile.profile).syntax(a.syntax);
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    if a.semantics && (a.format.format != Format::Jsonl || a.profile.profile != Profile::Rfc1738) {
        return Err(Failure::Message(
            "--semantics is for --profile rfc1738 with JSON Lines output".into(),
        ));
    }
    let mut cols = Columns::of(&parser);
    cols.semantics = a.semantics;
    if a.header {
        writeln!(out, "valid\t{}\terror", cols.names.join("\t"))?;
    }
    let mut batch = urilex::Batch::new();
    for_each_chunk(&a.inputs.files, super::BATCH_CHUNK, true, |c| {
        batch.parse_lines_parallel(&parser, c.bytes, a.threads.threads);
        for i in 0..batch.len() {
            let result = batch.get(i, c.bytes);
            match a.format.format {
                Format::Jsonl => write_json(&mut out, &cols, &result, c.first_line + i as u64)?,
                Format::Tsv => write_tsv(&mut out, &cols, &result)?,
            }
        }
        out.flush()?;
        Ok(())
    })
}
