/* gpu_nbr.cu — the neighbour-list path on the GPU (nbr.h): the lists built on the device, the
 * skin test, and the force kernel with one block per anchor.
 *
 * Build (every CUB call deterministic, so the same positions give the same lists): cell keys,
 * a stable radix sort of (cell, particle), the cells' ranges, a count pass over every anchor in
 * cell order, an exclusive scan into row offsets, this rank's cut of the anchors (on the device,
 * from a scan of the rows' work: docs/scaling.md), a fill pass over this rank's anchors only and
 * a segmented sort of each of its rows by particle index. Rows are stored in cell order, so a
 * rank's rows are contiguous and it holds only those (the other ranks' rows are never read
 * here). Device memory is O(N / P) for the rows: ~ (2 pi / 3) rho R^3 entries per particle.
 *
 * Force kernel: block b takes anchor perm[b] (particles in cell order, so neighbouring blocks
 * read neighbouring particles). Its 128 threads filter the row at the current positions into
 * shared memory (separations formed in double, stored in R; the ATM partners first, order
 * kept by a ballot compaction), then the 4 warps share the tiles (P, Q) of the entry-pair
 * triangle, tile w = warp, warp + 4, ..., placed by lambda2d. In a tile, lane l holds entry
 * j = 32 P + l and visits k = 32 Q + ((l + s) mod 32), s = 0..31: at each step the 32 lanes
 * touch 32 different k, so each warp keeps the k-side sums in its own shared array without
 * atomics. Per triplet: one 16-byte load of entry k, its 3 sides, pot_atm_set, three
 * selects, 4 FMAs into the k sums in shared memory and 4 into the j sums in registers. At the
 * end each entry's force F_q = 0.75 nu (V_q + S_q d_q) (+ its LJ pair force) is added to
 * global memory by the accumulation mode, the anchor's F_i = -sum F_q, and the block's
 * energies and virial sum_q d_q (x) F_q.
 *
 * Species (the typed instances nbr_kernel<atm_typed<R>, STATS>, several species only): the
 * filter keeps each entry's type (from the type lane of the position it loads anyway), then
 * the block writes nuk[tj cap + k] = nu(ti, tj, type of entry k) for the anchor's type ti and
 * every species tj; in a tile lane j reads its row tj at k, one 4- (8-) byte load per triplet
 * beside the 16-byte load of entry k, in 32 different banks (rows cap apart, cap a multiple of
 * 32, and 32 different k), and its e, ga, gb, gc take the factor nu (one multiply; the other
 * three fold into the sums' FMAs); the epilogue then scales by 0.75 alone. The LJ-only partners
 * are those within the largest species pair's cutoff (q.rcl2), and each entry's pair takes
 * its own coefficients (the anchor's row of the LJ table, staged in shared memory): its
 * cutoff, and none for a pair of species without LJ. */
#include <cub/cub.cuh>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "maps3d/lambda2d.h"
#include "common/check.h"
#include "solver/gpu/gpu_atm.cuh"
#include "solver/gpu/gpu_internal.h"
#include "solver/par/mpi.h"
#include "solver/par/split.h"
#include "solver/physics/nbr.h"

#define NBR_NT 128
#define NBR_NW (NBR_NT / 32)

struct gpu_nbr {
    int n;
    tb_box_d box; /* the box (box.h); the lists work in double whatever the precision */
    double radius, skin;
    nbr_grid g;
    int *d_key, *d_key2, *d_seq, *d_perm; /* [n] */
    int *d_start, *d_end;                 /* [cells] */
    long long cells_cap;
    int *d_cnt, *d_off;                   /* [n + 1]: row lengths, offsets (cell order) */
    int *d_roff;                          /* [n + 1]: this rank's rows' offsets in d_idx */
    long long *d_work, *d_wpre;           /* [n + 1]: anchors' work and its scan (P > 1) */
    int *d_meta;                          /* [6]: a_lo, a_hi, off[a_lo], off[a_hi], max, total */
    int *d_idx, *d_idx2;                  /* [cap]: this rank's rows */
    long long cap, entries;
    tb_double4 *d_xref;                   /* [n] positions at the build */
    double *d_part;                       /* [256 * 6] bounding-box partials */
    unsigned *d_flag;                     /* skin test */
    unsigned long long *d_stats;          /* [2]: entry-pair slots, triplets that counted */
    void *d_tmp;
    size_t tmp_bytes;
    int max_row;
    long long builds;
    int a_lo, a_hi;                       /* this rank's blocks (positions in perm) */
    long long share_entries;              /* list entries of this rank's anchors (held here) */
    int fresh;                            /* gpu_nbr_refresh just ran: forces skip the check */
    int smem_max;                         /* largest dynamic shared memory per block */
};

