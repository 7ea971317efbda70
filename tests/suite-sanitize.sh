#!/bin/sh
# suite-sanitize.sh -- generated programs under AddressSanitizer, UBSan and
# LeakSanitizer: every examples/*.nn, every tests/run/*.nn and the report's
# programs, built with -fsanitize=address,undefined, run on small inputs.
# A case passes when the exit status is the expected one, stdout (and stderr,
# where a .err file exists) is as expected, and no sanitizer report appears.
# The runtime library itself is not sanitizer-built.  The self-tests in
# tests/sanitize/ must be caught.  One valgrind (memcheck) run of the report's
# trainer with pruning closes the suite.
set -u
suite=sanitize
. tests/tools/suite-env.sh
export ASAN_OPTIONS=detect_leaks=1
export UBSAN_OPTIONS=print_stacktrace=1
SANITIZE="-g -O1 -Xcc -fsanitize=address,undefined -Xcc -fno-omit-frame-pointer
          -Xcc -fno-sanitize-recover=all"
REPORT_PATTERN='ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error: |SUMMARY: [A-Za-z]*Sanitizer'

# build NAME SRC [EXTRA.c [FLAGS]]: compiles with the sanitizers into $out/NAME.
build() {
    # shellcheck disable=SC2086
    if ! "$CUPITC" $SANITIZE ${4:-} "$2" ${3:-} -o "$out/$1" >"$out/$1.cc.log" 2>&1; then
        echo "FAIL $1: does not compile with the sanitizers"
        sed 's/^/    /' "$out/$1.cc.log" | head -20
        return 1
    fi
}

# run CASE EXE DIR THREADS [ARGS...]: runs $out/EXE in DIR; sets $status
# and leaves $out/CASE.stdout and CASE.stderr.
run() {
    name=$1 exe=$2 dir=$3 threads=$4
    shift 4
    (cd "$dir" && OMP_NUM_THREADS=$threads timeout 120 "$ROOT/$out/$exe" "$@") \
        >"$out/$name.stdout" 2>"$out/$name.stderr"
    status=$?
}

# verdict NAME WANT_STATUS [WANT_STDOUT [WANT_STDERR]]: prints ok or FAIL.
verdict() {
    name=$1 want=$2
    if grep -Eq "$REPORT_PATTERN" "$out/$name.stderr"; then
        echo "FAIL $name: sanitizer report (exit status $status)"
        grep -E -A12 "$REPORT_PATTERN" "$out/$name.stderr" | head -24 | sed 's/^/    /'
    elif [ "$status" -ne "$want" ]; then
        echo "FAIL $name: exit status $status, expected $want"
        sed 's/^/    /' "$out/$name.stderr" | head -10
    elif [ -n "${3:-}" ] && ! diff -u "$3" "$out/$name.stdout" >"$out/$name.diff"; then
        echo "FAIL $name: wrong output"; head -20 "$out/$name.diff"
    elif [ -n "${4:-}" ] && ! diff -u "$4" "$out/$name.stderr" >"$out/$name.diff"; then
        echo "FAIL $name: wrong stderr"; head -20 "$out/$name.diff"
    else
        echo "ok $name"
        return 0
    fi
    return 1
}

