//! Every function in SQL against the library's own answer, reference by
//! reference: the corpora and the parse vectors, with nulls, empty
//! strings and invalid references among them, in each string type
//! DataFusion hands a function (`Utf8`, `LargeUtf8`, `Utf8View`,
//! dictionary-encoded), and sliced arrays.

#[path = "../../tests/support/expect.rs"]
mod expect;

use datafusion::arrow::array::{
    Array, ArrayRef, AsArray, DictionaryArray, LargeStringArray, StringArray, StringViewArray,
};
use datafusion::arrow::compute::cast;
use datafusion::arrow::datatypes::{DataType, Field, Int32Type, Schema};
use datafusion::arrow::record_batch::RecordBatch;
use datafusion::datasource::MemTable;
use datafusion::prelude::SessionContext;
use std::sync::Arc;
use urilex::template::Template;
use urilex::{Component, Parser, UriRef};

/// The references: lines of the two corpora (every seventh, to keep the
/// debug build quick), the parse vectors' inputs, and hand-picked edge
/// cases; `None` for nulls, every thirteenth row.
fn inputs() -> Vec<Option<String>> {
    let mut v: Vec<Option<String>> = Vec::new();
    for corpus in [
        include_str!("../../benches/data/kasztp.txt"),
        include_str!("../../benches/data/node_files.txt"),
    ] {
        v.extend(corpus.lines().step_by(7).map(|l| Some(l.to_string())));
    }
    for s in [
        "",
        "http://a/b?q=1&q=2&r&=x&s=#f",
        "http://[::1]:8080/p",
        "http://a:99999/",
        "http://a:/",
        "not a uri",
        "http://a/b%zz",
        "http://u:p@www.example.co.uk/a/b/c.html?x=%41",
        "HTTP://Example.COM:80/./a/../b/%7e?utm_source=x&b=2&a=1#frag",
        "mailto:someone@example.com",
        "urn:isbn:0451450523",
        "urn:ietf:rfc:3986",
        "//host.github.io/x",
        "file:///etc/hosts",
        "http://192.168.0.1/x",
        "tel:+1-816-555-1212",
        "a\nb",
        "http://a/\u{e9}",
        "?",
        "#",
        "/only/path;p?q",
    ] {
        v.push(Some(s.to_string()));
    }
    for (i, x) in v.iter_mut().enumerate() {
        if i % 13 == 5 {
            *x = None;
        }
    }
    v
}

/// `inputs` as a column of type `t`.
fn column(inputs: &[Option<String>], t: &DataType) -> ArrayRef {
    let utf8: ArrayRef = Arc::new(StringArray::from(inputs.to_vec()));
    match t {
        DataType::Utf8 => utf8,
        DataType::LargeUtf8 => Arc::new(LargeStringArray::from(inputs.to_vec())),
        DataType::Utf8View => Arc::new(StringViewArray::from(inputs.to_vec())),
        DataType::Dictionary(..) => {
            let d: DictionaryArray<Int32Type> = inputs.iter().map(|s| s.as_deref()).collect();
            Arc::new(d)
        }
        _ => unreachable!(),
    }
}

/// A context with the functions and table `t` (column `u`) of `array`
/// alone.
fn small(array: ArrayRef) -> SessionContext {
    table_of(array, false)
}

/// A context with the functions and table `t` (column `u`) of `array`,
/// then a slice of it.
fn context(array: ArrayRef) -> SessionContext {
    table_of(array, true)
}

/// A context with the functions and table `t` (column `u`) of `array`;
/// with `sliced`, a second batch that is a slice of the first (its
/// offsets do not start at 0).
fn table_of(array: ArrayRef, sliced: bool) -> SessionContext {
    let ctx = SessionContext::new();
    urilex_datafusion::register(&ctx);
    let schema = Arc::new(Schema::new(vec![Field::new(
        "u",
        array.data_type().clone(),
        true,
    )]));
    let batch = RecordBatch::try_new(schema.clone(), vec![array]).unwrap();
    let n = batch.num_rows();
    let mut batches = vec![batch.clone()];
    if sliced {
        batches.push(batch.slice(n / 3, n - n / 3));
    }
    let table = MemTable::try_new(schema, vec![batches]).unwrap();
    ctx.register_table("t", Arc::new(table)).unwrap();
    ctx
}

/// The rows of `inputs` as the table has them (the whole, then the slice).
fn rows(inputs: &[Option<String>]) -> Vec<Option<String>> {
    let n = inputs.len();
    inputs.iter().chain(&inputs[n / 3..]).cloned().collect()
}

