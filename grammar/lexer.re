/* lexer.re -- the CuPit scanner (re2c source; make generates build/gen/lexer.c).
 *
 * Scans a whole NUL-terminated buffer (no refilling).  The main rule table
 * follows grammar.md §1; strings and nested comments have their own small
 * scanners.  Every malformed input gives one diagnostic and scanning goes
 * on, so the parser sees a plausible token stream and no error cascades.
 * Columns count bytes from 1 on the line (a tab is one column). */
#include "cupitc/lex.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "parser.h"

enum { INT_MAX_VALUE = 2147483647 };

void lex_init(Lexer *lx, const SourceFile *file, Arena *arena)
{
    memset(lx, 0, sizeof *lx);
    lx->file = file;
    lx->arena = arena;
    lx->cur = lx->tok = lx->line_start = file->text + source_bom_len(file);
    lx->end = file->text + file->len;
    lx->line = 1;
}

static Loc token_loc(const Lexer *lx, const char *p)
{
    ptrdiff_t col = p - lx->line_start + 1;
    return loc_at(lx->file, lx->line, col > LOC_MAX_COL ? LOC_MAX_COL : (int)col);
}

static void newline(Lexer *lx)
{
    lx->line++;
    lx->line_start = lx->cur;
}

/* Every lexical error goes through here so the parser can tell that the
 * token stream was repaired (it then keeps quiet about the consequences). */
#define lex_error(lx, loc, ...) ((lx)->errors++, diag_error((loc), __VA_ARGS__))

/* Quoted token text for messages, cut at 30 bytes. */
static const char *excerpt(const Lexer *lx, const char *s, const char *e)
{
    size_t n = (size_t)(e - s);
    if (n > 30)
        return arena_printf(lx->arena, "%.27s...", s);
    return arena_strndup(lx->arena, s, n);
}

/* Value of a digit string in `base`, saturated just above the Int range. */
static uint64_t digits_value(const char *s, const char *e, int base)
{
    uint64_t v = 0;
    for (; s < e; s++) {
        int c = (unsigned char)*s, d;
        if (c >= '0' && c <= '9')
            d = c - '0';
        else if (c >= 'a' && c <= 'f')
            d = c - 'a' + 10;
        else
            d = c - 'A' + 10;
        v = v * (uint64_t)base + (uint64_t)d;
        if (v > INT_MAX_VALUE)
            v = (uint64_t)INT_MAX_VALUE + 1;
    }
    return v;
}

static int int_token(Lexer *lx, LexToken *val, Loc loc, const char *digits, int base)
{
    val->u.int_value = digits_value(digits, lx->cur, base);
    if (val->u.int_value > INT_MAX_VALUE)
        lex_error(lx, loc, "integer denoter '%s' is too large (the largest Int is %d)",
                  excerpt(lx, lx->tok, lx->cur), INT_MAX_VALUE);
    return TK_INTDEN;
}

static int real_token(Lexer *lx, LexToken *val, Loc loc)
{
    /* interned: a program writes the same few spellings (0.0, 1.0) over
       and over */
    val->text = intern(lx->arena, lx->tok, (size_t)(lx->cur - lx->tok));
    errno = 0;
    double d = strtod(val->text, NULL);
    if (errno == ERANGE && isinf(d))
        lex_error(lx, loc, "real denoter '%s' is out of range",
                  excerpt(lx, lx->tok, lx->cur));
    /* A Real is a float, and the double nearest to the denoter can lie
       exactly halfway between two floats when the denoter does not
       (1.000000059604644775390625001): rounded once more it would go to
       the even float, not to the nearest.  Then take the neighbouring
       double on the side of the nearest float, so that every later
       rounding to float (folding, the C compiler's cast) gives it. */
    float f = strtof(val->text, NULL);
    if (!isnan(d) && (float)d != f)
        d = nextafter(d, (double)f);
    val->u.real_value = d;
    return TK_REALDEN;
}

static int ident_token(Lexer *lx, LexToken *val, int token)
{
    val->text = intern(lx->arena, lx->tok, (size_t)(lx->cur - lx->tok));
    return token;
}

