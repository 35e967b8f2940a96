/* nbr_simd_body.h — the CPU backend's vectorized triangle of entry pairs of one anchor of the
 * neighbour-list path (nbr.h): the pairs (j, k), j < k, of the ma ATM entries, with the k loop
 * of each j in SIMD lanes (OpenMP simd), over the GPU's list formulation: d_jk = d_k - d_j and
 * pot_atm_list_v (pot_atm.h), no energy per triplet (nbr_cpu.h's nbr_finish recovers it from
 * the forces by Euler's relation, as gpu_nbr.cu does). Against pot_atm_set, which nbr_atm and
 * this loop took before 2026-11-29: no energy per triplet and fewer multiplies (the row's 5/a
 * and -a/2 formed once per row); the one square root and division per triplet (tb_rsqrt)
 * stay.
 *
 * Walk: row by row, j = 0 .. ma-2, each row the whole k = j+1 .. ma-1 in one loop. The GPU
 * (and the scalar loop this replaced, nbr_cpu.h's nbr_scalar_triangle) cut the triangle into
 * NBR_TILE x NBR_TILE tiles for its warps; on one CPU thread the entries sit in L1 anyway, and
 * whole rows (about 75 entries in the liquid against a tile's 32, or 16 on its diagonal) pay
 * the row's reductions and its padding once: 1.5x faster than the tile walk. The slot count
 * (nbr_cpu.h) still counts the tiles, as the GPU launches them. The row is padded to a
 * multiple of NBR_SIMD_PAD lanes (no scalar remainder); a lane counts iff k < ma,
 * |d_jk|^2 <= rc^2 and abc <= cutoff_triple^6 (abc = a (b c), formed as nbr_atm forms it, so
 * the hits are nbr_atm's), and is otherwise given the factor v = 0 (no branch: most entry pairs
 * of a liquid's lists fail the side test). Padded lanes read entries up to
 * ma + NBR_SIMD_PAD - 1 (the caller keeps them finite, with |d|^2 = 0: hence degen = 1, which
 * keeps their h finite) and add zeros to their V and S.
 *
 * Sums, in pot_atm_list's scaling (the caller multiplies by -3 nu 5^(-5/2)): what goes to k
 * (V_k -= gb d_jk, S_k -= v hc) is added per lane into the SoA arrays v, for each k its rows j
 * ascending; what goes to j (V_j += sum_k gb d_jk, S_j -= sum_k v ha) and the hit count are
 * simd reductions of the row, in TB_REAL (at most ma terms). The reductions' order follows
 * the lane count of the clone that runs (AVX-512, AVX2, baseline: TB_SIMD_CLONES), so results
 * are bitwise repeatable on one machine and differ between instruction sets in the last bits;
 * the hit count is exact everywhere.
 *
 * Several species (TB_TYPED 1: nbr_simd_triangle_typed): the caller (nbr_cpu.h) lays out, per
 * species t, the nu of (t_i, t, t_k) of every entry k as one lane array; row j reads the array
 * of its species and passes each lane's nu to pot_atm_list_v as the triplet's weight w (so v
 * carries it), and skips itself when all of them are zero. The sums then hold nu: the caller
 * scales by -3 5^(-5/2), without nu. The hit count is the triplets within the cutoffs whose nu
 * is not zero (those that count). One species (TB_TYPED 0): w = 1.
 *
 * Template: included by nbr_simd.c with TB_REAL (arithmetic), TB_NAME (the body suffix: _d or
 * _f), TB_TNAME (this instance's suffix) and TB_TYPED (0 or 1) set; TB_ACC is not used here
 * (the mixed and single instances are the same code). */

#if TB_TYPED
/* nus: [TB_TYPES_MAX st], nus[t st + k] = nu of (t_i, t, t_k), zero past ma; tt: [st] the
 * entries' species; rowon[t]: some nus[t st + k], k < ma, is not zero. */
TB_SIMD_CLONES void TB_TNAME(nbr_simd_triangle_typed)(const TB_NAME(pot_coef) *kc,
                                                      const TB_REAL *d, TB_REAL *v, int st,
                                                      int ma, const TB_REAL *nus,
                                                      const int *tt, const int *rowon,
                                                      long long *hits)
#else
TB_SIMD_CLONES void TB_TNAME(nbr_simd_triangle)(const TB_NAME(pot_coef) *kc, const TB_REAL *d,
                                                TB_REAL *v, int st, int ma, long long *hits)
#endif
{
    const TB_REAL *restrict dx = d, *restrict dy = d + st, *restrict dz = d + 2 * (size_t)st;
    const TB_REAL *restrict dc = d + 3 * (size_t)st;
    TB_REAL *restrict vx = v, *restrict vy = v + st, *restrict vz = v + 2 * (size_t)st;
    TB_REAL *restrict vs = v + 3 * (size_t)st;
    const TB_REAL rc2 = kc->atm_rc2, rct6 = kc->atm_rct6;
    long long h = 0;
    for (int j = 0; j + 1 < ma; j++) {
        const int klo = j + 1;
        const int khi = klo + (ma - klo + NBR_SIMD_PAD - 1) / NBR_SIMD_PAD * NBR_SIMD_PAD;
#if TB_TYPED
        if (!rowon[tt[j]])
            continue; /* nu = 0 for every triplet of this row */
        const TB_REAL *restrict nq = nus + (size_t)tt[j] * st;
#endif
        const TB_REAL ax = dx[j], ay = dy[j], az = dz[j], a = dc[j];
        const TB_REAL nah = (TB_REAL)-0.5 * a, r5a = (TB_REAL)5 / a; /* the row's, once */
        TB_REAL A = 0, fjx = 0, fjy = 0, fjz = 0;
        int hj = 0;
#pragma omp simd reduction(+ : A, fjx, fjy, fjz, hj)
        for (int k = klo; k < khi; k++) {
            const TB_REAL bx = dx[k] - ax, by = dy[k] - ay, bz = dz[k] - az; /* d_jk */
            const TB_REAL b = bx * bx + by * by + bz * bz, c = dc[k];
            const TB_REAL abc = a * (b * c); /* as nbr_atm forms it: the same hits */
            const int in = (k < ma) & (b <= rc2) & (abc <= rct6);
#if TB_TYPED
            const TB_REAL nu = nq[k];
#else
            const TB_REAL nu = 1;
#endif
            TB_REAL vv, ha, hb, hc;
            TB_NAME(pot_atm_list_v)(a, nah, r5a, b, c, abc * (TB_REAL)0.2, nu, in, 1, &vv, &ha,
                                    &hb, &hc);
#if TB_TYPED
            hj += in & (nu != (TB_REAL)0);
#else
            hj += in;
#endif
            A += vv * ha;
            const TB_REAL gb = vv * hb;
            const TB_REAL tx = gb * bx, ty = gb * by, tz = gb * bz;
            fjx += tx;
            fjy += ty;
            fjz += tz;
            vx[k] -= tx;
            vy[k] -= ty;
            vz[k] -= tz;
            vs[k] -= vv * hc;
        }
        vx[j] += fjx;
        vy[j] += fjy;
        vz[j] += fjz;
        vs[j] -= A;
        h += hj;
    }
    *hits += h;
}
