//! URNs: RFC 8141 (profile `rfc8141`, the default here) and the 2012 draft
//! it grew from, draft-ietf-urnbis-rfc2141bis-urn-03 (profile `urn-draft-03`), with lexical
//! equivalence as each defines it.
//!
//! A [`Urn`] is a reference parsed under one of those profiles, read
//! through the parts its grammar names (`nid`, `nss`, `r-component`,
//! `q-component`, the fragment; for the draft the query's directives).
//!
//! ```
//! use urilex::urn::{Urn, QueryRule};
//! let u = Urn::parse("URN:Example:a123%2c456?+res?=q#frag").unwrap();
//! assert_eq!((u.nid(), u.nss()), ("Example", "a123%2c456"));
//! assert_eq!((u.r_component(), u.q_component(), u.f_component()), (Some("res"), Some("q"), Some("frag")));
//! assert_eq!(u.normalized(QueryRule::Drop), "urn:example:a123%2C456");
//! assert!(u.equivalent(&Urn::parse("urn:EXAMPLE:a123%2C456").unwrap(), QueryRule::Drop));
//! ```

use crate::pct::push_upper as push_upper_pct;
use crate::{ParseError, Parser, Profile, UriRef, UriRefBuf};
use core::fmt;
use core::str::FromStr;

/// A URN borrowing its text.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Urn<'a>(UriRef<'a>);

/// An owned URN.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct UrnBuf(UriRefBuf);

/// Why a string is not a URN: the parse error (its part, rule and byte),
/// told in the words of the URN documents where they have some.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UrnError {
    /// The grammar's error.
    pub error: ParseError,
    /// Where the NID starts and its text, when the fault is in it.
    nid: Option<(usize, String)>,
}

impl fmt::Display for UrnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.nid {
            Some((at, nid))
                if nid.eq_ignore_ascii_case("urn") && self.error.index() == at + nid.len() =>
            {
                write!(
                f,
                "the NID \"urn\" is reserved (draft-ietf-urnbis-rfc2141bis-urn-03 section 2.1): '{nid}' at byte {} (rule {})",
                self.error.index(),
                self.error.rule()
            )
            }
            // A byte the NID's alphabet lacks, right where the run of its
            // letters, digits and hyphens ends (not the ":" after it).
            Some((at, nid))
                if self.error.index() == at + nid.len()
                    && self.error.byte().is_some_and(|b| b != b':') =>
            {
                let b = self.error.byte().unwrap_or_default();
                write!(
                    f,
                    "an NID holds letters, digits and hyphens only: {:?} (0x{b:02X}) after '{nid}' at byte {} (rule {})",
                    b as char,
                    self.error.index(),
                    self.error.rule()
                )
            }
            Some((_, nid)) => write!(
                f,
                "NID must be 2 to 32 letters, digits or hyphens, not starting or ending with a \
                 hyphen: '{nid}' at byte {} (rule {})",
                self.error.index(),
                self.error.rule()
            ),
            None => fmt::Display::fmt(&self.error, f),
        }
    }
}

impl std::error::Error for UrnError {}

/// What lexical equivalence does with a query (draft-ietf-urnbis-rfc2141bis-urn-03 section 5, step
/// 5). Under RFC 8141 the r- and q-components never count (its section 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum QueryRule {
    /// Step 5a: drop the query (for telling named resources apart).
    #[default]
    Drop,
    /// Step 5b: keep it, its directives in a preferred keyword order (for
    /// caching resolution results). urilex's order: by keyword, octet by
    /// octet, directives of one keyword in their order.
    Reorder,
}

/// The query keywords registered with global scope by draft-ietf-urnbis-rfc2141bis-urn-03 (section
/// 9.2.1): `s` (2.3.1) and `c` (2.3.2).
pub const REGISTERED_KEYWORDS: &[&str] = &["s", "c"];

/// Where the NID of a URN that failed to parse starts and what it holds,
/// read with the profile's grammar: the `scheme` part's automaton over the
/// input's start, the separator after it, then the longest run of the
/// bytes the `nid` part's automaton takes anywhere (its alphabet; an NID
/// that is too long, or starts or ends with a hyphen, is still the whole
/// run). `None` when the
/// input does not begin with a scheme and one more byte.
fn nid_region(profile: Profile, input: &str) -> Option<(usize, &str)> {
    let t = profile.tables();
    let part = |name: &str| profile.part(name).map(|p| p.index());
    let scheme = t.components.get(part("scheme")?)?.as_ref()?;
    let (end, state) = scheme.dfa.run_from(input.as_bytes(), 0);
    // The byte after the scheme is the grammar's separator; were it
    // another, the parse would have failed there, at `end`, which is not
    // in the NID's region (it starts at `end + 1`).
    if !scheme.dfa.accept[state as usize] || end >= input.len() {
        return None;
    }
    // The NID's alphabet: the bytes some live state of its automaton
    // takes (an error path: the few states are read on the spot).
    let nid = &t.components.get(part("nid")?)?.as_ref()?.dfa;
    let takes = |b: u8| (1..nid.accept.len()).any(|s| nid.step(s as u16, b) != crate::engine::DEAD);
    let start = end + 1;
    let len = input.as_bytes()[start..]
        .iter()
        .take_while(|&&b| takes(b))
        .count();
    Some((start, &input[start..start + len]))
}

