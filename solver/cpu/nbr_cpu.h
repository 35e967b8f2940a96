/* nbr_cpu.h — the CPU backend's work for one anchor of the neighbour-list path (nbr.h): its
 * entries, its pairs, its triangle of entry pairs (the vectorized nbr_simd_triangle,
 * nbr_simd_body.h, row by row, over pot_atm_list_v as the GPU's lists; the slot count still
 * counts the NBR_TILE tiles the GPU walks), and the forces of the anchor and its partners
 * (F_q = -3 nu 5^(-5/2) (V_q + S_q d_q) plus the pair, pair_accumulate), its ATM energy from
 * them by Euler's relation (9 E = sum_q d_q . F_q, in double: nbr_finish) and the virial.
 *
 * With TB_NBR_SCALAR_TRIPLETS defined (tests/test_nbr_simd.c only) it also defines the scalar
 * tile loop the vectorized triangle replaced (nbr_atm, the energy per triplet), and
 * nbr_anchor_scalar, the same anchor around it: the tests' reference.
 *
 * Template: included by cpu_backend.c with TB_REAL (arithmetic), TB_ACC (accumulation),
 * TB_NAME (the body suffix: _d or _f) and TB_TNAME (this instance's suffix) set; needs
 * solver/cpu/nbr_simd.h. Separations are formed in double and rounded to TB_REAL, so the float
 * paths see anchor-relative coordinates only; mixed precision (TB_PAIR_DOUBLE: float
 * arithmetic, double accumulation) computes its pairs in double from the double separation
 * (the pair term is O(entries), the triangle O(entries^2)), as the GPU's lists do. */
#define TB_PAIR_DOUBLE (sizeof(TB_REAL) < sizeof(TB_ACC))

/* Scratch of one thread: entries of one anchor, SoA arrays of st = nbr_simd_stride(cap)
 * elements each. Several species: type is not NULL, and nu, tt and rowon are filled by
 * nbr_entries for nbr_simd_triangle_typed (nbr_simd.h). */
typedef struct TB_TNAME(nbr_scratch) {
    TB_REAL *d;  /* [4 st]: d_q x, y, z, then |d_q|^2 */
    TB_REAL *v;  /* [4 st]: V_q x, y, z, then S_q (nbr.h) */
    int *t;      /* [2 cap]: particle of entry q; [cap, 2 cap) room for nbr_entries */
    int cap;
    const int *type; /* [n] the particles' species; NULL: one species */
    TB_REAL *nu;     /* [TB_TYPES_MAX st]: nu of (t_i, t, t_q) per species t (typed) */
    int *tt;         /* [st]: species of entry q (typed) */
    int rowon[TB_TYPES_MAX]; /* some nu of (t_i, t, .) of the ATM entries is not zero */
} TB_TNAME(nbr_scratch);

/* The entries of anchor i into s (SoA): the ATM partners first, then those only within the LJ
 * cutoff, in index order; *ma gets the ATM entries' count. Returns m, all entries. Zeroes the
 * V and S of the entries and the padding past them, and pads d with zeros. One pass over the
 * row, without branches on the class of a partner: each is written to the next ATM slot and
 * to the next LJ-only slot (parked in v and t + cap), and only the counter of its class
 * advances; the LJ-only entries are then moved behind the ATM ones. */
