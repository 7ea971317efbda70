# report.awk -- turns the harness's CSV (bench/run.sh) into Markdown: a
# summary of MCUPS per configuration and system, the full table, and the
# systems that were not measured, with the reason.
function fmt(v, d) { return v == "" ? "" : sprintf(d, v) }
function mb(kb) { return kb == "" ? "" : sprintf("%.1f", kb / 1024) }
function pct(p) { return sprintf("%g %%", 100 * p) }

NR == 1 { next }
{
    n++
    for (i = 1; i <= NF; i++) cell[n, i] = $i
    suite = $1
    if ($11 == "") {
        why = $5 " (threads " $4 "): " $17
        if (!(why in skipped)) order_skip[++ns] = why
        skipped[why]++
        next
    }
    cfg = $2 SUBSEP $3 SUBSEP $6
    if (!(cfg in seen_cfg)) { seen_cfg[cfg] = 1; cfgs[++nc] = cfg }
    col = $5 " T=" $4
    if (!(col in seen_col)) { seen_col[col] = 1; cols[++ncol] = col }
    mcups[cfg, col] = $11
    msec[cfg, col] = 1000 * $10
    if ($6 == 0) base[$5, $4] = $10
    sys_mcups[cfg, $5, $4] = $11
    if ($5 ~ /^cupitc/) {
        ct = cfg SUBSEP $4
        if (!(ct in seen_ct)) { seen_ct[ct] = 1; cts[++nct] = ct }
        if (!((ct, "lo") in tr) || $11 < tr[ct, "lo"]) { tr[ct, "lo"] = $11; tr[ct, "loname"] = $5 }
        if (!((ct, "hi") in tr) || $11 > tr[ct, "hi"]) { tr[ct, "hi"] = $11; tr[ct, "hiname"] = $5 }
        if (!($5 in seen_tr)) { seen_tr[$5] = 1; trainers[++ntr] = $5 }
    }
}
function ratio(a, b) { return (a == "" || b == "" || b <= 0) ? "" : sprintf("%.2f", a / b) }
# The cupitc trainers (several programs of one job in different styles):
# the slowest and the fastest of them against the peers, and the slowest
# trainer's own speed-up from 1 to 2 threads.
function trainer_summary(    r, k, cfg, t, lo, worst2, w, i) {
    if (nct == 0) return
    print "## cupitc trainers: slowest and fastest against the peers"
    print ""
    print "| data | H | threads | slowest trainer | MCUPS | fastest trainer | MCUPS | slowest/FANN | slowest/torch | slowest/c-blas | fastest/torch | 2T/1T (least) |"
    print "|---|---:|---:|---|---:|---|---:|---:|---:|---:|---:|---:|"
    for (r = 1; r <= nct; r++) {
        split(cts[r], k, SUBSEP)
        cfg = k[1] SUBSEP k[2] SUBSEP k[3]; t = k[4]; lo = tr[cts[r], "lo"]
        worst2 = ""
        if (t != 1)
            for (i = 1; i <= ntr; i++) {
                w = ratio(sys_mcups[cfg, trainers[i], t], sys_mcups[cfg, trainers[i], 1])
                if (w != "" && (worst2 == "" || w + 0 < worst2 + 0)) worst2 = w
            }
        print "| " k[1] " | " k[2] (k[3] != 0 ? " (" pct(k[3]) " pruned)" : "") " | " t " | " tr[cts[r], "loname"] " | " fmt(lo, "%.0f") \
              " | " tr[cts[r], "hiname"] " | " fmt(tr[cts[r], "hi"], "%.0f") \
              " | " ratio(lo, sys_mcups[cfg, "fann", 1]) " | " ratio(lo, sys_mcups[cfg, "torch", t]) \
              " | " ratio(lo, sys_mcups[cfg, "c-blas", t]) " | " ratio(tr[cts[r], "hi"], sys_mcups[cfg, "torch", t]) \
              " | " worst2 " |"
    }
    print ""
    print "slowest/FANN compares with FANN at 1 thread (it has no threads)."
    print ""
}
END {
    trainer_summary()
    prune = suite == "pruning"
    if (prune) print "## Time per epoch (ms; lower is better)"
    else print "## MCUPS (million connection updates per second; higher is better)"
    print ""
    line = "| data | H |" (prune ? " pruned |" : ""); sep = "|---|---:|" (prune ? "---:|" : "")
    for (c = 1; c <= ncol; c++) { line = line " " cols[c] " |"; sep = sep "---:|" }
    print line; print sep
    for (r = 1; r <= nc; r++) {
        split(cfgs[r], k, SUBSEP)
        line = "| " k[1] " | " k[2] " |" (prune ? " " pct(k[3]) " |" : "")
        for (c = 1; c <= ncol; c++)
            line = line " " (prune ? fmt(msec[cfgs[r], cols[c]], "%.3g") : fmt(mcups[cfgs[r], cols[c]], "%.0f")) " |"
        print line
    }
    print ""
    print "## All measurements"
    print ""
    print "| data | H | threads | system |" (prune ? " pruned | speed-up |" : "") \
          " connections | epochs | s/epoch | MCUPS | train MSE | test acc | test MSE | peak RSS MB | cupitc/x |"
    print "|---|---:|---:|---|" (prune ? "---:|---:|" : "") "---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    for (i = 1; i <= n; i++) {
        if (cell[i, 11] == "") continue
        sp = ""
        if (prune && ((cell[i, 5], cell[i, 4]) in base) && cell[i, 10] > 0)
            sp = sprintf("%.2f", base[cell[i, 5], cell[i, 4]] / cell[i, 10])
        print "| " cell[i, 2] " | " cell[i, 3] " | " cell[i, 4] " | " cell[i, 5] " |" \
              (prune ? " " pct(cell[i, 6]) " | " sp " |" : "") \
              " " cell[i, 7] " | " cell[i, 9] " | " fmt(cell[i, 10], "%.4g") " | " fmt(cell[i, 11], "%.1f") \
              " | " fmt(cell[i, 12], "%.4g") " | " cell[i, 13] " | " (cell[i, 14] == "n/a" ? "n/a" : fmt(cell[i, 14], "%.4g")) " | " mb(cell[i, 15]) \
              " | " cell[i, 16] " |"
    }
    if (ns > 0) {
        print ""
        print "## Not measured"
        print ""
        for (i = 1; i <= ns; i++)
            print "- " order_skip[i] (skipped[order_skip[i]] > 1 ? " (" skipped[order_skip[i]] " configurations)" : "")
    }
}
