#!/bin/sh
# suite-docs.sh -- the examples of the user documentation cannot rot.
#
# In every docs/*.md: a ```cupit block is a whole program; it must compile
# warning-free (-Wall -Werror).  Each line <!-- run: ARGS --> after it runs
# the program with ARGS (1 thread; in a folder of its own, which the runs of
# one program share, so a second run finds what the first saved; @ROOT@ in
# ARGS is the repository root), and the next ```output block is that run's
# exact standard output.  A ```c block is EXTERNAL
# C code compiled with the next ```cupit program.  A ```cupit-excerpt
# block (a piece shown while explaining) must appear verbatim in a ```cupit
# block of the same file.
set -u
suite=docs
. tests/tools/suite-env.sh

for md in docs/*.md; do
    base=$(basename "$md" .md)
    dir=$out/$base
    rm -rf "$dir"
    mkdir -p "$dir"
    awk -v dir="$dir" '
        function flush() { if (fd != "") close(fd); fd = "" }
        /^```cupit-excerpt[ \t]*$/ { ne++; fd = sprintf("%s/excerpt%d.txt", dir, ne); mode = "x"; next }
        /^```cupit[ \t]*$/ { np++; fd = sprintf("%s/prog%d.nn", dir, np); mode = "p"; next }
        /^```c[ \t]*$/ { fd = sprintf("%s/prog%d.c", dir, np + 1); mode = "c"; next }
        /^```output[ \t]*$/ { fd = sprintf("%s/prog%d.run%d.out", dir, np, nr[np]); mode = "o"; next }
        /^```/ && mode != "" { flush(); mode = ""; next }
        mode != "" { print > fd; next }
        /^<!-- run:.*-->[ \t]*$/ {
            a = $0; sub(/^<!-- run:[ \t]*/, "", a); sub(/[ \t]*-->[ \t]*$/, "", a)
            nr[np]++
            f = sprintf("%s/prog%d.run%d.args", dir, np, nr[np]); print a > f; close(f)
        }' "$md"
    [ -n "$(ls "$dir")" ] || continue
    cat "$dir"/prog*.nn >"$dir/all-programs" 2>/dev/null || : >"$dir/all-programs"
    for ex in "$dir"/excerpt*.txt; do
        [ -f "$ex" ] || continue
        n=$(basename "$ex" .txt)
        if awk 'NR == FNR { whole = whole $0 "\n"; next } { part = part $0 "\n" }
                END { exit index(whole, part) == 0 }' "$dir/all-programs" "$ex"; then
            echo "ok docs-$base-$n"
        else
            echo "FAIL docs-$base-$n: the excerpt is not part of any program of $md:"
            head -5 "$ex" | sed 's/^/    /'
        fi
    done
    for src in "$dir"/prog*.nn; do
        [ -f "$src" ] || continue
        n=$(basename "$src" .nn)
        exe=$ROOT/$dir/$n
        ext=""
        [ -f "$dir/$n.c" ] && ext="$dir/$n.c"
        # shellcheck disable=SC2086
        if ! "$CUPITC" -Wall -Werror "$src" $ext -o "$exe" >"$dir/$n.log" 2>&1; then
            echo "FAIL docs-$base-$n: does not compile warning-free"
            sed 's/^/    /' "$dir/$n.log" | head -10
            continue
        fi
        if [ ! -f "$dir/$n.run1.args" ]; then
            echo "ok docs-$base-$n (compiles)"
            continue
        fi
        mkdir -p "$dir/$n.work"
        k=1
        while [ -f "$dir/$n.run$k.args" ]; do
            args=$(sed "s|@ROOT@|$ROOT|g" "$dir/$n.run$k.args")
            # shellcheck disable=SC2086
            (cd "$dir/$n.work" && OMP_NUM_THREADS=1 timeout 60 "$exe" $args) \
                >"$dir/$n.run$k.stdout" 2>"$dir/$n.run$k.stderr"
            st=$?
            if [ "$st" -ne 0 ]; then
                echo "FAIL docs-$base-$n-run$k: exit status $st"
                sed 's/^/    /' "$dir/$n.run$k.stderr" | head -5
            elif [ -f "$dir/$n.run$k.out" ] &&
                 ! diff -u "$dir/$n.run$k.out" "$dir/$n.run$k.stdout" >"$dir/$n.diff"; then
                echo "FAIL docs-$base-$n-run$k: the output differs from the document's"
                head -10 "$dir/$n.diff"
            else
                echo "ok docs-$base-$n-run$k"
            fi
            k=$((k + 1))
        done
    done
done
