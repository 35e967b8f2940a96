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
 * Checks: the equilateral triangle
 * of side r gives E = 11 nu / (8 r^9) (tests/test_kernels.c, tests/test_reference.c).
 *
 * Template: included by pot.h with TB_REAL and TB_NAME set (no include guard on purpose). */

/* The formula itself, arranged for the fewest operations and scaled so that no constant
 * multiplies on the hot path. For the triplet with squared sides a = r_ij^2, b = r_jk^2,
 * c = r_ki^2 and their reciprocals ia = 1/a, ib = 1/b, ic = 1/c (callers that loop over
 * many triplets reuse them: 1/a belongs to the pair i-j), it ADDS e = E/nu to *e and
 * ga = (dE/da) / (3 nu/8) to *ga, and gb, gc alike to *gb, *gc (running sums: kernels add
 * a whole row of triplets and multiply by nu and 3 nu/8 once). With s = a+b+c, x = s-2a,
 * y = s-2b, z = s-2c (so y+z = 2a: a Q_a = a(xy + xz - yz)), sg = xy + xz + yz,
 * w = u^2 xyz = Q/P and u^5 bc = u^3/a:
 *   e  = u^3 (1 + 3w/8)
 *   ga = (u^2 a (sg - 2yz) - 5w/2 - 4) u^3 ia
 *   gb = (u^2 b (sg - 2xz) - 5w/2 - 4) u^3 ib
 *   gc = (u^2 c (sg - 2xy) - 5w/2 - 4) u^3 ic
 * 34 floating-point instructions (17 of them fused multiply-adds, written out with tb_fma
 * since the compiler will not form them from 2*a) and one reciprocal square root. */
TB_HOSTDEV static inline void TB_NAME(pot_atm_add)(TB_REAL a, TB_REAL b, TB_REAL c, TB_REAL ia,
                                                    TB_REAL ib, TB_REAL ic, TB_REAL *e,
                                                    TB_REAL *ga, TB_REAL *gb, TB_REAL *gc)
{
    const TB_REAL m2 = (TB_REAL)-2;
    const TB_REAL s = a + b + c;
    const TB_REAL x = TB_NAME(tb_fma)(m2, a, s); /* 2 r_jk r_ki cos g_k */
    const TB_REAL y = TB_NAME(tb_fma)(m2, b, s); /* 2 r_ij r_ki cos g_i */
    const TB_REAL z = TB_NAME(tb_fma)(m2, c, s); /* 2 r_ij r_jk cos g_j */
    const TB_REAL u = TB_NAME(tb_rsqrt)(a * b * c);
    const TB_REAL u2 = u * u;
    const TB_REAL u3 = u2 * u;
    const TB_REAL xy = x * y, xz = x * z, yz = y * z;
    const TB_REAL w = u2 * (x * yz);
    const TB_REAL mk = TB_NAME(tb_fma)((TB_REAL)-2.5, w, (TB_REAL)-4); /* -(5w/2 + 4) */
    const TB_REAL sg = xy + xz + yz;
    *ga = TB_NAME(tb_fma)(TB_NAME(tb_fma)(u2 * a, TB_NAME(tb_fma)(m2, yz, sg), mk), u3 * ia, *ga);
    *gb = TB_NAME(tb_fma)(TB_NAME(tb_fma)(u2 * b, TB_NAME(tb_fma)(m2, xz, sg), mk), u3 * ib, *gb);
    *gc = TB_NAME(tb_fma)(TB_NAME(tb_fma)(u2 * c, TB_NAME(tb_fma)(m2, xy, sg), mk), u3 * ic, *gc);
    *e = TB_NAME(tb_fma)(u3, TB_NAME(tb_fma)((TB_REAL)0.375, w, (TB_REAL)1), *e);
}

/* The derivatives in the form the GPU's triplet-tile kernel sums them: no energy (it follows
 * from the pair sums, below) and no constant on the hot path. With the half-cosine terms
 *   X = (b+c-a)/2 = r_jk r_ki cos g_k,  Y = (a+c-b)/2,  Z = (a+b-c)/2   (Y+Z = a, X+Z = b,
 * X+Y = c), u = (abc/5)^(-1/2), v = u^5 and m = u^3 + v XYZ, the derivative of pot_atm_add
 * is, with Q = 8 XYZ and a Q_a = 4 a (aX - YZ),
 *   dE/da = -(3/2) nu 5^(-5/2) (v qa + m 5/a),   qa = YZ - aX,
 * and alike dE/db with qb = XZ - bY, dE/dc with qc = XY - cZ. Since u^3 = v/u^2 = v abc/5,
 * m = v mp with mp = abc/5 + XYZ, so that
 *   dE/da = -(3/2) nu 5^(-5/2) v (qa + mp 5/a)
 * and u^3 is never formed. E is homogeneous of degree -9/2 in (a, b, c), so
 * E = -(2/9) (a dE/da + b dE/db + c dE/dc): the kernel gets the energy from the pair sums it
 * forms anyway (Sum_k dE/da and so on) and nothing per triplet. Callers pass nah = -a/2 and
 * a5 = a/5 (a belongs to a pair and is reused over a row) and form g = v (q + mp 5/r^2) with
 * two fused multiply-adds per side, 5/r^2 also per pair. X comes from one add and one fused
 * multiply-add, then Y = c - X and Z = b - X. 14 instructions and one reciprocal square root
 * here, 6 more in the caller for the three sums: 21 per triplet against pot_atm_add's 34 plus
 * its energy. */
