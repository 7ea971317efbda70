/* check_rt_storage.c -- Check suite for network storage and topology
 * changes: EXTEND, CONNECT, DISCONNECT, connection addressing, node and
 * connection REPLICATE ME with rt_commit_topology, their run-time errors,
 * and a randomized comparison against a simple adjacency-matrix model.
 */
#include "check_rt_support.h"

enum { IN, HID, ARR };            /* groups */
enum { IN_HID, HID_HID, ARR_HID }; /* bundles */

static rt_net net;

static void setup(void)
{
    node_counter = conn_counter = 0;
    rt_seed(7);
    rt_net_create(&net, &test_desc, HERE);
}

static void teardown(void)
{
    rt_net_destroy(&net);
}

/* ---- creation and EXTEND ---------------------------------------------------- */

START_TEST(test_storage_create)
{
    ck_assert_int_eq(net.nreps, 1);
    ck_assert(!net.replicated);
    ck_assert_int_eq(net.count[IN], 0);
    ck_assert_int_eq(net.count[HID], 0);
    ck_assert_int_eq(net.count[ARR], 3);
    for (int i = 0; i < 3; i++)
        ck_assert_int_eq(node_at(&net, 0, ARR, i)->id, i);
    ck_assert_int_eq(((tnet *)net.reps[0].net_data)->created, 1);
    for (int b = 0; b < 3; b++) {
        ck_assert_int_eq(net.bundles[b].nconn, 0);
        ck_assert(net.bundles[b].dense);
    }
    check_invariants(&net);
}
END_TEST

START_TEST(test_storage_extend_grow_and_shrink)
{
    rt_extend(&net, IN, 5, HERE);
    ck_assert_int_eq(net.count[IN], 5);
    for (int i = 0; i < 5; i++)
        ck_assert_int_eq(node_at(&net, 0, IN, i)->id, 3 + i);
    rt_extend(&net, IN, 1000, HERE); /* several capacity doublings */
    ck_assert_int_eq(net.count[IN], 1005);
    ck_assert_int_ge(net.cap[IN], 1005);
    for (int i = 0; i < 1005; i++)
        ck_assert_int_eq(node_at(&net, 0, IN, i)->id, 3 + i);
    rt_extend(&net, IN, -1000, HERE);
    ck_assert_int_eq(net.count[IN], 5);
    for (int i = 0; i < 5; i++)
        ck_assert_int_eq(node_at(&net, 0, IN, i)->id, 3 + i);
    rt_extend(&net, IN, 0, HERE);
    ck_assert_int_eq(net.count[IN], 5);
    rt_extend(&net, IN, -5, HERE);
    ck_assert_int_eq(net.count[IN], 0);
    check_invariants(&net);
}
END_TEST

START_TEST(test_storage_extend_shrink_drops_connections)
{
    rt_extend(&net, IN, 3, HERE);
    rt_extend(&net, HID, 4, HERE);
    rt_connect(&net, IN_HID, 0, 2, 0, 3, HERE);
    rt_connect(&net, HID_HID, 0, 3, 0, 3, HERE);
    rt_connect(&net, ARR_HID, 0, 2, 0, 3, HERE);
    int32_t keep = conn_at(&net, 0, HID_HID, find_conn(&net, HID_HID, 2, 1))->tag;
    rt_extend(&net, HID, -1, HERE); /* node 3 goes, with its connections */
    ck_assert_int_eq(net.bundles[IN_HID].nconn, 9);
    ck_assert_int_eq(net.bundles[HID_HID].nconn, 9);
    ck_assert_int_eq(net.bundles[ARR_HID].nconn, 9);
    ck_assert_int_eq(conn_at(&net, 0, HID_HID, find_conn(&net, HID_HID, 2, 1))->tag, keep);
    check_invariants(&net);
    rt_extend(&net, IN, -3, HERE);
    ck_assert_int_eq(net.bundles[IN_HID].nconn, 0);
    check_invariants(&net);
}
END_TEST

/* ---- CONNECT / DISCONNECT ---------------------------------------------------- */

