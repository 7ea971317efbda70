#!/bin/sh
# check-one.sh -- the differential check of one CuPit program; shared by
# diff-run.sh (every program) and reduce.sh (every candidate).
#
#   check-one.sh [-r RUNS] [-t SECS] [-d WORKDIR] FILE.nn
#
# Compiles FILE.nn with each compiler variant named in RUNS, runs the
# binaries and compares them.  RUNS is a list of VARIANT:THREADS; the first
# is the reference every other run is compared with (default: $CHECK_RUNS or
# the list below, reference -O0 with 1 thread).  Variants:
#
#   O0         -O0 --portable       (C -O0, lane plan off as with -fno-fuse,
#                                   generic code for the architecture)
#   default    no flags             (C -O2)
#   no-lanes   --no-lanes           (C -O2)
#   no-fuse    -fno-fuse            (C -O2)
#   no-pass    -fno-PASS            (C -O2; PASS is one of the other IR passes,
#                                   chosen by the program's checksum, so that
#                                   over many programs each pass runs off)
#   no-openmp  --no-openmp          (serial build, C -O2)
#   native     -O3                  (host-tuned, like every build without
#                                   --portable)
#   par        the default build run with --par-work 1 (every parallel
#              loop of the generated code really runs in parallel: the
#              default thresholds keep small programs serial)
#
# A variant whose generated C (cupitc -S with its flags) is byte-identical
# to an earlier variant's and whose C compiler flags are the same (default,
# no-lanes, no-fuse, no-pass and par all use -O2) reuses that binary, and a
# run of the same binary with the same thread count and options reuses that
# run's result.
#
# Prints one line, "CLASS [DETAIL...]", and exits 0 for ok, 1 otherwise:
#   ok
#   rejected VARIANT    cupitc reports errors in the program (generator or
#                       front-end bug)
#   internal VARIANT    cupitc died by a signal, said "internal error" (other
#                       than the C compiler failing), or hung
#   cc-fail VARIANT     the C compiler failed on the generated code
#   crash V:T...        a generated program died by a signal
#   timeout V:T...      a generated program ran past SECS (default 10)
#   mismatch V:T...     these runs differ from the reference in stdout,
#                       stderr or exit status
# A program whose last comment starts with a line "(* C code of the EXTERNAL
# subroutines" has the C code of its EXTERNAL subroutines in the lines up
# to the "*)" line: it is written to ext.c and given to every cupitc call.
# WORKDIR (default: a temporary directory, removed) keeps prog.nn, the C,
# binaries and outputs of every variant, "log" (the error messages or the
# diffs) and "sig" (the first error line with positions removed; reduce.sh
# keeps it equal while shrinking).
# Environment: CUPITC (default build/bin/cupitc), CHECK_CC_TIMEOUT (cupitc
# time limit per call, default 120 s).
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
: "${CUPITC:=$ROOT/build/bin/cupitc}"
case $CUPITC in /*) ;; */*) CUPITC=$(pwd)/$CUPITC ;; esac
DEFAULT_RUNS="O0:1 O0:2 default:1 default:2 no-lanes:1 no-lanes:2 no-fuse:1 no-fuse:2 no-pass:1 no-pass:2 no-openmp:1 native:1 native:2 par:2"
# the passes the no-pass variant turns off, one per program (fuse has its
# own variant); `cupitc --help` lists them all
OTHER_PASSES="dce shared merge-first batch rep-state vsum dense drop-fields const-branch"
runs=${CHECK_RUNS:-$DEFAULT_RUNS}
secs=10
work=""
: "${CHECK_CC_TIMEOUT:=120}"
while [ $# -gt 0 ]; do
    case $1 in
        -r) runs=$2; shift 2 ;;
        -t) secs=$2; shift 2 ;;
        -d) work=$2; shift 2 ;;
        -*) echo "usage: check-one.sh [-r RUNS] [-t SECS] [-d WORKDIR] FILE.nn" >&2; exit 2 ;;
        *) break ;;
    esac