TB_HOSTDEV static inline void TB_NAME(pot_atm_part)(TB_REAL a, TB_REAL nah, TB_REAL a5, TB_REAL b,
                                                     TB_REAL c, TB_REAL *v, TB_REAL *mp,
                                                     TB_REAL *qa, TB_REAL *qb, TB_REAL *qc)
{
    const TB_REAL X = TB_NAME(tb_fma)((TB_REAL)0.5, b + c, nah); /* (b+c-a)/2 */
    const TB_REAL Y = c - X, Z = b - X;
    const TB_REAL p5 = a5 * (b * c); /* abc/5 */
    const TB_REAL u = TB_NAME(tb_rsqrt)(p5);
    const TB_REAL u2 = u * u;
    const TB_REAL YZ = Y * Z, XZ = X * Z, XY = X * Y;
    *v = (u2 * u2) * u;
    *mp = TB_NAME(tb_fma)(X, YZ, p5);
    *qa = TB_NAME(tb_fma)(-a, X, YZ);
    *qb = TB_NAME(tb_fma)(-b, Y, XZ);
    *qc = TB_NAME(tb_fma)(-c, Z, XY);
}

/* pot_atm_part for one anchored triplet of the neighbour lists (gpu_nbr.cu's default tile loop):
 * the side b = |d_jk|^2 is the triplet's own, so 5/b and 5/c come from u^2 = 5/(abc) (5/b =
 * u^2 ac, 5/c = u^2 ab) and only 5/a (r5a, with nah = -a/2: the row's j) is the caller's. The
 * caller passes abc = a (b c) (the cutoff_triple test's product, formed as nbr_atm forms it).
 * SETS *ga, *gb, *gc to w v (q + mp 5/r^2), pot_atm_part's scaling: dE/da = -(3/2) nu
 * 5^(-5/2) ga / w (w: the triplet's weight, its nu in the typed kernels, else 1). With
 * ok = 0 all three are exactly 0, also for a degenerate triangle (abc = 0: v and u^2 are
 * selected away before they meet a finite factor). No energy: E = -(2/9)(a dE/da + b dE/db +
 * c dE/dc) (Euler), so the kernel takes it from its sums. 25 instructions and one reciprocal
 * square root. */
TB_HOSTDEV static inline void TB_NAME(pot_atm_list)(TB_REAL a, TB_REAL nah, TB_REAL r5a,
                                                     TB_REAL b, TB_REAL c, TB_REAL abc,
                                                     TB_REAL w, int ok, TB_REAL *ga, TB_REAL *gb,
                                                     TB_REAL *gc)
{
    const TB_REAL X = TB_NAME(tb_fma)((TB_REAL)0.5, b + c, nah); /* (b+c-a)/2 */
    const TB_REAL Y = c - X, Z = b - X;
    const TB_REAL p5 = abc * (TB_REAL)0.2; /* abc/5 */
    const TB_REAL u = TB_NAME(tb_rsqrt)(p5);
    const TB_REAL u2r = u * u;
    const TB_REAL v = ok ? ((u2r * u2r) * u) * w : (TB_REAL)0;
    const TB_REAL u2 = ok ? u2r : (TB_REAL)0;
    const TB_REAL YZ = Y * Z, XZ = X * Z, XY = X * Y;
    const TB_REAL mp = TB_NAME(tb_fma)(X, YZ, p5);
    const TB_REAL t = mp * u2; /* mp 5/(abc) */
    *ga = v * TB_NAME(tb_fma)(mp, r5a, TB_NAME(tb_fma)(-a, X, YZ));
    *gb = v * TB_NAME(tb_fma)(t, a * c, TB_NAME(tb_fma)(-b, Y, XZ));
    *gc = v * TB_NAME(tb_fma)(t, a * b, TB_NAME(tb_fma)(-c, Z, XY));
}