START_TEST(test_storage_connect_cross_product_without_duplicates)
{
    rt_extend(&net, IN, 4, HERE);
    rt_extend(&net, HID, 3, HERE);
    rt_connect(&net, IN_HID, 0, 1, 0, 2, HERE);
    ck_assert_int_eq(net.bundles[IN_HID].nconn, 6);
    int32_t tag01 = conn_at(&net, 0, IN_HID, find_conn(&net, IN_HID, 0, 1))->tag;
    cp_real w01 = conn_at(&net, 0, IN_HID, find_conn(&net, IN_HID, 0, 1))->w;
    conn_at(&net, 0, IN_HID, find_conn(&net, IN_HID, 1, 2))->delta = 5;
    rt_connect(&net, IN_HID, 0, 3, 1, 2, HERE); /* overlaps 4 existing */
    ck_assert_int_eq(net.bundles[IN_HID].nconn, 10);
    tconn *c = conn_at(&net, 0, IN_HID, find_conn(&net, IN_HID, 0, 1));
    ck_assert_int_eq(c->tag, tag01); /* kept, not re-initialized */
    ck_assert_float_eq(c->w, w01);
    ck_assert_float_eq(conn_at(&net, 0, IN_HID, find_conn(&net, IN_HID, 1, 2))->delta, 5);
    ck_assert_int_eq(conn_counter, 10);
    for (int s = 0; s < 4; s++)
        for (int d = 0; d < 3; d++)
            ck_assert_int_eq(find_conn(&net, IN_HID, s, d) >= 0, s < 2 || d > 0);
    check_invariants(&net);
    rt_connect(&net, IN_HID, 0, 3, 0, 2, HERE);
    ck_assert_int_eq(net.bundles[IN_HID].nconn, 12);
    ck_assert(net.bundles[IN_HID].dense);
    check_invariants(&net);
}
END_TEST

START_TEST(test_storage_connect_initializes_by_source_then_destination)
{
    rt_extend(&net, IN, 3, HERE);
    rt_extend(&net, HID, 3, HERE);
    rt_connect(&net, IN_HID, 1, 1, 1, 1, HERE); /* tag 0 */
    rt_connect(&net, IN_HID, 0, 2, 0, 2, HERE); /* 8 new ones */
    int32_t expect = 1;
    for (int s = 0; s < 3; s++)
        for (int d = 0; d < 3; d++) {
            int32_t tag = conn_at(&net, 0, IN_HID, find_conn(&net, IN_HID, s, d))->tag;
            ck_assert_int_eq(tag, s == 1 && d == 1 ? 0 : expect++);
        }
}
END_TEST

/* Builds a net, returns the weights of its 12 in -> hid connections. */
static void weights_for_seed(uint64_t seed, cp_real *w)
{
    rt_net n;
    rt_seed(seed);
    rt_net_create(&n, &test_desc, HERE);
    rt_extend(&n, IN, 4, HERE);
    rt_extend(&n, HID, 3, HERE);
    rt_connect(&n, IN_HID, 0, 3, 0, 2, HERE);
    for (int k = 0; k < 12; k++) {
        w[k] = conn_at(&n, 0, IN_HID, k)->w;
        ck_assert(w[k] >= -0.5f && w[k] < 0.5f);
    }
    rt_net_destroy(&n);
}

START_TEST(test_storage_random_initializers_reproducible)
{
    cp_real a[12], b[12], c[12];
    weights_for_seed(99, a);
    weights_for_seed(99, b);
    weights_for_seed(100, c);
    ck_assert_mem_eq(a, b, sizeof a);
    ck_assert(memcmp(a, c, sizeof a) != 0);
}
END_TEST

START_TEST(test_storage_connect_clips_slices)
{
    rt_extend(&net, IN, 2, HERE);
    rt_extend(&net, HID, 2, HERE);
    rt_connect(&net, IN_HID, -5, 100, 1, 100, HERE);
    ck_assert_int_eq(net.bundles[IN_HID].nconn, 2);
    rt_connect(&net, IN_HID, 1, 0, 0, 1, HERE);  /* empty slice */
    rt_connect(&net, IN_HID, 5, 9, 0, 1, HERE);  /* fully clipped */
    ck_assert_int_eq(net.bundles[IN_HID].nconn, 2);
    check_invariants(&net);
}
END_TEST

