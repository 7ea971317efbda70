/* emit.c -- the generated-C text buffer (see emit.h). */
#include "cupitc/emit.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cupitc/diag.h"
#include "cupitc/format.h"

/* Text is handed to the sink in pieces of about this size, so memory stays
   bounded whatever the size of the program. */
enum { FLUSH_AT = 64 * 1024 };

void emit_init(Emitter *e)
{
    memset(e, 0, sizeof *e);
}

void emit_set_sink(Emitter *e, FILE *sink)
{
    e->sink = sink;
}

void emit_free(Emitter *e)
{
    free(e->buf);
    memset(e, 0, sizeof *e);
}

static void flush(Emitter *e)
{
    if (!e->sink || !e->len)
        return;
    if (!e->write_error && fwrite(e->buf, 1, e->len, e->sink) != e->len)
        e->write_error = errno ? errno : EIO;
    e->len = 0;
    e->buf[0] = '\0';
}

bool emit_finish(Emitter *e)
{
    flush(e);
    if (e->sink && !e->write_error && fflush(e->sink) != 0)
        e->write_error = errno ? errno : EIO;
    if (e->write_error)
        errno = e->write_error;
    return !e->write_error;
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
    if (e->len >= FLUSH_AT)
        flush(e);
}

static void vput(Emitter *e, const char *fmt, va_list ap)
{
    /* one formatting pass where the text fits (nearly always), a second
       only after growing the buffer */
    va_list ap2;
    va_copy(ap2, ap);
    reserve(e, 256);
    size_t room = e->cap - e->len;
    int n = format_vsn(e->buf + e->len, room, fmt, ap);
    if (n < 0)
        diag_internal(__FILE__, __LINE__, "bad format in the C emitter");
    if ((size_t)n >= room) {
        reserve(e, (size_t)n);
        format_vsn(e->buf + e->len, (size_t)n + 1, fmt, ap2);
    }
    va_end(ap2);
    e->len += (size_t)n;
    if (e->len >= FLUSH_AT)
        flush(e);
}

static void indent(Emitter *e)
{
    if (e->line > 0) {
        if (e->line != e->cached_line || e->line_file != e->cached_file) {
            /* formatted only when it changes: a directive precedes every line */
            e->head_len = (size_t)snprintf(e->head, sizeof e->head, "#line %d \"", e->line);
            e->cached_line = e->line;
            e->cached_file = e->line_file;
            e->cached_file_len = strlen(e->line_file);
        }
        put(e, e->head, e->head_len);
        put(e, e->line_file, e->cached_file_len);
        put(e, "\"\n", 2);
    }
    /* at most 24 levels: deeper nesting (generated lane code of 100 nested
       IFs) would otherwise make the C grow with the square of the depth */
    enum { MAX_INDENT_LEVELS = 24 };
    static const char spaces[] = "                                ";
    int levels = e->depth < MAX_INDENT_LEVELS ? e->depth : MAX_INDENT_LEVELS;
    for (int left = levels * 4; left > 0; left -= (int)sizeof spaces - 1)
        put(e, spaces, left < (int)sizeof spaces - 1 ? (size_t)left : sizeof spaces - 1);
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

