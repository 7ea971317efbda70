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
}
END {
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