START_TEST(test_storage_disconnect)
{
    rt_extend(&net, IN, 3, HERE);
    rt_extend(&net, HID, 3, HERE);
    rt_connect(&net, IN_HID, 0, 2, 0, 2, HERE);
    int32_t tag22 = conn_at(&net, 0, IN_HID, find_conn(&net, IN_HID, 2, 2))->tag;
    rt_disconnect(&net, IN_HID, 0, 1, 1, 5, HERE);
    ck_assert_int_eq(net.bundles[IN_HID].nconn, 5);
    for (int s = 0; s < 3; s++)
        for (int d = 0; d < 3; d++)
            ck_assert_int_eq(find_conn(&net, IN_HID, s, d) >= 0, s == 2 || d == 0);
    ck_assert_int_eq(conn_at(&net, 0, IN_HID, find_conn(&net, IN_HID, 2, 2))->tag, tag22);
    ck_assert(!net.bundles[IN_HID].dense);
    check_invariants(&net);
    rt_disconnect(&net, IN_HID, 0, 1, 1, 2, HERE); /* nothing left there: no error */
    ck_assert_int_eq(net.bundles[IN_HID].nconn, 5);
    rt_disconnect(&net, IN_HID, 0, 2, 0, 2, HERE);
    ck_assert_int_eq(net.bundles[IN_HID].nconn, 0);
    check_invariants(&net);
}
END_TEST

START_TEST(test_storage_dense_flag)
{
    rt_extend(&net, HID, 3, HERE);
    rt_connect(&net, ARR_HID, 0, 2, 0, 2, HERE);
    ck_assert(net.bundles[ARR_HID].dense);
    rt_extend(&net, HID, 1, HERE); /* a new node without inputs */
    ck_assert(!net.bundles[ARR_HID].dense);
    rt_connect(&net, ARR_HID, 0, 2, 3, 3, HERE);
    ck_assert(net.bundles[ARR_HID].dense);
    rt_disconnect(&net, ARR_HID, 1, 1, 2, 2, HERE);
    ck_assert(!net.bundles[ARR_HID].dense);
    (void)rt_conn_address(&net, ARR_HID, 1, 2, HERE);
    ck_assert(net.bundles[ARR_HID].dense);
    /* Dense means connection (s, d) is at d * nsrc + s. */
    for (int d = 0; d < 4; d++)
        for (int s = 0; s < 3; s++)
            ck_assert_int_eq(find_conn(&net, ARR_HID, s, d), d * 3 + s);
    check_invariants(&net);
}
END_TEST

START_TEST(test_storage_conn_address)
{
    rt_extend(&net, IN, 4, HERE);
    rt_extend(&net, HID, 2, HERE);
    tconn *c = rt_conn_address(&net, IN_HID, 3, 1, HERE);
    c->delta = 1.5f;
    ck_assert_int_eq(net.bundles[IN_HID].nconn, 1);
    (void)rt_conn_address(&net, IN_HID, 0, 1, HERE); /* inserted before */
    (void)rt_conn_address(&net, IN_HID, 2, 0, HERE);
    ck_assert_int_eq(net.bundles[IN_HID].nconn, 3);
    c = rt_conn_address(&net, IN_HID, 3, 1, HERE); /* found, not created */
    ck_assert_int_eq(net.bundles[IN_HID].nconn, 3);
    ck_assert_float_eq(c->delta, 1.5f);
    ck_assert_int_eq(c->tag, 0);
    ck_assert_int_eq(conn_counter, 3);
    check_invariants(&net);
}
END_TEST

/* ---- REPLICATE ME and commit ------------------------------------------------ */

START_TEST(test_storage_node_replicate_renumbering)
{
    rt_extend(&net, IN, 2, HERE);   /* ids 3, 4 */
    rt_extend(&net, HID, 4, HERE);  /* ids 5..8 */
    rt_connect(&net, IN_HID, 0, 1, 0, 3, HERE);
    rt_connect(&net, HID_HID, 0, 0, 1, 1, HERE); /* hid 0 -> hid 1 */
    rt_connect(&net, HID_HID, 3, 3, 0, 0, HERE); /* hid 3 -> hid 0 */
    for (int i = 0; i < 4; i++)
        node_at(&net, 0, HID, i)->act = (cp_real)(10 * i);
    static const int32_t req[4] = { 3, 1, 0, 1 };
#pragma omp parallel for
    for (int i = 0; i < 4; i++)
        if (req[i] != 1)
            rt_request_node_replicate(&net, HID, i, req[i], HERE);
    rt_commit_topology(&net, HERE);
    /* New nodes 0..4 stem from old 0, 0, 0, 1, 3. */
    static const int32_t origin[5] = { 0, 0, 0, 1, 3 };
    ck_assert_int_eq(net.count[HID], 5);
    for (int j = 0; j < 5; j++) {
        ck_assert_int_eq(node_at(&net, 0, HID, j)->id, 5 + origin[j]);
        ck_assert_float_eq(node_at(&net, 0, HID, j)->act, (cp_real)(10 * origin[j]));
    }
    ck_assert_int_eq(node_counter, 9); /* copies are not initialized */
    /* Incoming connections cloned: every new node has both inputs, with the
     * records of its original. */
    ck_assert_int_eq(net.bundles[IN_HID].nconn, 10);
    for (int j = 0; j < 5; j++)
        for (int s = 0; s < 2; s++) {
            int32_t k = find_conn(&net, IN_HID, s, j);
            ck_assert_int_ge(k, 0);
            ck_assert_int_eq(conn_at(&net, 0, IN_HID, k)->tag, s * 4 + origin[j]);
        }
    /* hid 0 -> hid 1 became {0,1,2} -> 3; hid 3 -> hid 0 became 4 -> {0,1,2}. */
    ck_assert_int_eq(net.bundles[HID_HID].nconn, 6);
    for (int j = 0; j < 3; j++) {
        ck_assert_int_ge(find_conn(&net, HID_HID, j, 3), 0);
        ck_assert_int_ge(find_conn(&net, HID_HID, 4, j), 0);
    }
    ck_assert(net.bundles[IN_HID].dense);
    check_invariants(&net);
}
END_TEST

