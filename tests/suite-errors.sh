#!/bin/sh
# suite-errors.sh -- golden diagnostics: every tests/errors/NAME.nn must make
# `cupitc -fsyntax-only` exit with status 1 and print exactly NAME.err on
# stderr (NO_COLOR=1, run from the repository root with the relative path).
set -u
: "${BUILD:=build}" "${CUPITC:=$BUILD/bin/cupitc}"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for src in tests/errors/*.nn; do
    [ -f "$src" ] || continue
    name=$(basename "$src" .nn)
    exp="tests/errors/$name.err"
    if [ ! -f "$exp" ]; then
        echo "FAIL $name: missing $exp"
        continue
    fi
    NO_COLOR=1 "$CUPITC" -fsyntax-only "$src" >/dev/null 2>"$out"
    status=$?
    if [ "$status" -ne 1 ]; then
        echo "FAIL $name: exit status $status, expected 1"
    elif ! diff -u "$exp" "$out" >/dev/null; then
        echo "FAIL $name: diagnostics differ"
        diff -u "$exp" "$out" | head -n 20
    else
        echo "ok $name"
    fi
done
