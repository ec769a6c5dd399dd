//! `urilex extract`: the URIs found in free text, one row per hit in text
//! order (`urilex::extract`).

use crate::args::{FilesArg, ProfileArg, TextFormat, TextFormatArg};
use crate::failure::Failure;
use crate::input::{chunks, for_each_chunk, LongLines};
use crate::output::json_str;
use rayon::prelude::*;
use std::borrow::Cow;
use std::io::{self, BufWriter, Write};
use urilex::extract::{find_iter, ExtractOptions, Hit, MAX_DELIMITED};

#[derive(clap::Args)]
#[command(after_help = "Examples:
  urilex extract mail.txt                      JSON rows: uri, start, end, line, delimiter, flags
  urilex extract --only-uri access.log | sort -u
  urilex extract --refang iocs.txt             hxxp://example[.]com -> http://example.com (flagged)
  urilex extract --abbreviated notes.txt       www.example.com/x -> http://www.example.com/x (flagged)
Offsets are bytes from the start of each input. A URI broken across lines
inside <...> is found wherever the input is cut for reading or for the
cores.")]
pub struct Args {
    #[command(flatten)]
    pub profile: ProfileArg,
    /// Also complete abbreviated URIs (www..., ftp...; draft-fielding-uri-rfc2396bis-00 Appendix F).
    #[arg(long)]
    pub abbreviated: bool,
    /// Also find defanged URIs (hxxp://a[.]b) and put them back.
    #[arg(long)]
    pub refang: bool,
    #[command(flatten)]
    pub format: TextFormatArg,
    /// Print only the URIs, one per line.
    #[arg(long)]
    pub only_uri: bool,
    /// Text is read in pieces of at most this many bytes between line
    /// breaks, so that memory stays bounded whatever the input: a longer
    /// line is searched in pieces cut at a space or tab (a bare URI longer
    /// than this, with no space in it, is cut too).
    #[arg(long, value_name = "BYTES", default_value_t = 16 << 20)]
    pub max_line_bytes: usize,
    #[command(flatten)]
    pub inputs: FilesArg,
}

pub fn run(a: Args) -> Result<(), Failure> {
    let opts = ExtractOptions::new()
        .profile(a.profile.profile)
        .abbreviated(a.abbreviated)
        .refang(a.refang);
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    // The text not searched yet: the tail of the last chunk, which a URI
    // in <...> begun there may run past (it is searched with the next
    // chunk of the same input, or alone at the input's end).
    let mut pending: Option<Text> = None;
    let limit = a.max_line_bytes.max(MAX_DELIMITED + 2);
    let long = (limit, LongLines::Split);
    for_each_chunk(&a.inputs.files, super::BATCH_CHUNK, true, long, |c| {
        if c.starts_input {
            if let Some(t) = pending.take() {
                search(&a, opts, &t.bytes, t.base, t.first_line, 0, &mut out)?;
            }
        }
        let (text, base, first_line) = match pending.take() {
            Some(mut t) => {
                t.bytes.extend_from_slice(c.bytes);
                (Cow::Owned(t.bytes), t.base, t.first_line)
            }
            None => (Cow::Borrowed(c.bytes), 0, c.first_line),
        };
        let (resume, line) = search(&a, opts, &text, base, first_line, limit, &mut out)?;
        pending = Some(Text {
            bytes: text[resume..].to_vec(),
            base: base + resume as u64,
            first_line: line,
        });
        out.flush()?;
        Ok(())
    })?;
    if let Some(t) = pending.take() {
        search(&a, opts, &t.bytes, t.base, t.first_line, 0, &mut out)?;
    }
    out.flush()?;
    Ok(())
}

/// Text of one input not searched yet: its bytes, the offset of its first
/// byte in the input, and its first line's number.
struct Text {
    bytes: Vec<u8>,
    base: u64,
    first_line: u64,
}

