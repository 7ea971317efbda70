/* stdlib_data.c -- example handling EXTERNAL procedures (data files).
 *
 * Reads data sets in the FANN text format ("N n_in n_out", then per
 * example one line of inputs and one line of targets), optionally with a
 * constant bias column prepended (--bias), and hands examples out round
 * robin into replicate-major I/O areas.  A second, test data set supports
 * measuring classification accuracy (docs/stdlib.md).
 */
#include "cupit_stdlib.h"
#include "rt_internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define RT_WEAK __attribute__((weak))

typedef struct dataset {
    char *path;       /* the file read */
    int32_t n;        /* examples */
    int32_t nin;      /* inputs per example, bias column included */
    int32_t nout;     /* targets per example */
    cp_real *in, *out; /* [n * nin], [n * nout], as the I/O areas hold them */
    double tmin, tmax; /* range of the targets */
} dataset;

static dataset train, test;

/* I/O areas allocated here, released by rt_finish.  The list grows: how
 * many areas are live at once is not the program's to bound when local IO
 * objects of node or network code are allocated on every thread. */
static cp_io **areas;
static int nareas, areas_cap;

static void dataset_free(dataset *ds)
{
    if (!ds->path)
        return;
    rt_free(ds->in, (size_t)ds->n * ds->nin * sizeof(cp_real));
    rt_free(ds->out, (size_t)ds->n * ds->nout * sizeof(cp_real));
    rt_free(ds->path, strlen(ds->path) + 1);
    memset(ds, 0, sizeof *ds);
}

/* ---- parsing -------------------------------------------------------------- */

typedef struct reader {
    const char *path;
    char *text, *p;  /* whole file, cursor */
    int32_t line;    /* line of the cursor */
} reader;

/* Skips blank lines; false at the end of the file. */
static bool next_line(reader *r)
{
    for (;;) {
        while (*r->p == ' ' || *r->p == '\t' || *r->p == '\r')
            r->p++;
        if (*r->p == '\n') {
            r->p++;
            r->line++;
            continue;
        }
        return *r->p != 0;
    }
}

/* Reads the numbers of the current line into v (at most max, error if the
 * line holds another count than `want`); moves to the next line. */
static void read_numbers(reader *r, double *v, int32_t want, const char *what)
{
    rt_srcpos at = { r->path, r->line };
    int32_t got = 0;
    for (;;) {
        while (*r->p == ' ' || *r->p == '\t' || *r->p == '\r')
            r->p++;
        if (*r->p == '\n' || *r->p == 0)
            break;
        char *end;
        errno = 0;
        double x = rt_strtoreal(r->p, &end);
        if (end == r->p || (*end && !strchr(" \t\r\n", *end))) {
            int len = 0;
            while (r->p[len] && !strchr(" \t\r\n", r->p[len]) && len < 20)
                len++;
            rt_error(at, "%s: '%.*s' is not a number", what, len, r->p);
        }
        /* finite as a Real, not only as a double: 1e40 is no float */
        if (!isfinite(x) || !isfinite((double)(cp_real)x))
            rt_error(at, "%s: '%.*s' is not a finite number%s", what,
                     (int)(end - r->p), r->p,
                     isfinite(x) ? " in the range of Real" : "");
        if (got < want)
            v[got] = x;
        got++;
        r->p = end;
    }
    if (got != want)
        rt_error(at, "%s: expected %d value%s, found %d", what, (int)want, want == 1 ? "" : "s",
                 (int)got);
    if (*r->p == '\n') {
        r->p++;
        r->line++;
    }
}

/* Characters a FANN text file can hold: numbers (also inf, nan and hex
 * floats, which strtod reads) and blanks. */
static bool format_char(unsigned char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           c == '+' || c == '-' || c == '.' || c == ' ' || c == '\t' || c == '\r' ||
           c == '\n';
}

