"""Shared fixtures: the repository's data, and the `urilex` command (the
Rust library's own answers, to check the package against)."""

import json
import os
import pathlib
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
DATA = REPO / "tests" / "data"
CORPORA = [
    REPO / "benches" / "data" / "kasztp.txt",
    REPO / "benches" / "data" / "node_files.txt",
    REPO / "samples" / "requests.txt",
]


def jsonl(name):
    with open(DATA / name, encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def lines(path):
    """A file's lines as the CLI reads them (LF or CR LF ends a line), less those
    that are not UTF-8 (an Arrow string holds UTF-8; samples/requests.txt
    has a few lines that are not, for the CLI's tests)."""
    out = []
    for line in path.read_bytes().split(b"\n"):
        try:
            out.append(line.decode("utf-8").removesuffix("\r"))
        except UnicodeDecodeError:
            pass
    if out and out[-1] == "":
        out.pop()
    return out


@pytest.fixture(scope="session")
def urilex_bin():
    """The CLI: $URILEX_BIN, or built from this checkout with cargo."""
    given = os.environ.get("URILEX_BIN")
    if given:
        return given
    subprocess.run(
        ["cargo", "build", "-q", "-p", "urilex-cli", "--bin", "urilex"],
        cwd=REPO,
        check=True,
    )
    return str(REPO / "target" / "debug" / "urilex")


@pytest.fixture(scope="session")
def corpus():
    """Every line of the bundled corpora (about 93,000 references)."""
    out = []
    for p in CORPORA:
        out.extend(lines(p))
    return out


@pytest.fixture(scope="session")
def corpus_file(tmp_path_factory, corpus):
    p = tmp_path_factory.mktemp("corpus") / "all.txt"
    p.write_text("".join(u + "\n" for u in corpus), encoding="utf-8")
    return p


def run(binary, *args):
    """The CLI's standard output (its exit status may be 1 when some
    references are invalid: that is not a failure here)."""
    r = subprocess.run([binary, *args], capture_output=True)
    assert r.returncode in (0, 1), r.stderr.decode()
    return r.stdout