/* The sums of pot_atm_list's g (and of pot_atm_list_v's v h) give the forces as
 * F = POT_ATM_LIST_SCALE nu (V + S d): -3 nu 5^(-5/2) = 2 (dE/dr^2) / g (the lists' epilogues,
 * gpu_nbr.cu and nbr_cpu.h). */
#ifndef POT_ATM_LIST_SCALE
#define POT_ATM_LIST_SCALE (-3.0 / (25.0 * 2.2360679774997896964))
#endif

/* pot_atm_list's body with its factor v left to the caller, given pot_atm_part's
 * X = (b + c - a)/2, Y = c - X and Z = b - X however the caller formed them (pot_atm_list_v from
 * b, c and -a/2; the ring's dot form, gpu_nbr_tri.cuh's nbr_tri_dot, takes the same X, Y, Z from
 * y = d_j . d_k: X = c - y, Y = y, Z = a - y, b = X + Z, into pot_atm_list_jk below).
 * SETS *v = w u^5 (0 unless ok) and *ha, *hb, *hc with pot_atm_list's ga = v ha, gb = v hb,
 * gc = v hc, so that the caller's sums take v in their fused multiply-adds (A += v ha, k's
 * w -= v hc); 5/b and 5/c come as mp u^2 a c and mp u^2 a b from t = mp (u^2 a). It takes
 * p5 = abc/5, formed by the caller: (a/5)(bc) where the lane's a/5 is at hand (one multiply
 * fewer per triplet), abc * 0.2 where abc is needed anyway (the cutoff_triple test). With
 * ok = 0, v = 0 and h finite when degen is nonzero (u^2 selected to 0 as in pot_atm_list: a
 * masked j = k has b = 0 and p5 = 0); degen = 0 where b > 0 is certain (j and k never the same
 * entry or the same pad), one select fewer. */
#ifndef POT_ATM_LIST_PART
/* The part pot_atm_list_h and pot_atm_list_jk share (arguments a, X, Y, Z, p5, w, ok, degen,
 * v by those names): v, u^2, the products of X, Y, Z, mp and t = mp (u^2 a). A macro, not an
 * inline function: with the part as a function of its own, pot_atm_list_h's double ring kernel
 * ran 10 % slower on the H200, the same arithmetic ordered otherwise by ptxas
 * (docs/gpu-measured.md, "the dot form's sums"). */
#define POT_ATM_LIST_PART                                                                      \
    const TB_REAL u = TB_NAME(tb_rsqrt)(p5);                                                   \
    const TB_REAL u2r = u * u;                                                                 \
    *v = ok ? ((u2r * u2r) * u) * w : (TB_REAL)0;                                              \
    const TB_REAL u2 = ok || !degen ? u2r : (TB_REAL)0;                                        \
    const TB_REAL YZ = Y * Z, XZ = X * Z, XY = X * Y;                                          \
    const TB_REAL mp = TB_NAME(tb_fma)(X, YZ, p5);                                             \
    const TB_REAL t = mp * (u2 * a) /* mp 5/(bc) */
#endif
TB_HOSTDEV static inline void TB_NAME(pot_atm_list_h)(TB_REAL a, TB_REAL r5a, TB_REAL b,
                                                       TB_REAL c, TB_REAL X, TB_REAL Y, TB_REAL Z,
                                                       TB_REAL p5, TB_REAL w, int ok, int degen,
                                                       TB_REAL *v, TB_REAL *ha, TB_REAL *hb,
                                                       TB_REAL *hc)
{
    POT_ATM_LIST_PART;
    *ha = TB_NAME(tb_fma)(mp, r5a, TB_NAME(tb_fma)(-a, X, YZ));
    *hb = TB_NAME(tb_fma)(t, c, TB_NAME(tb_fma)(-b, Y, XZ));
    *hc = TB_NAME(tb_fma)(t, b, TB_NAME(tb_fma)(-c, Z, XY));
}

/* pot_atm_list_h's sums as the dot form takes them (gpu_nbr_tri.cuh's nbr_tri_dot): hb,
 * hj = ha + hb and hk = hc + hb. Since X + Y = c, X + Z = b and Y + Z = a, the terms of h that
 * are not 5 mp over a side add up to -2 XY in hj and -2 YZ in hk (YZ + XZ - aX - bY = -2 XY,
 * XY + XZ - cZ - bY = -2 YZ): with 5 mp/b = t c formed once, 13 instructions where ha, hb, hc
 * and the two adds took 14. Same arguments, v and degen as pot_atm_list_h. */
