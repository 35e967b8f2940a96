/* gpu_bench.cu — the kernels of `tribody bench` that are not the solver: the papers' map-only
 * dummy kernels in 3D and 2D, the 2D paper's Euclidean distance matrix (EDM), an FMA peak
 * probe, and CUDA-event timing around the solver. Design and verification: gpu_bench.h.
 *
 * Each map gets its own kernel instance (a template on its registry index, expanded from
 * maps3d.def / maps2d.def), so no run-time dispatch is timed: the kernel is exactly the map's
 * first()/next() plus the per-thread work. lambda2d's root variants are instances of their
 * own too (the root is a template argument written into a copy of the launch, so the
 * compiler folds the variant switch of map2d_lambda2d_row_with away).
 *
 * Timing: a CUDA event on the legacy default stream before the first launch of a plan and
 * one after the last; all launches go to the default stream in order. The host waits for the
 * stop event. Device buffers and events are allocated once and kept (gpu_bench_release). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "maps3d/dispatch.h"
#include "common/check.h"
#include "solver/gpu/gpu_bench.h"
#include "solver/gpu/gpu_internal.h"

#define BENCH_SLOTS 256u          /* signature slots, spread over L2 to keep atomics cheap */
#define BENCH_MAGIC 0xFFFFFFFFu   /* never equals i + j + k < 3n <= 3e8 */
#define BENCH_SENTINEL 0xFFFFFFFFu /* EDM cells not written (a NaN; sqrtf of s >= 0 never is) */
#define BENCH_EDM_SAMPLES 64
#define BENCH_FMA_CHAINS 16
#define BENCH_FMA_STEPS (1 << 16)
#define BENCH_FMA_THREADS 256

/* ---- the maps, by registry index, for direct instantiation --------------------------- */

template <int ID> struct map3d_by_id;
#define MAP3D_ENTRY(nm, summary, max_nb, persistent)                                       \
    template <> struct map3d_by_id<MAP3D_ID_##nm> {                                        \
        static constexpr bool is_persistent = (persistent);                                \
        static __device__ __forceinline__ int first(const map3d_launch *L, unsigned bx,   \
                                                    unsigned by, unsigned bz,             \
                                                    map3d_cursor *c)                      \
        {                                                                                  \
            return map3d_##nm##_first(L, bx, by, bz, c);                                   \
        }                                                                                  \
        static __device__ __forceinline__ int next(const map3d_launch *L, map3d_cursor *c) \
        {                                                                                  \
            return map3d_##nm##_next(L, c);                                                \
        }                                                                                  \
    };
#include "maps3d/maps3d.def"
#undef MAP3D_ENTRY

template <int ID, int ROOT> struct map2d_by_id;
#define MAP2D_ENTRY(nm, summary, max_nb)                                                   \
    template <int ROOT> struct map2d_by_id<MAP2D_ID_##nm, ROOT> {                          \
        static __device__ __forceinline__ int first(const map2d_launch *L, unsigned bx,   \
                                                    unsigned by, map2d_cursor *c)         \
        {                                                                                  \
            map2d_launch l = *L;                                                           \
            if (MAP2D_ID_##nm == MAP2D_ID_lambda2d)                                        \
                l.kind = ROOT; /* lambda2d: kind is the root (lambda2d.h); now a constant */ \
            return map2d_##nm##_first(&l, bx, by, c);                                      \
        }                                                                                  \
    };
#include "maps3d/maps2d.def"
#undef MAP2D_ENTRY

/* ---- kernels ----------------------------------------------------------------------------- */

/* Adds one block's signature to the slot of the block (thread 0 only). */
__device__ __forceinline__ void sig_flush(const bench_sig &s, unsigned long long *sig)
{
    const unsigned slot = (blockIdx.x ^ (blockIdx.y * 31u) ^ (blockIdx.z * 131u)) % BENCH_SLOTS;
    unsigned long long *p = sig + 4 * slot;
    if (s.tiles == 0)
        return;
    atomicAdd(p, s.tiles);
    atomicAdd(p + 1, s.sum);
    atomicAdd(p + 2, s.sumsq);
    atomicAdd(p + 3, s.bad);
}