/// The single result column of `sql`, as text (`None` for null).
async fn texts(ctx: &SessionContext, sql: &str) -> Vec<Option<String>> {
    let batches = ctx.sql(sql).await.unwrap().collect().await.unwrap();
    let mut out = Vec::new();
    for b in batches {
        let c = b.column(0);
        let c = match c.data_type() {
            DataType::Boolean | DataType::UInt16 | DataType::Utf8View | DataType::LargeUtf8 => {
                cast(c, &DataType::Utf8).unwrap()
            }
            _ => c.clone(),
        };
        let s = c.as_string::<i32>();
        out.extend((0..s.len()).map(|i| s.is_valid(i).then(|| s.value(i).to_string())));
    }
    out
}

/// Column 0 of `sql`'s rows as Arrow displays its values (lists of
/// structs).
async fn displayed(ctx: &SessionContext, sql: &str) -> Vec<Option<String>> {
    let batches = ctx.sql(sql).await.unwrap().collect().await.unwrap();
    let mut out = Vec::new();
    for b in batches {
        let c = b.column(0);
        for i in 0..c.len() {
            out.push(
                c.is_valid(i).then(|| {
                    datafusion::arrow::util::display::array_value_to_string(c, i).unwrap()
                }),
            );
        }
    }
    out
}

/// What each function must give for one reference, from the library.
fn expected(f: &str, s: &str) -> Option<String> {
    let p = Parser::new();
    let u = p.parse(s);
    let part = |c: Component| u.as_ref().ok()?.span(c).map(|r| s[r].to_string());
    match f {
        "uri_valid(u)" => Some(u.is_ok().to_string()),
        "uri_error(u)" => u.err().map(|e| e.to_string()),
        "uri_scheme(u)" => part(Component::Scheme),
        "uri_authority(u)" => part(Component::Authority),
        "uri_userinfo(u)" => part(Component::Userinfo),
        "uri_host(u)" => part(Component::Host),
        "uri_path(u)" => part(Component::Path),
        "uri_query(u)" => part(Component::Query),
        "uri_fragment(u)" => part(Component::Fragment),
        "uri_port(u)" => part(Component::Port)
            .and_then(|p| urilex::port_number(p.as_bytes()))
            .map(|n| n.to_string()),
        "uri_query_param(u, 'q')" => {
            let q = part(Component::Query)?;
            let found = urilex::query::params(&q).find(|p| p.key == "q")?;
            Some(found.value.unwrap_or("").to_string())
        }
        "uri_path_segment(u, 2)" | "uri_path_segment(u, -1)" => {
            let n = if f.contains("-1") { -1 } else { 2 };
            let path = part(Component::Path)?;
            urilex::template::path_segment(&path, n).map(str::to_string)
        }
        "uri_registrable_domain(u)" | "uri_public_suffix(u)" => {
            let u = u.ok()?;
            let mut scratch = Vec::new();
            let d = urilex::domain::lookup(&u, urilex::domain::Section::All, &mut scratch)?;
            let v = if f.starts_with("uri_registrable") {
                d.registrable()?
            } else {
                d.suffix()
            };
            Some(String::from_utf8(v.to_vec()).unwrap())
        }
        "uri_normalize(u)" => {
            let mut out = String::new();
            urilex::normalize_into(&u.ok()?, urilex::NormalizeOptions::new(), &mut out);
            Some(out)
        }
        "uri_normalize(u, 'dedup')" => {
            let mut out = String::new();
            urilex::edit::Dedup::new()
                .apply(&mut urilex::edit::Editor::new(), &u.ok()?, &mut out)
                .ok()?;
            Some(out)
        }
        "uri_resolve('http://a/b/c/d;p?q', u)" => {
            let base = UriRef::parse("http://a/b/c/d;p?q").unwrap();
            let mut out = String::new();
            urilex::resolve_into(&base, &u.ok()?, urilex::ResolveOptions::new(), &mut out).ok()?;
            Some(out)
        }
        "uri_get(u, '{host}{+:port}|{path:1}|{query:q}')" => {
            let t = Template::parse("{host}{+:port}|{path:1}|{query:q}").unwrap();
            let mut out = Vec::new();
            t.render(&u.ok()?, &mut out).ok()?;
            Some(String::from_utf8_lossy(&out).into_owned())
        }
        // Spark's parts (java.net.URI's raw ones): an empty host is none;
        // FILE is the path and the query with its `?`; a key's value is
        // the first `key=` at the query's start or after a `&`.
        "uri_parse_url(u, 'HOST')" => part(Component::Host).filter(|h| !h.is_empty()),
        "uri_parse_url(u, 'FILE')" => {
            let path = part(Component::Path)?;
            Some(match part(Component::Query) {
                Some(q) => format!("{path}?{q}"),
                None => path,
            })
        }
        "uri_parse_url(u, 'QUERY', 'q')" => {
            let q = part(Component::Query)?;
            q.split('&')
                .find_map(|p| p.strip_prefix("q="))
                .map(str::to_string)
        }
        "urn_nid(u)" => urilex::urn::Urn::parse(s).ok().map(|n| n.nid().to_string()),
        "urn_nss(u)" => urilex::urn::Urn::parse(s).ok().map(|n| n.nss().to_string()),
        "uri_parse(u)['host']" => part(Component::Host),
        "uri_parse(u)['valid']" => Some(u.is_ok().to_string()),
        "uri_parse(u)['port_number']" => part(Component::Port)
            .and_then(|p| urilex::port_number(p.as_bytes()))
            .map(|n| n.to_string()),
        "CASE WHEN u IS NOT NULL THEN uri_parse(u)['error'] IS NULL END" => {
            Some(u.is_ok().to_string())
        }
        "CASE WHEN u IS NOT NULL THEN coalesce(uri_parse(u)['error']['kind'], '') END" => {
            Some(match u {
                Ok(_) => String::new(),
                Err(e) => e.kind().as_str().to_string(),
            })
        }
        "uri_parse(u)['host_kind']" => u.ok()?.host_kind().map(|k| k.as_str().to_string()),
        _ => panic!("no expectation for {f}"),
    }
}

