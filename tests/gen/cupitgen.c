/* cupitgen -- random program generator for CuPit, for differential testing.
 *
 *   cupitgen SEED [--size small|medium]
 *
 * prints one complete CuPit program to stdout.  The program is valid by
 * construction and its output is deterministic in every compiler variant:
 *
 *  - Reals are kept on a grid: every stored Real is a multiple of 1/4 and
 *    every expression is checked (fraction bits + magnitude bits <= 23) so
 *    that single precision computes it exactly; then any summation order in
 *    a REDUCTION or MERGE gives the same bits.  Values that could grow are
 *    folded back with q() (mod 64, still on the grid).
 *  - MERGE procedures that take a Real maximum or minimum add 0.0 to it:
 *    maxReal (-0.0, 0.0) is 0.0 but maxReal (0.0, -0.0) is -0.0 (x > y ?
 *    x : y), so the sign of a zero would follow the merge order, which the
 *    language leaves open (lane blocks merge in a tree, --no-lanes in a
 *    row); -0.0 + 0.0 is 0.0.
 *  - Every element has a bound class: S (state, |x| < 64 or < 1000),
 *    A (sum of S over at most 64 items), W (sum of A, or MERGE sums), K
 *    (WTA keys).  REDUCTION by sum is only emitted where the target class can
 *    hold the sum; MERGE procedures merge every element with max, min, OR or
 *    (for W elements written only with S values) a sum, so the merge order
 *    does not matter.
 *  - Parallel code never races: a node procedure touches connections only
 *    through interfaces of one mode (its "side"), so every connection is
 *    touched by at most one node of a group call; AND calls join distinct
 *    groups with compatible sides.
 *  - Int1/Int2 elements (q1 of nodes, q2 of connections) are state kept
 *    below 100 and 1000 and reduced with max only; assignments to them
 *    convert explicitly, compound ones only add or subtract a constant
 *    and fold back with %=.
 *  - A node's SYMBOLIC element sy is assigned under conditions, compared
 *    with = and <>, merged as "all equal: that value, else red" and
 *    counted into chk by the census.
 *  - MERGE procedures compare some Int element through a getter function
 *    called on ME and YOU.
 *  - Two programs in five call the network after an IF that replicates on
 *    one branch, in a loop that replicates, and after a procedure that
 *    replicates (what the rep-state pass must see).
 *  - One program in eight ends with a run-time error in one replicate of
 *    1, 2, 16, 17 or 33, raised by the network, by every node of a unit or
 *    every connection of such nodes in that replicate, or by the central
 *    agent (semantics.md §10.3; tests/gen/README.md lists them): every
 *    build must print the same before it and stop with the same message.
 *  - Bool CONST parameters often get constant arguments and IFs test the
 *    bare parameter; half of the layered motifs select each layer's code
 *    so (the const-branch pass), a quarter by an Int CONST layer number
 *    compared with constants (sometimes with a decided early RETURN, or
 *    with a value the compiler cannot know); some motifs compute the
 *    product through a function that only returns an expression, and put
 *    assignments or a local before the forward sum (fuse, dense).
 *  - One program in three has a group qq of a node type without MERGE,
 *    written only with the same values in every replicate.
 *  - One program in four draws RANDOM, only where every build draws in
 *    the same order (element initializers, run serially by EXTEND and
 *    CONNECT, and the central agent), integral values only; half of the
 *    programs divide Reals by 2.0 and 4.0.  Both by the seed alone.
 *  - Half of the programs call the network on all replicates right after
 *    MERGE (merge-first) and read the last replicate's elements in the
 *    central agent's expressions, also in those calls' arguments.
 *  - Half of the programs have network functions whose ?: must evaluate
 *    only the branch taken (recursion ended by ?:, a guarded division).
 *  - Half of the programs give every connection, node and network type
 *    procedures with Int and Real VAR parameters (one passes its VAR
 *    parameter on), called on locals and elements of ME from procedure
 *    bodies, and reduce some Int elements with a max whose `%` keeps lane
 *    code from combining in inactive lanes.  By the seed alone.  Half of
 *    those call global twins of these procedures instead, half the time
 *    (global procedures with VAR parameters called from object code).
 *  - Half of the programs use BITOR, BITXOR and BITNOT in Int expressions
 *    and Real ** Real (of an absolute value, by 0.5 or 1.5, put back on
 *    the grid by q: libm's pow in every build).  By the seed alone.
 *  - Half of the programs compute intervals: MIN and MAX of `a ... b`,
 *    of Interval (a, b) and of Interval1/Interval2 conversions (bounds
 *    that fit), `x IN (a ... b)` for Int and Real (maybe empty).
 *  - Half of the programs store intervals: an Interval element sp and a
 *    Realerval rz of nodes and an Interval2 sp of connections (converted
 *    on every store, promoted where read; MERGE takes the hull, the same
 *    in every order -- rz's bounds with + 0.0; the census counts the
 *    bounds), a local Interval iv and Realerval rv in every body and a
 *    global giv, global functions with Interval parameters
 *    and an Interval result (hull, ivk), a node procedure with an
 *    Interval parameter called on groups, slices of groups and
 *    replicates through iv and giv (clipped), and REPLICATE INTO giv.
 *    Of those, half add an Interval1 element s1 to nodes and connections
 *    and a local jv to every body (bounds within -99 ... 99 before the
 *    conversion, so no bound wraps; merged as the hull).  By the seed
 *    alone.
 *  - Half of the programs join two procedures of ME in node and
 *    connection code with AND (`ME.andh (k) AND ME.andu (r)`): they touch
 *    disjoint elements and their arguments read neither, as the open
 *    order requires.  By the seed alone.
 *  - Half of the programs give connection and node types MERGE callees
 *    (three in five types): an element mo that only a function MERGE
 *    calls reads (getmo), and an element mp, the same in every replicate
 *    otherwise, that MERGE writes through a function calling a procedure
 *    on ME (fmp: mp gets every replicate's mp and mo added once per
 *    merge, never negative, so q's remainder keeps the sum the same in
 *    every merge order).  By the seed alone.
 *  - Half of the programs store from the central agent into one
 *    replicate's network elements, or through the bare `net` into every
 *    replicate's (assignment, a VAR argument of a central agent
 *    procedure, a FOR variable, a REDUCTION target), and their
 *    network procedures write a global variable in one replicate (INDEX =
 *    k), printed at the end.  By the seed alone.
 *  - Half of the programs have EXTERNAL subroutines in C, carried in the
 *    program's last comment ("(* C code of the EXTERNAL subroutines" up
 *    to "*)", which check-one.sh compiles with the program; so the
 *    library's minReal, sigmoid, ... are called, not inlined: -fno-builtin
 *    is the default with C code): xr (|x|) and xm (the larger of two) in
 *    expressions of every context, and, for a node type whose first data
 *    element is h, xk<i> (a node CONST: h + 1) in network code's
 *    expressions and xb<i> (a node VAR: h := (h + 1) % 7) as a statement of
 *    network procedures, on single nodes of groups and node arrays, also
 *    while replicated (a copy of the replicate's record; the VAR one copied
 *    in and out), and both on one replicate's node (net[r].g[i]) in the
 *    central agent.  Of those, half have a String element nm of nodes and
 *    an Opaque element op of connections (use_ptr), and half an Int I/O
 *    area of their own C code (use_ioi).  By the seed alone.
 *  - Half of the programs call sigmoid, made exact by truncation (see
 *    use_sig).  By the seed alone.
 *  - WTA candidates are distinct (keys mix INDEX in), so no ties.
 *  - Topology changes happen only while the network is unreplicated; group
 *    sizes are tracked so single-node subscripts stay in range.
 *  - Replicate counts chosen by the compiler (INTO a...b with a < b) are only
 *    used at the very end, where nothing count-dependent is printed.
 *
 *  - The node array of a program is, for two seeds in five, one row of a
 *    node grid (ARRAY 2 OF Arr): every access to it goes through the grid.
 *
 * One statement per line where possible, so a line-based reducer works.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- PRNG */
