# suite-env.sh -- sourced by the suites that compile and run programs, after
# they set $suite: the defaults of $CUPITC and $BUILD, $ROOT (the repository
# root), $SHARED (../shared beside it), a fresh output folder $out, and the
# environment of every run.
: "${CUPITC:=build/bin/cupitc}" "${BUILD:=build}"
ROOT=$(pwd)
SHARED="$ROOT/../shared"
out="$BUILD/tests/$suite"
rm -rf "$out"
mkdir -p "$out"
export NO_COLOR=1
# Idle OpenMP threads sleep instead of spinning: on a loaded 2-core machine
# spinning makes 2-thread runs many times slower.  Results are unaffected.
export OMP_WAIT_POLICY=passive
