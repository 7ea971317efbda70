/* diag.c -- source file loading and diagnostics with source line and caret. */
#include "cupitc/diag.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* A new SourceFile in a free slot, without its text. */
static SourceFile *source_new(const char *name)
{
    SourceFile *f = xmalloc(sizeof *f);
    memset(f, 0, sizeof *f);
    for (int i = 1; i < 256; i++)
        if (!file_slots[i]) {
            file_slots[i] = f;
            f->slot = i;
            break;
        }
    f->name = name;
    return f;
}

SourceFile *source_from_string(const char *name, const char *text, size_t len)
{
    SourceFile *f = source_new(name);
    char *copy = xmalloc(len + 1);
    memcpy(copy, text, len);
    copy[len] = '\0';
    f->text = copy;
    f->len = len;
    return f;
}

/* A regular file whose size is not a multiple of the page size is mapped
   instead of copied: the rest of its last page reads as zero, which is the
   terminating NUL the scanner needs.  NULL: read it instead. */
static SourceFile *source_map(const char *path, FILE *fp)
{
    struct stat st;
    long page = sysconf(_SC_PAGESIZE);
    if (fstat(fileno(fp), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0 || page <= 0 ||
        st.st_size % page == 0 || (uintmax_t)st.st_size > SIZE_MAX / 2)
        return NULL;
    size_t len = (size_t)st.st_size;
    size_t map = (len + (size_t)page - 1) / (size_t)page * (size_t)page;
#ifdef MAP_POPULATE
    int flags = MAP_PRIVATE | MAP_POPULATE; /* the scanner reads every page */
#else
    int flags = MAP_PRIVATE;
#endif
    void *p = mmap(NULL, map, PROT_READ, flags, fileno(fp), 0);
    if (p == MAP_FAILED)
        return NULL;
    SourceFile *f = source_new(path);
    f->text = p;
    f->len = len;
    f->map_size = map;
    return f;
}

SourceFile *source_read(const char *path, const char **why)
{
    bool is_stdin = strcmp(path, "-") == 0;
    FILE *fp = is_stdin ? stdin : fopen(path, "rb");
    if (!fp) {
        *why = strerror(errno);
        return NULL;
    }
    static const char too_large[] = "it is larger than " SOURCE_MAX_TEXT
                                    ", the largest source cupitc reads";
    struct stat st;
    if (fstat(fileno(fp), &st) == 0 && S_ISREG(st.st_mode) &&
        (uintmax_t)st.st_size > SOURCE_MAX_BYTES) {
        if (!is_stdin)
            fclose(fp);
        *why = too_large;
        return NULL;
    }
    if (!is_stdin) {
        SourceFile *f = source_map(path, fp);
        if (f) {
            fclose(fp);
            return f;
        }
    }
    size_t cap = 1 << 16, len = 0;
    char *buf = xmalloc(cap);
    for (;;) {
        size_t n = fread(buf + len, 1, cap - len - 1, fp);
        len += n;
        if (n == 0)
            break;
        if (len > SOURCE_MAX_BYTES) { /* /dev/zero, an endless pipe */
            free(buf);
            if (!is_stdin)
                fclose(fp);
            *why = too_large;
            return NULL;
        }
        if (len == cap - 1) {
            cap *= 2;
            char *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                if (!is_stdin)
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
    buf[len] = '\0'; /* the text is the buffer itself: no second copy */
    SourceFile *f = source_new(is_stdin ? "<stdin>" : path);
    f->text = buf;
    f->len = len;
    return f;
}

void source_free(SourceFile *f)
{
    if (!f)
        return;
    if (f->slot)
        file_slots[f->slot] = NULL;
    if (f->map_size)
        munmap((void *)f->text, f->map_size);
    else
        free((void *)f->text);
    free(f->line_starts);
    free(f);
}

void source_done_scanning(SourceFile *f)
{
#ifdef MADV_DONTNEED
    if (f && f->map_size)
        madvise((void *)f->text, f->map_size, MADV_DONTNEED);
#else
    (void)f;
#endif
}

size_t source_bom_len(const SourceFile *f)
{
    return f->len >= 3 && memcmp(f->text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
}

const char *source_line(const SourceFile *f, int line)
{
    if (!f || line < 1)
        return NULL;
    if (!f->line_starts) {
        /* the index is a cache of the text: made here, once, for the first
           message that shows a line */
        SourceFile *w = (SourceFile *)f;
        const char *end = f->text + f->len;
        size_t n = 1;
        for (const char *p = f->text; (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++)
            n++;
        if (n > INT_MAX)
            return NULL;
        w->line_starts = xmalloc(n * sizeof *w->line_starts);
        w->nlines = 0;
        w->line_starts[w->nlines++] = f->text + source_bom_len(f);
        for (const char *p = f->text; (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++)
            w->line_starts[w->nlines++] = p + 1;
    }
    return line <= f->nlines ? f->line_starts[line - 1] : NULL;
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

/* Prints the source line of loc with a caret under its column.  Tabs are
 * kept in both lines, other control characters are shown as spaces and a
 * UTF-8 character takes one column, so that the caret stays aligned.  A long line is shown as a window of
 * SHOW_WIDTH bytes around the column. */
enum { SHOW_WIDTH = 160 };

static void show_line(Loc loc)
{
    const SourceFile *f = loc_file(loc);
    const char *s = source_line(f, loc.line);
    if (!s)
        return;
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
        fputc(c == '\t' ? '\t' : c < 0x20 || c == 0x7f ? ' ' : c, o);
    }
    if (to < width)
        fputs("...", o);
    fputc('\n', o);
    fputc(' ', o);
    fputs(from > 0 ? "   " : "", o);
    for (int i = from + 1; i < col; i++) {
        unsigned char c = (unsigned char)s[i - 1];
        if ((c & 0xc0) == 0x80)
            continue; /* a UTF-8 character is shown as one, not per byte */
        fputc(c == '\t' ? '\t' : ' ', o);
    }
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
