//! `--input w3c`: the W3C Extended Log File Format (W3C Working Draft
//! WD-logfile-960323) as IIS and CloudFront write it. The field lists of
//! `samples/iis.log` and `samples/cloudfront.log` are those the two
//! servers document (IIS's W3C logging fields; CloudFront's standard log
//! file fields, version 1.0); the records are made up.

mod support {
    pub mod readback;
    pub mod run;
}

use serde_json::{json, Value};
use support::readback::{json_rows, read_back};
use support::run::{input, repo, temp, Run};
use urilex_io::format::LogField;
use urilex_io::run::OutputFormat;

fn w3c() -> Run {
    Run::new(input("w3c"))
}

#[test]
fn iis_rows_are_requests_and_directives_give_none() {
    let rows = w3c().jsonl(&[repo("samples/iis.log")]);
    let lines: Vec<u64> = rows.iter().map(|r| r["line"].as_u64().unwrap()).collect();
    // Lines 1-4 and 11-14 are directives.
    assert_eq!(lines, [5, 6, 7, 8, 9, 10, 15, 16]);
    assert_eq!(rows[0]["path"], "/default.htm");
    assert_eq!(rows[0]["query"], Value::Null);
    // cs-uri-stem, `?`, cs-uri-query.
    assert_eq!(rows[1]["path"], "/shop/search.aspx");
    assert_eq!(rows[1]["query"], "q=shoes&page=2");
    assert_eq!(rows[1]["target_form"], "origin");
    // A space in the stem splits it: one field too many, a format row.
    assert_eq!(rows[4]["valid"], Value::Null);
    assert_eq!(rows[4]["error"]["kind"], "format");
    assert_eq!(
        rows[4]["error"]["message"],
        "line 9: 16 fields where #Fields names 15 (W3C)"
    );
    // RFC 3986 section 3.4: `|` is no query character.
    assert_eq!(rows[5]["valid"], false);
    assert_eq!(rows[5]["error"]["part"], "query");
    // The second block's fields have cs-uri, the whole target.
    assert_eq!(rows[6]["path"], "/whole/target");
    assert_eq!(rows[6]["query"], "x=1");
    // OPTIONS * (RFC 9112 section 3.2.4).
    assert_eq!(rows[7]["target_form"], "asterisk");
    assert_eq!(rows[7]["valid"], true);
}

#[test]
fn cloudfront_referers_and_carried_fields_by_their_w3c_names() {
    let mut run = w3c();
    run.field = LogField::Both;
    run.fields = Some("line,valid,path,query,referer_valid,referer_host,c-ip,sc-status,sc-bytes,cs(User-Agent),time-taken,x-edge-location,cs-uri-query,x-not-logged");
    let rows = run.jsonl(&[repo("samples/cloudfront.log")]);
    assert_eq!(rows.len(), 3);
    assert_eq!(
        rows[0],
        json!({"line": 3, "valid": true, "path": "/index.html", "query": null,
               "referer_valid": null, "referer_host": null, "c-ip": "192.0.2.100",
               "sc-status": 200, "sc-bytes": 2390,
               "cs(User-Agent)": "Mozilla/5.0%20(Windows%20NT%2010.0)",
               "time-taken": "0.001", "x-edge-location": "FRA56-P5",
               "cs-uri-query": null, "x-not-logged": null})
    );
    assert_eq!(rows[1]["query"], "q=caf%C3%A9&lang=fr");
    assert_eq!(rows[1]["referer_valid"], true);
    assert_eq!(rows[1]["referer_host"], "www.example.com");
    assert_eq!(rows[2]["sc-status"], 403);
    assert_eq!(rows[2]["path"], "/a%20b/%3Cscript%3E");
}

