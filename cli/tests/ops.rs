//! The operations end to end: `get`, `params`, `keys`, `values`,
//! `--unique`, `--count`, on plain lines and on the sample logs. Expected
//! values are written by hand from RFC 3986's examples (section 1.1.2,
//! section 3) and the sample files.

mod common;

use std::collections::BTreeMap;
use std::io::Write;

use common::{text, urilex};

/// RFC 3986 section 1.1.2's examples.
const EXAMPLES: &str = "ftp://ftp.is.co.za/rfc/rfc1808.txt
http://www.ietf.org/rfc/rfc2396.txt
ldap://[2001:db8::7]/c=GB?objectClass?one
mailto:John.Doe@example.com
news:comp.infosystems.www.servers.unix
tel:+1-816-555-1212
telnet://192.0.2.16:80/
urn:oasis:names:specification:docbook:dtd:xml:4.1.2
";

#[test]
fn get_writes_one_line_per_record() {
    let (code, out, err) = text(
        &[
            "get",
            "{scheme}|{host}|{port}|{path}|{query}|{path:-1}|{default:port}",
        ],
        EXAMPLES,
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "ftp|ftp.is.co.za||/rfc/rfc1808.txt||rfc1808.txt|21
http|www.ietf.org||/rfc/rfc2396.txt||rfc2396.txt|80
ldap|[2001:db8::7]||/c=GB|objectClass?one|c=GB|389
mailto|||John.Doe@example.com||John.Doe@example.com|
news|||comp.infosystems.www.servers.unix||comp.infosystems.www.servers.unix|
tel|||+1-816-555-1212||+1-816-555-1212|
telnet|192.0.2.16|80|/|||80
urn|||oasis:names:specification:docbook:dtd:xml:4.1.2||oasis:names:specification:docbook:dtd:xml:4.1.2|
"
    );
}

