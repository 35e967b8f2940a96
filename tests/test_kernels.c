/* test_kernels.c — the solver's shared kernel bodies (solver/physics/pot.h) against the independent
 * reference (validate/reference.c), in double (_d) and in float (_f).
 *
 * The test runs the bodies through its own brute-force loops, every i<j through
 * pair_accumulate and every i<j<k through triplet_accumulate, with separations from pot_mic
 * and coefficients filled here by hand, so that only the bodies are under test (not a map,
 * not a backend). It also checks pot_atm and pot_lj alone against values derived by hand
 * and their derivatives against finite differences.
 *
 * Errors: energies relative to the reference; forces as max_m |F_m - F_ref,m| / max_m |F_ref,m|
 * (a single component may be arbitrarily close to zero). */
#include <math.h>
#include <string.h>

#include <gsl/gsl_math.h>
#include <gsl/gsl_rng.h>

#include "solver/physics/pot.h"
#include "tests/tb_test.h"
#include "tests/tb_ref.h"
#include "validate/reference.h"

#define NMAX 64

static const double NU = 0.7321;    /* [epsilon sigma^9] */
static const double EPS = 0.8123;   /* [epsilon] */
static const double SIGMA = 1.1234; /* [sigma] */



static double relerr(double x, double ref)
{
    return ref != 0.0 ? fabs(x - ref) / fabs(ref) : fabs(x);
}


/* ---- the coefficients, by hand ---- */

/* Fills p from the reference's description of the same system: squared cutoffs
 * (TB_NO_CUTOFF2 for none), 4 eps, sigma^2, the LJ energy at the cutoff when shifted, the box
 * and its inverse; the float copy is the double one rounded. */
static void params_from(const val_system *s, pot_params *p)
{
    memset(p, 0, sizeof *p);
    pot_coef_d *d = &p->d;
    p->atm_on = s->nu != 0.0;
    p->lj_on = s->lj;
    p->periodic = s->box > 0.0;
    d->nu = s->nu;
    d->atm_rc2 = s->atm_cutoff > 0.0 ? s->atm_cutoff * s->atm_cutoff : TB_NO_CUTOFF2;
    d->atm_rct6 = TB_NO_CUTOFF6;
    d->lj_eps4 = 4.0 * s->eps;
    d->lj_sig2 = s->sigma * s->sigma;
    d->lj_rc2 = s->lj_cutoff > 0.0 ? s->lj_cutoff * s->lj_cutoff : TB_NO_CUTOFF2;
    if (s->lj_shift && s->lj_cutoff > 0.0) {
        const double s6 = pow(s->sigma / s->lj_cutoff, 6);
        d->lj_eshift = 4.0 * s->eps * (s6 * s6 - s6);
    }
    d->box = box_cube_d(s->box);
    pot_params_round(p);
}

/* ---- brute force through the bodies ---- */

/* Double bodies: energies and forces of n particles at pos; *abs_sum = sum of |term|, so that
 * abs_sum / |E| is the conditioning of the energy sum. */
static void brute_d(const pot_params *p, int n, const double *pos, double *f, double *ep,
                    double *et, double *abs_sum)
{
    const pot_coef_d *k = &p->d;
    *ep = *et = *abs_sum = 0.0;
    memset(f, 0, sizeof(double) * 3 * (size_t)n);
    for (int i = 0; i < n; i++) {
        for (int j = i + 1; j < n; j++) {
            double dij[3];
            for (int x = 0; x < 3; x++)
                dij[x] = pos[3 * j + x] - pos[3 * i + x];
            pot_mic_d(k, dij);
            const double a = dot3(dij, dij);
            if (p->lj_on) {
                const double e = pair_accumulate_d(k, dij, a, f + 3 * i, f + 3 * j);
                *ep += e;
                *abs_sum += fabs(e);
            }
            if (!p->atm_on)
                continue;
            for (int l = j + 1; l < n; l++) {
                double dik[3];
                for (int x = 0; x < 3; x++)
                    dik[x] = pos[3 * l + x] - pos[3 * i + x];
                pot_mic_d(k, dik);
                const double e = triplet_accumulate_d(k, dij, a, dik, dot3(dik, dik), f + 3 * i,
                                                      f + 3 * j, f + 3 * l);
                *et += e;
                *abs_sum += fabs(e);
            }
        }
    }
}

