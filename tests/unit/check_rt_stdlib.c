/* check_rt_stdlib.c -- Check suite for the standard library: arithmetic,
 * data file reading (FANN format, bias column, malformed files), example
 * distribution into I/O areas, the test set and accuracy helper, output
 * procedures, protocolError with --protocol and --max-epochs, parameters.
 */
#include "check_rt_support.h"
#include "../../runtime/cupit_stdlib.h"

#include <unistd.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>

static char dir[] = "/tmp/check_rt_stdlib.XXXXXX";
static char path_buf[512];

static void setup(void)
{
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}

/* Writes `text` to a file in the test directory; returns its path. */
static const char *write_file(const char *name, const char *text)
{
    snprintf(path_buf, sizeof path_buf, "%s/%s", dir, name);
    FILE *f = fopen(path_buf, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    return path_buf;
}

static const char three_examples[] =
    "3 2 1\n"
    "0.5 -1   \n"
    "1\n"
    "\n"
    "2 3\r\n"
    "0\r\n"
    "-4 1e-1\n"
    "-1\n";

/* ---- arithmetic -------------------------------------------------------------- */

START_TEST(test_stdlib_math)
{
    ck_assert_float_eq(sigmoid(0), 0);
    ck_assert_float_eq_tol(sigmoid(1), (cp_real)tanh(1.0), 1e-6f);
    ck_assert_float_eq_tol(sigmoid(20), 1, 1e-6f);
    ck_assert_float_eq_tol(sigmoid(-20), -1, 1e-6f);
    ck_assert_float_eq(sigmoidPrime(0), 1);
    for (float x = -3; x <= 3; x += 0.25f) { /* the derivative of sigmoid */
        double h = 1e-3, num = (tanh(x + h) - tanh(x - h)) / (2 * h);
        ck_assert_float_eq_tol(sigmoidPrime(x), (cp_real)num, 1e-4f);
    }
    ck_assert_float_eq(absReal(-2.5f), 2.5f);
    ck_assert_float_eq(absReal(3), 3);
    ck_assert(!signbit(absReal(-0.0f))); /* |-0| is +0, as fabs */
    ck_assert(!signbit(rt_abs_real(-0.0f)));
    ck_assert_float_eq(signReal(0), 0);
    ck_assert_float_eq(signReal(-0.0f), 0);
    ck_assert_float_eq(signReal(1e-30f), 1);
    ck_assert_float_eq(signReal(-7), -1);
    ck_assert_float_eq(minReal(1, 2), 1);
    ck_assert_float_eq(minReal(2, -1), -1);
    ck_assert_float_eq(maxReal(1, 2), 2);
    ck_assert_float_eq(maxReal(-2, -3), -2);
}
END_TEST

/* ---- data files --------------------------------------------------------------- */

START_TEST(test_stdlib_open_and_round_robin)
{
    const char *p = write_file("d.data", three_examples);
    cp_int ii, ri, io, ro, n;
    openDatafile(p, &ii, &ri, &io, &ro, &n);
    ck_assert_int_eq(ii, 0);
    ck_assert_int_eq(ri, 2);
    ck_assert_int_eq(io, 0);
    ck_assert_int_eq(ro, 1);
    ck_assert_int_eq(n, 3);
    cp_io in = { 0 }, out = { 0 };
    initIOareasxRxR(&in, &out, 2);
    ck_assert_int_eq(in.count, 4);
    ck_assert_int_eq(in.per_rep, 2);
    ck_assert_int_eq(out.count, 2);
    ck_assert_uint_eq(in.elem_size, sizeof(cp_real));
    cp_int first = 0;
    getExamplesxRxR(&in, &out, 2, &first); /* examples 0, 1 */
    ck_assert_int_eq(first, 2);
    cp_real *x = in.data, *t = out.data;
    ck_assert_float_eq(x[0], 0.5f);
    ck_assert_float_eq(x[1], -1);
    ck_assert_float_eq(x[2], 2);
    ck_assert_float_eq(x[3], 3);
    ck_assert_float_eq(t[0], 1);
    ck_assert_float_eq(t[1], 0);
    getExamplesxRxR(&in, &out, 2, &first); /* examples 2, 0 */
    ck_assert_int_eq(first, 1);
    ck_assert_float_eq(x[0], -4);
    ck_assert_float_eq_tol(x[1], 0.1f, 1e-7f);
    ck_assert_float_eq(x[2], 0.5f);
    ck_assert_float_eq(t[0], -1);
    ck_assert_float_eq(t[1], 1);
    getExamplesxRxR(&in, &out, 1, &first); /* example 1 only */
    ck_assert_int_eq(first, 2);
    ck_assert_float_eq(x[0], 2);
    ck_assert_float_eq(x[2], 0.5f); /* replicate 1 untouched */
    initIOareasxRxR(&in, &out, 3); /* re-allocation */
    ck_assert_int_eq(in.count, 6);
    rt_stdlib_release();
    ck_assert_ptr_null(in.data);
}
END_TEST

/* A UTF-8 byte-order mark is skipped; lines may end in \r alone (old
 * Mac OS) as well as \n and \r\n. */
START_TEST(test_stdlib_bom_and_cr_lines)
{
    static const char *texts[] = {
        "\xef\xbb\xbf" "2 2 1\n0.5 -1\n1\n2 3\n0\n",
        "2 2 1\r0.5 -1\r1\r\r2 3\r0\r",
        "\xef\xbb\xbf" "2 2 1\r\n0.5 -1\r1\n2 3\r\n0",
        "\xef\xbb\xbf" "x,y,t\r0.5,-1,1\r2,3,0\r",
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        const char *p = write_file(i == 3 ? "d.csv" : "d.data", texts[i]);
        cp_int ii, ri, io, ro, n;
        openDatafile(p, &ii, &ri, &io, &ro, &n);
        ck_assert_int_eq(ri, 2);
        ck_assert_int_eq(ro, 1);
        ck_assert_int_eq(n, 2);
        cp_io in = { 0 }, out = { 0 };
        initIOareasxRxR(&in, &out, 2);
        cp_int first = 0;
        getExamplesxRxR(&in, &out, 2, &first);
        cp_real *x = in.data, *t = out.data;
        ck_assert_float_eq(x[0], 0.5f);
        ck_assert_float_eq(x[1], -1);
        ck_assert_float_eq(x[2], 2);
        ck_assert_float_eq(x[3], 3);
        ck_assert_float_eq(t[0], 1);
        ck_assert_float_eq(t[1], 0);
        rt_stdlib_release();
    }
}
END_TEST

/* A .csv file: comma-separated rows, an optional header row, the last
 * --csv-outputs columns (default 1) the targets; the same data as FANN. */
START_TEST(test_stdlib_csv)
{
    const char *p = write_file("d.csv", "x1, x2 ,target\n0.5,-1,1\n\n2, 3,0\n-4,0.1,-1\n");
    cp_int ii, ri, io, ro, n;
    openDatafile(p, &ii, &ri, &io, &ro, &n);
    ck_assert_int_eq(ri, 2);
    ck_assert_int_eq(ro, 1);
    ck_assert_int_eq(n, 3);
    cp_io in = { 0 }, out = { 0 };
    initIOareasxRxR(&in, &out, 3);
    cp_int first = 0;
    getExamplesxRxR(&in, &out, 3, &first);
    cp_real *x = in.data, *t = out.data;
    ck_assert_float_eq(x[0], 0.5f);
    ck_assert_float_eq(x[1], -1);
    ck_assert_float_eq(x[3], 3);
    ck_assert_float_eq_tol(x[5], 0.1f, 1e-7f);
    ck_assert_float_eq(t[0], 1);
    ck_assert_float_eq(t[2], -1);
    rt_opt.csv_outputs = 2; /* --csv-outputs 2 */
    p = write_file("e.csv", "1,2,3\n4,5,6\n");
    openDatafile(p, &ii, &ri, &io, &ro, &n);
    ck_assert_int_eq(ri, 1);
    ck_assert_int_eq(ro, 2);
    ck_assert_int_eq(n, 2);
    rt_opt.csv_outputs = 0;
    /* a header with an empty first name (pandas' index column) */
    p = write_file("f.csv", ",x,y\n0,1,2\n1,3,4\n");
    openDatafile(p, &ii, &ri, &io, &ro, &n);
    ck_assert_int_eq(ri, 2);
    ck_assert_int_eq(n, 2);
    /* blank rows before the header row: it is still the header */
    p = write_file("f.csv", "\n \r\nx,y\r\n1,2\r\n\n3,4\n");
    openDatafile(p, &ii, &ri, &io, &ro, &n);
    ck_assert_int_eq(ri, 1);
    ck_assert_int_eq(ro, 1);
    ck_assert_int_eq(n, 2);
    /* the extension in capitals, as Windows programs write it */
    p = write_file("G.CSV", "a,b,c\n1,2,3\n");
    openDatafile(p, &ii, &ri, &io, &ro, &n);
    ck_assert_int_eq(ri, 2);
    ck_assert_int_eq(n, 1);
    rt_stdlib_release();
}
END_TEST

START_TEST(test_stdlib_bias_column_and_alias)
{
    const char *p = write_file("train.txt", three_examples);
    char arg[600];
    snprintf(arg, sizeof arg, "--data=%s", p);
    char *argv[] = { "prog", "--bias", arg, NULL };
    rt_init(3, argv, "prog");
    cp_int ii, ri, io, ro, n;
    openDatafile("Data", &ii, &ri, &io, &ro, &n);
    ck_assert_int_eq(ri, 3);
    cp_io in = { 0 }, out = { 0 };
    initIOareasxRxR(&in, &out, 3);
    cp_int first = 0;
    getExamplesxRxR(&in, &out, 3, &first);
    cp_real *x = in.data;
    for (int r = 0; r < 3; r++)
        ck_assert_float_eq(x[r * 3], 1.0f); /* the bias constant */
    ck_assert_float_eq(x[1], 0.5f);
    ck_assert_float_eq(x[5], 3);
    ck_assert_int_eq(first, 0);
    ck_assert_int_eq(rt_finish(), 0);
}
END_TEST

START_TEST(test_stdlib_reads_shared_xor)
{
    const char *root = getenv("ROOT") ? getenv("ROOT") : ".";
    char p[600];
    snprintf(p, sizeof p, "%s/../shared/data/xor.data", root);
    if (access(p, R_OK) != 0) { /* counted by tests/run-all.sh */
        printf("skip rt_stdlib/reads-shared-xor: needs ../shared/data\n");
        fflush(stdout);
        return;
    }
    cp_int ii, ri, io, ro, n;
    openDatafile(p, &ii, &ri, &io, &ro, &n);
    ck_assert_int_eq(n, 4);
    ck_assert_int_eq(ri, 2);
    ck_assert_int_eq(ro, 1);
    snprintf(p, sizeof p, "%s/examples/data/xor-bias.data", root);
    openDatafile(p, &ii, &ri, &io, &ro, &n);
    ck_assert_int_eq(n, 4);
    ck_assert_int_eq(ri, 3);
}
END_TEST

static const char *bad_path;

static void open_bad(void *a)
{
    (void)a;
    cp_int ii, ri, io, ro, n;
    openDatafile(bad_path, &ii, &ri, &io, &ro, &n);
}

START_TEST(test_stdlib_malformed_files)
{
    static const struct { const char *text, *msg; } cases[] = {
        { "", "f.data:1: run-time error: empty data file" },
        { "2 2\n1 2\n1\n", "f.data:1: run-time error: header 'examples inputs outputs': expected 3 values, found 2" },
        { "0 2 1\n", "f.data:1: run-time error: header: the example count must be a positive integer, not 0" },
        { "2 1.5 1\n", "f.data:1: run-time error: header: the input count must be a non-negative integer" },
        { "1 0 1\n\n1\n", "f.data:1: run-time error: header: a data set needs at least one input and one output, not 0 and 1\n" },
        { "1 2 0\n1 2\n\n", "f.data:1: run-time error: header: a data set needs at least one input and one output, not 2 and 0\n" },
        { "2 2 1\n1 2\n1\n1 2 3\n0\n", "f.data:4: run-time error: inputs of example 2: expected 2 values, found 3" },
        { "1 2 1\n1 x\n1\n", "f.data:2: run-time error: inputs of example 1: 'x' is not a number" },
        { "1 2 1\n1 2\n1 0\n", "f.data:3: run-time error: targets of example 1: expected 1 value, found 2" },
        { "1 2 1\n1 nan\n1\n", "f.data:2: run-time error: inputs of example 1: 'nan' is not a finite number" },
        { "2 2 1\n1 2\n1\n", "f.data:4: run-time error: the file ends after 1 of 2 examples" },
        { "1 2 1\n1 2\n", "f.data:3: run-time error: the file ends before the targets of example 1" },
        { "1 2 1\n1 2\n1\n7\n", "f.data:4: run-time error: unexpected data after the 1 example announced" },
        { "1 2 1\n1 2,\n1\n", "f.data:2: run-time error: ',' cannot be part of a data file (numbers and blanks only)" },
        { "1 2 1\n1 2\n\0011\n", "f.data:3: run-time error: byte 0x01 cannot be part of a data file (not a text file?)" },
        { "1 1 1\n11111111111111111111111111111111111111111111111111111111111111111\n1\n", "f.data:2: run-time error: a token longer than the reader's limit of 64 characters (RT_DATA_MAX_TOKEN)" },
        { "2000000000 2 1\n1 2\n1\n", "f.data:1: run-time error: header: the example count 2000000000 is more than the reader's limit of 100000000 (RT_DATA_MAX_EXAMPLES)" },
        { "1 200000000 1\n1 2\n1\n", "f.data:1: run-time error: header: the input count 200000000 is more than the reader's limit of 100000000 (RT_DATA_MAX_VALUES)" },
        { "\xef\xbb", "f.data:1: run-time error: byte 0xef cannot be part of a data file" },
        { "\xef\xbb\xbf\xef\xbb\xbf" "1 1 1\n1\n1\n", "f.data:1: run-time error: byte 0xef cannot be part of a data file" },
        { "1 2 1\r1 2\r\r1\r7\r", "f.data:5: run-time error: unexpected data after the 1 example announced" },
        { "1 2 1\r\n1 2\r\n\r\n1\r\n7\r\n", "f.data:5: run-time error: unexpected data after the 1 example announced" },
        { "99999999 99999999 1\n1 2\n", "f.data:1: run-time error: header: 99999999 examples of 100000000 values do not fit a file of 24 bytes" },
        { "1 99 1\n1 2\n", "f.data:1: run-time error: header: 1 example of 100 values does not fit a file of 11 bytes" },
    };
    static const struct { const char *text, *msg; } csv_cases[] = {
        { "a,b\n", "f.csv:1: run-time error: no rows of numbers in the CSV file" },
        { "1,2,3\n4,5\n", "f.csv:2: run-time error: 2 columns, but the first row has 3" },
        { "a,b,c\n1,2,3\n4,x5,6\n", "f.csv:3: run-time error: 'x5' is not a number" },
        { "7\n", "f.csv:1: run-time error: 1 column leaves no inputs beside 1 output column" },
        { "1,2\n3\n", "f.csv:2: run-time error: 1 column, but the first row has 2" },
        { "1,1e40\n", "f.csv:1: run-time error: '1e40' is not a finite number in the range of Real" },
        { "a,b,y,\n-1,-1,-1,\n1,1,1,\n", "f.csv:2: run-time error: field 4 of 4 is empty (the row ends in ',')" },
        { "1,2,3\n1,,3\n", "f.csv:2: run-time error: field 2 of 3 is empty\n" },
        { "1, 2 ,3\n4,5 6,7\n", "f.csv:2: run-time error: '5 6' is not a number" },
        { "", "f.csv:1: run-time error: empty data file" },
        { "\n \n", "f.csv:1: run-time error: empty data file" },
        { "a,b\n\n\n", "f.csv:3: run-time error: no rows of numbers in the CSV file" },
        { "\n\na,b\n1,x\n", "f.csv:4: run-time error: 'x' is not a number" },
        { "inf,1\n1,2\n", "f.csv:1: run-time error: 'inf' is not a finite number in the range of Real" },
        { " nan ,1\n", "f.csv:1: run-time error: 'nan' is not a finite number in the range of Real" },
    };
    for (size_t i = 0; i < sizeof csv_cases / sizeof csv_cases[0]; i++) {
        bad_path = write_file("f.csv", csv_cases[i].text);
        ck_assert_rt_error(open_bad, NULL, csv_cases[i].msg);
    }
    /* an endless binary input is refused at its first byte */
    bad_path = "/dev/zero";
    ck_assert_rt_error(open_bad, NULL, "/dev/zero:1: run-time error: byte 0x00 cannot be part of a data file");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        bad_path = write_file("f.data", cases[i].text);
        ck_assert_rt_error(open_bad, NULL, cases[i].msg);
    }
    snprintf(path_buf, sizeof path_buf, "%s/missing.data", dir);
    bad_path = path_buf;
    ck_assert_rt_error(open_bad, NULL, "missing.data': No such file or directory");
}
END_TEST

