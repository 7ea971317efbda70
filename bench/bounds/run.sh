#!/bin/sh
# run.sh -- the lower bounds of bounds.c for the main suite's nets, beside
# the epoch times of the last main-suite run (bench/results/latest.csv).
#
#   sh bench/bounds/run.sh        (make bench-bounds)
#
# For each data set (BENCH_DATASETS, default mushroom thyroid building;
# the shape from the first line of BENCH_DATA/NAME.train) and hidden size
# (BENCH_HIDDEN, default 16 64 256): the time per epoch of the per-lane
# gradient accumulation alone, and of writing and reading one gradient
# per connection and example (one replicate per example: the example
# pass, then MERGE), both at 1 thread; then, where latest.csv has the
# configuration, the 1-thread epoch times of FANN, PyTorch,
# examples/backprop.nn and the report's trainer.
# Writes the table to bench/results/bounds.md too.
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
DATA=${BENCH_DATA:-$ROOT/../shared/data}
SETS=${BENCH_DATASETS:-mushroom thyroid building}
HIDDEN=${BENCH_HIDDEN:-16 64 256}
CSV=$ROOT/bench/results/latest.csv
OUT=$ROOT/bench/results/bounds.md
mkdir -p "$BUILD/bench"
${CC:-cc} -std=c11 -O2 -march=native -o "$BUILD/bench/bounds" "$ROOT/bench/bounds/bounds.c"

# sec_epoch of SYSTEM at DATA, H, 1 thread, unpruned, in ms (or "-")
epoch_ms() {
    [ -f "$CSV" ] || { echo -; return; }
    awk -F, -v d="$1" -v h="$2" -v s="$3" '
        $1 == "main" && $2 == d && $3 == h && $4 == 1 && $5 == s && $6 == 0 { printf "%.2f", $10 * 1000; f = 1 }
        END { if (!f) print "-" }' "$CSV"
}

{
    echo "# Lower bounds of the epoch time, 1 thread"
    echo
    echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //'), load average $(cut -d' ' -f1 /proc/loadavg)."
    echo "Epoch times of the peers from bench/results/latest.csv ($(sed -n 3p "$ROOT/bench/results/latest.md" 2>/dev/null | sed 's/^Versions: .*commit /commit /' || echo 'no run'))."
    echo
    echo "| data | H | connections | lane blocks | accumulate (ms) | ns per connection and block | one replicate per example: write + read (ms) | FANN epoch (ms) | PyTorch epoch (ms) | backprop epoch (ms) | report epoch (ms) |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    for d in $SETS; do
        f=$DATA/$d.train
        [ -r "$f" ] || { echo "bounds: no $f" >&2; continue; }
        set -- $(head -n 1 "$f")
        n=$1 nin=$2 nout=$3
        for h in $HIDDEN; do
            set -- $("$BUILD/bench/bounds" "$nin" "$h" "$nout" "$n")
            wr=$(awk -v w="${10}" -v r="${12}" 'BEGIN { printf "%.2f", w + r }')
            echo "| $d | $h | $2 | $4 | $6 | $8 | $wr | $(epoch_ms "$d" "$h" fann) | $(epoch_ms "$d" "$h" torch) | $(epoch_ms "$d" "$h" cupitc) | $(epoch_ms "$d" "$h" cupitc-report) |"
        done
    done
} | tee "$OUT"