static uint64_t st;
static uint64_t nx(void)
{
    uint64_t z = (st += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
static int rnd(int n) { return n <= 1 ? 0 : (int)(nx() % (uint64_t)n); }
static int ch(int pct) { return rnd(100) < pct; }
static int rng(int lo, int hi) { return lo + rnd(hi - lo + 1); }

/* ---------------------------------------------------------------- text */
static char *S(const char *f, ...)
{
    va_list a;
    va_start(a, f);
    int n = vsnprintf(NULL, 0, f, a);
    va_end(a);
    char *s = malloc((size_t)n + 1);
    if (!s) { perror("malloc"); exit(2); }
    va_start(a, f);
    vsnprintf(s, (size_t)n + 1, f, a);
    va_end(a);
    return s;
}
static int ind;
static void L(const char *f, ...)
{
    va_list a;
    for (int i = 0; i < ind; i++) fputs("  ", stdout);
    va_start(a, f);
    vprintf(f, a);
    va_end(a);
    putchar('\n');
}

/* ---------------------------------------------------------------- bounds */
enum { TI, TR, TB, TV, TW }; /* TV: an Interval, TW: a Realerval (atoms and targets only) */
enum { CS, CA, CW, CK };
static double bnd(int ty, int cls)
{
    static const double r[] = {64, 8192, 1048576, 65536};
    static const double i[] = {999, 65536, 67108864, 65536};
    return ty == TR ? r[cls] : i[cls];
}
static int bits(double b, int fb)
{
    int n = 0;
    while (b >= 1.0) { b /= 2; n++; }
    return n + fb;
}

/* ---------------------------------------------------------------- model */
typedef struct {
    const char *name;
    int ty, cls;
    int msum;      /* merged by sum: written only with S values */
    int wr;        /* compute code may assign it */
    const char *init;
    int nw;        /* TI only: 0 Int, 1 Int1 (|x| < 100), 2 Int2 (|x| < 1000) */
} Elem;
static double el_bnd(const Elem *l) { return l->nw == 1 ? 100 : bnd(l->ty, l->cls); }
static const char *nw_type(int nw) { return nw == 1 ? "Int1" : nw == 2 ? "Int2" : NULL; }

/* a subroutine the generated code may call; params: r=Real, i=Int,
 * b=Bool, m=mode (Int 0..3), d=depth (Int 0..4) */
typedef struct {
    char *name;
    char pk[5];
    int side;      /* node level: 0 none, 1 IN, 2 OUT */
    int needk;     /* needs WTA keys set (ME.marks ()) first */
    int fn;        /* function: 1 Real, 2 Int */
} Sub;

typedef struct {
    char *name;
    Elem el[24];
    int nel;
    int has_pr, has_vv;
    int has_sy;    /* node: a SYMBOLIC element sy of type Sym */
    int has_mc;    /* MERGE callees: an element mo read only through getmo in
                      MERGE, and mp, uniform otherwise, which MERGE writes
                      through the function fmp */
    int has_sp;    /* an interval element sp: Interval in nodes, Interval2 in
                      connections (bounds within -999 ... 999) */
    int has_s1;    /* an Interval1 element s1 (bounds within -99 ... 99) */
    int has_nm;    /* node: a String element nm (one of nm_lit's, lengths distinct) */
    int has_op;    /* connection: an Opaque element op (from xo) and ok := xv (op) */
    const char *getter; /* an Int element with a function get<name>, which MERGE calls on YOU */
    Sub sub[24];
    int nsub;
    int nif;
    int if_mode[4], if_con[4];
    char *if_name[4];
    int ncon[2];   /* node: connection types used */
    int absorb;    /* has absorb (Real CONST x) for MERGE */
} Ty;

enum { OP_SPLIT, OP_DIE, OP_EXT, OP_DISC, OP_CONN, OP_PRUNE };
static int do_r[2];   /* reshape1/2 are used */
static int size_medium;
static int ncon, nnode;
static Ty con[2], node[2], net;
static int use_rec, use_vec, use_sym;
static int use_boom; /* the program ends with a run-time error in one replicate */
/* a group qq of a node type without MERGE, written only with values that
   are the same in every replicate (then any replicate's value is the
   merged one); its size and argument, decided by the seed alone */
static int use_nomerge, nomerge_n, nomerge_k;
static int use_maze; /* REPLICATE under IF, in a loop and in a procedure */
/* RANDOM where every build draws in the same order: element initializers
   (EXTEND and CONNECT run them serially, in a fixed order) and the central
   agent; integral draws, so the values stay exact.  Decided by the seed
   alone, before anything else is generated. */
static int use_random;
/* Real division (by 2.0 and 4.0: exact); by the seed alone, likewise */
static int use_div;
/* the central agent reads the last replicate's elements in expressions
   (arguments of calls after MERGE: the merge-first pass); by the seed */
static int use_lastrep;
/* network functions whose ?: must evaluate only the branch taken: a
   recursion that ends through ?: and a division the condition guards; by
   the seed */
static int use_tern;
/* object procedures with VAR parameters (an Int and a Real helper in every
   type, and one that passes its VAR parameter on), called on locals and
   elements from procedure bodies, and a max REDUCTION whose `%` makes lane
   code combine only in the active lanes; by the seed */
static int use_varp;
static int use_gvarp;  /* varp helpers also as global procedures */
static int use_bits;   /* BITOR, BITXOR, BITNOT and Real ** Real */
static int use_iv;     /* computed intervals: MIN, MAX, IN, conversions */
/* stored intervals: interval elements (merged as the hull), a local iv in
   every body, a global giv, Interval parameters and results (hull, ivk,
   spset), slices of groups and replicates and REPLICATE counts through
   interval variables; by the seed */
static int use_ivs;
static int use_andme;  /* ME.a () AND ME.b () in object code; by the seed */
static int use_mcall;  /* MERGE callees that read and write elements; by the seed */
static int use_iv1;    /* with use_ivs: Interval1 elements and a local; by the seed */
/* EXTERNAL subroutines in C, which the program carries in its last comment
   (check-one.sh compiles them with it): xr and xm in expressions
   everywhere, and for a node type whose first data element is h, xk<i> (a
   node CONST) in network code's expressions and xb<i> (a node VAR) as a
   statement of network procedures; by the seed */
static int use_ext;
static int ext_node[2];
/* with use_ext: a String element of nodes, set from literals of distinct
   lengths (merged as the longest, read through the EXTERNAL xs = strlen),
   and an Opaque element of connections (set from the EXTERNAL xo, read
   through xv, merged as the larger xv); by the seed */
static int use_ptr;
/* with use_ext: an Int I/O area xi made by the EXTERNAL initIOareaxI, which
   the central agent fills from a node element of every replicate, hashes
   in C (xisum: the replicate-major order counts), changes in C (xiadd)
   and reads back; by the seed */
static int use_ioi;
/* sigmoid (tanh, docs/stdlib.md), made exact: 16 sigmoid (x % 4.0) of an
   x on the quarter grid is at least 0.017 from the next integer (0
   excepted, where it is 0), far beyond the approximation's error (4e-7)
   and any build's rounding, so Int () truncates it alike; 16 sigmoidPrime
   (1 - tanh^2) at least 0.035 (16 at 0, exactly); by the seed */
static int use_sig;
static const char *nm_lit(void)
{
    static const char *v[] = {"n", "nn", "big", "four", "minus", "small!"};
    return v[rnd(6)];
}
/* the central agent stores into one replicate's elements (assignment, VAR
   argument, FOR variable, REDUCTION target), and network procedures write a
   global variable in one replicate; by the seed */
static int use_castore;
/* the one replicate (INDEX) whose network procedures write that global: two
   replicates of one parallel call writing it would race; by the seed */
static int gw_index;
static const char *sym(void) { static const char *v[] = {"red", "green", "blue"}; return v[rnd(3)]; }

/* units: groups and an optional node array.  The node array is sometimes
   one row of a node grid (ARRAY 2 OF Arr): then name is "gr[R]", so every
   access the generator writes (ME.gr[R][i], ME.gr[R][], ...) goes through
   the grid, and elem is the element's own name. */
typedef struct { char *name; int nt; int arr; int mn, mx, lmin; char *elem; } Unit;
static int use_grid;
static int motif_on;   /* the layered motif (gen_motif_types) */
static Unit un[5];
static int nun;

/* ---------------------------------------------------------------- env */
typedef struct { char *s; int ty; double b; int fb; Sub *fn; char *pre; } At;
enum { XCONN, XNODE, XNET, XCA, XFREE };
typedef struct {
    int ctx, fn;
    Ty *me;
    At at[96];
    int nat;
    At tg[48];
    int ntg;
    int side;
    int loopmask;
    int mode;
    int needk;
    int nsubs;     /* callable subs of me: the ones defined before */
    int depthsub;  /* inside recursive proc rp */
    int has_pf;    /* a Bool CONST parameter pf is in scope */
} Env;

static void at(Env *e, char *s, int ty, double b, int fb)
{
    if (e->nat < 96) e->at[e->nat++] = (At){s, ty, b, fb, NULL, NULL};
}
static void atfn(Env *e, Sub *f, char *pre)
{
    if (e->nat < 96) e->at[e->nat++] = (At){f->name, f->fn == 1 ? TR : TI, f->fn == 1 ? 64 : 999, 2, f, pre};
}
static void tg(Env *e, char *s, int ty, double b)
{
    if (e->ntg < 48) e->tg[e->ntg++] = (At){s, ty, b, 0, NULL, NULL};
}
/* a target of a narrower integer type: assignments convert to `conv` */
static void tgc(Env *e, char *s, double b, const char *conv)
{
    if (e->ntg < 48) e->tg[e->ntg++] = (At){s, TI, b, 0, NULL, (char *)conv};
}

/* an interval atom or target; conv "Interval2" for an Interval2 one (its
   bounds are Int2, and what is stored into it is converted) */
static void atv(Env *e, char *s, const char *conv, int writable)
{
    if (e->nat < 96) e->at[e->nat++] = (At){s, TV, 999, 0, NULL, (char *)conv};
    if (writable && e->ntg < 48) e->tg[e->ntg++] = (At){s, TV, 999, 0, NULL, (char *)conv};
}

typedef struct { char *s; double b; int fb; int nar; } X;

static X gen_real(Env *e, int d);
static X gen_int(Env *e, int d);
static char *gen_bool(Env *e, int d);
static char *args(Env *e, const char *pk);

static char *rlit(int q4)
{
    static const char *fr[] = {"0", "25", "5", "75"};
    int a = abs(q4);
    char *s = S("%d.%s", a / 4, fr[a % 4]);
    return q4 < 0 ? S("(-%s)", s) : s;
}
static int qfb(int q4) { return q4 % 4 == 0 ? 0 : q4 % 2 == 0 ? 1 : 2; }

static At *pick(Env *e, int ty)
{
    int c[96], n = 0;
    for (int i = 0; i < e->nat; i++)
        if (e->at[i].ty == ty) c[n++] = i;
    return n ? &e->at[c[rnd(n)]] : NULL;
}
static char *atext(Env *e, At *a)
{
    if (!a->fn) return a->s;
    return S("%s%s (%s)", a->pre, a->fn->name, args(e, a->fn->pk));
}

static X rleaf(Env *e)
{
    if (use_ext && ch(6)) { /* |x| in C */
        At *a = pick(e, TR);
        if (a) return (X){S("xr (%s)", atext(e, a)), a->b, a->fb, 0};
    }
    if (use_ivs && ch(12)) { /* a bound of a stored Realerval: on the grid, |x| < 64 */
        At *v = pick(e, TW);
        if (v) return (X){S("%s %s", ch(50) ? "MAX" : "MIN", v->s), 63.75, 2, 0};
    }
    At *a = pick(e, TR);
    if (a && ch(75)) return (X){atext(e, a), a->b, a->fb, 0};
    a = pick(e, TI);
    if (a && ch(30) && a->b < 4194304) return (X){S("Real (%s)", atext(e, a)), a->b, 0, 0};
    int k = rng(-12, 12);
    return (X){rlit(k), abs(k) / 4.0, qfb(abs(k)), 0};
}
static X norm_r(X x)
{
    if (x.b < 64 && x.fb <= 2) return x;
    if (ch(50)) return (X){S("q (%s)", x.s), 63.75, 2, 0};
    return (X){S("(Real (Int (%s * 4.0) %% 256) * 0.25)", x.s), 63.75, 2, 0};
}
static X gen_real(Env *e, int d)
{
    if (d <= 0 || ch(25)) return rleaf(e);
    X a = gen_real(e, d - 1), b, r;
    if (use_sig && ch(8) && a.fb <= 2)
        return (X){S("(Real (Int (%s (%s %% 4.0) * 16.0)) * 0.25)", ch(50) ? "sigmoid" : "sigmoidPrime", a.s), 4, 2, 0};
    static const char *cm[] = {"2.0", "0.5", "3.0", "0.25", "(-1.0)"};
    static const double cv[] = {2, 1, 3, 1, 1};
    static const int cf[] = {0, 1, 0, 2, 0};
    int k;
    switch (rnd(13)) {
    case 0: case 1:
        b = gen_real(e, d - 1);
        r = (X){S("(%s + %s)", a.s, b.s), a.b + b.b, a.fb > b.fb ? a.fb : b.fb, 0};
        break;
    case 2:
        b = gen_real(e, d - 1);
        r = (X){S("(%s - %s)", a.s, b.s), a.b + b.b, a.fb > b.fb ? a.fb : b.fb, 0};
        break;
    case 3:
        if (use_div && ch(30)) { /* a power of two: exact */
            k = ch(50);
            r = (X){S("(%s / %s)", a.s, k ? "4.0" : "2.0"), a.b / (k ? 4 : 2), a.fb + 1 + k, 0};
            break;
        }
        k = rnd(5);
        r = (X){S("(%s * %s)", a.s, cm[k]), a.b * cv[k], a.fb + cf[k], 0};
        break;
    case 4:
        b = gen_real(e, d - 1);
        if (a.b * b.b > 4096 || a.fb + b.fb > 4) return a;
        r = (X){S("(%s * %s)", a.s, b.s), a.b * b.b, a.fb + b.fb, 0};
        break;
    case 5: {
        X i = gen_int(e, d - 1);
        if (i.b > 4194304) return a;
        r = (X){S("Real (%s)", i.s), i.b, 0, 0};
        break;
    }
    case 6:
        b = gen_real(e, d - 1);
        r = (X){S("(%s ? %s : %s)", gen_bool(e, d - 1), a.s, b.s), a.b > b.b ? a.b : b.b, a.fb > b.fb ? a.fb : b.fb, 0};
        break;
    case 7:
        b = gen_real(e, d - 1);
        if (use_iv && ch(40)) { /* a bound of a Realerval */
            r = (X){S("%s (%s ... %s)", ch(50) ? "MIN" : "MAX", a.s, b.s), a.b > b.b ? a.b : b.b, a.fb > b.fb ? a.fb : b.fb, 0};
            break;
        }
        r = (X){S("%s (%s, %s)", ch(50) ? "maxReal" : "minReal", a.s, b.s), a.b > b.b ? a.b : b.b, a.fb > b.fb ? a.fb : b.fb, 0};
        break;
    case 8:
        if (a.b * 4 > 1e9) return a;
        r = (X){S("q (%s)", a.s), 63.75, 2, 0};
        break;
    case 9:
        k = ch(50) ? 1 : 2;
        r = (X){S("(%s / %s)", a.s, k == 1 ? "2.0" : "4.0"), a.b, a.fb + k, 0};
        break;
    case 10:
        if (use_bits && ch(30) && a.b * 4 <= 1e9) {
            /* a Real exponent: libm's pow in every build (and in the
               folder), back on the grid through q */
            r = (X){S("q (absReal (%s) ** %s)", a.s, ch(50) ? "0.5" : "1.5"), 63.75, 2, 0};
            break;
        }
        if (a.b > 64 || a.fb > 2) return a;
        r = (X){S("(%s ** 2)", a.s), a.b * a.b, a.fb * 2, 0};
        break;
    case 11:
        r = (X){ch(50) ? S("absReal (%s)", a.s) : S("(-(%s))", a.s), a.b, a.fb, 0};
        break;
    default:
        r = (X){S("(%s %% 8.0)", a.s), a.b < 8 ? a.b : 8, a.fb, 0};
        break;
    }
    if (bits(r.b, r.fb) > 23) return a;
    return r;
}

static X ileaf(Env *e)
{
    if (use_ext && ch(6)) { /* the larger of two in C */
        At *a = pick(e, TI), *b = pick(e, TI);
        if (a && b) return (X){S("xm (%s, %s)", atext(e, a), atext(e, b)), a->b > b->b ? a->b : b->b, 0, 0};
    }
    if (use_ivs && ch(15)) { /* a bound of a stored interval, or ivk of it */
        At *v = pick(e, TV);
        if (v) {
            int k = rnd(3);
            if (k == 2) return (X){S("ivk (%s)", v->s), 3996, 0, 0};
            return (X){S("%s %s", k ? "MAX" : "MIN", v->s), 999, 0, v->pre != NULL};
        }
    }
    At *a = pick(e, TI);
    if (a && ch(75)) return (X){atext(e, a), a->b, 0, 0};
    int k = rng(-9, 20);
    return (X){k < 0 ? S("(%d)", k) : S("%d", k), abs(k), 0, 1};
}
static X norm_i(X x, double lim)
{
    if (x.b <= lim) return x;
    int m = lim < 999 ? (int)lim : 1000;
    return (X){S("(%s %% %d)", x.s, m), m - 1, 0, x.nar};
}
static char *wide(X x) { return x.nar ? S("Int (%s)", x.s) : x.s; }
static X gen_int(Env *e, int d)
{
    if (d <= 0 || ch(25)) return ileaf(e);
    X a = gen_int(e, d - 1), b, r;
    int k;
    if (use_iv && ch(10)) {
        /* a bound of a computed interval, also converted to Interval1 or
           Interval2 (both bounds fit: no wrap-around) */
        b = gen_int(e, d - 1);
        double m = a.b > b.b ? a.b : b.b;
        const char *op = ch(50) ? "MIN" : "MAX";
        const char *iv = S("%s ... %s", wide(a), wide(b));
        k = rnd(4);
        if (k == 0 && m <= 127) return (X){S("%s (Interval1 (%s))", op, iv), m, 0, 1};
        if (k == 1 && m <= 32767) return (X){S("%s (Interval2 (%s))", op, iv), m, 0, 1};
        if (k == 2) return (X){S("%s (Interval (%s, %s))", op, wide(a), wide(b)), m, 0, 0};
        return (X){S("%s (%s)", op, iv), m, 0, 0};
    }
    switch (rnd(12)) {
    case 0: case 1: case 2:
        b = gen_int(e, d - 1);
        r = (X){S("(%s %s %s)", a.nar && b.nar ? wide(a) : a.s, ch(50) ? "+" : "-", b.s), a.b + b.b, 0, 0};
        break;
    case 3:
        b = gen_int(e, d - 1);
        if (a.b * b.b > 268435456.0) return a;
        r = (X){S("(%s * %s)", a.nar && b.nar ? wide(a) : a.s, b.s), a.b * b.b, 0, 0};
        break;
    case 4:
        k = rng(2, 13);
        r = (X){S("(%s %% %d)", a.s, k), a.b < k - 1 ? a.b : k - 1, 0, a.nar};
        break;
    case 5:
        k = rng(2, 4);
        r = (X){S("(%s / %d)", a.s, k), (double)(long long)((a.b + k - 1) / k), 0, a.nar};
        break;
    case 6: {
        static const int c[] = {1, 3, 7, 15};
        k = c[rnd(4)];
        if (!use_bits || ch(40)) {
            r = (X){S("(%s BITAND %d)", a.s, k), k, 0, a.nar};
        } else if (ch(50)) { /* within 0 ... 15 */
            r = (X){S("((%s BITAND 15) %s %d)", a.s, ch(50) ? "BITOR" : "BITXOR", rng(0, 15)), 15, 0, a.nar};
        } else { /* -x - 1: never overflows */
            r = (X){S("(BITNOT (%s))", a.s), a.b + 1, 0, a.nar};
        }
        break;
    }
    case 7:
        b = gen_int(e, d - 1);
        r = (X){S("(%s ? %s : %s)", gen_bool(e, d - 1), a.s, b.s), a.b > b.b ? a.b : b.b, 0, a.nar && b.nar};
        break;
    case 8: {
        X f = gen_real(e, d - 1);
        r = (X){S("Int (%s)", f.s), (double)(long long)f.b, 0, 0};
        break;
    }
    case 9:
        r = (X){S("fr (%s %% 6)", a.s), 999, 0, 0};
        break;
    case 10:
        if (ch(50)) r = (X){S("((%s BITAND 7) LSHIFT 2)", a.s), 28, 0, a.nar};
        else r = (X){S("((%s BITAND 63) RSHIFT 1)", a.s), 31, 0, a.nar};
        break;
    default:
        if (ch(50)) r = (X){S("((%s %% 4) ** 2)", a.s), 9, 0, 0};
        else r = (X){S("(-(%s))", a.s), a.b, 0, a.nar};
        break;
    }
    if (r.b > 1073741824.0) return a;
    return r;
}

static char *gen_bool(Env *e, int d)
{
    static const char *cmp[] = {"<", ">", "<=", ">=", "=", "<>"};
    if (d <= 0 || ch(20)) {
        At *a = pick(e, TB);
        if (a && ch(60)) return atext(e, a);
        if (ch(15)) return ch(50) ? "true" : "false";
        if (ch(50)) {
            X x = rleaf(e), y = rleaf(e);
            return S("(%s %s %s)", x.s, cmp[rnd(6)], y.s);
        }
        X x = ileaf(e), y = ileaf(e);
        return S("(%s %s %s)", x.s, cmp[rnd(6)], y.s);
    }
    switch (rnd(8)) {
    case 0: case 1: {
        X x = gen_real(e, d - 1), y = gen_real(e, d - 1);
        return S("(%s %s %s)", x.s, cmp[rnd(6)], y.s);
    }
    case 2: case 3: {
        X x = gen_int(e, d - 1), y = gen_int(e, d - 1);
        return S("(%s %s %s)", x.s, cmp[rnd(6)], y.s);
    }
    case 4:
        return S("(%s %s %s)", gen_bool(e, d - 1), ch(50) ? "AND" : ch(50) ? "OR" : "XOR", gen_bool(e, d - 1));
    case 5:
        return S("NOT (%s)", gen_bool(e, d - 1));
    case 6: {
        X x = gen_int(e, d - 1);
        if (use_ivs && ch(40)) { /* a stored interval (Interval2 promoted) */
            At *v = pick(e, TV);
            if (v) return S("(%s IN %s)", x.s, v->s);
        }
        if (use_iv && ch(50)) { /* a computed interval, maybe empty */
            X lo = gen_int(e, d - 1), hi = gen_int(e, d - 1);
            return S("(%s IN (%s ... %s))", x.s, wide(lo), wide(hi));
        }
        int lo = rng(-3, 5);
        return S("(%s IN %s...%d)", x.s, lo < 0 ? S("(%d)", lo) : S("%d", lo), lo + rng(0, 8));
    }
    default: {
        X x = gen_real(e, d - 1);
        if (use_ivs && ch(40)) { /* a stored Realerval */
            At *v = pick(e, TW);
            if (v) return S("(%s IN %s)", x.s, v->s);
        }
        if (use_iv && ch(50)) {
            X lo = gen_real(e, d - 1), hi = gen_real(e, d - 1);
            return S("(%s IN (%s ... %s))", x.s, lo.s, hi.s);
        }
        int lo = rng(-8, 8);
        return S("(%s IN %s...%s)", x.s, rlit(lo), rlit(lo + rng(0, 16)));
    }
    }
}

/* argument list for a parameter kind string */
static char *args(Env *e, const char *pk)
{
    char *s = "";
    for (int i = 0; pk[i]; i++) {
        char *a;
        switch (pk[i]) {
        case 'r': a = norm_r(gen_real(e, 1)).s; break;
        case 'i': a = norm_i(gen_int(e, 1), 999).s; break;
        case 'b': a = ch(40) ? (ch(50) ? "true" : "false") : gen_bool(e, 1); break; /* constants: const-branch */
        case 'm': a = S("%d", rnd(4)); break;
        default: a = S("%d", rng(0, 4)); break;
        }
        s = i ? S("%s, %s", s, a) : a;
    }
    return s;
}
static char *params(const char *pk)
{
    static const char *decl[] = {"Real CONST pa", "Int CONST pn", "Bool CONST pf", "Int CONST pm", "Int CONST pd"};
    char *s = "";
    for (int i = 0; pk[i]; i++) {
        int k = pk[i] == 'r' ? 0 : pk[i] == 'i' ? 1 : pk[i] == 'b' ? 2 : pk[i] == 'm' ? 3 : 4;
        s = i ? S("%s; %s", s, decl[k]) : S("%s", decl[k]);
    }
    return s;
}
static void param_atoms(Env *e, const char *pk)
{
    for (int i = 0; pk[i]; i++) {
        switch (pk[i]) {
        case 'r': at(e, "pa", TR, 64, 2); break;
        case 'i': at(e, "pn", TI, 999, 0); break;
        case 'b': at(e, "pf", TB, 0, 0); e->has_pf = 1; break;
        case 'm': at(e, "pm", TI, 3, 0); e->mode = 1; break;
        default: at(e, "pd", TI, 4, 0); break;
        }
    }
}
static void rand_pk(char *pk)
{
    static const char k[] = "ribm";
    int n = rnd(4), j = 0;
    for (int i = 0; i < 4 && j < n; i++)
        if (ch(45)) pk[j++] = k[i];
    pk[j] = 0;
}

/* locals every body declares: i0..i2 loop counters, k/r/bq scratch (S),
 * wi/wr wide reduction targets */
static void locals(Env *e)
{
    L("Int VAR i0 := 0, i1 := 0, i2 := 0, k := 0, wi := 0; Real VAR r := 0.0, wr := 0.0; Bool VAR bq := false;");
    at(e, "k", TI, 999, 0);
    at(e, "r", TR, 64, 2);
    at(e, "bq", TB, 0, 0);
    at(e, "wi", TI, bnd(TI, CW), 0);
    at(e, "wr", TR, bnd(TR, CW), 2);
    tg(e, "k", TI, 999);
    tg(e, "r", TR, 64);
    tg(e, "bq", TB, 0);
    if (use_ivs) {
        L("Interval VAR iv := 0 ... 0;");
        atv(e, "iv", NULL, 1);
        L("Realerval VAR rv := 0.0 ... 0.5;");
        at(e, "rv", TW, 64, 2);
        tg(e, "rv", TW, 64);
        if (use_iv1) {
            L("Interval1 VAR jv := Interval1 (0 ... 1);");
            atv(e, "jv", "Interval1", 1);
        }
    }
}

/* element atoms and targets of the type ME */
static void me_atoms(Env *e, Ty *t, int writable)
{
    for (int i = 0; i < t->nel; i++) {
        Elem *l = &t->el[i];
        at(e, S("ME.%s", l->name), l->ty, l->ty == TB ? 0 : el_bnd(l), l->cls == CK ? 0 : 2);
        if (writable && l->wr && l->nw) tgc(e, S("ME.%s", l->name), el_bnd(l), nw_type(l->nw));
        else if (writable && l->wr) tg(e, S("ME.%s", l->name), l->ty, l->msum ? bnd(l->ty, CS) : bnd(l->ty, l->cls));
    }
    if (t->has_pr) {
        at(e, "ME.pr.k", TI, 999, 0);
        at(e, "ME.pr.z", TR, 64, 2);
        at(e, "ME.pr.get ()", TI, 999, 0);
        if (writable) { tg(e, "ME.pr.k", TI, 999); tg(e, "ME.pr.z", TR, 64); }
    }
    if (t->has_vv)
        for (int j = 0; j < 3; j++) {
            at(e, S("ME.vv[%d]", j), TR, 64, 2);
            if (writable) tg(e, S("ME.vv[%d]", j), TR, 64);
        }
    if (t->has_sy) at(e, S("(ME.sy %s %s)", ch(50) ? "=" : "<>", sym()), TB, 0, 0);
    if (t->has_sp) {
        const char *conv = t->name[0] == 'C' ? "Interval2" : NULL;
        atv(e, "ME.sp", conv, writable);
        if (!conv) { /* nodes: a Realerval rz too */
            if (e->nat < 96) e->at[e->nat++] = (At){"ME.rz", TW, 64, 2, NULL, NULL};
            if (writable) tg(e, "ME.rz", TW, 64);
        }
    }
    if (t->has_s1) atv(e, "ME.s1", "Interval1", writable);
}

/* an Interval1 atom (one whose conversion is Interval1) */
static At *pick_iv1(Env *e)
{
    int c[96], n = 0;
    for (int i = 0; i < e->nat; i++)
        if (e->at[i].ty == TV && e->at[i].pre && !strcmp(e->at[i].pre, "Interval1")) c[n++] = i;
    return n ? &e->at[c[rnd(n)]] : NULL;
}
/* an Interval1 value: bounds within -99 ... 99 before the conversion, so
   that no bound wraps (out-of-range narrowing is machine-dependent) */
static char *iv1_expr(Env *e)
{
    At *a = pick_iv1(e);
    int k = rnd(5);
    if (k >= 2 && a) {
        if (k == 4) return a->s;
        At *b = pick_iv1(e);
        if (k == 2) return S("Interval1 (hull (%s, %s))", a->s, b->s);
        return S("Interval1 (hull (%s, (%s ... %s)))", a->s, wide(norm_i(gen_int(e, 1), 99)),
                 wide(norm_i(gen_int(e, 1), 99)));
    }
    X lo = norm_i(gen_int(e, 1), 99), hi = norm_i(gen_int(e, 1), 99);
    return k == 1 ? S("Interval1 (Interval (%s, %s))", wide(lo), wide(hi))
                  : S("Interval1 (%s ... %s)", wide(lo), wide(hi));
}
/* an interval value whose bounds lie within -999 ... 999, converted to
   conv (Interval2) when given; an Interval1 one by iv1_expr */
static char *iv_expr(Env *e, const char *conv)
{
    if (conv && !strcmp(conv, "Interval1")) return iv1_expr(e);
    At *a = pick(e, TV);
    char *v;
    int k = rnd(5);
    if (k >= 2 && a) {
        At *b = pick(e, TV);
        if (k == 2) v = S("hull (%s, %s)", a->s, b->s);
        else if (k == 3) v = S("hull (%s, (%s ... %s))", a->s, wide(norm_i(gen_int(e, 1), 999)),
                               wide(norm_i(gen_int(e, 1), 999)));
        else v = a->s;
        /* a copy of an Interval2 into an Interval2 needs no conversion */
        if (conv && k == 4 && a->pre) return v;
    } else {
        X lo = norm_i(gen_int(e, 1), 999), hi = norm_i(gen_int(e, 1), 999);
        v = k == 1 ? S("Interval (%s, %s)", wide(lo), wide(hi)) : S("(%s ... %s)", wide(lo), wide(hi));
    }
    return conv ? S("%s (%s)", conv, v) : v;
}
/* a Realerval value whose bounds lie on the grid, within -64 ... 64 */
static char *rv_expr(Env *e)
{
    At *a = pick(e, TW);
    int k = rnd(4);
    if (k == 3 && a) return a->s;
    X lo = norm_r(gen_real(e, 1)), hi = norm_r(gen_real(e, 1));
    if (k == 2 && a) /* widened by a value: the bounds of both stay on the grid */
        return S("Realerval (minReal (MIN %s, %s) + 0.0, MAX %s)", a->s, lo.s, a->s);
    return k == 1 ? S("Realerval (%s, %s)", lo.s, hi.s) : S("(%s ... %s)", lo.s, hi.s);
}

static Elem *find(Ty *t, const char *n)
{
    for (int i = 0; i < t->nel; i++)
        if (!strcmp(t->el[i].name, n)) return &t->el[i];
    return NULL;
}

/* ---------------------------------------------------------------- statements */
static void gen_stmts(Env *e, int n, int d);

static void assign(Env *e)
{
    if (!e->ntg) return;
    At *t = &e->tg[rnd(e->ntg)];
    if (t->ty == TB) { L("%s := %s;", t->s, gen_bool(e, 2)); return; }
    if (t->ty == TV) { L("%s := %s;", t->s, iv_expr(e, t->pre)); return; }
    if (t->ty == TW) { L("%s := %s;", t->s, rv_expr(e)); return; }
    if (t->ty == TI) {
        if (ch(10)) { L("%s %s %d;", t->s, ch(50) ? "%=" : "/=", rng(2, 9)); return; }
        if (ch(10)) {
            /* +=, -= or *= by a small constant, then %= back into the bound
               (|t| * 9 stays far inside every integer type's range; a
               narrow target only adds or subtracts) */
            int op = rnd(t->pre ? 2 : 3);
            int m = (int)(t->b < 97 ? t->b : 97);
            L("%s %s %d;", t->s, op == 0 ? "+=" : op == 1 ? "-=" : "*=", rng(2, 9));
            L("%s %%= %d;", t->s, rng(2, m));
            return;
        }
        X x = gen_int(e, rng(1, 3));
        if (t->pre) L("%s := %s (%s);", t->s, t->pre, norm_i(x, t->b).s);
        else L("%s := %s;", t->s, norm_i(x, t->b).s);
        return;
    }
    X x = gen_real(e, rng(1, 3));
    if (ch(8) && t->b <= 1000 && x.b <= 16 && x.fb <= 2) {
        /* -= or *= then back onto the grid: |t op x| < 16000 with at most
           4 fraction bits, exact in single precision */
        L("%s %s %s;", t->s, ch(50) ? "-=" : "*=", x.s);
        L("%s := q (%s);", t->s, t->s);
        return;
    }
    if (x.b >= t->b || x.fb > 2) x = norm_r(x);
    L("%s := %s;", t->s, x.s);
}

static int freeloop(Env *e)
{
    for (int i = 0; i < 3; i++)
        if (!(e->loopmask & (1 << i))) return i;
    return -1;
}

static void loop(Env *e, int d)
{
    int v = freeloop(e);
    if (v < 0) { assign(e); return; }
    e->loopmask |= 1 << v;
    int hi = rng(1, 5);
    at(e, S("i%d", v), TI, hi + 1, 0);
    int kind = rnd(4);
    if (kind <= 1) {
        int lo = rng(0, 2);
        if (kind == 0) L("FOR i%d := %d TO %d REPEAT", v, lo, hi);
        else L("FOR i%d := %d DOWNTO %d REPEAT", v, hi, lo);
    } else {
        L("i%d := 0;", v);
        if (kind == 2) L("WHILE i%d < %d REPEAT", v, hi);
        else L("REPEAT");
    }
    ind++;
    gen_stmts(e, rng(1, 2), d - 1);
    if (ch(30)) { L("IF %s THEN", gen_bool(e, 1)); ind++; L("BREAK;"); ind--; L("END;"); }
    if (kind >= 2) L("i%d += 1;", v);
    ind--;
    if (kind == 3) L("UNTIL i%d >= %d END;", v, hi);
    else if (kind <= 1 && ch(25)) L("UNTIL %s END;", gen_bool(e, 1));
    else L("END;");
    e->nat--;
    e->loopmask &= ~(1 << v);
}

static void ifstmt(Env *e, int d)
{
    /* the bare parameter (or its NOT), which a constant argument decides */
    int bare = e->has_pf && ch(35);
    L("IF %s THEN", bare ? (ch(50) ? "pf" : "NOT pf") : gen_bool(e, 2));
    ind++; gen_stmts(e, rng(1, 2), d - 1); ind--;
    if (ch(30)) {
        L("ELSIF %s THEN", bare && ch(50) ? (ch(50) ? "pf" : "NOT pf") : gen_bool(e, 1));
        ind++; gen_stmts(e, 1, d - 1); ind--;
    }
    if (ch(50)) { L("ELSE"); ind++; gen_stmts(e, rng(1, 2), d - 1); ind--; }
    L("END;");
}

static void modesel(Env *e, int d)
{
    L("IF pm = 0 THEN");
    ind++; gen_stmts(e, 1, d - 1); ind--;
    L("ELSIF pm = %d THEN", rng(1, 2));
    ind++; gen_stmts(e, 1, d - 1); ind--;
    L("ELSE");
    ind++; gen_stmts(e, 1, d - 1); ind--;
    L("END;");
}

/* a REDUCTION of element l (of type te) of parallel variable pv: pick op and
 * a target whose class can hold the result; returns 0 if none fits */
static int reduction(Env *e, const char *pv, Elem *l)
{
    const char *op;
    double need;
    if (l->ty == TB) op = ch(50) ? "bor" : "band", need = 0;
    else if (l->cls <= CA && ch(60)) op = l->ty == TR ? "rsum" : "isum", need = 64 * bnd(l->ty, l->cls);
    else {
        op = l->ty == TR ? (ch(50) ? "rmax" : "rmin") : (ch(50) ? "imax" : "imin");
        if (use_varp && l->ty == TI && ch(40)) op = "imaxm";
        need = bnd(l->ty, l->cls);
    }
    int c[48], n = 0;
    for (int i = 0; i < e->ntg; i++)
        if (e->tg[i].ty == l->ty && e->tg[i].b >= need && !e->tg[i].pre) c[n++] = i;
    const char *t;
    if (n && ch(60)) t = e->tg[c[rnd(n)]].s;
    else if (l->ty == TB) t = "bq";
    else t = l->ty == TR ? "wr" : "wi";
    L("REDUCTION %s.%s:%s INTO %s;", pv, l->name, op, t);
    return 1;
}

/* node level: interfaces of ME usable by this side */
static int side_if(Env *e)
{
    int c[4], n = 0;
    for (int i = 0; i < e->me->nif; i++)
        if (e->side && e->me->if_mode[i] == e->side) c[n++] = i;
    return n ? c[rnd(n)] : -1;
}
static Sub *pick_sub(Ty *t, int nsubs, int fn, int side)
{
    int c[24], n = 0;
    for (int i = 0; i < nsubs; i++)
        if (!t->sub[i].fn == !fn && (side < 0 || !t->sub[i].side || t->sub[i].side == side)) c[n++] = i;
    return n ? &t->sub[c[rnd(n)]] : NULL;
}
static int num_elem(Ty *t, int allow_key)
{
    int c[24], n = 0;
    for (int i = 0; i < t->nel; i++)
        if ((allow_key || t->el[i].cls != CK) && !t->el[i].nw) c[n++] = i;
    return n ? c[rnd(n)] : -1;
}

static void node_stmt(Env *e, int d)
{
    (void)d;
    Ty *t = e->me;
    int f = side_if(e);
    switch (rnd(7)) {
    case 0: case 1:
        if (f >= 0 && !e->fn) {
            Ty *c = &con[t->if_con[f]];
            Sub *s = pick_sub(c, c->nsub, 0, -1);
            if (s) { L("ME.%s[].%s (%s);", t->if_name[f], s->name, args(e, s->pk)); return; }
        }
        break;
    case 2:
        if (f >= 0) {
            Ty *c = &con[t->if_con[f]];
            int k = num_elem(c, 0);
            if (k >= 0) { reduction(e, S("ME.%s[]", t->if_name[f]), &c->el[k]); return; }
        }
        break;
    case 3:
        if (f >= 0 && !e->fn) {
            Ty *c = &con[t->if_con[f]];
            Sub *s = pick_sub(c, c->nsub, 0, -1);
            if (s) {
                L("WTA ME.%s[].%s:%s.%s (%s);", t->if_name[f], t->if_mode[f] == 1 ? "k" : "kd",
                  ch(50) ? "rbig" : "rsmall", s->name, args(e, s->pk));
                e->needk = 1;
                return;
            }
        }
        break;
    case 4:
        if (!e->fn) {
            Sub *s = pick_sub(t, e->nsubs, 0, e->side);
            if (s) { L("ME.%s (%s);", s->name, args(e, s->pk)); e->needk |= s->needk; return; }
        }
        break;
    case 5:
        if (!e->fn && t->has_sy && ch(40)) {
            L("IF %s THEN ME.sy := %s; ELSE ME.sy := %s; END;", gen_bool(e, 1), sym(), sym());
            return;
        }
        if (!e->fn && t->has_pr && ch(50)) { L("ME.pr.bump (%s);", norm_i(gen_int(e, 1), 999).s); return; }
        if (!e->fn && t->has_vv && freeloop(e) >= 0) {
            int v = freeloop(e);
            L("FOR i%d := 0 TO MAXINDEX (ME.vv) REPEAT ME.vv[i%d] := q (ME.vv[i%d] + %s); END;", v, v, v,
              norm_r(gen_real(e, 1)).s);
            return;
        }
        break;
    default:
        if (e->depthsub && !e->fn) {
            L("IF pd > 0 THEN ME.rp (pd - 1); END;");
            return;
        }
        break;
    }
    assign(e);
}

static Unit *pick_unit(int nt)
{
    int c[5], n = 0;
    for (int i = 0; i < nun; i++)
        if (nt < 0 || un[i].nt == nt) c[n++] = i;
    return n ? &un[c[rnd(n)]] : NULL;
}
static char *unit_pv(Unit *u, int allow_single)
{
    int r = rnd(10);
    if (r < 2 && allow_single && u->lmin >= 1) return S("ME.%s[%d]", u->name, rnd(u->lmin));
    if (r < 4) {
        if (use_ivs && ch(40)) return S("ME.%s[iv]", u->name); /* clipped like any slice */
        int a = rng(0, 2);
        return S("ME.%s[%d...%d]", u->name, a, a + rng(0, 3));
    }
    if (r < 5) return S("ME.%s", u->name);
    return S("ME.%s[]", u->name);
}

static void net_stmt(Env *e, int d)
{
    (void)d;
    Unit *u = pick_unit(-1);
    Ty *nt = &node[u->nt];
    if (use_ivs && nt->has_sp && !e->fn && ch(12)) { /* an Interval argument of a group call */
        L("%s.spset (%s);", unit_pv(u, 1), iv_expr(e, NULL));
        return;
    }
    switch (rnd(8)) {
    case 0: case 1: case 2:
        if (!e->fn) {
            Sub *s = pick_sub(nt, nt->nsub, 0, -1);
            if (!s) break;
            if (s->needk) L("ME.marks ();");
            if (ch(25) && nun > 1) {
                Unit *u2 = &un[(int)(u - un + 1 + rnd(nun - 1)) % nun];
                Ty *t2 = &node[u2->nt];
                Sub *s2 = pick_sub(t2, t2->nsub, 0, -1);
                if (s2 && !s2->needk && (!s->side || !s2->side || s->side == s2->side)) {
                    L("%s.%s (%s) AND %s.%s (%s);", unit_pv(u, 0), s->name, args(e, s->pk), unit_pv(u2, 0),
                      s2->name, args(e, s2->pk));
                    return;
                }
            }
            L("%s.%s (%s);", unit_pv(u, 1), s->name, args(e, s->pk));
            return;
        }
        break;
    case 3: case 4: {
        int k = num_elem(nt, 1);
        if (k >= 0) {
            char *pv = unit_pv(u, 0);
            reduction(e, pv, &nt->el[k]);
            return;
        }
        break;
    }
    case 5:
        if (!e->fn) {
            Sub *s = pick_sub(nt, nt->nsub, 0, -1);
            if (!s) break;
            char *pv = unit_pv(u, 0);
            if (s->needk) L("ME.marks ();");
            L("%s.nkey ();", pv);
            L("WTA %s.key:%s.%s (%s);", pv, ch(50) ? "rbig" : "rsmall", s->name, args(e, s->pk));
            return;
        }
        break;
    case 6:
        if (!e->fn) {
            Sub *s = pick_sub(e->me, e->nsubs, 0, -1);
            if (s) { L("ME.%s (%s);", s->name, args(e, s->pk)); return; }
        }
        break;
    default:
        if (!e->fn && u->lmin >= 1 && ch(50)) {
            L("ME.%s[%d].v := %s;", u->name, rnd(u->lmin), norm_r(gen_real(e, 2)).s);
            return;
        }
        break;
    }
    assign(e);
}

/* a call of a VAR-parameter helper of ME on a local or an element: the
   helpers keep an Int within its bound (at least 97) and a Real on the
   grid of quarters within its bound (at least 64) */
static void varp_stmt(Env *e)
{
    int c[48], n = 0;
    for (int i = 0; i < e->ntg; i++) {
        At *t = &e->tg[i];
        if ((t->ty == TI && !t->pre && t->b >= 97) || (t->ty == TR && t->b >= 64)) c[n++] = i;
    }
    if (!n) { assign(e); return; }
    At *t = &e->tg[c[rnd(n)]];
    /* the global twins of the helpers, called from object code */
    const char *me = use_gvarp && ch(50) ? "g" : "ME.v";
    if (t->ty == TR) L("%shalf (%s, %s);", me, t->s, norm_i(gen_int(e, 1), 9).s);
    else if (ch(30)) L("%stwice (%s);", me, t->s);
    else L("%sbump (%s, %s);", me, t->s, norm_i(gen_int(e, 1), 9).s);
}

/* two procedures of an object that touch disjoint elements (h and u of
   nodes, d and w of connections), for `ME.a (...) AND ME.b (...)`: which
   runs first is left open, so nothing else may be shared -- not even
   their arguments, which are constants or the locals k and r */
static void and_helpers(Ty *t)
{
    if (!use_andme) return;
    if (t->name[0] == 'C') {
        L("PROCEDURE andd (Int CONST x) IS ME.d := q (ME.d + Real (x %% 7)); END;");
        L("PROCEDURE andw (Real CONST y) IS ME.w := q (ME.w + y); END;");
    } else {
        L("PROCEDURE andh (Int CONST x) IS ME.h := (ME.h + x) %% 1000; END;");
        L("PROCEDURE andu (Real CONST y) IS ME.u := q (ME.u + y); END;");
    }
}
/* the MERGE callees of has_mc (declared before MERGE) */
static void mc_helpers(Ty *t)
{
    if (!t->has_mc) return;
    L("Real FUNCTION getmo () IS RETURN ME.mo; END FUNCTION;");
    L("PROCEDURE setmp (Real CONST x) IS ME.mp := x; END;");
    L("Real FUNCTION fmp (Real CONST x) IS ME.setmp (q (ME.mp + x)); RETURN 0.0; END FUNCTION;");
}
static void and_stmt(Env *e)
{
    int c = e->me->name[0] == 'C';
    char *x = ch(50) ? "k" : S("%d", rng(0, 9));
    char *y = ch(50) ? "r" : rlit(rng(-8, 8));
    if (ch(50)) L("ME.and%s (%s) AND ME.and%s (%s);", c ? "d" : "h", x, c ? "w" : "u", y);
    else L("ME.and%s (%s) AND ME.and%s (%s);", c ? "w" : "u", y, c ? "d" : "h", x);
}

static void varp_helpers(void)
{
    if (!use_varp) return;
    /* statements that cannot fail: lane code runs them in every lane, a
       VAR parameter's pointer is set in the active lanes only */
    L("PROCEDURE vbump (Int VAR a; Int CONST by) IS");
    L("  a := a + by;");
    L("  IF a > 90 THEN a := a - 90; ELSIF a < -90 THEN a := a + 90; END;");
    L("END;");
    L("PROCEDURE vtwice (Int VAR a) IS ME.vbump (a, 5); ME.vbump (a, a %% 4); END;");
    L("PROCEDURE vhalf (Real VAR x; Int CONST by) IS");
    L("  IF x > 32.0 THEN x := x - 32.0; ELSIF by > 2 THEN x := x + 0.75; ELSE x := q (x - 0.5); END;");
    L("END;");
}

/* the global twins of varp_helpers, defined before the types that call
   them: global procedures with VAR parameters called from connection,
   node and network code on elements of ME and locals */
static void gvarp_helpers(void)
{
    if (!use_gvarp) return;
    L("PROCEDURE gbump (Int VAR a; Int CONST by) IS");
    L("  a := a + by;");
    L("  IF a > 90 THEN a := a - 90; ELSIF a < -90 THEN a := a + 90; END;");
    L("END;");
    L("PROCEDURE gtwice (Int VAR a) IS gbump (a, 5); gbump (a, a %% 4); END;");
    L("PROCEDURE ghalf (Real VAR x; Int CONST by) IS");
    L("  IF x > 32.0 THEN x := x - 32.0; ELSIF by > 2 THEN x := x + 0.75; ELSE x := q (x - 0.5); END;");
    L("END;");
}

static void gen_stmts(Env *e, int n, int d)
{
    for (int i = 0; i < n; i++) {
        if (use_varp && !e->fn && ch(12)) { varp_stmt(e); continue; }
        if (use_andme && !e->fn && (e->ctx == XNODE || e->ctx == XCONN) && ch(10)) { and_stmt(e); continue; }
        if (use_castore && e->ctx == XNET && e->me == &net && !e->fn && ch(10)) {
            /* one replicate writes, the same in every statement: no race,
               the same in every build (the draw keeps the other seeds'
               programs as they were) */
            int v = rng(1, 99);
            (void)rnd(20);
            L("IF INDEX = %d THEN gw := %d; END;", gw_index, v);
            continue;
        }
        if (use_ptr && !e->fn && ch(8)) {
            if (e->ctx == XCONN && e->me->has_op) {
                L("ME.opset (%s);", norm_i(gen_int(e, 1), 999).s);
                continue;
            }
            if (e->ctx == XNODE && e->me->has_nm) {
                if (ch(50)) L("IF %s THEN ME.nmput (\"%s\"); ELSE ME.nmput (\"%s\"); END;", gen_bool(e, 1), nm_lit(), nm_lit());
                else L("ME.nmput (%s);", ch(50) ? "ME.nm" : S("\"%s\"", nm_lit()));
                continue;
            }
            if (e->ctx == XNET && e->me == &net) {
                int u = rnd(nun);
                if (node[un[u].nt].has_nm) {
                    L("ME.%s[].nmput (\"%s\");", un[u].name, nm_lit());
                    continue;
                }
            }
        }
        if (use_ext && e->ctx == XNET && e->me == &net && !e->fn && ch(8)) {
            int u = rnd(nun);
            if (un[u].lmin >= 1 && ext_node[un[u].nt]) {
                L("xb%d (ME.%s[%d]);", un[u].nt, un[u].name, rnd(un[u].lmin));
                continue;
            }
        }
        int r = rnd(10);
        if (d > 0 && r == 0) ifstmt(e, d);
        else if (d > 0 && r == 1) loop(e, d);
        else if (d > 0 && r == 2 && e->mode) modesel(e, d);
        else if (r <= 4) assign(e);
        else if (e->ctx == XNODE) node_stmt(e, d);
        else if (e->ctx == XNET) net_stmt(e, d);
        else if (e->ctx == XCONN && !e->fn && r <= 6) {
            Sub *s = pick_sub(e->me, e->nsubs, 0, -1);
            if (s) L("ME.%s (%s);", s->name, args(e, s->pk));
            else assign(e);
        } else if (e->ctx == XCONN && !e->fn && e->me->has_pr)
            L("ME.pr.bump (%s);", norm_i(gen_int(e, 1), 999).s);
        else assign(e);
    }
}

/* ---------------------------------------------------------------- subroutines */
static void env_init(Env *e, int ctx, Ty *t, int fn)
{
    memset(e, 0, sizeof *e);
    e->ctx = ctx;
    e->me = t;
    e->fn = fn;
    e->nsubs = t ? t->nsub : 0;
}
static void obj_atoms(Env *e)
{
    Ty *t = e->me;
    me_atoms(e, t, !e->fn);
    if (e->ctx == XNODE) {
        at(e, "INDEX", TI, 63, 0);
        for (int i = 0; i < t->nif; i++) at(e, S("MAXINDEX (ME.%s)", t->if_name[i]), TI, 64, 0);
    }
    if (e->ctx == XNET) {
        at(e, "INDEX", TI, 63, 0);
        for (int i = 0; i < nun; i++) {
            at(e, S("MAXINDEX (ME.%s)", un[i].name), TI, 64, 0);
            if (un[i].lmin >= 1) at(e, S("ME.%s[%d].h", un[i].name, rnd(un[i].lmin)), TI, 999, 0);
            if (use_ext && e->me == &net && un[i].lmin >= 1 && ext_node[un[i].nt])
                at(e, S("xk%d (ME.%s[%d])", un[i].nt, un[i].name, rnd(un[i].lmin)), TI, 1000, 0);
        }
        at(e, S("ME.depth (%d)", rng(0, 4)), TI, 999, 0);
        if (use_tern) {
            at(e, S("ME.tdepth (%d)", rng(0, 4)), TI, 999, 0);
            at(e, "(ME.z = 0 ? 7 : ME.inv ())", TI, 1000, 0);
        }
    }
    for (int i = 0; i < e->nsubs; i++) {
        Sub *s = &t->sub[i];
        if (s->fn && (e->ctx != XNODE || !s->side || s->side == e->side)) atfn(e, s, "ME.");
    }
}

/* a compute procedure or function of type t */
static void gen_sub(int ctx, Ty *t, int fn, int side)
{
    Env e;
    env_init(&e, ctx, t, fn);
    Sub *s = &t->sub[t->nsub];
    char pk[5];
    rand_pk(pk);
    if (fn) { char *m = strchr(pk, 'm'); if (m) *m = 0; }
    s->name = S("%s%d", fn ? "f" : "p", t->nsub);
    memcpy(s->pk, pk, 5);
    s->side = side;
    s->fn = fn ? (ch(60) ? 1 : 2) : 0;
    e.side = side;
    if (fn) L("%s FUNCTION %s (%s) IS", s->fn == 1 ? "Real" : "Int", s->name, params(pk));
    else L("PROCEDURE %s (%s) IS", s->name, params(pk));
    ind++;
    locals(&e);
    param_atoms(&e, pk);
    if (fn) e.mode = 0;
    obj_atoms(&e);
    gen_stmts(&e, rng(1, size_medium ? 4 : 2), size_medium ? 2 : 1);
    if (fn) {
        if (s->fn == 1) L("RETURN %s;", norm_r(gen_real(&e, 2)).s);
        else L("RETURN %s;", norm_i(gen_int(&e, 2), 999).s);
    }
    ind--;
    L("END%s;", fn ? " FUNCTION" : "");
    s->needk = e.needk;
    t->nsub++;
}

/* MERGE of every element: max/min/OR/AND, sums only for msum elements */
static void gen_merge(Ty *t)
{
    L("MERGE IS");
    ind++;
    if (t->has_vv) L("Int VAR i := 0;");
    if (t->has_mc) L("Real VAR mz := 0.0;");
    for (int i = 0; i < t->nel; i++) {
        Elem *l = &t->el[i];
        const char *n = l->name;
        if (t->has_mc && !strcmp(n, "mp")) continue; /* below */
        if (l->ty == TB) L("ME.%s := ME.%s %s YOU.%s;", n, n, ch(50) ? "OR" : "AND", n);
        else if (t->getter && !strcmp(n, t->getter))
            L("IF YOU.get%s () %s ME.get%s () THEN ME.%s := YOU.%s; END;", n, ch(70) ? ">" : "<", n, n, n);
        else if (l->msum) {
            if (t->absorb && l->ty == TR) L("ME.absorb (YOU.%s);", n);
            else L("ME.%s += YOU.%s;", n, n);
        } else if (l->ty == TR && ch(40))
            L("ME.%s := %s (ME.%s, YOU.%s) + 0.0;", n, ch(50) ? "maxReal" : "minReal", n, n);
        else L("IF YOU.%s %s ME.%s THEN ME.%s := YOU.%s; END;", n, ch(70) ? ">" : "<", n, n, n);
    }
    if (t->has_pr) {
        L("IF YOU.pr.k > ME.pr.k THEN ME.pr.k := YOU.pr.k; END;");
        L("IF YOU.pr.z < ME.pr.z THEN ME.pr.z := YOU.pr.z; END;");
    }
    if (t->has_vv) L("FOR i := 0 TO 2 REPEAT IF YOU.vv[i] > ME.vv[i] THEN ME.vv[i] := YOU.vv[i]; END; END;");
    /* all equal: that value, else red -- the same in every merge order */
    if (t->has_sy) L("IF YOU.sy <> ME.sy THEN ME.sy := red; END;");
    /* mp sums every replicate's mp and mo once per merge (both are never
       negative, so q's remainder is a true modulus: any order gives the
       same), written through a function, mo read only through one */
    if (t->has_mc) L("mz := ME.fmp (YOU.mp + YOU.getmo ());");
    /* the hull: the same in every merge order */
    if (t->has_sp) {
        if (t->name[0] == 'C') L("ME.sp := Interval2 (hull (ME.sp, YOU.sp));");
        else {
            L("ME.sp := hull (ME.sp, YOU.sp);");
            /* + 0.0: the sign of a zero bound must not follow the merge order */
            L("ME.rz := Realerval (minReal (MIN ME.rz, MIN YOU.rz) + 0.0, maxReal (MAX ME.rz, MAX YOU.rz) + 0.0);");
        }
    }
    if (t->has_s1) L("ME.s1 := Interval1 (hull (ME.s1, YOU.s1));");
    /* the longest (the lengths of nm_lit's strings differ), the larger xv:
       the same in every merge order */
    if (t->has_nm) L("IF xs (YOU.nm) > xs (ME.nm) THEN ME.nm := YOU.nm; END;");
    if (t->has_op) L("IF xv (YOU.op) > xv (ME.op) THEN ME.op := YOU.op; END;");
    ind--;
    L("END MERGE;");
}

static void add_el(Ty *t, const char *n, int ty, int cls, int msum, int wr, const char *init)
{
    t->el[t->nel++] = (Elem){n, ty, cls, msum, wr, init, 0};
}
/* a state element of type Int1 or Int2 (never summed: reduced with max) */
static void add_narrow(Ty *t, const char *n, int nw, const char *init)
{
    t->el[t->nel++] = (Elem){n, TI, CS, 0, 1, init, nw};
}
/* the interval element sp: Interval in nodes, Interval2 in connections */
static const char *sp_type(Ty *t) { return t->name[0] == 'C' ? "Interval2" : "Interval"; }
static char *sp_lit(Ty *t)
{
    int lo = rng(-5, 5), hi = lo + rng(-1, 6);
    char *v = S("%s ... %d", lo < 0 ? S("(%d)", lo) : S("%d", lo), hi);
    return t->name[0] == 'C' ? S("Interval2 (%s)", v) : S("(%s)", v);
}
static char *s1_lit(void)
{
    int lo = rng(-5, 5), hi = lo + rng(-1, 6);
    return S("Interval1 (%s ... %d)", lo < 0 ? S("(%d)", lo) : S("%d", lo), hi);
}
static char *rz_lit(void)
{
    int lo = rng(-8, 8);
    return S("(%s ... %s)", rlit(lo), rlit(lo + rng(-2, 8)));
}
/* declaration order: Int, Int1, Int2, Real, Bool (ctor follows it) */
static int decl_kind(const Elem *l) { return l->ty == TI ? l->nw : l->ty == TR ? 3 : 4; }
/* one declaration line per element type: fewer lines for the reducer */
static void emit_elems(Ty *t)
{
    static const char *kn[] = {"Int", "Int1", "Int2", "Real", "Bool"};
    for (int k = 0; k < 5; k++) {
        char *s = NULL;
        for (int i = 0; i < t->nel; i++) {
            Elem *l = &t->el[i];
            if (decl_kind(l) != k) continue;
            s = s ? S("%s, %s := %s", s, l->name, l->init) : S("%s %s := %s", kn[k], l->name, l->init);
        }
        if (s) L("%s;", s);
    }
    if (t->has_pr) L("Pr pr;");
    if (t->has_vv) L("Vec vv := vfill (%s);", rlit(rng(-4, 4)));
    if (t->has_sy) L("Sym sy := %s;", sym());
    if (t->has_sp) L("%s sp := %s;", sp_type(t), sp_lit(t));
    if (t->has_sp && t->name[0] != 'C') L("Realerval rz := %s;", rz_lit());
    if (t->has_s1) L("Interval1 s1 := %s;", s1_lit());
    if (t->has_nm) L("String nm := \"%s\";", nm_lit());
    if (t->has_op) L("Opaque op;");
    if (t->has_mc) L("Real mo := %s;", rlit(rng(0, 8)));
}

/* whether h is t's first data element (at offset 0 of its C record) */
static int first_int_is_h(Ty *t)
{
    for (int i = 0; i < t->nel; i++)
        if (decl_kind(&t->el[i]) == 0) return !strcmp(t->el[i].name, "h");
    return 0;
}

/* the C code of the EXTERNAL subroutines, in the program's last comment
   (check-one.sh compiles it with the program); no C comments, and none of
   CuPit's comment brackets */
static void ext_c(void)
{
    L("(* C code of the EXTERNAL subroutines");
    L("#include <stdlib.h>");
    L("#include <string.h>");
    L("#include \"cupit_rt.h\"");
    L("cp_real xr (cp_real x) { return x < 0 ? -x : x; }");
    L("cp_int xm (cp_int a, cp_int b) { return a > b ? a : b; }");
    if (use_ioi) {
        L("void initIOareaxI (cp_io *a, cp_int reps, cp_int per) {");
        L("  free (a->data); a->data = calloc ((size_t)(reps * per), sizeof (cp_int));");
        L("  a->count = reps * per; a->elem_size = sizeof (cp_int); a->per_rep = per;");
        L("}");
        L("void xisum (cp_io *a, cp_int *s) {");
        L("  const cp_int *v = a->data; cp_int t = 0;");
        L("  for (cp_int i = 0; i < a->count; i++) t = (t * 31 + v[i] + 1000) %% 1000003;");
        L("  *s = t;");
        L("}");
        L("void xiadd (cp_io *a, cp_int k) {");
        L("  cp_int *v = a->data;");
        L("  for (cp_int i = 0; i < a->count; i++) v[i] = (v[i] + k) %% 100;");
        L("}");
    }
    if (use_ptr) {
        L("cp_int xs (const char *s) { return s ? (cp_int)strlen (s) : -1; }");
        L("static char xtab[256];");
        L("void *xo (cp_int k) { return xtab + 100 + k %% 100; }");
        L("cp_int xv (void *p) { char *c = p; return c ? (cp_int)(c - xtab) - 100 : -100; }");
    }
    for (int i = 0; i < nnode; i++)
        if (ext_node[i]) {
            L("cp_int xk%d (const void *n) { const cp_int *h = n; return *h + 1; }", i);
            L("void xb%d (void *n) { cp_int *h = n; *h = (1 + *h) %% 7; }", i);
        }
    L("*)");
}

/* constructor arguments for all data elements of t, in order */
static char *ctor(Ty *t)
{
    char *s = NULL;
    for (int k = 0; k < 5; k++) /* the order emit_elems declares them in */
        for (int i = 0; i < t->nel; i++) {
            Elem *l = &t->el[i];
            if (decl_kind(l) != k) continue;
            char *a = l->ty == TR ? rlit(rng(-8, 8)) : l->ty == TI ? S("%d", rng(0, 9)) : (ch(50) ? "true" : "false");
            s = s ? S("%s, %s", s, a) : a;
        }
    if (t->has_pr) s = S("%s, Pr (%d, %s)", s, rng(0, 9), rlit(rng(-8, 8)));
    if (t->has_vv) s = S("%s, vfill (%s)", s, rlit(rng(-8, 8)));
    if (t->has_sy) s = S("%s, %s", s, sym());
    if (t->has_sp) s = S("%s, %s", s, sp_lit(t));
    if (t->has_sp && t->name[0] != 'C') s = S("%s, %s", s, rz_lit());
    if (t->has_s1) s = S("%s, %s", s, s1_lit());
    if (t->has_nm) s = S("%s, \"%s\"", s, nm_lit());
    if (t->has_op) s = S("%s, xo (%d)", s, rng(-4, 4));
    if (t->has_mc) s = S("%s, %s", s, rlit(rng(0, 8)));
    return s;
}

/* ---------------------------------------------------------------- types */
static int uses_op(int nt, int kind);
static int uses_cut(int ci);
static void gen_con(int ci)
{
    Ty *t = &con[ci];
    t->name = S("C%d", ci);
    add_el(t, "w", TR, CS, 0, 1, use_random && ch(60) ? "Real (RANDOM (1...8))" : rlit(rng(1, 8)));
    add_el(t, "d", TR, CS, 0, 1, "0.0");
    add_el(t, "k", TR, CK, 0, 0, "0.0");
    add_el(t, "kd", TR, CK, 0, 0, "0.0");
    if (ch(70)) add_el(t, "n", TI, CS, 0, 1, S("%d", rng(0, 5)));
    if (ch(40)) add_el(t, "b", TB, CS, 0, 1, ch(50) ? "true" : "false");
    if (ch(50)) add_el(t, "mr", TR, CW, 1, 1, "0.0");
    if (ch(35)) add_narrow(t, "q2", 2, S("%d", rng(-9, 9)));
    t->has_pr = use_rec && ch(40);
    t->has_sp = use_ivs && ch(50);
    if (t->has_sp) add_el(t, "sk", TI, CA, 0, 0, "0"); /* ivk (sp), for the census */
    t->has_s1 = use_iv1 && t->has_sp && ch(60);
    t->has_op = use_ptr && ch(60);
    if (t->has_op) add_el(t, "ok", TI, CA, 0, 0, "0"); /* xv (op), for the census */
    t->has_mc = use_mcall && ch(60);
    if (t->has_mc) add_el(t, "mp", TR, CS, 0, 0, rlit(rng(0, 8)));
    L("TYPE %s IS CONNECTION", t->name);
    ind++;
    emit_elems(t);
    if (find(t, "n") && ch(50)) { t->getter = "n"; L("Int FUNCTION getn () IS RETURN ME.n; END FUNCTION;"); }
    L("PROCEDURE setk (Int CONST x) IS ME.k := Real (x); END;");
    L("PROCEDURE setkd (Int CONST x) IS ME.kd := Real (x); END;");
    if (t->has_sp) L("PROCEDURE spk () IS ME.sk := ivk (ME.sp)%s; END;", t->has_s1 ? " + 7 * ivk (ME.s1)" : "");
    if (t->has_op) {
        L("PROCEDURE opset (Int CONST k) IS ME.op := xo (k %% 5); END;");
        L("PROCEDURE opk () IS ME.ok := xv (ME.op); END;");
    }
    varp_helpers();
    and_helpers(t);
    mc_helpers(t);
    if (uses_cut(ci)) {
        L("PROCEDURE cut (Real CONST lim) IS");
        ind++;
        L("IF ME.w < lim THEN REPLICATE ME INTO 0; END;");
        if (ch(50)) { L("REPLICATE ME INTO 1;"); L("ME.w := 0.0;"); }
        ind--;
        L("END;");
    }
    if (find(t, "mr") && ch(50)) { L("PROCEDURE absorb (Real CONST x) IS ME.mr += x; END;"); t->absorb = 1; }
    if (use_boom) {
        /* the error ending's connection-level errors: d is 0 in one replicate */
        static const char *kinds[] = {
            "REPLICATE ME INTO 2 + d;",     /* connection REPLICATE while replicated */
            "ME.w := Real (2 ** (d - 1));", /* negative exponent */
            "ME.d := Real (10 ** (d + 10));", /* ** overflow */
            "ME.w := Real (%d %% d);",      /* % by zero */
        };
        int k = rnd(4);
        L("PROCEDURE cboom (Int CONST d) IS");
        L(S("  IF d = 0 THEN %s END;", kinds[k]), rng(1, 9));
        L("END;");
    }
    int n = rng(1, 2);
    for (int i = 0; i < n; i++) gen_sub(XCONN, t, ch(25), 0);
    gen_merge(t);
    ind--;
    L("END TYPE;");
}

static void gen_node(int ni)
{
    Ty *t = &node[ni];
    t->name = S("N%d", ni);
    add_el(t, "v", TR, CS, 0, 1, rlit(rng(-8, 8)));
    add_el(t, "u", TR, CS, 0, 1, rlit(rng(-8, 8)));
    add_el(t, "acc", TR, CA, 0, 1, "0.0");
    add_el(t, "key", TR, CK, 0, 0, "0.0");
    add_el(t, "h", TI, CS, 0, 1, use_random && ch(60) ? "RANDOM (0...9)" : S("%d", rng(0, 9)));
    add_el(t, "cnt", TI, CA, 0, 0, "0");
    add_el(t, "chk", TI, CA, 0, 0, "0");
    if (ch(50)) add_el(t, "f", TB, CS, 0, 1, ch(50) ? "true" : "false");
    if (ch(50)) add_el(t, "mr", TR, CW, 1, 1, "0.0");
    if (ch(40)) add_el(t, "mi", TI, CW, 1, 1, "0");
    if (ch(35)) add_narrow(t, "q1", 1, S("%d", rng(-9, 9)));
    t->has_pr = use_rec && ch(50);
    t->has_vv = use_vec && ch(60);
    t->has_sy = use_sym && ch(70);
    t->has_sp = use_ivs && ch(60);
    t->has_s1 = use_iv1 && ch(60);
    t->has_nm = use_ptr && ch(60);
    t->has_mc = use_mcall && ch(60);
    if (t->has_mc) add_el(t, "mp", TR, CS, 0, 0, rlit(rng(0, 8)));
    L("TYPE %s IS NODE", t->name);
    ind++;
    for (int i = 0; i < t->nif; i++)
        L("%s C%d %s;", t->if_mode[i] == 1 ? "IN" : "OUT", t->if_con[i], t->if_name[i]);
    emit_elems(t);
    if (ch(50)) { t->getter = "h"; L("Int FUNCTION geth () IS RETURN ME.h; END FUNCTION;"); }
    if (t->has_nm) L("PROCEDURE nmput (String CONST s) IS String VAR l := s; ME.nm := l; END;");
    if (use_boom) {
        L("PROCEDURE twin () IS REPLICATE ME INTO 2; END;");
        /* the error ending's node-level errors: d is 0 in one replicate */
        int k = rnd(t->has_vv ? 6 : 5);
        L("PROCEDURE nboom (Int CONST d) IS");
        if (k == 0) L("  IF d = 0 THEN ME.h := ME.h %% d; END;");
        else if (k == 1) L("  IF d = 0 THEN ME.h := 3 ** (d - 1); END;");
        /* the message names the operands: the same in every node, or
           which node's error comes first (threads) would decide it */
        else if (k == 2) L("  IF d = 0 THEN ME.h := (d + 7) ** (d + 40); END;");
        else if (k == 3) L("  IF d = 0 THEN ME.%s[].cboom (d); END;", t->if_name[rnd(t->nif)]);
        else if (k == 4) L("  IF d = 0 THEN REPLICATE ME INTO 2; END;");
        else L("  IF d = 0 THEN ME.vv[d - 1] := 0.0; END;");
        L("END;");
    }
    varp_helpers();
    and_helpers(t);
    mc_helpers(t);
    /* keys for WTA over interfaces: distinct per source (k) / destination (kd) */
    L("PROCEDURE nkey () IS ME.key := Real (INDEX + 64 * Int (ME.v)); END;");
    L("PROCEDURE mark (Int CONST g) IS");
    ind++;
    for (int i = 0; i < t->nif; i++)
        if (t->if_mode[i] == 2) L("ME.%s[].setk (INDEX + 64 * g + 256 * (ME.h BITAND 7));", t->if_name[i]);
    ind--;
    L("END;");
    if (t->has_sp) L("PROCEDURE spset (Interval CONST x) IS ME.sp := hull (ME.sp, x); END;");
    L("PROCEDURE markd (Int CONST g) IS");
    ind++;
    for (int i = 0; i < t->nif; i++)
        if (t->if_mode[i] == 1) L("ME.%s[].setkd (INDEX + 64 * g);", t->if_name[i]);
    ind--;
    L("END;");
    /* topology procedures, called only while unreplicated */
    if (uses_op(ni, OP_SPLIT)) {
        L("PROCEDURE split (Int CONST j, c) IS");
        L("  IF INDEX < j THEN REPLICATE ME INTO c; END;");
        L("END;");
    }
    if (uses_op(ni, OP_DIE)) L("PROCEDURE die (Int CONST j) IS IF INDEX = j THEN REPLICATE ME INTO 0; END; END;");
    if (uses_op(ni, OP_PRUNE)) L("PROCEDURE prune (Real CONST lim) IS ME.%s[].cut (lim); END;", t->if_name[0]);
    /* census: folds every connection element into chk, exactly */
    L("PROCEDURE cen () IS");
    ind++;
    L("Real VAR r := 0.0;");
    L("Int VAR c := 0;");
    L("Int1 VAR c1 := 0;");
    L("Int2 VAR c2 := 0;");
    L("Bool VAR b := false;");
    L("ME.acc := 0.0;");
    L("ME.cnt := 0;");
    L("ME.chk := 0;");
    L("REDUCTION ME.%s[].w:rsum INTO ME.acc;", t->if_name[0]);
    for (int i = 0; i < t->nif; i++) {
        if (t->if_mode[i] != 1) continue;
        Ty *c = &con[t->if_con[i]];
        const char *f = t->if_name[i];
        L("ME.cnt += MAXINDEX (ME.%s) + 1;", f);
        if (c->has_sp) L("ME.%s[].spk ();", f);
        if (c->has_op) L("ME.%s[].opk ();", f);
        for (int j = 0; j < c->nel; j++) {
            Elem *l = &c->el[j];
            if (l->ty == TB) L("b := false; REDUCTION ME.%s[].%s:bor INTO b; IF b THEN ME.chk += 1; END;", f, l->name);
            else if (l->nw)
                L("c%d := 0; REDUCTION ME.%s[].%s:i%dmax INTO c%d; ME.chk := ME.chk + Int (c%d);", l->nw, f, l->name,
                  l->nw, l->nw, l->nw);
            else if (l->ty == TR)
                L("r := 0.0; REDUCTION ME.%s[].%s:%s INTO r; ME.chk := ME.chk + Int (r * 4.0) %% 997;", f, l->name,
                  l->cls <= CA ? "rsum" : "rmax");
            else
                L("c := 0; REDUCTION ME.%s[].%s:%s INTO c; ME.chk := ME.chk + c %% 997;", f, l->name,
                  l->cls <= CA ? "isum" : "imax");
        }
    }
    if (t->has_pr) L("ME.chk := ME.chk + ME.pr.k + Int (ME.pr.z * 4.0);");
    if (t->has_vv) L("ME.chk := ME.chk + Int (ME.vv[0] * 4.0) + 3 * Int (ME.vv[2] * 4.0);");
    if (t->has_sy) L("IF ME.sy = red THEN ME.chk += 1; ELSIF ME.sy = green THEN ME.chk += 2; END;");
    if (t->has_sp) L("ME.chk := ME.chk + ivk (ME.sp) + Int (MIN ME.rz * 4.0) + 5 * Int (MAX ME.rz * 4.0);");
    if (t->has_s1) L("ME.chk := ME.chk + 7 * ivk (ME.s1);");
    if (t->has_nm) L("ME.chk := ME.chk + 11 * xs (ME.nm);");
    ind--;
    L("END;");
    if (find(t, "mr") && ch(50)) { L("PROCEDURE absorb (Real CONST x) IS ME.mr += x; END;"); t->absorb = 1; }
    int n = rng(size_medium ? 2 : 1, size_medium ? 4 : 3);
    for (int i = 0; i < n; i++) gen_sub(XNODE, t, ch(25), rnd(3));
    if (ch(50)) {
        /* directly recursive node procedure, depth bounded by its argument */
        Env e;
        env_init(&e, XNODE, t, 0);
        Sub *s = &t->sub[t->nsub];
        s->name = "rp";
        strcpy(s->pk, "d");
        L("PROCEDURE rp (Int CONST pd) IS");
        ind++;
        locals(&e);
        param_atoms(&e, "d");
        obj_atoms(&e);
        e.depthsub = 1;
        gen_stmts(&e, 1, 1);
        L("IF pd > 0 THEN ME.rp (pd - 1); END;");
        ind--;
        L("END;");
        t->nsub++;
    }
    gen_merge(t);
    ind--;
    L("END TYPE;");
}

/* ---------------------------------------------------------------- topology plan */
typedef struct { int kind; int u, a, b, c; int u2, f1, f2; } Op;
static Op reshape[2][4];
static int nreshape[2];
static Op build_conn[6];
static int nbuild_conn;
static int sz0[5];

/* an OUT interface of unit a and an IN interface of unit b of the same
 * connection type; 0 if there is none */
static int conn_pair(int a, int b, int *fo, int *fi)
{
    Ty *ta = &node[un[a].nt], *tb = &node[un[b].nt];
    int c[16][2], n = 0;
    for (int i = 0; i < ta->nif; i++)
        for (int j = 0; j < tb->nif; j++)
            if (ta->if_mode[i] == 2 && tb->if_mode[j] == 1 && ta->if_con[i] == tb->if_con[j]) c[n][0] = i, c[n][1] = j, n++;
    if (!n) return 0;
    int k = rnd(n);
    *fo = c[k][0];
    *fi = c[k][1];
    return 1;
}
static char *slice(Unit *u, int *lo_out)
{
    (void)lo_out;
    if (ch(50)) return "[]";
    int a = rnd(u->mx > 0 ? u->mx : 1);
    return S("[%d...%d]", a, a + rnd(3));
}
static int total_max(void)
{
    int s = 0;
    for (int i = 0; i < nun; i++) s += un[i].mx;
    return s;
}
static void plan(void)
{
    for (int i = 0; i < nun; i++) {
        un[i].mn = un[i].mx = un[i].lmin = sz0[i];
    }
    nbuild_conn = rng(2, 4);
    for (int i = 0; i < nbuild_conn; i++) {
        Op *o = &build_conn[i];
        o->u = rnd(nun);
        o->u2 = rnd(nun);
        if (!conn_pair(o->u, o->u2, &o->f1, &o->f2)) { i--; nbuild_conn--; continue; }
    }
    for (int r = 0; r < 2; r++) {
        nreshape[r] = do_r[r] ? rng(1, 3) : 0;
        for (int i = 0; i < nreshape[r]; i++) {
            Op *o = &reshape[r][i];
            memset(o, 0, sizeof *o);
            o->u = rnd(nun);
            Unit *u = &un[o->u];
            o->kind = rnd(6);
            if (u->arr && (o->kind <= OP_EXT)) o->kind = OP_PRUNE;
            switch (o->kind) {
            case OP_SPLIT:
                o->a = rng(1, 2);
                o->b = rng(2, 3);
                if (u->mx + o->a * (o->b - 1) > 12 || total_max() + o->a * (o->b - 1) > 40) { o->kind = OP_PRUNE; break; }
                u->mn += (o->a < u->mn ? o->a : u->mn) * (o->b - 1);
                u->mx += o->a * (o->b - 1);
                break;
            case OP_DIE:
                o->a = rnd(u->mx + 1);
                if (o->a < u->mn) u->mx--;
                if (u->mn > 0) u->mn--;
                break;
            case OP_EXT:
                if (u->mn > 1 && ch(50)) o->a = -rng(1, u->mn - 1);
                else o->a = rng(1, 2);
                if (u->mx + o->a > 12 || total_max() + o->a > 40) o->a = 0;
                u->mn += o->a;
                u->mx += o->a;
                if (!o->a) o->kind = OP_PRUNE;
                break;
            case OP_DISC:
            case OP_CONN:
                o->u2 = rnd(nun);
                if (!conn_pair(o->u, o->u2, &o->f1, &o->f2)) o->kind = OP_PRUNE;
                break;
            }
            if (o->kind == OP_PRUNE) o->a = rng(1, 10);
            if (u->mn < u->lmin) u->lmin = u->mn;
        }
    }
}
static int uses_op(int nt, int kind)
{
    for (int r = 0; r < 2; r++)
        for (int i = 0; do_r[r] && i < nreshape[r]; i++)
            if (reshape[r][i].kind == kind && un[reshape[r][i].u].nt == nt) return 1;
    return 0;
}
static int uses_cut(int ci)
{
    for (int n = 0; n < nnode; n++)
        if (node[n].if_con[0] == ci && uses_op(n, OP_PRUNE)) return 1;
    return 0;
}
static void emit_op(Op *o)
{
    Unit *u = &un[o->u];
    Ty *t = &node[u->nt];
    switch (o->kind) {
    case OP_SPLIT: L("ME.%s[].split (%d, %d);", u->name, o->a, o->b); break;
    case OP_DIE: L("ME.%s[].die (%d);", u->name, o->a); break;
    case OP_EXT: L("EXTEND ME.%s BY %s;", u->name, o->a < 0 ? S("-%d", -o->a) : S("%d", o->a)); break;
    case OP_PRUNE: L("ME.%s[].prune (%s);", u->name, rlit(o->a)); break;
    default: {
        Unit *u2 = &un[o->u2];
        L("%s ME.%s%s.%s %s ME.%s%s.%s;", o->kind == OP_CONN ? "CONNECT" : "DISCONNECT", u->name, slice(u, NULL),
          t->if_name[o->f1], o->kind == OP_CONN ? "TO" : "FROM", u2->name, slice(u2, NULL),
          node[u2->nt].if_name[o->f2]);
    }
    }
}

/* ---------------------------------------------------------------- network */
static void gen_net(void)
{
    Ty *t = &net;
    t->name = "Net";
    add_el(t, "x", TR, CS, 0, 1, "0.0");
    add_el(t, "y", TR, CS, 0, 1, rlit(rng(-8, 8)));
    add_el(t, "z", TI, CS, 0, 1, S("%d", rng(0, 9)));
    add_el(t, "key", TR, CK, 0, 0, "0.0");
    add_el(t, "ikey", TI, CK, 0, 0, "0");
    add_el(t, "mr", TR, CW, 1, 1, "0.0");
    if (ch(50)) add_el(t, "mi", TI, CW, 1, 1, "0");
    if (ch(50)) add_el(t, "bb", TB, CS, 0, 1, "false");
    for (int i = 0; i < nun; i++) {
        add_el(t, S("s%d", i), TR, CA, 0, 0, "0.0");
        add_el(t, S("k%d", i), TI, CA, 0, 0, "0");
    }
    L("TYPE Net IS NETWORK");
    ind++;
    for (int i = 0; i < nun; i++)
        L("%s %s;", un[i].arr ? (use_grid ? "Grid" : "Arr") : S("L%d", un[i].nt),
          un[i].arr ? un[i].elem : un[i].name);
    if (use_nomerge) L("Ql qq;");
    emit_elems(t);
    varp_helpers();
    if (use_nomerge) L("PROCEDURE qset (Int CONST k) IS ME.qq[].setup (k); END;");
    /* build: groups, node assignment before any connection, CONNECTs */
    L("PROCEDURE build () IS");
    ind++;
    for (int i = 0; i < nun; i++)
        if (!un[i].arr) L("EXTEND ME.%s BY %d;", un[i].name, sz0[i]);
    for (int i = 0; i < nun; i++)
        if (sz0[i] >= 1 && ch(40)) L("ME.%s[%d] := N%d (%s);", un[i].name, rnd(sz0[i]), un[i].nt, ctor(&node[un[i].nt]));
    for (int i = 0; i < nbuild_conn; i++) {
        Op *o = &build_conn[i];
        o->kind = OP_CONN;
        emit_op(o);
    }
    if (use_nomerge) L("EXTEND ME.qq BY %d; ME.qq[].setup (%d);", nomerge_n, nomerge_k);
    ind--;
    L("END;");
    L("PROCEDURE marks () IS");
    ind++;
    for (int i = 0; i < nun; i++) L("ME.%s[].mark (%d);", un[i].name, i);
    for (int i = 0; i < nun; i++) L("ME.%s[].markd (%d);", un[i].name, i);
    ind--;
    L("END;");
    L("PROCEDURE rkey () IS");
    L("  ME.key := Real (INDEX + 64 * Int (ME.x));");
    L("  ME.ikey := INDEX + 64 * (ME.z %% 100);");
    L("END;");
    for (int r = 0; r < 2; r++) {
        if (!do_r[r]) continue;
        L("PROCEDURE reshape%d () IS", r + 1);
        ind++;
        for (int i = 0; i < nreshape[r]; i++) emit_op(&reshape[r][i]);
        ind--;
        L("END;");
    }
    /* census: every node element of every unit, folded exactly */
    L("PROCEDURE census () IS");
    ind++;
    L("Real VAR r := 0.0;");
    L("Int VAR c := 0;");
    L("Int1 VAR c1 := 0;");
    L("Int2 VAR c2 := 0;");
    L("Bool VAR b := false;");
    if (use_rec) L("Pr VAR pq;");
    {
        char *s = "";
        for (int i = 0; i < nun; i++) s = i ? S("%s AND ME.%s[].cen ()", s, un[i].name) : S("ME.%s[].cen ()", un[i].name);
        L("%s;", s);
    }
    for (int i = 0; i < nun; i++) {
        Ty *nt = &node[un[i].nt];
        const char *g = un[i].name;
        L("ME.s%d := 0.0; REDUCTION ME.%s[].v:rsum INTO ME.s%d;", i, g, i);
        L("ME.k%d := MAXINDEX (ME.%s) + 1;", i, g);
        for (int j = 1; j < nt->nel; j++) {
            Elem *l = &nt->el[j];
            if (l->ty == TB) L("b := false; REDUCTION ME.%s[].%s:bor INTO b; IF b THEN ME.k%d += 1; END;", g, l->name, i);
            else if (l->nw)
                L("c%d := 0; REDUCTION ME.%s[].%s:i%dmax INTO c%d; ME.k%d := ME.k%d + Int (c%d);", l->nw, g, l->name,
                  l->nw, l->nw, i, i, l->nw);
            else if (l->ty == TR)
                L("r := 0.0; REDUCTION ME.%s[].%s:%s INTO r; ME.k%d := ME.k%d + Int (r * 4.0) %% 997;", g, l->name,
                  l->cls <= CA ? "rsum" : "rmax", i, i);
            else
                L("c := 0; REDUCTION ME.%s[].%s:%s INTO c; ME.k%d := ME.k%d + c %% 997;", g, l->name,
                  l->cls <= CA ? "isum" : "imax", i, i);
        }
        if (nt->has_pr)
            L("pq := Pr (0, 0.0); REDUCTION ME.%s[].pr:prsum INTO pq; ME.k%d := ME.k%d + pq.k %% 997 + Int (pq.z * 4.0) %% 997;", g, i, i);
    }
    if (use_nomerge) {
        L("c := 0; REDUCTION ME.qq[].tag:isum INTO c; ME.k0 := ME.k0 + c %% 997;");
        L("r := 0.0; REDUCTION ME.qq[].val:rsum INTO r; ME.k0 := ME.k0 + Int (r * 4.0) %% 997;");
    }
    ind--;
    L("END;");
    /* recursive network function */
    L("Int FUNCTION depth (Int CONST d) IS");
    L("  IF d <= 0 THEN RETURN ME.z %% %d; END;", rng(5, 50));
    L("  RETURN (ME.depth (d - 1) * %d + d) %% 1000;", rng(2, 5));
    L("END FUNCTION;");
    if (use_tern) {
        L("Int FUNCTION tdepth (Int CONST d) IS");
        L("  RETURN d <= 0 ? ME.z %% %d : (ME.tdepth (d - 1) * %d + d) %% 1000;", rng(5, 50), rng(2, 5));
        L("END FUNCTION;");
        L("Int FUNCTION inv () IS RETURN 1000 / ME.z; END FUNCTION;");
    }
    int n = rng(size_medium ? 2 : 1, size_medium ? 5 : 3);
    for (int i = 0; i < n; i++) gen_sub(XNET, t, ch(30), 0);
    if (use_boom) {
        /* one replicate fails: division by zero, a node subscript one past
           the group's end, EXTEND while replicated, or self-replication of
           nodes of a node array */
        int g = -1, a = -1;
        for (int i = 0; i < nun; i++)
            if (!un[i].arr && g < 0) g = i;
            else if (un[i].arr && !use_grid && a < 0) a = i;
        int kind = rnd(8), fo, fi, b = rnd(nun), c = rnd(nun);
        L("PROCEDURE boom (Int CONST j) IS");
        if (kind == 1 && g >= 0)
            L("  IF INDEX = j THEN ME.%s[MAXINDEX (ME.%s) + 1].nkey (); END;", un[g].name, un[g].name);
        else if (kind == 2 && g >= 0)
            L("  IF INDEX = j THEN EXTEND ME.%s BY 1; END;", un[g].name);
        else if (kind == 3 && a >= 0)
            L("  IF INDEX = j THEN ME.%s[].twin (); END;", un[a].name);
        else if (kind == 4)
            /* every node of one unit in replicate j fails (or none: empty) */
            L("  ME.%s[].nboom (INDEX - j);", un[b].name);
        else if (kind == 5 && conn_pair(b, c, &fo, &fi))
            /* CONNECT or DISCONNECT while replicated */
        {
            int conn = ch(50);
            L("  IF INDEX = j THEN %s ME.%s[].%s %s ME.%s[].%s; END;", conn ? "CONNECT" : "DISCONNECT", un[b].name,
              node[un[b].nt].if_name[fo], conn ? "TO" : "FROM", un[c].name, node[un[c].nt].if_name[fi]);
        }
        else if (kind == 6)
            L("  IF INDEX = j THEN ME.z := 2 ** (INDEX - j - 1); END;");
        else
            L("  IF INDEX = j THEN ME.z := 100 / (INDEX - j); END;");
        L("END;");
    }
    /* vary: make the replicates differ */
    {
        Env e;
        env_init(&e, XNET, t, 0);
        Sub *s = &t->sub[t->nsub];
        s->name = "vary";
        s->pk[0] = 0;
        L("PROCEDURE vary () IS");
        ind++;
        locals(&e);
        obj_atoms(&e);
        L("ME.x := q (Real (INDEX) * %s + ME.x);", rlit(rng(1, 6)));
        L("ME.z := (ME.z + INDEX * %d) %% 1000;", rng(1, 7));
        Unit *u = pick_unit(-1);
        Sub *p = pick_sub(&node[u->nt], node[u->nt].nsub, 0, -1);
        if (p && p->pk[0] == 'r') {
            if (p->needk) L("ME.marks ();");
            L("ME.%s[].%s (q (Real (INDEX) * 0.75)%s%s);", u->name, p->name, p->pk[1] ? ", " : "", p->pk[1] ? args(&e, p->pk + 1) : "");
        }
        gen_stmts(&e, rng(1, 2), 1);
        ind--;
        L("END;");
        t->nsub++;
    }
    gen_merge(t);
    ind--;
    L("END TYPE;");
}

/* ---------------------------------------------------------------- central agent */
static int reps_lo, reps_hi, replicated;

static Sub *net_proc(void) { return pick_sub(&net, net.nsub, 0, -1); }
static Sub *net_fn(void) { return pick_sub(&net, net.nsub, 1, -1); }

static void ca_env(Env *e)
{
    env_init(e, XCA, NULL, 0);
    at(e, "k", TI, 999, 0);
    at(e, "r", TR, 64, 2);
    at(e, "MAXINDEX (net)", TI, 63, 0);
    if (use_ivs) atv(e, "giv", NULL, 1);
    at(e, "net.x", TR, 64, 2);
    at(e, "net.z", TI, 999, 0);
    at(e, "net.depth (2)", TI, 999, 0);
    if (use_lastrep) {
        at(e, "net[MAXINDEX (net)].z", TI, 999, 0);
        at(e, "net[MAXINDEX (net)].x", TR, 64, 2);
    }
    Sub *f = net_fn();
    if (f) atfn(e, f, "net.");
    tg(e, "k", TI, 999);
    tg(e, "r", TR, 64);
}

static void ca_call(Env *e)
{
    Sub *p = net_proc();
    if (!p) return;
    char *a = args(e, p->pk);
    int r = rnd(8);
    if (!replicated || r < 2) L("net.%s (%s);", p->name, a);
    else if (r < 4) L("net[].%s (%s);", p->name, a);
    else if (r < 5) {
        int lo = rnd(reps_lo), hi = lo + rnd(20);
        if (use_ivs && ch(50)) { L("giv := %d ... %d;", lo, hi); L("net[giv].%s (%s);", p->name, a); }
        else L("net[%d...%d].%s (%s);", lo, hi, p->name, a);
    }
    else if (r < 6) L("net[%d].%s (%s);", rnd(reps_lo), p->name, a);
    else if (r < 7) L("net[MAXINDEX (net)].%s (%s);", p->name, a);
    else {
        at(e, "i", TI, 63, 0);
        L("FOR i := 0 TO MAXINDEX (net) REPEAT net[i].%s (%s); END;", p->name, args(e, p->pk));
        e->nat--;
    }
}

/* a call on all replicates right after MERGE (the merge-first pass runs
   it on lane block 0 when every replicate computes it alike), its
   arguments sometimes reading the last replicate */
static void after_merge(Env *e)
{
    if (!use_lastrep || !ch(60)) return;
    Sub *p = net_proc();
    if (p) L("net[].%s (%s);", p->name, args(e, p->pk));
}

/* a store of the central agent into one replicate's network element, or
   through the bare `net` into every replicate's */
static void castore(Env *e)
{
    int k = rnd(10);
    const char *o = k < 5 ? S("net[%d]", rnd(reps_lo)) : "net";
    Unit *u = pick_unit(-1);
    switch (k % 5) {
    case 0: L("%s.z := %s;", o, norm_i(gen_int(e, 1), 999).s); break;
    case 1:
        if (u->lmin >= 1 && ch(50)) L("%s.%s[%d].v := %s;", o, u->name, rnd(u->lmin), norm_r(gen_real(e, 1)).s);
        else L("%s.x := %s;", o, norm_r(gen_real(e, 1)).s);
        break;
    case 2: L("cadd (%s.z, %d);", o, rng(1, 9)); break;
    case 3: L("FOR %s.z := %d TO %d REPEAT END;", o, rng(0, 3), rng(2, 9)); break;
    default: L("REDUCTION net[].z:imax INTO %s.z;", o); break;
    }
}

static void ca_rstmt(Env *e)
{
    if (use_castore && ch(25)) { castore(e); return; }
    int r = rnd(10);
    Unit *u = pick_unit(-1);
    if (use_ext && ch(15) && u->lmin >= 1 && ext_node[u->nt]) {
        /* one replicate's node to C: a copy of its record; VAR copied back */
        int rep = rnd(reps_lo), i = rnd(u->lmin);
        if (ch(50)) L("xb%d (net[%d].%s[%d]);", u->nt, rep, u->name, i);
        else L("pString (\"xk \"); pInt (xk%d (net[%d].%s[%d])); pString (\"\\n\");", u->nt, rep, u->name, i);
        return;
    }
    if (use_ioi && ch(15) && u->lmin >= 1) {
        L("initIOareaxI (xi, MAXINDEX (net) + 1, MAXINDEX (net[0].%s) + 1);", u->name);
        L("net[].%s[].h --> xi;", u->name);
        L("xisum (xi, si); pString (\"xi \"); pInt (si); pString (\"\\n\");");
        if (ch(50)) L("xiadd (xi, %d);", rng(1, 5));
        L("net%s.%s[].h <-- xi;", ch(50) ? "" : "[]", u->name);
        return;
    }
    if (r < 4) ca_call(e);
    else if (r == 4) {
        Sub *p = net_proc();
        if (!p) return;
        int ik = ch(50);
        L("net[].rkey ();");
        L("WTA net[].%s:%s.%s (%s);", ik ? "ikey" : "key", ik ? (ch(50) ? "ibig" : "ismall") : (ch(50) ? "rbig" : "rsmall"),
          p->name, args(e, p->pk));
    } else if (r == 5) {
        static const char *ro[][2] = {{"x", "rsum"}, {"y", "rmax"}, {"z", "isum"}, {"mr", "rmin"}};
        int k = rnd(4);
        const char *t = ro[k][1][0] == 'r' ? "sr" : "si";
        L("REDUCTION net[].%s:%s INTO %s;", ro[k][0], ro[k][1], t);
        if (t[1] == 'r') L("pString (\"red \"); pInt (Int (sr * 4.0)); pString (\"\\n\");");
        else L("pString (\"red \"); pInt (si); pString (\"\\n\");");
    } else if (r == 6 && u->lmin >= 1) {
        L("initIOareaxR (xa, MAXINDEX (net) + 1, MAXINDEX (net[0].%s) + 1);", u->name);
        L("net[].%s[].%s --> xa;", u->name, ch(50) ? "v" : "u");
        L("net%s.%s[].%s <-- xa;", ch(50) ? "" : "[]", u->name, ch(50) ? "u" : "v");
    } else if (r == 7 && u->lmin >= 2) {
        Unit *u2 = pick_unit(-1);
        if (u2->lmin < 2) u2 = u;
        L("initIOareaxR (xb, MAXINDEX (net) + 1, 2);");
        L("net[].%s[0...1].v --> xb;", u->name);
        L("net[].%s[0...1].u <-- xb;", u2->name);
    } else if (r == 8 && u->lmin >= 1) {
        L("net[%d].%s[%d].v := %s;", rnd(reps_lo), u->name, rnd(u->lmin), norm_r(gen_real(e, 1)).s);
    } else if (r == 9) {
        Sub *p = net_proc();
        Sub *f = net_fn();
        if (p && f && p->pk[0]) {
            /* a network function result as (part of) an argument */
            const char *fa = S("net.%s (%s)", f->name, args(e, f->pk));
            const char *w = p->pk[0] == 'r' ? (f->fn == 1 ? fa : S("Real (%s)", fa))
                          : p->pk[0] == 'i' ? (f->fn == 2 ? fa : S("Int (%s)", fa))
                          : p->pk[0] == 'b' ? S("(%s > %s)", fa, f->fn == 1 ? "0.0" : "0")
                          : NULL;
            if (w) {
                L("net[].%s (%s%s%s);", p->name, w, p->pk[1] ? ", " : "", p->pk[1] ? args(e, p->pk + 1) : "");
                return;
            }
        }
        ca_call(e);
    } else ca_call(e);
}

static void gen_ca(void)
{
    L("Net VAR net;");
    L("Real IO xa, xb;");
    if (use_ioi) L("Int IO xi;");
    if (use_maze) L("PROCEDURE rep (Int CONST n) IS REPLICATE net INTO n; END;");
    L("PROCEDURE show (Int CONST tag) IS");
    ind++;
    L("Int VAR r := 0, si := 0;");
    L("Real VAR sr := 0.0;");
    L("Bool VAR sbq := false;");
    L("net[].census ();");
    {
        char *s = "";
        for (int i = 0; i < nun; i++) s = S("%s pString (\" \"); pInt (MAXINDEX (net[0].%s) + 1);", s, un[i].name);
        L("pString (\"show \"); pInt (tag); pString (\" reps \"); pInt (MAXINDEX (net) + 1); pString (\" sizes\");%s", s);
    }
    L("pString (\"\\n\");");
    L("WHILE r <= MAXINDEX (net) REPEAT");
    ind++;
    L("pString (\"  r\"); pInt (r); pString (\" x \"); pReal (net[r].x); pString (\" y \"); pReal (net[r].y);");
    L("pString (\" z \"); pInt (net[r].z); pString (\" mr \"); pInt (Int (net[r].mr * 4.0));");
    if (find(&net, "mi")) L("pString (\" mi \"); pInt (net[r].mi);");
    if (find(&net, "bb")) L("IF net[r].bb THEN pString (\" T\"); ELSE pString (\" F\"); END;");
    for (int i = 0; i < nun; i++)
        L("pString (\" %s \"); pReal (net[r].s%d); pString (\" \"); pInt (net[r].k%d);", un[i].name, i, i);
    L("pString (\"\\n\");");
    L("r += 1;");
    ind--;
    L("END REPEAT;");
    L("REDUCTION net[].s0:rsum INTO sr; pString (\"sum \"); pInt (Int (sr * 4.0));");
    L("REDUCTION net[].k0:isum INTO si; pString (\" \"); pInt (si);");
    L("REDUCTION net[].z:imax INTO si; pString (\" \"); pInt (si);");
    L("REDUCTION net[].mr:rmax INTO sr; pString (\" \"); pInt (Int (sr * 4.0));");
    if (find(&net, "bb")) L("REDUCTION net[].bb:band INTO sbq; IF sbq THEN pString (\" T\"); END;");
    if (un[0].lmin >= 1) L("pString (\" n0 \"); pReal (net[MAXINDEX (net)].%s[0].u);", un[0].name);
    L("pString (\"\\n\");");
    ind--;
    L("END PROCEDURE;");

    L("PROCEDURE program () IS");
    ind++;
    L("Int VAR i := 0, k := 0, n := 0, si := 0;");
    L("Real VAR r := 0.0, sr := 0.0;");
    if (motif_on) L("motif ();");
    Env e;
    ca_env(&e);
    replicated = 0;
    reps_lo = reps_hi = 1;
    L("net.build ();");
    if (use_random) L("pString (\"draw \"); pInt (RANDOM (0...99)); pString (\"\\n\");");
    for (int i = 0; i < nun; i++)
        if (sz0[i] >= 1 && ch(30)) L("net.%s[0].v := %s;", un[i].name, rlit(rng(-8, 8)));
    if (ch(50)) {
        int a = rnd(nun), b = rnd(nun), fo, fi;
        if (sz0[a] >= 1 && sz0[b] >= 1 && conn_pair(a, b, &fo, &fi)) {
            Ty *ta = &node[un[a].nt];
            L("(net.%s[%d].%s --> net.%s[%d].%s) := C%d (%s);", un[a].name, rnd(sz0[a]), ta->if_name[fo], un[b].name,
              rnd(sz0[b]), node[un[b].nt].if_name[fi], ta->if_con[fo], ctor(&con[ta->if_con[fo]]));
        }
    }
    L("show (1);");
    for (int i = rng(1, 2); i > 0; i--) ca_call(&e);
    if (do_r[0]) { L("net.reshape1 ();"); L("show (2);"); }
    /* round 1: a count below, at or above the lane width, or a fixed interval */
    static const int cnt[] = {1, 2, 3, 16, 17, 32, 33, 48};
    int k1 = cnt[rnd(size_medium ? 8 : 6)];
    if (ch(20)) L("REPLICATE net INTO %d...%d;", k1, k1);
    else if (use_ivs && ch(30)) { L("giv := %d ... %d;", k1, k1); L("REPLICATE net INTO giv;"); }
    else L("REPLICATE net INTO %d;", k1);
    replicated = 1;
    reps_lo = reps_hi = k1;
    L("net[].vary ();");
    if (use_nomerge) L("net[].qset (%d);", nomerge_k + 1); /* the same in every replicate */
    for (int i = rng(3, size_medium ? 7 : 5); i > 0; i--) ca_rstmt(&e);
    L("show (3);");
    int merges = 1;
    if (ch(60)) {
        merges = 2;
        L("MERGE net;");
        after_merge(&e);
        L("show (4);");
        ca_rstmt(&e);
    }
    L("REPLICATE net INTO 1;");
    replicated = 0;
    reps_lo = reps_hi = 1;
    L("show (5);");
    if (do_r[1]) { L("net.reshape2 ();"); L("show (6);"); }
    /* round 2, if the MERGE sums stay bounded: 64 * product of counts <= 2^20 */
    double p = merges == 2 ? (double)k1 * k1 : k1;
    int k2 = 0;
    for (int c = 2; c <= 17; c++)
        if (p * c * c <= 16384 && ch(50)) k2 = c;
    if (k2 >= 2) {
        L("REPLICATE net INTO %d;", k2);
        replicated = 1;
        reps_lo = reps_hi = k2;
        L("net[].vary ();");
        for (int i = rng(1, 3); i > 0; i--) ca_rstmt(&e);
        L("MERGE net;");
        after_merge(&e);
        L("show (7);");
        L("REPLICATE net INTO 1;");
        replicated = 0;
        reps_lo = reps_hi = 1;
        L("show (8);");
    }
    if (use_maze) {
        /* calls where the network may or may not be replicated: after an
           IF that replicates on one branch, in a loop that replicates at
           its end, after a procedure that replicates */
        static const int kk[] = {2, 16, 17, 33};
        int k = kk[rnd(4)];
        L("k := %d;", rnd(3));
        L("IF k = 1 THEN REPLICATE net INTO %d; END;", k);
        L("net[].vary ();");
        L("show (9);");
        L("REPLICATE net INTO 1;");
        L("i := 0;");
        L("WHILE i < 2 REPEAT net[].vary (); IF i = %d THEN REPLICATE net INTO %d; END; i += 1; END;", rnd(2), k);
        L("show (10);");
        L("REPLICATE net INTO 1;");
        L("rep (%d);", kk[rnd(4)]);
        L("net[].vary ();");
        L("show (11);");
        L("REPLICATE net INTO 1;");
        L("net[].vary ();");
        L("show (12);");
    }
    if (use_castore) L("pString (\"gw \"); pInt (gw); pString (\"\\n\");");
    /* FOR semantics (§8.6): bound evaluated once, UNTIL after the body,
     * the variable's value after the loop */
    int a = rng(1, 4);
    L("k := %d;", a);
    L("FOR i := %d TO k REPEAT k += 1; END;", rng(0, 2));
    L("pString (\"for \"); pInt (i); pString (\" \"); pInt (k);");
    L("n := %d;", rng(0, 9));
    L("FOR i := %d DOWNTO %d REPEAT n := (n * 3 + i) %% 100; UNTIL n > %d END;", rng(4, 8), rng(0, 2), rng(20, 90));
    L("pString (\" \"); pInt (i); pString (\" \"); pInt (n);");
    L("FOR i := 0 TO %d REPEAT IF i = %d THEN BREAK; END; i += 1; END;", rng(3, 9), rng(2, 6));
    L("pString (\" \"); pInt (i); pString (\" \"); pInt (fr (%d)); pString (\"\\n\");", rng(0, 5));
    /* a compiler-chosen replicate count: nothing count-dependent is printed after it */
    if (ch(40)) {
        int lo = rng(1, 3), hi = lo + rng(1, 20);
        if (use_ivs) { L("giv := Interval (%d, %d);", lo, hi); L("REPLICATE net INTO giv;"); }
        else L("REPLICATE net INTO %d...%d;", lo, hi);
        L("n := MAXINDEX (net) + 1;");
        L("pString ((n >= %d AND n <= %d) ? \"range ok\\n\" : \"range bad\\n\");", lo, hi);
        L("REPLICATE net INTO 1;");
    }
    if (use_boom) {
        /* every build must stop with the same message and exit status, and
           keep what was printed before */
        static const int kk[] = {1, 2, 16, 17, 33};
        int k = kk[rnd(5)], how = rnd(8);
        L("REPLICATE net INTO %d;", k);
        if (how == 0) {
            /* a replicate subscript one past the last */
            L("n := MAXINDEX (net) + 1;");
            L("net[n].boom (0);");
        } else if (how == 1 && k >= 2) {
            /* REPLICATE (other than INTO 1) while replicated */
            L("REPLICATE net INTO %d;", k + rng(-1, 1));
        } else if (how == 2) {
            /* a count that is not positive, from a variable */
            L("n := MAXINDEX (net) - %d;", k - 1 + rng(1, 2));
            L("REPLICATE net INTO 1;");
            L("REPLICATE net INTO n;");
        } else {
            L("net[].boom (%d);", rnd(k));
        }
        L("pString (\"not reached\\n\");");
    }
    ind--;
    L("END PROCEDURE;");
}

/* ---------------------------------------------------------------- layered motif */
/* For one seed in three, a second network of the shape a trainer has:
 * groups a (inputs), z (a bias) -> b -> c over fully connected bundles, a
 * forward pass that sums x * w over ME.in[], a backward pass that sums
 * e * w over ME.out[], weight changes per replicate or after MERGE,
 * pruning and reconnecting.  It is what the dense pass (and fuse, vsum)
 * rewrite, so the differential run compares those rewrites with the
 * unoptimised reference.  Values stay on the 1/4 grid (q), bounded so that
 * every sum is exact.  Drawn from its own PRNG stream so that the rest of
 * the program is the seed's as before. */

static void gen_motif_types(void)
{
    /* weights changed per replicate (then merged), or only after MERGE from
       the merged gradient (then equal in every replicate: not merged, kept
       once per lane block by the shared pass) */
    int perrep = ch(50);
    /* the layers' code selected by Bool CONST parameters that each call
       fixes (one node procedure for every layer, as a trainer may be
       written): the const-branch pass keeps one arm per group */
    int dispatch = ch(50);
    /* the layer as an Int CONST compared with constants instead (the
       transport analysis and const-branch decide those IFs too), and one
       call in four with a mode the compiler cannot know */
    int imode = dispatch && ch(50);
    int unknown_mode = imode && ch(25);
    /* the product through a function of the program that only returns an
       expression (fuse recomputes it at the reads like an operator) */
    int ufn = ch(40);
    if (ufn) L("Real FUNCTION mmul (Real CONST a, b) IS RETURN a * b; END;");
    L("TYPE Ml IS CONNECTION");
    L("  Real w := %s, g := 0.0, input := 0.0, signal := 0.0;", rlit(rng(-8, 8)));
    L("  PROCEDURE send (Real CONST x) IS ME.input := x; ME.signal := %s; END;",
      ufn ? "mmul (x, ME.w)" : "x * ME.w");
    L("  PROCEDURE back (Real CONST e) IS ME.signal := e * ME.w; END;");
    L("  PROCEDURE learn (Real CONST e) IS ME.g := q (ME.g + ME.input * e * 0.25); END;");
    L("  PROCEDURE apply () IS ME.w := q (ME.w + ME.g * 0.5); ME.g := 0.0; END;");
    L("  PROCEDURE cut (Real CONST lim) IS IF ME.w %s lim THEN REPLICATE ME INTO 0; END; END;", ch(50) ? "<" : ">");
    /* MERGE leaves out the values in transit (fuse keeps them out of
       memory): nothing reads them after MERGE before they are sent again */
    if (perrep) L("  MERGE IS ME.w := maxReal (ME.w, YOU.w) + 0.0; ME.g := maxReal (ME.g, YOU.g) + 0.0; END MERGE;");
    else L("  MERGE IS ME.g := maxReal (ME.g, YOU.g) + 0.0; END MERGE;");
    L("END TYPE;");
    L("TYPE Mu IS NODE");
    L("  IN Ml in;");
    L("  OUT Ml out;");
    L("  Real x := 0.0, net := 0.0, err := 0.0, back := 0.0;");
    L("  Int fan := 0;");
    L("  PROCEDURE seed (Real CONST r) IS ME.x := q (r * Real (INDEX + 1) + %s); ME.out[].send (ME.x); END;",
      rlit(rng(-8, 8)));
    /* statements before the forward sum: assignments of ME's elements
       that the sum does not read (the dense pass may run the sum first)
       or a local (only at the start of a procedure) */
    static const char *const pres[] = {"ME.err := 0.0;", "ME.x := 0.0;", "ME.back := ME.err * 0.5;"};
    const char *pre = ch(35) ? pres[rnd(3)] : NULL;
    int local_pre = !dispatch && ch(30);
    const char *xf = ch(50) ? S("ME.x := q (ME.net * 0.5 + %s);", rlit(rng(-4, 4)))
                            : S("ME.x := q (maxReal (ME.net, %s));", rlit(rng(-8, 0)));
    const char *half = ch(50) ? "" : " * 0.5";
    L("  PROCEDURE fire () IS");
    if (local_pre) L("    Real VAR t0 := q (ME.err * 0.5);");
    if (pre) L("    %s", pre);
    if (local_pre) L("    ME.back := t0;");
    L("    REDUCTION ME.in[].signal:rsum INTO ME.net;");
    L("    %s", xf);
    L("    ME.out[].send (ME.x);");
    L("  END;");
    L("  PROCEDURE blame (Real CONST t) IS ME.err := q (t - ME.x); ME.in[].back (ME.err); END;");
    L("  PROCEDURE gather () IS");
    L("    REDUCTION ME.out[].signal:rsum INTO ME.back;");
    L("    ME.err := q (ME.back%s);", half);
    L("    ME.in[].back (ME.err);");
    L("  END;");
    if (dispatch) {
        /* seed and fire, blame and gather in one procedure each, selected
           by a Bool CONST or (imode) by the layer's number: 0 inputs and
           bias, 1 hidden, 2 outputs, with an early RETURN for one layer
           (decided: the sum after it must not run) in some programs */
        static const char *const hid[] = {"layer >= 1", "layer <> 0 AND layer < 5", "NOT (layer = 0)",
                                          "layer = 1 OR layer = 2"};
        int ret = imode && ch(40) ? rng(1, 3) : 0; /* 3: never */
        L("  PROCEDURE act (%s; Real CONST r) IS", imode ? "Int CONST layer" : "Bool CONST isInput");
        L("    IF %s THEN", imode ? "layer = 0" : ch(50) ? "isInput" : "NOT (NOT isInput)");
        L("      ME.x := q (r * Real (INDEX + 1) + %s); ME.out[].send (ME.x);", rlit(rng(-8, 8)));
        if (imode) L("    ELSIF %s THEN", hid[rnd(4)]);
        else L("    ELSE");
        if (ret) L("      IF layer = %d THEN RETURN; END;", ret);
        if (pre) L("      %s", pre);
        L("      REDUCTION ME.in[].signal:rsum INTO ME.net;");
        L("      %s", xf);
        L("      ME.out[].send (ME.x);");
        L("    END;");
        L("  END;");
        L("  PROCEDURE learn (%s; Real CONST t) IS", imode ? "Int CONST layer" : "Bool CONST isOutput");
        L("    IF %s THEN", imode ? (ch(50) ? "layer < 2" : "layer <> 2") : "NOT isOutput");
        L("      REDUCTION ME.out[].signal:rsum INTO ME.back;");
        L("      ME.err := q (ME.back%s);", half);
        L("    ELSE");
        L("      ME.err := q (t - ME.x);");
        L("    END;");
        L("    ME.in[].back (ME.err);");
        L("  END;");
    }
    L("  PROCEDURE adapt () IS ME.in[].learn (ME.err); END;");
    L("  PROCEDURE apply () IS ME.in[].apply (); END;");
    L("  PROCEDURE prune (Real CONST lim) IS ME.in[].cut (lim); END;");
    L("  PROCEDURE count () IS ME.fan := MAXINDEX (ME.in) + 1; END;");
    L("  MERGE IS ME.x := maxReal (ME.x, YOU.x) + 0.0; ME.net := maxReal (ME.net, YOU.net) + 0.0;");
    L("    ME.err := minReal (ME.err, YOU.err) + 0.0; ME.back := maxReal (ME.back, YOU.back) + 0.0;");
    L("    ME.fan := ME.fan > YOU.fan ? ME.fan : YOU.fan; END MERGE;");
    L("END TYPE;");
    L("TYPE Mg IS GROUP OF Mu END TYPE;");
    int na = rng(0, 20), nz = rng(0, 2), nb = rng(0, 20), nc = rng(0, 5);
    if (ch(30)) nb = 8 * rng(1, 2) + rng(-1, 1); /* around the kernel's tile */
    const char *bias = nz ? "CONNECT ME.z[].out TO ME.b[].in;" : "";
    L("TYPE Mn IS NETWORK");
    L("  Mg a, z, b, c;");
    L("  Real total := 0.0, blame := 0.0, hid := 0.0, cnet := 0.0;");
    L("  Int links := 0, cf := 0;");
    L("  PROCEDURE build () IS");
    L("    EXTEND ME.a BY %d; EXTEND ME.z BY %d; EXTEND ME.b BY %d; EXTEND ME.c BY %d;", na, nz, nb, nc);
    L("    CONNECT ME.a[].out TO ME.b[].in; %s", bias);
    L("    CONNECT ME.b[].out TO ME.c[].in;");
    L("  END;");
    L("  PROCEDURE reconnect () IS");
    L("    CONNECT ME.a[].out TO ME.b[].in; %s", bias);
    L("    CONNECT ME.b[].out TO ME.c[].in;");
    L("  END;");
    L("  PROCEDURE forward () IS");
    if (imode) {
        L("    ME.a[].act (0, q (Real (INDEX) * 0.25 + %s));", rlit(rng(-8, 8)));
        L("    ME.z[].act (0, 1.0);");
        L("    ME.b[].act (%s, 0.0);", unknown_mode ? "ME.cf - ME.cf + 1" : "1");
        L("    ME.c[].act (2, 0.0);");
    } else if (dispatch) {
        L("    ME.a[].act (true, q (Real (INDEX) * 0.25 + %s));", rlit(rng(-8, 8)));
        L("    ME.z[].act (true, 1.0);");
        L("    ME.b[].act (false, 0.0);");
        L("    ME.c[].act (false, 0.0);");
    } else {
        L("    ME.a[].seed (q (Real (INDEX) * 0.25 + %s));", rlit(rng(-8, 8)));
        L("    ME.z[].seed (1.0);");
        L("    ME.b[].fire ();");
        L("    ME.c[].fire ();");
    }
    L("    REDUCTION ME.c[].x:rsum INTO ME.total;");
    /* the sums themselves too: a sum that must not run (a decided RETURN
       before it) shows here */
    L("    REDUCTION ME.c[].net:rsum INTO ME.cnet;");
    L("    REDUCTION ME.b[].x:rsum INTO ME.hid;");
    L("  END;");
    L("  PROCEDURE backward () IS");
    if (imode) {
        L("    ME.c[].learn (2, %s);", rlit(rng(-8, 8)));
        L("    ME.b[].learn (1, 0.0);");
    } else if (dispatch) {
        L("    ME.c[].learn (true, %s);", rlit(rng(-8, 8)));
        L("    ME.b[].learn (false, 0.0);");
    } else {
        L("    ME.c[].blame (%s);", rlit(rng(-8, 8)));
        L("    ME.b[].gather ();");
    }
    L("    REDUCTION ME.b[].back:rsum INTO ME.blame;");
    L("  END;");
    L("  PROCEDURE adapt () IS ME.c[].adapt (); ME.b[].adapt (); END;");
    L("  PROCEDURE update () IS ME.c[].apply (); ME.b[].apply (); END;");
    L("  PROCEDURE prune (Real CONST lim) IS ME.b[].prune (lim); ME.c[].prune (lim); END;");
    L("  PROCEDURE countLinks () IS");
    L("    ME.b[].count (); ME.c[].count ();");
    L("    REDUCTION ME.b[].fan:isum INTO ME.links;");
    L("    REDUCTION ME.c[].fan:isum INTO ME.cf;");
    L("    ME.links += ME.cf;");
    L("  END;");
    L("  MERGE IS ME.total := maxReal (ME.total, YOU.total) + 0.0; ME.blame := minReal (ME.blame, YOU.blame) + 0.0;");
    L("    ME.hid := maxReal (ME.hid, YOU.hid) + 0.0; ME.cnet := maxReal (ME.cnet, YOU.cnet) + 0.0; END MERGE;");
    L("END TYPE;");
    L("Mn VAR mnet;");
    L("PROCEDURE mshow (Int CONST tag) IS");
    L("  Int VAR r := 0;");
    L("  pString (\"motif \"); pInt (tag); pString (\" reps \"); pInt (MAXINDEX (mnet) + 1); pString (\"\\n\");");
    L("  WHILE r <= MAXINDEX (mnet) REPEAT");
    L("    pString (\"  \"); pReal (mnet[r].total); pString (\" \"); pReal (mnet[r].blame);");
    L("    pString (\" \"); pReal (mnet[r].hid); pString (\" \"); pReal (mnet[r].cnet); pString (\"\\n\");");
    L("    r += %d;", rng(1, 5));
    L("  END REPEAT;");
    L("END;");
    L("PROCEDURE mrounds (Int CONST tag, reps) IS");
    L("  Int VAR i := 0;");
    L("  REPLICATE mnet INTO reps;");
    L("  FOR i := 1 TO %d REPEAT", rng(1, 3));
    L("    mnet[].forward ();");
    L("    mnet[].backward ();");
    L("    mnet[].adapt ();");
    if (perrep) L("    mnet[].update ();"); /* weights that differ per replicate */
    L("  END;");
    L("  mshow (tag);");
    L("  MERGE mnet;");
    if (!perrep) L("  mnet[].update ();"); /* the same in every replicate */
    L("  mnet[].forward ();");
    L("  mshow (tag + 1);");
    L("  REPLICATE mnet INTO 1;");
    L("END;");
    static const int reps[] = {1, 2, 15, 16, 17, 20, 33};
    L("PROCEDURE motif () IS");
    L("  mnet.build ();");
    L("  mrounds (1, %d);", reps[rnd(7)]);
    L("  mnet.prune (%s);", rlit(rng(-4, 4)));
    L("  mnet.countLinks ();");
    L("  pString (\"motif links \"); pInt (mnet.links); pString (\"\\n\");");
    L("  mrounds (3, %d);", reps[rnd(7)]);
    if (ch(60)) {
        L("  mnet.reconnect ();");
        L("  mrounds (5, %d);", reps[rnd(7)]);
    }
    L("END;");
}

/* ---------------------------------------------------------------- main */
int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: cupitgen SEED [--size small|medium]\n");
        return 2;
    }
    uint64_t seed = strtoull(argv[1], NULL, 10);
    size_medium = 0;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--size") && i + 1 < argc) {
            size_medium = !strcmp(argv[++i], "medium");
        } else {
            fprintf(stderr, "cupitgen: unknown argument '%s'\n", argv[i]);
            return 2;
        }
    }
    /* Feature flags: bits of two hashes of the seed, one bit per feature
     * (next free: bit 61 of hb).  A feature added later draws rnd() only
     * under its own flag, so every seed without it gives the same program
     * as before. */
    const uint64_t ha = seed * 0x9E3779B97F4A7C15ULL;
    const uint64_t hb = seed * 0xD6E8FEB86659FD93ULL;
