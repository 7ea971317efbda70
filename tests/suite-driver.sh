#!/bin/sh
# suite-driver.sh -- the cupitc command line: options, outputs, exit
# status, reproducible C, installation, C compiler failures.
set -u
: "${CUPITC:=build/bin/cupitc}" "${BUILD:=build}"
ROOT=$(pwd)
out="$BUILD/tests/driver"
rm -rf "$out"
mkdir -p "$out"
export NO_COLOR=1
prog=tests/run/control.nn

check() { # name, then a command whose success means the case passes
    name=$1
    shift
    if "$@" >"$out/$name.log" 2>&1; then
        echo "ok driver-$name"
    else
        echo "FAIL driver-$name"
        sed 's/^/    /' "$out/$name.log" | head -20
    fi
}

status_is() { # expected-status command...
    want=$1
    shift
    "$@" >/dev/null 2>&1
    [ $? -eq "$want" ]
}

check help sh -c "'$CUPITC' --help | grep -q 'usage: cupitc'"
# a generated program's --help lists the global variables --set can change
check program-help-set-variables sh -c "'$CUPITC' tests/run/set-globals.nn -o '$out/setg' && '$out/setg' --help | sed -n '/^variables of this program (--set NAME=VALUE):\$/,\$p' | grep -q '^  rate  *Real\$'"
# ... and a Real --param default and range with the digits that give it back
check program-help-param-digits sh -c "'$CUPITC' tests/run/param-help-digits.nn -o '$out/phd' && '$out/phd' --help | grep -q '^  rate  *Real, default 0.5, range 0.099999994 ... 1.0000001\$'"
# -Wnarrow-shift is in -Wextra, not in -Wall (tests/errors/warn-narrow-shift)
check wall-without-narrow-shift "$CUPITC" -fsyntax-only -Wall -Werror tests/errors/warn-narrow-shift.nn
check version sh -c "'$CUPITC' --version | grep -q '^cupitc '"
check bad-option status_is 2 "$CUPITC" --frobnicate "$prog"
check no-input status_is 2 "$CUPITC"
check missing-file sh -c "'$CUPITC' -fsyntax-only does-not-exist.nn 2>&1 | grep -q \"cannot read 'does-not-exist.nn'\""
check missing-file-status status_is 1 "$CUPITC" -fsyntax-only does-not-exist.nn
# a missing C file or object is an input error like a missing source, as in cc
check missing-c-file-status status_is 1 "$CUPITC" "$prog" does-not-exist.c
check missing-object-status status_is 1 "$CUPITC" does-not-exist.o -o "$out/none"
check two-sources status_is 2 "$CUPITC" "$prog" tests/run/arith.nn
check syntax-only sh -c "'$CUPITC' -fsyntax-only '$prog' && [ ! -e a.out ]"

# -S writes C, byte-identical on every run, with #line pointing at the .nn
check emit-c sh -c "'$CUPITC' -S '$prog' -o '$out/a.c' && '$CUPITC' --emit-c '$prog' -o '$out/b.c' && cmp '$out/a.c' '$out/b.c'"
check line-directives grep -q "#line [0-9]* \"$prog\"" "$out/a.c"
check no-line sh -c "'$CUPITC' -S --no-line '$prog' -o '$out/c.c' && ! grep -q '#line' '$out/c.c'"
check default-c-name sh -c "cd '$out' && '$ROOT/$CUPITC' -S '$ROOT/$prog' && [ -f control.c ]"

# -c stops at the object file; the default executable is a.out
check object sh -c "cd '$out' && '$ROOT/$CUPITC' -c '$ROOT/$prog' && [ -f control.o ] && [ ! -e a.out ]"
# a C file given with -c or --library is not in the object: a warning says so
check object-c-file sh -c "printf 'int f(void);\\n' >'$out/f.c' && '$CUPITC' -c '$prog' '$out/f.c' -o '$out/f.o' 2>'$out/f.err' && grep -q \"warning: '$out/f.c' is not part of the object file that -c makes\" '$out/f.err' && '$CUPITC' --library '$prog' '$out/f.c' -o '$out/f.o' 2>'$out/f.err' && grep -q 'that --library makes' '$out/f.err'"
check default-exe sh -c "cd '$out' && '$ROOT/$CUPITC' '$ROOT/$prog' && ./a.out | grep -q '^120 5'"
check verbose sh -c "'$CUPITC' -v -O1 '$prog' -o '$out/v' 2>&1 | grep -q -- '-fopenmp.*-O1\|-O1.*-fopenmp'"
check debug sh -c "'$CUPITC' -g -O0 '$prog' -o '$out/g' && '$out/g' | grep -q '^120 5'"
check host-tuned sh -c "'$CUPITC' -v '$prog' -o '$out/h' 2>'$out/h.cmd' && grep -q -- '-march=native' '$out/h.cmd' && '$out/h' | grep -q '^120 5'"
check portable sh -c "'$CUPITC' -v --portable '$prog' -o '$out/p' 2>'$out/p.cmd' && ! grep -q -- '-march=native' '$out/p.cmd' && '$out/p' | grep -q '^120 5'"
check no-openmp sh -c "'$CUPITC' -v --no-openmp '$prog' -o '$out/s' 2>'$out/s.cmd' && ! grep -q -- '-fopenmp' '$out/s.cmd' && '$out/s' | grep -q '^120 5'"

