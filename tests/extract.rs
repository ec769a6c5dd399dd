//! Extraction of URIs from text (`urilex::extract`): the examples of the
//! appendices on delimiting URIs in context, exactly, each naming its
//! section; a table of realistic cases; random text.

#[path = "support/gen.rs"]
mod gen;
#[path = "support/parts.rs"]
mod parts;

use urilex::extract::{find_iter, Delimiter, ExtractOptions, Flags};
use urilex::Parser;

fn uris(text: &[u8], o: ExtractOptions) -> Vec<String> {
    find_iter(text, o).map(|h| h.uri.into_owned()).collect()
}

/// RFC 3986 Appendix C (seed 000 Appendix E lost this example's angle
/// brackets when it was flattened; the RFC has it intact), as indented in
/// the RFC.
#[test]
fn rfc3986_appendix_c() {
    let text = "      Yes, Jim, I found it under \"http://www.w3.org/Addressing/\",\n      but you can probably pick it up from <ftp://foo.example.\n      com/rfc/>.  Note the warning in <http://www.ics.uci.edu/pub/\n      ietf/uri/historical.html#WARNING>.\n";
    let hits: Vec<_> = find_iter(text.as_bytes(), ExtractOptions::new()).collect();
    let got: Vec<&str> = hits.iter().map(|h| h.uri.as_ref()).collect();
    assert_eq!(
        got,
        [
            "http://www.w3.org/Addressing/",
            "ftp://foo.example.com/rfc/",
            "http://www.ics.uci.edu/pub/ietf/uri/historical.html#WARNING",
        ]
    );
    assert_eq!(hits[0].delimiter, Delimiter::Quote);
    assert_eq!(hits[1].delimiter, Delimiter::Angle);
    assert!(hits[1].flags.contains(Flags::WHITESPACE_REMOVED));
    assert!(!hits[1].flags.contains(Flags::AMBIGUOUS_HYPHEN));
    assert_eq!(&text[hits[0].span.clone()], "http://www.w3.org/Addressing/");
}

/// Seed 001 (draft-fielding-url-syntax-05) Appendix E, whose example has a
/// space inside the angle brackets.
#[test]
fn seed001_appendix_e() {
    let text = b"Yes, Jim, I found it under \"http://www.w3.org/pub/WWW/\", but you can probably pick it up from <ftp://ds.internic. net/rfc/>. Note the warning in <http://ds.internic.net/ instructions/overview.html#WARNING>.";
    assert_eq!(
        uris(text, ExtractOptions::new()),
        [
            "http://www.w3.org/pub/WWW/",
            "ftp://ds.internic.net/rfc/",
            "http://ds.internic.net/instructions/overview.html#WARNING",
        ]
    );
    // Also with the test.com examples of the same appendix: quotes, angle
    // brackets, whitespace.
    let text = b"within double-quotes \"http://test.com/\", angle brackets <http://test.com/>, or just using whitespace http://test.com/ These";
    let hits: Vec<_> = find_iter(text, ExtractOptions::new()).collect();
    let d: Vec<_> = hits.iter().map(|h| (h.uri.as_ref(), h.delimiter)).collect();
    assert_eq!(
        d,
        [
            ("http://test.com/", Delimiter::Quote),
            ("http://test.com/", Delimiter::Angle),
            ("http://test.com/", Delimiter::None)
        ]
    );
}

/// RFC 1738's appendix on URLs in context, from seed 002 (a Chinese
/// translation whose spaces are U+00A0): `<URL:…>`, one broken over two
/// lines in the references.
#[test]
fn seed002_appendix_url_prefix() {
    let text = include_bytes!("data/extract-seed002-appendix.txt");
    let hits: Vec<_> = find_iter(text, ExtractOptions::new()).collect();
    let got: Vec<&str> = hits.iter().map(|h| h.uri.as_ref()).collect();
    assert_eq!(
        got[..9],
        [
            "ftp://info.cern.ch/pub/www/doc;type=d",
            "ftp://ds.internic.net/rfc",
            "http://ds.internic.net/instructions/overview.html#WARNING",
            "ftp://ds.internic.net/rfc/rfc1436.txt;type=a",
            "ftp://boombox.micro.umn.edu/pub/gopher/gopher_protocol/Gopher+/Gopher+.txt",
            "ftp://ds.internic.net/rfc/rfc1630.txt",
            "ftp://info.cern.ch/pub/www/doc/http-spec.txt.Z",
            "ftp://ds.internic.net/rfc/rfc1123.txt",
            "ftp://ds.internic.net/rfc/rfc822.txt",
        ]
    );
    assert!(hits.iter().take(9).all(|h| h.delimiter == Delimiter::Url));
}

