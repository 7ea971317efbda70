#!/bin/sh
# run-libfuzzer.sh -- coverage-guided fuzzing of the whole compiler (make
# fuzz).
#
#   FUZZ_SECONDS=N   total time (default 60)
#   FUZZ_JOBS=N      parallel fuzzing processes (default 1)
#   FUZZ_CC_SHARE=P  percent of the time for the harness that also compiles
#                    the generated C (default 20; 0: none)
#
# Runs build/fuzz/fuzz_compile (front end, semantic analysis, lowering, C
# generation; ASan and UBSan) and build/fuzz/fuzz_compile_cc (the same, and
# one accepted program in FUZZ_CC_EVERY goes through the C compiler) on a
# working corpus in build/fuzz/corpus that starts from the checked-in
# tests/fuzz/corpus, with the CuPit dictionary tests/fuzz/cupit.dict.
# Findings land in build/fuzz/findings/ and make the run fail; each one
# becomes a test in tests/fuzz/regress/ once fixed.  Prints the figures
# (executions, coverage, corpus size) at the end.
set -u
: "${FUZZ_SECONDS:=60}" "${FUZZ_JOBS:=1}" "${FUZZ_CC_SHARE:=20}"
F=build/fuzz
mkdir -p "$F/corpus" "$F/findings" "$F/logs"
for b in fuzz_compile fuzz_compile_cc; do
    [ -x "$F/$b" ] || { echo "run-libfuzzer: $F/$b not built (make fuzz builds it)" >&2; exit 2; }
done
cc_secs=$((FUZZ_SECONDS * FUZZ_CC_SHARE / 100))
main_secs=$((FUZZ_SECONDS - cc_secs))
export FUZZ_RT_INCLUDE="$(pwd)/build/include/cupit"
status=0

run() { # binary seconds
    [ "$2" -gt 0 ] || return 0
    log=$F/logs/$1.log
    # -fork keeps going after a finding, so one run reports all of them
    "$F/$1" -fork="$FUZZ_JOBS" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
        -max_total_time="$2" -timeout=20 -rss_limit_mb=2048 -max_len=65536 \
        -dict=tests/fuzz/cupit.dict -artifact_prefix="$F/findings/" \
        "$F/corpus" tests/fuzz/corpus >"$log" 2>&1
    # the figures of the last status line: executions, coverage, corpus
    last=$(grep -E '#[0-9]+.*(cov|ft):' "$log" | tail -n 1)
    echo "fuzz $1: $2 s x $FUZZ_JOBS jobs: ${last:-no status line (see $log)}"
}
run fuzz_compile "$main_secs"
run fuzz_compile_cc "$cc_secs"
n=$(find "$F/findings" -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' \) | wc -l)
echo "fuzz: corpus $(ls "$F/corpus" | wc -l) inputs; findings: $n (in $F/findings)"
if [ "$n" -gt 0 ]; then
    ls "$F/findings"
    status=1
fi
exit $status
