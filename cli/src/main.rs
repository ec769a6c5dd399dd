//! `urilex`: URI references in logs, from the command line.
//!
//! One output row per input line, in order, none dropped: lines end at LF, a
//! CR right before the LF is dropped, and lines that are not UTF-8 are
//! reported as invalid rows with the offset of the first bad byte.

use clap::{Parser as ClapParser, Subcommand, ValueEnum};
use std::io::{self, BufWriter, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use urilex::{
    DotAboveRoot, NormalizeOptions, ParseError, Parser, Profile, ResolveOptions, Syntax, UriRef,
};

#[derive(ClapParser)]
#[command(
    name = "urilex",
    version,
    about = "Parse and validate URI references (RFC 3986 and the grammars it grew from)"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Parse one reference per line and print its components.
    Parse {
        /// Grammar profile (abnf/*.abnf).
        #[arg(long, default_value = "rfc3986", value_parser = profile_parser())]
        profile: Profile,
        /// Rule each line must match.
        #[arg(long, default_value = "reference", value_parser = syntax_parser())]
        syntax: Syntax,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Jsonl)]
        format: Format,
        /// Print a header row first (TSV only).
        #[arg(long)]
        header: bool,
        /// Worker threads (0: all cores).
        #[arg(long, default_value_t = 0)]
        threads: usize,
        /// Input files; standard input when none is given or for `-`.
        files: Vec<PathBuf>,
    },
    /// Resolve references (one per line) against a base, or `base<TAB>reference` pairs.
    Resolve {
        /// The base URI every line is resolved against.
        #[arg(long, required_unless_present = "pairs", conflicts_with = "pairs")]
        base: Option<String>,
        /// Each line is `base<TAB>reference`.
        #[arg(long)]
        pairs: bool,
        /// Grammar profile (abnf/*.abnf); its resolution algorithm comes with it.
        #[arg(long, default_value = "rfc3986", value_parser = profile_parser())]
        profile: Profile,
        /// Ignore a reference's scheme when it equals the base's (RFC 3986 5.2.2).
        #[arg(long)]
        non_strict: bool,
        /// What `..` above the root does (default: the profile's).
        #[arg(long, value_enum)]
        dot_above_root: Option<DotArg>,
        /// Input files; standard input when none is given or for `-`.
        files: Vec<PathBuf>,
    },
    /// Count valid and invalid lines; exit 0 when all are valid, 1 when some are not.
    Validate {
        /// Grammar profile (abnf/*.abnf).
        #[arg(long, default_value = "rfc3986", value_parser = profile_parser())]
        profile: Profile,
        /// Worker threads (0: all cores).
        #[arg(long, default_value_t = 0)]
        threads: usize,
        /// Input files; standard input when none is given or for `-`.
        files: Vec<PathBuf>,
    },
    /// Counts by scheme and host kind, the top hosts, and invalid lines by kind.
    Stats {
        /// Grammar profile (abnf/*.abnf).
        #[arg(long, default_value = "rfc3986", value_parser = profile_parser())]
        profile: Profile,
        /// Worker threads (0: all cores).
        #[arg(long, default_value_t = 0)]
        threads: usize,
        /// How many of the most frequent hosts to list.
        #[arg(long, default_value_t = 10)]
        top: usize,
        /// Input files; standard input when none is given or for `-`.
        files: Vec<PathBuf>,
    },
    /// Security lints, one JSON line per input line: the input and each lint
    /// with its kind and byte span.
    Lint {
        /// Grammar profile (abnf/*.abnf).
        #[arg(long, default_value = "rfc3986", value_parser = profile_parser())]
        profile: Profile,
        /// Input files; standard input when none is given or for `-`.
        files: Vec<PathBuf>,
    },
    /// Normalize one reference per line (RFC 3986 6.2.2; 6.2.3 with --scheme-based).
    Normalize {
        /// Grammar profile (abnf/*.abnf).
        #[arg(long, default_value = "rfc3986", value_parser = profile_parser())]
        profile: Profile,
        /// Add scheme-based normalization (default ports, empty http path).
        #[arg(long)]
        scheme_based: bool,
        /// Write IPv6 addresses in RFC 5952 form.
        #[arg(long)]
        ipv6_rfc5952: bool,
        /// Input files; standard input when none is given or for `-`.
        files: Vec<PathBuf>,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum DotArg {
    Remove,
    Keep,
    Error,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Jsonl,
    Tsv,
}

/// `--syntax`: the entry points the grammars declare (`;@ entry`).
fn syntax_parser() -> impl clap::builder::TypedValueParser<Value = Syntax> {
    use clap::builder::TypedValueParser;
    let values = Syntax::ALL.iter().map(|s| s.as_str());
    clap::builder::PossibleValuesParser::new(values)
        .map(|s: String| Syntax::from_name(&s).expect("a listed syntax"))
}

/// `--profile`: the names come from the generated profile list, so a new
/// grammar file is a new choice in `--help` and in completions.
fn profile_parser() -> impl clap::builder::TypedValueParser<Value = Profile> {
    let values = Profile::ALL
        .iter()
        .map(|p| clap::builder::PossibleValue::new(p.name()).help(p.description()));
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(values)
        .map(|s: String| Profile::from_name(&s).expect("a listed profile"))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Validate {
            profile,
            threads,
            files,
        } => run_validate(Parser::new().profile(profile), threads, &files),
        Command::Stats {
            profile,
            threads,
            top,
            files,
        } => run_stats(Parser::new().profile(profile), threads, top, &files),
        Command::Parse {
            profile,
            syntax,
            format,
            header,
            threads,
            files,
        } => run_parse(
            Parser::new().profile(profile).syntax(syntax),
            format,
            header,
            threads,
            &files,
        ),
        Command::Resolve {
            base,
            pairs,
            profile,
            non_strict,
            dot_above_root,
            files,
        } => {
            let mut opts = ResolveOptions::new().strict(!non_strict);
            if let Some(d) = dot_above_root {
                opts = opts.dot_above_root(match d {
                    DotArg::Remove => DotAboveRoot::Remove,
                    DotArg::Keep => DotAboveRoot::Keep,
                    DotArg::Error => DotAboveRoot::Error,
                });
            }
            run_resolve(
                Parser::new().profile(profile),
                base.as_deref(),
                pairs,
                opts,
                &files,
            )
        }
        Command::Lint { profile, files } => run_lines(&files, |line, out| {
            out.write_all(b"{\"input\":")?;
            json_str(out, Some(&String::from_utf8_lossy(line)))?;
            match Parser::new().profile(profile).parse_bytes(line) {
                Ok(u) => {
                    out.write_all(b",\"valid\":true,\"lints\":[")?;
                    for (i, l) in u.lints().iter().enumerate() {
                        if i > 0 {
                            out.write_all(b",")?;
                        }
                        out.write_all(b"{\"kind\":")?;
                        json_str(out, Some(l.kind.as_str()))?;
                        write!(
                            out,
                            ",\"start\":{},\"end\":{},\"text\":",
                            l.span.start, l.span.end
                        )?;
                        json_str(out, u.as_str().get(l.span.clone()))?;
                        out.write_all(b"}")?;
                    }
                    out.write_all(b"]}\n")
                }
                Err(e) => {
                    out.write_all(b",\"valid\":false,\"lints\":[],\"error\":")?;
                    json_str(out, Some(&e.to_string()))?;
                    out.write_all(b"}\n")
                }
            }
        }),
        Command::Normalize {
            profile,
            scheme_based,
            ipv6_rfc5952,
            files,
        } => {
            let opts = NormalizeOptions::new()
                .scheme_based(scheme_based)
                .ipv6_rfc5952(ipv6_rfc5952);
            let mut s = String::new();
            run_lines(&files, |line, out| {
                match Parser::new().profile(profile).parse_bytes(line) {
                    Ok(u) => {
                        urilex::normalize_into(&u, opts, &mut s);
                        out.write_all(s.as_bytes())?;
                        out.write_all(b"\n")
                    }
                    Err(e) => writeln!(out, "ERROR {e}"),
                }
            })
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Invalid) => ExitCode::from(1),
        Err(Failure::BrokenPipe) => ExitCode::SUCCESS,
        Err(Failure::Message(m)) => {
            eprintln!("urilex: {m}");
            ExitCode::from(2)
        }
    }
}

