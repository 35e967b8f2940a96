/* gpu_atm.cuh — the GPU triplet-tile kernel: ATM energies and forces of one tile (I, J, K)
 * per block (per visit, for persistent maps), placed by the map chosen at run time.
 *
 * Work of a block, tile edge RHO, 4 RHO threads. Thread (lane, warp) owns the particle
 * j = lane % RHO of tile J and the i-subset s = 4 warp RHO/32 + lane / RHO (four subsets of
 * RHO/4 particles of tile I); it loops over its i and, unrolled, over every k of tile K.
 * Everything a triplet needs is a squared side: a = |d_ij|^2 (one per i, in a register),
 * b = |d_jk|^2 (RHO registers, computed once per tile), c = |d_ik|^2 (a shared table,
 * read as a broadcast). The formula is pot_atm_core (pot_atm.h), ~40 operations.
 *
 * Forces need no vector work per triplet: F_i = 2 sum_j dE/da d_ij + 2 sum_k dE/dc d_ik and
 * alike for j and k, so per triplet only three scalars are summed into pair sums:
 *   A_ij = sum_k ga (in a register), B_jk = sum_i gb (RHO registers), C_ik = sum_j gc (a
 * butterfly over the RHO lanes that hold the j's). At the end of the tile the three pair
 * tables go to shared memory and 3 RHO threads turn them into forces on the tile's 3 RHO
 * particles (2 RHO terms each), added to global memory with one atomic per component.
 *
 * Masking: tiles with I < J < K that lie wholly below n take the unmasked path; faces (I = J
 * or J = K) and the clipped last tile select i<j<k<n per triplet. Cutoff (CUT): a triplet
 * counts iff a, b, c <= rc^2 and abc <= cutoff_triple^6. Periodic boxes use per-pair minimum images, which equal the
 * anchored triangle of triplet.h whenever the cutoff is <= L/4 (the backend requires that).
 *
 * Virial. W = sum_m P_m (x) F_m over each triplet's images is, with the forces above,
 * W = -2 (ga d_ij d_ij + gb d_jk d_jk + gc d_ik d_ik) (symmetric; trace 9 E without cutoff),
 * so it too comes from the pair sums: the force threads, which see every pair twice (once
 * from each member), add -1/2 w d (x) d per visit, six FMAs per pair and nothing per
 * triplet. Each force thread keeps its running sum in its own slot of shared memory (no
 * registers live across the tile loop); the block reduces the slots in a fixed order at
 * the end and adds them like the energy.
 *
 * Precision R = float (mixed, single) or double. Each thread sums E over one row of k in R,
 * then in double; pair sums stay in R (at most RHO terms); forces leave in R and are
 * accumulated in global memory by the mode of gpu_internal.h.
 *
 * Species (TYP: the typed instances atm_tiles_kernel<atm_typed<R>, ...>, for several species
 * only; the one-species instances atm_tiles_kernel<R, ...> are the code of before, the same PTX).
 * nu differs per
 * triplet, nu(ti, tj, tk) from the table pot_tab.nu, so it cannot wait for the pair sums: each
 * triplet's v (pot_atm_part, a common factor of its three derivatives) is multiplied by its nu,
 * and the forces and the energy take nu = 1 at the end (Euler's relation holds per triplet, so
 * E = -(2/9) sum_pairs r^2 dE/dr^2 still). The nu come from a table of the tile in shared memory,
 * nk[(ti nt + tj) NKP + k] = nu(ti, tj, type of particle k of tile K) for every type pair
 * (ti, tj) of the nt species (nt^2 rows, filled when the tile is staged, from the types in the
 * positions' lane, gpu_internal.h): a thread's row for its (i, j) is fixed over the k loop, and
 * its nu for k and k + 1 come in one load beside the (c, 5/c) and (b, 5/b) loads, in the lane's
 * own k order. Per triplet that is half a shared load and one multiply, and no divergence. */
#ifndef TB_GPU_ATM_CUH
#define TB_GPU_ATM_CUH

#include "maps3d/dispatch.h"
#include "solver/gpu/gpu_internal.h"
#include "solver/physics/pot.h"