const FUNCTIONS: &[&str] = &[
    "uri_valid(u)",
    "uri_error(u)",
    "uri_scheme(u)",
    "uri_authority(u)",
    "uri_userinfo(u)",
    "uri_host(u)",
    "uri_path(u)",
    "uri_query(u)",
    "uri_fragment(u)",
    "uri_port(u)",
    "uri_query_param(u, 'q')",
    "uri_path_segment(u, 2)",
    "uri_path_segment(u, -1)",
    "uri_registrable_domain(u)",
    "uri_public_suffix(u)",
    "uri_normalize(u)",
    "uri_normalize(u, 'dedup')",
    "uri_resolve('http://a/b/c/d;p?q', u)",
    "uri_get(u, '{host}{+:port}|{path:1}|{query:q}')",
    "urn_nid(u)",
    "urn_nss(u)",
    "uri_parse_url(u, 'HOST')",
    "uri_parse_url(u, 'FILE')",
    "uri_parse_url(u, 'QUERY', 'q')",
    "uri_parse(u)['host']",
    "uri_parse(u)['valid']",
    "uri_parse(u)['port_number']",
    "CASE WHEN u IS NOT NULL THEN uri_parse(u)['error'] IS NULL END",
    "CASE WHEN u IS NOT NULL THEN coalesce(uri_parse(u)['error']['kind'], '') END",
    "uri_parse(u)['host_kind']",
];

#[tokio::test]
async fn every_function_equals_the_library_in_every_string_type() {
    let inputs = inputs();
    let want_rows = rows(&inputs);
    for t in [
        DataType::Utf8,
        DataType::LargeUtf8,
        DataType::Utf8View,
        DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8)),
    ] {
        let ctx = context(column(&inputs, &t));
        for f in FUNCTIONS {
            let got = texts(&ctx, &format!("SELECT CAST({f} AS VARCHAR) FROM t")).await;
            assert_eq!(got.len(), want_rows.len(), "{f} over {t}");
            for (k, (g, w)) in got.iter().zip(&want_rows).enumerate() {
                let want = w.as_deref().and_then(|s| expected(f, s));
                assert_eq!(g, &want, "{f} over {t}, row {k}: {w:?}");
            }
        }
    }
}

/// RFC 3986 section 5.4's examples (5.4.1 and 5.4.2, strict; the tables
/// the library's tests use) through `uri_resolve`, the base a literal and
/// the references a column.
#[tokio::test]
async fn resolve_gives_rfc_3986_section_5_4() {
    let cases: Vec<(&str, &str)> = expect::RFC3986_NORMAL
        .iter()
        .chain(expect::RFC3986_ABNORMAL.iter())
        .copied()
        .collect();
    let refs: Vec<Option<String>> = cases.iter().map(|c| Some(c.0.to_string())).collect();
    let ctx = small(column(&refs, &DataType::Utf8));
    let got = texts(
        &ctx,
        &format!("SELECT uri_resolve('{}', u) FROM t", expect::BASE),
    )
    .await;
    assert_eq!(got.len(), cases.len());
    for (k, (r, want)) in cases.iter().enumerate() {
        assert_eq!(got[k].as_deref(), Some(*want), "{r}");
    }
}

