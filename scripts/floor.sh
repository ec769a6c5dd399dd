#!/usr/bin/env bash
# What `urilex parse`'s outputs cost at least: each output written with
# `--threads 1` into /dev/shm (wall, user and system seconds, best of 3),
# beside `dd` writing as many MiB over a file of that size, and `validate`
# on the same input (docs/performance.md, issue 47's floor table).
#
#   scripts/floor.sh FILE
set -euo pipefail
cd "$(dirname "$0")/.."
F=${1:?usage: scripts/floor.sh FILE}
cargo build --release -q -p urilex-cli
U=target/release/urilex
t() { /usr/bin/time -f "%e %U %S" "$@" 2>&1 >/dev/null | tail -1; }
best() {
    local b=""
    for _ in 1 2 3; do
        r=$(t "$@")
        if [ -z "$b" ] || awk "BEGIN{exit !(${r%% *} < ${b%% *})}"; then b=$r; fi
    done
    echo "$b"
}
echo "validate: wall/user/sys $(best $U validate --threads 1 "$F")"
for f in jsonl arrow parquet; do
    out=/dev/shm/urilex-floor.$f
    r=$(best $U parse --format $f --threads 1 "$F" -o $out)
    size=$(stat -c %s $out)
    mb=$((size / 1048576))
    dd if=/dev/zero of=/dev/shm/urilex-floor.dd bs=1M count=$mb status=none
    d=$(best dd if=/dev/zero of=/dev/shm/urilex-floor.dd bs=1M count=$mb status=none)
    echo "$f: wall/user/sys $r; output $size bytes; dd of as many MiB over a file: $d"
    rm -f $out /dev/shm/urilex-floor.dd
done
