"""The column functions come from one registry (``urilex-columns``), the
SQL functions' too: every function is in the package as
``{name}_arrow``, and every example of the registry gives its result
through it (the SQL crate's tests run the same examples)."""

import inspect
import os
import textwrap
from pathlib import Path

import pyarrow as pa

import urilex
from urilex import _urilex


def test_every_registry_function_is_in_the_package():
    functions = _urilex.column_functions()
    assert len(functions) >= 20
    for name, params, doc, _result, sql in functions:
        f = getattr(urilex, f"{name}_arrow")
        assert f.__name__ == f"{name}_arrow"
        assert " ".join(doc.split()) in " ".join(f.__doc__.split())
        assert sql in " ".join(f.__doc__.split())
        assert list(inspect.signature(f).parameters)[1:] == [p[0] for p in params]
        assert f"{name}_arrow" in urilex.__all__


def test_every_registry_example():
    params = {name: p for name, p, _, _, _ in _urilex.column_functions()}
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


GENERATED = Path(__file__).resolve().parents[1] / "urilex" / "_columns.py"


def generated_module():
    """``urilex/_columns.py`` as the registry makes it: a typed function
    per registry entry (so that type checkers and IDEs see them), each
    calling the registry's function by name."""
    out = [
        '"""The column functions, one per entry of urilex\'s column registry',
        "(``urilex-columns``, which the SQL functions are made from too).",
        "",
        "Generated from the registry: ``UPDATE=1 pytest python/tests/test_registry.py``",
        'rewrites it, and the test fails when it differs."""',
        "",
        "from __future__ import annotations",
        "",
        "from typing import Any, Optional",
        "",
        "from ._arrow import _column",
        "",
        "Column = Any",
        "Result = Any",
        "",
    ]
    names = []
    for name, params, doc, result, sql in _urilex.column_functions():
        names.append(f"{name}_arrow")
        args = ["col: Column"]
        for pname, kind, optional in params:
            args.append(f"{pname}: Optional[{kind}] = None" if optional else f"{pname}: {kind}")
        text = (
            f"Each reference of ``col``: {doc}. A null gives a null; the result is "
            f"{result} (pyarrow; chunked for a chunked input). In SQL: ``{sql}``."
        )
        body = textwrap.fill(
            text,
            width=75,
            initial_indent="    ",
            subsequent_indent="    ",
            break_on_hyphens=False,
            break_long_words=False,
        )
        out += [
            "",
            f"def {name}_arrow({', '.join(args)}) -> Result:",
            '    """' + body.strip(),
            '    """',
            f"    return _column(col, {name!r}, ({', '.join(p[0] for p in params) + ',' if params else ''}))",
            "",
        ]
    out += ["", "__all__ = ["] + [f'    "{n}",' for n in names] + ["]", ""]
    return "\n".join(out)


def test_the_generated_module_is_the_registry():
    want = generated_module()
    if os.environ.get("UPDATE") == "1":
        GENERATED.write_text(want, encoding="utf-8")
    assert GENERATED.read_text(encoding="utf-8") == want, "UPDATE=1 pytest python/tests/test_registry.py"