static bool word_is(const char *s, size_t n, const char *word)
{
    return strlen(word) == n && memcmp(s, word, n) == 0;
}

/* Whether the all-caps word just scanned stands where a type name does:
 * after TYPE, OF, IN or OUT, or before VAR, CONST, IO, FUNCTION, REDUCTION
 * or WTA. */
static bool type_name_place(const Lexer *lx)
{
    if (lx->prev == TK_TYPE || lx->prev == TK_OF || lx->prev == TK_IN || lx->prev == TK_OUT)
        return true;
    const char *c = lx->cur;
    while (*c == ' ' || *c == '\t')
        c++;
    static const char *const after[] = {"VAR", "CONST", "IO", "FUNCTION", "REDUCTION", "WTA"};
    size_t n = 0;
    while (c[n] >= 'A' && c[n] <= 'Z')
        n++;
    if ((c[n] >= 'a' && c[n] <= 'z') || (c[n] >= '0' && c[n] <= '9'))
        return false;
    for (size_t i = 0; i < sizeof after / sizeof after[0]; i++)
        if (word_is(c, n, after[i]))
            return true;
    return false;
}

/* Reports an all-caps word that is no keyword.  Likely slips get a hint and
 * a repair, so that parsing goes on as meant: END glued to its keyword,
 * a keyword of a related language, or a predefined type name in capitals.
 * Returns the token to hand on, or 0 to drop the word. */
static int unknown_keyword(Lexer *lx, LexToken *val, Loc loc)
{
    static const struct { const char *word, *hint; int token; } slips[] = {
        {"ELSEIF", "write 'ELSIF'", TK_ELSIF},   {"ELIF", "write 'ELSIF'", TK_ELSIF},
        {"WITH", "CONNECT uses 'TO'", TK_TO},     {"DO", "loops use 'REPEAT'", TK_REPEAT},
        {"ENDWHILE", "loops end with 'END' or 'END REPEAT'", TK_END},
        {"ENDFOR", "loops end with 'END' or 'END REPEAT'", TK_END},
        {"ENDLOOP", "loops end with 'END' or 'END REPEAT'", TK_END},
        {"BEGIN", "a body starts after 'IS'", 0},
        {"MOD", "the remainder is written '%'", '%'},
        {"DIV", "integer division is written '/'", '/'},
    };
    static const char *const types[] = {"INT", "REAL", "BOOL", "STRING", "OPAQUE",
                                        "INTERVAL", "REALERVAL", "TRUE", "FALSE"};
    /* other languages' names of the predefined types */
    static const struct { const char *word, *name; } foreign[] = {
        {"INTEGER", "Int"}, {"BOOLEAN", "Bool"}, {"FLOAT", "Real"}, {"DOUBLE", "Real"},
    };
    static const int ends[] = {TK_IF, TK_REPEAT, TK_TYPE, TK_PROCEDURE, TK_FUNCTION,
                               TK_MERGE, TK_REDUCTION, TK_WTA};
    const char *s = lx->tok;
    size_t n = (size_t)(lx->cur - lx->tok);
    const char *word = excerpt(lx, s, lx->cur);

    for (size_t i = 0; i < sizeof slips / sizeof slips[0]; i++) {
        if (word_is(s, n, slips[i].word)) {
            lex_error(lx, loc, "unknown keyword '%s' (%s)", word, slips[i].hint);
            return slips[i].token;
        }
    }
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        if (word_is(s, n, types[i])) {
            bool constant = i >= 7; /* true, false are lower case */
            char *name = arena_strndup(lx->arena, s, n);
            for (size_t k = constant ? 0 : 1; k < n; k++)
                name[k] = (char)(name[k] - 'A' + 'a');
            lex_error(lx, loc, "unknown keyword '%s' (write '%s')", word, name);
            val->text = intern_cstr(lx->arena, name);
            return constant ? TK_LIDENT : TK_UIDENT;
        }
    }
    for (size_t i = 0; i < sizeof foreign / sizeof foreign[0]; i++) {
        if (word_is(s, n, foreign[i].word)) {
            lex_error(lx, loc, "unknown keyword '%s' (the type is written '%s')", word,
                      foreign[i].name);
            val->text = intern_cstr(lx->arena, foreign[i].name);
            return TK_UIDENT;
        }
    }
    for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++) {
        const char *kw = lex_token_name(ends[i]); /* "'IF'" */
        size_t kn = strlen(kw) - 2;
        if (n == 3 + kn && memcmp(s, "END", 3) == 0 && memcmp(s + 3, kw + 1, kn) == 0) {
            lex_error(lx, loc, "unknown keyword '%s' (write 'END %.*s')", word, (int)kn, kw + 1);
            lx->cur = s + 3; /* go on with END, then the keyword */
            return TK_END;
        }
    }
    const char *text = intern_cstr(lx->arena, word);
    bool known = false;
    for (int i = 0; i < lx->ntype_words; i++)
        known |= lx->type_words[i] == text;
    if (known || type_name_place(lx)) {
        /* `TYPE MLP IS ...`, `MLP VAR net;`: meant as a type name, and so
           is the same word everywhere else */
        char *name = arena_strndup(lx->arena, s, n);
        for (size_t k = 1; k < n; k++)
            name[k] = (char)(name[k] - 'A' + 'a');
        lex_error(lx, loc, "unknown keyword '%s' (all-capital words are keywords; a type "
                  "name needs a lower-case letter or digit, e.g. '%s')", word, name);
        if (!known && lx->ntype_words < (int)(sizeof lx->type_words / sizeof lx->type_words[0]))
            lx->type_words[lx->ntype_words++] = text;
        val->text = text;
        return TK_UIDENT;
    }
    lex_error(lx, loc, "unknown keyword '%s'", word);
    return 0;
}

