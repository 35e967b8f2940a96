/* sw_cpu.h — the CPU backend's work for one centre of a centred triplet body (Stillinger-
 * Weber, pot_sw.h) on the full neighbour list (nbr_list.full: every partner within R, not
 * only those after the centre, nbr.h): its legs within their cutoffs, its pairs (each counted
 * once, at the centre it comes after: nbr.h's owner rule) and its angles (every unordered pair
 * of legs, as LAMMPS's pair_sw), the forces of the centre and its partners and the virial.
 *
 * Forces of one centre: each leg q keeps F_q, the force on its particle; the centre gets
 * -sum_q F_q, so the forces of one centre sum to zero and its virial is sum_q d_q (x) F_q
 * (translation invariance), as in nbr_cpu.h. Separations are formed in double and rounded to
 * TB_REAL; the sums over a centre's legs are in double.
 *
 * Template: included by cpu_backend.c through cpu_instances.h with TB_REAL, TB_ACC, TB_NAME
 * and TB_TNAME set. */

/* Centre i of species ti (type NULL: one species, 0) over its full row: returns the three-body
 * energy, adds the pair energy to *e_pair, the virial to vir[6], the angles to *hits and its
 * forces into f. Scratch: d [4 cap] reals (legs' x y z r^2), h [3 cap] reals (each leg's radial
 * factors, pot_sw_leg's e r g, formed once as the leg is kept: the same values the angles formed
 * before, one leg's per angle fewer), fq [3 cap] doubles, t [cap]. */
static double TB_TNAME(sw_centre)(const pot_params *pp, const TB_NAME(pot_coef) *kc,
                                  const int *type, const double *pos, int i, const int *row,
                                  int cnt, TB_REAL *d, TB_REAL *h, double *fq, int *tq, TB_ACC *f,
                                  double *e_pair, double vir[6], long long *hits)
{
    const int ti = type ? type[i] : 0;
    const TB_NAME(pot_sw_pair) *legs = kc->tab->sw2 + POT_PAIR(ti, 0);
    const TB_NAME(pot_sw_trip) *angles = kc->tab->sw3 + POT_TRIPLET(ti, 0, 0);
    const double *xi = pos + 3 * i;
    double ep = 0.0, e3 = 0.0, fi[3] = {0, 0, 0};
    int m = 0;
    for (int q = 0; q < cnt; q++) { /* the legs, within their (i, j, j) cutoffs */
        const int t = row[q], tj = type ? type[t] : 0;
        double e[3];
        const double r2 = nbr_separation(&pp->d.box, xi, pos + 3 * t, e);
        if (!(r2 < pp->tab_d.sw2[POT_PAIR(ti, tj)].cutsq))
            continue;
        TB_REAL *dm = d + 4 * (size_t)m;
        dm[0] = (TB_REAL)e[0];
        dm[1] = (TB_REAL)e[1];
        dm[2] = (TB_REAL)e[2];
        dm[3] = dm[0] * dm[0] + dm[1] * dm[1] + dm[2] * dm[2];
        h[3 * m] = TB_NAME(pot_sw_leg)(legs + tj, dm[3], h + 3 * m + 1, h + 3 * m + 2);
        fq[3 * m] = fq[3 * m + 1] = fq[3 * m + 2] = 0.0;
        tq[m] = t;
        if (nbr_after(e[0], e[1], e[2], i, t)) { /* the pair, once */
            TB_REAL fp;
            ep += (double)TB_NAME(pot_sw2)(legs + tj, dm[3], &fp);
            for (int x = 0; x < 3; x++)
                fq[3 * m + x] += (double)(fp * dm[x]);
        }
        m++;
    }
    for (int j = 0; j + 1 < m; j++) { /* the angles j-i-k, j < k */
        const TB_REAL *dj = d + 4 * (size_t)j;
        const int tj = type ? type[tq[j]] : 0;
        double gj[3] = {0, 0, 0};
        const TB_REAL *hj = h + 3 * (size_t)j; /* leg j's radial factors */
        for (int k = j + 1; k < m; k++) {
            const TB_REAL *dk = d + 4 * (size_t)k, *hk = h + 3 * (size_t)k;
            const int tk = type ? type[tq[k]] : 0;
            TB_REAL fj[3], fk[3];
            e3 += (double)TB_NAME(pot_sw3_legs)(angles + POT_PAIR(tj, tk), dj, dj[3], hj[0], hj[1],
                                                hj[2], dk, dk[3], hk[0], hk[1], hk[2], fj, fk);
            for (int x = 0; x < 3; x++) {
                gj[x] += (double)fj[x];
                fq[3 * k + x] += (double)fk[x];
            }
        }
        for (int x = 0; x < 3; x++)
            fq[3 * j + x] += gj[x];
        *hits += m - 1 - j;
    }
    for (int q = 0; q < m; q++) {
        const TB_REAL *dm = d + 4 * (size_t)q;
        const double dw[3] = {(double)dm[0], (double)dm[1], (double)dm[2]}, *F = fq + 3 * q;
        for (int x = 0; x < 3; x++) {
            f[3 * tq[q] + x] += (TB_ACC)F[x];
            fi[x] -= F[x];
        }
        nbr_virial_add(vir, dw, F);
    }
    for (int x = 0; x < 3; x++)
        f[3 * i + x] += (TB_ACC)fi[x];
    *e_pair += ep;
    return e3;
}
