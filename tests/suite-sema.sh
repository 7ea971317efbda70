#!/bin/sh
# suite-sema.sh -- legal programs: every tests/sema/NAME.nn and both report
# examples must pass `cupitc -fsyntax-only` with no diagnostic; where
# tests/sema/NAME.ast (report-NAME.ast for the examples) exists,
# `cupitc --dump-ast` must print exactly it.  Every tests/sema program also
# compiles to an object file (a valid program is never refused; its
# EXTERNAL subroutines are left to the linker).
set -u
: "${BUILD:=build}" "${CUPITC:=$BUILD/bin/cupitc}"
ROOT=$(pwd)
err=$(mktemp)
dump=$(mktemp)
trap 'rm -f "$err" "$dump"' EXIT

check_clean() { # name file
    NO_COLOR=1 "$CUPITC" -fsyntax-only "$2" >/dev/null 2>"$err"
    status=$?
    if [ "$status" -ne 0 ] || [ -s "$err" ]; then
        echo "FAIL $1: exit status $status, diagnostics:"
        head -n 20 "$err"
        return 1
    fi
    echo "ok $1"
}

check_dump() { # name source golden
    [ -f "$3" ] || return 0
    if NO_COLOR=1 "$CUPITC" --dump-ast "$2" >"$dump" 2>"$err" &&
       diff -u "$3" "$dump" >/dev/null; then
        echo "ok $1.ast"
    else
        echo "FAIL $1.ast: annotated dump differs"
        diff -u "$3" "$dump" | head -n 20
    fi
}

check_compiles() { # name file
    obj=$(mktemp)
    if NO_COLOR=1 "$CUPITC" -c -Xcc -Wall -Xcc -Werror "$2" -o "$obj" >/dev/null 2>"$err"; then
        echo "ok $1.compiles"
    else
        echo "FAIL $1.compiles: cupitc -c failed:"
        head -n 20 "$err"
    fi
    rm -f "$obj"
}

for src in tests/sema/*.nn; do
    [ -f "$src" ] || continue
    name=$(basename "$src" .nn)
    check_clean "sema/$name" "$src"
    check_compiles "sema/$name" "$src"
    check_dump "sema/$name" "$src" "tests/sema/$name.ast"
done

for ex in backprop features; do
    src="$ROOT/../shared/report-examples/$ex.nn"
    [ -f "$src" ] || { echo "skip report-example/$ex: needs ../shared/report-examples"; continue; }
    check_clean "report-example/$ex" "$src"
    check_dump "report-example/$ex" "$src" "tests/sema/report-$ex.ast"
done
