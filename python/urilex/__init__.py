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

import inspect
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
    "part_arrow",
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


def _column(col, name, args=()):
    pa = _pyarrow()
    chunks, chunked = _chunks(col)
    if not chunks:
        empty = _urilex.column_op([pa.array([], pa.string())], name, list(args))[0]
        return pa.chunked_array([], type=empty.type)
    out = _urilex.column_op(chunks, name, list(args))
    if chunked:
        return pa.chunked_array(out, type=out[0].type)
    return out[0]


def _column_function(name, params, doc, result):
    """``{name}_arrow``: the registry's function ``name`` over a column."""
    names = [p[0] for p in params]
    required = [p[0] for p in params if not p[2]]

    def f(col, *args, **kwargs):
        if len(args) > len(names):
            raise TypeError(f"{name}_arrow takes {len(names)} arguments after the column, not {len(args)}")
        values = list(args) + [None] * (len(names) - len(args))
        for key, v in kwargs.items():
            if key not in names:
                raise TypeError(f"{name}_arrow() got an unexpected keyword argument {key!r}")
            values[names.index(key)] = v
        for k in required:
            if values[names.index(k)] is None:
                raise TypeError(f"{name}_arrow() needs {k}")
        return _column(col, name, values)

    sig = [inspect.Parameter("col", inspect.Parameter.POSITIONAL_ONLY)]
    for pname, kind, optional in params:
        sig.append(
            inspect.Parameter(
                pname,
                inspect.Parameter.POSITIONAL_OR_KEYWORD,
                default=None if optional else inspect.Parameter.empty,
                annotation=kind,
            )
        )
    f.__signature__ = inspect.Signature(sig)
    f.__name__ = f.__qualname__ = f"{name}_arrow"
    f.__module__ = __name__
    f.__doc__ = (
        f"Each reference of ``col``: {doc}.\n\n"
        f"A null gives a null; the result is a pyarrow array of {result} (a "
        f"chunked array for a chunked input). The same function as SQL's, "
        f"from urilex's one registry of column functions."
    )
    return f


# Every column function of the registry, as ``{name}_arrow`` (the SQL
# functions are made from the same registry: a function added there is
# in both).
for _name, _params, _doc, _result in _urilex.column_functions():
    globals()[f"{_name}_arrow"] = _column_function(_name, _params, _doc, _result)
    __all__.append(f"{_name}_arrow")
del _name, _params, _doc, _result

_PARTS = ("scheme", "authority", "userinfo", "host", "port", "path", "query", "fragment")


def part_arrow(col: Column, part: str) -> Result:
    """One component of every reference (``scheme``, ``authority``,
    ``userinfo``, ``host``, ``path``, ``query``, ``fragment``: strings,
    views of the input; ``port``: the number), null where the reference is
    invalid or has no such part, ``""`` where the part is empty: the same
    as ``{part}_arrow(col)``.

    >>> import pyarrow as pa
    >>> urilex.part_arrow(pa.array(["http://h?", "http://h"]), "query").to_pylist()
    ['', None]
    >>> urilex.host_arrow(pa.array(["http://[::1]:8080/p", "/p"])).to_pylist()
    ['[::1]', None]
    >>> urilex.get_arrow(pa.array(["https://www.example.co.uk/a/b?x=1"]), "{host:registrable} {path:2}").to_pylist()
    ['example.co.uk b']
    >>> urilex.parse_arrow(pa.array(["http://h/p?q", "a b"])).field("valid").to_pylist()
    [True, False]
    """
    if part not in _PARTS:
        raise ValueError(f"unknown part {part!r} ({', '.join(_PARTS)})")
    return _column(col, part)
