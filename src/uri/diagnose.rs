//! Errors from the tables: when the engine rejects an input, the labelled
//! DFA of the entry runs to the first byte no valid input can have there,
//! and its state's label names the part, the rule and the kind of fault.

use super::error::{ErrorKind, ParseError};
use crate::engine::{Entry, ProfileTables, DEAD, HINT_IP_LITERAL, HINT_PERCENT, START};

/// The exact error for an input that `entry` rejects: the labelled DFA runs
/// to the first byte that no valid input can have there.
pub(crate) fn diagnose(
    t: &ProfileTables,
    entry: &Entry,
    entry_rule: &'static str,
    input: &[u8],
) -> ParseError {
    let (index, state) = match entry.dfa.scan(input) {
        Err(e) => e,
        // The DFA accepts what the program rejected: impossible when the
        // generator's longest-match proof holds. Report it rather than panic.
        Ok(()) => (input.len(), DEAD),
    };
    diagnose_at(t, entry, entry_rule, input, index, state)
}

/// The error for a DFA run that failed at `index` in `state` (the result
/// of `Dfa::scan`, so callers that already scanned do not scan again).
pub(crate) fn diagnose_at(
    t: &ProfileTables,
    entry: &Entry,
    entry_rule: &'static str,
    input: &[u8],
    index: usize,
    state: u16,
) -> ParseError {
    let label = entry.dfa.labels.get(state as usize).copied();
    let byte = input.get(index).copied();
    let hint = label.map_or(0, |l| l.hint);
    let kind = match (hint, byte) {
        (HINT_PERCENT, _) => ErrorKind::InvalidPercentEncoding,
        (HINT_IP_LITERAL, _) => ErrorKind::InvalidIpLiteral,
        (_, None) => ErrorKind::UnexpectedEnd,
        (_, Some(_)) => ErrorKind::InvalidCharacter,
    };
    let part = label
        .and_then(|l| t.parts.get(l.component as usize))
        .map(|p| p.name)
        .filter(|n| !n.is_empty());
    let rule = label
        .and_then(|l| t.rules.get(l.rule as usize).copied())
        .unwrap_or(entry_rule);
    ParseError {
        kind,
        part,
        index: index as u32,
        byte,
        rule,
    }
}

/// An error the labelled DFA placed in the authority, when the input cannot
/// hold a userinfo: until the first "@" a DFA cannot tell a userinfo (RFC
/// 1738: a user and password) from host and port, so it may blame the
/// userinfo, yet with no "@" before the authority's end there is none. The input is then read as if an empty userinfo and
/// its "@" stood at the authority's start (the same language: `[ userinfo
/// "@" ]`), which puts the fault in the host or the port, at the first byte
/// no valid reading accepts. `None` when that does not apply: among others
/// when the DFA failed (`err`) past the byte that ends the authority. It took
/// that byte, so it read the authority as host and port (no userinfo state
/// takes a "/", "?" or "#"), and from there on the reading without a
/// userinfo is in the same state: it fails at the same byte. (The rerun,
/// over the whole input, took most of the time `validate_lines` spends on
/// invalid lines; debug builds still make it and check that it agrees.)
#[cold]
pub(crate) fn diagnose_without_userinfo(
    t: &ProfileTables,
    entry: &Entry,
    input: &[u8],
    err: &ParseError,
) -> Option<ParseError> {
    let rerun = without_userinfo(t, entry, input, err.index as usize);
    #[cfg(debug_assertions)]
    if rerun.is_none() {
        if let Some(e) = without_userinfo(t, entry, input, usize::MAX) {
            assert_eq!(&e, err, "{:?}", String::from_utf8_lossy(input));
        }
    }
    rerun
}

fn without_userinfo(
    t: &ProfileTables,
    entry: &Entry,
    input: &[u8],
    failed: usize,
) -> Option<ParseError> {
    // The authority starts after "//", after a scheme and its ":" if any
    // (the scheme's bytes as the profile's tables give them).
    let scheme_end = input
        .iter()
        .position(|&b| !t.scheme_byte(b))
        .filter(|&i| i > 0 && input[i] == b':' && t.scheme_start(input[0]))
        .map_or(0, |i| i + 1);
    let at = scheme_end + 2;
    if input.get(scheme_end..at) != Some(&b"//"[..]) {
        return None;
    }
    let end = input[at..]
        .iter()
        .position(|&b| b"/?#".contains(&b))
        .map_or(input.len(), |i| at + i);
    if failed > end || input[at..end].contains(&b'@') {
        return None;
    }
    // Run the DFA over input[..at] "@" input[at..].
    let d = &entry.dfa;
    let mut s = START;
    let n = input.len() + 1;
    let mut v = 0;
    let failed = loop {
        if v == n {
            break (!d.accept[s as usize]).then_some((n, s));
        }
        let b = match v.cmp(&at) {
            core::cmp::Ordering::Less => input[v],
            core::cmp::Ordering::Equal => b'@',
            core::cmp::Ordering::Greater => input[v - 1],
        };
        let next = d.step(s, b);
        if next == DEAD {
            break Some((v, s));
        }
        s = next;
        v += 1;
    };
    match failed {
        Some((v, s)) if v > at => Some(diagnose_at(t, entry, entry.rule, input, v - 1, s)),
        _ => None,
    }
}

pub(crate) fn too_long() -> ParseError {
    ParseError {
        kind: ErrorKind::TooLong,
        part: None,
        index: u32::MAX,
        byte: None,
        rule: "",
    }
}

pub(crate) fn unsupported(rule: &'static str) -> ParseError {
    ParseError {
        kind: ErrorKind::Unsupported,
        part: None,
        index: 0,
        byte: None,
        rule,
    }
}