/* The thread work of the 3D dummy kernel for tile (I, J, K): i + j + k of its particles,
 * stored only when equal to `magic` (never). `one`: the block covers the tile (tile <= 8). */
__device__ __forceinline__ void dummy3d_tile(int I, int J, int K, unsigned rho, unsigned magic,
                                             bool one, unsigned tsum, unsigned *out)
{
    if (one) {
        const unsigned v = (unsigned)(I + J + K) * rho + tsum;
        if (v == magic)
            *out = v;
        return;
    }
    const unsigned i0 = (unsigned)I * rho, j0 = (unsigned)J * rho, k0 = (unsigned)K * rho;
    for (unsigned z = threadIdx.z; z < rho; z += blockDim.z)
        for (unsigned y = threadIdx.y; y < rho; y += blockDim.y)
            for (unsigned x = threadIdx.x; x < rho; x += blockDim.x) {
                const unsigned v = (i0 + x) + (j0 + y) + (k0 + z);
                if (v == magic)
                    *out = v;
            }
}

/* The 3D map-only kernel: see gpu_bench.h. VERIFY: thread 0 signs each tile instead. */
template <int ID, bool VERIFY>
__global__ void __launch_bounds__(512) map3d_dummy(map3d_launch L, unsigned rho, unsigned magic,
                                                   unsigned *out, unsigned long long *sig)
{
    map3d_cursor c;
    bench_sig s = {0, 0, 0, 0};
    const bool t0 = threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0;
    /* uniform: one pass per tile when the block is as large as the tile (tile <= 8) */
    const bool one = blockDim.x == rho && blockDim.y == rho && blockDim.z == rho;
    const unsigned tsum = threadIdx.x + threadIdx.y + threadIdx.z;
    if (!map3d_by_id<ID>::first(&L, blockIdx.x, blockIdx.y, blockIdx.z, &c))
        return;
    do {
        if (VERIFY) {
            if (t0)
                bench_sig_tile3(&s, c.I, c.J, c.K, L.nb);
        } else {
            /* one: thread (x, y, z) has i + j + k = (I + J + K) rho + x + y + z */
            dummy3d_tile(c.I, c.J, c.K, rho, magic, one, tsum, out);
        }
    } while (map3d_by_id<ID>::next(&L, &c));
    if (VERIFY && t0)
        sig_flush(s, sig);
}

/* The 3D map-only kernel with the decode done once per block (the `-once` rows of bench):
 * thread 0 alone runs first() (and next() for a persistent map) and hands the tile to the
 * block through shared memory; the other threads wait at a barrier instead of decoding.
 * VERIFY: launched with the full block too, and the last thread signs the tile it read from
 * shared memory, so the verification covers the hand-over. */
template <int ID, bool VERIFY>
__global__ void __launch_bounds__(512) map3d_dummy_once(map3d_launch L, unsigned rho,
                                                        unsigned magic, unsigned *out,
                                                        unsigned long long *sig)
{
    __shared__ int tile[4]; /* I, J, K, and 1 when the block has a tile */
    map3d_cursor c = {0, 0, 0, 0};
    bench_sig s = {0, 0, 0, 0};
    const bool t0 = threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0;
    const bool last = threadIdx.x == blockDim.x - 1 && threadIdx.y == blockDim.y - 1 &&
                      threadIdx.z == blockDim.z - 1;
    const bool one = blockDim.x == rho && blockDim.y == rho && blockDim.z == rho;
    const unsigned tsum = threadIdx.x + threadIdx.y + threadIdx.z;
    if (t0) {
        tile[3] = map3d_by_id<ID>::first(&L, blockIdx.x, blockIdx.y, blockIdx.z, &c);
        tile[0] = c.I, tile[1] = c.J, tile[2] = c.K;
    }
    __syncthreads();
    for (;;) {
        const int I = tile[0], J = tile[1], K = tile[2];
        if (!tile[3])
            break; /* the whole block leaves together */
        if (VERIFY) {
            if (last)
                bench_sig_tile3(&s, I, J, K, L.nb);
        } else {
            dummy3d_tile(I, J, K, rho, magic, one, tsum, out);
        }
        if (!map3d_by_id<ID>::is_persistent)
            break;
        __syncthreads(); /* every thread has read the tile */
        if (t0) {
            tile[3] = map3d_by_id<ID>::next(&L, &c);
            tile[0] = c.I, tile[1] = c.J, tile[2] = c.K;
        }
        __syncthreads();
    }
    if (VERIFY && last)
        sig_flush(s, sig);
}

