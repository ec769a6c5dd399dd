#!/usr/bin/env bash
# A/B timing on a noisy machine: runs each command alternately, five times,
# and prints each one's minimum wall time. Every command gets FILE and N as
# its arguments (as the examples parse_corpus, batch_corpus and
# normalize_corpus take them).
#
#   scripts/ab.sh benches/data/kasztp.txt 100 /tmp/old/parse_corpus target/release/examples/parse_corpus
set -euo pipefail
file=$1
n=$2
shift 2
declare -A best
for _ in 1 2 3 4 5; do
    for cmd in "$@"; do
        start=$(date +%s%N)
        "$cmd" "$file" "$n" > /dev/null
        took=$(( $(date +%s%N) - start ))
        if [[ -z "${best[$cmd]:-}" || $took -lt ${best[$cmd]} ]]; then
            best[$cmd]=$took
        fi
    done
done
for cmd in "$@"; do
    printf '%8.3f s  %s\n' "$(echo "${best[$cmd]} / 1000000000" | bc -l)" "$cmd"
done
