//! Any text: no panic; every hit parses as an absolute URI under the
//! profile; spans are inside the text, in order and not overlapping; a hit
//! that was not rewritten is exactly its span's text. All option sets.
//! And text cut at a line start and searched in two parts, as the CLI
//! does (`stop_at`, then from the cut or past the first part's last hit),
//! gives the hits of one search.
#![no_main]
#[path = "../../tests/support/parts.rs"]
mod parts;

use libfuzzer_sys::fuzz_target;
use urilex::extract::{find_iter, ExtractOptions, Flags, Hit};
use urilex::{Parser, Profile, Syntax};

fuzz_target!(|data: &[u8]| {
    for (i, p) in Profile::ALL.iter().enumerate() {
        let o = ExtractOptions::new()
            .profile(*p)
            .abbreviated(i % 2 == 0)
            .refang(i % 3 == 0);
        let parser = Parser::new().profile(*p).syntax(Syntax::Uri);
        let mut last = 0;
        for h in find_iter(data, o) {
            assert!(parser.parse(&h.uri).is_ok(), "{:?}", h.uri);
            assert!(last <= h.span.start && h.span.start < h.span.end && h.span.end <= data.len());
            last = h.span.end;
            if h.flags == Flags::default() {
                assert_eq!(&data[h.span.clone()], h.uri.as_bytes());
            }
        }
        // Two parts, cut at the first line start from the middle on.
        let Some(cut) = data[data.len() / 2..]
            .iter()
            .position(|&b| b == b'\n')
            .map(|k| data.len() / 2 + k + 1)
        else {
            continue;
        };
        let whole: Vec<Hit> = find_iter(data, o).collect();
        assert_eq!(whole, parts::in_two_parts(data, o, cut), "cut at {cut}");
    }
});
