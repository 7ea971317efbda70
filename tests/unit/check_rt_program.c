/* check_rt_program.c -- Check suite that builds a program the way cupitc's
 * output is built (installed header, libcupitrt.a, -fopenmp) and runs it as
 * a process: exit statuses, --help, bad options, --data, --max-epochs,
 * run-time error lines, and identical output for 1 and 2 threads.
 */
#include "check_rt_support.h"

#include <sys/stat.h>

/* A small "generated" program: one replicated layer pair trained with
 * made-up updates, printing through the standard library. */
static const char program_source[] =
    "#include \"cupit_rt.h\"\n"
    "#include \"cupit_stdlib.h\"\n"
    "typedef struct { cp_real v; } node;\n"
    "typedef struct { cp_real w, d; } conn;\n"
    "static void conn_init(rt_net *n, void *r) { (void)n;\n"
    "  ((conn *)r)->w = rt_random_real((rt_srcpos){\"prog.nn\", 7}, -1, 1); }\n"
    "static void conn_merge(void *a, const void *b) { ((conn *)a)->d += ((const conn *)b)->d; }\n"
    "static const rt_group_desc groups[] = {\n"
    "  { \"in\", sizeof(node), 0, 0, false, 0 }, { \"out\", sizeof(node), 0, 0, false, 0 } };\n"
    "static const rt_bundle_desc bundles[] = {\n"
    "  { 0, 0, 1, 0, sizeof(conn), conn_init, conn_merge } };\n"
    "static const rt_net_desc desc = { \"net\", 1, 0, 0, 2, groups, 1, bundles };\n"
    "static rt_net net;\n"
    "static cp_io x1, x2;\n"
    "int main(int argc, char **argv) {\n"
    "  rt_init(argc, argv, \"prog\");\n"
    "  cp_int a, ni, b, no, n, first = 0;\n"
    "  openDatafile(\"Data\", &a, &ni, &b, &no, &n);\n"
    "  rt_net_create(&net, &desc, (rt_srcpos){\"prog.nn\", 20});\n"
    "  rt_extend(&net, 0, ni, (rt_srcpos){\"prog.nn\", 21});\n"
    "  rt_extend(&net, 1, no, (rt_srcpos){\"prog.nn\", 22});\n"
    "  rt_connect(&net, 0, 0, ni - 1, 0, no - 1, (rt_srcpos){\"prog.nn\", 23});\n"
    "  rt_replicate(&net, 1, n, true, 0, (rt_srcpos){\"prog.nn\", 24});\n"
    "  initIOareasxRxR(&x1, &x2, net.nreps);\n"
    "  for (cp_int e = 1; e <= 5; e++) {\n"
    "    getExamplesxRxR(&x1, &x2, net.nreps, &first);\n"
    "    rt_io_input(&net, 0, 0, ni - 1, 0, 0, sizeof(cp_real), &x1, (rt_srcpos){\"prog.nn\", 28});\n"
    "    #pragma omp parallel for schedule(static)\n"
    "    for (int r = 0; r < net.nreps; r++)\n"
    "      for (int k = 0; k < net.bundles[0].nconn; k++)\n"
    "        ((conn *)net.reps[r].conns[0])[k].d = ((node *)net.reps[r].nodes[0])\n"
    "            [net.bundles[0].src_node[k]].v * ((conn *)net.reps[r].conns[0])[k].w;\n"
    "    rt_merge(&net, (rt_srcpos){\"prog.nn\", 33});\n"
    "    conn *c = net.reps[0].conns[0];\n"
    "    protocolError(e, c[0].w + c[1].w * (cp_real)e + c[0].d, e);\n"
    "  }\n"
    "  rt_extend(&net, 0, 1, (rt_srcpos){\"prog.nn\", 37});\n"
    "  return rt_finish();\n"
    "}\n";

static char dir[] = "/tmp/check_rt_program.XXXXXX";
static char exe[600];

static const char *build_dir(void)
{
    return getenv("BUILD") ? getenv("BUILD") : "build";
}

static void setup(void)
{
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char src[600], cmd[2400];
    snprintf(src, sizeof src, "%s/prog.c", dir);
    snprintf(exe, sizeof exe, "%s/prog", dir);
    FILE *f = fopen(src, "w");
    ck_assert_ptr_nonnull(f);
    fputs(program_source, f);
    fclose(f);
    const char *b = build_dir();
    snprintf(cmd, sizeof cmd, "cc -std=c11 -Wall -Werror -fopenmp -I%s/include/cupit "
             "-o %s %s %s/lib/cupit/libcupitrt.a -lm", b, exe, src, b);
    ck_assert_msg(system(cmd) == 0, "cannot build: %s", cmd);
    snprintf(src, sizeof src, "%s/xor.data", dir);
    f = fopen(src, "w");
    ck_assert_ptr_nonnull(f);
    fputs("4 2 1\n-1 -1\n-1\n-1 1\n1\n1 -1\n1\n1 1\n-1\n", f);
    fclose(f);
}