# --dump-passes reports what each pass did; -fno-PASS turns one off
cb=tests/run/const-branch.nn
check dump-passes sh -c "'$CUPITC' --dump-passes '$cb' 2>&1 | grep -q '^const-branch: cpNL_Net_b_act: the IF of line [0-9]* keeps only its ELSE'"
check no-pass sh -c "'$CUPITC' --dump-passes -fno-const-branch '$cb' 2>&1 | grep -q '^dce: ' && ! '$CUPITC' --dump-passes -fno-const-branch '$cb' 2>&1 | grep -q '^const-branch'"
check unknown-pass status_is 2 "$CUPITC" -fno-frobnicate "$prog"
# a recursive helper that touches no node is no reason for the analysis to give up
check fuse-local-recursion sh -c "'$CUPITC' --dump-passes tests/run/fuse-local-recursion.nn 2>&1 | grep -q '^fuse: cpNL_Net_b_gather: .* 1 reduction candidates recomputed'"
# an Int CONST mode decides the IF around a send for fuse as a Bool one does
check fuse-int-mode sh -c "'$CUPITC' --dump-passes tests/run/const-int-mode-fuse.nn 2>&1 | grep -q '^fuse: cpML_Net_b0_Link_send: .* 1 stores left out'"
# a function of the program that only returns an expression is recomputed like an operator
check fuse-user-function sh -c "'$CUPITC' --dump-passes tests/run/fuse-user-function.nn 2>&1 | grep -q '^fuse: cpNL_Net_o_fire: .* 2 reduction candidates recomputed'"
# functions that call the one below them many times are judged once each, in time
check fuse-function-fanout sh -c "timeout 60 '$CUPITC' --dump-passes tests/run/fuse-function-fanout.nn 2>&1 | grep -q '^fuse: cpNL_Net_outs_fire: .* 2 reduction candidates recomputed'"
# node functions that call the one below them twice, 20 deep: the transport and
# the uniform walk follow each once per arguments, in time, and do not give up
nff=tests/run/node-function-fanout.nn
check node-function-fanout sh -c "timeout 60 '$CUPITC' --dump-passes '$nff' >'$out/nff.passes' 2>&1 && grep -q '^fuse: cpNL_Net_outs_fire: .* 1 reduction candidates recomputed' '$out/nff.passes' && grep -q '^shared: Link.w: once per lane block' '$out/nff.passes'"
# connection functions that call the one below them twice, 20 deep: walked once
# per state, in time; the walk does not give up, so the other bundle's sum is fused
check conn-function-fanout sh -c "timeout 60 '$CUPITC' --dump-passes tests/run/conn-function-fanout.nn 2>&1 | grep -q '^fuse: cpNL_Net_outs_fire: .* 1 reduction candidates recomputed'"
# network functions that call the one below them twice, 20 deep, around a sum over
# a group: their walk does nothing and is left out; the connection sum is fused
check net-function-fanout sh -c "timeout 60 '$CUPITC' --dump-passes tests/run/net-function-fanout.nn 2>&1 | grep -q '^fuse: cpNL_Net_outs_fire: .* 1 reduction candidates recomputed'"
# a sum after locals and assignments is still a kernel; after a read of its element or an IF not
dp=tests/run/dense-prefix.nn
check dense-prefix sh -c "'$CUPITC' --dump-passes '$dp' >'$out/dp.passes' 2>&1 && grep -q '^dense: .* cpNL_Net_b_fireLate over' '$out/dp.passes' && grep -q '^dense: .* cpNL_Net_b_gatherLate over' '$out/dp.passes' && ! grep -q '^dense: .* cpNL_Net_[a-z]*_\\(keep\\|guarded\\) over' '$out/dp.passes'"
# a RETURN before the sum that const-branch decides clears the mask the sum runs under: no kernel
check dense-prefix-return sh -c "'$CUPITC' --dump-passes tests/run/dense-prefix-return.nn 2>&1 | grep -q '^const-branch: cpNL_Net_b_fire:' && ! '$CUPITC' --dump-passes tests/run/dense-prefix-return.nn 2>&1 | grep -q '^dense:'"
# the topology changes of dense-topology.nn switch between the kernel and the lists at run time
check dense-topology sh -c "'$CUPITC' --dump-passes tests/run/dense-topology.nn 2>&1 | grep -q '^dense: cpML_Net_run: the sums of cpNL_Net_b_fire over 2 bundles'"

