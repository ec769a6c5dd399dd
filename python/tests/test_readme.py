"""The README's Python examples run and print what their comments say."""

import contextlib
import io
import re

from conftest import REPO


def blocks():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## SQL and Python\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, re.S)


def test_readme_examples_run_and_print_what_they_say():
    found = blocks()
    assert len(found) == 1
    for code in found:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(code, "README.md", "exec"), {})
        printed = out.getvalue().splitlines()
        # Each print whose line ends with a comment: the comment is what
        # it prints.
        said = [
            (line.split("# ", 1)[1].strip())
            for line in code.splitlines()
            if line.strip().startswith("print(") and "# " in line
        ]
        printed_one_line = [p for p in printed if not p.startswith(("shape", "┌", "│", "╞", "└", "├"))]
        for want in said:
            assert want in printed_one_line, (want, printed)