/* Reads the whole file into a NUL-terminated buffer of *len bytes; NULL
 * with errno set if it cannot be read.  Reading stops with an error at
 * the first byte no data file can hold, at a token longer than any number
 * (RT_DATA_MAX_TOKEN) and at RT_DATA_MAX_BYTES, so an endless or binary
 * input (/dev/zero) is refused at once instead of filling the memory. */
static bool is_csv(const char *path)
{
    size_t n = strlen(path);
    return n > 4 && strcasecmp(path + n - 4, ".csv") == 0; /* also DATA.CSV */
}

static char *slurp(const char *path, size_t *len_out)
{
    const bool csv = is_csv(path); /* commas, and a header row of names */
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    static const unsigned char bom[3] = { 0xef, 0xbb, 0xbf }; /* UTF-8 byte-order mark */
    size_t cap = 1 << 16, len = 0, got;
    char *buf = malloc(cap);
    int32_t line = 1, token = 0;
    bool prev_cr = false;
    while (buf && (got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        for (size_t i = len; i < len + got; i++) {
            unsigned char c = (unsigned char)buf[i];
            if (i < 3 && c == bom[i] && memcmp(buf, bom, i) == 0)
                continue; /* checked when the file is read */
            if (!format_char(c) && !(csv && (c == ',' || c == '_' || c == '"'))) {
                free(buf);
                fclose(f);
                rt_error((rt_srcpos){ path, line }, c >= 0x20 && c < 0x7f
                         ? "'%c' cannot be part of a data file (numbers and blanks only)"
                         : "byte 0x%02x cannot be part of a data file (not a text file?)", c);
            }
            /* a line ends in \n, \r\n or (old Mac OS) \r alone */
            if ((c == '\n' && !prev_cr) || c == '\r')
                line++;
            prev_cr = c == '\r';
            token = strchr(csv ? " \t\r\n," : " \t\r\n", c) ? 0 : token + 1;
            if (token > RT_DATA_MAX_TOKEN) {
                free(buf);
                fclose(f);
                rt_error((rt_srcpos){ path, line }, "a token longer than the reader's limit "
                         "of %d characters (RT_DATA_MAX_TOKEN): no number is that long",
                         RT_DATA_MAX_TOKEN);
            }
        }
        len += got;
        if ((long long)len > RT_DATA_MAX_BYTES) {
            free(buf);
            fclose(f);
            rt_error((rt_srcpos){ path, line }, "the file is larger than the reader's limit of "
                     "%lld bytes (RT_DATA_MAX_BYTES)", (long long)RT_DATA_MAX_BYTES);
        }
        if (len + 1 == cap) {
            char *bigger = realloc(buf, cap * 2);
            if (!bigger)
                free(buf);
            buf = bigger;
            cap *= 2;
        }
    }
    int err = ferror(f) ? errno : 0;
    fclose(f);
    if (!buf)
        rt_out_of_memory(rt_lib_where(), cap);
    buf[len] = 0;
    if (err) {
        free(buf);
        errno = err;
        return NULL;
    }
    size_t skip = len >= 3 && memcmp(buf, bom, 3) == 0 ? 3 : 0;
    if (!skip && len > 0 && (unsigned char)buf[0] == bom[0]) { /* a part of one */
        free(buf);
        rt_error((rt_srcpos){ path, 1 }, "byte 0x%02x cannot be part of a data file "
                 "(not a text file?)", bom[0]);
    }
    memmove(buf, buf + skip, len - skip + 1);
    len -= skip;
    for (size_t i = 0; i < len; i++) /* lone \r line ends as \n */
        if (buf[i] == '\r' && buf[i + 1] != '\n')
            buf[i] = '\n';
    *len_out = len;
    return buf;
}

/* Whether the first field of the row at p is a number (also one that the
 * row check then refuses, such as inf): then the row is data, not a header
 * of column names.  An empty one is a name (pandas writes ",x1,x2" above
 * its index column). */
static bool csv_number_first(const char *p)
{
    const char *z = p + strcspn(p, ",\n");
    while (z > p && strchr(" \t\r", z[-1]))
        z--;
    if (z == p)
        return false;
    char *end;
    (void)strtod(p, &end);
    return end == z;
}

/* A CSV data file as the FANN text the reader knows: rows of
 * comma-separated numbers, an optional first row of column names, the last
 * --csv-outputs columns (default 1) the targets. */
static char *csv_to_fann(const char *path, char *text, size_t *len)
{
    int32_t nout = rt_opt.csv_outputs > 0 ? (int32_t)rt_opt.csv_outputs : 1;
    char *p = text;
    int32_t line = 1, cols = -1, rows = 0;
    /* a header row: the first row that is not blank, when its first field
       is not a number */
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\r')
            p++;
        if (*p != '\n')
            break;
        p++;
        line++;
    }
    if (*p && !csv_number_first(p)) {
        while (*p && *p != '\n')
            p++;
        if (*p)
            p++;
        line++;
    }
    size_t cap = *len * 2 + 64, out_len = 0;
    char *out = malloc(cap);
    if (!out)
        rt_out_of_memory(rt_lib_where(), cap);
    out_len = (size_t)snprintf(out, cap, "%32s\n", ""); /* room for the header */
    while (*p) {
        char *eol = strchr(p, '\n');
        size_t n = eol ? (size_t)(eol - p) : strlen(p);
        int32_t fields = 1;
        bool blank = true;
        for (size_t i = 0; i < n; i++) {
            if (p[i] == ',')
                fields++;
            if (!strchr(" \t\r", p[i]))
                blank = false;
        }
        if (!blank) {
            if (cols < 0)
                cols = fields;
            if (fields != cols)
                rt_error((rt_srcpos){ path, line }, "%d column%s, but the first row has %d",
                         (int)fields, fields == 1 ? "" : "s", (int)cols);
            if (cols <= nout)
                rt_error((rt_srcpos){ path, line }, "%d column%s leave%s no inputs beside %d "
                         "output column%s (--csv-outputs)", (int)cols, cols == 1 ? "" : "s",
                         cols == 1 ? "s" : "", (int)nout, nout == 1 ? "" : "s");
            /* every field a number, checked here so that messages name CSV lines */
            char *q = p, *row_end = p + n;
            for (int32_t k = 1; k <= fields; k++) {
                char *fe = q; /* the field: from q to the next comma */
                while (fe < row_end && *fe != ',')
                    fe++;
                char *a = q, *z = fe, *end;
                while (a < z && strchr(" \t\r", *a))
                    a++;
                while (z > a && strchr(" \t\r", z[-1]))
                    z--;
                if (a == z)
                    rt_error((rt_srcpos){ path, line }, "field %d of %d is empty%s", (int)k,
                             (int)fields, k == fields && k > 1 ? " (the row ends in ',')" : "");
                double x = strtod(a, &end);
                if (end != z)
                    rt_error((rt_srcpos){ path, line }, "'%.*s' is not a number",
                             (int)(z - a < 20 ? z - a : 20), a);
                if (!isfinite(x) || !isfinite((double)(cp_real)x))
                    rt_error((rt_srcpos){ path, line }, "'%.*s' is not a finite number in the "
                             "range of Real", (int)(z - a), a);
                q = fe + 1;
            }
            /* inputs on one line, outputs on the next */
            int32_t f = 0;
            for (size_t i = 0; i < n; i++) {
                char c = p[i];
                if (c == ',') {
                    f++;
                    c = f == cols - nout ? '\n' : ' ';
                }
                out[out_len++] = c;
            }
            out[out_len++] = '\n';
            rows++;
        }
        p += n + (eol ? 1 : 0);
        line++;
    }
    out[out_len] = 0;
    if (rows == 0 && text[strspn(text, " \t\r\n")] == 0)
        rt_error((rt_srcpos){ path, 1 }, "empty data file (expected rows of "
                 "comma-separated numbers)");
    if (rows == 0)
        rt_error((rt_srcpos){ path, line - 1 }, "no rows of numbers in the CSV file");
    char head[40];
    int hn = snprintf(head, sizeof head, "%d %d %d", (int)rows, (int)(cols < 0 ? 0 : cols - nout),
                      (int)nout);
    memcpy(out, head, (size_t)hn); /* the padded first line keeps its length */
    free(text);
    *len = out_len;
    return out;
}