/* The 2D map-only kernel (the paper's dummy kernel): thread (x, y) takes (I rho + x, J rho + y). */
template <int ID, int ROOT, bool VERIFY>
__global__ void __launch_bounds__(1024) map2d_dummy(map2d_launch L, unsigned rho, unsigned magic,
                                                    unsigned *out, unsigned long long *sig)
{
    map2d_cursor c;
    if (!map2d_by_id<ID, ROOT>::first(&L, blockIdx.x, blockIdx.y, &c))
        return;
    if (VERIFY) {
        if (threadIdx.x == 0 && threadIdx.y == 0) {
            bench_sig s = {0, 0, 0, 0};
            bench_sig_tile2(&s, c.I, c.J, L.nb);
            sig_flush(s, sig);
        }
        return;
    }
    const unsigned i0 = (unsigned)c.I * rho, j0 = (unsigned)c.J * rho;
    for (unsigned y = threadIdx.y; y < rho; y += blockDim.y)
        for (unsigned x = threadIdx.x; x < rho; x += blockDim.x) {
            const unsigned v = (i0 + x) + (j0 + y);
            if (v == magic)
                *out = v;
        }
}

/* The EDM with D features (2D paper, eq. 17): D[j n + i] = |x_i - x_j| for i <= j < n. */
template <int ID, int ROOT, int D>
__global__ void __launch_bounds__(1024) edm_kernel(map2d_launch L, unsigned rho, unsigned n,
                                                   const float *__restrict__ feat,
                                                   float *__restrict__ dmat)
{
    map2d_cursor c;
    if (!map2d_by_id<ID, ROOT>::first(&L, blockIdx.x, blockIdx.y, &c))
        return;
    const unsigned i0 = (unsigned)c.I * rho, j0 = (unsigned)c.J * rho;
    for (unsigned y = threadIdx.y; y < rho; y += blockDim.y) {
        const unsigned j = j0 + y;
        if (j >= n)
            break;
        for (unsigned x = threadIdx.x; x < rho; x += blockDim.x) {
            const unsigned i = i0 + x;
            if (i > j)
                break;
            float s = 0.0f;
#pragma unroll
            for (int f = 0; f < D; f++) {
                const float t = feat[(size_t)f * n + i] - feat[(size_t)f * n + j];
                s = fmaf(t, t, s);
            }
            dmat[(size_t)j * n + i] = sqrtf(s);
        }
    }
}

/* Counts cells of the n x n matrix written outside i <= j or not written inside: a block per
 * row j (grid-stride over rows), its threads along the row. */
__global__ void edm_check_kernel(const unsigned *dm, unsigned n, unsigned long long *bad)
{
    unsigned long long local = 0;
    for (unsigned j = blockIdx.x; j < n; j += gridDim.x) {
        const unsigned *row = dm + (size_t)j * n;
        for (unsigned i = threadIdx.x; i < n; i += blockDim.x) {
            const bool written = row[i] != BENCH_SENTINEL;
            local += written != (i <= j);
        }
    }
    if (local)
        atomicAdd(bad, local);
}

template <typename R> __device__ __forceinline__ R fma_t(R a, R b, R c);
template <> __device__ __forceinline__ float fma_t<float>(float a, float b, float c)
{
    return fmaf(a, b, c);
}
template <> __device__ __forceinline__ double fma_t<double>(double a, double b, double c)
{
    return fma(a, b, c);
}

/* FMA throughput: BENCH_FMA_CHAINS independent chains a = a b + c per thread (b, c kernel
 * arguments, so nothing folds; a tends to c / (1 - b), finite). */
