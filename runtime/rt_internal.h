/* rt_internal.h -- declarations shared between the files of libcupitrt.
 *
 * Not part of the ABI: generated code includes only cupit_rt.h.  Holds the
 * parsed program options, the memory limit hook, and the connection-list
 * machinery that every topology change (CONNECT, EXTEND, REPLICATE ME, ...)
 * uses to rebuild a bundle's CSR arrays.
 */
#ifndef CUPIT_RT_INTERNAL_H
#define CUPIT_RT_INTERNAL_H

#include "cupit_rt.h"

#include <stdio.h>

/* Exit statuses of generated programs (docs/running.md). */
enum { RT_EXIT_OK = 0, RT_EXIT_USAGE = 2, RT_EXIT_RUNTIME = 3 };

/* ---- options (rt_options.c) ------------------------------------------- */

typedef struct rt_data_alias {
    const char *name; /* name passed to openDatafile, e.g. "Data" */
    const char *file; /* the file it stands for */
    bool used;        /* looked up by the program (unused ones are reported) */
} rt_data_alias;

typedef struct rt_param {
    const char *name, *value;
    bool used; /* queried by intParam/realParam (unused ones are reported) */
} rt_param;

enum { RT_MAX_ALIASES = 16, RT_MAX_PARAMS = 32, RT_MAX_SETS = 32 };

typedef struct rt_options {
    const char *program;     /* program name for messages */
    uint64_t seed;
    int threads;             /* 0: OpenMP default */
    bool bias;               /* prepend a constant input column */
    bool symmetric;          /* targets t in [0, 1] read as 2t - 1 */
    bool deterministic;      /* results independent of the thread count */
    double bias_value;
    int64_t max_epochs;      /* 0: no limit */
    int64_t report_every;    /* --report N: epoch lines every N epochs (0, 1: all) */
    bool summary;            /* --summary: a last line on stderr (also on a tty) */
    int64_t csv_outputs;     /* --csv-outputs N: target columns of CSV data (0: 1) */
    const char *protocol;    /* protocol file, or NULL */
    size_t memory_limit;     /* 0: none */
    int64_t par_work;        /* --par-work N: least work of a parallel loop (0: the program's) */
    int naliases;
    rt_data_alias aliases[RT_MAX_ALIASES];
    int nparams;
    rt_param params[RT_MAX_PARAMS];
    int nsets;
    rt_param sets[RT_MAX_SETS]; /* --set NAME=VALUE, applied by rt_set_globals */
} rt_options;

extern rt_options rt_opt;

/* --deterministic in a program whose parallel code may draw RANDOM
 * (rt_set_random_in_parallel): loops of the runtime that run the program's
 * MERGE procedures stay serial, so that the draws come in one order from
 * one stream whatever the thread count. */
bool rt_random_serial(void);

/* Fills rt_opt from argv and the environment; returns 0, or the exit status
 * for --help (0 after printing usage) / a bad option (2, after a message).
 * `done` is set when the program must stop (help or error). */
int rt_parse_options(int argc, char **argv, bool *done);
/* The file an openDatafile name refers to (the name itself if no alias). */
const char *rt_data_file(const char *name);
/* Whether only blanks follow a number strtol or strtod read up to end: a
 * value "5 " is 5, as " 5" is (both skip blanks in front). */
bool rt_number_end(const char *end);
/* strtod for text that becomes a Real: the double returned rounds (cast to
 * cp_real) to the Real nearest to the text, also where the nearest double
 * lies exactly halfway between two floats and the text does not. */
double rt_strtoreal(const char *s, char **end);
/* A Real for a message: the fewest digits (%g with 6 up to 9) that read
 * back as v, so that a value just beside a bound (1.0000001) does not
 * print as the bound; a NaN is "nan" whatever its sign, as pReal prints
 * it.  Returns buf->s. */
typedef struct { char s[32]; } rt_real_text;
const char *rt_real_str(rt_real_text *buf, cp_real v);
/* "Int", "Real", ... for --set's messages and --help. */
const char *rt_global_kind_name(rt_global_kind k);
/* A String argument of a standard subroutine as text: an uninitialized
 * String is a NULL pointer (variables start as zero, compiler-dependent.md
 * section 3), which the library reads as "", as pString prints it. */