enum Failure {
    /// The reader of our output went away: stop quietly.
    BrokenPipe,
    /// `validate` found invalid lines (exit status 1).
    Invalid,
    Message(String),
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Self {
        if e.kind() == io::ErrorKind::BrokenPipe {
            Failure::BrokenPipe
        } else {
            Failure::Message(format!("write error: {e}"))
        }
    }
}

/// The bytes of one input: a memory-mapped file, or a buffer.
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

/// Opens one input: a file (memory-mapped when it can be), or standard input for `-`.
fn open(path: &PathBuf) -> Result<Input, Failure> {
    if path.as_os_str() == "-" {
        let mut v = Vec::new();
        io::stdin()
            .lock()
            .read_to_end(&mut v)
            .map_err(|e| Failure::Message(format!("reading standard input: {e}")))?;
        return Ok(Input::Owned(v));
    }
    let fail = |e: io::Error| Failure::Message(format!("{}: {e}", path.display()));
    let file = std::fs::File::open(path).map_err(fail)?;
    let meta = file.metadata().map_err(fail)?;
    if meta.is_dir() {
        return Err(Failure::Message(format!(
            "{}: is a directory",
            path.display()
        )));
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
    (&file).read_to_end(&mut v).map_err(fail)?;
    Ok(Input::Owned(v))
}

/// Chunks of about `size` bytes that end just after a LF (or at the end).
fn chunks(buf: &[u8], size: usize) -> impl Iterator<Item = &[u8]> {
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

/// The inputs to read, after checking that every file exists: a missing
/// file fails the run before any row is printed. Also their total size
/// (standard input counts 0).
fn check_inputs(files: &[PathBuf]) -> Result<(Vec<PathBuf>, u64), Failure> {
    let paths = inputs(files);
    let mut total = 0u64;
    for p in &paths {
        if p.as_os_str() != "-" {
            let m = std::fs::metadata(p)
                .map_err(|e| Failure::Message(format!("{}: {e}", p.display())))?;
            total += m.len();
        }
    }
    Ok((paths, total))
}

/// The counts block that `validate` and `stats` print.
fn write_counts(out: &mut impl Write, c: &urilex::Counts) -> io::Result<()> {
    writeln!(out, "total\t{}", c.total)?;
    writeln!(out, "valid\t{}", c.valid)?;
    writeln!(out, "invalid\t{}", c.total - c.valid)?;
    for (k, n) in urilex::ErrorKind::ALL.iter().zip(c.invalid) {
        if n > 0 {
            writeln!(out, "invalid.{}\t{n}", k.as_str())?;
        }
    }
    Ok(())
}

/// Runs the batch engine over every input, chunk by chunk, in order; a
/// progress bar goes to stderr when it is a terminal and the input is large.
fn run_batches(
    parser: Parser,
    threads: usize,
    files: &[PathBuf],
    mut each: impl FnMut(&urilex::Batch, &[u8]) -> Result<(), Failure>,
) -> Result<(), Failure> {
    use std::io::IsTerminal;
    let (paths, total) = check_inputs(files)?;
    let bar = if io::stderr().is_terminal() && total >= 64 << 20 {
        let b = indicatif::ProgressBar::new(total);
        b.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40} {bytes}/{total_bytes} {bytes_per_sec} eta {eta}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        Some(b)
    } else {
        None
    };
    use_threads(threads);
    let mut batch = urilex::Batch::new();
    for p in &paths {
        let input = open(p)?;
        for chunk in chunks(&input, 16 << 20) {
            batch.parse_lines_parallel(&parser, chunk, threads);
            each(&batch, chunk)?;
            if let Some(b) = &bar {
                b.inc(chunk.len() as u64);
            }
        }
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    Ok(())
}

/// Sizes rayon's global pool, once, for `--threads` (0: rayon's default,
/// every core); the library runs on it and starts no threads of its own.
fn use_threads(threads: usize) {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        if threads > 0 {
            let _ = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build_global();
        }
    });
}

