#!/usr/bin/env bash
# The user's command end to end: `urilex parse` over ~1 GB of the URL
# corpora and over a generated ~1 GB combined log, in every output format,
# one thread and two, output to a file in memory (/dev/shm: a disk's
# writeback would measure the disk), beside a plain `dd` of the same size
# and what a user would write instead (peers/: mmap + the `url` crate or
# fluent-uri + serde_json rows; Python's urlsplit + json.dumps), all in one
# run. Each figure is the best of ROUNDS interleaved rounds (the machine is
# shared and noisy). Prints a Markdown table.
#
#   scripts/bench_pipeline.sh              ROUNDS=3 by default
#   BEFORE=/path/to/old/urilex scripts/bench_pipeline.sh
#                                          adds an older build's parse, for a ratio
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
corpus=$SHM/corpus.txt
if [ ! -s "$corpus" ]; then
    src=(../shared/data/urls/*.txt)
    [ -e "${src[0]}" ] || src=(benches/data/*.txt)
    cat "${src[@]}" > "$SHM/one.txt"
    : > "$corpus"
    while [ "$(stat -c %s "$corpus")" -lt 1000000000 ]; do cat "$SHM/one.txt" >> "$corpus"; done
fi
log=$SHM/combined.log
if [ ! -s "$log" ]; then
    python3 scripts/make_logs.py 5200000 > "$log"
    gzip -1 -c "$log" > "$log.gz"
    zstd -q -1 -c "$log" > "$log.zst"
fi
head -c 20000000 "$corpus" | sed '$d' > "$SHM/py.txt"
size() { stat -c %s "$1"; }
now() { date +%s%N; }

names=(); cmds=(); inputs=()
add() { names+=("$1"); inputs+=("$2"); cmds+=("$3"); }
for t in 1 2; do
    for f in jsonl tsv csv arrow parquet; do
        add "parse --format $f --threads $t" "$corpus" "$U parse --format $f --threads $t $corpus"
    done
    add "parse --input combined --threads $t" "$log" "$U parse --input combined --threads $t $log"
    add "parse --input combined --field both --threads $t" "$log" "$U parse --input combined --field both --threads $t $log"
    add "parse --input combined --threads $t (gzip)" "$log" "$U parse --input combined --threads $t $log.gz"
    add "parse --input combined --threads $t (zstd)" "$log" "$U parse --input combined --threads $t $log.zst"
    if [ -n "${BEFORE:-}" ]; then
        add "before: parse --threads $t" "$corpus" "$BEFORE parse --threads $t $corpus"
    fi
done
add "peer: mmap + url + serde_json" "$corpus" "peers/target/release/url_jsonl $corpus"
add "peer: mmap + fluent-uri + serde_json" "$corpus" "peers/target/release/fluent_jsonl $corpus"
add "peer: Python urlsplit + json.dumps (20 MB)" "$SHM/py.txt" "python3 scripts/peer_urlsplit.py $SHM/py.txt"

declare -A best outsize ddbest
for ((r = 0; r < ROUNDS; r++)); do
    for i in "${!cmds[@]}"; do
        rm -f "$SHM/out"
        rc=0; s=$(now); ${cmds[$i]} > "$SHM/out" || rc=$?; e=$(now)
        check "$rc" "${cmds[$i]}"
        ns=$((e - s)); out=$(size "$SHM/out"); rm -f "$SHM/out"
        outsize[$i]=$out
        if [ -z "${best[$i]:-}" ] || [ "$ns" -lt "${best[$i]}" ]; then best[$i]=$ns; fi
        # dd of the same size to the same place, right after.
        mb=$(( (out + 1048575) / 1048576 ))
        s=$(now); dd if=/dev/zero of="$SHM/dd" bs=1M count=$mb status=none; e=$(now); rm -f "$SHM/dd"
        ns=$((e - s))
        if [ -z "${ddbest[$i]:-}" ] || [ "$ns" -lt "${ddbest[$i]}" ]; then ddbest[$i]=$ns; fi
        echo "round $r: ${names[$i]}: ${best[$i]} ns best, $out bytes out" >&2
    done
done
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); $(nproc) cores; best of $ROUNDS rounds"
echo
echo "| command | input MB | s | input MB/s | output GB/s | dd, same size: GB/s |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
for i in "${!cmds[@]}"; do
    in=$(size "${inputs[$i]}")
    awk -v n="${names[$i]}" -v inb="$in" -v ns="${best[$i]}" -v out="${outsize[$i]}" -v dd="${ddbest[$i]}" 'BEGIN {
        s = ns / 1e9
        printf "| `%s` | %.0f | %.3f | %.0f | %.2f | %.2f |\n", n, inb / 1e6, s, inb / 1e6 / s, out / 1e9 / s, out / 1e9 / (dd / 1e9)
    }'
done