static void open_data_name(void *a)
{
    (void)a;
    char *argv[] = { "trainer", NULL };
    rt_init(1, argv, "trainer");
    cp_int ii, ri, io, ro, n;
    openDatafile("Data", &ii, &ri, &io, &ro, &n);
}

static void open_test_name(void *a)
{
    (void)a;
    char *argv[] = { "trainer", NULL };
    rt_init(1, argv, "trainer");
    cp_int ii, ri, io, ro, n;
    openDatafile("Test", &ii, &ri, &io, &ro, &n);
}

START_TEST(test_stdlib_missing_data_names_option)
{
    ck_assert_int_eq(chdir(dir), 0);
    ck_assert_rt_error(open_data_name, NULL, "trainer: run-time error: cannot read data file 'Data': No such file or directory (use --data FILE or --data Data=FILE to choose the file)");
    /* a plain --data FILE would not name the file of another data set */
    ck_assert_rt_error(open_test_name, NULL, "trainer: run-time error: cannot read data file 'Test': No such file or directory (use --data Test=FILE to choose the file)");
}
END_TEST

static void io_before_open(void *a)
{
    (void)a;
    cp_io in = { 0 }, out = { 0 };
    initIOareasxRxR(&in, &out, 2);
}

/* More examples than the areas hold: a data file, the replicates of the
 * areas and the examples asked for. */
