/* gpu_bench.h — the GPU side of `tribody bench` (solver/gpu/gpu_bench.cu): the papers' map-only
 * dummy kernels (3D and 2D), the Euclidean distance matrix (EDM) of the 2D paper, an FMA
 * peak probe, and CUDA-event timing of the solver. A build without nvcc links
 * solver/gpu/gpu_bench_none.c instead, whose functions report that there is no CUDA and return -1
 * (cmd_bench.c calls them only when gpu_count() > 0).
 *
 * Kernel design (docs/performance.md, "Method"):
 *   3D dummy: one block of e x e x e threads per tile visit, e = min(rho, 8) (512 threads for
 *     rho = 8); thread (x, y, z) takes the particles (I rho + x, J rho + y, K rho + z) and, for
 *     rho > 8, loops over the (rho/8)^3 positions it owns. Every thread decodes the map itself
 *     (as the papers' kernels do) and stores i + j + k to one fixed word only when the sum
 *     equals a kernel argument (0xFFFFFFFF) that it never reaches (i + j + k < 3n < 2^32 - 1):
 *     the compiler cannot drop the decode, and no store traffic is timed. The decode-once
 *     variant (rows `<map>-once`) has thread 0 decode and hand the tile to the block through
 *     shared memory, as a solver kernel would; the thread work is the same.
 *   2D dummy: e x e threads, e = min(rho, 32) (16 x 16 in the paper); i + j likewise.
 *   EDM (2D paper, section IV): n points with d = 1..4 float features in global memory
 *     (structure of arrays); thread (i, j), i <= j < n, writes sqrt(sum_f (x_fi - x_fj)^2) to
 *     D[j n + i] of a full n x n float matrix (only the lower triangle is written).
 * Verification before any timing: a second instance of each dummy kernel, launched on the
 * same grids with one thread per block, sums a signature of every tile it visits (bench_sig
 * below) into 256 slots; the host compares it with the closed form for D3(nb) / D2(nb).
 * EDM: D is filled with a sentinel, the kernel runs, a check kernel counts cells written
 * outside i <= j or left unwritten inside, and 64 cells are compared with the host's
 * distances.
 * Every CUDA call goes through CUDA_CHECK and every launch through TB_LAUNCH_CHECK. */
#ifndef TB_GPU_BENCH_H
#define TB_GPU_BENCH_H

#include "maps3d/map2d.h"
#include "maps3d/map3d.h"
#include "common/tb.h"

TB_BEGIN_DECLS

/* What the device is. */
typedef struct gpu_bench_device {
    char name[256];
    int sms;               /* multiprocessors */
    int cc_major, cc_minor;
    int clock_mhz;         /* peak SM clock reported by the driver */
    double mem_gib;        /* device memory */
    int runtime, driver;   /* CUDA versions, 1000 major + 10 minor */
} gpu_bench_device;

/* Signature of the tiles a map visits: their count, the sums of idx and idx^2 (mod 2^64) and
 * the number outside the domain. idx = Tet(K) + T2(J) + I in 3D, T2(J) + I in 2D. A map that
 * visits every tile of a domain of T tiles exactly once gives bench_sig_expect(T). */
typedef struct bench_sig {
    unsigned long long tiles, sum, sumsq, bad;
} bench_sig;

TB_HOSTDEV static inline void bench_sig_add(bench_sig *s, unsigned long long idx, int ok)
{
    s->tiles += 1;
    s->sum += idx;
    s->sumsq += idx * idx;
    s->bad += ok ? 0 : 1;
}

TB_HOSTDEV static inline void bench_sig_tile3(bench_sig *s, int I, int J, int K, int nb)
{
    const int ok = 0 <= I && I <= J && J <= K && K < nb;
    bench_sig_add(s, ok ? (unsigned long long)(map3d_tet(K) + map3d_tri(J) + I) : 0ULL, ok);
}

TB_HOSTDEV static inline void bench_sig_tile2(bench_sig *s, int I, int J, int nb)
{
    const int ok = 0 <= I && I <= J && J < nb;
    bench_sig_add(s, ok ? (unsigned long long)(map3d_tri(J) + I) : 0ULL, ok);
}

/* The signature of every idx in [0, T) once: sums T(T-1)/2 and (T-1)T(2T-1)/6, exact
 * mod 2^64 (each division is done on the factor it divides before multiplying). */
