/* gpu_rdf.cu — the RDF pair histogram (solver/rdf.h) on the device, from the positions the
 * backend holds, and its work space (gpu_rdf_work: O(n) device memory, kept between samples).
 *
 * The plan is the host's (physics/rdf_cells.h: rdf_plan, on the positions' extent along open
 * axes, reduced here): cells where they pay, all pairs where not.
 *   Cells: cell keys (nbr_cell_of), a stable radix sort of (cell, particle) (cub, deterministic),
 *   each cell's range, the positions gathered in cell order; then one thread per sorted particle
 *   i walks the stencil (rdf_stencil_cells) and counts every t > i with rdf_bin(x_i, x_t): the
 *   host's call on the same doubles. O(n) per sample: about 27 r_max^3 rho reads per particle.
 *   All pairs: tiles of RDF_TILE particles, one block per tile pair I <= J; n^2/2 distances.
 * Both count into a block-local shared histogram (when it fits) added to the global one at the
 * end. Integer counts: the same for any schedule, and the same as the host's (rdf_count_host,
 * rdf_count_cells), because this file is built with -fmad=false (Makefile): every distance is
 * rounded as on the host, so each pair falls in the same bin.
 * Cost: `scripts/gpu-check observables` times a sample against the liquid's step at n = 32768
 * and 10^6. */
#include <cub/cub.cuh>

#include <math.h>
#include <stdlib.h>

#include "common/check.h"
#include "solver/gpu/gpu_cells.cuh"
#include "solver/gpu/gpu_internal.h"
#include "solver/physics/rdf_cells.h"
#include "solver/rdf.h"

#define RDF_TILE 128
#define RDF_SHARED_MAX 8192 /* bins of the all-pairs block histogram (32 KiB of unsigned int) */
#define RDF_CELL_THREADS 256
#define RDF_CELL_SHARED_MAX 4096 /* bins of the cell path's block histogram (32 KiB of u64) */

/* The work space: the histogram and the cell path's sort, grown as needed. */
struct gpu_rdf_work {
    unsigned long long *d_counts;
    size_t counts_len;
    int *d_key, *d_key2, *d_seq, *d_perm; /* [n] each */
    tb_double4 *d_spos;                   /* [n] positions in cell order */
    long long n_cap;
    int *d_start, *d_end; /* [cells] */
    long long cells_cap;
    double *d_part; /* [6 CELLS_BBOX_BLOCKS] the extent's partial reductions */
    void *d_tmp;
    size_t tmp_bytes;
    int blocks; /* of the cell count: a few per multiprocessor */
};


/* ---- all pairs ------------------------------------------------------------------------ */

template <bool TYP, bool SHARED>
__global__ void __launch_bounds__(RDF_TILE)
    rdf_kernel(const tb_double4 *pos, int n, tb_box_d box, rdf_spec s, double r2, double inv,
               unsigned long long *counts)
{
    __shared__ double sx[RDF_TILE], sy[RDF_TILE], sz[RDF_TILE];
    __shared__ int st[RDF_TILE];
    extern __shared__ unsigned int hist[];
    const int I = blockIdx.y, J = blockIdx.x, t = threadIdx.x;
    if (J < I)
        return;
    const int len = rdf_npairs(s.ntypes) * s.bins;
    if (SHARED)
        for (int k = t; k < len; k += blockDim.x)
            hist[k] = 0;
    const int j0 = J * RDF_TILE, jn = min(RDF_TILE, n - j0);
    if (t < jn) {
        const tb_double4 p = pos[j0 + t];
        sx[t] = p.x;
        sy[t] = p.y;
        sz[t] = p.z;
        st[t] = TYP ? gpu_type_of(p.w) : 0;
    }
    __syncthreads();
    const int i = I * RDF_TILE + t;
    if (i < n) {
        const tb_double4 p = pos[i];
        const double xi[3] = {p.x, p.y, p.z};
        const int ti = TYP ? gpu_type_of(p.w) : 0;
        for (int k = I == J ? t + 1 : 0; k < jn; k++) {
            const double xj[3] = {sx[k], sy[k], sz[k]};
            const int bin = rdf_bin(&box, xi, xj, r2, inv, s.bins);
            if (bin < 0)
                continue;
            const int m = rdf_tpair(ti, st[k], s.ntypes) * s.bins + bin;
            if (SHARED)
                atomicAdd(&hist[m], 1u);
            else
                atomicAdd(&counts[m], 1ull);
        }
    }
    if (SHARED) {
        __syncthreads();
        for (int k = t; k < len; k += blockDim.x)
            if (hist[k])
                atomicAdd(&counts[k], (unsigned long long)hist[k]);
    }
}

