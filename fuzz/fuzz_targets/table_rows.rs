//! The one row encoder of every command but `parse` (`urilex_io::table`):
//! rows of any columns and cells, written in each format, read back by
//! independent readers (serde_json, the csv crate, arrow-rs's IPC and
//! Parquet readers, TSV unescaped by hand) give the cells pushed: text
//! exactly in TSV, CSV and Binary columns, with U+FFFD for bytes that are
//! not UTF-8 in JSON and Utf8 columns; numbers, booleans, nulls, nested
//! JSON and the error struct's kind and message.
#![no_main]

#[path = "../../io/tests/support/readback.rs"]
#[allow(dead_code)]
mod readback;

use arbitrary::Arbitrary;
use arrow_array::cast::AsArray;
use arrow_array::types::UInt64Type;
use arrow_array::Array;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use urilex_io::model::{Cell, Columns, ErrorCell, Type};
use urilex_io::run::OutputFormat;
use urilex_io::table::TableSink;

#[derive(Arbitrary, Debug, Clone)]
enum Value0 {
    Null,
    Some(u64, Vec<u8>, bool),
}

#[derive(Arbitrary, Debug)]
struct Case {
    types: Vec<u8>,
    rows: Vec<Vec<Value0>>,
    chunk: u8,
}

const TYPES: [Type; 6] = [
    Type::Bool,
    Type::U64,
    Type::Text,
    Type::Bytes,
    Type::Json,
    Type::Error,
];

/// What a cell of type `t` holds, made from `v`.
#[derive(Clone, Debug)]
enum Want {
    Null,
    Bool(bool),
    U64(u64),
    Bytes(Vec<u8>),
    /// JSON text (a JSON string of the bytes, lossily).
    Json(String),
    /// The error's message.
    Error(String),
}

fn want(t: Type, v: &Value0) -> Want {
    let Value0::Some(n, b, f) = v else {
        return Want::Null;
    };
    match t {
        Type::Bool => Want::Bool(*f),
        Type::U64 => Want::U64(*n),
        Type::Json => Want::Json(serde_json::to_string(&String::from_utf8_lossy(b)).unwrap()),
        Type::Error => Want::Error(String::from_utf8_lossy(b).into_owned()),
        _ => Want::Bytes(b.clone()),
    }
}

fn cell(w: &Want) -> Cell<'_> {
    match w {
        Want::Null => Cell::Null,
        Want::Bool(b) => Cell::Bool(*b),
        Want::U64(n) => Cell::U64(*n),
        Want::Bytes(b) => Cell::Text(b),
        Want::Json(j) => Cell::Json(j.as_bytes()),
        Want::Error(m) => ErrorCell::other("edit", m).into(),
    }
}

fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// TSV's escapes undone.
fn unescape(f: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < f.len() {
        if f[i] == b'\\' && i + 1 < f.len() {
            out.push(match f[i + 1] {
                b't' => b'\t',
                b'n' => b'\n',
                b'r' => b'\r',
                c => c,
            });
            i += 2;
        } else {
            out.push(f[i]);
            i += 1;
        }
    }
    out
}