typedef struct { const char *path; cp_int reps, howmany; } Overfill;
static void too_many_examples(void *a)
{
    const Overfill *o = a;
    cp_int ii, ri, io, ro, n, first = 0;
    openDatafile(o->path, &ii, &ri, &io, &ro, &n);
    cp_io in = { 0 }, out = { 0 };
    initIOareasxRxR(&in, &out, o->reps);
    getExamplesxRxR(&in, &out, o->howmany, &first);
}

static void zero_replicates(void *a)
{
    (void)a;
    cp_int ii, ri, io, ro, n;
    openDatafile(bad_path, &ii, &ri, &io, &ro, &n);
    cp_io in = { 0 }, out = { 0 };
    initIOareasxRxR(&in, &out, 0);
}

/* Generated code sets the call's position around a standard I/O call
 * (rt_lib_at); a call inside an argument restores the outer one's. */
static void zero_per_replicate_at_call(void *a)
{
    (void)a;
    cp_io area = { 0 };
    rt_srcpos outer = rt_lib_at((rt_srcpos){ "x.nn", 15 });
    rt_srcpos inner = rt_lib_at((rt_srcpos){ "x.nn", 9 });
    cp_io other = { 0 };
    initIOareaxR(&other, 3, 1);
    rt_lib_done(inner);
    initIOareaxR(&area, 8, 0);
    rt_lib_done(outer);
}

