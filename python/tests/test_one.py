"""One reference at a time: urilex.parse and UriRef against the published
vectors (tests/data, each record naming its source) and RFC 3986's own
examples."""

import pickle

import pytest

import urilex
from conftest import jsonl, run

PARTS = ["scheme", "authority", "userinfo", "host", "host_kind", "port", "path", "query", "fragment"]


def uncontested_reference_vectors():
    """The parse vectors for URI-reference whose verdict no one contests
    (tests/vectors.rs decides the contested ones by the RFC text)."""
    return [
        r
        for r in jsonl("parse.jsonl")
        if r.get("grammar") in (None, "URI-reference")
        and "contested" not in r
        and "rfc3986_literal" not in r
    ]


def test_published_parse_vectors():
    records = uncontested_reference_vectors()
    assert len(records) > 500
    failures = []
    for r in records:
        ok = urilex.is_valid(r["input"])
        if ok != r["valid"]:
            failures.append((r["input"], "verdict", ok, r["source"]))
            continue
        if not ok:
            with pytest.raises(urilex.ParseError):
                urilex.parse(r["input"])
            continue
        u = urilex.parse(r["input"])
        for k in PARTS:
            if k in r and getattr(u, k) != r[k]:
                failures.append((r["input"], k, getattr(u, k), r[k], r["source"]))
    assert failures == []


# RFC 3986 section 5.4.1 (normal examples) and 5.4.2 (abnormal examples).
BASE = "http://a/b/c/d;p?q"
RFC_5_4 = [
    ("g:h", "g:h"), ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"),
    ("g/", "http://a/b/c/g/"), ("/g", "http://a/g"), ("//g", "http://g"),
    ("?y", "http://a/b/c/d;p?y"), ("g?y", "http://a/b/c/g?y"), ("#s", "http://a/b/c/d;p?q#s"),
    ("g#s", "http://a/b/c/g#s"), ("g?y#s", "http://a/b/c/g?y#s"), (";x", "http://a/b/c/;x"),
    ("g;x", "http://a/b/c/g;x"), ("g;x?y#s", "http://a/b/c/g;x?y#s"), ("", "http://a/b/c/d;p?q"),
    (".", "http://a/b/c/"), ("./", "http://a/b/c/"), ("..", "http://a/b/"), ("../", "http://a/b/"),
    ("../g", "http://a/b/g"), ("../..", "http://a/"), ("../../", "http://a/"), ("../../g", "http://a/g"),
    ("../../../g", "http://a/g"), ("../../../../g", "http://a/g"), ("/./g", "http://a/g"),
    ("/../g", "http://a/g"), ("g.", "http://a/b/c/g."), (".g", "http://a/b/c/.g"),
    ("g..", "http://a/b/c/g.."), ("..g", "http://a/b/c/..g"), ("./../g", "http://a/b/g"),
    ("./g/.", "http://a/b/c/g/"), ("g/./h", "http://a/b/c/g/h"), ("g/../h", "http://a/b/c/h"),
    ("g;x=1/./y", "http://a/b/c/g;x=1/y"), ("g;x=1/../y", "http://a/b/c/y"),
    ("g?y/./x", "http://a/b/c/g?y/./x"), ("g?y/../x", "http://a/b/c/g?y/../x"),
    ("g#s/./x", "http://a/b/c/g#s/./x"), ("g#s/../x", "http://a/b/c/g#s/../x"),
    ("http:g", "http:g"),
]


@pytest.mark.parametrize("ref,want", RFC_5_4)
def test_rfc3986_5_4(ref, want):
    base = urilex.parse(BASE)
    assert str(base.resolve(ref)) == want
    assert str(base.resolve(urilex.parse(ref))) == want


def test_published_resolve_vectors(urilex_bin, tmp_path):
    """tests/data/resolve.jsonl (1,021 pairs) resolved as the Rust library
    does (`urilex resolve --pairs`: tests/resolve.rs checks those answers
    against the records and decides the contested ones by the RFC)."""
    records = jsonl("resolve.jsonl")
    assert len(records) == 1021
    # Control characters are invalid in a reference (RFC 3986 2; the
    # CLI's lines cannot carry a tab or line end): checked apart.
    ctl = [r for r in records if any(c in r["base"] + r["ref"] for c in "\t\r\n")]
    for r in ctl:
        with pytest.raises(urilex.ParseError):
            urilex.parse(r["base"]).resolve(r["ref"])
    records = [r for r in records if r not in ctl]
    p = tmp_path / "pairs.txt"
    p.write_text("".join(f"{r['base']}\t{r['ref']}\n" for r in records), encoding="utf-8")
    want = run(urilex_bin, "resolve", "--pairs", str(p)).decode().split("\n")[:-1]
    assert len(want) == len(records) == 1021 - len(ctl)
    for r, w in zip(records, want):
        try:
            got = str(urilex.parse(r["base"]).resolve(r["ref"]))
        except ValueError:
            got = None
        assert got == (None if w.startswith("ERROR ") else w), r


