/* test_reference.c — the independent reference (validate/reference.c) against values derived
 * by hand, finite differences of its own energy, and the symmetries of the potentials.
 *
 * Units: reduced LJ units (docs/physics.md). Inputs have high entropy (nu = 0.7321,
 * r = 1.2345, ...), seeds are fixed, and each tolerance sits next to its check.
 *
 * Hand-derived ATM energies, E = nu (1 + 3 c_i c_j c_k) / (r_ij r_jk r_ki)^3:
 *  - equilateral triangle of side r: every angle is 60 deg, c = 1/2, 1 + 3/8 = 11/8,
 *    E = 11 nu / (8 r^9);
 *  - three points on a line at distances p and q (middle point between): the angle at the
 *    middle point is 180 deg (c = -1), those at the ends 0 deg (c = 1), so
 *    E = nu (1 - 3) / (p q (p+q))^3 = -2 nu / (p q (p+q))^3;
 *  - right triangle with legs p, q: one cosine is 0, E = nu / (p q sqrt(p^2+q^2))^3;
 *  - isoceles 5-5-6 triangle scaled by t: base angles have c = 3/5, the apex
 *    c = 1 - 6^2/(2 5^2) = 7/25, so 1 + 3 (3/5)^2 (7/25) = 814/625 and
 *    E = nu (814/625) / (5t 5t 6t)^3 = nu (814/625) / (150 t^3)^3;
 *  - square of side s: its 4 triplets are right isoceles triangles (legs s, hypotenuse
 *    s sqrt 2, one cosine 0), E = 4 nu / (s s s sqrt 2)^3 = sqrt(2) nu / s^9;
 *  - regular tetrahedron of edge r: 4 equilateral faces, E = 4 (11 nu / (8 r^9)) = 11 nu / (2 r^9).
 * Forces of the equilateral triangle: by symmetry they are radial and equal, and since E is
 * homogeneous of degree -9 in the positions (open boundaries, no cutoff), Euler's theorem
 * gives the virial sum_m F_m . r_m = 9 E about any origin; about the centroid, |r_m| = r/sqrt 3,
 * so each force points outwards with |F| = 9 E / (3 r / sqrt 3) = 3 sqrt(3) E / r. */
#include <math.h>
#include <string.h>

#include <gsl/gsl_math.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_randist.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "tests/tb_test.h"
#include "tests/tb_ref.h"
#include "validate/reference.h"

#define NMAX 64

static const double NU = 0.7321;   /* [epsilon sigma^9] */
static const double EPS = 0.8123;  /* [epsilon] */
static const double SIGMA = 1.1234; /* [sigma] */

/* ---- small vector helpers ---- */


/* y = R x + t for every particle. */
static void transform(int n, const double R[3][3], const double t[3], const double *x, double *y)
{
    for (int m = 0; m < n; m++)
        for (int a = 0; a < 3; a++)
            y[3 * m + a] = R[a][0] * x[3 * m] + R[a][1] * x[3 * m + 1] + R[a][2] * x[3 * m + 2] +
                           (t ? t[a] : 0.0);
}

/* Rotation matrix of the unit quaternion q (w, x, y, z). */
static void quat_rot(const double q[4], double R[3][3])
{
    const double w = q[0], x = q[1], y = q[2], z = q[3];
    R[0][0] = 1 - 2 * (y * y + z * z);
    R[0][1] = 2 * (x * y - z * w);
    R[0][2] = 2 * (x * z + y * w);
    R[1][0] = 2 * (x * y + z * w);
    R[1][1] = 1 - 2 * (x * x + z * z);
    R[1][2] = 2 * (y * z - x * w);
    R[2][0] = 2 * (x * z - y * w);
    R[2][1] = 2 * (y * z + x * w);
    R[2][2] = 1 - 2 * (x * x + y * y);
}

