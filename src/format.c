/* format.c -- a vsnprintf fast path for %s and integers (see format.h). */
#include "cupitc/format.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Length modifiers understood here. */
enum { LEN_INT, LEN_LONG, LEN_LLONG, LEN_SIZE };

/* The directive at p (just after '%'): its conversion character through
 * *conv and its length modifier through *len; returns the number of
 * characters it spans after '%', or 0 if format_vsn must leave it to
 * vsnprintf. */
static size_t directive(const char *p, char *conv, int *len)
{
    size_t i = 0;
    *len = LEN_INT;
    if (p[0] == 'l' && p[1] == 'l')
        *len = LEN_LLONG, i = 2;
    else if (p[0] == 'l')
        *len = LEN_LONG, i = 1;
    else if (p[0] == 'z')
        *len = LEN_SIZE, i = 1;
    switch (p[i]) {
    case 'd': case 'i':
        if (*len == LEN_SIZE)
            return 0; /* %zd: no portable signed type to read */
        break;
    case 'u':
        break;
    case 's': case 'c': case '%':
        if (i != 0)
            return 0; /* %ls and %lc are wide characters */
        break;
    default:
        return 0;
    }
    *conv = p[i];
    return i + 1;
}

/* Output that counts everything and stores what fits. */
typedef struct Out {
    char *buf;
    size_t room, n;
} Out;

static void put(Out *o, const char *s, size_t k)
{
    if (o->n + 1 < o->room) {
        size_t fit = o->room - 1 - o->n;
        memcpy(o->buf + o->n, s, k < fit ? k : fit);
    }
    o->n += k;
}

/* Decimal digits of v, with a minus sign if neg. */
static void put_integer(Out *o, unsigned long long v, bool neg)
{
    char digits[24];
    size_t i = sizeof digits;
    do {
        digits[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    if (neg)
        digits[--i] = '-';
    put(o, digits + i, sizeof digits - i);
}

static void put_signed(Out *o, long long v)
{
    /* the magnitude of LLONG_MIN is representable only unsigned */
    unsigned long long m = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    put_integer(o, m, v < 0);
}

int format_vsn(char *buf, size_t room, const char *fmt, va_list ap)
{
    /* one pass; the first directive it does not know hands the whole
       format to vsnprintf with the arguments from the start */
    va_list start;
    va_copy(start, ap);
    Out o = { buf, room, 0 };
    const char *p = fmt;
    for (;;) {
        const char *pct = p + strcspn(p, "%"); /* one scan for the text and its end */
        put(&o, p, (size_t)(pct - p));
        if (!*pct)
            break;
        char conv;
        int len;
        size_t span = directive(pct + 1, &conv, &len);
        if (span == 0) {
            int n = vsnprintf(buf, room, fmt, start);
            va_end(start);
            return n;
        }
        p = pct + 1 + span;
        switch (conv) {
        case '%':
            put(&o, "%", 1);
            break;
        case 'c': {
            char c = (char)va_arg(ap, int);
            put(&o, &c, 1);
            break;
        }
        case 's': {
            const char *s = va_arg(ap, const char *);
            if (!s)
                s = "(null)";
            put(&o, s, strlen(s));
            break;
        }
        case 'u':
            switch (len) {
            case LEN_INT: put_integer(&o, va_arg(ap, unsigned), false); break;
            case LEN_LONG: put_integer(&o, va_arg(ap, unsigned long), false); break;
            case LEN_LLONG: put_integer(&o, va_arg(ap, unsigned long long), false); break;
            default: put_integer(&o, va_arg(ap, size_t), false); break;
            }
            break;
        default: /* d, i */
            switch (len) {
            case LEN_INT: put_signed(&o, va_arg(ap, int)); break;
            case LEN_LONG: put_signed(&o, va_arg(ap, long)); break;
            default: put_signed(&o, va_arg(ap, long long)); break;
            }
            break;
        }
    }
    va_end(start);
    if (room > 0)
        buf[o.n < room ? o.n : room - 1] = '\0';
    return o.n > INT_MAX ? -1 : (int)o.n;
}
