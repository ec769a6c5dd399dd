"""The column functions against the CLI (the Rust library's answers) on the
bundled corpora, and against urilex.parse row by row; nulls, slices,
chunks, every string type, errors; Polars and DuckDB round trips."""

import json

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.ipc
import pytest

import urilex
from conftest import run

STRING_TYPES = [pa.string(), pa.large_string(), pa.string_view()]


def cli_table(binary, path, *args):
    out = run(binary, *args, "--format", "arrow", str(path))
    return pyarrow.ipc.open_stream(out).read_all()


def cli_values(binary, path, *args):
    out = run(binary, *args, "--format", "jsonl", str(path))
    return [json.loads(l)["value"] for l in out.decode().splitlines()]


def viewed(schema):
    """The CLI's parse rows' type as ``parse_arrow`` gives it: a
    reference's parts (the string columns) are ``string_view``, views of
    the input column (docs/schema.md)."""
    return pa.struct([f.with_type(pa.string_view()) if f.type == pa.string() else f for f in schema])


def test_parse_arrow_is_the_cli_parse(urilex_bin, corpus, corpus_file):
    want = cli_table(urilex_bin, corpus_file, "parse").drop_columns(["line"])
    col = pa.array(corpus)
    got = urilex.parse_arrow(col)
    assert got.type == viewed(want.schema)
    assert len(got) == len(corpus) == want.num_rows
    assert sum(got.field("valid").to_pylist()) > 0.9 * len(corpus)
    for name in want.column_names:
        assert got.field(name).to_pylist() == want.column(name).to_pylist(), name


def test_results_handed_over_with_their_type_again_and_again(corpus):
    """A result reaches pyarrow with a type object kept from the first
    result of its type (not a C schema each time): calls alternating
    between result types (profiles' structs, a view column, a boolean
    one, a list) give every time the type and the values of the first
    call, and arrays pyarrow's full validation accepts."""
    col = pa.array(corpus[:500] + [None])
    calls = [
        lambda: urilex.parse_arrow(col),
        lambda: urilex.parse_arrow(col, profile="rfc1738"),
        lambda: urilex.host_arrow(col),
        lambda: urilex.valid_arrow(col),
        lambda: urilex.query_params_arrow(col),
        lambda: urilex.parse_arrow(col, profile="rfc6874"),
    ]
    first = [f() for f in calls]
    for _ in range(3):
        for f, want in zip(calls, first):
            got = f()
            got.validate(full=True)
            assert got.type == want.type
            assert got.equals(want)
    types = {str(a.type) for a in first}
    assert len(types) == len(calls)


def test_parse_arrow_rows_are_urilex_parse(corpus):
    rows = urilex.parse_arrow(pa.array(corpus)).to_pylist()
    parts = ["scheme", "authority", "userinfo", "host", "host_kind", "port", "path", "query", "fragment"]
    for u, row in zip(corpus, rows):
        try:
            one = urilex.parse(u)
        except urilex.ParseError as e:
            assert row["valid"] is False
            assert row["error"]["index"] == e.index
            assert row["error"]["kind"] == e.kind
            assert row["error"]["rule"] == e.rule
            continue
        assert row["valid"] is True
        assert row["error"] is None
        for p in parts:
            assert row[p] == getattr(one, p), (u, p)
        assert row["port_number"] == one.port_number


def test_every_profile(urilex_bin, tmp_path):
    refs = [
        "ftp://ftp.example.org/pub/f.txt;type=d", "http://[fe80::1%25eth0]/", "urn:example:a?+r?=q#f",
        "mailto:a@b", "news:comp.lang", "http://h/a b", "", "wais://h/db?s",
    ]
    p = tmp_path / "refs.txt"
    p.write_text("".join(r + "\n" for r in refs))
    for profile in ["rfc3986", "rfc6874", "rfc1738", "rfc2396bis-00", "url-draft-05", "rfc8141", "urn-draft-03"]:
        want = cli_table(urilex_bin, p, "parse", "--profile", profile).drop_columns(["line"])
        got = urilex.parse_arrow(pa.array(refs), profile=profile)
        assert got.type == viewed(want.schema), profile
        for name in want.column_names:
            assert got.field(name).to_pylist() == want.column(name).to_pylist(), (profile, name)
        valid = urilex.valid_arrow(pa.array(refs), profile=profile).to_pylist()
        assert valid == want.column("valid").to_pylist(), profile


