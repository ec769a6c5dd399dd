//! Text rows compressed on the workers: each chunk's rows one zstd frame
//! or one gzip member, written in order, so that the output (one file, or
//! each part file) is a stream that `zstd -d` and `gzip -d` read whole.

use std::io::{self, Write};
use std::path::Path;

/// How text rows are compressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    /// zstd at this level (1 to 19; 3 is zstd's own default).
    Zstd(i32),
    /// gzip (DEFLATE) at this level (0 to 9; 6 is gzip's own default).
    Gzip(u32),
}

impl Compression {
    /// The file name extension of its files (`.zst`, `.gz`).
    pub fn extension(self) -> &'static str {
        match self {
            Compression::Zstd(_) => ".zst",
            Compression::Gzip(_) => ".gz",
        }
    }

    /// The compression a file name asks for by its extension (`.zst`,
    /// `.gz`), at the default level.
    pub fn of_path(path: &Path) -> Option<Compression> {
        match path.extension()?.to_str()? {
            "zst" => Some(Compression::Zstd(DEFAULT_ZSTD)),
            "gz" => Some(Compression::Gzip(DEFAULT_GZIP)),
            _ => None,
        }
    }
}

/// zstd's level when none is given: measured on JSON Lines rows
/// (docs/cli.md), level 3's files were 1.5% smaller than level 1's and
/// took 25% longer to write.
pub const DEFAULT_ZSTD: i32 = 1;
/// gzip's level when none is given (gzip's own default).
pub const DEFAULT_GZIP: u32 = 6;

impl std::str::FromStr for Compression {
    type Err = String;

    /// `zstd`, `gzip`, or either with a level: `zstd:9`, `gzip:1`.
    fn from_str(s: &str) -> Result<Compression, String> {
        let (name, level) = match s.split_once(':') {
            Some((n, l)) => (n, Some(l)),
            None => (s, None),
        };
        let level = |max: u32, default: u32| -> Result<u32, String> {
            match level {
                None => Ok(default),
                Some(l) => match l.parse::<u32>() {
                    Ok(n) if n <= max => Ok(n),
                    _ => Err(format!(
                        "{name}'s level is a number from 0 to {max}, not `{l}`"
                    )),
                },
            }
        };
        match name {
            "zstd" => Ok(Compression::Zstd(level(19, DEFAULT_ZSTD as u32)? as i32)),
            "gzip" | "gz" => Ok(Compression::Gzip(level(9, DEFAULT_GZIP)?)),
            _ => Err(format!(
                "`{s}`: the compressions are zstd and gzip (a level after a colon: zstd:9)"
            )),
        }
    }
}

/// A worker's compressor: each chunk's text becomes one whole frame (zstd)
/// or member (gzip), so that frames written one after the other, in any
/// file, are one valid stream.
pub struct Framer {
    how: Option<Compression>,
    zstd: Option<zstd::bulk::Compressor<'static>>,
}

impl Framer {
    /// A compressor for `how` (none: text passes as it is).
    pub fn new(how: Option<Compression>) -> Framer {
        Framer { how, zstd: None }
    }

    /// Whether it compresses.
    pub fn compresses(&self) -> bool {
        self.how.is_some()
    }

    /// `text` compressed into `out` (emptied first) as one frame or member.
    pub fn frame(&mut self, text: &[u8], out: &mut Vec<u8>) -> io::Result<()> {
        out.clear();
        match self.how {
            None => out.extend_from_slice(text),
            Some(Compression::Zstd(level)) => {
                let z = match &mut self.zstd {
                    Some(z) => z,
                    None => self.zstd.insert(zstd::bulk::Compressor::new(level)?),
                };
                out.reserve(zstd::zstd_safe::compress_bound(text.len()));
                z.compress_to_buffer(text, out)?;
            }
            Some(Compression::Gzip(level)) => {
                let mut g = flate2::write::GzEncoder::new(
                    std::mem::take(out),
                    flate2::Compression::new(level),
                );
                g.write_all(text)?;
                *out = g.finish()?;
            }
        }
        Ok(())
    }
}

/// A stream whose every write is one frame (member) of its own: for text
/// written in order by one thread (`urilex extract`), whose writes are a
/// chunk's rows each.
pub struct FramedWrite<W: Write> {
    inner: W,
    framer: Framer,
    buf: Vec<u8>,
}

impl<W: Write> FramedWrite<W> {
    /// `inner`, its writes compressed as `how` says.
    pub fn new(inner: W, how: Compression) -> FramedWrite<W> {
        FramedWrite {
            inner,
            framer: Framer::new(Some(how)),
            buf: Vec::new(),
        }
    }
}

impl<W: Write> Write for FramedWrite<W> {
    fn write(&mut self, text: &[u8]) -> io::Result<usize> {
        if text.is_empty() {
            return Ok(0);
        }
        self.framer.frame(text, &mut self.buf)?;
        self.inner.write_all(&self.buf)?;
        Ok(text.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn frames_one_after_another_are_one_stream() {
        for how in [
            Compression::Zstd(1),
            Compression::Zstd(19),
            Compression::Gzip(6),
        ] {
            let mut framer = Framer::new(Some(how));
            let mut all = Vec::new();
            let mut plain = Vec::new();
            let mut out = Vec::new();
            for k in 0..5u32 {
                let text: Vec<u8> = (0..k * 10_000).map(|i| (i % 251) as u8).collect();
                framer.frame(&text, &mut out).unwrap();
                all.extend_from_slice(&out);
                plain.extend_from_slice(&text);
            }
            let mut back = Vec::new();
            match how {
                Compression::Zstd(_) => {
                    zstd::stream::read::Decoder::new(&all[..])
                        .unwrap()
                        .read_to_end(&mut back)
                        .unwrap();
                }
                Compression::Gzip(_) => {
                    flate2::read::MultiGzDecoder::new(&all[..])
                        .read_to_end(&mut back)
                        .unwrap();
                }
            }
            assert_eq!(back, plain, "{how:?}");
        }
    }

    #[test]
    fn compressions_by_name_and_by_extension() {
        assert_eq!("zstd".parse(), Ok(Compression::Zstd(DEFAULT_ZSTD)));
        assert_eq!("zstd:9".parse(), Ok(Compression::Zstd(9)));
        assert_eq!("gzip:1".parse(), Ok(Compression::Gzip(1)));
        assert!("gzip:10".parse::<Compression>().is_err());
        assert!("zstd:x".parse::<Compression>().is_err());
        assert!("brotli".parse::<Compression>().is_err());
        assert_eq!(
            Compression::of_path(Path::new("out.jsonl.zst")),
            Some(Compression::Zstd(DEFAULT_ZSTD))
        );
        assert_eq!(
            Compression::of_path(Path::new("a/out.tsv.gz")),
            Some(Compression::Gzip(DEFAULT_GZIP))
        );
        assert_eq!(Compression::of_path(Path::new("out.jsonl")), None);
    }
}
