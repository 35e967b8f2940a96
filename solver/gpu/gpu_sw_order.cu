/* gpu_sw_order.cu — the order in which gpu_sw.cu's queue hands out the Stillinger-Weber centres:
 * by their legs (partners within the cutoff) at the last evaluation, most first, in the rows'
 * order among equals. A group of 4 lanes spends ceil(m / 4) (m - 1) angles on a centre of m legs
 * and a warp's 8 groups wait for the slowest: in silicon at 1000 K (m from 4 to 12, mostly 6 to
 * 9) the angles of 8 centres in the rows' order cost 1.6x their mean, of equal legs 1.0x, and the
 * wave's last centres are the cheapest. The angles are a small part of a centre's time (the
 * filter's loads are most of it): 1-3 % faster in mixed, 3-4 % in double at 1e5 on an H200
 * (docs/gpu.md, "Stillinger-Weber"). The kernel records
 * each particle's legs (gpu_sw_order's *legs); the order is sorted again at the first
 * evaluation after each build of the lists (a stable radix sort of 6-bit keys, CUB's, so the same
 * legs give the same order), from the legs of the evaluation before. The order changes which
 * warp takes a centre, never a centre's arithmetic: the same bits in deterministic mode.
 * TB_SW_ORDER=0 in the environment: the rows' order (a measurement switch). */
#include <cub/cub.cuh>

#include <stdlib.h>

#include "common/check.h"
#include "solver/gpu/gpu_nbr_int.h"

#define SW_ORDER_TOP 63 /* legs counted up to this; the keys' 6 bits */

__global__ void sw_order_keys(const int *perm, int b0, int count, const int *legs, int *key,
                              int *val)
{
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= count)
        return;
    const int m = legs[perm[b0 + c]];
    key[c] = SW_ORDER_TOP - (m < SW_ORDER_TOP ? m : SW_ORDER_TOP);
    val[c] = c;
}

int gpu_sw_order(gpu_nbr *b, int count, cudaStream_t st, int **legs, const int **order)
{
    static int on = -1;
    *legs = NULL;
    *order = NULL;
    if (on < 0) {
        const char *e = getenv("TB_SW_ORDER");
        on = !(e && *e && atoi(e) == 0);
    }
    if (!on || count <= 0)
        return 0;
    const size_t n = (size_t)b->n;
    if (!b->d_swlegs) { /* legs [n], then key, key2, val, order [n] each */
        CUDA_CHECK(cudaMalloc(&b->d_swlegs, 5 * n * sizeof(int)));
        CUDA_CHECK(cudaMemsetAsync(b->d_swlegs, 0, n * sizeof(int), st));
        b->sw_legs_ok = 0;
        b->sw_order_at = -1;
    }
    int *key = b->d_swlegs + n, *key2 = key + n, *val = key2 + n, *ord = val + n;
    if (b->sw_legs_ok && b->sw_order_at != b->builds) {
        sw_order_keys<<<(count + 255) / 256, 256, 0, st>>>(b->d_perm, b->a_lo, count, b->d_swlegs,
                                                            key, val);
        TB_LAUNCH_CHECK("sw_order_keys");
        size_t need = 0;
        CUDA_CHECK(cub::DeviceRadixSort::SortPairs(NULL, need, key, key2, val, ord, count, 0, 6,
                                                   st));
        if (gpu_nbr_tmp_fit(b, need) != 0)
            return -1;
        CUDA_CHECK(cub::DeviceRadixSort::SortPairs(b->d_tmp, need, key, key2, val, ord, count, 0,
                                                   6, st));
        b->sw_order_at = b->builds;
        b->sw_order_n = count;
    }
    *legs = b->d_swlegs;
    if (b->sw_order_at == b->builds && b->sw_order_n == count)
        *order = ord;
    b->sw_legs_ok = 1; /* the launch after this call records them */
    return 0;
}
