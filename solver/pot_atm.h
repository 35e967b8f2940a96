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
 *   dE/da = nu u^5 bc (-3/2 + 3/8 u^2 (a Q_a - 5/2 Q)) = (3 nu/8) u^5 bc (u^2 (a Q_a - 5/2 Q) - 4).
 * One reciprocal square root per triplet, no division. Checks: the equilateral triangle
 * of side r gives E = 11 nu / (8 r^9) (tests/test_kernels.c, tests/test_reference.c).
 *
 * Template: included by pot.h with TB_REAL and TB_NAME set (no include guard on purpose). */

/* The formula itself, scaled so that no constant multiplies on the hot path. For the
 * triplet with squared sides a = r_ij^2, b = r_jk^2, c = r_ki^2 it returns e = E/nu and
 * writes ga = (dE/da) / (3 nu/8), and gb, gc alike. With s = a+b+c, x = s-2a = b+c-a,
 * y = s-2b, z = s-2c (so y+z = 2a, and a Q_a = a (2a x - yz)):
 *   e  = u^3 (1 + 3/8 u^2 q),                  q = xyz
 *   ga = u^5 bc (u^2 (a (2a x - yz) - 5q/2) - 4)
 *   gb = u^5 ac (u^2 (b (2b y - xz) - 5q/2) - 4)
 *   gc = u^5 ab (u^2 (c (2c z - xy) - 5q/2) - 4)
 * About 40 floating-point operations and one reciprocal square root. Kernels that sum
 * many triplets (the GPU tile kernel) call this and multiply by nu and 3nu/8 once. */
TB_HOSTDEV static inline TB_REAL TB_NAME(pot_atm_core)(TB_REAL a, TB_REAL b, TB_REAL c,
                                                        TB_REAL *ga, TB_REAL *gb, TB_REAL *gc)
{
    const TB_REAL s = a + b + c;
    const TB_REAL x = s - (a + a); /* 2 r_jk r_ki cos g_k */
    const TB_REAL y = s - (b + b); /* 2 r_ij r_ki cos g_i */
    const TB_REAL z = s - (c + c); /* 2 r_ij r_jk cos g_j */
    const TB_REAL ab = a * b;
    const TB_REAL u = TB_NAME(tb_rsqrt)(ab * c);
    const TB_REAL u2 = u * u;
    const TB_REAL u3 = u2 * u;
    const TB_REAL u5 = u3 * u2;
    const TB_REAL yz = y * z, xz = x * z, xy = x * y;
    const TB_REAL q = x * yz;
    const TB_REAL q25 = (TB_REAL)2.5 * q;
    *ga = u5 * (b * c) * (u2 * (a * ((a + a) * x - yz) - q25) - (TB_REAL)4);
    *gb = u5 * (a * c) * (u2 * (b * ((b + b) * y - xz) - q25) - (TB_REAL)4);
    *gc = u5 * ab * (u2 * (c * ((c + c) * z - xy) - q25) - (TB_REAL)4);
    return u3 * ((TB_REAL)1 + (TB_REAL)0.375 * u2 * q);
}

/* Energy of the triplet with squared sides a = r_ij^2, b = r_jk^2, c = r_ki^2; writes
 * ga = dE/da, gb = dE/db, gc = dE/dc. */
TB_HOSTDEV static inline TB_REAL TB_NAME(pot_atm)(TB_REAL nu, TB_REAL a, TB_REAL b, TB_REAL c,
                                                   TB_REAL *ga, TB_REAL *gb, TB_REAL *gc)
{
    const TB_REAL e = TB_NAME(pot_atm_core)(a, b, c, ga, gb, gc);
    const TB_REAL k = (TB_REAL)0.375 * nu;
    *ga *= k;
    *gb *= k;
    *gc *= k;
    return nu * e;
}
