#!/bin/sh
# diff-run.sh -- the differential tester: generated programs (tests/gen/
# cupitgen.c) checked in every compiler variant and thread count
# (check-one.sh).
#
#   diff-run.sh [-n N] [-s FIRST_SEED] [-j JOBS] [-o OUTDIR] [-t SECS]
#               [--size small|medium] [-k] [-v] [FILE.nn ...]
#
#   -n N       number of programs (default 20), seeds FIRST_SEED ... (default 1)
#   -j JOBS    programs checked in parallel (default 2)
#   -o OUTDIR  where failing programs are kept (default $BUILD/fuzz-diff):
#              OUTDIR/CLASS/SEED.nn and OUTDIR/CLASS/SEED.log (the error
#              messages, or the diffs against the reference run)
#   -t SECS    time limit of one run of a generated program (default 10)
#   --size S   passed to the generator
#   -k         keep the work directories (every variant's C, binary, output)
#   -v         also print "ok seed N" for every program that passes
#   FILE.nn    check these files instead of generated programs
#
# Prints "FAIL seed N: CLASS (what shows it)" per failing program, then the
# count per class, the throughput and "diff-run: N passed, N failed"; exits
# 1 if any program failed.  Classes: see check-one.sh; a generator that
# fails or prints nothing gives "gen-fail".
# Environment: CUPITC (default $BUILD/bin/cupitc), GEN (default
# $BUILD/tests/cupitgen), BUILD (default build), CHECK_RUNS (check-one.sh).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
: "${BUILD:=build}"
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
: "${CUPITC:=$BUILD/bin/cupitc}" "${GEN:=$BUILD/tests/cupitgen}"
case $CUPITC in /*) ;; */*) CUPITC=$(pwd)/$CUPITC ;; esac
case $GEN in /*) ;; */*) GEN=$(pwd)/$GEN ;; esac
export CUPITC GEN BUILD

CLASSES="rejected internal cc-fail crash timeout mismatch gen-fail"

# ---- internal: one program.  diff-run.sh --one ITEM (settings in DR_*)
if [ "${1:-}" = --one ]; then
    item=$2
    case $item in
        *.nn) name=$(basename "$item" .nn) label="file $name.nn" ;;
        *) name=$item label="seed $item" ;;
    esac
    w=$DR_TMP/$name
    mkdir -p "$w"
    class="" detail=""
    case $item in
        *.nn) cp "$item" "$w/prog.nn" ;;
        *)  # shellcheck disable=SC2086
            timeout -k 2 30 "$GEN" "$item" $DR_GENARGS >"$w/prog.nn" 2>"$w/gen.err"
            st=$?
            if [ "$st" -ne 0 ] || [ ! -s "$w/prog.nn" ]; then
                class=gen-fail detail="generator:$st"
                mkdir -p "$w/check"
                { echo "== $GEN $item $DR_GENARGS: exit status $st"; cat "$w/gen.err"; } >"$w/check/log"
            fi ;;
    esac
    if [ -z "$class" ]; then
        line=$(sh "$HERE/check-one.sh" -t "$DR_SECS" -d "$w/check" "$w/prog.nn")
        class=${line%% *}
        [ "$class" = "$line" ] && detail="" || detail=${line#* }
        [ -z "$class" ] && class=internal detail="check-one.sh printed nothing"
    fi
    echo "$name $class $detail" >"$DR_TMP/results/$name"
    if [ "$class" = ok ]; then
        [ "$DR_VERBOSE" = 1 ] && echo "ok $label"
    else
        # a readable detail: "default, 2 threads; native, 1 thread"
        shown=$(printf '%s\n' $detail | awk -F: '
            NF == 2 && $1 == "generator" { s = "generator exit status " $2; next }
            NF == 2 { $0 = $1 ($1 == "no-openmp" ? "" : ", " $2 ($2 == 1 ? " thread" : " threads")) }
            { s = s (NR > 1 ? "; " : "") $0 } END { print s }')
        mkdir -p "$DR_OUT/$class"
        cp "$w/prog.nn" "$DR_OUT/$class/$name.nn"
        { echo "$label: $class ($shown)"; cat "$w/check/log" 2>/dev/null; } >"$DR_OUT/$class/$name.log"
        echo "FAIL $label: $class ($shown)"
    fi
    [ "$DR_KEEP" = 1 ] || rm -rf "$w"
    exit 0
fi

usage() {
    echo "usage: diff-run.sh [-n N] [-s FIRST_SEED] [-j JOBS] [-o OUTDIR] [-t SECS] [--size S] [-k] [-v] [FILE.nn ...]" >&2
    exit 2
}
n=20 first=1 jobs=2 outdir=$BUILD/fuzz-diff keep=0 verbose=0 secs=10 genargs=""
while [ $# -gt 0 ]; do
    case $1 in
        -n) [ $# -ge 2 ] || usage; n=$2; shift 2 ;;
        -s) [ $# -ge 2 ] || usage; first=$2; shift 2 ;;
        -j) [ $# -ge 2 ] || usage; jobs=$2; shift 2 ;;
        -o) [ $# -ge 2 ] || usage; outdir=$2; shift 2 ;;
        -t) [ $# -ge 2 ] || usage; secs=$2; shift 2 ;;
        --size) [ $# -ge 2 ] || usage; genargs="--size $2"; shift 2 ;;
        -k) keep=1; shift ;;
        -v) verbose=1; shift ;;
        --) shift; break ;;
        -*) usage ;;
        *) break ;;
    esac
