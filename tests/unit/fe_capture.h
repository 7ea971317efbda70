/* fe_capture.h -- shared by the front-end Check suites: runs diagnostics
 * into a memory buffer so that tests can count and read the messages.
 *
 * Usage: capture_begin(); ...code that reports...; capture_end();
 * then captured (the text) and diag_error_count(). */
#ifndef FE_CAPTURE_H
#define FE_CAPTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cupitc/diag.h"

static char *captured;
static size_t captured_len;
static FILE *capture_stream;

static void capture_begin(void)
{
    free(captured);
    captured = NULL;
    capture_stream = open_memstream(&captured, &captured_len);
    diag_configure(&(DiagOptions){.out = capture_stream, .color = false, .error_limit = 0});
    diag_reset();
}

static void capture_end(void)
{
    fflush(capture_stream);
    fclose(capture_stream);
    capture_stream = NULL;
}

#endif
