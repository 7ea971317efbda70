#!/bin/sh
# suite-save.sh -- saveNetworks and loadNetworks (docs/stdlib.md): a
# network comes back with its values and its (pruned) topology, in the same
# run and in another process, also into another build of the program
# (--no-lanes, --portable, -O0: the format is portable); a file of another
# program, a truncated, corrupted or foreign file and saving a replicated
# network are run-time errors that say so; the example trainer saves and a
# second run tests the loaded network without training.
set -u
suite=save
. tests/tools/suite-env.sh
src=tests/save/roundtrip.nn

build() { # name flags... -> $out/name
    n=$1
    shift
    if ! "$CUPITC" -Wall -Werror "$@" "$src" -o "$out/$n" >"$out/$n.log" 2>&1; then
        echo "FAIL save-build-$n: does not compile"; sed 's/^/    /' "$out/$n.log" | head; return 1
    fi
}
build rt || exit 0
build rt-nolanes --no-lanes
build rt-portable --portable -O0
"$CUPITC" tests/save/other.nn -o "$out/other" >"$out/other.log" 2>&1 ||
    echo "FAIL save-build-other: does not compile"

run() { # exe args... -> stdout in $out/last, stderr in $out/last.err, status $st
    exe=$1
    shift
    (cd "$out" && OMP_NUM_THREADS=1 timeout 60 "./$exe" --no-protocol "$@") >"$out/last" 2>"$out/last.err"
    st=$?
}

# in one run: show, save, spoil values and topology, load: as before
run rt --data net=saved.net
if [ "$st" -eq 0 ] && [ "$(sed -n 1p "$out/last")" = "$(sed -n 3p "$out/last")" ] &&
   [ "$(sed -n 1p "$out/last")" != "$(sed -n 2p "$out/last")" ]; then
    echo "ok save-roundtrip"
else
    echo "FAIL save-roundtrip: status $st"; sed 's/^/    /' "$out/last" "$out/last.err" | head
fi
want=$(sed -n 1p "$out/last")
# another process, and other builds of the same program, load it
for exe in rt rt-nolanes rt-portable; do
    run "$exe" --param mode=1 --data net=saved.net
    if [ "$st" -eq 0 ] && [ "$(cat "$out/last")" = "$want" ]; then
        echo "ok save-load-$exe"
    else
        echo "FAIL save-load-$exe: status $st, printed '$(cat "$out/last")', want '$want'"
        sed 's/^/    /' "$out/last.err" | head -3
    fi
done

fails_with() { # name pattern exe args...
    name=$1 pat=$2
    shift 2
    run "$@"
    if [ "$st" -eq 3 ] && grep -q -- "$pat" "$out/last.err"; then
        echo "ok save-$name"
    else
        echo "FAIL save-$name: status $st (want 3), stderr:"; sed 's/^/    /' "$out/last.err" | head -3
    fi
}
fails_with other-program "was saved by another program" other --data net=saved.net
size=$(wc -c <"$out/saved.net")
head -c $((size - 9)) "$out/saved.net" >"$out/short.net"
fails_with truncated "is corrupted or truncated" rt --param mode=1 --data net=short.net
cp "$out/saved.net" "$out/bad.net"
printf 'X' | dd of="$out/bad.net" bs=1 seek=40 conv=notrunc 2>/dev/null
fails_with corrupted "checksum mismatch" rt --param mode=1 --data net=bad.net
printf 'epoch 1 error 2\n' >"$out/text.net"
fails_with foreign "is not a file of saved networks" rt --param mode=1 --data net=text.net
# a file that never ends is refused after its first bytes (the memory
# limit only keeps a regression from filling the machine)
fails_with endless "'/dev/zero' is not a file of saved networks" rt --param mode=1 \
    --data net=/dev/zero --memory-limit 256M
fails_with missing "cannot read 'nothing.net'" rt --param mode=1 --data net=nothing.net
fails_with replicated "the network net is replicated" rt --param mode=2 --data net=r.net

# the temporary file beside the target never takes the name of a file
# that is there: one named like the target and tmp~ stays as it was
printf 'keep\n' >"$out/kept.net.tmp~"
run rt --data net=kept.net
if [ "$st" -eq 0 ] && [ "$(cat "$out/kept.net.tmp~")" = keep ] && cmp -s "$out/kept.net" "$out/saved.net"; then
    echo "ok save-keeps-tmp-name"
else
    echo "FAIL save-keeps-tmp-name: status $st, kept.net.tmp~ holds '$(head -c 20 "$out/kept.net.tmp~")'"
