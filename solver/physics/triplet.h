/* triplet.h — the physics of one triplet and one pair, shared by every backend.
 *
 * Geometry. Positions r_i; separations d_ij = r_j - r_i. In a periodic box each triplet is
 * anchored at its lowest index i: d_ij = mic(r_j - r_i), d_ik = mic(r_k - r_i) (minimum
 * image) and d_jk = d_ik - d_ij, so the three sides always form one real triangle of
 * images (i, the image of j nearest i, the image of k nearest i). The triplet counts iff
 * all three sides are at most the ATM cutoff and r_ij r_jk r_ki is at most cutoff_triple^3
 * (LAMMPS pair_style atm: `<=` in both tests). validate/ follows the same convention.
 *
 * Forces from the squared sides a = |d_ij|^2, b = |d_jk|^2, c = |d_ik|^2 and E's derivatives
 * ga, gb, gc (pot_atm.h):
 *   F_i = 2 (ga d_ij + gc d_ik),  F_j = 2 (gb d_jk - ga d_ij),  F_k = -2 (gb d_jk + gc d_ik),
 * which sum to zero exactly in exact arithmetic.
 *
 * Template: included by pot.h with TB_REAL and TB_NAME set (no include guard on purpose). */

/* Minimum image of a separation in place, in the coefficients' box (box.h; no-op when open). */
TB_HOSTDEV static inline void TB_NAME(pot_mic)(const TB_NAME(pot_coef) *k, TB_REAL d[3])
{
    TB_NAME(box_min_image)(&k->box, d);
}

/* ATM term of a triplet seen from its anchor i (the neighbour-list path, nbr.h): dj = d_ij with
 * a = |dj|^2 and dk = d_ik with c = |dk|^2, both within the cutoff already. Writes
 * djk = dk - dj and e, ga, gb, gc as pot_atm_set (unscaled: E = nu e, g = (3 nu/8) g'); returns
 * 1 when the triplet counts (|djk|^2 <= rc^2 and abc <= cutoff_triple^6), else 0 — callers
 * select on it rather than branch, and must not use the values then. */
TB_HOSTDEV static inline int TB_NAME(nbr_atm)(const TB_NAME(pot_coef) *k, const TB_REAL dj[3],
                                              TB_REAL a, const TB_REAL dk[3], TB_REAL c,
                                              TB_REAL djk[3], TB_REAL *e, TB_REAL *ga,
                                              TB_REAL *gb, TB_REAL *gc)
{
    djk[0] = dk[0] - dj[0];
    djk[1] = dk[1] - dj[1];
    djk[2] = dk[2] - dj[2];
    const TB_REAL b = djk[0] * djk[0] + djk[1] * djk[1] + djk[2] * djk[2];
    const TB_REAL abc = TB_NAME(pot_atm_set)(a, b, c, e, ga, gb, gc);
    return b <= k->atm_rc2 && abc <= k->atm_rct6;
}

/* LJ term of the pair i<j with d_ij minimum-imaged and r2 = |d_ij|^2: adds the forces into
 * fi, fj and returns the energy (0 beyond the cutoff). */
TB_HOSTDEV static inline TB_REAL TB_NAME(pair_accumulate)(const TB_NAME(pot_coef) *k,
                                                           const TB_REAL dij[3], TB_REAL r2,
                                                           TB_REAL fi[3], TB_REAL fj[3])
{
    TB_REAL g, e;
    if (!(r2 < k->lj_rc2))
        return (TB_REAL)0;
    e = TB_NAME(pot_lj)(k, r2, &g);
    g += g;
    for (int x = 0; x < 3; x++) {
        fi[x] += g * dij[x];
        fj[x] -= g * dij[x];
    }
    return e;
}

/* Several species (pot_params.h's tables). The one-species triplet_accumulate below is this
 * body at nu = k->nu (the same operations, so the same bits); pair_accumulate above is left as
 * it was, the GPU's one-species pair kernel's bits. */

/* triplet_accumulate for a triplet of ATM coefficient nu = tab->nu[POT_TRIPLET(ti, tj, tk)]
 * (nu = 0: nothing added, 0 returned). */
TB_HOSTDEV static inline TB_REAL TB_NAME(triplet_accumulate_typed)(
    const TB_NAME(pot_coef) *k, TB_REAL nu, const TB_REAL dij[3], TB_REAL a, const TB_REAL dik[3],
    TB_REAL c, TB_REAL fi[3], TB_REAL fj[3], TB_REAL fk[3])
{
    TB_REAL djk[3], ga, gb, gc, e, b;
    djk[0] = dik[0] - dij[0];
    djk[1] = dik[1] - dij[1];
    djk[2] = dik[2] - dij[2];
    b = djk[0] * djk[0] + djk[1] * djk[1] + djk[2] * djk[2];
    if (nu == (TB_REAL)0 ||
        !(a <= k->atm_rc2 && b <= k->atm_rc2 && c <= k->atm_rc2 && a * b * c <= k->atm_rct6))
        return (TB_REAL)0;
    e = TB_NAME(pot_atm)(nu, a, b, c, &ga, &gb, &gc);
    ga += ga;
    gb += gb;
    gc += gc;
    for (int x = 0; x < 3; x++) {
        const TB_REAL tij = ga * dij[x], tjk = gb * djk[x], tik = gc * dik[x];
        fi[x] += tij + tik;
        fj[x] += tjk - tij;
        fk[x] -= tjk + tik;
    }
    return e;
}

/* ATM term of the triplet i<j<k given d_ij (with a = |d_ij|^2) and d_ik (c = |d_ik|^2),
 * both already minimum-imaged. Adds the forces into fi, fj, fk and returns the energy
 * (0, with no force, when a side passes the cutoff or the product passes cutoff_triple^3). Callers that loop over k for a fixed
 * pair (i, j) compute d_ij and a once. */
TB_HOSTDEV static inline TB_REAL TB_NAME(triplet_accumulate)(
    const TB_NAME(pot_coef) *k, const TB_REAL dij[3], TB_REAL a, const TB_REAL dik[3],
    TB_REAL c, TB_REAL fi[3], TB_REAL fj[3], TB_REAL fk[3])
{
    return TB_NAME(triplet_accumulate_typed)(k, k->nu, dij, a, dik, c, fi, fj, fk);
}

/* pair_accumulate for the species pair p = &tab->lj[POT_PAIR(ti, tj)] (its own cutoff p->rc2;
 * 0: no LJ between those species). */
TB_HOSTDEV static inline TB_REAL TB_NAME(pair_accumulate_typed)(const TB_NAME(pot_lj_pair) *p,
                                                                 const TB_REAL dij[3], TB_REAL r2,
                                                                 TB_REAL fi[3], TB_REAL fj[3])
{
    TB_REAL g, e;
    if (!(r2 < p->rc2))
        return (TB_REAL)0;
    e = TB_NAME(pot_lj_typed)(p, r2, &g);
    g += g;
    for (int x = 0; x < 3; x++) {
        fi[x] += g * dij[x];
        fj[x] -= g * dij[x];
    }
    return e;
}
