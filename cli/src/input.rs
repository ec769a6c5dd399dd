//! Reading the inputs for the subcommands that do not read records
//! (`extract`, `parse --semantics`), and where rows go. Both read through
//! urilex-io's pipeline (`Pipeline::each_chunk`: in order, on this
//! thread), as the record subcommands do: files memory-mapped,
//! standard input streamed in bounded memory (a chunk is handed on as soon
//! as the queue of blocks runs dry, so `tail -f` shows rows as lines
//! arrive), gzip and zstd read as they are. A file that cannot be read is
//! reported on stderr when it is met and the others are still read (exit
//! status 2 at the end, as grep does).

use crate::failure::Failure;
use std::io::{self, IsTerminal};
use std::path::{Path, PathBuf};
use urilex_io::rows::Engine;
use urilex_io::run::{Done, Pipeline};
use urilex_io::source::ReadOptions;

/// One chunk of free text: whole lines, the first of them line
/// `first_line` (1-based), or a piece of a line longer than the limit.
pub struct Chunk<'a> {
    pub bytes: &'a [u8],
    pub first_line: u64,
    /// The chunk begins its input.
    pub starts_input: bool,
}

/// Runs `each` on every chunk of every input (standard input when `files`
/// is empty, and for `-`), in order; chunks are about `size` bytes (less
/// from a stream), cut after a line end, or inside a line longer than
/// `max_line_bytes` (free text: nothing dropped), their lines numbered.
/// A progress display goes to stderr on a terminal.
pub fn for_each_chunk(
    files: &[PathBuf],
    size: usize,
    max_line_bytes: usize,
    mut each: impl FnMut(&Chunk) -> Result<(), Failure>,
) -> Result<(), Failure> {
    // Memory stays bounded by the chunk size and the line limit (the
    // engine's), whatever the input (standard input without a line break
    // among them).
    let read = ReadOptions {
        chunk_bytes: size,
        split_long_records: true,
        number_lines: true,
        ..ReadOptions::default()
    };
    let engine = Engine::lines(urilex::Profile::Rfc3986, max_line_bytes.max(1));
    let mut progress = Progress::new(files);
    let mut failed = false;
    let pipeline = Pipeline {
        files,
        read,
        engine: &engine,
        threads: 1,
    };
    let r = pipeline.each_chunk(|done| -> Result<(), Failure> {
        match done {
            Done::Rows(c, bytes) => {
                each(&Chunk {
                    bytes: &c.data,
                    first_line: c.first_line,
                    starts_input: c.starts_input,
                })?;
                progress.inc(bytes);
                Ok(())
            }
            Done::Fault(m) => {
                failed = true;
                progress.suspend(|| crate::failure::say(&m));
                Ok(())
            }
        }
    });
    progress.finish();
    r?;
    Failure::of(u64::from(failed), 0)
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
        let fail = |e: io::Error| Failure::Message(format!("{}: {e}", p.display()));
        let f = std::fs::File::create(p).map_err(fail)?;
        if is_stderr(&f) {
            // Messages are appended to it: rows too, so that both keep
            // their order and neither overwrites the other.
            let f = std::fs::OpenOptions::new()
                .append(true)
                .open(p)
                .map_err(fail)?;
            return Ok(Box::new(f));
        }
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

/// Whether `file` is the file standard error writes to (the same device
/// and inode): rows and messages must then be written in order, at the
/// file's one position.
pub fn is_stderr(file: &std::fs::File) -> bool {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        use std::os::unix::fs::MetadataExt;
        let Ok(err) = io::stderr().as_fd().try_clone_to_owned() else {
            return false;
        };
        let (Ok(a), Ok(b)) = (file.metadata(), std::fs::File::from(err).metadata()) else {
            return false;
        };
        a.is_file() && a.dev() == b.dev() && a.ino() == b.ino()
    }
    #[cfg(not(unix))]
    {
        let _ = file;
        false
    }
}

/// Another handle of the regular file rows to `path` (standard output when
/// `None`) go into, to cut it back after a failed write.
pub fn output_handle(path: Option<&Path>) -> Option<std::fs::File> {
    let file = match path {
        Some(p) => std::fs::OpenOptions::new().write(true).open(p).ok()?,
        None => {
            #[cfg(unix)]
            {
                use std::os::fd::AsFd;
                std::fs::File::from(io::stdout().as_fd().try_clone_to_owned().ok()?)
            }
            #[cfg(not(unix))]
            return None;
        }
    };
    file.metadata().ok()?.is_file().then_some(file)
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
        if is_stderr(&file) {
            return Ok(None);
        }
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
        // `> out 2>&1`: messages go to the file's shared position, which
        // rows written at offsets would overwrite; rows then go in order.
        if is_stderr(&file) {
            return Ok(None);
        }
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