static int count_all(const tb_double4 *pos, int n, int typed, const tb_box_d *box,
                     const rdf_spec *s, unsigned long long *d_counts, cudaStream_t st)
{
    const int len = rdf_npairs(s->ntypes) * s->bins, nb = (n + RDF_TILE - 1) / RDF_TILE;
    const int shared = len <= RDF_SHARED_MAX;
    const dim3 grid((unsigned)nb, (unsigned)nb);
    const size_t sh = shared ? (size_t)len * sizeof(unsigned int) : 0;
    const double r2 = rdf_guard2(s), inv = rdf_delrinv(s);
    if (typed && shared)
        rdf_kernel<true, true><<<grid, RDF_TILE, sh, st>>>(pos, n, *box, *s, r2, inv, d_counts);
    else if (typed)
        rdf_kernel<true, false><<<grid, RDF_TILE, sh, st>>>(pos, n, *box, *s, r2, inv, d_counts);
    else if (shared)
        rdf_kernel<false, true><<<grid, RDF_TILE, sh, st>>>(pos, n, *box, *s, r2, inv, d_counts);
    else
        rdf_kernel<false, false><<<grid, RDF_TILE, sh, st>>>(pos, n, *box, *s, r2, inv, d_counts);
    TB_LAUNCH_CHECK("rdf_kernel");
    return 0;
}

/* ---- cells ---------------------------------------------------------------------------- */

/* Each cell's range [start, end) of the sorted keys (untouched cells stay empty: 0, 0), and
 * the positions gathered in that order. */
__global__ void rdf_range_kernel(const int *key, const int *perm, const tb_double4 *pos, int n,
                                 int *start, int *end, tb_double4 *spos)
{
    const int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= n)
        return;
    cells_range_at(key, n, p, start, end);
    spos[p] = pos[perm[p]];
}

template <bool TYP, bool SHARED>
__global__ void __launch_bounds__(RDF_CELL_THREADS)
    rdf_cell_kernel(const tb_double4 *spos, const int *perm, const int *start, const int *end,
                    int n, nbr_grid g, rdf_spec s, double r2, double inv,
                    unsigned long long *counts)
{
    extern __shared__ unsigned long long hist64[];
    const int len = rdf_npairs(s.ntypes) * s.bins;
    if (SHARED) {
        for (int k = threadIdx.x; k < len; k += blockDim.x)
            hist64[k] = 0;
        __syncthreads();
    }
    for (int p = blockIdx.x * blockDim.x + threadIdx.x; p < n; p += gridDim.x * blockDim.x) {
        const tb_double4 a = spos[p];
        const double xi[3] = {a.x, a.y, a.z};
        const int i = perm[p], ti = TYP ? gpu_type_of(a.w) : 0;
        int u[27];
        const int m = rdf_stencil_cells(&g, xi, u);
        for (int k = 0; k < m; k++) {
            const int q1 = end[u[k]];
            for (int q = start[u[k]]; q < q1; q++) {
                if (perm[q] <= i) /* each pair once, from its lower index, as the host's */
                    continue;
                const tb_double4 b = spos[q];
                const double xt[3] = {b.x, b.y, b.z};
                const int bin = rdf_bin(&g.box, xi, xt, r2, inv, s.bins);
                if (bin < 0)
                    continue;
                const int c = rdf_tpair(ti, TYP ? gpu_type_of(b.w) : 0, s.ntypes) * s.bins + bin;
                if (SHARED)
                    atomicAdd(&hist64[c], 1ull);
                else
                    atomicAdd(&counts[c], 1ull);
            }
        }
    }
    if (SHARED) {
        __syncthreads();
        for (int k = threadIdx.x; k < len; k += blockDim.x)
            if (hist64[k])
                atomicAdd(&counts[k], hist64[k]);
    }
}

