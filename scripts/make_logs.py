#!/usr/bin/env python3
"""Builds the bundled log samples from the bundled corpora (benches/data/),
with a fixed seed, plus hand-made hostile records:

  samples/access.log    Apache/nginx combined log: origin-form targets,
                        absolute-form (proxy) targets, CONNECT and OPTIONS *,
                        referers and "-", the loggers' escapes, broken lines
  samples/events.jsonl  JSON Lines with the URL at url.original (nested or
                        flattened), JSON escapes, missing and null fields,
                        a number, a line that is not JSON
  samples/visits.csv    CSV with a header (id,url,referrer,note), quoted
                        fields holding commas, quotes and line breaks

Run from the repository root:  python3 scripts/make_logs.py
With a number N it writes N log lines to standard output instead (the
benchmark's generated ~1 GB log): python3 scripts/make_logs.py 20000000
"""
import json
import random
import sys

rng = random.Random(9112)
urls = []
for name in ("kasztp", "node_files"):
    with open(f"benches/data/{name}.txt", "rb") as f:
        urls += [l for l in f.read().split(b"\n") if l]
https = [u for u in urls if u.startswith(b"https://")]


def origin(u):
    rest = u.split(b"://", 1)[1]
    slash = rest.find(b"/")
    return rest[slash:] if slash >= 0 else b"/"


def esc(b):
    """As Apache's mod_log_config writes a quoted field."""
    out = bytearray()
    for c in b:
        if c == 0x22:
            out += b'\\"'
        elif c == 0x5C:
            out += b"\\\\"
        elif c < 0x20 or c >= 0x7F:
            out += b"\\x%02x" % c
        else:
            out.append(c)
    return bytes(out)


AGENTS = [b"Mozilla/5.0 (X11; Linux x86_64) Gecko/20100101 Firefox/120.0",
          b"curl/8.5.0", b"Googlebot/2.1 (+http://www.google.com/bot.html)", b"-"]
METHODS = [b"GET"] * 8 + [b"POST", b"HEAD"]


def line(i, ts):
    client = b"%d.%d.%d.%d" % (rng.randrange(1, 224), rng.randrange(256), rng.randrange(256), rng.randrange(1, 255))
    r = rng.random()
    if r < 0.80:
        req = b"%s %s HTTP/1.1" % (rng.choice(METHODS), origin(rng.choice(https)))
    elif r < 0.90:
        req = b"GET %s HTTP/1.1" % rng.choice(urls)
    elif r < 0.95:
        req = b"CONNECT %s:443 HTTP/1.1" % rng.choice(https).split(b"/")[2].split(b":")[0]
    else:
        req = b"OPTIONS * HTTP/1.1"
    ref = rng.choice(https) if rng.random() < 0.6 else b"-"
    status = rng.choice([b"200", b"200", b"200", b"304", b"404", b"301"])
    size = b"-" if status == b"304" else b"%d" % rng.randrange(100, 90000)
    return b'%s - - [%s] "%s" %s %s "%s" "%s"' % (
        client, ts, esc(req), status, size, esc(ref), rng.choice(AGENTS))