/* A uniformly random rotation (normalized Gaussian quaternion). */
static void random_rot(gsl_rng *rng, double R[3][3])
{
    double q[4], s = 0.0;
    for (int a = 0; a < 4; a++) {
        q[a] = gsl_ran_gaussian(rng, 1.0);
        s += q[a] * q[a];
    }
    s = sqrt(s);
    for (int a = 0; a < 4; a++)
        q[a] /= s;
    quat_rot(q, R);
}


/* Total energy (pair + triplet); forces into f when f != NULL. */
static double energy(const val_system *s, double *f)
{
    double ep = 0.0, et = 0.0;
    if (val_reference(s, f, &ep, &et) != 0) {
        gsl_test(1, "val_reference returned -1");
        exit(1);
    }
    return ep + et;
}

static val_system sys_atm(int n, const double *pos, double box, double atm_cutoff)
{
    val_system s;
    memset(&s, 0, sizeof s);
    s.n = n;
    s.pos = pos;
    s.box = box;
    s.nu = NU;
    s.atm_cutoff = atm_cutoff;
    return s;
}

/* Random configurations (random_config) and the error measures: tests/tb_ref.h. */

/* ---- hand-derived values ---- */

/* A fixed generic rotation and offset, so that the hand-built shapes (written in the xy
 * plane) do not sit on the axes. */
static void place(int n, const double *x, double *y)
{
    static const double q0[4] = {0.6, -0.48, 0.36, 0.5291502622129181}; /* unit: .36+.2304+.1296+.28 */
    static const double t0[3] = {0.4321, -2.1357, 1.1111};
    double R[3][3];
    quat_rot(q0, R);
    transform(n, R, t0, x, y);
}

/* Energy of the n hand-built points x after place(); E relative to the expected value. */
static void check_shape(const char *name, int n, const double *x, double atm_cutoff,
                        double expected)
{
    double pos[3 * 8];
    place(n, x, pos);
    val_system s = sys_atm(n, pos, 0.0, atm_cutoff);
    double ep = 1.0, et = 0.0;
    val_reference(&s, NULL, &ep, &et);
    /* A few ulps per coordinate from the rotation, amplified ~9x through r^-9: 1e-13. */
    if (expected == 0.0)
        gsl_test_abs(et, 0.0, 0.0, "ATM %s, cutoff %g: no triplet counts", name, atm_cutoff);
    else
        gsl_test_rel(et, expected, 1e-13, "ATM %s energy (hand-derived)", name);
    gsl_test_abs(ep, 0.0, 0.0, "ATM %s: no pair energy without LJ", name);
}

