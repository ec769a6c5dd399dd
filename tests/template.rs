//! `Template::render_batch` (from a batch's records) writes what
//! `Template::render` (from a `UriRef`) writes, on every line of the URL
//! corpora and of the published parse vectors, for every template it
//! takes; and templates it does not take say so.

use urilex::template::Template;
use urilex::{Batch, Parser, UriRef};

fn corpus() -> Vec<u8> {
    let mut buf = Vec::new();
    buf.extend_from_slice(include_bytes!("../benches/data/kasztp.txt"));
    buf.extend_from_slice(include_bytes!("../benches/data/node_files.txt"));
    for l in include_str!("data/parse.jsonl").lines() {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        if let Some(s) = v["input"].as_str() {
            if !s.contains(['\n', '\r']) {
                buf.extend_from_slice(s.as_bytes());
                buf.push(b'\n');
            }
        }
    }
    // Long lines take the batch's wide records.
    let long = format!(
        "http://h/{}?{}#x\n",
        "a/".repeat(40_000),
        "q".repeat(70_000)
    );
    buf.extend_from_slice(long.as_bytes());
    buf.extend_from_slice(b"http://u:p@h:1/%0A%0d?a#b\nhttp://u@h:/?#\n//h\n?q\n#f\n\n");
    buf
}

#[test]
fn batch_rendering_is_rendering() {
    let buf = corpus();
    let mut batch = Batch::new();
    batch.parse_lines(&Parser::new(), &buf);
    let templates = [
        "{url}",
        "{scheme}|{user}|{password}|{host}|{port}|{path}|{query}|{fragment}",
        "{:scheme}|{:user}|{url:password}|{:host}|{:port}|{:path}|{:query}|{:fragment}",
        "{userinfo}|{authority}|{:userinfo}|{:authority}",
        "{scheme}://{userinfo+@}{host}{+:port}{path}{+?query}{+#fragment}",
        "[host][+:port]",
        "{must:host}",
        "{must:port}",
        "{host:nowww}|{:host:nowww}|{host:nowww+@}",
        #[cfg(feature = "psl")]
        "{host:registrable}|{host:suffix}|{host:sub}|{host:root}|{+@host:sub}|{must:host:registrable}",
    ];
    let mut valid = 0;
    for t in templates {
        for one_line in [false, true] {
            let t = Template::parse(t).unwrap().one_line(one_line);
            assert!(t.entry_ready());
            let (mut a, mut b) = (Vec::new(), Vec::new());
            for i in 0..batch.len() {
                let Ok(u) = batch.get(i, &buf) else {
                    continue;
                };
                valid += 1;
                a.clear();
                b.clear();
                let ra = t.render(&u, &mut a);
                let rb = t.render_batch(&batch, i, &buf, &mut b);
                assert_eq!(ra.is_ok(), rb.is_ok(), "{}", u.as_str());
                if ra.is_ok() {
                    assert_eq!(a, b, "{:?} on {}", t, u.as_str());
                }
            }
        }
    }
    assert!(valid > 1_000_000, "{valid}");
    // And each line parsed on its own gives the same.
    let t = Template::parse("{host}{+:port}|{path}").unwrap();
    let u = UriRef::parse("http://h:8/p").unwrap();
    let mut a = Vec::new();
    t.render(&u, &mut a).unwrap();
    assert_eq!(a, b"h:8|/p");
}

#[test]
fn what_batch_rendering_does_not_take() {
    for t in [
        "{query:a}",
        "{query-all:a}",
        "{path:1}",
        "{path:ext}",
        "{default:port}",
        "{strict:path}",
        "{options}",
        "{zoneid}",
        #[cfg(feature = "idna")]
        "{puny:host}",
    ] {
        assert!(!Template::parse(t).unwrap().entry_ready(), "{t}");
    }
}
