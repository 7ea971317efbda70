/* lex.h -- the CuPit scanner (generated from grammar/lexer.re).
 *
 * The scanner reads a whole NUL-terminated SourceFile and hands out one
 * token per call, with its location and decoded value.  Token codes are the
 * TK_* / character codes of the generated parser.h; lex_token_name() gives
 * the display name used in every message ('WHILE', identifier, end of file).
 * Lexical errors are reported through diag.h and never stop the scan. */
#ifndef CUPITC_LEX_H
#define CUPITC_LEX_H

#include <stdint.h>

#include "cupitc/arena.h"
#include "cupitc/ast.h"
#include "cupitc/diag.h"

/* The value of one token (kept small: the parser copies it often). */
typedef struct LexToken {
    const char *text; /* identifiers: interned name; reals, strings: spelling */
    union {
        uint64_t int_value; /* integer denoters (clamped when too large) */
        double real_value;  /* real denoters */
        struct {
            const char *bytes; /* decoded, NUL-terminated */
            int len;           /* decoded length (may include NULs) */
        } str;              /* string denoters */
    } u;
} LexToken;

typedef struct Lexer {
    const SourceFile *file;
    Arena *arena;
    const char *cur;        /* next byte to scan */
    const char *tok;        /* start of the current token */
    const char *marker;     /* re2c backtracking */
    const char *ctxmarker;  /* re2c trailing context */
    const char *end;        /* the terminating NUL */
    const char *line_start; /* first byte of the current line */
    int line;
    int errors;             /* lexical errors reported so far */
    int prev;               /* the token before this one (set by the parser;
                               0 if unknown) */
    const char *type_words[16]; /* all-caps words read as type names */
    int ntype_words;
} Lexer;

void lex_init(Lexer *lx, const SourceFile *file, Arena *arena);
/* Returns the next token code (0 at end of file) and fills *val and *loc. */
int lex_next(Lexer *lx, LexToken *val, Loc *loc);
/* Display name of a token code, e.g. "'WHILE'", "identifier", "end of file"
 * (defined with the parser's token table in grammar/parser.y). */
const char *lex_token_name(int token);

#endif