template <typename R>
__global__ void __launch_bounds__(BENCH_FMA_THREADS) fma_peak_kernel(R b, R c, int steps, R magic,
                                                                     R *out)
{
    R a[BENCH_FMA_CHAINS];
#pragma unroll
    for (int q = 0; q < BENCH_FMA_CHAINS; q++)
        a[q] = (R)(threadIdx.x + q) * (R)1e-3;
#pragma unroll 4
    for (int s = 0; s < steps; s++) {
#pragma unroll
        for (int q = 0; q < BENCH_FMA_CHAINS; q++)
            a[q] = fma_t<R>(a[q], b, c);
    }
    R sum = 0;
#pragma unroll
    for (int q = 0; q < BENCH_FMA_CHAINS; q++)
        sum += a[q];
    if (sum == magic)
        *out = sum;
}

/* ---- buffers and events ---------------------------------------------------------------- */

static struct {
    int ready;
    cudaEvent_t ev[4];             /* start, stop; solver timer start, stop */
    unsigned *d_out;               /* the dummy kernels' fixed word */
    unsigned long long *d_sig;     /* [4 BENCH_SLOTS] */
    unsigned long long *d_bad;     /* EDM check counter */
    long long *d_table;            /* a plan's lookup table (map `table`) */
    long long table_cap;
    float *d_feat, *d_dmat;        /* EDM: [4 n] features, [n n] matrix */
    float *h_feat;
    int edm_n, edm_cap;            /* points of the current features; matrix capacity */
    double *d_fma;
} B;

static int bench_init(void)
{
    if (B.ready)
        return 0;
    for (int e = 0; e < 4; e++)
        CUDA_CHECK(cudaEventCreate(&B.ev[e]));
    CUDA_CHECK(cudaMalloc(&B.d_out, sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&B.d_sig, 4 * BENCH_SLOTS * sizeof(unsigned long long)));
    CUDA_CHECK(cudaMalloc(&B.d_bad, sizeof(unsigned long long)));
    CUDA_CHECK(cudaMalloc(&B.d_fma, sizeof(double)));
    CUDA_CHECK(cudaMemset(B.d_out, 0, sizeof(unsigned)));
    B.ready = 1;
    return 0;
}

void gpu_bench_release(void)
{
    if (B.ready)
        for (int e = 0; e < 4; e++)
            cudaEventDestroy(B.ev[e]);
    cudaFree(B.d_out);
    cudaFree(B.d_sig);
    cudaFree(B.d_bad);
    cudaFree(B.d_table);
    cudaFree(B.d_feat);
    cudaFree(B.d_dmat);
    cudaFree(B.d_fma);
    free(B.h_feat);
    memset(&B, 0, sizeof B);
}

static int events_elapsed(cudaEvent_t a, cudaEvent_t b, double *sec)
{
    float ms = 0.0f;
    CUDA_CHECK(cudaEventSynchronize(b));
    CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
    *sec = 1e-3 * (double)ms;
    return 0;
}

/* Sums the signature slots into *s. */
static int sig_fetch(bench_sig *s)
{
    unsigned long long h[4 * BENCH_SLOTS];
    CUDA_CHECK(cudaMemcpy(h, B.d_sig, sizeof h, cudaMemcpyDeviceToHost));
    memset(s, 0, sizeof *s);
    for (unsigned k = 0; k < BENCH_SLOTS; k++) {
        s->tiles += h[4 * k];
        s->sum += h[4 * k + 1];
        s->sumsq += h[4 * k + 2];
        s->bad += h[4 * k + 3];
    }
    return 0;
}

/* ---- device, peak, solver timer ----------------------------------------------------------- */

int gpu_bench_device_info(gpu_bench_device *d)
{
    cudaDeviceProp prop;
    int clk = 0;
    memset(d, 0, sizeof *d);
    CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    CUDA_CHECK(cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0));
    CUDA_CHECK(cudaRuntimeGetVersion(&d->runtime));
    CUDA_CHECK(cudaDriverGetVersion(&d->driver));
    snprintf(d->name, sizeof d->name, "%s", prop.name);
    d->sms = prop.multiProcessorCount;
    d->cc_major = prop.major;
    d->cc_minor = prop.minor;
    d->clock_mhz = clk / 1000;
    d->mem_gib = (double)prop.totalGlobalMem / (1024.0 * 1024.0 * 1024.0);
    return 0;
}

