#!/bin/sh
# suite-errors.sh -- golden tests of diagnostics.
#
# For every tests/errors/NAME.nn, `cupitc -fsyntax-only [FLAGS] NAME.nn`
# (FLAGS from NAME.flags if present, e.g. -Wall -Werror; run inside
# tests/errors, so messages start with "NAME.nn:line:col") must exit with
# status 1 and write exactly tests/errors/NAME.err to stderr.
# GOLDEN_UPDATE=1 rewrites the .err files instead (review the diff!).
set -u
ROOT=$(pwd)
: "${CUPITC:=build/bin/cupitc}"
case $CUPITC in
/*) ;;
*) CUPITC=$ROOT/$CUPITC ;;
esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export NO_COLOR=1

cd tests/errors || { echo "FAIL errors: no tests/errors directory"; exit 1; }
for f in *.nn; do
    [ -f "$f" ] || continue
    name=errors/${f%.nn}
    expected=${f%.nn}.err
    flags=""
    [ -f "${f%.nn}.flags" ] && flags=$(cat "${f%.nn}.flags")
    # shellcheck disable=SC2086
    "$CUPITC" -fsyntax-only $flags "$f" >"$tmp/out" 2>"$tmp/err"
    status=$?
    if [ "${GOLDEN_UPDATE:-0}" = 1 ]; then
        cp "$tmp/err" "$expected"
    fi
    if [ "$status" -ne 1 ]; then
        echo "FAIL $name: exit status $status, want 1"
        head -n 10 "$tmp/err"
    elif [ ! -f "$expected" ]; then
        echo "FAIL $name: expected diagnostics $expected missing"
    elif diff -u "$expected" "$tmp/err" >"$tmp/diff"; then
        echo "ok $name"
    else
        echo "FAIL $name: diagnostics differ from $expected"
        head -n 30 "$tmp/diff"
    fi
done
