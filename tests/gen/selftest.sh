#!/bin/sh
# selftest.sh -- the differential tester must see what it is for.  With
# fake-cupitc.sh (a cupitc with one deliberate bug per class, each in one
# variant only) check-one.sh must give every class with the right variant,
# diff-run.sh must report and keep the failures and count them, and
# reduce.sh must shrink a mismatch and an internal error to programs that
# still fail the same way.  The plain compiler must pass the same program.
# Prints "ok gen-selftest-NAME" or "FAIL gen-selftest-NAME reason" lines;
# takes about 30 s on two cores.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
: "${CUPITC:=$ROOT/build/bin/cupitc}"
case $CUPITC in /*) ;; */*) CUPITC=$(pwd)/$CUPITC ;; esac
REAL_CUPITC=$CUPITC
export REAL_CUPITC
FAKE=$HERE/fake-cupitc.sh
prog=$HERE/selftest.nn
work=$(mktemp -d "${TMPDIR:-/tmp}/gen-selftest.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

result() { # name ok? reason
    if [ "$2" = 0 ]; then echo "ok gen-selftest-$1"; else echo "FAIL gen-selftest-$1 $3"; fi
}
check() { # name bug want-line [check-one args...]
    name=$1 bug=$2 want=$3
    shift 3
    got=$(FAKE_BUG=$bug CUPITC=$FAKE sh "$HERE/check-one.sh" -t 2 -d "$work/$name" "$@")
    [ "$got" = "$want" ]
    result "$name" $? "expected '$want', got '$got'"
}

# ---- every class, from the one variant that has the bug
got=$(CUPITC=$REAL_CUPITC sh "$HERE/check-one.sh" -d "$work/plain" "$prog")
[ "$got" = ok ]
result plain $? "the real compiler fails the self-test program: $got"
check mismatch mismatch "mismatch no-lanes:1 no-lanes:2" "$prog"
check crash crash "crash native:1 native:2" "$prog"
check timeout timeout "timeout no-openmp:1" "$prog"
check internal internal "internal no-fuse" "$prog"
check cc-fail cc-fail "cc-fail no-openmp" "$prog"
FAKE_GEN_REJECT=1 sh "$HERE/fake-gen.sh" 1 >"$work/bad.nn"
check rejected none "rejected O0" "$work/bad.nn"

# ---- the runner: failures reported, kept and counted; exit status
FAKE_GEN_PROGRAMS="$prog $ROOT/tests/run/warnfree-minimal.nn" FAKE_GEN_REJECT=3 FAKE_GEN_FAIL=4 \
FAKE_BUG=mismatch CUPITC=$FAKE GEN=$HERE/fake-gen.sh \
    sh "$HERE/diff-run.sh" -n 4 -s 1 -j 2 -o "$work/out" >"$work/dr.log" 2>&1
st=$?
bad=""
[ "$st" = 1 ] || bad="$bad exit-status-$st"
grep -qx 'FAIL seed 1: mismatch (no-lanes, 1 thread; no-lanes, 2 threads)' "$work/dr.log" || bad="$bad no-mismatch-line"
grep -qx 'FAIL seed 3: rejected (O0)' "$work/dr.log" || bad="$bad no-rejected-line"
grep -q '^FAIL seed 4: gen-fail' "$work/dr.log" || bad="$bad no-gen-fail-line"
grep -q '^FAIL seed 2' "$work/dr.log" && bad="$bad seed-2-failed"
grep -q '^classes: ok 1, rejected 1, mismatch 1, gen-fail 1$' "$work/dr.log" || bad="$bad wrong-counts"
[ "$(tail -n 1 "$work/dr.log")" = "diff-run: 1 passed, 3 failed" ] || bad="$bad wrong-last-line"
cmp -s "$prog" "$work/out/mismatch/1.nn" || bad="$bad mismatch-not-kept"
grep -q '^+4$\|^+148$\|^-138$' "$work/out/mismatch/1.log" 2>/dev/null || bad="$bad no-diff-in-log"
[ -f "$work/out/rejected/3.log" ] || bad="$bad rejected-not-kept"
[ -z "$bad" ]
result diff-run $? "$bad: $(sed 's/^/| /' "$work/dr.log" | tr '\n' ' ')"

# ---- the reducer
cp "$prog" "$work/m.nn"
FAKE_BUG=mismatch CUPITC=$FAKE sh "$HERE/reduce.sh" -t 2 "$work/m.nn" mismatch >"$work/rm.log" 2>&1
st=$?
bad=""
[ "$st" = 0 ] && [ -f "$work/m.reduced.nn" ] || bad="exit status $st"
if [ -z "$bad" ]; then
    [ "$(wc -l <"$work/m.reduced.nn")" -lt "$(wc -l <"$prog")" ] || bad="not smaller"
    got=$(FAKE_BUG=mismatch CUPITC=$FAKE sh "$HERE/check-one.sh" -r "O0:1 no-lanes:1" "$work/m.reduced.nn")
    [ "$got" = "mismatch no-lanes:1" ] || bad="$bad reduced program gives '$got'"
    grep -q 'a + 5' "$work/m.reduced.nn" && bad="$bad unneeded line kept"
fi
[ -z "$bad" ]
result reduce-mismatch $? "$bad: $(tr '\n' ' ' <"$work/rm.log")"

cp "$prog" "$work/i.nn"
FAKE_BUG=internal CUPITC=$FAKE sh "$HERE/reduce.sh" "$work/i.nn" >"$work/ri.log" 2>&1
st=$?
bad=""
[ "$st" = 0 ] && [ -f "$work/i.reduced.nn" ] || bad="exit status $st"
if [ -z "$bad" ]; then
    [ "$(wc -l <"$work/i.reduced.nn")" -le 4 ] || bad="not reduced to 4 lines"
    got=$(FAKE_BUG=internal CUPITC=$FAKE sh "$HERE/check-one.sh" -d "$work/ic" "$work/i.reduced.nn")
    [ "$got" = "internal no-fuse" ] || bad="$bad reduced program gives '$got'"
    grep -q 'fake failure' "$work/ic/sig" || bad="$bad other error"
fi
[ -z "$bad" ]
result reduce-internal $? "$bad: $(tr '\n' ' ' <"$work/ri.log")"
exit 0