template <typename R> static int fma_peak_t(double *flops)
{
    int per_sm = 0, sms = 0;
    double best = 0.0;
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fma_peak_kernel<R>,
                                                             BENCH_FMA_THREADS, 0));
    if (per_sm < 1)
        per_sm = 1;
    const int blocks = sms * per_sm;
    const double work = 2.0 * BENCH_FMA_CHAINS * (double)BENCH_FMA_STEPS * blocks * BENCH_FMA_THREADS;
    for (int r = 0; r < 6; r++) { /* run 0 is the warm-up */
        double sec = 0.0;
        CUDA_CHECK(cudaEventRecord(B.ev[0], 0));
        fma_peak_kernel<R><<<blocks, BENCH_FMA_THREADS>>>((R)0.9999, (R)1e-4, BENCH_FMA_STEPS,
                                                          (R)-1.0, (R *)B.d_fma);
        TB_LAUNCH_CHECK("fma_peak_kernel");
        CUDA_CHECK(cudaEventRecord(B.ev[1], 0));
        if (events_elapsed(B.ev[0], B.ev[1], &sec) != 0)
            return -1;
        if (r > 0 && sec > 0.0 && work / sec > best)
            best = work / sec;
    }
    *flops = best;
    return 0;
}

int gpu_bench_fma_peak(double *fp32, double *fp64)
{
    *fp32 = *fp64 = 0.0;
    if (bench_init() != 0 || fma_peak_t<float>(fp32) != 0 || fma_peak_t<double>(fp64) != 0)
        return -1;
    return 0;
}

long long gpu_bench_solver_persistent(int rho, int dbl, int cut)
{
    int sms = 0;
    if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    const int per_sm = dbl ? gpu_atm_occupancy_d(rho, cut) : gpu_atm_occupancy_f(rho, cut);
    return (long long)sms * (per_sm > 0 ? per_sm : 1); /* as gpu_backend.cu's gpu_plans */
}

int gpu_bench_timer_begin(void)
{
    if (bench_init() != 0)
        return -1;
    CUDA_CHECK(cudaEventRecord(B.ev[2], 0));
    return 0;
}

int gpu_bench_timer_end(double *sec)
{
    CUDA_CHECK(cudaEventRecord(B.ev[3], 0));
    return events_elapsed(B.ev[2], B.ev[3], sec);
}

/* ---- 3D dummy ------------------------------------------------------------------------------ */

template <int ID, bool VERIFY, bool ONCE>
static int map3d_launch_all(const map3d_plan *p, unsigned rho)
{
    /* the verifying instance needs one thread (the decode depends on the block alone); the
     * decode-once instance verifies with the full block (the hand-over is what it checks) */
    const unsigned e = VERIFY && !ONCE ? 1u : (unsigned)bench_block_side3((int)rho);
    const dim3 block(e, e, e);
    for (int l = 0; l < p->n_launch; l++) {
        map3d_launch L = p->launch[l];
        if (L.gx == 0 || L.gy == 0 || L.gz == 0)
            continue;
        if (L.table)
            L.table = B.d_table; /* the device copy (map3d.h: the decoder's memory space) */
        if (ONCE) {
            map3d_dummy_once<ID, VERIFY><<<dim3(L.gx, L.gy, L.gz), block>>>(
                L, rho, BENCH_MAGIC, B.d_out, B.d_sig);
            TB_LAUNCH_CHECK(VERIFY ? "map3d_dummy_once (verify)" : "map3d_dummy_once");
        } else {
            map3d_dummy<ID, VERIFY><<<dim3(L.gx, L.gy, L.gz), block>>>(L, rho, BENCH_MAGIC,
                                                                      B.d_out, B.d_sig);
            TB_LAUNCH_CHECK(VERIFY ? "map3d_dummy (verify)" : "map3d_dummy");
        }
    }
    return 0;
}

