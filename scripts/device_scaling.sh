#!/usr/bin/env bash
# Issue 47's many-core figures in one run, for a machine that reaches no
# registry (the device machine): everything it needs is carried in DIR.
#
#   scripts/device_scaling.sh DIR OUT
#
# DIR holds `urilex` (a release build), `urls/*.txt` (the corpora) and
# `combined.log.gz` (a combined access log, ~100 MB unpacked). Prepare it
# on the development machine with:
#
#   mkdir -p .device/urls && cp ../shared/data/urls/*.txt .device/urls/
#   cp target/release/urilex .device/ && strip .device/urilex
#   head -c 100000000 BIG_COMBINED.log | gzip -6 > .device/combined.log.gz
#
# It writes into OUT: `machine.txt` (processor, cores, kernels),
# `diagnosis.txt` (one and two threads: wall, user and system time, CPU
# use, context switches; unpinned and pinned to as many cores as threads)
# and `scaling.md` (scripts/scaling.sh's table on ~1 GB of the corpora and
# a ~1 GB log, all in /dev/shm). BYTES and LOG_TIMES make them smaller
# for a trial run here (THREADS and ROUNDS pass on to scaling.sh).
set -euo pipefail
dir=${1:?DIR}
out=${2:?OUT}
bin=$dir/urilex
chmod +x "$bin"
mkdir -p "$out"

# ~1 GB: the four corpora, concatenated, repeated.
urls=/dev/shm/urls.txt
cat "$dir"/urls/*.txt > /dev/shm/one.txt
one=$(stat -c %s /dev/shm/one.txt)
: > "$urls"
bytes=${BYTES:-1000000000}
for ((i = 0; i < (bytes + one - 1) / one; i++)); do
    cat /dev/shm/one.txt >> "$urls"
done
# ~1 GB of log: the carried 100 MB, ten times.
log=/dev/shm/combined.log
gzip -dc "$dir/combined.log.gz" > /dev/shm/log1
: > "$log"
for ((i = 0; i < ${LOG_TIMES:-10}; i++)); do
    cat /dev/shm/log1 >> "$log"
done
rm -f /dev/shm/one.txt /dev/shm/log1

{
    grep -m1 "model name" /proc/cpuinfo || true
    echo "cores: $(nproc)"
    grep -m1 "cpu MHz" /proc/cpuinfo || true
    free -g | head -2
    uname -r
    "$bin" --version
    ls -la "$urls" "$log"
} > "$out/machine.txt" 2>&1
cat "$out/machine.txt"

# Why one thread is slow there: where the time goes at one and two
# threads. getrusage of each child: user and system seconds, voluntary
# and involuntary context switches; best wall of two.
python3 - "$bin" "$urls" "$log" > "$out/diagnosis.txt" 2>&1 <<'PY' || true
import os, resource, subprocess, sys, time
bin, urls, log = sys.argv[1:4]
cmds = [
    ("validate", [bin, "validate", urls]),
    ("parse -> /dev/null", [bin, "parse", urls, "-o", "/dev/null"]),
    ("parse -> /dev/shm file", [bin, "parse", urls, "-o", "/dev/shm/d.jsonl"]),
]
def one(argv):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    r = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    for f in ("/dev/shm/d.jsonl", "/dev/shm/d.txt"):
        if os.path.exists(f):
            os.remove(f)
    if r.returncode > 1:
        raise SystemExit(f"status {r.returncode}: {argv}")
    return (wall, after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime,
            after.ru_nvcsw - before.ru_nvcsw, after.ru_nivcsw - before.ru_nivcsw)
print("| command | threads | pinned to | wall ms | user ms | sys ms | CPU use | voluntary switches | involuntary |")
print("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
for name, argv in cmds:
    for threads in (1, 2):
        for pin in (None, ",".join(str(c) for c in range(threads))):
            a = argv[:2] + ["--threads", str(threads)] + argv[2:]
            if pin is not None:
                a = ["taskset", "-c", pin] + a
            best = min((one(a) for _ in range(2)), key=lambda r: r[0])
            wall, user, sys_, vol, invol = best
            print(f"| {name} | {threads} | {pin or 'any'} | {wall*1000:.0f} | {user*1000:.0f} | "
                  f"{sys_*1000:.0f} | {(user+sys_)/wall*100:.0f}% | {vol} | {invol} |", flush=True)
PY
cat "$out/diagnosis.txt"

scripts/scaling.sh "$urls" "$log" "$bin" | tee "$out/scaling.md"
