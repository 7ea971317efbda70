/* print_c_internal.h -- state of the C printer (print_c.c). */
#ifndef CUPITC_PRINT_C_INTERNAL_H
#define CUPITC_PRINT_C_INTERNAL_H

#include "cupitc/emit.h"
#include "cupitc/ir.h"

extern const char pc_prelude[];

#endif