/// Whether `profile` is a URN grammar (it names parts `nid` and `nss`).
pub fn is_urn_profile(profile: Profile) -> bool {
    profile.part("nid").is_some() && profile.part("nss").is_some()
}

impl<'a> Urn<'a> {
    /// Parses a URN under RFC 8141 (a `namestring`).
    pub fn parse(input: &'a str) -> Result<Urn<'a>, UrnError> {
        Urn::parse_with(Profile::Rfc8141, input)
    }

    /// Parses a URN under a URN profile (`Rfc8141` or `UrnDraft03`).
    ///
    /// ```
    /// use urilex::{urn::Urn, Profile};
    /// let e = Urn::parse("urn:-ab:x").unwrap_err();
    /// assert_eq!(e.to_string(), "NID must be 2 to 32 letters, digits or hyphens, not starting or ending with a hyphen: '-ab' at byte 4 (rule NID)");
    /// assert!(Urn::parse_with(Profile::UrnDraft03, "urn:urn:x").is_err()); // section 2.1
    /// assert!(Urn::parse_with(Profile::UrnDraft03, "urn:a:b/c").is_err()); // 1*pchar
    /// assert!(Urn::parse("urn:a:b/c").is_err()); // 2 to 32
    /// ```
    pub fn parse_with(profile: Profile, input: &'a str) -> Result<Urn<'a>, UrnError> {
        if !is_urn_profile(profile) {
            return Err(UrnError {
                error: crate::uri::diagnose::unsupported("urn"),
                nid: None,
            });
        }
        match Parser::new().profile(profile).parse(input) {
            Ok(u) => Ok(Urn(u)),
            Err(mut error) => {
                // A fault between the scheme's ":" and the NID's is the
                // NID's, though past its 32nd character the grammar is
                // already between the NID and that ":".
                let nid = nid_region(profile, input).and_then(|(start, nid_text)| {
                    let in_nid = (start..=start + nid_text.len()).contains(&error.index())
                        && matches!(error.part(), Some("nid") | Some("path"));
                    // The documents' rule (not a helper such as the
                    // draft's `nid3`).
                    in_nid.then(|| {
                        error.part = Some("nid");
                        error.rule = "NID";
                        (start, nid_text.to_string())
                    })
                });
                Err(UrnError { error, nid })
            }
        }
    }

    /// Views a reference parsed under a URN profile.
    pub fn of(u: UriRef<'a>) -> Option<Urn<'a>> {
        is_urn_profile(u.profile()).then_some(Urn(u))
    }

    /// The reference it is.
    pub fn uri(&self) -> UriRef<'a> {
        self.0
    }
    /// The text.
    pub fn as_str(&self) -> &'a str {
        self.0.as_str()
    }
    /// The profile it was parsed under.
    pub fn profile(&self) -> Profile {
        self.0.profile()
    }
    /// The namespace identifier, as written.
    pub fn nid(&self) -> &'a str {
        self.0.part("nid").unwrap_or_default()
    }
    /// The namespace-specific string, as written.
    pub fn nss(&self) -> &'a str {
        self.0.part("nss").unwrap_or_default()
    }
    /// RFC 8141's r-component (after `?+`).
    pub fn r_component(&self) -> Option<&'a str> {
        self.0.part("r-component")
    }
    /// RFC 8141's q-component (after `?=`); under the draft, the query
    /// (after `?`).
    pub fn q_component(&self) -> Option<&'a str> {
        self.0.part("q-component").or_else(|| self.0.part("query"))
    }
    /// The f-component (the fragment, after `#`).
    pub fn f_component(&self) -> Option<&'a str> {
        self.0.fragment()
    }

    /// The draft's query directives, `(keywd, value)`, in order, as
    /// written (none under RFC 8141).
    pub fn directives(&self) -> impl Iterator<Item = (&'a str, &'a str)> + 'a {
        self.0.occurrences("keywd").zip(self.0.occurrences("value"))
    }

    /// The directives a resolver acts on (draft-ietf-urnbis-rfc2141bis-urn-03 section 2.3): a
    /// registered keyword ([`REGISTERED_KEYWORDS`]) that appears more than
    /// once makes it ignore every directive with that keyword.
    ///
    /// ```
    /// use urilex::{urn::Urn, Profile};
    /// let u = Urn::parse_with(Profile::UrnDraft03, "urn:isbn:0-395?s=I2L&c=ToC&s=I2R&x=1&x=2").unwrap();
    /// let all: Vec<_> = u.directives().collect();
    /// assert_eq!(all.len(), 5);
    /// let kept: Vec<_> = u.effective_directives().collect();
    /// assert_eq!(kept, [("c", "ToC"), ("x", "1"), ("x", "2")]);
    /// ```
    pub fn effective_directives(&self) -> impl Iterator<Item = (&'a str, &'a str)> + 'a {
        let this = *self;
        self.directives().filter(move |(k, _)| {
            !REGISTERED_KEYWORDS.contains(k)
                || this.directives().filter(|(k2, _)| k2 == k).count() == 1
        })
    }

    /// The normalized form: two URNs are lexically equivalent exactly when
    /// their normalized forms are equal. "urn" and the NID in lower case,
    /// percent-encoding in upper case (never decoded), the fragment
    /// dropped (RFC 8141 section 3; draft-ietf-urnbis-rfc2141bis-urn-03 section 5 steps 1 to 4); the
    /// query dropped (RFC 8141; the draft's step 5a) or kept with its
    /// directives in keyword order (the draft's step 5b).
    pub fn normalized(&self, query: QueryRule) -> String {
        let mut out = String::with_capacity(self.as_str().len());
        out.push_str("urn:");
        out.push_str(&self.nid().to_ascii_lowercase());
        out.push(':');
        push_upper_pct(self.nss(), &mut out);
        let draft = self.0.part("query").is_some();
        if query == QueryRule::Reorder && draft {
            let mut ds: Vec<(&str, &str)> = self.directives().collect();
            ds.sort_by(|a, b| a.0.cmp(b.0));
            for (i, (k, v)) in ds.into_iter().enumerate() {
                out.push(if i == 0 { '?' } else { '&' });
                out.push_str(k);
                out.push('=');
                push_upper_pct(v, &mut out);
            }
        }
        out
    }

    /// Lexical equivalence (see [`normalized`](Self::normalized)).
    pub fn equivalent(&self, other: &Urn<'_>, query: QueryRule) -> bool {
        self.normalized(query) == other.normalized(query)
    }

    /// An owned copy.
    pub fn to_owned(&self) -> UrnBuf {
        UrnBuf(self.0.to_owned())
    }
}

