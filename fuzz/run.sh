#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each (default 30), seeding each corpus
# from the test vectors. Needs cargo-fuzz (`cargo install cargo-fuzz`); on a
# stable toolchain RUSTC_BOOTSTRAP=1 lets it use the nightly-only flags.
#
#   fuzz/run.sh 30                    # 30 s per target
#   RUNS=10000000 fuzz/run.sh         # a fixed number of executions per target
#   RUNS=20000 SEED=1 fuzz/run.sh     # deterministic (what CI runs)
#   PRUNE=1 fuzz/run.sh               # least disk: a target's binary is built
#                                     # just before its run, deleted after it
set -euo pipefail
cd "$(dirname "$0")"
SECONDS_PER_TARGET="${1:-30}"
export RUSTC_BOOTSTRAP=1
targets=(parse dfa_vs_reference resolve against_fluent_uri simd_vs_scalar batch_vs_single batch_offsets extract fast_path edit csv jsonl access_log compressed ranges writers table_rows whatwg columns)
# Seed corpora: every input, base and reference of the published vectors.
for t in "${targets[@]}"; do
    mkdir -p "corpus/$t"
done
python3 - <<'PY'
import json, hashlib, os
seeds = set()
for name in ("parse", "resolve", "normalize"):
    for line in open(f"../tests/data/{name}.jsonl", encoding="utf-8"):
        r = json.loads(line)
        for k in ("input", "base", "ref"):
            if isinstance(r.get(k), str):
                seeds.add(r[k])
# RFC 1738's schemes (seed 002), which the published vectors hardly have.
for line in open("../tests/data/rfc1738-urls.txt", encoding="utf-8"):
    seeds.add(line.rstrip("\n"))
# URNs (RFC 8141, seed 004).
for line in open("../tests/data/urn.jsonl", encoding="utf-8"):
    seeds.add(json.loads(line)["input"])
for t in ("parse", "dfa_vs_reference", "against_fluent_uri", "resolve", "batch_vs_single", "fast_path", "whatwg", "columns"):
    for s in seeds:
        data = s.encode("utf-8")
        h = hashlib.sha1(data).hexdigest()
        with open(f"corpus/{t}/seed-{h}", "wb") as f:
            f.write(data)
PY
# All at once links in parallel; PRUNE=1 keeps one target's binary on disk
# at a time (the sanitizer makes each 40 to 280 MB, 2 GB in all).
bin_dir="target/x86_64-unknown-linux-gnu/release"
if [ "${PRUNE:-0}" != 1 ]; then
    cargo fuzz build --release
fi
for t in "${targets[@]}"; do
    if [ -n "${RUNS:-}" ]; then
        limit="-runs=$RUNS"
        # The log pipeline's targets run the whole pipeline (files, threads,
        # every output format) per input, and table_rows writes and reads
        # back every format: fewer runs keep CI's share of each near a
        # minute (a warm run on the 2-core machine, RUNS=20000: writers
        # took 148 s for 2,000 inputs, table_rows 213 s for 20,000).
        case $t in
            csv | jsonl | access_log | compressed) limit="-runs=$(( (RUNS + 9) / 10 ))" ;;
            writers) limit="-runs=$(( (RUNS + 39) / 40 ))" ;;
            table_rows) limit="-runs=$(( (RUNS + 3) / 4 ))" ;;
        esac
    else
        limit="-max_total_time=$SECONDS_PER_TARGET"
    fi
    if [ -n "${SEED:-}" ]; then
        limit="$limit -seed=$SEED"
    fi
    # The log pipeline's targets run threads that outlive a run by a
    # moment (the reader's feeder and stream threads end on their own once
    # their queue closes): LeakSanitizer's check after each input would
    # count what they still hold.
    # LeakSanitizer's check at exit counted std's bookkeeping of those
    # threads too (80 bytes, once in a 5-minute run): off for them.
    asan=${ASAN_OPTIONS:-}
    case $t in
        csv | jsonl | access_log | compressed | writers)
            limit="$limit -detect_leaks=0"
            asan="${asan:+$asan:}detect_leaks=0"
            ;;
    esac
    echo "== fuzz $t ($limit)"
    # A run that fails (a crash, or the fuzzer not starting) stops the
    # script with its output; a passing one shows its statistics.
    log="target/fuzz-$t.log"
    mkdir -p target
    # shellcheck disable=SC2086
    if ! ASAN_OPTIONS=$asan cargo fuzz run --release "$t" "corpus/$t" -- $limit -print_final_stats=1 > "$log" 2>&1; then
        tail -n 60 "$log" >&2
        echo "fuzz target $t failed: see fuzz/$log and fuzz/artifacts/$t" >&2
        exit 1
    fi
    grep -E "stat::number_of_executed_units|stat::peak_rss|Done" "$log" || true
    if ls "artifacts/$t"/crash-* >/dev/null 2>&1; then
        echo "crash found in $t: see fuzz/artifacts/$t" >&2
        exit 1
    fi
    if [ "${PRUNE:-0}" = 1 ]; then
        rm -f "$bin_dir/$t" "$bin_dir/deps/$t"-*
    fi
done
