//! The column functions' views (`uri_parse`, `parse_arrow`, the part
//! functions): parts made as views into a `Utf8` column's buffer without
//! Arrow's per-value check (`SpanViews`) are a valid array by Arrow's own
//! full validation, and the same values as the path that copies (the
//! same column as `Utf8View`, gathered, built row by row and viewed after)
//! and as `UriRef::parse` of each value; slices of the column (offsets
//! into a shared buffer) agree with the whole, and so do `parse` and the
//! part functions made in pieces and joined.
#![no_main]

use arbitrary::Arbitrary;
use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef, StringArray, StringViewArray};
use libfuzzer_sys::fuzz_target;
use std::sync::Arc;
use urilex::Component;
use urilex_columns::{function, Literals};

#[derive(Arbitrary, Debug)]
struct Case {
    values: Vec<Option<String>>,
    slice_at: u8,
}

fn eval(name: &str, col: &ArrayRef) -> ArrayRef {
    function(name)
        .unwrap()
        .eval(col, &Literals(Vec::new()))
        .unwrap()
}

fuzz_target!(|case: Case| {
    if case.values.len() > 200 {
        return;
    }
    let plain: ArrayRef = Arc::new(StringArray::from(case.values.clone()));
    let views: ArrayRef = Arc::new(StringViewArray::from(case.values.clone()));
    let parsed = eval("parse", &plain);
    parsed
        .to_data()
        .validate_full()
        .expect("a valid Arrow array");
    let copied = eval("parse", &views);
    copied
        .to_data()
        .validate_full()
        .expect("a valid Arrow array");
    assert_eq!(parsed.data_type(), copied.data_type());
    assert_eq!(parsed.as_ref(), copied.as_ref(), "views and copies differ");
    // Cut into pieces (of five rows at the least under the fuzzer), made
    // apart and joined before the arrays: the same column.
    for threads in [2, 3, 7] {
        let pieces = urilex_columns::parse_in_pieces(&plain, threads);
        pieces
            .to_data()
            .validate_full()
            .expect("a valid Arrow array");
        assert_eq!(pieces.as_ref(), parsed.as_ref(), "{threads} pieces");
        // And the part functions' views, made in pieces in the same way.
        for c in [
            Component::Scheme,
            Component::Authority,
            Component::Userinfo,
            Component::Host,
            Component::Path,
            Component::Query,
            Component::Fragment,
        ] {
            let pieces = urilex_columns::part_in_pieces(&plain, c, threads);
            pieces
                .to_data()
                .validate_full()
                .expect("a valid Arrow array");
            assert_eq!(
                pieces.as_ref(),
                eval(c.as_str(), &plain).as_ref(),
                "{c:?} in {threads} pieces"
            );
        }
    }
    let s = parsed.as_struct();
    for (i, v) in case.values.iter().enumerate() {
        let Some(v) = v else {
            assert!(s.is_null(i));
            continue;
        };
        let valid = s.column_by_name("valid").unwrap().as_boolean().value(i);
        let one = urilex::UriRef::parse(v);
        assert_eq!(valid, one.is_ok(), "{v:?}");
        let Ok(u) = one else { continue };
        let part = |name: &str| {
            let c = s.column_by_name(name).unwrap().as_string_view();
            (!c.is_null(i)).then(|| c.value(i).to_string())
        };
        for name in [
            "scheme",
            "authority",
            "userinfo",
            "host",
            "port",
            "path",
            "query",
            "fragment",
        ] {
            assert_eq!(part(name).as_deref(), u.part(name), "{v:?}: {name}");
        }
    }
    // A slice: its offsets point into the whole column's buffer.
    let n = case.values.len();
    if n > 0 {
        let at = case.slice_at as usize % n;
        let sliced = plain.slice(at, n - at);
        let host = eval("host", &sliced);
        host.to_data().validate_full().expect("a valid Arrow array");
        let whole = eval("host", &plain);
        assert_eq!(host.as_ref(), whole.slice(at, n - at).as_ref());
        let p = eval("parse", &sliced);
        assert_eq!(p.as_ref(), parsed.slice(at, n - at).as_ref());
    }
});