template <typename R> struct atm_real;
template <> struct atm_real<float> {
    typedef float4 vec4;
    typedef float2 vec2;
    static __device__ __forceinline__ float4 load(const gpu_args &a, int p) { return a.posf[p]; }
    static __device__ __forceinline__ const pot_coef_f &coef(const gpu_args &a) { return a.kf; }
    static __device__ __forceinline__ void part(float a, float nah, float a5, float b, float c,
                                                float *v, float *mp, float *qa, float *qb, float *qc)
    {
        pot_atm_part_f(a, nah, a5, b, c, v, mp, qa, qb, qc);
    }
    /* 5/x for the pair tables: the hardware reciprocal and one multiply (2 ulp; x is a squared
     * distance, far inside float's normal range) instead of the IEEE division's sequence */
    static __device__ __forceinline__ float five_over(float x) { return __fdividef(5.0f, x); }
    static __device__ __forceinline__ float fma(float x, float y, float z) { return fmaf(x, y, z); }
    /* (x, 1/x) of entries k and k+1 (k even) in one 16-byte load */
    static __device__ __forceinline__ void load2(const float2 *p, float2 &v0, float2 &v1)
    {
        const float4 q = *(const float4 *)p;
        v0 = make_float2(q.x, q.y);
        v1 = make_float2(q.z, q.w);
    }
    static __device__ __forceinline__ void mic(const pot_coef_f &k, float d[3]) { pot_mic_f(&k, d); }
    /* the LJ pair bodies (triplet.h) of the pair and neighbour-list kernels: one species, and
     * one species pair of the tables (typed instances) */
    typedef pot_lj_pair_f lj_pair;
    static __device__ __forceinline__ float pair(const pot_coef_f &k, const float d[3], float r2,
                                                 float fi[3], float fj[3])
    {
        return pair_accumulate_f(&k, d, r2, fi, fj);
    }
    static __device__ __forceinline__ float pair(const pot_lj_pair_f &p, const float d[3], float r2,
                                                 float fi[3], float fj[3])
    {
        return pair_accumulate_typed_f(&p, d, r2, fi, fj);
    }
    /* entries k and k+1 (k even) of a row of the typed instances' nu table, in one load */
    static __device__ __forceinline__ void load_pair(const float *p, float &v0, float &v1)
    {
        const float2 q = *(const float2 *)p;
        v0 = q.x;
        v1 = q.y;
    }
};
template <> struct atm_real<double> {
    typedef tb_double4 vec4;
    typedef double2 vec2;
    static __device__ __forceinline__ tb_double4 load(const gpu_args &a, int p) { return a.posd[p]; }
    static __device__ __forceinline__ const pot_coef_d &coef(const gpu_args &a) { return a.kd; }
    static __device__ __forceinline__ void part(double a, double nah, double a5, double b,
                                                double c, double *v, double *mp, double *qa,
                                                double *qb, double *qc)
    {
        pot_atm_part_d(a, nah, a5, b, c, v, mp, qa, qb, qc);
    }
    static __device__ __forceinline__ double five_over(double x) { return 5.0 / x; }
    static __device__ __forceinline__ double fma(double x, double y, double z) { return ::fma(x, y, z); }
    static __device__ __forceinline__ void load2(const double2 *p, double2 &v0, double2 &v1)
    {
        v0 = p[0];
        v1 = p[1];
    }
    static __device__ __forceinline__ void mic(const pot_coef_d &k, double d[3]) { pot_mic_d(&k, d); }
    typedef pot_lj_pair_d lj_pair;
    static __device__ __forceinline__ double pair(const pot_coef_d &k, const double d[3],
                                                  double r2, double fi[3], double fj[3])
    {
        return pair_accumulate_d(&k, d, r2, fi, fj);
    }
    static __device__ __forceinline__ double pair(const pot_lj_pair_d &p, const double d[3],
                                                  double r2, double fi[3], double fj[3])
    {
        return pair_accumulate_typed_d(&p, d, r2, fi, fj);
    }
    static __device__ __forceinline__ void load_pair(const double *p, double &v0, double &v1)
    {
        const double2 q = *(const double2 *)p;
        v0 = q.x;
        v1 = q.y;
    }
};

/* v as the fixed-point pair's two words (hi, lo) (gpu_internal.h): what fix_add adds, for a
 * caller that sums the words itself before adding them (integer sums: any order, the same). */
__device__ __forceinline__ void fix_words(double v, unsigned long long *hi, unsigned long long *lo)
{
    const double s = v * TB_FIX_HI;
    const double h = floor(s);
    *hi = (unsigned long long)(long long)h;
    *lo = (unsigned long long)llrint((s - h) * TB_FIX_LO);
}

/* Adds v to the fixed-point pair (hi, lo) (gpu_internal.h). */
__device__ __forceinline__ void fix_add(unsigned long long *hl, double v)
{
    unsigned long long hi, lo;
    fix_words(v, &hi, &lo);
    atomicAdd(hl, hi);
    atomicAdd(hl + 1, lo);
}

/* Adds a force on particle p by the accumulation mode. */
__device__ __forceinline__ void add_force(const gpu_args &a, int p, double fx, double fy, double fz)
{
    switch (a.mode) {
    case ACC_DOUBLE:
        atomicAdd(a.acc + 4 * p, fx);
        atomicAdd(a.acc + 4 * p + 1, fy);
        atomicAdd(a.acc + 4 * p + 2, fz);
        break;
    case ACC_FLOAT:
        atomicAdd(a.acc_f + 4 * p, (float)fx);
        atomicAdd(a.acc_f + 4 * p + 1, (float)fy);
        atomicAdd(a.acc_f + 4 * p + 2, (float)fz);
        break;
    default:
        fix_add(a.fix + 8 * p, fx);
        fix_add(a.fix + 8 * p + 2, fy);
        fix_add(a.fix + 8 * p + 4, fz);
        if (!isfinite(fx + fy + fz)) /* integer words cannot carry it: counted in word 6, */
            atomicAdd(a.fix + 8 * p + 6, 1ull); /* which finalize_kernel turns into NaN */
    }
}

/* Adds a block's energy (term 0 triplet, 1 pair), from thread 0 of the block. */
__device__ __forceinline__ void add_energy(const gpu_args &a, int term, double e)
{
    switch (a.mode) {
    case ACC_FIXED:
        fix_add(a.efix + 2 * term, e);
        break;
    default:
        atomicAdd(a.energy + term, e);
    }
}

/* Adds a block's virial component c (0..5: xx yy zz xy xz yz), from thread 0 of the block;
 * the pair and triplet terms add into the same tensor. */
