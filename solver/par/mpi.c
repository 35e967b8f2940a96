/* mpi.c — the rank layer (mpi.h): MPI when built with -DTB_MPI, else one process.
 *
 * Every MPI call goes through MPI_CHECK, which reports the call, the MPI error string and the
 * rank, and ends the job with MPI_Abort: a failed collective leaves the ranks out of step, so
 * no rank could carry on. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/check.h"
#include "solver/par/mpi.h"

#ifdef TB_MPI
#include <mpi.h>
#endif

static int g_rank = 0, g_nranks = 1, g_local = 0, g_local_size = 1;
static int g_agreed = 0;         /* the last tb_mpi_agree's result */
static char g_name[160] = "rank 0 of 1";
static void (*g_on_finish)(void) = NULL;
#ifdef TB_MPI
static long g_errors_seen = 0;   /* tb_error_count() at the last agreement */
static char g_kept[4096];        /* messages a rank other than 0 keeps until agreement */
static size_t g_kept_len = 0;
#endif

int tb_rank(void) { return g_rank; }
int tb_nranks(void) { return g_nranks; }
int tb_local_rank(void) { return g_local; }
int tb_local_size(void) { return g_local_size; }
const char *tb_rank_name(void) { return g_name; }
void tb_mpi_on_finish(void (*fn)(void)) { g_on_finish = fn; }

static int g_solo = 0;
int tb_split_rank(void) { return g_solo ? 0 : g_rank; }
int tb_split_nranks(void) { return g_solo ? 1 : g_nranks; }
void tb_mpi_solo(int on) { g_solo = on; }

int tb_mpi_built(void)
{
#ifdef TB_MPI
    return 1;
#else
    return 0;
#endif
}

#ifdef TB_MPI
/* The message sink of ranks other than 0 (check.h): kept until the next agreement (printed
 * there when this is the lowest failing rank) or the end of the job (printed before MPI_Abort). */
static void rank_sink(const char *line)
{
    const size_t len = strlen(line);
    if (g_kept_len + len + 1 < sizeof g_kept) {
        memcpy(g_kept + g_kept_len, line, len + 1);
        g_kept_len += len;
    }
}

static void flush_kept(void)
{
    if (g_kept_len) {
        fprintf(stderr, "tribody: %s: %s", g_name, g_kept);
        fflush(stderr);
        g_kept_len = 0;
        g_kept[0] = '\0';
    }
}

/* Reports a failed MPI call and ends the job. */
static void mpi_fail(int err, const char *expr, const char *file, int line)
{
    char s[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (MPI_Error_string(err, s, &len) != MPI_SUCCESS)
        snprintf(s, sizeof s, "error %d", err);
    flush_kept();
    fprintf(stderr, "tribody: %s: %s:%d: MPI error: %s in '%s'; the job stops\n", g_name, file,
            line, s, expr);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, TB_EXIT_RUNTIME);
    exit(TB_EXIT_RUNTIME);
}
#define MPI_CHECK(expr)                                                                    \
    do {                                                                                   \
        const int tb_mpi_err_ = (expr);                                                    \
        if (tb_mpi_err_ != MPI_SUCCESS)                                                    \
            mpi_fail(tb_mpi_err_, #expr, __FILE__, __LINE__);                              \
    } while (0)
#endif

#ifdef TB_MPI
static int g_inited = 0; /* MPI_Init was called */

/* Was this process started by an MPI launcher (mpirun, mpiexec, srun)? Without one the
 * program runs as one process and never touches the MPI library, exactly as a build without
 * MPI (no singleton start-up). TRIBODY_MPI=1 asks for MPI_Init all the same. */
static int launched_by_mpi(void)
{
    static const char *vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMI_RANK", "PMIX_RANK",
                                 "MPI_LOCALNRANKS", "TRIBODY_MPI"};
    const char *nt = getenv("SLURM_NTASKS");
    for (size_t k = 0; k < sizeof vars / sizeof vars[0]; k++)
        if (getenv(vars[k]))
            return 1;
    return nt && atoi(nt) > 1;
}
#endif