/* Float bodies on positions rounded to float, everything inside a body in float. Each
 * body's result (energy, and forces into zeroed float buffers) is added into double sums,
 * so the error measured is that of the bodies alone, not of a long float accumulation
 * (which is the backend's business). */
static void brute_f(const pot_params *p, int n, const double *pos, double *f, double *ep,
                    double *et)
{
    const pot_coef_f *k = &p->f;
    float pf[3 * NMAX];
    for (int m = 0; m < 3 * n; m++)
        pf[m] = (float)pos[m];
    *ep = *et = 0.0;
    memset(f, 0, sizeof(double) * 3 * (size_t)n);
    for (int i = 0; i < n; i++) {
        for (int j = i + 1; j < n; j++) {
            float dij[3], fl[3][3];
            for (int x = 0; x < 3; x++)
                dij[x] = pf[3 * j + x] - pf[3 * i + x];
            pot_mic_f(k, dij);
            const float a = dij[0] * dij[0] + dij[1] * dij[1] + dij[2] * dij[2];
            if (p->lj_on) {
                memset(fl, 0, sizeof fl);
                *ep += (double)pair_accumulate_f(k, dij, a, fl[0], fl[1]);
                for (int x = 0; x < 3; x++) {
                    f[3 * i + x] += (double)fl[0][x];
                    f[3 * j + x] += (double)fl[1][x];
                }
            }
            if (!p->atm_on)
                continue;
            for (int l = j + 1; l < n; l++) {
                float dik[3];
                for (int x = 0; x < 3; x++)
                    dik[x] = pf[3 * l + x] - pf[3 * i + x];
                pot_mic_f(k, dik);
                const float c = dik[0] * dik[0] + dik[1] * dik[1] + dik[2] * dik[2];
                memset(fl, 0, sizeof fl);
                *et += (double)triplet_accumulate_f(k, dij, a, dik, c, fl[0], fl[1], fl[2]);
                for (int x = 0; x < 3; x++) {
                    f[3 * i + x] += (double)fl[0][x];
                    f[3 * j + x] += (double)fl[1][x];
                    f[3 * l + x] += (double)fl[2][x];
                }
            }
        }
    }
}

/* Random configurations (random_config) and the error measures: tests/tb_ref.h. */

/* ---- the bodies alone ---- */

/* pot_atm on the equilateral triangle (E = 11 nu / (8 r^9), tests/test_reference.c) and its
 * derivatives against central differences in a, b, c. E(a) ~ a^(-9/2): with h = 1e-5 a the
 * truncation error is ~ (h/a)^2 (4.5+1)(4.5+2)/6 ~ 6e-10 and the rounding ~ eps/(4.5 h/a)
 * ~ 5e-12 relative, hence 1e-8. */