__device__ __forceinline__ void add_virial(const gpu_args &a, int c, double w)
{
    switch (a.mode) {
    case ACC_FIXED:
        fix_add(a.vfix + 2 * c, w);
        break;
    default:
        atomicAdd(a.virial + c, w);
    }
}

/* Sum of v over the block (all threads get it), using scratch[32] doubles of shared memory. */
__device__ __forceinline__ double block_sum(double v, double *scratch)
{
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nw = (blockDim.x + 31) >> 5;
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, o);
    __syncthreads();
    if (lane == 0)
        scratch[warp] = v;
    __syncthreads();
    v = 0.0;
    for (int w = 0; w < nw; w++) /* fixed order: deterministic */
        v += scratch[w];
    return v;
}

/* Shared memory of the kernel, in bytes. */
/* Layout (in R units): positions [3][RHO][4]; ctab (c, 5/c) [RHO][RHO+2] pairs; btab
 * (b, 5/b) [RHO][RHO+2] pairs, whose space tabB [4][RHO][RHO+1] takes over once the rows are
 * done; tabA, tabC [RHO][RHO+1]; then 32 doubles of scratch and the virial slots, 6 x 3 RHO
 * doubles. Float, tile 32: 27.6 KB (44.5 KB while tabB had its own space). */
template <int RHO> struct atm_layout {
    static constexpr int PC = RHO + 2; /* even: (c, 1/c) of k, k+1 in one 16-byte load */
    static constexpr int PB = RHO + 2; /* likewise; rows 4 banks apart: 16-byte loads of 8
                                          lanes with different j hit 32 different banks */
    static constexpr int P = RHO + 1;
    static constexpr int X = 0, C = X + 3 * RHO * 4, B = C + 2 * RHO * PC, A = B + 2 * RHO * PB,
                         TC = A + RHO * P, END = TC + RHO * P;
    /* tabB lives where the c and b tables were: it is written only after every row is done
     * (a barrier between), and 4 RHO (RHO+1) <= 2 RHO PC + 2 RHO PB */
    static constexpr int TB = C;
    static_assert(4 * RHO * P <= A - C, "tabB fits in the space of the c and b tables");
};
template <typename R, int RHO, bool VIR> __host__ __device__ constexpr int atm_smem_bytes()
{
    return (int)sizeof(R) * atm_layout<RHO>::END + (32 + (VIR ? 18 * RHO : 0)) * (int)sizeof(double);
}

/* The typed instances' nu table of the tile (nt^2 rows of NKP entries), after the rest. Rows
 * 16 bytes apart modulo 128: at tile 32 a warp holds one i (one ti) and its lanes' rows differ
 * by tj only, so the 8- (float) and 16-byte (double) loads of one request fall in different
 * banks for up to 8 species. */
template <typename R, int RHO> struct atm_nk {
    static constexpr int NKP = RHO + (sizeof(R) == 4 ? 4 : 2);
    static __host__ __device__ constexpr int bytes(int nt) { return nt * nt * NKP * (int)sizeof(R); }
};

/* The lane's order of k within each group of 8: slot r holds k = r ^ atm_kperm(jl), with
 * atm_kperm = 4 [jl & RHO/2] + 2 [jl & RHO/4] (even, so the pairs (k, k+1) that one 16-byte
 * load brings stay pairs). */
template <int RHO> __device__ __forceinline__ int atm_kperm(int jl)
{
    return ((jl & (RHO / 2)) ? 4 : 0) + ((jl & (RHO / 4)) ? 2 : 0);
}

/* Sum of g[r] over the RHO lanes of a segment for 8 values at once (a butterfly
 * reduce-scatter), g in the lane's order of atm_kperm: three halving exchanges leave each lane
 * one value, the sum over 8 lanes of entry klocal(jl) = 4 [jl & RHO/2] + 2 [jl & RHO/4] +
 * [jl & RHO/8]; plain butterfly steps over the lower lane bits finish the sum. Thanks to the
 * permuted order, the lanes that exchange in the first two halvings keep the same slots and
 * send the same slots (slot r + 4 of the partner holds this lane's k of slot r), so only the
 * third halving selects: about 2.25 instructions per value, against 2 log2(RHO) for one
 * butterfly each. */
template <typename R, int RHO> __device__ __forceinline__ R reduce_scatter8(R (&g)[8], int jl)
{
    static_assert(RHO >= 8, "segments of at least 8 lanes");
    const bool h3 = jl & (RHO / 8);
#pragma unroll
    for (int q = 0; q < 4; q++)
        g[q] += __shfl_xor_sync(0xffffffffu, g[q + 4], RHO / 2);
#pragma unroll
    for (int q = 0; q < 2; q++)
        g[q] += __shfl_xor_sync(0xffffffffu, g[q + 2], RHO / 4);
    {
        const R send = h3 ? g[0] : g[1], keep = h3 ? g[1] : g[0];
        g[0] = keep + __shfl_xor_sync(0xffffffffu, send, RHO / 8);
    }
#pragma unroll
    for (int o = RHO / 16; o > 0; o >>= 1)
        g[0] += __shfl_xor_sync(0xffffffffu, g[0], o);
    return g[0];
}