/// RFC 3986 Appendix C: a line break right after a hyphen keeps the
/// hyphen, flagged, since it "may or may not actually be part of the URI".
#[test]
fn hyphen_at_a_line_break() {
    let hits: Vec<_> =
        find_iter(b"<http://example.com/a-\n    b>", ExtractOptions::new()).collect();
    assert_eq!(hits[0].uri, "http://example.com/a-b");
    assert!(hits[0].flags.contains(Flags::AMBIGUOUS_HYPHEN));
    let hits: Vec<_> = find_iter(b"<URL: http://example.com/a-b>", ExtractOptions::new()).collect();
    assert_eq!(hits[0].uri, "http://example.com/a-b");
    assert_eq!(hits[0].delimiter, Delimiter::Url);
    assert_eq!(hits[0].flags, Flags::default());
}

/// Seed 000 Appendix F: abbreviated URIs, completed only on request.
#[test]
fn seed000_appendix_f_abbreviated() {
    let text = b"as www.w3.org/Addressing/ or simply ftp.example.org.";
    assert!(uris(text, ExtractOptions::new()).is_empty());
    let hits: Vec<_> = find_iter(text, ExtractOptions::new().abbreviated(true)).collect();
    let got: Vec<&str> = hits.iter().map(|h| h.uri.as_ref()).collect();
    assert_eq!(
        got,
        ["http://www.w3.org/Addressing/", "ftp://ftp.example.org"]
    );
    assert!(hits.iter().all(|h| h.flags.contains(Flags::ABBREVIATED)));
    assert_eq!(&text[hits[0].span.clone()], b"www.w3.org/Addressing/");
}

/// Defanged indicators, refanged only on request, and flagged.
#[test]
fn defanged_indicators() {
    let text = b"IOC: hxxp://example[.]com/x and hxxps[:]//a[.]b/c, ftp[://]x(.)org, http://u[@]h.example/";
    assert!(uris(text, ExtractOptions::new())
        .iter()
        .all(|u| !u.contains("example.com")));
    // Without refanging, no prefix of a defanged token is taken.
    assert!(uris(b"hxxp://c[.]example/x", ExtractOptions::new()).is_empty());
    let hits: Vec<_> = find_iter(text, ExtractOptions::new().refang(true)).collect();
    let got: Vec<&str> = hits.iter().map(|h| h.uri.as_ref()).collect();
    assert_eq!(
        got,
        [
            "http://example.com/x",
            "https://a.b/c",
            "ftp://x.org",
            "http://u@h.example/"
        ]
    );
    assert!(hits.iter().all(|h| h.flags.contains(Flags::REFANGED)));
}

#[path = "support/extract_cases.rs"]
mod cases;
use cases::REALISTIC;

#[test]
fn realistic_cases() {
    for (text, want) in REALISTIC {
        let got = uris(text.as_bytes(), ExtractOptions::new());
        assert_eq!(got, *want, "{text}");
        for h in find_iter(text.as_bytes(), ExtractOptions::new()) {
            assert_eq!(&text[h.span.clone()], h.uri, "{text}: span");
        }
    }
}

/// Random text never panics, every hit parses as a URI, spans are in
/// order, inside the text, and never overlap.
#[test]
fn random_text() {
    let mut rng = gen::Rng(0x5EED_E47A);
    let mut next = || rng.next();
    let alphabet: &[u8] = b"http://ftp:mailto:<URL:>\"' \n\t-.,;:!?()[]{}@%/#aZ09\xc2\xa0\xff~";
    let parser = Parser::new().syntax(urilex::Syntax::Uri);
    for round in 0..20_000 {
        let len = (next() % 200) as usize;
        let text: Vec<u8> = (0..len)
            .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
            .collect();
        let o = ExtractOptions::new()
            .abbreviated(round % 3 == 1)
            .refang(round % 3 == 2);
        let mut last = 0;
        for h in find_iter(&text, o) {
            assert!(
                parser.parse(&h.uri).is_ok(),
                "{:?} -> {:?}",
                String::from_utf8_lossy(&text),
                h.uri
            );
            assert!(h.span.start >= last && h.span.end <= text.len() && h.span.start < h.span.end);
            last = h.span.end;
        }
    }
}

