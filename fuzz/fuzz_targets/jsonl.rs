//! JSON Lines fields (io's `json::field`, the scanner of `--input
//! jsonl:PATH`) against `serde_json` (the oracle), on arbitrary lines and
//! on generated objects (nesting, flattened and nested paths, repeated
//! keys, every escape, surrogate pairs, numbers of every form), whole, cut
//! short, or with bytes after them:
//! - a line serde_json rejects (or that is not an object) is an error;
//! - otherwise the field is the value serde_json's tree has at the path by
//!   the documented rule (the whole path as a key first, then the shortest
//!   key that is a prefix of it, whose object holds the rest; a repeated
//!   key by its last occurrence): a string is that string, null or missing
//!   is absent, anything else an error.
//!
//! And through the pipeline, one row per line, an error row exactly where
//! the scanner says so.
#![no_main]

#[path = "common/mod.rs"]
mod common;

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

#[derive(Arbitrary, Debug)]
enum Gen {
    Str(Vec<u16>, u8),
    Num(i64, u8),
    Lit(u8),
    Arr(Vec<Gen>),
    Obj(Vec<(u8, Gen)>),
}

#[derive(Arbitrary, Debug)]
enum Line {
    Bytes(Vec<u8>),
    Object(Vec<(u8, Gen)>, u8, Vec<u8>),
}

const KEYS: [&str; 6] = ["u", "url", "url.original", "original", "a.b", "b"];
const PATHS: [&str; 4] = ["u", "url.original", "a.b.u", "url"];

fn key(k: u8, escape: bool, out: &mut String) {
    let k = KEYS[k as usize % KEYS.len()];
    string_units(
        &k.encode_utf16().collect::<Vec<_>>(),
        if escape { 3 } else { 0 },
        out,
    );
}

/// A JSON string of these UTF-16 units, each written plainly or escaped
/// as `how` says (lone surrogates come out as `\u` escapes, which serde
/// rejects, as it should).
fn string_units(units: &[u16], how: u8, out: &mut String) {
    out.push('"');
    for (i, ch) in char::decode_utf16(units.iter().copied()).enumerate() {
        match ch {
            Ok(c) => {
                let escape = (how as usize + i) % 4 == 3;
                match c {
                    '"' => out.push_str("\\\""),
                    '\\' => out.push_str("\\\\"),
                    '/' if escape => out.push_str("\\/"),
                    '\n' => out.push_str("\\n"),
                    c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
                    c if escape => {
                        let mut b = [0u16; 2];
                        for u in c.encode_utf16(&mut b) {
                            out.push_str(&format!("\\u{u:04X}"));
                        }
                    }
                    c => out.push(c),
                }
            }
            Err(e) => out.push_str(&format!("\\u{:04x}", e.unpaired_surrogate())),
        }
    }
    out.push('"');
}

fn value(g: &Gen, depth: usize, out: &mut String) {
    match g {
        Gen::Str(units, how) => string_units(&units[..units.len().min(40)], *how, out),
        Gen::Num(n, how) => match how % 5 {
            0 => out.push_str(&n.to_string()),
            1 => out.push_str(&format!("{}.{}", n / 7, n.unsigned_abs() % 1000)),
            2 => out.push_str(&format!("{}e{}", n % 100, how % 40)),
            3 => out.push_str(&format!("-0.{}E-{}", n.unsigned_abs(), how)),
            _ => out.push_str("1e400"),
        },
        Gen::Lit(k) => out.push_str(["true", "false", "null"][*k as usize % 3]),
        Gen::Arr(items) if depth < 8 => {
            out.push('[');
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                value(v, depth + 1, out);
            }
            out.push(']');
        }
        Gen::Obj(members) if depth < 8 => object(members, depth + 1, out),
        _ => out.push_str("null"),
    }
}

fn object(members: &[(u8, Gen)], depth: usize, out: &mut String) {
    out.push('{');
    for (i, (k, v)) in members.iter().enumerate() {
        if i > 0 {
            out.push_str(if i % 3 == 0 { " , " } else { "," });
        }
        key(*k, i % 2 == 1, out);
        out.push(':');
        value(v, depth, out);
    }
    out.push('}');
}

/// The rule of `json::field` over serde_json's tree.
fn lookup<'v>(obj: &'v serde_json::Map<String, Value>, path: &str) -> Option<&'v Value> {
    if let Some(v) = obj.get(path) {
        return Some(v);
    }
    path.match_indices('.')
        .find_map(|(i, _)| match obj.get(&path[..i]) {
            Some(Value::Object(inner)) => lookup(inner, &path[i + 1..]),
            _ => None,
        })
}

fuzz_target!(|input: (Line, u8)| {
    let (line, p) = input;
    let path = PATHS[p as usize % PATHS.len()];
    let bytes: Vec<u8> = match &line {
        Line::Bytes(b) => b.clone(),
        Line::Object(members, how, tail) => {
            let mut s = String::new();
            object(members, 0, &mut s);
            let mut b = s.into_bytes();
            match how % 4 {
                // Cut short.
                0 => b.truncate(tail.len() % (b.len() + 1)),
                // Something after it.
                1 => b.extend_from_slice(tail),
                // Spaces around.
                2 => {
                    b.insert(0, b' ');
                    b.extend_from_slice(b" \t\r");
                }
                _ => {}
            }
            b
        }
    };
    if bytes.contains(&b'\n') {
        return;
    }
    let mut got = Vec::new();
    let ours = urilex_io::json::field(&bytes, path, &mut got);
    let theirs: Result<Value, _> = serde_json::from_slice(&bytes);
    match (&ours, theirs) {
        (_, Err(e)) => assert!(
            ours.is_err(),
            "serde_json rejects {:?} ({e}); ours: {ours:?}",
            String::from_utf8_lossy(&bytes)
        ),
        (_, Ok(Value::Object(obj))) => match lookup(&obj, path) {
            Some(Value::String(s)) => {
                assert_eq!(ours, Ok(Some(())), "{:?}", String::from_utf8_lossy(&bytes));
                assert_eq!(got, s.as_bytes());
            }
            None | Some(Value::Null) => {
                assert_eq!(ours, Ok(None), "{:?}", String::from_utf8_lossy(&bytes))
            }
            Some(_) => assert!(
                matches!(ours, Err((m, _)) if m.starts_with("the field is")),
                "{:?}: {ours:?}",
                String::from_utf8_lossy(&bytes)
            ),
        },
        (_, Ok(_)) => assert!(ours.is_err()),
    }

    // The pipeline: the line twice with a good one between, three rows.
    let mut text = bytes.clone();
    text.extend_from_slice(b"\n{\"u\":\"/ok\",\"url\":{\"original\":\"/ok\"},\"a.b\":{\"u\":\"/ok\"},\"url\":\"/ok\"}\n");
    text.extend_from_slice(&bytes);
    text.push(b'\n');
    let f = common::file("in.jsonl", &text);
    let run = common::Run::new(common::input(&format!("jsonl:{path}")));
    let (rows, _) = common::rows(&run, &[f]);
    assert_eq!(rows.len(), 3);
    for k in [0, 2] {
        let kind = &rows[k]["error"]["kind"];
        assert_eq!(ours.is_err(), kind == "format", "{:?}", rows[k]);
    }
    assert_eq!(rows[1]["error"], Value::Null);
});