fuzz_target!(|case: Case| {
    if case.types.len() > 6 || case.rows.len() > 64 {
        return;
    }
    let types: Vec<Type> = case.types.iter().map(|&t| TYPES[t as usize % 6]).collect();
    let mut fields = vec![("line".to_string(), Type::U64, false)];
    for (k, t) in types.iter().enumerate() {
        fields.push((format!("c{k}"), *t, true));
    }
    let columns = Columns::of(fields.iter().map(|(n, t, b)| (n.as_str(), *t, *b)));
    let wants: Vec<Vec<Want>> = case
        .rows
        .iter()
        .enumerate()
        .map(|(r, vals)| {
            let mut row = vec![Want::U64(r as u64 + 1)];
            for (k, t) in types.iter().enumerate() {
                row.push(want(*t, vals.get(k).unwrap_or(&Value0::Null)));
            }
            row
        })
        .collect();
    let chunk = 1 + case.chunk as usize % 8;
    for format in [
        OutputFormat::Jsonl,
        OutputFormat::Tsv,
        OutputFormat::Csv,
        OutputFormat::Arrow,
        OutputFormat::Parquet,
    ] {
        let buf = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        struct Shared(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);
        impl std::io::Write for Shared {
            fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
                self.0.lock().unwrap().extend_from_slice(b);
                Ok(b.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let header = format == OutputFormat::Tsv;
        let mut sink =
            TableSink::new(format, &columns, header, Box::new(Shared(buf.clone()))).unwrap();
        let enc = sink.encoder();
        let mut rows = enc.rows(columns.clone());
        // A chunk's rows at a time, as the workers hand them on.
        for part in wants.chunks(chunk) {
            for w in part {
                rows.push(w.iter().map(cell));
            }
            sink.put(enc.encode(&mut rows)).unwrap();
        }
        sink.finish().unwrap();
        let out = buf.lock().unwrap().clone();
        match format {
            OutputFormat::Jsonl => {
                let text = String::from_utf8(out).expect("JSON Lines is UTF-8");
                let lines: Vec<&str> = text.lines().collect();
                assert_eq!(lines.len(), wants.len());
                for (l, w) in lines.iter().zip(&wants) {
                    let v: Value = serde_json::from_str(l).expect("a JSON row");
                    for (k, (name, _, _)) in fields.iter().enumerate() {
                        let got = &v[name];
                        match &w[k] {
                            Want::Null => assert!(got.is_null()),
                            Want::Bool(b) => assert_eq!(got, &Value::Bool(*b)),
                            Want::U64(n) => assert_eq!(got, &serde_json::json!(n)),
                            Want::Bytes(b) => assert_eq!(got.as_str(), Some(lossy(b).as_str())),
                            Want::Json(j) => {
                                assert_eq!(got, &serde_json::from_str::<Value>(j).unwrap())
                            }
                            Want::Error(m) => {
                                assert_eq!(got["kind"], "edit");
                                assert_eq!(got["message"].as_str(), Some(m.as_str()));
                            }
                        }
                    }
                }
            }
            OutputFormat::Tsv => {
                let mut lines = out.split(|&b| b == b'\n');
                let head = lines.next().unwrap();
                assert!(head.starts_with(b"line"));
                let lines: Vec<&[u8]> = lines.collect();
                // Rows never hold a raw LF: one line each, and the last
                // ends with one.
                assert_eq!(lines.len(), wants.len() + 1);
                assert!(lines[wants.len()].is_empty());
                for (l, w) in lines.iter().zip(&wants) {
                    let f: Vec<&[u8]> = l.split(|&b| b == b'\t').collect();
                    let mut i = 0;
                    for (k, c) in w.iter().enumerate() {
                        match c {
                            Want::Null => assert_eq!(f[i], b"\\N"),
                            Want::Bool(b) => assert_eq!(f[i], b.to_string().as_bytes()),
                            Want::U64(n) => assert_eq!(f[i], n.to_string().as_bytes()),
                            Want::Bytes(b) => assert_eq!(unescape(f[i]), *b),
                            Want::Json(j) => assert_eq!(unescape(f[i]), j.as_bytes()),
                            Want::Error(m) => {
                                assert_eq!(f[i], b"edit");
                                assert_eq!(unescape(f[i + 4]), m.as_bytes());
                            }
                        }
                        // The error struct is six fields (six nulls when none).
                        i += if fields[k].1 == Type::Error { 6 } else { 1 };
                    }
                    assert_eq!(i, f.len());
                }
            }
            OutputFormat::Csv => {
                let mut r = csv::ReaderBuilder::new()
                    .has_headers(true)
                    .flexible(false)
                    .from_reader(&out[..]);
                let recs: Vec<csv::ByteRecord> = r.byte_records().map(|x| x.unwrap()).collect();
                assert_eq!(recs.len(), wants.len());
                for (rec, w) in recs.iter().zip(&wants) {
                    let mut i = 0;
                    for (k, c) in w.iter().enumerate() {
                        let f = &rec[i];
                        match c {
                            Want::Null => assert_eq!(f, b""),
                            Want::Bool(b) => assert_eq!(f, b.to_string().as_bytes()),
                            Want::U64(n) => assert_eq!(f, n.to_string().as_bytes()),
                            Want::Bytes(b) => assert_eq!(f, &b[..]),
                            Want::Json(j) => assert_eq!(f, j.as_bytes()),
                            Want::Error(m) => {
                                assert_eq!(f, b"edit");
                                assert_eq!(&rec[i + 4], m.as_bytes());
                            }
                        }
                        i += if fields[k].1 == Type::Error { 6 } else { 1 };
                    }
                    assert_eq!(i, rec.len());
                }
            }
            OutputFormat::Arrow | OutputFormat::Parquet => {
                let batches = readback::read_back(&out, format);
                let n: usize = batches.iter().map(|b| b.num_rows()).sum();
                assert_eq!(n, wants.len());
                let mut r = 0;
                for b in &batches {
                    for i in 0..b.num_rows() {
                        for (k, c) in wants[r].iter().enumerate() {
                            let a = b.column(k);
                            match c {
                                Want::Null => assert!(a.is_null(i)),
                                Want::Bool(v) => assert_eq!(a.as_boolean().value(i), *v),
                                Want::U64(v) => {
                                    assert_eq!(a.as_primitive::<UInt64Type>().value(i), *v)
                                }
                                Want::Bytes(v) if fields[k].1 == Type::Bytes => {
                                    assert_eq!(a.as_binary::<i32>().value(i), &v[..])
                                }
                                Want::Bytes(v) => {
                                    assert_eq!(a.as_string::<i32>().value(i), lossy(v))
                                }
                                Want::Json(j) => assert_eq!(a.as_string::<i32>().value(i), j),
                                Want::Error(m) => {
                                    let s = a.as_struct();
                                    let msg = s.column_by_name("message").unwrap();
                                    assert_eq!(msg.as_string::<i32>().value(i), m);
                                }
                            }
                        }
                        r += 1;
                    }
                }
            }
        }
    }
});
