//! Request logs (`--input common`, `combined` and `w3c`): lines generated
//! from fields, each quoted field escaped as the loggers escape it
//! (Apache's `\"`, `\\`, `\xhh`, `\n`, `\t`; nginx's `\xHH`; W3C's
//! `"..."` with `""`), read by the pipeline:
//! - one row per record line (W3C directives give none), in order, with
//!   its line number;
//! - a whole line's row has the generator's target (`input`), method and
//!   status, and for combined and W3C logs its referer (`referer_input`;
//!   `-` is absent);
//! - a line cut short in its request (W3C: in its target's fields) is an
//!   error row (kind `format`);
//! - W3C: `#Fields:` directives switch between two layouts (spaces, the
//!   target as `cs-uri-stem` and `cs-uri-query`; tabs, the target as
//!   `cs-uri`) anywhere in the log;
//! - the same rows with one thread or two, any chunk size.
#![no_main]

#[path = "common/mod.rs"]
mod common;

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use urilex_io::format::LogField;

#[derive(Arbitrary, Debug)]
struct Entry {
    form: u8,
    target: Vec<u8>,
    referer: Option<Vec<u8>>,
    status: u16,
    nginx: bool,
    /// Cut the line short at this byte of its request field.
    cut: Option<u16>,
    /// W3C: a `#Fields:` directive of the other layout before it.
    switch: bool,
}

#[derive(Arbitrary, Debug)]
struct Case {
    /// 0: common, 1: combined, 2: W3C.
    format: u8,
    entries: Vec<Entry>,
    chunk: u16,
}

/// Printable ASCII and the controls and quotes the loggers escape.
fn text(raw: &[u8]) -> Vec<u8> {
    const EXTRA: &[u8] = b"\"\\\t\n\x01\x7f %?#/";
    raw.iter()
        .take(60)
        .map(|&b| {
            if (0x21..0x7f).contains(&b) {
                b
            } else {
                EXTRA[b as usize % EXTRA.len()]
            }
        })
        .collect()
}

/// A quoted field's contents as Apache (or nginx) writes them.
fn escape(v: &[u8], nginx: bool, out: &mut Vec<u8>) {
    for &b in v {
        match b {
            b'"' if nginx => out.extend_from_slice(b"\\x22"),
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' if nginx => out.extend_from_slice(b"\\x5C"),
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' if !nginx => out.extend_from_slice(b"\\n"),
            b'\t' if !nginx => out.extend_from_slice(b"\\t"),
            b if (b < 0x20 || b == 0x7f) && nginx => {
                out.extend_from_slice(format!("\\x{b:02X}").as_bytes())
            }
            b if b < 0x20 || b == 0x7f => out.extend_from_slice(format!("\\x{b:02x}").as_bytes()),
            b => out.push(b),
        }
    }
}

