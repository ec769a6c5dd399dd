//! The SIMD kernels against their scalar twin, and the scalar kernel
//! against a plain bitmask oracle: every byte value in every lane, at every
//! alignment and tail length, for random, empty, full and single-byte sets.
//!
//! A plain `main` (`harness = false`): the test harness runs each test on a
//! thread of its own, and threads hang under the qemu user emulation that
//! `scripts/aarch64.sh` runs this file with to test the NEON kernel.

#[path = "support/gen.rs"]
mod gen;

use urilex::scan::{
    classify_rows_with, classify_with, colon_chunk_with, colon_marks_with, kernel, nibbles_of,
    ranges_of, skip_with, Kernel, CHUNK, MAX_CLASSES,
};

fn oracle(set: &[u64; 4], input: &[u8], from: usize) -> usize {
    let mut i = from;
    while i < input.len() && set[(input[i] >> 6) as usize] >> (input[i] & 63) & 1 != 0 {
        i += 1;
    }
    i
}

fn sets() -> Vec<[u64; 4]> {
    let mut rng = gen::Rng(0x51D);
    let mut out = vec![[0, 0, 0, 0], [u64::MAX, u64::MAX, 0, 0]];
    for b in [0u8, b'a', b'/', 0x7f, b'%', b'?'] {
        let mut s = [0u64; 4];
        s[(b >> 6) as usize] |= 1 << (b & 63);
        out.push(s);
    }
    for _ in 0..24 {
        out.push([rng.next() & rng.next(), rng.next(), 0, 0]);
    }
    // Sets of 1 to 16 random ranges (the SSE2 kernel's own path up to 15,
    // its scalar fallback past that), touching 0x00 and 0x7f at times.
    for k in [1, 2, 5, 10, 15, 16] {
        let mut s = [0u64; 4];
        for _ in 0..k {
            let a = (rng.next() % 128) as u8;
            let len = (rng.next() % 12) as u8;
            for b in a..=a.saturating_add(len).min(127) {
                s[(b >> 6) as usize] |= 1 << (b & 63);
            }
        }
        out.push(s);
    }
    // The sets of RFC 3986 components as they appear in the DFAs: pchar
    // plus "/" and "?" (query), unreserved plus sub-delims (reg-name).
    let mut q = [0u64; 4];
    for b in b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@/?" {
        q[(b >> 6) as usize] |= 1 << (b & 63);
    }
    out.push(q);
    // URILEX_SCAN_SETS=K keeps K of them, evenly spread (for runs under
    // emulation, such as scripts/aarch64.sh, where all of them take long).
    if let Some(k) = std::env::var("URILEX_SCAN_SETS")
        .ok()
        .and_then(|k| k.parse::<usize>().ok())
    {
        let step = (out.len() / k.max(1)).max(1);
        out = out.into_iter().step_by(step).collect();
    }
    out
}

fn this_machine_has_a_fast_kernel() {
    eprintln!("kernel in use: {:?}", kernel());
    #[cfg(all(target_arch = "x86_64", not(feature = "force-scalar")))]
    if std::arch::is_x86_feature_detected!("avx2") {
        assert_eq!(kernel(), Kernel::Avx2);
    }
    #[cfg(all(target_arch = "aarch64", not(feature = "force-scalar")))]
    assert_eq!(kernel(), Kernel::Neon);
    // `cargo test --test scan --features force-scalar`.
    #[cfg(feature = "force-scalar")]
    assert_eq!(kernel(), Kernel::Scalar);
}

