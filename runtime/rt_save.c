/* rt_save.c -- saveNetworks and loadNetworks (docs/stdlib.md, format in
 * docs/runtime-abi.md §11).
 *
 * Every network variable of the program (rt_register_networks) is written
 * with its topology -- group sizes and each bundle's connections -- and
 * its data elements leaf by leaf (rt_field tables), little-endian, Reals as
 * IEEE doubles: the file does not depend on the machine, the C compiler's
 * struct layout or the build's Real width.  A fingerprint of the networks' shapes
 * and element kinds identifies the program; a checksum at the end catches
 * truncation and corruption.  Loading checks the header, the checksum and
 * the fingerprint before it changes any network; a file that passes them
 * but does not fit (a forged one) is a run-time error, which ends the
 * program. */
#include "cupit_stdlib.h"
#include "rt_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* the library functions are weak: a C file of the program may replace them */
#define RT_WEAK __attribute__((weak))

enum { SAVE_VERSION = 1 };
static const char SAVE_MAGIC[8] = {'C', 'U', 'P', 'I', 'T', 'N', 'E', 'T'};

static rt_net *const *registered;
static const char *const *registered_names;
static int32_t nregistered;

void rt_register_networks(rt_net *const *nets, const char *const *names, int32_t n)
{
    registered = nets;
    registered_names = names;
    nregistered = n;
    for (int32_t i = 0; i < n; i++)
        nets[i]->name = names[i];
}

const rt_net *rt_net_named(const char *name, size_t len)
{
    for (int32_t i = 0; i < nregistered; i++)
        if (strlen(registered_names[i]) == len && strncmp(registered_names[i], name, len) == 0)
            return registered[i];
    return NULL;
}

const char *rt_net_name(const rt_net *net)
{
    return net->name ? net->name : net->desc->name;
}

/* ---- bytes ------------------------------------------------------------------ */

typedef struct buf {
    unsigned char *p;
    size_t len, cap, pos; /* pos: the reader's cursor */
    const char *path;
} buf;

static void put(buf *b, const void *data, size_t n)
{
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n)
            cap *= 2;
        b->p = rt_realloc(rt_lib_where(), b->p, b->cap, cap);
        b->cap = cap;
    }
    memcpy(b->p + b->len, data, n);
    b->len += n;
}

static void put_u(buf *b, uint64_t v, int bytes)
{
    unsigned char c[8];
    for (int i = 0; i < bytes; i++)
        c[i] = (unsigned char)(v >> (8 * i));
    put(b, c, (size_t)bytes);
}

static void put_str(buf *b, const char *s)
{
    put_u(b, strlen(s), 4);
    put(b, s, strlen(s));
}

_Noreturn static void bad_file(const buf *b, const char *why)
{
    rt_error(rt_lib_where(), "loadNetworks: '%s' %s", b->path, why);
}

static uint64_t get_u(buf *b, int bytes)
{
    if (b->len - b->pos < (size_t)bytes)
        bad_file(b, "is truncated");
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++)
        v |= (uint64_t)b->p[b->pos + (size_t)i] << (8 * i);
    b->pos += (size_t)bytes;
    return v;
}

static uint64_t fnv(const unsigned char *p, size_t n, uint64_t h)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3u;
    return h;
}

#define FNV_BASIS 0xcbf29ce484222325u

/* ---- the shape fingerprint ----------------------------------------------------- */

static uint64_t mix_str(uint64_t h, const char *s)
{
    return fnv((const unsigned char *)s, strlen(s) + 1, h);
}

static uint64_t mix_u(uint64_t h, uint64_t v)
{
    unsigned char c[8];
    for (int i = 0; i < 8; i++)
        c[i] = (unsigned char)(v >> (8 * i));
    return fnv(c, 8, h);
}

/* The number of rows from f (after an RT_F_REPEAT row) to its RT_F_END. */
static int32_t body_len(const rt_field *f, int32_t n)
{
    int depth = 0;
    for (int32_t i = 0; i < n; i++) {
        if (f[i].kind == RT_F_REPEAT)
            depth++;
        else if (f[i].kind == RT_F_END && depth-- == 0)
            return i;
    }
    return n;
}