/* Decodes the UTF-8 sequence [s, e) (already validated by the rules). */
static unsigned utf8_code_point(const char *s, const char *e)
{
    unsigned c = (unsigned char)*s;
    unsigned cp = c >= 0xf0 ? c & 0x07 : c >= 0xe0 ? c & 0x0f : c & 0x1f;
    for (s++; s < e; s++)
        cp = (cp << 6) | ((unsigned char)*s & 0x3f);
    return cp;
}

/*!re2c
    re2c:define:YYCTYPE = "unsigned char";
    re2c:define:YYCURSOR = "lx->cur";
    re2c:define:YYMARKER = "lx->marker";
    re2c:define:YYCTXMARKER = "lx->ctxmarker";
    re2c:yyfill:enable = 0;
    re2c:indent:top = 2;

    digit   = [0-9];
    alnum   = [a-zA-Z0-9];
    lident  = [a-z] alnum*;
    uident  = [A-Z] | [A-Z] alnum* [a-z0-9] alnum*;
    allcaps = [A-Z] [A-Z]+;
    uscore  = [a-zA-Z] alnum* "_" [a-zA-Z0-9_]*;
    dec     = "0" | [1-9] digit*;
    oct     = "0" [0-7]+;
    badoct  = "0" digit+;
    hex     = "0" [xX] [0-9a-fA-F]+;
    real    = digit+ "." digit+ ([eE] [+-]? digit+)?;
    noexp   = digit+ "." digit+ [eE] [+-]?;
    utf8    = [\xc2-\xdf] [\x80-\xbf]
            | "\xe0" [\xa0-\xbf] [\x80-\xbf]
            | [\xe1-\xec\xee\xef] [\x80-\xbf]{2}
            | "\xed" [\x80-\x9f] [\x80-\xbf]
            | "\xf0" [\x90-\xbf] [\x80-\xbf]{2}
            | [\xf1-\xf3] [\x80-\xbf]{3}
            | "\xf4" [\x80-\x8f] [\x80-\xbf]{2};
    control = [\x01-\x08\x0b\x0e-\x1f\x7f];
*/

