/* check_rt_lanes.c -- Check suite for lane-blocked replicates: block
 * layout and padding lanes after REPLICATE INTO k, the count rule for
 * intervals, MERGE and INTO 1 against the plain implementation (bitwise
 * with scalar MERGE only; with lane-wise MERGE for sums of integers),
 * I/O through lanes, the errors while replicated, and memory accounting.
 * The lane records and their get/put/merge functions are written here the
 * way the code generator emits them.
 */
#include "check_rt_support.h"

#include <omp.h>
#include <stddef.h>

enum { IN, HID, ARR };
enum { IN_HID, HID_HID, ARR_HID };

typedef struct lnode {
    int32_t id[RT_LANES];
    cp_real act[RT_LANES];
    cp_real sum[RT_LANES];
} lnode;

typedef struct lconn {
    int32_t tag[RT_LANES];
    cp_real w[RT_LANES];
    cp_real delta[RT_LANES];
} lconn;

typedef struct lnet {
    cp_real total[RT_LANES];
    int32_t created[RT_LANES];
} lnet;

static void lnode_get(void *rec, const void *lanes, const void *shared, int l)
{
    (void)shared;
    tnode *r = rec;
    const lnode *v = lanes;
    r->id = v->id[l];
    r->act = v->act[l];
    r->sum = v->sum[l];
}

static void lnode_put(void *lanes, void *shared, int l, const void *rec)
{
    (void)shared;
    const tnode *r = rec;
    lnode *v = lanes;
    v->id[l] = r->id;
    v->act[l] = r->act;
    v->sum[l] = r->sum;
}

static void lconn_get(void *rec, const void *lanes, const void *shared, int l)
{
    (void)shared;
    tconn *r = rec;
    const lconn *v = lanes;
    r->tag = v->tag[l];
    r->w = v->w[l];
    r->delta = v->delta[l];
}

static void lconn_put(void *lanes, void *shared, int l, const void *rec)
{
    (void)shared;
    const tconn *r = rec;
    lconn *v = lanes;
    v->tag[l] = r->tag;
    v->w[l] = r->w;
    v->delta[l] = r->delta;
}

static void lnet_get(void *rec, const void *lanes, const void *shared, int l)
{
    (void)shared;
    tnet *r = rec;
    const lnet *v = lanes;
    r->total = v->total[l];
    r->created = v->created[l];
}

static void lnet_put(void *lanes, void *shared, int l, const void *rec)
{
    (void)shared;
    const tnet *r = rec;
    lnet *v = lanes;
    v->total[l] = r->total;
    v->created[l] = r->created;
}

/* Lane-wise MERGE procedures; they count the records they merge to show
 * which algorithm ran. */
static long lane_merges;

static void count_lane_merge(int32_t n)
{
#pragma omp atomic update
    lane_merges += n;
}

static void lnode_merge(void *me, const void *you, const void *shared, int32_t n)
{
    (void)shared;
    for (int32_t i = 0; i < n; i++)
        for (int l = 0; l < RT_LANES; l++)
            ((lnode *)me)[i].sum[l] += ((const lnode *)you)[i].sum[l];
    count_lane_merge(n);
}

static void lconn_merge(void *me, const void *you, const void *shared, int32_t n)
{
    (void)shared;
    for (int32_t i = 0; i < n; i++)
        for (int l = 0; l < RT_LANES; l++)
            ((lconn *)me)[i].delta[l] += ((const lconn *)you)[i].delta[l];
    count_lane_merge(n);
}

static void lnet_merge(void *me, const void *you, const void *shared, int32_t n)
{
    (void)shared;
    for (int32_t i = 0; i < n; i++)
        for (int l = 0; l < RT_LANES; l++)
            ((lnet *)me)[i].total[l] += ((const lnet *)you)[i].total[l];
    count_lane_merge(n);
}

#define NODE_LANES { sizeof(lnode), lnode_get, lnode_put, NULL, 0, NULL }
#define CONN_LANES { sizeof(lconn), lconn_get, lconn_put, NULL, 0, NULL }
#define NODE_LANE_MERGE { sizeof(lnode), lnode_get, lnode_put, lnode_merge, 0, NULL }
#define CONN_LANE_MERGE { sizeof(lconn), lconn_get, lconn_put, lconn_merge, 0, NULL }

/* The test network with lane records; in, hid, in -> hid and arr -> hid
 * use lane layout L, hid -> hid never has a lane MERGE, arr no MERGE. */
#define LANE_GROUPS(L)                                                         \
    {                                                                          \
        { "in", sizeof(tnode), tnode_init, tnode_merge, false, 0, L, NULL, 0 },         \
        { "hid", sizeof(tnode), tnode_init, tnode_merge, false, 0, L, NULL, 0 },        \
        { "arr", sizeof(tnode), tnode_init, NULL, true, 3, NODE_LANES, NULL, 0 },       \
    }
#define LANE_BUNDLES(L)                                                        \
    {                                                                          \
        { 0, 0, 1, 0, sizeof(tconn), tconn_init, tconn_merge, L, NULL, 0 },             \
        { 1, 1, 1, 0, sizeof(tconn), tconn_init, tconn_merge, CONN_LANES, NULL, 0 },    \
        { 2, 0, 1, 0, sizeof(tconn), tconn_init, tconn_merge, L, NULL, 0 },             \
    }