const char *rt_lib_str(const char *s);
/* Value of --param NAME=VALUE, or NULL; marks it used. */
const char *rt_param_value(const char *name);
/* Records a file the program has read (device and inode), described as
 * `what` ("data set \"Data\""); `data`: a data file rather than a network
 * file. */
void rt_note_input(const char *path, const char *what, bool data);
/* Before `path` is written as `what` ("protocol file"): if it is one of
 * the files read so far (only data files when `data_only`), or with
 * `aliases` the file of any --data option, the program says so and ends
 * with status 2, the same file being the same device and inode (also
 * through a symbolic link); so does the protocol file once it is open. */
void rt_check_output(const char *path, const char *what, bool aliases, bool data_only);
struct stat;
/* Whether the protocol file is open and is the file `st` describes. */
bool rt_protocol_is(const struct stat *st);
/* The protocol file: --protocol FILE, or PROGRAM.protocol.tsv (built in
 * buf); NULL for none (--no-protocol). */
const char *rt_protocol_file(char *buf, size_t size);

/* The network registered (rt_register_networks) under the name of len
 * characters at name, or NULL: for messages that have only the name. */
const rt_net *rt_net_named(const char *name, size_t len);

/* rt_set_globals without storing: exits with status 2 where it would
 * (rt_globals.c). */
void rt_check_sets(const rt_global_var *vars, int n);

/* ---- run-time errors without a source position ------------------------- */

/* The position used by library routines that have no .nn position. */
#define RT_NOWHERE ((rt_srcpos){ NULL, 0 })

/* Every way of ending the program that parallel code can take (rt_error,
 * rt_finish_exit at --max-epochs, refusing to overwrite an input file)
 * calls this first: the first thread to call it ends the program, any
 * other one waits silently until the process is gone, so one message and
 * one exit status come out.  The thread that ends the program may call it
 * again (an error while it reports). */
void rt_claim_exit(void);

/* ---- memory (rt_memory.c) ---------------------------------------------- */

void rt_set_memory_limit(size_t bytes); /* 0 = unlimited */

/* ---- random numbers (rt_random.c) -------------------------------------- */

/* Re-creates the per-thread streams for the current thread count. */
void rt_random_setup(uint64_t seed);
void rt_random_release(void);

/* ---- stdlib state (stdlib_*.c) ----------------------------------------- */

void rt_stdlib_release(void);  /* data sets and I/O areas */
void rt_protocol_close(void);
/* At the end of the run: the summary line (--summary, or stderr a
 * terminal). */
void rt_protocol_finish(void);
/* Ends the program with rt_finish's status; inside a parallel region
 * (protocolError at --max-epochs called from network code) it reports as
 * rt_finish does but releases nothing, because other threads may still
 * use the data, and ends with _exit. */
_Noreturn void rt_finish_exit(void);
/* Seconds since rt_init. */
double rt_seconds(void);

/* ---- bundle rebuilding (rt_storage.c) ---------------------------------- */

/* A complete new connection list of one bundle, in destination order then
 * source order.  `from[k]` is the index of the old connection whose record
 * connection k takes (a copy), or -1 for a new, zero-filled connection. */
typedef struct rt_conn_list {
    int32_t ndst;       /* destination nodes after the change */
    int32_t *dst_start; /* [ndst + 1] */
    int32_t n;          /* connections */
    int32_t *src;       /* [n] source node of each connection */
    int32_t *from;      /* [n] */
} rt_conn_list;

/* Allocates the arrays of a list for ndst destinations and n connections. */
void rt_conn_list_init(rt_conn_list *list, int32_t ndst, int64_t n,
                       rt_srcpos where, const char *what);
void rt_conn_list_release(rt_conn_list *list);

/* Makes `list` the topology of bundle b (source group now has nsrc nodes):
 * moves the records of replicate 0, rebuilds the by-source index and the
 * dense flag.  The list keeps `from` and `dst_start`; `src` moves into the
 * bundle (list->src becomes NULL). */
void rt_bundle_install(rt_net *net, int32_t b, rt_conn_list *list,
                       int32_t nsrc, rt_srcpos where);

/* Renumbering of one group: old node i becomes ncopy[i] nodes starting at
 * new index first[i]; new node j stems from origin[j]. */
typedef struct rt_group_map {
    int32_t old_n, new_n;
    int32_t *first, *ncopy, *origin;
} rt_group_map;