def stamp(i):
    return b"25/Nov/2026:%02d:%02d:%02d +0000" % ((i // 3600) % 24, (i // 60) % 60, i % 60)


if len(sys.argv) > 1:
    out = sys.stdout.buffer
    n = int(sys.argv[1])
    block = [line(i, stamp(i)) for i in range(20000)]
    for k in range(0, n, len(block)):
        out.write(b"\n".join(block[: n - k]) + b"\n")
    sys.exit(0)

log = [line(i, stamp(i)) for i in range(2000)]
hostile = [
    # nginx writes what is not printable as \xHH; a TLS handshake on port 80:
    b'203.0.113.9 - - [25/Nov/2026:10:00:00 +0000] "\\x16\\x03\\x01\\x02\\x00\\x01\\x00" 400 157 "-" "-"',
    b'203.0.113.9 - - [25/Nov/2026:10:00:01 +0000] "-" 408 0 "-" "-"',
    b'203.0.113.9 - - [25/Nov/2026:10:00:02 +0000] "GET /a b HTTP/1.1" 400 0 "-" "-"',
    b'203.0.113.9 - - [25/Nov/2026:10:00:03 +0000] "GET /q?x=\\"quoted\\" HTTP/1.1" 200 5 "-" "-"',
    b'203.0.113.9 - - [25/Nov/2026:10:00:04 +0000] "GET /caf\\xc3\\xa9 HTTP/1.1" 200 5 "-" "-"',
    b'203.0.113.9 - - [25/Nov/2026:10:00:05 +0000] "GET /bad\\xff HTTP/1.1" 400 5 "-" "-"',
    b'203.0.113.9 - - [25/Nov/2026:10:00:06 +0000] "GET //evil.example/x HTTP/1.1" 200 5 "-" "-"',
    b'203.0.113.9 - - [25/Nov/2026:10:00:07 +0000] "GET /old"',
    b'203.0.113.9 - - [25/Nov/2026:10:00:08 +0000] "GET /%zz HTTP/1.0" 400 5 "http://example.com/%zz" "-"',
    b'203.0.113.9 - - [25/Nov/2026:10:00:09 +0000] "GET * HTTP/1.1" 400 5 "-" "-"',
    b'203.0.113.9 - - [25/Nov/2026:10:00:10 +0000] "CONNECT [2001:db8::1]:8443 HTTP/1.1" 200 0 "-" "-"',
    b'203.0.113.9 - - [25/Nov/2026:10:00:11 +0000] "GET /nul\\x00 HTTP/1.1" 400 5 "-" "-"',
    b'garbage that is not a log line',
    b'',
    b'203.0.113.9 - - [25/Nov/2026:10:00:12 +0000] "GET /crlf\\x0d\\x0a HTTP/1.1" 400 5 "-" "-"',
    b'203.0.113.9 - - [25/Nov/2026:10:00:13 +0000] "GET /x HTTP/1.1" 200 5 "bad referer" "-"',
]
for h in hostile:
    log.insert(rng.randrange(len(log)), h)
with open("samples/access.log", "wb") as f:
    f.write(b"\n".join(log) + b"\n")

events = []
for i in range(500):
    u = rng.choice(urls).decode()
    r = rng.random()
    if r < 0.6:
        events.append(json.dumps({"@timestamp": "2026-11-25T10:00:%02dZ" % (i % 60), "event": {"kind": "event"},
                                  "url": {"original": u, "domain": "x"}, "http": {"response": {"status_code": 200}}}))
    elif r < 0.8:
        events.append(json.dumps({"url.original": u, "tags": ["a", "}", "{"]}, ensure_ascii=True).replace("/", "\\/"))
    else:
        events.append(json.dumps({"message": "x", "url": {"original": u}}))
for h in [
    '{"url":{"original":"http:\\/\\/example.com\\/\\u0041?q=caf\\u00e9"}}',
    '{"url":{"original":null}}',
    '{"url":{"domain":"no original here"}}',
    '{"url":{"original":404}}',
    'not json at all',
    '{"url":{"original":"http://example.com/a b"}}',
    '{"url":{"original":"http://a/\\ud83d\\ude00"}}',
    '{"url":{"original":"line\\nbreak"}}',
    '{"url": {"original": "unterminated',
]:
    events.insert(rng.randrange(len(events)), h)
with open("samples/events.jsonl", "w") as f:
    f.write("\n".join(events) + "\n")

rows = [b"id,url,referrer,note"]
for i in range(300):
    u = rng.choice(urls)
    note = rng.choice([b"plain", b'"with, comma"', b'"say ""hi"""', b'"two\nlines"', b""])
    url = b'"%s"' % u if b"," in u or rng.random() < 0.2 else u
    rows.append(b"%d,%s,%s,%s" % (i, url, rng.choice(https), note))
rows += [b'900,"http://example.com/a,b",-,"quoted url with a comma"',
         b'901,"http://example.com/""q""",-,quote in a url',
         b'902,http://example.com/ok\r',
         b'903',
         b'904,"http://example.com/x\nwith a line break",-,x']
with open("samples/visits.csv", "wb") as f:
    f.write(b"\n".join(rows) + b"\n")