static const rt_group_desc lane_groups[] = LANE_GROUPS(NODE_LANES);
static const rt_bundle_desc lane_bundles[] = LANE_BUNDLES(CONN_LANES);
static const rt_net_desc lane_desc = {
    "net", sizeof(tnet), tnet_init, tnet_merge, 3, lane_groups, 3, lane_bundles,
    true, { sizeof(lnet), lnet_get, lnet_put, NULL, 0, NULL }, NULL, 0,
};
/* With the lane-wise MERGE procedures. */
static const rt_group_desc lmerge_groups[] = LANE_GROUPS(NODE_LANE_MERGE);
static const rt_bundle_desc lmerge_bundles[] = LANE_BUNDLES(CONN_LANE_MERGE);
static const rt_net_desc lmerge_desc = {
    "net", sizeof(tnet), tnet_init, tnet_merge, 3, lmerge_groups, 3, lmerge_bundles,
    true, { sizeof(lnet), lnet_get, lnet_put, lnet_merge, 0, NULL }, NULL, 0,
};
/* The same network without lanes (reference for the merge results). */
static const rt_group_desc plain_groups[] = {
    { "in", sizeof(tnode), tnode_init, tnode_merge, false, 0, {0}, NULL, 0 },
    { "hid", sizeof(tnode), tnode_init, tnode_merge, false, 0, {0}, NULL, 0 },
    { "arr", sizeof(tnode), tnode_init, NULL, true, 3, {0}, NULL, 0 },
};
static const rt_net_desc plain_desc = {
    "net", sizeof(tnet), tnet_init, tnet_merge, 3, plain_groups, 3, test_bundles,
    false, {0}, NULL, 0,
};

static rt_net net, ref;
static size_t bytes_before;

/* in: n_in nodes, hid: n_hid nodes, in -> hid and arr -> hid complete,
 * hid -> hid on the diagonal. */
static void build(rt_net *n, const rt_net_desc *d, int32_t n_in, int32_t n_hid)
{
    node_counter = conn_counter = 0;
    rt_seed(11);
    rt_net_create(n, d, HERE);
    rt_extend(n, IN, n_in, HERE);
    rt_extend(n, HID, n_hid, HERE);
    rt_connect(n, IN_HID, 0, n_in - 1, 0, n_hid - 1, HERE);
    rt_connect(n, ARR_HID, 0, 2, 0, n_hid - 1, HERE);
    for (int32_t i = 0; i < n_hid; i++)
        rt_connect(n, HID_HID, i, i, i, i, HERE);
}

static void setup(void)
{
    omp_set_num_threads(2);
    rt_seed(11); /* the random streams are allocated before the balance */
    bytes_before = rt_bytes_in_use();
    build(&net, &lane_desc, 3, 5);
}

static void teardown(void)
{
    rt_net_destroy(&net);
    omp_set_num_threads(2);
    rt_seed(11);
    ck_assert_uint_eq(rt_bytes_in_use(), bytes_before);
}

static lnode *lnode_at(rt_net *n, int32_t g, int32_t i, int32_t r)
{
    return (lnode *)n->blocks[r / RT_LANES].nodes[g] + i;
}

static lconn *lconn_at(rt_net *n, int32_t b, int32_t c, int32_t r)
{
    return (lconn *)n->blocks[r / RT_LANES].conns[b] + c;
}

static lnet *lnet_at(rt_net *n, int32_t r)
{
    return (lnet *)n->blocks[r / RT_LANES].net;
}

/* ---- entering R(k) ------------------------------------------------------- */

static const int32_t counts[] = { 3, 16, 17, 40 };

START_TEST(test_replicate_fills_every_lane)
{
    int32_t k = counts[_i];
    node_at(&net, 0, HID, 2)->act = 7.5f;
    ((tnet *)net.reps[0].net_data)->total = 2.25f;
    tconn c0[15];
    memcpy(c0, net.reps[0].conns[IN_HID], sizeof c0);
    rt_replicate(&net, k, k, false, 0, HERE);
    ck_assert(net.replicated);
    ck_assert_int_eq(net.nreps, k);
    ck_assert_int_eq(net.nblocks, (k + RT_LANES - 1) / RT_LANES);
    ck_assert_ptr_null(net.reps);
    for (int32_t r = 0; r < net.nblocks * RT_LANES; r++) { /* padding too */
        int l = r % RT_LANES;
        ck_assert_float_eq(lnet_at(&net, r)->total[l], 2.25f);
        ck_assert_int_eq(lnet_at(&net, r)->created[l], 1);
        ck_assert_float_eq(lnode_at(&net, HID, 2, r)->act[l], 7.5f);
        for (int32_t i = 0; i < 5; i++)
            ck_assert_int_eq(lnode_at(&net, HID, i, r)->id[l], 3 + 3 + i);
        for (int32_t i = 0; i < 3; i++)
            ck_assert_int_eq(lnode_at(&net, ARR, i, r)->id[l], i);
        for (int32_t c = 0; c < 15; c++) {
            ck_assert_int_eq(lconn_at(&net, IN_HID, c, r)->tag[l], c0[c].tag);
            ck_assert_float_eq(lconn_at(&net, IN_HID, c, r)->w[l], c0[c].w);
        }
    }
}
END_TEST

START_TEST(test_into_one_interval_gives_one_block)
{
    node_at(&net, 0, IN, 1)->act = 3;
    rt_replicate(&net, 1, 1, true, 0, HERE);
    ck_assert(net.replicated);
    ck_assert_int_eq(net.nreps, 1);
    ck_assert_int_eq(net.nblocks, 1);
    for (int l = 0; l < RT_LANES; l++)
        ck_assert_float_eq(lnode_at(&net, IN, 1, 0)->act[l], 3);
    rt_merge(&net, HERE); /* R(1): nothing to merge */
    lnode_at(&net, IN, 1, 0)->act[0] = 4;
    rt_replicate(&net, 1, 1, false, 0, HERE);
    ck_assert(!net.replicated);
    ck_assert_int_eq(net.nreps, 1);
    ck_assert_int_eq(net.nblocks, 0);
    ck_assert_ptr_null(net.blocks);
    ck_assert_float_eq(node_at(&net, 0, IN, 1)->act, 4);
    rt_extend(&net, HID, 2, HERE); /* topology thawed */
    rt_connect(&net, IN_HID, 0, 0, 6, 6, HERE);
    check_invariants(&net);
    ck_assert_int_eq(node_at(&net, 0, HID, 6)->id, 3 + 3 + 5 + 1);
}
END_TEST