START_TEST(test_storage_node_self_delete_removes_connections)
{
    rt_extend(&net, IN, 2, HERE);
    rt_extend(&net, HID, 3, HERE);
    rt_connect(&net, IN_HID, 0, 1, 0, 2, HERE);
    rt_connect(&net, HID_HID, 0, 2, 0, 2, HERE);
    rt_request_node_replicate(&net, HID, 1, 0, HERE);
    rt_request_node_replicate(&net, IN, 0, 0, HERE);
    rt_commit_topology(&net, HERE);
    ck_assert_int_eq(net.count[HID], 2);
    ck_assert_int_eq(net.count[IN], 1);
    ck_assert_int_eq(net.bundles[IN_HID].nconn, 2);
    ck_assert_int_eq(net.bundles[HID_HID].nconn, 4);
    ck_assert_int_eq(node_at(&net, 0, HID, 1)->id, 3 + 2 + 2);
    ck_assert_int_eq(node_at(&net, 0, IN, 0)->id, 4);
    check_invariants(&net);
}
END_TEST

START_TEST(test_storage_conn_delete_compacts)
{
    rt_extend(&net, IN, 10, HERE);
    rt_extend(&net, HID, 10, HERE);
    rt_connect(&net, IN_HID, 0, 9, 0, 9, HERE);
    int32_t n = net.bundles[IN_HID].nconn;
#pragma omp parallel for
    for (int32_t k = 0; k < n; k++) /* delete every connection with an odd tag */
        rt_request_conn_replicate(&net, IN_HID, k,
                                  conn_at(&net, 0, IN_HID, k)->tag % 2 ? 0 : 1, HERE);
    ck_assert(net.bundles[IN_HID].any_dead);
    rt_commit_topology(&net, HERE);
    ck_assert_int_eq(net.bundles[IN_HID].nconn, 50);
    ck_assert_int_eq(net.bundles[IN_HID].cap, 50); /* compacted storage */
    for (int32_t k = 0; k < 50; k++)
        ck_assert_int_eq(conn_at(&net, 0, IN_HID, k)->tag % 2, 0);
    ck_assert(!net.bundles[IN_HID].dense);
    check_invariants(&net);
    size_t before = rt_bytes_in_use();
    rt_commit_topology(&net, HERE); /* nothing requested: no change */
    ck_assert_uint_eq(rt_bytes_in_use(), before);
    ck_assert_int_eq(net.bundles[IN_HID].nconn, 50);
}
END_TEST

START_TEST(test_storage_conn_last_request_counts)
{
    rt_extend(&net, IN, 2, HERE);
    rt_extend(&net, HID, 1, HERE);
    rt_connect(&net, IN_HID, 0, 1, 0, 0, HERE);
    rt_request_conn_replicate(&net, IN_HID, 0, 0, HERE); /* INTO 0, then INTO 1 */
    rt_request_conn_replicate(&net, IN_HID, 0, 1, HERE);
    rt_request_conn_replicate(&net, IN_HID, 1, 1, HERE); /* INTO 1, then INTO 0 */
    rt_request_conn_replicate(&net, IN_HID, 1, 0, HERE);
    rt_commit_topology(&net, HERE);
    ck_assert_int_eq(net.bundles[IN_HID].nconn, 1);
    ck_assert_int_ge(find_conn(&net, IN_HID, 0, 0), 0);
    ck_assert_int_lt(find_conn(&net, IN_HID, 1, 0), 0);
    check_invariants(&net);
}
END_TEST

