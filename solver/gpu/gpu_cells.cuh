/* gpu_cells.cuh — the device side of a cell sort, shared by the neighbour lists' build
 * (gpu_nbr_build.cu) and the RDF's cells (gpu_rdf.cu): the particles' bounding box (per-block
 * partial min/max, reduced on the host), each particle's cell key in an nbr_grid (nbr.h's
 * nbr_cell_of, the host's code) and, after the sort of (key, particle), each cell's range
 * [start, end) of the sorted keys. Included by each .cu that launches them (static: each file
 * holds its own copy of the code written here once). */
#ifndef TB_GPU_CELLS_CUH
#define TB_GPU_CELLS_CUH

#include "solver/gpu/gpu_internal.h"
#include "solver/physics/nbr.h"

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

#endif