/* TYP: nk is the tile's nu table (atm_nk), nt the species, tj the type of the thread's j. */
template <typename R, int RHO, bool CUT, bool MASK, bool TYP>
__device__ __forceinline__ void atm_tile_rows(const gpu_args &a, const R *sx,
                                              const typename atm_real<R>::vec2 *ctab,
                                              const typename atm_real<R>::vec2 *btab, R *tabA,
                                              R *tabC, R (&Bacc)[RHO], const R xj[3], int I0,
                                              int J0, int K0, int s, int jl, const R *nk, int nt,
                                              int tj)
{
    typedef atm_layout<RHO> LY;
    typedef typename atm_real<R>::vec2 R2;
    constexpr int IPER = RHO / 4;
    const auto &kc = atm_real<R>::coef(a);
    const int kp = atm_kperm<RHO>(jl); /* slot r of a group of 8 holds k = r ^ kp */
    const int kl = kp + ((jl & (RHO / 8)) ? 1 : 0);
    const bool writer = (jl & (RHO / 8 - 1)) == 0;
    for (int t = 0; t < IPER; t++) {
        const int il = s * IPER + t;
        R d[3] = {xj[0] - sx[il * 4], xj[1] - sx[il * 4 + 1], xj[2] - sx[il * 4 + 2]};
        if (CUT) /* a periodic box always has an ATM cutoff (config/config_checks.c) */
            atm_real<R>::mic(kc, d);
        const R aa = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
        /* per pair: 5/a (the tables hold 5/b, 5/c alike), -a/2, a/5 (pot_atm_part) */
        const R ia = atm_real<R>::five_over(aa), nah = (R)-0.5 * aa, a5 = (R)0.2 * aa;
        const R *nrow = nk; /* TYP: the row of (ti, tj) */
        if (TYP)
            nrow = nk + (gpu_type_of(sx[il * 4 + 3]) * nt + tj) * atm_nk<R, RHO>::NKP;
        R A = 0;
#pragma unroll
        for (int k0 = 0; k0 < RHO; k0 += 8) {
            R g[8];
#pragma unroll
            for (int q = 0; q < 8; q += 2) {
                R2 cc[2], bb[2];
                R nu[2];
                atm_real<R>::load2(ctab + il * LY::PC + k0 + (q ^ kp), cc[0], cc[1]);
                atm_real<R>::load2(btab + jl * LY::PB + k0 + (q ^ kp), bb[0], bb[1]);
                if (TYP)
                    atm_real<R>::load_pair(nrow + k0 + (q ^ kp), nu[0], nu[1]);
#pragma unroll
                for (int h = 0; h < 2; h++) {
                    const int r = k0 + q + h;         /* the slot (registers Bacc[r], g) */
                    const int k = k0 + (q ^ kp) + h;  /* its k (masks) */
                    typedef atm_real<R> AR;
                    R v, mp, qa, qb, qc;
                    AR::part(aa, nah, a5, bb[h].x, cc[h].x, &v, &mp, &qa, &qb, &qc);
                    if (TYP) /* this triplet's nu: v is a factor of all three derivatives */
                        v *= nu[h];
                    if (!MASK && !CUT) { /* G = v (q + mp 5/r^2), summed: two FMAs per side */
                        A = AR::fma(v, AR::fma(mp, ia, qa), A);
                        Bacc[r] = AR::fma(v, AR::fma(mp, bb[h].y, qb), Bacc[r]);
                        g[q + h] = v * AR::fma(mp, cc[h].y, qc);
                    } else {
                        const R ga = v * AR::fma(mp, ia, qa), gb = v * AR::fma(mp, bb[h].y, qb),
                                gc = v * AR::fma(mp, cc[h].y, qc);
                        bool ok = true;
                        if (MASK)
                            ok = I0 + il < J0 + jl && J0 + jl < K0 + k && K0 + k < a.n;
                        if (CUT)
                            ok = ok && aa <= kc.atm_rc2 && bb[h].x <= kc.atm_rc2 &&
                                 cc[h].x <= kc.atm_rc2 &&
                                 aa * bb[h].x * cc[h].x <= kc.atm_rct6;
                        A += ok ? ga : (R)0;
                        Bacc[r] += ok ? gb : (R)0;
                        g[q + h] = ok ? gc : (R)0;
                    }
                }
            }
            const R csum = reduce_scatter8<R, RHO>(g, jl);
            if (writer)
                tabC[il * LY::P + k0 + kl] = csum;
        }
        tabA[il * LY::P + jl] = A;
    }
}

/* Force on one particle of the tile from the pair tables, up to the factor 2 (3 nu/8):
 * with d = mic(x_partner - x_me), every pair sum w adds w d (the signs of triplet.h work out
 * to + for all three roles). role 0: i (partners j via A_ij, k via C_ik); role 1: j (i via
 * A_ij, k via B_jk); role 2: k (j via B_jk, i via C_ik). B_jk is the sum of 4 partials. */