/* Skips a (* nested *) comment whose "(*" was just scanned. */
static void lex_comment(Lexer *lx)
{
    Loc start = token_loc(lx, lx->tok);
    int depth = 1;
    for (;;) {
        const char *t = lx->cur;
        /*!re2c
        "(*"                { depth++; continue; }
        "*)"                { if (--depth == 0) return; continue; }
        "\n"                { newline(lx); continue; }
        "\x00"              {
                              if (t == lx->end) {
                                  lx->cur = t;
                                  lex_error(lx, start, "unterminated comment (end of file inside '(*')");
                                  return;
                              }
                              lex_error(lx, token_loc(lx, t), "NUL byte in comment");
                              continue;
                            }
        [^(*\n\x00]+ | [^]  { continue; }
        */
    }
}

/* Scans the rest of a string denoter whose '"' was just scanned, decoding
 * C escapes.  A missing closing quote is reported at the opening one. */
static int lex_string(Lexer *lx, LexToken *val, Loc start)
{
    const char *open = lx->tok;
    const char *stop = memchr(open, '\n', (size_t)(lx->end - open));
    char *buf = arena_alloc(lx->arena, (size_t)((stop ? stop : lx->end) - open) + 1);
    int n = 0;
    for (;;) {
        const char *t = lx->cur;
        /*!re2c
        ["]                 { break; }
        [\x09\x20-\x21\x23-\x5b\x5d-\x7e]+ | utf8 {
                              memcpy(buf + n, t, (size_t)(lx->cur - t));
                              n += (int)(lx->cur - t);
                              continue;
                            }
        "\\n"               { buf[n++] = '\n'; continue; }
        "\\t"               { buf[n++] = '\t'; continue; }
        "\\v"               { buf[n++] = '\v'; continue; }
        "\\b"               { buf[n++] = '\b'; continue; }
        "\\r"               { buf[n++] = '\r'; continue; }
        "\\f"               { buf[n++] = '\f'; continue; }
        "\\a"               { buf[n++] = '\a'; continue; }
        "\\\\"              { buf[n++] = '\\'; continue; }
        "\\?"               { buf[n++] = '?'; continue; }
        "\\'"               { buf[n++] = '\''; continue; }
        "\\\""              { buf[n++] = '"'; continue; }
        "\\" [0-7]{1,3}     {
                              uint64_t v = digits_value(t + 1, lx->cur, 8);
                              if (v > 0xff)
                                  lex_error(lx, token_loc(lx, t), "octal escape sequence '%s' is out of range",
                                            excerpt(lx, t, lx->cur));
                              buf[n++] = (char)v;
                              continue;
                            }
        "\\x" [0-9a-fA-F]+  {
                              uint64_t v = digits_value(t + 2, lx->cur, 16);
                              if (v > 0xff)
                                  lex_error(lx, token_loc(lx, t), "hex escape sequence '%s' is out of range",
                                            excerpt(lx, t, lx->cur));
                              buf[n++] = (char)v;
                              continue;
                            }
        "\\x"               {
                              lex_error(lx, token_loc(lx, t), "'\\x' used with no following hex digits");
                              continue;
                            }
        "\\" [\x20-\x7e]    {
                              lex_error(lx, token_loc(lx, t), "unknown escape sequence '\\%c'", t[1]);
                              continue;
                            }
        "\\" "\r"? "\n"     {
                              /* C's continuation line: said, and the string
                                 goes on there as meant, so that its closing
                                 quote does not open another string */
                              lex_error(lx, token_loc(lx, t), "a '\\' at the end of a line does not continue "
                                        "a string in CuPit (write '\\n' for a newline, and end the string "
                                        "on its line)");
                              newline(lx);
                              /* buf holds the rest of one line: make room
                                 for the next */
                              stop = memchr(lx->cur, '\n', (size_t)(lx->end - lx->cur));
                              char *more = arena_alloc(lx->arena, (size_t)n + (size_t)((stop ? stop : lx->end)
                                                                   - lx->cur) + 1);
                              memcpy(more, buf, (size_t)n);
                              buf = more;
                              continue;
                            }
        "\\"                { continue; }
        "\r"? "\n"          {
                              lx->cur = t;
                              lex_error(lx, start, "unterminated string (missing '\"' before the end of the line)");
                              break;
                            }
        "\x00"              {
                              if (t == lx->end) {
                                  lx->cur = t;
                                  lex_error(lx, start, "unterminated string (missing '\"' before the end of file)");
                                  break;
                              }
                              lex_error(lx, token_loc(lx, t), "NUL byte in string (write it as '\\0')");
                              continue;
                            }
        control | "\r"      {
                              lex_error(lx, token_loc(lx, t), "control character 0x%02X in string (write it as an escape sequence)",
                                        (unsigned char)*t);
                              continue;
                            }
        [^]                 {
                              lex_error(lx, token_loc(lx, t), "invalid UTF-8 byte 0x%02X in string", (unsigned char)*t);
                              continue;
                            }
        */
    }
    buf[n] = '\0';
    val->u.str.bytes = buf;
    val->u.str.len = n;
    val->text = arena_strndup(lx->arena, open, (size_t)(lx->cur - open));
    return TK_STRDEN;
}

