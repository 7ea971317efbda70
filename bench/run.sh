#!/bin/sh
# run.sh -- the benchmark harness: full-batch RPROP training of an
# n_in-H-n_out sigmoid perceptron by the cupitc-compiled backprop.nn, FANN,
# PyTorch and two hand-written C references, side by side (bench/README.md).
#
#   sh bench/run.sh [main|scaling|pruning|accuracy|all]   `make bench`: main
#   BENCH_QUICK=1 sh bench/run.sh                    one tiny configuration
#
# Writes bench/results/latest.{md,csv} (main), scaling.{md,csv} and
# pruning.{md,csv}; the quick run writes $BUILD/bench/results/quick.*.
# A missing system is skipped with a message.  Numbers never fail the run.

# Word lists such as $SYSTEMS are split on purpose; suites are called by name.
# shellcheck disable=SC2086,SC2317
set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 1
: "${BUILD:=build}" "${CC:=cc}"
B=$BUILD/bench                       # programs, generated data, logs
BIN=$B/bin
LOG=$B/log
DATA=${BENCH_DATA:-$ROOT/../shared/data}
CUPITC=${CUPITC:-$BUILD/bin/cupitc}
CUPIT_SOURCE=${BENCH_CUPIT_SOURCE:-examples/backprop.nn}
SYSTEMS=${BENCH_SYSTEMS:-cupitc cupitc-inbias cupitc-typed cupitc-mode cupitc-report c-loop c-blas fann torch}
WORK=${BENCH_WORK:-2e9}              # connection updates per run -> epochs
RUN_TIMEOUT=${BENCH_TIMEOUT:-300}    # seconds per single run
# Idle OpenMP threads sleep instead of spinning: on a 2-core machine that
# anything else uses, spinning threads stall the thread they wait for.
# OpenMP's own wait policy unless the caller sets one (passive helps on a
# machine that also runs other work; on a quiet one it costs every program
# with short parallel regions a wake-up per region).
if [ -n "${OMP_WAIT_POLICY:-}" ]; then export OMP_WAIT_POLICY; fi
CFLAGS_BENCH="-std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -O2 -fopenmp"
CSV_HEADER=suite,data,hidden,threads,system,pruned,conns,examples,epochs,sec_epoch,mcups,train_mse,test_acc,test_mse,peak_rss_kb,cupitc_ratio,note

say() { printf 'bench: %s\n' "$*" >&2; }

# The per-suite settings, reset before every suite (a suite may change them).
set_defaults() {
    THREADS=${BENCH_THREADS:-1 2}
    EMIN=${BENCH_MIN_EPOCHS:-10}
    EMAX=${BENCH_MAX_EPOCHS:-200}
    WARMUP=${BENCH_WARMUP:-2}
    REPEAT=${BENCH_REPEAT:-3}        # rounds per configuration, median kept
}

# ---- building the programs ----------------------------------------------------

# build_c NAME [LIBS...]: bench/src/NAME.c -> $BIN/NAME; a failure leaves the
# reason in $B/why/NAME and the system is skipped.
build_c() {
    name=$1; shift
    rm -f "$BIN/$name" "$B/why/$name"
    if $CC $CFLAGS_BENCH -o "$BIN/$name" "bench/src/$name.c" "$B/bench_common.o" "$@" -lm \
        >"$LOG/build-$name.log" 2>&1; then
        return 0
    fi
    printf '%s\n' "cannot build bench/src/$name.c: $(head -n 1 "$LOG/build-$name.log")" >"$B/why/$name"
    return 1
}

find_torch_python() {
    for py in ${PYTHON:-} python3 /usr/bin/python3; do
        if "$py" -c 'import torch' >/dev/null 2>&1; then
            echo "$py"
            return 0
        fi
    done
    return 1
}