# C compiler habits: -ofile glued, - reads standard input, objects link
check glued-o sh -c "'$CUPITC' '$prog' -o'$out/glued' && '$out/glued' | grep -q '^120 5'"
# -l LIB and -L DIR as separate arguments, as C compilers take them
check separate-l-L sh -c "'$CUPITC' -v '$prog' -l m -L /usr/lib -o '$out/sepl' 2>'$out/sepl.cmd' && grep -q -- ' -lm -L/usr/lib ' '$out/sepl.cmd' && '$out/sepl' | grep -q '^120 5'"
check separate-l-missing status_is 2 "$CUPITC" "$prog" -l
check stdin sh -c "'$CUPITC' - -o '$out/fromstdin' <'$prog' && '$out/fromstdin' | grep -q '^120 5'"
check stdin-errors sh -c "printf 'PROCEDURE program () IS x := 1; END;\\n' | '$CUPITC' -fsyntax-only - 2>&1 | grep -q '^<stdin>:1:25: error: undefined name'"
# the program's run-time errors name standard input as the compiler does
check stdin-run-time-error sh -c "printf 'PROCEDURE program () IS\\n  Int VAR a := 0;\\n  a := 5 / a;\\nEND;\\n' | '$CUPITC' - -o '$out/stdin-div' && { '$out/stdin-div' 2>'$out/err'; [ \$? -eq 3 ]; } && grep -q '^<stdin>:3: run-time error: division by zero' '$out/err'"
# after --, a C file whose name starts with '-' is a file, also for the C
# compiler (it gets ./-x.c), not an option
check dash-c-file sh -c "printf 'int ext(void) { return 7; }\\n' >'$out/-ext.c' && printf 'PROCEDURE pInt (Int CONST i) IS EXTERNAL;\\nInt FUNCTION ext () IS EXTERNAL;\\nPROCEDURE program () IS pInt (ext ()); END;\\n' >'$out/dash.nn' && cd '$out' && '$ROOT/$CUPITC' -o dash dash.nn -- -ext.c && ./dash | grep -q '^7'"
# an OpenMP object linked into a --no-openmp program: the linker's missing
# GOMP_ symbols come with a note that says what to do
check openmp-object-serial-link sh -c "'$CUPITC' -c tests/run/par-work-all.nn -o '$out/omp.o' && ! '$CUPITC' --no-openmp '$out/omp.o' -o '$out/omp-serial' 2>'$out/omp.err' && grep -q 'compiled with OpenMP' '$out/omp.err'"
check link-object sh -c "'$CUPITC' -c '$prog' -o '$out/prog.o' && '$CUPITC' '$out/prog.o' -o '$out/linked' && '$out/linked' | grep -q '^120 5'"
# -S wins over -c in either order (as in gcc); -- ends the options
check s-wins-over-c sh -c "cd '$out' && rm -f control.c control.o && '$ROOT/$CUPITC' -S -c '$ROOT/$prog' && [ -f control.c ] && [ ! -e control.o ] && rm control.c && '$ROOT/$CUPITC' -c -S '$ROOT/$prog' && [ -f control.c ] && [ ! -e control.o ]"
check double-dash sh -c "cd '$out' && cp '$ROOT/$prog' ./-dash.nn && '$ROOT/$CUPITC' -o dash -- -dash.nn && ./dash | grep -q '^120 5'"
# -o - is standard output for -S and -c (no file named '-'); an executable is refused
check stdout-c sh -c "cd '$out' && rm -f ./- && '$ROOT/$CUPITC' -S '$ROOT/$prog' -o - >stdout.c && [ ! -e ./- ] && '$ROOT/$CUPITC' -S '$ROOT/$prog' -o file.c && cmp stdout.c file.c"
check stdout-object sh -c "cd '$out' && '$ROOT/$CUPITC' -c '$ROOT/$prog' -o - >stdout.o && [ ! -e ./- ] && '$ROOT/$CUPITC' stdout.o -o stdout-linked && ./stdout-linked | grep -q '^120 5'"
check stdout-exe-refused sh -c "cd '$out' && ! '$ROOT/$CUPITC' '$ROOT/$prog' -o - >/dev/null 2>err && [ ! -e ./- ] && grep -q 'not an executable' err"
if [ -c /dev/full ]; then
    check stdout-c-full sh -c "! '$CUPITC' -S '$prog' -o - >/dev/full 2>'$out/err' && [ \$(grep -c 'cannot write to standard output: No space left' '$out/err') -eq 1 ]"
fi

# --max-epochs and Ctrl-C end the training of a program that asks
# trainingDone () and let it finish (a program that never asks ends)
cat >"$out/td.nn" <<'NN'
PROCEDURE protocolError (Int CONST epochNumber; Real CONST totalError; Int CONST nrOfErrors) IS EXTERNAL;
Bool FUNCTION trainingDone () IS EXTERNAL;
PROCEDURE pString (String CONST me) IS EXTERNAL;
PROCEDURE program () IS
  Int VAR epoch := 0;
  REPEAT
    epoch += 1;
    protocolError (epoch, 1.0, 0);
  UNTIL trainingDone () OR epoch = 100000000 END REPEAT;
  pString ("after training\n");
END;
NN
"$CUPITC" "$out/td.nn" -o "$out/td" >/dev/null 2>&1
check training-done-epochs sh -c "'$out/td' --max-epochs 3 --no-protocol | tail -n 2 | tr '\\n' ' ' | grep -q '^epoch 3 error 1 errors 0 after training'"
interrupt_training() {
    "$out/td" --no-protocol >"$out/td.out" 2>"$out/td.err" &
    p=$!
    sleep 1
    kill -INT "$p"
    wait "$p" && tail -n 1 "$out/td.out" | grep -q '^after training' && grep -q 'interrupted' "$out/td.err"
}
check training-done-interrupt interrupt_training