#[test]
fn invalid_lines_give_empty_lines_and_a_message() {
    let (code, out, err) = text(
        &["get", "<{host}>"],
        "http://a/\nhttp://b c/\n\nhttp://d/\n",
    );
    assert_eq!(out, "<a>\n\n<>\n<d>\n");
    assert_eq!(code, 1);
    assert!(err.contains("-:2: invalid character ' '"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    // Bytes that are not UTF-8 and NUL: still one line each.
    let (code, out, err) = urilex(&["get", "{path}"], b"/a\xff\n/b\0\n/%00%0A\n");
    assert_eq!(code, 1);
    assert_eq!(out, b"\n\n/\0%0A\n");
    assert!(err.contains("-:1:") && err.contains("-:2:"), "{err}");
    // Line numbers start again in each input.
    let dir = std::env::temp_dir().join(format!("urilex-ops-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (a, b) = (dir.join("a.txt"), dir.join("b.txt"));
    std::fs::write(&a, "http://a/\nhttp://b c/\nhttp://d/\n").unwrap();
    std::fs::write(&b, "http://e f/\nhttp://g/\n").unwrap();
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    for threads in ["1", "2"] {
        let (code, out, err) = text(&["get", "{host}", "--threads", threads, a, b], "");
        assert_eq!((code, out.as_str()), (1, "a\n\nd\n\ng\n"));
        assert!(
            err.contains(&format!("{a}:2: ")) && err.contains(&format!("{b}:1: ")),
            "{err}"
        );
        let (_, _, err) = text(&["keys", "--count", "--threads", threads, a, b], "");
        assert!(
            err.contains(&format!("{a}:2: ")) && err.contains(&format!("{b}:1: ")),
            "{err}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
    // must: and strict: failures are errors of their line.
    let (code, out, err) = text(
        &["get", "{must:port}{strict:path}"],
        "http://h:1/%FF\nhttp://h/\nhttp://h:2/ok\n",
    );
    assert_eq!((code, out.as_str()), (1, "\n\n2/ok\n"));
    assert!(
        err.contains("-:1: path decodes") && err.contains("-:2: no port (must:)"),
        "{err}"
    );
}

#[test]
fn templates_and_prefixes() {
    let u =
        "https://user:pw@Sub.Example.CO.UK:8443/a%20b/c.tar.gz?id=1&tag=x&tag=y%26z&q=a+b#frag\n";
    let cases = [
        ("{url}", u.trim_end()),
        ("{user}:{password}@{host}", "user:pw@Sub.Example.CO.UK"),
        (
            "{path}|{:path}|{url:path}",
            "/a b/c.tar.gz|/a%20b/c.tar.gz|/a%20b/c.tar.gz",
        ),
        (
            "{query:tag}|{query-all:tag}|{query:q}|{query:none}",
            "x|x y&z|a+b|",
        ),
        (
            "{path:1}|{path:2}|{path:-1}|{path:ext}",
            "a b|c.tar.gz|c.tar.gz|gz",
        ),
        (
            "{host:registrable}|{host:suffix}|{host:sub}|{host:root}",
            "example.co.uk|co.uk|sub|example",
        ),
        (
            "{userinfo+@}{host}{+:port}{+?query:none}{+#fragment}",
            "user:pw@Sub.Example.CO.UK:8443#frag",
        ),
        ("[scheme]\\t[port]\\n", "https\t8443\n"),
        ("{puny:host}", "sub.example.co.uk"),
        ("{options}|{zoneid}", "|"),
    ];
    for (t, want) in cases {
        let (code, out, err) = text(&["get", t], u);
        assert_eq!(
            (code, out.as_str()),
            (0, format!("{want}\n").as_str()),
            "{t}: {err}"
        );
    }
    // unfurl's syntax.
    let (code, out, _) = text(
        &["get", "--percent", "%s|%d|%S|%r|%t|%P|%p|%e|%q|%f|%a|%%"],
        u,
    );
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "https|Sub.Example.CO.UK|sub|example|co.uk|8443|/a%20b/c.tar.gz|gz|id=1&tag=x&tag=y%26z&q=a+b|frag|user:pw@Sub.Example.CO.UK:8443|%\n"
    );
    // A bad template is a usage error naming the offset.
    let (code, _, err) = text(&["get", "{hots}"], u);
    assert_eq!(code, 2);
    assert!(err.contains("unknown field `hots` at byte 1"), "{err}");
}

#[test]
fn public_suffix_sections() {
    let input = "https://me.github.io/\nhttp://www.ck/\nhttp://a.b.ck/\nhttp://192.0.2.1/\nhttp://[::1]/\nhttp://intranet/\nhttp://EXAMPLE.COM./\nhttp://xn--85x722f.xn--55qx5d.cn/\n";
    let (_, all, _) = text(&["get", "{host:registrable}|{host:suffix}"], input);
    assert_eq!(
        all,
        "me.github.io|github.io\nwww.ck|ck\na.b.ck|b.ck\n|\n|\n|\nexample.com|com\nxn--85x722f.xn--55qx5d.cn|xn--55qx5d.cn\n"
    );
    let (_, icann, _) = text(
        &["get", "--psl", "icann", "{host:registrable}|{host:suffix}"],
        input,
    );
    assert_eq!(icann.lines().next(), Some("github.io|io"));
    let (_, idn, _) = text(
        &["get", "{idn:host:registrable}"],
        "http://xn--85x722f.xn--55qx5d.cn/\n",
    );
    assert_eq!(idn, "食狮.公司.cn\n");
}

#[test]
fn params_rows() {
    let input =
        "http://h/?a=1&b=&c&=v&a=2%203&d=%00&e=%FF&f=x+y\nhttp://h/\nhttp://h/?\nnot a uri\n";
    let (code, out, err) = urilex(&["params"], input.as_bytes());
    assert_eq!(code, 1, "{err}");
    assert_eq!(
        out,
        b"1\ta\t1\ta\t1
1\tb\t\tb\t
1\tc\t\\N\tc\t\\N
1\t\tv\t\tv
1\ta\t2%203\ta\t2 3
1\td\t%00\td\t\0
1\te\t%FF\te\t\xff
1\tf\tx+y\tf\tx+y
"
        .as_slice()
    );
    assert!(err.contains("-:4:"), "{err}");
    let (_, out, _) = text(
        &["params", "--format", "jsonl", "--decode", "form"],
        "http://h/?f=x+y&c\n",
    );
    assert_eq!(
        out,
        "{\"line\":1,\"key\":\"f\",\"value\":\"x+y\",\"key_decoded\":\"f\",\"value_decoded\":\"x y\"}
{\"line\":1,\"key\":\"c\",\"value\":null,\"key_decoded\":\"c\",\"value_decoded\":null}
"
    );
    let (_, out, _) = text(
        &["params", "--format", "csv", "--query-separator", ";"],
        "http://h/?a=1;b=2&c\n",
    );
    assert_eq!(
        out,
        "line,key,value,key_decoded,value_decoded\n1,a,1,a,1\n1,b,2&c,b,2&c\n"
    );
    let (_, out, _) = text(&["keys"], "http://h/?a=1&b&a=2\nhttp://h/?%41=x\n");
    assert_eq!(out, "a\nb\na\nA\n");
    let (_, out, _) = text(&["values", "--decode", "none"], "http://h/?a=1&b&a=%41\n");
    assert_eq!(out, "1\n%41\n");
    // Binary formats are written (and refused on a terminal, not tested here).
    let (code, out, _) = urilex(&["params", "--format", "parquet"], input.as_bytes());
    assert_eq!(code, 1);
    assert!(out.starts_with(b"PAR1") && out.ends_with(b"PAR1"));
    let (_, out, _) = urilex(&["keys", "--format", "arrow"], input.as_bytes());
    assert!(out.len() > 100);
}

/// `--count` is `sort | uniq -c` of the plain output (of the valid lines),
/// `--unique` the first occurrence of each, in order; with any number of
/// threads.
#[test]
fn counts_match_sort_uniq() {
    let mut runs: Vec<Vec<String>> = [
        &["get", "{host}", "samples/requests.txt"][..],
        &["get", "{host:registrable}", "samples/requests.txt"],
        &[
            "get",
            "--input",
            "combined",
            "--field",
            "referer",
            "{host}",
            "samples/access.log",
        ],
        &[
            "get",
            "--input",
            "combined",
            "{path:1}",
            "samples/access.log",
        ],
        &["keys", "samples/requests.txt"],
        &["values", "samples/requests.txt"],
    ]
    .iter()
    .map(|a| a.iter().map(|s| s.to_string()).collect())
    .collect();
    // Every URL corpus: the two in the repository, and the two more of
    // ../shared/data/urls when it is there (not copied: unknown licence).
    let mut corpora = vec![
        "benches/data/kasztp.txt".to_string(),
        "benches/data/node_files.txt".to_string(),
    ];
    for extra in ["isaacs_files", "userbait"] {
        let p = format!("../shared/data/urls/{extra}.txt");
        if std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
            .join(&p)
            .exists()
        {
            corpora.push(p);
        }
    }
    for c in &corpora {
        for t in ["{host}", "{host:registrable}", "{scheme}"] {
            runs.push(vec!["get".into(), t.into(), c.clone()]);
        }
        runs.push(vec!["keys".into(), c.clone()]);
    }
    for args in &runs {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let args = &args[..];
        let (_, plain, _) = urilex(args, b"");
        let lines: Vec<&[u8]> = plain.split(|&b| b == b'\n').collect();
        let lines = &lines[..lines.len() - 1];
        let mut want: BTreeMap<&[u8], u64> = BTreeMap::new();
        let mut first = Vec::new();
        for l in lines {
            let n = want.entry(l).or_insert(0);
            if *n == 0 {
                first.push(*l);
            }
            *n += 1;
        }
        // Invalid lines print empty lines in `get` but are not counted.
        let (_, _, err) = urilex(args, b"");
        let bad = err.lines().filter(|l| l.starts_with("urilex: ")).count() as u64;
        if bad > 0 && args[0] == "get" {
            *want
                .get_mut(&b""[..])
                .expect("empty lines for the invalid ones") -= bad;
            want.retain(|_, n| *n > 0);
        }
        let mut sorted: Vec<(&[u8], u64)> = want.into_iter().collect();
        sorted.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        for threads in ["1", "2", "3"] {
            let mut a: Vec<&str> = args.to_vec();
            a.extend(["--count", "--threads", threads]);
            let (_, got, _) = urilex(&a, b"");
            let mut expect = Vec::new();
            for (v, n) in &sorted {
                expect.extend_from_slice(v);
                expect.extend_from_slice(format!("\t{n}\n").as_bytes());
            }
            assert_eq!(
                String::from_utf8_lossy(&got),
                String::from_utf8_lossy(&expect),
                "{a:?}"
            );
            let mut a: Vec<&str> = args.to_vec();
            a.extend(["--unique", "--threads", threads]);
            let (_, got, _) = urilex(&a, b"");
            // The order of first occurrence; an empty value (which
            // invalid lines also print in `get`) is compared as present
            // or not.
            let got_lines: Vec<&[u8]> = got.split(|&b| b == b'\n').collect();
            let got_lines = &got_lines[..got_lines.len() - 1];
            let nonempty = |ls: &[&[u8]]| -> Vec<Vec<u8>> {
                ls.iter()
                    .filter(|l| !l.is_empty())
                    .map(|l| l.to_vec())
                    .collect()
            };
            assert_eq!(nonempty(got_lines), nonempty(&first), "{a:?}");
            assert_eq!(
                got_lines.iter().any(|l| l.is_empty()),
                sorted.iter().any(|(v, _)| v.is_empty()),
                "{a:?}"
            );
        }
    }
    // --top and a table format.
    let (_, out, _) = text(
        &["keys", "--top", "2", "--format", "csv"],
        "http://h/?a&b&a&c&b&a\n",
    );
    assert_eq!(out, "key,count\na,3\nb,2\n");
}

#[test]
fn one_thread_or_many_give_the_same_rows() {
    for args in [
        &["params", "--format", "jsonl", "samples/requests.txt"][..],
        &[
            "get",
            "--input",
            "combined",
            "{url}|{host:registrable}",
            "samples/access.log",
        ][..],
    ] {
        let (_, one, _) = urilex(&[args, &["--threads", "1"]].concat(), b"");
        let (_, two, _) = urilex(&[args, &["--threads", "2"]].concat(), b"");
        assert_eq!(one, two);
        assert!(!one.is_empty());
    }
}

#[test]
fn edit_lines() {
    let input =
        "https://curl.se/we/are.html?utm_source=x&b=2&A=1#f\nnot a uri\nmailto:a@b\nhttp://h\n";
    let (code, out, err) = text(
        &[
            "edit",
            "--qtrim",
            "utm_*",
            "--sort-query",
            "--set",
            "port=8080",
            "--append",
            "path=new seg",
        ],
        input,
    );
    assert_eq!(code, 1);
    assert_eq!(
        out,
        "https://curl.se:8080/we/are.html/new%20seg?A=1&b=2#f\n\n\nhttp://h:8080/new%20seg\n"
    );
    assert!(
        err.contains("-:2: invalid character")
            && err.contains("-:3: port: the reference has no authority"),
        "{err}"
    );
    let (code, out, _) = text(&["edit", "--redirect", "../g?y"], "http://a/b/c/d;p?q\n");
    assert_eq!((code, out.as_str()), (0, "http://a/b/g?y\n"));
    let (_, out, _) = text(
        &["edit", "--replace-append", "page=2", "--format", "csv"],
        "http://h/?page=1&page=3\nhttp://h/\n",
    );
    assert_eq!(out, "line,value\n1,http://h/?page=2\n2,http://h/?page=2\n");
    let (code, _, err) = text(&["edit", "--set", "zoneid=x"], "");
    assert_eq!(code, 2);
    assert!(err.contains("zoneid"), "{err}");
}

#[test]
fn dedup_normalization() {
    let input = "HTTP://Example.COM:80/a/./b?utm_source=x&z=1&%61=2#top\nhttp://example.com/a/b?a=2&z=1\nhttp://example.com/a/b?z=1&a=2&fbclid=9\n";
    let (code, out, _) = text(&["normalize", "--dedup", "--strip-tracking"], input);
    assert_eq!(code, 0);
    assert_eq!(out, "http://example.com/a/b?a=2&z=1\n".repeat(3));
    // Plain normalize is unchanged.
    let (_, out, _) = text(&["normalize"], input);
    assert_eq!(
        out.lines().next(),
        Some("http://example.com:80/a/b?utm_source=x&z=1&a=2#top")
    );
    let (_, out, _) = text(
        &["normalize", "--strip-params", "z,utm_*", "--drop-fragment"],
        input,
    );
    assert_eq!(out.lines().next(), Some("http://example.com:80/a/b?a=2"));
}

#[test]
fn hierarchy_levels() {
    let (_, out, _) = text(&["hierarchy"], "https://example.com/a/b?c=1\nmailto:x@y\n");
    assert_eq!(
        out,
        "https://example.com/\nhttps://example.com/a/\nhttps://example.com/a/b?\nhttps://example.com/a/b?c=1\nmailto:x@y\n"
    );
    let (_, out, _) = text(
        &["hierarchy", "--path-only", "--count"],
        "https://example.com/a/b\nhttps://example.com/a/c\n",
    );
    assert_eq!(out, "/a/\t2\n/a/b\t1\n/a/c\t1\n");
}

/// The operations read every input format and every profile where the part
/// exists.
#[test]
fn inputs_and_profiles() {
    let (code, out, _) = text(
        &[
            "get",
            "--input",
            "jsonl:url.original",
            "{scheme}",
            "samples/events.jsonl",
        ],
        "",
    );
    assert!(code == 0 || code == 1);
    assert_eq!(out.lines().count(), 509, "one line per record");
    let (_, out, _) = text(
        &[
            "get",
            "--input",
            "csv:url",
            "{scheme}",
            "samples/visits.csv",
        ],
        "",
    );
    assert_eq!(
        out.lines().count(),
        305,
        "one line per CSV record (some take two lines)"
    );
    let (_, gz, _) = {
        use flate2::write::GzEncoder;
        let mut e = GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(b"http://a.example/x?k=1\nhttp://b.example/\n")
            .unwrap();
        let z = e.finish().unwrap();
        let (c, o, e) = urilex(&["keys"], &z);
        (c, String::from_utf8(o).unwrap(), e)
    };
    assert_eq!(gz, "k\n");
    let (code, out, err) = text(
        &["get", "--profile", "rfc6874", "{zoneid}|{host}|{:zoneid}"],
        "http://[fe80::1%25en%2541]:80/\nhttp://[::1]/\n",
    );
    assert_eq!(
        (code, out.as_str()),
        (0, "en%41|[fe80::1%en%41]|en%2541\n|[::1]|\n"),
        "{err}"
    );
    // A profile without the part: absent, not an error.
    let (code, out, _) = text(
        &["get", "--profile", "rfc8141", "<{host}>{path}"],
        "urn:example:a\n",
    );
    assert_eq!((code, out.as_str()), (0, "<>example:a\n"));
}