static int TB_TNAME(nbr_entries)(const pot_params *pp, const double *pos, int i,
                                 const int *row, int cnt, TB_TNAME(nbr_scratch) *s, int *ma)
{
    const double *xi = pos + 3 * i;
    const double rca2 = pp->atm_on ? pp->d.atm_rc2 : -1.0, rcl2 = pp->lj_on ? pp->d.lj_rc2 : -1.0;
    const size_t st = (size_t)nbr_simd_stride(s->cap);
    TB_REAL *dx = s->d, *dy = dx + st, *dz = dy + st, *dc = dz + st;
    TB_REAL *lx = s->v, *ly = lx + st, *lz = ly + st, *lc = lz + st; /* LJ-only, parked */
    int *ta = s->t, *tl = s->t + s->cap;
    int m = 0, l = 0;
    for (int q = 0; q < cnt; q++) {
        const int t = row[q];
        double e[3];
        const double r2 = nbr_separation(&pp->d.box, xi, pos + 3 * t, e);
        const double ex = e[0], ey = e[1], ez = e[2];
        const int after = nbr_after(ex, ey, ez, i, t), atm = r2 <= rca2;
        const TB_REAL rx = (TB_REAL)ex, ry = (TB_REAL)ey, rz = (TB_REAL)ez;
        const TB_REAL rr = rx * rx + ry * ry + rz * rz;
        dx[m] = rx;
        dy[m] = ry;
        dz[m] = rz;
        dc[m] = rr;
        ta[m] = t;
        lx[l] = rx;
        ly[l] = ry;
        lz[l] = rz;
        lc[l] = rr;
        tl[l] = t;
        m += after & atm;
        l += after & !atm & (r2 < rcl2);
    }
    *ma = m;
    for (int q = 0; q < l; q++) {
        dx[m + q] = lx[q];
        dy[m + q] = ly[q];
        dz[m + q] = lz[q];
        dc[m + q] = lc[q];
        ta[m + q] = tl[q];
    }
    m += l;
    const int top = m > *ma + NBR_SIMD_PAD ? m : *ma + NBR_SIMD_PAD; /* <= st */
    for (int q = m; q < top; q++)
        dx[q] = dy[q] = dz[q] = dc[q] = 0;
    for (int c = 0; c < 4; c++)
        memset(s->v + c * st, 0, (size_t)top * sizeof *s->v);
    if (s->type) { /* several species: the entries' species and their nu per species t */
        const int nt = pp->d.ntypes;
        for (int q = 0; q < top; q++)
            s->tt[q] = q < m ? s->type[ta[q]] : 0;
        for (int u = 0; u < nt; u++) {
            const double *nurow = pp->tab_d.nu + POT_TRIPLET(s->type[i], u, 0);
            TB_REAL *nq = s->nu + (size_t)u * st;
            int on = 0;
            for (int q = 0; q < top; q++) {
                nq[q] = q < *ma ? (TB_REAL)nurow[s->tt[q]] : (TB_REAL)0;
                on |= nq[q] != (TB_REAL)0;
            }
            s->rowon[u] = on;
        }
    }
    return m;
}

/* Forces of the m entries of s and of anchor i into f (its triangle summed into s->v): returns
 * the triplet energy, adds the pair energy to *e_pair and the virial to vir[6]. The sums are in
 * pot_atm_list's scaling (nbr_simd_triangle) unless e_trip is given: then in pot_atm_set's
 * (the scalar triangle of the tests), *e_trip the unscaled triplet energy. With pot_atm_list's
 * sums F_q = -3 nu 5^(-5/2) (V_q + S_q d_q) (gpu_nbr.cu's scale) and the energy follows from
 * the ATM forces by Euler's relation, E homogeneous of degree -9 in the d_q:
 * 9 E = sum_q d_q . F_q, in double, over the separations the triangle saw. */