START_TEST(test_stdlib_io_area_errors)
{
    bad_path = write_file("ok.data", three_examples);
    ck_assert_rt_error(io_before_open, NULL, "initIOareasxRxR called before openDatafile");
    Overfill three = {bad_path, 2, 3};
    ck_assert_rt_error(too_many_examples, &three, "getExamplesxRxR: 3 examples do not fit the I/O area for the inputs (4 values)");
    /* write_file's path is the same buffer: bad_path is one.data from here on */
    Overfill one = {write_file("one.data", "2 1 1\n0\n1\n1\n0\n"), 1, 2};
    ck_assert_rt_error(too_many_examples, &one, "getExamplesxRxR: 2 examples do not fit the I/O area for the inputs (1 value)");
    ck_assert_rt_error(zero_replicates, NULL, "initIOareasxRxR: the replicate count must be at least 1, not 0");
    ck_assert_rt_error(zero_per_replicate_at_call, NULL, "x.nn:15: run-time error: initIOareaxR: the values per replicate must be at least 1, not 0");
    /* called from C without a position: the program name, as before */
    child_result res;
    run_child(zero_replicates, NULL, &res);
    ck_assert_msg(strstr(res.err, ".nn:") == NULL, "a position in: %s", res.err);
}
END_TEST

/* ---- test set and accuracy -------------------------------------------------- */

