#!/usr/bin/env bash
# The user's commands at 1, 2, 4, 8 and 16 threads (issue 47's table):
# each command's best wall time of ROUNDS runs, in ms, as a Markdown table
# on standard output; outputs go to /dev/shm (removed between runs).
#
#   scripts/scaling.sh FILE [LOG] [BIN]     # BIN = target/release/urilex
#
# FILE: references one per line, about 1 GB, in the page cache (or in
# /dev/shm). LOG: a combined access log for the `--input combined` row
# (scripts/make_logs.py makes one; the row is left out without it).
# THREADS="1 2 4 8 16" and ROUNDS=3 by default; thread counts above the
# machine's cores are left out unless THREADS names them.
set -euo pipefail
file=${1:?FILE}
log=${2:-}
bin=${3:-target/release/urilex}
rounds=${ROUNDS:-3}
cores=$(nproc)
if [ -n "${THREADS:-}" ]; then
    threads=($THREADS)
else
    threads=()
    for t in 1 2 4 8 16; do
        if [ "$t" -le "$cores" ]; then threads+=("$t"); fi
    done
fi
out=/dev/shm/urilex-scaling
rm -rf "$out"
mkdir -p "$out"

# Each row: its label, then the command (FILE, LOG, OUT replaced).
rows=(
    "\`validate\`|validate FILE"
    "\`parse\` JSON Lines → one file|parse FILE -o OUT/rows.jsonl"
    "\`parse\` JSON Lines → /dev/null|parse FILE -o /dev/null"
    "\`parse\` JSON Lines → part files (\`-o DIR/\`)|parse FILE -o OUT/parts/"
    "\`parse --compress zstd\` → one file|parse FILE --compress zstd -o OUT/rows.jsonl.zst"
    "\`parse --compress zstd\` → part files|parse FILE --compress zstd -o OUT/zparts/"
    "\`parse --format tsv\` → one file|parse --format tsv FILE -o OUT/rows.tsv"
    "\`parse --format arrow\` → one file|parse --format arrow FILE -o OUT/rows.arrow"
    "\`parse --format parquet\` → one file|parse --format parquet FILE -o OUT/rows.parquet"
    "\`parse --format parquet\` → part files|parse --format parquet FILE -o OUT/pparts/"
    "\`get '{host}' --count\` → one file|get {host} --count FILE -o OUT/hosts.txt"
)
if [ -n "$log" ]; then
    rows+=("\`parse --input combined\` → one file|parse --input combined LOG -o OUT/log.jsonl")
    rows+=("\`parse --input combined\` → part files|parse --input combined LOG -o OUT/lparts/")
fi

# The time of one run in ms; urilex's status 1 (invalid references found)
# is an answer, any other failure stops the script.
time_one() {
    local t=$1 cmd=$2
    rm -rf "${out:?}"/*
    local -a args
    read -r -a args <<< "${cmd//FILE/$file}"
    args=("${args[@]//LOG/$log}")
    args=("${args[@]//OUT/$out}")
    local s e rc=0
    s=$EPOCHREALTIME
    "$bin" "${args[0]}" --threads "$t" "${args[@]:1}" >/dev/null 2>&1 || rc=$?
    e=$EPOCHREALTIME
    if [ "$rc" -gt 1 ]; then
        echo "$0: status $rc: $bin ${args[*]} --threads $t" >&2
        exit 1
    fi
    awk "BEGIN{printf \"%d\", ($e - $s) * 1000}"
}

header="| $(basename "$file"), $(du -h "$file" | cut -f1) | "
sep="| --- |"
for t in "${threads[@]}"; do
    header+="$t | "
    sep+=" ---: |"
done
echo "$header"
echo "$sep"
for row in "${rows[@]}"; do
    label=${row%%|*}
    cmd=${row#*|}
    line="| $label |"
    for t in "${threads[@]}"; do
        best=
        for ((r = 0; r < rounds; r++)); do
            ms=$(time_one "$t" "$cmd")
            if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
        done
        line+=" $best |"
    done
    echo "$line"
done
rm -rf "$out"
