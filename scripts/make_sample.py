#!/usr/bin/env python3
"""Builds samples/requests.txt: the request targets of a small access log,
one per line, drawn with a fixed seed from the bundled corpora
(benches/data/), plus hand-made hostile lines (bad escapes, spaces, IP
literals, CRLF, invalid UTF-8, NUL). Run from the repository root:

    python3 scripts/make_sample.py
"""
import random

rng = random.Random(3986)
lines = []
for name in ("kasztp", "node_files"):
    with open(f"benches/data/{name}.txt", "rb") as f:
        corpus = f.read().split(b"\n")
    lines += rng.sample([l for l in corpus if l], 500)
# Relative references as they appear in request lines.
for l in list(lines[:200]):
    if l.startswith(b"https://"):
        rest = l[len(b"https://"):]
        slash = rest.find(b"/")
        lines.append(rest[slash:] if slash >= 0 else b"/")
hostile = [
    b"http://example.com/a b", b"http://example.com/%zz", b"http://[::1", b"http://[::1]:8080/ok",
    b"http://[v1.fe]/future", b"http://user:secret@example.com/", b"http://256.1.1.1/", b"//0x7f.1/",
    b"/search?q=caf\xc3\xa9", b"/bad\xff\xfe", b"/nul\x00byte", b"/crlf\r", b"mailto:someone@example.com",
    b"urn:isbn:0451450523", b"", b"?only=query", b"#frag", b"a:b:c", b"ht tp://x", b"http://a:99999999999/",
]
lines += hostile
rng.shuffle(lines)
with open("samples/requests.txt", "wb") as f:
    f.write(b"\n".join(lines) + b"\n")
print(f"wrote samples/requests.txt: {len(lines)} lines")