/// Searches `text` (at offset `base` of its input, from line `first_line`)
/// and writes its hits in order: all of it when it is the input's end
/// (`limit` 0), else the candidates that begin before its last line start
/// at least `MAX_DELIMITED` bytes from its end; when it has none there and
/// is longer than `limit`, before its last space or tab there (a bare
/// token's start), or, with none of those either, `MAX_DELIMITED` bytes
/// from its end: the text held between reads stays bounded. Large text is cut at line
/// starts into pieces searched across the cores (`FindIter::stop_at`); a
/// hit that runs past a cut makes the next piece be searched again from
/// its end. Returns where the search goes on, and that line's number.
fn search(
    a: &Args,
    opts: ExtractOptions,
    text: &[u8],
    base: u64,
    first_line: u64,
    limit: usize,
    out: &mut impl Write,
) -> Result<(usize, u64), Failure> {
    let need = MAX_DELIMITED + 1;
    let stop = if limit == 0 {
        text.len()
    } else if text.len() <= need {
        0
    } else {
        // The last line start at or before len - need.
        let before = &text[..text.len() - need];
        match memchr::memrchr(b'\n', before) {
            Some(i) => i + 1,
            None if text.len() <= limit => 0,
            None => match memchr::memrchr2(b' ', b'\t', before) {
                Some(i) => i + 1,
                None => before.len(),
            },
        }
    };
    // Cuts at line starts, about 1 MiB apart, up to `stop`.
    let mut cuts = vec![0];
    for piece in chunks(&text[..stop], 1 << 20) {
        cuts.push(cuts[cuts.len() - 1] + piece.len());
    }
    let piece = |from: usize, to: usize| -> (Vec<Hit<'_>>, usize) {
        let window = &text[from..text.len().min(to + need)];
        let mut it = find_iter(window, opts).stop_at(to - from);
        let mut hits = Vec::new();
        // Where the search went on after the last hit (its closing
        // delimiter included).
        let mut end = 0;
        while let Some(mut h) = it.next() {
            h.span = h.span.start + from..h.span.end + from;
            hits.push(h);
            end = from + it.position();
        }
        (hits, end)
    };
    let found: Vec<(Vec<Hit>, usize)> = cuts
        .windows(2)
        .collect::<Vec<_>>()
        .par_iter()
        .map(|w| piece(w[0], w[1]))
        .collect();
    let mut line = first_line;
    let mut counted = 0;
    let mut end = 0;
    for (k, (hits, hits_end)) in found.into_iter().enumerate() {
        let (from, to) = (cuts[k], cuts[k + 1]);
        // The last piece's last hit ran past this piece's start: search
        // this piece again from that hit's end.
        let (hits, hits_end) = if end > from {
            if end >= to {
                (Vec::new(), end)
            } else {
                piece(end, to)
            }
        } else {
            (hits, hits_end)
        };
        end = end.max(hits_end);
        for h in hits {
            line += count_lines(&text[counted..h.span.start]);
            counted = h.span.start;
            write_hit(a, out, &h, base, line)?;
        }
    }
    let resume = stop.max(end);
    line += count_lines(&text[counted..resume]);
    Ok((resume, line))
}

fn write_hit(a: &Args, out: &mut impl Write, h: &Hit, base: u64, line: u64) -> io::Result<()> {
    if a.only_uri {
        out.write_all(h.uri.as_bytes())?;
        return out.write_all(b"\n");
    }
    let (start, end) = (base + h.span.start as u64, base + h.span.end as u64);
    let flags: Vec<&str> = h.flags.names().collect();
    match a.format.format {
        TextFormat::Jsonl => {
            out.write_all(b"{\"uri\":")?;
            json_str(out, Some(&h.uri))?;
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
            out.write_all(b"]}\n")
        }
        TextFormat::Tsv => {
            let uri = h.uri.replace(['\t', '\n'], " ");
            writeln!(
                out,
                "{uri}\t{start}\t{end}\t{line}\t{}\t{}",
                h.delimiter.as_str(),
                flags.join(",")
            )
        }
    }
}

/// Line ends in `b`.
fn count_lines(b: &[u8]) -> u64 {
    b.iter().filter(|&&x| x == b'\n').count() as u64
}
