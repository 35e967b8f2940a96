/* gpu_nbr_build.cu — the neighbour lists on the device (nbr.h): the cells (nbr_lattice, the
 * CPU's binning, so cubes, triclinic cells and ppf slabs alike: nbr_box_check), the build, the
 * lists' lifetime (create, destroy, counters). gpu_nbr.cu runs the forces, gpu_nbr_stale.cu the
 * skin test (waiting, or speculative: docs/gpu.md, "A step's waits").
 *
 * Build (every CUB call deterministic, so the same positions give the same lists): cell keys,
 * a stable radix sort of (cell, particle), the cells' ranges, a count pass over every anchor in
 * cell order, an exclusive scan into row offsets, this rank's cut of the anchors (on the device,
 * from a scan of the rows' work: docs/scaling.md) and a fill pass over this rank's anchors only,
 * the rows sorted by particle index by construction (nbr_cell_rows_kernel; TB_NBR_BUILD=0: the
 * old passes and a segmented sort of each row). Rows are stored in cell order, so a
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
#include "solver/par/mpi.h"
#include "solver/par/split.h"

/* ---- build ------------------------------------------------------------------------- */

__global__ void nbr_range_kernel(const int *key, int n, int *start, int *end)
{
    const int s = blockIdx.x * blockDim.x + threadIdx.x;
    if (s < n)
        cells_range_at(key, n, s, start, end);
}

/* Whether t (at xt) goes into anchor i's row (at xi), t != i: the same test as nbr_list.c,
 * written once for both builds below (so the same rounding, bit for bit). */
__device__ __forceinline__ bool nbr_keep(const nbr_grid &g, double xix, double xiy, double xiz,
                                         double xtx, double xty, double xtz, double R2,
                                         double skin)
{
    double d[3] = {xtx - xix, xty - xiy, xtz - xiz};
    box_min_image_d(&g.box, d);
    return !(d[0] < -skin || d[0] * d[0] + d[1] * d[1] + d[2] * d[2] > R2);
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

/* ---- rows sorted by construction (the default build) ---------------------------------
 * Every anchor of a cell sees the same candidates: the particles of the cell's stencil (27
 * cells, fewer in a small grid). One block per cell gathers them, sorts them by index in
 * shared memory (a bitonic sort) with their positions beside, and each anchor walks them in
 * that order: its row comes out sorted, the segmented sort of every row is gone, and the
 * candidates' positions are read from shared memory (the same for every anchor of the block).
 * NBR_SLICES threads share an anchor, each a contiguous slice of the sorted candidates; the
 * count pass keeps each slice's count (scnt), so the fill pass writes every slice at its place
 * in the row. Rows, their contents and order are those of the other build, bit for bit. */

#define NBR_SLICES 4

/* The stencil of cell c as runs of perm (nbr_scan_row's cells): first r0[k], length rn[k]. */
__device__ int nbr_cell_runs(const nbr_grid &g, int c, const int *start, const int *end, int *r0,
                             int *rn)
{
    const int cc[3] = {c % g.nc[0], (c / g.nc[0]) % g.nc[1], c / (g.nc[0] * g.nc[1])};
    int f[3], cnt[3], k = 0;
    for (int d = 0; d < 3; d++)
        nbr_stencil(&g, cc[d], d, &f[d], &cnt[d]);
    for (int sz = 0; sz < cnt[2]; sz++)
        for (int sy = 0; sy < cnt[1]; sy++)
            for (int sx = 0; sx < cnt[0]; sx++) {
                const int u = (((f[2] + sz) % g.nc[2]) * g.nc[1] + (f[1] + sy) % g.nc[1]) * g.nc[0] +
                              (f[0] + sx) % g.nc[0];
                r0[k] = start[u];
                rn[k] = end[u] - start[u];
                k++;
            }
    return k;
}

/* The most candidates of any non-empty cell, into *umax (atomicMax; 0 before). */
__global__ void nbr_union_kernel(const int *start, const int *end, nbr_grid g, int cells, int *umax)
{
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cells || end[c] <= start[c])
        return;
    int r0[27], rn[27], t = 0;
    const int nr = nbr_cell_runs(g, c, start, end, r0, rn);
    for (int k = 0; k < nr; k++)
        t += rn[k];
    atomicMax(umax, t);
}

