//! What the log pipeline's fuzz targets share: inputs written to a file of
//! this process's own, and the pipeline run of io's tests
//! (`io/tests/support/run.rs`) into any output format.
#![allow(dead_code)]

#[path = "../../../io/tests/support/run.rs"]
mod run;

pub use run::{input, rows_of, Run};
use std::path::PathBuf;

/// `bytes` written to this process's file `name` (one per name, rewritten
/// each run).
pub fn file(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("urilex-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

/// The JSON Lines rows and the faults of a run.
pub fn rows(run: &Run, files: &[PathBuf]) -> (Vec<serde_json::Value>, Vec<String>) {
    let (out, _, faults) = run.out(files, urilex_io::run::OutputFormat::Jsonl);
    (rows_of(&out), faults)
}
