//! The batch engine over a string column (values and offsets, no line
//! ends between items: `Batch::parse_offsets`, `validate_offsets`, and
//! `parse_offsets_keeping` the host alone) against single parsing of each
//! item. The first byte picks the profile, the second the byte that cuts
//! the rest into items (and is dropped), the third how many of the first
//! bytes lie before the column's first offset.
#![no_main]
use libfuzzer_sys::fuzz_target;
use urilex::{Batch, Component, Parser, Profile};

fuzz_target!(|data: &[u8]| {
    let [p, cut, lead, rest @ ..] = data else {
        return;
    };
    let profile = Profile::ALL[*p as usize % Profile::ALL.len()];
    let parser = Parser::new().profile(profile);
    let lead = (*lead as usize % 8).min(rest.len());
    let mut values = rest[..lead].to_vec();
    let mut offsets = vec![values.len() as u32];
    let items: Vec<&[u8]> = rest[lead..].split(|b| b == cut).collect();
    for it in &items {
        values.extend_from_slice(it);
        offsets.push(values.len() as u32);
    }
    // Bytes after the last item, as a slice of a longer column has.
    values.extend_from_slice(&rest[..lead]);
    let mut batch = Batch::new();
    batch.parse_offsets(&parser, &values, &offsets);
    assert_eq!(batch.len(), items.len());
    let mut verdicts = Vec::new();
    urilex::validate_offsets(&parser, &values, &offsets, |v| verdicts.push(v));
    assert_eq!(verdicts.len(), items.len());
    let mut host = Batch::new();
    host.parse_offsets_keeping(&parser, &values, &offsets, Component::Host);
    assert_eq!(host.len(), items.len());
    for (i, item) in items.iter().enumerate() {
        assert_eq!(batch.line(i, &values), *item);
        assert_eq!(host.line(i, &values), *item);
        match parser.parse_bytes(item) {
            Ok(u) => {
                assert!(verdicts[i] && host.is_valid(i));
                for c in Component::ALL {
                    assert_eq!(batch.span(i, c), u.span(c));
                }
                assert_eq!(batch.host_kind(i), u.host_kind());
                assert_eq!(host.span(i, Component::Host), u.span(Component::Host));
                assert_eq!(host.host_kind(i), u.host_kind());
            }
            Err(e) => {
                assert!(!verdicts[i]);
                assert_eq!(batch.parse_error(i), Some(e));
                assert_eq!(host.parse_error(i), Some(e));
            }
        }
    }
});