static __host__ __device__ int nbr_pow2(int u)
{
    int p = 1;
    while (p < u)
        p <<= 1;
    return p;
}

/* Block c: the anchors of cell c in [lo, hi) (positions in perm). Count pass (FILL false):
 * scnt[NBR_SLICES k + s] for slice s of anchor k, cnt[k] their sum. Fill pass: the rows at
 * idx + roff[k - lo]. ucap: the most candidates of a cell (shared memory: 24 ucap bytes of
 * positions, 4 nbr_pow2(ucap) of indices). */
template <bool FILL>
__global__ void __launch_bounds__(1024)
    nbr_cell_rows_kernel(const tb_double4 *pos, const int *perm, const int *start, const int *end,
                         nbr_grid g, double R2, double skin, int lo, int hi, int ucap,
                         const int *roff, int *scnt, int *cnt, int *idx)
{
    extern __shared__ double sh[];
    __shared__ int r0[27], rn[27], ro[28], nr;
    const int c = blockIdx.x, bd = blockDim.x, tid = threadIdx.x;
    const int a_lo = max(start[c], lo), a_hi = min(end[c], hi);
    if (a_lo >= a_hi)
        return;
    double *sx = sh, *sy = sx + ucap, *sz = sy + ucap;
    int *si = (int *)(sz + ucap);
    if (tid == 0) {
        nr = nbr_cell_runs(g, c, start, end, r0, rn);
        ro[0] = 0;
        for (int k = 0; k < nr; k++)
            ro[k + 1] = ro[k] + rn[k];
    }
    __syncthreads();
    const int total = ro[nr], p2 = nbr_pow2(total);
    for (int e = tid; e < p2; e += bd) {
        int v = 0x7fffffff;
        if (e < total) {
            int k = 0;
            while (e >= ro[k + 1])
                k++;
            v = perm[r0[k] + e - ro[k]];
        }
        si[e] = v;
    }
    __syncthreads();
    for (int k = 2; k <= p2; k <<= 1) /* bitonic sort, ascending; the indices are distinct */
        for (int j = k >> 1; j > 0; j >>= 1) {
            for (int e = tid; e < p2; e += bd) {
                const int x = e ^ j;
                if (x > e) {
                    const int a = si[e], b = si[x];
                    if ((a > b) == ((e & k) == 0)) {
                        si[e] = b;
                        si[x] = a;
                    }
                }
            }
            __syncthreads();
        }
    for (int e = tid; e < total; e += bd) {
        const tb_double4 p = pos[si[e]];
        sx[e] = p.x;
        sy[e] = p.y;
        sz[e] = p.z;
    }
    __syncthreads();
    const int S = NBR_SLICES, s = tid % S, A = bd / S;
    const int b0 = (int)((long long)total * s / S), b1 = (int)((long long)total * (s + 1) / S);
    for (int base = a_lo; base < a_hi; base += A) { /* the whole block: the shuffles below */
        const int k = base + tid / S;
        int m = 0;
        if (k < a_hi) {
            const int i = perm[k];
            const tb_double4 xi = pos[i];
            int lo_r = 0, hi_r = total; /* the anchor's own place among the candidates */
            while (lo_r < hi_r) {
                const int mid = (lo_r + hi_r) >> 1;
                if (si[mid] < i)
                    lo_r = mid + 1;
                else
                    hi_r = mid;
            }
            int *out = NULL;
            if (FILL) {
                out = idx + roff[k - lo];
                for (int q = 0; q < s; q++)
                    out += scnt[(long long)S * k + q];
            }
            for (int r = b0; r < b1; r++) {
                if (r == lo_r || !nbr_keep(g, xi.x, xi.y, xi.z, sx[r], sy[r], sz[r], R2, skin))
                    continue;
                if (FILL)
                    out[m] = si[r];
                m++;
            }
            if (!FILL)
                scnt[(long long)S * k + s] = m;
        }
        if (!FILL) {
            for (int o = S / 2; o > 0; o >>= 1)
                m += __shfl_down_sync(0xffffffffu, m, o, S);
            if (k < a_hi && s == 0)
                cnt[k] = m;
        }
    }
}