static void test_hand_atm(void)
{
    const double r = 1.2345, p = 1.2345, q = 0.8765, t = 0.4321;
    const double h3 = sqrt(3.0) / 2.0;
    const double tri[9] = {0, 0, 0, r, 0, 0, 0.5 * r, h3 * r, 0};
    check_shape("equilateral", 3, tri, 0.0, 11.0 * NU / (8.0 * pow(r, 9)));
    check_shape("equilateral, cutoff 1.001 r", 3, tri, 1.001 * r, 11.0 * NU / (8.0 * pow(r, 9)));
    check_shape("equilateral", 3, tri, 0.999 * r, 0.0);

    const double pqpq = p * q * (p + q);
    const double line1[9] = {0, 0, 0, p, 0, 0, p + q, 0, 0};         /* middle point is j */
    const double line2[9] = {p + q, 0, 0, 0, 0, 0, p, 0, 0};         /* middle point is k */
    check_shape("collinear (middle j)", 3, line1, 0.0, -2.0 * NU / (pqpq * pqpq * pqpq));
    check_shape("collinear (middle k)", 3, line2, 0.0, -2.0 * NU / (pqpq * pqpq * pqpq));

    const double hyp = sqrt(p * p + q * q), pqh = p * q * hyp;
    const double right[9] = {0, 0, 0, p, 0, 0, 0, q, 0};
    check_shape("right triangle", 3, right, 0.0, NU / (pqh * pqh * pqh));
    /* Two sides inside the cutoff, the hypotenuse (1.514) outside: the triplet is out. */
    check_shape("right triangle", 3, right, 1.4, 0.0);

    const double iso[9] = {-3 * t, 0, 0, 3 * t, 0, 0, 0, 4 * t, 0};
    const double t3 = 150.0 * t * t * t;
    check_shape("isoceles 5-5-6", 3, iso, 0.0, NU * (814.0 / 625.0) / (t3 * t3 * t3));

    const double sq[12] = {0, 0, 0, r, 0, 0, r, r, 0, 0, r, 0};
    check_shape("square", 4, sq, 0.0, sqrt(2.0) * NU / pow(r, 9));
    /* Every triplet of the square has a diagonal (r sqrt 2 > 1.2 r): nothing counts. */
    check_shape("square", 4, sq, 1.2 * r, 0.0);

    const double e = r / (2.0 * sqrt(2.0)); /* the tetrahedron (+-1,+-1,+-1) has edge 2 sqrt 2 */
    const double tet[12] = {e, e, e, e, -e, -e, -e, e, -e, -e, -e, e};
    check_shape("regular tetrahedron", 4, tet, 0.0, 11.0 * NU / (2.0 * pow(r, 9)));
    check_shape("regular tetrahedron, cutoff 1.0001 r", 4, tet, 1.0001 * r,
                11.0 * NU / (2.0 * pow(r, 9)));

    /* Forces of the equilateral triangle: outward, |F| = 3 sqrt(3) E / r (file header). */
    {
        double pos[9], f[9], cen[3] = {0, 0, 0};
        place(3, tri, pos);
        val_system s = sys_atm(3, pos, 0.0, 0.0);
        const double E = energy(&s, f);
        const double fmag = 3.0 * sqrt(3.0) * E / r;
        double err = 0.0;
        for (int m = 0; m < 3; m++)
            for (int a = 0; a < 3; a++)
                cen[a] += pos[3 * m + a] / 3.0;
        for (int m = 0; m < 3; m++) {
            double out[3];
            for (int a = 0; a < 3; a++)
                out[a] = pos[3 * m + a] - cen[a];
            const double len = sqrt(dot3(out, out));
            for (int a = 0; a < 3; a++)
                err = GSL_MAX(err, fabs(f[3 * m + a] - fmag * out[a] / len));
        }
        /* Rounding of a handful of terms of size ~|F|: 1e-13 relative. */
        gsl_test(!(err <= 1e-13 * fmag),
                 "ATM equilateral forces radial outward, |F| = 3 sqrt(3) E / r (err %.2e of |F|)",
                 err / fmag);
    }
}

