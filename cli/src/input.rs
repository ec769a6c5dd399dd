//! Reading the inputs, in order, as chunks that end just after a line end:
//! files memory-mapped, standard input streamed. A file that cannot be read
//! is reported on stderr when it is met and the others are still read
//! (exit status 2 at the end, as grep does).
//!
//! Standard input is never read whole: a reader thread hands over blocks
//! through a bounded queue, and the lines that have arrived are processed
//! as soon as the queue runs dry, so a row appears once its line is in
//! even when the writer pauses, and memory stays bounded (the queue, one
//! chunk and the line still coming in) whatever the input's size. When
//! the input comes fast the queue fills and the chunks grow to `size`,
//! large enough to keep every core busy.

use crate::failure::Failure;
use std::io::{self, IsTerminal, Read};
use std::path::{Path, PathBuf};
use std::sync::mpsc;

/// One chunk of an input: whole lines, the first of them line `first_line`
/// (1-based; 0 when the caller did not ask for line numbers).
pub struct Chunk<'a> {
    pub bytes: &'a [u8],
    pub first_line: u64,
}

/// Blocks read from standard input at a time, and how many may wait.
const BLOCK: usize = 256 << 10;
const QUEUED: usize = 32;

/// Runs `each` on every chunk of every input (standard input when `files`
/// is empty, and for `-`), in order; chunks are about `size` bytes, and
/// numbered (`Chunk::first_line`) when `numbered` (a pass of memchr over
/// every chunk, which a command that reports no line spares). A
/// progress bar goes to stderr when it is a terminal and the files add up
/// to 64 MiB or more.
pub fn for_each_chunk(
    files: &[PathBuf],
    size: usize,
    numbered: bool,
    mut each: impl FnMut(&Chunk) -> Result<(), Failure>,
) -> Result<(), Failure> {
    let stdin = [PathBuf::from("-")];
    let paths: &[PathBuf] = if files.is_empty() { &stdin } else { files };
    let total: u64 = paths
        .iter()
        .filter(|p| p.as_os_str() != "-")
        .filter_map(|p| std::fs::metadata(p).ok())
        .map(|m| m.len())
        .sum();
    let bar = (io::stderr().is_terminal() && total >= 64 << 20).then(|| {
        let b = indicatif::ProgressBar::new(total);
        b.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40} {bytes}/{total_bytes} {bytes_per_sec} eta {eta}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        b
    });
    let mut failed = false;
    for p in paths {
        let mut line = u64::from(numbered);
        let mut feed = |bytes: &[u8]| -> Result<(), Failure> {
            let c = Chunk {
                bytes,
                first_line: line,
            };
            each(&c)?;
            if numbered {
                line += line_count(bytes);
            }
            if let Some(b) = &bar {
                if p.as_os_str() != "-" {
                    b.inc(bytes.len() as u64);
                }
            }
            Ok(())
        };
        if p.as_os_str() == "-" {
            stream_stdin(size, &mut feed)?;
            continue;
        }
        match open_file(p) {
            Ok(input) => {
                for c in chunks(&input, size) {
                    feed(c)?;
                }
            }
            Err(e) => {
                eprintln!("urilex: {}: {e}", p.display());
                failed = true;
            }
        }
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    if failed {
        Err(Failure::Inputs)
    } else {
        Ok(())
    }
}

