/* gpu_pair.cu — the Lennard-Jones pair term on the GPU, one block per pair tile (I <= J)
 * placed by the triangular map chosen at run time (map2d_dispatch_first).
 *
 * The pair term costs O(n^2) against the triplet term's O(n^3), so this kernel stays simple:
 * the block stages both tiles in shared memory; in a first pass thread t sums the forces on
 * particle i = I*rho + t from every j of tile J, in a second on particle j = J*rho + t from
 * every i of tile I (each pair is computed twice rather than summed with atomics), through
 * the shared body pair_accumulate (triplet.h). One atomic per particle and component.
 * Virial: the first pass, which sees each pair once from its lower index i, adds
 * d_ij (x) F_j (F_j the pair's force on j), six FMAs per pair; a block reduction at the end.
 * Species: the typed instances (pair_tiles_kernel<atm_typed<R>>, gpu_atm.cuh's families) stage
 * the species pairs' LJ coefficients (pot_params.h's table, nt^2 entries) and the tiles' types
 * from the positions' lane in shared memory, and give each pair its own through
 * pair_accumulate_typed: its cutoff, none for a pair of species without LJ (rc2 = 0). */
#include "common/check.h"
#include "solver/gpu/gpu_atm.cuh"

template <typename K>
__global__ void pair_tiles_kernel(gpu_args a, map2d_launch L, int rho)
{
    typedef typename atm_family<K>::R R;
    constexpr bool TYP = atm_family<K>::TYP;
    typedef typename atm_real<R>::lj_pair LP;
    extern __shared__ __align__(16) unsigned char smem_raw[];
    const auto &kc = atm_real<R>::coef(a);
    const int nt = TYP ? kc.ntypes : 0;
    LP *slj = (LP *)smem_raw;       /* TYP: [nt][nt] the species pairs' LJ coefficients */
    R *sx = (R *)(slj + nt * nt);   /* [2][rho][3] */
    int *sty = (int *)(sx + 6 * rho); /* TYP: [2][rho] the types */
    __shared__ double scratch[32];
    map2d_cursor cur;
    double e_thread = 0.0, w_thread[6] = {0, 0, 0, 0, 0, 0};
    if (!map2d_dispatch_first(a.map_id, &L, blockIdx.x, blockIdx.y, &cur))
        return;
    {
        const long long w2 = map3d_tri(cur.J) + cur.I;
        if (w2 < a.q_lo || w2 >= a.q_hi)
            return; /* another rank's pair tile */
    }
    const int I0 = cur.I * rho, J0 = cur.J * rho;
    if constexpr (TYP)
        for (int t = threadIdx.x; t < nt * nt; t += blockDim.x)
            slj[t] = kc.tab->lj[POT_PAIR(t / nt, t % nt)];
    for (int t = threadIdx.x; t < 2 * rho; t += blockDim.x) {
        const int g = (t < rho ? I0 : J0 - rho) + t;
        const typename atm_real<R>::vec4 v = g < a.n ? atm_real<R>::load(a, g) : atm_real<R>::load(a, 0);
        sx[3 * t] = v.x;
        sx[3 * t + 1] = v.y;
        sx[3 * t + 2] = v.z;
        if (TYP)
            sty[t] = g < a.n ? gpu_type_of(v.w) : 0;
    }
    __syncthreads();
    for (int pass = 0; pass < 2; pass++)
        for (int p = threadIdx.x; p < rho; p += blockDim.x) {
            const int me = (pass == 0 ? I0 : J0) + p;
            if (me >= a.n)
                continue;
            const R *xm = sx + 3 * (pass * rho + p);
            R f[3] = {0, 0, 0}, e = 0, w[6] = {0, 0, 0, 0, 0, 0};
            for (int q = 0; q < rho; q++) {
                const int other = (pass == 0 ? J0 : I0) + q;
                /* the pair (lower, higher) once: i < j < n */
                const int lo = pass == 0 ? me : other, hi = pass == 0 ? other : me;
                if (!(lo < hi && hi < a.n))
                    continue;
                const R *xo = sx + 3 * ((1 - pass) * rho + q);
                R d[3] = {xo[0] - xm[0], xo[1] - xm[1], xo[2] - xm[2]}, fo[3] = {0, 0, 0};
                atm_real<R>::mic(kc, d);
                const R r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
                const R ep = TYP ? atm_real<R>::pair(slj[sty[pass * rho + p] * nt +
                                                         sty[(1 - pass) * rho + q]],
                                                     d, r2, f, fo)
                                 : atm_real<R>::pair(kc, d, r2, f, fo);
                if (pass == 0) { /* me = i, other = j, d = d_ij, fo = F_j */
                    e += ep;
                    w[0] += d[0] * fo[0];
                    w[1] += d[1] * fo[1];
                    w[2] += d[2] * fo[2];
                    w[3] += d[0] * fo[1];
                    w[4] += d[0] * fo[2];
                    w[5] += d[1] * fo[2];
                }
            }
            add_force(a, me, (double)f[0], (double)f[1], (double)f[2]);
            e_thread += (double)e;
            for (int c = 0; c < 6; c++)
                w_thread[c] += (double)w[c];
        }
    const double e = block_sum(e_thread, scratch);
    if (threadIdx.x == 0)
        add_energy(a, 1, e);
    for (int c = 0; c < 6; c++) {
        const double wc = block_sum(w_thread[c], scratch);
        if (threadIdx.x == 0)
            add_virial(a, c, wc);
    }
}

template <typename R, bool TYP>
static int pair_launch_t(const gpu_args *a, const map2d_plan *p, int rho, int threads,
                         cudaStream_t st)
{
    const int nt = TYP ? a->kf.ntypes : 0;
    const size_t smem = 2 * (size_t)rho * (3 * sizeof(R) + (TYP ? sizeof(int) : 0)) +
                        (size_t)(nt * nt) * sizeof(typename atm_real<R>::lj_pair);
    if (smem > 48 * 1024)
        return tb_error(NULL, 0, "solver.tile = %d is too large for the GPU pair kernel "
                                 "(at most 1024)", rho);
    for (int l = 0; l < p->n_launch; l++) {
        const map2d_launch &L = p->launch[l];
        if (L.gx == 0 || L.gy == 0)
            continue;
        pair_tiles_kernel<typename atm_kernel_arg<R, TYP>::type>
            <<<dim3(L.gx, L.gy), threads, smem, st>>>(*a, L, rho);
        TB_LAUNCH_CHECK("pair_tiles_kernel");
    }
    return 0;
}

int gpu_pair_launch(const gpu_args *a, const map2d_plan *p, int rho, int dbl, int threads,
                    cudaStream_t s)
{
    /* a block needs no more threads than the tile has particles */
    if (threads > rho)
        threads = rho < 32 ? 32 : (rho + 31) / 32 * 32;
    if (a->kf.ntypes > 1) /* several species: the typed instances */
        return dbl ? pair_launch_t<double, true>(a, p, rho, threads, s)
                   : pair_launch_t<float, true>(a, p, rho, threads, s);
    return dbl ? pair_launch_t<double, false>(a, p, rho, threads, s)
               : pair_launch_t<float, false>(a, p, rho, threads, s);
}
