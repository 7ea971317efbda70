#!/bin/sh
# suite-examples.sh -- every examples/*.nn (and bench/trainers/*.nn)
# compiles warning-free (-Wall
# -Wextra -Werror on the generated C, OpenMP and serial builds) and runs on
# its bundled data with a fixed seed.  For each case tests/examples/CASE.args
# (CASE is the example's name, or NAME-VARIANT) the 1-thread output must equal
# CASE.out, the error of the last epoch must be below epoch 1's, the serial
# build must print the same, and so must 2 threads: byte for byte when the
# replicate count is the same, else with reals within a relative 1e-4 and the
# replicate count not compared.  GOLDEN_UPDATE=1 rewrites the CASE.out files,
# which must then be reviewed (tests/examples/README.md).
set -u
suite=examples
. tests/tools/suite-env.sh
WARN="-Xcc -Wall -Xcc -Wextra -Xcc -Werror"

# compile PROG VARIANT FLAGS SOURCE: builds $out/bin-PROG-VARIANT.
compile() {
    # shellcheck disable=SC2086
    if ! "$CUPITC" $WARN $3 "$4" -o "$out/bin-$1-$2" >"$out/bin-$1-$2.log" 2>&1; then
        echo "FAIL example-$1: does not compile warning-free ($2)"
        sed 's/^/    /' "$out/bin-$1-$2.log" | head -20
        return 1
    fi
}

# run CASE EXE THREADS: runs from the repository root; output in $out/CASE.THREADS.
run() {
    # shellcheck disable=SC2046
    OMP_NUM_THREADS=$3 timeout 60 "$2" $(cat "tests/examples/$1.args") \
        >"$out/$1.$4" 2>"$out/$1.$4.err"
    status=$?
    if [ "$status" -ne 0 ] || [ -s "$out/$1.$4.err" ]; then
        echo "FAIL $1: exit status $status ($4)"; sed 's/^/    /' "$out/$1.$4.err" | head -10
        return 1
    fi
}

check_case() { # CASE PROG
    name=$1 prog=$2
    run "$name" "$out/bin-$prog-omp" 1 t1 || return
    if [ "${GOLDEN_UPDATE:-}" = 1 ]; then
        cp "$out/$name.t1" "tests/examples/$name.out"
    fi
    if [ ! -f "tests/examples/$name.out" ]; then
        echo "FAIL $name: tests/examples/$name.out missing"; return
    fi
    if ! diff -u "tests/examples/$name.out" "$out/$name.t1" >"$out/$name.diff"; then
        echo "FAIL $name: wrong output (1 thread)"; head -20 "$out/$name.diff"; return
    fi
    if ! awk '/^epoch [0-9]+ error / { if (!n++) first = $4 + 0; last = $4 + 0 }
              END { exit !(n > 1 && last < first) }' "$out/$name.t1"; then
        echo "FAIL $name: the error at the last epoch is not below epoch 1's"; return
    fi
    run "$name" "$out/bin-$prog-serial" 1 serial || return
    if ! cmp -s "$out/$name.t1" "$out/$name.serial"; then
        echo "FAIL $name: the serial build prints something else"
        diff -u "$out/$name.t1" "$out/$name.serial" | head -10; return
    fi
    run "$name" "$out/bin-$prog-omp" 2 t2 || return
    if cmp -s "$out/$name.t1" "$out/$name.t2"; then
        how="identical"
    elif [ "$(grep replicates "$out/$name.t1")" = "$(grep replicates "$out/$name.t2")" ]; then
        echo "FAIL $name: 2 threads print something else with the same replicate count"
        diff -u "$out/$name.t1" "$out/$name.t2" | head -10; return
    elif awk -v rel=1e-4 -v skip=replicates -f tests/tools/numdiff.awk \
            "$out/$name.t1" "$out/$name.t2" >"$out/$name.numdiff"; then
        how="within 1e-4, other replicate count"
    else
        echo "FAIL $name: 2 threads: $(cat "$out/$name.numdiff")"; return
    fi
    echo "ok $name (2 threads: $how)"
}

