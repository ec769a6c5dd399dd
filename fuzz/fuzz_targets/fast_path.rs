//! The generated fast paths (the structure programs over a classified
//! line, `codegen/bitprog.rs`) against the exact engine on arbitrary
//! bytes, in every profile: same spans and host kind wherever a fast path
//! answers, and no answer for an input the exact engine rejects. Also the
//! batch's verdicts (fast path first) against single parsing.
#![no_main]
use libfuzzer_sys::fuzz_target;
use urilex::{Batch, Parser};

fuzz_target!(|data: &[u8]| {
    if let Err(e) = urilex::check_fast_paths(data) {
        panic!("{e}");
    }
    let parser = Parser::new();
    let mut batch = Batch::new();
    batch.parse_lines(&parser, data);
    for i in 0..batch.len() {
        let line = batch.line(i, data);
        assert_eq!(batch.is_valid(i), parser.parse_bytes(line).is_ok());
    }
});