@pytest.mark.parametrize("scheme_based", [False, True])
def test_published_normalize_vectors(urilex_bin, tmp_path, scheme_based):
    """tests/data/normalize.jsonl normalized as the Rust library does
    (`urilex normalize`; tests/normalize.rs checks it against the records)."""
    records = jsonl("normalize.jsonl")
    inputs = [r["input"] for r in records] + [r["expected"] for r in records]
    p = tmp_path / "refs.txt"
    p.write_text("".join(u + "\n" for u in inputs), encoding="utf-8")
    flags = ["--scheme-based"] if scheme_based else []
    want = run(urilex_bin, "normalize", *flags, str(p)).decode().split("\n")[:-1]
    assert len(want) == len(inputs)
    for u, w in zip(inputs, want):
        try:
            got = str(urilex.parse(u).normalized(scheme_based=scheme_based))
        except urilex.ParseError:
            got = None
        assert got == (None if w.startswith("ERROR ") else w), u
    # RFC 3986 6.2.2: a reference and its normal form are equivalent.
    for r in records:
        u = urilex.parse(r["input"])
        assert u.equivalent(u.normalized()), r
        assert u.normalized().equivalent(r["input"]), r


def test_scheme_based_normalization():
    # RFC 3986 6.2.3: the default port and an empty path of http.
    u = urilex.parse("HTTP://Example.COM:80")
    assert str(u.normalized()) == "http://example.com:80"
    assert str(u.normalized(scheme_based=True)) == "http://example.com/"


def test_none_and_empty_are_apart():
    # RFC 3986 5.3: an empty query or fragment is not an absent one.
    u = urilex.parse("http://h?#")
    assert (u.query, u.fragment) == ("", "")
    u = urilex.parse("http://h")
    assert (u.query, u.fragment, u.port, u.userinfo) == (None, None, None, None)
    assert urilex.parse("http://h:/").port == ""
    assert urilex.parse("http://h:/").port_number is None
    assert urilex.parse("http://h:99999/").port_number is None
    assert urilex.parse("http://h:8080/").port_number == 8080
    assert urilex.parse("").path == ""
    assert urilex.parse("a/b").scheme is None


def test_host_kinds():
    assert urilex.parse("http://192.0.2.1/").host_kind == "ipv4"
    assert urilex.parse("http://[2001:db8::1]/").host_kind == "ipv6"
    assert urilex.parse("http://[2001:db8::1]/").host == "[2001:db8::1]"
    assert urilex.parse("http://[v1.x]/").host_kind == "ipvfuture"
    # RFC 3986 3.2.2: 256.256.256.256 is no IPv4address but a reg-name.
    assert urilex.parse("http://256.256.256.256/").host_kind == "reg-name"
    assert urilex.parse("mailto:a@b").host_kind is None


def test_parse_error_fields():
    with pytest.raises(urilex.ParseError) as e:
        urilex.parse("http://exa mple.com/")
    err = e.value
    assert isinstance(err, ValueError)
    assert (err.index, err.part, err.rule, err.kind) == (10, "host", "reg-name", "invalid-character")
    assert err.byte == 0x20
    assert "byte 10" in str(err)
    # No grammar takes a byte over 0x7F: the first is the fault.
    with pytest.raises(urilex.ParseError) as e:
        urilex.parse("http://h/é")
    assert (e.value.index, e.value.part, e.value.byte) == (9, "path", 0xC3)
    with pytest.raises(urilex.ParseError) as e:
        urilex.parse("http://[::1")
    assert e.value.kind in ("unexpected-end", "invalid-ip-literal")
    assert e.value.index == len("http://[::1")
    with pytest.raises(urilex.ParseError) as e:
        urilex.parse("a%zz")
    # The fault is the byte that is no hex digit.
    assert e.value.kind == "invalid-percent-encoding" and e.value.index == 2


def test_bad_input_never_crashes():
    for s in ["\x00", "http://h/\x00", "\ud7ff", "a" * 1_000_000 + " ", "%", "[", "http://[", "\u00e9"]:
        assert urilex.is_valid(s) in (True, False)
        try:
            urilex.parse(s)
        except urilex.ParseError as e:
            assert 0 <= e.index <= len(s.encode("utf-8", "surrogatepass"))
    with pytest.raises(TypeError):
        urilex.parse(b"http://h/")
    with pytest.raises(TypeError):
        urilex.parse(None)


def test_profiles():
    assert urilex.parse("http://[fe80::1%25eth0]/", profile="rfc6874").host == "[fe80::1%25eth0]"
    with pytest.raises(urilex.ParseError):
        urilex.parse("http://[fe80::1%25eth0]/")
    u = urilex.parse("ftp://ftp.example.org/pub/f.txt", profile="rfc1738")
    assert u.profile == "rfc1738"
    with pytest.raises(ValueError, match="profile"):
        urilex.parse("http://h/", profile="rfc9999")


def test_uriref_is_a_value():
    u = urilex.parse("http://h/p?q#f")
    with pytest.raises(AttributeError):
        u.host = "x"
    assert u == urilex.parse("http://h/p?q#f")
    assert u != urilex.parse("http://h/p?q")
    assert u != "http://h/p?q#f"
    assert len({u, urilex.parse("http://h/p?q#f")}) == 1
    assert pickle.loads(pickle.dumps(u)) == u
    assert repr(u) == 'urilex.parse("http://h/p?q#f")'
    assert str(u) == "http://h/p?q#f"
    assert urilex.UriRef("http://h/") == urilex.parse("http://h/")
    assert u.to_dict()["query"] == "q"
    assert u.is_absolute and not urilex.parse("/p").is_absolute


def test_resolve_needs_an_absolute_base():
    with pytest.raises(ValueError):
        urilex.parse("/relative").resolve("g")
    with pytest.raises(urilex.ParseError):
        urilex.parse("http://a/").resolve("a b")
