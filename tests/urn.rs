//! URNs under RFC 8141 (`rfc8141`) and seed 004's draft (`urn-draft-03`):
//! the published vectors (tests/data/urn.jsonl, urn_equiv.jsonl, sources
//! in tests/data/SOURCES.json), the seed's section 5.1 table and examples,
//! and NIDs generated at the length and hyphen boundaries.

#[path = "support/gen.rs"]
mod gen;

use serde_json::Value;
use urilex::urn::{QueryRule, Urn, UrnBuf};
use urilex::Profile;

fn records(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Every record of urn.jsonl under RFC 8141: the verdict, and the NID,
/// NSS, r-, q- and f-components where the record gives them. None is
/// contested: the first "?=" after "?+" begins the q-component (RFC 8141
/// section 2; abnf/rfc8141.abnf note 3), as `urn:foo:bar?++?+?+?==?=?=?+?`
/// shows.
#[test]
fn published_urn_vectors() {
    let mut n = 0;
    for r in records(include_str!("data/urn.jsonl")) {
        let input = r["input"].as_str().unwrap();
        let got = Urn::parse(input);
        assert_eq!(
            got.is_ok(),
            r["valid"] == true,
            "{input}: {got:?} ({})",
            r["source"]
        );
        if let Ok(u) = got {
            for (k, v) in [
                ("nid", Some(u.nid())),
                ("nss", Some(u.nss())),
                ("r", u.r_component()),
                ("q", u.q_component()),
                ("f", u.f_component()),
            ] {
                if let Some(want) = r.get(k) {
                    assert_eq!(v, want.as_str(), "{input}: {k}");
                }
            }
        }
        n += 1;
    }
    assert_eq!(n, 132);
}

/// Every pair of urn_equiv.jsonl: RFC 8141 section 3 (and the RFC 2141
/// section 6 examples, which RFC 8141 keeps: case of "urn" and the NID and
/// of %-hex ignored, the NSS otherwise octet by octet).
#[test]
fn published_equivalence_vectors() {
    let mut n = 0;
    for r in records(include_str!("data/urn_equiv.jsonl")) {
        let (a, b) = (r["a"].as_str().unwrap(), r["b"].as_str().unwrap());
        let (x, y) = (Urn::parse(a).unwrap(), Urn::parse(b).unwrap());
        assert_eq!(
            x.equivalent(&y, QueryRule::Drop),
            r["equivalent"] == true,
            "{a} ~ {b} ({})",
            r["source"]
        );
        assert_eq!(
            x.normalized(QueryRule::Drop) == y.normalized(QueryRule::Drop),
            r["equivalent"] == true
        );
        n += 1;
    }
    assert_eq!(n, 108);
}

const TABLE: [&str; 8] = [
    "URN:foo:a123,456",
    "urn:foo:a123,456",
    "urn:FOO:a123,456",
    "urn:foo:A123,456",
    "urn:foo:a123%2C456",
    "URN:FOO:a123%2c456",
    "urn:foo:a123,456?x=y",
    "urn:foo:a123,456#xyz",
];

/// Seed 004 section 5.1: "URNs 1, 2, 3 and 8 are all lexically
/// equivalent, and URN 7 is also lexically equivalent to these if step 5a
/// is applied, but this does not hold if step 5b above is applied
/// instead. URN 4 is not lexically equivalent to any of the other URNs of
/// the above set. URNs 5 and 6 are only lexically equivalent to each
/// other."
#[test]
fn seed_004_section_5_1_table() {
    let urns: Vec<Urn> = TABLE
        .iter()
        .map(|s| Urn::parse_with(Profile::UrnDraft03, s).unwrap())
        .collect();
    // The equivalence classes, by URN number (1 to 8), in table order.
    let classes = |rule: QueryRule| -> Vec<Vec<usize>> {
        let mut out: Vec<Vec<usize>> = Vec::new();
        for n in 1..=8 {
            match out
                .iter_mut()
                .find(|c| urns[c[0] - 1].equivalent(&urns[n - 1], rule))
            {
                Some(c) => c.push(n),
                None => out.push(vec![n]),
            }
        }
        out
    };
    assert_eq!(
        classes(QueryRule::Drop),
        vec![vec![1, 2, 3, 7, 8], vec![4], vec![5, 6]]
    );
    assert_eq!(
        classes(QueryRule::Reorder),
        vec![vec![1, 2, 3, 8], vec![4], vec![5, 6], vec![7]]
    );
    // Under RFC 8141, URN 7's "?x=y" is no query at all ("?+" and "?="
    // introduce its components): not a URN; the others group the same.
    assert!(Urn::parse(TABLE[6]).is_err());
    // RFC 8141 section 3: the r- and q-components never count, whichever
    // query rule is asked for (step 5b is the draft's).
    let with = Urn::parse("urn:foo:a123,456?+r?=q").unwrap();
    let without = Urn::parse("urn:foo:a123,456").unwrap();
    assert!(with.equivalent(&without, QueryRule::Reorder));
    assert_eq!(with.normalized(QueryRule::Reorder), "urn:foo:a123,456");
    let n: Vec<String> = TABLE
        .iter()
        .filter_map(|s| Urn::parse(s).ok())
        .map(|u| u.normalized(QueryRule::Drop))
        .collect();
    assert_eq!(
        n,
        [
            "urn:foo:a123,456",
            "urn:foo:a123,456",
            "urn:foo:a123,456",
            "urn:foo:A123,456",
            "urn:foo:a123%2C456",
            "urn:foo:a123%2C456",
            "urn:foo:a123,456"
        ]
    );
}

/// Seed 004 sections 2.3 to 2.3.2: the directives of a query, the
/// examples `s=I2U` and `s=I2L&c=ToC`, and the rule for a registered
/// keyword that appears twice; step 5b orders directives by keyword.
#[test]
fn seed_004_directives() {
    let d = Profile::UrnDraft03;
    let u = Urn::parse_with(d, "URN:ISBN:0-395-36341-1?s=I2L&c=ToC").unwrap();
    assert_eq!(
        u.directives().collect::<Vec<_>>(),
        [("s", "I2L"), ("c", "ToC")]
    );
    assert_eq!(u.q_component(), Some("s=I2L&c=ToC"));
    assert_eq!(
        u.normalized(QueryRule::Reorder),
        "urn:isbn:0-395-36341-1?c=ToC&s=I2L"
    );
    let v = Urn::parse_with(d, "urn:isbn:0-395-36341-1?c=ToC&s=I2L#x").unwrap();
    assert!(u.equivalent(&v, QueryRule::Reorder));
    let w = Urn::parse_with(d, "urn:isbn:0-395-36341-1?s=I2U").unwrap();
    assert!(!u.equivalent(&w, QueryRule::Reorder));
    assert!(u.equivalent(&w, QueryRule::Drop));
    // "Each registered <keywd> MUST NOT appear more than once ... a
    // resolver MUST ignore all query directives therein using the
    // offending <keywd>(s)"; unregistered ones are not bound by it.
    let x = Urn::parse_with(d, "urn:a1:b?s=I2L&c=x&s=I2C&k=1&k=2").unwrap();
    assert_eq!(
        x.effective_directives().collect::<Vec<_>>(),
        [("c", "x"), ("k", "1"), ("k", "2")]
    );
    // Keywords: ALPHA *( ["-"] (ALPHA / DIGIT) ); values hold "=", "?", "/".
    for ok in [
        "urn:a1:b?a-b=1",
        "urn:a1:b?k=",
        "urn:a1:b?k=a=b?c/d:@",
        "urn:a1:b?k1=v&k2=v",
    ] {
        assert!(Urn::parse_with(d, ok).is_ok(), "{ok}");
    }
    for bad in [
        "urn:a1:b?",
        "urn:a1:b?k",
        "urn:a1:b?-k=1",
        "urn:a1:b?k-=1",
        "urn:a1:b?a--b=1",
        "urn:a1:b?k=1&",
        "urn:a1:b?1k=1",
        "urn:a1:b?k=%zz",
    ] {
        assert!(Urn::parse_with(d, bad).is_err(), "{bad}");
    }
    // Percent-encoding in values is compared in one case, never decoded.
    let p = Urn::parse_with(d, "urn:a1:b?k=%2f").unwrap();
    let q = Urn::parse_with(d, "urn:a1:b?k=%2F").unwrap();
    assert!(p.equivalent(&q, QueryRule::Reorder));
}

/// Seed 004 section 2.1 against its Appendix B: the NID may not end with a
/// hyphen (Appendix B's `1*31(…)` would allow it; the normative section
/// decides, abnf/urn-draft-03.abnf note 2), and "urn" is reserved.
#[test]
fn seed_004_nid_rules() {
    let d = Profile::UrnDraft03;
    assert!(Urn::parse_with(d, "urn:ab-:x").is_err());
    assert!(Urn::parse_with(d, "urn:a-b:x").is_ok());
    for reserved in ["urn:urn:x", "urn:URN:x", "urn:uRn:x"] {
        let e = Urn::parse_with(d, reserved).unwrap_err();
        assert!(e.to_string().contains("reserved"), "{e}");
    }
    for fine in [
        "urn:urna:x",
        "urn:ur:x",
        "urn:urm:x",
        "urn:u-n:x",
        "urn:xrn:x",
        "urn:ur-n:x",
    ] {
        assert!(Urn::parse_with(d, fine).is_ok(), "{fine}");
    }
    // Section 2.2: NSS = 1*pchar, no "/" (RFC 8141 allows it after the first).
    assert!(Urn::parse_with(d, "urn:ab:c/d").is_err());
    assert!(Urn::parse("urn:ab:c/d").is_ok());
    assert!(Urn::parse("urn:ab:/d").is_err());
}

/// The NID rule as both documents write it in prose: 2 to 32 letters,
/// digits or hyphens, neither first nor last a hyphen (plus, in the draft,
/// not "urn").
fn nid_ok(nid: &str, draft: bool) -> bool {
    let b = nid.as_bytes();
    (2..=32).contains(&b.len())
        && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'-')
        && b[0] != b'-'
        && b[b.len() - 1] != b'-'
        && !(draft && nid.eq_ignore_ascii_case("urn"))
}

