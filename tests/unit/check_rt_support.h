/* check_rt_support.h -- helpers shared by the runtime's Check suites.
 *
 * run_child() runs a function in a forked process with stdout and stderr
 * captured, so that run-time errors (which end the process) can be checked
 * for their exit status and message.  The test network descriptor and the
 * CSR invariant checker serve the storage, replication and I/O suites.
 */
#ifndef CHECK_RT_SUPPORT_H
#define CHECK_RT_SUPPORT_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cupit_rt.h"
#include "../../runtime/rt_internal.h"

/* ---- running code that ends the process ---------------------------------- */

typedef struct child_result {
    int status;      /* exit status, or 128 + signal */
    char out[8192];  /* captured stdout */
    char err[8192];  /* captured stderr */
} child_result;

static inline void read_back(FILE *f, char *buf, size_t size)
{
    rewind(f);
    size_t n = fread(buf, 1, size - 1, f);
    buf[n] = 0;
    fclose(f);
}

/* Runs fn(arg) in a child process; fn returning means exit status 0. */
static inline void run_child(void (*fn)(void *), void *arg, child_result *res)
{
    FILE *out = tmpfile(), *err = tmpfile();
    ck_assert(out && err);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        dup2(fileno(out), 1);
        dup2(fileno(err), 2);
        fn(arg);
        fflush(stdout);
        _exit(0);
    }
    int st;
    waitpid(pid, &st, 0);
    res->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    read_back(out, res->out, sizeof res->out);
    read_back(err, res->err, sizeof res->err);
}

/* fn(arg) must end with a run-time error whose line contains `needle`. */
#define ck_assert_rt_error(fn, arg, needle)                                   \
    do {                                                                      \
        child_result res_;                                                    \
        run_child((fn), (arg), &res_);                                        \
        ck_assert_msg(res_.status == 3, "exit status %d, stderr: %s",         \
                      res_.status, res_.err);                                 \
        ck_assert_msg(strstr(res_.err, "run-time error: ") != NULL,           \
                      "no run-time error line in: %s", res_.err);             \
        ck_assert_msg(strstr(res_.err, (needle)) != NULL,                     \
                      "expected '%s' in: %s", (needle), res_.err);            \
    } while (0)

/* ---- a test network ---------------------------------------------------------
 *
 * Groups: 0 "in" (GROUP), 1 "hid" (GROUP), 2 "arr" (ARRAY 3).
 * Bundles: 0 in -> hid, 1 hid -> hid, 2 arr -> hid.
 * Nodes carry the number of their creation, connections a creation tag
 * and a RANDOM weight, so tests can tell copies from new objects.
 */

typedef struct tnode {
    int32_t id;    /* creation number */
    cp_real act;
    cp_real sum;   /* merged by summing */
} tnode;

typedef struct tconn {
    int32_t tag;   /* creation number */
    cp_real w;     /* RANDOM (-0.5...0.5) */
    cp_real delta; /* merged by summing */
} tconn;

typedef struct tnet {
    cp_real total; /* merged by summing */
    int32_t created;
} tnet;

static int32_t node_counter, conn_counter;

static inline void tnode_init(rt_net *net, void *rec)
{
    (void)net;
    ((tnode *)rec)->id = node_counter++;
}

static inline void tconn_init(rt_net *net, void *rec)
{
    (void)net;
    tconn *c = rec;
    c->tag = conn_counter++;
    c->w = rt_random_real((rt_srcpos){ "test.nn", 1 }, -0.5f, 0.5f);
}

static inline void tnet_init(rt_net *net, void *rec)
{
    (void)net;
    ((tnet *)rec)->created = 1;
}

static inline void tnode_merge(void *me, const void *you)
{
    ((tnode *)me)->sum += ((const tnode *)you)->sum;
}

static inline void tconn_merge(void *me, const void *you)
{
    ((tconn *)me)->delta += ((const tconn *)you)->delta;
}

static inline void tnet_merge(void *me, const void *you)
{
    ((tnet *)me)->total += ((const tnet *)you)->total;
}

