"""The column functions come from one registry (``urilex-columns``), the
SQL functions' too: every function is in the package as
``{name}_arrow``, and every example of the registry gives its result
through it (the SQL crate's tests run the same examples)."""

import inspect

import pyarrow as pa

import urilex
from urilex import _urilex


def test_every_registry_function_is_in_the_package():
    functions = _urilex.column_functions()
    assert len(functions) >= 20
    for name, params, doc, _result in functions:
        f = getattr(urilex, f"{name}_arrow")
        assert f.__name__ == f"{name}_arrow"
        assert doc in f.__doc__
        assert list(inspect.signature(f).parameters)[1:] == [p[0] for p in params]
        assert f"{name}_arrow" in urilex.__all__


def test_every_registry_example():
    params = {name: p for name, p, _, _ in _urilex.column_functions()}
    n = 0
    for name, value, args, want in _urilex.column_examples():
        f = getattr(urilex, f"{name}_arrow")
        given = [int(a) if params[name][k][1] == "int" else a for k, a in enumerate(args)]
        out = f(pa.array([value], pa.string()), *given)
        assert _urilex.display_value(out, 0) == want, (name, value, args)
        # Chunked in, chunked out, the same value.
        chunked = f(pa.chunked_array([[value]], pa.string()), *given)
        assert _urilex.display_value(chunked.chunk(0), 0) == want
        n += 1
    assert n >= len(params)