/// NIDs of every length from 0 to 34, with hyphens and other bytes at the
/// ends and inside, under both profiles.
#[test]
fn generated_nids_at_the_boundaries() {
    let mut rng = gen::Rng(0x0_8141);
    let alphabet = ["a", "Z", "0", "9", "-", "_", ".", "%41", "u", "r", "n", ":"];
    let mut tried = 0;
    for len in 0..=34 {
        for _ in 0..60 {
            let mut nid: String = (0..len)
                .map(|_| rng.pick(&["a", "Z", "0", "9", "-"]))
                .collect();
            if len > 0 && rng.chance(30) {
                // One odd byte somewhere.
                let at = rng.below(len);
                nid.replace_range(at..at + 1, rng.pick(&alphabet[4..]));
            }
            for (profile, draft) in [(Profile::Rfc8141, false), (Profile::UrnDraft03, true)] {
                let s = format!("urn:{nid}:x");
                let want = !nid.contains(':') && nid_ok(&nid, draft);
                let got = Urn::parse_with(profile, &s);
                if nid.contains(':') {
                    continue;
                }
                assert_eq!(got.is_ok(), want, "{s} under {profile:?}: {got:?}");
                if let Err(e) = got {
                    assert_eq!(e.error.part(), Some("nid"), "{s}: {e}");
                    assert!(e.to_string().contains("NID") && e.to_string().contains("at byte"));
                }
                tried += 1;
            }
        }
    }
    assert!(tried > 3000);
    // Exactly at the bounds.
    let n32 = "a".repeat(32);
    let n33 = "a".repeat(33);
    assert!(Urn::parse(&format!("urn:{n32}:x")).is_ok());
    assert!(Urn::parse(&format!("urn:{n33}:x")).is_err());
    assert!(Urn::parse("urn:ab:x").is_ok() && Urn::parse("urn:a:x").is_err());
}

