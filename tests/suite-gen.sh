#!/bin/sh
# suite-gen.sh -- the differential tester on a fixed set of generated
# programs (tests/gen/README.md): each must give the same exit status,
# output and messages in every compiler variant and thread count.  The
# check's self-test runs first, so the suite cannot pass without looking.
# GEN_SEEDS=N GEN_FIRST=S choose other seeds; `make fuzz-diff` runs many.
set -u
suite=gen
. tests/tools/suite-env.sh
GEN=$BUILD/tests/cupitgen
if [ ! -x "$GEN" ]; then
    echo "FAIL gen: $GEN not built"
    exit 0
fi
export CUPITC BUILD
sh tests/gen/selftest.sh
seq "${GEN_FIRST:-1}" $((${GEN_FIRST:-1} + ${GEN_SEEDS:-24} - 1)) |
    xargs -P 2 -I{} sh tests/gen/diff-run.sh --one {} "$out/failed" small |
    sed 's/^ok /ok gen-/; s/^FAIL /FAIL gen-/'
