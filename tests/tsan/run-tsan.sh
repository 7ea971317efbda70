#!/bin/sh
# run-tsan.sh -- data races in generated programs and the runtime (make check-tsan).
#
# Builds the runtime library with clang -fsanitize=thread -fopenmp (LLVM's
# libomp, whose OMPT tool "archer" tells ThreadSanitizer about OpenMP's
# barriers, locks and tasks, so that only real races are reported), then
# every tests/run program, in lane blocks and with --no-lanes, and runs it
# on $TSAN_THREADS (default 4) threads with --par-work 1: every loop that
# can run in parallel does, also on these small networks.  A case fails on
# a ThreadSanitizer report or a crash; its output is not compared (RANDOM
# in parallel code draws per thread).  Skipped: the programs in RACY race
# by design (they are erroneous, semantics.md section 7, and their tests/run
# output holds only at the default thresholds, which keep them serial), and
# those in DEEP recurse deeper than ThreadSanitizer's own stack of frames.
# TSAN_ONLY="NAME ..." runs only those programs.  Without clang or
# libarcher the run is skipped.
set -u
ROOT=$(pwd)
: "${CUPITC:=build/bin/cupitc}" "${BUILD:=build}" "${TSAN_CC:=clang}" "${TSAN_THREADS:=4}"
RACY="merge-first-function-global"
DEEP="rterr-recursion-depth"
out=$BUILD/tsan
: "${ARCHER:=$($TSAN_CC -print-resource-dir 2>/dev/null)/../../libarcher.so}"
if ! command -v "$TSAN_CC" >/dev/null 2>&1 || [ ! -f "$ARCHER" ]; then
    echo "skip check-tsan: needs $TSAN_CC and libarcher.so (set ARCHER=PATH)"
    exit 0
fi
rm -rf "$out"
mkdir -p "$out/obj"
TSAN="-O1 -g -fsanitize=thread -fopenmp"
for f in runtime/*.c; do
    # shellcheck disable=SC2086
    "$TSAN_CC" -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE $TSAN -Iinclude \
        -c -o "$out/obj/$(basename "$f" .c).o" "$f" || exit 1
done
ar rcs "$out/libcupitrt.a" "$out"/obj/*.o || exit 1
OMP_TOOL_LIBRARIES=$(cd "$(dirname "$ARCHER")" && pwd)/$(basename "$ARCHER")
TSAN_OPTIONS="ignore_noninstrumented_modules=1 exitcode=66"
export OMP_TOOL_LIBRARIES TSAN_OPTIONS NO_COLOR=1 CUPIT_PROTOCOL=

failed=0
for src in tests/run/*.nn; do
    name=$(basename "$src" .nn)
    if [ -n "${TSAN_ONLY:-}" ]; then
        case " $TSAN_ONLY " in *" $name "*) ;; *) continue ;; esac
    fi
    case " $RACY " in *" $name "*) echo "skip $name: races by design"; continue ;; esac
    case " $DEEP " in *" $name "*) echo "skip $name: too deep for ThreadSanitizer"; continue ;; esac
    flags=""
    [ -f "tests/run/$name.flags" ] && flags=$(cat "tests/run/$name.flags")
    args=""
    [ -f "tests/run/$name.args" ] && args=$(cat "tests/run/$name.args")
    extra=""
    [ -f "tests/run/$name.c" ] && extra="$ROOT/tests/run/$name.c"
    bad=0
    for variant in lanes nolanes; do
        v=""
        [ $variant = nolanes ] && v=--no-lanes
        exe="$ROOT/$out/$name.$variant"
        # shellcheck disable=SC2086
        if ! "$CUPITC" $flags $v -S "$src" -o "$exe.c" >"$exe.log" 2>&1 ||
           ! "$TSAN_CC" -std=c11 -w $TSAN -Iinclude -o "$exe" "$exe.c" $extra \
               "$out/libcupitrt.a" -lm >>"$exe.log" 2>&1; then
            echo "FAIL $name: does not compile ($variant)"; sed 's/^/    /' "$exe.log" | head -10
            bad=1
            break
        fi
        # shellcheck disable=SC2086
        (cd tests/run && OMP_NUM_THREADS=$TSAN_THREADS timeout 300 "$exe" --par-work 1 $args) \
            >/dev/null 2>"$exe.stderr"
        status=$?
        if grep -q 'WARNING: ThreadSanitizer' "$exe.stderr" || [ "$status" -ge 124 ] ||
           [ "$status" -eq 66 ]; then
            echo "FAIL $name: exit status $status ($variant, $TSAN_THREADS threads)"
            grep -E '^SUMMARY' "$exe.stderr" | sort | uniq -c | head -10
            bad=1
            break
        fi
    done
    if [ $bad -eq 0 ]; then echo "ok $name"; else failed=$((failed + 1)); fi
done
if [ "$failed" -ne 0 ]; then
    echo "check-tsan: $failed program(s) failed"
    exit 1
fi
echo "check-tsan: no data race found"