static void dataset_load(dataset *ds, const char *name)
{
    name = rt_lib_str(name);
    if (!*name) /* no --data NAME=FILE can name it either */
        rt_error(rt_lib_where(), "cannot read a data file: the data set's name is empty");
    const char *path = rt_data_file(name);
    reader r = { path, NULL, NULL, 1 };
    size_t len = 0;
    r.text = r.p = slurp(path, &len);
    if (r.text && is_csv(path))
        r.text = r.p = csv_to_fann(path, r.text, &len);
    if (!r.text) {
        /* a plain --data FILE names the file of "Data" only */
        if (strcmp(path, name) == 0)
            rt_error(rt_lib_where(), "cannot read data file '%s': %s (use %s--data "
                     "%s=FILE to choose the file)", path, strerror(errno),
                     strcmp(name, "Data") == 0 ? "--data FILE or " : "", name);
        rt_error(rt_lib_where(), "cannot read data file '%s' (data set \"%s\"): %s",
                 path, name, strerror(errno));
    }
    {
        char what[64];
        snprintf(what, sizeof what, "data set \"%.40s\"", name);
        rt_note_input(path, what, true);
    }
    if (!next_line(&r))
        rt_error((rt_srcpos){ path, r.line }, "empty data file (expected "
                 "'examples inputs outputs')");
    double head[3];
    read_numbers(&r, head, 3, "header 'examples inputs outputs'");
    for (int i = 0; i < 3; i++) {
        const char *what = i == 0 ? "the example count" : i == 1 ? "the input count"
                                                                 : "the output count";
        if (head[i] != floor(head[i]) || head[i] < (i ? 0 : 1))
            rt_error((rt_srcpos){ path, r.line - 1 }, "header: %s must be a %s integer, "
                     "not %.17g", what, i ? "non-negative" : "positive", head[i]);
        double limit = i == 0 ? RT_DATA_MAX_EXAMPLES : RT_DATA_MAX_VALUES;
        if (head[i] > limit)
            rt_error((rt_srcpos){ path, r.line - 1 }, "header: %s %.17g is more than the "
                     "reader's limit of %.0f (%s)", what, head[i], limit,
                     i == 0 ? "RT_DATA_MAX_EXAMPLES" : "RT_DATA_MAX_VALUES");
    }
    int32_t bias = rt_opt.bias ? 1 : 0;
    dataset_free(ds);
    ds->n = (int32_t)head[0];
    ds->nin = (int32_t)head[1] + bias;
    ds->nout = (int32_t)head[2];
    if (head[1] == 0 || head[2] == 0) /* the file's own columns, --bias or not */
        rt_error((rt_srcpos){ path, r.line - 1 }, "header: a data set needs "
                 "at least one input and one output, not %d and %d%s", (int)head[1],
                 (int)head[2], bias && head[1] == 0 ? " (the --bias column does not count)" : "");
    /* Every value takes at least one character: refuse impossible headers
     * before allocating for them. */
    if ((double)ds->n * (ds->nin - bias + ds->nout) > (double)len)
        rt_error((rt_srcpos){ path, r.line - 1 }, "header: %d example%s of %d "
                 "values do%s not fit a file of %zu bytes", (int)ds->n,
                 ds->n == 1 ? "" : "s", (int)(ds->nin - bias + ds->nout),
                 ds->n == 1 ? "es" : "", len);
    ds->in = rt_alloc(rt_lib_where(), (size_t)ds->n * ds->nin * sizeof(cp_real));
    ds->out = rt_alloc(rt_lib_where(), (size_t)ds->n * ds->nout * sizeof(cp_real));
    /* one line of values as read, before they become Reals */
    int32_t widest = ds->nin > ds->nout ? ds->nin : ds->nout;
    double *row = rt_alloc(rt_lib_where(), (size_t)widest * sizeof(double));
    ds->path = rt_alloc(rt_lib_where(), strlen(path) + 1);
    strcpy(ds->path, path);
    ds->tmin = INFINITY;
    ds->tmax = -INFINITY;
    for (int32_t e = 0; e < ds->n; e++) {
        char what[64];
        snprintf(what, sizeof what, "inputs of example %d", (int)e + 1);
        if (!next_line(&r))
            rt_error((rt_srcpos){ path, r.line }, "the file ends after %d of "
                     "%d examples", (int)e, (int)ds->n);
        cp_real *in = ds->in + (size_t)e * ds->nin;
        if (bias)
            in[0] = (cp_real)rt_opt.bias_value;
        read_numbers(&r, row, ds->nin - bias, what);
        for (int32_t k = bias; k < ds->nin; k++)
            in[k] = (cp_real)row[k - bias];
        snprintf(what, sizeof what, "targets of example %d", (int)e + 1);
        if (!next_line(&r))
            rt_error((rt_srcpos){ path, r.line }, "the file ends before the "
                     "targets of example %d", (int)e + 1);
        read_numbers(&r, row, ds->nout, what);
        if (rt_opt.symmetric) /* 0/1 class coding onto the range of tanh */
            for (int32_t k = 0; k < ds->nout; k++)
                row[k] = 2.0 * row[k] - 1.0;
        cp_real *out = ds->out + (size_t)e * ds->nout;
        for (int32_t k = 0; k < ds->nout; k++) {
            out[k] = (cp_real)row[k];
            ds->tmin = fmin(ds->tmin, row[k]);
            ds->tmax = fmax(ds->tmax, row[k]);
        }
    }
    rt_free(row, (size_t)widest * sizeof(double));
    if (next_line(&r))
        rt_error((rt_srcpos){ path, r.line }, "unexpected data after the %d "
                 "example%s announced in the header", (int)ds->n, ds->n == 1 ? "" : "s");
    free(r.text);
}

