/* tile_cpu.h — the CPU backend's scalar loops over the particles of one tile, around the
 * shared bodies triplet_accumulate / pair_accumulate (triplet.h): the pair tile the backend
 * runs, and the scalar triplet tile (defined only with TB_TILE_SCALAR_TRIPLETS) that
 * tests/test_simd.c holds the backend's vectorized triplet tile (tile_simd_body.h) against.
 *
 * Tile T holds particles [T*edge, min((T+1)*edge, n)). A triplet tile (I <= J <= K) visits
 * every i<j<k with i in I, j in J, k in K: on the faces I = J and J = K the lower bounds
 * j > i and k > j do the masking, and the last tile is clipped to n. The pair (i, j) is
 * formed once and reused across k. Partial forces on i and j are summed in TB_REAL over
 * one row of k (at most `edge` terms) and then added into the TB_ACC array f (the thread's
 * own buffer), so mixed precision (float arithmetic, double accumulation) loses at most
 * ~edge float roundings per partial sum.
 *
 * Virial: W_ab = sum_m P_m,a F_m,b over each interaction's images, relative to its lowest
 * index i (docs/physics.md): a pair adds d_ij (x) F_j, a triplet d_ij (x) F_j + d_ik (x) F_k.
 * F_j of a row of k is the row's partial fj, so per triplet only d_ik (x) F_k is formed (six
 * products); the six components xx yy zz xy xz yz are summed like the energy and added into
 * w[6].
 *
 * Several species (pot_coef.ntypes > 1): the _typed tiles take the particles' types and read
 * the tables (nu per triplet, LJ coefficients and cutoff per pair) through the _typed bodies.
 *
 * Template: included by cpu_backend.c with TB_REAL (arithmetic), TB_ACC (accumulation),
 * TB_NAME (the body suffix: _d or _f) and TB_TNAME (this instance's suffix) set. */

/* W[6] += p (x) q in the order xx yy zz xy xz yz. */
static inline void TB_TNAME(vir_add)(TB_REAL *W, const TB_REAL p[3], const TB_REAL q[3])
{
    W[0] += p[0] * q[0];
    W[1] += p[1] * q[1];
    W[2] += p[2] * q[2];
    W[3] += p[0] * q[1];
    W[4] += p[0] * q[2];
    W[5] += p[1] * q[2];
}

#ifdef TB_TILE_SCALAR_TRIPLETS
/* ATM energy of tile (I, J, K); forces added into f[3n], the virial into w[6]. x holds 3n
 * positions. */
static inline double TB_TNAME(tile_triplets)(const TB_NAME(pot_coef) *kc, const TB_REAL *x, int n,
                                      int edge, int I, int J, int K, TB_ACC *f, double *w)
{
    const int i0 = I * edge, i1 = i0 + edge < n ? i0 + edge : n;
    const int j0 = J * edge, j1 = j0 + edge < n ? j0 + edge : n;
    const int k0 = K * edge, k1 = k0 + edge < n ? k0 + edge : n;
    TB_ACC e = 0, wt[6] = {0, 0, 0, 0, 0, 0};
    for (int i = i0; i < i1; i++) {
        const TB_REAL *ri = x + 3 * i;
        for (int j = (j0 > i + 1 ? j0 : i + 1); j < j1; j++) {
            TB_REAL dij[3] = {x[3 * j] - ri[0], x[3 * j + 1] - ri[1], x[3 * j + 2] - ri[2]};
            TB_REAL fi[3] = {0, 0, 0}, fj[3] = {0, 0, 0}, eij = 0;
            TB_REAL wr[6] = {0, 0, 0, 0, 0, 0}; /* this row's virial */
            TB_NAME(pot_mic)(kc, dij);
            const TB_REAL a = dij[0] * dij[0] + dij[1] * dij[1] + dij[2] * dij[2];
            for (int k = (k0 > j + 1 ? k0 : j + 1); k < k1; k++) {
                TB_REAL dik[3] = {x[3 * k] - ri[0], x[3 * k + 1] - ri[1], x[3 * k + 2] - ri[2]};
                TB_REAL fk[3] = {0, 0, 0};
                TB_NAME(pot_mic)(kc, dik);
                const TB_REAL c = dik[0] * dik[0] + dik[1] * dik[1] + dik[2] * dik[2];
                eij += TB_NAME(triplet_accumulate)(kc, dij, a, dik, c, fi, fj, fk);
                TB_TNAME(vir_add)(wr, dik, fk);
                f[3 * k] += (TB_ACC)fk[0];
                f[3 * k + 1] += (TB_ACC)fk[1];
                f[3 * k + 2] += (TB_ACC)fk[2];
            }
            for (int d = 0; d < 3; d++) {
                f[3 * i + d] += (TB_ACC)fi[d];
                f[3 * j + d] += (TB_ACC)fj[d];
            }
            TB_TNAME(vir_add)(wr, dij, fj);
            e += (TB_ACC)eij;
            for (int d = 0; d < 6; d++)
                wt[d] += (TB_ACC)wr[d];
        }
    }
    for (int d = 0; d < 6; d++)
        w[d] += (double)wt[d];
    return (double)e;
}
#endif

/* LJ energy of pair tile (I, J), I <= J; forces added into f[3n], the virial into w[6].
 * type: NULL for one species (kc's scalars), else particle m's species type[m] (the pair's
 * coefficients and cutoff from kc->tab); the test is the same for every pair of the call. */
static inline double TB_TNAME(tile_pairs)(const TB_NAME(pot_coef) *kc, const int *type,
                                          const TB_REAL *x, int n, int edge, int I, int J,
                                          TB_ACC *f, double *w)
{
    const int i0 = I * edge, i1 = i0 + edge < n ? i0 + edge : n;
    const int j0 = J * edge, j1 = j0 + edge < n ? j0 + edge : n;
    TB_ACC e = 0, wt[6] = {0, 0, 0, 0, 0, 0};
    for (int i = i0; i < i1; i++) {
        TB_REAL fi[3] = {0, 0, 0}, ei = 0, wr[6] = {0, 0, 0, 0, 0, 0};
        const TB_NAME(pot_lj_pair) *row = type ? kc->tab->lj + POT_PAIR(type[i], 0) : NULL;
        for (int j = (j0 > i + 1 ? j0 : i + 1); j < j1; j++) {
            TB_REAL dij[3] = {x[3 * j] - x[3 * i], x[3 * j + 1] - x[3 * i + 1],
                              x[3 * j + 2] - x[3 * i + 2]};
            TB_REAL fj[3] = {0, 0, 0};
            TB_NAME(pot_mic)(kc, dij);
            const TB_REAL r2 = dij[0] * dij[0] + dij[1] * dij[1] + dij[2] * dij[2];
            ei += row ? TB_NAME(pair_accumulate_typed)(row + type[j], dij, r2, fi, fj)
                      : TB_NAME(pair_accumulate)(kc, dij, r2, fi, fj);
            TB_TNAME(vir_add)(wr, dij, fj);
            f[3 * j] += (TB_ACC)fj[0];
            f[3 * j + 1] += (TB_ACC)fj[1];
            f[3 * j + 2] += (TB_ACC)fj[2];
        }
        f[3 * i] += (TB_ACC)fi[0];
        f[3 * i + 1] += (TB_ACC)fi[1];
        f[3 * i + 2] += (TB_ACC)fi[2];
        e += (TB_ACC)ei;
        for (int d = 0; d < 6; d++)
            wt[d] += (TB_ACC)wr[d];
    }
    for (int d = 0; d < 6; d++)
        w[d] += (double)wt[d];
    return (double)e;
}