# --deterministic: byte-identical output at 1, 2 and 16 threads (replicate
# counts and RANDOM independent of the thread count)
check_deterministic() { # CASE PROG
    name=$1 prog=$2
    for t in 1 2 16; do
        # shellcheck disable=SC2046
        OMP_NUM_THREADS=$t timeout 120 "$out/bin-$prog-omp" $(cat "tests/examples/$name.args") \
            --deterministic >"$out/$name.det$t" 2>"$out/$name.det$t.err" || {
            echo "FAIL $name-deterministic: exit status $? ($t threads)"; return; }
    done
    if cmp -s "$out/$name.det1" "$out/$name.det2" && cmp -s "$out/$name.det1" "$out/$name.det16"; then
        echo "ok $name-deterministic (1, 2 and 16 threads identical)"
    else
        echo "FAIL $name-deterministic: the output depends on the thread count"
        diff -u "$out/$name.det1" "$out/$name.det16" | head -10
    fi
}

# the examples, and the benchmark's trainers (bench/README.md): they must
# keep compiling and learning too
for src in examples/*.nn bench/trainers/*.nn; do
    prog=$(basename "$src" .nn)
    cases=""
    for a in "tests/examples/$prog.args" tests/examples/"$prog"-*.args; do
        [ -f "$a" ] && cases="$cases $(basename "$a" .args)"
    done
    if [ -z "$cases" ]; then
        echo "FAIL example-$prog: no tests/examples/$prog.args"; continue
    fi
    compile "$prog" omp "" "$src" || continue
    compile "$prog" serial --no-openmp "$src" || continue
    for c in $cases; do
        check_case "$c" "$prog"
        check_deterministic "$c" "$prog"
    done
done

# parameters out of the example's range and --data for a data set the
# program never opens are reported (the binaries built above)
param_check() { # NAME EXPECTED-STATUS STDERR-PATTERN ARGS...
    name=$1 want=$2 pat=$3
    shift 3
    # shellcheck disable=SC2046
    OMP_NUM_THREADS=1 timeout 60 "$out/bin-backprop-omp" $(cat tests/examples/backprop.args) \
        "$@" >"$out/$name.out" 2>"$out/$name.err"
    status=$?
    if [ "$status" -ne "$want" ] || ! grep -q -e "$pat" "$out/$name.err"; then
        echo "FAIL $name: exit status $status (want $want), stderr:"
        sed 's/^/    /' "$out/$name.err" | head -5
    else
        echo "ok $name"
    fi
}
if [ -x "$out/bin-backprop-omp" ]; then
    param_check param-hidden-0 3 'param hidden=0: must be between 1 and 100000' --param hidden=0
    param_check param-prune-2 3 'param prune=2: must be between 0 and 0.99' --param prune=2
    param_check param-epochs-negative 3 'param epochs=-1: must be between 1 and' --param epochs=-1
    param_check param-unused-data 0 'warning: --data Tset=x.data was not used' --data Tset=x.data --param epochs=1
fi

# the workflow options of generated programs: --help lists the program's
# parameters, --report thins the epoch lines, --summary ends with a line
workflow() { # NAME COMMAND-CHECK
    if sh -c "$2" >"$out/$1.log" 2>&1; then echo "ok $1"; else echo "FAIL $1"; sed 's/^/    /' "$out/$1.log" | head -5; fi
}
if [ -x "$out/bin-backprop-omp" ]; then
    bp="$out/bin-backprop-omp $(cat tests/examples/backprop.args) --no-protocol"
    workflow help-lists-params "'$out/bin-backprop-omp' --help | grep -q '^  hidden  *Int, default 6, range 1 \.\.\. 100000'"
    workflow report-interval "OMP_NUM_THREADS=1 $bp --report 50 | grep '^epoch' | cut -d' ' -f2 | tr '\\n' ' ' | grep -qx '1 50 100 150 '"
    workflow summary "OMP_NUM_THREADS=1 $bp --summary 2>&1 >/dev/null | grep -q ': 150 epochs, final error [0-9.e-]* (errors [0-9]*), [0-9.]* s$'"
fi
# every option of a generated program's --help has its row in the options
# table of docs/running.md
if [ -x "$out/bin-backprop-omp" ]; then
    missing=""
    for o in $("$out/bin-backprop-omp" --help | grep -o -- '^  --[a-z-]*'); do
        grep -q -- "^| \`$o[ =\`[]" docs/running.md || missing="$missing $o"
    done
    if [ -z "$missing" ]; then echo "ok running-md-options"
    else echo "FAIL running-md-options: docs/running.md has no row for$missing"; fi
fi