static void test_pot_atm(void)
{
    const double r = 1.2345, r2 = r * r;
    double ga, gb, gc;
    const double e = pot_atm_d(NU, r2, r2, r2, &ga, &gb, &gc);
    gsl_test_rel(e, 11.0 * NU / (8.0 * pow(r, 9)), 1e-14,
                 "pot_atm_d equilateral: E = 11 nu / (8 r^9)");
    /* Equilateral: E(a) with b = c = r^2 fixed; by symmetry ga = gb = gc. */
    {
        const double h = 1e-5 * r2;
        double u1, u2, u3;
        const double ep = pot_atm_d(NU, r2 + h, r2, r2, &u1, &u2, &u3);
        const double em = pot_atm_d(NU, r2 - h, r2, r2, &u1, &u2, &u3);
        gsl_test_rel(ga, (ep - em) / (2.0 * h), 1e-8,
                     "pot_atm_d equilateral: dE/da = central difference in a");
        gsl_test(!(fabs(ga - gb) <= 1e-15 * fabs(ga) && fabs(ga - gc) <= 1e-15 * fabs(ga)),
                 "pot_atm_d equilateral: dE/da = dE/db = dE/dc");
        /* Hand value: E(la, lb, lc) = l^(-9/2) E(a, b, c), so a ga + b gb + c gc = -9/2 E
         * (Euler); with a = b = c = r^2 and ga = gb = gc, ga = -3 E / (2 r^2). */
        gsl_test_rel(ga, -1.5 * e / r2, 1e-14, "pot_atm_d equilateral: dE/da = -3E/(2 r^2)");
    }
    /* A scalene obtuse triangle, sides 1.1, 1.7, 2.3: each derivative by differences. */
    {
        const double a = 1.21, b = 2.89, c = 5.29;
        const double abc[3] = {a, b, c};
        double g[3];
        pot_atm_d(NU, a, b, c, &g[0], &g[1], &g[2]);
        for (int m = 0; m < 3; m++) {
            double x[3] = {a, b, c}, u1, u2, u3;
            const double h = 1e-5 * abc[m];
            x[m] = abc[m] + h;
            const double ep = pot_atm_d(NU, x[0], x[1], x[2], &u1, &u2, &u3);
            x[m] = abc[m] - h;
            const double em = pot_atm_d(NU, x[0], x[1], x[2], &u1, &u2, &u3);
            gsl_test_rel(g[m], (ep - em) / (2.0 * h), 1e-8,
                         "pot_atm_d scalene (1.1, 1.7, 2.3): dE/d%c = central difference",
                         "abc"[m]);
        }
    }
    /* Float: a few float roundings through r^-9: 1e-6. */
    {
        const float rf = 1.2345f, rf2 = rf * rf;
        float fa, fb, fc;
        const float ef = pot_atm_f(0.7321f, rf2, rf2, rf2, &fa, &fb, &fc);
        gsl_test_rel((double)ef, 11.0 * NU / (8.0 * pow(r, 9)), 1e-6,
                     "pot_atm_f equilateral: E = 11 nu / (8 r^9)");
        gsl_test_rel((double)fa, -1.5 * 11.0 * NU / (8.0 * pow(r, 11)), 1e-6,
                     "pot_atm_f equilateral: dE/da = -3E/(2 r^2)");
    }
}

/* pot_atm_part (the GPU tile kernel's form): dE/da = -(3/2) nu 5^(-5/2) v (qa + mp 5/a) and
 * alike must equal pot_atm's derivatives, and the energy from the sums, -(2/9)(a dE/da +
 * b dE/db + c dE/dc), pot_atm's energy: on the equilateral, the scalene obtuse and a
 * near-linear triangle (cos products near -1, where E < 0), and 1000 random triangles. In
 * double the two forms differ by rounding only: 1e-14 relative to the largest derivative (1e-12
 * over the random ones, some nearly degenerate); float: 3e-6. */
/* Derivatives of pot_atm_part_d rescaled to dE/da and so on (ATM_PART_K); returns their largest
 * difference from pot_atm_d's, relative to the largest of those (*gmax), and gives pot_atm_d's
 * derivatives g[3] and energy *e and the energy by Euler's relation *eu. */
#define ATM_PART_K (-1.5 * NU * pow(5.0, -2.5))
static double atm_part_err(double a, double b, double c, double g[3], double *gmax, double *e,
                           double *eu)
{
    double v, mp, q[3], err = 0;
    const double s[3] = {a, b, c};
    *e = pot_atm_d(NU, a, b, c, &g[0], &g[1], &g[2]);
    pot_atm_part_d(a, -0.5 * a, a / 5.0, b, c, &v, &mp, &q[0], &q[1], &q[2]);
    *gmax = fmax(fmax(fabs(g[0]), fabs(g[1])), fabs(g[2]));
    *eu = 0;
    for (int x = 0; x < 3; x++) {
        const double gp = ATM_PART_K * v * (q[x] + mp * 5.0 / s[x]);
        *eu += -2.0 / 9.0 * s[x] * gp;
        err = fmax(err, fabs(gp - g[x]) / *gmax);
    }
    return err;
}

