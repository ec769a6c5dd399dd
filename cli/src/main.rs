//! `urilex`: URI references in logs, from the command line.
//!
//! One output row per input record, in order, none dropped: by default a
//! record is a line (it ends at LF, a CR right before the LF is dropped),
//! and a reference that is not UTF-8 is an invalid row with the offset of
//! its first bad byte; `--input` reads access logs, JSON Lines, TSV and
//! CSV (urilex-io). This file only wires the subcommands (`cmd/`)
//! together.

mod args;
mod cmd;
mod failure;
mod input;
mod interrupt;
mod memory;
mod semantics;
mod sink;

use clap::{CommandFactory, Parser as ClapParser, Subcommand};
use failure::Failure;
use std::io::Write;
use std::process::ExitCode;

#[derive(ClapParser)]
#[command(
    name = "urilex",
    version,
    about = "Parse and validate URI references (RFC 3986 and the grammars it grew from)",
    after_help = "Every subcommand reads the files given, or standard input (streamed; gzip and \
                  zstd read as they are): one reference per line, or with --input the \
                  references in access logs, JSON Lines, TSV or CSV. `urilex SUBCOMMAND --help` \
                  shows examples."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// One row per record with every part of its reference: JSON Lines, TSV,
    /// CSV, Arrow or Parquet (docs/schema.md).
    Parse(cmd::parse::Args),
    /// Resolve references (one per line) against a base, or `base<TAB>reference` pairs.
    Resolve(cmd::resolve::Args),
    /// Count valid and invalid lines; exit 0 when all are valid, 1 when some are not.
    Validate(cmd::validate::Args),
    /// Counts by scheme and host kind, the top hosts, and invalid lines by kind.
    Stats(cmd::stats::Args),
    /// Security lints, one JSON line per input line: the input and each lint
    /// with its kind and byte span.
    Lint(cmd::lint::Args),
    /// Normalize one reference per line (RFC 3986 6.2.2; 6.2.3 with --scheme-based).
    Normalize(cmd::normalize::Args),
    /// Find the URIs in free text (mail, logs, documents), one row per hit.
    Extract(cmd::extract::Args),
    /// URNs (RFC 8141, or draft-ietf-urnbis-rfc2141bis-urn-03) split into NID, NSS and
    /// components; with --equiv, pairs compared for lexical equivalence.
    Urn(cmd::urn::Args),
    /// One line per record written with a template: trurl's `--get`
    /// language (`{host}`, `{query:id}`, `{host:registrable}`, ...), or
    /// unfurl's `%` directives with --percent.
    Get(cmd::get::Args),
    /// The key=value pairs of each query, one row per pair (line, key,
    /// value, decoded key, decoded value).
    Params(cmd::params::Args),
    /// The keys of each query, one per line (--count: how often each).
    Keys(cmd::params::Args),
    /// The values of each query, one per line.
    Values(cmd::params::Args),
    /// Change each reference as trurl's --set, --append, --qtrim, --replace,
    /// --sort-query and --redirect do; every result a valid reference.
    Edit(cmd::edit::Args),
    /// Each reference's levels, cut after each run of / ? # (ClickHouse's
    /// URLHierarchy; --path-only: URLPathHierarchy).
    Hierarchy(cmd::hierarchy::Args),
    /// SQL over logs with the URI functions (uri_host, uri_valid,
    /// uri_registrable_domain, ...), on this machine or a Ballista cluster:
    /// runs `urilex-sql` from the SQL crate (`cargo install --path sql`).
    Sql(cmd::sql::Args),
    /// Print a shell completion script (install: `urilex completions bash >
    /// ~/.local/share/bash-completion/completions/urilex`).
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page, in roff (install: `urilex man > ~/.local/share/man/man1/urilex.1`).
    Man,
}

fn main() -> ExitCode {
    memory::keep_freed_memory();
    // The kernels this run uses (URILEX_KERNEL may choose a lower family,
    // for measurement): a family the CPU lacks is refused here, before
    // any work.
    let kernels = match urilex::kernel_family() {
        Ok(k) => k,
        Err(e) => {
            crate::failure::say(&e);
            return ExitCode::from(2);
        }
    };
    let version: &'static str =
        Box::leak(format!("{}\nkernels: {kernels}", env!("CARGO_PKG_VERSION")).into_boxed_str());
    let matches = Cli::command().version(version).get_matches();
    let cli = match <Cli as clap::FromArgMatches>::from_arg_matches(&matches) {
        Ok(c) => c,
        Err(e) => e.exit(),
    };
    let result = match cli.command {
        Command::Parse(a) => cmd::parse::run(a),
        Command::Resolve(a) => cmd::resolve::run(a),
        Command::Validate(a) => cmd::validate::run(a),
        Command::Stats(a) => cmd::stats::run(a),
        Command::Lint(a) => cmd::lint::run(a),
        Command::Normalize(a) => cmd::normalize::run(a),
        Command::Extract(a) => cmd::extract::run(a),
        Command::Urn(a) => cmd::urn::run(a),
        Command::Get(a) => cmd::get::run(a),
        Command::Edit(a) => cmd::edit::run(a),
        Command::Hierarchy(a) => cmd::hierarchy::run(a),
        Command::Sql(a) => cmd::sql::run(a),
        Command::Params(a) => cmd::params::run(a, cmd::params::What::Params),
        Command::Keys(a) => cmd::params::run(a, cmd::params::What::Keys),
        Command::Values(a) => cmd::params::run(a, cmd::params::What::Values),
        Command::Completions { shell } => {
            let mut out = std::io::stdout().lock();
            clap_complete::generate(shell, &mut Cli::command(), "urilex", &mut out);
            out.flush().map_err(Failure::from)
        }
        Command::Man => {
            let mut out = std::io::stdout().lock();
            clap_mangen::Man::new(Cli::command())
                .render(&mut out)
                .map_err(Failure::from)
                .and_then(|()| out.flush().map_err(Failure::from))
        }
    };
    Failure::exit(result)
}