# cupit-plot draws a protocol file as SVG by itself (one point per epoch)
plot_svg() {
    printf '# epoch\terror\terrors\n1\t4.5\t3\n2\t2.25\t1\n3\t0.5\t0\n' >"$out/p.tsv"
    sh scripts/cupit-plot "$out/p.tsv" --log && [ -f "$out/p.svg" ] &&
        grep -q '<polyline' "$out/p.svg" &&
        [ "$(grep -o 'points="[^"]*"' "$out/p.svg" | tr ' ' '\n' | grep -c ',')" -eq 3 ] &&
        ! sh scripts/cupit-plot "$out/p.tsv" -o "$out/p.txt" 2>/dev/null
}
check plot-svg plot_svg

# standard output of a generated program is line-buffered: a line printed
# before a long computation arrives while it runs, also into a file
cat >"$out/slow.nn" <<'NN'
PROCEDURE pString (String CONST me) IS EXTERNAL;
PROCEDURE program () IS
  Int VAR i := 0;
  Real VAR x := 0.0;
  pString ("started\n");
  WHILE i >= 0 REPEAT x := x + 1.0; i := i + 1; IF i > 2000000000 THEN i := 0; END; END REPEAT;
  pString ("never\n");
END;
NN
"$CUPITC" "$out/slow.nn" -o "$out/slow" >/dev/null 2>&1
line_buffered() {
    "$out/slow" --no-protocol >"$out/slow.out" 2>&1 &
    p=$!
    n=0
    while [ "$n" -lt 100 ] && ! grep -q started "$out/slow.out"; do sleep 0.1; n=$((n + 1)); done
    running=no
    kill -0 "$p" 2>/dev/null && running=yes # the line came while it still ran
    kill -KILL "$p" 2>/dev/null
    wait "$p" 2>/dev/null
    [ "$running" = yes ] && grep -q '^started$' "$out/slow.out"
}
check line-buffered line_buffered

# a C compiler that rejects the generated C: a bug of cupitc, with the
# command, exit status 1
printf '#!/bin/sh\necho "gen.c:1:1: error: expected declaration" >&2\nexit 1\n' >"$out/reject-cc"
printf '#!/bin/sh\necho "cc: internal compiler error: Segmentation fault signal terminated program cc1" >&2\nexit 4\n' >"$out/ice-cc"
printf '#!/bin/sh\nkill -SEGV $$\n' >"$out/segv-cc"
chmod +x "$out/reject-cc" "$out/ice-cc" "$out/segv-cc"
check cc-failure sh -c "CC='$out/reject-cc' '$CUPITC' '$prog' -o '$out/x' 2>&1 | grep -q 'internal error: the C compiler failed on the code generated for .*please report it'"
check cc-failure-status status_is 1 env CC="$out/reject-cc" "$CUPITC" "$prog" -o "$out/x"
# the C compiler not there, crashing, or failing without a word: its
# failure, said so, never "a bug of cupitc"
check cc-missing sh -c "CC=no-such-cc-here '$CUPITC' '$prog' -o '$out/x' 2>'$out/err'; [ \$? -eq 1 ] && grep -q \"cannot run the C compiler 'no-such-cc-here' (from .CC='no-such-cc-here'): No such file\" '$out/err' && ! grep -q 'bug of cupitc' '$out/err'"
check cc-ice sh -c "CC='$out/ice-cc' '$CUPITC' '$prog' -o '$out/x' 2>'$out/err'; [ \$? -eq 1 ] && grep -q 'C compiler crashed or ran out of resources .*internal compiler error' '$out/err' && ! grep -q 'bug of cupitc' '$out/err'"
check cc-signal sh -c "CC='$out/segv-cc' '$CUPITC' '$prog' -o '$out/x' 2>'$out/err'; [ \$? -eq 1 ] && grep -q 'was ended by signal 11' '$out/err' && ! grep -q 'bug of cupitc' '$out/err'"
check cc-silent sh -c "CC=false '$CUPITC' '$prog' -o '$out/x' 2>'$out/err'; [ \$? -eq 1 ] && grep -q \"C compiler 'false' failed (exit status 1) without reporting an error\" '$out/err' && ! grep -q 'bug of cupitc' '$out/err'"
# clang as the C compiler: the generated C draws no warning of its own
# (if ((a == b)), simd loops clang leaves scalar)
if command -v clang >/dev/null 2>&1; then
    check cc-clang-quiet sh -c "CC=clang '$CUPITC' -Xcc -Werror '$prog' -o '$out/clang' 2>'$out/err' && [ ! -s '$out/err' ] && '$out/clang' | grep -q '^120 5'"
fi
# a C compiler that succeeds without writing its output (-fsyntax-only
# given with -Xcc, CC=true): an error, and no empty program or object left
check cc-no-output sh -c "! '$CUPITC' -Xcc -fsyntax-only '$prog' -o '$out/empty' 2>'$out/err' && grep -q \"succeeded but wrote no output (the object file is empty\" '$out/err' && [ ! -e '$out/empty' ]"
check cc-no-output-object sh -c "! '$CUPITC' -c -Xcc -fsyntax-only '$prog' -o '$out/empty.o' 2>'$out/err' && grep -q \"the object file '$out/empty.o' is empty\" '$out/err' && [ ! -e '$out/empty.o' ]"
check cc-no-output-link sh -c "'$CUPITC' -c '$prog' -o '$out/p.o' && ! CC=true '$CUPITC' '$out/p.o' -o '$out/empty' 2>'$out/err' && grep -q \"the program '$out/empty' is empty\" '$out/err' && [ ! -e '$out/empty' ]"
# a C compiler that crashes in its vectorizer (gcc 12, -O3, AVX-512): cupitc
# builds again with -fno-tree-vectorize, warns, and the program runs; the
# crash report itself is not shown
printf '#!/bin/sh\ncase " $* " in *" -c "*) ;; *) exec cc "$@" ;; esac\nfor a; do [ "$a" = -fno-tree-vectorize ] && exec cc "$@"; done\necho "p.c:9:1: internal compiler error: in gimple_expand_vec_cond_expr" >&2\nexit 4\n' >"$out/vec-ice-cc"
chmod +x "$out/vec-ice-cc"
check cc-ice-retry sh -c "CC='$out/vec-ice-cc' '$CUPITC' '$prog' -o '$out/iceretry' 2>'$out/err' && grep -q 'warning: the C compiler crashed .*gimple_expand_vec_cond_expr.*built it again without vectorization' '$out/err' && [ \$(grep -c 'internal compiler error' '$out/err') -eq 1 ] && '$out/iceretry' | grep -q '^120 5'"
# the generated C's indentation stops at 24 levels: 100 nested IFs in lane
# code made 0.8 MB of C, most of it leading blanks
check c-indent-capped sh -c "'$CUPITC' -S tests/run/lanes-deep-nesting.nn -o '$out/deep.c' && awk '{ match(\$0, /^ */); if (RLENGTH > 100) exit 1 }' '$out/deep.c'"
# generated code reads no thread-local variable of the runtime: gcc 12 at
# -O3 made an access of the recursion check's one that the linker could not
# relax ("TLS transition from R_X86_64_GOTTPOFF ... failed")
check no-tls-in-generated sh -c "'$CUPITC' -c -O3 tests/run/rterr-recursion-depth.nn -o '$out/recursive.o' && ! readelf -sW '$out/recursive.o' | grep -q ' TLS .* UND '"
# $CC is split at blanks into a command and its arguments, as make runs it
check cc-with-arguments sh -c "CC='cc -DCUPITC_TEST_CC=1' '$CUPITC' -v '$prog' -o '$out/ccargs' 2>'$out/err' && grep -q '^cc -DCUPITC_TEST_CC=1 ' '$out/err' && '$out/ccargs' | grep -q '^120 5'"
# errors in user C files are the user's, not internal errors
printf 'int broken(void) { return }\n' >"$out/broken.c"
check user-c-failure sh -c "'$CUPITC' '$prog' '$out/broken.c' -o '$out/y' 2>&1 | grep -q \"error: compiling and linking '$out/y' failed\" && ! '$CUPITC' '$prog' '$out/broken.c' -o '$out/y' 2>&1 | grep -q 'internal error'"
# with -Xcc options a failure may be theirs
check xcc-failure sh -c "'$CUPITC' -Xcc -mno-such-flag '$prog' -o '$out/y' 2>&1 | grep -q 'error: the C compiler failed on the generated code with the C options given'"

# ---- the user's files are never lost (output.h) ----
cp "$prog" "$out/keep.nn"
ln -sf keep.nn "$out/keep-link.c"
printf 'int ext(void) { return 1; }\n' >"$out/ext.c"
for stage in -S -c ""; do
    tag=${stage:-link}
    check "output-is-input$tag" sh -c "! '$CUPITC' $stage '$out/keep.nn' -o '$out/keep.nn' 2>'$out/err' && grep -q \"output '$out/keep.nn' is the input file\" '$out/err' && cmp -s '$prog' '$out/keep.nn'"
    check "output-links-input$tag" sh -c "! '$CUPITC' $stage '$out/keep.nn' -o '$out/keep-link.c' 2>/dev/null && cmp -s '$prog' '$out/keep.nn'"
    check "output-missing-folder$tag" sh -c "! '$CUPITC' $stage '$prog' -o '$out/no/such/x' 2>'$out/err' && grep -q \"the folder '$out/no/such' does not exist\" '$out/err' && ! grep -q 'internal error' '$out/err'"
    check "output-is-folder$tag" sh -c "! '$CUPITC' $stage '$prog' -o '$out' 2>'$out/err' && grep -q 'it is a directory' '$out/err'"
    # an empty name: an error (it was a failed rename, then a double free)
    check "output-empty-name$tag" sh -c "'$CUPITC' $stage '$prog' -o '' 2>'$out/err'; [ \$? -eq 1 ] && grep -q 'the output file name is empty' '$out/err'"
done
check output-empty-name-link-only sh -c "'$CUPITC' -c '$prog' -o '$out/p.o' && { '$CUPITC' '$out/p.o' -o '' 2>'$out/err'; [ \$? -eq 1 ]; } && grep -q 'the output file name is empty' '$out/err'"
check output-is-user-c sh -c "! '$CUPITC' '$prog' '$out/ext.c' -o '$out/ext.c' 2>/dev/null && grep -q 'int ext' '$out/ext.c'"
# a folder where no file can be made (/proc) is reported for the output the
# user named, not for cupitc's temporary file beside it
if [ -d /proc/self ]; then
    check output-uncreatable sh -c "! '$CUPITC' -S '$prog' -o /proc/x 2>'$out/err' && grep -q \"cannot write '/proc/x': cannot create a file in the folder '/proc'\" '$out/err' && ! grep -q 'cupitc-' '$out/err'"
fi
# a failed build leaves the old output as it was and no temporary file
printf 'old\n' >"$out/old"
check failed-build-keeps-output sh -c "! CC=false '$CUPITC' '$prog' -o '$out/old' 2>/dev/null && [ \"\$(cat '$out/old')\" = old ] && ! ls -a '$out' | grep -q cupitc-"
# an -S that did not change the C leaves the file (and its time) alone
check unchanged-c-keeps-time sh -c "'$CUPITC' -S '$prog' -o '$out/same.c' && touch -d '2001-01-01' '$out/same.c' && '$CUPITC' -S '$prog' -o '$out/same.c' && [ \"\$(date -r '$out/same.c' +%Y)\" = 2001 ]"
# devices and pipes are written in place, never replaced by a file
pipe_output() {
    rm -f "$out/pipe" && mkfifo "$out/pipe" || return 1
    cat "$out/pipe" >"$out/pipe.c" &
    reader=$!
    "$CUPITC" -S "$prog" -o "$out/pipe" || return 1
    wait "$reader"
    [ -p "$out/pipe" ] && grep -q 'Generated by cupitc' "$out/pipe.c"
}
check output-is-pipe pipe_output
check output-dev-null sh -c "'$CUPITC' '$prog' -o /dev/null && '$CUPITC' -S '$prog' -o /dev/null && [ -c /dev/null ]"
if [ -c /dev/full ]; then
    check output-write-error sh -c "! '$CUPITC' -S '$prog' -o /dev/full 2>'$out/err' && grep -q \"cannot write '/dev/full'\" '$out/err' && [ -c /dev/full ]"
fi
# an interrupted build leaves no output, no temporary file and no C
# compiler behind (the signal is passed on to it)
mkdir -p "$out/sig" "$out/sigtmp"
printf '#!/bin/sh\necho $$ >"%s"\nexec sleep 30\n' "$out/slow-cc.pid" >"$out/slow-cc"
chmod +x "$out/slow-cc"
interrupted() {
    rm -f "$out/slow-cc.pid"
    CC="$out/slow-cc" TMPDIR="$out/sigtmp" "$CUPITC" "$prog" -o "$out/sig/x" 2>/dev/null &
    pid=$!
    sleep 1
    kill -TERM "$pid"
    wait "$pid"
    st=$?
    cc_pid=$(cat "$out/slow-cc.pid" 2>/dev/null)
    cc_gone=yes
    [ -n "$cc_pid" ] && kill -0 "$cc_pid" 2>/dev/null && { cc_gone=no; kill "$cc_pid"; }
    [ "$st" -ne 0 ] && [ -n "$cc_pid" ] && [ "$cc_gone" = yes ] &&
        [ -z "$(ls -A "$out/sig")" ] && [ -z "$(ls -A "$out/sigtmp")" ]
}
check interrupted-build interrupted
# an EXTERNAL subroutine nobody defines is reported at its declaration
printf 'PROCEDURE pint (Int CONST x) IS EXTERNAL;\nPROCEDURE program () IS pint (3); END;\n' >"$out/typo.nn"
# (at compile time when no C file, object or library is given, with the
# closest standard name; else after the linker found no definition)
check undefined-external sh -c "! '$CUPITC' '$out/typo.nn' -o '$out/typo' 2>'$out/err' && grep -q \"typo.nn:1:11: error: EXTERNAL procedure 'pint' is not in the CuPit standard library\" '$out/err' && grep -q \"did you mean the standard library's 'pInt'\" '$out/err'"
check undefined-external-link sh -c "! '$CUPITC' '$out/typo.nn' '$out/ext.c' -o '$out/typo' 2>'$out/err' && grep -q \"typo.nn:1:11: error: EXTERNAL procedure 'pint' is defined in none of\" '$out/err' && ! grep -q 'internal error' '$out/err'"

# long lists cost linear time (they were quadratic: 20000 arguments took
# minutes); the limit is a hang guard far above the expected 0.2 s
awk 'BEGIN { n = 20000
    printf "Int FUNCTION f ("; for (i = 0; i < n; i++) printf "%sInt CONST a%d", i ? "; " : "", i
    printf ") IS RETURN a0; END;\nPROCEDURE pInt (Int CONST x) IS EXTERNAL;\n"
    printf "PROCEDURE program () IS pInt (f ("; for (i = 0; i < n; i++) printf "%s%d", i ? ", " : "", i % 7
    printf ")); END;\n" }' >"$out/args.nn"
check long-argument-list timeout 30 "$CUPITC" -S "$out/args.nn" -o "$out/args.c"
# a long sum prints its C in linear memory (each level of the tree was
# formatted again: 4900 terms took 2.5 GB and 5 s; now about 11 MB)
awk 'BEGIN { n = 4900
    printf "PROCEDURE pInt (Int CONST x) IS EXTERNAL;\nPROCEDURE program () IS\n  Int VAR b := 1;\n  Int VAR a := b"
    for (i = 1; i < n; i++) printf "+b"
    printf ";\n  pInt (a);\nEND PROCEDURE;\n" }' >"$out/sum.nn"