build_all() {
    mkdir -p "$BIN" "$LOG" "$B/why" "$B/data" "$B/weights" "$B/results" bench/results
    rm -f "$B/why/"*
    if ! $CC $CFLAGS_BENCH -c -o "$B/bench_common.o" bench/src/bench_common.c >"$LOG/build-common.log" 2>&1; then
        say "cannot build bench/src/bench_common.c:"; cat "$LOG/build-common.log" >&2
        exit 1
    fi
    build_c bench_tool || { cat "$B/why/bench_tool" >&2; exit 1; }
    build_c ref_loop
    build_c ref_sparse
    build_c ref_blas -lopenblas
    build_c peer_fann -lfloatfann
    rm -f "$BIN/runstat"
    $CC -std=c11 -D_DEFAULT_SOURCE -O2 -o "$BIN/runstat" bench/src/runstat.c >"$LOG/build-runstat.log" 2>&1
    PY=$(find_torch_python) || PY=""
    [ -n "$PY" ] || echo "python3 with torch not found (scripts/setup.sh bench installs python3-torch)" >"$B/why/torch"
    for tr in $CUPITC_TRAINERS; do
        case " $SYSTEMS " in *" $tr "*) ;; *) continue ;; esac
        if why=$(cupitc_build "$tr"); then :; else echo "$why" >"$B/why/$tr"; fi
    done
}

# ---- cupitc adapter -----------------------------------------------------------
# The only code that knows the cupitc-generated trainers.  Five trainers of
# the same job in different styles (bench/README.md, "The cupitc trainers"),
# each built with the default command a user types:
#   cupitc SOURCE -o EXE
#   cupitc         examples/backprop.nn              (the project's trainer)
#   cupitc-inbias  bench/trainers/rprop-inbias.nn    (bias node in the input
#                  group, net.p (), sigmoidPrime, Bool CONST, INTO 1...n)
#   cupitc-typed   bench/trainers/rprop-typed.nn     (a type per layer, node
#                  ARRAY bias, INTO 32, network-level error sums)
#   cupitc-mode    bench/trainers/rprop-mode.nn      (as inbias, but an Int
#                  CONST layer parameter and a local before each sum)
#   cupitc-report  ../shared/report-examples/backprop.nn, unchanged (its
#                  hidden size through --set hidden=H, REPLICATE INTO
#                  nrOfExamples, its own pruning every 10 epochs, no test)
# The first four run as
#   EXE --data TRAIN --data Test=TEST --param hidden=H --param epochs=E --threads T
# and print "epoch N error E errors M" per epoch (E: the sum over examples
# and outputs of 0.5 * (t - y)^2, logistic units as for the peers) and
# "test accuracy: P% (...)" at the end; the report's program runs as
#   EXE --data TRAIN --set hidden=H --max-epochs E --threads T

CUPITC_FLAGS=${BENCH_CUPITC_FLAGS:-}
CUPIT_PROTOCOL=      # no protocol files from the trainer
export CUPIT_PROTOCOL
CUPITC_TRAINERS="cupitc cupitc-inbias cupitc-typed cupitc-mode cupitc-report"

# cupitc_source SYS: the CuPit program of trainer SYS
cupitc_source() {
    case $1 in
        cupitc)        echo "$CUPIT_SOURCE" ;;
        cupitc-inbias) echo bench/trainers/rprop-inbias.nn ;;
        cupitc-typed)  echo bench/trainers/rprop-typed.nn ;;
        cupitc-mode)   echo bench/trainers/rprop-mode.nn ;;
        cupitc-report) echo "${BENCH_REPORT_SOURCE:-$ROOT/../shared/report-examples/backprop.nn}" ;;
    esac
}

# cupitc_build SYS: $BIN/cupit-SYS, or a message why not (status 1)
cupitc_build() {
    src=$(cupitc_source "$1")
    rm -f "$BIN/cupit-$1"
    [ -x "$CUPITC" ] || { echo "no compiler at $CUPITC (run make)"; return 1; }
    [ -f "$src" ] || { echo "$src is missing"; return 1; }
    [ -x "$BIN/runstat" ] || { echo "cannot build bench/src/runstat.c"; return 1; }
    # shellcheck disable=SC2086
    if "$CUPITC" $CUPITC_FLAGS "$src" -o "$BIN/cupit-$1" >"$LOG/$1-build.log" 2>&1 &&
        [ -x "$BIN/cupit-$1" ]; then
        return 0
    fi
    echo "cupitc cannot compile $src ($(head -n 1 "$LOG/$1-build.log"))"
    return 1
}

