#!/bin/sh
# suite-sema.sh -- legal programs: every tests/sema/NAME.nn and both report
# examples must pass `cupitc -fsyntax-only` with no diagnostic; where
# tests/sema/NAME.ast exists, `cupitc --dump-ast` must print exactly it.
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

for src in tests/sema/*.nn; do
    [ -f "$src" ] || continue
    name=$(basename "$src" .nn)
    check_clean "sema/$name" "$src"
    golden="tests/sema/$name.ast"
    [ -f "$golden" ] || continue
    if NO_COLOR=1 "$CUPITC" --dump-ast "$src" >"$dump" 2>"$err" &&
       diff -u "$golden" "$dump" >/dev/null; then
        echo "ok sema/$name.ast"
    else
        echo "FAIL sema/$name.ast: annotated dump differs"
        diff -u "$golden" "$dump" | head -n 20
    fi
done

for ex in backprop features; do
    check_clean "report-example/$ex" "$ROOT/../shared/report-examples/$ex.nn"
done
