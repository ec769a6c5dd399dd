//! The batch engine against single parsing, its allocation behaviour, and
//! its parallel path.

#[path = "support/counting.rs"]
mod counting;
#[path = "support/gen.rs"]
mod gen;

use counting::allocs;
use urilex::{Batch, Component, Parser, Profile, UriRef};

fn lines_of(buf: &[u8]) -> Vec<&[u8]> {
    if buf.is_empty() {
        return Vec::new();
    }
    let body = buf.strip_suffix(b"\n").unwrap_or(buf);
    body.split(|&b| b == b'\n')
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
        .collect()
}

fn check_same(parser: &Parser, batch: &Batch, lines: &[&[u8]]) {
    assert_eq!(batch.len(), lines.len());
    // A part of every reference at once: the spans one at a time, placed
    // in the buffer.
    for c in Component::ALL {
        let mut all = Vec::new();
        batch.for_each_span(c, |s| all.push(s));
        let want: Vec<_> = (0..batch.len())
            .map(|i| {
                Some((
                    batch.line_start(i) + batch.span(i, c)?.start,
                    batch.span(i, c)?.len(),
                ))
            })
            .collect();
        assert_eq!(all, want, "{c:?} of every reference");
    }
    for (i, line) in lines.iter().enumerate() {
        match parser.parse_bytes(line) {
            Ok(u) => {
                assert!(batch.is_valid(i), "{:?}", String::from_utf8_lossy(line));
                for c in Component::ALL {
                    assert_eq!(batch.span(i, c), u.span(c), "{c:?} of {:?}", u.as_str());
                }
                assert_eq!(batch.host_kind(i), u.host_kind());
            }
            Err(e) => {
                assert_eq!(
                    batch.parse_error(i),
                    Some(e),
                    "{:?}",
                    String::from_utf8_lossy(line)
                );
                let be = batch.error(i).unwrap();
                assert_eq!(
                    (be.kind, be.component, be.index),
                    (e.kind(), e.component(), e.index())
                );
            }
        }
    }
}

/// What `validate_lines` must count: each line parsed alone.
fn counts_by_parsing(parser: &Parser, lines: &[&[u8]]) -> urilex::Counts {
    let mut c = urilex::Counts::default();
    for l in lines {
        c.total += 1;
        match parser.parse_bytes(l) {
            Ok(_) => c.valid += 1,
            Err(e) => c.invalid[e.kind() as usize] += 1,
        }
    }
    c
}

#[test]
fn batch_equals_single_on_the_corpora() {
    let parser = Parser::new();
    let mut batch = Batch::new();
    for buf in [
        &include_bytes!("../benches/data/kasztp.txt")[..],
        include_bytes!("../benches/data/node_files.txt"),
    ] {
        batch.parse_lines(&parser, buf);
        let lines = lines_of(buf);
        check_same(&parser, &batch, &lines);
        for (i, l) in lines.iter().enumerate() {
            assert_eq!(batch.line(i, buf), *l);
        }
    }
}

#[test]
fn batch_equals_single_on_generated_lines_and_items() {
    let mut rng = gen::Rng(0xBA7C);
    for profile in Profile::ALL {
        let parser = Parser::new().profile(*profile);
        let mut buf = Vec::new();
        let mut items = Vec::new();
        for _ in 0..20_000 {
            let mut l = gen::input(&mut rng);
            l.retain(|&b| b != b'\n');
            buf.extend_from_slice(&l);
            buf.extend_from_slice(if rng.chance(30) { b"\r\n" } else { b"\n" });
            items.push(l);
        }
        let mut batch = Batch::new();
        batch.parse_lines(&parser, &buf);
        check_same(&parser, &batch, &lines_of(&buf));
        batch.parse_items(&parser, &items);
        let refs: Vec<&[u8]> = items.iter().map(|v| v.as_slice()).collect();
        check_same(&parser, &batch, &refs);
    }
}