done
[ $# -eq 1 ] || { echo "usage: check-one.sh [-r RUNS] [-t SECS] [-d WORKDIR] FILE.nn" >&2; exit 2; }
src=$1
[ -r "$src" ] || { echo "check-one.sh: cannot read $src" >&2; exit 2; }
export NO_COLOR=1 CUPIT_PROTOCOL='' OMP_WAIT_POLICY=passive
unset OMP_NUM_THREADS

if [ -n "$work" ]; then
    rm -rf "$work"; mkdir -p "$work" || exit 2
    cleanup=""
else
    work=$(mktemp -d "${TMPDIR:-/tmp}/check-one.XXXXXX") || exit 2
    cleanup=$work
fi
[ -n "$cleanup" ] && trap 'rm -rf "$cleanup"' EXIT
cp "$src" "$work/prog.nn" || exit 2
cd "$work" || exit 2
: >log
: >sig
# EXTERNAL subroutines that the program carries in C in its last comment
# ("(* C code of the EXTERNAL subroutines" ... "*)"): compiled with it
ext=""
if grep -q '^(\* C code of the EXTERNAL subroutines' prog.nn; then
    sed -n '/^(\* C code of the EXTERNAL subroutines/,/^\*)/p' prog.nn | sed '1d;$d' >ext.c
    ext=ext.c
fi

# The pass the no-pass variant turns off for this program ($CHECK_OFF_PASS
# pins it: the reducer keeps the one of the program it started from).
off_pass() {
    [ -n "${CHECK_OFF_PASS:-}" ] && { echo "$CHECK_OFF_PASS"; return; }
    n=$(cksum <prog.nn | cut -d' ' -f1)
    set -- $OTHER_PASSES
    shift $((n % $#))
    echo "$1"
}
off_pass >off-pass
flags_of() { # variant -> cupitc flags
    case $1 in
        O0) echo "-O0 --portable" ;;
        default) echo "" ;;
        no-lanes) echo "--no-lanes" ;;
        no-fuse) echo "-fno-fuse" ;;
        no-pass) echo "-fno-$(off_pass)" ;;
        no-openmp) echo "--no-openmp" ;;
        native) echo "-O3" ;;
        par) echo "" ;;
        *) echo "check-one.sh: unknown variant '$1'" >&2; exit 2 ;;
    esac
}
ccclass_of() { # variants that may share a binary when their C is identical
    case $1 in
        default|no-lanes|no-fuse|no-pass|par) echo O2 ;;
        *) echo "$1" ;;
    esac
}
args_of() { # variant -> options of the generated program's runs
    case $1 in
        par) echo "--par-work 1" ;;
        *) echo "" ;;
    esac
}
describe() { # V:T -> "V, T thread(s)"
    v=${1%%:*} t=${1#*:}
    [ "$v" = no-pass ] && v="no-pass -fno-$(off_pass)"
    [ "$v" = no-openmp ] && { echo "$v"; return; }
    [ "$t" = 1 ] && echo "$v, 1 thread" || echo "$v, $t threads"
}
finish() { # class detail
    if [ -n "$2" ]; then echo "$1 $2"; else echo "$1"; fi
    [ "$1" = ok ]
    exit $?
}
# First line of FILE that matches the awk pattern, positions removed.
first_line() { # file ere
    awk -v re="$2" '$0 ~ re { print; exit }' "$1" |
        sed -e 's/prog\.nn:[0-9][0-9]*\(:[0-9][0-9]*\)*//g' \
            -e 's/^[^ :]*\.c:[0-9][0-9]*:\([0-9][0-9]*:\)* *//' \
            -e 's/line [0-9][0-9]*/line N/g'
}
# Classify a failed cupitc call: prints rejected, internal or cc-fail.
compile_failure() { # status stderr-file
    if [ "$1" -eq 124 ] || [ "$1" -eq 137 ]; then
        echo "cupitc timed out after ${CHECK_CC_TIMEOUT}s" >>"$2"
        echo "cupitc timed out" >sig
        echo internal
    elif grep -q -e 'C compiler failed on the code generated' -e 'C compiler failed on the generated code' -e "error: linking '.*' failed" "$2"; then
        # the C compiler's own first error, else its first line
        s=$(first_line "$2" 'error')
        [ -z "$s" ] && s=$(first_line "$2" '.')
        echo "$s" >sig
        echo cc-fail
    elif [ "$1" -gt 128 ] || grep -q 'internal error' "$2"; then
        s=$(first_line "$2" 'internal error')
        [ -z "$s" ] && s="cupitc killed by signal $(($1 - 128))"
        echo "$s" >sig
        echo internal
    else
        first_line "$2" 'error' >sig
        echo rejected
    fi
}

# ---- distinct variants, in order of first use
variants=""
for r in $runs; do
    v=${r%%:*}
    case " $variants " in *" $v "*) ;; *) variants="$variants $v" ;; esac
    flags_of "$v" >/dev/null || exit 2
