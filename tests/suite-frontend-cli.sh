#!/bin/sh
# suite-frontend-cli.sh -- the driver's front-end options and exit statuses:
# 0 success, 1 errors in the input, 2 usage errors.
set -u
: "${CUPITC:=build/bin/cupitc}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export NO_COLOR=1

# expect NAME STATUS PATTERN-IN-OUTPUT ARGS...: stdout and stderr together
expect() {
    name=$1 want=$2 pattern=$3
    shift 3
    "$CUPITC" "$@" >"$tmp/out" 2>&1
    status=$?
    if [ "$status" -ne "$want" ]; then
        echo "FAIL cli/$name: exit status $status, want $want"
        head -n 5 "$tmp/out"
    elif [ -n "$pattern" ] && ! grep -q -e "$pattern" "$tmp/out"; then
        echo "FAIL cli/$name: output lacks '$pattern'"
        head -n 5 "$tmp/out"
    else
        echo "ok cli/$name"
    fi
}

expect help 0 '--dump-parse' --help
expect version 0 '^cupitc [0-9]' --version
expect unknown-option 2 "unknown option '--bogus'" --bogus tests/parse/data.nn
expect program-option 2 "unknown option '--threads': it is an option of the compiled program" \
    tests/parse/data.nn --threads 2
expect no-input 2 'no input file' -fsyntax-only
expect bad-error-limit 2 "invalid value in '-ferror-limit=x'" -ferror-limit=x tests/parse/data.nn
expect missing-o-argument 2 "missing argument after '-o'" tests/parse/data.nn -o
expect two-inputs 2 'more than one CuPit source file' tests/parse/data.nn tests/parse/types.nn
expect missing-file 1 "cannot read '$tmp/none.nn': No such file or directory" -fsyntax-only "$tmp/none.nn"
expect directory 1 "cannot read 'tests': Is a directory" -fsyntax-only tests
expect missing-suffix 1 "cannot read 'tests/parse/data': No such file or directory (did you mean 'tests/parse/data.nn'?)" \
    -fsyntax-only tests/parse/data
# -fsyntax-only also runs semantic analysis, so the good files are legal programs
expect syntax-ok 0 '' -fsyntax-only tests/sema/all-constructs.nn
expect syntax-error 1 'error: expected' -fsyntax-only tests/errors/s05-missing-semicolon.nn
expect dump-parse 0 '^  procedure program @2:1' --dump-parse tests/parse/statements.nn

# an empty diagnostic stream for a good file
"$CUPITC" -fsyntax-only tests/sema/dump-types.nn >"$tmp/out" 2>&1
if [ -s "$tmp/out" ]; then echo "FAIL cli/quiet-when-ok: output on a good file"; else echo "ok cli/quiet-when-ok"; fi

# --dump-parse prints nothing to stdout when the input has errors
"$CUPITC" --dump-parse tests/errors/s05-missing-semicolon.nn >"$tmp/out" 2>/dev/null
if [ $? -eq 1 ] && [ ! -s "$tmp/out" ]; then echo "ok cli/no-dump-on-error"; else echo "FAIL cli/no-dump-on-error"; fi

# -ferror-limit: the first N errors, then one note; 0 means no limit
"$CUPITC" -ferror-limit=2 -fsyntax-only tests/errors/syn-multiple-errors.nn >"$tmp/out" 2>&1
errors=$(grep -c ': error: ' "$tmp/out")
notes=$(grep -c 'note: too many errors emitted, stopping now (-ferror-limit=2)' "$tmp/out")
if [ "$errors" -eq 2 ] && [ "$notes" -eq 1 ]; then echo "ok cli/error-limit"; else
    echo "FAIL cli/error-limit: $errors errors, $notes notes"; fi
