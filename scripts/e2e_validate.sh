#!/usr/bin/env bash
# The CLI end to end against memory-map plus fluent-uri per line
# (examples/fluent_validate.rs): seven alternating runs over FILE, and each
# command's times in milliseconds, sorted (read the median and the minimum).
#
#   cargo build --release --example fluent_validate
#   scripts/e2e_validate.sh BIG.txt
set -euo pipefail
file=$1
cmds=(
    "target/release/urilex validate --threads 1 $file"
    "target/release/urilex validate --threads 2 $file"
    "target/release/examples/fluent_validate $file"
)
declare -A times
for _ in 1 2 3 4 5 6 7; do
    for c in "${cmds[@]}"; do
        start=$(date +%s%N)
        $c > /dev/null || true
        times[$c]+="$(( ($(date +%s%N) - start) / 1000000 )) "
    done
done
for c in "${cmds[@]}"; do
    echo "$c: $(tr ' ' '\n' <<< "${times[$c]}" | grep . | sort -n | tr '\n' ' ')ms"
done
