/* format.h -- vsnprintf for the compiler's own text, fast for the common case.
 *
 * The C emitter and the arenas format tens of millions of short pieces for a
 * large program, nearly all with only %s and %d; glibc's general printf
 * machinery was a quarter of `cupitc -S`.  format_vsn() has vsnprintf's
 * contract (the length the whole text needs, at most room - 1 bytes written
 * and a NUL) and formats %s, %c, %% and the integer conversions d, i and u
 * (l or ll; %zu; no flags, width or precision) itself; a format with any
 * other directive goes to vsnprintf unchanged. */
#ifndef CUPITC_FORMAT_H
#define CUPITC_FORMAT_H

#include <stdarg.h>
#include <stddef.h>

int format_vsn(char *buf, size_t room, const char *fmt, va_list ap);

#endif
