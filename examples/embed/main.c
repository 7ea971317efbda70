/* main.c -- uses the compiled CuPit program xor.nn from C (cupit_embed.h):
 *
 *   xor-app train --data ../data/xor.data --data trained=xor.net
 *   xor-app --data trained=xor.net          (classifies the four inputs)
 *
 * Options after the first argument go to the CuPit program. */
#include <stdio.h>
#include <string.h>

#include "cupit_embed.h"

int main(int argc, char **argv)
{
    int train = argc > 1 && strcmp(argv[1], "train") == 0;
    if (train) { /* the CuPit program sees the options without "train" */
        argv[1] = argv[0];
        argv++;
        argc--;
    }
    cupit_init(argc, argv);
    if (train) {
        cupit_call("train");
        return cupit_finish();
    }
    cupit_call("restore");
    cp_io *in = cupit_io("xIn"), *out = cupit_io("xOut");
    static const cp_real x[4][2] = {{-1, -1}, {-1, 1}, {1, -1}, {1, 1}};
    for (int i = 0; i < 4; i++) {
        cp_real *v = in->data;
        v[0] = x[i][0];
        v[1] = x[i][1];
        cupit_call("predict");
        printf("%2g %2g -> %+.3f\n", (double)x[i][0], (double)x[i][1],
               (double)((cp_real *)out->data)[0]);
    }
    return cupit_finish();
}