# cupitc_run SYS LABEL TRAIN TEST HIDDEN THREADS EPOCHS [PRUNE]: prints a
# RESULT line.  Connections: (n_in + 1) * H + (H + 1) * n_out (a bias unit
# feeds every hidden and output unit), as for the peers, or the count the
# program prints after deleting the share PRUNE of them (smallest start
# weights, --param prune, examples/backprop.nn only).  The report's
# program keeps its biases in the units: n_in * H + H * n_out connections.
cupitc_run() {
    sys=$1; shift
    stamps=$LOG/$sys-out-$1-$4-$5-${7:-0}.log
    test=${3:-$2}
    if [ "$sys" = cupitc-report ]; then
        OMP_NUM_THREADS=$5 with_timeout "$BIN/runstat" "$BIN/cupit-$sys" --data "$2" \
            --set "hidden=$4" --max-epochs "$6" --threads "$5" \
            $([ -n "$RUN_SEED" ] && echo --seed "$RUN_SEED") >"$stamps" 2>&1
    else
        # shellcheck disable=SC2046
        OMP_NUM_THREADS=$5 with_timeout "$BIN/runstat" "$BIN/cupit-$sys" --data "$2" \
            --data "Test=$test" --param "hidden=$4" --param "epochs=$6" --threads "$5" \
            $([ "$sys" = cupitc ] && echo --param "prune=${7:-0}") \
            $([ -n "$RUN_SEED" ] && echo --seed "$RUN_SEED") >"$stamps" 2>&1
    fi
    head -n 1 "$2" | awk -v sys="$sys" -v label="$1" -v h="$4" -v t="$5" -v warm="$WARMUP" -v stamps="$stamps" '
    { n = $1; n_in = $2; n_out = $3 }
    END {
        acc = "n/a"
        while ((getline line < stamps) > 0) {
            split(line, f, " ")
            if (f[1] == "RUSAGE") { rss = f[2]; sub(/.*=/, "", rss); st = f[3]; sub(/.*=/, "", st) }
            if (f[1] != "STAMP") continue
            text = line; sub(/^STAMP [^ ]* /, "", text)
            if (text ~ /^test accuracy: /) { a = text; sub(/^test accuracy: /, "", a); sub(/%.*/, "", a); acc = sprintf("%.4f", a / 100); continue }
            if (text ~ /^connections after pruning: /) { left = text; sub(/.*: /, "", left); continue }
            if (text !~ /^epoch [0-9]+ error /) continue
            split(text, e, " ")
            stamp[++m] = f[2]; err = e[4]
        }
        if (st != 0 || m < 2) { printf "FAIL exit status %s, %d epoch lines (see %s)\n", st, m, stamps; exit }
        k = 0
        for (i = (warm > 1 ? warm + 1 : 2); i <= m; i++) d[++k] = stamp[i] - stamp[i - 1]
        if (k == 0) for (i = 2; i <= m; i++) d[++k] = stamp[i] - stamp[i - 1]
        for (i = 2; i <= k; i++) { v = d[i]; for (j = i - 1; j >= 1 && d[j] > v; j--) d[j + 1] = d[j]; d[j + 1] = v }
        sec = k % 2 ? d[(k + 1) / 2] : (d[k / 2] + d[k / 2 + 1]) / 2
        dense = sys == "cupitc-report" ? n_in * h + h * n_out : (n_in + 1) * h + (h + 1) * n_out
        conns = left != "" ? left + 0 : dense
        printf "RESULT system=%s data=%s hidden=%d threads=%d conns=%d examples=%d epochs=%d ", sys, label, h, t, conns, n, m
        printf "sec_epoch=%.6g mcups=%.2f train_mse=%.6g test_acc=%s test_mse=n/a peak_rss_kb=%d ", sec, conns * n / sec / 1e6, 2 * err / (n * n_out), acc, rss
        printf "note=time from epoch-line stamps\n"
    }'
}