/// Standard input through a reader thread and a bounded queue (see the
/// module's documentation).
fn stream_stdin(
    size: usize,
    feed: &mut dyn FnMut(&[u8]) -> Result<(), Failure>,
) -> Result<(), Failure> {
    let (tx, rx) = mpsc::sync_channel::<io::Result<Vec<u8>>>(QUEUED);
    std::thread::spawn(move || {
        let mut stdin = io::stdin().lock();
        loop {
            let mut block = vec![0u8; BLOCK];
            match stdin.read(&mut block) {
                Ok(0) => break,
                Ok(n) => {
                    block.truncate(n);
                    if tx.send(Ok(block)).is_err() {
                        break;
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    let _ = tx.send(Err(e));
                    break;
                }
            }
        }
    });
    let fail = |e: io::Error| Failure::Message(format!("reading standard input: {e}"));
    let mut buf: Vec<u8> = Vec::new();
    let mut done = false;
    while !done {
        // Wait for something, then take what else is already there.
        match rx.recv() {
            Ok(block) => buf.extend_from_slice(&block.map_err(fail)?),
            Err(_) => break,
        }
        while buf.len() < size {
            match rx.try_recv() {
                Ok(block) => buf.extend_from_slice(&block.map_err(fail)?),
                Err(mpsc::TryRecvError::Empty) => break,
                Err(mpsc::TryRecvError::Disconnected) => {
                    done = true;
                    break;
                }
            }
        }
        if let Some(last) = buf.iter().rposition(|&b| b == b'\n') {
            feed(&buf[..=last])?;
            buf.drain(..=last);
        }
    }
    if !buf.is_empty() {
        feed(&buf)?;
    }
    Ok(())
}

/// How many lines `bytes` holds, as `urilex::lines` gives them: one per
/// LF, and one more for bytes after the last LF. A pass of memchr instead
/// of the line iterator: `validate` does nothing else per line, and the
/// count had cost it a third of its time.
fn line_count(bytes: &[u8]) -> u64 {
    let lfs = memchr::memchr_iter(b'\n', bytes).count();
    (lfs + usize::from(!bytes.is_empty() && !bytes.ends_with(b"\n"))) as u64
}

/// The bytes of one file: memory-mapped, or read.
enum Input {
    Mapped(memmap2::Mmap),
    Owned(Vec<u8>),
}

impl std::ops::Deref for Input {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Input::Mapped(m) => m,
            Input::Owned(v) => v,
        }
    }
}

fn open_file(path: &Path) -> io::Result<Input> {
    let file = std::fs::File::open(path)?;
    let meta = file.metadata()?;
    if meta.is_dir() {
        return Err(io::Error::other("is a directory"));
    }
    if meta.len() > 0 && meta.is_file() {
        // SAFETY: the map is read-only and lives as long as the `Input`. If
        // another process changes the file meanwhile we may read the changed
        // bytes, which urilex handles like any other input; truncation could
        // fault, the usual risk of mapping a file that changes underfoot,
        // accepted here for the speed on large logs.
        #[allow(unsafe_code)]
        // Populated up front: page faults taken lazily by several threads
        // serialize in the kernel and cost a third of the two-thread speed.
        if let Ok(m) = unsafe { memmap2::MmapOptions::new().populate().map(&file) } {
            return Ok(Input::Mapped(m));
        }
    }
    let mut v = Vec::new();
    (&file).read_to_end(&mut v)?;
    Ok(Input::Owned(v))
}

/// Chunks of about `size` bytes that end just after a LF (or at the end).
pub fn chunks(buf: &[u8], size: usize) -> impl Iterator<Item = &[u8]> {
    let mut rest = buf;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let cut = if rest.len() <= size {
            rest.len()
        } else {
            match rest[size..].iter().position(|&b| b == b'\n') {
                Some(i) => size + i + 1,
                None => rest.len(),
            }
        };
        let (c, r) = rest.split_at(cut);
        rest = r;
        Some(c)
    })
}

/// Where rows go: the file given, or standard output (as a plain file
/// handle: whole chunks are written with one call, not through a line
/// buffer). Binary formats are not written to a terminal.
pub fn output(path: Option<&Path>, binary: bool) -> Result<Box<dyn io::Write + Send>, Failure> {
    if let Some(p) = path {
        let f = std::fs::File::create(p)
            .map_err(|e| Failure::Message(format!("{}: {e}", p.display())))?;
        return Ok(Box::new(f));
    }
    if binary && io::stdout().is_terminal() {
        return Err(Failure::Message(
            "Arrow and Parquet output is not for a terminal: give -o FILE, or pipe it".into(),
        ));
    }
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        if let Ok(fd) = io::stdout().as_fd().try_clone_to_owned() {
            return Ok(Box::new(std::fs::File::from(fd)));
        }
    }
    Ok(Box::new(io::stdout()))
}