static void atm_part_check(double a, double b, double c, double tol, const char *what)
{
    double g[3], gmax, e, eu;
    const double err = atm_part_err(a, b, c, g, &gmax, &e, &eu);
    const double s[3] = {a, b, c}, k = ATM_PART_K;
    gsl_test(!(err <= tol), "pot_atm_part_d %s: derivatives = pot_atm_d's (max rel %.2e)", what, err);
    gsl_test(!(fabs(eu - e) <= tol * gmax * fmax(fmax(a, b), c)),
             "pot_atm_part_d %s: -(2/9)(a dE/da + b dE/db + c dE/dc) = E (%.17g vs %.17g)", what, eu, e);
    {
        float vf, mf, qf[3];
        const float af = (float)a, bf = (float)b, cf = (float)c;
        pot_atm_part_f(af, -0.5f * af, 0.2f * af, bf, cf, &vf, &mf, &qf[0], &qf[1], &qf[2]);
        double errf = 0;
        for (int x = 0; x < 3; x++)
            errf = fmax(errf, fabs(k * (double)vf * ((double)qf[x] + (double)mf * 5.0 / s[x]) - g[x]) / gmax);
        gsl_test(!(errf <= 3e-6), "pot_atm_part_f %s: derivatives within 3e-6 (%.2e)", what, errf);
    }
    { /* pot_atm_list (the lists' tile loop): the same scaling, weight 1.5, and ok = 0 gives 0 */
        double gl[3], z[3], errl = 0;
        pot_atm_list_d(a, -0.5 * a, 5.0 / a, b, c, a * (b * c), 1.5, 1, &gl[0], &gl[1], &gl[2]);
        pot_atm_list_d(a, -0.5 * a, 5.0 / a, b, c, a * (b * c), 1.5, 0, &z[0], &z[1], &z[2]);
        for (int x = 0; x < 3; x++)
            errl = fmax(errl, fabs(k * gl[x] / 1.5 - g[x]) / gmax);
        gsl_test(!(errl <= tol), "pot_atm_list_d %s: derivatives = pot_atm_d's (max rel %.2e)", what, errl);
        gsl_test(!(z[0] == 0 && z[1] == 0 && z[2] == 0), "pot_atm_list_d %s: ok = 0 gives 0", what);
        float glf[3];
        double errf = 0;
        const float af = (float)a, bf = (float)b, cf = (float)c;
        pot_atm_list_f(af, -0.5f * af, 5.0f / af, bf, cf, af * (bf * cf), 1.0f, 1, &glf[0], &glf[1], &glf[2]);
        for (int x = 0; x < 3; x++)
            errf = fmax(errf, fabs(k * (double)glf[x] - g[x]) / gmax);
        gsl_test(!(errf <= 3e-6), "pot_atm_list_f %s: derivatives within 3e-6 (%.2e)", what, errf);
    }
}

static void test_pot_atm_part(void)
{
    const double r2 = 1.2345 * 1.2345;
    atm_part_check(r2, r2, r2, 1e-14, "equilateral");
    atm_part_check(1.21, 2.89, 5.29, 1e-14, "scalene (1.1, 1.7, 2.3)");
    /* i, j, k nearly on a line: r_ij = 1, r_jk = 1.1, r_ik = 2.0999 */
    atm_part_check(1.0, 1.21, 2.0999 * 2.0999, 1e-14, "near-linear");
    { /* a degenerate triangle (j = k: b = 0, abc = 0) masked: exactly 0, not NaN */
        double z[3];
        pot_atm_list_d(1.21, -0.605, 5.0 / 1.21, 0.0, 1.21, 0.0, 1.0, 0, &z[0], &z[1], &z[2]);
        gsl_test(!(z[0] == 0 && z[1] == 0 && z[2] == 0), "pot_atm_list_d: j = k masked gives 0 (%g %g %g)", z[0], z[1], z[2]);
        float zf[3];
        pot_atm_list_f(1.21f, -0.605f, 5.0f / 1.21f, 0.0f, 1.21f, 0.0f, 1.0f, 0, &zf[0], &zf[1], &zf[2]);
        gsl_test(!(zf[0] == 0 && zf[1] == 0 && zf[2] == 0), "pot_atm_list_f: j = k masked gives 0");
    }
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 11);
    double worst = 0;
    int bad = 0;
    for (int t = 0; t < 1000; t++) {
        double p[3][3], d2[3] = {0, 0, 0};
        for (int i = 0; i < 3; i++)
            for (int x = 0; x < 3; x++)
                p[i][x] = 2.0 * gsl_rng_uniform(rng) - 1.0;
        for (int x = 0; x < 3; x++) {
            d2[0] += (p[1][x] - p[0][x]) * (p[1][x] - p[0][x]);
            d2[1] += (p[2][x] - p[1][x]) * (p[2][x] - p[1][x]);
            d2[2] += (p[2][x] - p[0][x]) * (p[2][x] - p[0][x]);
        }
        double g[3], gmax, e, eu;
        const double err = atm_part_err(d2[0], d2[1], d2[2], g, &gmax, &e, &eu);
        worst = fmax(worst, err);
        bad += !(err <= 1e-12);
    }
    gsl_rng_free(rng);
    gsl_test(bad, "pot_atm_part_d, 1000 random triangles in the unit cube: derivatives = pot_atm_d's "
                  "to 1e-12 of the largest (worst %.2e)", worst);
}