#[test]
fn every_output_format_has_the_carried_columns_typed() {
    let mut run = w3c();
    run.fields = Some("line,valid,sc-status,sc-bytes,c-ip");
    let (out, rows, _) = run.out(&[repo("samples/cloudfront.log")], OutputFormat::Csv);
    assert_eq!(rows, 3);
    let text = String::from_utf8(out).unwrap();
    assert_eq!(
        text.lines().next(),
        Some("line,valid,sc-status,sc-bytes,c-ip")
    );
    assert_eq!(text.lines().nth(1), Some("3,true,200,2390,192.0.2.100"));
    // JSON Lines, Arrow and Parquet: the same rows, the numbers typed
    // (sc-status UInt16, sc-bytes UInt64), c-ip text.
    let jsonl = run.jsonl(&[repo("samples/cloudfront.log")]);
    assert_eq!(jsonl[0]["sc-status"], 200);
    assert_eq!(jsonl[0]["c-ip"], "192.0.2.100");
    for f in [OutputFormat::Arrow, OutputFormat::Parquet] {
        let (out, _, _) = run.out(&[repo("samples/cloudfront.log")], f);
        let batches = read_back(&out, f);
        let schema = batches[0].schema();
        let t = |n: &str| schema.field_with_name(n).unwrap().data_type().clone();
        assert_eq!(t("sc-status"), arrow_schema::DataType::UInt16, "{f:?}");
        assert_eq!(t("sc-bytes"), arrow_schema::DataType::UInt64, "{f:?}");
        assert_eq!(json_rows(&batches), jsonl, "{f:?}");
    }
}

/// A log whose `#Fields:` change every few records, with records of every
/// kind between: rows must not depend on where chunks start.
fn changing_log() -> Vec<u8> {
    let mut log = Vec::new();
    for block in 0..40 {
        log.extend_from_slice(b"#Version: 1.0\n");
        match block % 4 {
            0 => log.extend_from_slice(
                b"#Fields: date time cs-method cs-uri-stem cs-uri-query sc-status cs(Referer)\n",
            ),
            1 => {
                log.extend_from_slice(b"#Fields: cs(Referer)\tcs-uri-stem\tcs-method\tsc-status\n")
            }
            2 => log.extend_from_slice(b"#Fields: date cs-uri sc-status\r\n"),
            _ => log.extend_from_slice(b"#Remark: no fields change here\n"),
        }
        for k in 0..(block % 7 + 1) {
            let rec = match block % 4 {
                0 => format!(
                    "2026-11-20 00:00:{k:02} GET /b{block}/r{k} a={k} 200 http://ref/{block}\n"
                ),
                1 => format!("-\t/only/stem/{block}\tCONNECT\t200\n"),
                2 => format!("2026-11-20 \"/q{block}?x=\"\"{k}\"\"\" 404\r\n"),
                _ => format!("2026-11-20 00:00:{k:02} GET /three/{block} - 500 -\n"),
            };
            log.extend_from_slice(rec.as_bytes());
        }
        if block % 5 == 0 {
            log.extend_from_slice(b"\n");
        }
    }
    log
}

#[test]
fn a_chunk_after_a_fields_line_still_reads_by_it() {
    let file = temp("changing.log", &changing_log());
    let mut one = w3c();
    one.field = LogField::Both;
    one.fields = Some("all");
    one.chunk = 1 << 20;
    let want = one.jsonl(std::slice::from_ref(&file));
    // Blocks of kind 3 keep the fields before them; every block is read.
    assert_eq!(want[0]["path"], "/b0/r0");
    assert_eq!(want[0]["referer_host"], "ref");
    assert!(want.iter().any(|r| r["target_form"] == "authority"));
    // A quoted cs-uri, its `""` a quote: which RFC 3986 refuses in a query.
    assert!(want
        .iter()
        .any(|r| r["input"] == "/q2?x=\"0\"" && r["error"]["part"] == "query"));
    // The #Remark block keeps the fields before it (3), and its records
    // have 7: error rows, not rows read by the wrong fields.
    assert!(want.iter().any(|r| r["error"]["message"]
        .as_str()
        .is_some_and(|m| m.ends_with("7 fields where #Fields names 3 (W3C)"))));
    for chunk in [1, 40, 97, 300] {
        for threads in [1, 2, 4] {
            let mut run = w3c();
            run.field = LogField::Both;
            run.fields = Some("all");
            run.chunk = chunk;
            run.threads = threads;
            let got = run.jsonl(std::slice::from_ref(&file));
            assert_eq!(got, want, "chunks of {chunk} bytes, {threads} threads");
        }
    }
}