/// Spark's part names, on RFC 3986's parts (java.net.URI's raw ones).
#[tokio::test]
async fn parse_url_takes_sparks_parts() {
    let u = "http://user:pw@www.example.com:8080/a/b.html?k=v&x=1&k=2#top";
    let refs = vec![Some(u.to_string()), Some("not a uri".into()), None];
    let ctx = small(column(&refs, &DataType::Utf8));
    let cases: [(&str, Option<&str>); 12] = [
        ("'HOST'", Some("www.example.com")),
        ("'PATH'", Some("/a/b.html")),
        ("'QUERY'", Some("k=v&x=1&k=2")),
        ("'REF'", Some("top")),
        ("'PROTOCOL'", Some("http")),
        ("'FILE'", Some("/a/b.html?k=v&x=1&k=2")),
        ("'AUTHORITY'", Some("user:pw@www.example.com:8080")),
        ("'USERINFO'", Some("user:pw")),
        ("'QUERY', 'k'", Some("v")),
        ("'QUERY', 'x'", Some("1")),
        ("'QUERY', 'nope'", None),
        ("'NOPE'", None),
    ];
    for (args, want) in cases {
        let got = texts(&ctx, &format!("SELECT uri_parse_url(u, {args}) FROM t")).await;
        assert_eq!(got[0].as_deref(), want, "{args}");
        assert_eq!(got[1], None, "{args} of an invalid reference");
        assert_eq!(got[2], None, "{args} of a null");
    }
}

/// `uri_query_params` and `uri_extract`: lists of structs.
#[tokio::test]
async fn lists_of_params_and_extracted_uris() {
    let refs = vec![
        Some("http://a/?k=v&empty=&bare&k=2".to_string()),
        Some("http://a/".into()),
        Some("not a uri".into()),
        None,
    ];
    let ctx = small(column(&refs, &DataType::Utf8));
    let got = displayed(&ctx, "SELECT uri_query_params(u) FROM t").await;
    assert_eq!(
        got[0].as_deref(),
        Some(
            "[{key: k, value: v}, {key: empty, value: }, {key: bare, value: }, {key: k, value: 2}]"
        )
    );
    assert_eq!(got[1].as_deref(), Some("[]"));
    assert_eq!(got[2], None);
    assert_eq!(got[3], None);
    // `bare` has no value (null), `empty` an empty one.
    let got = texts(
        &ctx,
        "SELECT CAST(uri_query_params(u)[3]['value'] IS NULL AND uri_query_params(u)[2]['value'] = '' AS VARCHAR) FROM t",
    )
    .await;
    assert_eq!(got[0].as_deref(), Some("true"));

    let text = "see <http://example.com/a> and https://b.example/x?y, then (ftp://c/)";
    let refs = vec![Some(text.to_string()), Some(String::new()), None];
    let ctx = small(column(&refs, &DataType::Utf8));
    let got = displayed(&ctx, "SELECT uri_extract(u) FROM t").await;
    let hits: Vec<String> = urilex::extract::find_iter(text.as_bytes(), Default::default())
        .map(|h| {
            format!(
                "{{uri: {}, start: {}, end: {}}}",
                h.uri, h.span.start, h.span.end
            )
        })
        .collect();
    assert_eq!(hits.len(), 3);
    assert_eq!(got[0], Some(format!("[{}]", hits.join(", "))));
    assert_eq!(got[1].as_deref(), Some("[]"));
    assert_eq!(got[2], None);
}

/// A bad call is a planning error that says what is wrong; a bad value
/// never is.
#[tokio::test]
async fn bad_calls_are_errors_bad_values_are_nulls() {
    let refs = vec![Some("http://a/".to_string())];
    let ctx = small(column(&refs, &DataType::Utf8));
    for (sql, says) in [
        ("SELECT uri_host(u, u) FROM t", "uri_host takes 1 argument"),
        ("SELECT uri_host(1) FROM t", "takes strings"),
        ("SELECT uri_parse(u, 'nope') FROM t", "nope"),
        ("SELECT uri_parse(u, u) FROM t", "literal"),
        ("SELECT uri_get(u, '{nope}') FROM t", "nope"),
        ("SELECT uri_normalize(u, 'nope') FROM t", "unknown mode"),
    ] {
        let e = match ctx.sql(sql).await {
            Ok(df) => df.collect().await.err(),
            Err(e) => Some(e),
        };
        let e = e.unwrap_or_else(|| panic!("{sql} ran")).to_string();
        assert!(e.contains(says), "{sql}: {e}");
    }
    // A literal argument: a scalar out.
    let got = texts(&ctx, "SELECT uri_host('http://h:1/') FROM t").await;
    assert_eq!(got, [Some("h".to_string())]);
}