static const rt_group_desc test_groups[] = {
    { "in", sizeof(tnode), tnode_init, tnode_merge, false, 0, {0}, NULL, 0 },
    { "hid", sizeof(tnode), tnode_init, tnode_merge, false, 0, {0}, NULL, 0 },
    { "arr", sizeof(tnode), tnode_init, tnode_merge, true, 3, {0}, NULL, 0 },
};
static const rt_bundle_desc test_bundles[] = {
    { 0, 0, 1, 0, sizeof(tconn), tconn_init, tconn_merge, {0}, NULL, 0 },
    { 1, 1, 1, 0, sizeof(tconn), tconn_init, tconn_merge, {0}, NULL, 0 },
    { 2, 0, 1, 0, sizeof(tconn), tconn_init, tconn_merge, {0}, NULL, 0 },
};
__attribute__((unused)) static const rt_net_desc test_desc = {
    "net", sizeof(tnet), tnet_init, tnet_merge, 3, test_groups, 3, test_bundles, false, {0}, NULL, 0,
};

#define HERE ((rt_srcpos){ "test.nn", __LINE__ })

static inline tnode *node_at(rt_net *net, int32_t r, int32_t g, int32_t i)
{
    return (tnode *)net->reps[r].nodes[g] + i;
}

static inline tconn *conn_at(rt_net *net, int32_t r, int32_t b, int32_t k)
{
    return (tconn *)net->reps[r].conns[b] + k;
}

/* Connection index of src -> dst in bundle b, or -1. */
static inline int32_t find_conn(const rt_net *net, int32_t b, int32_t src,
                                int32_t dst)
{
    const rt_bundle *bd = &net->bundles[b];
    for (int32_t k = bd->dst_start[dst]; k < bd->dst_start[dst + 1]; k++)
        if (bd->src_node[k] == src)
            return k;
    return -1;
}

/* Every structural invariant of the storage (docs/runtime-abi.md). */
static inline void check_invariants(const rt_net *net)
{
    const rt_net_desc *d = net->desc;
    for (int32_t g = 0; g < d->ngroups; g++) {
        ck_assert_int_ge(net->count[g], 0);
        ck_assert_int_le(net->count[g], net->cap[g]);
        ck_assert(!net->any_repl[g]);
        if (!d->groups[g].is_array)
            for (int32_t i = 0; i < net->count[g]; i++)
                ck_assert_int_eq(net->repl_req[g][i], 1);
    }
    for (int32_t b = 0; b < d->nbundles; b++) {
        const rt_bundle *bd = &net->bundles[b];
        int32_t ns = net->count[d->bundles[b].src_group];
        int32_t nd = net->count[d->bundles[b].dst_group];
        ck_assert_int_le(bd->nconn, bd->cap);
        ck_assert_int_eq(bd->dst_start[0], 0);
        ck_assert_int_eq(bd->dst_start[nd], bd->nconn);
        for (int32_t x = 0; x < nd; x++) {
            ck_assert_int_le(bd->dst_start[x], bd->dst_start[x + 1]);
            for (int32_t k = bd->dst_start[x]; k < bd->dst_start[x + 1]; k++) {
                ck_assert_int_ge(bd->src_node[k], 0);
                ck_assert_int_lt(bd->src_node[k], ns);
                if (k > bd->dst_start[x]) /* sorted, no duplicates */
                    ck_assert_int_lt(bd->src_node[k - 1], bd->src_node[k]);
            }
        }
        ck_assert_int_eq(bd->src_start[0], 0);
        ck_assert_int_eq(bd->src_start[ns], bd->nconn);
        for (int32_t s = 0; s < ns; s++)
            for (int32_t j = bd->src_start[s]; j < bd->src_start[s + 1]; j++) {
                int32_t k = bd->by_src[j];
                ck_assert_int_ge(k, 0);
                ck_assert_int_lt(k, bd->nconn);
                ck_assert_int_eq(bd->src_node[k], s);
                if (j > bd->src_start[s])
                    ck_assert_int_lt(bd->by_src[j - 1], k);
            }
        for (int32_t k = 0; k < bd->nconn; k++)
            ck_assert(!bd->dead[k]);
        ck_assert(!bd->any_dead);
        ck_assert_int_eq(bd->dense, (int64_t)bd->nconn == (int64_t)ns * nd);
    }
}

/* Runs one suite (CK_RUN_CASE etc. apply); the exit status for main. */
static inline int run_suite(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
