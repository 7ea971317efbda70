/* check_rt_save.c -- Check suite for saveNetworks/loadNetworks
 * (runtime/rt_save.c): a network with values and an irregular topology
 * comes back exactly; a file whose networks have other element kinds, a
 * damaged file and a replicated network are run-time errors. */
#include "check_rt_support.h"
#include "../../runtime/cupit_stdlib.h"

enum { IN, HID, ARR };
enum { IN_HID, HID_HID, ARR_HID };

/* the element leaves of the test types */
static const rt_field node_fields[] = {
    {offsetof(tnode, id), 1, 0, RT_F_I32}, {offsetof(tnode, act), 1, 0, RT_F_REAL},
    {offsetof(tnode, sum), 1, 0, RT_F_REAL},
};
static const rt_field conn_fields[] = {
    {offsetof(tconn, tag), 1, 0, RT_F_I32}, {offsetof(tconn, w), 1, 0, RT_F_REAL},
    {offsetof(tconn, delta), 1, 0, RT_F_REAL},
};
static const rt_field net_fields[] = {
    {offsetof(tnet, total), 1, 0, RT_F_REAL}, {offsetof(tnet, created), 1, 0, RT_F_I32},
};
static const rt_field other_net_fields[] = { /* another program: an Int for a Real */
    {offsetof(tnet, total), 1, 0, RT_F_I32}, {offsetof(tnet, created), 1, 0, RT_F_I32},
};

#define GROUPS {                                                                   \
    { "in", sizeof(tnode), tnode_init, tnode_merge, false, 0, {0}, node_fields, 3 }, \
    { "hid", sizeof(tnode), tnode_init, tnode_merge, false, 0, {0}, node_fields, 3 }, \
    { "arr", sizeof(tnode), tnode_init, tnode_merge, true, 3, {0}, node_fields, 3 }, }
#define BUNDLES {                                                                   \
    { 0, 0, 1, 0, sizeof(tconn), tconn_init, tconn_merge, {0}, conn_fields, 3 },    \
    { 1, 1, 1, 0, sizeof(tconn), tconn_init, tconn_merge, {0}, conn_fields, 3 },    \
    { 2, 0, 1, 0, sizeof(tconn), tconn_init, tconn_merge, {0}, conn_fields, 3 }, }
static const rt_group_desc groups[] = GROUPS;
static const rt_bundle_desc bundles[] = BUNDLES;
static const rt_net_desc desc = {
    "net", sizeof(tnet), tnet_init, tnet_merge, 3, groups, 3, bundles, false, {0},
    net_fields, 2,
};
static const rt_net_desc other_desc = {
    "net", sizeof(tnet), tnet_init, tnet_merge, 3, groups, 3, bundles, false, {0},
    other_net_fields, 2,
};

static rt_net net;
static rt_net *const nets[] = { &net };
static const char *const names[] = { "net" };
static char path[256];

static void setup(void)
{
    node_counter = conn_counter = 0;
    rt_seed(7);
    rt_net_create(&net, &desc, HERE);
    rt_register_networks(nets, names, 1);
    snprintf(path, sizeof path, "/tmp/check_rt_save.%d.net", (int)getpid());
}

static void teardown(void)
{
    rt_net_destroy(&net);
    remove(path);
}

/* in: 4 nodes, hid: 3; in -> hid without two connections, hid -> hid one */
static void build(void)
{
    rt_extend(&net, IN, 4, HERE);
    rt_extend(&net, HID, 3, HERE);
    rt_connect(&net, IN_HID, 0, 3, 0, 2, HERE);
    rt_disconnect(&net, IN_HID, 1, 1, 2, 2, HERE);
    rt_disconnect(&net, IN_HID, 3, 3, 0, 0, HERE);
    rt_connect(&net, HID_HID, 2, 2, 0, 0, HERE);
    tconn *c = net.reps[0].conns[IN_HID];
    for (int32_t k = 0; k < net.bundles[IN_HID].nconn; k++)
        c[k].delta = (cp_real)k * 0.25f;
    ((tnode *)net.reps[0].nodes[HID])[1].act = 1.5f;
    ((tnet *)net.reps[0].net_data)->total = -2.0f;
}