@pytest.mark.parametrize(
    "template",
    ["{host}", "{host:registrable}", "{scheme}://{host}{path}", "{query:id}", "{path:1}", "{port}", "{url}"],
)
def test_get_arrow_is_the_cli_get(urilex_bin, corpus, corpus_file, template):
    want = cli_values(urilex_bin, corpus_file, "get", template)
    got = urilex.get_arrow(pa.array(corpus), template).to_pylist()
    assert got == want


def test_registrable_domain_is_the_cli_template(urilex_bin, corpus, corpus_file):
    # The template writes "" where a valid reference has no registrable
    # domain; the column function gives null there.
    want = [None if v == "" else v for v in cli_values(urilex_bin, corpus_file, "get", "{host:registrable}")]
    got = urilex.registrable_domain_arrow(pa.array(corpus)).to_pylist()
    assert got == want
    assert sum(v is not None for v in got) > 1000


def cli_params(binary, path):
    """`urilex params`: every query pair of every line (raw key and value;
    a value of None for a key without `=`)."""
    out = run(binary, "params", "--format", "jsonl", str(path))
    pairs = {}
    for l in out.decode().splitlines():
        r = json.loads(l)
        pairs.setdefault(r["line"], []).append((r["key"], r["value"]))
    return pairs


@pytest.mark.parametrize("key", ["id", "q", "utm_source", "v", ""])
def test_query_param_arrow_is_the_cli_params(urilex_bin, corpus, corpus_file, key):
    pairs = cli_params(urilex_bin, corpus_file)
    want = []
    for line in range(1, len(corpus) + 1):
        hit = [v for k, v in pairs.get(line, []) if k == key]
        want.append(None if not hit else ("" if hit[0] is None else hit[0]))
    got = urilex.query_param_arrow(pa.array(corpus), key).to_pylist()
    assert got == want
    if key == "id":
        assert sum(v is not None for v in got) > 100


def test_valid_error_and_parts(corpus):
    col = pa.array(corpus)
    parsed = urilex.parse_arrow(col)
    assert urilex.valid_arrow(col).to_pylist() == parsed.field("valid").to_pylist()
    assert urilex.error_arrow(col).to_pylist() == parsed.field("error").field("message").to_pylist()
    for part in ["scheme", "authority", "userinfo", "host", "path", "query", "fragment"]:
        got = urilex.part_arrow(col, part)
        assert got.to_pylist() == parsed.field(part).to_pylist(), part
    assert urilex.part_arrow(col, "port").to_pylist() == parsed.field("port_number").to_pylist()


@pytest.mark.parametrize("mode,flags", [("syntax", []), ("scheme", ["--scheme-based"]), ("dedup", ["--dedup"])])
def test_normalize_arrow_is_the_cli_normalize(urilex_bin, corpus, corpus_file, mode, flags):
    want = run(urilex_bin, "normalize", *flags, str(corpus_file)).decode().split("\n")[:-1]
    assert len(want) == len(corpus)
    want = [None if w.startswith("ERROR ") else w for w in want]
    assert urilex.normalize_arrow(pa.array(corpus), mode).to_pylist() == want
    if mode != "dedup":
        for u, w in list(zip(corpus, want))[::50]:
            if w is not None:
                assert str(urilex.parse(u).normalized(scheme_based=mode == "scheme")) == w


MIXED = ["http://a.example.com/x?id=7", None, "", "not a uri", "http://[::1]:80/", None, "/p?id"]