TB_HOSTDEV static inline void TB_NAME(pot_atm_list_jk)(TB_REAL a, TB_REAL r5a, TB_REAL b,
                                                        TB_REAL c, TB_REAL X, TB_REAL Y,
                                                        TB_REAL Z, TB_REAL p5, TB_REAL w, int ok,
                                                        int degen, TB_REAL *v, TB_REAL *hb,
                                                        TB_REAL *hj, TB_REAL *hk)
{
    POT_ATM_LIST_PART;
    const TB_REAL pb = t * c; /* 5 mp/b */
    *hb = TB_NAME(tb_fma)(-b, Y, XZ) + pb;
    *hj = TB_NAME(tb_fma)(mp, r5a, TB_NAME(tb_fma)(XY, (TB_REAL)-2, pb));
    *hk = TB_NAME(tb_fma)(t, b, TB_NAME(tb_fma)(YZ, (TB_REAL)-2, pb));
}

/* pot_atm_list_h with X, Y, Z from the sides (gpu_nbr.cu's VAR 7, 8, 9 and the ring in double;
 * the CPU's triangle, nbr_simd_body.h): three multiplies fewer per triplet than pot_atm_list;
 * the caller passes nah = -a/2. */
TB_HOSTDEV static inline void TB_NAME(pot_atm_list_v)(TB_REAL a, TB_REAL nah, TB_REAL r5a,
                                                       TB_REAL b, TB_REAL c, TB_REAL p5,
                                                       TB_REAL w, int ok, int degen, TB_REAL *v,
                                                       TB_REAL *ha, TB_REAL *hb, TB_REAL *hc)
{
    const TB_REAL X = TB_NAME(tb_fma)((TB_REAL)0.5, b + c, nah); /* (b+c-a)/2 */
    TB_NAME(pot_atm_list_h)(a, r5a, b, c, X, c - X, b - X, p5, w, ok, degen, v, ha, hb, hc);
}

/* pot_atm_add without the reciprocals, for callers that form each triplet's sides afresh (the
 * neighbour-list path, nbr.h): u^3 / a = u^5 bc and alike. SETS *e, *ga, *gb, *gc (same
 * scaling as pot_atm_add) and returns abc = (r_ij r_jk r_ki)^2, for the cutoff_triple test. */
TB_HOSTDEV static inline TB_REAL TB_NAME(pot_atm_set)(TB_REAL a, TB_REAL b, TB_REAL c, TB_REAL *e,
                                                      TB_REAL *ga, TB_REAL *gb, TB_REAL *gc)
{
    const TB_REAL m2 = (TB_REAL)-2;
    const TB_REAL s = a + b + c;
    const TB_REAL x = TB_NAME(tb_fma)(m2, a, s);
    const TB_REAL y = TB_NAME(tb_fma)(m2, b, s);
    const TB_REAL z = TB_NAME(tb_fma)(m2, c, s);
    const TB_REAL bc = b * c;
    const TB_REAL abc = a * bc;
    const TB_REAL u = TB_NAME(tb_rsqrt)(abc);
    const TB_REAL u2 = u * u;
    const TB_REAL u3 = u2 * u;
    const TB_REAL u5 = u3 * u2;
    const TB_REAL xy = x * y, xz = x * z, yz = y * z;
    const TB_REAL w = u2 * (x * yz);
    const TB_REAL mk = TB_NAME(tb_fma)((TB_REAL)-2.5, w, (TB_REAL)-4);
    const TB_REAL sg = xy + xz + yz;
    *ga = TB_NAME(tb_fma)(u2 * a, TB_NAME(tb_fma)(m2, yz, sg), mk) * (u5 * bc);
    *gb = TB_NAME(tb_fma)(u2 * b, TB_NAME(tb_fma)(m2, xz, sg), mk) * (u5 * (a * c));
    *gc = TB_NAME(tb_fma)(u2 * c, TB_NAME(tb_fma)(m2, xy, sg), mk) * (u5 * (a * b));
    *e = u3 * TB_NAME(tb_fma)((TB_REAL)0.375, w, (TB_REAL)1);
    return abc;
}

/* Energy of the triplet with squared sides a = r_ij^2, b = r_jk^2, c = r_ki^2; writes
 * ga = dE/da, gb = dE/db, gc = dE/dc. */
TB_HOSTDEV static inline TB_REAL TB_NAME(pot_atm)(TB_REAL nu, TB_REAL a, TB_REAL b, TB_REAL c,
                                                   TB_REAL *ga, TB_REAL *gb, TB_REAL *gc)
{
    TB_REAL e = 0;
    const TB_REAL k = (TB_REAL)0.375 * nu;
    *ga = *gb = *gc = 0;
    TB_NAME(pot_atm_add)(a, b, c, (TB_REAL)1 / a, (TB_REAL)1 / b, (TB_REAL)1 / c, &e, ga, gb, gc);
    *ga *= k;
    *gb *= k;
    *gc *= k;
    return nu * e;
}
