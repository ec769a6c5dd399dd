//! Logs in, rows out: the readers and writers of the `urilex` command, for
//! every program that wants its inputs and its schema (the SQL functions'
//! table provider, the Python package).
//!
//! - [`source`]: files (memory-mapped) and standard input, gzip and zstd
//!   recognised by their magic bytes, cut into chunks at record ends;
//! - [`format`](mod@format): where the reference is in each record (one per line,
//!   Apache/nginx `common` and `combined` logs, a JSON Lines field, a TSV or
//!   CSV column);
//! - [`rows`]: the batch engine over a chunk's values, and each row's
//!   reference read back from its record;
//! - [`model`]: the one row model of every command's output (cells in
//!   typed columns, `docs/schema.md`); [`schema`]: parse rows' columns and
//!   cells; [`table`]: every other command's rows;
//! - [`text`] and [`columnar`]: the encoders, one per format (JSON Lines,
//!   TSV, CSV; Arrow IPC and Parquet), and [`pages`]: Parquet's string
//!   columns encoded from their Arrow arrays;
//! - [`pipeline`]: chunks across threads, outputs in input order;
//! - [`compress`]: text rows compressed on the workers, a frame per chunk;
//! - [`parts`]: part files (`-o DIR/`), written by the workers;
//! - [`tally`]: `--unique` and `--count`, per worker, merged at the end;
//! - [`verdicts`]: `validate`'s counts (`Pipeline::validate`);
//! - [`ops`]: operations on references (`get`, `params`, ...) over the
//!   pipeline, their items as text, rows, distinct values or counts;
//!
//! Every record gives exactly one row, in order; a record that does not
//! fit its format is a row with an error, never dropped.
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod columnar;
pub mod compress;
pub mod delimited;
mod fast;
pub mod format;
mod handoff;
pub mod json;
pub mod logline;
pub mod model;
pub mod ops;
pub mod pages;
pub mod parts;
pub mod pipeline;
pub mod rows;
pub mod run;
pub mod schema;
pub mod source;
pub mod table;
pub mod tally;
pub mod text;
pub mod verdicts;