/* Periodic boxes, by hand. */
static void test_hand_periodic(void)
{
    const double r = 1.2345, L = 3.217, h3 = sqrt(3.0) / 2.0;
    /* An equilateral triangle around a corner of the box, wrapped into [0, L): each pair and
     * the anchored triangle are the unwrapped ones. */
    {
        const double tri[9] = {0, 0, 0, r, 0, 0, 0.5 * r, h3 * r, 0};
        const double shift[3] = {-0.6172, -0.3004, -0.0123};
        double pos[9];
        place(3, tri, pos);
        for (int m = 0; m < 3; m++)
            for (int a = 0; a < 3; a++) {
                const double x = pos[3 * m + a] + shift[a];
                pos[3 * m + a] = x - L * floor(x / L);
            }
        val_system s = sys_atm(3, pos, L, 0.0);
        /* Wrapping costs an ulp of L per coordinate: 1e-13. */
        gsl_test_rel(energy(&s, NULL), 11.0 * NU / (8.0 * pow(r, 9)), 1e-13,
                     "periodic: equilateral triangle wrapped across a corner of the box");
    }
    /* Anchoring. Box L = 3.217, three particles on one line along x at 0.1234, 1.5678, 2.9876.
     * Anchored at i: d_ij = 1.4444, d_ik = mic(2.8642) = 2.8642 - L = -0.3528, so
     * d_jk = d_ik - d_ij = -1.7972 (not its own minimum image, 1.4198). The triangle is
     * k, i, j on a line with i in the middle: c_i = -1, c_j = c_k = 1, and
     *   E = -2 nu / (1.4444 * 1.7972 * 0.3528)^3.
     * (Minimum-imaging each side separately would give d_jk = +1.4198: three vectors that do
     * not close, d_ij + d_jk != d_ik, whose lengths no set of images has.) */
    {
        const double pos[9] = {0.1234, 0.77, 1.9, 1.5678, 0.77, 1.9, 2.9876, 0.77, 1.9};
        const double dij = 1.5678 - 0.1234, dik = 2.9876 - 0.1234 - L, djk = dik - dij;
        const double prod = fabs(dij * djk * dik);
        val_system s = sys_atm(3, pos, L, 0.0);
        gsl_test_rel(energy(&s, NULL), -2.0 * NU / (prod * prod * prod), 1e-13,
                     "periodic: triplet anchored at i (collinear k-i-j through the boundary)");
        /* With an ATM cutoff of 1.6 the anchored side |d_jk| = 1.7972 is out, so the triplet
         * is out (its own minimum image, 1.4198, would be in). */
        s.atm_cutoff = 1.6;
        gsl_test_abs(energy(&s, NULL), 0.0, 0.0,
                     "periodic: cutoff applies to the anchored side d_ik - d_ij");
    }
}

/* LJ by hand: E = 4 eps ((sigma/r)^12 - (sigma/r)^6). */
static void test_hand_lj(void)
{
    const double rmin = pow(2.0, 1.0 / 6.0) * SIGMA;
    const double d[3] = {0.48, -0.6, 0.64}; /* unit vector */
    double pos[6], f[6], ep, et;
    val_system s;
    memset(&s, 0, sizeof s);
    s.n = 2;
    s.pos = pos;
    s.lj = 1;
    s.eps = EPS;
    s.sigma = SIGMA;
    s.lj_cutoff = 2.5 * SIGMA;

    /* At r = 2^(1/6) sigma, (sigma/r)^6 = 1/2: E = 4 eps (1/4 - 1/2) = -eps, F = 0. */
    for (int a = 0; a < 3; a++) {
        pos[a] = 0.3 + a;
        pos[3 + a] = pos[a] + rmin * d[a];
    }
    val_reference(&s, f, &ep, &et);
    gsl_test_rel(ep, -EPS, 1e-14, "LJ pair at r = 2^(1/6) sigma: E = -eps");
    /* |F| ~ 24 eps / r times the rounding of (sigma/r)^6 - 1/2: 1e-13 eps/sigma. */
    gsl_test(!(max_rel(6, f, (const double[6]){0}) <= 1e-13), "LJ pair at the minimum: F = 0");
    gsl_test_abs(et, 0.0, 0.0, "LJ pair: no triplet energy");

    /* Shifted at rc = 2.5 sigma: E(rc) = 4 eps (2.5^-12 - 2.5^-6), 2.5^-6 = 0.004096 and
     * 2.5^-12 = 0.004096^2 = 1.6777216e-5, so E(rc) = -0.016316891136 eps and
     * E(2^(1/6) sigma) - E(rc) = -eps + 0.016316891136 eps. */
    s.lj_shift = 1;
    val_reference(&s, NULL, &ep, &et);
    gsl_test_rel(ep, -EPS + 0.016316891136 * EPS, 1e-14, "LJ pair, shifted at 2.5 sigma");

    /* At r = sigma: E = 0 unshifted, and F_j = -dE/dr d = 24 eps / sigma d (repulsive). */
    s.lj_shift = 0;
    for (int a = 0; a < 3; a++)
        pos[3 + a] = pos[a] + SIGMA * d[a];
    val_reference(&s, f, &ep, &et);
    gsl_test_abs(ep, 0.0, 1e-15, "LJ pair at r = sigma: E = 0");
    {
        double want[6];
        for (int a = 0; a < 3; a++) {
            want[3 + a] = 24.0 * EPS / SIGMA * d[a];
            want[a] = -want[3 + a];
        }
        gsl_test(!(max_rel(6, f, want) <= 1e-13), "LJ pair at r = sigma: F_j = 24 eps/sigma d^");
    }

    /* Beyond the cutoff: nothing, shifted or not. */
    s.lj_shift = 1;
    for (int a = 0; a < 3; a++)
        pos[3 + a] = pos[a] + 2.5001 * SIGMA * d[a];
    val_reference(&s, f, &ep, &et);
    gsl_test(!(ep == 0.0 && max_rel(6, f, (const double[6]){0}) == 0.0),
             "LJ pair beyond the cutoff: E = 0, F = 0");
    /* Just inside, shifted: E(r) - E(rc) ~ (r - rc) dE/dr, about 1e-5 eps here. */
    for (int a = 0; a < 3; a++)
        pos[3 + a] = pos[a] + 2.4999 * SIGMA * d[a];
    val_reference(&s, NULL, &ep, &et);
    gsl_test(!(fabs(ep) < 1e-5 * EPS && ep < 0.0),
             "LJ pair just inside a shifted cutoff: E -> 0- (got %.3e)", ep);
}

