//! Text for the extraction benchmarks (`benches/extract.rs`, the
//! `extract_peers` example): prose with URIs in mail, Markdown, HTML, JSON
//! and Apache log lines, deterministic, the URIs drawn from the bundled URL
//! corpora (benches/data/, see its README for their sources).

/// Deterministic text: about `lines` lines, one in three with a URI.
pub fn corpus(lines: usize) -> String {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/data");
    let mut urls: Vec<String> = Vec::new();
    for f in ["kasztp.txt", "node_files.txt"] {
        let text = std::fs::read_to_string(format!("{dir}/{f}")).expect("bundled corpus");
        urls.extend(
            text.lines()
                .filter(|l| l.starts_with("http") && !l.contains(['"', '<', '>', ' ']))
                .map(str::to_string),
        );
    }
    let words = [
        "the", "resource", "was", "moved", "see", "details", "in", "ticket", "and", "please",
        "check", "whether", "cache", "server", "returned", "an", "error", "for", "request", "ok",
    ];
    let mut x: u64 = 0x7E57_C0DE;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x as usize
    };
    let mut out = String::new();
    for _ in 0..lines {
        let url = &urls[next() % urls.len()];
        let mut prose = String::new();
        for _ in 0..8 + next() % 8 {
            prose.push_str(words[next() % words.len()]);
            prose.push(' ');
        }
        match next() % 9 {
            0 => out.push_str(&format!("{prose}see {url}.\n")),
            1 => out.push_str(&format!("{prose}[link]({url}) {prose}\n")),
            2 => out.push_str(&format!("<a href=\"{url}\">{prose}</a>\n")),
            3 => out.push_str(&format!("{{\"url\":\"{url}\",\"note\":\"{prose}\"}}\n")),
            4 => out.push_str(&format!(
                "10.0.0.1 - - [10/Oct/2000:13:55:36 -0700] \"GET /a HTTP/1.1\" 200 2326 \"{url}\" \"Mozilla/5.0 (X11; Linux x86_64)\"\n"
            )),
            5 => out.push_str(&format!("{prose}<{url}> {prose}\n")),
            _ => out.push_str(&format!("{prose}{prose}\n")),
        }
    }
    out
}