/// uri_parse's struct under another profile has that profile's parts.
#[tokio::test]
async fn uri_parse_follows_the_profile() {
    let refs = vec![Some("http://[fe80::1%25eth0]:80/".to_string())];
    let ctx = small(column(&refs, &DataType::Utf8));
    let got = texts(&ctx, "SELECT uri_parse(u, 'rfc6874')['zone'] FROM t").await;
    assert_eq!(got, [Some("eth0".to_string())]);
    let got = texts(&ctx, "SELECT CAST(uri_parse(u)['valid'] AS VARCHAR) FROM t").await;
    assert_eq!(got, [Some("false".to_string())]);
}

/// The parts of the published parse vectors (tests/data/parse.jsonl, from
/// fluent-uri's, iri-string's and oxiri's suites, each line naming its
/// source) through the part functions: verdicts, parts with null (absent)
/// and `''` (empty) kept apart, host kinds.
#[tokio::test]
async fn parts_match_the_published_vectors() {
    let text = include_str!("../../tests/data/parse.jsonl");
    // The records for URI-reference (the functions' grammar) whose
    // verdict no one contests (tests/vectors.rs decides those).
    let records: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|r| {
            matches!(
                r.get("grammar").and_then(|g| g.as_str()),
                None | Some("URI-reference")
            ) && r.get("contested").is_none()
                && r.get("rfc3986_literal").is_none()
        })
        .collect();
    let inputs: Vec<Option<String>> = records
        .iter()
        .map(|r| r["input"].as_str().map(str::to_string))
        .collect();
    let ctx = small(column(&inputs, &DataType::Utf8));
    let fields = [
        ("valid", "CAST(uri_valid(u) AS VARCHAR)"),
        ("scheme", "uri_scheme(u)"),
        ("authority", "uri_authority(u)"),
        ("userinfo", "uri_userinfo(u)"),
        ("host", "uri_host(u)"),
        ("host_kind", "CAST(uri_parse(u)['host_kind'] AS VARCHAR)"),
        ("port", "uri_port_text"),
        ("path", "uri_path(u)"),
        ("query", "uri_query(u)"),
        ("fragment", "uri_fragment(u)"),
    ];
    let mut checked = 0;
    for (key, expr) in fields {
        let expr = if expr == "uri_port_text" {
            "uri_parse(u)['port']"
        } else {
            expr
        };
        let got = texts(&ctx, &format!("SELECT CAST({expr} AS VARCHAR) FROM t")).await;
        for (r, g) in records.iter().zip(&got) {
            let want = match &r[key] {
                serde_json::Value::Null => None,
                serde_json::Value::Bool(b) => Some(b.to_string()),
                serde_json::Value::String(s) => Some(s.clone()),
                v => panic!("{key}: {v}"),
            };
            // Parts of an invalid reference are null whatever the record
            // says (records of invalid inputs give no parts).
            if r["valid"] == serde_json::Value::Bool(false) && key != "valid" {
                assert_eq!(g, &None, "{key} of invalid {}", r["input"]);
                continue;
            }
            if r.get(key).is_none() {
                continue;
            }
            assert_eq!(g, &want, "{key} of {}", r["input"]);
            checked += 1;
        }
    }
    assert!(checked > 2000, "{checked} checks");
}

/// Every example of the column registry (`urilex_columns::FUNCTIONS`, the
/// Python package's functions' too) in SQL: each function under its SQL
/// name, its arguments as literals.
#[tokio::test]
async fn every_registry_example() {
    let mut n = 0;
    for f in urilex_columns::FUNCTIONS {
        for e in f.examples {
            let refs = vec![e.input.map(str::to_string)];
            let ctx = small(column(&refs, &DataType::Utf8));
            let mut call = format!("{}(u", f.sql);
            for (a, p) in e.args.iter().zip(f.params) {
                match p.kind {
                    urilex_columns::Kind::Int => call.push_str(&format!(", {a}")),
                    urilex_columns::Kind::Text => {
                        call.push_str(&format!(", '{}'", a.replace('\'', "''")))
                    }
                }
            }
            call.push(')');
            let batches = ctx
                .sql(&format!("SELECT {call} FROM t"))
                .await
                .unwrap()
                .collect()
                .await
                .unwrap();
            let got = urilex_columns::display(batches[0].column(0), 0);
            assert_eq!(got, e.want, "{call} on {:?}", e.input);
            n += 1;
        }
    }
    assert!(n >= urilex_columns::FUNCTIONS.len());
}
