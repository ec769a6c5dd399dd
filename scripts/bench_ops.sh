#!/usr/bin/env bash
# The operations end to end (`urilex get`, `params`, `keys --count`) on the
# URL corpora, one file per corpus (~250 MB each, the corpus repeated) and
# all of them (~1 GB, bench_pipeline.sh's file), output to a file in
# memory, against a Rust program doing the same with the `url` crate (and
# `psl`) in the same run (peers/src/bin/url_ops.rs). Each figure is the
# best of ROUNDS interleaved rounds. Prints a Markdown table: input MB/s
# and urilex's ratio to the peer; for two threads, the ratio to one.
#
#   scripts/bench_ops.sh            ROUNDS=3 by default
set -euo pipefail
# A timed command's exit status: urilex's 1 means it found invalid
# references (a corpus has some), an answer like 0; any other failure stops
# the script, since a command that fails fast would be reported as fast.
check() {
    local rc=$1 cmd=$2
    case "$rc:$cmd" in
        0:* | 1:*urilex*) ;;
        *) echo "$0: failed with status $rc: $cmd" >&2; exit 1 ;;
    esac
}
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-3}
SHM=${SHM:-/dev/shm/urilex-bench}
mkdir -p "$SHM"
cargo build --release -q -p urilex-cli
cargo build --release -q --manifest-path peers/Cargo.toml
U=target/release/urilex
P=peers/target/release/url_ops
src=(../shared/data/urls/*.txt)
[ -e "${src[0]}" ] || src=(benches/data/*.txt)
inputs=()
for f in "${src[@]}"; do
    name=$(basename "$f" .txt)
    out="$SHM/corpus-$name.txt"
    if [ ! -s "$out" ]; then
        : > "$out"
        while [ "$(stat -c %s "$out")" -lt 250000000 ]; do cat "$f" >> "$out"; done
    fi
    inputs+=("$out")
done
all=$SHM/corpus.txt
if [ ! -s "$all" ]; then
    cat "${src[@]}" > "$SHM/one.txt"
    : > "$all"
    while [ "$(stat -c %s "$all")" -lt 1000000000 ]; do cat "$SHM/one.txt" >> "$all"; done
fi
inputs+=("$all")
now() { date +%s%N; }
# name | urilex command | peer command ("" for none)
ops=(
    "get {host}|$U get {host} --threads 1|$P host"
    "get {host:registrable}|$U get {host:registrable} --threads 1|$P registrable"
    "params|$U params --threads 1|$P params"
    "keys --count|$U keys --count --threads 1|$P keys-count"
    "get {host}, 2 threads|$U get {host} --threads 2|"
    "params, 2 threads|$U params --threads 2|"
)
declare -A best
for ((r = 0; r < ROUNDS; r++)); do
    for input in "${inputs[@]}"; do
        for op in "${ops[@]}"; do
            IFS='|' read -r name ucmd pcmd <<< "$op"
            for side in u p; do
                cmd=$ucmd; [ $side = p ] && cmd=$pcmd
                [ -z "$cmd" ] && continue
                rc=0; s=$(now); $cmd "$input" > "$SHM/out" 2>"$SHM/err" || rc=$?; e=$(now)
                [ "$rc" = 0 ] || [ "$rc" = 1 ] || cat "$SHM/err" >&2
                check "$rc" "$cmd $input"
                key="$input|$name|$side"
                ns=$((e - s))
                if [ -z "${best[$key]:-}" ] || [ "$ns" -lt "${best[$key]}" ]; then best[$key]=$ns; fi
            done
        done
    done
    echo "round $r done" >&2
done
rm -f "$SHM/out"
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); $(nproc) cores; best of $ROUNDS rounds"
echo
echo "| input | operation | urilex MB/s | url crate MB/s | ratio |"
echo "| --- | --- | ---: | ---: | ---: |"
for input in "${inputs[@]}"; do
    in=$(stat -c %s "$input")
    for op in "${ops[@]}"; do
        IFS='|' read -r name ucmd pcmd <<< "$op"
        u=${best["$input|$name|u"]}
        if [ -n "$pcmd" ]; then
            p=${best["$input|$name|p"]}
            awk -v f="$(basename "$input")" -v n="$name" -v b="$in" -v u="$u" -v p="$p" 'BEGIN {
                printf "| %s | `%s` | %.0f | %.0f | %.1f× |\n", f, n, b / 1e6 / (u / 1e9), b / 1e6 / (p / 1e9), p / u }'
        else
            one=${best["$input|${name%, 2 threads}|u"]}
            awk -v f="$(basename "$input")" -v n="$name" -v b="$in" -v u="$u" -v o="$one" 'BEGIN {
                printf "| %s | `%s` | %.0f | | %.2f× one thread |\n", f, n, b / 1e6 / (u / 1e9), o / u }'
        fi
    done
done
