/* gpu_nbr_build.cu — the neighbour lists on the device (nbr.h): the cells (nbr_lattice, the
 * CPU's binning, so cubes, triclinic cells and ppf slabs alike: nbr_box_check), the build, the
 * lists' lifetime (create, destroy, counters). gpu_nbr.cu runs the forces, gpu_nbr_stale.cu the
 * skin test (waiting, or speculative: docs/gpu.md, "A step's waits").
 *
 * Build (every CUB call deterministic, so the same positions give the same lists): cell keys,
 * a stable radix sort of (cell, particle), the cells' ranges, a count pass over every anchor in
 * cell order, an exclusive scan into row offsets, this rank's cut of the anchors (on the device,
 * from a scan of the rows' work: docs/scaling.md) and a fill pass over this rank's anchors only,
 * the rows sorted by particle index by construction (the per-cell passes of gpu_nbr_rows.cuh:
 * build 2 where cells hold few atoms, one host wait per build; build 1 otherwise, two;
 * TB_NBR_BUILD=0: the old passes and a segmented sort of each row). Rows are stored in cell order, so a
 * rank's rows are contiguous and it holds only those (the other ranks' rows are never read
 * here). Device memory is O(N / P) for the rows: ~ (2 pi / 3) rho R^3 entries per particle. */
#include <cub/cub.cuh>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/check.h"
#include "solver/gpu/gpu_cells.cuh"
#include "solver/gpu/gpu_nbr_int.h"
#include "solver/gpu/gpu_nbr_rows.cuh"
#include "solver/par/mpi.h"
#include "solver/par/split.h"

/* ---- build ------------------------------------------------------------------------- */

__global__ void nbr_range_kernel(const int *key, int n, int *start, int *end)
{
    const int s = blockIdx.x * blockDim.x + threadIdx.x;
    if (s < n)
        cells_range_at(key, n, s, start, end);
}

/* Row of particle i: counted (out == NULL) or written. */
__device__ int nbr_scan_row(const tb_double4 *pos, const int *perm, const int *start,
                            const int *end, const nbr_grid &g, double R2, double skin, int i,
                            int *out)
{
    const tb_double4 xi = pos[i];
    int c[3], f[3], cnt[3], m = 0;
    const double xv[3] = {xi.x, xi.y, xi.z};
    nbr_cell_coords(&g, xv, c);
    for (int d = 0; d < 3; d++)
        nbr_stencil(&g, c[d], d, &f[d], &cnt[d]);
    for (int sz = 0; sz < cnt[2]; sz++)
        for (int sy = 0; sy < cnt[1]; sy++)
            for (int sx = 0; sx < cnt[0]; sx++) {
                const int u = (((f[2] + sz) % g.nc[2]) * g.nc[1] + (f[1] + sy) % g.nc[1]) * g.nc[0] +
                              (f[0] + sx) % g.nc[0];
                for (int p = start[u]; p < end[u]; p++) {
                    const int t = perm[p];
                    const tb_double4 xt = pos[t];
                    if (t == i || !nbr_keep(g, xi.x, xi.y, xi.z, xt.x, xt.y, xt.z, R2, skin))
                        continue;
                    if (out)
                        out[m] = t;
                    m++;
                }
            }
    return m;
}

/* cnt[k]: the row length of anchor perm[k] (cell order, the force kernel's block order). */
__global__ void nbr_count_kernel(const tb_double4 *pos, const int *perm, const int *start,
                                 const int *end, nbr_grid g, double R2, double skin, int n,
                                 int *cnt)
{
    const int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < n)
        cnt[k] = nbr_scan_row(pos, perm, start, end, g, R2, skin, perm[k], NULL);
    else if (k == n)
        cnt[n] = 0;
}

/* The work of anchor k, c (c + 1) + 1 for a row of c entries (split.h), 0 at k = n. */
__global__ void nbr_work_kernel(const int *cnt, int n, long long *work)
{
    const int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k <= n) {
        const long long c = cnt[k];
        work[k] = k < n ? c * (c + 1) + 1 : 0;
    }
}

/* One thread: this rank's anchors [a_lo, a_hi) (all of them when prefix is NULL, one rank), cut
 * by split_prefix_at as on the host (the same integers: the same anchor),
 * their rows' first and end offsets, and the total, into meta[0..3] and meta[5]. */
