//! Reference resolution: RFC 3986 section 5.4 (all 42 examples), the
//! Appendix C tables of seed 000 (draft-fielding-uri-rfc2396bis-00) and seed
//! 001 (draft-fielding-url-syntax-05) under their profiles, and the published
//! vectors of tests/data/resolve.jsonl.

#[path = "support/counting.rs"]
mod counting;
#[path = "support/expect.rs"]
mod expect;

use serde_json::Value;
use urilex::{DotAboveRoot, Parser, Profile, ResolveError, ResolveOptions, UriRef};

use expect::BASE;

fn resolve(profile: Profile, base: &str, r: &str, opts: ResolveOptions) -> Result<String, String> {
    let p = Parser::new().profile(profile);
    let base = p.parse(base).map_err(|e| format!("base: {e}"))?;
    let r = p.parse(r).map_err(|e| format!("ref: {e}"))?;
    base.resolve_with(&r, opts)
        .map(|u| u.to_string())
        .map_err(|e| e.to_string())
}

fn check_table(profile: Profile, table: &[(&str, &str)], opts: ResolveOptions) {
    let mut bad = Vec::new();
    for (r, want) in table {
        // "(current document)" is the base itself; "#s" adds the fragment.
        let want = want.replace("(current document)", BASE);
        match resolve(profile, BASE, r, opts) {
            Ok(got) if got == want => {
                // The result is a valid reference of the profile.
                assert!(Parser::new().profile(profile).parse(&got).is_ok(), "{got}");
            }
            got => bad.push(format!("{r:?}: got {got:?}, want {want:?}")),
        }
    }
    assert!(bad.is_empty(), "{}:\n{}", profile.name(), bad.join("\n"));
}

/// RFC 3986 5.4.1 and 5.4.2.
#[test]
fn rfc3986_section_5_4() {
    let normal = expect::RFC3986_NORMAL;
    let abnormal = expect::RFC3986_ABNORMAL;
    assert_eq!(normal.len() + abnormal.len(), 42);
    check_table(Profile::Rfc3986, &normal, ResolveOptions::new());
    check_table(Profile::Rfc3986, &abnormal, ResolveOptions::new());
    // 5.4.2: "http:g" is "http://a/b/c/g" for backward-compatible parsers.
    check_table(
        Profile::Rfc3986,
        &[("http:g", "http://a/b/c/g")],
        ResolveOptions::new().strict(false),
    );
}

/// Seed 000 (draft-fielding-uri-rfc2396bis-00) Appendix C, every row.
#[test]
#[cfg(feature = "rfc2396bis-00")]
fn seed_000_appendix_c() {
    let table = expect::SEED_000;
    check_table(Profile::Rfc2396bis00, &table, ResolveOptions::new());
    // "http:g = http://a/b/c/g ; for backwards compatibility"
    check_table(
        Profile::Rfc2396bis00,
        &[("http:g", "http://a/b/c/g")],
        ResolveOptions::new().strict(false),
    );
}

/// Seed 001 (draft-fielding-url-syntax-05) Appendix C, every resolution row.
/// (Its last line, "http://a/../b/c = http://a/b/c", shows what "some
/// parsers inappropriately" do to request paths; it is not a resolution.)
#[test]
#[cfg(feature = "url-draft-05")]
fn seed_001_appendix_c() {
    let table = expect::SEED_001;
    check_table(Profile::UrlDraft05, &table, ResolveOptions::new());
}

#[test]
fn dot_above_root_options() {
    let o = ResolveOptions::new();
    assert_eq!(
        resolve(Profile::Rfc3986, BASE, "../../../g", o).unwrap(),
        "http://a/g"
    );
    let keep = o.dot_above_root(DotAboveRoot::Keep);
    assert_eq!(
        resolve(Profile::Rfc3986, BASE, "../../../g", keep).unwrap(),
        "http://a/../g"
    );
    assert_eq!(
        resolve(Profile::Rfc3986, BASE, "../../../../g", keep).unwrap(),
        "http://a/../../g"
    );
    assert_eq!(
        resolve(Profile::Rfc3986, BASE, "/../g", keep).unwrap(),
        "http://a/../g"
    );
    let err = o.dot_above_root(DotAboveRoot::Error);
    assert_eq!(
        resolve(Profile::Rfc3986, BASE, "../../../g", err),
        Err(ResolveError::AboveRoot.to_string())
    );
    assert_eq!(
        resolve(Profile::Rfc3986, BASE, "../../g", err).unwrap(),
        "http://a/g"
    );
    // The draft's profile keeps by default and can remove.
    #[cfg(feature = "rfc2396bis-00")]
    {
        let rm = o.dot_above_root(DotAboveRoot::Remove);
        assert_eq!(
            resolve(Profile::Rfc2396bis00, BASE, "../../../g", rm).unwrap(),
            "http://a/g"
        );
    }
}