START_TEST(test_stdlib_test_set_and_accuracy)
{
    const char *p = write_file("train", "2 1 2\n0\n1 0\n1\n0 1\n");
    cp_int ii, ri, io, ro, n, tn;
    openDatafile(p, &ii, &ri, &io, &ro, &n);
    p = write_file("test", "3 1 2\n5\n1 0\n6\n0 1\n7\n0 1\n");
    openTestfile(p, &tn);
    ck_assert_int_eq(tn, 3);
    cp_io in = { 0 }, target = { 0 }, result = { 0 };
    initIOareasxRxR(&in, &target, 2);
    initIOareaxR(&result, 2, 2);
    ck_assert_int_eq(result.count, 4);
    cp_int first = 0, correct = 0;
    getTestExamplesxRxR(&in, &target, 2, &first);
    ck_assert_float_eq(((cp_real *)in.data)[1], 6);
    cp_real *y = result.data;
    y[0] = 0.9f, y[1] = 0.1f;  /* class 0: right */
    y[2] = 0.7f, y[3] = 0.2f;  /* class 0, target 1: wrong */
    countCorrectxR(&result, &target, 2, &correct);
    ck_assert_int_eq(correct, 1);
    getTestExamplesxRxR(&in, &target, 1, &first);
    ck_assert_int_eq(first, 0);
    y[0] = -1, y[1] = 0.5f;    /* class 1: right */
    countCorrectxR(&result, &target, 1, &correct);
    ck_assert_int_eq(correct, 2);
    rt_stdlib_release(); /* the areas live on this stack frame */
}
END_TEST

START_TEST(test_stdlib_accuracy_single_output_threshold)
{
    /* Targets -1/+1: the threshold is 0. */
    const char *p = write_file("xor", "4 2 1\n-1 -1\n-1\n-1 1\n1\n1 -1\n1\n1 1\n-1\n");
    cp_int ii, ri, io, ro, n, correct = 0, first = 0;
    openDatafile(p, &ii, &ri, &io, &ro, &n);
    cp_io in = { 0 }, target = { 0 }, result = { 0 };
    initIOareasxRxR(&in, &target, 4);
    initIOareaxR(&result, 4, 1);
    getExamplesxRxR(&in, &target, 4, &first);
    cp_real *y = result.data;
    y[0] = -0.2f, y[1] = 0.1f, y[2] = -0.3f, y[3] = -0.9f; /* 3 right */
    countCorrectxR(&result, &target, 4, &correct);
    ck_assert_int_eq(correct, 3);
    /* Targets 0/1: the threshold is 0.5. */
    p = write_file("zo", "2 1 1\n0\n0\n1\n1\n");
    openDatafile(p, &ii, &ri, &io, &ro, &n);
    initIOareasxRxR(&in, &target, 2);
    initIOareaxR(&result, 2, 1);
    first = 0;
    correct = 0;
    getExamplesxRxR(&in, &target, 2, &first);
    y = result.data;
    y[0] = 0.4f, y[1] = 0.45f; /* first right, second wrong */
    countCorrectxR(&result, &target, 2, &correct);
    ck_assert_int_eq(correct, 1);
    rt_stdlib_release();
}
END_TEST