/* ---- build ------------------------------------------------------------------------- */

__global__ void nbr_bbox_kernel(const tb_double4 *pos, int n, double *part)
{
    __shared__ double s[6][256];
    double v[6] = {HUGE_VAL, HUGE_VAL, HUGE_VAL, -HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        const tb_double4 p = pos[i];
        v[0] = fmin(v[0], p.x);
        v[1] = fmin(v[1], p.y);
        v[2] = fmin(v[2], p.z);
        v[3] = fmax(v[3], p.x);
        v[4] = fmax(v[4], p.y);
        v[5] = fmax(v[5], p.z);
    }
    for (int c = 0; c < 6; c++)
        s[c][threadIdx.x] = v[c];
    __syncthreads();
    for (int h = 128; h > 0; h >>= 1) {
        if ((int)threadIdx.x < h)
            for (int c = 0; c < 6; c++)
                s[c][threadIdx.x] = c < 3 ? fmin(s[c][threadIdx.x], s[c][threadIdx.x + h])
                                          : fmax(s[c][threadIdx.x], s[c][threadIdx.x + h]);
        __syncthreads();
    }
    if (threadIdx.x == 0)
        for (int c = 0; c < 6; c++)
            part[6 * blockIdx.x + c] = s[c][0];
}

__global__ void nbr_key_kernel(const tb_double4 *pos, int n, nbr_grid g, int *key, int *seq)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const tb_double4 p = pos[i];
    key[i] = nbr_cell_of(&g, p.x, p.y, p.z);
    seq[i] = i;
}

__global__ void nbr_range_kernel(const int *key, int n, int *start, int *end)
{
    const int s = blockIdx.x * blockDim.x + threadIdx.x;
    if (s >= n)
        return;
    const int c = key[s];
    if (s == 0 || key[s - 1] != c)
        start[c] = s;
    if (s == n - 1 || key[s + 1] != c)
        end[c] = s + 1;
}

/* Row of particle i: counted (out == NULL) or written. The same test as nbr_list.c. */
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
                    double d[3] = {xt.x - xi.x, xt.y - xi.y, xt.z - xi.z};
                    box_min_image_d(&g.box, d);
                    if (t == i || d[0] < -skin || d[0] * d[0] + d[1] * d[1] + d[2] * d[2] > R2)
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

__global__ void nbr_stale_kernel(const tb_double4 *pos, const tb_double4 *xref, int n, tb_box_d box,
                                 double lim2, unsigned *flag)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const tb_double4 p = pos[i], r = xref[i];
    double d[3] = {p.x - r.x, p.y - r.y, p.z - r.z};
    box_min_image_d(&box, d);
    if (d[0] * d[0] + d[1] * d[1] + d[2] * d[2] > lim2)
        atomicOr(flag, 1u);
}

static int grid_for(int n, int threads) { return (n + threads - 1) / threads; }

/* Device buffer *p of at least `need` elements of size sz (grown by a quarter). */
template <typename T> static int grow(T **p, long long *cap, long long need, const char *what)
{
    if (need <= *cap)
        return 0;
    const long long c = need + need / 4 + 64;
    cudaFree(*p);
    *p = NULL;
    *cap = 0;
    if (cudaMalloc((void **)p, (size_t)c * sizeof(T)) != cudaSuccess) {
        cudaGetLastError();
        return tb_error(NULL, 0, "out of GPU memory for %lld %s (%zu bytes): lower solver.skin or "
                                 "the cutoffs, or use fewer particles", c, what,
                        (size_t)c * sizeof(T));
    }
    *cap = c;
    return 0;
}