@pytest.mark.parametrize("t", STRING_TYPES)
def test_string_types_and_nulls(t):
    col = pa.array(MIXED, type=t)
    assert urilex.valid_arrow(col).to_pylist() == [True, None, True, False, True, None, True]
    assert urilex.part_arrow(col, "host").to_pylist() == ["a.example.com", None, None, None, "[::1]", None, None]
    assert urilex.query_param_arrow(col, "id").to_pylist() == ["7", None, None, None, None, None, ""]
    parsed = urilex.parse_arrow(col)
    assert parsed.null_count == 2
    assert parsed.to_pylist()[1] is None
    assert urilex.parse_arrow(col).to_pylist() == urilex.parse_arrow(pa.array(MIXED)).to_pylist()
    assert urilex.get_arrow(col, "{host}").to_pylist() == urilex.get_arrow(pa.array(MIXED), "{host}").to_pylist()


def test_dictionary_and_null_columns():
    col = pa.array(MIXED).dictionary_encode()
    assert urilex.part_arrow(col, "host").to_pylist() == urilex.part_arrow(pa.array(MIXED), "host").to_pylist()
    assert urilex.parse_arrow(col).to_pylist() == urilex.parse_arrow(pa.array(MIXED)).to_pylist()
    nulls = pa.nulls(3)
    assert urilex.valid_arrow(nulls).to_pylist() == [None, None, None]
    assert urilex.get_arrow(nulls, "{host}").to_pylist() == [None, None, None]


def test_sliced_arrays(corpus):
    col = pa.array(corpus[:50000])
    whole = urilex.parse_arrow(col).to_pylist()
    for start, length in [(1, 10), (7, 33333), (49990, 10), (12345, 0)]:
        s = col.slice(start, length)
        assert urilex.parse_arrow(s).to_pylist() == whole[start : start + length]
        assert urilex.valid_arrow(s).to_pylist() == [r["valid"] for r in whole[start : start + length]]
        assert urilex.part_arrow(s, "host").to_pylist() == [r["host"] for r in whole[start : start + length]]


def test_chunked_in_chunked_out(corpus):
    col = pa.chunked_array([corpus[:100], corpus[100:70000], [], corpus[70000:]])
    got = urilex.parse_arrow(col)
    assert isinstance(got, pa.ChunkedArray)
    assert [len(c) for c in got.chunks] == [len(c) for c in col.chunks]
    assert got.to_pylist() == urilex.parse_arrow(pa.array(corpus)).to_pylist()
    # One dictionary for the host kinds, however the column was cut.
    whole = urilex.parse_arrow(pa.array(corpus))
    assert len(whole.field("host_kind").dictionary) == 4
    empty = urilex.valid_arrow(pa.chunked_array([], type=pa.string()))
    assert isinstance(empty, pa.ChunkedArray) and len(empty) == 0 and empty.type == pa.bool_()
    assert urilex.valid_arrow(pa.array([], pa.string())).to_pylist() == []


def test_long_columns_cut_across_cores_give_the_same(corpus):
    many = corpus * 4
    col = pa.array(many)
    got = urilex.get_arrow(col, "{host}").to_pylist()
    assert got == urilex.get_arrow(pa.chunked_array([many[i : i + 1000] for i in range(0, len(many), 1000)]), "{host}").to_pylist()
    assert len(got) == len(many)


def test_plain_lists_and_tables():
    assert urilex.valid_arrow(["http://h/", "a b"]).to_pylist() == [True, False]
    t = pa.table({"u": MIXED})
    assert urilex.valid_arrow(t).to_pylist() == urilex.valid_arrow(pa.array(MIXED)).to_pylist()
    with pytest.raises(TypeError, match="2 columns"):
        urilex.valid_arrow(pa.table({"a": ["x"], "b": ["y"]}))