fi

# saving through a symbolic link writes the file it names and keeps the
# link
mkdir -p "$out/linked"
rm -f "$out/link.net" "$out/linked/real.net"
ln -s linked/real.net "$out/link.net"
run rt --data net=link.net
if [ "$st" -eq 0 ] && [ -L "$out/link.net" ] && cmp -s "$out/linked/real.net" "$out/saved.net"; then
    echo "ok save-through-link"
else
    echo "FAIL save-through-link: status $st, the link was replaced or its file not written"
fi

# a value that only lives inside a network call, every replicate the same:
# the reunited network holds it, and every build saves the same file
rsrc=tests/save/reunited.nn
if "$CUPITC" -Wall -Werror "$rsrc" -o "$out/re" >"$out/re.log" 2>&1 &&
   "$CUPITC" -Wall -Werror -O0 --portable "$rsrc" -o "$out/re-O0" >>"$out/re.log" 2>&1 &&
   "$CUPITC" -Wall -Werror --no-lanes "$rsrc" -o "$out/re-nolanes" >>"$out/re.log" 2>&1; then
    for exe in re re-O0 re-nolanes; do
        run "$exe" --data net="$exe.net"
        [ "$st" -eq 0 ] && [ "$(cat "$out/last")" = 6 ] || echo "FAIL save-reunited-$exe: status $st"
    done
    if cmp -s "$out/re-O0.net" "$out/re.net" && cmp -s "$out/re-O0.net" "$out/re-nolanes.net"; then
        echo "ok save-reunited"
    else
        echo "FAIL save-reunited: the builds saved different files"
    fi
    # a FIFO (like a device such as /dev/null) is written into, never
    # replaced by a regular file
    if mkfifo "$out/fifo.net" 2>/dev/null; then
        timeout 60 cat "$out/fifo.net" >"$out/fifo.read" &
        reader=$!
        run re --data net=fifo.net
        wait "$reader"
        if [ "$st" -eq 0 ] && [ -p "$out/fifo.net" ] && cmp -s "$out/fifo.read" "$out/re.net"; then
            echo "ok save-into-fifo"
        else
            echo "FAIL save-into-fifo: status $st, the FIFO was replaced or not written"
        fi
        rm -f "$out/fifo.net"
    fi
else
    echo "FAIL save-reunited: does not compile"; sed 's/^/    /' "$out/re.log" | head
fi

# nested arrays of records and of scalars (each run of directly nested
# arrays is one element leaf): the values come back, in the same run and
# in other builds
nsrc=tests/save/nested.nn
if "$CUPITC" -Wall -Werror "$nsrc" -o "$out/ne" >"$out/ne.log" 2>&1 &&
   "$CUPITC" -Wall -Werror -O0 --portable "$nsrc" -o "$out/ne-O0" >>"$out/ne.log" 2>&1 &&
   "$CUPITC" -Wall -Werror --no-lanes "$nsrc" -o "$out/ne-nolanes" >>"$out/ne.log" 2>&1; then
    run ne --data net=ne.net
    if [ "$st" -eq 0 ] && cmp -s "$out/last" tests/save/nested.out; then
        echo "ok save-nested"
    else
        echo "FAIL save-nested: status $st"; diff tests/save/nested.out "$out/last" | head
    fi
    # the network record's K nk (Int1, 2x2x2) in row-major order after the
    # header (24 bytes), the name (4 + 3) and M nm (6 Reals, 6 Int2s)
    bytes=$(od -A n -t x1 -j 91 -N 8 "$out/ne.net" | tr -d ' \n')
    if [ "$bytes" = 0000fd0000090000 ]; then
        echo "ok save-nested-layout"
    else
        echo "FAIL save-nested-layout: nk saved as $bytes, want 0000fd0000090000"
    fi
    want=$(tail -n 3 tests/save/nested.out)
    for exe in ne ne-O0 ne-nolanes; do
        run "$exe" --param mode=1 --data net=ne.net
        if [ "$st" -eq 0 ] && [ "$(cat "$out/last")" = "$want" ]; then
            echo "ok save-nested-load-$exe"
        else
            echo "FAIL save-nested-load-$exe: status $st"; sed 's/^/    /' "$out/last" "$out/last.err" | head
        fi
    done
else
    echo "FAIL save-nested: does not compile"; sed 's/^/    /' "$out/ne.log" | head
fi

