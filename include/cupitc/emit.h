/* emit.h -- a text buffer for generated C with indentation and brace checks.
 *
 * emit() writes one line at the current indentation; emit_open()/emit_close()
 * write "{" / "}" and track depth, so a mismatch is an internal error rather
 * than silently broken C.  The buffer is written to its file only at the end
 * (and only if it changed), so generated output is byte-identical for the
 * same input. */
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
} Emitter;

void emit_init(Emitter *e);
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
/* Appends another emitter's text (at the caller's indentation as written). */
void emit_append(Emitter *e, const Emitter *other);

/* Writes the buffer to path unless the file already holds exactly it.
 * Returns false and sets errno on failure. */
bool emit_write_file(const Emitter *e, const char *path);
/* Whether the file at path holds exactly the emitted text. */
bool emit_matches_file(const Emitter *e, const char *path);

#endif
