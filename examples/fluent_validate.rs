//! The baseline for `urilex validate`: memory-map a file, find its lines
//! with memchr (as a real line validator would), and run fluent-uri on each,
//! counting valid ones.
//! `cargo run --release --example fluent_validate -- FILE`
fn main() {
    let path = std::env::args().nth(1).expect("FILE");
    let file = std::fs::File::open(&path).expect("open");
    // SAFETY: read-only map of a file nobody changes during the measurement.
    let map = unsafe { memmap2::Mmap::map(&file) }.expect("mmap");
    let buf: &[u8] = &map;
    let (mut total, mut valid) = (0usize, 0usize);
    let mut start = 0;
    while start < buf.len() {
        let end = memchr::memchr(b'\n', &buf[start..]).map_or(buf.len(), |p| start + p);
        let line = &buf[start..end];
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        total += 1;
        if let Ok(s) = std::str::from_utf8(line) {
            valid += fluent_uri::UriRef::parse(s).is_ok() as usize;
        }
        start = end + 1;
    }
    println!("total\t{total}\nvalid\t{valid}");
}
