//! `urilex extract`: the URIs found in free text, one row per hit in text
//! order (`urilex::extract`).

use crate::args::{FilesArg, Format, ProfileArg, RowsArg};
use crate::failure::Failure;
use crate::input::{chunks, for_each_chunk};
use rayon::prelude::*;
use std::borrow::Cow;
use urilex::extract::{find_iter, ExtractOptions, Hit, MAX_DELIMITED};
use urilex_io::model::{Cell, Columns, Type};
use urilex_io::table::{Encoded, Rows, TableEncoder, TableSink};
use urilex_io::text::json_text;

#[derive(clap::Args)]
#[command(after_help = "Examples:
  urilex extract mail.txt                      JSON rows: line, uri, start, end, delimiter, flags
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
    pub rows: RowsArg,
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
    let mut out = Hits::new(&a)?;
    // The text not searched yet: the tail of the last chunk, which a URI
    // in <...> begun there may run past (it is searched with the next
    // chunk of the same input, or alone at the input's end).
    let mut pending: Option<Text> = None;
    let limit = a.max_line_bytes.max(MAX_DELIMITED + 2);
    for_each_chunk(&a.inputs.files, super::BATCH_CHUNK, limit, |c| {
        if c.starts_input {
            if let Some(t) = pending.take() {
                search(opts, &t.bytes, t.base, t.first_line, 0, &mut out)?;
            }
        }
        let (text, base, first_line) = match pending.take() {
            Some(mut t) => {
                t.bytes.extend_from_slice(c.bytes);
                (Cow::Owned(t.bytes), t.base, t.first_line)
            }
            None => (Cow::Borrowed(c.bytes), 0, c.first_line),
        };
        let (resume, line) = search(opts, &text, base, first_line, limit, &mut out)?;
        pending = Some(Text {
            bytes: text[resume..].to_vec(),
            base: base + resume as u64,
            first_line: line,
        });
        out.flush()
    })?;
    if let Some(t) = pending.take() {
        search(opts, &t.bytes, t.base, t.first_line, 0, &mut out)?;
    }
    out.flush()?;
    out.sink.finish()?;
    Ok(())
}

/// The columns of an `extract` row.
pub fn columns() -> Columns {
    Columns::of([
        ("line", Type::U64, false),
        ("uri", Type::Text, false),
        ("start", Type::U64, false),
        ("end", Type::U64, false),
        ("delimiter", Type::Name, false),
        ("flags", Type::Json, false),
    ])
}

/// Where hits go: rows of the model in a table format, or with
/// `--only-uri` the URIs alone, one per line.
struct Hits {
    sink: TableSink,
    encoder: TableEncoder,
    rows: Rows,
    only_uri: Option<Vec<u8>>,
    flags: Vec<u8>,
}

impl Hits {
    fn new(a: &Args) -> Result<Hits, Failure> {
        let format = a.rows.format.unwrap_or(Format::Jsonl);
        let binary = matches!(format, Format::Arrow | Format::Parquet) && !a.only_uri;
        let text = !matches!(format, Format::Arrow | Format::Parquet) || a.only_uri;
        let dest = crate::sink::destination(a.rows.output.as_deref(), &a.rows.spread, text)?;
        if dest.parts.is_some() {
            return Err(Failure::Message(
                "extract reads its text in order on one thread: -o DIR/ (part files) is for the commands that read records (parse, lint, urn, resolve, normalize)".into(),
            ));
        }
        let mut file = crate::sink::in_order(dest.path, binary, dest.compress.is_some())?;
        if let Some(how) = dest.compress {
            file = Box::new(urilex_io::compress::FramedWrite::new(file, how));
        }
        let header = (a.rows.header || format == Format::Csv) && !a.only_uri;
        let format = if a.only_uri { Format::Jsonl } else { format };
        let sink = TableSink::new(format.to_io(), &columns(), header, file)?;
        let encoder = sink.encoder();
        Ok(Hits {
            rows: encoder.rows(columns()),
            sink,
            encoder,
            only_uri: a.only_uri.then(Vec::new),
            flags: Vec::new(),
        })
    }

    /// Adds a hit; written out every 64 KiB of text (a pipe's buffer) (64Ki rows of Arrow
    /// or Parquet), so that a reader at the other end of a pipe works
    /// while the search goes on.
    fn push(&mut self, h: &Hit, base: u64, line: u64) -> Result<(), Failure> {
        if let Some(t) = &mut self.only_uri {
            t.extend_from_slice(h.uri.as_bytes());
            t.push(b'\n');
            if t.len() >= 1 << 16 {
                self.flush()?;
            }
            return Ok(());
        }
        self.flags.clear();
        self.flags.push(b'[');
        for (i, f) in h.flags.names().enumerate() {
            if i > 0 {
                self.flags.push(b',');
            }
            json_text(&mut self.flags, f.as_bytes());
        }
        self.flags.push(b']');
        self.rows.push([
            Cell::U64(line),
            Cell::Text(h.uri.as_bytes()),
            Cell::U64(base + h.span.start as u64),
            Cell::U64(base + h.span.end as u64),
            Cell::Name(h.delimiter.as_str()),
            Cell::Json(&self.flags),
        ]);
        if self.rows.text_len() >= 1 << 16 || self.rows.len() >= 1 << 16 {
            self.flush()?;
        }
        Ok(())
    }

    /// Writes what was pushed.
    fn flush(&mut self) -> Result<(), Failure> {
        let e = match &mut self.only_uri {
            Some(t) => Encoded::Text(std::mem::take(t)),
            None => self.encoder.encode(&mut self.rows),
        };
        if let Some(mut buf) = self.sink.put(e)? {
            buf.clear();
            match &mut self.only_uri {
                Some(t) => *t = buf,
                None => self.rows.recycle(buf),
            }
        }
        Ok(())
    }
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
    opts: ExtractOptions,
    text: &[u8],
    base: u64,
    first_line: u64,
    limit: usize,
    out: &mut Hits,
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
    // A piece is searched in the text up to its end (the bytes before
    // `from` are the context of a candidate there: after another piece's
    // hit, `from` need not start a token).
    let piece = |from: usize, to: usize| -> (Vec<Hit<'_>>, usize) {
        let window = &text[..text.len().min(to + need)];
        let mut it = find_iter(window, opts).start_at(from).stop_at(to);
        let mut hits = Vec::new();
        // Where the search went on after the last hit (its closing
        // delimiter included).
        let mut end = 0;
        while let Some(h) = it.next() {
            hits.push(h);
            end = it.position();
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
            out.push(&h, base, line)?;
        }
    }
    let resume = stop.max(end);
    line += count_lines(&text[counted..resume]);
    Ok((resume, line))
}

/// Line ends in `b`.
fn count_lines(b: &[u8]) -> u64 {
    b.iter().filter(|&&x| x == b'\n').count() as u64
}
