/* tile_simd_body.h — the CPU backend's vectorized ATM triplet tile: the loop of tile_cpu.h's
 * tile_triplets rearranged so that the k loop runs in SIMD lanes (OpenMP simd), over the same
 * algebra (pot_atm_set, pot_atm.h, unchanged and shared with the neighbour-list path).
 *
 * Tile T holds particles [T*edge, min((T+1)*edge, n)); tile (I <= J <= K) visits every i<j<k
 * with i in I, j in J, k in K. Per i, the separations d_ik = mic(r_k - r_i) of the whole tile
 * K and c = |d_ik|^2 are formed once into contiguous arrays (SoA, scratch); per pair (i, j)
 * the k loop reads them, forms d_jk = d_ik - d_ij, and adds F_k into per-tile SoA
 * accumulators (no scatter inside the loop), and likewise F_i and the energy per lane k (so
 * that a row of k ends with only F_j's three simd reductions); all are summed per i. The faces (j > i, k > j) and the clipped last tile are loop bounds; the k loop
 * is padded to a multiple of TB_SIMD_PAD lanes (no scalar remainder), the padded lanes and
 * the triplets outside the cutoffs selected to zero.
 *
 * Scaling: the loop sums the unscaled e' and g' of pot_atm_set (E = nu e', dE/da = (3 nu/8)
 * ga'), so F = 2 (3 nu/8) (...) = (3 nu/4) (...) is applied once per row (F_j) and once per
 * i (F_i, F_k), and nu to the tile's energy, not per triplet.
 *
 * Precision: in mixed precision (TB_REAL float, TB_ACC double) F_j of one row of k is summed
 * in float (at most `edge` terms, as tile_cpu.h), and F_k, the lanes of F_i and of e over the
 * rows j of one i (at most `edge` terms each); then all in double.
 *
 * Virial W_ab = sum d_ij (x) F_j + d_ik (x) F_k (tile_cpu.h): d_ij (x) F_j per row of k from
 * the row's F_j; d_ik does not depend on j, so sum_j d_ik (x) F_k^(ijk) = d_ik (x) (F_k summed
 * over the rows of i), formed once per k and i when the F_k accumulators are flushed.
 *
 * Results are bitwise repeatable on one machine (fixed loop order); the lane count, and so
 * the order of the simd reductions, follows the instruction set the clone runs on
 * (TB_SIMD_CLONES: AVX-512, AVX2, baseline x86-64), so machines of different ISAs differ in
 * the last bits.
 *
 * Several species (TB_TYPED 1: tile_simd_triplets_typed): nu is applied per lane instead of
 * once, e' and g' of a lane times its triplet's nu (selected to zero outside, as before). Per i,
 * the nu of (t_i, t, t_k) for every species t and every k of the tile is laid out as one lane
 * array per t (nt x nk loads per i, against the rows' ~edge x nk lanes); row j reads the
 * array of its t_j, and a row whose every nu is zero is skipped. One species (TB_TYPED 0) is
 * the text as it was, so its bits are unchanged.
 *
 * Template: included by tile_simd.c with TB_REAL (arithmetic), TB_ACC (accumulation),
 * TB_NAME (the body suffix: _d or _f), TB_TNAME (this instance's suffix) and TB_TYPED (0 or 1)
 * set. */

#if TB_TYPED
/* tile_simd_triplets with the types of the particles, type[n], and the tables of kc. */
TB_SIMD_CLONES double TB_TNAME(tile_simd_triplets_typed)(const TB_NAME(pot_coef) *kc,
                                                         const int *type, const TB_REAL *x,
                                                         int n, int edge, int I, int J, int K,
                                                         TB_ACC *f, double *w, void *scr)
#else
/* ATM energy of tile (I, J, K); forces added into f[3n], the virial into w[6]. x holds 3n
 * positions; scr holds tile_simd_scratch(edge) bytes, 64-byte aligned. */
TB_SIMD_CLONES double TB_TNAME(tile_simd_triplets)(const TB_NAME(pot_coef) *kc,
                                                   const TB_REAL *x, int n, int edge, int I,
                                                   int J, int K, TB_ACC *f, double *w,
                                                   void *scr)
