//! `urilex stats`: counts by scheme and host kind, the most frequent hosts,
//! and invalid lines by kind.

use super::validate::write_counts;
use crate::args::{use_threads, InputsArg, ProfileArg, ThreadsArg};
use crate::failure::Failure;
use crate::input::for_each_chunk;
use std::io::{self, BufWriter, Write};
use urilex::Parser;

#[derive(clap::Args)]
#[command(after_help = "Examples:
  urilex stats access.log              schemes, host kinds, top 10 hosts
  urilex stats --top 50 *.log          the 50 most frequent hosts")]
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

pub fn run(a: Args) -> Result<(), Failure> {
    use_threads(a.threads.threads);
    let parser = Parser::new().profile(a.profile.profile);
    use std::collections::HashMap;
    let mut counts = urilex::Counts::default();
    let mut schemes: HashMap<Vec<u8>, usize> = HashMap::new();
    let mut host_kinds: HashMap<&'static str, usize> = HashMap::new();
    let mut hosts: HashMap<Vec<u8>, usize> = HashMap::new();
    let mut key: Vec<u8> = Vec::new();
    let mut batch = urilex::Batch::new();
    let read = for_each_chunk(&a.inputs.files, super::BATCH_CHUNK, false, |c| {
        let chunk = c.bytes;
        batch.parse_lines_parallel(&parser, chunk, a.threads.threads);
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
    });
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
    for (h, n) in sorted(hosts).into_iter().take(a.top) {
        writeln!(out, "host.{}\t{n}", String::from_utf8_lossy(&h))?;
    }
    out.flush()?;
    read
}