__global__ void nbr_cut_kernel(const long long *prefix, const int *off, int n, int r, int nranks,
                               int *meta)
{
    const int lo = prefix ? split_prefix_at(prefix, n, r, nranks) : 0;
    const int hi = prefix ? split_prefix_at(prefix, n, r + 1, nranks) : n;
    meta[0] = lo;
    meta[1] = hi;
    meta[2] = off[lo];
    meta[3] = off[hi];
    meta[5] = off[n];
}

/* roff[j] = off[lo + j] - off[lo], j = 0..hi-lo: this rank's rows in its own buffer. */
__global__ void nbr_roff_kernel(const int *off, int lo, int m, int *roff)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j <= m)
        roff[j] = off[lo + j] - off[lo];
}

/* Rows of anchors perm[lo + j], j < m, written at idx + roff[j]. */
__global__ void nbr_fill_kernel(const tb_double4 *pos, const int *perm, const int *start,
                                const int *end, nbr_grid g, double R2, double skin, int lo, int m,
                                const int *roff, int *idx)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < m)
        nbr_scan_row(pos, perm, start, end, g, R2, skin, perm[lo + j], idx + roff[j]);
}

/* A checksum of the rows (TB_NBR_PHASES): contents and order, integer sums (deterministic). */
__global__ void nbr_hash_kernel(const int *idx, long long held, unsigned long long *h)
{
    unsigned long long a = 0;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < held;
         e += (long long)gridDim.x * blockDim.x)
        a += (unsigned long long)(idx[e] + 1) * (2654435761ull * (unsigned long long)e + 1ull);
    atomicAdd(h, a);
}

static int grid_for(int n, int threads) { return (n + threads - 1) / threads; }

/* Device buffer *p of at least `need` elements (gpu_cells.cuh's growth, with the lists' hint). */
template <typename T> static int grow(T **p, long long *cap, long long need, const char *what)
{
    return cells_grow(p, cap, need, what,
                      "lower solver.skin or the cutoffs, or use fewer particles");
}

static int tmp_fit(gpu_nbr *b, size_t bytes)
{
    return cells_tmp_fit(&b->d_tmp, &b->tmp_bytes, bytes);
}

int gpu_nbr_tmp_fit(gpu_nbr *b, size_t bytes)
{
    return tmp_fit(b, bytes);
}

/* Environment switches, read once: TB_NBR_BUILD selects the build (2 or unset: the passes of
 * nbr_cell_count_kernel and nbr_cell_fill_kernel, one wait; 1: nbr_cell_rows_kernel's, which
 * also waits for the most candidates of a cell before counting; unset: 2 when the cells hold
 * at most NBR_FEW_PER_CELL atoms on average, else 1; 0: a count and a fill of each
 * anchor alone, then CUB's segmented sort of the rows, also the fallback when a cell's
 * candidates do not fit in shared memory), kept for before/after measurements in one run;
 * TB_NBR_MINBLOCK=t the least threads of a block of the default build (128); TB_NBR_PHASES=1
 * prints each build's phases (CUDA events) to stderr. */
static int nbr_env(const char *name, int dflt)
{
    const char *e = getenv(name);
    return e && *e ? atoi(e) : dflt;
}