START_TEST(test_lane_count_rule)
{
    ck_assert_int_eq(rt_lane_count(4, 1, 4), 4);     /* no multiple fits */
    ck_assert_int_eq(rt_lane_count(20, 1, 100), 32); /* up: padding is free */
    ck_assert_int_eq(rt_lane_count(20, 1, 30), 16);  /* down */
    ck_assert_int_eq(rt_lane_count(20, 17, 30), 20); /* neither */
    ck_assert_int_eq(rt_lane_count(2, 1, 1000), 16);
    ck_assert_int_eq(rt_lane_count(48, 1, 48), 48);
    for (int32_t lo = 1; lo < 60; lo += 5)
        for (int32_t hi = lo; hi < 120; hi += 9)
            for (int32_t k = lo; k <= hi; k++) {
                int32_t c = rt_lane_count(k, lo, hi);
                ck_assert_int_ge(c, lo);
                ck_assert_int_le(c, hi);
            }
    rt_replicate(&net, 1, 100, true, 0, HERE);
    ck_assert_int_eq(net.nreps % RT_LANES, 0);
    ck_assert_int_eq(net.nreps, rt_lane_count(rt_choose_replicates(1, 100, 8 + 33, 2), 1, 100));
}
END_TEST

/* ---- MERGE and INTO 1 against the plain implementation --------------------- */

/* Irregular values so that the bracketing of the sums shows in the bits. */
static cp_real val(int32_t r, int32_t i) { return 1.0f / (cp_real)(3 * r + 1) + 0.37f * (cp_real)i; }

/* Small integers: their sums are exact in any order. */
static cp_real ival(int32_t r, int32_t i) { return (cp_real)((5 * r + 3 * i) % 23 - 11); }

/* Writes replicate r's values v(r, i) into both networks (the lane
 * network the way generated code writes one lane). */
static void fill_with(int32_t k, cp_real (*v)(int32_t, int32_t))
{
    for (int32_t r = 0; r < k; r++) {
        int l = r % RT_LANES;
        ((tnet *)ref.reps[r].net_data)->total = v(r, 0);
        lnet_at(&net, r)->total[l] = v(r, 0);
        for (int g = 0; g < 3; g++)
            for (int32_t i = 0; i < net.count[g]; i++) {
                node_at(&ref, r, g, i)->sum = v(r, i);
                node_at(&ref, r, g, i)->act = (cp_real)(r + 1);
                lnode_at(&net, g, i, r)->sum[l] = v(r, i);
                lnode_at(&net, g, i, r)->act[l] = (cp_real)(r + 1);
            }
        for (int b = 0; b < 3; b++)
            for (int32_t c = 0; c < net.bundles[b].nconn; c++) {
                conn_at(&ref, r, b, c)->delta = v(r, c + 1);
                lconn_at(&net, b, c, r)->delta[l] = v(r, c + 1);
            }
    }
}

static void fill_both(int32_t k) { fill_with(k, val); }

static void same_record(const void *plain, const void *lanes, rt_lane_get_fn get,
                        int l, size_t size)
{
    char rec[64];
    memset(rec, 0, sizeof rec);
    get(rec, lanes, NULL, l); /* the test types have no shared records */
    ck_assert_mem_eq(rec, plain, size);
}

/* Every lane of every block (padding included) holds reference replicate 0. */
static void check_lanes_equal_ref(void)
{
    for (int32_t r = 0; r < net.nblocks * RT_LANES; r++) {
        int l = r % RT_LANES;
        same_record(ref.reps[0].net_data, lnet_at(&net, r), lnet_get, l, sizeof(tnet));
        for (int g = 0; g < 3; g++)
            for (int32_t i = 0; i < net.count[g]; i++)
                same_record(node_at(&ref, 0, g, i), lnode_at(&net, g, i, r), lnode_get, l,
                            sizeof(tnode));
        for (int b = 0; b < 3; b++)
            for (int32_t c = 0; c < net.bundles[b].nconn; c++)
                same_record(conn_at(&ref, 0, b, c), lconn_at(&net, b, c, r), lconn_get, l,
                            sizeof(tconn));
    }
}

/* net (lane blocks, descriptor d) and ref (plain) in R(k) with v's values. */
static void both_with(const rt_net_desc *d, int32_t n_in, int32_t n_hid, int32_t k,
                      cp_real (*v)(int32_t, int32_t))
{
    rt_net_destroy(&net);
    build(&net, d, n_in, n_hid);
    build(&ref, &plain_desc, n_in, n_hid);
    rt_replicate(&net, k, k, false, 0, HERE);
    rt_replicate(&ref, k, k, false, 0, HERE);
    fill_with(k, v);
}

static void both(int32_t n_in, int32_t n_hid, int32_t k)
{
    both_with(&lane_desc, n_in, n_hid, k, val);
}

static const int32_t merge_counts[] = { 2, 3, 16, 17, 40 };

START_TEST(test_merge_equals_plain)
{
    int32_t k = merge_counts[_i % 5];
    int32_t n_in = _i < 5 ? 3 : 60, n_hid = _i < 5 ? 5 : 70; /* small, then parallel */
    both(n_in, n_hid, k);
    rt_merge(&net, HERE);
    rt_merge(&ref, HERE);
    check_lanes_equal_ref();
    ck_assert_float_eq(lnode_at(&net, ARR, 1, k - 1)->act[(k - 1) % RT_LANES], 1); /* replicate 0's */
    /* A second MERGE after new per-lane values. */
    fill_both(k);
    rt_merge(&net, HERE);
    rt_merge(&ref, HERE);
    check_lanes_equal_ref();
    rt_net_destroy(&ref);
}
END_TEST

START_TEST(test_merge_independent_of_threads)
{
    cp_real one[3], two[3];
    for (int t = 1; t <= 2; t++) {
        omp_set_num_threads(t);
        both(60, 70, 40);
        rt_merge(&net, HERE);
        cp_real *out = t == 1 ? one : two;
        for (int c = 0; c < 3; c++)
            out[c] = lconn_at(&net, IN_HID, 1000 * c, 39)->delta[39 % RT_LANES];
        rt_net_destroy(&ref);
    }
    ck_assert_mem_eq(one, two, sizeof one);
}
END_TEST

