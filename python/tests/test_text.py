"""URNs, percent-encoding and extraction against the published vectors and
the CLI (the Rust library's own answers)."""

import json

import pytest

import urilex
from conftest import DATA, REPO, jsonl, run


def test_published_urn_vectors():
    records = jsonl("urn.jsonl")
    assert len(records) == 132
    for r in records:
        if not r["valid"]:
            with pytest.raises(urilex.ParseError):
                urilex.urn.parse(r["input"])
            continue
        u = urilex.urn.parse(r["input"])
        for key, attr in [("nid", "nid"), ("nss", "nss"), ("r", "r_component"), ("q", "q_component"), ("f", "f_component")]:
            if key in r:
                assert getattr(u, attr) == r[key], (r, key)


def test_published_urn_equivalence():
    records = jsonl("urn_equiv.jsonl")
    assert len(records) == 108
    for r in records:
        a, b = urilex.urn.parse(r["a"]), urilex.urn.parse(r["b"])
        assert a.equivalent(b) == r["equivalent"], r
        assert a.equivalent(r["b"]) == r["equivalent"], r
        assert (a.normalized() == b.normalized()) == r["equivalent"], r


def test_urn_errors_name_the_fault():
    with pytest.raises(urilex.ParseError) as e:
        urilex.urn.parse("urn:-bad:x")
    assert e.value.index >= 4
    with pytest.raises(urilex.ParseError):
        urilex.urn.parse("http://not.a.urn/")


def test_pct():
    # The library's documented examples (src/pct/encode.rs, decode.rs).
    assert urilex.pct.encode("a b&c=d/é", "query") == "a%20b&c=d/%C3%A9"
    assert urilex.pct.encode("/already%20done", "path") == "/already%20done"
    assert urilex.pct.encode("me@host", "userinfo") == "me%40host"
    assert urilex.pct.encode("8080", "port") == "8080"
    with pytest.raises(ValueError, match="port cannot hold 'a'"):
        urilex.pct.encode("8a", "port")
    with pytest.raises(ValueError, match="unknown component"):
        urilex.pct.encode("x", "nowhere")
    assert urilex.pct.decode_bytes("a%20b%FF") == b"a b\xff"
    assert urilex.pct.decode("caf%C3%A9") == "café"
    with pytest.raises(ValueError, match="malformed"):
        urilex.pct.decode("100%")
    with pytest.raises(ValueError, match="not UTF-8"):
        urilex.pct.decode("%FF")
    # Encoding then decoding gives the text back, for every byte value.
    text = "".join(chr(c) for c in range(1, 256))
    for part in ["path", "query", "fragment", "userinfo"]:
        enc = urilex.pct.encode(text.replace("%", ""), part)
        assert urilex.pct.decode(enc) == text.replace("%", "")
        # What it gives is a valid component.
        assert urilex.is_valid({"path": "/", "query": "?", "fragment": "#", "userinfo": "//"}[part] + enc + ("@h" if part == "userinfo" else ""))


def cli_hits(binary, path, *flags):
    out = run(binary, "extract", "--format", "jsonl", *flags, str(path))
    return [json.loads(l) for l in out.decode().splitlines()]


@pytest.mark.parametrize("flags", [(), ("--abbreviated",), ("--refang",)])
def test_extract_matches_the_cli(urilex_bin, tmp_path, flags):
    texts = [(DATA / "extract-seed002-appendix.txt").read_text(encoding="utf-8")]
    for name in ["linkify-url.jsonl", "linkify-it.jsonl"]:
        texts += [r["input"] for r in jsonl(f"extract/{name}")]
    texts.append("défanged hxxp://example[.]com and www.example.org/x, <URL:http://a/b>")
    kw = {"abbreviated": "--abbreviated" in flags, "refang": "--refang" in flags}
    checked = 0
    for i, text in enumerate(texts):
        # One file per text: the CLI's offsets count from its input's start.
        p = tmp_path / f"t{i}.txt"
        p.write_bytes(text.encode("utf-8"))
        want = cli_hits(urilex_bin, p, *flags)
        got = urilex.extract(text, **kw)
        assert [h.uri for h in got] == [w["uri"] for w in want], text
        for h, w in zip(got, want):
            # Python offsets count characters; the CLI's count bytes.
            assert len(text[: h.start].encode("utf-8")) == w["start"]
            assert len(text[: h.end].encode("utf-8")) == w["end"]
            assert h.delimiter == w["delimiter"]
            assert sorted(h.flags) == sorted(w["flags"])
            checked += 1
    assert checked > 50
