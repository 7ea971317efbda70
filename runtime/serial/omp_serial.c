/* omp_serial.c -- the OpenMP API for the serial runtime library.
 *
 * libcupitrt-serial.a is the runtime compiled without -fopenmp, for
 * programs built with `cupitc --no-openmp`.  Its sources still call a few
 * omp_* functions; these are their one-thread meanings. */
#include <omp.h>

int omp_in_parallel(void) { return 0; }
int omp_get_max_threads(void) { return 1; }
int omp_get_num_threads(void) { return 1; }
int omp_get_thread_num(void) { return 0; }
void omp_set_num_threads(int n) { (void)n; }
void omp_set_dynamic(int d) { (void)d; }
