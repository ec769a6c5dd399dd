"""Every example in the docstrings runs and prints what it says (the
package's modules and the extension's functions and classes)."""

import doctest
import inspect

import pyarrow as pa

import urilex
import urilex.pct
import urilex.polars
import urilex.urn


def docstrings():
    seen = set()
    for mod in [urilex, urilex.pct, urilex.urn, urilex.polars]:
        yield mod.__name__, mod.__doc__
        for name, obj in vars(mod).items():
            if name.startswith("_") or id(obj) in seen or not (callable(obj) or inspect.isclass(obj)):
                continue
            seen.add(id(obj))
            yield f"{mod.__name__}.{name}", obj.__doc__
            if inspect.isclass(obj):
                for m, member in vars(obj).items():
                    if not m.startswith("_"):
                        yield f"{mod.__name__}.{name}.{m}", getattr(member, "__doc__", None)


def test_docstring_examples():
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    examples = 0
    for name, doc in docstrings():
        if not doc or ">>>" not in doc:
            continue
        test = parser.get_doctest(doc, {"urilex": urilex, "pa": pa}, name, None, 0)
        examples += len(test.examples)
        runner.run(test)
    assert runner.failures == 0
    assert examples >= 25
