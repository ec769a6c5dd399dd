//! urilex parses, validates and splits URI references at high throughput,
//! exactly as the standards write them.
//!
//! Its parsers are not written by hand: `build.rs` compiles the ABNF grammars
//! in `abnf/` (RFC 3986 by default, and the grammars of the documents RFC
//! 3986 grew from, as [`Profile`]s) into minimized DFAs and small structure
//! programs, emitted as Rust tables. Changing a rule in a `.abnf` file
//! changes what urilex accepts.
//!
//! ```
//! use urilex::{HostKind, UriRef};
//!
//! let r = UriRef::parse("https://[2001:db8::7]:8443/a%20b?x#frag").unwrap();
//! assert_eq!(r.scheme(), Some("https"));
//! assert_eq!(r.host_kind(), Some(HostKind::Ipv6));
//! assert_eq!(r.port_u16(), Some(8443));
//! assert_eq!(r.path(), "/a%20b");
//!
//! let err = UriRef::parse("https://example.com/a b").unwrap_err();
//! assert_eq!(err.to_string(), "invalid character ' ' (0x20) at byte 21 in path (rule segment)");
//! ```
//!
//! The parts of a reference are whatever its profile's grammar declares
//! (`;@ part` in the `.abnf` file), read by name or by index; RFC 3986's
//! are also the typed [`Component`]s. A part inside a repetition of its
//! grammar has [`occurrences`](UriRef::occurrences).
//!
//! ```
//! # #[cfg(feature = "rfc6874")] {
//! use urilex::{Parser, Profile};
//!
//! let p = Parser::new().profile(Profile::Rfc6874);
//! let r = p.parse("http://[fe80::1%25eth0]:8080/").unwrap();
//! assert_eq!(r.part("zone"), Some("eth0"));
//! assert_eq!(r.part("host"), Some("[fe80::1%25eth0]"));
//! let names: Vec<&str> = Profile::Rfc6874.parts().map(|p| p.name()).collect();
//! assert_eq!(names.last(), Some(&"zone"));
//! let zone = Profile::Rfc6874.part("zone").unwrap();
//! assert_eq!(r.part_at(zone.index()), Some("eth0"));
//! # }
//! ```
#![deny(unsafe_code)]
#![deny(clippy::undocumented_unsafe_blocks)]
#![warn(missing_docs)]

// The README's examples use every profile: they run where all are compiled
// (`cargo test --workspace`, whose CLI enables them).
#[doc = include_str!("../README.md")]
#[cfg(all(doctest, feature = "all-profiles"))]
pub struct ReadmeDoctests;

// docs/library.md's examples, likewise.
#[doc = include_str!("../docs/library.md")]
#[cfg(all(doctest, feature = "all-profiles"))]
pub struct LibraryDoctests;

mod batch;
#[cfg(feature = "psl")]
pub mod domain;
pub mod edit;
mod engine;
pub mod extract;
pub mod hierarchy;
mod lint;
mod normalize;
pub mod pct;
pub mod query;
mod resolve;
#[cfg(feature = "rfc1738")]
pub mod scheme;
pub mod template;
#[cfg(feature = "whatwg")]
pub mod whatwg;
// Internals, public only for the kernel tests and the fuzz target that
// compare the SIMD kernels with their scalar twins (feature `internals`),
// and for the linear-time tests that count steps (feature `step-count`).
#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod scan;
#[cfg(not(feature = "internals"))]
#[allow(dead_code, unused_imports)]
mod scan;
/// Every generated fast path against the exact engine on `input` (see
/// `engine::bits::check_all`); for the `fast_path` fuzz target.
#[cfg(feature = "internals")]
#[doc(hidden)]
pub fn check_fast_paths(input: &[u8]) -> Result<usize, String> {
    engine::bits::check_all(input)
}
#[cfg(feature = "step-count")]
#[doc(hidden)]
pub mod steps;
#[cfg(not(feature = "step-count"))]
#[allow(dead_code)]
mod steps;
mod uri;
#[cfg(feature = "rfc8141")]
pub mod urn;

#[cfg(feature = "rayon")]
pub use batch::validate_lines_parallel;
pub use batch::{
    lines, validate_lines, validate_offsets, Batch, BatchError, Counts, Entry, Offset,
};
pub use engine::{PartInfo, Profile, UnknownProfile};
pub use lint::{Lint, LintKind};
pub use normalize::{default_port, normalize_into, NormalizeOptions};
pub use resolve::{relativize_into, resolve_into, DotAboveRoot, ResolveError, ResolveOptions};
pub use scan::{kernel_family, KERNEL_FAMILIES};
pub use uri::error::{ErrorKind, ParseError};
pub use uri::host::Host;
pub use uri::reference::{
    port_number, Component, HostKind, Occurrences, Parser, Syntax, UriRef, UriRefBuf,
};
