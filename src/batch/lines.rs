//! How urilex reads a buffer as lines (the batch engine and the CLI alike).

/// The lines of `buf` with their offsets, as every urilex batch and the
/// CLI read them: lines end at LF, a CR just before the LF is not part of
/// the line (any other CR is), the last line needs no LF, and an empty
/// buffer has none.
///
/// ```
/// let v: Vec<(usize, &[u8])> = urilex::lines(b"a\r\nb\n\nc\rd\n").collect();
/// assert_eq!(v, [(0, &b"a"[..]), (3, b"b"), (5, b""), (6, b"c\rd")]);
/// assert_eq!(urilex::lines(b"").count(), 0);
/// assert_eq!(urilex::lines(b"\n").count(), 1);
/// assert_eq!(urilex::lines(b"x").count(), 1);
/// ```
pub fn lines(buf: &[u8]) -> impl Iterator<Item = (usize, &[u8])> {
    let body = buf.strip_suffix(b"\n").unwrap_or(buf);
    let empty = buf.is_empty();
    let mut start = 0;
    memchr::memchr_iter(b'\n', body)
        .chain(core::iter::once(body.len()))
        .filter(move |_| !empty)
        .map(move |end| {
            let line = &body[start..end];
            let at = start;
            start = end + 1;
            (at, line.strip_suffix(b"\r").unwrap_or(line))
        })
}