/* The number of rows of f[0..n) with every RT_F_REPEAT written out. */
static uint64_t leaf_rows(const rt_field *f, int32_t n)
{
    uint64_t rows = 0;
    for (int32_t i = 0; i < n; i++) {
        if (f[i].kind == RT_F_REPEAT) {
            int32_t len = body_len(f + i + 1, n - i - 1);
            rows += (uint64_t)f[i].count * leaf_rows(f + i + 1, len);
            i += len + 1;
        } else {
            rows++;
        }
    }
    return rows;
}

static uint64_t mix_rows(uint64_t h, const rt_field *f, int32_t n)
{
    for (int32_t i = 0; i < n; i++) {
        if (f[i].kind == RT_F_REPEAT) {
            int32_t len = body_len(f + i + 1, n - i - 1);
            for (uint32_t k = 0; k < f[i].count; k++)
                h = mix_rows(h, f + i + 1, len);
            i += len + 1;
        } else {
            h = mix_u(mix_u(h, f[i].kind), f[i].count);
        }
    }
    return h;
}

/* As if every RT_F_REPEAT were written out: a table that repeats rows
 * has the fingerprint of the same table unrolled. */
static uint64_t mix_fields(uint64_t h, const rt_field *f, int32_t n)
{
    return mix_rows(mix_u(h, leaf_rows(f, n)), f, n);
}

/* What a saved file must agree on: network names and types, groups,
 * bundles and element kinds (not sizes or offsets, which vary by machine). */
static uint64_t fingerprint(void)
{
    uint64_t h = FNV_BASIS;
    for (int32_t i = 0; i < nregistered; i++) {
        const rt_net_desc *d = registered[i]->desc;
        h = mix_str(mix_str(h, registered_names[i]), d->name);
        h = mix_fields(h, d->fields, d->nfields);
        h = mix_u(h, (uint64_t)d->ngroups);
        for (int32_t g = 0; g < d->ngroups; g++) {
            const rt_group_desc *gd = &d->groups[g];
            h = mix_u(mix_u(mix_str(h, gd->name), gd->is_array), (uint64_t)gd->array_size);
            h = mix_fields(h, gd->fields, gd->nfields);
        }
        h = mix_u(h, (uint64_t)d->nbundles);
        for (int32_t k = 0; k < d->nbundles; k++) {
            const rt_bundle_desc *bd = &d->bundles[k];
            h = mix_u(mix_u(mix_u(mix_u(h, (uint64_t)bd->src_group), (uint64_t)bd->src_iface),
                            (uint64_t)bd->dst_group), (uint64_t)bd->dst_iface);
            h = mix_fields(h, bd->fields, bd->nfields);
        }
    }
    return h;
}

/* ---- records ---------------------------------------------------------------------- */

/* The bytes one record of f[0..n) takes in a file (0 for a type without
 * elements: a node with interfaces only). */
static uint64_t record_bytes(const rt_field *f, int32_t n)
{
    uint64_t bytes = 0;
    for (int32_t i = 0; i < n; i++) {
        if (f[i].kind == RT_F_REPEAT) {
            int32_t len = body_len(f + i + 1, n - i - 1);
            bytes += (uint64_t)f[i].count * record_bytes(f + i + 1, len);
            i += len + 1;
            continue;
        }
        int size = f[i].kind == RT_F_I8 || f[i].kind == RT_F_BOOL ? 1
                 : f[i].kind == RT_F_I16 ? 2 : f[i].kind == RT_F_I32 ? 4
                 : f[i].kind == RT_F_REAL ? 8 : 0;
        bytes += (uint64_t)f[i].count * (uint64_t)size;
    }
    return bytes;
}

