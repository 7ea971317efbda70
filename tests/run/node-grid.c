/* node-grid.c -- EXTERNAL code of node-grid.nn: a Cell record is its data
 * elements in definition order, a grid its nodes row after row
 * (docs/runtime-abi.md). */
#include <stdint.h>
#include <stdio.h>

typedef struct cell {
    int32_t k;
    float v;
} cell;

static void show(const cell *c, int n, int per_row)
{
    for (int i = 0; i < n; i++)
        printf("%d%s", (int)c[i].k, (i + 1) % per_row == 0 ? "\n" : " ");
}

void showMap(const void *m) { show(m, 12, 4); }
void showRow(const void *r) { printf("row: "); show(r, 4, 4); }
