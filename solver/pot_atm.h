/* pot_atm.h — Axilrod–Teller–Muto triple-dipole energy of one triplet and its derivatives.
 *
 *   E = nu (1 + 3 cos g_i cos g_j cos g_k) / (r_ij r_jk r_ki)^3
 *
 * (B. M. Axilrod and E. Teller, J. Chem. Phys. 11, 299 (1943); Y. Muto, Proc. Phys.-Math.
 * Soc. Japan 17, 629 (1943)). nu in epsilon sigma^9 (argon: nu ~ 0.07 in reduced units).
 * Written in the squared side lengths a = r_ij^2, b = r_jk^2, c = r_ki^2 alone:
 * by the law of cosines 2 sqrt(ac) cos g_i = a + c - b, and so on, hence
 *   3 cos g_i cos g_j cos g_k = 3 Q / (8 P),  Q = (b+c-a)(a+c-b)(a+b-c),  P = abc,
 *   E = nu u^3 (1 + 3/8 Q u^2)  with  u = P^(-1/2).
 * Differentiating in a (b, c alike by symmetry), with Q_a = dQ/da and bc = 1/(a u^2):
 *   dE/da = nu u^5 bc (-3/2 + 3/8 u^2 (a Q_a - 5/2 Q)).
 * One reciprocal square root per triplet, no division. Checks: the equilateral triangle
 * of side r gives E = 11 nu / (8 r^9) (tests/test_physics.c).
 *
 * Template: included by pot.h with TB_REAL and TB_NAME set (no include guard on purpose). */

/* Energy of the triplet with squared sides a = r_ij^2, b = r_jk^2, c = r_ki^2; writes
 * ga = dE/da, gb = dE/db, gc = dE/dc. */
TB_HOSTDEV static inline TB_REAL TB_NAME(pot_atm)(TB_REAL nu, TB_REAL a, TB_REAL b, TB_REAL c,
                                                   TB_REAL *ga, TB_REAL *gb, TB_REAL *gc)
{
    const TB_REAL x = b + c - a; /* 2 r_jk r_ki cos g_k */
    const TB_REAL y = a + c - b; /* 2 r_ij r_ki cos g_i */
    const TB_REAL z = a + b - c; /* 2 r_ij r_jk cos g_j */
    const TB_REAL u = TB_NAME(tb_rsqrt)(a * b * c);
    const TB_REAL u2 = u * u;
    const TB_REAL nu3 = nu * u2 * u;
    const TB_REAL q = x * y * z;
    const TB_REAL yz = y * z, xz = x * z, xy = x * y;
    const TB_REAL w = (TB_REAL)0.375 * u2;     /* 3/(8P) */
    const TB_REAL q52 = (TB_REAL)2.5 * q;
    const TB_REAL nu5 = nu3 * u2;
    *ga = nu5 * (b * c) * ((TB_REAL)-1.5 + w * (a * (xz + xy - yz) - q52));
    *gb = nu5 * (a * c) * ((TB_REAL)-1.5 + w * (b * (yz + xy - xz) - q52));
    *gc = nu5 * (a * b) * ((TB_REAL)-1.5 + w * (c * (yz + xz - xy) - q52));
    return nu3 * ((TB_REAL)1 + w * q);
}