static void put_record(buf *b, const void *rec, const rt_field *f, int32_t n, const char *what)
{
    const unsigned char *base = rec;
    for (int32_t i = 0; i < n; i++) {
        if (f[i].kind == RT_F_REPEAT) {
            int32_t len = body_len(f + i + 1, n - i - 1);
            for (uint32_t k = 0; k < f[i].count; k++)
                put_record(b, base + f[i].offset + (size_t)k * f[i].stride, f + i + 1, len, what);
            i += len + 1;
            continue;
        }
        for (uint32_t j = 0; j < f[i].count; j++) {
            const unsigned char *p = base + f[i].offset + (size_t)j * f[i].stride;
            switch (f[i].kind) {
            case RT_F_I8: put_u(b, (uint8_t) * (const int8_t *)p, 1); break;
            case RT_F_BOOL: put_u(b, *(const bool *)p ? 1 : 0, 1); break;
            case RT_F_I16: { int16_t v; memcpy(&v, p, 2); put_u(b, (uint16_t)v, 2); break; }
            case RT_F_I32: { int32_t v; memcpy(&v, p, 4); put_u(b, (uint32_t)v, 4); break; }
            case RT_F_REAL: {
                cp_real r;
                memcpy(&r, p, sizeof r);
                double d = (double)r;
                uint64_t u;
                memcpy(&u, &d, 8);
                put_u(b, u, 8);
                break;
            }
            default:
                rt_error(rt_lib_where(), "saveNetworks: %s has an element of type String or "
                         "Opaque, which cannot be saved", what);
            }
        }
    }
}

static void get_record(buf *b, void *rec, const rt_field *f, int32_t n)
{
    unsigned char *base = rec;
    for (int32_t i = 0; i < n; i++) {
        if (f[i].kind == RT_F_REPEAT) {
            int32_t len = body_len(f + i + 1, n - i - 1);
            for (uint32_t k = 0; k < f[i].count; k++)
                get_record(b, base + f[i].offset + (size_t)k * f[i].stride, f + i + 1, len);
            i += len + 1;
            continue;
        }
        for (uint32_t j = 0; j < f[i].count; j++) {
            unsigned char *p = base + f[i].offset + (size_t)j * f[i].stride;
            switch (f[i].kind) {
            case RT_F_I8: { int8_t v = (int8_t)get_u(b, 1); memcpy(p, &v, 1); break; }
            case RT_F_BOOL: { bool v = get_u(b, 1) != 0; memcpy(p, &v, sizeof v); break; }
            case RT_F_I16: { int16_t v = (int16_t)get_u(b, 2); memcpy(p, &v, 2); break; }
            case RT_F_I32: { int32_t v = (int32_t)get_u(b, 4); memcpy(p, &v, 4); break; }
            case RT_F_REAL: {
                uint64_t u = get_u(b, 8);
                double d;
                memcpy(&d, &u, 8);
                cp_real r = (cp_real)d;
                memcpy(p, &r, sizeof r);
                break;
            }
            default:
                bad_file(b, "holds an element this program cannot load");
            }
        }
    }
}

/* ---- saveNetworks ----------------------------------------------------------------- */

static void save_net(buf *b, rt_net *net, const char *name)
{
    const rt_net_desc *d = net->desc;
    if (net->replicated)
        rt_error(rt_lib_where(), "saveNetworks: the network %s is replicated; reunite it "
                 "first (REPLICATE %s INTO 1)", name, name);
    put_str(b, name);
    put_record(b, net->reps[0].net_data, d->fields, d->nfields, name);
    for (int32_t g = 0; g < d->ngroups; g++) {
        const rt_group_desc *gd = &d->groups[g];
        put_u(b, (uint32_t)net->count[g], 4);
        const char *recs = net->reps[0].nodes[g];
        for (int32_t i = 0; i < net->count[g]; i++)
            put_record(b, recs + (size_t)i * gd->node_size, gd->fields, gd->nfields, gd->name);
    }
    for (int32_t k = 0; k < d->nbundles; k++) {
        const rt_bundle_desc *bd = &d->bundles[k];
        const rt_bundle *bu = &net->bundles[k];
        put_u(b, (uint32_t)bu->nconn, 4);
        int32_t ndst = net->count[bd->dst_group];
        for (int32_t dst = 0; dst < ndst; dst++)
            for (int32_t c = bu->dst_start[dst]; c < bu->dst_start[dst + 1]; c++) {
                put_u(b, (uint32_t)bu->src_node[c], 4);
                put_u(b, (uint32_t)dst, 4);
            }
        const char *recs = net->reps[0].conns[k];
        for (int32_t c = 0; c < bu->nconn; c++)
            put_record(b, recs + (size_t)c * bd->conn_size, bd->fields, bd->nfields, name);
    }
}