/* ---- random clusters ---- */

/* The four set-ups of the random tests. Open clusters fill a cube of edge (n/0.5)^(1/3)
 * (density 0.5 sigma^-3); periodic ones a box of edge max(3.3, (n/0.35)^(1/3)) sigma. */
enum { OPEN_ATM, OPEN_CUT_LJ, PBC_CUT_LJ, PBC_ATM_LJ, N_SETUP };
static const char *const setup_name[N_SETUP] = {
    "open, ATM, no cutoff", "open, ATM+LJ, cutoffs 1.9/2.3, shifted",
    "periodic, ATM+LJ, cutoffs 1.45/1.6, shifted",
    "periodic, ATM no cutoff + LJ 1.6 unshifted"};

/* The set-up `kind` for n particles at pos (filled later by random_config). */
static val_system setup(int kind, int n, const double *pos, double *side)
{
    val_system s = sys_atm(n, pos, 0.0, 0.0);
    const double box = GSL_MAX(3.3, cbrt(n / 0.35));
    *side = cbrt(n / 0.5);
    s.eps = EPS;
    s.sigma = SIGMA;
    switch (kind) {
    case OPEN_CUT_LJ:
        s.atm_cutoff = 1.9;
        s.lj = 1;
        s.lj_cutoff = 2.3;
        s.lj_shift = 1;
        break;
    case PBC_CUT_LJ:
        s.box = box;
        s.atm_cutoff = 1.45;
        s.lj = 1;
        s.lj_cutoff = 1.6;
        s.lj_shift = 1;
        break;
    case PBC_ATM_LJ:
        s.box = box;
        s.lj = 1;
        s.lj_cutoff = 1.6;
        break;
    default:
        break;
    }
    return s;
}

/* Forces against central differences of the energy, F_m = -(E(x+h) - E(x-h)) / 2h.
 * Error budget, with a length scale l ~ 1 sigma (nearest neighbours at 0.95..1.5 sigma):
 * truncation h^2/6 |E'''| and E ~ r^-9..r^-12 give a relative error ~ (h/l)^2 (9..12)^2/6,
 * about 2e-9 for h = 1e-5 sigma; rounding eps |E| / h relative to |F| ~ 10 |E| / l gives
 * ~ 2e-16 / 1e-4 = 2e-12. Total ~1e-9, well under 1e-7; the optimum h ~ eps^(1/3) l ~ 6e-6.
 * random_config keeps every length 1e-3 sigma (100 h) away from the cutoffs and every
 * image switch, where E or E' jumps. */