/* A string denoter with the bytes [s, e) as its value (no escapes). */
static int lex_string_text(Lexer *lx, LexToken *val, const char *s, const char *e)
{
    val->u.str.bytes = arena_strndup(lx->arena, s, (size_t)(e - s));
    val->u.str.len = (int)(e - s);
    val->text = arena_strndup(lx->arena, lx->tok, (size_t)(lx->cur - lx->tok));
    return TK_STRDEN;
}

int lex_next(Lexer *lx, LexToken *val, Loc *loc)
{
    val->text = NULL;
    for (;;) {
        lx->tok = lx->cur;
        *loc = token_loc(lx, lx->tok);
        /*!re2c
        "\x00"         {
                         if (lx->tok == lx->end) {
                             lx->cur = lx->end;
                             return 0;
                         }
                         lex_error(lx, *loc, "NUL byte in source text");
                         continue;
                       }
        [ \t\r\f]+     { continue; }
        "\n"           { newline(lx); continue; }
        "(*"           { lex_comment(lx); continue; }
        ["]            { return lex_string(lx, val, *loc); }

        /* ORDER KEYWORDS: the 59 keywords (parser.y declares the same list);
           a keyword beats `allcaps` on a match of the same length. */
        "AND"          { return TK_AND; }
        "ARRAY"        { return TK_ARRAY; }
        "BITAND"       { return TK_BITAND; }
        "BITNOT"       { return TK_BITNOT; }
        "BITOR"        { return TK_BITOR; }
        "BITXOR"       { return TK_BITXOR; }
        "BREAK"        { return TK_BREAK; }
        "BY"           { return TK_BY; }
        "CONNECT"      { return TK_CONNECT; }
        "CONNECTION"   { return TK_CONNECTION; }
        "CONST"        { return TK_CONST; }
        "DISCONNECT"   { return TK_DISCONNECT; }
        "DOWNTO"       { return TK_DOWNTO; }
        "ELSE"         { return TK_ELSE; }
        "ELSIF"        { return TK_ELSIF; }
        "END"          { return TK_END; }
        "EXTEND"       { return TK_EXTEND; }
        "EXTERNAL"     { return TK_EXTERNAL; }
        "FOR"          { return TK_FOR; }
        "FROM"         { return TK_FROM; }
        "FUNCTION"     { return TK_FUNCTION; }
        "GROUP"        { return TK_GROUP; }
        "IF"           { return TK_IF; }
        "IN"           { return TK_IN; }
        "INDEX"        { return TK_INDEX; }
        "INTO"         { return TK_INTO; }
        "IO"           { return TK_IO; }
        "IS"           { return TK_IS; }
        "LSHIFT"       { return TK_LSHIFT; }
        "MAX"          { return TK_MAX; }
        "MAXINDEX"     { return TK_MAXINDEX; }
        "ME"           { return TK_ME; }
        "MERGE"        { return TK_MERGE; }
        "MIN"          { return TK_MIN; }
        "NETWORK"      { return TK_NETWORK; }
        "NODE"         { return TK_NODE; }
        "NOT"          { return TK_NOT; }
        "OF"           { return TK_OF; }
        "OR"           { return TK_OR; }
        "OUT"          { return TK_OUT; }
        "PROCEDURE"    { return TK_PROCEDURE; }
        "RANDOM"       { return TK_RANDOM; }
        "RECORD"       { return TK_RECORD; }
        "REDUCTION"    { return TK_REDUCTION; }
        "REPEAT"       { return TK_REPEAT; }
        "REPLICATE"    { return TK_REPLICATE; }
        "RETURN"       { return TK_RETURN; }
        "RSHIFT"       { return TK_RSHIFT; }
        "SYMBOLIC"     { return TK_SYMBOLIC; }
        "THEN"         { return TK_THEN; }
        "TO"           { return TK_TO; }
        "TYPE"         { return TK_TYPE; }
        "UNTIL"        { return TK_UNTIL; }
        "UPTO"         { return TK_UPTO; }
        "VAR"          { return TK_VAR; }
        "WHILE"        { return TK_WHILE; }
        "WTA"          { return TK_WTA; }
        "XOR"          { return TK_XOR; }
        "YOU"          { return TK_YOU; }
        allcaps        {
                         int token = unknown_keyword(lx, val, *loc);
                         if (token)
                             return token;
                         continue;
                       }
        lident         { return ident_token(lx, val, TK_LIDENT); }
        uident         { return ident_token(lx, val, TK_UIDENT); }
        uscore         {
                         const char *u = memchr(lx->tok, '_', (size_t)(lx->cur - lx->tok));
                         lex_error(lx, token_loc(lx, u), "illegal character '_' in '%s' (identifiers cannot contain '_')",
                                   excerpt(lx, lx->tok, lx->cur));
                         return ident_token(lx, val, *lx->tok >= 'a' ? TK_LIDENT : TK_UIDENT);
                       }

        oct            { return int_token(lx, val, *loc, lx->tok + 1, 8); }
        dec            { return int_token(lx, val, *loc, lx->tok, 10); }
        hex            { return int_token(lx, val, *loc, lx->tok + 2, 16); }
        badoct         {
                         lex_error(lx, *loc, "malformed integer denoter '%s' (a leading 0 means octal: digits 0-7)",
                                   excerpt(lx, lx->tok, lx->cur));
                         val->u.int_value = digits_value(lx->tok, lx->cur, 10);
                         return TK_INTDEN;
                       }
        real           { return real_token(lx, val, *loc); }
        digit+ "."     {
                         if (*lx->cur == '.') { /* "1...3": the dots belong to '...' */
                             lx->cur--;
                             return int_token(lx, val, *loc, lx->tok, 10);
                         }
                         lex_error(lx, *loc, "malformed real denoter '%s' (digits are needed after the '.', e.g. 1.0)",
                                   excerpt(lx, lx->tok, lx->cur));
                         return real_token(lx, val, *loc);
                       }
        "." digit+     {
                         lex_error(lx, *loc, "malformed real denoter '%s' (digits are needed before the '.', e.g. 0.5)",
                                   excerpt(lx, lx->tok, lx->cur));
                         return real_token(lx, val, *loc);
                       }
        digit+ [eE] [+-]? digit+ {
                         /* `1e5`: C writes it, CuPit needs the point */
                         const char *e = lx->tok;
                         while (*e >= '0' && *e <= '9')
                             e++;
                         lex_error(lx, *loc, "malformed real denoter '%s' (a real denoter has digits on both "
                                   "sides of a '.', e.g. %.*s.0%s)", excerpt(lx, lx->tok, lx->cur),
                                   (int)(e - lx->tok), lx->tok, excerpt(lx, e, lx->cur));
                         return real_token(lx, val, *loc);
                       }
        "0" [xX]       {
                         lex_error(lx, *loc, "malformed integer denoter '%s' (hexadecimal digits are needed "
                                   "after it, e.g. 0x1F)", excerpt(lx, lx->tok, lx->cur));
                         val->u.int_value = 0;
                         return TK_INTDEN;
                       }
        noexp          {
                         lex_error(lx, *loc, "malformed real denoter '%s' (the exponent has no digits)",
                                   excerpt(lx, lx->tok, lx->cur));
                         return real_token(lx, val, *loc);
                       }

        ":="           { return TK_ASSIGN; }
        "+="           { return TK_PLUSEQ; }
        "-="           { return TK_MINUSEQ; }
        "*="           { return TK_MULEQ; }
        "/="           { return TK_DIVEQ; }
        "%="           { return TK_MODEQ; }
        "<--"          { return TK_LARROW; }
        "-->"          { return TK_RARROW; }
        "<>"           { return TK_NE; }
        "<="           { return TK_LE; }
        ">="           { return TK_GE; }
        "..."          { return TK_DOTS; }
        "**"           { return TK_POW; }
        [-=<>+*/%()[\].,;:?] { return *lx->tok; }

        "'"            {
                         lex_error(lx, *loc, "illegal character ''' (string denoters use '\"')");
                         continue;
                       }
        /* other languages' operators: said what CuPit writes, then read as
           that, so that one mistake gives one message */
        "//" [^\n\x00]* {
                         lex_error(lx, *loc, "'//' does not start a comment in CuPit: comments are written (* ... *)");
                         continue; /* read as the comment it was meant to be */
                       }
        "/*"           {
                         /* read as the comment it was meant to be: up to
                            the next "*\/", or the end of the line where
                            there is none */
                         lex_error(lx, *loc, "'/*' does not start a comment in CuPit: comments are written (* ... *)");
                         const char *close = strstr(lx->cur, "*/");
                         if (!close) {
                             while (*lx->cur != '\n' && lx->cur < lx->end)
                                 lx->cur++;
                             continue;
                         }
                         while (lx->cur < close)
                             if (*lx->cur++ == '\n')
                                 newline(lx);
                         lx->cur = close + 2;
                         continue;
                       }
        ".."           {
                         /* "..." is longer and wins; two dots are a slip */
                         lex_error(lx, *loc, "'..' is not CuPit: an interval is written 'a...b'");
                         return TK_DOTS;
                       }
        "!="           { lex_error(lx, *loc, "'!=' is not CuPit: 'not equal' is written '<>'"); return TK_NE; }
        "=="           { lex_error(lx, *loc, "'==' is not CuPit: comparison is written '='"); return '='; }
        "&&"           { lex_error(lx, *loc, "'&&' is not CuPit: write AND"); return TK_AND; }
        "||"           { lex_error(lx, *loc, "'||' is not CuPit: write OR"); return TK_OR; }
        "!"            { lex_error(lx, *loc, "'!' is not CuPit: write NOT (and '<>' for 'not equal')"); return TK_NOT; }
        "^"            {
                         lex_error(lx, *loc, "'^' is not CuPit: the power is written '**' (bitwise "
                                   "exclusive or: BITXOR)");
                         return TK_POW;
                       }
        [!#$&@\\_`{|}~] {
                         lex_error(lx, *loc, "illegal character '%c'", *lx->tok);
                         continue;
                       }
        control        {
                         lex_error(lx, *loc, "illegal control character 0x%02X", (unsigned char)*lx->tok);
                         continue;
                       }
        "\xe2\x80\x9c" | "\xe2\x80\x9d" {
                         /* “text” from a word processor: one message, and
                            the text up to the closing quote on the line is
                            read as the string meant (its words are no names) */
                         lex_error(lx, *loc, "non-ASCII character U+%04X (a typographic quote: string "
                                   "denoters use '\"')", utf8_code_point(lx->tok, lx->cur));
                         const char *text = lx->cur, *close = text;
                         while (close < lx->end && *close != '\n' && *close != '"'
                                && !(lx->end - close >= 3 && memcmp(close, "\xe2\x80\x9d", 3) == 0))
                             close++;
                         if (close >= lx->end || *close == '\n')
                             continue; /* no closing quote: the words stay */
                         lx->cur = close + (*close == '"' ? 1 : 3);
                         return lex_string_text(lx, val, text, close);
                       }
        utf8           {
                         lex_error(lx, *loc, "non-ASCII character U+%04X (CuPit source text is ASCII outside "
                                   "strings and comments)", utf8_code_point(lx->tok, lx->cur));
                         continue;
                       }
        [^]            {
                         lex_error(lx, *loc, "invalid UTF-8 byte 0x%02X", (unsigned char)*lx->tok);
                         continue;
                       }
        */
    }
}