impl fmt::Display for Urn<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Urn<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Urn")
            .field("nid", &self.nid())
            .field("nss", &self.nss())
            .field("r", &self.r_component())
            .field("q", &self.q_component())
            .field("f", &self.f_component())
            .finish()
    }
}

impl UrnBuf {
    /// Parses and copies a URN under RFC 8141.
    pub fn parse(input: &str) -> Result<UrnBuf, UrnError> {
        Urn::parse(input).map(|u| u.to_owned())
    }
    /// Parses and copies a URN under a URN profile.
    pub fn parse_with(profile: Profile, input: &str) -> Result<UrnBuf, UrnError> {
        Urn::parse_with(profile, input).map(|u| u.to_owned())
    }
    /// Borrows it as a [`Urn`].
    #[allow(clippy::should_implement_trait)]
    pub fn as_ref(&self) -> Urn<'_> {
        Urn(self.0.as_ref())
    }
    /// The text.
    pub fn as_str(&self) -> &str {
        self.0.as_str()
    }
}

impl FromStr for UrnBuf {
    type Err = UrnError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        UrnBuf::parse(s)
    }
}

impl fmt::Display for UrnBuf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for UrnBuf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.as_ref(), f)
    }
}

#[cfg(feature = "serde")]
mod serde_impl {
    use super::{Urn, UrnBuf};
    use serde::{de, Deserialize, Deserializer, Serialize, Serializer};

    impl Serialize for Urn<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_str(self.as_str())
        }
    }
    impl Serialize for UrnBuf {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_str(self.as_str())
        }
    }
    impl<'de: 'a, 'a> Deserialize<'de> for Urn<'a> {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            let s: &'de str = <&str>::deserialize(d)?;
            Urn::parse(s).map_err(de::Error::custom)
        }
    }
    impl<'de> Deserialize<'de> for UrnBuf {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            let s = String::deserialize(d)?;
            UrnBuf::parse(&s).map_err(de::Error::custom)
        }
    }
}