/* Applies the renumbering of group g to every bundle touching it and to
 * the node records (copies), then frees the map's arrays. */
void rt_group_renumber(rt_net *net, int32_t g, rt_group_map *map,
                       rt_srcpos where);

/* Allocates zero-filled records for one replicate at the current
 * capacities / frees the records of replicate r (not the reps array). */
void rt_rep_alloc(rt_net *net, rt_rep *rep, rt_srcpos where);
void rt_rep_free(rt_net *net, int32_t r);

/* Grows the node capacity of group g to at least `need` nodes. */
void rt_group_reserve(rt_net *net, int32_t g, int64_t need, rt_srcpos where);

/* Calls the bundle's initializer for the new connections at the given
 * positions, ordered by source index, then destination index. */
void rt_init_new_conns(rt_net *net, int32_t b, const rt_conn_list *list);

/* The replicate count for INTO lo...hi (rt_replicate.c, docs/replication.md). */
int32_t rt_choose_replicates(int32_t lo, int32_t hi, int64_t work, int threads);

/* ---- lane-blocked replicates (rt_lanes.c) ------------------------------ */

/* State U -> R(k) with lane blocks: allocates the blocks, fills every lane
 * (padding included) from replicate 0 and frees the plain records (reps
 * becomes NULL, nreps k). */
void rt_lanes_enter(rt_net *net, int32_t k, rt_srcpos where);
/* MERGE in lane state: tree merge per record, result in every lane. */
void rt_lanes_merge(rt_net *net, rt_srcpos where);
/* rt_alloc on a cache-line (64-byte) boundary: lane records whose size is
 * a multiple of 64 then put every lane array in one cache line. */
void *rt_alloc_lines(rt_srcpos where, size_t bytes);
/* Fails with "out of memory (allocating `bytes` bytes, ...)" now if that
 * much more memory cannot be had: past --memory-limit, or (from 256 MB
 * on) refused by the system as one allocation, which is tried and freed.
 * For state made of many allocations (lane blocks): a size that cannot
 * fit fails at once with its total, not after filling the memory piece
 * by piece.  Books nothing. */
void rt_check_room(rt_srcpos where, size_t bytes);
/* MERGE into block 0 only (all its lanes), and the copy of block 0 to the
 * other blocks that completes it. */
void rt_lanes_merge_first(rt_net *net, rt_srcpos where);
void rt_lanes_spread(rt_net *net, rt_srcpos where);
/* REPLICATE INTO 1 in lane state: merged values into a new plain
 * replicate 0, blocks freed, state U. */
void rt_lanes_leave(rt_net *net, rt_srcpos where);
/* Where a lane record keeps a plain record's bytes (rt_lane_plan.c): runs
 * of plain bytes [plain_off, plain_off + width) whose lane l is at
 * lane_off + l * stride (stride 0: an element all lanes share).  Built by
 * probing the put function. */
typedef struct rt_lane_run {
    uint32_t plain_off, lane_off, width, stride;
    bool shared;      /* lane_off is in the shared record */
} rt_lane_run;

enum { RT_LANE_MAX_RUNS = 64, RT_LANE_PLAN_MAX_BYTES = 512 };

typedef struct rt_lane_plan {
    bool ok;          /* false: use the get/put functions */
    int32_t nruns;
    rt_lane_run run[RT_LANE_MAX_RUNS];
} rt_lane_plan;

bool rt_lane_plan_make(rt_lane_plan *plan, const rt_lane_desc *lane,
                       size_t plain_size, rt_srcpos where);
/* The plan of a lane type, made on first use and kept for the rest of the
 * run; NULL when the layout is not known (use get/put). */
const rt_lane_plan *rt_lane_plan_of(const rt_lane_desc *lane, size_t plain_size,
                                    rt_srcpos where);

/* Frees the blocks (rt_net_destroy in lane state). */
void rt_lanes_free(rt_net *net);
/* The count for INTO lo...hi with lanes: k rounded up to a multiple of
 * RT_LANES if that stays <= hi, else down if that stays >= lo, else k. */
int32_t rt_lane_count(int32_t k, int32_t lo, int32_t hi);

/* Common state checks with their run-time error messages. */
void rt_require_unreplicated(const rt_net *net, const char *what,
                             rt_srcpos where);

#endif