/* Device buffer *p of at least `need` elements (grown by a quarter); *cap its elements. */
template <typename T> static int grow(T **p, long long *cap, long long need, const char *what)
{
    return cells_grow(p, cap, need, what, "lower output.rdf's r_max or use fewer particles");
}

static int count_cells(gpu_rdf_work *w, const tb_double4 *pos, int n, int typed,
                       const nbr_grid *g, const rdf_spec *s, cudaStream_t st)
{
    const int T = 256, nb = (n + T - 1) / T;
    const long long cells = (long long)g->nc[0] * g->nc[1] * g->nc[2];
    const int len = rdf_npairs(s->ntypes) * s->bins, shared = len <= RDF_CELL_SHARED_MAX;
    const double r2 = rdf_guard2(s), inv = rdf_delrinv(s);
    long long c1 = w->n_cap, c2 = w->n_cap, c3 = w->n_cap, c4 = w->n_cap, c5 = w->n_cap;
    if (grow(&w->d_key, &c1, n, "cell keys") != 0 || grow(&w->d_key2, &c2, n, "cell keys") != 0 ||
        grow(&w->d_seq, &c3, n, "particle indices") != 0 ||
        grow(&w->d_perm, &c4, n, "particle indices") != 0 ||
        grow(&w->d_spos, &c5, n, "sorted positions") != 0)
        return -1;
    w->n_cap = c1 < c2 ? c1 : c2;
    w->n_cap = w->n_cap < c3 ? w->n_cap : c3;
    w->n_cap = w->n_cap < c4 ? w->n_cap : c4;
    w->n_cap = w->n_cap < c5 ? w->n_cap : c5;
    long long s1 = w->cells_cap, s2 = w->cells_cap;
    if (grow(&w->d_start, &s1, cells, "cells") != 0 || grow(&w->d_end, &s2, cells, "cells") != 0)
        return -1;
    w->cells_cap = s1 < s2 ? s1 : s2;
    const cells_sort_bufs sb = {w->d_key, w->d_key2, w->d_seq, w->d_perm,
                                w->d_start, w->d_end, &w->d_tmp, &w->tmp_bytes};
    if (cells_sort(pos, n, g, cells, &sb, st) != 0)
        return -1;
    rdf_range_kernel<<<nb, T, 0, st>>>(w->d_key2, w->d_perm, pos, n, w->d_start, w->d_end, w->d_spos);
    TB_LAUNCH_CHECK("rdf_range_kernel");
    if (!w->blocks) {
        int dev = 0, sms = 0, per = 0;
        CUDA_CHECK(cudaGetDevice(&dev));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
        CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &per, rdf_cell_kernel<true, true>, RDF_CELL_THREADS,
            (size_t)RDF_CELL_SHARED_MAX * sizeof(unsigned long long)));
        w->blocks = sms * (per > 0 ? per : 1);
    }
    /* a grid-stride loop over a few blocks per multiprocessor: each block's histogram is added
     * to the global one once, whatever n */
    const int cb = (n + RDF_CELL_THREADS - 1) / RDF_CELL_THREADS;
    const int blocks = cb < w->blocks ? cb : w->blocks;
    const size_t sh = shared ? (size_t)len * sizeof(unsigned long long) : 0;
    if (typed && shared)
        rdf_cell_kernel<true, true><<<blocks, RDF_CELL_THREADS, sh, st>>>(
            w->d_spos, w->d_perm, w->d_start, w->d_end, n, *g, *s, r2, inv, w->d_counts);
    else if (typed)
        rdf_cell_kernel<true, false><<<blocks, RDF_CELL_THREADS, sh, st>>>(
            w->d_spos, w->d_perm, w->d_start, w->d_end, n, *g, *s, r2, inv, w->d_counts);
    else if (shared)
        rdf_cell_kernel<false, true><<<blocks, RDF_CELL_THREADS, sh, st>>>(
            w->d_spos, w->d_perm, w->d_start, w->d_end, n, *g, *s, r2, inv, w->d_counts);
    else
        rdf_cell_kernel<false, false><<<blocks, RDF_CELL_THREADS, sh, st>>>(
            w->d_spos, w->d_perm, w->d_start, w->d_end, n, *g, *s, r2, inv, w->d_counts);
    TB_LAUNCH_CHECK("rdf_cell_kernel");
    return 0;
}

