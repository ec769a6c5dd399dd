"""Polars expressions: ``pl.col("u").uri.host()`` and the like.

Importing this module registers the ``uri`` namespace on Polars
expressions and Series. Each method runs urilex's column function over
each batch Polars hands it (``map_batches``, elementwise, so Polars may
split and stream the column): the batch reaches urilex through the Arrow
C stream interface, and the result comes back as an Arrow array, without
copies of the strings on the way in.

>>> import polars as pl, urilex.polars
>>> df = pl.DataFrame({"u": ["https://www.example.co.uk/a?id=7", "not a uri"]})
>>> df.select(pl.col("u").uri.registrable_domain(), pl.col("u").uri.query_param("id").alias("id")).rows()
[('example.co.uk', '7'), (None, None)]

Every column function of the package is a method, by its name without
``_arrow``: ``uri.host()``, ``uri.get("{host}")``, ``uri.path_segment(1)``.
"""

import polars as pl

from . import _PARTS, _column, _urilex

__all__ = ["UriExpr", "UriSeries"]


def _series(s, name, args=()):
    out = _column(s, name, args)
    return pl.Series(s.name, out)


_dtypes = {}


def _dtype(name, args=()):
    """The Polars type of ``name``'s result (of an empty column: a
    struct's fields depend on the profile)."""
    key = (name, tuple(args))
    if key not in _dtypes:
        _dtypes[key] = pl.Series(_column([], name, args)).dtype
    return _dtypes[key]


class _Methods:
    def _op(self, name, args=()):
        raise NotImplementedError

    def part(self, name):
        """One component (``scheme`` ... ``fragment``; ``port`` a number)."""
        if name not in _PARTS:
            raise ValueError(f"unknown part {name!r} ({', '.join(_PARTS)})")
        return self._op(name)


def _method(name, params, doc):
    names = [p[0] for p in params]

    def m(self, *args, **kwargs):
        values = list(args) + [None] * (len(names) - len(args))
        for key, v in kwargs.items():
            values[names.index(key)] = v
        while values and values[-1] is None:
            values.pop()
        return self._op(name, values)

    m.__name__ = m.__qualname__ = name
    m.__doc__ = f"{doc[:1].upper()}{doc[1:]} (``urilex.{name}_arrow``)."
    return m


# Every function of urilex's column registry, by its name
# (``pl.col("u").uri.host()``, ``.uri.query_param("id")``, ...).
for _name, _params, _doc, _result, _sql in _urilex.column_functions():
    setattr(_Methods, _name, _method(_name, _params, _doc))
del _name, _params, _doc, _result, _sql


@pl.api.register_expr_namespace("uri")
class UriExpr(_Methods):
    """``pl.col(...).uri``: urilex's column functions as expressions."""

    def __init__(self, expr):
        self._expr = expr

    def _op(self, name, args=()):
        return self._expr.map_batches(
            lambda s: _series(s, name, args),
            return_dtype=_dtype(name, args),
            is_elementwise=True,
        )


@pl.api.register_series_namespace("uri")
class UriSeries(_Methods):
    """``series.uri``: urilex's column functions on a Series."""

    def __init__(self, series):
        self._s = series

    def _op(self, name, args=()):
        return _series(self._s, name, args)
