# report-protocol.awk -- checks the learning protocol that the report's
# backprop.nn prints against the rules of its central agent, without fixing
# any floating-point value.
#
#   awk -v stop=0.005 -v conns=17 -v capped=0 -v maxep=300 -f report-protocol.awk OUT
#
# stop: the program's stoperror; conns: connections after createNet (0: not
# checked); capped: 1 when the run ended by --max-epochs maxep.  Checks: the
# lines are epoch lines (numbered 1, 2, ...) and pruning lines; a pruning line
# follows exactly the epochs where the program prunes (epoch % 10 = 0, after
# 20, error below the reference); each pruning leaves no more connections than
# there were; the final error is below epoch 1's; the run ends at the first
# epoch that meets the stop criterion, or at maxep when capped.  Values closer
# than the printed precision count as either side.  Prints a summary
# (epochs, prunings, connections that went with self-deleted nodes, seen in
# the counts) or the first problem.
function fail(msg) { printf "line %d: %s\n", NR, msg; bad = 1; exit 1 }
function below(a, b) { return a < b - 1e-5 * (b < 0 ? -b : b) }   # a < b for sure
function above(a, b) { return a > b + 1e-5 * (b < 0 ? -b : b) }   # a > b for sure
BEGIN { epoch = 0; prunes = 0; lost = 0; want = "no"; prev = conns + 0 }
/^epoch [0-9]+ error [^ ]+ errors [0-9]+$/ {
    if (want == "yes") fail("pruning line missing after epoch " epoch)
    if ($2 != epoch + 1) fail("epoch " $2 " follows epoch " epoch)
    if (stopped) fail("epoch " $2 " runs after the stop criterion was met at epoch " epoch)
    epoch = $2; err = $4 + 0
    if (epoch == 1) first = err
    if (epoch > 4 && below(err, stop)) stopped = 1
    else if (epoch > 4 && !above(err, stop)) maybe = epoch   # at the printed precision
    want = "no"
    if (epoch % 10 == 0) {
        if (epoch <= 20) ref = err / 2.0
        else if (below(err, ref)) want = "yes"
        else if (!above(err, ref)) want = "maybe"
    }
    next
}
/^>>>>>>>>>>> weights remaining: [0-9]+ deleted: [0-9]+ <<<<<$/ {
    if (want == "no") fail("pruning after epoch " epoch ", where the program does not prune")
    remaining = $4 + 0; deleted = $6 + 0
    if (prev > 0) {
        if (remaining + deleted > prev)
            fail(remaining " remaining + " deleted " deleted > " prev " connections before")
        lost += prev - remaining - deleted   # went with self-deleted nodes
    }
    prev = remaining; prunes++; ref = err; want = "no"
    next
}
{ fail("unexpected line: " $0) }
END {
    if (bad) exit 1
    if (want == "yes") { printf "pruning line missing after epoch %d\n", epoch; exit 1 }
    if (epoch == 0) { print "no epoch lines"; exit 1 }
    if (!below(err, first)) { printf "error did not fall: %g at epoch 1, %g at epoch %d\n", first, err, epoch; exit 1 }
    if (capped) {
        if (epoch != maxep) { printf "stopped by --max-epochs after epoch %d, not %d\n", epoch, maxep; exit 1 }
        if (stopped) { printf "met the stop criterion (error < %g) but ran on to --max-epochs\n", stop; exit 1 }
    } else if (!stopped && maybe != epoch) {
        printf "ended at epoch %d with error %g, which does not meet error < %g\n", epoch, err, stop; exit 1
    }
    printf "epochs %d, final error %g (epoch 1: %g), prunings %d, connections lost with deleted nodes %d\n", \
        epoch, err, first, prunes, lost
}