template <typename R, int RHO, bool CUT, bool VIR>
__device__ __forceinline__ void atm_tile_force(const gpu_args &a, const R *sx, const R *tabA,
                                               const R *tabB, const R *tabC, int role, int p,
                                               R f[3], R vir[6], R &er)
{
    constexpr int P = RHO + 1, BS = RHO * P; /* B partial stride */
    const auto &kc = atm_real<R>::coef(a);
    const R *me = sx + (role * RHO + p) * 4;
    const R me0 = me[0], me1 = me[1], me2 = me[2];
#pragma unroll
    for (int part = 0; part < 2; part++) {
        /* the partner's tile (role 0 -> J, K; role 1 -> I, K; role 2 -> J, I) and the pair
         * table: w(q) = W[q qs], B as the sum of its 4 partials (BS apart); warp-uniform at
         * tile 32, where a warp holds one role */
        const int other = role == 0 ? 1 + part : role == 1 ? 2 * part : 1 - part;
        const R *W;
        int qs = 1;
        bool four = false;
        if (role == 0) {
            W = (part == 0 ? tabA : tabC) + p * P;
        } else if (role == 1) {
            W = part == 0 ? tabA + p : tabB + p * P;
            qs = part == 0 ? P : 1;
            four = part == 1;
        } else {
            W = part == 0 ? tabB + p : tabC + p;
            qs = P;
            four = part == 0;
        }
        /* energy: sum over pairs of w r^2, each pair once (A_ij and C_ik from i, B_jk from j) */
        const bool energy = role == 0 || (role == 1 && part == 1);
        const R *xo = sx + other * RHO * 4;
#pragma unroll 8
        for (int q = 0; q < RHO; q++) {
            const R *wq = W + q * qs;
            R w = wq[0];
            if (four)
                w = ((w + wq[BS]) + wq[2 * BS]) + wq[3 * BS];
            const R *x = xo + q * 4;
            R d[3] = {x[0] - me0, x[1] - me1, x[2] - me2};
            if (CUT) /* open boundaries otherwise */
                atm_real<R>::mic(kc, d);
            f[0] += w * d[0];
            f[1] += w * d[1];
            f[2] += w * d[2];
            if (energy)
                er += w * (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
            if (VIR) { /* virial: w d (x) d, six components (scaled by the caller) */
                const R wd[3] = {w * d[0], w * d[1], w * d[2]};
                vir[0] += wd[0] * d[0];
                vir[1] += wd[1] * d[1];
                vir[2] += wd[2] * d[2];
                vir[3] += wd[0] * d[1];
                vir[4] += wd[0] * d[2];
                vir[5] += wd[1] * d[2];
            }
        }
    }
}

/* Blocks per multiprocessor the register allocation must allow (__launch_bounds__), measured
 * on the H100 at n 16384 (scripts/gpu-check kernel, 2026-11-23): float tile 32 at 5 blocks of
 * 128 threads, 96 registers (mixed 7.43e11 triplets/s; 7.12e11 at 4 blocks and 128 registers,
 * 7.25e11 at 6 and 80), double tile 32 at 4 blocks, 128 registers (3.47e11; 3.39e11 at 3 blocks
 * and 168, 3.08e11 left free, when ptxas takes 255 registers and 2 blocks fit). More
 * resident warps hide the latencies of the loop better than the spills cost: the float spills
 * sit in the setup code, the double ones put 14 local-memory accesses in the loop body (0.44
 * per triplet; docs/gpu.md). The double cutoff instances stay at 3 blocks and 168 registers (at 128 they would
 * spill 280-330 bytes). Tiles 16 and 8 keep the budgets they had before the virial epilogue
 * was added (float 96, double 152 and 128; left free, ptxas took up to 235 registers for the
 * float tile-16 kernel, cutting its occupancy by more than half). The tile-32 figures are build knobs, to
 * measure other budgets (scripts/build-variant). */
#ifndef TB_ATM_MINB32_F
#define TB_ATM_MINB32_F 5
#endif
#ifndef TB_ATM_MINB32_D
#define TB_ATM_MINB32_D 4
#endif
/* The typed double tile-32 instances (TYP): 3 blocks, 168 registers. Their nu table leaves room
 * for 4 blocks of shared memory only with 2 species (3 and more: 3 blocks whatever the
 * registers), and at 128 registers ptxas spills twice as much as the one-species kernel (260
 * bytes against 128). A build knob too. */
#ifndef TB_ATM_MINB32_TD
#define TB_ATM_MINB32_TD 3
#endif
template <typename R, int RHO, bool CUT, bool TYP = false> struct atm_min_blocks {
    static constexpr int value = sizeof(R) == 4 ? (RHO == 32 ? TB_ATM_MINB32_F : RHO == 16 ? 10 : 21)
                                                : (RHO == 32 ? (CUT ? 3 : TYP ? TB_ATM_MINB32_TD : TB_ATM_MINB32_D)
                                                             : RHO == 16 ? 6 : 16);
};

/* The pair sums w of pot_atm_part to forces and energy: dE/dr^2 = -(3/2) nu 5^(-5/2) w for
 * each side, F = 2 sum (dE/dr^2) d, and E = -(2/9) sum_pairs (dE/dr^2) r^2 (Euler: E is
 * homogeneous of degree -9/2 in the squared sides), i.e. (nu 5^(-5/2) / 3) sum_pairs w r^2. */
static constexpr double ATM_5M52 = 0.01788854381999832; /* 5^(-5/2) */
__device__ __forceinline__ double atm_force_scale(double nu) { return -3.0 * ATM_5M52 * nu; }
__device__ __forceinline__ double atm_energy_scale(double nu) { return ATM_5M52 / 3.0 * nu; }

/* Deterministic mode: adds the block's energy (times its scale) and virial slots of the tile just done
 * to the fixed-point words efix[0..1] and vfix[12] and zeroes the slots (nslot force threads).
 * Every thread of the block calls it. Not inlined, and given only what it needs, so that the
 * tile loop of the other modes keeps its registers. */
static __device__ __noinline__ void atm_flush_tile(unsigned long long *efix, unsigned long long *vfix,
                                            double e_thread, double *svir, double *scratch,
                                            int tid, int nslot, double escale)
{
    const double e = block_sum(e_thread, scratch);
    if (tid == 0)
        fix_add(efix, escale * e);
    for (int c = 0; c < 6 && nslot > 0; c++) { /* nslot = 0: no virial this evaluation */
        const double w = block_sum(tid < nslot ? svir[c * nslot + tid] : 0.0, scratch);
        if (tid == 0)
            fix_add(vfix + 2 * c, w);
    }
    if (tid < nslot)
        for (int c = 0; c < 6; c++)
            svir[c * nslot + tid] = 0.0;
}

/* The block's next tile of this rank's range (map3d_dispatch_next, skipping other ranks'). */
__device__ __forceinline__ bool atm_next_in_range(const gpu_args &a, const map3d_launch &L,
                                                  map3d_cursor &cur)
{
    while (map3d_dispatch_next(a.map_id, &L, &cur))
        if (map3d_in_range(&cur, a.w_lo, a.w_hi))
            return true;
    return false;
}

/* VIR: the instance that also sums the virial (the evaluations whose virial is asked for,
 * backend.h virial_next); the others are the kernel as it was before the virial, at full
 * speed (the virial epilogue costs ~10 % at tile 32). Every float instance and every tile-32
 * instance keeps the register budget of atm_min_blocks with or without the virial: left free,
 * ptxas gives the float instance without the virial more registers and fewer resident blocks
 * (4.0e11 instead of 5.1e11 triplets/s, H100, mixed, n 16384, before 2026-11-23) and the
 * double tile-32 one 255 registers (above). The double instances of tiles 16 and 8 without
 * the virial are left free. */
/* The nu of the forces and the energy: the typed instances have it in every triplet already.
 * (An expression at each use, not a variable: the one-species kernel keeps its PTX.) */
#define ATM_NU_OUT (TYP ? 1.0 : (double)kc.nu)

/* The kernel's first template argument: float or double for one species, atm_typed<float> or
 * atm_typed<double> for the typed instances. One body and one kernel name for both families,
 * and the one-species instances keep their names and code: neither a wrapper kernel (whose
 * inlining moved the code, in the PTX) nor another template parameter (the profiler's scripts
 * name the kernels). */
template <typename R> struct atm_typed {};
template <typename K> struct atm_family {
    typedef K R;
    static constexpr bool TYP = false;
};
template <typename T> struct atm_family<atm_typed<T>> {
    typedef T R;
    static constexpr bool TYP = true;
};
template <typename R, bool TYP> struct atm_kernel_arg {
    typedef R type;
};
template <typename R> struct atm_kernel_arg<R, true> {
    typedef atm_typed<R> type;
};

template <typename K, int RHO, bool CUT, bool VIR>
__global__ void __launch_bounds__(4 * RHO, ((sizeof(typename atm_family<K>::R) == 4 || VIR || RHO == 32)
                                                ? atm_min_blocks<typename atm_family<K>::R, RHO, CUT,
                                                                 atm_family<K>::TYP>::value
                                                : 1))
    atm_tiles_kernel(gpu_args a, map3d_launch L)
{
    typedef typename atm_family<K>::R R;
    constexpr bool TYP = atm_family<K>::TYP;
    static_assert(RHO == 8 || RHO == 16 || RHO == 32, "tile edge must be 8, 16 or 32");
    constexpr int NT = 4 * RHO, G = 32 / RHO;
    typedef atm_layout<RHO> LY;
    typedef typename atm_real<R>::vec2 R2;
    extern __shared__ __align__(16) unsigned char smem_raw[];
    R *sm = (R *)smem_raw;
    R *sx = sm + LY::X;             /* [3][RHO][4]: tiles I, J, K */
    R2 *ctab = (R2 *)(sm + LY::C);  /* [RHO][PC]: (c_ik, 5/c_ik) */
    R2 *btab = (R2 *)(sm + LY::B);  /* [RHO][PB]: (b_jk, 5/b_jk) */
    R *tabA = sm + LY::A;           /* [RHO][P]: A_ij, i-major */
    R *tabC = sm + LY::TC;          /* [RHO][P]: C_ik, i-major */
    R *tabB = sm + LY::TB;          /* [4][RHO][P]: B_jk partial per i-subset, j-major */
    double *scratch = (double *)(sm + LY::END);
    double *svir = scratch + 32;    /* [6][3 RHO]: running virial of each force thread */
    R *nk = (R *)(smem_raw + atm_smem_bytes<R, RHO, VIR>()); /* TYP: atm_nk */

    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int jl = lane % RHO, s = warp * G + lane / RHO;
    const auto &kc = atm_real<R>::coef(a);
    const int nt = TYP ? kc.ntypes : 1;
    double e_thread = 0.0;
    map3d_cursor cur;

    if (!map3d_dispatch_first(a.map_id, &L, blockIdx.x, blockIdx.y, blockIdx.z, &cur))
        return; /* the whole block leaves together */
    while (!map3d_in_range(&cur, a.w_lo, a.w_hi)) /* another rank's tile (bb, rec) */
        if (!map3d_dispatch_next(a.map_id, &L, &cur))
            return;
    if (VIR && tid < 3 * RHO)
        for (int c = 0; c < 6; c++)
            svir[c * 3 * RHO + tid] = 0.0; /* each slot is read and written by its thread only */
    do {
        const int I0 = cur.I * RHO, J0 = cur.J * RHO, K0 = cur.K * RHO;
        const bool full = cur.I < cur.J && cur.J < cur.K && K0 + RHO <= a.n;
        __syncthreads(); /* the previous tile's readers are done */
        for (int t = tid; t < 3 * RHO; t += NT) {
            const int T = t / RHO, p = t % RHO, g = (T == 0 ? I0 : T == 1 ? J0 : K0) + p;
            typename atm_real<R>::vec4 v;
            if (g < a.n) {
                v = atm_real<R>::load(a, g);
            } else { /* beyond n: far apart and masked anyway */
                v.x = (R)(1e4 + 17.0 * p);
                v.y = (R)(2e4 + 29.0 * T);
                v.z = (R)3e4;
            }
            sx[t * 4] = v.x;
            sx[t * 4 + 1] = v.y;
            sx[t * 4 + 2] = v.z;
            sx[t * 4 + 3] = TYP && g < a.n ? v.w : (R)0; /* the type lane (type 0 beyond n) */
        }
        __syncthreads();
        for (int t = tid; t < RHO * RHO; t += NT) {
            const int p = t / RHO, k = t % RHO; /* p: particle of tile I (ctab), of J (btab) */
            R dc[3] = {sx[(2 * RHO + k) * 4] - sx[p * 4], sx[(2 * RHO + k) * 4 + 1] - sx[p * 4 + 1],
                       sx[(2 * RHO + k) * 4 + 2] - sx[p * 4 + 2]};
            R db[3] = {sx[(2 * RHO + k) * 4] - sx[(RHO + p) * 4],
                       sx[(2 * RHO + k) * 4 + 1] - sx[(RHO + p) * 4 + 1],
                       sx[(2 * RHO + k) * 4 + 2] - sx[(RHO + p) * 4 + 2]};
            if (CUT) {
                atm_real<R>::mic(kc, dc);
                atm_real<R>::mic(kc, db);
            }
            R2 vc, vb;
            vc.x = dc[0] * dc[0] + dc[1] * dc[1] + dc[2] * dc[2];
            vc.y = atm_real<R>::five_over(vc.x);
            vb.x = db[0] * db[0] + db[1] * db[1] + db[2] * db[2];
            vb.y = atm_real<R>::five_over(vb.x);
            ctab[p * LY::PC + k] = vc;
            btab[p * LY::PB + k] = vb;
        }
        if (TYP) /* the tile's nu table: row (ti, tj), entry k = nu(ti, tj, type of k) */
            for (int t = tid; t < nt * nt * RHO; t += NT) {
                const int c = t / RHO, k = t % RHO, ti = c / nt, tj = c - ti * nt;
                const int tk = gpu_type_of(sx[(2 * RHO + k) * 4 + 3]);
                nk[c * atm_nk<R, RHO>::NKP + k] = __ldg(kc.tab->nu + POT_TRIPLET(ti, tj, tk));
            }
        const R xj[3] = {sx[(RHO + jl) * 4], sx[(RHO + jl) * 4 + 1], sx[(RHO + jl) * 4 + 2]};
        const int tj = TYP ? gpu_type_of(sx[(RHO + jl) * 4 + 3]) : 0;
        R Bacc[RHO];
#pragma unroll
        for (int k = 0; k < RHO; k++)
            Bacc[k] = 0;
        __syncthreads(); /* ctab ready */
        if (full)
            atm_tile_rows<R, RHO, CUT, false, TYP>(a, sx, ctab, btab, tabA, tabC, Bacc, xj, I0, J0,
                                                   K0, s, jl, nk, nt, tj);
        else
            atm_tile_rows<R, RHO, CUT, true, TYP>(a, sx, ctab, btab, tabA, tabC, Bacc, xj, I0, J0,
                                                  K0, s, jl, nk, nt, tj);
        __syncthreads(); /* every row done: tabB may overwrite the c and b tables */
        {
            const int kp = atm_kperm<RHO>(jl);
#pragma unroll
            for (int r = 0; r < RHO; r++) /* slot r holds k = r ^ kp */
                tabB[(s * RHO + jl) * LY::P + (r ^ kp)] = Bacc[r];
        }
        __syncthreads();
        if (tid < 3 * RHO) {
            const int role = tid / RHO, p = tid % RHO;
            const int g = (role == 0 ? I0 : role == 1 ? J0 : K0) + p;
            R f[3] = {0, 0, 0}, vir[6] = {0, 0, 0, 0, 0, 0}, er = 0;
            atm_tile_force<R, RHO, CUT, VIR>(a, sx, tabA, tabB, tabC, role, p, f, vir, er);
            if (g < a.n) {
                /* F = 2 sum_pairs (dE/dr^2) d with dE/dr^2 = -(3/2) nu 5^(-5/2) w (pot_atm_part) */
                const double scale = atm_force_scale(ATM_NU_OUT);
                e_thread += (double)er;
                add_force(a, g, scale * (double)f[0], scale * (double)f[1], scale * (double)f[2]);
                /* W = -2 (3 nu/8) sum_pairs w d d, each pair seen twice: -scale/2 per visit */
                if (VIR)
                    for (int c = 0; c < 6; c++)
                        svir[c * 3 * RHO + tid] += -0.5 * scale * (double)vir[c];
            }
        }
        if (a.mode == ACC_FIXED) {
            /* deterministic: the energy and virial of each tile on their own, so that the sums
             * do not depend on which tiles share a block (persistent maps, ranks) */
            atm_flush_tile(a.efix, a.vfix, e_thread, svir, scratch, tid, VIR ? 3 * RHO : 0,
                           atm_energy_scale(ATM_NU_OUT));
            e_thread = 0.0;
        }
    } while (atm_next_in_range(a, L, cur));
    if (a.mode == ACC_FIXED)
        return; /* flushed per tile */

    const double e = block_sum(e_thread, scratch);
    if (tid == 0)
        add_energy(a, 0, atm_energy_scale(ATM_NU_OUT) * e);
    if (VIR)
        for (int c = 0; c < 6; c++) {
            const double w = block_sum(tid < 3 * RHO ? svir[c * 3 * RHO + tid] : 0.0, scratch);
            if (tid == 0)
                add_virial(a, c, w);
        }
}

#undef ATM_NU_OUT

/* Host side: launch every launch of a plan; kernel attributes; occupancy. TYP picks the typed
 * family (each file instantiates one), nt its species. */
template <typename R, int RHO, bool CUT, bool VIR, bool TYP> static int atm_smem_t(int nt)
{
    return atm_smem_bytes<R, RHO, VIR>() + (TYP ? atm_nk<R, RHO>::bytes(nt) : 0);
}

template <typename R, int RHO, bool CUT, bool VIR, bool TYP>
static int atm_launch_t(const gpu_args *a, const map3d_plan *p, cudaStream_t st, int nt)
{
    const int smem = atm_smem_t<R, RHO, CUT, VIR, TYP>(nt);
    for (int l = 0; l < p->n_launch; l++) {
        const map3d_launch &L = p->launch[l];
        if (L.gx == 0 || L.gy == 0 || L.gz == 0)
            continue;
        atm_tiles_kernel<typename atm_kernel_arg<R, TYP>::type, RHO, CUT, VIR>
            <<<dim3(L.gx, L.gy, L.gz), 4 * RHO, smem, st>>>(*a, L);
        TB_LAUNCH_CHECK("atm_tiles_kernel");
    }
    return 0;
}

/* The typed kernels' limit covers TB_TYPES_MAX species (at most 77 KB: double, tile 32, virial). */
template <typename R, int RHO, bool CUT, bool VIR, bool TYP> static int atm_setup_t(void)
{
    CUDA_CHECK(cudaFuncSetAttribute(atm_tiles_kernel<typename atm_kernel_arg<R, TYP>::type, RHO, CUT, VIR>,
                                    cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    atm_smem_t<R, RHO, CUT, VIR, TYP>(TB_TYPES_MAX)));
    return 0;
}

template <typename R, int RHO, bool CUT, bool VIR, bool TYP> static int atm_occupancy_t(int nt)
{
    const int smem = atm_smem_t<R, RHO, CUT, VIR, TYP>(nt);
    int nb = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &nb, atm_tiles_kernel<typename atm_kernel_arg<R, TYP>::type, RHO, CUT, VIR>, 4 * RHO,
            smem) != cudaSuccess)
        return 1;
    return nb > 0 ? nb : 1;
}