START_TEST(test_save_load_roundtrip)
{
    build();
    rt_bundle before = net.bundles[IN_HID];
    int32_t src[16], dst_start[8];
    tconn conns[16];
    memcpy(src, before.src_node, (size_t)before.nconn * sizeof *src);
    memcpy(dst_start, before.dst_start, 4 * sizeof *dst_start);
    memcpy(conns, net.reps[0].conns[IN_HID], (size_t)before.nconn * sizeof *conns);
    saveNetworks(path);
    /* spoil everything */
    rt_extend(&net, IN, 2, HERE);
    rt_extend(&net, HID, -1, HERE);
    rt_connect(&net, IN_HID, 0, 5, 0, 1, HERE);
    ((tnet *)net.reps[0].net_data)->total = 9.0f;
    loadNetworks(path);
    ck_assert_int_eq(net.count[IN], 4);
    ck_assert_int_eq(net.count[HID], 3);
    ck_assert_int_eq(net.bundles[IN_HID].nconn, 10);
    ck_assert_int_eq(net.bundles[HID_HID].nconn, 1);
    ck_assert_mem_eq(net.bundles[IN_HID].src_node, src, 10 * sizeof *src);
    ck_assert_mem_eq(net.bundles[IN_HID].dst_start, dst_start, 4 * sizeof *dst_start);
    tconn *c = net.reps[0].conns[IN_HID];
    for (int k = 0; k < 10; k++) {
        ck_assert_int_eq(c[k].tag, conns[k].tag);
        ck_assert_float_eq(c[k].w, conns[k].w);
        ck_assert_float_eq(c[k].delta, conns[k].delta);
    }
    ck_assert_float_eq(((tnode *)net.reps[0].nodes[HID])[1].act, 1.5f);
    ck_assert_float_eq(((tnet *)net.reps[0].net_data)->total, -2.0f);
    ck_assert(!net.bundles[IN_HID].dense);
}
END_TEST

static void load_into_other(void *arg)
{
    (void)arg;
    static rt_net other;
    static rt_net *const others[] = { &other };
    rt_net_create(&other, &other_desc, HERE);
    rt_register_networks(others, names, 1);
    loadNetworks(path);
}

static void load_damaged(void *arg)
{
    (void)arg;
    FILE *f = fopen(path, "r+b");
    fseek(f, 30, SEEK_SET);
    fputc('Z', f);
    fclose(f);
    loadNetworks(path);
}

static void save_replicated(void *arg)
{
    (void)arg;
    rt_replicate(&net, 2, 2, false, 0, HERE);
    saveNetworks(path);
}

static void load_directory(void *a)
{
    (void)a;
    loadNetworks("/tmp");
}

START_TEST(test_save_load_errors)
{
    build();
    ck_assert_rt_error(load_directory, NULL, "loadNetworks: cannot read '/tmp': Is a directory\n");
    saveNetworks(path);
    ck_assert_rt_error(load_into_other, NULL, "was saved by another program");
    ck_assert_rt_error(load_damaged, NULL, "checksum mismatch");
    ck_assert_rt_error(save_replicated, NULL, "the network net is replicated");
}
END_TEST

/* saveNetworks never replaces a data file the program read (the network
 * file it loaded it may) */
static char data_path[300];

static void save_over_data(void *a)
{
    (void)a;
    cp_int ii, ri, io, ro, n;
    openDatafile(data_path, &ii, &ri, &io, &ro, &n);
    saveNetworks(data_path);
}

