//! The batch engine against single parsing on arbitrary buffers of lines:
//! same count of lines, same verdicts, errors, spans, parts and host kinds.
#![no_main]
use libfuzzer_sys::fuzz_target;
use urilex::{Batch, Component, Parser, Profile};

fuzz_target!(|data: &[u8]| {
    let profile = Profile::ALL[data.first().copied().unwrap_or(0) as usize % Profile::ALL.len()];
    let parser = Parser::new().profile(profile);
    let mut batch = Batch::new();
    batch.parse_lines(&parser, data);
    let lines: Vec<&[u8]> = if data.is_empty() {
        Vec::new()
    } else {
        let body = data.strip_suffix(b"\n").unwrap_or(data);
        body.split(|&b| b == b'\n')
            .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
            .collect()
    };
    assert_eq!(batch.len(), lines.len());
    for (i, line) in lines.iter().enumerate() {
        assert_eq!(batch.line(i, data), *line);
        match parser.parse_bytes(line) {
            Ok(u) => {
                for c in Component::ALL {
                    assert_eq!(batch.span(i, c), u.span(c));
                }
                assert_eq!(batch.host_kind(i), u.host_kind());
                // Every part the profile declares (RFC 1738's shared slots too).
                let b = batch.get(i, data).expect("valid in the batch too");
                assert_eq!(b.scheme_rule(), u.scheme_rule());
                for p in profile.parts() {
                    assert!(b
                        .occurrences(p.name())
                        .spans()
                        .eq(u.occurrences(p.name()).spans()));
                }
            }
            Err(e) => assert_eq!(batch.parse_error(i), Some(e)),
        }
    }
    let c = urilex::validate_lines(&parser, data);
    assert_eq!(c.total, batch.len());
    assert_eq!(c, batch.counts());
});
