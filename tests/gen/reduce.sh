#!/bin/sh
# reduce.sh -- shrinks a program that fails the differential check while it
# keeps failing with the same class (and the same variant).
#
#   reduce.sh FILE.nn
#
# Deletes chunks of lines (halves, quarters, ... single lines; repeated until
# nothing more can go), keeping a candidate only if cupitc still accepts it
# and check-one.sh still reports the same class and variant.  Writes
# FILE.reduced.nn.
set -u
src=$1
: "${CUPITC:=build/bin/cupitc}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$src" "$work/cur.nn"
key() { # the class and the variant it names, e.g. "mismatch default"
    sh tests/gen/check-one.sh "$1" "$work/w" $variant | awk '{ print $1, $2 }'
    rm -rf "$work/w"
}
variant=""
want=$(key "$work/cur.nn")
case $want in ok*) echo "reduce: $src passes the check" >&2; exit 1 ;; esac
variant=$(echo "$want" | awk '{ print $2 }' | tr -d ':')
case $variant in default|nolanes|nofuse|serial|native|O0) ;; *) variant="" ;; esac
echo "reduce: keeping '$want'"
lines=$(wc -l <"$work/cur.nn")
chunk=$((lines / 2))
while [ "$chunk" -ge 1 ]; do
    changed=0
    i=1
    while [ "$i" -le "$(wc -l <"$work/cur.nn")" ]; do
        sed "${i},$((i + chunk - 1))d" "$work/cur.nn" >"$work/try.nn"
        if "$CUPITC" -fsyntax-only "$work/try.nn" >/dev/null 2>&1 &&
           [ "$(key "$work/try.nn")" = "$want" ]; then
            cp "$work/try.nn" "$work/cur.nn"
            changed=1
        else
            i=$((i + chunk))
        fi
    done
    [ "$changed" -eq 1 ] && [ "$chunk" -eq 1 ] && continue
    chunk=$((chunk / 2))
done
out=${src%.nn}.reduced.nn
cp "$work/cur.nn" "$out"
echo "reduce: $out: $(wc -l <"$out") of $lines lines"