static void test_fd(gsl_rng *rng)
{
    const double h = 1e-5; /* [sigma], ~1e-5 of the nearest-neighbour distance */
    double pos[3 * NMAX] = {0}, f[3 * NMAX], fd[3 * NMAX], side;
    for (int kind = 0; kind < N_SETUP; kind++) {
        double worst = 0.0;
        for (int n = 5; n <= 12; n++) {
            val_system s = setup(kind, n, pos, &side);
            random_config(rng, &s, pos, side, 0.95, 1e-3);
            energy(&s, f);
            for (int m = 0; m < 3 * n; m++) {
                const double x = pos[m];
                pos[m] = x + h;
                const double xp = pos[m], ep = energy(&s, NULL);
                pos[m] = x - h;
                const double xm = pos[m], em = energy(&s, NULL);
                pos[m] = x;
                fd[m] = -(ep - em) / (xp - xm);
            }
            const double err = max_rel(3 * n, fd, f);
            worst = GSL_MAX(worst, err);
            gsl_test(!(err < 1e-7), "F = -grad E by central differences, %s, n=%d (%.2e)",
                     setup_name[kind], n, err);
        }
        printf("# finite differences, %s: max relative error %.2e\n", setup_name[kind], worst);
    }
}

/* Total force zero: sum_m F_m = 0 to 1e-12 of sum_m |F_m| (each triplet's three forces
 * cancel to a few ulps of its own forces; periodic too, since the forces only depend on
 * separations). Virial of pure open ATM: sum_m F_m . r_m = 9 E (homogeneous of degree -9). */
static void test_sums(gsl_rng *rng)
{
    double pos[3 * NMAX] = {0}, f[3 * NMAX], side;
    const int sizes[] = {5, 8, 12, 23, 40};
    for (int kind = 0; kind < N_SETUP; kind++) {
        for (size_t c = 0; c < sizeof sizes / sizeof sizes[0]; c++) {
            const int n = sizes[c];
            val_system s = setup(kind, n, pos, &side);
            random_config(rng, &s, pos, side, 0.95, 0.0);
            const double E = energy(&s, f);
            double sum[3] = {0, 0, 0}, mag = 0.0, vir = 0.0;
            for (int m = 0; m < n; m++) {
                for (int a = 0; a < 3; a++) {
                    sum[a] += f[3 * m + a];
                    vir += f[3 * m + a] * pos[3 * m + a];
                }
                mag += sqrt(dot3(f + 3 * m, f + 3 * m));
            }
            const double err = sqrt(dot3(sum, sum)) / mag;
            gsl_test(!(err < 1e-12), "sum of forces = 0, %s, n=%d (%.2e of sum |F|)",
                     setup_name[kind], n, err);
            if (kind == OPEN_ATM)
                /* The virial sums terms ~|F||r| of both signs: 1e-12. */
                gsl_test_rel(vir, 9.0 * E, 1e-12, "virial sum F.r = 9 E, open ATM, n=%d", n);
        }
    }
}

/* Open boundaries: E(R x + t) = E(x) and F(R x + t) = R F(x) for a random rotation R and
 * translation t. Rounding of the rotated coordinates (a few ulps) moves E by ~1e-15
 * relative; the sums keep it under 1e-12. */