/* cub's temporary storage: never left NULL, since cub reads a NULL d_temp_storage as a size
 * query and would then silently do nothing (a call that needs 0 bytes, as on 0 items). */
static int tmp_fit(gpu_nbr *b, size_t bytes)
{
    if (b->d_tmp && bytes <= b->tmp_bytes)
        return 0;
    bytes = bytes > 256 ? bytes : 256;
    cudaFree(b->d_tmp);
    b->d_tmp = NULL;
    b->tmp_bytes = 0;
    CUDA_CHECK(cudaMalloc(&b->d_tmp, bytes));
    b->tmp_bytes = bytes;
    return 0;
}

static int nbr_build(gpu_nbr *b, const tb_double4 *pos, cudaStream_t st)
{
    const int n = b->n, T = 256;
    double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    if (b->box.pbc != TB_BOX_PERIODIC_ALL) { /* the open axes' extent */
        double part[256 * 6];
        nbr_bbox_kernel<<<256, 256, 0, st>>>(pos, n, b->d_part);
        TB_LAUNCH_CHECK("nbr_bbox_kernel");
        CUDA_CHECK(cudaMemcpyAsync(part, b->d_part, sizeof part, cudaMemcpyDeviceToHost, st));
        CUDA_CHECK(cudaStreamSynchronize(st));
        for (int d = 0; d < 3; d++) {
            lo[d] = part[d];
            hi[d] = part[3 + d];
            for (int k = 1; k < 256; k++) {
                lo[d] = fmin(lo[d], part[6 * k + d]);
                hi[d] = fmax(hi[d], part[6 * k + 3 + d]);
            }
        }
    }
    nbr_grid_make(&b->g, &b->box, lo, hi, b->radius, 2LL * n + 64);
    const long long cells = (long long)b->g.nc[0] * b->g.nc[1] * b->g.nc[2];
    long long cap_s = b->cells_cap, cap_e = b->cells_cap;
    if (grow(&b->d_start, &cap_s, cells, "neighbour cells") != 0 ||
        grow(&b->d_end, &cap_e, cells, "neighbour cells") != 0)
        return -1;
    b->cells_cap = cap_s < cap_e ? cap_s : cap_e;
    int bits = 1;
    while ((1LL << bits) < cells)
        bits++;

    nbr_key_kernel<<<grid_for(n, T), T, 0, st>>>(pos, n, b->g, b->d_key, b->d_seq);
    TB_LAUNCH_CHECK("nbr_key_kernel");
    size_t need = 0;
    CUDA_CHECK(cub::DeviceRadixSort::SortPairs(NULL, need, b->d_key, b->d_key2, b->d_seq, b->d_perm,
                                               n, 0, bits, st));
    if (tmp_fit(b, need) != 0)
        return -1;
    CUDA_CHECK(cub::DeviceRadixSort::SortPairs(b->d_tmp, need, b->d_key, b->d_key2, b->d_seq,
                                               b->d_perm, n, 0, bits, st));
    CUDA_CHECK(cudaMemsetAsync(b->d_start, 0, (size_t)cells * sizeof(int), st));
    CUDA_CHECK(cudaMemsetAsync(b->d_end, 0, (size_t)cells * sizeof(int), st));
    nbr_range_kernel<<<grid_for(n, T), T, 0, st>>>(b->d_key2, n, b->d_start, b->d_end);
    TB_LAUNCH_CHECK("nbr_range_kernel");

    /* every row counted (cell order), then this rank's cut: on the device, the same integers
     * as split_prefix on the host (rows' work c (c + 1) + 1, equal-work boundaries), so that
     * neither the row lengths nor the anchors go to the host */
    const double R2 = b->radius * b->radius;
    const int P = tb_split_nranks();
    nbr_count_kernel<<<grid_for(n + 1, T), T, 0, st>>>(pos, b->d_perm, b->d_start, b->d_end, b->g,
                                                        R2, b->skin, n, b->d_cnt);
    TB_LAUNCH_CHECK("nbr_count_kernel");
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
    int meta[6];
    CUDA_CHECK(cudaMemcpyAsync(meta, b->d_meta, sizeof meta, cudaMemcpyDeviceToHost, st));
    CUDA_CHECK(cudaStreamSynchronize(st));
    const int total = meta[5], maxrow = meta[4], a0 = meta[0], m = meta[1] - meta[0];
    const int held = meta[3] - meta[2];
    if (total < 0)
        return tb_error(NULL, 0, "neighbour lists exceed 2^31 entries: lower solver.skin or the "
                                 "cutoffs");
    long long cap1 = b->cap, cap2 = b->cap;
    if (grow(&b->d_idx, &cap1, held > 0 ? held : 1, "neighbour entries") != 0 ||
        grow(&b->d_idx2, &cap2, held > 0 ? held : 1, "neighbour entries") != 0)
        return -1;
    b->cap = cap1 < cap2 ? cap1 : cap2;
    nbr_roff_kernel<<<grid_for(m + 1, T), T, 0, st>>>(b->d_off, a0, m, b->d_roff);
    TB_LAUNCH_CHECK("nbr_roff_kernel");
    if (m > 0) {
        nbr_fill_kernel<<<grid_for(m, T), T, 0, st>>>(pos, b->d_perm, b->d_start, b->d_end, b->g,
                                                      R2, b->skin, a0, m, b->d_roff, b->d_idx);
        TB_LAUNCH_CHECK("nbr_fill_kernel");
    }
    if (held > 0) {
        CUDA_CHECK(cub::DeviceSegmentedSort::SortKeys(NULL, need, b->d_idx, b->d_idx2, held, m,
                                                      b->d_roff, b->d_roff + 1, st));
        if (tmp_fit(b, need) != 0)
            return -1;
        CUDA_CHECK(cub::DeviceSegmentedSort::SortKeys(b->d_tmp, need, b->d_idx, b->d_idx2, held, m,
                                                      b->d_roff, b->d_roff + 1, st));
        int *t = b->d_idx;
        b->d_idx = b->d_idx2;
        b->d_idx2 = t;
    }
    CUDA_CHECK(cudaMemcpyAsync(b->d_xref, pos, (size_t)n * sizeof(tb_double4),
                               cudaMemcpyDeviceToDevice, st));
    b->entries = total;
    b->max_row = maxrow;
    b->a_lo = a0;
    b->a_hi = a0 + m;
    b->share_entries = held;
    b->builds++;
    return 0;
}