template <int ID, bool ONCE>
static int map3d_run_t(const map3d_plan *p, unsigned rho, bench_sig *sig, double *sec)
{
    if (sig)
        CUDA_CHECK(cudaMemset(B.d_sig, 0, 4 * BENCH_SLOTS * sizeof(unsigned long long)));
    CUDA_CHECK(cudaEventRecord(B.ev[0], 0));
    if ((sig ? map3d_launch_all<ID, true, ONCE>(p, rho)
             : map3d_launch_all<ID, false, ONCE>(p, rho)) != 0)
        return -1;
    CUDA_CHECK(cudaEventRecord(B.ev[1], 0));
    if (events_elapsed(B.ev[0], B.ev[1], sec) != 0)
        return -1;
    return sig ? sig_fetch(sig) : 0;
}

template <int ID> static int map3d_occupancy_t(int rho)
{
    const int e = bench_block_side3(rho);
    int nb = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, map3d_dummy<ID, false>,
                                                             e * e * e, 0));
    return nb > 0 ? nb : 1;
}

int gpu_bench_map3d_blocks_per_sm(int id, int rho)
{
    if (rho < 1)
        return tb_error(NULL, 0, "bench: tile edge %d must be >= 1", rho);
    switch (id) {
#define MAP3D_ENTRY(nm, summary, max_nb, persistent)                                       \
    case MAP3D_ID_##nm:                                                                    \
        return map3d_occupancy_t<MAP3D_ID_##nm>(rho);
#include "maps3d/maps3d.def"
#undef MAP3D_ENTRY
    default:
        return tb_error(NULL, 0, "bench: no map with index %d", id);
    }
}

/* Puts the plan's lookup table (if any) on the device. */
static int table_upload(const map3d_plan *p)
{
    if (!p->h_table || p->table_len <= 0)
        return 0;
    if (p->table_len > B.table_cap) {
        CUDA_CHECK(cudaFree(B.d_table));
        B.d_table = NULL;
        B.table_cap = 0;
        CUDA_CHECK(cudaMalloc(&B.d_table, (size_t)p->table_len * sizeof(long long)));
        B.table_cap = p->table_len;
    }
    CUDA_CHECK(cudaMemcpy(B.d_table, p->h_table, (size_t)p->table_len * sizeof(long long),
                          cudaMemcpyHostToDevice));
    return 0;
}

int gpu_bench_map3d_run(const map3d_plan *p, int id, int rho, int once, bench_sig *sig,
                        double *sec)
{
    *sec = 0.0;
    if (rho < 1)
        return tb_error(NULL, 0, "bench: tile edge %d must be >= 1", rho);
    if (bench_init() != 0 || table_upload(p) != 0)
        return -1;
    switch (id) {
#define MAP3D_ENTRY(nm, summary, max_nb, persistent)                                       \
    case MAP3D_ID_##nm:                                                                    \
        return once ? map3d_run_t<MAP3D_ID_##nm, true>(p, (unsigned)rho, sig, sec)        \
                    : map3d_run_t<MAP3D_ID_##nm, false>(p, (unsigned)rho, sig, sec);
#include "maps3d/maps3d.def"
#undef MAP3D_ENTRY
    default:
        return tb_error(NULL, 0, "bench: no map with index %d", id);
    }
}

/* ---- 2D: dummy and EDM ------------------------------------------------------------------ */

int gpu_bench_edm_prepare(int n)
{
    size_t free_b = 0, total_b = 0;
    const size_t cells = (size_t)n * (size_t)n;
    if (n < 1)
        return tb_error(NULL, 0, "bench: EDM needs n >= 1 (got %d)", n);
    if (bench_init() != 0)
        return -1;
    if (n > B.edm_cap) {
        CUDA_CHECK(cudaFree(B.d_dmat));
        CUDA_CHECK(cudaFree(B.d_feat));
        B.d_dmat = B.d_feat = NULL;
        B.edm_cap = B.edm_n = 0;
        CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
        if (cells * sizeof(float) + 4 * (size_t)n * sizeof(float) + (64u << 20) > free_b) {
            tb_error(NULL, 0, "bench: the EDM at n = %d needs %.2f GiB of GPU memory, %.2f GiB "
                              "free", n, (double)(cells * sizeof(float)) / 1073741824.0,
                     (double)free_b / 1073741824.0);
            return TB_EXIT_USAGE;
        }
        CUDA_CHECK(cudaMalloc(&B.d_dmat, cells * sizeof(float)));
        CUDA_CHECK(cudaMalloc(&B.d_feat, 4 * (size_t)n * sizeof(float)));
        B.edm_cap = n;
    }
    if (n != B.edm_n) {
        float *h = (float *)realloc(B.h_feat, 4 * (size_t)n * sizeof(float));
        unsigned long long x = 0x9E3779B97F4A7C15ULL;
        if (!h)
            return tb_error(NULL, 0, "bench: out of host memory for %d EDM features", 4 * n);
        B.h_feat = h;
        for (size_t q = 0; q < 4 * (size_t)n; q++) { /* uniform [0, 1), fixed seed */
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            h[q] = (float)(x >> 40) * (1.0f / 16777216.0f);
        }
        CUDA_CHECK(cudaMemcpy(B.d_feat, h, 4 * (size_t)n * sizeof(float), cudaMemcpyHostToDevice));
        B.edm_n = n;
    }
    return 0;
}

