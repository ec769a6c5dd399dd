#!/usr/bin/env bash
# The SQL functions against datafusion-spark's try_parse_url (the WHATWG
# `url` crate), in one process (sql/examples/bench.rs): ROWS URLs cycled
# from the URL corpora (../shared/data/urls, else benches/data) in one
# Parquet file in memory; end to end at 1 and 2 target partitions, each
# function's own compute over the batches, and, with CLUSTER=1, on a
# Ballista scheduler and two executors started here. Best of ROUNDS
# interleaved rounds.
#
#   scripts/bench_sql.sh            ROWS=10000000 ROUNDS=3 CLUSTER=1
set -euo pipefail
cd "$(dirname "$0")/.."
ROWS=${ROWS:-10000000}
ROUNDS=${ROUNDS:-3}
CLUSTER=${CLUSTER:-1}
SHM=${SHM:-/dev/shm/urilex-bench}
mkdir -p "$SHM"
(cd sql && cargo build --release -q --features bench --example bench --bin urilex-sql)
src=(../shared/data/urls/*.txt)
[ -e "${src[0]}" ] || src=(benches/data/*.txt)
args=(--rows "$ROWS" --rounds "$ROUNDS" --parquet "$SHM/urls-$ROWS.parquet")
for f in "${src[@]}"; do args+=(--corpus "$f"); done
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT
if [ "$CLUSTER" = 1 ]; then
    S=sql/target/release/urilex-sql
    $S scheduler --bind 127.0.0.1:50350 >/dev/null 2>&1 & pids+=($!)
    for k in 1 2; do
        mkdir -p "$SHM/executor$k"
        $S executor --port $((50350 + 10 * k)) --grpc-port $((50351 + 10 * k)) \
            --scheduler 127.0.0.1:50350 --concurrent-tasks 1 --work-dir "$SHM/executor$k" \
            >/dev/null 2>&1 & pids+=($!)
    done
    sleep 3
    args+=(--remote df://127.0.0.1:50350)
fi
sql/target/release/examples/bench "${args[@]}"
