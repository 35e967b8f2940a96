/* gpu_comm.cu — the sums over the ranks on GPUs: one NCCL communicator, bootstrapped over MPI
 * (rank 0's ncclUniqueId broadcast with MPI_Bcast), on the device of this rank.
 *
 * NCCL is opened at run time (dlopen of libnccl.so.2, found like any shared library: beside the
 * CUDA libraries or through LD_LIBRARY_PATH), not linked: the one binary keeps running on
 * machines without NCCL — one process, or the CPU backend — and only a multi-rank GPU run
 * needs it, which then says so if it is missing. nccl.h gives the types at compile time.
 *
 * Every NCCL call goes through NCCL_CHECK: on failure it reports the call, NCCL's error
 * string and last message, and returns -1 (the caller's failure then ends the job, mpi.h).
 *
 * Ranks that share a GPU (TRIBODY_SHARE_GPUS=1 with more ranks on a node than GPUs) cannot be
 * in one NCCL communicator: NCCL refuses two ranks on one device ("Duplicate GPU detected").
 * Then, on every rank alike, the sums go through host memory and MPI (tb_mpi_sum_*): slower,
 * the same numbers, and no NCCL needed — a way to run and check the decomposition on fewer
 * GPUs than ranks, not a way to speed anything up. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/check.h"
#include "solver/gpu/gpu.h"
#include "solver/gpu/gpu_internal.h"
#include "solver/par/mpi.h"

/* The ranks share GPUs: sums through host memory and MPI (set by gpu_comm_init). */
static struct {
    int on, device;
    void *buf;
    size_t bytes;
} g_host;

/* Collective: 1 on every rank when some node holds more ranks than GPUs (only allowed with
 * TRIBODY_SHARE_GPUS=1, gpu_device.cu's gpu_pick_device), else 0. */
static int ranks_share_gpus(void)
{
    return tb_mpi_max_ll(tb_local_size() > gpu_count(NULL)) ? 1 : 0;
}

static int host_sum(void *d_buf, size_t count, int type, cudaStream_t s)
{
    const size_t bytes = count * (type == 1 ? sizeof(float) : sizeof(double));
    if (bytes > g_host.bytes) {
        void *p = realloc(g_host.buf, bytes);
        if (!p)
            return tb_error(NULL, 0, "%s: out of host memory for the sums over the ranks "
                                     "(%zu bytes)", tb_rank_name(), bytes);
        g_host.buf = p;
        g_host.bytes = bytes;
    }
    CUDA_CHECK(cudaMemcpyAsync(g_host.buf, d_buf, bytes, cudaMemcpyDeviceToHost, s));
    CUDA_CHECK(gpu_wait_stream(s));
    const int rc = type == 0   ? tb_mpi_sum_d((double *)g_host.buf, count)
                   : type == 1 ? tb_mpi_sum_f((float *)g_host.buf, count)
                               : tb_mpi_sum_u64((unsigned long long *)g_host.buf, count);
    if (rc != 0)
        return -1;
    CUDA_CHECK(cudaMemcpyAsync(d_buf, g_host.buf, bytes, cudaMemcpyHostToDevice, s));
    CUDA_CHECK(gpu_wait_stream(s)); /* the buffer is reused by the next sum */
    return 0;
}

/* Sets host mode when the ranks share GPUs: 1 (host mode) or 0. Collective on its first call. */
static int host_mode_init(int device)
{
    if (g_host.on)
        return 1;
    const int shared = ranks_share_gpus();
    g_host.on = shared;
    g_host.device = device;
    return shared;
}

#ifdef TB_NCCL
#include <nccl.h>

static struct {
    void *lib;
    decltype(&ncclGetUniqueId) get_unique_id;
    decltype(&ncclCommInitRank) init_rank;
    decltype(&ncclAllReduce) all_reduce;
    decltype(&ncclGroupStart) group_start;
    decltype(&ncclGroupEnd) group_end;
    decltype(&ncclGetErrorString) error_string;
    decltype(&ncclCommDestroy) destroy;
    decltype(&ncclGetVersion) get_version;
    ncclComm_t comm;
    int device;
    int ready;
} g_nccl;

