/* gpu_cells.cuh — a cell sort on the device, shared by the neighbour lists' build
 * (gpu_nbr_build.cu) and the RDF's cells (gpu_rdf.cu). Device side: the particles' bounding box
 * (per-block partial min/max), each particle's cell key in an nbr_grid (nbr.h's nbr_cell_of,
 * the host's code) and, after the sort of (key, particle), each cell's range [start, end) of
 * the sorted keys. Host side: the device arrays' growth, the bounding box brought back and
 * reduced (cells_extent), and the keys with CUB's radix sort (cells_sort); each caller then
 * runs its own range pass. Included by each .cu that uses them (static: each file holds its
 * own copy of the code written here once). */
#ifndef TB_GPU_CELLS_CUH
#define TB_GPU_CELLS_CUH

#include <cub/cub.cuh>

#include "common/check.h"
#include "solver/gpu/gpu_internal.h"
#include "solver/physics/nbr.h"

#define CELLS_BBOX_BLOCKS 256 /* cells_bbox_kernel's grid: part holds 6 * this doubles */

/* part[6 * block + c]: the block's min x, y, z (c < 3) and max x, y, z of pos[0, n); 256
 * threads a block. */
static __global__ void cells_bbox_kernel(const tb_double4 *pos, int n, double *part)
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

/* key[i]: particle i's cell in g; seq[i] = i (the values a sort by key carries). */
static __global__ void cells_key_kernel(const tb_double4 *pos, int n, nbr_grid g, int *key,
                                        int *seq)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const tb_double4 p = pos[i];
    key[i] = nbr_cell_of(&g, p.x, p.y, p.z);
    seq[i] = i;
}

/* Sorted position s of key[0, n): where a cell's run starts and ends (untouched cells keep
 * what they were set to). */
static __device__ __forceinline__ void cells_range_at(const int *key, int n, int s, int *start,
                                                      int *end)
{
    const int c = key[s];
    if (s == 0 || key[s - 1] != c)
        start[c] = s;
    if (s == n - 1 || key[s + 1] != c)
        end[c] = s + 1;
}

/* ---- the host side --------------------------------------------------------------------- */

/* *p holds at least need T (grown by a quarter and 64 when it must grow; the old contents are
 * dropped). The error names what, and hint says what the user can do. */
template <typename T>
static int cells_grow(T **p, long long *cap, long long need, const char *what, const char *hint)
{
    if (need <= *cap)
        return 0;
    const long long c = need + need / 4 + 64;
    cudaFree(*p);
    *p = NULL;
    *cap = 0;
    if (cudaMalloc((void **)p, (size_t)c * sizeof(T)) != cudaSuccess) {
        cudaGetLastError();
        return tb_error(NULL, 0, "out of GPU memory for %lld %s (%zu bytes): %s", c, what,
                        (size_t)c * sizeof(T), hint);
    }
    *cap = c;
    return 0;
}

/* CUB's scratch *tmp holds at least bytes (256 at least: never NULL, which CUB reads as a size
 * query). */
static int cells_tmp_fit(void **tmp, size_t *cap, size_t bytes)
{
    if (*tmp && bytes <= *cap)
        return 0;
    bytes = bytes > 256 ? bytes : 256;
    cudaFree(*tmp);
    *tmp = NULL;
    *cap = 0;
    CUDA_CHECK(cudaMalloc(tmp, bytes));
    *cap = bytes;
    return 0;
}

/* lo, hi: the exact bounding box of pos[0, n) (min and max, so the same whatever the grid),
 * for the open axes' cells; d_part holds 6 * CELLS_BBOX_BLOCKS doubles. One wait. */
static int cells_extent(const tb_double4 *pos, int n, double *d_part, double lo[3], double hi[3],
                        cudaStream_t st)
{
    double part[6 * CELLS_BBOX_BLOCKS];
    cells_bbox_kernel<<<CELLS_BBOX_BLOCKS, 256, 0, st>>>(pos, n, d_part);
    TB_LAUNCH_CHECK("cells_bbox_kernel");
    CUDA_CHECK(cudaMemcpyAsync(part, d_part, sizeof part, cudaMemcpyDeviceToHost, st));
    CUDA_CHECK(cudaStreamSynchronize(st));
    for (int d = 0; d < 3; d++) {
        lo[d] = part[d];
        hi[d] = part[3 + d];
        for (int k = 1; k < CELLS_BBOX_BLOCKS; k++) {
            lo[d] = fmin(lo[d], part[6 * k + d]);
            hi[d] = fmax(hi[d], part[6 * k + 3 + d]);
        }
    }
    return 0;
}

/* The device arrays of one sort: n keys (key, key2), particle indices (seq, perm), and per cell
 * start and end; CUB's scratch. */
typedef struct cells_sort_bufs {
    int *key, *key2, *seq, *perm, *start, *end;
    void **tmp;
    size_t *tmp_bytes;
} cells_sort_bufs;

/* key[i] = particle i's cell in g; (key, i) sorted by key (CUB's radix sort, stable, over the
 * bits the cells need) into (key2, perm); start and end zeroed over the cells, for the
 * caller's range pass. */
static int cells_sort(const tb_double4 *pos, int n, const nbr_grid *g, long long cells,
                      const cells_sort_bufs *w, cudaStream_t st)
{
    const int T = 256;
    int bits = 1;
    while ((1LL << bits) < cells)
        bits++;
    cells_key_kernel<<<(n + T - 1) / T, T, 0, st>>>(pos, n, *g, w->key, w->seq);
    TB_LAUNCH_CHECK("cells_key_kernel");
    size_t need = 0;
    CUDA_CHECK(cub::DeviceRadixSort::SortPairs(NULL, need, w->key, w->key2, w->seq, w->perm, n,
                                               0, bits, st));
    if (cells_tmp_fit(w->tmp, w->tmp_bytes, need) != 0)
        return -1;
    CUDA_CHECK(cub::DeviceRadixSort::SortPairs(*w->tmp, need, w->key, w->key2, w->seq, w->perm,
                                               n, 0, bits, st));
    CUDA_CHECK(cudaMemsetAsync(w->start, 0, (size_t)cells * sizeof(int), st));
    CUDA_CHECK(cudaMemsetAsync(w->end, 0, (size_t)cells * sizeof(int), st));
    return 0;
}

#endif