static void test_width_mismatch(void *a)
{
    (void)a;
    cp_int ii, ri, io, ro, n;
    openDatafile(write_file("a", "1 2 1\n1 2\n1\n"), &ii, &ri, &io, &ro, &n);
    openTestfile(write_file("b", "1 3 1\n1 2 3\n1\n"), &n);
}

/* a file without inputs is refused with --bias as without it */
static void zero_inputs_bias(void *a)
{
    (void)a;
    char *argv[] = { "prog", "--bias", NULL };
    rt_init(2, argv, "prog");
    cp_int ii, ri, io, ro, n;
    openDatafile(write_file("z.data", "2 0 1\n\n1\n\n-1\n"), &ii, &ri, &io, &ro, &n);
}

START_TEST(test_stdlib_zero_inputs_with_bias)
{
    ck_assert_rt_error(zero_inputs_bias, NULL, "z.data:1: run-time error: header: a data set "
                       "needs at least one input and one output, not 0 and 1 (the --bias "
                       "column does not count)\n");
}
END_TEST

/* with --bias the message gives the files' own counts */
static void test_width_mismatch_bias(void *a)
{
    (void)a;
    char *argv[] = { "prog", "--bias", NULL };
    rt_init(2, argv, "prog");
    cp_int ii, ri, io, ro, n;
    openDatafile(write_file("a", "1 3 1\n1 2 3\n1\n"), &ii, &ri, &io, &ro, &n);
    openTestfile(write_file("b", "1 2 1\n1 2\n1\n"), &n);
}

START_TEST(test_stdlib_test_set_mismatch)
{
    ck_assert_rt_error(test_width_mismatch, NULL, "have 3 inputs and 1 output, the training data");
    ck_assert_rt_error(test_width_mismatch, NULL, "' 2 and 1\n");
    ck_assert_rt_error(test_width_mismatch_bias, NULL, "/b' have 2 inputs and 1 output, the "
                       "training data '");
    ck_assert_rt_error(test_width_mismatch_bias, NULL, "/a' 3 and 1 (not counting the --bias "
                       "column)\n");
}
END_TEST

/* ---- output ------------------------------------------------------------------ */

static void print_all(void *a)
{
    (void)a;
    pInt(-42);
    pString(" x ");
    pReal(0.5f);
    pString("|");
    pReal(1e10f);
    pString("|");
    pReal(3);
    pString("\n");
}

START_TEST(test_stdlib_print)
{
    child_result r;
    run_child(print_all, NULL, &r);
    ck_assert_int_eq(r.status, 0);
    ck_assert_str_eq(r.out, "-42 x 0.5|1e+10|3\n");
}
END_TEST

static void protocol_run(void *a)
{
    char *proto = a;
    char *argv[] = { "trainer", "--protocol", proto, "--max-epochs", "3", NULL };
    rt_init(5, argv, "trainer");
    for (int e = 1; e <= 10; e++)
        protocolError(e, 1.0f / (cp_real)e, 10 - e);
    printf("not reached\n");
}

START_TEST(test_stdlib_protocol_and_max_epochs)
{
    char proto[600];
    snprintf(proto, sizeof proto, "%s/p.tsv", dir);
    child_result r;
    run_child(protocol_run, proto, &r);
    ck_assert_int_eq(r.status, 0);
    ck_assert_str_eq(r.out, "epoch 1 error 1 errors 9\n"
                            "epoch 2 error 0.5 errors 8\n"
                            "epoch 3 error 0.333333 errors 7\n");
    ck_assert_str_eq(r.err, "trainer: stopping after epoch 3 (--max-epochs)\n");
    FILE *f = fopen(proto, "r");
    ck_assert_ptr_nonnull(f);
    char text[512];
    size_t len = fread(text, 1, sizeof text - 1, f);
    text[len] = 0;
    fclose(f);
    char expect[128]; /* the third error is 1/3 in the precision of Real */
    snprintf(expect, sizeof expect, "# epoch\terror\terrors\n1\t1\t9\n2\t0.5\t8\n"
             "3\t%.9g\t7\n", (double)(1.0f / (cp_real)3));
    ck_assert_str_eq(text, expect);
}
END_TEST

/* protocolError called from parallel code (a network procedure): every
 * epoch reaches the protocol file, which is opened once; with
 * --max-epochs the program ends once, with status 0. */
static void protocol_parallel(void *a)
{
    char *proto = a;
    char *argv[] = { "trainer", "--protocol", proto, "--threads", "8", NULL };
    rt_init(5, argv, "trainer");
#pragma omp parallel for schedule(static)
    for (int e = 1; e <= 4000; e++)
        protocolError(e, 0.5f, e);
    if (rt_opt.max_epochs == 0)
        exit(rt_finish());
}

static void protocol_parallel_limit(void *a)
{
    rt_opt.max_epochs = 10; /* --max-epochs 10 */
    protocol_parallel(a);
    printf("not reached\n");
}