START_TEST(test_save_over_data_file)
{
    build();
    snprintf(data_path, sizeof data_path, "/tmp/check_rt_save.%d.data", (int)getpid());
    FILE *f = fopen(data_path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("1 1 1\n0.5\n1\n", f);
    fclose(f);
    child_result r;
    run_child(save_over_data, NULL, &r);
    ck_assert_int_eq(r.status, 2);
    char expect[1000];
    snprintf(expect, sizeof expect, "the saveNetworks file '%s' is the input file '%s' (data "
             "set \"%s\"); refusing to overwrite it\n", data_path, data_path, data_path);
    ck_assert_msg(strstr(r.err, expect) != NULL, "stderr: %s", r.err);
    f = fopen(data_path, "r");
    char text[64] = "";
    ck_assert_ptr_nonnull(fgets(text, sizeof text, f));
    fclose(f);
    ck_assert_str_eq(text, "1 1 1\n");
    remove(data_path);
    saveNetworks(path); /* the network file loaded may be saved again */
    loadNetworks(path);
    saveNetworks(path);
}
END_TEST

/* An RT_F_REPEAT ... RT_F_END table (an array inside the elements of an
 * array) saves the bytes of the same table written out row by row, with
 * the same fingerprint, and loads them back. */
typedef struct trow {
    int32_t a[3];
    cp_real x;
} trow;
typedef struct tarr {
    trow r[2];
    int16_t tail;
} tarr;
#define ROW_A(i) {offsetof(tarr, r) + offsetof(trow, a) + (i) * sizeof(int32_t), 2, sizeof(trow), RT_F_I32}
#define ROW_X {offsetof(tarr, r) + offsetof(trow, x), 2, sizeof(trow), RT_F_REAL}
#define ROW_TAIL {offsetof(tarr, tail), 1, 0, RT_F_I16}
static const rt_field repeated_fields[] = {
    {offsetof(tarr, r) + offsetof(trow, a), 3, sizeof(int32_t), RT_F_REPEAT},
    {0, 2, sizeof(trow), RT_F_I32},
    {0, 0, 0, RT_F_END},
    ROW_X, ROW_TAIL,
};
static const rt_field unrolled_fields[] = { ROW_A(0), ROW_A(1), ROW_A(2), ROW_X, ROW_TAIL };
static const rt_net_desc repeated_desc = {
    "arrs", sizeof(tarr), NULL, NULL, 0, NULL, 0, NULL, false, {0}, repeated_fields, 5,
};
static const rt_net_desc unrolled_desc = {
    "arrs", sizeof(tarr), NULL, NULL, 0, NULL, 0, NULL, false, {0}, unrolled_fields, 5,
};

static size_t save_arrs(const rt_net_desc *d, unsigned char *bytes, size_t cap, bool fill)
{
    static rt_net arrs;
    static rt_net *const list[] = { &arrs };
    static const char *const arr_names[] = { "arrs" };
    rt_net_create(&arrs, d, HERE);
    rt_register_networks(list, arr_names, 1);
    tarr *t = arrs.reps[0].net_data;
    for (int i = 0; i < 2; i++) {
        for (int j = 0; j < 3; j++)
            t->r[i].a[j] = fill ? 10 * i + j + 1 : 0;
        t->r[i].x = fill ? (cp_real)i + 0.5f : 0;
    }
    t->tail = fill ? -3 : 0;
    size_t n = 0;
    if (fill) {
        saveNetworks(path);
        FILE *f = fopen(path, "rb");
        n = fread(bytes, 1, cap, f);
        fclose(f);
    } else {
        loadNetworks(path);
        for (int i = 0; i < 2; i++) {
            for (int j = 0; j < 3; j++)
                ck_assert_int_eq(t->r[i].a[j], 10 * i + j + 1);
            ck_assert_float_eq(t->r[i].x, (cp_real)i + 0.5f);
        }
        ck_assert_int_eq(t->tail, -3);
    }
    rt_net_destroy(&arrs);
    rt_register_networks(nets, names, 1);
    return n;
}

START_TEST(test_repeated_rows)
{
    unsigned char unrolled[512], repeated[512];
    size_t nu = save_arrs(&unrolled_desc, unrolled, sizeof unrolled, true);
    size_t nr = save_arrs(&repeated_desc, repeated, sizeof repeated, true);
    ck_assert_uint_gt(nu, 0);
    ck_assert_uint_eq(nu, nr);
    ck_assert_mem_eq(unrolled, repeated, nu);
    save_arrs(&unrolled_desc, NULL, 0, false); /* the file of the repeated rows */
    save_arrs(&repeated_desc, unrolled, sizeof unrolled, true);
    save_arrs(&repeated_desc, NULL, 0, false);
}
END_TEST

/* A group whose nodes have interfaces but no elements: its node records
 * take no bytes, so a group of more nodes than the file has bytes loads. */
static const rt_group_desc bare_groups[] = {
    { "bare", sizeof(tnode), tnode_init, tnode_merge, false, 0, {0}, NULL, 0 },
};
static const rt_net_desc bare_desc = {
    "bare", sizeof(tnet), tnet_init, tnet_merge, 1, bare_groups, 0, NULL, false, {0}, NULL, 0,
};

START_TEST(test_fieldless_group)
{
    static rt_net bare;
    static rt_net *const list[] = { &bare };
    static const char *const bare_names[] = { "bare" };
    rt_net_create(&bare, &bare_desc, HERE);
    rt_register_networks(list, bare_names, 1);
    rt_extend(&bare, 0, 5000, HERE);
    saveNetworks(path);
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    fseek(f, 0, SEEK_END);
    ck_assert_int_lt(ftell(f), 5000);
    fclose(f);
    rt_extend(&bare, 0, -4998, HERE);
    loadNetworks(path);
    ck_assert_int_eq(bare.count[0], 5000);
    rt_net_destroy(&bare);
    rt_register_networks(nets, names, 1);
}
END_TEST

/* A file that never ends is refused after its first bytes, not read until
 * the memory runs out. */
static void load_endless(void *a)
{
    (void)a;
    rt_set_memory_limit((size_t)64 << 20);
    loadNetworks("/dev/zero");
}

START_TEST(test_load_endless)
{
    ck_assert_rt_error(load_endless, NULL, "'/dev/zero' is not a file of saved networks");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("rt_save");
    TCase *tc = tcase_create("save");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_save_load_roundtrip);
    tcase_add_test(tc, test_save_load_errors);
    tcase_add_test(tc, test_save_over_data_file);
    tcase_add_test(tc, test_repeated_rows);
    tcase_add_test(tc, test_fieldless_group);
    tcase_add_test(tc, test_load_endless);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