#[test]
fn long_lines_keep_their_spans() {
    let parser = Parser::new();
    let long = format!(
        "http://example.com/{}?{}#f",
        "a".repeat(100_000),
        "q".repeat(70_000)
    );
    let buf = format!("http://a/\n{long}\n/x y\n{}\n", "b".repeat(80_000) + " ");
    let mut batch = Batch::new();
    batch.parse_lines(&parser, buf.as_bytes());
    check_same(&parser, &batch, &lines_of(buf.as_bytes()));
    assert_eq!(
        batch.component(1, Component::Fragment, buf.as_bytes()),
        Some(&b"f"[..])
    );
    assert_eq!(batch.error(3).unwrap().index, 80_000);
}

#[test]
fn reused_batch_allocates_nothing_per_reference() {
    let parser = Parser::new();
    let buf = include_bytes!("../benches/data/kasztp.txt");
    let mut batch = Batch::new();
    batch.parse_lines(&parser, buf);
    let before = allocs();
    batch.parse_lines(&parser, buf);
    let after = allocs();
    assert_eq!(
        after - before,
        0,
        "allocations while re-parsing {} lines",
        batch.len()
    );
    // Single parsing allocates nothing either.
    let before = allocs();
    let mut n = 0;
    for line in buf.split(|&b| b == b'\n') {
        n += UriRef::parse_bytes(line).is_ok() as usize;
    }
    assert_eq!(allocs() - before, 0);
    assert!(n > 40_000);
}

/// The issue's bound on output memory per reference, checked when compiling.
const _: () = assert!(Batch::RECORD_BYTES <= 40);

#[cfg(feature = "rayon")]
#[test]
fn parallel_equals_sequential() {
    let parser = Parser::new();
    let mut buf = Vec::new();
    for k in 0..6 {
        buf.extend_from_slice(include_bytes!("../benches/data/kasztp.txt"));
        buf.push(b'\n');
        // Lines over 64 KiB (spans in the side table) in several pieces.
        buf.extend_from_slice(format!("http://h/{}?{k}\n", "p".repeat(70_000 + k)).as_bytes());
        buf.extend_from_slice(format!("{} bad\n", "x".repeat(66_000 + k)).as_bytes());
    }
    buf.extend_from_slice(b"no final newline");
    // The whole buffer and its half are on both sides of the size from
    // which parallel parsing streams its records past the caches (8 MiB).
    assert!(
        buf.len() > 8 << 20 && buf.len() / 2 < 8 << 20,
        "{}",
        buf.len()
    );
    let mut one = Batch::new();
    one.parse_lines(&parser, &buf);
    let same = |par: &Batch, one: &Batch, buf: &[u8]| {
        assert_eq!(par.len(), one.len());
        for i in 0..one.len() {
            assert_eq!(par.line_start(i), one.line_start(i));
            assert_eq!(par.line(i, buf), one.line(i, buf));
            assert_eq!(par.is_valid(i), one.is_valid(i));
            assert_eq!(par.parse_error(i), one.parse_error(i));
            assert_eq!(par.get(i, buf), one.get(i, buf));
            for c in Component::ALL {
                assert_eq!(par.span(i, c), one.span(i, c));
            }
        }
        assert_eq!(par.counts(), one.counts());
    };
    // One batch reused: parallel runs with different numbers of pieces, a
    // serial run in between, and a smaller buffer after a larger one.
    let mut par = Batch::new();
    for threads in [2, 3, 4] {
        par.parse_lines_parallel(&parser, &buf, threads);
        same(&par, &one, &buf);
    }
    par.parse_lines(&parser, &buf);
    same(&par, &one, &buf);
    let half = &buf[..buf.len() / 2];
    let mut small = Batch::new();
    small.parse_lines(&parser, half);
    par.parse_lines_parallel(&parser, half, 3);
    same(&par, &small, half);
    par.parse_lines_parallel(&parser, &buf, 2);
    same(&par, &one, &buf);
}

