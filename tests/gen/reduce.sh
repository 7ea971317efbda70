#!/bin/sh
# reduce.sh -- shrinks a program that fails the differential check while it
# keeps failing the same way.
#
#   reduce.sh [-t SECS] FILE.nn [CLASS]
#
# First checks FILE.nn in every variant (check-one.sh; CLASS, if given,
# must be the class it gets), then deletes chunks of lines -- halves,
# quarters, ... single lines, repeated until a whole round deletes nothing
# -- and keeps a candidate only if
#   * cupitc -fsyntax-only accepts it (for the class rejected: rejects it),
#   * check-one.sh, running only what shows the failure, gives the same
#     class: for a mismatch the reference (-O0, 1 thread) and the first run
#     that differed; for crash/timeout the first run that crashed or hung;
#     for rejected/internal/cc-fail the variant that failed, and
#   * for rejected, internal, cc-fail and crash the same first error line
#     (positions removed) or signal.
# Writes FILE.reduced.nn (FILE without .nn) and prints its size.
# Environment: CUPITC (default build/bin/cupitc), CHECK_RUNS (the full check
# of the first step).  -t SECS: the run time limit (default 10; a timeout
# case is reduced faster with a smaller one).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
: "${CUPITC:=$ROOT/build/bin/cupitc}"
case $CUPITC in /*) ;; */*) CUPITC=$(pwd)/$CUPITC ;; esac
export CUPITC
usage() { echo "usage: reduce.sh [-t SECS] FILE.nn [CLASS]" >&2; exit 2; }
secs=10
while [ $# -gt 0 ]; do
    case $1 in
        -t) [ $# -ge 2 ] || usage; secs=$2; shift 2 ;;
        -*) usage ;;
        *) break ;;
    esac
done
[ $# -ge 1 ] && [ $# -le 2 ] || usage
src=$1 want=${2:-}
[ -r "$src" ] || { echo "reduce: cannot read $src" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/reduce.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
awk 1 "$src" >"$work/cur.nn"        # a final newline, so wc -l counts every line
start=$(date +%s)
checks=0

line=$(sh "$HERE/check-one.sh" -t "$secs" -d "$work/c0" "$work/cur.nn")
checks=$((checks + 1))
# the no-pass variant keeps the pass of the program the reduction started from
CHECK_OFF_PASS=$(cat "$work/c0/off-pass")
export CHECK_OFF_PASS
class=${line%% *}
detail=""; [ "$class" != "$line" ] && detail=${line#* }
if [ "$class" = ok ]; then
    echo "reduce: $src passes the check; nothing to reduce" >&2; exit 1
fi
if [ -n "$want" ] && [ "$want" != "$class" ]; then
    echo "reduce: $src fails as '$line', not as $want" >&2; exit 1
fi
sig=""
case $class in rejected|internal|cc-fail|crash) sig=$(cat "$work/c0/sig") ;; esac

case $class in
    mismatch) set -- ${CHECK_RUNS:-O0:1}; runs="$1 ${detail%% *}" ;;
    crash|timeout) runs=${detail%% *} ;;
    *) runs="${detail%% *}:1" ;;
esac

# fails CANDIDATE: true if the candidate fails in the same way
fails() {
    if [ "$class" = rejected ]; then
        ! "$CUPITC" -fsyntax-only "$1" >/dev/null 2>&1 || return 1
    else
        "$CUPITC" -fsyntax-only "$1" >/dev/null 2>&1 || return 1
    fi
    checks=$((checks + 1))
    if [ -n "$runs" ]; then
        l=$(sh "$HERE/check-one.sh" -r "$runs" -t "$secs" -d "$work/c" "$1")
    else
        l=$(sh "$HERE/check-one.sh" -t "$secs" -d "$work/c" "$1")
    fi
    [ "${l%% *}" = "$class" ] || return 1
    [ -z "$sig" ] || [ "$(cat "$work/c/sig")" = "$sig" ] || return 1
    return 0
}

if ! fails "$work/cur.nn"; then
    # the failure needs more than the runs picked: keep the whole check
    runs=${CHECK_RUNS:-}
    fails "$work/cur.nn" || { echo "reduce: $src does not fail the same way twice ($line)" >&2; exit 1; }
fi
lines0=$(wc -l <"$work/cur.nn") bytes0=$(wc -c <"$work/cur.nn")
echo "reduce: $src: $line; reducing with runs '${runs:-all}'${sig:+, keeping '$sig'}"

n=$lines0
while :; do
    changed=0
    chunk=$((n / 2))
    [ "$chunk" -ge 1 ] || chunk=1
    while :; do
        i=1
        while [ "$i" -le "$n" ]; do
            sed "${i},$((i + chunk - 1))d" "$work/cur.nn" >"$work/try.nn"
            if [ -s "$work/try.nn" ] && fails "$work/try.nn"; then
                mv "$work/try.nn" "$work/cur.nn"
                n=$(wc -l <"$work/cur.nn")
                changed=1
            else
                i=$((i + chunk))
            fi
        done
        [ "$chunk" -le 1 ] && break
        chunk=$((chunk / 2))
    done
    echo "reduce: $n lines after a round"
    [ "$changed" -eq 1 ] && [ "$n" -gt 1 ] || break
done

out=${src%.nn}.reduced.nn
cp "$work/cur.nn" "$out" || exit 2
echo "reduce: $out: $n lines, $(wc -c <"$out") bytes (from $lines0 lines, $bytes0 bytes; $checks checks, $(($(date +%s) - start)) s)"