def test_errors():
    col = pa.array(["http://h/"])
    with pytest.raises(ValueError, match="template"):
        urilex.get_arrow(col, "{nosuchfield}")
    with pytest.raises(ValueError, match="profile"):
        urilex.parse_arrow(col, profile="rfc0")
    with pytest.raises(ValueError, match="unknown part"):
        urilex.part_arrow(col, "nope")
    with pytest.raises(ValueError, match="unknown mode"):
        urilex.normalize_arrow(col, "nope")
    with pytest.raises(TypeError, match="not of strings"):
        urilex.valid_arrow(pa.array([1, 2]))
    with pytest.raises(TypeError):
        urilex.valid_arrow(42)


def test_bad_bytes_in_a_column():
    # Arrow strings are UTF-8; a binary column is refused, and text with
    # NUL or control bytes is an invalid row, never an error for the rest.
    col = pa.array(["http://h/\x00", "http://h/\x7f", "x" * 1_000_000, "http://ok/"])
    assert urilex.valid_arrow(col).to_pylist() == [False, False, True, True]
    rows = urilex.parse_arrow(col).to_pylist()
    assert rows[0]["error"]["index"] == 9
    assert rows[3]["host"] == "ok"


def test_polars_round_trip():
    pl = pytest.importorskip("polars")
    import urilex.polars  # noqa: F401  (registers the namespace)

    df = pl.DataFrame({"u": MIXED * 3})
    out = df.select(
        pl.col("u").uri.host().alias("host"),
        pl.col("u").uri.valid().alias("valid"),
        pl.col("u").uri.query_param("id").alias("id"),
        pl.col("u").uri.get("{scheme}").alias("scheme"),
        pl.col("u").uri.parse().alias("p"),
        pl.col("u").uri.registrable_domain().alias("d"),
    )
    assert out["host"].to_list() == urilex.part_arrow(pa.array(MIXED * 3), "host").to_pylist()
    assert out["valid"].to_list() == urilex.valid_arrow(pa.array(MIXED * 3)).to_pylist()
    assert out["id"].to_list() == ["7", None, None, None, None, None, ""] * 3
    assert out["p"].struct.field("port_number").to_list()[4] == 80
    assert out["d"].to_list()[0] == "example.com"
    # Functions take a Series directly (its Arrow stream), and the Series
    # namespace too.
    s = df["u"]
    assert urilex.valid_arrow(s).to_pylist() == out["valid"].to_list()
    assert s.uri.host().to_list() == out["host"].to_list()
    # Lazy and streaming.
    lazy = df.lazy().with_columns(pl.col("u").uri.host().alias("h")).filter(pl.col("h").is_not_null()).collect()
    assert lazy["h"].to_list() == ["a.example.com", "[::1]"] * 3


def test_duckdb_round_trip():
    duckdb = pytest.importorskip("duckdb")
    con = duckdb.connect()
    con.execute("CREATE TABLE t AS SELECT * FROM (VALUES ('http://a.example.com/x?id=7'), (NULL), ('not a uri'), ('https://b.example.org/')) v(u)")
    rel = con.sql("SELECT u FROM t")
    hosts = urilex.part_arrow(rel, "host")
    assert hosts.to_pylist() == ["a.example.com", None, None, "b.example.org"]
    parsed = pa.table({"p": urilex.parse_arrow(con.sql("SELECT u FROM t"))}).flatten()
    back = con.sql("SELECT \"p.host\" AS host, \"p.valid\" AS valid FROM parsed").fetchall()
    assert back == [("a.example.com", True), (None, None), (None, False), ("b.example.org", True)]


def test_more_rows_than_a_piece_holds():
    # Over 4 Mi rows: cut into pieces of at most 4 Mi rows each (error
    # messages must fit a piece's string columns), joined again in order.
    n = (1 << 22) + 1000
    col = pa.array(["http://h/a", "b c"] * (n // 2))
    got = urilex.parse_arrow(col)
    assert len(got) == n
    assert pc.sum(got.field("valid").cast(pa.int64())).as_py() == n // 2
    assert got.field("host")[n - 2].as_py() == "h"
    assert got.field("error").field("index")[n - 1].as_py() == 1
    assert urilex.valid_arrow(col)[n - 1].as_py() is False