/// The verdict-only path counts exactly what the batch path does.
#[test]
fn validate_lines_equals_batch_counts() {
    let mut rng = gen::Rng(0xC0C0);
    let mut buf = Vec::new();
    for _ in 0..30_000 {
        let mut l = gen::input(&mut rng);
        l.retain(|&b| b != b'\n');
        buf.extend_from_slice(&l);
        buf.push(b'\n');
    }
    buf.extend_from_slice(include_bytes!("../benches/data/kasztp.txt"));
    for profile in Profile::ALL {
        let parser = Parser::new().profile(*profile);
        let mut batch = Batch::new();
        batch.parse_lines(&parser, &buf);
        let c = urilex::validate_lines(&parser, &buf);
        assert_eq!(c.total, batch.len());
        assert_eq!(c, batch.counts());
        #[cfg(feature = "rayon")]
        assert_eq!(urilex::validate_lines_parallel(&parser, &buf, 2), c);
    }
}

/// One DFA run over the buffer finds each valid line's end itself (in
/// `validate_lines` and `Batch::parse_lines`); the lines and their results
/// are still exactly those of `urilex::lines`,
/// whatever the line ends: LF, CRLF, a lone CR (part of its line), CR at
/// the very end, empty lines, no final LF, invalid lines of every kind.
#[test]
fn validate_lines_splits_lines_as_lines_does() {
    let mut rng = gen::Rng(0x11E5);
    let seps: [&[u8]; 6] = [b"\n", b"\r\n", b"\r", b"\n\n", b"\r\r\n", b"\n\r"];
    let mut bufs: Vec<Vec<u8>> = vec![
        b"".to_vec(),
        b"\n".to_vec(),
        b"\r".to_vec(),
        b"\r\n".to_vec(),
        b"a".to_vec(),
        b"a\r".to_vec(),
        b"http://a/\r\nb c\r\n\r\n%zz\rx\n[\n".to_vec(),
    ];
    for _ in 0..3_000 {
        let mut buf = Vec::new();
        for _ in 0..rng.below(8) {
            buf.extend_from_slice(&gen::input(&mut rng));
            buf.extend_from_slice(seps[rng.below(seps.len())]);
        }
        if rng.chance(50) {
            buf.extend_from_slice(&gen::input(&mut rng));
        }
        bufs.push(buf);
    }
    for profile in Profile::ALL {
        let parser = Parser::new().profile(*profile);
        for buf in &bufs {
            let ls: Vec<(usize, &[u8])> = urilex::lines(buf).collect();
            let only: Vec<&[u8]> = ls.iter().map(|&(_, l)| l).collect();
            let want = counts_by_parsing(&parser, &only);
            assert_eq!(
                urilex::validate_lines(&parser, buf),
                want,
                "{profile:?} {:?}",
                String::from_utf8_lossy(buf)
            );
            // The batch finds the same lines, at the same offsets, with
            // the same results as parsing each line alone.
            let mut batch = Batch::new();
            batch.parse_lines(&parser, buf);
            check_same(&parser, &batch, &only);
            for (i, &(at, _)) in ls.iter().enumerate() {
                assert_eq!(batch.line_start(i), at);
            }
        }
    }
}

