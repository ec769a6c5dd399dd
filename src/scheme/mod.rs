//! Typed views of URLs by scheme: what a scheme's own document says its
//! parts mean, over a reference the grammar has already split.
//!
//! [`rfc1738`]: the ten schemes of RFC 1738, parsed under
//! [`Profile::Rfc1738`](crate::Profile::Rfc1738).

pub mod rfc1738;
