/* nbr_cpu.h — the CPU backend's work for one anchor of the neighbour-list path (nbr.h): its
 * entries, its pairs, its triangle of entry pairs walked tile by tile through lambda2d, and
 * the forces of the anchor and its partners, around the shared bodies nbr_atm and
 * pair_accumulate (triplet.h).
 *
 * Template: included by nbr_cpu.c with TB_REAL (arithmetic), TB_ACC (accumulation), TB_NAME
 * (the body suffix: _d or _f) and TB_TNAME (this instance's suffix) set. Separations are
 * formed in double and rounded to TB_REAL, so the float paths see anchor-relative
 * coordinates only. */

/* Scratch of one thread: entries of one anchor. */
typedef struct TB_TNAME(nbr_scratch) {
    TB_REAL *d;  /* [4 cap]: d_q (x, y, z), |d_q|^2 */
    TB_REAL *v;  /* [4 cap]: V_q (x, y, z), S_q (nbr.h) */
    int *t;      /* [cap]: particle of entry q */
    int cap;
} TB_TNAME(nbr_scratch);

/* Forces of anchor i into f[3n] (the thread's buffer); returns the triplet energy and adds the
 * pair energy to *e_pair, the virial to vir[6] (xx yy zz xy xz yz), the triplets that
 * counted to *hits and the entry-pair slots of its tiles to *slots. */
static double TB_TNAME(nbr_anchor)(const pot_params *pp, const TB_NAME(pot_coef) *kc,
                                   const double *pos, double box, int i, const int *row,
                                   int cnt, TB_TNAME(nbr_scratch) *s, TB_ACC *f, double *e_pair,
                                   double vir[6], long long *hits, long long *slots)
{
    const double *xi = pos + 3 * i;
    const double rca2 = pp->atm_on ? pp->d.atm_rc2 : -1.0, rcl2 = pp->lj_on ? pp->d.lj_rc2 : -1.0;
    int m = 0, ma = 0;
    /* entries: the ATM partners first, then those only within the LJ cutoff; index order */
    for (int pass = 0; pass < 2; pass++) {
        for (int q = 0; q < cnt; q++) {
            const int t = row[q];
            const double dx = nbr_mic(pos[3 * t] - xi[0], box);
            const double dy = nbr_mic(pos[3 * t + 1] - xi[1], box);
            const double dz = nbr_mic(pos[3 * t + 2] - xi[2], box);
            const double r2 = dx * dx + dy * dy + dz * dz;
            const int atm = r2 <= rca2, keep = pass == 0 ? atm : !atm && r2 < rcl2;
            if (!keep || !nbr_after(dx, dy, dz, i, t))
                continue;
            TB_REAL *d = s->d + 4 * m;
            d[0] = (TB_REAL)dx;
            d[1] = (TB_REAL)dy;
            d[2] = (TB_REAL)dz;
            d[3] = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
            s->t[m++] = t;
        }
        if (pass == 0)
            ma = m;
    }
    memset(s->v, 0, 4 * (size_t)m * sizeof *s->v);

    /* triplets: tile pairs (P, Q), P <= Q, of the triangle of the ma ATM entries */
    TB_ACC e_trip = 0;
    long long h = 0;
    const int mb = (ma + NBR_TILE - 1) / NBR_TILE;
    const long long n_tiles = map3d_tri(mb);
    for (long long w = 0; w < n_tiles; w++) {
        const int Q = map2d_lambda2d_row(w), P = (int)(w - map3d_tri(Q));
        const int j1 = (P + 1) * NBR_TILE < ma ? (P + 1) * NBR_TILE : ma;
        const int k1 = (Q + 1) * NBR_TILE < ma ? (Q + 1) * NBR_TILE : ma;
        for (int j = P * NBR_TILE; j < j1; j++) {
            const TB_REAL *dj = s->d + 4 * j;
            TB_REAL A = 0, E = 0, fj[3] = {0, 0, 0};
            for (int k = (Q * NBR_TILE > j + 1 ? Q * NBR_TILE : j + 1); k < k1; k++) {
                const TB_REAL *dk = s->d + 4 * k;
                TB_REAL djk[3], e, ga, gb, gc;
                /* most pairs (j, k) of the lists are too far apart: test before the formula */
                const TB_REAL bx = dk[0] - dj[0], by = dk[1] - dj[1], bz = dk[2] - dj[2];
                if (!(bx * bx + by * by + bz * bz <= kc->atm_rc2))
                    continue;
                if (!TB_NAME(nbr_atm)(kc, dj, dj[3], dk, dk[3], djk, &e, &ga, &gb, &gc))
                    continue;
                h++;
                E += e;
                A += ga;
                TB_REAL *vk = s->v + 4 * k;
                for (int x = 0; x < 3; x++) {
                    fj[x] += gb * djk[x];
                    vk[x] -= gb * djk[x];
                }
                vk[3] -= gc;
            }
            TB_REAL *vj = s->v + 4 * j;
            vj[0] += fj[0];
            vj[1] += fj[1];
            vj[2] += fj[2];
            vj[3] -= A;
            e_trip += (TB_ACC)E;
        }
    }
    *hits += h;
    *slots += n_tiles * NBR_TILE * NBR_TILE;

    /* forces of the entries and of the anchor; pairs; virial */
    const double scale = 0.75 * (double)kc->nu;
    double fi[3] = {0, 0, 0}, ep = 0;
    for (int q = 0; q < m; q++) {
        const TB_REAL *d = s->d + 4 * q, *v = s->v + 4 * q;
        double fq[3] = {0, 0, 0};
        if (q < ma)
            for (int x = 0; x < 3; x++)
                fq[x] = scale * (double)(v[x] + v[3] * d[x]);
        if (d[3] < kc->lj_rc2) {
            TB_REAL pi[3] = {0, 0, 0}, pj[3] = {0, 0, 0};
            ep += (double)TB_NAME(pair_accumulate)(kc, d, d[3], pi, pj);
            for (int x = 0; x < 3; x++)
                fq[x] += (double)pj[x];
        }
        const int t = s->t[q];
        for (int x = 0; x < 3; x++) {
            f[3 * t + x] += (TB_ACC)fq[x];
            fi[x] -= fq[x];
        }
        vir[0] += (double)d[0] * fq[0];
        vir[1] += (double)d[1] * fq[1];
        vir[2] += (double)d[2] * fq[2];
        vir[3] += 0.5 * ((double)d[0] * fq[1] + (double)d[1] * fq[0]);
        vir[4] += 0.5 * ((double)d[0] * fq[2] + (double)d[2] * fq[0]);
        vir[5] += 0.5 * ((double)d[1] * fq[2] + (double)d[2] * fq[1]);
    }
    for (int x = 0; x < 3; x++)
        f[3 * i + x] += (TB_ACC)fi[x];
    *e_pair += ep;
    return (double)kc->nu * (double)e_trip;
}