static inline void bench_sig_expect(bench_sig *s, unsigned long long T)
{
    unsigned long long a = T ? T - 1 : 0, b = T, c = T ? 2 * T - 1 : 0;
    s->tiles = T;
    s->bad = 0;
    s->sum = (a % 2 == 0) ? (a / 2) * b : a * (b / 2);
    if (a % 2 == 0)
        a /= 2;
    else
        b /= 2;
    if (a % 3 == 0)
        a /= 3;
    else if (b % 3 == 0)
        b /= 3;
    else
        c /= 3;
    s->sumsq = T ? a * b * c : 0;
}

static inline int bench_sig_equal(const bench_sig *x, const bench_sig *y)
{
    return x->tiles == y->tiles && x->sum == y->sum && x->sumsq == y->sumsq && x->bad == y->bad;
}

/* Threads per side of a dummy-kernel block for tile edge rho: min(rho, 8) in 3D,
 * min(rho, 32) in 2D. */
static inline int bench_block_side3(int rho) { return rho < 8 ? rho : 8; }
static inline int bench_block_side2(int rho) { return rho < 32 ? rho : 32; }

/* Fills d for device 0. 0 or -1. */
int gpu_bench_device_info(gpu_bench_device *d);

/* Measures the FP32 and FP64 FMA throughput of the device in flop/s (an FMA is 2 flops):
 * 16 independent FMA chains per thread, 2^16 steps, blocks of 256 threads filling every
 * multiprocessor; best of 5 runs after a warm-up. 0 or -1. */
int gpu_bench_fma_peak(double *fp32, double *fp64);

/* Resident blocks per multiprocessor of the 3D dummy kernel of map `id` (its index in
 * map3d_all) at tile edge rho: the persistent grid of `stride` is this times the SM count. */
int gpu_bench_map3d_blocks_per_sm(int id, int rho);

/* Runs every launch of plan p once through the 3D dummy kernel of map `id`, tile edge rho.
 * once = 0: every thread decodes the map (the papers' kernel); once = 1: thread 0 decodes and
 * the block reads the tile from shared memory (map3d_dummy_once; bench's `-once` rows).
 * With sig != NULL it runs the verifying instance and fills *sig; otherwise the timed one.
 * *sec: seconds between CUDA events recorded before the first and after the last launch.
 * 0 or -1 (reported). */
int gpu_bench_map3d_run(const map3d_plan *p, int id, int rho, int once, bench_sig *sig,
                        double *sec);

/* 2D kernels: kernel 0 is the dummy kernel, 1..4 the EDM with that many features. */
#define BENCH_2D_DUMMY 0

/* Prepares the EDM buffers for n points (features and the n x n matrix); keeps them across
 * calls while n fits. 0; TB_EXIT_USAGE when the device lacks the memory (reported); -1. */
int gpu_bench_edm_prepare(int n);

/* Runs every launch of plan p once through 2D kernel `kernel` of map `id` (index in
 * map2d_all) with lambda2d root variant `root` (ignored by other maps), tile edge rho, n
 * points. Verifying runs: the dummy kernel fills *sig (sig != NULL); the EDM, with
 * bad != NULL, sets *bad to the cells written outside i <= j < n, left unwritten inside, or
 * differing from the host's distance (64 sampled). *sec as for gpu_bench_map3d_run. */
int gpu_bench_map2d_run(const map2d_plan *p, int id, int root, int rho, int n, int kernel,
                        bench_sig *sig, long long *bad, double *sec);

/* Resident blocks of the solver's triplet kernel over the whole device (the persistent grid
 * the GPU backend gives `stride`), for tile edge rho, double (dbl) or float, cutoff or not;
 * 0 when unknown. */
long long gpu_bench_solver_persistent(int rho, int dbl, int cut);

/* CUDA events on the legacy default stream around host code that enqueues GPU work on
 * blocking streams (the GPU backend's compute()): begin() records the start, end() records
 * the stop, waits for it and sets *sec. 0 or -1. */
int gpu_bench_timer_begin(void);
int gpu_bench_timer_end(double *sec);

/* Frees every buffer and event the functions above allocated; safe to call at any time. */
void gpu_bench_release(void);

TB_END_DECLS

#endif
