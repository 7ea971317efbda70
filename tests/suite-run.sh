#!/bin/sh
# suite-run.sh -- end-to-end tests: compile tests/run/*.nn with cupitc, run,
# compare with the expected output.
#
# For NAME.nn:  NAME.out     expected stdout (required)
#               NAME.status  expected exit status (default 0)
#               NAME.err     expected stderr (exact), e.g. a run-time error
#               NAME.args    arguments for the program
#               NAME.c       EXTERNAL C code compiled in
#               NAME.flags   extra cupitc options
#               NAME.threads the thread counts of the OpenMP build (default "1 2")
# Each program runs with 1 and 2 threads, as a serial (--no-openmp) build,
# with replicates one at a time (--no-lanes) and unoptimised (-O0: the C
# compiler's -O0 and every IR pass off, every connection element in
# memory); all runs must give the expected output.  The report's features.nn runs too.
set -u
: "${CUPITC:=build/bin/cupitc}" "${BUILD:=build}"
ROOT=$(pwd)
out="$BUILD/tests/run"
mkdir -p "$out"
export NO_COLOR=1

run_case() { # name src dir
    name=$1 src=$2 dir=$3
    extra=""
    [ -f "$dir/$name.c" ] && extra="$dir/$name.c"
    args=""
    [ -f "$dir/$name.args" ] && args=$(cat "$dir/$name.args")
    want_status=0
    [ -f "$dir/$name.status" ] && want_status=$(cat "$dir/$name.status")
    for variant in omp serial nolanes O0; do
        flags=""
        [ -f "$dir/$name.flags" ] && flags=$(cat "$dir/$name.flags")
        [ "$variant" = serial ] && flags="$flags --no-openmp"
        [ "$variant" = nolanes ] && flags="$flags --no-lanes"
        [ "$variant" = O0 ] && flags="$flags -O0"
        exe="$out/$name.$variant"
        # shellcheck disable=SC2086
        if ! "$CUPITC" $flags -Xcc -Wall -Xcc -Wextra -Xcc -Werror "$src" $extra -o "$exe" \
                >"$out/$name.cc.log" 2>&1; then
            echo "FAIL $name: does not compile ($variant)"; sed 's/^/    /' "$out/$name.cc.log" | head -20
            return
        fi
        threads="1 2"
        [ -f "$dir/$name.threads" ] && threads=$(cat "$dir/$name.threads")
        [ "$variant" != omp ] && threads="1"
        for t in $threads; do
            # shellcheck disable=SC2086
            (cd "$dir" && OMP_NUM_THREADS=$t timeout 60 "$ROOT/$exe" $args) \
                >"$out/$name.stdout" 2>"$out/$name.stderr"
            status=$?
            if [ "$status" -ne "$want_status" ]; then
                echo "FAIL $name: exit status $status, expected $want_status ($variant, $t threads)"
                sed 's/^/    /' "$out/$name.stderr" | head -10
                return
            fi
            if ! diff -u "$dir/$name.out" "$out/$name.stdout" >"$out/$name.diff"; then
                echo "FAIL $name: wrong output ($variant, $t threads)"; head -20 "$out/$name.diff"
                return
            fi
            if [ -f "$dir/$name.err" ] && ! diff -u "$dir/$name.err" "$out/$name.stderr" >"$out/$name.diff"; then
                echo "FAIL $name: wrong stderr ($variant, $t threads)"; head -20 "$out/$name.diff"
                return
            fi
        done
    done
    echo "ok $name"
}

for src in tests/run/*.nn; do
    [ -f "$src" ] || continue
    name=$(basename "$src" .nn)
    run_case "$name" "$src" tests/run
done

report="$ROOT/../shared/report-examples/features.nn"
if [ -f "$report" ]; then
    cp "$report" "$out/report-features.nn"
    cp tests/report/report-features.out "$out/report-features.out"
    run_case report-features "$out/report-features.nn" "$out"
else
    echo "skip report-features: needs ../shared/report-examples"
fi
