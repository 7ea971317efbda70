#!/bin/sh
# run-fuzz.sh -- robustness run of the front end (make check-asan).
#
# Feeds FUZZ_COUNT (default 3600) mutated copies of the report examples and
# of tests/parse and tests/errors to $CUPITC (a sanitizer build) and fails
# on any crash, sanitizer report, leak, hang or exit status other than 0/1.
# The seed is fixed (FUZZ_SEED), so a failure reproduces; failing inputs are
# kept in $FUZZ_KEEP (default build/asan/fuzz-failures).
set -u
ROOT=$(pwd)
: "${CUPITC:=build/asan/bin/cupitc}"
: "${FUZZ_SEED:=20261201}" "${FUZZ_COUNT:=3600}" "${FUZZ_KEEP:=build/asan/fuzz-failures}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ ! -x "$CUPITC" ]; then
    echo "run-fuzz: $CUPITC not built" >&2
    exit 1
fi
cc -O2 -std=c11 -Wall -Wextra -Werror -o "$work/mutate" tests/fuzz/mutate.c || exit 1

examples=$ROOT/../shared/report-examples
# the report's programs are seeds too where ../shared is beside the clone
seeds=""
for f in "$examples/backprop.nn" "$examples/features.nn"; do
    if [ -f "$f" ]; then seeds="$seeds $f"; else echo "run-fuzz: $f not present, not used as a seed"; fi
done
seeds="$seeds $(ls tests/parse/*.nn tests/errors/*.nn)"
mkdir "$work/cases"
# shellcheck disable=SC2086
"$work/mutate" "$FUZZ_SEED" "$FUZZ_COUNT" "$work/cases" $seeds || exit 1
# shellcheck disable=SC2086
cp $seeds "$work/cases/" # the unmutated inputs must pass as well

ASAN_OPTIONS=detect_leaks=1:exitcode=97 UBSAN_OPTIONS=print_stacktrace=1:exitcode=98
export ASAN_OPTIONS UBSAN_OPTIONS
start=$(date +%s)
find "$work/cases" -name '*.nn' | sort |
    xargs -n 40 -P 2 sh tests/fuzz/run-case.sh "$CUPITC" >"$work/failures"
total=$(find "$work/cases" -name '*.nn' | wc -l)
failed=$(grep -c '^FAIL' "$work/failures")
echo "run-fuzz: $total inputs (seed $FUZZ_SEED) in $(( $(date +%s) - start ))s, $failed failed"
if [ "$failed" -ne 0 ]; then
    mkdir -p "$FUZZ_KEEP"
    head -n 20 "$work/failures"
    sed -n 's/^FAIL \([^ ]*\) .*/\1/p' "$work/failures" | while read -r f; do
        cp "$f" "$f.err" "$FUZZ_KEEP/" 2>/dev/null
        head -n 30 "$f.err"
    done | head -n 60
    echo "run-fuzz: failing inputs kept in $FUZZ_KEEP"
    exit 1
fi
