"""urilex against Python's URL parsers, one process, the same URLs.

    python python/benches/compare.py [ROUNDS]

Per URL: ``urilex.parse`` (validates and splits, RFC 3986) against
``urllib.parse.urlsplit`` (splits, validates nothing), ``rfc3986``'s
``uri_reference`` (splits; validating is a further call) and
``is_valid_uri`` (validates), ``yarl.URL`` (splits and normalizes) and
``ada_url.URL`` (WHATWG: parses and normalizes; raises on what it
rejects). Per column: ``parse_arrow`` (every part of every URL, as a
struct column), ``valid_arrow`` and ``get_arrow(col, "{host}")``, ``part_arrow(col, "host")`` and, with
Polars installed, ``pl.col("u").uri.host()`` on a frame over a
pyarrow array already in memory (``pa.array`` from a list, the cost of
getting a Python list into Arrow, is shown apart).

Last, what a user runs end to end: the top hosts of a Parquet file of
URLs, with urilex and with urlsplit.

Each figure is the best of ROUNDS (default 5) or of as many as fill a
quarter of a second, whichever are more (after one untimed call; run one
after another with the garbage collector off, as ``timeit`` runs them),
in ns per URL, with MB/s of URL text and the ratio of
``urlsplit``'s time to it, then the median round and its ratio to
``urlsplit``'s median; ``parse_arrow`` also with a collection before
each round, as this script timed it before (see ``best``). The corpora are
``benches/data`` and, when ``../shared/data/urls`` is beside the
repository, the two lists that are not copied here. ``RAYON_NUM_THREADS``
sets the column functions' threads (default: every core).
"""

import gc
import os
import pathlib
import sys
import time
import urllib.parse

import pyarrow as pa

import urilex

try:
    import polars as pl

    import urilex.polars  # noqa: F401
except ImportError:
    pl = None

REPO = pathlib.Path(__file__).resolve().parents[2]
CORPORA = [
    REPO / "benches" / "data" / "kasztp.txt",
    REPO / "benches" / "data" / "node_files.txt",
    REPO.parent / "shared" / "data" / "urls" / "isaacs_files.txt",
    REPO.parent / "shared" / "data" / "urls" / "userbait.txt",
]


def load(path):
    out = []
    for line in path.read_bytes().split(b"\n"):
        try:
            line = line.decode("utf-8").removesuffix("\r")
        except UnicodeDecodeError:
            continue
        if line:
            out.append(line)
    return out


# Seconds of rounds each contender gets at least (see `best`).
BUDGET = 0.25