fn run_validate(parser: Parser, threads: usize, files: &[PathBuf]) -> Result<(), Failure> {
    use_threads(threads);
    let (paths, _) = check_inputs(files)?;
    // Verdicts only: the validating DFA per line, a diagnosis for invalid
    // lines (no spans are computed).
    let mut c = urilex::Counts::default();
    for p in &paths {
        let input = open(p)?;
        for chunk in chunks(&input, 64 << 20) {
            c.add(&urilex::validate_lines_parallel(&parser, chunk, threads));
        }
    }
    let mut out = io::stdout().lock();
    write_counts(&mut out, &c)?;
    out.flush()?;
    if c.total == c.valid {
        Ok(())
    } else {
        Err(Failure::Invalid)
    }
}

fn run_stats(parser: Parser, threads: usize, top: usize, files: &[PathBuf]) -> Result<(), Failure> {
    use std::collections::HashMap;
    let mut counts = urilex::Counts::default();
    let mut schemes: HashMap<Vec<u8>, usize> = HashMap::new();
    let mut host_kinds: HashMap<&'static str, usize> = HashMap::new();
    let mut hosts: HashMap<Vec<u8>, usize> = HashMap::new();
    let mut key: Vec<u8> = Vec::new();
    run_batches(parser, threads, files, |batch, chunk| {
        counts.add(&batch.counts());
        for i in 0..batch.len() {
            if !batch.is_valid(i) {
                continue;
            }
            let scheme = batch
                .component(i, urilex::Component::Scheme, chunk)
                .map(|s| s.to_ascii_lowercase());
            *schemes
                .entry(scheme.unwrap_or_else(|| b"(relative)".to_vec()))
                .or_default() += 1;
            if let Some(k) = batch.host_kind(i) {
                *host_kinds.entry(k.as_str()).or_default() += 1;
            }
            if let Some(h) = batch.component(i, urilex::Component::Host, chunk) {
                // Hosts are case-insensitive (RFC 3986 3.2.2): count them
                // lower-cased, without allocating for hosts already seen.
                key.clear();
                key.extend(h.iter().map(|b| b.to_ascii_lowercase()));
                match hosts.get_mut(key.as_slice()) {
                    Some(n) => *n += 1,
                    None => {
                        hosts.insert(key.clone(), 1);
                    }
                }
            }
        }
        Ok(())
    })?;
    let sorted = |m: HashMap<Vec<u8>, usize>| {
        let mut v: Vec<(Vec<u8>, usize)> = m.into_iter().collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        v
    };
    let mut out = BufWriter::new(io::stdout().lock());
    write_counts(&mut out, &counts)?;
    for (s, n) in sorted(schemes) {
        writeln!(out, "scheme.{}\t{n}", String::from_utf8_lossy(&s))?;
    }
    let mut hk: Vec<_> = host_kinds.into_iter().collect();
    hk.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    for (k, n) in hk {
        writeln!(out, "host_kind.{k}\t{n}")?;
    }
    for (h, n) in sorted(hosts).into_iter().take(top) {
        writeln!(out, "host.{}\t{n}", String::from_utf8_lossy(&h))?;
    }
    out.flush()?;
    Ok(())
}