/* ---- I/O areas ---------------------------------------------------------- */

/* (Re)allocates an area of Reals: maxreplicates x per_rep elements. */
static void area_alloc(cp_io *area, cp_int maxreplicates, cp_int per_rep,
                       const char *who, rt_srcpos where)
{
    if (maxreplicates < 1)
        rt_error(where, "%s: the replicate count must be at least 1, "
                 "not %d", who, (int)maxreplicates);
    if (per_rep < 1)
        rt_error(where, "%s: the values per replicate must be at least "
                 "1, not %d", who, (int)per_rep);
    int64_t n = (int64_t)maxreplicates * per_rep;
    if (n > INT32_MAX)
        rt_error(where, "%s: %lld values do not fit one I/O area", who,
                 (long long)n);
    int i = 0;
    while (i < nareas && areas[i] != area)
        i++;
    if (i == nareas) {
        if (area->data)
            rt_error(where, "%s: the I/O area was allocated outside the "
                     "standard library", who);
        if (nareas == areas_cap) {
            int cap = areas_cap ? 2 * areas_cap : 16;
            areas = rt_realloc(where, areas, (size_t)areas_cap * sizeof *areas,
                               (size_t)cap * sizeof *areas);
            areas_cap = cap;
        }
        areas[nareas++] = area;
    } else {
        rt_free(area->data, (size_t)area->count * area->elem_size);
    }
    area->data = rt_alloc(where, (size_t)n * sizeof(cp_real));
    area->count = (int32_t)n;
    area->elem_size = sizeof(cp_real);
    area->per_rep = per_rep;
}