def best(f, rounds, collect=False):
    # One call untimed first: a process's first calls fault in fresh
    # memory (the allocator's new segments, transparent huge pages zeroed
    # 2 MiB at a time), and the rounds compare the calls a long-running
    # program makes. The process's first parse_arrow is printed apart.
    #
    # The rounds run one after another with the garbage collector off, as
    # `timeit` runs them. With `collect`, a collection runs before each
    # round instead (what this script did before 2026-12-07): it walks
    # every Python object, and a column call that follows it finds its
    # memory out of the caches; a call of some hundred microseconds (a
    # column of ten thousand URLs) then takes up to 1.7 times as long,
    # where `urlsplit`'s loop of tens of milliseconds does not notice.
    #
    # Every contender is timed for the same time at least, `BUDGET`
    # seconds of rounds (and `rounds` rounds at least), as `timeit`'s
    # autorange sizes its loops: `urlsplit` over a corpus takes tens of
    # milliseconds a round, a column call one, and five rounds of the
    # latter are some milliseconds in all, from whatever state the
    # caches were left in by the contender before.
    f()
    times = []
    gc.collect()
    gc.disable()
    try:
        while len(times) < rounds or (sum(times) < BUDGET and len(times) < 1000):
            if collect:
                gc.collect()
            t = time.perf_counter()
            f()
            times.append(time.perf_counter() - t)
    finally:
        gc.enable()
    times.sort()
    return times[0], times[len(times) // 2]


def each(parse):
    def run(urls):
        for u in urls:
            try:
                parse(u)
            except ValueError:
                pass
    return run


def peers():
    out = [("urllib urlsplit", each(urllib.parse.urlsplit))]
    try:
        import rfc3986

        out.append(("rfc3986 uri_reference", each(rfc3986.uri_reference)))
        out.append(("rfc3986 is_valid_uri", each(rfc3986.is_valid_uri)))
    except ImportError:
        print("(rfc3986 not installed)")
    try:
        import yarl

        out.append(("yarl URL", each(yarl.URL)))
    except ImportError:
        print("(yarl not installed)")
    try:
        import ada_url

        out.append(("ada_url URL", each(ada_url.URL)))
    except ImportError:
        print("(ada_url not installed)")
    return out


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    contenders = peers() + [
        ("urilex.parse", each(urilex.parse)),
        ("urilex.is_valid", each(urilex.is_valid)),
    ]
    print(f"threads for columns: {os.environ.get('RAYON_NUM_THREADS', 'all cores')} of {os.cpu_count()}")
    first_call = None
    for path in CORPORA:
        if not path.exists():
            print(f"\n{path.name}: not here, skipped")
            continue
        urls = load(path)
        n = len(urls)
        size = sum(len(u) for u in urls)
        print(f"\n{path.stem}: {n} URLs, {size / n:.0f} bytes each on average")
        print(f"{'':33}{'ns/URL':>10}{'MB/s':>10}{'vs urlsplit':>14}{'median':>10}{'vs':>8}")
        times = {}
        for name, f in contenders:
            times[name] = best(lambda: f(urls), rounds)
        col = pa.array(urls)
        if first_call is None:
            t = time.perf_counter()
            urilex.parse_arrow(col)
            first_call = (path.stem, time.perf_counter() - t, n)
        times["pa.array(list) alone"] = best(lambda: pa.array(urls), rounds)
        times["parse_arrow"] = best(lambda: urilex.parse_arrow(col), rounds)
        times["parse_arrow, gc.collect() first"] = best(lambda: urilex.parse_arrow(col), rounds, collect=True)
        times["valid_arrow"] = best(lambda: urilex.valid_arrow(col), rounds)
        times["get_arrow {host}"] = best(lambda: urilex.get_arrow(col, "{host}"), rounds)
        times["part_arrow host"] = best(lambda: urilex.part_arrow(col, "host"), rounds)
        if pl is not None:
            df = pl.DataFrame({"u": col})
            times["polars .uri.host()"] = best(lambda: df.select(pl.col("u").uri.host()), rounds)
        base, base_m = times["urllib urlsplit"]
        for name, (t, m) in times.items():
            print(
                f"{name:33}{t / n * 1e9:10.1f}{size / t / 1e6:10.1f}{base / t:13.1f}x"
                f"{m / n * 1e9:10.1f}{base_m / m:7.1f}x"
            )
    if first_call is not None:
        stem, t, n = first_call
        print(f"\nthe process's first parse_arrow ({stem}, before the rounds): {t / n * 1e9:.1f} ns/URL")


def end_to_end(rounds):
    """What a user runs: the top hosts of a Parquet file of URLs (the
    corpora four times over), read with pyarrow, counted by host, against
    the same with urlsplit over the column's values."""
    import collections
    import tempfile

    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    urls = [u for p in CORPORA if p.exists() for u in load(p)] * 4
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "urls.parquet")
        pq.write_table(pa.table({"url": urls}), path)

        def ours():
            col = pq.read_table(path).column("url")
            hosts = urilex.part_arrow(col, "host")
            return pc.value_counts(hosts).to_pylist()

        def theirs():
            col = pq.read_table(path).column("url")
            n = collections.Counter()
            for u in col.to_pylist():
                try:
                    n[urllib.parse.urlsplit(u).hostname] += 1
                except ValueError:
                    n[None] += 1
            return n

        t_ours, t_theirs = best(ours, rounds)[0], best(theirs, rounds)[0]
    print(f"\nend to end, top hosts of a Parquet file of {len(urls)} URLs:")
    print(f"  pyarrow + urilex.part_arrow + value_counts   {t_ours * 1e3:8.1f} ms")
    print(f"  pyarrow + to_pylist + urlsplit + Counter     {t_theirs * 1e3:8.1f} ms  ({t_theirs / t_ours:.1f}x)")


if __name__ == "__main__":
    main()
    end_to_end(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
