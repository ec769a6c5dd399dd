//! Access logs (`--input common` and `combined`): lines generated from
//! fields, each quoted field escaped as the loggers escape it (Apache's
//! `\"`, `\\`, `\xhh`, `\n`, `\t`; nginx's `\xHH`), read by the pipeline:
//! - one row per line, in order, numbered;
//! - a whole line's row has the generator's target (`input`), method and
//!   status, and for combined logs its referer (`referer_input`; `-` is
//!   absent);
//! - a line cut short before its request's closing quote is an error row
//!   (kind `format`);
//! - the same rows with one thread or two, any chunk size.
//!
//! (W3C extended logs do not exist yet; their decoder joins this target
//! when it does.)
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
}

#[derive(Arbitrary, Debug)]
struct Case {
    combined: bool,
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

fuzz_target!(|case: Case| {
    if case.entries.len() > 200 {
        return;
    }
    let mut log = Vec::new();
    // Per line: what its row holds, or None (cut short).
    let mut want: Vec<Option<Want>> = Vec::new();
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
        let referer = e
            .referer
            .as_ref()
            .map(|r| text(r))
            .filter(|r| !r.is_empty() && r != b"-");
        let status = 100 + e.status % 500;
        let mut line = b"192.0.2.1 - - [10/Oct/2000:13:55:36 -0700] \"".to_vec();
        let request_at = line.len();
        let mut request = format!("{method} ").into_bytes();
        request.extend_from_slice(&target);
        request.extend_from_slice(b" HTTP/1.1");
        escape(&request, e.nginx, &mut line);
        let request_end = line.len();
        line.extend_from_slice(format!("\" {status} 512").as_bytes());
        if case.combined {
            line.extend_from_slice(b" \"");
            match &referer {
                Some(r) => escape(r, e.nginx, &mut line),
                None => line.push(b'-'),
            }
            line.extend_from_slice(b"\" \"agent/1.0\"");
        }
        match e.cut {
            Some(c) => {
                let at = request_at + c as usize % (request_end - request_at + 1);
                line.truncate(at);
                want.push(None);
            }
            None => want.push(Some((target, method, status, referer))),
        }
        line.push(b'\n');
        log.extend_from_slice(&line);
    }
    let file = common::file("access.log", &log);
    let input = if case.combined {
        common::input("combined")
    } else {
        common::input("common")
    };
    let mut first: Option<Vec<Value>> = None;
    for threads in [1, 2] {
        let mut run = common::Run::new(input.clone());
        run.field = if case.combined {
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
        for (k, (row, w)) in rows.iter().zip(&want).enumerate() {
            assert_eq!(row["line"], k as u64 + 1);
            match w {
                None => assert_eq!(row["error"]["kind"], "format", "{row}"),
                Some((target, method, status, referer)) => {
                    let t = String::from_utf8(target.clone()).unwrap();
                    assert_eq!(row["input"], t.as_str(), "{row}");
                    assert_eq!(row["method"], *method);
                    assert_eq!(row["status"], *status);
                    if case.combined {
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
