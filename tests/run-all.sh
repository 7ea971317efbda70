#!/bin/sh
# run-all.sh -- runs every test of `make check` and prints one summary line.
#
# Unit tests are Check binaries ($UNIT_BIN).  Every other suite is a script
# tests/suite-*.sh that prints one line per case: "ok NAME" or "FAIL NAME ...".
# The run fails if any unit test or case fails.
set -u
: "${BUILD:=build}" "${CUPITC:=$BUILD/bin/cupitc}"
export BUILD CUPITC
# Programs under test write no protocol files into the tree.
CUPIT_PROTOCOL=
export CUPIT_PROTOCOL
# Idle OpenMP threads sleep rather than spin.  On a loaded 2-core machine
# spinning threads slow parallel tests down many times (past Check's
# timeouts); results do not depend on it.
: "${OMP_WAIT_POLICY:=passive}"
export OMP_WAIT_POLICY
passed=0
failed=0
skipped=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

for t in ${UNIT_BIN:-}; do
    if CK_VERBOSITY=normal "$t" >"$log" 2>&1; then status=0; else status=1; fi
    line=$(grep -E '^[0-9]+%: Checks: ' "$log" | tail -n 1)
    n=$(printf '%s' "$line" | sed -n 's/.*Checks: \([0-9]*\).*/\1/p')
    f=$(printf '%s' "$line" | sed -n 's/.*Failures: \([0-9]*\).*/\1/p')
    e=$(printf '%s' "$line" | sed -n 's/.*Errors: \([0-9]*\).*/\1/p')
    if [ -z "$n" ]; then
        echo "FAIL $t: no Check summary (crashed?)"; cat "$log"; failed=$((failed + 1)); continue
    fi
    bad=$((f + e))
    k=$(grep -c '^skip ' "$log")
    grep '^skip ' "$log"
    skipped=$((skipped + k))
    passed=$((passed + n - bad - k))
    failed=$((failed + bad))
    if [ "$status" -ne 0 ] || [ "$bad" -ne 0 ]; then
        cat "$log"
        [ "$bad" -eq 0 ] && failed=$((failed + 1))
    fi
    echo "unit $(basename "$t"): $line"
done

# The suites run in CHECK_JOBS lanes side by side (default: 2 when the
# machine has 2 or more processors), each suite's output kept in its own
# log and reported in name order afterwards.
: "${CHECK_JOBS:=$( [ "$(nproc 2>/dev/null || echo 1)" -ge 2 ] && echo 2 || echo 1 )}"
logs=$(mktemp -d)
trap 'rm -f "$log"; rm -rf "$logs"' EXIT
suites=$(ls tests/suite-*.sh 2>/dev/null)
lane=0
while [ "$lane" -lt "$CHECK_JOBS" ]; do
    (
        i=0
        for s in $suites; do
            if [ $((i % CHECK_JOBS)) -eq "$lane" ]; then
                n=$(basename "$s" .sh)
                sh "$s" >"$logs/$n.log" 2>&1
                echo $? >"$logs/$n.status"
            fi
            i=$((i + 1))
        done
    ) &
    lane=$((lane + 1))
done
wait

for s in $suites; do
    n=$(basename "$s" .sh)
    slog=$logs/$n.log
    status=$(cat "$logs/$n.status" 2>/dev/null || echo 1)
    p=$(grep -c '^ok ' "$slog")
    f=$(grep -c '^FAIL ' "$slog")
    k=$(grep -c '^skip ' "$slog")
    passed=$((passed + p))
    failed=$((failed + f))
    skipped=$((skipped + k))
    grep -v '^ok \|^skip ' "$slog" | head -n 200
    if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "FAIL $s: exited with status $status"
        failed=$((failed + 1))
    fi
    echo "suite $n: $p passed, $f failed$([ "$k" -gt 0 ] && echo ", $k skipped")"
done

if [ "$skipped" -gt 0 ]; then
    echo "$skipped cases skipped: they need ../shared (the report's programs and data sets) beside the clone"
fi
echo "check: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