#[test]
fn base_must_be_absolute_and_its_fragment_is_ignored() {
    let o = ResolveOptions::new();
    assert_eq!(
        resolve(Profile::Rfc3986, "/a/b", "c", o),
        Err(ResolveError::BaseNotAbsolute.to_string())
    );
    assert_eq!(
        resolve(Profile::Rfc3986, "http://a/b#frag", "c", o).unwrap(),
        "http://a/c"
    );
    assert_eq!(
        resolve(Profile::Rfc3986, "http://a/b#frag", "", o).unwrap(),
        "http://a/b"
    );
    // RFC 3986 5.2.2-5.2.3 with a rootless base (some peers refuse it).
    assert_eq!(
        resolve(Profile::Rfc3986, "foo:bar", "baz", o).unwrap(),
        "foo:baz"
    );
    assert_eq!(
        resolve(Profile::Rfc3986, "foo:bar", "?baz", o).unwrap(),
        "foo:bar?baz"
    );
}

/// Resolving into a buffer with room allocates nothing per call: every RFC
/// 3986 5.4 example and the published vectors' pairs, strict, non-strict
/// and keeping ".." above the root, counted by the test allocator.
#[test]
fn resolve_into_allocates_nothing_per_call() {
    let base = UriRef::parse(BASE).unwrap();
    let refs: Vec<UriRef> = expect::RFC3986_NORMAL
        .iter()
        .chain(&expect::RFC3986_ABNORMAL)
        .map(|(r, _)| UriRef::parse(r).unwrap())
        .collect();
    let text = include_str!("data/resolve.jsonl");
    let records: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let pairs: Vec<(UriRef, UriRef)> = records
        .iter()
        .filter_map(|r| {
            let b = UriRef::parse(r["base"].as_str()?).ok()?;
            Some((b, UriRef::parse(r["ref"].as_str()?).ok()?))
        })
        .filter(|(b, _)| b.is_absolute())
        .collect();
    assert!(pairs.len() > 20, "{}", pairs.len());
    let mut out = String::with_capacity(4096);
    let before = counting::allocs();
    for r in &refs {
        urilex::resolve_into(&base, r, ResolveOptions::new(), &mut out).unwrap();
    }
    for (b, r) in &pairs {
        for opts in [
            ResolveOptions::new(),
            ResolveOptions::new().strict(false),
            ResolveOptions::new().dot_above_root(DotAboveRoot::Keep),
        ] {
            let _ = urilex::resolve_into(b, r, opts, &mut out);
        }
    }
    assert_eq!(counting::allocs() - before, 0);
}

#[test]
fn resolve_into_reuses_the_buffer() {
    let base = UriRef::parse(BASE).unwrap();
    let r = UriRef::parse("../g?x#y").unwrap();
    let mut out = String::with_capacity(64);
    let ptr = out.as_ptr();
    for _ in 0..3 {
        urilex::resolve_into(&base, &r, ResolveOptions::new(), &mut out).unwrap();
        assert_eq!(out, "http://a/b/g?x#y");
    }
    assert_eq!(out.as_ptr(), ptr, "no reallocation");
}

