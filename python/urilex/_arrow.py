"""A column's chunks in, the registry's function over them, a column out:
what every column function of the package does (``_columns.py``)."""

from . import _urilex


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
