//! aarch64 kernels, NEON, a file per family (as `scan/` and `x86_64/`
//! have them): `skip` (the DFA skip) and `rows` (the line classifier).
//! Each is reached through its family's dispatch (`scan::cpu`), and each
//! file uses its scalar family, never the other way round.

mod rows;
mod skip;

pub(crate) use rows::*;
pub(crate) use skip::*;