/* ---- forces ------------------------------------------------------------------------ */

template <typename R> struct nbr_real;
template <> struct nbr_real<float> {
    typedef float4 V;
    typedef pot_coef_f C;
    static __device__ __forceinline__ const C &coef(const gpu_args &a) { return a.kf; }
    static __device__ __forceinline__ int atm(const C &k, const float dj[3], float a,
                                              const float dk[3], float c, float djk[3], float *e,
                                              float *ga, float *gb, float *gc)
    {
        return nbr_atm_f(&k, dj, a, dk, c, djk, e, ga, gb, gc);
    }
};
template <> struct nbr_real<double> {
    typedef tb_double4 V;
    typedef pot_coef_d C;
    static __device__ __forceinline__ const C &coef(const gpu_args &a) { return a.kd; }
    static __device__ __forceinline__ int atm(const C &k, const double dj[3], double a,
                                              const double dk[3], double c, double djk[3],
                                              double *e, double *ga, double *gb, double *gc)
    {
        return nbr_atm_d(&k, dj, a, dk, c, djk, e, ga, gb, gc);
    }
};

struct nbr_args {
    const int *perm, *off, *idx; /* off: this rank's rows, block b's at idx + off[b] */
    tb_box_d box;           /* the lists' box (double) */
    double rca2, rcl2;      /* < 0 when the term is off */
    int cap;                /* entries the shared arrays hold (a multiple of 32) */
    int b0;                 /* block b takes anchor perm[b0 + b] (this rank's range) */
    unsigned long long *stats;
};

template <typename R> __host__ __device__ constexpr int nbr_entry_bytes()
{
    return (int)sizeof(typename nbr_real<R>::V) * (1 + NBR_NW) + (int)sizeof(int);
}
/* The typed instances add nuk [nt][cap], the anchor's LJ row [nt] and the types [cap] (one
 * byte each). */
