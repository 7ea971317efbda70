/* diag.c -- source file loading and diagnostics with source line and caret. */
#include "cupitc/diag.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static DiagOptions options;
static int n_errors, n_warnings, n_suppressed;
static bool limit_note_printed;

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fputs("cupitc: fatal error: out of memory\n", stderr);
        exit(3);
    }
    return p;
}

static SourceFile *index_lines(SourceFile *f)
{
    int cap = 64;
    f->line_starts = xmalloc((size_t)cap * sizeof *f->line_starts);
    f->nlines = 0;
    const char *p = f->text, *end = f->text + f->len;
    f->line_starts[f->nlines++] = p;
    for (; p < end; p++) {
        if (*p != '\n')
            continue;
        if (f->nlines == cap) {
            cap *= 2;
            const char **n = realloc(f->line_starts, (size_t)cap * sizeof *n);
            if (!n) {
                fputs("cupitc: fatal error: out of memory\n", stderr);
                exit(3);
            }
            f->line_starts = n;
        }
        f->line_starts[f->nlines++] = p + 1;
    }
    return f;
}

/* The open sources a Loc can name; slot 0 is "no file".  A process holds
   one source (the compiler) or a few at a time (unit tests); past 255 a
   location simply has no file. */
static const SourceFile *file_slots[256];

Loc loc_at(const SourceFile *file, int line, int col)
{
    if (col < 0)
        col = 0;
    if (col > LOC_MAX_COL)
        col = LOC_MAX_COL;
    return (Loc){.line = line, .col = (unsigned)col, .file_slot = file ? (unsigned)file->slot : 0u};
}

const SourceFile *loc_file(Loc loc)
{
    return file_slots[loc.file_slot];
}

SourceFile *source_from_string(const char *name, const char *text, size_t len)
{
    SourceFile *f = xmalloc(sizeof *f);
    f->slot = 0;
    for (int i = 1; i < 256; i++)
        if (!file_slots[i]) {
            file_slots[i] = f;
            f->slot = i;
            break;
        }
    char *copy = xmalloc(len + 1);
    memcpy(copy, text, len);
    copy[len] = '\0';
    f->name = name;
    f->text = copy;
    f->len = len;
    return index_lines(f);
}

SourceFile *source_read(const char *path, const char **why)
{
    bool is_stdin = strcmp(path, "-") == 0;
    FILE *fp = is_stdin ? stdin : fopen(path, "rb");
    if (!fp) {
        *why = strerror(errno);
        return NULL;
    }
    size_t cap = 1 << 16, len = 0;
    char *buf = xmalloc(cap);
    for (;;) {
        size_t n = fread(buf + len, 1, cap - len, fp);
        len += n;
        if (n == 0)
            break;
        if (len == cap) {
            cap *= 2;
            char *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(fp);
                *why = "out of memory";
                return NULL;
            }
            buf = nb;
        }
    }
    bool failed = ferror(fp);
    int err = errno;
    if (!is_stdin)
        fclose(fp);
    if (failed) {
        free(buf);
        *why = err ? strerror(err) : "read error";
        return NULL;
    }
    SourceFile *f = source_from_string(is_stdin ? "<stdin>" : path, buf, len);
    free(buf);
    return f;
}

void source_free(SourceFile *f)
{
    if (!f)
        return;
    if (f->slot)
        file_slots[f->slot] = NULL;
    free((void *)f->text);
    free(f->line_starts);
    free(f);
}

void diag_configure(const DiagOptions *opts)
{
    options = *opts;
}

void diag_reset(void)
{
    n_errors = n_warnings = n_suppressed = 0;
    limit_note_printed = false;
}

int diag_error_count(void) { return n_errors; }
int diag_warning_count(void) { return n_warnings; }

bool diag_limit_reached(void)
{
    return options.error_limit > 0 && n_errors >= options.error_limit;
}

static FILE *out(void)
{
    return options.out ? options.out : stderr;
}