/* After INTO 1: net is in U and its records are bitwise ref's. */
static void check_unreplicated_equals_ref(void)
{
    ck_assert(!net.replicated);
    ck_assert_int_eq(net.nreps, 1);
    ck_assert_ptr_null(net.blocks);
    ck_assert_mem_eq(net.reps[0].net_data, ref.reps[0].net_data, sizeof(tnet));
    for (int g = 0; g < 3; g++)
        ck_assert_mem_eq(net.reps[0].nodes[g], ref.reps[0].nodes[g],
                         (size_t)net.count[g] * sizeof(tnode));
    for (int b = 0; b < 3; b++)
        ck_assert_mem_eq(net.reps[0].conns[b], ref.reps[0].conns[b],
                         (size_t)net.bundles[b].nconn * sizeof(tconn));
}

START_TEST(test_into_one_equals_plain)
{
    int32_t k = merge_counts[_i % 5];
    int32_t n_in = _i < 5 ? 3 : 60, n_hid = _i < 5 ? 5 : 70;
    both(n_in, n_hid, k);
    rt_replicate(&net, 1, 1, false, 0, HERE);
    rt_replicate(&ref, 1, 1, false, 0, HERE);
    check_unreplicated_equals_ref();
    rt_net_destroy(&ref);
}
END_TEST

/* ---- MERGE and INTO 1 with lane-wise MERGE ------------------------------------ */

/* k = 17 and 35 have a partial last block (the tail): the full blocks
 * merge lane-wise, then the tail's replicates one by one; k = 17 with
 * irregular values is bitwise as plain (the same tree). */
static const int32_t lane_merge_counts[] = { 16, 32, 48, 17, 35 };

/* Lane-wise merges one MERGE makes: full blocks - 1 per record of the sets
 * with a lane MERGE (network, in, hid, in -> hid, arr -> hid), or none. */
static long expected_lane_merges(int32_t k)
{
    if (k < RT_LANES)
        return 0;
    long records = 1 + net.count[IN] + net.count[HID] + net.bundles[IN_HID].nconn +
                   net.bundles[ARR_HID].nconn;
    return (k / RT_LANES - 1) * records;
}

START_TEST(test_lane_merge_equals_plain)
{
    int32_t k = lane_merge_counts[_i % 5];
    int32_t n_in = _i < 5 ? 3 : 60, n_hid = _i < 5 ? 5 : 70; /* small, then parallel */
    both_with(&lmerge_desc, n_in, n_hid, k, k == 17 ? val : ival);
    lane_merges = 0;
    rt_merge(&net, HERE);
    rt_merge(&ref, HERE);
    ck_assert_int_eq(lane_merges, expected_lane_merges(k));
    check_lanes_equal_ref();
    ck_assert_float_eq(lnode_at(&net, ARR, 1, k - 1)->act[(k - 1) % RT_LANES], 1);
    fill_with(k, ival); /* a second MERGE after new per-lane values */
    rt_merge(&net, HERE);
    rt_merge(&ref, HERE);
    check_lanes_equal_ref();
    rt_net_destroy(&ref);
}
END_TEST

START_TEST(test_lane_merge_into_one_equals_plain)
{
    int32_t k = lane_merge_counts[_i % 5];
    int32_t n_in = _i < 5 ? 3 : 60, n_hid = _i < 5 ? 5 : 70;
    both_with(&lmerge_desc, n_in, n_hid, k, k == 17 ? val : ival);
    lane_merges = 0;
    rt_replicate(&net, 1, 1, false, 0, HERE);
    rt_replicate(&ref, 1, 1, false, 0, HERE);
    ck_assert_int_eq(lane_merges, expected_lane_merges(k));
    check_unreplicated_equals_ref();
    rt_net_destroy(&ref);
}
END_TEST

/* Copies of the merged records of net: every block after MERGE (into),
 * or replicate 0 after INTO 1. */
static size_t snapshot(char *into, size_t cap)
{
    size_t n = 0;
#define TAKE(p, bytes)                                                         \
    do {                                                                       \
        ck_assert_uint_le(n + (bytes), cap);                                   \
        memcpy(into + n, (p), (bytes));                                        \
        n += (bytes);                                                          \
    } while (0)
    if (!net.blocks) {
        TAKE(net.reps[0].net_data, sizeof(tnet));
        for (int g = 0; g < 3; g++)
            TAKE(net.reps[0].nodes[g], (size_t)net.count[g] * sizeof(tnode));
        for (int b = 0; b < 3; b++)
            TAKE(net.reps[0].conns[b], (size_t)net.bundles[b].nconn * sizeof(tconn));
        return n;
    }
    for (int32_t j = 0; j < net.nblocks; j++) {
        TAKE(net.blocks[j].net, sizeof(lnet));
        for (int g = 0; g < 3; g++)
            TAKE(net.blocks[j].nodes[g], (size_t)net.count[g] * sizeof(lnode));
        for (int b = 0; b < 3; b++)
            TAKE(net.blocks[j].conns[b], (size_t)net.bundles[b].nconn * sizeof(lconn));
    }
#undef TAKE
    return n;
}

/* net with descriptor d, k replicates of irregular values (the bracketing
 * shows in the bits), merged (MERGE, or INTO 1): its records' bytes. */
static size_t merged_snapshot(const rt_net_desc *d, int32_t k, bool into_one, char *into,
                              size_t cap)
{
    both_with(d, 60, 70, k, val);
    lane_merges = 0;
    if (into_one)
        rt_replicate(&net, 1, 1, false, 0, HERE);
    else
        rt_merge(&net, HERE);
    ck_assert_int_gt(lane_merges, 0);
    size_t n = snapshot(into, cap);
    rt_net_destroy(&ref);
    return n;
}