check long-sum-c-memory sh -c "ulimit -v 400000 && timeout 30 '$CUPITC' -S '$out/sum.nn' -o '$out/sum.c' && [ \$(wc -c <'$out/sum.c') -gt 100000 ]"
# a call on an interface builds code for the bundles at that interface only
# (it built expressions for every bundle of the network: 17 groups of nodes
# with 24 interfaces, 384 bundles, took 80 MB; now about 20 MB)
awk 'BEGIN { g = 17; n = 24
    printf "PROCEDURE pInt (Int CONST x) IS EXTERNAL;\nInt REDUCTION isum IS RETURN ME + YOU; END;\n"
    printf "TYPE C IS CONNECTION Int x := 0;\n  PROCEDURE send (Int CONST v) IS ME.x := v; END;\nEND TYPE;\nTYPE N IS NODE\n"
    for (i = 0; i < n; i++) printf "  IN C i%d; OUT C o%d;\n", i, i
    printf "  Int v := 1;\n  PROCEDURE go () IS\n"
    for (i = 0; i < n; i++) printf "    ME.o%d[].send (ME.v + %d);\n", i, i
    printf "  END;\n  PROCEDURE fire () IS\n"
    for (i = 0; i < n; i++) printf "    REDUCTION ME.i%d[].x:isum INTO ME.v;\n", i
    printf "  END;\nEND TYPE;\nTYPE G IS GROUP OF N END TYPE;\nTYPE Net IS NETWORK\n  G g0"
    for (k = 1; k < g; k++) printf ", g%d", k
    printf ";\n  Int r := 0;\n  PROCEDURE build () IS\n"
    for (k = 0; k < g; k++) printf "    EXTEND ME.g%d BY 2;\n", k
    for (k = 0; k + 1 < g; k++) for (i = 0; i < n; i++) printf "    CONNECT ME.g%d[].o%d TO ME.g%d[].i%d;\n", k, i, k + 1, i
    printf "  END;\n  PROCEDURE step () IS\n"
    for (k = 0; k + 1 < g; k++) printf "    ME.g%d[].go (); ME.g%d[].fire ();\n", k, k + 1
    printf "    REDUCTION ME.g%d[].v:isum INTO ME.r;\n  END;\nEND TYPE;\nNet VAR net;\n", g - 1
    printf "PROCEDURE program () IS net.build (); net.step (); pInt (net.r); END;\n" }' >"$out/ifaces.nn"
