#!/usr/bin/env python3
"""Prints criterion's latest results as MB/s (10^6 bytes per second, from the
mean) and each benchmark's ratio to a peer in the same group, from the means
and from the fastest samples (per iteration): on a shared machine a slow
spell can fall on one benchmark of a group and not on the next, which moves
the means; the fastest samples show what the code does when it has the core.
`scripts/bench_table.py [GROUP_PREFIX] [--peer NAME]` after `cargo bench`."""
import json, os, sys

root = "target/criterion"
args = sys.argv[1:]
peer = "fluent-uri"
if "--peer" in args:
    i = args.index("--peer")
    peer = args[i + 1]
    del args[i:i + 2]
prefix = args[0] if args else ""
rows = {}
for dirpath, dirs, files in os.walk(root):
    if os.path.basename(dirpath) != "new" or "estimates.json" not in files:
        continue
    with open(os.path.join(dirpath, "benchmark.json")) as f:
        bench = json.load(f)
    with open(os.path.join(dirpath, "estimates.json")) as f:
        est = json.load(f)
    group = bench["group_id"]
    if not group.startswith(prefix):
        continue
    ns = est["mean"]["point_estimate"]
    best = ns
    sample = os.path.join(dirpath, "sample.json")
    if os.path.exists(sample):
        with open(sample) as f:
            smp = json.load(f)
        best = min(t / n for t, n in zip(smp["times"], smp["iters"]))
    tp = bench.get("throughput") or {}
    nbytes = tp.get("Bytes") or tp.get("BytesDecimal")
    mbs = nbytes / ns * 1e3 if nbytes else None
    rows.setdefault(group, {})[bench["function_id"] or bench["value_str"]] = (ns, mbs, best)
for group in sorted(rows):
    fns = rows[group]
    base = fns.get(peer)
    print(group)
    for name, (ns, mbs, best) in sorted(fns.items()):
        ratio = f"{base[0] / ns:5.2f}x {peer}" if base else ""
        fastest = f"(fastest samples {base[2] / best:5.2f}x)" if base else ""
        speed = f"{mbs:8.0f} MB/s" if mbs else ""
        print(f"  {name:28} {speed} {ratio} {fastest}")
