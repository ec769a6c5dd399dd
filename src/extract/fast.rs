//! The fast path: a candidate token classified into bitmaps and checked by
//! the profile's generated validator, before the general path.

#[allow(unused_imports)]
use super::*;

/// The fast path's validator of absolute URIs and the sets a token is
/// classified into: the validator's run sets, then the bytes a reference
/// may hold (whose first outsider ends the token).
#[derive(Clone, Debug)]
pub(super) struct Fast {
    pub(super) valid: crate::engine::FastValid,
    pub(super) sets: crate::scan::RowSets,
    /// Whether every run set lies in the token's set: then a token's end
    /// is a stop of every run, and the validator needs no stops put there.
    pub(super) within: bool,
}

impl Fast {
    /// From the parser's validator and the token's set (see `token_set`).
    pub(super) fn of(parser: &Parser, token: Option<&crate::scan::Nibbles>) -> Option<Fast> {
        let (valid, runs) = parser.plain_valid()?;
        let token = token?;
        if runs.len() >= crate::scan::MAX_CLASSES {
            return None;
        }
        let mut sets = [[0u8; 16]; crate::scan::MAX_CLASSES];
        sets[..runs.len()].copy_from_slice(runs);
        sets[runs.len()].copy_from_slice(&token[..16]);
        let within = runs
            .iter()
            .all(|r| r.iter().zip(token.iter()).all(|(r, t)| r & !t == 0));
        Some(Fast {
            valid,
            sets: crate::scan::RowSets::new(&sets[..=runs.len()]),
            within,
        })
    }
}

/// The profile's reference bytes as nibble tables and ranges, for finding
/// a token's end many bytes at a time.
pub(super) fn token_set(profile: Profile) -> Option<(crate::scan::Nibbles, crate::scan::Ranges)> {
    let n = crate::scan::nibbles_of(profile.tables().bytes)?;
    Some((n, crate::scan::ranges_of(&n)))
}

impl<'a> FindIter<'a> {
    /// The candidate whose scheme is `s..p` by the fast path: its token (the
    /// bytes a reference may hold) classified once, and the URI taken when
    /// the token ends at the closing delimiter (or, bare, once trimmed) and
    /// the bitmap validator accepts it. `None` when that does not settle
    /// it: the general path decides, with the same answer where this one
    /// gives one. The scheme must be followed by `//` or registered.
    #[inline(always)]
    pub(super) fn fast_hit(
        &mut self,
        s: usize,
        p: usize,
        delimiter: Delimiter,
    ) -> Option<(Hit<'a>, usize)> {
        let t = self.text;
        let f = self.fast.as_ref()?;
        let (valid, within) = (f.valid, f.within);
        let token = self.token_bits.classify(t, s, &f.sets)?;
        let e = s + token.len();
        let close = match delimiter {
            Delimiter::Quote => b'"',
            Delimiter::Url | Delimiter::Angle => b'>',
            Delimiter::None => 0,
        };
        let (end, next) = if close == 0 {
            (trim(t, s, e), e)
        } else {
            // A URI of scheme "URL" right after `<` is read as the `URL:`
            // prefix: the general path's case.
            if t.get(e) != Some(&close)
                || (delimiter == Delimiter::Angle
                    && t[s..].len() >= 4
                    && t[s..s + 4].eq_ignore_ascii_case(b"URL:"))
            {
                return None;
            }
            (e, e + 1)
        };
        let cut = end < e || !within;
        if end <= p + 1 || !valid(&self.token_bits.line(t, s, end - s, cut)) {
            return None;
        }
        Some((
            Hit {
                uri: Cow::Borrowed(&token[..end - s]),
                span: s..end,
                delimiter,
                flags: Flags::default(),
            },
            next,
        ))
    }
}
