//! Edits with `=` data (percent-encoded for its component) give a valid
//! reference on every valid input and any data: `Editor::apply` parses its
//! result again and reports one that is not valid, so any error here but
//! "no authority" (a user, password or port on a reference without one) is
//! a bug in the encoding.
#![no_main]
use libfuzzer_sys::fuzz_target;
use urilex::edit::{Editor, Edits};

fuzz_target!(|input: (&str, &str, u8)| {
    let (reference, data, which) = input;
    let Ok(u) = urilex::UriRef::parse(reference) else {
        return;
    };
    let targets = ["user", "password", "host", "path", "query", "fragment"];
    let edits = match which % 10 {
        k @ 0..=5 => Edits::new().set(&format!("{}={data}", targets[k as usize])),
        6 => Edits::new().append(&format!("path={data}")),
        7 => Edits::new().append(&format!("query={data}")),
        8 => Ok(Edits::new().replace_append(data).sort_query(true)),
        _ => Ok(Edits::new().qtrim(data).replace(data)),
    };
    let Ok(edits) = edits else {
        return;
    };
    let mut out = String::new();
    if let Err(e) = Editor::new().apply(&edits, &u, &mut out) {
        assert!(
            e.0.contains("no authority"),
            "{reference:?} {data:?} {which}: {e}"
        );
    }
});