template <typename R> static int nbr_smem_bytes(int cap, int nt)
{
    return cap * nbr_entry_bytes<R>() + 32 * (int)sizeof(double) + 8 * (int)sizeof(int) +
           (nt > 1 ? cap * (nt * (int)sizeof(R) + 1) +
                         nt * (int)sizeof(typename atm_real<R>::lj_pair)
                   : 0);
}

template <typename K, bool STATS>
__global__ void __launch_bounds__(NBR_NT) nbr_kernel(gpu_args a, nbr_args q)
{
    typedef typename atm_family<K>::R R;
    constexpr bool TYP = atm_family<K>::TYP;
    typedef typename nbr_real<R>::V V;
    extern __shared__ __align__(16) unsigned char smem_raw[];
    V *ent = (V *)smem_raw;            /* [cap]: d_q, |d_q|^2 */
    V *acc = ent + q.cap;              /* [NW][cap]: V_q, S_q per warp */
    double *scratch = (double *)(acc + NBR_NW * q.cap); /* [32] */
    int *wcount = (int *)(scratch + 32);                /* [8] */
    int *tix = wcount + 8;                              /* [cap] */
    typedef typename atm_real<R>::lj_pair LP;
    const int nt = TYP ? a.kf.ntypes : 0;
    R *nuk = (R *)(tix + q.cap);                        /* TYP: [nt][cap] (16-byte aligned) */
    LP *slj = (LP *)(nuk + nt * q.cap);                 /* TYP: [nt] LJ of (anchor, species) */
    unsigned char *sty = (unsigned char *)(slj + nt);   /* TYP: [cap] */
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const auto &kc = nbr_real<R>::coef(a);
    const int i = q.perm[q.b0 + blockIdx.x];
    const tb_double4 xi = a.posd[i];
    const int ti = TYP ? gpu_type_of(xi.w) : 0; /* the anchor's species */
    const int *row = q.idx + q.off[blockIdx.x], cnt = q.off[blockIdx.x + 1] - q.off[blockIdx.x];

    /* entries: ATM partners, then LJ-only partners, order kept */
    int m = 0, ma = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (int c0 = 0; c0 < cnt; c0 += NBR_NT) {
            const int r = c0 + tid;
            bool keep = false;
            int t = 0, tt = 0;
            double dx = 0, dy = 0, dz = 0, r2 = 0;
            if (r < cnt) {
                t = row[r];
                const tb_double4 xt = a.posd[t];
                if (TYP)
                    tt = gpu_type_of(xt.w);
                double e[3] = {xt.x - xi.x, xt.y - xi.y, xt.z - xi.z};
                box_min_image_d(&q.box, e);
                dx = e[0];
                dy = e[1];
                dz = e[2];
                r2 = dx * dx + dy * dy + dz * dz;
                const bool atm = r2 <= q.rca2;
                keep = (pass == 0 ? atm : !atm && r2 < q.rcl2) && nbr_after(dx, dy, dz, i, t);
            }
            const unsigned ball = __ballot_sync(0xffffffffu, keep);
            if (lane == 0)
                wcount[warp] = __popc(ball);
            __syncthreads();
            int before = m, total = 0;
            for (int w = 0; w < NBR_NW; w++) {
                before += w < warp ? wcount[w] : 0;
                total += wcount[w];
            }
            if (keep) {
                const int p = before + __popc(ball & ((1u << lane) - 1u));
                V v;
                v.x = (R)dx;
                v.y = (R)dy;
                v.z = (R)dz;
                v.w = v.x * v.x + v.y * v.y + v.z * v.z;
                ent[p] = v;
                tix[p] = t;
                if (TYP)
                    sty[p] = (unsigned char)tt;
            }
            m += total;
            __syncthreads();
        }
        if (pass == 0)
            ma = m;
    }
    const int mpad = (ma + 31) & ~31; /* tiles read up to here: pad with far, finite entries */
    for (int p = m + tid; p < mpad; p += NBR_NT) {
        V v;
        v.x = v.y = v.z = (R)1e3;
        v.w = (R)3e6;
        ent[p] = v;
    }
    const int mz = mpad > m ? mpad : m;
    for (int p = tid; p < NBR_NW * mz; p += NBR_NT) {
        V z;
        z.x = z.y = z.z = z.w = (R)0;
        acc[(p / mz) * q.cap + p % mz] = z;
    }
    if (TYP) { /* nu of (anchor, species tj, entry k); 0 beyond the ATM partners (masked anyway) */
        for (int p = tid; p < nt * mpad; p += NBR_NT) {
            const int tj = p / mpad, k = p - tj * mpad;
            nuk[tj * q.cap + k] = k < ma ? __ldg(kc.tab->nu + POT_TRIPLET(ti, tj, sty[k])) : (R)0;
        }
        for (int p = tid; p < nt; p += NBR_NT)
            slj[p] = kc.tab->lj[POT_PAIR(ti, p)];
    }
    __syncthreads();

    /* triplets: tile pairs (P, Q) of the ma ATM entries, dealt to the warps */
    double e_thread = 0.0;
    unsigned long long hits = 0;
    const int mb = mpad / 32;
    const long long n_tiles = map3d_tri(mb);
    V *accw = acc + warp * q.cap;
    for (long long w = warp; w < n_tiles; w += NBR_NW) {
        const int Q = map2d_lambda2d_row(w), P = (int)(w - map3d_tri(Q));
        const int j = 32 * P + lane;
        const V ej = ent[j];
        const R dj[3] = {ej.x, ej.y, ej.z};
        const R *nrow = nuk + (TYP && j < ma ? sty[j] : 0) * q.cap; /* TYP: j's row */
        R A = 0, E = 0, fx = 0, fy = 0, fz = 0;
#pragma unroll 4
        for (int s = 0; s < 32; s++) {
            const int kk = (lane + s) & 31, k = 32 * Q + kk;
            const V ek = ent[k];
            const R dk[3] = {ek.x, ek.y, ek.z};
            R djk[3], e, ga, gb, gc;
            const int in = nbr_real<R>::atm(kc, dj, ej.w, dk, ek.w, djk, &e, &ga, &gb, &gc);
            const bool ok = in && j < ma && k < ma && (P < Q || kk > lane);
            e = ok ? e : (R)0;
            ga = ok ? ga : (R)0;
            gb = ok ? gb : (R)0;
            gc = ok ? gc : (R)0;
            R nu = (R)1;
            if (TYP) { /* the triplet's nu, which the one-species kernel applies at the end: */
                nu = nrow[k]; /* e and ga fold into the sums' FMAs, gc below, gb costs a multiply */
                e *= nu;
                ga *= nu;
                gb *= nu;
            }
            if (STATS)
                hits += ok;
            E += e;
            A += ga;
            fx += gb * djk[0];
            fy += gb * djk[1];
            fz += gb * djk[2];
            V vk = accw[k];
            vk.x -= gb * djk[0];
            vk.y -= gb * djk[1];
            vk.z -= gb * djk[2];
            vk.w = TYP ? atm_real<R>::fma(-gc, nu, vk.w) : vk.w - gc;
            accw[k] = vk;
            __syncwarp();
        }
        V vj = accw[j];
        vj.x += fx;
        vj.y += fy;
        vj.z += fz;
        vj.w -= A;
        accw[j] = vj;
        __syncwarp();
        e_thread += (double)E;
    }
    __syncthreads();

    /* forces of the entries, pairs, the anchor's force, virial */
    const double scale = 0.75 * (TYP ? 1.0 : (double)kc.nu);
    double fi[3] = {0, 0, 0}, ep = 0, vir[6] = {0, 0, 0, 0, 0, 0};
    for (int p = tid; p < m; p += NBR_NT) {
        const V d = ent[p];
        const R dv[3] = {d.x, d.y, d.z};
        double f[3] = {0, 0, 0};
        if (p < ma) {
            R sx = 0, sy = 0, sz = 0, sw = 0;
            for (int w = 0; w < NBR_NW; w++) { /* fixed order: deterministic */
                const V v = acc[w * q.cap + p];
                sx += v.x;
                sy += v.y;
                sz += v.z;
                sw += v.w;
            }
            f[0] = scale * (double)(sx + sw * dv[0]);
            f[1] = scale * (double)(sy + sw * dv[1]);
            f[2] = scale * (double)(sz + sw * dv[2]);
        }
        if (d.w < (TYP ? slj[sty[p]].rc2 : kc.lj_rc2)) { /* TYP: the pair's own coefficients */
            R pi[3] = {0, 0, 0}, pj[3] = {0, 0, 0};
            ep += (double)(TYP ? atm_real<R>::pair(slj[sty[p]], dv, d.w, pi, pj)
                               : atm_real<R>::pair(kc, dv, d.w, pi, pj));
            f[0] += (double)pj[0];
            f[1] += (double)pj[1];
            f[2] += (double)pj[2];
        }
        add_force(a, tix[p], f[0], f[1], f[2]);
        fi[0] -= f[0];
        fi[1] -= f[1];
        fi[2] -= f[2];
        vir[0] += (double)dv[0] * f[0];
        vir[1] += (double)dv[1] * f[1];
        vir[2] += (double)dv[2] * f[2];
        vir[3] += 0.5 * ((double)dv[0] * f[1] + (double)dv[1] * f[0]);
        vir[4] += 0.5 * ((double)dv[0] * f[2] + (double)dv[2] * f[0]);
        vir[5] += 0.5 * ((double)dv[1] * f[2] + (double)dv[2] * f[1]);
    }
    for (int c = 0; c < 3; c++)
        fi[c] = block_sum(fi[c], scratch);
    for (int c = 0; c < 6; c++)
        vir[c] = block_sum(vir[c], scratch);
    const double et = block_sum(e_thread, scratch), eps = block_sum(ep, scratch);
    double hsum = 0.0;
    if (STATS)
        hsum = block_sum((double)hits, scratch);
    if (tid == 0) {
        add_force(a, i, fi[0], fi[1], fi[2]);
        add_energy(a, 0, (TYP ? 1.0 : (double)kc.nu) * et);
        add_energy(a, 1, eps);
        for (int c = 0; c < 6; c++) {
            add_virial(a, c, vir[c]);
        }
        if (STATS) {
            atomicAdd(q.stats, (unsigned long long)n_tiles * 1024ull);
            atomicAdd(q.stats + 1, (unsigned long long)hsum);
        }
    }
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
    cudaFree(b->d_roff);
    cudaFree(b->d_work);
    cudaFree(b->d_wpre);
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
    CUDA_CHECK(cudaMalloc(&b->d_part, 256 * 6 * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&b->d_flag, sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&b->d_roff, (n + 1) * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&b->d_meta, 6 * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&b->d_stats, 2 * sizeof(unsigned long long)));
    CUDA_CHECK(cudaMemset(b->d_stats, 0, 2 * sizeof(unsigned long long)));
    return 0;
}

