/* parse.h -- the front end's entry point: source text to AST.
 *
 * The scanner (grammar/lexer.re) and the parser (grammar/parser.y) are
 * generated into build/gen by make.  Errors go through diag.h; the parser
 * recovers at definition and statement level, so one run reports every
 * independent syntax error once. */
#ifndef CUPITC_PARSE_H
#define CUPITC_PARSE_H

#include "cupitc/ast.h"

/* Parses a whole file.  Always returns a Program (possibly partial); check
 * diag_error_count() for errors.  All nodes come from `arena`. */
Program *parse_program(const SourceFile *file, Arena *arena);

#endif
