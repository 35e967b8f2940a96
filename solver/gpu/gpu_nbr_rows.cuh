/* gpu_nbr_rows.cuh — the neighbour lists' per-cell passes (CUDA C++ only; included by
 * gpu_nbr_build.cu alone, which launches them): the one keep test of a row entry, the cells'
 * stencils as runs of the cell-sorted particles, and the count and fill kernels of builds 1
 * (nbr_cell_rows_kernel) and 2 (nbr_cell_count_kernel, nbr_cell_fill_kernel). Every pass gives
 * the same rows, contents and order, bit for bit (docs/gpu.md, "Cutoff systems"). */
#ifndef TB_GPU_NBR_ROWS_CUH
#define TB_GPU_NBR_ROWS_CUH

#include "solver/gpu/gpu_nbr_int.h"

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

/* ---- rows sorted by construction (build 1; TB_NBR_BUILD=1) ----------------------------
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

/* The stencil of cell c as runs (nbr_cell_runs) and their prefix sums ro[0 .. nr], by the
 * block's thread 0 into shared memory; every thread of the block calls it (a barrier). */
__device__ __forceinline__ void nbr_cell_prefix(const nbr_grid &g, int c, const int *start,
                                                const int *end, int *r0, int *rn, int *ro, int *nr)
{
    if (threadIdx.x == 0) {
        *nr = nbr_cell_runs(g, c, start, end, r0, rn);
        ro[0] = 0;
        for (int k = 0; k < *nr; k++)
            ro[k + 1] = ro[k] + rn[k];
    }
    __syncthreads();
}

/* Anchor i's own place among the sorted candidates si[0 .. total) (a binary search: the
 * first at least i; i is among them, so its slot, which the row skips). */
__device__ __forceinline__ int nbr_own_place(const int *si, int total, int i)
{
    int lo = 0, hi = total;
    while (lo < hi) {
        const int mid = (lo + hi) >> 1;
        if (si[mid] < i)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The candidates of the runs (r0, ro, nr: nbr_cell_prefix) sorted by index into si (padded to
 * a power of two with INT_MAX) by a bitonic sort, their positions into sx, sy, sz, all in shared
 * memory; returns their count. Every thread of the block calls it (barriers). */
__device__ int nbr_cell_sorted(const tb_double4 *pos, const int *perm, const int *r0,
                               const int *ro, int nr, int *si, double *sx, double *sy, double *sz)
{
    const int bd = blockDim.x, tid = threadIdx.x;
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
    return total;
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
    nbr_cell_prefix(g, c, start, end, r0, rn, ro, &nr);
    const int total = nbr_cell_sorted(pos, perm, r0, ro, nr, si, sx, sy, sz);
    const int S = NBR_SLICES, s = tid % S, A = bd / S;
    const int b0 = (int)((long long)total * s / S), b1 = (int)((long long)total * (s + 1) / S);
    for (int base = a_lo; base < a_hi; base += A) { /* the whole block: the shuffles below */
        const int k = base + tid / S;
        int m = 0;
        if (k < a_hi) {
            const int i = perm[k];
            const tb_double4 xi = pos[i];
            const int lo_r = nbr_own_place(si, total, i);
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

/* ---- build 2's passes (TB_NBR_BUILD=2, the default for few atoms per cell; 1: the above) -
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
#define NBR_FEW_PER_CELL 16 /* the default build 2 up to this many atoms per cell on average */

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
    nbr_cell_prefix(g, c, start, end, r0, rn, ro, &nr);
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
    nbr_cell_prefix(g, c, start, end, r0, rn, ro, &nr);
    const int total = nbr_cell_sorted(pos, perm, r0, ro, nr, si, sx, sy, sz);
    const int s = tid % S, A = bd / S;
    const int b0 = (int)((long long)total * s / S), b1 = (int)((long long)total * (s + 1) / S);
    for (int base = a_lo; base < a_hi; base += A) { /* the whole block: the shuffles below */
        const int k = base + tid / S;
        int m = 0, lo_r = 0, i = -1;
        tb_double4 xi = {0, 0, 0, 0};
        if (k < a_hi) {
            i = perm[k];
            xi = pos[i];
            lo_r = nbr_own_place(si, total, i);
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

#endif
