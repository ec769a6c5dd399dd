//! `urilex stats`: counts by scheme and host kind, the most frequent hosts,
//! and invalid references by kind.

use crate::args::{InputsArg, ProfileArg, ThreadsArg};
use crate::failure::Failure;
use std::collections::HashMap;
use std::io::{self, BufWriter, Write};
use urilex::Component;
use urilex_io::rows::Value;
use urilex_io::verdicts::Verdicts;

#[derive(clap::Args)]
#[command(after_help = "Examples:
  urilex stats urls.txt                 schemes, host kinds, top 10 hosts
  urilex stats --top 50 *.txt           the 50 most frequent hosts
  urilex stats --input combined --field referer access.log.gz
                                        where the visitors came from
Records that do not fit the input format are counted apart (`format_errors`).")]
pub struct Args {
    #[command(flatten)]
    pub profile: ProfileArg,
    #[command(flatten)]
    pub threads: ThreadsArg,
    /// How many of the most frequent hosts to list.
    #[arg(long, default_value_t = 10)]
    pub top: usize,
    #[command(flatten)]
    pub inputs: InputsArg,
}

/// A chunk's counts (merged in input order).
#[derive(Default)]
struct Part {
    tally: Verdicts,
    schemes: HashMap<Vec<u8>, usize>,
    host_kinds: HashMap<&'static str, usize>,
    hosts: HashMap<Vec<u8>, usize>,
}

fn bump(m: &mut HashMap<Vec<u8>, usize>, key: &[u8], n: usize) {
    match m.get_mut(key) {
        Some(c) => *c += n,
        None => {
            m.insert(key.to_vec(), n);
        }
    }
}

pub fn run(a: Args) -> Result<(), Failure> {
    let engine = a
        .inputs
        .engine(a.profile.profile, urilex::Syntax::Reference)
        .map_err(Failure::Message)?;
    let mut all = Part::default();
    let mut failed = false;
    urilex_io::run::Pipeline {
        files: &a.inputs.files,
        read: a.inputs.read_options(true),
        engine: &engine,
        threads: a.threads.count(),
    }
    .run(
        Vec::new,
        |key, rows| {
            let mut p = Part::default();
            for r in 0..rows.len() {
                for u in 0..rows.ex.uris.len() {
                    let Some(v) = p.tally.count(rows, u, r) else {
                        continue;
                    };
                    let (scheme, host, kind) = match v {
                        Value::Entry { entry, buf, .. } => {
                            let line = &buf[entry.line_start()..];
                            (
                                entry.span(Component::Scheme).map(|s| &line[s]),
                                entry.span(Component::Host).map(|s| &line[s]),
                                entry.host_kind().map(|k| k.as_str()),
                            )
                        }
                        Value::Single(Ok(u), _) => (
                            u.scheme().map(str::as_bytes),
                            u.host_str().map(str::as_bytes),
                            u.host_kind().map(|k| k.as_str()),
                        ),
                        _ => continue,
                    };
                    key.clear();
                    match scheme {
                        Some(s) => key.extend(s.iter().map(u8::to_ascii_lowercase)),
                        None => key.extend_from_slice(b"(relative)"),
                    }
                    bump(&mut p.schemes, key, 1);
                    if let Some(k) = kind {
                        *p.host_kinds.entry(k).or_default() += 1;
                    }
                    if let Some(h) = host {
                        // Hosts are case-insensitive (RFC 3986 3.2.2).
                        key.clear();
                        key.extend(h.iter().map(u8::to_ascii_lowercase));
                        bump(&mut p.hosts, key, 1);
                    }
                }
            }
            p
        },
        |done| -> Result<(), Failure> {
            match done {
                urilex_io::run::Done::Rows(p, _) => {
                    all.tally.add(&p.tally);
                    for (k, n) in p.schemes {
                        bump(&mut all.schemes, &k, n);
                    }
                    for (k, n) in p.host_kinds {
                        *all.host_kinds.entry(k).or_default() += n;
                    }
                    for (k, n) in p.hosts {
                        bump(&mut all.hosts, &k, n);
                    }
                }
                urilex_io::run::Done::Fault(m) => {
                    failed = true;
                    crate::failure::say(&m);
                }
            }
            Ok(())
        },
    )?;
    let sorted = |m: HashMap<Vec<u8>, usize>| {
        let mut v: Vec<(Vec<u8>, usize)> = m.into_iter().collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        v
    };
    let records = !a.inputs.input.is_lines();
    let mut out = BufWriter::new(io::stdout().lock());
    all.tally.write(&mut out, records)?;
    for (s, n) in sorted(all.schemes) {
        writeln!(out, "scheme.{}\t{n}", String::from_utf8_lossy(&s))?;
    }
    let mut hk: Vec<_> = all.host_kinds.into_iter().collect();
    hk.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    for (k, n) in hk {
        writeln!(out, "host_kind.{k}\t{n}")?;
    }
    for (h, n) in sorted(all.hosts).into_iter().take(a.top) {
        writeln!(out, "host.{}\t{n}", String::from_utf8_lossy(&h))?;
    }
    out.flush()?;
    Failure::of(u64::from(failed), 0)
}