static double TB_TNAME(nbr_finish)(const pot_params *pp, const TB_NAME(pot_coef) *kc,
                                   const double *pos, int i, int m, int ma,
                                   const TB_TNAME(nbr_scratch) *s, const double *e_trip,
                                   TB_ACC *f, double *e_pair, double vir[6])
{
    const size_t st = (size_t)nbr_simd_stride(s->cap);
    const TB_REAL *dx = s->d, *dy = dx + st, *dz = dy + st, *dc = dz + st;
    const TB_REAL *vx = s->v, *vy = vx + st, *vz = vy + st, *vs = vz + st;
    const double scale = (e_trip ? 0.75 : POT_ATM_LIST_SCALE) *
                         (s->type ? 1.0 : (double)kc->nu); /* typed: nu in the sums */
    const TB_NAME(pot_lj_pair) *ljrow = s->type ? kc->tab->lj + POT_PAIR(s->type[i], 0) : NULL;
    double fi[3] = {0, 0, 0}, ep = 0, ea = 0;
    for (int q = 0; q < m; q++) {
        const TB_REAL d[3] = {dx[q], dy[q], dz[q]};
        double fq[3] = {0, 0, 0}, dw[3] = {(double)d[0], (double)d[1], (double)d[2]};
        if (q < ma) {
            fq[0] = scale * (double)(vx[q] + vs[q] * d[0]);
            fq[1] = scale * (double)(vy[q] + vs[q] * d[1]);
            fq[2] = scale * (double)(vz[q] + vs[q] * d[2]);
            ea += dw[0] * fq[0] + dw[1] * fq[1] + dw[2] * fq[2]; /* 9 E (Euler) */
        }
        if (TB_PAIR_DOUBLE) { /* mixed: the pair in double, from the double separation */
            const double r2 = nbr_separation(&pp->d.box, pos + 3 * i, pos + 3 * s->t[q], dw);
            double pi[3] = {0, 0, 0}, pj[3] = {0, 0, 0};
            if (s->type) {
                const pot_lj_pair_d *pr = pp->tab_d.lj + POT_PAIR(s->type[i], s->tt[q]);
                if (r2 < pr->rc2)
                    ep += pair_accumulate_typed_d(pr, dw, r2, pi, pj);
            } else if (r2 < pp->d.lj_rc2) {
                ep += pair_accumulate_d(&pp->d, dw, r2, pi, pj);
            }
            for (int x = 0; x < 3; x++)
                fq[x] += pj[x];
        } else if (ljrow) { /* the species pair's coefficients and cutoff */
            TB_REAL pi[3] = {0, 0, 0}, pj[3] = {0, 0, 0};
            ep += (double)TB_NAME(pair_accumulate_typed)(ljrow + s->tt[q], d, dc[q], pi, pj);
            for (int x = 0; x < 3; x++)
                fq[x] += (double)pj[x];
        } else if (dc[q] < kc->lj_rc2) {
            TB_REAL pi[3] = {0, 0, 0}, pj[3] = {0, 0, 0};
            ep += (double)TB_NAME(pair_accumulate)(kc, d, dc[q], pi, pj);
            for (int x = 0; x < 3; x++)
                fq[x] += (double)pj[x];
        }
        const int t = s->t[q];
        for (int x = 0; x < 3; x++) {
            f[3 * t + x] += (TB_ACC)fq[x];
            fi[x] -= fq[x];
        }
        vir[0] += dw[0] * fq[0];
        vir[1] += dw[1] * fq[1];
        vir[2] += dw[2] * fq[2];
        vir[3] += 0.5 * (dw[0] * fq[1] + dw[1] * fq[0]);
        vir[4] += 0.5 * (dw[0] * fq[2] + dw[2] * fq[0]);
        vir[5] += 0.5 * (dw[1] * fq[2] + dw[2] * fq[1]);
    }
    for (int x = 0; x < 3; x++)
        f[3 * i + x] += (TB_ACC)fi[x];
    *e_pair += ep;
    if (!e_trip)
        return ea / 9.0;
    return s->type ? *e_trip : (double)kc->nu * *e_trip;
}

/* Forces of anchor i into f[3n] (the thread's buffer); returns the triplet energy and adds the
 * pair energy to *e_pair, the virial to vir[6] (xx yy zz xy xz yz), the triplets that
 * counted to *hits and the entry-pair slots of its tiles to *slots. */
static double TB_TNAME(nbr_anchor)(const pot_params *pp, const TB_NAME(pot_coef) *kc,
                                   const double *pos, int i, const int *row,
                                   int cnt, TB_TNAME(nbr_scratch) *s, TB_ACC *f, double *e_pair,
                                   double vir[6], long long *hits, long long *slots)
{
    int ma;
    const int m = TB_TNAME(nbr_entries)(pp, pos, i, row, cnt, s, &ma);
    const int st = nbr_simd_stride(s->cap);
    if (s->type)
        TB_TNAME(nbr_simd_triangle_typed)(kc, s->d, s->v, st, ma, s->nu, s->tt, s->rowon, hits);
    else
        TB_TNAME(nbr_simd_triangle)(kc, s->d, s->v, st, ma, hits);
    const long long mb = (ma + NBR_TILE - 1) / NBR_TILE;
    *slots += map3d_tri((int)mb) * NBR_TILE * NBR_TILE;
    return TB_TNAME(nbr_finish)(pp, kc, pos, i, m, ma, s, NULL, f, e_pair, vir);
}