#endif
{
    const int i0 = I * edge, i1 = i0 + edge < n ? i0 + edge : n;
    const int j0 = J * edge, j1 = j0 + edge < n ? j0 + edge : n;
    const int k0 = K * edge, k1 = k0 + edge < n ? k0 + edge : n;
    const int nk = k1 - k0, st = tile_simd_stride(edge);
    TB_REAL *restrict dx = (TB_REAL *)scr, *restrict dy = dx + st, *restrict dz = dy + st;
    TB_REAL *restrict cc = dz + st, *restrict fx = cc + st, *restrict fy = fx + st;
    TB_REAL *restrict fz = fy + st, *restrict gx = fz + st, *restrict gy = gx + st;
    TB_REAL *restrict gz = gy + st, *restrict eq = gz + st;
    const TB_REAL rc2 = kc->atm_rc2, rct6 = kc->atm_rct6, zero = 0;
#if TB_TYPED
    const int nt = kc->ntypes;
    TB_REAL *restrict nus = eq + st; /* [nt st]: nu of (t_i, t, t_k) per lane, per t */
    int rowon[TB_TYPES_MAX];          /* some nu of (t_i, t, .) in this tile is not zero */
    const TB_ACC kf = (TB_ACC)0.75;   /* 2 (3/8): g' nu to force (nu in the lanes) */
    for (int q = 0; q < nt * st; q++)
        nus[q] = 0;
#else
    const TB_ACC kf = (TB_ACC)0.75 * (TB_ACC)kc->nu; /* 2 (3 nu/8): g' to force */
#endif
    TB_ACC e = 0, wt[6] = {0, 0, 0, 0, 0, 0};
    /* padded lanes: zero separations, selected away by q < nk; accumulators start at zero */
    for (int q = 0; q < st; q++)
        dx[q] = dy[q] = dz[q] = cc[q] = fx[q] = fy[q] = fz[q] = gx[q] = gy[q] = gz[q] = eq[q] = 0;
    for (int i = i0; i < i1; i++) {
        const TB_REAL *ri = x + 3 * i;
        const int jlo = j0 > i + 1 ? j0 : i + 1;
        if (jlo >= j1 || (k0 > jlo + 1 ? k0 : jlo + 1) >= k1)
            continue; /* no j, or no k > j, for this i */
#if TB_TYPED
        for (int t = 0; t < nt; t++) {
            const TB_REAL *nurow = kc->tab->nu + POT_TRIPLET(type[i], t, 0);
            TB_REAL *restrict nq = nus + (size_t)t * st;
            int on = 0;
            for (int q = 0; q < nk; q++) {
                nq[q] = nurow[type[k0 + q]];
                on |= nq[q] != zero;
            }
            rowon[t] = on;
        }
#endif
        for (int q = 0; q < nk; q++) {
            const TB_REAL *rk = x + 3 * (k0 + q);
            TB_REAL d[3] = {rk[0] - ri[0], rk[1] - ri[1], rk[2] - ri[2]};
            TB_NAME(pot_mic)(kc, d);
            dx[q] = d[0];
            dy[q] = d[1];
            dz[q] = d[2];
            cc[q] = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
        }
        for (int j = jlo; j < j1; j++) {
            const int qlo = (k0 > j + 1 ? k0 : j + 1) - k0;
            if (qlo >= nk)
                break; /* k > j leaves no k here, nor for any later j */
            TB_REAL dij[3] = {x[3 * j] - ri[0], x[3 * j + 1] - ri[1], x[3 * j + 2] - ri[2]};
            TB_NAME(pot_mic)(kc, dij);
            const TB_REAL a = dij[0] * dij[0] + dij[1] * dij[1] + dij[2] * dij[2];
            if (!(a <= rc2))
                continue; /* no triplet of this row counts */
#if TB_TYPED
            if (!rowon[type[j]])
                continue; /* nu = 0 for every triplet of this row */
            const TB_REAL *restrict nq = nus + (size_t)type[j] * st;
#endif
            const TB_REAL ax = dij[0], ay = dij[1], az = dij[2];
            const int qhi = qlo + (nk - qlo + TB_SIMD_PAD - 1) / TB_SIMD_PAD * TB_SIMD_PAD;
            TB_REAL fjx = 0, fjy = 0, fjz = 0;
#pragma omp simd reduction(+ : fjx, fjy, fjz)
            for (int q = qlo; q < qhi; q++) {
                const TB_REAL kx = dx[q], ky = dy[q], kz = dz[q], c = cc[q];
                const TB_REAL bx = kx - ax, by = ky - ay, bz = kz - az; /* d_jk */
                const TB_REAL b = bx * bx + by * by + bz * bz;
                TB_REAL ee, ga, gb, gc;
                const TB_REAL abc = TB_NAME(pot_atm_set)(a, b, c, &ee, &ga, &gb, &gc);
                const int in = (q < nk) & (b <= rc2) & (c <= rc2) & (abc <= rct6);
#if TB_TYPED
                const TB_REAL nu = nq[q];
                ee = in ? ee * nu : zero;
                ga = in ? ga * nu : zero;
                gb = in ? gb * nu : zero;
                gc = in ? gc * nu : zero;
#else
                ee = in ? ee : zero;
                ga = in ? ga : zero;
                gb = in ? gb : zero;
                gc = in ? gc : zero;
#endif
                const TB_REAL tijx = ga * ax, tijy = ga * ay, tijz = ga * az;
                const TB_REAL tjkx = gb * bx, tjky = gb * by, tjkz = gb * bz;
                const TB_REAL tikx = gc * kx, tiky = gc * ky, tikz = gc * kz;
                gx[q] += tijx + tikx;
                gy[q] += tijy + tiky;
                gz[q] += tijz + tikz;
                fjx += tjkx - tijx;
                fjy += tjky - tijy;
                fjz += tjkz - tijz;
                fx[q] -= tjkx + tikx;
                fy[q] -= tjky + tiky;
                fz[q] -= tjkz + tikz;
                eq[q] += ee;
            }
            const TB_ACC Fj[3] = {kf * (TB_ACC)fjx, kf * (TB_ACC)fjy, kf * (TB_ACC)fjz};
            f[3 * j] += Fj[0];
            f[3 * j + 1] += Fj[1];
            f[3 * j + 2] += Fj[2];
            wt[0] += (TB_ACC)dij[0] * Fj[0];
            wt[1] += (TB_ACC)dij[1] * Fj[1];
            wt[2] += (TB_ACC)dij[2] * Fj[2];
            wt[3] += (TB_ACC)dij[0] * Fj[1];
            wt[4] += (TB_ACC)dij[0] * Fj[2];
            wt[5] += (TB_ACC)dij[1] * Fj[2];
        }
        /* this i's F_k into the buffer and its d_ik (x) F_k into the virial, its F_i and
         * energy summed over the lanes; zero again */
        TB_ACC fi[3] = {0, 0, 0};
        for (int q = 0; q < nk; q++) {
            fi[0] += (TB_ACC)gx[q];
            fi[1] += (TB_ACC)gy[q];
            fi[2] += (TB_ACC)gz[q];
            e += (TB_ACC)eq[q];
            const TB_ACC Fk[3] = {kf * (TB_ACC)fx[q], kf * (TB_ACC)fy[q], kf * (TB_ACC)fz[q]};
            TB_ACC *fk = f + 3 * (size_t)(k0 + q);
            fk[0] += Fk[0];
            fk[1] += Fk[1];
            fk[2] += Fk[2];
            wt[0] += (TB_ACC)dx[q] * Fk[0];
            wt[1] += (TB_ACC)dy[q] * Fk[1];
            wt[2] += (TB_ACC)dz[q] * Fk[2];
            wt[3] += (TB_ACC)dx[q] * Fk[1];
            wt[4] += (TB_ACC)dx[q] * Fk[2];
            wt[5] += (TB_ACC)dy[q] * Fk[2];
            fx[q] = fy[q] = fz[q] = gx[q] = gy[q] = gz[q] = eq[q] = 0;
        }
        f[3 * i] += kf * fi[0];
        f[3 * i + 1] += kf * fi[1];
        f[3 * i + 2] += kf * fi[2];
    }
    for (int d = 0; d < 6; d++)
        w[d] += (double)wt[d];
#if TB_TYPED
    return (double)e;
#else
    return (double)(e * (TB_ACC)kc->nu);
#endif
}