int gpu_nbr_create(gpu_nbr **out, int n, const tb_box_d *box, double radius, double skin)
{
    gpu_nbr *b;
    int dev = 0;
    *out = NULL;
    if (box->tilted) /* the cells are an untilted box's (nbr_grid) */
        return tb_error(NULL, 0, "neighbour lists of a tilted box are not written yet");
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

/* Rebuilds when no list exists or a particle moved more than skin/2 since the last build. */
static int nbr_refresh(gpu_nbr *b, const tb_double4 *pos, cudaStream_t st)
{
    if (b->fresh) { /* gpu_nbr_refresh checked these positions */
        b->fresh = 0;
        return 0;
    }
    if (b->builds > 0) {
        unsigned flag = 0;
        CUDA_CHECK(cudaMemsetAsync(b->d_flag, 0, sizeof(unsigned), st));
        nbr_stale_kernel<<<grid_for(b->n, 256), 256, 0, st>>>(pos, b->d_xref, b->n, b->box,
                                                              0.25 * b->skin * b->skin, b->d_flag);
        TB_LAUNCH_CHECK("nbr_stale_kernel");
        CUDA_CHECK(cudaMemcpyAsync(&flag, b->d_flag, sizeof flag, cudaMemcpyDeviceToHost, st));
        CUDA_CHECK(cudaStreamSynchronize(st));
        if (!flag)
            return 0;
    }
    return nbr_build(b, pos, st);
}

template <typename R, bool STATS, bool TYP>
static int nbr_launch_t(gpu_nbr *b, const gpu_args *a, const nbr_args &q, cudaStream_t st)
{
    const int smem = nbr_smem_bytes<R>(q.cap, TYP ? a->kf.ntypes : 1);
    if (smem > b->smem_max)
        return tb_error(NULL, 0, "a neighbour row of %d entries needs %d bytes of shared memory, "
                                 "more than the GPU's %d: lower the cutoffs or solver.skin, or "
                                 "use solver.precision = \"mixed\" (half the bytes of double)",
                        b->max_row, smem, b->smem_max);
    CUDA_CHECK(cudaFuncSetAttribute(nbr_kernel<typename atm_kernel_arg<R, TYP>::type, STATS>,
                                    cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    if (b->a_hi <= b->a_lo)
        return 0; /* no anchors for this rank */
    nbr_kernel<typename atm_kernel_arg<R, TYP>::type, STATS>
        <<<b->a_hi - b->a_lo, NBR_NT, smem, st>>>(*a, q);
    TB_LAUNCH_CHECK("nbr_kernel");
    return 0;
}

int gpu_nbr_forces(gpu_nbr *b, const gpu_args *a, const pot_params *pp, int dbl, int stats,
                   cudaStream_t st)
{
    nbr_args q;
    if (nbr_refresh(b, a->posd, st) != 0)
        return -1;
    q.perm = b->d_perm;
    q.off = b->d_roff;
    q.idx = b->d_idx;
    q.box = b->box;
    q.rca2 = pp->atm_on ? pp->d.atm_rc2 : -1.0;
    q.rcl2 = pp->lj_on ? pp->d.lj_rc2 : -1.0; /* several species: the largest pair's */
    const int nt = pp->d.ntypes;
    q.cap = ((b->max_row > 0 ? b->max_row : 1) + 31) & ~31;
    q.stats = b->d_stats;
    q.b0 = b->a_lo;
    if (stats)
        CUDA_CHECK(cudaMemsetAsync(b->d_stats, 0, 2 * sizeof(unsigned long long), st));
    if (b->n == 0)
        return 0;
    if (nt > 1) /* several species: the typed instances */
        return dbl ? (stats ? nbr_launch_t<double, true, true>(b, a, q, st)
                            : nbr_launch_t<double, false, true>(b, a, q, st))
                   : (stats ? nbr_launch_t<float, true, true>(b, a, q, st)
                            : nbr_launch_t<float, false, true>(b, a, q, st));
    if (dbl)
        return stats ? nbr_launch_t<double, true, false>(b, a, q, st)
                     : nbr_launch_t<double, false, false>(b, a, q, st);
    return stats ? nbr_launch_t<float, true, false>(b, a, q, st)
                 : nbr_launch_t<float, false, false>(b, a, q, st);
}

unsigned long long *gpu_nbr_counters(gpu_nbr *b)
{
    return b->d_stats;
}

int gpu_nbr_stats(gpu_nbr *b, gpu_nbr_info *info, cudaStream_t st)
{
    unsigned long long s[2];
    CUDA_CHECK(cudaMemcpyAsync(s, b->d_stats, sizeof s, cudaMemcpyDeviceToHost, st));
    CUDA_CHECK(cudaStreamSynchronize(st));
    info->slots = (long long)s[0];
    info->hits = (long long)s[1];
    info->builds = b->builds;
    info->entries = b->entries;
    info->max_row = b->max_row;
    return 0;
}

int gpu_nbr_refresh(gpu_nbr *b, const tb_double4 *pos, cudaStream_t st)
{
    const int rc = nbr_refresh(b, pos, st);
    b->fresh = rc == 0;
    return rc;
}

void gpu_nbr_share(const gpu_nbr *b, long long *anchors, long long *entries)
{
    *anchors = b->a_hi - b->a_lo;
    *entries = b->share_entries;
}
