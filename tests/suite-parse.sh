#!/bin/sh
# suite-parse.sh -- golden tests of the parser.
#
# Every tests/parse/NAME.nn is printed with `cupitc --dump-parse` and
# compared with tests/parse/NAME.ast; the report examples are read from
# $ROOT/../shared/report-examples and compared with report-NAME.ast.  A case
# fails on any difference, any diagnostic, or a non-zero exit status.
# GOLDEN_UPDATE=1 rewrites the .ast files instead (review the diff!).
set -u
ROOT=$(pwd)
: "${CUPITC:=build/bin/cupitc}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check() { # name source golden
    if [ ! -f "$2" ]; then
        echo "FAIL $1: source $2 not found"
        return
    fi
    "$CUPITC" --dump-parse "$2" >"$tmp/out" 2>"$tmp/err"
    status=$?
    if [ "$status" -ne 0 ] || [ -s "$tmp/err" ]; then
        echo "FAIL $1: exit status $status, diagnostics:"
        head -n 10 "$tmp/err"
        return
    fi
    if [ "${GOLDEN_UPDATE:-0}" = 1 ]; then
        cp "$tmp/out" "$3"
    fi
    if [ ! -f "$3" ]; then
        echo "FAIL $1: golden file $3 missing"
    elif diff -u "$3" "$tmp/out" >"$tmp/diff"; then
        echo "ok $1"
    else
        echo "FAIL $1: --dump-parse output differs from $3"
        head -n 30 "$tmp/diff"
    fi
}

for f in tests/parse/*.nn; do
    [ -f "$f" ] || continue
    check "parse/$(basename "$f" .nn)" "$f" "${f%.nn}.ast"
done
for ex in backprop features; do
    if [ ! -f "$ROOT/../shared/report-examples/$ex.nn" ]; then
        echo "skip parse/report-$ex: needs ../shared/report-examples"; continue
    fi
    check "parse/report-$ex" "$ROOT/../shared/report-examples/$ex.nn" "tests/parse/report-$ex.ast"
done
