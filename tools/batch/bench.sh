#!/bin/sh
# Batch throughput: -j 1 against -j 2 (or any list of job counts) on many
# small files.  Usage: tools/batch/bench.sh [BINARY] [NFILES] [JOBS...]
# Prints the minimum and median wall time and the median CPU time (user +
# sys) per job count (ROUNDS runs each, default 7; the input tree lives in $TMPDIR, use a tmpfs such as
# /dev/shm to time the tool rather than the disk).
# Generates NFILES support-ticket-like files (about 1.5 kB each, a few
# findings each) under $TMPDIR/pii-bench, in 20 folders.
set -e
P=${1:-./pii-redact}
N=${2:-2000}
shift 2 2>/dev/null || shift $#
JOBS=${*:-"1 2"}
ROUNDS=${ROUNDS:-7}
D=${TMPDIR:-/tmp}/pii-bench
rm -rf "$D"
mkdir -p "$D"
awk -v n="$N" -v d="$D/in" 'BEGIN {
    srand(7)
    for (i = 0; i < n; i++) {
        dir = sprintf("%s/q%02d", d, i % 20)
        if (i < 20) system("mkdir -p " dir)
        f = sprintf("%s/ticket-%05d.txt", dir, i)
        printf "Ticket #%d opened by customer%d@example.com\n", i, i > f
        printf "Phone: +1 415-555-%04d, account 4111 1111 1111 1111\n", i % 10000 > f
        for (k = 0; k < 18; k++)
            printf "Line %d of the conversation: the order %d shipped on 2024-03-%02d; the agent " \
                   "replied that the parcel is on its way.\n", k, i * 31 + k, 1 + k % 28 > f
        printf "Regards, visit https://www.example.com/help/%d\n", i > f
        close(f)
    }
}'
echo "inputs: $N files, $(du -sk "$D/in" | cut -f1) kB on disk, $(cat "$D"/in/*/* | wc -c) bytes"
# Rounds alternate between the job counts so that drift in the machine's
# load hits them alike; each run starts with an empty output folder.
# /usr/bin/time gives wall-clock seconds and the CPU seconds (user + sys)
# the process received.
for j in $JOBS; do : >"$D/times.$j"; done
r=0
while [ $r -lt "$ROUNDS" ]; do
    for j in $JOBS; do
        rm -rf "$D/out"
        /usr/bin/time -f '%e %U %S' -o "$D/t" "$P" --rules-only -r "$D/in" --out-dir "$D/out" -j "$j" -q
        awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }' "$D/t" >>"$D/times.$j"
    done
    r=$((r + 1))
done
med() { sort -n | sed -n "$(((ROUNDS + 1) / 2))p"; }
for j in $(echo $JOBS | tr ' ' '\n' | sort -un); do
    echo "-j $j: wall min $(cut -d' ' -f1 "$D/times.$j" | sort -n | head -n 1) s," \
        "median $(cut -d' ' -f1 "$D/times.$j" | med) s; CPU median $(cut -d' ' -f2 "$D/times.$j" | med) s" \
        "(wall: $(cut -d' ' -f1 "$D/times.$j" | sort -n | tr '\n' ' '))"
done
rm -rf "$D"
