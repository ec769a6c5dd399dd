//! The URI parsers a Rust user can choose from, timed on the same URL
//! corpora in one process: criterion measures each, and the parsers take
//! turns round after round (`PEERS_ROUNDS`, 3 unless set), so a slow spell
//! of a shared machine hits them alike; each one's best round counts.
//! Afterwards it writes `target/peers/peers.md` (a table: MB/s, ns per
//! line, the ratio to fluent-uri and how many lines each parser rejects,
//! with examples) and `target/peers/peers.svg` (a bar chart of the MB/s),
//! naming the CPU and urilex's kernels.
//!
//!     cd peers && cargo bench --bench peers
//!     cd peers && PEERS_ROUNDS=5 URILEX_KERNEL=avx2 cargo bench --bench peers
//!
//! To add a parser: a dev-dependency in `peers/Cargo.toml` and one entry in
//! [`PEERS`] (a name, what its grammar is, and a function that says
//! whether it parsed a line).
#[path = "../../benches/support/parsing.rs"]
mod parsing;

use criterion::Criterion;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How a parser is called: once per line, or once over the whole corpus
/// (lines joined by LF) returning how many lines it accepted, with the
/// same verdict for one line (to list the lines it rejects; the two must
/// agree, which the report checks).
#[derive(Clone, Copy)]
enum Call {
    Line(fn(&str) -> bool),
    Buffer {
        whole: fn(&[u8]) -> usize,
        line: fn(&str) -> bool,
    },
}

struct Peer {
    name: &'static str,
    /// What it parses and why it may reject a corpus line.
    grammar: &'static str,
    call: Call,
}

/// The parsers, in the order the table and chart show them; the first is
/// the one every ratio is taken against.
const PEERS: &[Peer] = &[
    Peer {
        name: "fluent-uri",
        grammar: "RFC 3986 URI-reference (`UriRef::parse`)",
        call: Call::Line(|l| fluent_uri::UriRef::parse(l).is_ok()),
    },
    Peer {
        name: "oxiri",
        grammar: "RFC 3987 IRI-reference (`IriRef::parse`): also takes non-ASCII",
        call: Call::Line(|l| oxiri::IriRef::parse(l).is_ok()),
    },
    Peer {
        name: "iri-string",
        grammar: "RFC 3986 URI-reference, validated, not split (`UriReferenceStr::new`)",
        call: Call::Line(|l| iri_string::types::UriReferenceStr::new(l).is_ok()),
    },
    Peer {
        name: "url",
        grammar: "WHATWG URL (`Url::parse`, no base): rejects relative references; normalizes, so it allocates",
        call: Call::Line(|l| url::Url::parse(l).is_ok()),
    },
    Peer {
        name: "ada-url",
        grammar: "WHATWG URL (ada's C++ through `ada_url::Url::parse`, no base): rejects relative references; normalizes",
        call: Call::Line(|l| ada_url::Url::parse(l, None).is_ok()),
    },
    Peer {
        name: "ada can_parse",
        grammar: "WHATWG URL, a verdict only (ada's C++ `can_parse` through `ada_url::Url::can_parse`, no base): rejects relative references; builds no URL",
        call: Call::Line(|l| ada_url::Url::can_parse(l, None)),
    },
    Peer {
        name: "http",
        grammar: "HTTP request target (`http::Uri`): rejects what a request line cannot carry (e.g. a fragment, most relative references, non-ASCII)",
        call: Call::Line(|l| l.parse::<http::Uri>().is_ok()),
    },
    Peer {
        name: "urilex",
        grammar: "RFC 3986 URI-reference (`UriRef::parse`)",
        call: Call::Line(|l| urilex::UriRef::parse(l).is_ok()),
    },
    Peer {
        name: "urilex batch",
        grammar: "RFC 3986 URI-reference, every line's spans (`Batch::parse_lines`)",
        call: Call::Buffer {
            whole: batch,
            line: |l| urilex::UriRef::parse(l).is_ok(),
        },
    },
    Peer {
        name: "urilex validate",
        grammar: "RFC 3986 URI-reference, a verdict per line (`validate_lines`)",
        call: Call::Buffer {
            whole: |buf| urilex::validate_lines(parser(), buf).valid,
            line: |l| parser().is_valid(l.as_bytes()),
        },
    },
];