done
for v in "$n" "$first" "$jobs" "$secs"; do
    case $v in ''|*[!0-9]*) usage ;; esac
done
[ "$jobs" -ge 1 ] || jobs=1
if [ $# -eq 0 ] && [ ! -x "$GEN" ]; then
    echo "diff-run: no generator $GEN (make $GEN, or give FILE.nn arguments)" >&2
    exit 2
fi
[ -x "$CUPITC" ] || { echo "diff-run: no compiler $CUPITC" >&2; exit 2; }
case $outdir in /*) ;; *) outdir=$(pwd)/$outdir ;; esac
mkdir -p "$outdir" || exit 2
DR_TMP=$(mktemp -d "${TMPDIR:-/tmp}/diff-run.XXXXXX") || exit 2
mkdir -p "$DR_TMP/results"
if [ "$keep" = 1 ]; then
    trap 'echo "diff-run: work directories kept in $DR_TMP"' EXIT
else
    trap 'rm -rf "$DR_TMP"' EXIT
fi
trap 'exit 130' INT TERM
DR_OUT=$outdir DR_KEEP=$keep DR_VERBOSE=$verbose DR_SECS=$secs DR_GENARGS=$genargs
export DR_TMP DR_OUT DR_KEEP DR_VERBOSE DR_SECS DR_GENARGS

now_ms() { echo $(($(date +%s%N) / 1000000)); }
start=$(now_ms)
if [ $# -gt 0 ]; then
    for f in "$@"; do
        case $f in
            *.nn) [ -r "$f" ] || { echo "diff-run: cannot read $f" >&2; exit 2; }
                  case $f in /*) echo "$f" ;; *) echo "$(pwd)/$f" ;; esac ;;
            *) echo "diff-run: not a .nn file: $f" >&2; exit 2 ;;
        esac
    done
else
    i=0
    while [ "$i" -lt "$n" ]; do echo $((first + i)); i=$((i + 1)); done
fi | xargs -d '\n' -n 1 -P "$jobs" sh "$0" --one
end=$(now_ms)

total=0 failed=0
counts=""
for c in ok $CLASSES; do
    k=$(cat "$DR_TMP"/results/* 2>/dev/null | awk -v c="$c" '$2 == c' | wc -l)
    total=$((total + k))
    [ "$c" = ok ] || failed=$((failed + k))
    [ "$c" = ok ] || [ "$k" -gt 0 ] && counts="$counts${counts:+, }$c $k"
done
ms=$((end - start))
[ "$ms" -gt 0 ] || ms=1
echo "summary: $total programs in $(awk -v m="$ms" 'BEGIN { printf "%.1f", m / 1000 }') s," \
     "$(awk -v n="$total" -v m="$ms" 'BEGIN { printf "%.3f", n * 1000 / m }') programs/s ($jobs jobs)"
echo "classes: $counts"
[ "$failed" -gt 0 ] && echo "failing programs are in $outdir/CLASS/ (reduce them with tests/gen/reduce.sh FILE.nn)"
echo "diff-run: $((total - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
