/* pot_lj.h — Lennard-Jones 12-6 pair energy and its derivative.
 *
 *   E(r) = 4 epsilon [(sigma/r)^12 - (sigma/r)^6] - E_shift,   r < r_c (0 beyond)
 *
 * (J. E. Lennard-Jones, Proc. R. Soc. Lond. A 106, 463 (1924)). epsilon in energy units,
 * sigma and r_c in length units; E_shift = E(r_c) when potential.lj.shift is on (the
 * default), so the energy is continuous at the cutoff, else 0. In r2 = r^2, with s6 = (sigma^2/r2)^3:
 *   E = 4 epsilon (s6^2 - s6) - E_shift,  dE/d(r2) = 4 epsilon (3 s6 - 6 s6^2) / r2.
 *
 * Template: included by pot.h with TB_REAL and TB_NAME set (no include guard on purpose). */

/* Energy of a pair at squared distance r2 < lj_rc2; writes g = dE/d(r2). */
TB_HOSTDEV static inline TB_REAL TB_NAME(pot_lj)(const TB_NAME(pot_coef) *k, TB_REAL r2,
                                                  TB_REAL *g)
{
    const TB_REAL inv_r2 = (TB_REAL)1 / r2;
    const TB_REAL s2 = k->lj_sig2 * inv_r2;
    const TB_REAL s6 = s2 * s2 * s2;
    *g = k->lj_eps4 * ((TB_REAL)3 * s6 - (TB_REAL)6 * s6 * s6) * inv_r2;
    return k->lj_eps4 * (s6 * s6 - s6) - k->lj_eshift;
}

/* The same for one species pair of the tables (several species, pot_params.h):
 * p = &tab->lj[POT_PAIR(ti, tj)], r2 < p->rc2. */
TB_HOSTDEV static inline TB_REAL TB_NAME(pot_lj_typed)(const TB_NAME(pot_lj_pair) *p, TB_REAL r2,
                                                        TB_REAL *g)
{
    const TB_REAL inv_r2 = (TB_REAL)1 / r2;
    const TB_REAL s2 = p->sig2 * inv_r2;
    const TB_REAL s6 = s2 * s2 * s2;
    *g = p->eps4 * ((TB_REAL)3 * s6 - (TB_REAL)6 * s6 * s6) * inv_r2;
    return p->eps4 * (s6 * s6 - s6) - p->eshift;
}