/* The merged bytes of descriptor a with ta threads equal those of b with
 * tb threads (test loop index i: k = 32, 48 or 35 (a tail), MERGE or
 * INTO 1). */
static void merges_agree(int i, const rt_net_desc *a, int ta, const rt_net_desc *b, int tb)
{
    int32_t k = i < 2 ? 32 : i < 4 ? 48 : 35;
    bool into_one = i % 2;
    enum { CAP = 3 * (sizeof(lnet) + 133 * sizeof(lnode) + 4480 * sizeof(lconn)) };
    char *one = malloc(CAP), *two = malloc(CAP);
    ck_assert(one && two);
    omp_set_num_threads(ta);
    size_t n_one = merged_snapshot(a, k, into_one, one, CAP);
    omp_set_num_threads(tb);
    size_t n_two = merged_snapshot(b, k, into_one, two, CAP);
    ck_assert_uint_eq(n_one, n_two);
    ck_assert_mem_eq(one, two, n_one);
    free(one);
    free(two);
}

/* Enough records for the parallel loop: 1 and 2 threads give the same bits. */
START_TEST(test_lane_merge_independent_of_threads)
{
    merges_agree(_i, &lmerge_desc, 1, &lmerge_desc, 2);
}
END_TEST

/* ---- the fold of a block's lanes inside the lane record (rt_lane_fold_fn) ---- */

/* An element of a lane record: offset and width of its lane array. */
typedef struct lane_array {
    size_t off, width;
} lane_array;

/* The fold as cupitc generates it: before round w (1, 2, 4, 8) every lane
 * of each group of 2w lanes gets the group's operands (ME lane a, YOU lane
 * a + w) in each of the n lane arrays, then the lane-wise MERGE runs. */
static void fold_record(char *me, size_t size, const lane_array *arr, int n,
                        rt_lane_merge_fn merge, const void *shared)
{
    char you[sizeof(lconn) > sizeof(lnode) ? sizeof(lconn) : sizeof(lnode)];
    ck_assert_uint_le(size, sizeof you);
    memcpy(you, me, size);
    for (int w = 1; w < RT_LANES; w *= 2) {
        for (int i = 0; i < n; i++) {
            char *m = me + arr[i].off, *y = you + arr[i].off;
            size_t W = arr[i].width;
            for (int l = 0; l < RT_LANES; l++)
                memcpy(y + (size_t)l * W, m + (size_t)((l & -(2 * w)) + w) * W, W);
            for (int l = RT_LANES - 1; l >= 0; l--) /* lane l & -2w is not yet changed */
                memcpy(m + (size_t)l * W, m + (size_t)(l & -(2 * w)) * W, W);
        }
        merge(me, you, shared, 1);
    }
}

#define ARRAY_OF(T, f) { offsetof(T, f), sizeof(((T *)0)->f[0]) }

static void lnode_fold(void *me, const void *shared)
{
    static const lane_array arr[] = { ARRAY_OF(lnode, id), ARRAY_OF(lnode, act),
                                      ARRAY_OF(lnode, sum) };
    fold_record(me, sizeof(lnode), arr, 3, lnode_merge, shared);
}

static void lconn_fold(void *me, const void *shared)
{
    static const lane_array arr[] = { ARRAY_OF(lconn, tag), ARRAY_OF(lconn, w),
                                      ARRAY_OF(lconn, delta) };
    fold_record(me, sizeof(lconn), arr, 3, lconn_merge, shared);
}

static void lnet_fold(void *me, const void *shared)
{
    static const lane_array arr[] = { ARRAY_OF(lnet, total), ARRAY_OF(lnet, created) };
    fold_record(me, sizeof(lnet), arr, 2, lnet_merge, shared);
}

#define NODE_LANE_FOLD { sizeof(lnode), lnode_get, lnode_put, lnode_merge, 0, lnode_fold }
#define CONN_LANE_FOLD { sizeof(lconn), lconn_get, lconn_put, lconn_merge, 0, lconn_fold }
static const rt_group_desc lfold_groups[] = LANE_GROUPS(NODE_LANE_FOLD);
static const rt_bundle_desc lfold_bundles[] = LANE_BUNDLES(CONN_LANE_FOLD);
static const rt_net_desc lfold_desc = {
    "net", sizeof(tnet), tnet_init, tnet_merge, 3, lfold_groups, 3, lfold_bundles,
    true, { sizeof(lnet), lnet_get, lnet_put, lnet_merge, 0, lnet_fold }, NULL, 0,
};

/* Irregular values: the fold inside the lane records gives the bits of the
 * fold through plain temporaries (the same tree), for MERGE and INTO 1. */
START_TEST(test_lane_fold_equals_gather)
{
    merges_agree(_i, &lmerge_desc, 1, &lfold_desc, 1);
    merges_agree(_i, &lmerge_desc, 1, &lfold_desc, 2);
}
END_TEST

/* ---- I/O through lanes ------------------------------------------------------ */

static cp_real buf[17 * 3 + 8];

static cp_io area(int32_t count, int32_t per_rep)
{
    return (cp_io){ buf, count, sizeof(cp_real), per_rep };
}

