/* stdlib_sigs.h -- what cupitc knows about the CuPit standard library
 * (docs/stdlib.md): every subroutine's signature, so that a program's
 * EXTERNAL declarations are checked against it, a missing declaration says
 * how to write it, and an EXTERNAL that nothing defines is reported at
 * compile time with the closest standard name. */
#ifndef CUPITC_STDLIB_SIGS_H
#define CUPITC_STDLIB_SIGS_H

#include <stdbool.h>

#include "cupitc/sema.h"

typedef struct StdSubr StdSubr;

/* The standard subroutines, for tests: stdlib_at (0 ... stdlib_count () - 1). */
int stdlib_count(void);
const StdSubr *stdlib_at(int i);
/* The standard subroutine called name, or NULL. */
const StdSubr *stdlib_find(const char *name);
/* Its declaration as a program writes it ("PROCEDURE pInt (Int CONST me)
 * IS EXTERNAL;"). */
const char *stdlib_decl(const StdSubr *s);
/* NULL if the EXTERNAL declaration `sym` agrees with s; else what differs,
 * e.g. "parameter 1 is Real CONST, not Int CONST" (static storage). */
const char *stdlib_mismatch(const StdSubr *s, const Symbol *sym);
/* Whether sym is a standard I/O procedure that reports its argument errors
 * at the position that rt_lib_at gives it (cupit_rt.h): generated code
 * sets it around the call. */
bool stdlib_reports_call_pos(const Symbol *sym);
/* Whether sym is one of the standard arithmetic functions (sigmoid,
 * sigmoidPrime, absReal, signReal, minReal, maxReal), whose result depends
 * on its arguments alone. */
bool stdlib_is_arithmetic(const Symbol *sym);
/* Whether sym is saveNetworks or loadNetworks, which read or write every
 * network variable of the program: they belong to the central agent
 * (§5.1), as a subroutine that names a network variable does. */
bool stdlib_uses_networks(const Symbol *sym);
/* The standard subroutine name closest to name (a typo's correction), or
 * NULL when none is close. */
const char *stdlib_closest(const char *name);
/* The edit distance of a and b, case differences counting as one edit; at
 * most limit + 1 (used for "did you mean" everywhere). */
int name_distance(const char *a, const char *b, int limit);
/* How many edits a "did you mean" for name may be away: none for one
 * letter, one up to four letters, then a third of the length. */
int name_distance_limit(const char *name);

#endif