START_TEST(test_storage_conn_and_node_requests_together)
{
    rt_extend(&net, IN, 2, HERE);
    rt_extend(&net, HID, 2, HERE);
    rt_connect(&net, IN_HID, 0, 1, 0, 1, HERE);
    rt_request_conn_replicate(&net, IN_HID, find_conn(&net, IN_HID, 1, 0), 0, HERE);
    rt_request_node_replicate(&net, HID, 0, 2, HERE);
    rt_commit_topology(&net, HERE);
    /* hid 0 (only input from in 0) doubled: 0,1 from old 0; 2 from old 1. */
    ck_assert_int_eq(net.count[HID], 3);
    ck_assert_int_eq(net.bundles[IN_HID].nconn, 4);
    ck_assert_int_lt(find_conn(&net, IN_HID, 1, 0), 0);
    ck_assert_int_lt(find_conn(&net, IN_HID, 1, 1), 0);
    ck_assert_int_ge(find_conn(&net, IN_HID, 1, 2), 0);
    check_invariants(&net);
}
END_TEST

START_TEST(test_storage_destroy_frees_everything)
{
    rt_net_destroy(&net);
    size_t base = rt_bytes_in_use();
    rt_net_create(&net, &test_desc, HERE);
    rt_extend(&net, IN, 50, HERE);
    rt_extend(&net, HID, 20, HERE);
    rt_connect(&net, IN_HID, 0, 49, 0, 19, HERE);
    rt_connect(&net, HID_HID, 0, 19, 0, 19, HERE);
    rt_request_node_replicate(&net, HID, 3, 4, HERE);
    rt_commit_topology(&net, HERE);
    rt_replicate(&net, 4, 4, false, 0, HERE);
    rt_merge(&net, HERE);
    ck_assert_uint_gt(rt_bytes_in_use(), base);
    rt_net_destroy(&net);
    ck_assert_uint_eq(rt_bytes_in_use(), base);
    rt_net_create(&net, &test_desc, HERE); /* for teardown */
}
END_TEST

/* ---- run-time errors ----------------------------------------------------------- */

static void replicated_net(void)
{
    rt_extend(&net, IN, 2, HERE);
    rt_extend(&net, HID, 2, HERE);
    rt_connect(&net, IN_HID, 0, 1, 0, 1, HERE);
    rt_replicate(&net, 1, 1, true, 0, HERE); /* R(1) */
}

static void err_extend_replicated(void *a) { (void)a; replicated_net(); rt_extend(&net, IN, 1, (rt_srcpos){ "e.nn", 1 }); }
static void err_extend_negative(void *a) { (void)a; rt_extend(&net, IN, 2, HERE); rt_extend(&net, IN, -3, (rt_srcpos){ "e.nn", 2 }); }
static void err_extend_array(void *a) { (void)a; rt_extend(&net, ARR, 1, (rt_srcpos){ "e.nn", 3 }); }
static void err_connect_replicated(void *a) { (void)a; replicated_net(); rt_connect(&net, IN_HID, 0, 0, 0, 0, (rt_srcpos){ "e.nn", 4 }); }
static void err_disconnect_replicated(void *a) { (void)a; replicated_net(); rt_disconnect(&net, IN_HID, 0, 0, 0, 0, (rt_srcpos){ "e.nn", 5 }); }
static void err_node_negative(void *a) { (void)a; rt_extend(&net, HID, 1, HERE); rt_request_node_replicate(&net, HID, 0, -1, (rt_srcpos){ "e.nn", 6 }); }
static void err_node_array(void *a) { (void)a; rt_request_node_replicate(&net, ARR, 0, 2, (rt_srcpos){ "e.nn", 7 }); }
static void err_node_replicated(void *a) { (void)a; replicated_net(); rt_request_node_replicate(&net, HID, 0, 2, (rt_srcpos){ "e.nn", 8 }); }
static void err_conn_two(void *a) { (void)a; replicated_net(); rt_replicate(&net, 1, 1, false, 0, HERE); rt_request_conn_replicate(&net, IN_HID, 0, 2, (rt_srcpos){ "e.nn", 9 }); }
static void err_conn_negative(void *a) { (void)a; replicated_net(); rt_replicate(&net, 1, 1, false, 0, HERE); rt_request_conn_replicate(&net, IN_HID, 0, -1, (rt_srcpos){ "e.nn", 10 }); }
static void err_conn_replicated(void *a) { (void)a; replicated_net(); rt_request_conn_replicate(&net, IN_HID, 0, 0, (rt_srcpos){ "e.nn", 11 }); }
static void err_address_replicated(void *a) { (void)a; replicated_net(); (void)rt_conn_address(&net, IN_HID, 0, 0, (rt_srcpos){ "e.nn", 12 }); }
static void err_address_index(void *a) { (void)a; rt_extend(&net, IN, 2, HERE); rt_extend(&net, HID, 2, HERE); (void)rt_conn_address(&net, IN_HID, 2, 0, (rt_srcpos){ "e.nn", 13 }); }
static void err_connect_memory(void *a)
{
    (void)a;
    rt_extend(&net, IN, 1000, HERE);
    rt_extend(&net, HID, 1000, HERE);
    rt_set_memory_limit(rt_bytes_in_use() + (1 << 20));
    rt_connect(&net, IN_HID, 0, 999, 0, 999, (rt_srcpos){ "e.nn", 14 });
}
static void err_extend_memory(void *a)
{
    (void)a;
    rt_set_memory_limit(rt_bytes_in_use() + (1 << 20));
    rt_extend(&net, IN, 1 << 20, (rt_srcpos){ "e.nn", 15 });
}