RT_WEAK void saveNetworks(const char *file)
{
    file = rt_lib_str(file);
    const char *path = rt_data_file(file);
    buf b = {.path = path};
    put(&b, SAVE_MAGIC, sizeof SAVE_MAGIC);
    put_u(&b, SAVE_VERSION, 4);
    put_u(&b, fingerprint(), 8);
    put_u(&b, (uint32_t)nregistered, 4);
    for (int32_t i = 0; i < nregistered; i++)
        save_net(&b, registered[i], registered_names[i]);
    put_u(&b, fnv(b.p, b.len, FNV_BASIS), 8);
    /* a data file read is never replaced; the network file loaded may be */
    rt_check_output(path, "saveNetworks file", false, true);
    /* A regular file is written beside the target and renamed: a failed
       save keeps the old file.  Through a symbolic link that is the file
       it names; anything else (a device such as /dev/null or /dev/full, a
       FIFO, a link to nothing yet) is written in place, never replaced. */
    struct stat st, lst;
    bool exists = stat(path, &st) == 0;
    bool link = lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode);
    char *target = NULL;
    if (exists && S_ISREG(st.st_mode) && link)
        target = realpath(path, NULL);
    bool in_place = (exists && !S_ISREG(st.st_mode)) || (link && !target);
    const char *dest = target ? target : path;
    /* the temporary file is new (O_EXCL), named by the process: a file or
       directory already there under that name is never written or removed */
    size_t n = strlen(dest) + 32;
    char *tmp = rt_alloc(rt_lib_where(), n);
    snprintf(tmp, n, "%s.%ld.tmp~", dest, (long)getpid());
    int fd = in_place ? -1 : open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
    int err = errno;
    if (!in_place && fd < 0)
        rt_error(rt_lib_where(), "saveNetworks: cannot write '%s': cannot create the "
                 "temporary file '%s' beside it: %s", path, tmp, strerror(err));
    FILE *f = in_place ? fopen(path, "wb") : fdopen(fd, "wb");
    bool ok = f && fwrite(b.p, 1, b.len, f) == b.len;
    err = errno;
    if (!f && fd >= 0)
        close(fd);
    if (f && fclose(f) != 0 && ok) {
        ok = false;
        err = errno;
    }
    if (ok && !in_place && rename(tmp, dest) != 0) {
        ok = false;
        err = errno;
    }
    if (!ok) {
        if (!in_place)
            remove(tmp);
        rt_error(rt_lib_where(), "saveNetworks: cannot write '%s': %s", path, strerror(err));
    }
    free(target);
    rt_free(tmp, n);
    rt_free(b.p, b.cap);
}

/* ---- loadNetworks ------------------------------------------------------------------ */

static void load_net(buf *b, rt_net *net, const char *name)
{
    const rt_net_desc *d = net->desc;
    uint64_t len = get_u(b, 4);
    if (len != strlen(name) || b->len - b->pos < len || memcmp(b->p + b->pos, name, len) != 0)
        bad_file(b, "holds other networks than this program's");
    b->pos += len;
    get_record(b, net->reps[0].net_data, d->fields, d->nfields);
    for (int32_t g = 0; g < d->ngroups; g++) {
        const rt_group_desc *gd = &d->groups[g];
        int64_t count = (int64_t)get_u(b, 4);
        /* the node records must be in the file (nodes without elements
           take no bytes) */
        if (count > INT32_MAX - 1 ||
            (uint64_t)count * record_bytes(gd->fields, gd->nfields) > b->len - b->pos)
            bad_file(b, "is corrupted (a group size beyond the file)");
        if (gd->is_array) {
            if (count != gd->array_size)
                bad_file(b, "is corrupted (a node array of another size)");
        } else if (count != net->count[g]) {
            rt_extend(net, g, (int32_t)(count - net->count[g]), rt_lib_where());
        }
        char *recs = net->reps[0].nodes[g];
        for (int32_t i = 0; i < net->count[g]; i++)
            get_record(b, recs + (size_t)i * gd->node_size, gd->fields, gd->nfields);
    }
    for (int32_t k = 0; k < d->nbundles; k++) {
        const rt_bundle_desc *bd = &d->bundles[k];
        int32_t nsrc = net->count[bd->src_group], ndst = net->count[bd->dst_group];
        int64_t n = (int64_t)get_u(b, 4);
        if ((uint64_t)n * 8 > b->len - b->pos)
            bad_file(b, "is truncated");
        rt_conn_list list;
        rt_conn_list_init(&list, ndst, n, rt_lib_where(), "loadNetworks");
        int32_t prev_dst = 0, prev_src = -1;
        memset(list.dst_start, 0, ((size_t)ndst + 1) * sizeof(int32_t));
        for (int32_t c = 0; c < n; c++) {
            int64_t src = (int64_t)get_u(b, 4), dst = (int64_t)get_u(b, 4);
            /* in storage order: by destination, then source, no duplicates */
            if (src >= nsrc || dst >= ndst || dst < prev_dst ||
                (dst == prev_dst && src <= prev_src))
                bad_file(b, "is corrupted (a connection out of range or order)");
            if (dst != prev_dst)
                prev_src = -1;
            list.src[c] = (int32_t)src;
            list.from[c] = -1;
            list.dst_start[dst + 1]++;
            prev_dst = (int32_t)dst;
            prev_src = (int32_t)src;
        }
        for (int32_t j = 0; j < ndst; j++)
            list.dst_start[j + 1] += list.dst_start[j];
        rt_bundle_install(net, k, &list, nsrc, rt_lib_where());
        rt_conn_list_release(&list);
        char *recs = net->reps[0].conns[k];
        for (int32_t c = 0; c < n; c++)
            get_record(b, recs + (size_t)c * bd->conn_size, bd->fields, bd->nfields);
    }
}