# ---- tests/run: expected output and status as in suite-run.sh ------------------
for src in tests/run/*.nn; do
    [ -f "$src" ] || continue
    base=$(basename "$src" .nn)
    name="asan-$base"
    extra=""
    [ -f "tests/run/$base.c" ] && extra="tests/run/$base.c"
    flags=""
    [ -f "tests/run/$base.flags" ] && flags=$(cat "tests/run/$base.flags")
    build "$name" "$src" "$extra" "$flags" || continue
    want=0
    [ -f "tests/run/$base.status" ] && want=$(cat "tests/run/$base.status")
    err=""
    [ -f "tests/run/$base.err" ] && err="$ROOT/tests/run/$base.err"
    args=""
    [ -f "tests/run/$base.args" ] && args=$(cat "tests/run/$base.args")
    # shellcheck disable=SC2086
    run "$name" "$name" tests/run 2 $args
    verdict "$name" "$want" "$ROOT/tests/run/$base.out" "$err"
done

# ---- examples on small inputs ----------------------------------------------------
if build asan-backprop examples/backprop.nn; then
    run asan-backprop asan-backprop . 2 --data examples/data/circle.train \
        --data Test=examples/data/circle.test --param hidden=4 --param epochs=10
    verdict asan-backprop 0
    # 64 hidden units, 1 thread: fewer replicates than the 160 examples, not
    # dividing them, so the last batch of each epoch fills only part of the
    # replicates (and of a lane block).
    run asan-backprop-partial asan-backprop . 1 --data examples/data/circle.train \
        --data Test=examples/data/circle.test --param hidden=64 --param epochs=3
    reps=$(sed -n 's/.* with \([0-9]*\) replicates$/\1/p' "$out/asan-backprop-partial.stdout" | head -1)
    verdict asan-backprop-partial 0 &&
        { [ -z "$reps" ] || [ "$reps" -ge 160 ] || [ $((160 % reps)) -eq 0 ]; } &&
        echo "FAIL asan-backprop-partial-count: expected a partial last batch: $(head -1 "$out/asan-backprop-partial.stdout")"
fi
if build asan-grow examples/grow.nn; then
    # patience 20 and a rate too small to make progress: the hidden layer
    # divides every 20 epochs, up to its 8 units (node REPLICATE).
    run asan-grow asan-grow . 2 --data examples/data/xor.data --param epochs=200 --param patience=20 \
        --param rate=0.001
    verdict asan-grow 0 && ! grep -q '^hidden units: 8' "$out/asan-grow.stdout" &&
        echo "FAIL asan-grow-divides: the hidden layer did not grow to 8 units"
fi
if build asan-kohonen examples/kohonen.nn; then
    run asan-kohonen asan-kohonen . 2 --data examples/data/circle.train --param units=6 --param epochs=3
    verdict asan-kohonen 0
fi

# ---- the report's programs -----------------------------------------------------
report="$SHARED/report-examples"
if [ -f "$report/features.nn" ] && build asan-report-features "$report/features.nn"; then
    run asan-report-features asan-report-features "$out" 2
    verdict asan-report-features 0 "$ROOT/tests/report/report-features.out"
elif [ ! -f "$report/features.nn" ]; then
    echo "skip asan-report-features: needs ../shared/report-examples"
fi
if [ ! -f "$report/backprop.nn" ]; then
    echo "skip asan-report-backprop: needs ../shared/report-examples and ../shared/data"
elif build asan-report-backprop "$report/backprop.nn"; then
    xor="$SHARED/data/xor.data"
    for t in 1 2; do
        run "asan-report-xor-$t" asan-report-backprop . $t --data "$xor" --bias --max-epochs 200
        verdict "asan-report-xor-$t" 0
    done
    # Seed 34 prunes a hidden node's every input: the node deletes itself.
    run asan-report-xor-nodes asan-report-backprop . 2 --data "$xor" --bias --max-epochs 200 \
        --seed 34
    if verdict asan-report-xor-nodes 0; then
        awk -v stop=0.005 -v conns=17 -v capped=0 -v maxep=200 -f tests/tools/report-protocol.awk \
            "$out/asan-report-xor-nodes.stdout" >"$out/nodes.check" 2>&1
        grep -q 'deleted nodes [1-9]' "$out/nodes.check" ||
            echo "FAIL asan-report-xor-nodes: no node deletion (pick another seed): $(cat "$out/nodes.check")"
    fi
    run asan-report-diabetes asan-report-backprop . 2 --data "$SHARED/data/diabetes.train" \
        --bias --max-epochs 30
    verdict asan-report-diabetes 0
fi

# ---- self-tests: a leak and a heap overflow must be reported ------------------------
for src in tests/sanitize/selftest-*.nn; do
    [ -f "$src" ] || continue
    base=$(basename "$src" .nn)
    build "$base" "$src" "tests/sanitize/$base.c" || continue
    run "$base" "$base" . 1
    if grep -Eq "$REPORT_PATTERN" "$out/$base.stderr" && [ "$status" -ne 0 ]; then
        echo "ok $base (caught)"
    else
        echo "FAIL $base: the sanitizers did not catch it (exit status $status)"
    fi
done

# ---- valgrind memcheck of the report's trainer with pruning ---------------------------
# One thread: with more, memcheck counts libgomp's pool threads, still alive
# at exit, as "possibly lost".  --portable: valgrind does not know every
# instruction of a host-tuned build (AVX-512 is SIGILL under memcheck).
if ! command -v valgrind >/dev/null 2>&1; then
    echo "ok valgrind-report-xor (skipped: no valgrind)"
elif [ -f "$report/backprop.nn" ]; then
    if "$CUPITC" --portable -g -O1 "$report/backprop.nn" -o "$out/vg-report-backprop" >"$out/vg.cc.log" 2>&1; then
        OMP_NUM_THREADS=1 timeout 120 valgrind -q --error-exitcode=1 --leak-check=full \
            "$out/vg-report-backprop" --data "$SHARED/data/xor.data" --bias --max-epochs 200 \
            --seed 34 >"$out/vg.stdout" 2>"$out/vg.stderr"
        status=$?
        if [ "$status" -ne 0 ]; then
            echo "FAIL valgrind-report-xor: exit status $status"; sed 's/^/    /' "$out/vg.stderr" | head -30
        elif ! grep -q '^>>>>>>>>>>> weights remaining' "$out/vg.stdout"; then
            echo "FAIL valgrind-report-xor: no pruning happened"
        else
            echo "ok valgrind-report-xor"
        fi
    else
        echo "FAIL valgrind-report-xor: does not compile"; sed 's/^/    /' "$out/vg.cc.log" | head
    fi
fi