/* MAXINT - 1 nodes fit a group (the check comes before any allocation) */
static void err_extend_beyond_limit(void *a) { (void)a; rt_extend(&net, IN, 1, HERE); rt_extend(&net, IN, INT32_MAX - 1, (rt_srcpos){ "e.nn", 16 }); }

START_TEST(test_storage_runtime_errors)
{
    ck_assert_rt_error(err_extend_beyond_limit, NULL, "e.nn:16: run-time error: group in would have 2147483647 nodes (the limit is 2147483646, MAXINT - 1)\n");
    ck_assert_rt_error(err_extend_replicated, NULL, "e.nn:1: run-time error: EXTEND while the network net is replicated");
    ck_assert_rt_error(err_extend_negative, NULL, "e.nn:2: run-time error: EXTEND in BY -3 would make its size negative (-1)");
    ck_assert_rt_error(err_extend_array, NULL, "e.nn:3: run-time error: EXTEND of the node array arr");
    ck_assert_rt_error(err_connect_replicated, NULL, "e.nn:4: run-time error: CONNECT while the network net is replicated");
    ck_assert_rt_error(err_disconnect_replicated, NULL, "e.nn:5: run-time error: DISCONNECT while the network net is replicated");
    ck_assert_rt_error(err_node_negative, NULL, "e.nn:6: run-time error: node REPLICATE INTO -1 (the count must not be negative)");
    ck_assert_rt_error(err_node_array, NULL, "e.nn:7: run-time error: node REPLICATE of a node of the node array arr");
    ck_assert_rt_error(err_node_replicated, NULL, "e.nn:8: run-time error: node REPLICATE while the network net is replicated");
    ck_assert_rt_error(err_conn_two, NULL, "e.nn:9: run-time error: connection REPLICATE INTO 2 (the count must be 0 or 1)");
    ck_assert_rt_error(err_conn_negative, NULL, "e.nn:10: run-time error: connection REPLICATE INTO -1");
    ck_assert_rt_error(err_conn_replicated, NULL, "e.nn:11: run-time error: connection REPLICATE while the network net is replicated");
    ck_assert_rt_error(err_address_replicated, NULL, "e.nn:12: run-time error: connection addressing while the network net is replicated");
    ck_assert_rt_error(err_address_index, NULL, "e.nn:13: run-time error: in index 2 out of range 0...1");
    ck_assert_rt_error(err_connect_memory, NULL, "e.nn:14: run-time error: out of memory");
    ck_assert_rt_error(err_extend_memory, NULL, "e.nn:15: run-time error: out of memory");
}
END_TEST

static void exit_extend_replicated(void)
{
    replicated_net();
    rt_extend(&net, HID, 1, HERE);
}

START_TEST(test_storage_exit_status)
{
    freopen("/dev/null", "w", stderr); /* the message is checked above */
    exit_extend_replicated(); /* registered as an exit test: must exit 3 */
}
END_TEST

/* ---- randomized comparison with a matrix model ------------------------------ */

enum { MAXN = 40 };

