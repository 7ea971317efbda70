#!/bin/sh
# run.sh -- builds bench_merge against the built runtime and times MERGE
# for a small network with many replicates, one the size of the thyroid
# trainer's (80 replicates, about 400 connections) and a larger one.
set -e
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
cc -std=c11 -O2 -fopenmp -I"$BUILD/include/cupit" -o "$BUILD/bench_merge" \
    "$ROOT/bench/lanes/bench_merge.c" "$BUILD/lib/cupit/libcupitrt.a" -lm
for t in 1 2; do
    OMP_NUM_THREADS=$t "$BUILD/bench_merge" 148 13 31 200
    OMP_NUM_THREADS=$t "$BUILD/bench_merge" 80 13 31 500
    OMP_NUM_THREADS=$t "$BUILD/bench_merge" 64 200 200 10
done