/// RFC 1738's parts live in shared slots, told apart by the scheme rule
/// that parsed each line: the batch (sequential and parallel) gives every
/// part of every line exactly as parsing the line alone does.
#[test]
#[cfg(feature = "rfc1738")]
fn rfc1738_parts_through_the_batch() {
    let text = include_str!("data/rfc1738-urls.txt");
    let mut buf = String::new();
    for _ in 0..50 {
        buf.push_str(text);
        buf.push_str("ftp://h/a;type=x\nnot a url\n");
    }
    let parser = Parser::new().profile(Profile::Rfc1738);
    let lines: Vec<&str> = buf.lines().collect();
    let mut batches = vec![Batch::new()];
    batches[0].parse_lines(&parser, buf.as_bytes());
    #[cfg(feature = "rayon")]
    {
        let mut b = Batch::new();
        b.parse_lines_parallel(&parser, buf.as_bytes(), 2);
        batches.push(b);
    }
    for batch in &batches {
        assert_eq!(batch.len(), lines.len());
        for (i, line) in lines.iter().enumerate() {
            match parser.parse(line) {
                Ok(u) => {
                    let b = batch.get(i, buf.as_bytes()).unwrap();
                    assert_eq!(b.scheme_rule(), u.scheme_rule(), "{line}");
                    let got: Vec<_> = b.rule_parts().collect();
                    let want: Vec<_> = u.rule_parts().collect();
                    assert_eq!(got, want, "{line}");
                    for p in Profile::Rfc1738.parts() {
                        assert!(b
                            .occurrences(p.name())
                            .spans()
                            .eq(u.occurrences(p.name()).spans()));
                    }
                }
                Err(e) => assert_eq!(batch.parse_error(i), Some(e), "{line}"),
            }
        }
    }
}

/// Where a batch window (16 KB) and the buffer end: a buffer of corpus
/// lines a little over two windows long, cut at every length over its last
/// 130 bytes (so the end falls at every offset of a 64-byte block, inside
/// a line, right after an LF or a CR, with and without a last LF), through
/// the batch and `validate_lines` against parsing each line alone.
#[test]
fn windows_and_buffer_ends_at_every_offset() {
    let corpus = include_bytes!("../benches/data/kasztp.txt");
    let mut buf = Vec::new();
    for line in corpus.split(|&b| b == b'\n').cycle().take(900) {
        buf.extend_from_slice(line);
        buf.extend_from_slice(if buf.len() % 3 == 0 { b"\r\n" } else { b"\n" });
        if buf.len() > 33_000 {
            break;
        }
    }
    let parser = Parser::new();
    let mut batch = Batch::new();
    for cut in 0..130 {
        let b = &buf[..buf.len() - cut];
        batch.parse_lines(&parser, b);
        let lines: Vec<&[u8]> = urilex::lines(b).map(|(_, l)| l).collect();
        check_same(&parser, &batch, &lines);
        let want = counts_by_parsing(&parser, &lines);
        assert_eq!(urilex::validate_lines(&parser, b), want, "cut {cut}");
    }
}

/// Lines of lengths around a window's (16 KB, where the batch classifies
/// its buffer anew) and a word's (64 bytes; a line end looked for past
/// the next two words is found out of line), in random order and with
/// both line ends, so that LFs fall just before, at and just after a
/// window's end and lines reach past it or are longer than a window: the
/// batch and `validate_lines` find the lines of `urilex::lines`, with the
/// results of parsing each alone.
#[test]
fn lines_around_the_window_size_split_as_lines_does() {
    let lens = [
        0, 1, 9, 63, 64, 65, 127, 128, 191, 192, 193, 1_000, 16_318, 16_382, 16_383, 16_384,
        16_385, 16_446, 16_447, 16_448, 16_449, 40_000,
    ];
    let mut rng = gen::Rng(0x16_000);
    let parser = Parser::new();
    for round in 0..40 {
        let mut buf = Vec::new();
        for _ in 0..3 + rng.below(5) {
            let len = lens[rng.below(lens.len())];
            let mut line = b"http://a/".to_vec();
            line.resize(len.max(9), b'p');
            line.truncate(len);
            if rng.chance(20) && len > 20 {
                line[len / 2] = b' ';
            }
            buf.extend_from_slice(&line);
            buf.extend_from_slice(if rng.chance(30) { b"\r\n" } else { b"\n" });
        }
        if round % 2 == 1 {
            buf.pop();
        }
        let ls: Vec<(usize, &[u8])> = urilex::lines(&buf).collect();
        let only: Vec<&[u8]> = ls.iter().map(|&(_, l)| l).collect();
        let mut batch = Batch::new();
        batch.parse_lines(&parser, &buf);
        check_same(&parser, &batch, &only);
        for (i, &(at, _)) in ls.iter().enumerate() {
            assert_eq!(batch.line_start(i), at, "round {round}");
        }
        let want = counts_by_parsing(&parser, &only);
        assert_eq!(urilex::validate_lines(&parser, &buf), want, "round {round}");
    }
}