START_TEST(test_io_lanes_layout)
{
    rt_replicate(&net, 17, 17, false, 0, HERE);
    for (int i = 0; i < 17 * 3; i++)
        buf[i] = (cp_real)i;
    cp_io in = area(17 * 3, 3);
    rt_io_input(&net, IN, 0, 2, offsetof(tnode, act), offsetof(lnode, act), sizeof(cp_real), &in, HERE);
    for (int32_t r = 0; r < 2 * RT_LANES; r++)
        for (int32_t k = 0; k < 3; k++) {
            cp_real want = r < 17 ? (cp_real)(r * 3 + k) : 0; /* padding untouched */
            ck_assert_float_eq(lnode_at(&net, IN, k, r)->act[r % RT_LANES], want);
            ck_assert_int_eq(lnode_at(&net, IN, k, r)->id[r % RT_LANES], 3 + k);
        }
    for (int32_t r = 0; r < 17; r++)
        for (int32_t k = 0; k < 5; k++)
            lnode_at(&net, HID, k, r)->sum[r % RT_LANES] = (cp_real)(100 * r + k);
    memset(buf, 0, sizeof buf);
    cp_io out = area(17 * 2 + 1, 0);
    rt_io_output(&net, HID, 3, 9, offsetof(tnode, sum), offsetof(lnode, sum), sizeof(cp_real), &out, HERE);
    for (int32_t r = 0; r < 17; r++)
        for (int32_t k = 0; k < 2; k++) /* slice clipped to 3...4 */
            ck_assert_float_eq(buf[r * 2 + k], (cp_real)(100 * r + 3 + k));
    ck_assert_float_eq(buf[17 * 2], 0);
}
END_TEST

START_TEST(test_io_lanes_parallel)
{
    enum { K = 17, N = 5000 }; /* K * N elements: the parallel loop */
    rt_net_destroy(&net);
    build(&net, &lane_desc, N, 2);
    rt_replicate(&net, K, K, false, 0, HERE);
    cp_real *data = malloc(sizeof(cp_real) * K * N);
    ck_assert_ptr_nonnull(data);
    for (int i = 0; i < K * N; i++)
        data[i] = (cp_real)i;
    cp_io io = { data, K * N, sizeof(cp_real), N };
    rt_io_input(&net, IN, 0, N - 1, 0, offsetof(lnode, sum), sizeof(cp_real), &io, HERE);
    for (int32_t r = 0; r < K; r++)
        for (int32_t k = 0; k < N; k += 7)
            ck_assert_float_eq(lnode_at(&net, IN, k, r)->sum[r % RT_LANES], (cp_real)(r * N + k));
    memset(data, 0, sizeof(cp_real) * K * N);
    rt_io_output(&net, IN, 0, N - 1, 0, offsetof(lnode, sum), sizeof(cp_real), &io, HERE);
    for (int i = 0; i < K * N; i++)
        ck_assert_float_eq(data[i], (cp_real)i);
    free(data);
}
END_TEST

static void io_per_rep(void *a)
{
    (void)a;
    rt_replicate(&net, 17, 17, false, 0, HERE);
    cp_io io = area(17 * 3, 2);
    rt_io_input(&net, IN, 0, 2, 0, offsetof(lnode, act), sizeof(cp_real), &io, (rt_srcpos){ "l.nn", 1 });
}

static void io_small(void *a)
{
    (void)a;
    rt_replicate(&net, 17, 17, false, 0, HERE);
    cp_io io = area(17 * 3 - 1, 0);
    rt_io_output(&net, IN, 0, 2, 0, offsetof(lnode, sum), sizeof(cp_real), &io, (rt_srcpos){ "l.nn", 2 });
}

START_TEST(test_io_lanes_errors)
{
    ck_assert_rt_error(io_per_rep, NULL, "l.nn:1: run-time error: input assignment: the I/O area holds 2 values per replicate but in selects 3 nodes");
    ck_assert_rt_error(io_small, NULL, "l.nn:2: run-time error: output assignment: the I/O area has 50 elements, 51 needed (17 replicates x 3 nodes of in)");
}
END_TEST

/* ---- errors while replicated ------------------------------------------------- */

static const rt_srcpos E = { "e.nn", 9 };

static void e_extend(void *a) { (void)a; rt_extend(&net, HID, 1, E); }
static void e_connect(void *a) { (void)a; rt_connect(&net, HID_HID, 0, 1, 0, 1, E); }
static void e_disconnect(void *a) { (void)a; rt_disconnect(&net, IN_HID, 0, 1, 0, 1, E); }
static void e_address(void *a) { (void)a; (void)rt_conn_address(&net, IN_HID, 0, 0, E); }
static void e_node_rep(void *a) { (void)a; rt_request_node_replicate(&net, HID, 0, 2, E); }
static void e_conn_rep(void *a) { (void)a; rt_request_conn_replicate(&net, IN_HID, 0, 0, E); }
static void e_twice(void *a) { (void)a; rt_replicate(&net, 3, 3, false, 0, E); }

START_TEST(test_errors_while_replicated)
{
    rt_replicate(&net, 17, 17, false, 0, HERE);
    ck_assert_rt_error(e_extend, NULL, "e.nn:9: run-time error: EXTEND while the network net is replicated");
    ck_assert_rt_error(e_connect, NULL, "e.nn:9: run-time error: CONNECT while the network net is replicated");
    ck_assert_rt_error(e_disconnect, NULL, "e.nn:9: run-time error: DISCONNECT while the network net is replicated");
    ck_assert_rt_error(e_address, NULL, "e.nn:9: run-time error: connection addressing while the network net is replicated");
    ck_assert_rt_error(e_node_rep, NULL, "e.nn:9: run-time error: node REPLICATE while the network net is replicated");
    ck_assert_rt_error(e_conn_rep, NULL, "e.nn:9: run-time error: connection REPLICATE while the network net is replicated");
    ck_assert_rt_error(e_twice, NULL, "e.nn:9: run-time error: REPLICATE net while it is already replicated (only INTO 1 is allowed)");
}
END_TEST

static void e_memory(void *a)
{
    (void)a;
    rt_set_memory_limit(rt_bytes_in_use() + 100000);
    rt_replicate(&net, 5000, 5000, false, 0, E);
}

START_TEST(test_out_of_memory)
{
    ck_assert_rt_error(e_memory, NULL, "e.nn:9: run-time error: out of memory");
}
END_TEST

/* A count near INT32_MAX: ceil (k / RT_LANES) was computed in 32 bits, k +
 * 15 overflowed and the block array's size wrapped around (allocating
 * 18446744067267100720 bytes).  Now the blocks' total is checked before
 * any of them is allocated: at least 2^27 rt_blocks, no wrap-around. */