static void require_loaded(const dataset *ds, const char *who, const char *opener,
                           rt_srcpos where)
{
    if (!ds->path)
        rt_error(where, "%s called before %s", who, opener);
}

/* Checks that `area` can take `howmany` replicates of `per` values. */
static void check_capacity(const cp_io *area, cp_int howmany, int32_t per,
                           const char *who, const char *which, rt_srcpos where)
{
    if (!area->data)
        rt_error(where, "%s: the I/O area %s was never allocated", who, which);
    if (area->per_rep && area->per_rep != per)
        rt_error(where, "%s: the I/O area %s holds %d values per "
                 "replicate, the data need %d", who, which,
                 (int)area->per_rep, (int)per);
    if ((int64_t)howmany * per > area->count)
        rt_error(where, "%s: %d example%s not fit the I/O area %s "
                 "(%d value%s)", who, (int)howmany, howmany == 1 ? " does" : "s do", which,
                 (int)area->count, area->count == 1 ? "" : "s");
}

/* Copies examples (firstI + r) mod n into replicate r, r < howmany. */
static void get_examples(const dataset *ds, cp_io *rIn, cp_io *rOut,
                         cp_int howmany, cp_int *firstI, const char *who, rt_srcpos where)
{
    if (howmany < 0)
        rt_error(where, "%s: negative example count %d", who, (int)howmany);
    if (*firstI < 0)
        rt_error(where, "%s: negative example index %d", who, (int)*firstI);
    check_capacity(rIn, howmany, ds->nin, who, "for the inputs", where);
    check_capacity(rOut, howmany, ds->nout, who, "for the targets", where);
    cp_real *in = rIn->data, *out = rOut->data;
    int32_t e = *firstI % ds->n;
    /* consecutive examples are consecutive rows: one copy up to the end of
       the set, then on from its start */
    for (cp_int r = 0; r < howmany;) {
        int32_t run = ds->n - e < howmany - r ? ds->n - e : howmany - r;
        memcpy(in + (size_t)r * ds->nin, ds->in + (size_t)e * ds->nin,
               (size_t)run * ds->nin * sizeof(cp_real));
        memcpy(out + (size_t)r * ds->nout, ds->out + (size_t)e * ds->nout,
               (size_t)run * ds->nout * sizeof(cp_real));
        r += run;
        e = (e + run) % ds->n;
    }
    *firstI = e;
}