/* pot_atm_list_h in the ring's dot form (gpu_nbr_tri.cuh's nbr_tri_dot: X, Y, Z from
 * y = d_j . d_k, hj = ha + hb, hk = hc + hb, d_j and d_k in place of d_jk): the forces on j and k it
 * gives (hj, hk from pot_atm_list_jk, or as ha + hb, hc + hb from pot_atm_list_h),
 * 2K (V + S d) with V_j = v hb d_k, S_j = -v hj, V_k = v hb d_j, S_k = -v hk, must equal
 * -dE/dd_j = -2 g_a d_j + 2 g_b d_jk and -dE/dd_k = -2 g_c d_k - 2 g_b d_jk from pot_atm_d's
 * derivatives, with the anchor at the origin (a = |d_j|^2, b = |d_jk|^2, c = |d_k|^2); ok = 0
 * gives v = 0. Returns the largest difference relative to the largest force component. */
static double atm_dot_err(const double dj[3], const double dk[3], double w, int fl, int jk)
{
    double a = 0, c = 0, y = 0, djk[3], b = 0;
    for (int x = 0; x < 3; x++) {
        a += dj[x] * dj[x];
        c += dk[x] * dk[x];
        y += dj[x] * dk[x];
        djk[x] = dk[x] - dj[x];
        b += djk[x] * djk[x];
    }
    double g[3];
    pot_atm_d(NU, a, b, c, &g[0], &g[1], &g[2]);
    double v, hb, hj, hk;
    if (fl) {
        float vf, haf, hbf, hcf;
        const float af = (float)a, cf = (float)c, yf = (float)y, xf = cf - yf, zf = af - yf;
        const float bf = xf + zf;
        if (jk) /* haf, hcf: hj, hk */
            pot_atm_list_jk_f(af, 5.0f / af, bf, cf, xf, yf, zf, 0.2f * af * (bf * cf), (float)w,
                              1, 0, &vf, &hbf, &haf, &hcf);
        else
            pot_atm_list_h_f(af, 5.0f / af, bf, cf, xf, yf, zf, 0.2f * af * (bf * cf), (float)w,
                             1, 0, &vf, &haf, &hbf, &hcf);
        v = vf, hb = hbf, hj = jk ? haf : haf + hbf, hk = jk ? hcf : hcf + hbf;
    } else {
        const double x = c - y, z = a - y, bb = x + z;
        double ha, hc;
        if (jk)
            pot_atm_list_jk_d(a, 5.0 / a, bb, c, x, y, z, 0.2 * a * (bb * c), w, 1, 0, &v, &hb,
                              &hj, &hk);
        else {
            pot_atm_list_h_d(a, 5.0 / a, bb, c, x, y, z, 0.2 * a * (bb * c), w, 1, 0, &v, &ha,
                             &hb, &hc);
            hj = ha + hb;
            hk = hc + hb;
        }
    }
    const double k2 = 2.0 * ATM_PART_K / w;
    double fmax_ = 0, err = 0, fj[3], fk[3], rj[3], rk[3];
    for (int x = 0; x < 3; x++) {
        fj[x] = k2 * (v * hb * dk[x] - v * hj * dj[x]);
        fk[x] = k2 * (v * hb * dj[x] - v * hk * dk[x]);
        rj[x] = -2.0 * g[0] * dj[x] + 2.0 * g[1] * djk[x];
        rk[x] = -2.0 * g[2] * dk[x] - 2.0 * g[1] * djk[x];
        fmax_ = fmax(fmax_, fmax(fabs(rj[x]), fabs(rk[x])));
    }
    for (int x = 0; x < 3; x++)
        err = fmax(err, fmax(fabs(fj[x] - rj[x]), fabs(fk[x] - rk[x])) / fmax_);
    return err;
}