fn kernels_agree_on_every_byte_lane_alignment_and_tail() {
    let kernels = [
        Kernel::Scalar,
        Kernel::Sse2,
        Kernel::Ssse3,
        Kernel::Avx2,
        Kernel::Neon,
    ];
    let mut ran = [0usize; 5];
    for set in sets() {
        let t = nibbles_of(&set).expect("ASCII set");
        let r = ranges_of(&t);
        let filler = (0..128u8).find(|&b| set[(b >> 6) as usize] >> (b & 63) & 1 != 0);
        let mut buf = [0u8; 112];
        for len in 0..=96usize {
            for align in 0..=16usize.min(len) {
                let lanes = len - align;
                // Probe each lane with each byte value; the rest is filler
                // (in the set), so the answer is the probe's place or later.
                for pos in 0..lanes.max(1) {
                    for v in 0..=255u8 {
                        if let Some(f) = filler {
                            buf[..len].fill(f);
                        } else {
                            buf[..len].fill(0x80);
                        }
                        if lanes > 0 {
                            buf[align + pos] = v;
                        }
                        let input = &buf[..len];
                        let want = oracle(&set, input, align);
                        for (k, kern) in kernels.iter().enumerate() {
                            if let Some(got) = skip_with(*kern, &t, &r, input, align) {
                                assert_eq!(got, want, "{kern:?} set {set:x?} len {len} align {align} pos {pos} byte {v:#x}");
                                ran[k] += 1;
                            }
                        }
                    }
                    // Long lanes: probing every position of every length is
                    // quadratic; beyond 40 bytes probe the first and last 8.
                    if lanes > 40 && pos == 8 {
                        break;
                    }
                }
            }
        }
    }
    eprintln!("checks run per kernel (scalar, sse2, ssse3, avx2, neon): {ran:?}");
    assert!(ran[0] > 1_000_000);
    #[cfg(target_arch = "x86_64")]
    assert_eq!(ran[1], ran[0], "SSE2 runs on every x86_64");
    #[cfg(target_arch = "aarch64")]
    assert_eq!(ran[4], ran[0], "NEON runs on aarch64");
}

#[path = "support/reference.rs"]
mod reference;