# ---- running one system ---------------------------------------------------------

with_timeout() {
    if command -v timeout >/dev/null 2>&1; then timeout "$RUN_TIMEOUT" "$@"; else "$@"; fi
}

# run_system SYS LABEL TRAIN TEST HIDDEN THREADS EPOCHS PRUNE: prints the
# system's RESULT line, or "SKIP reason", or "FAIL reason".
run_system() {
    sys=$1 label=$2 train=$3 test=$4 h=$5 t=$6 e=$7 pr=$8
    set -- --train "$train" --label "$label" --hidden "$h" --threads "$t" --epochs "$e" --warmup "$WARMUP" \
        --seed "${RUN_SEED:-1}"
    [ -n "$test" ] && set -- "$@" --test "$test"
    case $sys in
        c-loop)   prog=ref_loop ;;
        c-blas)   prog=ref_blas ;;
        c-sparse) prog=ref_sparse; set -- "$@" --prune "$pr" ;;
        fann)     prog=peer_fann; [ "$pr" = 0 ] || set -- "$@" --prune "$pr" ;;
        torch)    prog=torch ;;
        cupitc|cupitc-*) prog=$sys ;;
        *)        echo "SKIP unknown system"; return ;;
    esac
    if [ -f "$B/why/$prog" ]; then echo "SKIP $(cat "$B/why/$prog")"; return; fi
    log=$LOG/run-$sys-$label-$h-$t-$pr${RUN_SEED:+-s$RUN_SEED}.log
    case $sys in
        torch)
            wfile=$B/weights/$label-$h.bin
            n_in=$(awk 'NR == 1 { print $2 }' "$train"); n_out=$(awk 'NR == 1 { print $3 }' "$train")
            "$BIN/bench_tool" weights "${RUN_SEED:-1}" "$n_in" "$h" "$n_out" "$wfile"
            with_timeout "$PY" bench/torch_run.py "$@" --weights "$wfile" >"$log" 2>&1 ;;
        cupitc|cupitc-*)
            cupitc_run "$sys" "$label" "$train" "$test" "$h" "$t" "$e" "$pr" >"$log" 2>&1 ;;
        *)
            OMP_NUM_THREADS=$t with_timeout "$BIN/$prog" "$@" >"$log" 2>&1 ;;
    esac
    line=$(grep -E '^(RESULT|SKIP|FAIL) ' "$log" | tail -n 1)
    if [ -z "$line" ]; then line="FAIL no result (see $log)"; fi
    echo "$line"
}

# record SUITE SYS LABEL HIDDEN THREADS PRUNE LINE: one CSV row (no ratio yet).
record() {
    printf '%s\n' "$7" | awk -v suite="$1" -v sys="$2" -v label="$3" -v h="$4" -v t="$5" -v pr="$6" '
    {
        for (i = 2; i <= NF; i++) { k = $i; sub(/=.*/, "", k); v = $i; sub(/^[^=]*=/, "", v); f[k] = v }
        if ($1 == "RESULT") { note = $0; if (!sub(/.* note=/, "", note)) note = "" }
        else { note = $0; sub(/^[A-Z]+ /, "", note); if ($1 == "FAIL") note = "failed: " note }
        gsub(/,/, ";", note)
        printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,,%s\n", suite, label, h, t, sys, pr,
            f["conns"], f["examples"], f["epochs"], f["sec_epoch"], f["mcups"], f["train_mse"],
            f["test_acc"], f["test_mse"], f["peak_rss_kb"], note
    }' >>"$ROWS"
    case $7 in
        RESULT*) say "$(printf '%-8s %-9s H=%-4s T=%s pruned=%-4s' "$2" "$3" "$4" "$5" "$6") $(printf '%s' "$7" | sed 's/.*mcups=\([^ ]*\).*/\1/') MCUPS" ;;
        *)       say "$(printf '%-8s %-9s H=%-4s T=%s pruned=%-4s' "$2" "$3" "$4" "$5" "$6") $7" ;;
    esac
}

