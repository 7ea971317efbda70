#!/bin/sh
# fake-cupitc.sh -- a deliberately broken cupitc, for selftest.sh.
#
#   REAL_CUPITC=build/bin/cupitc FAKE_BUG=BUG fake-cupitc.sh ARGS...
#
# Behaves like $REAL_CUPITC except for one variant, where BUG is
#   mismatch  --no-lanes builds print "4" for every "3" of the real output
#             (and -S adds a comment, so that its C differs from the default's)
#   crash     -O3 builds die by SIGSEGV when the output has a "3"
#   timeout   --no-openmp builds hang when the output has a "3"
#   internal  -fno-fuse: cupitc aborts with an internal error when the
#             program contains a "5"
#   cc-fail   --no-openmp: the C compiler "fails" when the program
#             contains a "5"
#   none      no bug
set -u
real=${REAL_CUPITC:?REAL_CUPITC must name the real cupitc}
bug=${FAKE_BUG:-none}
out=a.out src="" emit=0 flags=" " prev=""
for a; do
    [ "$prev" = -o ] && out=$a
    case $a in
        -S) emit=1 ;;
        -fsyntax-only|--dump-*) exec "$real" "$@" ;;
        *.nn) src=$a ;;
    esac
    flags="$flags$a "
    prev=$a
done
has() { case $flags in *" $1 "*) return 0 ;; esac; return 1; }
wrap_binary() { # filter-script: build the real program as OUT.real, OUT runs it
    for a; do shift; [ "$a" = "$out" ] && a=$out.real; set -- "$@" "$a"; done
    "$real" "$@" || exit $?
    { echo '#!/bin/sh'; echo '"$0.real" "$@" >"$0.o"; st=$?'; echo "$filter"; echo 'exit $st'; } >"$out"
    chmod +x "$out"
    exit 0
}
case $bug in
    mismatch) if has --no-lanes; then
                  if [ "$emit" = 1 ]; then "$real" "$@" || exit $?; echo "/* fake */" >>"$out"; exit 0; fi
                  filter='sed "s/3/4/g" "$0.o"'; wrap_binary "$@"
              fi ;;
    crash)    if has -O3 && [ "$emit" = 0 ]; then
                  filter='cat "$0.o"; grep -q 3 "$0.o" && kill -s SEGV $$'; wrap_binary "$@"
              fi ;;
    timeout)  if has --no-openmp && [ "$emit" = 0 ]; then
                  filter='cat "$0.o"; grep -q 3 "$0.o" && exec sleep 60'; wrap_binary "$@"
              fi ;;
    internal) if has -fno-fuse && grep -q 5 "$src"; then
                  echo "cupitc: internal error at src/fake.c:7: fake failure" >&2
                  kill -s ABRT $$
              fi ;;
    cc-fail)  if has --no-openmp && [ "$emit" = 0 ] && grep -q 5 "$src"; then
                  echo "prog.c:$(wc -l <"$src"):5: error: fake error in generated code" >&2
                  echo "cupitc: internal error: the C compiler failed on the code generated for 'prog.nn'. This is a bug of cupitc: please report it with the program. Command was:" >&2
                  echo "  cc -O2 prog.c" >&2
                  exit 1
              fi ;;
esac
exec "$real" "$@"