/* Every (RHO, flags) instance of precision R and family TYP, flags = GPU_ATM_CUT |
 * GPU_ATM_VIRIAL bits: CALL<R, rho, cut, vir, TYP> ARGS, or -1 for another rho. */
#define TB_ATM_SWITCH(R, TYP, rho, flags, CALL, ARGS)                                      \
    switch ((rho) * 4 + ((flags) & 3)) {                                                   \
    case 32: return CALL<R, 8, false, false, TYP> ARGS;                                    \
    case 33: return CALL<R, 8, true, false, TYP> ARGS;                                     \
    case 34: return CALL<R, 8, false, true, TYP> ARGS;                                     \
    case 35: return CALL<R, 8, true, true, TYP> ARGS;                                      \
    case 64: return CALL<R, 16, false, false, TYP> ARGS;                                   \
    case 65: return CALL<R, 16, true, false, TYP> ARGS;                                    \
    case 66: return CALL<R, 16, false, true, TYP> ARGS;                                    \
    case 67: return CALL<R, 16, true, true, TYP> ARGS;                                     \
    case 128: return CALL<R, 32, false, false, TYP> ARGS;                                  \
    case 129: return CALL<R, 32, true, false, TYP> ARGS;                                   \
    case 130: return CALL<R, 32, false, true, TYP> ARGS;                                   \
    case 131: return CALL<R, 32, true, true, TYP> ARGS;                                    \
    default: return -1;                                                                    \
    }

template <typename R, bool TYP> static int atm_setup_one(int rho, int flags)
{
    TB_ATM_SWITCH(R, TYP, rho, flags, atm_setup_t, ())
}

/* Sets the shared-memory attribute of every instance of precision R and family TYP; 0 or -1. */
template <typename R, bool TYP> static int atm_setup_all(void)
{
    int rc = 0;
    for (int rho = 8; rho <= 32; rho *= 2)
        for (int flags = 0; flags < 4; flags++)
            rc |= atm_setup_one<R, TYP>(rho, flags);
    return rc;
}

#endif