/// The colon trigger with no options (candidate colons marked by the SIMD
/// kernel a kilobyte at a time, colons first) against the
/// trigger of the options (every colon, by the block classifier, then the
/// same test in scalar code), on text with no `w` or `f` for the options' own
/// triggers to find: the same hits. The text runs over many
/// windows; its colons come with letters before, digits, quotes, `/`,
/// whitespace and U+00A0 after, as in prose, times of day, JSON and URIs
/// broken inside angle brackets (schemes ending in a digit, so that only
/// the byte after the colon makes it a candidate).
#[test]
fn colon_marks_find_what_every_colon_finds() {
    let mut rng = gen::Rng(0xC010_4A4B);
    let mut next = || rng.next();
    let pieces: [&[u8]; 17] = [
        b"HTTPS://a.example/x",
        b"mailto:a@b.example",
        b"urn:isbn:0451450523",
        b"<ttp2:\n//c.example/>",
        b"<ttp1:\xc2\xa0//d.example/>",
        b"<ttp4: //h.example/>",
        b"\"ttps://e.example/q?a=1\"",
        b"10:20:30",
        b"{\"k\":\"v\"}",
        b"Note: ",
        b"e.g.: ",
        b"tel:+1-201-555-0123",
        b"<ttp3:\t//g> s3://b/k",
        b" ",
        b"\n",
        b"(",
        b")",
    ];
    let alphabet: &[u8] = b":/ \n\t<>\"'.,;:()@%#aZ09\xc2\xa0\xff~";
    let mut compared = 0;
    for _ in 0..400 {
        let mut len = 64 + (next() % 1500) as usize;
        let mut text = Vec::new();
        while text.len() < len {
            let r = next();
            if r % 3 == 0 {
                text.extend_from_slice(pieces[(r >> 8) as usize % pieces.len()]);
            } else if r % 401 == 1 {
                // A kilobyte or more with no candidate colon (times of day
                // at most): chunks with no candidate, or no colon at all.
                let filler = 300 + r as usize % 500;
                for _ in 0..filler {
                    text.extend_from_slice(if r % 2 == 0 { b"aa 1" } else { b"1:2 " });
                }
                len += 4 * filler;
            } else {
                text.push(alphabet[(r >> 16) as usize % alphabet.len()]);
            }
        }
        let marks: Vec<_> = find_iter(&text, ExtractOptions::new()).collect();
        let every: Vec<_> = find_iter(&text, ExtractOptions::new().abbreviated(true)).collect();
        assert_eq!(marks, every, "{:?}", String::from_utf8_lossy(&text));
        compared += marks.len();
    }
    assert!(compared > 1000, "{compared}");
}

/// Long inputs cost linear time: a megabyte of brackets, quotes, colons
/// and trailing parentheses ends quickly (no timing threshold: a quadratic
/// scan would not finish within the test's patience, a linear one does).
#[test]
fn pathological_inputs_are_linear() {
    for unit in [
        &b"<"[..],
        b"\"",
        b"a:",
        b"http://a/",
        b")",
        b"http://x/(",
        b"<URL:",
    ] {
        let mut text = b"http://example.com/".to_vec();
        text.extend(unit.repeat(1 << 20));
        let o = ExtractOptions::new().refang(true).abbreviated(true);
        let first = find_iter(&text, o).next().expect("the URI before the run");
        assert!(
            first.uri.starts_with("http://example.com/"),
            "{:?}",
            first.uri
        );
        assert!(find_iter(&text, o).count() <= text.len());
    }
}

/// The byte classes extraction reads off the tables are RFC 3986's: a
/// bare URI holds unreserved, reserved and "%" (section 2), a scheme
/// ALPHA, DIGIT, "+", "-", "." and begins with ALPHA (3.1). Checked on
/// every byte through the text: a byte outside the set ends a bare URI.
#[test]
fn byte_classes_come_from_the_grammar() {
    let in_uri = |b: u8| b.is_ascii_alphanumeric() || b"-._~:/?#[]@!$&'()*+,;=%".contains(&b);
    for b in 0..=255u8 {
        if b == b'%' {
            continue;
        }
        let mut text = b"http://h/a".to_vec();
        text.push(b);
        text.extend_from_slice(b"b ");
        let hit = find_iter(&text, ExtractOptions::new()).next();
        let whole = hit.as_ref().is_some_and(|h| h.span.end == text.len() - 1);
        // Bytes outside the URI set end it; those inside may still be
        // refused by the grammar there ("#" twice, "[" in a path...).
        if !in_uri(b) {
            assert!(!whole, "byte {b:#04x} taken into a URI");
        }
        if b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/".contains(&b) {
            assert!(whole, "byte {b:#04x} ends a URI");
        }
    }
    for b in 0..=255u8 {
        let text = [b, b'x', b':', b'/', b'/', b'h', b'/'];
        let scheme_start = b.is_ascii_alphabetic();
        let found = find_iter(&text, ExtractOptions::new()).next();
        assert_eq!(
            found.map(|h| h.span.start),
            Some(if scheme_start { 0 } else { 1 }),
            "{b:#04x}"
        );
    }
}