static void test_pot_atm_dot(void)
{
    const double s3 = sqrt(3.0) / 2.0;
    const double eq[2][3] = {{1.2, 0, 0}, {0.6, 1.2 * s3, 0}};          /* equilateral, 1.2 */
    const double sc[2][3] = {{1.1, 0, 0}, {-0.4, 2.2, 0.5}};            /* scalene, obtuse at i */
    const double far[2][3] = {{3.9, 1.2, 0.3}, {3.6, 2.0, -0.2}};       /* close pair far out */
    const double (*cases[3])[3] = {eq, sc, far};
    const char *names[3] = {"equilateral", "scalene", "a close pair far from the anchor"};
    const char *fn[2] = {"pot_atm_list_h", "pot_atm_list_jk"};
    for (int t = 0; t < 3; t++)
        for (int jk = 0; jk < 2; jk++) {
            const double ed = atm_dot_err(cases[t][0], cases[t][1], 1.5, 0, jk);
            const double ef = atm_dot_err(cases[t][0], cases[t][1], 1.0, 1, jk);
            gsl_test(!(ed <= 1e-13), "%s_d, dot form, %s: forces on j, k = pot_atm_d's (max rel %.2e)",
                     fn[jk], names[t], ed);
            gsl_test(!(ef <= 1e-5), "%s_f, dot form, %s: forces within 1e-5 (%.2e)", fn[jk], names[t], ef);
        }
    {
        double v, hb, hj, hk;
        pot_atm_list_jk_d(1.21, 5.0 / 1.21, 1.44, 2.25, 1.0, 1.25, 0.0, 0.2 * 1.21 * 1.44 * 2.25,
                          1.0, 0, 0, &v, &hb, &hj, &hk);
        gsl_test(!(v == 0 && isfinite(hb) && isfinite(hj) && isfinite(hk)),
                 "pot_atm_list_jk_d: ok = 0 gives v = 0, finite h");
    }
    {
        double v, ha, hb, hc;
        pot_atm_list_h_d(1.21, 5.0 / 1.21, 1.44, 2.25, 1.0, 1.25, 0.0, 0.2 * 1.21 * 1.44 * 2.25,
                         1.0, 0, 0, &v, &ha, &hb, &hc);
        gsl_test(!(v == 0 && isfinite(ha) && isfinite(hb) && isfinite(hc)),
                 "pot_atm_list_h_d: ok = 0 gives v = 0, finite h");
    }
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 12);
    double worst = 0, worstf = 0;
    int bad = 0;
    for (int t = 0; t < 1000; t++) { /* the liquid's shell: |d| in [0.9, 4.5], |d_jk| >= 0.8 */
        double d[2][3], r2[2];
        do {
            for (int i = 0; i < 2; i++) {
                do {
                    r2[i] = 0;
                    for (int x = 0; x < 3; x++) {
                        d[i][x] = 9.0 * gsl_rng_uniform(rng) - 4.5;
                        r2[i] += d[i][x] * d[i][x];
                    }
                } while (r2[i] < 0.81 || r2[i] > 20.25);
            }
        } while ((d[1][0] - d[0][0]) * (d[1][0] - d[0][0]) + (d[1][1] - d[0][1]) * (d[1][1] - d[0][1]) +
                     (d[1][2] - d[0][2]) * (d[1][2] - d[0][2]) < 0.64);
        const double err = fmax(atm_dot_err(d[0], d[1], 1.0, 0, 0), atm_dot_err(d[0], d[1], 1.0, 0, 1));
        const double ef = fmax(atm_dot_err(d[0], d[1], 1.0, 1, 0), atm_dot_err(d[0], d[1], 1.0, 1, 1));
        worst = fmax(worst, err);
        worstf = fmax(worstf, ef);
        bad += !(err <= 1e-12) + !(ef <= 1e-4);
    }
    gsl_rng_free(rng);
    gsl_test(bad, "pot_atm_list_h and _jk, dot form, 1000 random triplets of a liquid's shell: forces = "
                  "pot_atm_d's to 1e-12 of the largest in double (worst %.2e), 1e-4 in float (%.2e)",
             worst, worstf);
}

