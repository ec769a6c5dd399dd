//! Bug: under `rfc1738`, whose grammar has no RFC 3986 path (each scheme's
//! rule has path parts of its own: `fpath`, `hpath`, `urlpath`, ...),
//! `UriRef::component(Component::Path)` said `Some("")` while
//! `UriRef::span(Component::Path)` and the batch (`Batch::span`,
//! `Batch::component`) said `None`. Found in review. Fixed: a component's
//! text is the text of its span, so all say `None`; under every profile
//! with RFC 3986's path, all say `Some`, possibly empty.

use urilex::{Batch, Component, Parser, Profile};

fn agree(p: &Parser, text: &str) -> usize {
    let mut b = Batch::new();
    b.parse_lines(p, text.as_bytes());
    let mut checked = 0;
    for (i, line) in text.lines().enumerate() {
        let Ok(u) = p.parse(line) else { continue };
        for c in Component::ALL {
            let single = u.component(c);
            assert_eq!(single, u.span(c).map(|r| &line[r]), "{line} {c:?}");
            assert_eq!(b.span(i, c), u.span(c), "{line} {c:?}");
            let batch = b.component(i, c, text.as_bytes());
            assert_eq!(batch, single.map(str::as_bytes), "{line} {c:?}");
            checked += 1;
        }
    }
    checked
}

#[test]
fn path_is_absent_alike_under_rfc1738() {
    let p = Parser::new().profile(Profile::Rfc1738);
    let mut text = String::from(
        "mailto:a@b.example\nnews:comp.x\ntelnet://host\nhttp://host\nftp://h\nx-y:z\nfile://h/\n",
    );
    text.push_str(include_str!("../data/rfc1738-urls.txt"));
    assert!(agree(&p, &text) > 100);
    let u = p.parse("http://host").unwrap();
    assert_eq!(u.component(Component::Path), None);
}

#[test]
fn path_is_present_alike_under_rfc3986() {
    let p = Parser::new();
    let text = "http://host\nhttp://host/\nmailto:a@b\n?q\n#f\n\nurn:a:b\n";
    assert!(agree(&p, text) > 40);
    assert_eq!(
        p.parse("http://host").unwrap().component(Component::Path),
        Some("")
    );
}
