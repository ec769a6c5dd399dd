//! The parsing engine: the tables generated from the grammars (`tables`),
//! and the runners over them (`run`): DFAs with run skipping, structure
//! programs, tagged DFAs (every span in one pass), and region programs
//! (the occurrences of repeated parts). It knows nothing of references,
//! errors or batches: it answers spans, or where and in which state a DFA
//! stopped.

pub(crate) mod bits;
pub(crate) mod line;
pub(crate) mod run;
pub(crate) mod tables;

pub(crate) use bits::LineSink;
pub(crate) use line::Sink;
pub(crate) use run::*;
pub(crate) use tables::*;
// The public types the tables define (the crate root re-exports them).
pub use tables::{Component, HostKind, PartInfo, Profile, Syntax, UnknownProfile};
