//! Unit tests of extraction's parts.
use super::*;

#[test]
fn trailing_punctuation_and_brackets() {
    let t = b"x) (see http://a/b_(c)). ok";
    let s = 8;
    assert_eq!(&t[s..trim(t, s, 24)], b"http://a/b_(c)");
    let (r, changed) = refang(b"hxxps[:]//a[.]b(.)c[@]d");
    assert!(changed);
    assert_eq!(r, b"https://a.b.c@d");
}

/// `registered` knows every scheme of the list in any case, and
/// nothing else.
#[test]
fn registered_schemes_are_recognized_in_any_case() {
    for s in SCHEMES {
        assert!(s.len() <= 7, "{s}");
        assert!(registered(s.as_bytes()));
        assert!(registered(s.to_ascii_uppercase().as_bytes()));
        assert!(!registered(format!("{s}x").as_bytes()));
        assert!(!registered(&s.as_bytes()[1..]));
    }
    for s in ["http", "Note", "e.g.", "", "mailtox", "mailt"] {
        assert!(!registered(s.as_bytes()), "{s}");
    }
}

/// Every scheme taken without `//` ends in a letter: the colon filter
/// in `next` relies on it.
#[test]
fn registered_schemes_end_in_a_letter() {
    for s in SCHEMES {
        assert!(
            s.as_bytes().last().is_some_and(u8::is_ascii_alphabetic),
            "{s}"
        );
    }
}

/// Text made of pieces URIs are made of, delimiters and whitespace,
/// deterministic.
fn pieces_text(seed: u64, n: usize) -> Vec<u8> {
    const PIECES: [&[u8]; 22] = [
        b"http://",
        b"https://a.example/",
        b"<URL:",
        b"< ",
        b"<",
        b">",
        b"\"",
        b"mailto:",
        b"www.",
        b"hxxps[:]//",
        b"[.]",
        b"ftp.",
        b" ",
        b"\n",
        b"URL: ",
        b"a.b/c",
        b"(x)",
        b")",
        b".",
        b"%41",
        b"\xc2\xa0",
        b"-\n",
    ];
    let alphabet = b"ab:/?#[]@!$&'()*+,;=-._~%0129 \n<>\"";
    let mut x = seed | 1;
    let mut out = Vec::new();
    for _ in 0..n {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        if x.is_multiple_of(3) {
            out.extend_from_slice(PIECES[(x >> 8) as usize % PIECES.len()]);
        } else {
            out.push(alphabet[(x >> 16) as usize % alphabet.len()]);
        }
    }
    out
}

/// The fast path classifies a token two blocks at a time: URIs of every
/// length across those blocks and past the fast path's limit, bare,
/// quoted, bracketed, trimmed, and ending the text, give the general
/// path's hits, and the whole URI.
#[test]
fn fast_path_takes_tokens_of_every_length() {
    for n in 0..300 {
        let uri = format!("http://a.example/{}", "x".repeat(n));
        for (open, close) in [("", " ok"), ("\"", "\""), ("<", ">"), ("(", ").")] {
            for before in ["see ", ""] {
                let text = format!("{before}{open}{uri}{close}");
                let fast: Vec<Hit> = find_iter(text.as_bytes(), ExtractOptions::new()).collect();
                let mut general = find_iter(text.as_bytes(), ExtractOptions::new());
                general.fast = None;
                assert_eq!(fast, general.collect::<Vec<_>>(), "{text}");
                assert_eq!(fast.len(), 1, "{text}");
                assert_eq!(fast[0].uri, uri, "{text}");
            }
        }
        let text = format!("see {uri}");
        let hits: Vec<Hit> = find_iter(text.as_bytes(), ExtractOptions::new()).collect();
        assert_eq!(hits.len(), 1);
        assert_eq!(hits[0].uri, uri);
    }
}

/// Every profile's run sets lie in its token set, so that a token's end
/// needs no stops put in for the validator (`Fast::within`); where one
/// did not, the stops would be put in, more slowly.
#[test]
fn run_sets_lie_in_the_token_set() {
    let mut fast = 0;
    for profile in Profile::ALL {
        let it = find_iter(b"", ExtractOptions::new().profile(*profile));
        if let Some(f) = &it.fast {
            assert!(f.within, "{profile:?}");
            fast += 1;
        }
    }
    assert!(fast > 0);
}

/// The fast path (a token classified once, the bitmap validator) gives
/// the hits the general path (the DFA) gives, in every profile that has
/// one, with and without the options.
#[test]
fn fast_path_agrees_with_the_general_path() {
    let mut compared = 0;
    for profile in Profile::ALL {
        for round in 0..12u64 {
            let text = pieces_text(0x5eed + round, 20_000);
            let o = ExtractOptions::new()
                .profile(*profile)
                .abbreviated(round % 3 == 1)
                .refang(round % 3 == 2);
            let it = find_iter(&text, o);
            if it.fast.is_none() {
                continue;
            }
            let mut general = find_iter(&text, o);
            general.fast = None;
            let a: Vec<Hit> = it.collect();
            let b: Vec<Hit> = general.collect();
            assert_eq!(a, b, "{profile:?} round {round}");
            compared += a.len();
        }
    }
    assert!(compared > 1000, "{compared}");
}