static void e_memory_huge(void *a)
{
    (void)a;
    rt_set_memory_limit(rt_bytes_in_use() + 100000);
    rt_replicate(&net, INT32_MAX, INT32_MAX, false, 0, E);
}

START_TEST(test_out_of_memory_huge_count)
{
    child_result res;
    run_child(e_memory_huge, NULL, &res);
    ck_assert_msg(res.status == 3, "exit status %d, stderr: %s", res.status, res.err);
    const char *at = strstr(res.err, "e.nn:9: run-time error: out of memory (allocating ");
    ck_assert_msg(at != NULL, "no out of memory error in: %s", res.err);
    unsigned long long bytes = strtoull(at + strlen("e.nn:9: run-time error: out of memory (allocating "), NULL, 10);
    unsigned long long nblocks = ((unsigned long long)INT32_MAX + RT_LANES - 1) / RT_LANES;
    ck_assert_uint_ge(bytes, nblocks * sizeof(rt_block));
    ck_assert_uint_lt(bytes, 1ull << 56); /* about 1.2 TB; wrapped sizes are near 2^64 */
}
END_TEST

START_TEST(test_destroy_in_lane_state)
{
    rt_replicate(&net, 40, 40, false, 0, HERE);
    ck_assert_uint_gt(rt_bytes_in_use(), bytes_before);
    /* teardown destroys the replicated network and checks the balance */
}
END_TEST

/* ---- the probed lane layout ---------------------------------------------------- */

typedef struct padded { bool on; double x; } padded;          /* 7 padding bytes */
typedef struct vpadded { bool on[RT_LANES]; double x[RT_LANES]; } vpadded;

static void padded_get(void *rec, const void *lanes, const void *shared, int l)
{
    (void)shared;
    ((padded *)rec)->on = ((const vpadded *)lanes)->on[l];
    ((padded *)rec)->x = ((const vpadded *)lanes)->x[l];
}

static void padded_put(void *lanes, void *shared, int l, const void *rec)
{
    (void)shared;
    ((vpadded *)lanes)->on[l] = ((const padded *)rec)->on;
    ((vpadded *)lanes)->x[l] = ((const padded *)rec)->x;
}

/* Lanes as an array of whole records: also a valid layout. */
static void aos_get(void *rec, const void *lanes, const void *shared, int l) { (void)shared; ((tnode *)rec)[0] = ((const tnode *)lanes)[l]; }
static void aos_put(void *lanes, void *shared, int l, const void *rec) { (void)shared; ((tnode *)lanes)[l] = *(const tnode *)rec; }

/* Every lane holds the same value: an element the lanes share (stride 0). */
static void same_get(void *rec, const void *lanes, const void *shared, int l) { (void)shared; (void)l; *(cp_real *)rec = *(const cp_real *)lanes; }
static void same_put(void *lanes, void *shared, int l, const void *rec) { (void)shared; (void)l; *(cp_real *)lanes = *(const cp_real *)rec; }

START_TEST(test_lane_plan)
{
    rt_lane_plan p;
    rt_lane_desc node = NODE_LANES;
    ck_assert(rt_lane_plan_make(&p, &node, sizeof(tnode), HERE));
    ck_assert_int_eq(p.nruns, 3);
    ck_assert_uint_eq(p.run[1].plain_off, offsetof(tnode, act));
    ck_assert_uint_eq(p.run[1].lane_off, offsetof(lnode, act));
    ck_assert_uint_eq(p.run[1].width, 4);
    ck_assert_uint_eq(p.run[1].stride, 4);
    rt_lane_desc pad = { sizeof(vpadded), padded_get, padded_put, NULL, 0, NULL };
    ck_assert(rt_lane_plan_make(&p, &pad, sizeof(padded), HERE));
    ck_assert_int_eq(p.nruns, 2); /* the padding bytes are not moved */
    ck_assert_uint_eq(p.run[1].plain_off, offsetof(padded, x));
    ck_assert_uint_eq(p.run[1].lane_off, offsetof(vpadded, x));
    ck_assert_uint_eq(p.run[1].width, 8);
    rt_lane_desc aos = { sizeof(tnode) * RT_LANES, aos_get, aos_put, NULL, 0, NULL };
    ck_assert(rt_lane_plan_make(&p, &aos, sizeof(tnode), HERE));
    ck_assert_int_eq(p.nruns, 1);
    ck_assert_uint_eq(p.run[0].width, sizeof(tnode));
    ck_assert_uint_eq(p.run[0].stride, sizeof(tnode));
    rt_lane_desc same = { sizeof(cp_real), same_get, same_put, NULL, 0, NULL };
    ck_assert(rt_lane_plan_make(&p, &same, sizeof(cp_real), HERE));
    ck_assert_int_eq(p.nruns, 1);
    ck_assert_uint_eq(p.run[0].width, sizeof(cp_real));
    ck_assert_uint_eq(p.run[0].stride, 0);
    /* The table: one plan per lane type, found by contents not address. */
    const rt_lane_plan *kept = rt_lane_plan_of(&node, sizeof(tnode), HERE);
    ck_assert_ptr_nonnull(kept);
    ck_assert_int_eq(kept->nruns, 3);
    ck_assert_ptr_eq(rt_lane_plan_of(&node, sizeof(tnode), HERE), kept);
    node = aos; /* same address, another type */
    const rt_lane_plan *other = rt_lane_plan_of(&node, sizeof(tnode), HERE);
    ck_assert_ptr_ne(other, kept);
    ck_assert_int_eq(other->nruns, 1);
    ck_assert_ptr_nonnull(rt_lane_plan_of(&same, sizeof(cp_real), HERE));
}
END_TEST

/* ---- shared records: elements every replicate holds equal ------------------ */

/* The connection type with its weight in a shared record (as cupitc lays
 * out elements it proves equal in all replicates): tag and delta per lane. */
typedef struct lsconn {
    int32_t tag[RT_LANES];
    cp_real delta[RT_LANES];
} lsconn;