int tb_mpi_init(int *argc, char ***argv)
{
#ifdef TB_MPI
    int provided = 0;
    char host[MPI_MAX_PROCESSOR_NAME] = "?";
    int hl = 0;
    MPI_Comm node;
    if (!launched_by_mpi())
        return 0; /* one process */
    if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
        fprintf(stderr, "tribody: MPI_Init_thread failed: launch with mpirun, or build with "
                        "make MPI=0 for a one-process binary\n");
        return -1;
    }
    g_inited = 1;
    /* errors come back as codes, checked by MPI_CHECK */
    MPI_CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &g_rank));
    MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &g_nranks));
    MPI_CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, g_rank, MPI_INFO_NULL,
                                  &node));
    MPI_CHECK(MPI_Comm_rank(node, &g_local));
    MPI_CHECK(MPI_Comm_size(node, &g_local_size));
    MPI_CHECK(MPI_Comm_free(&node));
    MPI_CHECK(MPI_Get_processor_name(host, &hl));
    snprintf(g_name, sizeof g_name, "rank %d of %d on %s", g_rank, g_nranks, host);
    if (g_rank != 0) {
        /* one voice: rank 0 prints results and notices; the others only their errors */
        if (!freopen("/dev/null", "w", stdout))
            return tb_error(NULL, 0, "%s: cannot silence stdout", g_name);
        tb_set_sink(rank_sink);
    }
#else
    (void)argc;
    (void)argv;
#endif
    return 0;
}

int tb_mpi_finish(int rc)
{
    if (g_on_finish && (rc == 0 || g_agreed != 0)) {
        g_on_finish();
        g_on_finish = NULL;
    }
#ifdef TB_MPI
    if (rc != 0 && g_agreed == 0 && g_nranks > 1) {
        /* a failure the other ranks do not know of: they may wait in a collective */
        flush_kept();
        fflush(stdout);
        fflush(stderr);
        MPI_Abort(MPI_COMM_WORLD, rc);
    }
    flush_kept();
    if (g_inited)
        MPI_Finalize();
#endif
    return rc;
}