/// `items` laid out as a string column: values one after another, and
/// offsets, starting at `lead` (a sliced column) after `lead` bytes of
/// another column's text.
fn column(items: &[Vec<u8>], lead: usize) -> (Vec<u8>, Vec<i64>) {
    let mut values = b"http://lead/%4".repeat(lead / 14 + 1);
    values.truncate(lead);
    let mut offsets = vec![lead as i64];
    for it in items {
        values.extend_from_slice(it);
        offsets.push(values.len() as i64);
    }
    // Bytes after the last item, as a slice of a longer column has.
    values.extend_from_slice(b"41http://tail/");
    (values, offsets)
}

/// The column's results must be each item's parsed alone, its `line` the
/// item, and `validate_offsets` the same verdicts; with `i32` and `u32`
/// offsets too.
fn check_column(parser: &Parser, items: &[Vec<u8>], lead: usize) {
    let (values, offsets) = column(items, lead);
    let refs: Vec<&[u8]> = items.iter().map(|v| v.as_slice()).collect();
    let mut batch = Batch::new();
    batch.parse_offsets(parser, &values, &offsets);
    check_same(parser, &batch, &refs);
    for (i, it) in refs.iter().enumerate() {
        assert_eq!(batch.line(i, &values), *it);
        assert_eq!(batch.line_start(i), offsets[i] as usize);
        assert_eq!(batch.entry(i).line_start(), offsets[i] as usize);
    }
    // Keeping the host alone: the verdicts and errors of each item parsed
    // alone, and the hosts and host kinds of the full parse (which
    // `check_same` held to them).
    let mut host_only = Batch::new();
    host_only.parse_offsets_keeping(parser, &values, &offsets, Component::Host);
    assert_eq!(host_only.len(), refs.len());
    for (i, it) in refs.iter().enumerate() {
        let single = parser.parse_bytes(it);
        assert_eq!(
            host_only.is_valid(i),
            single.is_ok(),
            "{:?}",
            String::from_utf8_lossy(it)
        );
        assert_eq!(host_only.parse_error(i), single.as_ref().err().copied());
        assert_eq!(
            host_only.component(i, Component::Host, &values),
            batch.component(i, Component::Host, &values)
        );
        let entry = host_only.entry(i);
        assert_eq!(entry.span(Component::Host), batch.span(i, Component::Host));
        assert_eq!(entry.host_kind(), batch.host_kind(i));
        assert_eq!(entry.line_start(), offsets[i] as usize);
    }
    let (mut kept, mut full) = (Vec::new(), Vec::new());
    host_only.for_each_span(Component::Host, |s| kept.push(s));
    batch.for_each_span(Component::Host, |s| full.push(s));
    assert_eq!(kept, full);
    let mut verdicts = Vec::new();
    urilex::validate_offsets(parser, &values, &offsets, |v| verdicts.push(v));
    let want: Vec<bool> = refs.iter().map(|l| parser.parse_bytes(l).is_ok()).collect();
    assert_eq!(verdicts, want);
    if values.len() < i32::MAX as usize {
        let small: Vec<i32> = offsets.iter().map(|&o| o as i32).collect();
        batch.parse_offsets(parser, &values, &small);
        check_same(parser, &batch, &refs);
        let unsigned: Vec<u32> = offsets.iter().map(|&o| o as u32).collect();
        batch.parse_offsets(parser, &values, &unsigned);
        check_same(parser, &batch, &refs);
    }
}

