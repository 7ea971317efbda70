#!/bin/sh
# selftest.sh -- the differential check must see a miscompilation: a cupitc
# wrapper that changes the program for --no-lanes only must give a
# mismatch, and an unchanged one must pass.
set -u
: "${CUPITC:=build/bin/cupitc}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
real=$(cd "$(dirname "$CUPITC")" && pwd)/$(basename "$CUPITC")
cat >"$work/wrap" <<WRAP
#!/bin/sh
# --no-lanes builds a program that prints one more line
case " \$* " in *" --no-lanes "*)
    for a; do case \$a in *.nn) sed "s/^PROCEDURE program () IS\$/PROCEDURE program () IS pString (\\"x\\");/" "\$a" >"$work/x.nn";; esac; done
    set -- \$(for a; do case \$a in *.nn) echo "$work/x.nn";; *) echo "\$a";; esac; done) ;;
esac
exec "$real" "\$@"
WRAP
chmod +x "$work/wrap"
prog=tests/gen/selftest.nn
line=$(CUPITC=$real sh tests/gen/check-one.sh "$prog" "$work/a" nolanes)
[ "$line" = ok ] || { echo "FAIL gen-selftest: the plain check fails: $line"; exit 0; }
line=$(CUPITC="$work/wrap" sh tests/gen/check-one.sh "$prog" "$work/b" nolanes)
case $line in
mismatch\ nolanes*) echo "ok gen-selftest" ;;
*) echo "FAIL gen-selftest: a changed --no-lanes build was not seen: $line" ;;
esac