#[test]
fn records_that_do_not_fit_are_error_rows() {
    let log = b"2026-11-20 GET /before-fields\n\
#Fields: date cs-method cs-uri-stem cs(User-Agent)\n\
2026-11-20 GET /a \"quoted agent\"\n\
2026-11-20 GET /b \"never closed\n\
2026-11-20 GET /c \"x\"y\n\
2026-11-20 GET\n\
\n\
2026-11-20 GET /d -\n";
    let mut run = w3c();
    run.fields = Some("line,valid,path,error,cs(User-Agent)");
    let rows = run.jsonl(&[temp("bad.log", log)]);
    let messages: Vec<&str> = rows
        .iter()
        .map(|r| r["error"]["message"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(
        messages,
        [
            "line 1: no #Fields directive before the record (W3C)",
            "",
            "line 4: unclosed quote (W3C)",
            "line 5: a quoted field runs on after its closing quote (W3C)",
            "line 6: 2 fields where #Fields names 4 (W3C)",
            "line 7: empty line (W3C)",
            "",
        ]
    );
    assert_eq!(rows[1]["cs(User-Agent)"], "quoted agent");
    assert_eq!(rows[2]["error"]["index"], 18);
    assert_eq!(rows[6]["path"], "/d");
    assert_eq!(rows[6]["cs(User-Agent)"], Value::Null);
}

#[test]
fn a_missing_target_or_referer_field() {
    let log = b"#Fields: date sc-status\n2026-11-20 200\n";
    let file = temp("notarget.log", log);
    let rows = w3c().jsonl(std::slice::from_ref(&file));
    assert_eq!(
        rows[0]["error"]["message"],
        "line 2: no cs-uri-stem or cs-uri in #Fields (W3C)"
    );
    // The referer alone: no cs(Referer), an absent referer (valid null).
    let mut run = w3c();
    run.field = LogField::Referer;
    let rows = run.jsonl(&[file]);
    assert_eq!(rows[0]["valid"], Value::Null);
    assert_eq!(rows[0]["error"], Value::Null);
}

#[test]
fn fields_by_w3c_name_and_refusals() {
    let (engine, schema) = {
        let mut run = w3c();
        run.fields = Some("cs(X-Forwarded-Proto),x-custom,sc-status");
        run.engine()
    };
    assert_eq!(
        schema.names,
        ["cs(X-Forwarded-Proto)", "x-custom", "sc-status"]
    );
    assert_eq!(engine.extractor.carry.len(), 3);
    // A name no W3C prefix starts is a typo, not a column.
    let mut ex = urilex_io::format::Extractor {
        format: input("w3c"),
        syntax: urilex::Syntax::Reference,
        field: LogField::Target,
        carry: Vec::new(),
        max_record_bytes: 1 << 20,
    };
    let e = urilex_io::schema::Schema::new(urilex::Profile::Rfc3986, &mut ex, Some("client_ip"))
        .unwrap_err();
    assert!(e.starts_with("unknown field `client_ip`"), "{e}");
}

/// The formats' table in docs/schema.md lists the registry, in order.
#[test]
fn the_docs_table_lists_every_registered_format() {
    let doc = std::fs::read_to_string(repo("docs/schema.md")).unwrap();
    let table: Vec<String> = doc
        .lines()
        .skip_while(|l| !l.starts_with("| format | a record |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| l.split('`').nth(1).unwrap().to_string())
        .collect();
    let registry: Vec<String> = urilex_io::format::DECODERS
        .iter()
        .map(|r| r.usage())
        .collect();
    assert_eq!(table, registry);
}