# the example trainer: train and save, then a second run loads and tests
if "$CUPITC" examples/backprop.nn -o "$out/bp" >"$out/bp.log" 2>&1; then
    data="--data $ROOT/examples/data/circle.train --data Test=$ROOT/examples/data/circle.test"
    # shellcheck disable=SC2086
    run bp $data --param hidden=8 --param epochs=60 --seed 3 --param save=1 --data trained=c.net
    trained=$(grep '^test accuracy' "$out/last")
    # shellcheck disable=SC2086
    run bp $data --param hidden=8 --param load=1 --data trained=c.net
    loaded=$(grep '^test accuracy' "$out/last")
    if [ -n "$trained" ] && [ "$trained" = "$loaded" ] && ! grep -q '^epoch' "$out/last"; then
        echo "ok save-example-backprop ($loaded)"
    else
        echo "FAIL save-example-backprop: trained '$trained', loaded '$loaded'"
        sed 's/^/    /' "$out/last.err" | head -3
    fi
    # the protocol file, written since the first epoch, is not replaced by
    # the saved networks (the protocol would be lost without a word)
    # shellcheck disable=SC2086
    run bp $data --param hidden=8 --param epochs=2 --param save=1 --protocol same.tsv --data trained=same.tsv
    if [ "$st" -eq 2 ] && grep -q "the saveNetworks file 'same.tsv' is the protocol file" "$out/last.err" &&
       grep -q '^# epoch' "$out/same.tsv"; then
        echo "ok save-over-protocol"
    else
        echo "FAIL save-over-protocol: status $st (want 2)"; sed 's/^/    /' "$out/last.err" | head -3
    fi
    # the same with the protocol file there from the start: the check
    # when protocolError opens it must not wait for itself
    # shellcheck disable=SC2086
    run bp $data --param hidden=8 --param epochs=2 --param save=1 --protocol same.tsv --data trained=other.net
    if [ "$st" -eq 0 ] && [ -s "$out/other.net" ]; then
        echo "ok save-protocol-there"
    else
        echo "FAIL save-protocol-there: status $st (want 0)"; sed 's/^/    /' "$out/last.err" | head -3
    fi
else
    echo "FAIL save-example-backprop: does not compile"
fi

# a trained network used from C (examples/embed): cupitc --library, the API
# of cupit_embed.h, training and saving in one run, loading and classifying
# from C in the next
emb=$out/embed
mkdir -p "$emb"
if "$CUPITC" -Wall -Werror --library examples/embed/xor.nn -o "$emb/xor.o" >"$emb/log" 2>&1 &&
   cc -std=c11 -Wall -Wextra -Werror -I"$BUILD/include/cupit" examples/embed/main.c "$emb/xor.o" \
      "$BUILD/lib/cupit/libcupitrt.a" -lm -fopenmp -o "$emb/xor-app" >>"$emb/log" 2>&1; then
    (cd "$emb" && OMP_NUM_THREADS=1 ./xor-app train --data "$ROOT/examples/data/xor.data" \
        --data trained=xor.net --seed 1 --no-protocol && OMP_NUM_THREADS=1 ./xor-app --data trained=xor.net) \
        >"$emb/out" 2>&1
    if printf 'trained, error 0.0148123\n-1 -1 -> -0.929\n-1  1 -> +0.935\n 1 -1 -> +0.934\n 1  1 -> -0.967\n' |
       cmp -s - "$emb/out"; then
        echo "ok save-embed-c"
    else
        echo "FAIL save-embed-c: printed"; sed 's/^/    /' "$emb/out" | head
    fi
else
    echo "FAIL save-embed-c: does not build"; sed 's/^/    /' "$emb/log" | head
fi

# a --library object whose C host replicates the network in one procedure
# and then calls `program`: no procedure may assume the network's form at
# its entry (the rep-state pass)
if "$CUPITC" -Wall -Werror --library tests/save/lib-order.nn -o "$emb/lib-order.o" >"$emb/lo.log" 2>&1 &&
   cc -std=c11 -Wall -Wextra -Werror -I"$BUILD/include/cupit" tests/save/lib-order.c "$emb/lib-order.o" \
      "$BUILD/lib/cupit/libcupitrt.a" -lm -fopenmp -o "$emb/lib-order" >>"$emb/lo.log" 2>&1; then
    for t in 1 2; do
        if OMP_NUM_THREADS=$t "$emb/lib-order" >"$emb/lo.out" 2>&1 && printf '63 20\n' | cmp -s - "$emb/lo.out"; then
            echo "ok save-lib-order-$t"
        else
            echo "FAIL save-lib-order-$t: printed"; sed 's/^/    /' "$emb/lo.out" | head
        fi
    done
