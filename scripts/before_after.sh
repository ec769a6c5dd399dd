#!/usr/bin/env bash
# Before and after: the user's commands with two builds of the CLI, run
# alternately ROUNDS times on FILE (A then B, then B then A: the second
# of two runs into /dev/shm is often the faster), each command's best wall
# time per build and B's time as a share of A's. Outputs go to
# /dev/shm (a file in memory; its page allocation varies between runs,
# which is why the runs alternate and the best is kept).
#
#   scripts/before_after.sh FILE ROUNDS /tmp/urilex-before target/release/urilex
set -euo pipefail
file=$1
rounds=$2
a=$3
b=$4
out=/dev/shm/urilex-before-after
mkdir -p "$out"
commands=(
    "parse FILE -o $out/rows.jsonl"
    "parse --format tsv FILE -o $out/rows.tsv"
    "parse --format parquet FILE -o $out/rows.parquet"
    "get {host} --count FILE -o $out/hosts.txt"
    "validate FILE"
)
declare -A best
for ((r = 0; r < rounds; r++)); do
    for c in "${!commands[@]}"; do
        order=("$a" "$b")
        if ((r % 2)); then order=("$b" "$a"); fi
        for bin in "${order[@]}"; do
            read -r -a args <<< "${commands[$c]//FILE/$file}"
            start=$(date +%s%N)
            "$bin" "${args[@]}" > "$out/stdout" 2> /dev/null || true
            took=$(( $(date +%s%N) - start ))
            key="$c $bin"
            if [[ -z "${best[$key]:-}" || $took -lt ${best[$key]} ]]; then
                best[$key]=$took
            fi
            rm -f "$out"/rows.* "$out"/hosts.txt
        done
    done
done
printf '%-55s %9s %9s %7s\n' command A_ms B_ms B/A
for c in "${!commands[@]}"; do
    ta=${best["$c $a"]}
    tb=${best["$c $b"]}
    printf '%-55s %9d %9d %7.3f\n' "${commands[$c]}" $((ta / 1000000)) $((tb / 1000000)) \
        "$(echo "$tb / $ta" | bc -l)"
done
rm -rf "$out"