/* ---- the default build's passes (TB_NBR_BUILD unset or 2; 1: the passes above) ---------
 * The count needs no order: block c gathers its cell's candidates in the runs' order, NBR_CH at
 * a time, into static shared memory, and the S threads of an anchor count every S-th one: no
 * sort, and no shared memory sized by the most candidates of a cell, so the build no longer waits
 * for that number before counting (it comes back with the rows' sizes, in the build's one other
 * wait). The fill sorts as nbr_cell_rows_kernel does; the S threads of an anchor count their
 * contiguous slices, take their places by a shuffle scan and write them: the rows of the passes
 * above, bit for bit, with no per-slice counts kept between the passes. S (4 .. 32) grows when
 * cells hold few atoms, so that a block has at least nbr_min_block threads for its sort and
 * gather (diamond Si at 1e5: 5.5 atoms per cell, blocks of 32 threads above). */

#define NBR_CH 256

__global__ void __launch_bounds__(1024)
    nbr_cell_count_kernel(const tb_double4 *pos, const int *perm, const int *start, const int *end,
                          nbr_grid g, double R2, double skin, int S, int *cnt)
{
    __shared__ double sx[NBR_CH], sy[NBR_CH], sz[NBR_CH];
    __shared__ int si[NBR_CH], r0[27], rn[27], ro[28], nr;
    const int c = blockIdx.x, bd = blockDim.x, tid = threadIdx.x;
    const int a_lo = start[c], a_hi = end[c];
    if (a_lo >= a_hi)
        return;
    if (tid == 0) {
        nr = nbr_cell_runs(g, c, start, end, r0, rn);
        ro[0] = 0;
        for (int k = 0; k < nr; k++)
            ro[k + 1] = ro[k] + rn[k];
    }
    __syncthreads();
    const int total = ro[nr], s = tid % S, A = bd / S;
    for (int base = a_lo; base < a_hi; base += A) { /* the whole block: barriers, shuffles */
        const int k = base + tid / S;
        int i = -1, m = 0;
        tb_double4 xi = {0, 0, 0, 0};
        if (k < a_hi) {
            i = perm[k];
            xi = pos[i];
        }
        for (int c0 = 0; c0 < total; c0 += NBR_CH) {
            const int nc = min(NBR_CH, total - c0);
            __syncthreads(); /* the last chunk read */
            for (int e = tid; e < nc; e += bd) {
                int q = 0;
                while (c0 + e >= ro[q + 1])
                    q++;
                const int t = perm[r0[q] + c0 + e - ro[q]];
                const tb_double4 p = pos[t];
                si[e] = t;
                sx[e] = p.x;
                sy[e] = p.y;
                sz[e] = p.z;
            }
            __syncthreads();
            if (k < a_hi)
                for (int e = s; e < nc; e += S)
                    m += si[e] != i && nbr_keep(g, xi.x, xi.y, xi.z, sx[e], sy[e], sz[e], R2, skin);
        }
        for (int o = S / 2; o > 0; o >>= 1)
            m += __shfl_down_sync(0xffffffffu, m, o, S);
        if (k < a_hi && s == 0)
            cnt[k] = m;
    }
}

/* Block c: the rows of the anchors of cell c in [lo, hi) (positions in perm) at idx + roff[k -
 * lo]; ucap: the most candidates of a cell (shared memory as nbr_cell_rows_kernel's). */