static void test_rotation(gsl_rng *rng)
{
    double pos[3 * NMAX] = {0}, pos2[3 * NMAX], f[3 * NMAX], f2[3 * NMAX], rf[3 * NMAX], side;
    const int sizes[] = {5, 9, 12, 30};
    for (int kind = OPEN_ATM; kind <= OPEN_CUT_LJ; kind++) {
        for (size_t c = 0; c < sizeof sizes / sizeof sizes[0]; c++) {
            const int n = sizes[c];
            double R[3][3], t[3];
            val_system s = setup(kind, n, pos, &side);
            random_config(rng, &s, pos, side, 0.95, 1e-6);
            const double E = energy(&s, f);
            random_rot(rng, R);
            for (int a = 0; a < 3; a++)
                t[a] = 10.0 * (gsl_rng_uniform(rng) - 0.5);
            transform(n, R, t, pos, pos2);
            transform(n, R, NULL, f, rf);
            s.pos = pos2;
            const double E2 = energy(&s, f2);
            gsl_test_rel(E2, E, 1e-12, "E invariant under rotation + translation, %s, n=%d",
                         setup_name[kind], n);
            const double err = max_rel(3 * n, f2, rf);
            gsl_test(!(err < 1e-12), "F rotates with the system, %s, n=%d (%.2e)",
                     setup_name[kind], n, err);
        }
    }
}

/* Periodic: E and F unchanged (1e-12 relative: coordinates change by an ulp of L) when all
 * particles move by one random vector and are wrapped back into the box, and when one
 * particle moves by a box vector. */
static void test_periodic(gsl_rng *rng)
{
    double pos[3 * NMAX] = {0}, pos2[3 * NMAX], f[3 * NMAX], f2[3 * NMAX], side;
    const int sizes[] = {6, 12, 33};
    for (int kind = PBC_CUT_LJ; kind <= PBC_ATM_LJ; kind++) {
        for (size_t c = 0; c < sizeof sizes / sizeof sizes[0]; c++) {
            const int n = sizes[c];
            val_system s = setup(kind, n, pos, &side);
            const double L = s.box;
            random_config(rng, &s, pos, side, 0.9, 1e-6);
            const double E = energy(&s, f);
            double t[3];
            for (int a = 0; a < 3; a++)
                t[a] = 2.0 * L * (gsl_rng_uniform(rng) - 0.5);
            for (int m = 0; m < 3 * n; m++) {
                const double x = pos[m] + t[m % 3];
                pos2[m] = x - L * floor(x / L);
            }
            s.pos = pos2;
            const double E2 = energy(&s, f2);
            gsl_test_rel(E2, E, 1e-12, "periodic: E invariant under a wrapped translation, %s, n=%d",
                         setup_name[kind], n);
            gsl_test(!(max_rel(3 * n, f2, f) < 1e-12),
                     "periodic: F invariant under a wrapped translation, %s, n=%d",
                     setup_name[kind], n);

            memcpy(pos2, pos, sizeof(double) * 3 * (size_t)n);
            const int m = (int)gsl_rng_uniform_int(rng, (unsigned long)n);
            pos2[3 * m] += L;
            pos2[3 * m + 1] -= 2.0 * L;
            pos2[3 * m + 2] += 3.0 * L;
            const double E3 = energy(&s, f2);
            gsl_test_rel(E3, E, 1e-12, "periodic: E invariant when particle %d moves by (1,-2,3) L, %s, n=%d",
                         m, setup_name[kind], n);
            gsl_test(!(max_rel(3 * n, f2, f) < 1e-12),
                     "periodic: F invariant when particle %d moves by a box vector, n=%d", m, n);
        }
    }
    /* Labels. With every cutoff <= L/2 a counted triangle has sides < L/2, so each side is
     * its own minimum image and the anchor does not matter (docs/physics.md): E and F are
     * invariant under a random relabeling. (Without a cutoff they are not; that is the
     * anchoring convention, not physics, and is not tested.) */
    for (size_t c = 0; c < sizeof sizes / sizeof sizes[0]; c++) {
        const int n = sizes[c];
        size_t perm[NMAX];
        double f3[3 * NMAX];
        val_system s = setup(PBC_CUT_LJ, n, pos, &side);
        random_config(rng, &s, pos, side, 0.9, 1e-6);
        const double E = energy(&s, f);
        for (int m = 0; m < n; m++)
            perm[m] = (size_t)m;
        gsl_ran_shuffle(rng, perm, (size_t)n, sizeof perm[0]);
        for (int m = 0; m < n; m++)
            memcpy(pos2 + 3 * m, pos + 3 * perm[m], sizeof(double) * 3);
        s.pos = pos2;
        const double E2 = energy(&s, f2);
        for (int m = 0; m < n; m++)
            memcpy(f3 + 3 * perm[m], f2 + 3 * m, sizeof(double) * 3);
        /* Same terms summed in another order: 1e-12. */
        gsl_test_rel(E2, E, 1e-12, "periodic, cutoffs <= L/2: E invariant under relabeling, n=%d", n);
        gsl_test(!(max_rel(3 * n, f3, f) < 1e-12),
                 "periodic, cutoffs <= L/2: F invariant under relabeling, n=%d", n);
    }
    /* A compact cluster (edge 2.2 sigma) in a box of 9.87 sigma: every minimum image is the
     * direct separation, so periodic equals open (to rounding of the image arithmetic). */
    {
        const int n = 12;
        val_system s = setup(OPEN_ATM, n, pos, &side);
        s.lj = 1;
        random_config(rng, &s, pos, 2.2, 0.95, 0.0);
        const double E = energy(&s, f);
        s.box = 9.87;
        for (int q = 0; q < 3 * n; q++)
            pos2[q] = pos[q] - s.box * floor(pos[q] / s.box);
        s.pos = pos2;
        const double E2 = energy(&s, f2);
        gsl_test_rel(E2, E, 1e-12, "periodic: compact cluster in a large box = open cluster");
        gsl_test(!(max_rel(3 * n, f2, f) < 1e-12), "periodic: same forces as open");
    }
}