/// The owned twin, FromStr and Display.
#[test]
fn owned_urns() {
    let b: UrnBuf = "urn:Example:x%2fy?+r".parse().unwrap();
    assert_eq!(b.to_string(), "urn:Example:x%2fy?+r");
    assert_eq!(b.as_ref().nid(), "Example");
    assert_eq!(b.as_ref().normalized(QueryRule::Drop), "urn:example:x%2Fy");
    assert!("urn:-x:y".parse::<UrnBuf>().is_err());
    assert!(
        Urn::parse_with(Profile::Rfc3986, "urn:ab:c").is_err(),
        "not a URN profile"
    );
}

/// Any bytes: an error or a URN, never a panic.
#[test]
fn arbitrary_input() {
    let mut rng = gen::Rng(99);
    for _ in 0..5000 {
        let v: Vec<u8> = (0..rng.below(40)).map(|_| rng.next() as u8).collect();
        let mut s = b"urn:".to_vec();
        s.extend_from_slice(&v);
        for p in [Profile::Rfc8141, Profile::UrnDraft03] {
            let _ = urilex::Parser::new().profile(p).parse_bytes(&s);
            if let Ok(t) = std::str::from_utf8(&s) {
                if let Ok(u) = Urn::parse_with(p, t) {
                    let _ = (
                        u.normalized(QueryRule::Reorder),
                        u.effective_directives().count(),
                    );
                }
            }
        }
    }
}
