//! `urilex sql`: SQL over logs with the URI functions, run by the
//! `urilex-sql` binary of the SQL crate (`sql/`), which carries DataFusion
//! and Ballista; the CLI stays small and quick to build without them.

use crate::failure::Failure;
use std::path::PathBuf;
use std::process::Command;

#[derive(clap::Args)]
#[command(disable_help_flag = true)]
pub struct Args {
    /// Everything `urilex-sql` takes (`urilex sql --help` shows it): the
    /// query, `--table NAME=PATH[:FORMAT]`, `--format`, `--remote`, ...
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    pub args: Vec<String>,
}

/// Where `urilex-sql` is: beside this binary, else on the PATH.
fn find() -> Option<PathBuf> {
    let name = format!("urilex-sql{}", std::env::consts::EXE_SUFFIX);
    let beside = std::env::current_exe()
        .ok()
        .and_then(|e| e.parent().map(|d| d.join(&name)));
    if let Some(p) = beside.filter(|p| p.is_file()) {
        return Some(p);
    }
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join(&name))
            .find(|p| p.is_file())
    })
}

pub fn run(a: Args) -> Result<(), Failure> {
    let Some(bin) = find() else {
        return Err(Failure::Message(
            "urilex sql runs urilex-sql, which is not installed: build it with \
             `cargo install --path sql` (or `cargo build --release --manifest-path sql/Cargo.toml`, \
             then put sql/target/release/urilex-sql beside urilex or on the PATH)"
                .into(),
        ));
    };
    let status = Command::new(&bin)
        .args(&a.args)
        .status()
        .map_err(|e| Failure::Message(format!("{}: {e}", bin.display())))?;
    // urilex-sql said what went wrong; its exit status is ours (2 for a
    // usage error or a statement that does not parse, as urilex's own).
    match status.code() {
        Some(0) => Ok(()),
        Some(c) => Err(Failure::Status(u8::try_from(c).unwrap_or(2))),
        None => Err(Failure::Status(2)),
    }
}
