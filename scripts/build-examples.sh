#!/bin/sh
# build-examples.sh -- compiles every examples/*.nn with the given cupitc.
#   scripts/build-examples.sh CUPITC OUTDIR
set -eu
cupitc=$1
outdir=$2
mkdir -p "$outdir"
for src in examples/*.nn; do
    name=$(basename "$src" .nn)
    echo "cupitc $src -o $outdir/$name"
    "$cupitc" "$src" -o "$outdir/$name"
done