fn inputs(files: &[PathBuf]) -> Vec<PathBuf> {
    if files.is_empty() {
        vec![PathBuf::from("-")]
    } else {
        files.to_vec()
    }
}

fn run_parse(
    parser: Parser,
    format: Format,
    header: bool,
    threads: usize,
    files: &[PathBuf],
) -> Result<(), Failure> {
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let cols = Columns::of(parser.get_profile());
    let names = cols.names();
    if header && matches!(format, Format::Tsv) {
        writeln!(out, "valid\t{}\terror", names.join("\t"))?;
    }
    run_batches(parser, threads, files, |batch, chunk| {
        for i in 0..batch.len() {
            let result = batch.get(i, chunk);
            match format {
                Format::Jsonl => write_json(&mut out, &cols, &names, &result)?,
                Format::Tsv => write_tsv(&mut out, &cols, &result)?,
            }
        }
        Ok(())
    })?;
    out.flush()?;
    Ok(())
}

/// Runs `row` on every line of every input, in order.
fn run_lines(
    files: &[PathBuf],
    mut row: impl FnMut(&[u8], &mut BufWriter<io::StdoutLock<'static>>) -> io::Result<()>,
) -> Result<(), Failure> {
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let (paths, _) = check_inputs(files)?;
    for p in &paths {
        let input = open(p)?;
        for (_, line) in urilex::lines(&input) {
            row(line, &mut out)?;
        }
    }
    out.flush()?;
    Ok(())
}

fn run_resolve(
    parser: Parser,
    base: Option<&str>,
    pairs: bool,
    opts: ResolveOptions,
    files: &[PathBuf],
) -> Result<(), Failure> {
    let fixed = match base {
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
    let mut buf = String::new();
    run_lines(files, |line, out| {
        let (base_bytes, ref_bytes) = match (&fixed, pairs) {
            (Some(_), _) => (&b""[..], line),
            (None, _) => match line.iter().position(|&b| b == b'\t') {
                Some(i) => (&line[..i], &line[i + 1..]),
                None => return writeln!(out, "ERROR expected base<TAB>reference"),
            },
        };
        let base = match &fixed {
            Some(u) => *u,
            None => match parser.parse_bytes(base_bytes) {
                Ok(u) => u,
                Err(e) => return writeln!(out, "ERROR base: {e}"),
            },
        };
        let reference = match parser.parse_bytes(ref_bytes) {
            Ok(u) => u,
            Err(e) => return writeln!(out, "ERROR {e}"),
        };
        match urilex::resolve_into(&base, &reference, opts, &mut buf) {
            Ok(()) => {
                out.write_all(buf.as_bytes())?;
                out.write_all(b"\n")
            }
            Err(e) => writeln!(out, "ERROR {e}"),
        }
    })
}

fn json_str(out: &mut impl Write, s: Option<&str>) -> io::Result<()> {
    match s {
        None => out.write_all(b"null"),
        Some(s)
            if s.bytes()
                .all(|b| b.is_ascii_graphic() && b != b'"' && b != b'\\' || b == b' ') =>
        {
            out.write_all(b"\"")?;
            out.write_all(s.as_bytes())?;
            out.write_all(b"\"")
        }
        Some(s) => serde_json::to_writer(&mut *out, s).map_err(io::Error::other),
    }
}

/// The fields of a `parse` row, from the profile's part list: every part it
/// declares in layout order, the kind of the classified part right after
/// it (`host_kind`), then for invalid rows the error. A grammar's new part
/// is a new field with no code here.
struct Columns {
    parts: Vec<urilex::PartInfo>,
    /// The classified part's index in `parts`, and the kind field's name.
    kind: Option<(usize, String)>,
}

impl Columns {
    fn of(profile: urilex::Profile) -> Columns {
        let parts: Vec<_> = profile.parts().collect();
        let kind = profile.kind_part().and_then(|k| {
            let at = parts.iter().position(|p| p.index() == k.index())?;
            Some((at, format!("{}_kind", k.name())))
        });
        Columns { parts, kind }
    }

    /// Field names in order.
    fn names(&self) -> Vec<String> {
        let mut v = Vec::new();
        for (i, p) in self.parts.iter().enumerate() {
            v.push(p.name().to_string());
            if let Some((at, name)) = &self.kind {
                if *at == i {
                    v.push(name.clone());
                }
            }
        }
        v
    }

    /// Each field's value for a valid reference: one text, or for a
    /// repeated part every occurrence.
    fn values<'a>(&self, u: &UriRef<'a>) -> Vec<Field<'a>> {
        let mut v = Vec::new();
        for (i, p) in self.parts.iter().enumerate() {
            v.push(if p.is_repeated() {
                Field::Many(u.occurrences_at(p.index()).collect())
            } else {
                Field::One(u.part_at(p.index()))
            });
            if self.kind.as_ref().is_some_and(|(at, _)| *at == i) {
                v.push(Field::One(u.kind_name()));
            }
        }
        v
    }
}

