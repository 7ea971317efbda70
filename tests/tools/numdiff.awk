# numdiff.awk -- compares two program outputs line by line, numbers within a
# tolerance: the check for runs whose floating-point sums may be combined in a
# different order (another replicate count).
#
#   awk -v rel=1e-4 -v skip='replicates' -f numdiff.awk WANT GOT
#
# Each line's text with its numbers taken out must be equal.  Integers must
# be equal; reals must agree within rel * max(|a|, |b|) + 1e-6.  On lines that
# match the regex `skip` the numbers are not compared.  Prints the first
# difference and exits 1.
function template(s,    t) {
    t = s
    gsub(/-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?/, "#", t)
    return t
}
function numbers(s, arr,    n) {
    n = 0
    while (match(s, /-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?/)) {
        arr[++n] = substr(s, RSTART, RLENGTH)
        s = substr(s, RSTART + RLENGTH)
    }
    return n
}
function differ(a, b,    x, y, m) {
    if (a ~ /^-?[0-9]+$/ && b ~ /^-?[0-9]+$/)
        return a != b
    x = a + 0; y = b + 0
    m = (x < 0 ? -x : x); if ((y < 0 ? -y : y) > m) m = (y < 0 ? -y : y)
    return (x - y > rel * m + 1e-6) || (y - x > rel * m + 1e-6)
}
BEGIN { if (rel == "") rel = 1e-4; bad = 0 }
FNR == NR { want[FNR] = $0; nwant = FNR; next }
{
    ngot = FNR
    if (bad) next
    if (FNR > nwant) { printf "line %d: extra line: %s\n", FNR, $0; bad = 1; next }
    w = want[FNR]
    if (template(w) != template($0)) {
        printf "line %d differs:\n  want: %s\n  got:  %s\n", FNR, w, $0; bad = 1; next
    }
    if (skip != "" && $0 ~ skip) next
    n = numbers(w, wn); numbers($0, gn)
    for (i = 1; i <= n; i++)
        if (differ(wn[i], gn[i])) {
            printf "line %d: %s vs %s (tolerance %g):\n  want: %s\n  got:  %s\n", \
                FNR, wn[i], gn[i], rel, w, $0
            bad = 1; next
        }
}
END {
    if (!bad && ngot < nwant) { printf "line %d: missing: %s\n", ngot + 1, want[ngot + 1]; bad = 1 }
    exit bad
}
