/* cupit_stdlib.h -- the CuPit standard library as seen from C.
 *
 * Each function is the EXTERNAL subroutine of the same name (docs/stdlib.md
 * gives the CuPit declarations).  All are weak symbols: a C file linked into
 * a program that defines one of them replaces the library's version.
 */
#ifndef CUPIT_STDLIB_H
#define CUPIT_STDLIB_H

#include "cupit_rt.h"

/* Arithmetic: the activation function is tanh (see docs/stdlib.md). */
cp_real sigmoid(cp_real x);
cp_real sigmoidPrime(cp_real x); /* derivative at the net input x */
cp_real absReal(cp_real x);
cp_real signReal(cp_real x);     /* -1, 0 or 1 */
cp_real minReal(cp_real x, cp_real y);
cp_real maxReal(cp_real x, cp_real y);

/* Training examples (FANN text format).  The reader's limits
 * (docs/stdlib.md): hitting one is a run-time error that names it. */
#define RT_DATA_MAX_EXAMPLES 100000000   /* examples in one file */
#define RT_DATA_MAX_VALUES 100000000     /* inputs, and outputs, per example */
#define RT_DATA_MAX_BYTES ((long long)1 << 32) /* size of one file */
#define RT_DATA_MAX_TOKEN 64             /* characters of one number */
void openDatafile(const char *name, cp_int *iInputsN, cp_int *rInputsN,
                  cp_int *iOutputsN, cp_int *rOutputsN, cp_int *examplesN);
void initIOareasxRxR(cp_io *rIn, cp_io *rOut, cp_int maxreplicates);
void getExamplesxRxR(cp_io *rIn, cp_io *rOut, cp_int howmany, cp_int *firstI);

/* Test examples and classification accuracy. */
void openTestfile(const char *name, cp_int *examplesN);
void getTestExamplesxRxR(cp_io *rIn, cp_io *rOut, cp_int howmany,
                         cp_int *firstI);
void initIOareaxR(cp_io *area, cp_int maxreplicates, cp_int perReplicate);
void countCorrectxR(cp_io *actual, cp_io *target, cp_int howmany,
                    cp_int *correct);

/* Output. */
void protocolError(cp_int epochNumber, cp_real totalError, cp_int nrOfErrors);
void pInt(cp_int me);
void pReal(cp_real me);
void pString(const char *me);
/* True once --max-epochs is reached (or Ctrl-C was pressed while the
 * program asks): a program that asks ends its training loop itself and
 * goes on (tests, saving); one that never asks ends at the limit. */
cp_bool trainingDone(void);

/* Every network variable of the program, with its topology, to / from a
 * file (the name goes through --data NAME=FILE like a data set's); the
 * networks must not be replicated.  Format: docs/runtime-abi.md §11. */
void saveNetworks(const char *file);
void loadNetworks(const char *file);

/* Program parameters (--param NAME=VALUE). */
cp_int intParam(const char *name, cp_int dflt);
cp_real realParam(const char *name, cp_real dflt);
cp_int intParamIn(const char *name, cp_int dflt, cp_int min, cp_int max);
cp_real realParamIn(const char *name, cp_real dflt, cp_real min, cp_real max);

#endif