/* pot_lj, pot_mic and the cutoff tests of the accumulate bodies. */
static void test_pot_lj_mic(void)
{
    val_system s;
    pot_params p;
    memset(&s, 0, sizeof s);
    s.lj = 1;
    s.eps = EPS;
    s.sigma = SIGMA;
    s.lj_cutoff = 2.5 * SIGMA;
    s.lj_shift = 1;
    params_from(&s, &p);
    /* Shift: E(rc) = 4 eps (2.5^-12 - 2.5^-6) = -0.016316891136 eps (test_reference.c). */
    gsl_test_rel(p.d.lj_eshift, -0.016316891136 * EPS, 1e-12, "LJ shift at 2.5 sigma by hand");
    {
        /* At r^2 = 2^(1/3) sigma^2: E = -eps - E(rc), dE/dr2 = 0. */
        double g;
        const double e = pot_lj_d(&p.d, cbrt(2.0) * SIGMA * SIGMA, &g);
        gsl_test_rel(e, -EPS + 0.016316891136 * EPS, 1e-14,
                     "pot_lj_d at r = 2^(1/6) sigma: E = -eps - E(rc)");
        gsl_test_abs(g, 0.0, 1e-14, "pot_lj_d at the minimum: dE/dr2 = 0");
    }
    {
        /* dE/d(r2) against central differences at r2 = 1.37: E ~ r2^-6, h = 1e-5 r2, error
         * ~ (h/r2)^2 6 7 8 / (6 6) ~ 1e-9. */
        const double r2 = 1.37, h = 1e-5 * r2;
        double g, u;
        pot_lj_d(&p.d, r2, &g);
        const double fd = (pot_lj_d(&p.d, r2 + h, &u) - pot_lj_d(&p.d, r2 - h, &u)) / (2.0 * h);
        gsl_test_rel(g, fd, 1e-8, "pot_lj_d: dE/dr2 = central difference");
    }
    {
        /* Minimum image: L = 3.3, d = 0.6 L -> -0.4 L, -0.7 L -> 0.3 L, 0.2 L unchanged. */
        double d[3] = {0.6 * 3.3, -0.7 * 3.3, 0.2 * 3.3};
        s.box = 3.3;
        params_from(&s, &p);
        pot_mic_d(&p.d, d);
        gsl_test(!(fabs(d[0] + 0.4 * 3.3) < 1e-15 && fabs(d[1] - 0.3 * 3.3) < 1e-15 &&
                   d[2] == 0.2 * 3.3),
                 "pot_mic_d: (0.6, -0.7, 0.2) L -> (-0.4, 0.3, 0.2) L");
        double e[3] = {0.6 * 3.3, -0.7 * 3.3, 0.2 * 3.3};
        s.box = 0.0;
        params_from(&s, &p);
        pot_mic_d(&p.d, e);
        gsl_test(!(e[0] == 0.6 * 3.3 && e[1] == -0.7 * 3.3 && e[2] == 0.2 * 3.3),
                 "pot_mic_d: no-op for open boundaries");
    }
    {
        /* Cutoffs are strict: a side equal to the cutoff is out, with no force. */
        double dij[3] = {1.5, 0, 0}, dik[3] = {0.3, 1.1, 0}, f[9] = {0};
        s.nu = NU;
        s.atm_cutoff = 1.5;
        params_from(&s, &p);
        const double e = triplet_accumulate_d(&p.d, dij, 2.25, dik, dot3(dik, dik), f, f + 3,
                                              f + 6);
        gsl_test(!(e == 0.0 && max_rel(9, f, (const double[9]){0}) == 0.0),
                 "triplet_accumulate_d: a side at the cutoff puts the triplet out");
        p.d.lj_rc2 = 2.25;
        const double e2 = pair_accumulate_d(&p.d, dij, 2.25, f, f + 3);
        gsl_test(!(e2 == 0.0 && max_rel(9, f, (const double[9]){0}) == 0.0),
                 "pair_accumulate_d: a pair at the cutoff is out");
    }
}

/* ---- the bodies against the reference ---- */

enum { OPEN_ATM, OPEN_CUT_LJ, PBC_CUT_LJ, PBC_NOCUT, N_SETUP };
static const char *const setup_name[N_SETUP] = {
    "open, ATM, no cutoff", "open, ATM+LJ, cutoffs 2.1/2.5, shifted",
    "periodic, ATM+LJ, cutoffs 0.45/0.48 L, shifted", "periodic, ATM+LJ, no cutoffs"};

