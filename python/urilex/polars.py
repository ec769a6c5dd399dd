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
"""

import polars as pl

from . import _column

__all__ = ["UriExpr", "UriSeries"]


def _series(s, op, arg=None, profile="rfc3986"):
    out = _column(s, op, arg, profile)
    return pl.Series(s.name, out)


_dtypes = {}


def _dtype(op, arg=None, profile="rfc3986"):
    """The Polars type of ``op``'s result (of an empty column: a struct's
    fields depend on the profile)."""
    key = (op, arg if op == "part" else None, profile)
    if key not in _dtypes:
        _dtypes[key] = pl.Series(_column([], op, arg, profile)).dtype
    return _dtypes[key]


class _Methods:
    def _op(self, op, arg=None, profile="rfc3986"):
        raise NotImplementedError

    def valid(self, profile="rfc3986"):
        """Whether each reference is valid."""
        return self._op("valid", profile=profile)

    def error(self, profile="rfc3986"):
        """Each reference's parse error (null where valid)."""
        return self._op("error", profile=profile)

    def parse(self, profile="rfc3986"):
        """Each reference parsed: a struct (``urilex.parse_arrow``)."""
        return self._op("parse", profile=profile)

    def part(self, name):
        """One component (``scheme`` ... ``fragment``; ``port`` a number)."""
        return self._op("part", name)

    def scheme(self):
        return self.part("scheme")

    def authority(self):
        return self.part("authority")

    def userinfo(self):
        return self.part("userinfo")

    def host(self):
        return self.part("host")

    def port(self):
        return self.part("port")

    def path(self):
        return self.part("path")

    def query(self):
        return self.part("query")

    def fragment(self):
        return self.part("fragment")

    def get(self, template):
        """Each reference rendered by ``template`` (``urilex get``'s language)."""
        return self._op("get", template)

    def query_param(self, key):
        """The raw value of query parameter ``key``."""
        return self._op("query_param", key)

    def registrable_domain(self):
        """The host's registrable domain (Public Suffix List)."""
        return self._op("registrable_domain")

    def public_suffix(self):
        """The host's public suffix (Public Suffix List)."""
        return self._op("public_suffix")

    def normalize(self, mode="syntax"):
        """Normalized: ``syntax``, ``scheme`` or ``dedup``."""
        return self._op("normalize", mode)


@pl.api.register_expr_namespace("uri")
class UriExpr(_Methods):
    """``pl.col(...).uri``: urilex's column functions as expressions."""

    def __init__(self, expr):
        self._expr = expr

    def _op(self, op, arg=None, profile="rfc3986"):
        return self._expr.map_batches(
            lambda s: _series(s, op, arg, profile),
            return_dtype=_dtype(op, arg, profile),
            is_elementwise=True,
        )


@pl.api.register_series_namespace("uri")
class UriSeries(_Methods):
    """``series.uri``: urilex's column functions on a Series."""

    def __init__(self, series):
        self._s = series

    def _op(self, op, arg=None, profile="rfc3986"):
        return _series(self._s, op, arg, profile)
