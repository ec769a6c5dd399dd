//! What both peer programs share: the file's lines, as urilex reads them
//! (LF ends a line, a CR before it is dropped, no empty last line), and a
//! buffered standard output for one JSON row per line.
use std::io::{BufWriter, StdoutLock, Write};

/// Runs `row` on each line of the file named by the first argument: its
/// 1-based number, its text (bytes that are not UTF-8 replaced) and the
/// output, where `row` writes one JSON value; a line end follows it.
pub fn rows(mut row: impl FnMut(u64, &str, &mut BufWriter<StdoutLock<'static>>)) {
    let path = std::env::args().nth(1).expect("FILE");
    let file = std::fs::File::open(path).unwrap();
    // SAFETY: read-only map of a file nobody changes during the run.
    let map = unsafe { memmap2::Mmap::map(&file).unwrap() };
    let body = map.strip_suffix(b"\n").unwrap_or(&map);
    let mut out = BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    for (i, line) in body.split(|&b| b == b'\n').enumerate() {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        row(i as u64 + 1, &String::from_utf8_lossy(line), &mut out);
        out.write_all(b"\n").unwrap();
    }
    out.flush().unwrap();
}