/* Model: node ids per position, connection tag per (src, dst) or -1. */
typedef struct model {
    int32_t n[2];          /* sizes of IN, HID */
    int32_t id[2][MAXN];
    int32_t in_hid[MAXN][MAXN];
    int32_t hid_hid[MAXN][MAXN];
} model;

static int32_t (*mat(model *m, int b))[MAXN]
{
    return b == IN_HID ? m->in_hid : m->hid_hid;
}

static void model_compare(model *m)
{
    check_invariants(&net);
    for (int g = 0; g < 2; g++) {
        ck_assert_int_eq(net.count[g], m->n[g]);
        for (int i = 0; i < m->n[g]; i++)
            ck_assert_int_eq(node_at(&net, 0, g, i)->id, m->id[g][i]);
    }
    for (int b = 0; b < 2; b++) {
        int32_t (*c)[MAXN] = mat(m, b);
        int32_t ns = m->n[b == IN_HID ? IN : HID], nd = m->n[HID], count = 0;
        for (int s = 0; s < ns; s++)
            for (int d = 0; d < nd; d++) {
                int32_t k = find_conn(&net, b, s, d);
                ck_assert_int_eq(k >= 0, c[s][d] >= 0);
                if (k >= 0) {
                    ck_assert_int_eq(conn_at(&net, 0, b, k)->tag, c[s][d]);
                    count++;
                }
            }
        ck_assert_int_eq(net.bundles[b].nconn, count);
    }
}

/* Renumbers group g of the model by per-node copy counts. */
static void model_renumber(model *m, int g, const int32_t *copies)
{
    model old = *m;
    int32_t origin[MAXN * 4], n = 0;
    for (int i = 0; i < old.n[g]; i++)
        for (int c = 0; c < copies[i]; c++)
            origin[n++] = i;
    ck_assert_int_le(n, MAXN);
    m->n[g] = n;
    for (int j = 0; j < n; j++)
        m->id[g][j] = old.id[g][origin[j]];
    for (int b = 0; b < 2; b++) {
        int sg = b == IN_HID ? IN : HID;
        int32_t (*oc)[MAXN] = mat(&old, b), (*nc)[MAXN] = mat(m, b);
        for (int s = 0; s < m->n[sg]; s++)
            for (int d = 0; d < m->n[HID]; d++)
                nc[s][d] = oc[sg == g ? origin[s] : s][g == HID ? origin[d] : d];
    }
}

