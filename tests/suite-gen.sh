#!/bin/sh
# suite-gen.sh -- the differential tester (tests/gen/README.md) in make check.
#
# First its self-test (tests/gen/selftest.sh: a compiler with deliberate bugs
# must be caught, so that the suite cannot pass without looking), then
# diff-run.sh on a fixed set of generated programs: each must give the same
# exit status, stdout and stderr in every compiler variant and thread count.
# Prints "ok gen-SEED" or "FAIL gen-SEED CLASS (...)" per program; failing
# programs and their logs are kept in $BUILD/tests/gen/CLASS/SEED.{nn,log}.
# GEN_SEEDS=N GEN_FIRST=S choose other seeds (default 10 from 1: about
# 3 minutes on two idle cores, about 23 s of CPU per program);
# `make fuzz-diff` runs any number.  Without the generator
# ($BUILD/tests/cupitgen) only the self-test runs.
set -u
# shellcheck disable=SC2034,SC2154  # suite-env.sh reads $suite, sets $out
suite=gen
. tests/tools/suite-env.sh
export CUPITC BUILD
sh tests/gen/selftest.sh
GEN=$BUILD/tests/cupitgen
if [ ! -x "$GEN" ]; then
    echo "skip gen: no generator ($GEN)"
    exit 0
fi
first=${GEN_FIRST:-1} n=${GEN_SEEDS:-10}
GEN=$GEN sh tests/gen/diff-run.sh -v -n "$n" -s "$first" -j 2 -o "$out" |
    sed -e 's/^ok seed \([0-9]*\)$/ok gen-\1/' \
        -e 's/^FAIL seed \([0-9]*\): /FAIL gen-\1 /'
exit 0