enum Field<'a> {
    One(Option<&'a str>),
    Many(Vec<&'a str>),
}

fn json_field(out: &mut impl Write, f: &Field) -> io::Result<()> {
    match f {
        Field::One(s) => json_str(out, *s),
        Field::Many(xs) => {
            out.write_all(b"[")?;
            for (i, x) in xs.iter().enumerate() {
                if i > 0 {
                    out.write_all(b",")?;
                }
                json_str(out, Some(x))?;
            }
            out.write_all(b"]")
        }
    }
}

fn write_json(
    out: &mut impl Write,
    cols: &Columns,
    names: &[String],
    r: &Result<UriRef, ParseError>,
) -> io::Result<()> {
    match r {
        Ok(u) => {
            out.write_all(b"{\"valid\":true")?;
            for (name, f) in names.iter().zip(cols.values(u)) {
                write!(out, ",\"{name}\":")?;
                json_field(out, &f)?;
            }
            out.write_all(b"}\n")
        }
        Err(e) => {
            out.write_all(b"{\"valid\":false")?;
            for name in names {
                write!(out, ",\"{name}\":null")?;
            }
            out.write_all(b",\"error\":{\"kind\":")?;
            json_str(out, Some(e.kind().as_str()))?;
            out.write_all(b",\"component\":")?;
            json_str(out, e.part())?;
            write!(out, ",\"index\":{},\"rule\":", e.index())?;
            json_str(out, Some(e.rule()))?;
            out.write_all(b",\"message\":")?;
            json_str(out, Some(&e.to_string()))?;
            out.write_all(b"}}\n")
        }
    }
}

fn tsv(out: &mut impl Write, s: Option<&str>) -> io::Result<()> {
    out.write_all(s.unwrap_or("\\N").as_bytes())
}

/// TSV cells: `\\N` for absent; a repeated part's occurrences as a JSON array.
fn write_tsv(
    out: &mut impl Write,
    cols: &Columns,
    r: &Result<UriRef, ParseError>,
) -> io::Result<()> {
    match r {
        Ok(u) => {
            out.write_all(b"true")?;
            for f in cols.values(u) {
                out.write_all(b"\t")?;
                match f {
                    Field::One(s) => tsv(out, s)?,
                    Field::Many(_) => json_field(out, &f)?,
                }
            }
            out.write_all(b"\t\\N\n")
        }
        Err(e) => {
            out.write_all(b"false")?;
            for _ in 0..cols.names().len() {
                out.write_all(b"\t\\N")?;
            }
            writeln!(out, "\t{e}")
        }
    }
}