typedef struct ssconn {
    cp_real w;
} ssconn;

static void lsconn_get(void *rec, const void *lanes, const void *shared, int l)
{
    tconn *r = rec;
    const lsconn *v = lanes;
    r->tag = v->tag[l];
    r->w = ((const ssconn *)shared)->w;
    r->delta = v->delta[l];
}

static void lsconn_put(void *lanes, void *shared, int l, const void *rec)
{
    const tconn *r = rec;
    lsconn *v = lanes;
    v->tag[l] = r->tag;
    ((ssconn *)shared)->w = r->w;
    v->delta[l] = r->delta;
}

static void lsconn_merge(void *me, const void *you, const void *shared, int32_t n)
{
    (void)shared;
    for (int32_t i = 0; i < n; i++)
        for (int l = 0; l < RT_LANES; l++)
            ((lsconn *)me)[i].delta[l] += ((const lsconn *)you)[i].delta[l];
}

#define SPLIT_LANES { sizeof(lsconn), lsconn_get, lsconn_put, lsconn_merge, sizeof(ssconn), NULL }
static const rt_bundle_desc split_bundles[] = LANE_BUNDLES(SPLIT_LANES);
static const rt_net_desc split_desc = {
    "net", sizeof(tnet), tnet_init, tnet_merge, 3, lane_groups, 3, split_bundles,
    true, { sizeof(lnet), lnet_get, lnet_put, NULL, 0, NULL }, NULL, 0,
};

/* Per-replicate deltas into bundle IN_HID of both networks. */
static void fill_split(int32_t k)
{
    for (int32_t r = 0; r < k; r++)
        for (int32_t c = 0; c < net.bundles[IN_HID].nconn; c++) {
            conn_at(&ref, r, IN_HID, c)->delta = ival(r, c + 1);
            ((lsconn *)net.blocks[r / RT_LANES].conns[IN_HID] + c)->delta[r % RT_LANES] =
                ival(r, c + 1);
        }
}

/* Every lane of bundle IN_HID holds ref's replicate 0, weights from the
 * shared records. */
static void check_split_equal_ref(void)
{
    for (int32_t r = 0; r < net.nblocks * RT_LANES; r++)
        for (int32_t c = 0; c < net.bundles[IN_HID].nconn; c++) {
            tconn got;
            lsconn_get(&got, (lsconn *)net.blocks[r / RT_LANES].conns[IN_HID] + c,
                       (ssconn *)net.blocks[r / RT_LANES].conns_shared[IN_HID] + c,
                       r % RT_LANES);
            ck_assert_mem_eq(&got, conn_at(&ref, 0, IN_HID, c), sizeof got);
        }
}

START_TEST(test_shared_records)
{
    rt_lane_plan p;
    rt_lane_desc split = SPLIT_LANES;
    ck_assert(rt_lane_plan_make(&p, &split, sizeof(tconn), HERE));
    ck_assert_int_eq(p.nruns, 3);
    ck_assert(p.run[1].shared); /* w */
    ck_assert_uint_eq(p.run[1].stride, 0);
    ck_assert_uint_eq(p.run[1].lane_off, offsetof(ssconn, w));
    ck_assert(!p.run[2].shared); /* delta */
    int32_t k = _i == 0 ? 48 : 40; /* lane-wise MERGE, then per record (padding) */
    rt_net_destroy(&net);
    build(&net, &split_desc, 20, 30);
    build(&ref, &plain_desc, 20, 30);
    rt_replicate(&net, k, k, false, 0, HERE);
    rt_replicate(&ref, k, k, false, 0, HERE);
    ck_assert_ptr_nonnull(net.blocks[0].conns_shared[IN_HID]);
    ck_assert_ptr_null(net.blocks[0].nodes_shared[IN]);
    check_split_equal_ref();
    fill_split(k);
    rt_merge(&net, HERE);
    rt_merge(&ref, HERE);
    check_split_equal_ref();
    fill_split(k);
    rt_replicate(&net, 1, 1, false, 0, HERE);
    rt_replicate(&ref, 1, 1, false, 0, HERE);
    ck_assert_mem_eq(net.reps[0].conns[IN_HID], ref.reps[0].conns[IN_HID],
                     (size_t)net.bundles[IN_HID].nconn * sizeof(tconn));
    rt_net_destroy(&ref);
}
END_TEST

static Suite *lanes_suite(void)
{
    Suite *s = suite_create("rt_lanes");
    TCase *tc = tcase_create("lanes");
    tcase_set_timeout(tc, 60);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_loop_test(tc, test_replicate_fills_every_lane, 0, 4);
    tcase_add_test(tc, test_into_one_interval_gives_one_block);
    tcase_add_test(tc, test_lane_count_rule);
    tcase_add_loop_test(tc, test_merge_equals_plain, 0, 10);
    tcase_add_test(tc, test_merge_independent_of_threads);
    tcase_add_loop_test(tc, test_into_one_equals_plain, 0, 10);
    tcase_add_loop_test(tc, test_lane_merge_equals_plain, 0, 10);
    tcase_add_loop_test(tc, test_lane_merge_into_one_equals_plain, 0, 10);
    tcase_add_loop_test(tc, test_lane_merge_independent_of_threads, 0, 6);
    tcase_add_loop_test(tc, test_lane_fold_equals_gather, 0, 6);
    tcase_add_test(tc, test_io_lanes_layout);
    tcase_add_test(tc, test_io_lanes_parallel);
    tcase_add_test(tc, test_io_lanes_errors);
    tcase_add_test(tc, test_errors_while_replicated);
    tcase_add_test(tc, test_out_of_memory);
    tcase_add_test(tc, test_out_of_memory_huge_count);
    tcase_add_test(tc, test_destroy_in_lane_state);
    tcase_add_test(tc, test_lane_plan);
    tcase_add_loop_test(tc, test_shared_records, 0, 2);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(lanes_suite());
}