__global__ void __launch_bounds__(1024)
    nbr_cell_fill_kernel(const tb_double4 *pos, const int *perm, const int *start, const int *end,
                         nbr_grid g, double R2, double skin, int lo, int hi, int ucap, int S,
                         const int *roff, int *idx)
{
    extern __shared__ double sh[];
    __shared__ int r0[27], rn[27], ro[28], nr;
    const int c = blockIdx.x, bd = blockDim.x, tid = threadIdx.x;
    const int a_lo = max(start[c], lo), a_hi = min(end[c], hi);
    if (a_lo >= a_hi)
        return;
    double *sx = sh, *sy = sx + ucap, *sz = sy + ucap;
    int *si = (int *)(sz + ucap);
    if (tid == 0) {
        nr = nbr_cell_runs(g, c, start, end, r0, rn);
        ro[0] = 0;
        for (int k = 0; k < nr; k++)
            ro[k + 1] = ro[k] + rn[k];
    }
    __syncthreads();
    const int total = ro[nr], p2 = nbr_pow2(total);
    for (int e = tid; e < p2; e += bd) {
        int v = 0x7fffffff;
        if (e < total) {
            int k = 0;
            while (e >= ro[k + 1])
                k++;
            v = perm[r0[k] + e - ro[k]];
        }
        si[e] = v;
    }
    __syncthreads();
    for (int k = 2; k <= p2; k <<= 1) /* bitonic sort, ascending; the indices are distinct */
        for (int j = k >> 1; j > 0; j >>= 1) {
            for (int e = tid; e < p2; e += bd) {
                const int x = e ^ j;
                if (x > e) {
                    const int a = si[e], b = si[x];
                    if ((a > b) == ((e & k) == 0)) {
                        si[e] = b;
                        si[x] = a;
                    }
                }
            }
            __syncthreads();
        }
    for (int e = tid; e < total; e += bd) {
        const tb_double4 p = pos[si[e]];
        sx[e] = p.x;
        sy[e] = p.y;
        sz[e] = p.z;
    }
    __syncthreads();
    const int s = tid % S, A = bd / S;
    const int b0 = (int)((long long)total * s / S), b1 = (int)((long long)total * (s + 1) / S);
    for (int base = a_lo; base < a_hi; base += A) { /* the whole block: the shuffles below */
        const int k = base + tid / S;
        int m = 0, lo_r = 0, i = -1;
        tb_double4 xi = {0, 0, 0, 0};
        if (k < a_hi) {
            i = perm[k];
            xi = pos[i];
            int hi_r = total; /* the anchor's own place among the candidates */
            while (lo_r < hi_r) {
                const int mid = (lo_r + hi_r) >> 1;
                if (si[mid] < i)
                    lo_r = mid + 1;
                else
                    hi_r = mid;
            }
            for (int r = b0; r < b1; r++)
                m += r != lo_r && nbr_keep(g, xi.x, xi.y, xi.z, sx[r], sy[r], sz[r], R2, skin);
        }
        int x = m; /* inclusive scan over the anchor's slices */
        for (int o = 1; o < S; o <<= 1) {
            const int y = __shfl_up_sync(0xffffffffu, x, o, S);
            if (s >= o)
                x += y;
        }
        if (k < a_hi) {
            int *out = idx + roff[k - lo] + (x - m);
            for (int r = b0; r < b1; r++)
                if (r != lo_r && nbr_keep(g, xi.x, xi.y, xi.z, sx[r], sy[r], sz[r], R2, skin))
                    *out++ = si[r];
        }
    }
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

/* Environment switches, read once: TB_NBR_BUILD selects the build (2 or unset: the passes of
 * nbr_cell_count_kernel and nbr_cell_fill_kernel, one wait; 1: nbr_cell_rows_kernel's, which
 * also waits for the most candidates of a cell before counting; 0: a count and a fill of each
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
    static int mode = -1, phases = -1, minblock = 128;
    if (mode < 0) {
        mode = nbr_env("TB_NBR_BUILD", 2);
        mode = mode < 0 || mode > 2 ? 2 : mode;
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
