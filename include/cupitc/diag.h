/* diag.h -- source files, locations and the one diagnostics path.
 *
 * Every message of every phase goes through diag_report(): it prints
 * "file:line:col: error: message", then the source line and a caret under
 * the column.  Columns count bytes from 1; a tab counts as one column.
 * Phases only count errors; the driver checks diag_error_count() after each
 * phase and stops there. */
#ifndef CUPITC_DIAG_H
#define CUPITC_DIAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct SourceFile {
    const char *name; /* as given on the command line */
    const char *text; /* the contents, NUL-terminated: a copy, or a regular
                         file mapped read-only (map_size bytes) */
    size_t len;       /* bytes, without the terminating NUL */
    size_t map_size;  /* 0: text is a malloc'd copy */
    /* made on first use (source_line): only messages need it */
    const char **line_starts; /* line_starts[i] = start of line i+1 */
    int nlines;
    int slot;         /* its slot in the table of Loc (0: none) */
} SourceFile;

/* A position in a source file.  line and col start at 1; line 0 means "no
 * position" (command-line or whole-file messages).  Eight bytes, because
 * every node and identifier holds one: the file is a slot of a small table
 * of open sources (0: none), and a column beyond LOC_MAX_COL is shown as
 * LOC_MAX_COL. */
typedef struct Loc {
    int line;
    unsigned col : 24;
    unsigned file_slot : 8;
} Loc;

enum { LOC_MAX_COL = (1 << 24) - 1 };

Loc loc_at(const SourceFile *file, int line, int col);
/* The file of a location (NULL for none). */
const SourceFile *loc_file(Loc loc);

typedef enum DiagLevel { DIAG_ERROR, DIAG_WARNING, DIAG_NOTE } DiagLevel;

/* The largest source cupitc reads: a longer input (an endless one such as
 * /dev/zero or `yes |`) is refused, before memory runs out.  The largest
 * programs measured (bench/parse: 50 MB) fit with room to spare. */
#define SOURCE_MAX_BYTES ((size_t)128 << 20)
#define SOURCE_MAX_TEXT "128 MiB"

/* Reads a whole file ("-": standard input, named "<stdin>" in messages).
 * Returns NULL and sets *why on failure (also for a file larger than
 * SOURCE_MAX_BYTES). */
SourceFile *source_read(const char *path, const char **why);
/* Wraps an in-memory buffer (used by unit tests); the text is copied. */
SourceFile *source_from_string(const char *name, const char *text, size_t len);
void source_free(SourceFile *f);
/* The length of the UTF-8 byte-order mark that starts f (3), else 0: the
 * scanner and the lines that messages show begin after it. */
size_t source_bom_len(const SourceFile *f);
/* The start of line `line` (from 1) of f, NULL if there is no such line. */
const char *source_line(const SourceFile *f, int line);
/* The scanner is done with f: a mapped file's pages leave the process's
 * memory (they come back from the file if a message shows a line). */
void source_done_scanning(SourceFile *f);

typedef struct DiagOptions {
    FILE *out;       /* default stderr */
    bool color;      /* ANSI colours; the driver turns them on for a tty */
    int error_limit; /* stop reporting after this many errors; 0 = no limit */
    bool no_warnings; /* -w: drop warnings (and their notes) */
    bool werror;      /* -Werror: warnings are errors */
} DiagOptions;

void diag_configure(const DiagOptions *opts);
void diag_reset(void); /* zero the counters (unit tests) */

void diag_report(DiagLevel level, Loc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
#define diag_error(loc, ...) diag_report(DIAG_ERROR, (loc), __VA_ARGS__)
#define diag_warning(loc, ...) diag_report(DIAG_WARNING, (loc), __VA_ARGS__)
#define diag_note(loc, ...) diag_report(DIAG_NOTE, (loc), __VA_ARGS__)

int diag_error_count(void);
int diag_warning_count(void);
/* True once the error limit was reached: phases may stop early. */
bool diag_limit_reached(void);

/* An internal compiler bug: prints "internal error at file:line" and aborts. */
_Noreturn void diag_internal(const char *cfile, int cline, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
#define cp_unreachable() diag_internal(__FILE__, __LINE__, "unreachable code reached")

#endif