#ifdef TB_NBR_SCALAR_TRIPLETS
/* The scalar triangle the vectorized one replaced (tests only): the NBR_TILE tiles in lambda2d
 * order as the GPU walks them, branching on the side test, then nbr_atm with the energy per
 * triplet, in pot_atm_set's scaling; returns the unscaled energy sum. Several species: nus and
 * tt as nbr_simd_triangle_typed's (else NULL), each triplet's e and g times its nu (the GPU's
 * tile loop before VAR 1), and only triplets of nonzero nu counted. */
static double TB_TNAME(nbr_scalar_triangle)(const TB_NAME(pot_coef) *kc, const TB_REAL *d,
                                            TB_REAL *v, int st, int ma, const TB_REAL *nus,
                                            const int *tt, long long *hits)
{
    const TB_REAL *dx = d, *dy = d + st, *dz = d + 2 * (size_t)st, *dc = d + 3 * (size_t)st;
    TB_REAL *vx = v, *vy = v + st, *vz = v + 2 * (size_t)st, *vs = v + 3 * (size_t)st;
    TB_ACC e_trip = 0;
    long long h = 0;
    const int mb = (ma + NBR_TILE - 1) / NBR_TILE;
    const long long n_tiles = map3d_tri(mb);
    for (long long w = 0; w < n_tiles; w++) {
        const int Q = map2d_lambda2d_row(w), P = (int)(w - map3d_tri(Q));
        const int j1 = (P + 1) * NBR_TILE < ma ? (P + 1) * NBR_TILE : ma;
        const int k1 = (Q + 1) * NBR_TILE < ma ? (Q + 1) * NBR_TILE : ma;
        for (int j = P * NBR_TILE; j < j1; j++) {
            const TB_REAL dj[3] = {dx[j], dy[j], dz[j]};
            TB_REAL A = 0, E = 0, fj[3] = {0, 0, 0};
            for (int k = (Q * NBR_TILE > j + 1 ? Q * NBR_TILE : j + 1); k < k1; k++) {
                const TB_REAL dk[3] = {dx[k], dy[k], dz[k]};
                TB_REAL djk[3], e, ga, gb, gc;
                const TB_REAL bx = dk[0] - dj[0], by = dk[1] - dj[1], bz = dk[2] - dj[2];
                if (!(bx * bx + by * by + bz * bz <= kc->atm_rc2))
                    continue;
                if (!TB_NAME(nbr_atm)(kc, dj, dc[j], dk, dc[k], djk, &e, &ga, &gb, &gc))
                    continue;
                if (nus) {
                    const TB_REAL nu = nus[(size_t)tt[j] * st + k];
                    if (nu == (TB_REAL)0)
                        continue;
                    e *= nu;
                    ga *= nu;
                    gb *= nu;
                    gc *= nu;
                }
                h++;
                E += e;
                A += ga;
                fj[0] += gb * djk[0];
                fj[1] += gb * djk[1];
                fj[2] += gb * djk[2];
                vx[k] -= gb * djk[0];
                vy[k] -= gb * djk[1];
                vz[k] -= gb * djk[2];
                vs[k] -= gc;
            }
            vx[j] += fj[0];
            vy[j] += fj[1];
            vz[j] += fj[2];
            vs[j] -= A;
            e_trip += (TB_ACC)E;
        }
    }
    *hits += h;
    return (double)e_trip;
}

/* nbr_anchor around the scalar triangle (tests only). */
static double TB_TNAME(nbr_anchor_scalar)(const pot_params *pp, const TB_NAME(pot_coef) *kc,
                                          const double *pos, int i, const int *row,
                                          int cnt, TB_TNAME(nbr_scratch) *s, TB_ACC *f,
                                          double *e_pair, double vir[6], long long *hits,
                                          long long *slots)
{
    int ma;
    const int m = TB_TNAME(nbr_entries)(pp, pos, i, row, cnt, s, &ma);
    const double e = TB_TNAME(nbr_scalar_triangle)(kc, s->d, s->v, nbr_simd_stride(s->cap), ma,
                                                   s->type ? s->nu : NULL, s->tt, hits);
    const long long mb = (ma + NBR_TILE - 1) / NBR_TILE;
    *slots += map3d_tri((int)mb) * NBR_TILE * NBR_TILE;
    return TB_TNAME(nbr_finish)(pp, kc, pos, i, m, ma, s, &e, f, e_pair, vir);
}
#endif
