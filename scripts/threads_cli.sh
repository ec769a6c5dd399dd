#!/usr/bin/env bash
# `urilex validate` end to end with one thread and with two, alternating,
# best of N runs each, and the ratio (issue 38's scaling figure).
#
#   scripts/threads_cli.sh FILE [N] [BIN]     # N = 15, BIN = target/release/urilex
#
# FILE should be large (about 1 GB: the corpora repeated) and in the page
# cache (run once before); the machine is shared, so only the best runs say
# what the code does.
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
file=${1:?FILE}
n=${2:-15}
bin=${3:-target/release/urilex}
best1=999999999
best2=999999999
for _ in $(seq "$n"); do
    for t in 1 2; do
        s=$(date +%s%N)
        rc=0; "$bin" validate --threads "$t" "$file" >/dev/null || rc=$?
        check "$rc" "$bin validate --threads $t $file"
        ms=$((($(date +%s%N) - s) / 1000000))
        if [ "$t" = 1 ]; then
            [ "$ms" -lt "$best1" ] && best1=$ms
        else
            [ "$ms" -lt "$best2" ] && best2=$ms
        fi
    done
done
echo "threads 1: ${best1} ms  threads 2: ${best2} ms  ratio $(awk "BEGIN{printf \"%.2f\", $best1/$best2}")"