check interface-call-memory sh -c "ulimit -v 60000 && timeout 30 '$CUPITC' -S '$out/ifaces.nn' -o '$out/ifaces.c' && grep -q cpNL_Net_g16_fire '$out/ifaces.c'"
# finding the recursive subroutines is linear in the size of the call graph (a
# walk from every subroutine took quadratic time: 16000 functions, 2.4 s; these
# 60000 took minutes); only f0, which calls itself, checks the stack
awk 'BEGIN { n = 60000
    printf "PROCEDURE pInt (Int CONST x) IS EXTERNAL;\n"
    printf "Int FUNCTION f0 (Int CONST a) IS IF a > 9 THEN RETURN f0 (a - 1); END; RETURN a; END;\n"
    for (i = 1; i < n; i++) printf "Int FUNCTION f%d (Int CONST a) IS RETURN f%d (a + 1); END;\n", i, i - 1
    printf "PROCEDURE program () IS pInt (f%d (0)); END;\n", n - 1 }' >"$out/chain.nn"
check call-chain-recursion sh -c "timeout 10 '$CUPITC' -S '$out/chain.nn' -o '$out/chain.c' && [ \$(grep -c 'rt_stack_check(CP_POS(2));' '$out/chain.c') -eq 1 ] && [ \$(grep -c 'rt_stack_check' '$out/chain.c') -eq 1 ]"
# the transport and uniform walks follow a call chain of 5000 node functions
# to a bounded depth and give up below it (cupitc crashed: its C stack ran out)
awk 'BEGIN { n = 5000
    printf "PROCEDURE pInt (Int CONST x) IS EXTERNAL;\nInt REDUCTION isum IS RETURN ME + YOU; END;\n"
    printf "TYPE N IS NODE\n  Int v := 1;\n  Int FUNCTION f0 (Int CONST a) IS RETURN a + ME.v; END;\n"
    for (i = 1; i < n; i++) printf "  Int FUNCTION f%d (Int CONST a) IS RETURN ME.f%d (a + 1); END;\n", i, i - 1
    printf "  PROCEDURE go () IS ME.v := ME.f%d (INDEX); END;\nEND TYPE;\n", n - 1
    printf "TYPE G IS GROUP OF N END TYPE;\nTYPE Net IS NETWORK\n  G g;\n  Int r := 0;\n"
    printf "  PROCEDURE step () IS EXTEND ME.g BY 3; ME.g[].go (); REDUCTION ME.g[].v:isum INTO ME.r; END;\nEND TYPE;\n"
    printf "Net VAR net;\nPROCEDURE program () IS net.step (); pInt (net.r); END;\n" }' >"$out/deepcalls.nn"