# epochs_for CONNS EXAMPLES: WORK / (CONNS * EXAMPLES), clamped to [EMIN, EMAX].
epochs_for() {
    awk -v c="$1" -v n="$2" -v w="$WORK" -v lo="$EMIN" -v hi="$EMAX" \
        'BEGIN { e = int(w / (c * n)) + 1; if (e < lo) e = lo; if (e > hi) e = hi; print e }'
}

# config SUITE LABEL TRAIN TEST HIDDEN PRUNE SYSTEMS...: every system, every
# thread count, one configuration, REPEAT rounds over the systems in turn;
# each system's row is its round with the median time.  (Positional
# parameters only: sh has no local variables, and the suites' loop variables
# must survive.)
config() {
    set -- "$1" "$2" "$3" "$4" "$5" "$6" "$(shift 6; echo "$*")" \
        "$(epochs_for "$(awk -v h="$5" 'NR == 1 { print ($2 + 1) * h + (h + 1) * $3 }' "$3")" \
                      "$(awk 'NR == 1 { print $1 }' "$3")")"
    for cfg_t in $THREADS; do
        : >"$B/rounds.tmp"
        cfg_round=0
        while [ "$cfg_round" -lt "$REPEAT" ]; do
            for cfg_sys in $7; do
                echo "$cfg_sys $(run_system "$cfg_sys" "$2" "$3" "$4" "$5" "$cfg_t" "$8" "$6")" >>"$B/rounds.tmp"
            done
            cfg_round=$((cfg_round + 1))
        done
        for cfg_sys in $7; do
            record "$1" "$cfg_sys" "$2" "$5" "$cfg_t" "$6" "$(median_round "$cfg_sys" <"$B/rounds.tmp")"
        done
    done
}

# median_round SYS < rounds: the RESULT line of SYS with the median
# sec_epoch (the lower middle one for an even count), else its last line.
median_round() {
    awk -v sys="$1" '$1 == sys { sub(/^[^ ]* /, ""); last = $0
                                 if ($1 == "RESULT") { s = $0; sub(/.* sec_epoch=/, "", s); sub(/ .*/, "", s)
                                                       print s, $0 } }
                     END { if (last != "") print "~", last }' |
        sort -g | awk '$1 == "~" { last = $0; sub(/^~ /, "", last); next }
                       { line[++n] = $0; sub(/^[^ ]* /, "", line[n]) }
                       END { print n ? line[int((n + 1) / 2)] : last }'
}

# ---- suites ---------------------------------------------------------------------

suite_main() {
    for md in ${BENCH_DATASETS:-mushroom thyroid building}; do
        for mh in ${BENCH_HIDDEN:-16 64 256}; do
            config main "$md" "$DATA/$md.train" "$DATA/$md.test" "$mh" 0 $SYSTEMS
        done
    done
}

suite_quick() {
    THREADS=1 EMIN=5 EMAX=20 WARMUP=1 REPEAT=1
    config quick thyroid "$DATA/thyroid.train" "$DATA/thyroid.test" 16 0 $SYSTEMS
}

# Synthetic n-n-n/8 nets from about 1e3 to 1e6 connections (conns ~ 1.125 n^2).
suite_scaling() {
    EMIN=${BENCH_MIN_EPOCHS:-5} WARMUP=${BENCH_WARMUP:-1}
    sn=${BENCH_SCALING_EXAMPLES:-512}
    for sc in ${BENCH_SCALING_CONNS:-1e3 3e3 1e4 3e4 1e5 3e5 1e6}; do
        sh_=$(awk -v c="$sc" 'BEGIN { printf "%d", sqrt(c / 1.125) + 0.5 }')
        so=$(( sh_ / 8 > 2 ? sh_ / 8 : 2 ))
        sf=$B/data/synth-$sn-$sh_.train
        [ -f "$sf" ] || "$BIN/bench_tool" synth "$sn" "$sh_" "$so" 7 "$sf"
        config scaling "synth-$sh_" "$sf" "" "$sh_" 0 $SYSTEMS
    done
}

