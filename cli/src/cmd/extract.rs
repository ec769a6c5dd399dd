//! `urilex extract`: the URIs found in free text, one row per hit in text
//! order (`urilex::extract`).

use crate::args::{Format, FormatArg, InputsArg, ProfileArg};
use crate::failure::Failure;
use crate::input::{chunks, for_each_chunk};
use crate::output::json_str;
use rayon::prelude::*;
use std::io::{self, BufWriter, Write};
use urilex::extract::{find_iter, ExtractOptions, Hit};

#[derive(clap::Args)]
#[command(after_help = "Examples:
  urilex extract mail.txt                      JSON rows: uri, start, end, line, delimiter, flags
  urilex extract --only-uri access.log | sort -u
  urilex extract --refang iocs.txt             hxxp://example[.]com -> http://example.com (flagged)
  urilex extract --abbreviated notes.txt       www.example.com/x -> http://www.example.com/x (flagged)
Offsets are bytes from the start of each input; a URI broken across lines
inside <...> is found when both lines are in the same chunk (16 MiB).")]
pub struct Args {
    #[command(flatten)]
    pub profile: ProfileArg,
    /// Also complete abbreviated URIs (www..., ftp...; seed 000 Appendix F).
    #[arg(long)]
    pub abbreviated: bool,
    /// Also find defanged URIs (hxxp://a[.]b) and put them back.
    #[arg(long)]
    pub refang: bool,
    #[command(flatten)]
    pub format: FormatArg,
    /// Print only the URIs, one per line.
    #[arg(long)]
    pub only_uri: bool,
    #[command(flatten)]
    pub inputs: InputsArg,
}

pub fn run(a: Args) -> Result<(), Failure> {
    let opts = ExtractOptions::new()
        .profile(a.profile.profile)
        .abbreviated(a.abbreviated)
        .refang(a.refang);
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    // Byte offsets count from the start of each input (a chunk whose first
    // line is line 1 starts one).
    let mut base = 0u64;
    for_each_chunk(&a.inputs.files, super::BATCH_CHUNK, |c| {
        if c.first_line == 1 {
            base = 0;
        }
        // Large chunks are cut after line ends into pieces searched across
        // the cores; their hits are written in text order.
        let mut at = 0;
        let pieces: Vec<(usize, usize)> = chunks(c.bytes, 1 << 20)
            .map(|piece| {
                at += piece.len();
                (at - piece.len(), at)
            })
            .collect();
        let found: Vec<Vec<Hit>> = pieces
            .par_iter()
            .map(|&(s, e)| {
                find_iter(&c.bytes[s..e], opts)
                    .map(|mut h| {
                        h.span = h.span.start + s..h.span.end + s;
                        h
                    })
                    .collect()
            })
            .collect();
        let mut line = c.first_line;
        let mut counted = 0;
        for h in found.into_iter().flatten() {
            line += count_lines(&c.bytes[counted..h.span.start]);
            counted = h.span.start;
            if a.only_uri {
                out.write_all(h.uri.as_bytes())?;
                out.write_all(b"\n")?;
                continue;
            }
            let (start, end) = (base + h.span.start as u64, base + h.span.end as u64);
            let flags: Vec<&str> = h.flags.names().collect();
            match a.format.format {
                Format::Jsonl => {
                    out.write_all(b"{\"uri\":")?;
                    json_str(&mut out, Some(&h.uri))?;
                    write!(
                        out,
                        ",\"start\":{start},\"end\":{end},\"line\":{line},\"delimiter\":\"{}\",\"flags\":[",
                        h.delimiter.as_str()
                    )?;
                    for (i, f) in flags.iter().enumerate() {
                        if i > 0 {
                            out.write_all(b",")?;
                        }
                        write!(out, "\"{f}\"")?;
                    }
                    out.write_all(b"]}\n")?;
                }
                Format::Tsv => {
                    let uri = h.uri.replace(['\t', '\n'], " ");
                    writeln!(
                        out,
                        "{uri}\t{start}\t{end}\t{line}\t{}\t{}",
                        h.delimiter.as_str(),
                        flags.join(",")
                    )?;
                }
            }
        }
        base += c.bytes.len() as u64;
        out.flush()?;
        Ok(())
    })
}

/// Line ends in `b`.
fn count_lines(b: &[u8]) -> u64 {
    b.iter().filter(|&&x| x == b'\n').count() as u64
}
