#!/bin/sh
# run-case.sh CUPITC FILE... -- one batch of the robustness run.
#
# Each FILE must be checked by `CUPITC -fsyntax-only` within 5 seconds, with
# exit status 0 or 1 and no sanitizer report; an accepted file must also
# dump (--dump-parse).  Prints "FAIL FILE reason" per bad case.
cupitc=$1
shift
for f in "$@"; do
    timeout 5 "$cupitc" -fsyntax-only "$f" >/dev/null 2>"$f.err"
    status=$?
    if [ "$status" -eq 0 ]; then
        timeout 5 "$cupitc" --dump-parse "$f" >/dev/null 2>>"$f.err"
        dump=$?
        [ "$dump" -eq 0 ] || status=$dump
    fi
    # the quoted source lines of diagnostics start with a blank: text of
    # the input (a comment saying "internal error") is no report
    if grep -v '^ ' "$f.err" | grep -q -e 'ERROR: AddressSanitizer' -e 'ERROR: LeakSanitizer' \
            -e ': runtime error: ' -e 'internal error'; then
        echo "FAIL $f sanitizer report or internal error"
    elif [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
        echo "FAIL $f timed out"
    elif [ "$status" -ne 0 ] && [ "$status" -ne 1 ]; then
        echo "FAIL $f exit status $status"
    else
        rm -f "$f.err"
    fi
done
