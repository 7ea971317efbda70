#!/bin/sh
# fake-gen.sh -- a stand-in for cupitgen, for selftest.sh and for trying the
# runner without the generator.
#
#   fake-gen.sh SEED [ignored...]
#
# Prints the stand-in program number SEED (counting from 1, cyclically) of
# $FAKE_GEN_PROGRAMS (default: the programs of tests/run that need no data,
# arguments, C code or flags and exit 0).  SEED $FAKE_GEN_REJECT prints a
# program with a syntax error, SEED $FAKE_GEN_FAIL fails.
set -u
seed=$1
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
[ "$seed" = "${FAKE_GEN_FAIL:-}" ] && { echo "fake-gen: failing for seed $seed" >&2; exit 1; }
if [ "$seed" = "${FAKE_GEN_REJECT:-}" ]; then
    printf 'PROCEDURE program () IS\n  Int VAR a := ;\nEND PROCEDURE;\n'
    exit 0
fi
if [ -z "${FAKE_GEN_PROGRAMS:-}" ]; then
    FAKE_GEN_PROGRAMS=$(for f in "$ROOT"/tests/run/*.nn; do
        b=${f%.nn}
        [ -f "$b.status" ] || [ -f "$b.args" ] || [ -f "$b.c" ] || [ -f "$b.flags" ] || echo "$f"
    done)
fi
set -- $FAKE_GEN_PROGRAMS
[ $# -gt 0 ] || { echo "fake-gen: no programs" >&2; exit 1; }
i=$(( (seed - 1) % $# + 1 ))
[ "$i" -ge 1 ] || i=$((i + $#))
eval "cat \"\${$i}\""
