/* pot_sw.h — Stillinger-Weber: the pair term of one leg and the three-body term of one angle,
 * in LAMMPS's form (pair_style sw; F. H. Stillinger and T. A. Weber, Phys. Rev. B 31, 5262
 * (1985)), for the coefficients of pot_params.h's tables (term_sw.c builds them):
 *
 *   phi2(r)       = A eps (B (sigma/r)^p - (sigma/r)^q) exp(sigma / (r - a sigma))
 *   phi3(j, i, k) = lambda eps (cos theta_jik - cos theta0)^2
 *                   exp(gamma_ij sigma_ij / (r_ij - a_ij sigma_ij))
 *                   exp(gamma_ik sigma_ik / (r_ik - a_ik sigma_ik))
 *
 * phi3 is centred at i (the vertex of the angle), so a triplet is not symmetric in its three
 * particles: every centre counts each unordered pair of its neighbours (j, k) once. Legs (ij)
 * take the entry (i, j, j), the angle's lambda eps and cos theta0 the entry (i, j, k).
 *
 * Template: included by pot.h with TB_REAL and TB_NAME set (no include guard on purpose). */

/* Both terms are 0 where r reaches a sigma in TB_REAL (the limit of exp(sigma / (r - a sigma))
 * as r -> a sigma from below): a leg the lists keep in double (r^2 < cutsq) can round to a
 * sigma in float, where 1 / (r - a sigma) would be infinite. Below a sigma the arithmetic is
 * the plain formula's, so double's results do not change. */

/* Pair energy at r2 < P->cutsq; writes fpair, so that the force on i is -fpair d_ij and on j
 * +fpair d_ij (d_ij = x_j - x_i; LAMMPS's twobody, whose delx is x_i - x_j). */
TB_HOSTDEV static inline TB_REAL TB_NAME(pot_sw2)(const TB_NAME(pot_sw_pair) *P, TB_REAL r2,
                                                   TB_REAL *fpair)
{
    const TB_REAL r = TB_NAME(tb_sqrt)(r2), rinvsq = (TB_REAL)1 / r2;
    if (!(r < P->cut)) { /* at a sigma in TB_REAL: 0 (above) */
        *fpair = (TB_REAL)0;
        return (TB_REAL)0;
    }
    const TB_REAL rp = TB_NAME(tb_pow)(r, -P->p), rq = TB_NAME(tb_pow)(r, -P->q);
    const TB_REAL rainv = (TB_REAL)1 / (r - P->cut), rainvsq = rainv * rainv * r;
    const TB_REAL ex = TB_NAME(tb_exp)(P->sigma * rainv);
    *fpair = (P->c1 * rp - P->c2 * rq + (P->c3 * rp - P->c4 * rq) * rainvsq) * ex * rinvsq;
    return (P->c5 * rp - P->c6 * rq) * ex;
}

/* The radial factor of one leg at r2 (below its cutoff): writes g = gamma sigma / (r - a sigma)
 * / (r - a sigma) / r (the derivative of the exponent over r, sign flipped) and returns
 * exp(gamma sigma / (r - a sigma)). */
TB_HOSTDEV static inline TB_REAL TB_NAME(pot_sw_leg)(const TB_NAME(pot_sw_pair) *P, TB_REAL r2,
                                                      TB_REAL *r, TB_REAL *g)
{
    *r = TB_NAME(tb_sqrt)(r2);
    if (!(*r < P->cut)) { /* at a sigma in TB_REAL: 0 (above) */
        *g = (TB_REAL)0;
        return (TB_REAL)0;
    }
    const TB_REAL rainv = (TB_REAL)1 / (*r - P->cut), gs = P->sigma_gamma * rainv;
    *g = gs * rainv / *r;
    return TB_NAME(tb_exp)(gs);
}

/* Three-body energy of the angle j-i-k with d1 = d_ij (r2_1 = |d1|^2 below Pij's cutoff), d2 =
 * d_ik (r2_2 below Pik's), from its legs' radial factors (pot_sw_leg: e1, r1, g1 of leg 1 at
 * r2_1, e2, r2, g2 of leg 2 at r2_2); writes the forces on j and k (fj, fk; the force on i is
 * -(fj + fk)), LAMMPS's threebody. The factors are the caller's, so that one walking the angles
 * of a leg forms that leg's once (cpu/sw_cpu.h, gpu/gpu_sw.cu). */
TB_HOSTDEV static inline TB_REAL TB_NAME(pot_sw3_legs)(const TB_NAME(pot_sw_trip) *T,
                                                        const TB_REAL d1[3], TB_REAL r2_1,
                                                        TB_REAL e1, TB_REAL r1, TB_REAL g1,
                                                        const TB_REAL d2[3], TB_REAL r2_2,
                                                        TB_REAL e2, TB_REAL r2, TB_REAL g2,
                                                        TB_REAL fj[3], TB_REAL fk[3])
{
    const TB_REAL rinv12 = (TB_REAL)1 / (r1 * r2);
    const TB_REAL cs = (d1[0] * d2[0] + d1[1] * d2[1] + d1[2] * d2[2]) * rinv12;
    const TB_REAL delcs = cs - T->costheta0;
    const TB_REAL facexp = e1 * e2;
    const TB_REAL facrad = T->lambda_epsilon * facexp * delcs * delcs;
    const TB_REAL facang = (TB_REAL)2 * T->lambda_epsilon * facexp * delcs;
    const TB_REAL facang12 = rinv12 * facang, csfacang = cs * facang;
    const TB_REAL a1 = facrad * g1 + csfacang / r2_1, a2 = facrad * g2 + csfacang / r2_2;
    for (int x = 0; x < 3; x++) {
        fj[x] = d1[x] * a1 - d2[x] * facang12;
        fk[x] = d2[x] * a2 - d1[x] * facang12;
    }
    return facrad;
}

