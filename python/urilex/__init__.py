"""urilex: RFC 3986 URI references, one at a time or whole Arrow columns at once.

One reference::

    >>> import urilex
    >>> u = urilex.parse("https://user@example.com:8042/over/there?name=ferret#nose")
    >>> u.host, u.port, u.query
    ('example.com', '8042', 'name=ferret')

A column (pyarrow, or anything with ``__arrow_c_array__`` or
``__arrow_c_stream__``: Polars Series and DataFrames, DuckDB relations)::

    >>> import pyarrow as pa
    >>> col = pa.array(["http://a.example.com/x?id=7", "not a uri", None])
    >>> urilex.get_arrow(col, "{host}").to_pylist()
    ['a.example.com', None, None]

The column functions parse the whole column with urilex's batch engine,
without the GIL and across cores (``RAYON_NUM_THREADS`` sets how many).
They need pyarrow (``pip install 'urilex[arrow]'``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import _urilex
from ._urilex import Hit, ParseError, UriRef, extract, is_valid, parse
from . import pct, urn

__all__ = [
    "ParseError",
    "UriRef",
    "Hit",
    "parse",
    "is_valid",
    "extract",
    "parse_arrow",
    "valid_arrow",
    "error_arrow",
    "part_arrow",
    "get_arrow",
    "query_param_arrow",
    "registrable_domain_arrow",
    "public_suffix_arrow",
    "normalize_arrow",
    "pct",
    "urn",
]

ParseError.__module__ = "urilex"

if TYPE_CHECKING:
    import pyarrow

    Column = Any
    """A pyarrow Array or ChunkedArray of strings, a one-column Table or
    RecordBatch, anything with ``__arrow_c_array__`` or
    ``__arrow_c_stream__`` (a Polars Series, a DuckDB relation), or a
    list of str."""
    Result = pyarrow.Array | pyarrow.ChunkedArray


def _pyarrow():
    try:
        import pyarrow
    except ImportError as e:  # pragma: no cover - depends on the install
        raise ImportError(
            "urilex's column functions need pyarrow: pip install 'urilex[arrow]'"
        ) from e
    return pyarrow


def _one_column(pa, table):
    """The only column of a table-like input (a struct stream)."""
    if table.num_columns != 1:
        raise TypeError(
            f"a table of {table.num_columns} columns ({', '.join(table.column_names)}): "
            "give the column of references"
        )
    return table.column(0)


def _chunks(col):
    """The input as a list of pyarrow arrays, and whether it was chunked."""
    pa = _pyarrow()
    if isinstance(col, pa.ChunkedArray):
        return col.chunks, True
    if isinstance(col, pa.Array):
        return [col], False
    if isinstance(col, (pa.Table, pa.RecordBatch)):
        c = _one_column(pa, col)
        return (c.chunks, True) if isinstance(c, pa.ChunkedArray) else ([c], False)
    if hasattr(col, "__arrow_c_array__"):
        # Imported through the capsule (no copy).
        a = pa.array(col)
        if pa.types.is_struct(a.type):
            return _chunks(pa.RecordBatch.from_struct_array(a))
        return [a], False
    if hasattr(col, "__arrow_c_stream__"):
        # A stream: a Polars Series or DataFrame, a DuckDB relation, a
        # pyarrow RecordBatchReader.
        try:
            c = pa.chunked_array(col)
        except (TypeError, pa.ArrowInvalid):
            c = pa.table(col)
        if isinstance(c, pa.Table):
            return _chunks(c)
        if pa.types.is_struct(c.type):
            return _chunks(pa.Table.from_batches([pa.RecordBatch.from_struct_array(x) for x in c.chunks]))
        return c.chunks, True
    if isinstance(col, (list, tuple)):
        return [pa.array(col, type=pa.string())], False
    raise TypeError(
        f"expected a pyarrow array, a chunked array, or an object with "
        f"__arrow_c_array__ or __arrow_c_stream__, not {type(col).__name__}"
    )


def _column(col, op, arg=None, profile="rfc3986"):
    pa = _pyarrow()
    chunks, chunked = _chunks(col)
    if not chunks:
        empty = _urilex.column_op([pa.array([], pa.string())], op, arg, profile)[0]
        return pa.chunked_array([], type=empty.type)
    out = _urilex.column_op(chunks, op, arg, profile)
    if chunked:
        return pa.chunked_array(out, type=out[0].type)
    return out[0]


def parse_arrow(col: Column, profile: str = "rfc3986") -> Result:
    """Every reference of ``col`` parsed: a struct array in the row schema
    of urilex's outputs (``docs/schema.md`` less ``line``): ``input``,
    ``valid``, ``error`` (a struct of kind, part, rule, index, byte and
    message, null where valid), ``scheme`` ... ``fragment``, ``host_kind``,
    ``port_number``, and the profile's own parts.

    A null gives a null row; an invalid reference a row whose ``valid`` is
    false and whose ``error`` says why. A chunked input gives a chunked
    result.

    >>> import pyarrow as pa
    >>> r = urilex.parse_arrow(pa.array(["http://h/p?q", "a b"]))
    >>> r.field("host").to_pylist(), r.field("valid").to_pylist()
    (['h', None], [True, False])
    """
    return _column(col, "parse", profile=profile)


def valid_arrow(col: Column, profile: str = "rfc3986") -> Result:
    """Whether each reference of ``col`` is valid (null for a null): the
    engine's verdict alone, which is faster than a parse.

    >>> import pyarrow as pa
    >>> urilex.valid_arrow(pa.array(["http://h/", "a b", None])).to_pylist()
    [True, False, None]
    """
    return _column(col, "valid", profile=profile)


def error_arrow(col: Column, profile: str = "rfc3986") -> Result:
    """Each reference's parse error as a message, null where it is valid.

    >>> import pyarrow as pa
    >>> urilex.error_arrow(pa.array(["http://h/", "a b"])).to_pylist()[0] is None
    True
    """
    return _column(col, "error", profile=profile)


def part_arrow(col: Column, part: str) -> Result:
    """One component of every reference (``scheme``, ``authority``,
    ``userinfo``, ``host``, ``path``, ``query``, ``fragment``: strings,
    views of the input; ``port``: the number), null where the reference is
    invalid or has no such part, ``""`` where the part is empty.

    >>> import pyarrow as pa
    >>> urilex.part_arrow(pa.array(["http://h?", "http://h"]), "query").to_pylist()
    ['', None]
    """
    return _column(col, "part", part)


def get_arrow(col: Column, template: str) -> Result:
    """Each reference rendered by ``template``, the template language of
    ``urilex get`` (``{host}``, ``{host:registrable}``, ``{query:id}``,
    ``{path:1}``, ``{scheme}://{host}``, ...), null where a field it needs
    is missing or the reference is invalid.

    >>> import pyarrow as pa
    >>> urilex.get_arrow(pa.array(["https://www.example.co.uk/a/b?x=1"]), "{host:registrable} {path:2}").to_pylist()
    ['example.co.uk b']
    """
    return _column(col, "get", template)


def query_param_arrow(col: Column, key: str) -> Result:
    """The raw value of the first query parameter named ``key`` in each
    reference (``""`` for a key without ``=``; null where there is none).

    >>> import pyarrow as pa
    >>> urilex.query_param_arrow(pa.array(["/s?q=a%20b&x", "/s?x"]), "q").to_pylist()
    ['a%20b', None]
    """
    return _column(col, "query_param", key)


def registrable_domain_arrow(col: Column) -> Result:
    """Each host's registrable domain by the Public Suffix List compiled
    into urilex (null for IP hosts, suffixes themselves, and invalid
    references).

    >>> import pyarrow as pa
    >>> urilex.registrable_domain_arrow(pa.array(["https://a.b.example.co.uk/", "http://10.0.0.1/"])).to_pylist()
    ['example.co.uk', None]
    """
    return _column(col, "registrable_domain")


def public_suffix_arrow(col: Column) -> Result:
    """Each host's public suffix by the Public Suffix List.

    >>> import pyarrow as pa
    >>> urilex.public_suffix_arrow(pa.array(["https://a.b.example.co.uk/"])).to_pylist()
    ['co.uk']
    """
    return _column(col, "public_suffix")


def normalize_arrow(col: Column, mode: str = "syntax") -> Result:
    """Each reference normalized: ``syntax`` (RFC 3986 6.2.2), ``scheme``
    (and 6.2.3: default ports, empty paths), ``dedup`` (and the query
    sorted, the fragment dropped; as ``urilex normalize --dedup``).

    >>> import pyarrow as pa
    >>> urilex.normalize_arrow(pa.array(["HTTP://Example.COM:80/a/../b"]), "scheme").to_pylist()
    ['http://example.com/b']
    """
    return _column(col, "normalize", mode)