/// A string column's items (Arrow's values and offsets, no line ends
/// between them): the same results as each item parsed alone, on the
/// corpora, on generated references of every profile (CR and LF bytes
/// kept inside them: bytes of the item, not line ends), and sliced.
#[test]
fn offsets_equal_single_on_corpora_and_generated_items() {
    let parser = Parser::new();
    for buf in [
        &include_bytes!("../benches/data/kasztp.txt")[..],
        include_bytes!("../benches/data/node_files.txt"),
    ] {
        let items: Vec<Vec<u8>> = lines_of(buf).iter().map(|l| l.to_vec()).collect();
        check_column(&parser, &items, 0);
        check_column(&parser, &items[1..], 7);
    }
    let mut rng = gen::Rng(0x0FF5);
    for profile in Profile::ALL {
        let parser = Parser::new().profile(*profile);
        let items: Vec<Vec<u8>> = (0..20_000).map(|_| gen::input(&mut rng)).collect();
        check_column(&parser, &items, 0);
        check_column(&parser, &items, 3);
    }
}

/// A batch that kept the host's spans alone refuses to answer for
/// another part (rather than answer "absent").
#[test]
#[should_panic(expected = "kept no path spans")]
fn a_part_not_kept_is_refused() {
    let values = b"http://a.example/b";
    let mut batch = Batch::new();
    batch.parse_offsets_keeping(&Parser::new(), values, &[0i32, 18], Component::Host);
    assert_eq!(
        batch.component(0, Component::Host, values),
        Some(&b"a.example"[..])
    );
    let _ = batch.span(0, Component::Path);
}

/// The same refusal for every reference's part at once.
#[test]
#[should_panic(expected = "kept no query spans")]
fn a_part_not_kept_is_refused_for_the_whole_batch() {
    let values = b"http://a.example/b?q";
    let mut batch = Batch::new();
    batch.parse_offsets_keeping(&Parser::new(), values, &[0i32, 20], Component::Host);
    batch.for_each_span(Component::Query, |_| {});
}

/// Where one item ends and the next begins, the runs must stop: an
/// escape cut by the item's end (`%`, `%4` before an item that begins
/// with hex digits), a next item that goes on in the same run set, empty
/// items, items at every offset around a word's end, and items longer
/// than a window.
#[test]
fn offsets_items_end_where_the_next_begins() {
    let parser = Parser::new();
    let pieces: [&[u8]; 14] = [
        b"http://a/b%",
        b"41/c",
        b"http://a/b%4",
        b"1",
        b"",
        b"abc",
        b"?q=%",
        b"4142",
        b"//h%4",
        b"a",
        b"x\ny",
        b"x\r",
        b"http://[::1]",
        b":80",
    ];
    let mut rng = gen::Rng(0x1E7D);
    for _ in 0..300 {
        let mut items = Vec::new();
        for _ in 0..rng.below(40) {
            let mut it = Vec::new();
            if rng.chance(30) {
                it.extend_from_slice(b"http://h/");
                it.resize(9 + rng.below(140), b'p');
            }
            it.extend_from_slice(pieces[rng.below(pieces.len())]);
            if rng.chance(5) {
                it.resize(it.len() + 16_380 + rng.below(10), b'q');
            }
            items.push(it);
        }
        check_column(&parser, &items, rng.below(70));
    }
    // Nothing at all, and one empty item.
    let mut batch = Batch::new();
    batch.parse_offsets(&parser, b"", &[] as &[i32]);
    assert!(batch.is_empty());
    batch.parse_offsets(&parser, b"x", &[1i32, 1]);
    assert_eq!(batch.len(), 1);
    assert!(batch.is_valid(0));
}

#[test]
#[should_panic(expected = "offsets decrease")]
fn offsets_that_decrease_are_refused() {
    Batch::new().parse_offsets(&Parser::new(), b"abcdef", &[0i32, 4, 2, 6]);
}