#define NCCL_CHECK(expr)                                                                   \
    do {                                                                                   \
        ncclResult_t tb_nccl_err_ = (expr);                                                \
        if (tb_nccl_err_ != ncclSuccess)                                                   \
            return tb_error(__FILE__, __LINE__, "NCCL error %d: %s in '%s' (%s, GPU %d); "  \
                            "NCCL_DEBUG=WARN says more", (int)tb_nccl_err_,                \
                            g_nccl.error_string ? g_nccl.error_string(tb_nccl_err_) : "?", \
                            #expr, tb_rank_name(), g_nccl.device);                         \
    } while (0)

static int nccl_open(void)
{
    const char *names[] = {"libnccl.so.2", "libnccl.so"};
    for (int k = 0; k < 2 && !g_nccl.lib; k++)
        g_nccl.lib = dlopen(names[k], RTLD_NOW | RTLD_GLOBAL);
    if (!g_nccl.lib)
        return tb_error(NULL, 0, "%d ranks on GPUs need NCCL, but libnccl.so.2 cannot be "
                                 "opened (%s): install NCCL or add its lib directory to "
                                 "LD_LIBRARY_PATH (docs/scaling.md)", tb_nranks(), dlerror());
#define TB_NCCL_SYM(field, name)                                                           \
    if (!(*(void **)&g_nccl.field = dlsym(g_nccl.lib, name)))                              \
        return tb_error(NULL, 0, "libnccl.so.2 has no %s: NCCL 2.12 or later is needed", name);
    TB_NCCL_SYM(get_unique_id, "ncclGetUniqueId")
    TB_NCCL_SYM(init_rank, "ncclCommInitRank")
    TB_NCCL_SYM(all_reduce, "ncclAllReduce")
    TB_NCCL_SYM(group_start, "ncclGroupStart")
    TB_NCCL_SYM(group_end, "ncclGroupEnd")
    TB_NCCL_SYM(error_string, "ncclGetErrorString")
    TB_NCCL_SYM(destroy, "ncclCommDestroy")
    TB_NCCL_SYM(get_version, "ncclGetVersion")
#undef TB_NCCL_SYM
    return 0;
}

static void comm_destroy(void)
{
    if (g_nccl.ready)
        g_nccl.destroy(g_nccl.comm);
    g_nccl.ready = 0;
}

int gpu_comm_init(int device)
{
    ncclUniqueId id;
    int rc;
    if (g_nccl.ready) {
        if (device != g_nccl.device)
            return tb_error(NULL, 0, "internal: NCCL communicator on GPU %d, backend on GPU %d",
                            g_nccl.device, device);
        return 0;
    }
    if (host_mode_init(device))
        return 0; /* ranks share GPUs: sums over MPI, no NCCL */
    g_nccl.device = device;
    /* every rank learns whether every rank could open NCCL before any waits on another */
    rc = nccl_open() != 0;
    if (tb_mpi_agree(rc) != 0)
        return -1;
    memset(&id, 0, sizeof id);
    if (tb_rank() == 0)
        NCCL_CHECK(g_nccl.get_unique_id(&id));
    tb_mpi_bcast(&id, sizeof id, 0);
    CUDA_CHECK(cudaSetDevice(device));
    NCCL_CHECK(g_nccl.init_rank(&g_nccl.comm, tb_nranks(), id, tb_rank()));
    g_nccl.ready = 1;
    tb_mpi_on_finish(comm_destroy);
    return 0;
}

int gpu_comm_begin(void)
{
    if (g_host.on)
        return 0;
    NCCL_CHECK(g_nccl.group_start());
    return 0;
}

int gpu_comm_end(void)
{
    if (g_host.on)
        return 0;
    NCCL_CHECK(g_nccl.group_end());
    return 0;
}

int gpu_comm_sum(void *d_buf, size_t count, int type, cudaStream_t s)
{
    if (g_host.on)
        return host_sum(d_buf, count, type, s);
    const ncclDataType_t t = type == 0 ? ncclFloat64 : type == 1 ? ncclFloat32 : ncclUint64;
    if (!g_nccl.ready)
        return tb_error(NULL, 0, "internal: NCCL sum before gpu_comm_init");
    NCCL_CHECK(g_nccl.all_reduce(d_buf, d_buf, count, t, ncclSum, g_nccl.comm, s));
    return 0;
}

#else /* a build without MPI or nccl.h: one rank, nothing to sum */

int gpu_comm_init(int device)
{
    if (tb_nranks() == 1)
        return 0;
    if (host_mode_init(device))
        return 0;
    return tb_error(NULL, 0, "this build has no NCCL (nccl.h was not found when it was "
                             "built): rebuild with NCCL_H=/path/to/nccl.h, or run one rank "
                             "per job on GPUs");
}
int gpu_comm_begin(void) { return 0; }
int gpu_comm_end(void) { return 0; }
int gpu_comm_sum(void *d_buf, size_t count, int type, cudaStream_t s)
{
    return g_host.on ? host_sum(d_buf, count, type, s) : 0;
}

#endif