/// Text searched in parts (what the CLI does across cores): a part stops
/// at a line start (`stop_at`) but still finishes a `<…>` that opens
/// before the cut with its URI after it (RFC 3986 Appendix C lets
/// whitespace, line breaks included, stand inside the brackets), and
/// `position()` says where the next part begins; the parts give the hits
/// of one search.
#[test]
fn parts_cut_at_line_starts_give_the_hits_of_one_search() {
    let text =
        b"see <\nhttp://a.example/b>\nand <URL:\n  ftp://c.example/>\nlast http://d.example/\n";
    let whole: Vec<_> = find_iter(text, ExtractOptions::new()).collect();
    let got: Vec<&str> = whole.iter().map(|h| h.uri.as_ref()).collect();
    assert_eq!(
        got,
        [
            "http://a.example/b",
            "ftp://c.example/",
            "http://d.example/"
        ]
    );
    // Cut at every line start.
    let starts: Vec<usize> = (1..text.len()).filter(|&i| text[i - 1] == b'\n').collect();
    for &cut in &starts {
        let parts = parts::in_two_parts(text, ExtractOptions::new(), cut);
        assert_eq!(parts, whole, "cut at {cut}");
    }
    // The first part, cut after "see <\n", finishes the bracketed URI and
    // goes on after its ">".
    let mut it = find_iter(text, ExtractOptions::new()).stop_at(6);
    assert_eq!(
        it.next().map(|h| h.uri.into_owned()),
        Some("http://a.example/b".into())
    );
    assert_eq!(it.position(), 25);
    assert_eq!(it.next(), None);
}

/// The outside fixtures (`tests/data/extract/`, measured by
/// `examples/extract_recall.rs`): every input runs, and every hit is an
/// absolute URI found inside its input. (Recall and precision are a
/// measurement, reported in docs/performance.md, not asserted here.)
#[test]
fn outside_fixtures_give_valid_hits() {
    let mut inputs = 0;
    for file in ["linkify-url.jsonl", "linkify-it.jsonl"] {
        let text = std::fs::read_to_string(format!(
            "{}/tests/data/extract/{file}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap();
        for line in text.lines() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let input = v["input"].as_str().unwrap().as_bytes();
            assert!(v["links"].as_array().is_some(), "{line}");
            for o in [
                ExtractOptions::new(),
                ExtractOptions::new().abbreviated(true),
            ] {
                for h in find_iter(input, o) {
                    assert!(h.span.end <= input.len(), "{line}");
                    let u = Parser::new().parse(&h.uri).unwrap();
                    assert!(u.is_absolute(), "{line}: {}", h.uri);
                }
            }
            inputs += 1;
        }
    }
    assert_eq!(inputs, 230 + 155);
}

/// Found by the extract fuzz target (2026-11-28): a cut at a line start
/// gave a bare hit trimmed and flagged where one search took it whole
/// (RFC 1738 with `refang`, whose second part began after a bracketed hit
/// that ran past the cut: the profile is needed for the case to bite).
#[test]
#[cfg(feature = "rfc1738")]
fn fuzz_case_cut_within_a_bracketed_run() {
    let data: &[u8] = &[
        255, 48, 255, 255, 241, 241, 241, 241, 241, 241, 78, 76, 87, 31, 60, 58, 62, 194, 255, 255,
        255, 31, 60, 102, 58, 47, 47, 89, 58, 70, 10, 58, 112, 62, 102, 40, 46, 76, 41, 87, 31, 60,
        58, 62, 31, 60, 102, 58, 47, 47, 89, 58, 70, 10, 58, 112, 62, 102, 86, 86, 58, 47, 47, 107,
        103, 40, 46, 41, 60, 102, 58, 47, 47, 94, 58, 76, 41, 76, 107, 104, 104, 47, 107, 70, 70,
        46, 241, 241, 241, 76, 76, 76,
    ];
    for (i, p) in urilex::Profile::ALL.iter().enumerate() {
        let o = ExtractOptions::new()
            .profile(*p)
            .abbreviated(i % 2 == 0)
            .refang(i % 3 == 0);
        let cut = data[data.len() / 2..]
            .iter()
            .position(|&b| b == b'\n')
            .map(|k| data.len() / 2 + k + 1)
            .unwrap();
        let whole: Vec<_> = find_iter(data, o).collect();
        assert_eq!(
            whole,
            parts::in_two_parts(data, o, cut),
            "{p:?} cut at {cut}"
        );
    }
}