/* Compares BENCH_EDM_SAMPLES cells i <= j (corners included) with the host's distances. */
static int edm_spot_check(int n, int features, long long *bad)
{
    unsigned long long x = 12345;
    for (int s = 0; s < BENCH_EDM_SAMPLES; s++) {
        size_t i, j;
        float got = 0.0f;
        double ref = 0.0;
        if (s == 0) {
            i = j = 0;
        } else if (s == 1) {
            i = 0, j = (size_t)n - 1;
        } else if (s == 2) {
            i = j = (size_t)n - 1;
        } else {
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            j = (size_t)((x >> 33) % (unsigned long long)n);
            i = (size_t)((x >> 13) % (unsigned long long)(j + 1));
        }
        CUDA_CHECK(cudaMemcpy(&got, B.d_dmat + j * (size_t)n + i, sizeof got,
                              cudaMemcpyDeviceToHost));
        for (int f = 0; f < features; f++) {
            const double t = (double)B.h_feat[(size_t)f * n + i] - (double)B.h_feat[(size_t)f * n + j];
            ref += t * t;
        }
        ref = sqrt(ref);
        /* float sum of at most 4 squares and sqrtf: relative error a few 2^-24 */
        if (!(fabs((double)got - ref) <= 1e-5 * ref + 1e-6))
            (*bad)++;
    }
    return 0;
}

template <int ID, int ROOT, int D> static int edm_launch_all(const map2d_plan *p, unsigned rho,
                                                             unsigned n)
{
    const unsigned e = (unsigned)bench_block_side2((int)rho);
    for (int l = 0; l < p->n_launch; l++) {
        const map2d_launch &L = p->launch[l];
        if (L.gx == 0 || L.gy == 0)
            continue;
        edm_kernel<ID, ROOT, D><<<dim3(L.gx, L.gy), dim3(e, e)>>>(L, rho, n, B.d_feat, B.d_dmat);
        TB_LAUNCH_CHECK("edm_kernel");
    }
    return 0;
}

template <int ID, int ROOT, bool VERIFY> static int dummy2d_launch_all(const map2d_plan *p,
                                                                       unsigned rho)
{
    const unsigned e = VERIFY ? 1u : (unsigned)bench_block_side2((int)rho);
    for (int l = 0; l < p->n_launch; l++) {
        const map2d_launch &L = p->launch[l];
        if (L.gx == 0 || L.gy == 0)
            continue;
        map2d_dummy<ID, ROOT, VERIFY><<<dim3(L.gx, L.gy), dim3(e, e)>>>(L, rho, BENCH_MAGIC,
                                                                        B.d_out, B.d_sig);
        TB_LAUNCH_CHECK(VERIFY ? "map2d_dummy (verify)" : "map2d_dummy");
    }
    return 0;
}