#[test]
fn published_resolve_vectors() {
    let mut bad = Vec::new();
    let mut n = 0;
    for line in include_str!("data/resolve.jsonl").lines() {
        let r: Value = serde_json::from_str(line).unwrap();
        n += 1;
        let (base, reference) = (r["base"].as_str().unwrap(), r["ref"].as_str().unwrap());
        let want = match expect::resolve_expectation(&r) {
            Some(w) => w,
            None => Ok(r["expected"].as_str().expect("expected").to_string()),
        };
        let got = resolve(Profile::Rfc3986, base, reference, ResolveOptions::new());
        let ok = match (&got, &want) {
            (Ok(g), Ok(w)) => g == w,
            (Err(_), Err(())) => true,
            _ => false,
        };
        if !ok {
            bad.push(format!(
                "{base:?} + {reference:?}: got {got:?}, want {want:?} ({})",
                r["source"]
            ));
        }
    }
    assert_eq!(n, 1021);
    assert!(
        bad.is_empty(),
        "{} failures:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[path = "support/gen.rs"]
mod gen;

/// For generated pairs and corpus pairs: target = resolve(base, r), then
/// resolve(base, relativize(base, target)) == target, and the relative form
/// is never longer than the target.
#[test]
fn relativize_round_trips() {
    let mut rng = gen::Rng(0xBA5E);
    let corpus: Vec<&str> = include_str!("../benches/data/kasztp.txt")
        .lines()
        .chain(include_str!("../benches/data/node_files.txt").lines())
        .collect();
    let mut checked = 0;
    let mut shorter = 0;
    for i in 0..40_000 {
        let (base_text, ref_text) = if i % 2 == 0 {
            (
                corpus[rng.below(corpus.len())].to_string(),
                corpus[rng.below(corpus.len())].to_string(),
            )
        } else {
            let b = String::from_utf8_lossy(&gen::piece(&mut rng)).into_owned();
            let r = String::from_utf8_lossy(&gen::input(&mut rng)).into_owned();
            (b, r)
        };
        let (Ok(base), Ok(r)) = (UriRef::parse(&base_text), UriRef::parse(&ref_text)) else {
            continue;
        };
        if base.scheme().is_none() {
            continue;
        }
        // Also targets sharing the base's authority: the base's own path with the ref's.
        for reference in [r, UriRef::parse(r.path()).unwrap_or(r)] {
            let Ok(target) = base.resolve(&reference) else {
                continue;
            };
            let rel = base.relativize(&target.as_ref());
            let back = base.resolve(&rel.as_ref()).expect("resolves");
            assert_eq!(
                back.as_str(),
                target.as_str(),
                "base {base_text:?} target {:?} via {:?}",
                target.as_str(),
                rel.as_str()
            );
            assert!(rel.as_str().len() <= target.as_str().len());
            if rel.as_str().len() < target.as_str().len() {
                shorter += 1;
            }
            checked += 1;
        }
    }
    assert!(
        checked > 30_000 && shorter > 10_000,
        "checked {checked}, shorter {shorter}"
    );
}

/// Resolution against two independent implementations, oxiri and
/// iri-string, on corpus pairs and on generated pairs heavy with dot
/// segments, empty segments, colons and rootless bases. Where a peer
/// refuses an input urilex accepts, or where a peer is known to depart from
/// RFC 3986 (see the cases below), the RFC text decides and the pair is
/// counted, not compared.
#[test]
fn resolution_agrees_with_oxiri_and_iri_string() {
    use iri_string::types::{UriAbsoluteStr, UriReferenceStr};
    let mut rng = gen::Rng(0xD07);
    let corpus: Vec<&str> = include_str!("../benches/data/kasztp.txt")
        .lines()
        .filter(|l| UriRef::parse(l).is_ok())
        .collect();
    let segs = [
        "", ".", "..", "a", "b;p", "c:d", "%2E", ".e", "e.", "..f", "g?h", "i#j", "@",
    ];
    let path = |rng: &mut gen::Rng, rooted: bool| {
        let mut p = String::from(if rooted { "/" } else { "" });
        for k in 0..rng.below(6) {
            if k > 0 {
                p.push('/');
            }
            p.push_str(segs[rng.below(segs.len())]);
        }
        p
    };
    let mut pairs: Vec<(String, String)> = corpus
        .windows(2)
        .step_by(3)
        .map(|w| (w[0].to_string(), w[1].to_string()))
        .collect();
    for _ in 0..60_000 {
        let base = match rng.below(4) {
            0 => format!("http://h{}", path(&mut rng, true)),
            1 => format!("s:{}", path(&mut rng, true)),
            2 => format!("s:{}", path(&mut rng, false)),
            _ => format!("s://{}?q", path(&mut rng, true)),
        };
        let reference = match rng.below(5) {
            0 => path(&mut rng, true),
            1 => format!("//x{}", path(&mut rng, true)),
            2 => format!("{}?y#z", path(&mut rng, false)),
            _ => path(&mut rng, false),
        };
        pairs.push((base, reference));
    }
    let (mut compared, mut refused) = (0, 0);
    let mut bad = Vec::new();
    for (base, reference) in &pairs {
        let (Ok(b), Ok(r)) = (UriRef::parse(base), UriRef::parse(reference)) else {
            continue;
        };
        let Ok(got) = b.resolve(&r) else { continue };
        let got = got.as_str();
        // Each peer's answer, or None when it refuses the pair.
        let mut compare = |peer: &str, theirs: Option<String>| match theirs {
            Some(t) => {
                compared += 1;
                if t != got {
                    bad.push(format!(
                        "{peer}: {base:?} + {reference:?}: {got:?} vs {t:?}"
                    ));
                }
            }
            None => refused += 1,
        };
        // oxiri: RFC 3986 5.2 with 5.2.4 as written.
        let ox = match (
            oxiri::Iri::parse(base.as_str()),
            oxiri::IriRef::parse(reference.as_str()),
        ) {
            (Ok(ob), Ok(or)) => {
                let mut ox = String::new();
                ob.resolve_into(&or, &mut ox).ok().map(|()| ox)
            }
            _ => None,
        };
        compare("oxiri", ox);
        // iri-string: the base without its fragment (5.2.1 ignores it).
        // It also removes "%2E" and "%2E%2E" segments as dot segments;
        // RFC 3986 5.2.4 removes the literal "." and ".." segments only (and
        // 6.2.2.3 decodes "%2E" first only when normalizing), so such
        // pairs are not compared with it.
        let b_abs = base.split('#').next().unwrap_or("");
        let pct_dot = |s: &str| s.to_ascii_uppercase().contains("%2E");
        let is = if pct_dot(base) || pct_dot(reference) {
            None
        } else {
            match (
                UriAbsoluteStr::new(b_abs),
                UriReferenceStr::new(reference.as_str()),
            ) {
                (Ok(ib), Ok(ir)) => Some(ir.resolve_against(ib).to_string()),
                _ => None,
            }
        };
        compare("iri-string", is);
    }
    eprintln!(
        "{compared} comparisons, {refused} refused by a peer, {} differ",
        bad.len()
    );
    assert!(compared > 100_000, "{compared}");
    assert!(
        bad.is_empty(),
        "{} differences:\n{}",
        bad.len(),
        bad[..bad.len().min(40)].join("\n")
    );
}