/* Prints the source line of loc with a caret under its column.  Control
 * characters are shown as spaces so that the caret stays aligned.  A long
 * line is shown as a window of SHOW_WIDTH bytes around the column. */
enum { SHOW_WIDTH = 160 };

static void show_line(Loc loc)
{
    const SourceFile *f = loc_file(loc);
    if (!f || loc.line < 1 || loc.line > f->nlines)
        return;
    const char *s = f->line_starts[loc.line - 1];
    const char *end = f->text + f->len;
    const char *eol = s;
    while (eol < end && *eol != '\n')
        eol++;
    if (eol > s && eol[-1] == '\r')
        eol--;
    int width = (int)(eol - s);
    int col = loc.col < 1 ? 1 : (int)loc.col;
    if (col > width + 1)
        col = width + 1;
    int from = 0, to = width;
    if (width > SHOW_WIDTH) {
        from = col - 1 - SHOW_WIDTH / 2;
        if (from < 0)
            from = 0;
        to = from + SHOW_WIDTH;
        if (to > width) {
            to = width;
            from = to - SHOW_WIDTH;
        }
    }
    FILE *o = out();
    fputc(' ', o);
    const char *lead = from > 0 ? "..." : "";
    fputs(lead, o);
    for (int i = from; i < to; i++) {
        unsigned char c = (unsigned char)s[i];
        fputc(c < 0x20 || c == 0x7f ? ' ' : c, o);
    }
    if (to < width)
        fputs("...", o);
    fputc('\n', o);
    fputc(' ', o);
    fputs(from > 0 ? "   " : "", o);
    for (int i = from + 1; i < col; i++)
        fputc(s[i - 1] == '\t' ? '\t' : ' ', o);
    fputs(options.color ? "\033[1;32m^\033[0m\n" : "^\n", o);
}

void diag_report(DiagLevel level, Loc loc, const char *fmt, ...)
{
    static const char *const names[] = {"error", "warning", "note"};
    static const char *const colors[] = {"\033[1;31m", "\033[1;35m", "\033[1;36m"};
    static bool dropping; /* the last warning was dropped (-w): so are its notes */
    if (level == DIAG_WARNING && options.no_warnings) {
        dropping = true;
        return;
    }
    if (level == DIAG_NOTE && dropping)
        return;
    if (level != DIAG_NOTE)
        dropping = false;
    if (level == DIAG_WARNING && options.werror)
        level = DIAG_ERROR; /* the message keeps its [-W...] tag */
    if (level == DIAG_ERROR) {
        if (diag_limit_reached()) {
            if (!limit_note_printed) {
                limit_note_printed = true;
                fprintf(out(), "cupitc: note: too many errors emitted, stopping "
                               "now (-ferror-limit=%d)\n", options.error_limit);
            }
            n_suppressed++;
            return;
        }
        n_errors++;
    } else if (level == DIAG_WARNING) {
        n_warnings++;
    } else if (n_suppressed) {
        return; /* a note that belongs to a suppressed error */
    }
    FILE *o = out();
    if (options.color)
        fputs("\033[1m", o);
    const SourceFile *file = loc_file(loc);
    if (file && loc.line > 0)
        fprintf(o, "%s:%d:%d: ", file->name, loc.line, (int)loc.col);
    else if (file)
        fprintf(o, "%s: ", file->name);
    else
        fputs("cupitc: ", o);
    if (options.color)
        fprintf(o, "%s%s:\033[0m\033[1m ", colors[level], names[level]);
    else
        fprintf(o, "%s: ", names[level]);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(o, fmt, ap);
    va_end(ap);
    if (options.color)
        fputs("\033[0m", o);
    fputc('\n', o);
    show_line(loc);
}

_Noreturn void diag_internal(const char *cfile, int cline, const char *fmt, ...)
{
    fprintf(stderr, "cupitc: internal error at %s:%d: ", cfile, cline);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs(" (a bug of cupitc: please report it with the program)\n", stderr);
    abort();
}