int tb_mpi_agree(int rc)
{
#ifdef TB_MPI
    /* the failing ranks that said why come first; then any failing rank */
    const int said = tb_error_count() > g_errors_seen;
    int mine[2] = {rc == 0 ? 2 * g_nranks : said ? g_rank : g_nranks + g_rank,
                   rc < 0 ? TB_EXIT_RUNTIME : rc},
        first = 2 * g_nranks, worst = 0;
    g_errors_seen = tb_error_count();
    if (g_nranks == 1) {
        g_agreed = mine[1];
        return mine[1];
    }
    MPI_CHECK(MPI_Allreduce(&mine[0], &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
    first %= g_nranks; /* the rank to speak (meaningless when none failed) */
    MPI_CHECK(MPI_Allreduce(&mine[1], &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
    if (worst != 0 && first == g_rank && g_rank != 0) {
        flush_kept();
    } else {
        g_kept_len = 0;
        g_kept[0] = '\0';
    }
    g_agreed = worst;
    return worst;
#else
    g_agreed = rc < 0 ? TB_EXIT_RUNTIME : rc;
    return g_agreed;
#endif
}

#ifdef TB_MPI
/* MPI_Reduce in place at the root, then the root's bits to everyone (floating-point sums that
 * every rank must hold alike). */
static int sum_at_root(void *buf, size_t count, MPI_Datatype type)
{
    if (g_nranks == 1 || count == 0)
        return 0;
    if (g_rank == 0)
        MPI_CHECK(MPI_Reduce(MPI_IN_PLACE, buf, (int)count, type, MPI_SUM, 0, MPI_COMM_WORLD));
    else
        MPI_CHECK(MPI_Reduce(buf, NULL, (int)count, type, MPI_SUM, 0, MPI_COMM_WORLD));
    MPI_CHECK(MPI_Bcast(buf, (int)count, type, 0, MPI_COMM_WORLD));
    return 0;
}
#endif

int tb_mpi_sum_d(double *buf, size_t count)
{
#ifdef TB_MPI
    return sum_at_root(buf, count, MPI_DOUBLE);
#else
    (void)buf;
    (void)count;
    return 0;
#endif
}

int tb_mpi_sum_f(float *buf, size_t count)
{
#ifdef TB_MPI
    return sum_at_root(buf, count, MPI_FLOAT);
#else
    (void)buf;
    (void)count;
    return 0;
#endif
}

int tb_mpi_sum_u64(unsigned long long *buf, size_t count)
{
#ifdef TB_MPI
    if (g_nranks == 1 || count == 0)
        return 0;
    /* unsigned sums wrap modulo 2^64: two's-complement sums of the signed words, exact */
    MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, buf, (int)count, MPI_UNSIGNED_LONG_LONG, MPI_SUM,
                            MPI_COMM_WORLD));
#else
    (void)buf;
    (void)count;
#endif
    return 0;
}

double tb_mpi_max_d(double v)
{
#ifdef TB_MPI
    double r = v;
    if (g_nranks > 1)
        MPI_CHECK(MPI_Allreduce(&v, &r, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD));
    return r;
#else
    return v;
#endif
}

long long tb_mpi_max_ll(long long v)
{
#ifdef TB_MPI
    long long r = v;
    if (g_nranks > 1)
        MPI_CHECK(MPI_Allreduce(&v, &r, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD));
    return r;
#else
    return v;
#endif
}

int tb_mpi_gather_d(const double *mine, size_t count, double *all)
{
#ifdef TB_MPI
    if (g_nranks > 1) {
        MPI_CHECK(MPI_Gather(mine, (int)count, MPI_DOUBLE, all, (int)count, MPI_DOUBLE, 0,
                             MPI_COMM_WORLD));
        return 0;
    }
#endif
    memcpy(all, mine, count * sizeof *mine);
    return 0;
}

int tb_mpi_bcast(void *buf, size_t bytes, int root)
{
#ifdef TB_MPI
    if (g_nranks > 1)
        MPI_CHECK(MPI_Bcast(buf, (int)bytes, MPI_BYTE, root, MPI_COMM_WORLD));
#else
    (void)buf;
    (void)bytes;
    (void)root;
#endif
    return 0;
}

int tb_mpi_same(const void *buf, size_t bytes)
{
    /* FNV-1a of the bytes; the minimum and the maximum over the ranks agree iff all do */
    const unsigned char *p = (const unsigned char *)buf;
    unsigned long long h = 1469598103934665603ULL;
    for (size_t i = 0; i < bytes; i++)
        h = (h ^ p[i]) * 1099511628211ULL;
#ifdef TB_MPI
    if (g_nranks > 1) {
        unsigned long long lo = h, hi = h;
        MPI_CHECK(MPI_Allreduce(&h, &lo, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, MPI_COMM_WORLD));
        MPI_CHECK(MPI_Allreduce(&h, &hi, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, MPI_COMM_WORLD));
        return lo == hi;
    }
#endif
    (void)h;
    return 1;
}

const char *tb_ranks_desc(char *buf, size_t len, int gpu)
{
    const char *share = getenv("TRIBODY_SHARE_GPUS");
    if (g_nranks == 1)
        snprintf(buf, len, "1 process%s", gpu ? ", 1 GPU" : "");
    else if (gpu && share && !strcmp(share, "1"))
        snprintf(buf, len, "%d ranks on GPUs, shared where fewer (TRIBODY_SHARE_GPUS=1)", g_nranks);
    else if (gpu)
        snprintf(buf, len, "%d ranks, %d GPUs", g_nranks, g_nranks);
    else
        snprintf(buf, len, "%d ranks on CPUs", g_nranks);
    return buf;
}

int tb_mpi_fault(void)
{
    static long calls = 0;
    const char *r = getenv("TRIBODY_FAULT_RANK"), *a = getenv("TRIBODY_FAULT_AFTER");
    if (!r || atoi(r) != g_rank)
        return 0;
    if (++calls != (a ? atol(a) : 1))
        return 0;
    tb_error(NULL, 0, "injected fault at force evaluation %ld (TRIBODY_FAULT_RANK=%s)", calls, r);
    return 1;
}

void tb_mpi_barrier(void)
{
#ifdef TB_MPI
    if (g_nranks > 1)
        MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
#endif
}