START_TEST(test_stdlib_protocol_parallel)
{
    char proto[600];
    snprintf(proto, sizeof proto, "%s/par.tsv", dir);
    child_result r;
    run_child(protocol_parallel, proto, &r);
    ck_assert_int_eq(r.status, 0);
    FILE *f = fopen(proto, "r");
    ck_assert_ptr_nonnull(f);
    int lines = 0, c;
    while ((c = fgetc(f)) != EOF)
        lines += c == '\n';
    fclose(f);
    ck_assert_int_eq(lines, 4001); /* the header and every epoch */
    run_child(protocol_parallel_limit, proto, &r);
    ck_assert_int_eq(r.status, 0);
    ck_assert_ptr_null(strstr(r.out, "not reached"));
    const char *stop = strstr(r.err, "(--max-epochs)\n");
    ck_assert_ptr_nonnull(stop);
    ck_assert_ptr_null(strstr(stop + 1, "(--max-epochs)")); /* once */
}
END_TEST

/* A run-time error that another thread is reporting while this one
 * reaches --max-epochs: the program ends once, with the error's message
 * and status 3 -- not also with the stop message, or with status 0 and
 * the error's message.  (The thread reports slowly, so that the stop
 * comes in between.) */
static atomic_int claimed;

static void *report_slowly(void *a)
{
    (void)a;
    rt_claim_exit(); /* what rt_error does first */
    atomic_store(&claimed, 1);
    usleep(200000);
    rt_error((rt_srcpos){ "race.nn", 6 }, "division by zero");
}

static void error_at_limit(void *a)
{
    (void)a;
    char *argv[] = { "trainer", "--no-protocol", "--max-epochs", "1", NULL };
    rt_init(4, argv, "trainer");
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, report_slowly, NULL), 0);
    while (!atomic_load(&claimed))
        usleep(1000);
    protocolError(1, 0.5f, 1);
    printf("not reached\n");
}

START_TEST(test_stdlib_error_while_max_epochs)
{
    child_result r;
    run_child(error_at_limit, NULL, &r);
    ck_assert_int_eq(r.status, 3);
    ck_assert_str_eq(r.err, "race.nn:6: run-time error: division by zero\n");
    /* the epoch line, printed before, is kept (unless the machine was so
       slow that the error came first) */
    ck_assert_msg(strcmp(r.out, "epoch 1 error 0.5 errors 1\n") == 0 || !*r.out, "%s", r.out);
}
END_TEST

/* The data procedures called from parallel code (an I/O area may be
 * passed anywhere): they run one at a time, so that no thread frees the
 * data set or an area that another one reads or fills. */
static void data_parallel(void *a)
{
    static cp_io in, out;
    int bad = 0;
#pragma omp parallel for schedule(static) num_threads(8) reduction(+ : bad)
    for (int i = 0; i < 2000; i++) {
        cp_int ii, ri, io, ro, n, first = i;
        openDatafile(a, &ii, &ri, &io, &ro, &n);
        initIOareasxRxR(&in, &out, 2);
        getExamplesxRxR(&in, &out, 2, &first);
        bad += ri != 2 || ro != 1 || n != 500 || first != (i + 2) % 500;
    }
    printf("bad %d\n", bad);
    exit(rt_finish());
}

START_TEST(test_stdlib_data_parallel)
{
    static char text[500 * 16 + 16];
    size_t len = (size_t)snprintf(text, sizeof text, "500 2 1\n");
    for (int e = 0; e < 500; e++)
        len += (size_t)snprintf(text + len, sizeof text - len, "%d 0.5\n1\n", e);
    const char *p = write_file("par.data", text);
    child_result r;
    run_child(data_parallel, (void *)p, &r);
    ck_assert_int_eq(r.status, 0);
    ck_assert_str_eq(r.out, "bad 0\n");
}
END_TEST

/* An output file that is an input file is refused before it is written:
 * the protocol file named as a --data file (also through a symbolic link)
 * at the start, the default protocol file when it is a data file read. */
static char data_file[600], proto_file[600];

static void protocol_is_data(void *a)
{
    (void)a;
    char *argv[] = { "trainer", "--data", data_file, "--protocol", proto_file, NULL };
    rt_init(5, argv, "trainer");
    printf("started\n");
}

static void default_protocol_is_data(void *a)
{
    (void)a;
    char *argv[] = { "trainer", NULL };
    ck_assert_int_eq(chdir(dir), 0);
    unsetenv("CUPIT_PROTOCOL"); /* empty in make check: no protocol file */
    rt_init(1, argv, "trainer");
    cp_int ii, ri, io, ro, n;
    openDatafile("trainer.protocol.tsv", &ii, &ri, &io, &ro, &n);
    protocolError(1, 0.5f, 1);
    printf("not reached\n");
}