fn parser() -> &'static urilex::Parser {
    static P: std::sync::OnceLock<urilex::Parser> = std::sync::OnceLock::new();
    P.get_or_init(urilex::Parser::new)
}

fn batch(buf: &[u8]) -> usize {
    thread_local!(static BATCH: RefCell<urilex::Batch> = RefCell::new(urilex::Batch::new()));
    BATCH.with_borrow_mut(|b| {
        b.parse_lines(parser(), buf);
        b.counts().valid
    })
}

struct Corpus {
    name: String,
    lines: Vec<String>,
    joined: Vec<u8>,
}

/// The corpora of the core crate's benchmarks (`benches/support/parsing.rs`).
fn corpora() -> Vec<Corpus> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    parsing::corpora_in(&root)
        .into_iter()
        .map(|(name, lines)| Corpus {
            joined: lines.join("\n").into_bytes(),
            name,
            lines,
        })
        .collect()
}

/// One pass of a parser over a corpus: how many lines it accepted.
fn pass(call: Call, c: &Corpus) -> usize {
    match call {
        Call::Line(f) => c.lines.iter().filter(|l| f(black_box(l))).count(),
        Call::Buffer { whole, .. } => whole(black_box(&c.joined)),
    }
}

/// Seconds per pass in each of criterion's calls, by (peer, corpus), one
/// list per round.
type Times = BTreeMap<(usize, usize), Vec<Vec<f64>>>;

/// criterion's samples per parser, corpus and round.
const SAMPLES: usize = 10;