START_TEST(test_storage_random_operations_match_model)
{
    static model m;
    memset(&m, 0, sizeof m);
    memset(m.in_hid, -1, sizeof m.in_hid);
    memset(m.hid_hid, -1, sizeof m.hid_hid);
    int32_t next_id = 3, next_tag = 0, most = 0;
    srand(12345);
    for (int step = 0; step < 400; step++) {
        int op = rand() % 7, g = rand() % 2, b = rand() % 2;
        int sg = b == IN_HID ? IN : HID;
        int32_t s_lo = rand() % 12 - 2, s_hi = s_lo + rand() % 14;
        int32_t d_lo = rand() % 12 - 2, d_hi = d_lo + rand() % 14;
        if (op == 0 && m.n[g] < 25) { /* EXTEND BY n > 0 */
            int32_t k = rand() % 8;
            rt_extend(&net, g, k, HERE);
            for (int i = 0; i < k; i++) {
                int32_t j = m.n[g]++;
                m.id[g][j] = next_id++;
                for (int x = 0; x < MAXN; x++) { /* new nodes: no connections */
                    if (g == IN)
                        m.in_hid[j][x] = -1;
                    else
                        m.in_hid[x][j] = m.hid_hid[x][j] = m.hid_hid[j][x] = -1;
                }
            }
        } else if (op == 1 && m.n[g] > 0) { /* EXTEND BY n < 0 */
            int32_t k = rand() % (m.n[g] / 2 + 1);
            rt_extend(&net, g, -k, HERE);
            int32_t copies[MAXN];
            for (int i = 0; i < m.n[g]; i++)
                copies[i] = i < m.n[g] - k;
            model_renumber(&m, g, copies);
        } else if (op == 2) { /* CONNECT */
            rt_connect(&net, b, s_lo, s_hi, d_lo, d_hi, HERE);
            for (int s = s_lo < 0 ? 0 : s_lo; s <= s_hi && s < m.n[sg]; s++)
                for (int d = d_lo < 0 ? 0 : d_lo; d <= d_hi && d < m.n[HID]; d++)
                    if (mat(&m, b)[s][d] < 0)
                        mat(&m, b)[s][d] = next_tag++;
        } else if (op == 3) { /* DISCONNECT */
            rt_disconnect(&net, b, s_lo, s_hi, d_lo, d_hi, HERE);
            for (int s = s_lo < 0 ? 0 : s_lo; s <= s_hi && s < m.n[sg]; s++)
                for (int d = d_lo < 0 ? 0 : d_lo; d <= d_hi && d < m.n[HID]; d++)
                    mat(&m, b)[s][d] = -1;
        } else if (op == 4) { /* connection REPLICATE ME INTO 0 */
            const rt_bundle *bd = &net.bundles[b];
            for (int d = 0; d < m.n[HID]; d++)
                for (int32_t k = bd->dst_start[d]; k < bd->dst_start[d + 1]; k++)
                    if (rand() % 4 == 0) {
                        mat(&m, b)[bd->src_node[k]][d] = -1;
                        rt_request_conn_replicate(&net, b, k, 0, HERE);
                    }
            rt_commit_topology(&net, HERE);
        } else if (op == 5) { /* node REPLICATE ME INTO 0..3 */
            int32_t copies[MAXN], total = 0;
            for (int i = 0; i < m.n[g]; i++) {
                copies[i] = rand() % 3 == 0 ? rand() % 4 : 1;
                total += copies[i];
            }
            if (total > 30)
                continue;
            for (int i = 0; i < m.n[g]; i++)
                if (copies[i] != 1)
                    rt_request_node_replicate(&net, g, i, copies[i], HERE);
            rt_commit_topology(&net, HERE);
            model_renumber(&m, g, copies);
        } else if (op == 6 && m.n[sg] > 0 && m.n[HID] > 0) { /* (a --> b) := … */
            for (int i = 0; i < 5; i++) {
                int32_t s = rand() % m.n[sg], d = rand() % m.n[HID];
                tconn *c = rt_conn_address(&net, b, s, d, HERE);
                if (mat(&m, b)[s][d] < 0)
                    mat(&m, b)[s][d] = next_tag++;
                ck_assert_int_eq(c->tag, mat(&m, b)[s][d]);
            }
        }
        model_compare(&m);
        if (net.bundles[IN_HID].nconn + net.bundles[HID_HID].nconn > most)
            most = net.bundles[IN_HID].nconn + net.bundles[HID_HID].nconn;
    }
    ck_assert_int_gt(most, 100); /* the walk reached non-trivial nets */
}
END_TEST

/* A test case of the suite with the network fixture. */
static TCase *fixture_case(Suite *s, const char *name)
{
    TCase *tc = tcase_create(name);
    tcase_add_checked_fixture(tc, setup, teardown);
    suite_add_tcase(s, tc);
    return tc;
}

static Suite *storage_suite(void)
{
    Suite *s = suite_create("rt_storage");
    TCase *tc = fixture_case(s, "groups");
    tcase_add_test(tc, test_storage_create);
    tcase_add_test(tc, test_storage_extend_grow_and_shrink);
    tcase_add_test(tc, test_storage_extend_shrink_drops_connections);
    tcase_add_test(tc, test_storage_destroy_frees_everything);
    tc = fixture_case(s, "connect");
    tcase_add_test(tc, test_storage_connect_cross_product_without_duplicates);
    tcase_add_test(tc, test_storage_connect_initializes_by_source_then_destination);
    tcase_add_test(tc, test_storage_random_initializers_reproducible);
    tcase_add_test(tc, test_storage_connect_clips_slices);
    tcase_add_test(tc, test_storage_disconnect);
    tcase_add_test(tc, test_storage_dense_flag);
    tcase_add_test(tc, test_storage_conn_address);
    tc = fixture_case(s, "replicate_me");
    tcase_add_test(tc, test_storage_node_replicate_renumbering);
    tcase_add_test(tc, test_storage_node_self_delete_removes_connections);
    tcase_add_test(tc, test_storage_conn_delete_compacts);
    tcase_add_test(tc, test_storage_conn_last_request_counts);
    tcase_add_test(tc, test_storage_conn_and_node_requests_together);
    tc = fixture_case(s, "errors");
    tcase_add_test(tc, test_storage_runtime_errors);
    tcase_add_exit_test(tc, test_storage_exit_status, 3);
    tc = fixture_case(s, "model");
    tcase_add_test(tc, test_storage_random_operations_match_model);
    return s;
}

int main(void)
{
    return run_suite(storage_suite());
}