int gpu_nbr_build(gpu_nbr *b, const tb_double4 *pos, cudaStream_t st)
{
    const int n = b->n, T = 256;
    static int mode_env = -2, phases = -1, minblock = 128;
    if (mode_env == -2) {
        mode_env = nbr_env("TB_NBR_BUILD", -1); /* unset: by the atoms per cell, below */
        mode_env = mode_env > 2 ? 2 : mode_env;
        phases = nbr_env("TB_NBR_PHASES", 0) != 0;
        minblock = nbr_env("TB_NBR_MINBLOCK", 128);
    }
    cudaEvent_t ev[6];
    if (phases) {
        for (int k = 0; k < 6; k++)
            CUDA_CHECK(cudaEventCreate(&ev[k]));
        CUDA_CHECK(cudaEventRecord(ev[0], st));
    }
    if (b->d_box && b->box_read(b->box_ctx) != 0) /* a box that moves on the device: the cells
                                                     of the box now (brought back: a wait) */
        return -1;
    double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    if (b->box.pbc != TB_BOX_PERIODIC_ALL && /* the open axes' extent */
        cells_extent(pos, n, b->d_part, lo, hi, st) != 0)
        return -1;
    nbr_grid_make(&b->g, &b->box, lo, hi, b->radius, 2LL * n + 64);
    const long long cells = (long long)b->g.nc[0] * b->g.nc[1] * b->g.nc[2];
    /* build 2 where cells hold few atoms (its fill walks each slice twice: slower than build
     * 1's when a cell's candidates are many, the liquid's ~2900: gpu-measured.md) */
    const int mode = mode_env >= 0 ? mode_env : (double)n <= NBR_FEW_PER_CELL * (double)cells ? 2 : 1;
    long long cap_s = b->cells_cap, cap_e = b->cells_cap;
    if (grow(&b->d_start, &cap_s, cells, "neighbour cells") != 0 ||
        grow(&b->d_end, &cap_e, cells, "neighbour cells") != 0)
        return -1;
    b->cells_cap = cap_s < cap_e ? cap_s : cap_e;
    const cells_sort_bufs sb = {b->d_key, b->d_key2, b->d_seq, b->d_perm,
                                b->d_start, b->d_end, &b->d_tmp, &b->tmp_bytes};
    if (cells_sort(pos, n, &b->g, cells, &sb, st) != 0)
        return -1;
    nbr_range_kernel<<<grid_for(n, T), T, 0, st>>>(b->d_key2, n, b->d_start, b->d_end);
    TB_LAUNCH_CHECK("nbr_range_kernel");

    /* the sorted-candidates builds when a cell's candidates fit in shared memory: the most
     * candidates of a cell, waited for here by build 1, brought back with the rows' sizes by 2 */
    int fast = mode >= 1, ucap = 0, bd = 0, S = NBR_SLICES;
    size_t smem = 0;
    if (fast) {
        CUDA_CHECK(cudaMemsetAsync(b->d_meta + 6, 0, sizeof(int), st));
        nbr_union_kernel<<<grid_for((int)cells, T), T, 0, st>>>(b->d_start, b->d_end, b->g,
                                                                 (int)cells, b->d_meta + 6);
        TB_LAUNCH_CHECK("nbr_union_kernel");
        /* anchor slots per block: the mean cell's anchors and a margin, 8 .. 256 */
        const double mean = (double)n / (double)cells;
        int A = 8 * (int)ceil(1.15 * mean / 8.0);
        A = A < 8 ? 8 : A > 256 ? 256 : A;
        while (mode == 2 && S * A < minblock && S < 32 && 2 * S * A <= 1024)
            S <<= 1;
        bd = S * A;
    }
    if (mode == 1) {
        CUDA_CHECK(cudaMemcpyAsync(&ucap, b->d_meta + 6, sizeof(int), cudaMemcpyDeviceToHost, st));
        CUDA_CHECK(gpu_wait_stream(st));
        smem = 24 * (size_t)ucap + 4 * (size_t)nbr_pow2(ucap);
        fast = smem + 1024 <= (size_t)b->smem_max; /* 1 KiB: the kernel's static arrays */
        if (fast && b->scnt_cap < (long long)NBR_SLICES * n) {
            cudaFree(b->d_scnt);
            b->d_scnt = NULL;
            b->scnt_cap = 0;
            CUDA_CHECK(cudaMalloc(&b->d_scnt, (size_t)NBR_SLICES * n * sizeof(int)));
            b->scnt_cap = (long long)NBR_SLICES * n;
        }
    }
    if (phases)
        CUDA_CHECK(cudaEventRecord(ev[1], st));

    /* every row counted (cell order), then this rank's cut: on the device, the same integers
     * as split_prefix on the host (rows' work c (c + 1) + 1, equal-work boundaries), so that
     * neither the row lengths nor the anchors go to the host */
    const double R2 = b->radius * b->radius;
    const int P = tb_split_nranks();
    const double skin = b->full ? 1e300 : b->skin;
    CUDA_CHECK(cudaMemsetAsync(b->d_cnt + n, 0, sizeof(int), st));
    if (mode == 2) {
        nbr_cell_count_kernel<<<(int)cells, bd, 0, st>>>(pos, b->d_perm, b->d_start, b->d_end,
                                                         b->g, R2, skin, S, b->d_cnt);
        TB_LAUNCH_CHECK("nbr_cell_count_kernel");
    } else if (fast) {
        CUDA_CHECK(cudaFuncSetAttribute(nbr_cell_rows_kernel<false>,
                                        cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
        nbr_cell_rows_kernel<false><<<(int)cells, bd, smem, st>>>(
            pos, b->d_perm, b->d_start, b->d_end, b->g, R2, skin, 0, n, ucap, NULL, b->d_scnt,
            b->d_cnt, NULL);
        TB_LAUNCH_CHECK("nbr_cell_rows_kernel (count)");
    } else {
        nbr_count_kernel<<<grid_for(n + 1, T), T, 0, st>>>(pos, b->d_perm, b->d_start, b->d_end,
                                                            b->g, R2, skin, n, b->d_cnt);
        TB_LAUNCH_CHECK("nbr_count_kernel");
    }
    if (phases)
        CUDA_CHECK(cudaEventRecord(ev[2], st));
    size_t need = 0;
    CUDA_CHECK(cub::DeviceScan::ExclusiveSum(NULL, need, b->d_cnt, b->d_off, n + 1, st));
    if (tmp_fit(b, need) != 0)
        return -1;
    CUDA_CHECK(cub::DeviceScan::ExclusiveSum(b->d_tmp, need, b->d_cnt, b->d_off, n + 1, st));
    CUDA_CHECK(cub::DeviceReduce::Max(NULL, need, b->d_cnt, b->d_meta + 4, n, st));
    if (tmp_fit(b, need) != 0)
        return -1;
    CUDA_CHECK(cub::DeviceReduce::Max(b->d_tmp, need, b->d_cnt, b->d_meta + 4, n, st));
    if (P > 1) {
        if (!b->d_work)
            CUDA_CHECK(cudaMalloc(&b->d_work, ((size_t)n + 1) * sizeof(long long)));
        if (!b->d_wpre)
            CUDA_CHECK(cudaMalloc(&b->d_wpre, ((size_t)n + 1) * sizeof(long long)));
        nbr_work_kernel<<<grid_for(n + 1, T), T, 0, st>>>(b->d_cnt, n, b->d_work);
        TB_LAUNCH_CHECK("nbr_work_kernel");
        CUDA_CHECK(cub::DeviceScan::ExclusiveSum(NULL, need, b->d_work, b->d_wpre, n + 1, st));
        if (tmp_fit(b, need) != 0)
            return -1;
        CUDA_CHECK(cub::DeviceScan::ExclusiveSum(b->d_tmp, need, b->d_work, b->d_wpre, n + 1, st));
    }
    nbr_cut_kernel<<<1, 1, 0, st>>>(P > 1 ? b->d_wpre : NULL, b->d_off, n, tb_split_rank(), P,
                                    b->d_meta);
    TB_LAUNCH_CHECK("nbr_cut_kernel");
    int meta[7];
    CUDA_CHECK(cudaMemcpyAsync(meta, b->d_meta, (mode == 2 ? 7 : 6) * sizeof(int),
                               cudaMemcpyDeviceToHost, st));
    CUDA_CHECK(gpu_wait_stream(st));
    const int total = meta[5], maxrow = meta[4], a0 = meta[0], m = meta[1] - meta[0];
    const int held = meta[3] - meta[2];
    if (mode == 2) {
        ucap = meta[6];
        smem = 24 * (size_t)ucap + 4 * (size_t)nbr_pow2(ucap);
        fast = smem + 1024 <= (size_t)b->smem_max; /* 1 KiB: the kernel's static arrays */
    }
    if (total < 0)
        return tb_error(NULL, 0, "neighbour lists exceed 2^31 entries: lower solver.skin or the "
                                 "cutoffs");
    if (grow(&b->d_idx, &b->cap, held > 0 ? held : 1, "neighbour entries") != 0 ||
        (!fast && grow(&b->d_idx2, &b->cap2, held > 0 ? held : 1, "neighbour entries") != 0))
        return -1;
    if (phases)
        CUDA_CHECK(cudaEventRecord(ev[3], st));
    nbr_roff_kernel<<<grid_for(m + 1, T), T, 0, st>>>(b->d_off, a0, m, b->d_roff);
    TB_LAUNCH_CHECK("nbr_roff_kernel");
    if (m > 0 && fast && mode == 2) {
        CUDA_CHECK(cudaFuncSetAttribute(nbr_cell_fill_kernel,
                                        cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
        nbr_cell_fill_kernel<<<(int)cells, bd, smem, st>>>(pos, b->d_perm, b->d_start, b->d_end,
                                                           b->g, R2, skin, a0, a0 + m, ucap, S,
                                                           b->d_roff, b->d_idx);
        TB_LAUNCH_CHECK("nbr_cell_fill_kernel");
    } else if (m > 0 && fast) {
        CUDA_CHECK(cudaFuncSetAttribute(nbr_cell_rows_kernel<true>,
                                        cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
        nbr_cell_rows_kernel<true><<<(int)cells, bd, smem, st>>>(
            pos, b->d_perm, b->d_start, b->d_end, b->g, R2, skin, a0, a0 + m, ucap, b->d_roff,
            b->d_scnt, NULL, b->d_idx);
        TB_LAUNCH_CHECK("nbr_cell_rows_kernel (fill)");
    } else if (m > 0) {
        nbr_fill_kernel<<<grid_for(m, T), T, 0, st>>>(pos, b->d_perm, b->d_start, b->d_end, b->g,
                                                      R2, skin, a0, m, b->d_roff, b->d_idx);
        TB_LAUNCH_CHECK("nbr_fill_kernel");
    }
    if (phases)
        CUDA_CHECK(cudaEventRecord(ev[4], st));
    if (held > 0 && !fast) {
        CUDA_CHECK(cub::DeviceSegmentedSort::SortKeys(NULL, need, b->d_idx, b->d_idx2, held, m,
                                                      b->d_roff, b->d_roff + 1, st));
        if (tmp_fit(b, need) != 0)
            return -1;
        CUDA_CHECK(cub::DeviceSegmentedSort::SortKeys(b->d_tmp, need, b->d_idx, b->d_idx2, held, m,
                                                      b->d_roff, b->d_roff + 1, st));
        int *t = b->d_idx;
        const long long c = b->cap;
        b->d_idx = b->d_idx2;
        b->d_idx2 = t;
        b->cap = b->cap2;
        b->cap2 = c;
    }
    CUDA_CHECK(cudaMemcpyAsync(b->d_xref, pos, (size_t)n * sizeof(tb_double4),
                               cudaMemcpyDeviceToDevice, st));
    b->box_ref = b->box;
    if (b->d_box && gpu_box_ref(b->d_box, b->d_boxr, b->radius - b->skin, b->skin, st) != 0)
        return -1;
    b->entries = total;
    b->max_row = maxrow;
    b->a_lo = a0;
    b->a_hi = a0 + m;
    b->share_entries = held;
    b->builds++;
    if (phases) {
        float ms[5];
        CUDA_CHECK(cudaEventRecord(ev[5], st));
        CUDA_CHECK(gpu_wait_event(ev[5]));
        for (int k = 0; k < 5; k++)
            CUDA_CHECK(cudaEventElapsedTime(&ms[k], ev[k], ev[k + 1]));
        unsigned long long h = 0;
        CUDA_CHECK(cudaMemsetAsync(b->d_stats2, 0, sizeof h, st));
        nbr_hash_kernel<<<256, 256, 0, st>>>(b->d_idx, held, b->d_stats2);
        TB_LAUNCH_CHECK("nbr_hash_kernel");
        CUDA_CHECK(cudaMemcpyAsync(&h, b->d_stats2, sizeof h, cudaMemcpyDeviceToHost, st));
        CUDA_CHECK(gpu_wait_stream(st));
        fprintf(stderr, "nbr build %lld (%s, n %d, cells %lld, candidates <= %d, block %d): "
                        "cells %.3f count %.3f scan %.3f fill %.3f sort %.3f total %.3f ms; "
                        "entries %d, rows hash %016llx\n",
                b->builds, !fast ? "TB_NBR_BUILD=0" : mode == 2 ? "sorted candidates, one wait"
                                                    : "TB_NBR_BUILD=1", n, cells, ucap, bd, ms[0],
                ms[1], ms[2], ms[3], ms[4], ms[0] + ms[1] + ms[2] + ms[3] + ms[4], held, h);
        for (int k = 0; k < 6; k++)
            cudaEventDestroy(ev[k]);
    }
    return 0;
}

/* ---- host side --------------------------------------------------------------------- */

void gpu_nbr_destroy(gpu_nbr *b)
{
    if (!b)
        return;
    cudaFree(b->d_key);
    cudaFree(b->d_key2);
    cudaFree(b->d_seq);
    cudaFree(b->d_perm);
    cudaFree(b->d_start);
    cudaFree(b->d_end);
    cudaFree(b->d_cnt);
    cudaFree(b->d_off);
    cudaFree(b->d_idx);
    cudaFree(b->d_idx2);
    cudaFree(b->d_xref);
    cudaFree(b->d_part);
    cudaFree(b->d_flag);
    cudaFree(b->d_pub);
    cudaFree(b->d_swq);
    cudaFree(b->d_swlegs);
    if (b->h_flag)
        cudaFreeHost(b->h_flag);
    if (b->ev_flag)
        cudaEventDestroy(b->ev_flag);
    cudaFree(b->d_roff);
    cudaFree(b->d_work);
    cudaFree(b->d_wpre);
    cudaFree(b->d_scnt);
    cudaFree(b->d_meta);
    cudaFree(b->d_stats);
    cudaFree(b->d_tmp);
    free(b);
}

static int nbr_alloc(gpu_nbr *b)
{
    const size_t n = (size_t)b->n;
    CUDA_CHECK(cudaMalloc(&b->d_key, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&b->d_key2, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&b->d_seq, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&b->d_perm, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&b->d_cnt, (n + 1) * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&b->d_off, (n + 1) * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&b->d_xref, n * sizeof(tb_double4)));
    CUDA_CHECK(cudaMalloc(&b->d_part, 6 * CELLS_BBOX_BLOCKS * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&b->d_flag, sizeof(unsigned)));
    CUDA_CHECK(cudaHostAlloc(&b->h_flag, sizeof(unsigned), cudaHostAllocMapped));
    CUDA_CHECK(cudaHostGetDevicePointer((void **)&b->h_flag_dev, b->h_flag, 0));
    CUDA_CHECK(cudaMalloc(&b->d_pub, 2 * sizeof(unsigned)));
    CUDA_CHECK(cudaMemset(b->d_pub, 0, 2 * sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&b->d_swq, 2 * sizeof(int)));
    CUDA_CHECK(cudaMemset(b->d_swq, 0, 2 * sizeof(int)));
    CUDA_CHECK(cudaEventCreateWithFlags(&b->ev_flag, cudaEventDisableTiming));
    CUDA_CHECK(cudaMalloc(&b->d_roff, (n + 1) * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&b->d_meta, 8 * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&b->d_stats, 3 * sizeof(unsigned long long)));
    CUDA_CHECK(cudaMemset(b->d_stats, 0, 3 * sizeof(unsigned long long)));
    b->d_stats2 = b->d_stats + 2;
    return 0;
}

void gpu_nbr_set_full(gpu_nbr *b, int full)
{
    b->full = full;
}

int gpu_nbr_create(gpu_nbr **out, int n, const tb_box_d *box, double radius, double skin)
{
    gpu_nbr *b;
    int dev = 0;
    *out = NULL;
    if (nbr_box_check(box) != 0) /* the CPU's cells (nbr_lattice), the CPU's limits */
        return -1;
    b = (gpu_nbr *)calloc(1, sizeof *b);
    if (!b)
        return tb_error(NULL, 0, "out of host memory");
    b->n = n;
    b->box = *box;
    b->radius = radius;
    b->skin = skin;
    if (nbr_alloc(b) != 0 || cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&b->smem_max, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) !=
            cudaSuccess) {
        gpu_nbr_destroy(b);
        return tb_error(NULL, 0, "cannot set up the GPU neighbour lists");
    }
    *out = b;
    return 0;
}

void gpu_nbr_move_box(gpu_nbr *b, const tb_box_d *box)
{
    b->box = *box;
}

void gpu_nbr_box_dev(gpu_nbr *b, const tb_box_d *dbox, gpu_box_rec *r,
                     int (*read)(void *ctx), void *ctx)
{
    b->d_box = dbox;
    b->d_boxr = r;
    b->box_read = read;
    b->box_ctx = ctx;
}

unsigned long long *gpu_nbr_counters(gpu_nbr *b)
{
    return b->d_stats;
}

int gpu_nbr_stats(gpu_nbr *b, gpu_nbr_info *info, cudaStream_t st)
{
    unsigned long long s[2];
    CUDA_CHECK(cudaMemcpyAsync(s, b->d_stats, sizeof s, cudaMemcpyDeviceToHost, st));
    CUDA_CHECK(gpu_wait_stream(st));
    info->slots = (long long)s[0];
    info->hits = (long long)s[1];
    info->builds = b->builds;
    info->entries = b->entries;
    info->max_row = b->max_row;
    return 0;
}

void gpu_nbr_share(const gpu_nbr *b, long long *anchors, long long *entries)
{
    *anchors = b->a_hi - b->a_lo;
    *entries = b->share_entries;
}