/// Where text rows go when the output is a regular file: the file (its
/// own handle), and the offset the rows start at.
pub struct FileOut {
    pub file: std::fs::File,
    pub start: u64,
    /// Whether it is standard output (whose position is moved past the rows
    /// at the end, for what the shell writes next).
    pub stdout: bool,
}

/// The output as a regular file that rows may be written into at their
/// offsets, when it is one: the file given with `-o`, or standard output
/// redirected to a file that is not open for appending (Linux tells by
/// `/proc/self/fdinfo/1`; elsewhere, or when it cannot tell, `None`).
pub fn file_output(path: Option<&Path>) -> Result<Option<FileOut>, Failure> {
    if let Some(p) = path {
        let file = std::fs::File::create(p)
            .map_err(|e| Failure::Message(format!("{}: {e}", p.display())))?;
        return Ok(Some(FileOut {
            file,
            start: 0,
            stdout: false,
        }));
    }
    #[cfg(target_os = "linux")]
    {
        use std::io::Seek;
        use std::os::fd::AsFd;
        let Ok(fd) = io::stdout().as_fd().try_clone_to_owned() else {
            return Ok(None);
        };
        let mut file = std::fs::File::from(fd);
        let regular = file.metadata().map(|m| m.is_file()).unwrap_or(false);
        // O_APPEND is 0o2000 in the octal `flags:` line.
        let append = std::fs::read_to_string("/proc/self/fdinfo/1")
            .ok()
            .and_then(|t| {
                let f = t.lines().find_map(|l| l.strip_prefix("flags:"))?;
                u64::from_str_radix(f.trim(), 8).ok()
            })
            .map(|flags| flags & 0o2000 != 0);
        if regular && append == Some(false) {
            if let Ok(start) = file.stream_position() {
                return Ok(Some(FileOut {
                    file,
                    start,
                    stdout: true,
                }));
            }
        }
    }
    Ok(None)
}

/// A progress display on stderr when it is a terminal: a bar for files
/// that add up to 64 MiB or more, the bytes read so far for standard
/// input.
pub struct Progress(Option<indicatif::ProgressBar>);

impl Progress {
    pub fn new(files: &[PathBuf]) -> Progress {
        if !io::stderr().is_terminal() {
            return Progress(None);
        }
        let stdin = files.is_empty() || files.iter().any(|p| p.as_os_str() == "-");
        let total: u64 = files
            .iter()
            .filter(|p| p.as_os_str() != "-")
            .filter_map(|p| std::fs::metadata(p).ok())
            .map(|m| m.len())
            .sum();
        let style = |t: &str| {
            indicatif::ProgressStyle::with_template(t)
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
        };
        if stdin {
            let b = indicatif::ProgressBar::new_spinner();
            b.set_style(style("{spinner} {bytes} read {bytes_per_sec}"));
            return Progress(Some(b));
        }
        if total < 64 << 20 {
            return Progress(None);
        }
        let b = indicatif::ProgressBar::new(total);
        b.set_style(style(
            "{bar:40} {bytes}/{total_bytes} {bytes_per_sec} eta {eta}",
        ));
        Progress(Some(b))
    }

    pub fn inc(&mut self, n: u64) {
        if let Some(b) = &self.0 {
            b.inc(n);
        }
    }

    /// Runs `f` (a message) with the display out of the way.
    pub fn suspend(&mut self, f: impl FnOnce()) {
        match &self.0 {
            Some(b) => b.suspend(f),
            None => f(),
        }
    }

    pub fn finish(&mut self) {
        if let Some(b) = self.0.take() {
            b.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn line_count_is_that_of_the_line_iterator() {
        let cases: [&[u8]; 12] = [
            b"",
            b"\n",
            b"\n\n",
            b"a",
            b"a\n",
            b"a\nb",
            b"a\r\nb\r\n",
            b"a\r",
            b"\r\n",
            b"\r",
            b"a\n\nb\n\n",
            b"x\ry\rz",
        ];
        for c in cases {
            assert_eq!(
                super::line_count(c),
                urilex::lines(c).count() as u64,
                "{:?}",
                String::from_utf8_lossy(c)
            );
        }
    }
}