RT_WEAK void loadNetworks(const char *file)
{
    file = rt_lib_str(file);
    const char *path = rt_data_file(file);
    FILE *f = fopen(path, "rb");
    if (!f)
        rt_error(rt_lib_where(), "loadNetworks: cannot read '%s': %s", path, strerror(errno));
    buf b = {.path = path};
    unsigned char chunk[65536];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
        put(&b, chunk, got);
        /* not a saved file: read no further (/dev/zero never ends) */
        if (b.len >= sizeof SAVE_MAGIC && memcmp(b.p, SAVE_MAGIC, sizeof SAVE_MAGIC) != 0)
            break;
    }
    bool failed = ferror(f);
    int err = errno; /* EISDIR for a directory */
    fclose(f);
    if (failed)
        rt_error(rt_lib_where(), "loadNetworks: cannot read '%s': %s", path, strerror(err));
    rt_note_input(path, "loadNetworks file", false);
    if (b.len < sizeof SAVE_MAGIC || memcmp(b.p, SAVE_MAGIC, sizeof SAVE_MAGIC) != 0)
        bad_file(&b, "is not a file of saved networks");
    if (b.len < sizeof SAVE_MAGIC + 4 + 8 + 4 + 8)
        bad_file(&b, "is truncated");
    b.pos = sizeof SAVE_MAGIC;
    uint64_t version = get_u(&b, 4);
    if (version != SAVE_VERSION)
        rt_error(rt_lib_where(), "loadNetworks: '%s' has format version %llu; this program "
                 "reads version %d", path, (unsigned long long)version, SAVE_VERSION);
    /* the checksum first: nothing of a damaged file is loaded */
    size_t body = b.len - 8;
    size_t end = b.pos;
    b.pos = body;
    uint64_t sum = get_u(&b, 8);
    if (sum != fnv(b.p, body, FNV_BASIS))
        bad_file(&b, "is corrupted or truncated (checksum mismatch)");
    b.pos = end;
    b.len = body;
    if (get_u(&b, 8) != fingerprint())
        bad_file(&b, "was saved by another program (its networks have other types)");
    if (get_u(&b, 4) != (uint64_t)nregistered)
        bad_file(&b, "holds other networks than this program's");
    for (int32_t i = 0; i < nregistered; i++)
        if (registered[i]->replicated)
            rt_error(rt_lib_where(), "loadNetworks: the network %s is replicated; reunite it "
                     "first (REPLICATE %s INTO 1)", registered_names[i], registered_names[i]);
    for (int32_t i = 0; i < nregistered; i++)
        load_net(&b, registered[i], registered_names[i]);
    if (b.pos != b.len)
        bad_file(&b, "is corrupted (data after the networks)");
    rt_free(b.p, b.cap);
}