/* ---- the EXTERNAL procedures ------------------------------------------ */

/* They may be called from network code, in parallel (an I/O area is
 * "allowed anywhere", semantics §3.1): one at a time, so that no thread
 * frees a data set or an area another one is reading or filling. */

RT_WEAK void openDatafile(const char *name, cp_int *iInputsN, cp_int *rInputsN,
                          cp_int *iOutputsN, cp_int *rOutputsN, cp_int *examplesN)
{
#pragma omp critical(rt_stdlib_data)
    {
        dataset_load(&train, name);
        *iInputsN = 0;
        *iOutputsN = 0;
        *rInputsN = train.nin;
        *rOutputsN = train.nout;
        *examplesN = train.n;
    }
}

RT_WEAK void initIOareasxRxR(cp_io *rIn, cp_io *rOut, cp_int maxreplicates)
{
#pragma omp critical(rt_stdlib_data)
    {
        rt_srcpos where = rt_lib_where(); /* the call in the .nn file */
        require_loaded(&train, "initIOareasxRxR", "openDatafile", where);
        area_alloc(rIn, maxreplicates, train.nin, "initIOareasxRxR", where);
        area_alloc(rOut, maxreplicates, train.nout, "initIOareasxRxR", where);
    }
}

RT_WEAK void getExamplesxRxR(cp_io *rIn, cp_io *rOut, cp_int howmany,
                             cp_int *firstI)
{
#pragma omp critical(rt_stdlib_data)
    {
        rt_srcpos where = rt_lib_where(); /* the call in the .nn file */
        require_loaded(&train, "getExamplesxRxR", "openDatafile", where);
        get_examples(&train, rIn, rOut, howmany, firstI, "getExamplesxRxR", where);
    }
}