check deep-call-chain sh -c "timeout 60 '$CUPITC' -S '$out/deepcalls.nn' -o '$out/deepcalls.c' && grep -q 'cpNL_Net_g_f4999' '$out/deepcalls.c'"

# the element leaves of directly nested arrays are one row each, whatever
# their sizes, and an array inside the elements of an array is one
# RT_F_REPEAT group (every level but the outermost was unrolled: a 16-deep
# array of Ints made 28 MB of C; this program took all memory); about 40 KB
awk 'BEGIN { n = 24
    printf "PROCEDURE pInt (Int CONST x) IS EXTERNAL;\nInt REDUCTION isum IS RETURN ME + YOU; END;\n"
    printf "TYPE P IS RECORD Int v; Real w; END TYPE;\n"
    printf "TYPE A1 IS ARRAY 2 OF Int END TYPE;\nTYPE B1 IS ARRAY 2 OF P END TYPE;\n"
    for (i = 2; i <= n; i++) printf "TYPE A%d IS ARRAY 2 OF A%d END TYPE;\n", i, i - 1
    for (i = 2; i <= 12; i++) printf "TYPE B%d IS ARRAY 2 OF B%d END TYPE;\n", i, i - 1
    printf "TYPE Q IS RECORD A14 a; Int b; END TYPE;\nTYPE Qs IS ARRAY 4 OF Q END TYPE;\n"
    printf "TYPE C IS CONNECTION B12 b; Int x := 1; END TYPE;\n"
    printf "TYPE N IS NODE IN C i; OUT C o; B12 b; A16 a; Qs q; Int v := 1;\n"
    printf "  PROCEDURE go () IS ME.b[1][1][1][1][1][1][1][1][1][1][1][1].v := 3; ME.v := INDEX; END;\n"
    printf "  MERGE IS ME.v := ME.v + YOU.v; END;\nEND TYPE;\nTYPE G IS GROUP OF N END TYPE;\n"
    printf "TYPE Net IS NETWORK G g; A%d x; Int r := 0;\n", n
    printf "  PROCEDURE step () IS EXTEND ME.g BY 3; CONNECT ME.g[].o TO ME.g[].i; ME.g[].go ();\n"
    printf "    REDUCTION ME.g[].v:isum INTO ME.r; END;\nEND TYPE;\nNet VAR net;\n"
    printf "PROCEDURE program () IS net.step (); REPLICATE net INTO 2; REPLICATE net INTO 1; pInt (net.r); END;\n" }' >"$out/deeparr.nn"
