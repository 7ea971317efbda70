BEGIN { OFS = "," }
# ratio.awk -- fills the cupitc_ratio column of the harness's rows: cupitc's
# MCUPS divided by the row's MCUPS, for the same suite, data set, hidden size,
# thread count and pruning level.  Called with the rows file twice.
NR == FNR {
    if ($5 == "cupitc" && $11 != "") cupitc[$1 "," $2 "," $3 "," $4 "," $6] = $11
    next
}
{
    k = $1 "," $2 "," $3 "," $4 "," $6
    if ((k in cupitc) && $11 != "" && $11 > 0) $16 = sprintf("%.3f", cupitc[k] / $11)
    print
}