fn main() {
    let kernels = match urilex::kernel_family() {
        Ok(k) => k,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let rounds: usize = std::env::var("PEERS_ROUNDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3)
        .max(1);
    let corpora = corpora();
    let mut c = Criterion::default()
        .sample_size(SAMPLES)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
        .configure_from_args();
    // The mean time of one pass in each of criterion's calls, by (peer,
    // corpus), a list per round.
    let times: RefCell<Times> = RefCell::new(BTreeMap::new());
    for round in 1..=rounds {
        for (ci, corpus) in corpora.iter().enumerate() {
            let mut g = c.benchmark_group(format!("{}/round-{round}", corpus.name));
            g.throughput(criterion::Throughput::Bytes(corpus.joined.len() as u64));
            for (pi, peer) in PEERS.iter().enumerate() {
                g.bench_function(peer.name, |b| {
                    b.iter_custom(|iters| {
                        let t = Instant::now();
                        for _ in 0..iters {
                            black_box(pass(peer.call, corpus));
                        }
                        let d = t.elapsed();
                        let mut times = times.borrow_mut();
                        let runs = times.entry((pi, ci)).or_default();
                        runs.resize_with(round, Vec::new);
                        runs[round - 1].push(d.as_secs_f64() / iters as f64);
                        d
                    })
                });
            }
            g.finish();
        }
    }
    c.final_summary();
    // A filter that ran nothing writes nothing, and neither does criterion's
    // `--test` mode (each benchmark run once, to see that it works): its
    // times are no measurement.
    let times = times.into_inner();
    if times.is_empty() || std::env::args().any(|a| a == "--test") {
        return;
    }
    let report = Report::new(&corpora, &times, rounds, kernels);
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/peers");
    std::fs::create_dir_all(&dir).expect("target/peers");
    write(dir.join("peers.md"), &report.table());
    write(dir.join("peers.svg"), &report.svg());
    println!("\n{}", report.table());
    println!("written: {}", dir.join("peers.{md,svg}").display());
}

fn write(path: PathBuf, text: &str) {
    std::fs::write(&path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

/// One cell of the table: a parser on a corpus.
struct Cell {
    /// The best round's median time of one pass, in seconds.
    secs: f64,
    rejects: usize,
    examples: Vec<String>,
}

struct Report<'a> {
    corpora: &'a [Corpus],
    /// cells[peer][corpus]
    cells: Vec<Vec<Option<Cell>>>,
    rounds: usize,
    cpu: String,
    kernels: &'static str,
}

impl<'a> Report<'a> {
    fn new(corpora: &'a [Corpus], times: &Times, rounds: usize, kernels: &'static str) -> Self {
        let per_round = |runs: &[Vec<f64>]| -> f64 {
            // criterion's measured samples are its last SAMPLES calls of a
            // round (the warm-up's come first): each round's median, then
            // the best round.
            runs.iter()
                .map(|r| {
                    let mut r = r[r.len().saturating_sub(SAMPLES)..].to_vec();
                    r.sort_by(f64::total_cmp);
                    r[r.len() / 2]
                })
                .fold(f64::INFINITY, f64::min)
        };
        let cells = PEERS
            .iter()
            .enumerate()
            .map(|(pi, peer)| {
                corpora
                    .iter()
                    .enumerate()
                    .map(|(ci, corpus)| {
                        let samples = times.get(&(pi, ci))?;
                        let (rejects, examples) = rejected(peer, corpus);
                        Some(Cell {
                            secs: per_round(samples),
                            rejects,
                            examples,
                        })
                    })
                    .collect()
            })
            .collect();
        let cpu = std::fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|t| {
                t.lines()
                    .find(|l| l.starts_with("model name"))
                    .and_then(|l| l.split(':').nth(1))
                    .map(|m| m.trim().to_string())
            })
            .unwrap_or_else(|| std::env::consts::ARCH.to_string());
        Report {
            corpora,
            cells,
            rounds,
            cpu,
            kernels,
        }
    }

    fn mbs(&self, corpus: usize, cell: &Cell) -> f64 {
        self.corpora[corpus].joined.len() as f64 / cell.secs / 1e6
    }

    /// Whether the parser rejects so many lines of the corpus (more than
    /// 1%) that its time there is not comparable work.
    fn unlike(&self, corpus: usize, cell: &Cell) -> bool {
        cell.rejects * 100 > self.corpora[corpus].lines.len()
    }

    fn table(&self) -> String {
        let mut t = String::new();
        let _ = writeln!(
            t,
            "CPU: {}; urilex kernels: {}; {} cores; best of {} rounds, each criterion's median.\n",
            self.cpu,
            self.kernels,
            std::thread::available_parallelism().map_or(1, |n| n.get()),
            self.rounds
        );
        let _ = write!(t, "| parser |");
        for c in self.corpora {
            let _ = write!(t, " {} ({} lines) |", c.name, c.lines.len());
        }
        let _ = write!(t, "\n| --- |");
        for _ in self.corpora {
            let _ = write!(t, " ---: |");
        }
        t.push('\n');
        for (pi, peer) in PEERS.iter().enumerate() {
            let _ = write!(t, "| {} |", peer.name);
            for (ci, cell) in self.cells[pi].iter().enumerate() {
                match (cell, &self.cells[0][ci]) {
                    (Some(cell), Some(base)) => {
                        let ns = cell.secs * 1e9 / self.corpora[ci].lines.len() as f64;
                        let _ = write!(
                            t,
                            " {:.0} MB/s, {:.0} ns, {:.2}×, {} rejected{} |",
                            self.mbs(ci, cell),
                            ns,
                            base.secs / cell.secs,
                            cell.rejects,
                            if self.unlike(ci, cell) { " †" } else { "" }
                        );
                    }
                    _ => t.push_str(" – |"),
                }
            }
            t.push('\n');
        }
        let _ = writeln!(
            t,
            "\nEach cell: throughput over the corpus's bytes, time per line, the ratio to {} \
             (higher is faster) and the lines the parser rejects. Every parser is timed on \
             every line, rejected ones included; † marks a parser that rejects more than 1% \
             of a corpus, whose figure there is not the same work.\n",
            PEERS[0].name
        );
        let _ = writeln!(t, "What each parses, and lines it rejected:\n");
        for (pi, peer) in PEERS.iter().enumerate() {
            let _ = writeln!(t, "- **{}**: {}.", peer.name, peer.grammar);
            for (ci, cell) in self.cells[pi].iter().enumerate() {
                if let Some(cell) = cell.as_ref().filter(|c| !c.examples.is_empty()) {
                    let shown: Vec<String> = cell
                        .examples
                        .iter()
                        .map(|e| format!("`{}`", e.replace('`', "'")))
                        .collect();
                    let _ = writeln!(
                        t,
                        "  - {}: {} rejected, e.g. {}",
                        self.corpora[ci].name,
                        cell.rejects,
                        shown.join(", ")
                    );
                }
            }
        }
        t
    }

    /// Horizontal bars, one group per corpus, one bar per parser (MB/s).
    fn svg(&self) -> String {
        const COLORS: [&str; 9] = [
            "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
            "#9c755f",
        ];
        let (left, width, bar, gap, top) = (190.0, 560.0, 14.0, 18.0, 56.0);
        let max = self
            .cells
            .iter()
            .flat_map(|row| row.iter().enumerate())
            .filter_map(|(ci, c)| c.as_ref().map(|c| self.mbs(ci, c)))
            .fold(1.0, f64::max);
        let group = PEERS.len() as f64 * bar + gap + 16.0;
        let height = top + group * self.corpora.len() as f64 + 10.0;
        let total = left + width + 90.0;
        let mut s = String::new();
        let _ = writeln!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{total}" height="{height}" font-family="sans-serif" font-size="11">"#
        );
        let _ = writeln!(
            s,
            r#"<rect width="100%" height="100%" fill="white"/><text x="8" y="18" font-size="14" font-weight="bold">URI parsers, MB/s (higher is faster)</text><text x="8" y="36" fill="dimgray">{} · urilex kernels: {} · best of {} rounds</text>"#,
            escape(&self.cpu),
            self.kernels,
            self.rounds
        );
        for (ci, corpus) in self.corpora.iter().enumerate() {
            let y0 = top + group * ci as f64;
            let _ = writeln!(
                s,
                r#"<text x="8" y="{:.1}" font-weight="bold">{} ({} lines)</text>"#,
                y0 + 10.0,
                escape(&corpus.name),
                corpus.lines.len()
            );
            for (pi, peer) in PEERS.iter().enumerate() {
                let y = y0 + 16.0 + pi as f64 * bar;
                let _ = writeln!(
                    s,
                    r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#,
                    left - 6.0,
                    y + bar - 4.0,
                    escape(peer.name)
                );
                if let Some(cell) = &self.cells[pi][ci] {
                    let v = self.mbs(ci, cell);
                    let w = (v / max * width).max(1.0);
                    let _ = writeln!(
                        s,
                        r#"<rect x="{left}" y="{:.1}" width="{w:.1}" height="{:.1}" fill="{}"/><text x="{:.1}" y="{:.1}">{v:.0}{}</text>"#,
                        y + 1.0,
                        bar - 2.0,
                        COLORS[pi % COLORS.len()],
                        left + w + 4.0,
                        y + bar - 4.0,
                        if self.unlike(ci, cell) {
                            format!(" (rejects {} lines)", cell.rejects)
                        } else {
                            String::new()
                        }
                    );
                }
            }
        }
        s.push_str("</svg>\n");
        s
    }
}

/// How many lines of the corpus the parser rejects, and the first three.
fn rejected(peer: &Peer, corpus: &Corpus) -> (usize, Vec<String>) {
    let verdicts: Vec<bool> = match peer.call {
        Call::Line(f) | Call::Buffer { line: f, .. } => corpus.lines.iter().map(|l| f(l)).collect(),
    };
    let accepted = verdicts.iter().filter(|&&v| v).count();
    if let Call::Buffer { whole, .. } = peer.call {
        // The whole-buffer count must agree with the line-by-line verdicts.
        assert_eq!(
            whole(&corpus.joined),
            accepted,
            "{} on {}",
            peer.name,
            corpus.name
        );
    }
    let examples = corpus
        .lines
        .iter()
        .zip(&verdicts)
        .filter(|(_, &v)| !v)
        .take(3)
        .map(|(l, _)| l.chars().take(80).collect())
        .collect();
    (verdicts.len() - accepted, examples)
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
