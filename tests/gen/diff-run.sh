#!/bin/sh
# diff-run.sh -- the differential tester: generated programs (tests/gen/
# cupitgen.c) checked in every compiler variant (check-one.sh).
#
#   diff-run.sh [-n N] [-s FIRST_SEED] [-j JOBS] [-o OUTDIR] [--size small|medium] [FILE.nn ...]
#
# Prints a line for every program that fails, then the count per class,
# the throughput, and "diff-run: N passed, N failed".  Failing programs are
# kept as OUTDIR/CLASS/SEED.nn with the check's log (OUTDIR/CLASS/SEED.log
# and the diff of a mismatch); tests/gen/reduce.sh shrinks them.
set -u
: "${CUPITC:=build/bin/cupitc}" "${BUILD:=build}"
GEN=${GEN:-$BUILD/tests/cupitgen}
n=20 first=1 jobs=2 outdir=$BUILD/fuzz-diff size=small
while [ $# -gt 0 ]; do
    case $1 in
    -n) n=$2; shift 2 ;;
    -s) first=$2; shift 2 ;;
    -j) jobs=$2; shift 2 ;;
    -o) outdir=$2; shift 2 ;;
    --size) size=$2; shift 2 ;;
    --one) # internal: one seed or file
        item=$2 outdir=$3 size=$4
        work=$(mktemp -d)
        case $item in
        *.nn) cp "$item" "$work/p.nn"; name=$(basename "$item" .nn) ;;
        *) "$GEN" "$item" --size "$size" >"$work/p.nn"; name=$item ;;
        esac
        line=$(sh tests/gen/check-one.sh "$work/p.nn" "$work/w")
        class=${line%% *}
        if [ "$class" != ok ]; then
            mkdir -p "$outdir/$class"
            cp "$work/p.nn" "$outdir/$class/$name.nn"
            { echo "$line"; cat "$work/w/mismatch.diff" 2>/dev/null; } >"$outdir/$class/$name.log"
            echo "FAIL $name: $line"
        else
            echo "ok $name"
        fi
        rm -rf "$work"
        exit 0 ;;
    *) break ;;
    esac
done
[ -x "$GEN" ] || [ $# -gt 0 ] || { echo "diff-run: $GEN not built (make $GEN)" >&2; exit 2; }
mkdir -p "$outdir"
log=$(mktemp)
start=$(date +%s)
if [ $# -gt 0 ]; then
    for f in "$@"; do echo "$f"; done
else
    seq "$first" $((first + n - 1))
fi | xargs -P "$jobs" -I{} sh "$0" --one {} "$outdir" "$size" | tee "$log" | grep -v '^ok '
end=$(date +%s)
total=$(grep -c '^ok \|^FAIL ' "$log")
bad=$(grep -c '^FAIL ' "$log")
for c in rejected internal cc-fail crash timeout mismatch; do
    k=$(grep -c "^FAIL [^ ]*: $c" "$log")
    [ "$k" -gt 0 ] && echo "  $c: $k"
done
secs=$((end - start))
[ "$secs" -gt 0 ] || secs=1
echo "diff-run: $total programs in $secs s ($(awk -v n="$total" -v s="$secs" 'BEGIN { printf "%.2f", n / s }') programs/s, $jobs jobs)"
rm -f "$log"
echo "diff-run: $((total - bad)) passed, $bad failed"
[ "$bad" -eq 0 ]
