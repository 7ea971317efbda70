/* batch.c -- EXTERNAL helpers for batch.nn: the I/O areas of replicate.c. */
#include "replicate.c"