#define SEED_BIT(h, n) ((((h) >> (n)) & 1) == 0)
    use_random = (ha >> 40) % 4 == 0;
    use_div = SEED_BIT(ha, 42);
    use_lastrep = SEED_BIT(ha, 43);
    use_tern = SEED_BIT(ha, 44);
    use_varp = SEED_BIT(ha, 45);
    use_castore = SEED_BIT(ha, 46);
    gw_index = (int)((ha >> 47) % 20);
    use_gvarp = use_varp && SEED_BIT(hb, 50);
    use_bits = SEED_BIT(hb, 51);
    use_iv = SEED_BIT(hb, 52);
    use_ivs = SEED_BIT(hb, 53);
    use_andme = SEED_BIT(hb, 54);
    use_mcall = SEED_BIT(hb, 55);
    use_iv1 = use_ivs && SEED_BIT(hb, 56);
    use_ext = SEED_BIT(hb, 57);
    use_ptr = use_ext && SEED_BIT(hb, 58);
    use_ioi = use_ext && SEED_BIT(hb, 59);
    use_sig = SEED_BIT(hb, 60);
#undef SEED_BIT
    st = seed * 0x2545F4914F6CDD1DULL + 1;
    ncon = ch(50) ? 2 : 1;
    nnode = ch(60) ? 2 : 1;
    use_rec = ch(40);
    use_vec = ch(30);
    use_sym = ch(35);
    use_boom = ch(12);
    use_maze = ch(40);
    for (int i = 0; i < nnode; i++) {
        node[i].ncon[0] = 1;
        if (ncon == 2) {
            if (ch(50)) node[i].ncon[1] = 1;
            if (i == 1 && ch(40)) { node[i].ncon[0] = 0; node[i].ncon[1] = 1; }
        }
    }
    for (int i = 0; i < nnode; i++) {
        Ty *t = &node[i];
        for (int c = 0; c < ncon; c++)
            if (t->ncon[c]) {
                t->if_mode[t->nif] = 1; t->if_con[t->nif] = c; t->if_name[t->nif] = S("i%d", c); t->nif++;
                t->if_mode[t->nif] = 2; t->if_con[t->nif] = c; t->if_name[t->nif] = S("o%d", c); t->nif++;
            }
    }
    /* units: 2-3 groups and sometimes a node array */
    nun = size_medium ? rng(2, 3) : 2;
    for (int i = 0; i < nun; i++) {
        un[i] = (Unit){S("g%d", i), rnd(nnode), 0, 0, 0, 0, NULL};
        sz0[i] = rng(1, size_medium ? 7 : 5);
        if (ch(10)) sz0[i] = 0;
    }
    if (ch(35)) {
        un[nun] = (Unit){"ar", rnd(nnode), 1, 0, 0, 0, "ar"};
        /* decided by the seed alone, so that the other choices stay as
           they were before grids were generated */
        uint64_t h = ha >> 40;
        use_grid = h % 5 < 2;
        if (use_grid) {
            un[nun].name = S("gr[%d]", (int)(h / 5 % 2));
            un[nun].elem = "gr";
        }
        sz0[nun] = 3;
        nun++;
    }
    do_r[0] = ch(70);
    do_r[1] = ch(50);
    plan();

    printf("(* generated by cupitgen %llu --size %s *)\n", (unsigned long long)seed, size_medium ? "medium" : "small");
    L("PROCEDURE pInt (Int CONST x) IS EXTERNAL;");
    L("PROCEDURE pReal (Real CONST x) IS EXTERNAL;");
    L("PROCEDURE pString (String CONST s) IS EXTERNAL;");
    L("PROCEDURE initIOareaxR (Real IO area; Int CONST maxreplicates, perReplicate) IS EXTERNAL;");
    L("Real FUNCTION absReal (Real CONST x) IS EXTERNAL;");
    L("Real FUNCTION minReal (Real CONST x, y) IS EXTERNAL;");
    L("Real FUNCTION maxReal (Real CONST x, y) IS EXTERNAL;");
    if (use_sig) {
        L("Real FUNCTION sigmoid (Real CONST x) IS EXTERNAL;");
        L("Real FUNCTION sigmoidPrime (Real CONST x) IS EXTERNAL;");
    }
    if (use_castore) {
        L("Int VAR gw := 0;");
        L("PROCEDURE cadd (Int VAR a; Int CONST b) IS a := (a + b) %% 1000; END;");
    }
    L("Real REDUCTION rsum IS RETURN ME + YOU; END REDUCTION;");
    L("Real REDUCTION rmax IS IF ME > YOU THEN RETURN ME; END; RETURN YOU; END REDUCTION;");
    L("Real REDUCTION rmin IS IF ME < YOU THEN RETURN ME; ELSE RETURN YOU; END; END REDUCTION;");
    L("Int REDUCTION isum IS RETURN ME + YOU; END REDUCTION;");
    L("Int REDUCTION imax IS RETURN ME > YOU ? ME : YOU; END REDUCTION;");
    L("Int REDUCTION imin IS RETURN ME < YOU ? ME : YOU; END REDUCTION;");
    if (use_varp) L("Int REDUCTION imaxm IS RETURN ME > YOU ? ME : YOU %% 1000000007; END REDUCTION;");
    L("Int1 REDUCTION i1max IS RETURN ME > YOU ? ME : YOU; END REDUCTION;");
    L("Int2 REDUCTION i2max IS RETURN ME > YOU ? ME : YOU; END REDUCTION;");
    L("Bool REDUCTION bor IS RETURN ME OR YOU; END REDUCTION;");
    L("Bool REDUCTION band IS RETURN ME AND YOU; END REDUCTION;");
    L("Real WTA rbig IS RETURN ME > YOU; END WTA;");
    L("Real WTA rsmall IS RETURN ME < YOU; END WTA;");
    L("Int WTA ibig IS RETURN ME > YOU; END WTA;");
    L("Int WTA ismall IS RETURN ME < YOU; END WTA;");
    /* q folds a Real back onto the grid: a multiple of 1/4, |q| < 64 */
    L("Real FUNCTION q (Real CONST x) IS RETURN Real (Int (x * 4.0) %% 256) * 0.25; END FUNCTION;");
    L("Int FUNCTION fr (Int CONST n) IS");
    L("  IF n <= 0 THEN RETURN %d; END;", rng(0, 5));
    L("  RETURN (fr (n - 1) * %d + n) %% 1000;", rng(2, 7));
    L("END FUNCTION;");
    gvarp_helpers();
    if (use_ext) {
        L("Real FUNCTION xr (Real CONST x) IS EXTERNAL;");
        L("Int FUNCTION xm (Int CONST a, b) IS EXTERNAL;");
    }
    if (use_ioi) {
        L("PROCEDURE initIOareaxI (Int IO area; Int CONST maxreplicates, perReplicate) IS EXTERNAL;");
        L("PROCEDURE xisum (Int IO a; Int VAR s) IS EXTERNAL;");
        L("PROCEDURE xiadd (Int IO a; Int CONST k) IS EXTERNAL;");
    }
    if (use_ptr) {
        L("Int FUNCTION xs (String CONST s) IS EXTERNAL;");
        L("Opaque FUNCTION xo (Int CONST k) IS EXTERNAL;");
        L("Int FUNCTION xv (Opaque CONST p) IS EXTERNAL;");
    }
    if (use_ivs) {
        L("Interval FUNCTION hull (Interval CONST a, b) IS");
        L("  RETURN Interval (MIN a < MIN b ? MIN a : MIN b, MAX a > MAX b ? MAX a : MAX b);");
        L("END FUNCTION;");
        L("Int FUNCTION ivk (Interval CONST a) IS RETURN MIN a + 3 * MAX a; END FUNCTION;");
        L("Interval VAR giv := 0 ... 1;");
    }
    if (use_rec) {
        L("TYPE Pr IS RECORD");
        L("  Int k := %d;", rng(0, 9));
        L("  Real z := %s;", rlit(rng(-8, 8)));
        L("  PROCEDURE bump (Int CONST d) IS ME.k := (ME.k + d) %% 1000; END;");
        L("  Int FUNCTION get () IS RETURN ME.k; END FUNCTION;");
        L("END TYPE;");
        L("Pr REDUCTION prsum IS RETURN Pr (ME.k + YOU.k, ME.z + YOU.z); END REDUCTION;");
    }
    if (use_sym) L("TYPE Sym IS SYMBOLIC red, green, blue; END TYPE;");
    if (use_vec) {
        L("TYPE Vec IS ARRAY 3 OF Real END TYPE;");
        L("Vec FUNCTION vfill (Real CONST x) IS");
        L("  Vec VAR r;");
        L("  Int VAR i := 0;");
        L("  FOR i := 0 TO MAXINDEX (r) REPEAT r[i] := q (x * Real (i + 1)); END;");
        L("  RETURN r;");
        L("END FUNCTION;");
    }
    for (int i = 0; i < ncon; i++) gen_con(i);
    for (int i = 0; i < nnode; i++) {
        gen_node(i);
        L("TYPE L%d IS GROUP OF N%d END TYPE;", i, i);
        if (use_ext && first_int_is_h(&node[i])) {
            ext_node[i] = 1;
            L("Int FUNCTION xk%d (N%d CONST n) IS EXTERNAL;", i, i);
            L("PROCEDURE xb%d (N%d VAR n) IS EXTERNAL;", i, i);
        }
    }
    for (int i = 0; i < nun; i++)
        if (un[i].arr) {
            L("TYPE Arr IS ARRAY 3 OF N%d END TYPE;", un[i].nt);
            if (use_grid) L("TYPE Grid IS ARRAY 2 OF Arr END TYPE;");
        }
    {
        uint64_t h = (seed * 0xBF58476D1CE4E5B9ULL) >> 40;
        use_nomerge = h % 3 == 0;
        nomerge_n = (int)(h / 3 % 5);            /* 0 .. 4 nodes */
        nomerge_k = (int)(h / 15 % 9) + 1;
    }
    if (use_nomerge) {
        L("TYPE Qn IS NODE");
        L("  Int tag := 0;");
        L("  Real val := 0.0;");
        L("  PROCEDURE setup (Int CONST k) IS ME.tag := (k + 3 * INDEX) %% 97; ME.val := Real (ME.tag) * 0.25; END;");
        L("END TYPE;");
        L("TYPE Ql IS GROUP OF Qn END TYPE;");
    }
    gen_net();
    /* the motif: decided by the seed alone, from a stream of its own */
    motif_on = ((seed * 0x94D049BB133111EBULL) >> 40) % 3 == 0;
    if (motif_on) {
        uint64_t saved = st;
        st = seed * 0xD1B54A32D192ED03ULL + 7;
        gen_motif_types();
        st = saved;
    }
    gen_ca();
    if (use_ext) ext_c();
    return 0;
}