/* Open clusters and periodic boxes at density 0.5 sigma^-3. */
static val_system setup(int kind, int n, const double *pos, double *side)
{
    val_system s;
    const double box = cbrt(n / 0.5);
    memset(&s, 0, sizeof s);
    s.n = n;
    s.pos = pos;
    s.nu = NU;
    s.eps = EPS;
    s.sigma = SIGMA;
    *side = cbrt(n / 0.5);
    switch (kind) {
    case OPEN_CUT_LJ:
        s.atm_cutoff = 2.1;
        s.lj = 1;
        s.lj_cutoff = 2.5;
        s.lj_shift = 1;
        break;
    case PBC_CUT_LJ:
        s.box = box;
        s.atm_cutoff = 0.45 * box;
        s.lj = 1;
        s.lj_cutoff = 0.48 * box;
        s.lj_shift = 1;
        break;
    case PBC_NOCUT:
        s.box = box;
        s.lj = 1;
        break;
    default:
        break;
    }
    return s;
}

/* Double bodies: a different formulation (squared sides vs vectors and cosines) of the same
 * sums, both in double: they differ by rounding, ~1e-16 per term times the conditioning of
 * the sums (terms of both signs), hence 1e-12 with room to spare.
 * Float bodies: positions and every operation in float (unit roundoff u = 6e-8). A
 * coordinate |x| <= 5 sigma rounds by <= 3e-7 sigma, so a separation of 1..2 sigma is off
 * by ~3e-7 relative, which r^-9 (r^-12 for LJ) amplifies ~10x: a few 1e-6 per term at worst,
 * ~2e-7 typically; the cancellation in b + c - a (pot_atm.h) adds ~10 u to 1 + 3 c c c.
 * The energy sums terms of both signs, which multiplies this by their conditioning
 * sum |E_t| / |sum E_t| (printed with each check: 1.3 to ~50 here), and forces, measured
 * against the largest force, by the ratio of the largest contribution to the largest total
 * force. Expected ~1e-5 at worst (measured 1.1e-5 at conditioning 48); 1e-4 leaves a margin
 * of ~10. */
static void test_vs_reference(gsl_rng *rng)
{
    const int sizes[] = {20, 33, 47, 60};
    double pos[3 * NMAX] = {0}, fref[3 * NMAX], fb[3 * NMAX], side;
    double worst[2][2] = {{0, 0}, {0, 0}}; /* [double, float][energy, force] */
    pot_params p;
    for (int kind = 0; kind < N_SETUP; kind++) {
        for (size_t c = 0; c < sizeof sizes / sizeof sizes[0]; c++) {
            const int n = sizes[c];
            double rp, rt, bp, bt, abs_sum;
            val_system s = setup(kind, n, pos, &side);
            random_config(rng, &s, pos, side, 0.9 * SIGMA, 1e-4);
            params_from(&s, &p);
            if (val_reference(&s, fref, &rp, &rt) != 0)
                exit(1);
            for (int prec = 0; prec < 2; prec++) {
                const double tol = prec == 0 ? 1e-12 : 1e-4;
                if (prec == 0)
                    brute_d(&p, n, pos, fb, &bp, &bt, &abs_sum);
                else
                    brute_f(&p, n, pos, fb, &bp, &bt);
                /* Pair, triplet and total energy, each relative to its reference value. */
                double ee = relerr(bt, rt);
                if (s.lj)
                    ee = GSL_MAX(ee, GSL_MAX(relerr(bp, rp), relerr(bp + bt, rp + rt)));
                const double ef = max_rel(3 * n, fb, fref);
                worst[prec][0] = GSL_MAX(worst[prec][0], ee);
                worst[prec][1] = GSL_MAX(worst[prec][1], ef);
                gsl_test(!(ee <= tol),
                         "%s bodies = reference, energies, %s, n=%d (E_pair %.6g, E_atm %.6g, "
                         "conditioning %.3g; rel err %.2e)",
                         prec == 0 ? "double" : "float", setup_name[kind], n, rp, rt,
                         abs_sum / fabs(rp + rt), ee);
                gsl_test(!(ef <= tol), "%s bodies = reference, forces, %s, n=%d (%.2e)",
                         prec == 0 ? "double" : "float", setup_name[kind], n, ef);
            }
        }
    }
    printf("# max relative error vs reference: double bodies E %.2e F %.2e, "
           "float bodies E %.2e F %.2e\n",
           worst[0][0], worst[0][1], worst[1][0], worst[1][1]);
}

int main(void)
{
    tb_test_init();
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 19430101UL);

    test_pot_atm();
    test_pot_atm_part();
    test_pot_atm_dot();
    test_pot_lj_mic();
    test_vs_reference(rng);

    gsl_rng_free(rng);
    return tb_test_done();
}