"$CUPITC" -ferror-limit=0 -fsyntax-only tests/errors/syn-multiple-errors.nn >"$tmp/out" 2>&1
errors=$(grep -c ': error: ' "$tmp/out")
if [ "$errors" -eq 7 ] && ! grep -q 'too many' "$tmp/out"; then echo "ok cli/no-error-limit"; else
    echo "FAIL cli/no-error-limit: $errors errors"; fi

# a 200000-term operator chain: one clear error, and the dump does not crash
awk 'BEGIN { printf "PROCEDURE program () IS Int VAR x; x := x"; for (i = 0; i < 200000; i++) printf " + x"; print "; END;" }' >"$tmp/long.nn"
"$CUPITC" -fsyntax-only "$tmp/long.nn" >"$tmp/out" 2>&1
st=$?
if [ $st -eq 1 ] && grep -q 'expression too long or nested too deeply' "$tmp/out" && [ "$(wc -c <"$tmp/out")" -lt 2000 ]; then
    echo "ok cli/long-chain"; else echo "FAIL cli/long-chain: status $st, $(wc -c <"$tmp/out") bytes of diagnostics"; fi
"$CUPITC" --dump-parse "$tmp/long.nn" >"$tmp/out" 2>&1
st=$?
if [ $st -eq 0 ] && grep -q 'not shown' "$tmp/out"; then echo "ok cli/long-chain-dump"; else
    echo "FAIL cli/long-chain-dump: status $st"; fi

# output that cannot be written is an error (status 1 and a message), never
# a silent success: a full device, a closed standard output
if [ -c /dev/full ]; then
    for o in --dump-ast --dump-ir --dump-passes --dump-parse; do
        "$CUPITC" "$o" examples/backprop.nn >/dev/full 2>"$tmp/out"
        st=$?
        if [ $st -eq 1 ] && grep -q 'cannot write to standard output: No space left on device' "$tmp/out"; then
            echo "ok cli/full$o"; else echo "FAIL cli/full$o: status $st"; fi
    done
    for o in --help --version; do
        "$CUPITC" "$o" >/dev/full 2>"$tmp/out"
        st=$?
        if [ $st -ne 0 ] && grep -q 'cannot write to standard output' "$tmp/out"; then
            echo "ok cli/full$o"; else echo "FAIL cli/full$o: status $st"; fi
    done
fi
"$CUPITC" --version >&- 2>"$tmp/out"
st=$?
if [ $st -ne 0 ] && grep -q 'cannot write to standard output' "$tmp/out"; then
    echo "ok cli/closed-stdout"; else echo "FAIL cli/closed-stdout: status $st"; fi
# nothing written, nothing to report: -fsyntax-only with a closed stdout
if "$CUPITC" -fsyntax-only tests/run/control.nn >&- 2>/dev/null; then
    echo "ok cli/closed-stdout-unused"; else echo "FAIL cli/closed-stdout-unused"; fi

# an endless or huge source is refused at the documented limit, before
# memory runs out; standard input is named <stdin>, as in every message
expect endless-source 1 "cannot read '/dev/zero': it is larger than 128 MiB" -fsyntax-only /dev/zero
"$CUPITC" -fsyntax-only - </dev/zero >"$tmp/out" 2>&1
st=$?
if [ $st -eq 1 ] && grep -q "cannot read '<stdin>': it is larger than 128 MiB" "$tmp/out"; then
    echo "ok cli/endless-stdin"; else echo "FAIL cli/endless-stdin: status $st"; head -3 "$tmp/out"; fi
"$CUPITC" -fsyntax-only - <&- >"$tmp/out" 2>&1
st=$?
if [ $st -eq 1 ] && grep -q "cannot read '<stdin>'" "$tmp/out"; then
    echo "ok cli/unreadable-stdin"; else echo "FAIL cli/unreadable-stdin: status $st"; head -3 "$tmp/out"; fi
if truncate -s 200M "$tmp/big.nn" 2>/dev/null; then
    expect huge-file 1 "it is larger than 128 MiB, the largest source cupitc reads" -fsyntax-only "$tmp/big.nn"
fi