# One net (mushroom, H = BENCH_PRUNE_HIDDEN) with 0, 50, 90, 99 % of its
# connections deleted.  Dense systems run once, unpruned, for reference.
suite_pruning() {
    pd=${BENCH_PRUNE_DATA:-mushroom} ph=${BENCH_PRUNE_HIDDEN:-256}
    dense="" sparse=""
    for ps in $SYSTEMS; do
        case $ps in
            c-loop|c-blas|torch) dense="$dense $ps" ;;
            fann)                sparse="$sparse fann" ;;
        esac
    done
    [ -n "$dense" ] && config pruning "$pd" "$DATA/$pd.train" "$DATA/$pd.test" "$ph" 0 $dense
    for pp in 0 0.5 0.9 0.99; do
        config pruning "$pd" "$DATA/$pd.train" "$DATA/$pd.test" "$ph" "$pp" c-sparse $sparse
        case " $SYSTEMS " in
            *" cupitc "*) config pruning "$pd" "$DATA/$pd.train" "$DATA/$pd.test" "$ph" "$pp" cupitc ;;
        esac
    done
}

# Seeds 1 ... 32: with 8 the means moved by up to 0.07 % between runs.
ACC_SEEDS=$(seq 1 32 | tr '\n' ' ' | sed 's/ $//')

# Test-set accuracy over several start weights: every system (1 thread) on
# one data set, each hidden size with the main suite's epoch budget, once
# per seed (cupitc: --seed, the peers: the seed of their common weights).
suite_accuracy() {
    ad=${BENCH_ACC_DATA:-thyroid}
    for ah in ${BENCH_HIDDEN:-16 64 256}; do
        ae=$(epochs_for "$(awk -v h="$ah" 'NR == 1 { print ($2 + 1) * h + (h + 1) * $3 }' "$DATA/$ad.train")" \
                        "$(awk 'NR == 1 { print $1 }' "$DATA/$ad.train")")
        for asys in $SYSTEMS; do
            [ "$asys" = cupitc-report ] && continue    # it has no test pass
            for RUN_SEED in ${BENCH_SEEDS:-$ACC_SEEDS}; do
                aline=$(run_system "$asys" "$ad" "$DATA/$ad.train" "$DATA/$ad.test" "$ah" 1 "$ae" 0)
                aacc=$(printf '%s\n' "$aline" | sed -n 's/^RESULT.* test_acc=\([^ ]*\).*/\1/p')
                say "$(printf 'accuracy %-8s %-9s H=%-4s seed=%-3s' "$asys" "$ad" "$ah" "$RUN_SEED") ${aacc:-$aline}"
                [ -n "$aacc" ] && echo "$ad,$ah,$ae,$asys,$RUN_SEED,$aacc" >>"$ROWS"
            done
            RUN_SEED=
        done
    done
}

# finish_accuracy BASE: mean, lowest and highest accuracy per system.
finish_accuracy() {
    { echo "data,hidden,epochs,system,seed,test_acc"; cat "$ROWS"; } >"$1.csv"
    {
        echo "# cupitc benchmark: accuracy suite"
        echo
        echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(machine_line)"
        echo "Versions: $(versions_line)"
        echo "Test-set accuracy after the main suite's epoch budget, 1 thread, seeds {${BENCH_SEEDS:-$ACC_SEEDS}}:"
        echo "cupitc draws its start weights with --seed; the peers start from the common weights of that seed."
        echo
        echo "| data | H | epochs | system | runs | mean | lowest | highest |"
        echo "|---|---:|---:|---|---:|---:|---:|---:|"
        awk -F, '{ k = $1 "," $2 "," $3 "," $4; if (!(k in n)) order[++m] = k
                   n[k]++; s[k] += $6; if (!(k in lo) || $6 < lo[k]) lo[k] = $6; if (!(k in hi) || $6 > hi[k]) hi[k] = $6 }
                 END { for (i = 1; i <= m; i++) { k = order[i]; split(k, f, ",")
                           printf "| %s | %s | %s | %s | %d | %.2f %% | %.2f %% | %.2f %% |\n", f[1], f[2], f[3], f[4],
                                  n[k], 100 * s[k] / n[k], 100 * lo[k], 100 * hi[k] } }' "$ROWS"
    } >"$1.md"
    cat "$1.md"
    say "wrote $1.csv and $1.md"
}

