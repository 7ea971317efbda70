/* emit.h -- a text buffer for generated C with indentation and brace checks.
 *
 * emit() writes one line at the current indentation; emit_open()/emit_close()
 * write "{" / "}" and track depth, so a mismatch is an internal error rather
 * than silently broken C.  With a sink, the text goes to that file in
 * pieces of 64 KB as it is written, so the emitter's memory does not grow
 * with the program; without one it all stays in the buffer. */
#ifndef CUPITC_EMIT_H
#define CUPITC_EMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct Emitter {
    char *buf;
    size_t len, cap;
    int depth;
    /* When line > 0, every line written is preceded by #line line "file",
     * so that the C compiler attributes all of a construct's expansion to
     * the .nn line it came from. */
    const char *line_file;
    int line;
    /* "#line N \"" and the length of line_file for the last line and file
     * written: most lines repeat the previous directive. */
    int cached_line;
    const char *cached_file;
    size_t cached_file_len, head_len;
    char head[32];
    FILE *sink;      /* where full pieces of text go; NULL: keep them */
    int write_error; /* errno of the first failed write to the sink */
} Emitter;

void emit_init(Emitter *e);
/* Sends the text to `sink` from now on (the caller opens and closes it). */
void emit_set_sink(Emitter *e, FILE *sink);
/* Hands what is left to the sink and flushes it; false with errno set if
 * any write failed. */
bool emit_finish(Emitter *e);
void emit_free(Emitter *e);

/* One line, indented; the format has no trailing newline. */
void emit(Emitter *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Raw text, no indentation or newline (for pieces of a line). */
void emit_raw(Emitter *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A line without indentation (preprocessor directives). */
void emit_directive(Emitter *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "<text> {" and increase the depth. */
void emit_open(Emitter *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Decrease the depth and write "}<text>". */
void emit_close(Emitter *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