/// Runs of 16 bytes or more take the SIMD kernel inside the DFAs: such
/// inputs parse exactly as the reference parser (written from RFC 3986,
/// without tables) says, with an offending byte at every place of the run.
fn long_runs_parse_as_the_reference_says() {
    let bases = [
        "http://example.com/",
        "//h/",
        "?",
        "#",
        "a/",
        "mailto:",
        "http://",
    ];
    let fillers = [b'a', b'%', b'~', b'/', b':', b'.'];
    let probes = [b' ', b'#', b'?', b'[', b'%', b'\xff', b'/', b'@', b'0'];
    let mut checked = 0;
    for base in bases {
        for &f in &fillers {
            for len in [15usize, 16, 17, 31, 32, 33, 40, 70] {
                let mut run = vec![f; len];
                if f == b'%' {
                    // A valid escape run: "%41%41...".
                    run = b"%41".iter().cycle().take(len - len % 3).copied().collect();
                }
                for pos in (0..run.len())
                    .step_by(3)
                    .chain([run.len().saturating_sub(1)])
                {
                    for &p in &probes {
                        let mut input = base.as_bytes().to_vec();
                        let mut r = run.clone();
                        if let Some(b) = r.get_mut(pos) {
                            *b = p;
                        }
                        input.extend_from_slice(&r);
                        let want = reference::uri_reference(&input);
                        let got = urilex::UriRef::parse_bytes(&input);
                        assert_eq!(
                            got.is_ok(),
                            want.is_some(),
                            "{:?}",
                            String::from_utf8_lossy(&input)
                        );
                        if let (Ok(u), Some(w)) = (got, want) {
                            let span =
                                |c| u.span(c).map(|r: std::ops::Range<usize>| (r.start, r.end));
                            assert_eq!(span(urilex::Component::Path), w.path);
                            assert_eq!(span(urilex::Component::Query), w.query);
                            assert_eq!(span(urilex::Component::Fragment), w.fragment);
                            assert_eq!(span(urilex::Component::Host), w.host);
                        }
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 10_000, "{checked}");
}

/// `ranges_of` against the set it came from, and its count cap.
fn ranges_describe_the_set() {
    for set in sets() {
        let t = nibbles_of(&set).expect("ASCII set");
        let r = ranges_of(&t);
        if r[0] == 0xff {
            continue;
        }
        for b in 0..=255u8 {
            let inside = (0..r[0] as usize).any(|k| b.wrapping_sub(r[1 + 2 * k]) <= r[2 + 2 * k]);
            assert_eq!(
                inside,
                set[(b >> 6) as usize] >> (b & 63) & 1 != 0,
                "{set:x?} {b:#x}"
            );
        }
    }
    // Sixteen single bytes apart: one run too many.
    let mut s = [0u64; 4];
    for b in (0..32).step_by(2) {
        s[0] |= 1 << b;
    }
    assert_eq!(ranges_of(&nibbles_of(&s).unwrap())[0], 0xff);
}

/// The classifier's low-nibble tables of `sets` (all ASCII).
fn low_tables(sets: &[[u64; 4]]) -> Vec<[u8; 16]> {
    sets.iter()
        .map(|s| nibbles_of(s).expect("ASCII set")[..16].try_into().unwrap())
        .collect()
}

/// The line classifier (the fast path's one pass): every kernel this
/// machine runs against the scalar twin, and the scalar one against the
/// sets themselves, for every byte value in each of the 64 lanes, at every
/// alignment of the block (0 to 63 bytes into a buffer), with the other
/// lanes holding bytes in and out of each set; groups of up to nine sets,
/// the most the classifier takes.
fn classifier_kernels_agree_on_every_byte_lane_and_alignment() {
    let all = sets();
    let tables = low_tables(&all);
    let kernels = [
        Kernel::Ssse3,
        Kernel::Avx2,
        Kernel::Avx512,
        Kernel::Neon,
        Kernel::Avx512Vbmi,
    ];
    let mut ran = [0usize; 5];
    let mut rng = gen::Rng(0xC1A55);
    let mut buf = [0u8; 128];
    for (g, group) in tables.chunks(MAX_CLASSES).enumerate() {
        let sets = &all[g * MAX_CLASSES..g * MAX_CLASSES + group.len()];
        for align in 0..64usize {
            for lane in 0..64usize {
                for v in 0..=255u8 {
                    // Background: random bytes, ASCII and not.
                    for b in buf.iter_mut() {
                        *b = rng.next() as u8;
                    }
                    buf[align + lane] = v;
                    let block: &[u8; 64] = buf[align..align + 64].try_into().unwrap();
                    let want = classify_with(Kernel::Scalar, block, group).unwrap();
                    for (k, set) in sets.iter().enumerate() {
                        let mut m = 0u64;
                        for (i, &b) in block.iter().enumerate() {
                            m |= u64::from(set[(b >> 6) as usize] >> (b & 63) & 1 == 0) << i;
                        }
                        assert_eq!(
                            want[k], m,
                            "scalar, set {set:x?} align {align} lane {lane} byte {v:#x}"
                        );
                    }
                    for (n, kern) in kernels.iter().enumerate() {
                        if let Some(got) = classify_with(*kern, block, group) {
                            assert_eq!(
                                got[..group.len()],
                                want[..group.len()],
                                "{kern:?} group {g} align {align} lane {lane} byte {v:#x}"
                            );
                            ran[n] += 1;
                        }
                    }
                }
            }
            // Every alignment for the first group; a few for the others.
            if g > 0 && align >= 3 {
                break;
            }
        }
    }
    eprintln!("classifier checks per kernel (ssse3, avx2, avx512, neon, avx512vbmi): {ran:?}");
    #[cfg(all(target_arch = "x86_64", not(feature = "force-scalar")))]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            assert!(ran[1] > 0);
        }
        if std::arch::is_x86_feature_detected!("avx512bw") {
            assert!(ran[2] > 0);
        }
        if std::arch::is_x86_feature_detected!("avx512vbmi")
            && std::arch::is_x86_feature_detected!("gfni")
        {
            assert!(ran[4] > 0);
        }
    }
    #[cfg(all(target_arch = "aarch64", not(feature = "force-scalar")))]
    assert!(ran[3] > 0);
}

/// Every rows kernel this machine runs over `src` against the per-block
/// scalar twin on each block zero-padded, for the first `group.len()`
/// sets; `ran[k]` counts the checks of kernel k (see `ROWS_KERNELS`).
fn check_rows_against_twin(src: &[u8], group: &[[u8; 16]], ran: &mut [usize; 6], what: &str) {
    let want: Vec<_> = src
        .chunks(64)
        .map(|b| {
            let mut block = [0u8; 64];
            block[..b.len()].copy_from_slice(b);
            classify_with(Kernel::Scalar, &block, group).unwrap()
        })
        .collect();
    let n = group.len();
    for (k, kern) in ROWS_KERNELS.iter().enumerate() {
        if let Some(rows) = classify_rows_with(*kern, src, group) {
            assert_eq!(rows.len(), want.len(), "{kern:?} {what}");
            for (w, (got, want)) in rows.iter().zip(&want).enumerate() {
                assert_eq!(got[..n], want[..n], "{kern:?} {what} block {w}");
            }
            ran[k] += 1;
        }
    }
}

/// The rows kernels, in the order of `check_rows_against_twin`'s counts.
const ROWS_KERNELS: [Kernel; 6] = [
    Kernel::Scalar,
    Kernel::Ssse3,
    Kernel::Avx2,
    Kernel::Avx512,
    Kernel::Neon,
    Kernel::Avx512Vbmi,
];

/// The rows kernels (a window's or an input's blocks at once) against the
/// per-block scalar twin: buffers of 0 to 576 bytes (whole blocks, and a
/// last block cut short, read as if zeros followed) starting 0 to 63 bytes
/// into an allocation, random bytes with runs of set members, groups of
/// one to nine sets.
fn rows_kernels_agree_with_the_block_twin() {
    let all = sets();
    let tables = low_tables(&all);
    let mut ran = [0usize; 6];
    let mut rng = gen::Rng(0x70_35);
    let mut buf = vec![0u8; 64 * 10];
    for round in 0..400 {
        let n = 1 + round % MAX_CLASSES;
        let first = (rng.next() as usize) % (tables.len() - n + 1);
        let group = &tables[first..first + n];
        for b in buf.iter_mut() {
            let x = rng.next();
            // Half ASCII letters and marks (members of many sets).
            *b = if x & 1 == 0 {
                b"az/%:?@.-09\n"[(x >> 8) as usize % 12]
            } else {
                (x >> 16) as u8
            };
        }
        let align = round % 64;
        // Whole blocks, and lengths with a last block cut short.
        let len = if round % 3 == 0 {
            64 * (round % 10)
        } else {
            (rng.next() as usize) % 577
        };
        let src = &buf[align..align + len];
        check_rows_against_twin(src, group, &mut ran, &format!("round {round}"));
    }
    eprint!("(rows checks per kernel: {ran:?}) ");
    assert_eq!(ran[0], 400);
}

/// Every length of a last block cut short (0 to 63 bytes after 0, 1, 2 or
/// 5 whole blocks: runs of more than 256 bytes store each half of a word
/// as it comes on AVX2, shorter ones join them first) at every alignment
/// in an allocation, through every rows
/// kernel this machine runs, against the per-block scalar twin reading the
/// block zero-padded: however a kernel reads a block cut short (VBMI by a
/// masked load, the others from a zero-padded copy), it must see exactly
/// its bytes and zeros after them. The bytes are all nonzero, in and out
/// of the sets, so a byte read past the end or lost would show.
fn rows_kernels_read_every_tail_length_exactly() {
    let all = sets();
    let tables = low_tables(&all);
    let group = &tables[..MAX_CLASSES.min(tables.len())];
    let mut ran = [0usize; 6];
    let mut rng = gen::Rng(0x7A_11);
    let mut buf = vec![0u8; 64 * 8];
    for b in buf.iter_mut() {
        let x = rng.next();
        *b = if x & 1 == 0 {
            b"az/%:?@.-09"[(x >> 8) as usize % 11]
        } else {
            ((x >> 16) as u8).max(1)
        };
    }
    for whole in [0, 1, 2, 5] {
        for tail in 0..64 {
            for align in 0..64 {
                let len = 64 * whole + tail;
                let src = &buf[align..align + len];
                let what = format!("length {len} align {align}");
                check_rows_against_twin(src, group, &mut ran, &what);
            }
        }
    }
    eprint!("(tail checks per kernel: {ran:?}) ");
    assert_eq!(ran[0], 4 * 64 * 64);
}

/// Every byte value in every lane of a last block cut short: for each
/// tail length (1 to 63, after no whole block, one, and five: past 256
/// bytes the AVX2 kernel stores the halves of a word apart), 256 rounds
/// in which lane p holds byte `r + p` (so every lane takes every value),
/// at a changing alignment, with letters (members of most sets) after the end in
/// the allocation; every rows kernel this machine runs against the
/// per-block scalar twin. AVX2 reads such a tail in place a quarter at a
/// time, from overlapping loads, and moves the last quarter's bytes down
/// (`x86_64::tail_quarter`): each lane must come from its own byte.
fn rows_kernels_see_every_byte_value_in_every_tail_lane() {
    let all = sets();
    let tables = low_tables(&all);
    // Nine sets as they come, and eight with a ninth of one byte (NUL, so
    // that the zeros past a tail are in it, and "/"): the VBMI kernel
    // compares with such a byte instead of looking the nibbles up.
    let mut groups = vec![tables[..MAX_CLASSES].to_vec()];
    for one in [2, 4] {
        let mut g = tables[9..9 + MAX_CLASSES - 1].to_vec();
        g.push(tables[one]);
        groups.push(g);
    }
    let mut ran = [0usize; 6];
    let mut buf = vec![b'a'; 64 * 8];
    for group in &groups {
        lanes_of_every_tail(group, &mut buf, &mut ran);
    }
    eprint!("(tail lane checks per kernel: {ran:?}) ");
    assert_eq!(ran[0], groups.len() * 3 * 63 * 256);
}

/// `rows_kernels_see_every_byte_value_in_every_tail_lane` for one group.
fn lanes_of_every_tail(group: &[[u8; 16]], buf: &mut [u8], ran: &mut [usize; 6]) {
    for whole in [0, 1, 5] {
        for tail in 1..64 {
            for r in 0..256 {
                let align = r % 64;
                let len = 64 * whole + tail;
                buf.fill(b'a');
                for (p, b) in buf[align..align + len].iter_mut().enumerate() {
                    *b = (r + p) as u8;
                }
                let src = &buf[align..align + len];
                let what = format!("length {len} round {r}");
                check_rows_against_twin(src, group, ran, &what);
            }
        }
    }
}

/// Extraction's candidate colons (`colon_marks`): every SIMD kernel this
/// machine runs against the scalar twin, and the twin against a plain
/// statement of the rule (a `:` followed by `/`, ASCII whitespace or 0xC2,
/// or preceded by an ASCII letter), for every byte value in each of the 66
/// positions (the block and its two context bytes) at every alignment,
/// over backgrounds of the bytes the rule looks at.
fn colon_mark_kernels_agree_on_every_byte_lane_and_alignment() {
    fn rule(src: &[u8; 66]) -> u64 {
        let mut m = 0u64;
        for i in 0..64 {
            let after = matches!(
                src[i + 2],
                b'/' | b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r' | 0xc2
            );
            let letter = src[i].is_ascii_alphabetic();
            m |= u64::from(src[i + 1] == b':' && (after || letter)) << i;
        }
        m
    }
    let mut rng = gen::Rng(0xC0_1085);
    let near = b":::://  \t\n\r\x0b\x0c\xc2\xa0azAZ@[`{09-.\x80\xff";
    let mut buf = [0u8; 66 + 64];
    let mut ran = [0usize; 2];
    for align in 0..64 {
        for lane in 0..66 {
            for b in buf.iter_mut() {
                let r = rng.next();
                *b = if r.is_multiple_of(4) {
                    (r >> 8) as u8
                } else {
                    near[(r >> 16) as usize % near.len()]
                };
            }
            for v in 0..=255u8 {
                buf[align + lane] = v;
                let src: &[u8; 66] = buf[align..align + 66].try_into().unwrap();
                let want = colon_marks_with(Kernel::Scalar, src).unwrap();
                assert_eq!(want, rule(src), "scalar, lane {lane} byte {v:#x}");
                for (k, kern) in [Kernel::Avx2, Kernel::Avx512].into_iter().enumerate() {
                    if let Some(got) = colon_marks_with(kern, src) {
                        assert_eq!(got, want, "{kern:?}, align {align} lane {lane} byte {v:#x}");
                        ran[k] += 1;
                    }
                }
            }
        }
    }
    eprint!("(colon checks per kernel: {ran:?}) ");
    #[cfg(target_arch = "x86_64")]
    assert!(ran[0] > 0);
}

/// Extraction's chunk kernels (`colon_chunk`: the candidate colons of
/// `CHUNK` blocks and which blocks have one) against the scalar twin: on
/// chunks of the bytes the rule looks at, dense and sparse (most blocks
/// without a colon), each block seen at every alignment of its buffer; and
/// every byte value at the chunk's edges (its
/// two context bytes, the first and last bytes of each block, and those
/// next to them), where one block's context is the next one's byte.
fn colon_chunk_kernels_agree_with_the_twin() {
    const LEN: usize = 64 * CHUNK + 2;
    let mut rng = gen::Rng(0xC4_0C5);
    let near = b":::://  \t\n\r\xc2\xa0azAZ@[`{09-.\x80\xff";
    let mut buf = vec![0u8; LEN + 64];
    let mut ran = [0usize; 2];
    let mut check = |src: &[u8; LEN], what: &str| {
        let want = colon_chunk_with(Kernel::Scalar, src).unwrap();
        for (k, kern) in [Kernel::Avx2, Kernel::Avx512].into_iter().enumerate() {
            if let Some(got) = colon_chunk_with(kern, src) {
                assert_eq!(got, want, "{kern:?}, {what}");
                ran[k] += 1;
            }
        }
    };
    for align in 0..64 {
        // Dense at even alignments; at odd ones most blocks hold no colon
        // (as in prose, which the kernels' first pass is for).
        let sparse = if align % 2 == 1 { 150 } else { 1 };
        for b in buf.iter_mut() {
            let r = rng.next();
            *b = if r.is_multiple_of(8 * sparse) {
                (r >> 8) as u8
            } else if r.is_multiple_of(3 * sparse) {
                near[(r >> 16) as usize % near.len()]
            } else {
                b'.'
            };
        }
        let src: &mut [u8; LEN] = (&mut buf[align..align + LEN]).try_into().unwrap();
        check(src, &format!("align {align}"));
        if align == 0 {
            let edges =
                (0..CHUNK).flat_map(|w| [64 * w, 64 * w + 1, 64 * w + 2, 64 * w + 64, 64 * w + 65]);
            for at in edges {
                for v in 0..=255u8 {
                    let keep = src[at];
                    src[at] = v;
                    // A colon next to it, so that the byte decides.
                    let colon = if at > 0 { at - 1 } else { at + 1 };
                    let c = src[colon];
                    src[colon] = b':';
                    check(src, &format!("byte {v:#x} at {at}"));
                    src[colon] = c;
                    src[at] = keep;
                }
            }
        }
    }
    eprint!("(chunk checks per kernel: {ran:?}) ");
    #[cfg(target_arch = "x86_64")]
    assert!(ran[0] > 0);
}

fn main() {
    let tests: [(&str, fn()); 10] = [
        (
            "colon_chunk_kernels_agree_with_the_twin",
            colon_chunk_kernels_agree_with_the_twin,
        ),
        (
            "rows_kernels_agree_with_the_block_twin",
            rows_kernels_agree_with_the_block_twin,
        ),
        (
            "rows_kernels_read_every_tail_length_exactly",
            rows_kernels_read_every_tail_length_exactly,
        ),
        (
            "rows_kernels_see_every_byte_value_in_every_tail_lane",
            rows_kernels_see_every_byte_value_in_every_tail_lane,
        ),
        (
            "colon_mark_kernels_agree_on_every_byte_lane_and_alignment",
            colon_mark_kernels_agree_on_every_byte_lane_and_alignment,
        ),
        (
            "classifier_kernels_agree_on_every_byte_lane_and_alignment",
            classifier_kernels_agree_on_every_byte_lane_and_alignment,
        ),
        (
            "this_machine_has_a_fast_kernel",
            this_machine_has_a_fast_kernel,
        ),
        ("ranges_describe_the_set", ranges_describe_the_set),
        (
            "kernels_agree_on_every_byte_lane_alignment_and_tail",
            kernels_agree_on_every_byte_lane_alignment_and_tail,
        ),
        (
            "long_runs_parse_as_the_reference_says",
            long_runs_parse_as_the_reference_says,
        ),
    ];
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    for (name, test) in tests {
        if filter.is_empty() || filter.iter().any(|f| name.contains(f.as_str())) {
            eprint!("test {name} ... ");
            test();
            eprintln!("ok");
        }
    }
}
