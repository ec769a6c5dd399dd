#!/usr/bin/env python3
"""One JSON row per line of a file with Python's urllib.parse.urlsplit and
json.dumps: what a Python user writes without urilex (urlsplit splits
without validating). Usage: peer_urlsplit.py FILE > rows.jsonl"""
import json
import sys
from urllib.parse import urlsplit

out = sys.stdout
with open(sys.argv[1], "rb") as f:
    for n, raw in enumerate(f, 1):
        line = raw.rstrip(b"\n").rstrip(b"\r").decode("utf-8", "replace")
        try:
            u = urlsplit(line)
            row = {"line": n, "valid": True, "scheme": u.scheme or None, "netloc": u.netloc or None,
                   "username": u.username, "host": u.hostname, "port": u.port, "path": u.path,
                   "query": u.query or None, "fragment": u.fragment or None, "error": None}
        except ValueError as e:
            row = {"line": n, "valid": False, "error": str(e)}
        out.write(json.dumps(row))
        out.write("\n")