static void teardown(void)
{
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}

static void exec_args(void *a)
{
    char **argv = a;
    execv(exe, argv);
    _exit(127);
}

/* Runs the program with the given arguments (argv[0] is filled in). */
static void run(child_result *res, char **argv)
{
    argv[0] = exe;
    run_child(exec_args, argv, res);
}

static char data_arg[700];

static char *data_option(void)
{
    snprintf(data_arg, sizeof data_arg, "--data=%s/xor.data", dir);
    return data_arg;
}

START_TEST(test_program_help_and_bad_options)
{
    child_result r;
    char *help[] = { NULL, "--help", NULL };
    run(&r, help);
    ck_assert_int_eq(r.status, 0);
    ck_assert_ptr_nonnull(strstr(r.out, "usage: prog [options]"));
    char *bad[] = { NULL, "--seeds", "3", NULL };
    run(&r, bad);
    ck_assert_int_eq(r.status, 2);
    ck_assert_str_eq(r.err, "prog: unknown option '--seeds' (did you mean '--seed'?)\n(run 'prog --help' for the options)\n");
    ck_assert_str_eq(r.out, "");
}
END_TEST

START_TEST(test_program_runtime_error_line)
{
    child_result r;
    char *args[] = { NULL, data_option(), NULL };
    run(&r, args);
    ck_assert_int_eq(r.status, 3);
    ck_assert_str_eq(r.err, "prog.nn:37: run-time error: EXTEND while the network net is replicated\n");
    ck_assert_ptr_nonnull(strstr(r.out, "epoch 5 error")); /* output before it is kept */
}
END_TEST

START_TEST(test_program_max_epochs_and_protocol)
{
    child_result r;
    char proto[700];
    snprintf(proto, sizeof proto, "--protocol=%s/p.tsv", dir);
    char *args[] = { NULL, data_option(), "--max-epochs", "2", proto, NULL };
    run(&r, args);
    ck_assert_int_eq(r.status, 0);
    ck_assert_ptr_nonnull(strstr(r.out, "epoch 2 error"));
    ck_assert_ptr_null(strstr(r.out, "epoch 3"));
    ck_assert_str_eq(r.err, "prog: stopping after epoch 2 (--max-epochs)\n");
    struct stat st;
    snprintf(proto, sizeof proto, "%s/p.tsv", dir);
    ck_assert_int_eq(stat(proto, &st), 0);
    ck_assert_int_gt(st.st_size, 20);
}
END_TEST

START_TEST(test_program_missing_data)
{
    child_result r;
    char *args[] = { NULL, "--data", "/nonexistent/x.data", NULL };
    run(&r, args);
    ck_assert_int_eq(r.status, 3);
    ck_assert_str_eq(r.err, "prog: run-time error: cannot read data file "
                            "'/nonexistent/x.data' (data set \"Data\"): No such file or directory\n");
}
END_TEST

START_TEST(test_program_same_output_for_thread_counts)
{
    child_result one, two;
    char *a1[] = { NULL, data_option(), "--seed", "11", "--threads", "1", "--max-epochs", "5", NULL };
    run(&one, a1);
    char *a2[] = { NULL, data_option(), "--seed", "11", "--threads", "2", "--max-epochs", "5", NULL };
    run(&two, a2);
    ck_assert_int_eq(one.status, 0);
    ck_assert_int_eq(two.status, 0);
    ck_assert_str_eq(one.out, two.out);
    char *a3[] = { NULL, data_option(), "--seed", "12", "--max-epochs", "5", NULL };
    run(&two, a3);
    ck_assert_str_ne(one.out, two.out); /* the seed matters */
}
END_TEST

static Suite *program_suite(void)
{
    Suite *s = suite_create("rt_program");
    TCase *tc = tcase_create("process");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_program_help_and_bad_options);
    tcase_add_test(tc, test_program_runtime_error_line);
    tcase_add_test(tc, test_program_max_epochs_and_protocol);
    tcase_add_test(tc, test_program_missing_data);
    tcase_add_test(tc, test_program_same_output_for_thread_counts);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(program_suite());
}
