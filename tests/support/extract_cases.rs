//! Realistic text with the URIs in it: the table `tests/extract.rs` checks
//! and `examples/extract_peers.rs` measures recall on (urilex and linkify).

/// (input, the URIs in it)
pub const REALISTIC: &[(&str, &[&str])] = &[
    ("From: a@b.example\nSee https://example.com/docs?id=3 for details.", &["https://example.com/docs?id=3"]),
    ("Read [the guide](https://example.com/guide#install) first.", &["https://example.com/guide#install"]),
    ("<a href=\"https://example.org/x?a=1&amp;b=2\">link</a>", &["https://example.org/x?a=1&amp;b=2"]),
    ("127.0.0.1 - - [10/Oct/2000:13:55:36 -0700] \"GET /a.gif HTTP/1.0\" 200 2326 \"http://www.example.com/start.html\" \"Mozilla/4.08 [en] (Win98; I ;Nav)\"", &["http://www.example.com/start.html"]),
    ("{\"url\":\"https://api.example.com/v1/items/42\",\"ok\":true}", &["https://api.example.com/v1/items/42"]),
    ("Visit https://example.com/path.", &["https://example.com/path"]),
    ("Is it http://example.com/a, or http://example.com/b? Both!", &["http://example.com/a", "http://example.com/b"]),
    ("IPv6: http://[2001:db8::1]:8080/x, then http://[::1]/.", &["http://[2001:db8::1]:8080/x", "http://[::1]/"]),
    ("https://en.wikipedia.org/wiki/Rust_(programming_language) is long", &["https://en.wikipedia.org/wiki/Rust_(programming_language)"]),
    ("(see https://example.com/x)", &["https://example.com/x"]),
    ("mail mailto:someone@example.com or call tel:+1-816-555-1212.", &["mailto:someone@example.com", "tel:+1-816-555-1212"]),
    ("ISBN urn:isbn:0451450523 and news:comp.infosystems.www.servers.unix", &["urn:isbn:0451450523", "news:comp.infosystems.www.servers.unix"]),
    ("Note: e.g.: nothing here, time 12:30, ratio 3:1.", &[]),
    ("no uri at all in this line", &[]),
    ("'https://example.com/quoted' and ‘https://example.com/curly’", &["https://example.com/quoted", "https://example.com/curly"]),
    ("ftp://ftp.is.co.za/rfc/rfc1808.txt;type=a and file:///etc/hosts", &["ftp://ftp.is.co.za/rfc/rfc1808.txt;type=a", "file:///etc/hosts"]),
    ("2024-01-01T00:00:00Z GET https://cdn.example.net/a/b.js?v=1 200", &["https://cdn.example.net/a/b.js?v=1"]),
    ("three: http://a.example/ http://b.example/ http://c.example/", &["http://a.example/", "http://b.example/", "http://c.example/"]),
];