check nested-array-leaves sh -c "ulimit -v 400000 && timeout 10 '$CUPITC' -S --no-line '$out/deeparr.nn' -o '$out/deeparr.c' && [ \$(wc -c <'$out/deeparr.c') -lt 300000 ] && grep -q '((uint32_t)16777216), ((uint32_t)(sizeof(cp_int))), RT_F_I32}' '$out/deeparr.c' && grep -q '((uint32_t)16384), ((uint32_t)(sizeof(cp_int))), RT_F_REPEAT}' '$out/deeparr.c' && [ \$(grep -c 'RT_F_' '$out/deeparr.c') -lt 40 ]"

# what a loop may replicate is found once, not again at every enclosing
# loop: 1600 nested loops around REPLICATE and MERGE took 7 s, now 0.2 s;
# every test of the network's form is still decided
awk 'BEGIN { n = 1600
    printf "PROCEDURE pInt (Int CONST x) IS EXTERNAL;\nTYPE U IS NODE Int v := 1;\n  MERGE IS ME.v := ME.v + YOU.v; END;\n"
    printf "  PROCEDURE inc () IS ME.v := ME.v + 1; END;\nEND TYPE;\nTYPE G IS GROUP OF U END TYPE;\n"
    printf "TYPE Net IS NETWORK G g;\n  PROCEDURE build () IS EXTEND ME.g BY 2; END;\n  PROCEDURE step () IS ME.g[].inc (); END;\nEND TYPE;\n"
    printf "Net VAR net;\nPROCEDURE program () IS\n  Int VAR i := 0;\n  net.build ();\n"
    for (k = 0; k < n; k++) printf "  WHILE i < %d REPEAT REPLICATE net INTO 2; net.step (); MERGE net; REPLICATE net INTO 1;\n", k + 1
    printf "  net.step (); i := i + 1;\n"
    for (k = 0; k < n; k++) printf "  END;\n"
    printf "  pInt (i);\nEND;\n" }' >"$out/loops.nn"
check nested-loops-rep-state sh -c "timeout 5 '$CUPITC' --dump-passes -S '$out/loops.nn' -o '$out/loops.c' >'$out/loops.passes' 2>&1 && grep -q '^rep-state: cpF_program: 1602 run-time test' '$out/loops.passes'"

# make install: the installed compiler works from any directory
check install sh -c "make -s install PREFIX='$ROOT/$out/prefix' >/dev/null && cd / && '$ROOT/$out/prefix/bin/cupitc' '$ROOT/$prog' -o '$ROOT/$out/inst' && '$ROOT/$out/inst' | grep -q '^120 5'"
pfx=$ROOT/$out/prefix
# only the public headers; the pkg-config file builds EXTERNAL C code
check install-headers sh -c "[ -f '$pfx/include/cupit/cupit_stdlib.h' ] && [ ! -e '$pfx/include/cupit/rt_internal.h' ]"
pkgconfig_builds() {
    printf '#include <cupit_stdlib.h>\nvoid ext(void) { pInt(1); }\n' >"$out/pc.c"
    # shellcheck disable=SC2046
    cc -c $(PKG_CONFIG_PATH="$pfx/lib/pkgconfig" pkg-config --cflags cupit) "$out/pc.c" -o "$out/pc.o"
}
check install-pkgconfig pkgconfig_builds
check install-share sh -c "[ -f '$pfx/share/man/man1/cupitc.1' ] && [ -f '$pfx/share/doc/cupit/tutorial.md' ] && [ -f '$pfx/share/cupit/examples/backprop.nn' ] && [ -f '$pfx/share/cupit/editors/vim/syntax/cupit.vim' ]"
uninstalls() {
    make -s uninstall PREFIX="$pfx" >/dev/null && [ -z "$(find "$pfx" -type f)" ]
}
check uninstall uninstalls
# the man page names every option of --help; the editor files every keyword
man_options() {
    for o in $("$CUPITC" --help | grep -o -- '^  -[-A-Za-z0-9=]*' | sed -e 's/=.*//' -e 's/LIB$//' -e 's/DIR$//'); do
        pat=$(printf '%s' "$o" | sed 's/-/\\\\-/g')
        grep -q -- "$pat" docs/cupitc.1 || { echo "cupitc.1 lacks $o"; return 1; }
    done
}
check man-page-options man_options
editor_keywords() {
    for k in $(grep -o '^ *"[A-Z][A-Za-z0-9]*" *{ return TK_' grammar/lexer.re | grep -o '"[^"]*"' | tr -d '"'); do
        grep -qw "$k" editors/vim/syntax/cupit.vim || { echo "vim syntax lacks $k"; return 1; }
        grep -qw "$k" editors/vscode/syntaxes/cupit.tmLanguage.json || { echo "vscode grammar lacks $k"; return 1; }
    done
}
check editor-keywords editor_keywords
