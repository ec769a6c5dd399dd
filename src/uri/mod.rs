//! URI references: the parser (`Parser`), the borrowed `UriRef` and owned
//! `UriRefBuf` with their parts (`reference`), typed hosts (`host`), and
//! parse errors (`error`, and `diagnose`, which reads them off the tables).

pub(crate) mod diagnose;
pub(crate) mod error;
pub(crate) mod host;
pub(crate) mod reference;
