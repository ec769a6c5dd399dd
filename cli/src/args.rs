//! Flags that several subcommands share, each declared once and flattened
//! into the subcommands (`#[command(flatten)]`). Profile and syntax names
//! come from the generated lists, so a new grammar file is a new choice in
//! `--help` and in the completions.

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use std::path::PathBuf;
use urilex::{Profile, Syntax};

/// `--profile`.
#[derive(clap::Args, Clone, Copy)]
pub struct ProfileArg {
    /// Grammar profile (one per abnf/*.abnf file).
    #[arg(long, default_value = "rfc3986", value_parser = profile_parser())]
    pub profile: Profile,
}

/// `--threads`.
#[derive(clap::Args, Clone, Copy)]
pub struct ThreadsArg {
    /// Worker threads (0: all cores).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
}

/// `--format`: the output of the subcommands that write rows.
#[derive(clap::Args, Clone, Copy)]
pub struct FormatArg {
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Jsonl)]
    pub format: Format,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Jsonl,
    Tsv,
}

/// The input files.
#[derive(clap::Args, Clone)]
pub struct InputsArg {
    /// Input files; standard input when none is given or for `-`.
    pub files: Vec<PathBuf>,
}

fn profile_parser() -> impl TypedValueParser<Value = Profile> {
    let values = Profile::ALL
        .iter()
        .map(|p| PossibleValue::new(p.name()).help(p.description()));
    PossibleValuesParser::new(values)
        .map(|s: String| Profile::from_name(&s).expect("a listed profile"))
}

/// `--profile` of `urilex urn`: the URN grammars (those that name parts
/// `nid` and `nss`).
pub fn urn_profile_parser() -> impl TypedValueParser<Value = Profile> {
    let values = Profile::ALL
        .iter()
        .filter(|p| urilex::urn::is_urn_profile(**p))
        .map(|p| PossibleValue::new(p.name()).help(p.description()));
    PossibleValuesParser::new(values)
        .map(|s: String| Profile::from_name(&s).expect("a listed profile"))
}

/// `--syntax`: the entry points the grammars declare (`;@ entry`).
pub fn syntax_parser() -> impl TypedValueParser<Value = Syntax> {
    let values = Syntax::ALL.iter().map(|s| s.as_str());
    PossibleValuesParser::new(values)
        .map(|s: String| Syntax::from_name(&s).expect("a listed syntax"))
}

/// Sizes rayon's global pool, once, for `--threads` (0: rayon's default,
/// every core); the library runs on it and starts no threads of its own.
pub fn use_threads(threads: usize) {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        if threads > 0 {
            let _ = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build_global();
        }
    });
}