else
    echo "FAIL save-lib-order: does not build"; sed 's/^/    /' "$emb/lo.log" | head
fi

# a --library object whose C host calls a procedure `program` never calls,
# one that makes an element differ between replicates: the analysis of the
# elements every replicate holds equal must see every entry point
if "$CUPITC" -Wall -Werror --library tests/save/lib-diverge.nn -o "$emb/lib-diverge.o" >"$emb/ld.log" 2>&1 &&
   cc -std=c11 -Wall -Wextra -Werror -I"$BUILD/include/cupit" tests/save/lib-diverge.c "$emb/lib-diverge.o" \
      "$BUILD/lib/cupit/libcupitrt.a" -lm -fopenmp -o "$emb/lib-diverge" >>"$emb/ld.log" 2>&1; then
    for t in 1 2; do
        if OMP_NUM_THREADS=$t "$emb/lib-diverge" >"$emb/ld.out" 2>&1 && printf '3 3 4 38 ' | cmp -s - "$emb/ld.out"; then
            echo "ok save-lib-diverge-$t"
        else
            echo "FAIL save-lib-diverge-$t: printed"; sed 's/^/    /' "$emb/ld.out" | head
        fi
    done
else
    echo "FAIL save-lib-diverge: does not build"; sed 's/^/    /' "$emb/ld.log" | head
fi

# a --library object whose EXTERNAL code calls back through cupit_call into
# a procedure that replicates the network: after REPLICATE net INTO 1 the
# next call of EXTERNAL code, or of a global subroutine that makes one, may
# change the network's form (the rep-state pass)
if "$CUPITC" -Wall -Werror --library tests/save/lib-callback.nn -o "$emb/lib-callback.o" >"$emb/lb.log" 2>&1 &&
   cc -std=c11 -Wall -Wextra -Werror -I"$BUILD/include/cupit" tests/save/lib-callback.c "$emb/lib-callback.o" \
      "$BUILD/lib/cupit/libcupitrt.a" -lm -fopenmp -o "$emb/lib-callback" >>"$emb/lb.log" 2>&1; then
    for t in 1 2; do
        if OMP_NUM_THREADS=$t "$emb/lib-callback" >"$emb/lb.out" 2>&1 && printf '10 10 10\n' | cmp -s - "$emb/lb.out"; then
            echo "ok save-lib-callback-$t"
        else
            echo "FAIL save-lib-callback-$t: printed"; sed 's/^/    /' "$emb/lb.out" | head
        fi
    done
else
    echo "FAIL save-lib-callback: does not build"; sed 's/^/    /' "$emb/lb.log" | head
fi

# a host that calls the entry points in a wrong order gets a run-time error
# that says so (exit status 3), not a crash; cupit_finish without a running
# program does nothing
if "$CUPITC" -Wall -Werror --library tests/save/lib-calls.nn -o "$emb/lib-calls.o" >"$emb/lc.log" 2>&1 &&
   cc -std=c11 -Wall -Wextra -Werror -I"$BUILD/include/cupit" tests/save/lib-calls.c "$emb/lib-calls.o" \
      "$BUILD/lib/cupit/libcupitrt.a" -lm -fopenmp -o "$emb/lib-calls" >>"$emb/lc.log" 2>&1; then
    for c in "normal:0:step" "io-names:0:step" "finish-first:0:step" "finish-twice:0:step" \
             "call-first:3:run-time error: cupit_call (\"step\"): called before cupit_init" \
             "init-twice:3:run-time error: cupit_init: the program is already initialized" \
             "call-after:3:run-time error: cupit_call (\"step\"): called after cupit_finish" \
             "init-after:3:run-time error: cupit_init: the program cannot be started again"; do
        mode=${c%%:*} rest=${c#*:}
        want=${rest%%:*} text=${rest#*:}
        OMP_NUM_THREADS=1 "$emb/lib-calls" "$mode" >"$emb/lc.out" 2>&1
        st=$?
        if [ "$st" -eq "$want" ] && grep -qF "$text" "$emb/lc.out"; then
            echo "ok save-lib-calls-$mode"
        else
            echo "FAIL save-lib-calls-$mode: status $st, printed"; sed 's/^/    /' "$emb/lc.out" | head
        fi
    done
else
    echo "FAIL save-lib-calls: does not build"; sed 's/^/    /' "$emb/lc.log" | head
fi