template <int ID, int ROOT> static int launch2d_t(const map2d_plan *p, unsigned rho, unsigned n,
                                                  int kernel, int verify)
{
    switch (kernel) {
    case BENCH_2D_DUMMY:
        return verify ? dummy2d_launch_all<ID, ROOT, true>(p, rho)
                      : dummy2d_launch_all<ID, ROOT, false>(p, rho);
    case 1: return edm_launch_all<ID, ROOT, 1>(p, rho, n);
    case 2: return edm_launch_all<ID, ROOT, 2>(p, rho, n);
    case 3: return edm_launch_all<ID, ROOT, 3>(p, rho, n);
    case 4: return edm_launch_all<ID, ROOT, 4>(p, rho, n);
    default: return tb_error(NULL, 0, "bench: no 2D kernel %d", kernel);
    }
}

/* lambda2d gets one instance per root variant; every other map one instance. */
template <int ID> static int launch2d_root(int root, const map2d_plan *p, unsigned rho, unsigned n,
                                           int kernel, int verify)
{
    if constexpr (ID == MAP2D_ID_lambda2d) {
        switch (root) {
        case MAP2D_ROOT_SQRTF: return launch2d_t<ID, MAP2D_ROOT_SQRTF>(p, rho, n, kernel, verify);
        case MAP2D_ROOT_RSQRTF: return launch2d_t<ID, MAP2D_ROOT_RSQRTF>(p, rho, n, kernel, verify);
        case MAP2D_ROOT_NEWTON: return launch2d_t<ID, MAP2D_ROOT_NEWTON>(p, rho, n, kernel, verify);
        default: break;
        }
    }
    (void)root;
    return launch2d_t<ID, MAP2D_ROOT_EXACT>(p, rho, n, kernel, verify);
}

static int launch2d(int id, int root, const map2d_plan *p, unsigned rho, unsigned n, int kernel,
                    int verify)
{
    switch (id) {
#define MAP2D_ENTRY(nm, summary, max_nb)                                                   \
    case MAP2D_ID_##nm:                                                                    \
        return launch2d_root<MAP2D_ID_##nm>(root, p, rho, n, kernel, verify);
#include "maps3d/maps2d.def"
#undef MAP2D_ENTRY
    default:
        return tb_error(NULL, 0, "bench: no 2D map with index %d", id);
    }
}

int gpu_bench_map2d_run(const map2d_plan *p, int id, int root, int rho, int n, int kernel,
                        bench_sig *sig, long long *bad, double *sec)
{
    const int edm = kernel != BENCH_2D_DUMMY;
    const int verify = edm ? bad != NULL : sig != NULL;
    *sec = 0.0;
    if (rho < 1 || n < 1 || kernel < 0 || kernel > 4)
        return tb_error(NULL, 0, "bench: bad 2D run (tile %d, n %d, kernel %d)", rho, n, kernel);
    if (bench_init() != 0)
        return -1;
    if (edm && (B.edm_n != n || !B.d_dmat))
        return tb_error(NULL, 0, "bench: EDM buffers not prepared for n = %d", n);
    if (verify && !edm)
        CUDA_CHECK(cudaMemset(B.d_sig, 0, 4 * BENCH_SLOTS * sizeof(unsigned long long)));
    if (verify && edm) {
        *bad = 0;
        CUDA_CHECK(cudaMemset(B.d_dmat, 0xFF, (size_t)n * (size_t)n * sizeof(float)));
        CUDA_CHECK(cudaMemset(B.d_bad, 0, sizeof(unsigned long long)));
    }
    CUDA_CHECK(cudaEventRecord(B.ev[0], 0));
    if (launch2d(id, root, p, (unsigned)rho, (unsigned)n, kernel, verify) != 0)
        return -1;
    CUDA_CHECK(cudaEventRecord(B.ev[1], 0));
    if (events_elapsed(B.ev[0], B.ev[1], sec) != 0)
        return -1;
    if (verify && !edm)
        return sig_fetch(sig);
    if (verify && edm) {
        int sms = 0;
        unsigned long long nbad = 0;
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
        edm_check_kernel<<<8 * sms, 256>>>((const unsigned *)B.d_dmat, (unsigned)n, B.d_bad);
        TB_LAUNCH_CHECK("edm_check_kernel");
        CUDA_CHECK(cudaMemcpy(&nbad, B.d_bad, sizeof nbad, cudaMemcpyDeviceToHost));
        *bad = (long long)nbad;
        return edm_spot_check(n, kernel, bad);
    }
    return 0;
}