static void check_data_kept(void)
{
    FILE *f = fopen(data_file, "r");
    ck_assert_ptr_nonnull(f);
    char text[128];
    size_t len = fread(text, 1, sizeof text - 1, f);
    text[len] = 0;
    fclose(f);
    ck_assert_str_eq(text, three_examples);
}

START_TEST(test_stdlib_output_is_input)
{
    snprintf(data_file, sizeof data_file, "%s", write_file("d.data", three_examples));
    snprintf(proto_file, sizeof proto_file, "%s", data_file);
    child_result r;
    run_child(protocol_is_data, NULL, &r);
    ck_assert_int_eq(r.status, 2);
    ck_assert_str_eq(r.out, "");
    char expect[2000];
    snprintf(expect, sizeof expect, "trainer: the protocol file '%s' is the input file '%s' "
             "(--data Data); refusing to overwrite it\n", data_file, data_file);
    ck_assert_str_eq(r.err, expect);
    check_data_kept();
    snprintf(proto_file, sizeof proto_file, "%s/link.tsv", dir);
    ck_assert_int_eq(symlink(data_file, proto_file), 0);
    run_child(protocol_is_data, NULL, &r);
    ck_assert_int_eq(r.status, 2);
    ck_assert_ptr_nonnull(strstr(r.err, "link.tsv' is the input file"));
    check_data_kept();
    snprintf(data_file, sizeof data_file, "%s", write_file("trainer.protocol.tsv", three_examples));
    run_child(default_protocol_is_data, NULL, &r);
    ck_assert_int_eq(r.status, 2);
    ck_assert_str_eq(r.err, "trainer: the protocol file 'trainer.protocol.tsv' is the input "
                     "file 'trainer.protocol.tsv' (data set \"trainer.protocol.tsv\"); refusing "
                     "to overwrite it\n");
    check_data_kept();
}
END_TEST

/* ---- parameters -------------------------------------------------------------- */

START_TEST(test_stdlib_params)
{
    char *argv[] = { "prog", "--param", "hidden=8", "--param=rate=0.25", "--param", "in= 5 ",
                     "--param", "lr=0.5\n", NULL };
    rt_init(8, argv, "prog");
    ck_assert_int_eq(intParam("hidden", 4), 8);
    ck_assert_int_eq(intParam("layers", 2), 2);
    ck_assert_float_eq(realParam("rate", 1), 0.25f);
    ck_assert_float_eq(realParam("momentum", 0.9f), 0.9f);
    ck_assert_int_eq(intParam("in", 0), 5); /* blanks around the number */
    ck_assert_float_eq(realParam("lr", 0), 0.5f);
    /* a String never assigned is a NULL pointer: the name "", no such --param */
    ck_assert_int_eq(intParam(NULL, 3), 3);
    ck_assert_float_eq(realParam(NULL, 1.5f), 1.5f);
    ck_assert_int_eq(intParamIn(NULL, 4, 1, 9), 4);
}
END_TEST

static void bad_int_param(void *a)
{
    (void)a;
    char *argv[] = { "prog", "--param", "hidden=8x", NULL };
    rt_init(3, argv, "prog");
    (void)intParam("hidden", 4);
}

START_TEST(test_stdlib_param_errors)
{
    ck_assert_rt_error(bad_int_param, NULL, "prog: run-time error: --param hidden=8x: not an Int");
}
END_TEST

static Suite *stdlib_suite(void)
{
    Suite *s = suite_create("rt_stdlib");
    TCase *tc = tcase_create("math");
    tcase_add_test(tc, test_stdlib_math);
    suite_add_tcase(s, tc);
    tc = tcase_create("data");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_stdlib_open_and_round_robin);
    tcase_add_test(tc, test_stdlib_bias_column_and_alias);
    tcase_add_test(tc, test_stdlib_csv);
    tcase_add_test(tc, test_stdlib_zero_inputs_with_bias);
    tcase_add_test(tc, test_stdlib_bom_and_cr_lines);
    tcase_add_test(tc, test_stdlib_reads_shared_xor);
    tcase_add_test(tc, test_stdlib_malformed_files);
    tcase_add_test(tc, test_stdlib_missing_data_names_option);
    tcase_add_test(tc, test_stdlib_io_area_errors);
    tcase_add_test(tc, test_stdlib_test_set_and_accuracy);
    tcase_add_test(tc, test_stdlib_accuracy_single_output_threshold);
    tcase_add_test(tc, test_stdlib_test_set_mismatch);
    suite_add_tcase(s, tc);
    tc = tcase_create("output");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_stdlib_print);
    tcase_add_test(tc, test_stdlib_protocol_and_max_epochs);
    tcase_add_test(tc, test_stdlib_protocol_parallel);
    tcase_add_test(tc, test_stdlib_error_while_max_epochs);
    tcase_add_test(tc, test_stdlib_data_parallel);
    tcase_add_test(tc, test_stdlib_output_is_input);
    tcase_add_test(tc, test_stdlib_params);
    tcase_add_test(tc, test_stdlib_param_errors);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(stdlib_suite());
}