/// A whole line's target, method, status and referer.
type Want = (Vec<u8>, &'static str, u16, Option<Vec<u8>>);

/// The W3C layouts: spaces, the target in two fields; tabs, in one.
const LAYOUTS: [&[u8]; 2] = [
    b"#Fields: date time cs-method cs-uri-stem cs-uri-query sc-status cs(Referer)\n",
    b"#Fields: cs(Referer)\tcs-method\tcs-uri\tsc-status\n",
];

/// A W3C field: quoted where it must be (empty, `-`, a separator, a
/// quote, a `#` that would start a directive).
fn w3c_field(v: &[u8], out: &mut Vec<u8>) {
    let plain = !v.is_empty()
        && v != b"-"
        && v[0] != b'#'
        && !v.iter().any(|&b| b == b' ' || b == b'\t' || b == b'"');
    if plain {
        return out.extend_from_slice(v);
    }
    out.push(b'"');
    for &b in v {
        if b == b'"' {
            out.push(b'"');
        }
        out.push(b);
    }
    out.push(b'"');
}

/// A W3C record in `layout`; the target's fields' span in it.
fn w3c_line(
    layout: usize,
    method: &str,
    target: &[u8],
    status: u16,
    referer: &Option<Vec<u8>>,
) -> (Vec<u8>, usize, usize) {
    let mut line = Vec::new();
    let referer = |line: &mut Vec<u8>| match referer {
        Some(r) => w3c_field(r, line),
        None => line.push(b'-'),
    };
    if layout == 0 {
        line.extend_from_slice(format!("2000-10-10 13:55:36 {method} ").as_bytes());
        let at = line.len();
        match target.iter().position(|&b| b == b'?') {
            Some(q) => {
                w3c_field(&target[..q], &mut line);
                line.push(b' ');
                w3c_field(&target[q + 1..], &mut line);
            }
            None => {
                w3c_field(target, &mut line);
                line.extend_from_slice(b" -");
            }
        }
        let end = line.len();
        line.extend_from_slice(format!(" {status} ").as_bytes());
        referer(&mut line);
        (line, at, end)
    } else {
        referer(&mut line);
        line.extend_from_slice(format!("\t{method}\t").as_bytes());
        let at = line.len();
        w3c_field(target, &mut line);
        let end = line.len();
        line.extend_from_slice(format!("\t{status}").as_bytes());
        (line, at, end)
    }
}

fuzz_target!(|case: Case| {
    if case.entries.len() > 200 {
        return;
    }
    let format = case.format % 3;
    let (combined, w3c) = (format == 1, format == 2);
    let mut log = Vec::new();
    let mut line_no = 0u64;
    // Per record line: its number, and what its row holds or None (cut
    // short).
    let mut want: Vec<(u64, Option<Want>)> = Vec::new();
    let mut layout = 0;
    if w3c {
        log.extend_from_slice(b"#Version: 1.0\n");
        log.extend_from_slice(LAYOUTS[0]);
        line_no += 2;
    }
    for e in &case.entries {
        let (method, target): (&'static str, Vec<u8>) = match e.form % 4 {
            0 => ("GET", [b"/".as_slice(), &text(&e.target)].concat()),
            1 => (
                "POST",
                [b"http://h.example/".as_slice(), &text(&e.target)].concat(),
            ),
            2 => ("CONNECT", b"h.example:443".to_vec()),
            _ => ("OPTIONS", b"*".to_vec()),
        };
        // A target with " HTTP/" inside would read as the protocol.
        if target.windows(6).any(|w| w == b" HTTP/") || target.contains(&b' ') && e.form % 4 < 2 {
            continue;
        }
        // No line of a W3C log holds a line break, quoted or not.
        let clean = |v: Vec<u8>| -> Vec<u8> {
            if !w3c {
                return v;
            }
            v.into_iter()
                .map(|b| if b == b'\n' || b == b'\r' { b'%' } else { b })
                .collect()
        };
        let target = clean(target);
        let referer = e
            .referer
            .as_ref()
            .map(|r| clean(text(r)))
            .filter(|r| !r.is_empty() && r != b"-");
        let status = 100 + e.status % 500;
        let (mut line, request_at, request_end) = if w3c {
            if e.switch {
                layout = 1 - layout;
                log.extend_from_slice(LAYOUTS[layout]);
                line_no += 1;
            }
            w3c_line(layout, method, &target, status, &referer)
        } else {
            let mut line = b"192.0.2.1 - - [10/Oct/2000:13:55:36 -0700] \"".to_vec();
            let request_at = line.len();
            let mut request = format!("{method} ").into_bytes();
            request.extend_from_slice(&target);
            request.extend_from_slice(b" HTTP/1.1");
            escape(&request, e.nginx, &mut line);
            let request_end = line.len();
            line.extend_from_slice(format!("\" {status} 512").as_bytes());
            if combined {
                line.extend_from_slice(b" \"");
                match &referer {
                    Some(r) => escape(r, e.nginx, &mut line),
                    None => line.push(b'-'),
                }
                line.extend_from_slice(b"\" \"agent/1.0\"");
            }
            (line, request_at, request_end)
        };
        line_no += 1;
        match e.cut {
            Some(c) => {
                let at = request_at + c as usize % (request_end - request_at + 1);
                line.truncate(at);
                // A W3C record cut to nothing is an empty line (an error
                // row too); one cut before its first field's end would
                // start a directive only if it started with `#`, which a
                // quoted field never does.
                want.push((line_no, None));
            }
            None => want.push((line_no, Some((target, method, status, referer)))),
        }
        line.push(b'\n');
        log.extend_from_slice(&line);
    }
    let file = common::file("access.log", &log);
    let input = common::input(["common", "combined", "w3c"][format as usize]);
    let mut first: Option<Vec<Value>> = None;
    for threads in [1, 2] {
        let mut run = common::Run::new(input.clone());
        run.field = if combined || w3c {
            LogField::Both
        } else {
            LogField::Target
        };
        run.fields = Some("all");
        run.threads = threads;
        run.chunk = 1 + case.chunk as usize % 4096;
        let (rows, faults) = common::rows(&run, std::slice::from_ref(&file));
        assert!(faults.is_empty());
        assert_eq!(rows.len(), want.len());
        for (row, (line, w)) in rows.iter().zip(&want) {
            assert_eq!(row["line"], *line);
            match w {
                None => assert_eq!(row["error"]["kind"], "format", "{row}"),
                Some((target, method, status, referer)) => {
                    let t = String::from_utf8(target.clone()).unwrap();
                    assert_eq!(row["input"], t.as_str(), "{row}");
                    let (m, st) = if w3c {
                        ("cs-method", "sc-status")
                    } else {
                        ("method", "status")
                    };
                    assert_eq!(row[m], *method, "{row}");
                    assert_eq!(row[st], *status, "{row}");
                    if combined || w3c {
                        match referer {
                            Some(r) => assert_eq!(
                                row["referer_input"],
                                String::from_utf8(r.clone()).unwrap().as_str()
                            ),
                            None => {
                                assert_eq!(row["referer_input"], Value::Null);
                                assert_eq!(row["referer_valid"], Value::Null);
                            }
                        }
                    }
                }
            }
        }
        match &first {
            None => first = Some(rows),
            Some(f) => assert_eq!(f, &rows),
        }
    }
});