/* ---- the sample ----------------------------------------------------------------------- */

void gpu_rdf_free(gpu_rdf_work *w)
{
    if (!w)
        return;
    cudaFree(w->d_counts);
    cudaFree(w->d_key);
    cudaFree(w->d_key2);
    cudaFree(w->d_seq);
    cudaFree(w->d_perm);
    cudaFree(w->d_spos);
    cudaFree(w->d_start);
    cudaFree(w->d_end);
    cudaFree(w->d_part);
    cudaFree(w->d_tmp);
    free(w);
}

int gpu_rdf_count(const tb_double4 *pos, int n, int typed, const tb_box_d *box, const rdf_spec *s,
                  gpu_rdf_work **work, unsigned long long *counts, cudaStream_t st)
{
    const size_t len = (size_t)rdf_npairs(s->ntypes) * (size_t)s->bins;
    const size_t bytes = len * sizeof(unsigned long long);
    double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    nbr_grid g;
    gpu_rdf_work *w = *work;
    if (n < 2)
        return 0;
    if (!w) {
        if (!(w = (gpu_rdf_work *)calloc(1, sizeof *w)))
            return tb_error(NULL, 0, "out of host memory");
        *work = w;
    }
    if (len > w->counts_len) {
        cudaFree(w->d_counts);
        w->d_counts = NULL;
        w->counts_len = 0;
        CUDA_CHECK(cudaMalloc(&w->d_counts, bytes));
        w->counts_len = len;
    }
    CUDA_CHECK(cudaMemsetAsync(w->d_counts, 0, bytes, st));
    if (box->pbc != TB_BOX_PERIODIC_ALL && !w->d_part)
        CUDA_CHECK(cudaMalloc(&w->d_part, 6 * CELLS_BBOX_BLOCKS * sizeof(double)));
    if (box->pbc != TB_BOX_PERIODIC_ALL && cells_extent(pos, n, w->d_part, lo, hi, st) != 0)
        return -1;
    if (rdf_plan(s, box, lo, hi, n, &g)) {
        if (count_cells(w, pos, n, typed, &g, s, st) != 0)
            return -1;
    } else if (count_all(pos, n, typed, box, s, w->d_counts, st) != 0)
        return -1;
    {
        unsigned long long *h = (unsigned long long *)malloc(bytes);
        if (!h)
            return tb_error(NULL, 0, "out of host memory");
        const cudaError_t e1 = cudaMemcpyAsync(h, w->d_counts, bytes, cudaMemcpyDeviceToHost, st);
        const cudaError_t e2 = e1 == cudaSuccess ? cudaStreamSynchronize(st) : e1;
        if (e2 == cudaSuccess)
            for (size_t k = 0; k < len; k++)
                counts[k] += h[k];
        free(h);
        CUDA_CHECK(e2);
    }
    return 0;
}
