//! RFC 3986 5.2.4 remove_dot_segments: the rules A to E, in place (for
//! normalization) and over the two slices of a merge
//! (for resolution), in every mode of a `..` above the root.

#[allow(unused_imports)]
use super::*;

/// Whether a segment of the path `s` starts with ".": where 5.2.4 (and
/// 6.2.2.3) may have work; without one, the path is its own result.
#[inline(always)]
pub(crate) fn has_dot_segment(s: &str) -> bool {
    s.starts_with('.') || crate::scan::find_dot_segment(s.as_bytes()).is_some()
}

/// RFC 3986 5.2.4 on `out[start..]`, in place: the rules A to E in turn,
/// for normalization (6.2.2.3, on the path it has just written) and for
/// the merges that the segment stack (`push_segments`) leaves. `dots`
/// only changes what a ".." with nothing to pop does (`pop_in_place`).
/// The output never gets ahead of the input (each rule drops input, moves a
/// segment down, or writes no more than the ".." it consumed), so it is
/// written over the input it has consumed: `w <= r` throughout. Every cut
/// is at a "/" or a ".", so the text stays UTF-8.
pub(crate) fn remove_dot_segments_in_place(
    out: &mut String,
    start: usize,
    dots: DotAboveRoot,
) -> Result<(), ResolveError> {
    crate::steps::add(out.len() - start + 1);
    let mut v = std::mem::take(out).into_bytes();
    let n = v.len();
    let (mut r, mut w) = (start, start);
    // Where kept ".." segments end: nothing below is popped.
    let mut floor = start;
    let result = loop {
        if r >= n {
            break Ok(());
        }
        let step = match &v[r..n] {
            // A: "../" at the start of a relative path.
            [b'.', b'.', b'/', ..] => {
                r += 3;
                if dots == DotAboveRoot::Remove {
                    Ok(())
                } else {
                    pop_in_place(&mut v, &mut w, &mut floor, dots, false).map(|()| {
                        if dots == DotAboveRoot::Keep && w == floor {
                            v[w] = b'/';
                            w += 1;
                            floor = w;
                        }
                    })
                }
            }
            // A: "./" at the start; B: "/./" becomes "/" (the input goes
            // on at its second "/").
            [b'.', b'/', ..] | [b'/', b'.', b'/', ..] => {
                r += 2;
                Ok(())
            }
            // C: "/../" becomes "/", and the last output segment goes.
            [b'/', b'.', b'.', b'/', ..] => {
                r += 3;
                pop_in_place(&mut v, &mut w, &mut floor, dots, true)
            }
            // B: "/." at the end becomes "/"; D: a lone "." goes.
            [b'/', b'.'] | [b'.'] => {
                if v[r] == b'/' {
                    v[w] = b'/';
                    w += 1;
                }
                break Ok(());
            }
            // C: "/.." at the end becomes "/" and pops; D: a lone "..".
            [b'/', b'.', b'.'] | [b'.', b'.'] => {
                let lead = v[r] == b'/';
                let popped = if lead || dots != DotAboveRoot::Remove {
                    pop_in_place(&mut v, &mut w, &mut floor, dots, lead)
                } else {
                    Ok(())
                };
                if lead && popped.is_ok() {
                    // At most "/.." was written for the three bytes read.
                    v.truncate(w);
                    v.push(b'/');
                    w += 1;
                }
                break popped;
            }
            // E, up to the next segment that starts with ".".
            rest => {
                let len = 1 + crate::scan::find_dot_segment(&rest[1..]).unwrap_or(rest.len() - 1);
                v.copy_within(r..r + len, w);
                (r, w) = (r + len, w + len);
                Ok(())
            }
        };
        if step.is_err() {
            break step;
        }
    };
    v.truncate(w);
    *out = String::from_utf8(v).unwrap_or_else(|e| {
        // Not reached: only whole ASCII-delimited segments were moved.
        String::from_utf8_lossy(e.as_bytes()).into_owned()
    });
    result
}

/// Pops the last segment of the output `v[..w]` (not below `floor`, where
/// kept ".." segments end), or deals with a ".." that climbs above the
/// root: dropped, an error, or kept (written over the ".." just read).
pub(super) fn pop_in_place(
    v: &mut [u8],
    w: &mut usize,
    floor: &mut usize,
    dots: DotAboveRoot,
    rooted: bool,
) -> Result<(), ResolveError> {
    if *w > *floor {
        let cut = v[*floor..*w].iter().rposition(|&c| c == b'/').unwrap_or(0);
        *w = *floor + cut;
        return Ok(());
    }
    match dots {
        DotAboveRoot::Remove => Ok(()),
        DotAboveRoot::Error => Err(ResolveError::AboveRoot),
        DotAboveRoot::Keep => {
            let kept: &[u8] = if rooted { b"/.." } else { b".." };
            v[*w..*w + kept.len()].copy_from_slice(kept);
            *w += kept.len();
            *floor = *w;
            Ok(())
        }
    }
}

/// RFC 3986 5.2.4 on `dir` + `path`, appending to `out`: a merged path is
/// the base's directory (empty or ending in "/") followed by the reference's
/// path, so merging needs no buffer.
///
/// The input buffer of 5.2.4 is `rest`, preceded by a "/" when `lead` is
/// set (and followed by `next`, the part not reached yet). Rule E moves not
/// one segment but every segment up to the next one that starts with ".",
/// found eight bytes at a time; rules A to D look at most four bytes ahead,
/// never past the end of `dir`, which ends with "/". `dots` only changes
/// what a ".." with nothing to pop does. Every cut is at a "/" or a ".",
/// so even a non-ASCII input is sliced at char boundaries.
///
/// Inlined for its common case, where no segment starts with "." and rule
/// E moves everything as it is; the rest is `dot_segments`. Resolution
/// calls `dot_segments` itself; this is the tests' way in.
#[cfg(test)]
#[inline(always)]
pub(super) fn remove_dot_segments_parts(
    dir: &str,
    path: &str,
    out: &mut String,
    dots: DotAboveRoot,
) -> Result<(), ResolveError> {
    debug_assert!(dir.is_empty() || dir.ends_with('/'));
    crate::steps::add(dir.len() + path.len() + 1);
    let dir_plain = !has_dot_segment(dir);
    if dir_plain && !has_dot_segment(path) {
        out.push_str(dir);
        out.push_str(path);
        return Ok(());
    }
    dot_segments(dir, dir_plain, path, out, dots)
}

/// `remove_dot_segments_parts` where some segment starts with "."
/// (`dir_plain`: not one of the directory's). Inlined for its rooted case;
/// the rules one by one are `remove_dot_segments_in_place`.
#[inline(always)]
pub(super) fn dot_segments(
    dir: &str,
    dir_plain: bool,
    path: &str,
    out: &mut String,
    dots: DotAboveRoot,
) -> Result<(), ResolveError> {
    // A rooted input whose directory has no dot segment (every merge with
    // a rooted directory, every absolute path): a segment stack on the
    // output, the directory's segments written first.
    let floor = out.len();
    let rooted = if dir.is_empty() {
        path.strip_prefix('/')
    } else if dir_plain && dir.starts_with('/') {
        out.push_str(&dir[..dir.len() - 1]);
        Some(path)
    } else {
        None
    };
    if let Some(segments) = rooted {
        if !push_segments(out, floor, segments) || dots == DotAboveRoot::Remove {
            return Ok(());
        }
        // A ".." above the root to keep or refuse: the rules one by one.
        out.truncate(floor);
    }
    out.push_str(dir);
    out.push_str(path);
    remove_dot_segments_in_place(out, floor, dots)
}
