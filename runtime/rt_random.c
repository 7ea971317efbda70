/* rt_random.c -- RANDOM for generated programs.
 *
 * xoshiro256** generators, one stream per OpenMP thread, each seeded from
 * the program seed and the thread number with splitmix64.  A run is
 * therefore reproducible for a given seed and thread count.
 */
#include "rt_internal.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>

/* One stream, padded to a cache line so that threads do not share lines. */
typedef struct rt_stream {
    uint64_t s[4];
    uint64_t pad[4];
} rt_stream;

static rt_stream *streams;
static int nstreams;

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static uint64_t next(rt_stream *st)
{
    uint64_t *s = st->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

void rt_random_release(void)
{
    rt_free(streams, (size_t)nstreams * sizeof *streams);
    streams = NULL;
    nstreams = 0;
}

void rt_random_setup(uint64_t seed)
{
    rt_random_release();
    int n = omp_get_max_threads();
    if (n < 1)
        n = 1;
    streams = rt_alloc(RT_NOWHERE, (size_t)n * sizeof *streams);
    nstreams = n;
    for (int t = 0; t < n; t++) {
        uint64_t x = seed ^ ((uint64_t)t * 0xd1b54a32d192ed03u);
        for (int i = 0; i < 4; i++)
            streams[t].s[i] = splitmix64(&x);
    }
}

void rt_seed(uint64_t seed)
{
    rt_random_setup(seed);
}

/* 64 random bits from the calling thread's stream. */
static uint64_t random_bits(void)
{
    if (!streams) {
        /* Used before rt_init (library tests): the default seed. */
#pragma omp critical(rt_random_setup)
        if (!streams)
            rt_random_setup(rt_opt.seed);
    }
    int t = omp_get_thread_num();
    if (t < nstreams)
        return next(&streams[t]);
    uint64_t r; /* more threads than at start-up (nested teams): share one */
#pragma omp critical(rt_random_shared)
    r = next(&streams[t % nstreams]);
    return r;
}

cp_int rt_random_int(rt_srcpos where, cp_int lo, cp_int hi)
{
    if (lo > hi)
        rt_error(where, "RANDOM of the empty interval %d...%d", (int)lo, (int)hi);
    uint64_t range = (uint64_t)((int64_t)hi - lo) + 1;
    uint64_t limit = UINT64_MAX - UINT64_MAX % range; /* reject the tail */
    uint64_t x;
    do
        x = random_bits();
    while (x >= limit);
    return (cp_int)(lo + (int64_t)(x % range));
}

cp_real rt_random_real(rt_srcpos where, cp_real lo, cp_real hi)
{
    rt_real_text l, h;
    if (!(lo <= hi)) /* digits that show the bounds in the wrong order */
        rt_error(where, "RANDOM of the empty interval %s...%s", rt_real_str(&l, lo),
                 rt_real_str(&h, hi));
    if (lo == hi)
        return lo;
    /* no uniform distribution on an infinite interval; lo + (hi - lo) * u
       would be a NaN (-inf + inf) or the largest Real, not a value of it */
    if (isinf(lo) || isinf(hi))
        rt_error(where, "RANDOM of the unbounded interval %s...%s", rt_real_str(&l, lo),
                 rt_real_str(&h, hi));
    double u = (double)(random_bits() >> 11) * 0x1.0p-53; /* [0, 1) */
    cp_real r = (cp_real)(lo + ((double)hi - lo) * u);
    if (r >= hi) { /* rounding to Real may reach hi */
#ifdef CUPIT_REAL_DOUBLE
        r = nextafter(hi, lo);
#else
        r = nextafterf(hi, lo);
#endif
    }
    return r;
}
