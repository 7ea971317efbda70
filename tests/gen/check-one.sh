#!/bin/sh
# check-one.sh -- the differential check of one CuPit program.
#
#   check-one.sh FILE.nn WORKDIR [VARIANT...]
#
# Compiles FILE.nn with every variant (or the ones named), runs each build
# with 1 and 2 threads (a serial build once) and compares exit status,
# stdout and stderr with the reference build (-O0: the C compiler's -O0 and
# the lane plan off).  Prints one line, the class and what shows it:
#   ok        every run agrees
#   rejected  cupitc reports errors on the program (generator or front end)
#   internal  cupitc died by a signal or reported an internal error
#   cc-fail   the C compiler failed on generated code
#   crash     a generated program died by a signal
#   timeout   a generated program ran past its limit
#   mismatch  some run differs from the reference
# and exits 0 for ok, 1 otherwise.  Variants: default O0 nolanes nofuse
# serial native.  Builds whose generated C and C flags equal the default's
# are not compiled again.
set -u
src=$1 work=$2
shift 2
variants=${*:-"default nolanes nofuse serial native"}
: "${CUPITC:=build/bin/cupitc}" "${RUN_TIMEOUT:=20}"
export NO_COLOR=1 OMP_WAIT_POLICY=passive
mkdir -p "$work"

flags_of() {
    case $1 in
    default) echo "" ;;
    O0) echo "-O0" ;;
    nolanes) echo "--no-lanes" ;;
    nofuse) echo "-fno-fuse" ;;
    serial) echo "--no-openmp" ;;
    native) echo "-O3 -Xcc -march=native" ;;
    esac
}

say() { echo "$1"; [ "$1" = ok ]; exit $?; }

# build VARIANT: $work/VARIANT.bin, or a class line and exit
build() {
    v=$1
    # shellcheck disable=SC2046
    "$CUPITC" $(flags_of "$v") "$src" -o "$work/$v.bin" >"$work/$v.cc" 2>&1
    st=$?
    [ "$st" -eq 0 ] && return 0
    first=$(grep -m1 -E 'error|internal' "$work/$v.cc")
    if [ "$st" -gt 128 ]; then say "internal $v: cupitc died by signal $((st - 128))"; fi
    if grep -q 'C compiler failed\|^cc\|generated code' "$work/$v.cc"; then
        say "cc-fail $v: $(grep -m1 'error:' "$work/$v.cc")"
    fi
    if grep -q 'internal error' "$work/$v.cc"; then say "internal $v: $first"; fi
    say "rejected $v: $first"
}

# run VARIANT THREADS: $work/VARIANT.THREADS.{out,err,st}
run() {
    (cd "$work" && OMP_NUM_THREADS=$2 timeout "$RUN_TIMEOUT" "./$1.bin") \
        >"$work/$1.$2.out" 2>"$work/$1.$2.err"
    echo $? >"$work/$1.$2.st"
}

if ! "$CUPITC" -fsyntax-only "$src" >"$work/syntax.log" 2>&1; then
    st=$?
    [ "$st" -gt 128 ] && say "internal syntax: cupitc died by signal $((st - 128))"
    say "rejected: $(grep -m1 error "$work/syntax.log")"
fi
build O0
run O0 1
st=$(cat "$work/O0.1.st")
[ "$st" -eq 124 ] && say "timeout O0"
[ "$st" -gt 128 ] && say "crash O0: signal $((st - 128))"

"$CUPITC" -S "$src" -o "$work/default.c" >/dev/null 2>&1
for v in $variants; do
    reuse=""
    if [ "$v" = nolanes ] || [ "$v" = nofuse ]; then
        # shellcheck disable=SC2046
        "$CUPITC" -S $(flags_of "$v") "$src" -o "$work/$v.c" >/dev/null 2>&1
        cmp -s "$work/$v.c" "$work/default.c" && [ -f "$work/default.bin" ] && reuse=default
    fi
    if [ -n "$reuse" ]; then cp "$work/$reuse.bin" "$work/$v.bin"; else build "$v"; fi
    threads="1 2"
    [ "$v" = serial ] && threads=1
    for t in $threads; do
        run "$v" "$t"
        st=$(cat "$work/$v.$t.st")
        [ "$st" -eq 124 ] && say "timeout $v ($t threads)"
        [ "$st" -gt 128 ] && say "crash $v ($t threads): signal $((st - 128))"
        for part in st out err; do
            if ! cmp -s "$work/O0.1.$part" "$work/$v.$t.$part"; then
                diff "$work/O0.1.$part" "$work/$v.$t.$part" >"$work/mismatch.diff"
                say "mismatch $v ($t threads): $part differs from -O0"
            fi
        done
    done
done
say ok
