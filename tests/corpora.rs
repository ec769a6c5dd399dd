//! The RFC 3986 reject counts on the URL corpora: the lines on which
//! fluent-uri, iri-string and uriparser all agree that they are not
//! URI-references (see benches/data/README.md).

use std::path::Path;

fn rejects(text: &[u8]) -> (usize, usize) {
    let mut total = 0;
    let mut bad = 0;
    for line in text.split(|&b| b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.is_empty() {
            continue;
        }
        total += 1;
        if urilex::UriRef::parse_bytes(line).is_err() {
            bad += 1;
        }
    }
    (total, bad)
}

#[test]
fn bundled_corpora() {
    assert_eq!(
        rejects(include_bytes!("../benches/data/kasztp.txt")),
        (48_010, 341)
    );
    assert_eq!(
        rejects(include_bytes!("../benches/data/node_files.txt")),
        (43_415, 0)
    );
}

/// The two corpora that may not be copied, from `../shared` beside the
/// repo. Under CI (`CI` set and not `false`), where `../shared` is always
/// there, a missing corpus fails the test instead of passing unchecked;
/// elsewhere it is skipped with a note.
#[test]
fn shared_corpora_when_present() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/urls");
    let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0");
    for (name, lines, want) in [("isaacs_files.txt", 6_207, 0), ("userbait.txt", 11_430, 52)] {
        match std::fs::read(dir.join(name)) {
            Ok(text) => assert_eq!(rejects(&text), (lines, want), "{name}"),
            Err(e) if ci => panic!(
                "CI is set but {} cannot be read: {e}",
                dir.join(name).display()
            ),
            Err(_) => eprintln!("skipping {name}: ../shared/data/urls not present"),
        }
    }
}
