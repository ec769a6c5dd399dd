//! Edits and dedup normalization over every line of the URL corpora and
//! the parse vectors: `=` data always gives a valid reference (the
//! property the `edit` fuzz target checks on random data), and dedup
//! normalization is idempotent.

use urilex::edit::{Dedup, Editor, Edits};
use urilex::UriRef;

fn lines() -> Vec<String> {
    let mut v: Vec<String> = include_str!("../benches/data/kasztp.txt")
        .lines()
        .chain(
            include_str!("../benches/data/node_files.txt")
                .lines()
                .step_by(7),
        )
        .map(String::from)
        .collect();
    for l in include_str!("data/parse.jsonl").lines() {
        let r: serde_json::Value = serde_json::from_str(l).unwrap();
        if let Some(s) = r["input"].as_str() {
            v.push(s.to_string());
        }
    }
    v
}

/// Data with every kind of byte a component may not hold.
const DATA: &[&str] = &[
    "",
    "a b",
    "%",
    "%41",
    "?#[]@:/",
    "k=v&x",
    "é\u{0}\n",
    "//",
    "a:b",
    "[::1]",
    "+;,=",
];

#[test]
fn encoded_data_gives_valid_references() {
    let mut editor = Editor::new();
    let mut out = String::new();
    let mut applied = 0;
    let all = lines();
    for (n, line) in all.iter().enumerate() {
        let Ok(u) = UriRef::parse(line) else { continue };
        let data = DATA[n % DATA.len()];
        for spec in ["user", "password", "host", "path", "query", "fragment"] {
            let e = Edits::new().set(&format!("{spec}={data}")).unwrap();
            match editor.apply(&e, &u, &mut out) {
                Ok(()) => applied += 1,
                Err(err) => assert!(
                    err.0.contains("no authority"),
                    "{line:?} {spec}={data:?}: {err}"
                ),
            }
        }
        for e in [
            Edits::new().append(&format!("path={data}")).unwrap(),
            Edits::new().append(&format!("query={data}")).unwrap(),
            Edits::new()
                .replace_append(data)
                .sort_query(true)
                .qtrim("a*"),
        ] {
            editor.apply(&e, &u, &mut out).unwrap();
            UriRef::parse(&out).unwrap();
        }
    }
    assert!(applied > 100_000, "{applied}");
}

#[test]
fn dedup_is_idempotent() {
    let d = Dedup::new().strip_tracking();
    let mut editor = Editor::new();
    let (mut once, mut twice) = (String::new(), String::new());
    let mut n = 0;
    for line in lines() {
        let Ok(u) = UriRef::parse(&line) else {
            continue;
        };
        if d.apply(&mut editor, &u, &mut once).is_err() {
            continue;
        }
        let v = UriRef::parse(&once).unwrap();
        d.apply(&mut editor, &v, &mut twice).unwrap();
        assert_eq!(once, twice, "{line}");
        n += 1;
    }
    assert!(n > 50_000, "{n}");
}
