#!/usr/bin/env bash
# The CLI end to end against memory-map plus fluent-uri per line
# (examples/fluent_validate.rs): seven alternating runs over FILE, and each
# command's times in milliseconds, sorted (read the median and the minimum).
#
#   cargo build --release --example fluent_validate
#   scripts/e2e_validate.sh BIG.txt
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
        rc=0; $c > /dev/null || rc=$?
        check "$rc" "$c"
        times[$c]+="$(( ($(date +%s%N) - start) / 1000000 )) "
    done
done
for c in "${cmds[@]}"; do
    echo "$c: $(tr ' ' '\n' <<< "${times[$c]}" | grep . | sort -n | tr '\n' ' ')ms"
done