# finish SUITE BASE: fills the cupitc ratio, writes BASE.csv and BASE.md,
# prints the table.
finish() {
    csv=$2.csv md=$2.md
    { echo "$CSV_HEADER"; awk -F, -f bench/ratio.awk "$ROWS" "$ROWS"; } >"$csv"
    {
        echo "# cupitc benchmark: $1 suite"
        echo
        echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(machine_line)"
        echo "Versions: $(versions_line)"
        echo "Settings: threads {$THREADS}, work $WORK connection updates per run," \
             "epochs in [$EMIN, $EMAX], warm-up $WARMUP epochs, median of the rest," \
             "median of $REPEAT round(s), OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-(default)}."
        echo "Load average at start / end: $LOAD_START / $(load_avg) (other work on the" \
             "machine makes the numbers, above all the 2-thread ones, noisier)."
        echo
        awk -F, -f bench/report.awk "$csv"
    } >"$md"
    cat "$md"
    say "wrote $csv and $md"
}

machine_line() {
    model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
    echo "${model:-unknown CPU}, $(nproc 2>/dev/null || echo '?') cores, $(uname -sr)"
}

load_avg() { cut -d ' ' -f 1 /proc/loadavg 2>/dev/null || echo "?"; }

pkg_version() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null || echo "?"; }

versions_line() {
    cc_v=$($CC --version 2>/dev/null | head -n 1)
    cupitc_v=$([ -x "$CUPITC" ] && "$CUPITC" --version 2>/dev/null | head -n 1)
    echo "${cc_v:-cc ?} -O2 -fopenmp; FANN $(pkg_version libfann2); OpenBLAS $(pkg_version libopenblas0);" \
         "PyTorch $(pkg_version python3-torch); ${cupitc_v:-cupitc not built}; commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet HEAD -- bench ':!bench/results' 2>/dev/null || echo ' + local changes to bench/')"
}

# ---- main -------------------------------------------------------------------------

mode=${1:-main}
[ "${BENCH_QUICK:-0}" = 1 ] && mode=quick
case $mode in
    main|quick|scaling|pruning|accuracy|all) ;;
    *) echo "usage: sh bench/run.sh [main|scaling|pruning|accuracy|all]  (BENCH_QUICK=1: smoke run)" >&2; exit 2 ;;
esac
if [ ! -f "$DATA/thyroid.train" ]; then
    say "no data sets in $DATA (set BENCH_DATA)"
    exit 2
fi
set_defaults
build_all
for sys_name in $SYSTEMS c-sparse; do
    case $sys_name in c-loop) p=ref_loop ;; c-blas) p=ref_blas ;; c-sparse) p=ref_sparse ;;
                      fann) p=peer_fann ;; *) p=$sys_name ;; esac
    [ -f "$B/why/$p" ] && say "skipping $sys_name: $(cat "$B/why/$p")"
done

ROWS=$B/rows.tmp
RUN_SEED=                            # empty: every program's default seed
for suite_name in main scaling pruning accuracy quick; do
    case $mode in "$suite_name"|all) ;; *) continue ;; esac
    [ "$suite_name" = quick ] && [ "$mode" = all ] && continue
    : >"$ROWS"
    set_defaults
    LOAD_START=$(load_avg)
    "suite_$suite_name"
    case $suite_name in
        main)  finish main bench/results/latest ;;
        quick) finish quick "$B/results/quick" ;;
        accuracy) finish_accuracy bench/results/accuracy ;;
        *)     finish "$suite_name" "bench/results/$suite_name" ;;
    esac
done
rm -f "$ROWS" "$B/rounds.tmp"
exit 0