done

# ---- generate C for every variant; reuse binaries where C and cc flags agree
keys=""
for v in $variants; do
    flags=$(flags_of "$v")
    # shellcheck disable=SC2086
    timeout -k 5 "$CHECK_CC_TIMEOUT" "$CUPITC" -S $flags prog.nn $ext -o "$v.c" >"$v.S.err" 2>&1
    st=$?
    if [ "$st" -ne 0 ]; then
        class=$(compile_failure "$st" "$v.S.err")
        { echo "== cupitc -S $flags prog.nn: exit status $st"; cat "$v.S.err"; } >>log
        finish "$class" "$v"
    fi
    key="$(sha256sum <"$v.c" | cut -c1-16)-$(ccclass_of "$v")"
    same=$(printf '%s' "$keys" | awk -v k="$key" '$1 == k { print $2; exit }')
    if [ -n "$same" ]; then
        echo "$same" >"$v.bin"
        continue
    fi
    # shellcheck disable=SC2086
    timeout -k 5 "$CHECK_CC_TIMEOUT" "$CUPITC" $flags prog.nn $ext -o "$v.exe" >"$v.cc.err" 2>&1
    st=$?
    if [ "$st" -ne 0 ]; then
        class=$(compile_failure "$st" "$v.cc.err")
        [ "$class" = rejected ] && class=cc-fail  # -S passed: the C step failed
        { echo "== cupitc $flags prog.nn: exit status $st"; cat "$v.cc.err"; } >>log
        finish "$class" "$v"
    fi
    echo "$v" >"$v.bin"
    keys="$keys$key $v
"
done

# ---- run; a binary already run with the same thread count is not run again
crashed="" timedout=""
for r in $runs; do
    v=${r%%:*} t=${r#*:}
    b=$(cat "$v.bin")
    [ "$b" = no-openmp ] && t=1
    a=$(args_of "$v")
    id="$b${a:+.par}.t$t"
    echo "$id" >"run.$r.id"
    [ -f "$id.status" ] && continue
    # shellcheck disable=SC2086
    OMP_NUM_THREADS=$t timeout -k 2 "$secs" "./$b.exe" $a >"$id.out" 2>"$id.err" </dev/null
    st=$?
    echo "$st" >"$id.status"
    if [ "$st" -eq 124 ] || [ "$st" -eq 137 ]; then
        timedout="$timedout $r"
        echo "== $(describe "$r"): timed out after ${secs}s" >>log
    elif [ "$st" -gt 128 ]; then
        crashed="$crashed $r"
        { echo "== $(describe "$r"): killed by signal $((st - 128))"; tail -n 20 "$id.err"; } >>log
    fi
done
if [ -n "$crashed" ]; then
    set -- $crashed; echo "signal $(($(cat "$(cat "run.$1.id").status") - 128))" >sig
    finish crash "$*"
fi
if [ -n "$timedout" ]; then
    set -- $timedout; finish timeout "$*"
fi

# ---- compare every run with the reference
set -- $runs
ref=$1
rid=$(cat "run.$ref.id")
differ=""
for r in $runs; do
    id=$(cat "run.$r.id")
    [ "$id" = "$rid" ] && continue
    bad=""
    cmp -s "$rid.status" "$id.status" || bad="$bad status"
    cmp -s "$rid.out" "$id.out" || bad="$bad stdout"
    cmp -s "$rid.err" "$id.err" || bad="$bad stderr"
    [ -z "$bad" ] && continue
    differ="$differ $r"
    {
        echo "== $(describe "$r") differs from the reference ($(describe "$ref")) in:$bad"
        case $bad in *status*) echo "exit status $(cat "$id.status"), reference $(cat "$rid.status")" ;; esac
        case $bad in *stdout*) diff -u --label "stdout ($(describe "$ref"))" --label "stdout ($(describe "$r"))" \
                                   "$rid.out" "$id.out" | head -n 60 ;; esac
        case $bad in *stderr*) diff -u --label "stderr ($(describe "$ref"))" --label "stderr ($(describe "$r"))" \
                                   "$rid.err" "$id.err" | head -n 30 ;; esac
    } >>log
done
[ -n "$differ" ] && { set -- $differ; finish mismatch "$*"; }
finish ok ""
