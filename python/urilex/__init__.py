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


from ._arrow import _chunks, _column, _one_column, _pyarrow  # noqa: E402
from ._columns import *  # noqa: E402,F403
from ._columns import __all__ as _column_functions  # noqa: E402

# Every column function of the registry, as ``{name}_arrow``: python/
# urilex/_columns.py is generated from it (a test keeps it so), and the
# SQL functions are made from the same registry.
__all__ += _column_functions

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
