//! Encoding for a component, each component's allowed characters taken
//! from the generated tables.

use super::{pct_at, push_pct};
use crate::engine::in_set;
use crate::{Component, Profile};
use std::borrow::Cow;
use std::fmt;

/// Encodes `input` for `component` of an RFC 3986 reference: bytes the
/// component's grammar allows stay, a valid `%XX` stays (no double
/// encoding), everything else becomes `%XX` with upper-case hex. A
/// component whose grammar has no percent-encoding (the scheme, the port)
/// can hold only what its grammar takes as it is: anything else is an
/// [`EncodeError`] at the first byte no valid reading accepts, never text
/// that would be invalid there.
///
/// ```
/// use urilex::{pct, Component};
/// assert_eq!(pct::encode(Component::Query, "a b&c=d/é").unwrap(), "a%20b&c=d/%C3%A9");
/// assert_eq!(pct::encode(Component::Path, "/already%20done").unwrap(), "/already%20done");
/// assert_eq!(pct::encode(Component::Userinfo, "me@host").unwrap(), "me%40host");
/// assert!(matches!(pct::encode(Component::Path, "/plain").unwrap(), std::borrow::Cow::Borrowed(_)));
/// assert_eq!(pct::encode(Component::Port, "8080").unwrap(), "8080");
/// let e = pct::encode(Component::Port, "8a").unwrap_err();
/// assert_eq!((e.index, e.byte), (1, Some(b'a')));
/// assert_eq!(e.to_string(), "port cannot hold 'a' (0x61) at byte 1: its grammar has no percent-encoding");
/// ```
pub fn encode(component: Component, input: &str) -> Result<Cow<'_, str>, EncodeError> {
    encode_with(Profile::default(), component, input)
}

/// [`encode`] under the grammar of `profile`.
pub fn encode_with(
    profile: Profile,
    component: Component,
    input: &str,
) -> Result<Cow<'_, str>, EncodeError> {
    let t = profile.tables();
    let allowed = &t.literal[component as usize];
    let b = input.as_bytes();
    let keep = |i: usize| in_set(allowed, b[i]) || pct_at(b, i).is_some();
    let first = (0..b.len()).find(|&i| !keep(i));
    // Whether the component's grammar takes a "%" anywhere: if not, nothing
    // can be encoded in it.
    let takes_pct = t
        .components
        .get(component as usize)
        .and_then(Option::as_ref)
        .is_some_and(|e| {
            (1..e.dfa.accept.len()).any(|s| e.dfa.step(s as u16, b'%') != crate::engine::DEAD)
        });
    if !takes_pct {
        // Nothing can be encoded: the input must already be the component.
        return match crate::Parser::new()
            .profile(profile)
            .validate_component(component, b)
        {
            Ok(()) => Ok(Cow::Borrowed(input)),
            Err(e) => Err(EncodeError {
                component,
                index: e.index(),
                byte: e.byte(),
            }),
        };
    }
    let Some(first) = first else {
        return Ok(Cow::Borrowed(input));
    };
    let mut out = String::with_capacity(b.len() + 16);
    out.push_str(&input[..first]);
    let mut i = first;
    while i < b.len() {
        if pct_at(b, i).is_some() {
            out.push_str(&input[i..i + 3]);
            i += 3;
        } else if in_set(allowed, b[i]) {
            out.push(b[i] as char);
            i += 1;
        } else {
            push_pct(&mut out, b[i]);
            i += 1;
        }
    }
    Ok(Cow::Owned(out))
}

/// An encoding failure: `component` has no percent-encoding in its grammar
/// and `input[index]` is a byte it does not allow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EncodeError {
    /// The component encoded for.
    pub component: Component,
    /// Byte offset of the first byte it cannot hold there (the length
    /// when the input ends too soon, as an empty scheme does).
    pub index: usize,
    /// That byte, or `None` at the end.
    pub byte: Option<u8>,
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.byte {
            Some(b) if b.is_ascii_graphic() || b == b' ' => write!(
                f,
                "{} cannot hold {:?} (0x{b:02X})",
                self.component, b as char
            )?,
            Some(b) => write!(f, "{} cannot hold byte 0x{b:02X}", self.component)?,
            None => write!(f, "{} cannot end", self.component)?,
        }
        write!(
            f,
            " at byte {}: its grammar has no percent-encoding",
            self.index
        )
    }
}

impl std::error::Error for EncodeError {}
