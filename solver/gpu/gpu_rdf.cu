/* gpu_rdf.cu — the RDF pair histogram (solver/rdf.h) on the device, from the positions the
 * backend holds: all pairs, in tiles of RDF_TILE particles, one block per tile pair I <= J,
 * counts in a block-local shared histogram (when it fits) added to the global one at the end.
 * Integer counts: the same for any schedule, and the same as the host's rdf_count_host,
 * because this file is built with -fmad=false (Makefile): every distance is rounded as on the
 * host, so each pair falls in the same bin.
 * Cost: n^2/2 distances per sample (32768 atoms: 5.4e8), against a step of the liquid's list
 * path: `scripts/gpu-check observables` times it. */
#include "common/check.h"
#include "solver/gpu/gpu_internal.h"
#include "solver/rdf.h"

#define RDF_TILE 128
#define RDF_SHARED_MAX 8192 /* bins of the block-local histogram (32 KiB of unsigned int) */

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

int gpu_rdf_count(const tb_double4 *pos, int n, int typed, const tb_box_d *box, const rdf_spec *s,
                  unsigned long long *d_counts, unsigned long long *counts, cudaStream_t st)
{
    const int len = rdf_npairs(s->ntypes) * s->bins, nb = (n + RDF_TILE - 1) / RDF_TILE;
    const int shared = len <= RDF_SHARED_MAX;
    const size_t bytes = (size_t)len * sizeof(unsigned long long);
    const dim3 grid((unsigned)nb, (unsigned)nb);
    const size_t sh = shared ? (size_t)len * sizeof(unsigned int) : 0;
    const double r2 = rdf_guard2(s), inv = rdf_delrinv(s);
    if (n < 2)
        return 0;
    CUDA_CHECK(cudaMemsetAsync(d_counts, 0, bytes, st));
    if (typed && shared)
        rdf_kernel<true, true><<<grid, RDF_TILE, sh, st>>>(pos, n, *box, *s, r2, inv, d_counts);
    else if (typed)
        rdf_kernel<true, false><<<grid, RDF_TILE, sh, st>>>(pos, n, *box, *s, r2, inv, d_counts);
    else if (shared)
        rdf_kernel<false, true><<<grid, RDF_TILE, sh, st>>>(pos, n, *box, *s, r2, inv, d_counts);
    else
        rdf_kernel<false, false><<<grid, RDF_TILE, sh, st>>>(pos, n, *box, *s, r2, inv, d_counts);
    TB_LAUNCH_CHECK("rdf_kernel");
    {
        unsigned long long *h = (unsigned long long *)malloc(bytes);
        if (!h)
            return tb_error(NULL, 0, "out of host memory");
        const cudaError_t e1 = cudaMemcpyAsync(h, d_counts, bytes, cudaMemcpyDeviceToHost, st);
        const cudaError_t e2 = e1 == cudaSuccess ? cudaStreamSynchronize(st) : e1;
        if (e2 == cudaSuccess)
            for (int k = 0; k < len; k++)
                counts[k] += h[k];
        free(h);
        CUDA_CHECK(e2);
    }
    return 0;
}