/* Energies do not depend on the number of threads (per-i sums added in order); forces to
 * rounding of a different order of summation. */
static void test_threads(gsl_rng *rng)
{
#ifdef _OPENMP
    double pos[3 * NMAX] = {0}, f1[3 * NMAX], f2[3 * NMAX], side;
    const int n = 47;
    val_system s = setup(PBC_CUT_LJ, n, pos, &side);
    s.box = 4.2;
    random_config(rng, &s, pos, side, 0.9, 0.0);
    const int nt = omp_get_max_threads();
    omp_set_num_threads(1);
    const double e1 = energy(&s, f1);
    omp_set_num_threads(nt > 1 ? nt : 3);
    const double e2 = energy(&s, f2);
    omp_set_num_threads(nt);
    gsl_test(!(e1 == e2), "reference: same energy with 1 and %d threads", nt > 1 ? nt : 3);
    gsl_test(!(max_rel(3 * n, f2, f1) < 1e-13), "reference: same forces with 1 and %d threads",
             nt > 1 ? nt : 3);
#else
    (void)rng;
#endif
}

/* Degenerate sizes. */
static void test_small(void)
{
    const double pos[6] = {0.1, 0.2, 0.3, 1.4, 1.5, 1.6};
    double f[6], ep = 1.0, et = 1.0;
    val_system s = sys_atm(2, pos, 0.0, 0.0);
    val_reference(&s, f, &ep, &et);
    gsl_test(!(et == 0.0 && ep == 0.0 && max_rel(6, f, (const double[6]){0}) == 0.0),
             "two particles, ATM only: E = 0, F = 0");
    s.n = 0;
    ep = et = 1.0;
    gsl_test(val_reference(&s, NULL, &ep, &et) != 0 || ep != 0.0 || et != 0.0,
             "no particles: E = 0");
}

int main(void)
{
    tb_test_init();
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 20240611UL);

    test_hand_atm();
    test_hand_periodic();
    test_hand_lj();
    test_small();
    test_fd(rng);
    test_sums(rng);
    test_rotation(rng);
    test_periodic(rng);
    test_threads(rng);

    gsl_rng_free(rng);
    return tb_test_done();
}