RT_WEAK void openTestfile(const char *name, cp_int *examplesN)
{
#pragma omp critical(rt_stdlib_data)
    {
        rt_srcpos where = rt_lib_where(); /* the call in the .nn file */
        require_loaded(&train, "openTestfile", "openDatafile", where);
        dataset_load(&test, name);
        if (test.nin != train.nin || test.nout != train.nout) {
            int bias = rt_opt.bias ? 1 : 0; /* the files' own counts */
            int tin = (int)test.nin - bias, tout = (int)test.nout;
            rt_error(where, "test data '%s' have %d input%s and %d output%s, "
                     "the training data '%s' %d and %d%s", test.path, tin, tin == 1 ? "" : "s",
                     tout, tout == 1 ? "" : "s", train.path, (int)train.nin - bias,
                     (int)train.nout, bias ? " (not counting the --bias column)" : "");
        }
        *examplesN = test.n;
    }
}

RT_WEAK void getTestExamplesxRxR(cp_io *rIn, cp_io *rOut, cp_int howmany,
                                 cp_int *firstI)
{
#pragma omp critical(rt_stdlib_data)
    {
        rt_srcpos where = rt_lib_where(); /* the call in the .nn file */
        require_loaded(&test, "getTestExamplesxRxR", "openTestfile", where);
        get_examples(&test, rIn, rOut, howmany, firstI, "getTestExamplesxRxR", where);
    }
}

void rt_io_local_end(cp_io *area)
{
    if (!area->data)
        return;
#pragma omp critical(rt_stdlib_data)
    {
        for (int i = 0; i < nareas; i++) {
            if (areas[i] != area)
                continue;
            rt_free(area->data, (size_t)area->count * area->elem_size);
            memset(area, 0, sizeof *area);
            areas[i] = areas[--nareas];
            break;
        }
    }
}

RT_WEAK void initIOareaxR(cp_io *area, cp_int maxreplicates, cp_int perReplicate)
{
#pragma omp critical(rt_stdlib_data)
    {
        rt_srcpos where = rt_lib_where(); /* the call in the .nn file */
        area_alloc(area, maxreplicates, perReplicate, "initIOareaxR", where);
    }
}

/* Index of the largest of v[0 .. n-1] (the first one on ties). */
static int32_t argmax(const cp_real *v, int32_t n)
{
    int32_t best = 0;
    for (int32_t k = 1; k < n; k++)
        if (v[k] > v[best])
            best = k;
    return best;
}

RT_WEAK void countCorrectxR(cp_io *actual, cp_io *target, cp_int howmany,
                            cp_int *correct)
{
#pragma omp critical(rt_stdlib_data)
    {
        rt_srcpos where = rt_lib_where(); /* the call in the .nn file */
        require_loaded(&train, "countCorrectxR", "openDatafile", where);
        int32_t per = train.nout;
        if (howmany < 0)
            rt_error(where, "countCorrectxR: negative example count %d", (int)howmany);
        check_capacity(actual, howmany, per, "countCorrectxR", "of the outputs", where);
        check_capacity(target, howmany, per, "countCorrectxR", "of the targets", where);
        const cp_real *a = actual->data, *t = target->data;
        /* One output: both on the same side of the middle of the target range. */
        double mid = (train.tmin + train.tmax) / 2;
        for (cp_int r = 0; r < howmany; r++) {
            const cp_real *ar = a + (size_t)r * per, *tr = t + (size_t)r * per;
            bool ok = per == 1 ? (ar[0] > mid) == (tr[0] > mid)
                               : argmax(ar, per) == argmax(tr, per);
            *correct += ok;
        }
    }
}

void rt_stdlib_release(void)
{
    for (int i = 0; i < nareas; i++) {
        rt_free(areas[i]->data, (size_t)areas[i]->count * areas[i]->elem_size);
        memset(areas[i], 0, sizeof *areas[i]);
    }
    rt_free(areas, (size_t)areas_cap * sizeof *areas);
    areas = NULL;
    nareas = areas_cap = 0;
    dataset_free(&train);
    dataset_free(&test);
    rt_protocol_close();
}
