/* emit.c -- the generated-C text buffer (see emit.h). */
#include "cupitc/emit.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cupitc/diag.h"

void emit_init(Emitter *e)
{
    memset(e, 0, sizeof *e);
}

void emit_free(Emitter *e)
{
    free(e->buf);
    memset(e, 0, sizeof *e);
}

static void reserve(Emitter *e, size_t extra)
{
    if (e->len + extra + 1 <= e->cap)
        return;
    size_t cap = e->cap ? e->cap : 4096;
    while (cap < e->len + extra + 1)
        cap *= 2;
    char *b = realloc(e->buf, cap);
    if (!b) {
        fputs("cupitc: fatal error: out of memory\n", stderr);
        exit(3);
    }
    e->buf = b;
    e->cap = cap;
}

static void put(Emitter *e, const char *s, size_t n)
{
    reserve(e, n);
    memcpy(e->buf + e->len, s, n);
    e->len += n;
    e->buf[e->len] = '\0';
}

static void vput(Emitter *e, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    reserve(e, (size_t)n);
    vsnprintf(e->buf + e->len, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    e->len += (size_t)n;
}

static void indent(Emitter *e)
{
    if (e->line > 0) {
        char buf[64];
        int n = snprintf(buf, sizeof buf, "#line %d \"", e->line);
        put(e, buf, (size_t)n);
        put(e, e->line_file, strlen(e->line_file));
        put(e, "\"\n", 2);
    }
    for (int i = 0; i < e->depth; i++)
        put(e, "    ", 4);
}

void emit(Emitter *e, const char *fmt, ...)
{
    indent(e);
    va_list ap;
    va_start(ap, fmt);
    vput(e, fmt, ap);
    va_end(ap);
    put(e, "\n", 1);
}

void emit_raw(Emitter *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vput(e, fmt, ap);
    va_end(ap);
}

void emit_directive(Emitter *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vput(e, fmt, ap);
    va_end(ap);
    put(e, "\n", 1);
}

void emit_open(Emitter *e, const char *fmt, ...)
{
    indent(e);
    va_list ap;
    va_start(ap, fmt);
    vput(e, fmt, ap);
    va_end(ap);
    put(e, fmt[0] ? " {\n" : "{\n", fmt[0] ? 3 : 2);
    e->depth++;
}

void emit_close(Emitter *e, const char *fmt, ...)
{
    if (e->depth == 0)
        diag_internal(__FILE__, __LINE__, "unbalanced braces in generated C");
    e->depth--;
    indent(e);
    put(e, "}", 1);
    va_list ap;
    va_start(ap, fmt);
    vput(e, fmt, ap);
    va_end(ap);
    put(e, "\n", 1);
}

void emit_append(Emitter *e, const Emitter *other)
{
    if (other->len)
        put(e, other->buf, other->len);
}

bool emit_matches_file(const Emitter *e, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    bool same = true;
    char chunk[8192];
    size_t off = 0, n;
    while (same && (n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (off + n > e->len || memcmp(chunk, e->buf + off, n) != 0)
            same = false;
        off += n;
    }
    fclose(f);
    return same && off == e->len;
}

bool emit_write_file(const Emitter *e, const char *path)
{
    if (emit_matches_file(e, path))
        return true;
    FILE *f;
    f = fopen(path, "wb");
    if (!f)
        return false;
    bool ok = fwrite(e->buf ? e->buf : "", 1, e->len, f) == e->len;
    int saved = errno;
    if (fclose(f) != 0 && ok) {
        ok = false;
        saved = errno;
    }
    errno = saved;
    return ok;
}
