/* test_reference_lammps.c — the general form of the independent reference (several species,
 * LAMMPS's restricted triclinic cell, per-axis periodicity; validate/reference.h) against
 * LAMMPS, against finite differences of its own energy, and against the single-species
 * cubic form it extends.
 *
 * LAMMPS cases: tests/lammps/CASE.ref, written by scripts/lammps-reference from Debian's lmp
 * (LAMMPS 29 Sep 2021) on tests/lammps/CASE.in and CASE.data: a binary mixture in an
 * orthorhombic box, a triclinic box with two species, a `p p f` slab and argon in metal
 * units. The reference is unit-agnostic: the numbers are fed as they are (metal: eV, A).
 * The test takes LAMMPS's positions and box from the .ref (LAMMPS may round a position by
 * an ulp when it maps it into its cell) and checks them against the data file to 1e-13.
 * Measures, each to 1e-10: energies |E - E_lmp| / |E_lmp| per sub-style; forces
 * max_m |F_m - F_lmp,m| / max_m |F_lmp,m| (Euclidean norms over atoms m); each virial
 * component |W_c - W_lmp,c| / |W_lmp,c| with W_lmp = p V / nktv2p (compute pressure NULL
 * virial), for the sum of LAMMPS's two stages (lj/cut, then atm) and for the ATM stage alone. LAMMPS sums the virial as sum_i x_i . f_i over owned and ghost atoms, the
 * reference per interaction; both are rounding-level apart (~1e-14 here).
 *
 * Finite differences: forces F = -dE/dx (central, h = 1e-6) and the virial by homogeneous
 * strain, x -> (1 + e) x with the cell h -> (1 + e) h: dE/de_ab = -sum_m x_m,b F_m,a = -W_ba,
 * with e upper triangular (xx yy zz, and the shears x += d y, x += d z, y += d z) so that
 * the strained cell stays restricted triclinic; the virial is symmetric, so W_ab = W_ba.
 * Step 1e-7 (relative strain): truncation ~1e-14, rounding ~eps |E| / 1e-7 ~ 1e-9 |W|, and a
 * cutoff crossing (the ATM energy jumps there) is unlikely at that step; tolerance 1e-6. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "tests/tb_test.h"
#include "validate/reference.h"
#include "tests/tb_lammps.h"

/* The largest difference between the .ref's positions and those of tests/lammps/NAME.data
 * (ids in order), relative to the largest box length; -1 when the file does not read. */
static double data_diff(const lcase *c)
{
    char path[256], line[512];
    snprintf(path, sizeof path, "tests/lammps/%s.data", c->name);
    FILE *fp = fopen(path, "r");
    if (!fp)
        return -1.0;
    int in_atoms = 0, seen = 0;
    double err = 0.0;
    while (fgets(line, sizeof line, fp)) {
        int id, t;
        double x[3];
        if (!strncmp(line, "Atoms", 5)) {
            in_atoms = 1;
            continue;
        }
        if (!in_atoms || sscanf(line, "%d %d %lf %lf %lf", &id, &t, &x[0], &x[1], &x[2]) != 5)
            continue;
        if (id < 1 || id > c->n || t != c->type[id - 1] + 1) {
            fclose(fp);
            return -1.0;
        }
        for (int a = 0; a < 3; a++)
            err = fmax(err, fabs(x[a] - c->pos[3 * (id - 1) + a]));
        seen++;
    }
    fclose(fp);
    const double l = fmax(c->cell.lx, fmax(c->cell.ly, c->cell.lz));
    return seen == c->n ? err / l : -1.0;
}

static val_system sys_of(const lcase *c, const double *pos, const val_cell *cell)
{
    val_system s;
    memset(&s, 0, sizeof s);
    s.n = c->n;
    s.pos = pos;
    s.cell = cell;
    s.n_types = c->nt;
    s.type = c->type;
    s.lj = 1;
    s.lj_shift = c->shift;
    s.lj_eps = c->eps;
    s.lj_sigma = c->sigma;
    s.lj_rc = c->rc;
    s.nu_t = c->nu;
    s.atm_cutoff = c->atm_rc;
    s.atm_cutoff_triple = c->atm_rct;
    return s;
}

static double total(const lcase *c, const double *pos, const val_cell *cell)
{
    val_system s = sys_of(c, pos, cell);
    double ep = NAN, et = NAN;
    if (val_reference(&s, NULL, &ep, &et) != 0)
        return NAN;
    return ep + et;
}

static const char *const wname[6] = {"xx", "yy", "zz", "xy", "xz", "yz"};

/* The reference against LAMMPS's numbers (the measures of the file header). */
static void test_case_lammps(const lcase *c)
{
    static double f[3 * MAXN];
    double ep, et, w[6];
    const double tol = 1e-10;
    const double dd = data_diff(c);
    gsl_test(!(dd >= 0.0 && dd <= 1e-13), "%s: LAMMPS's positions are the data file's (%.3g)",
             c->name, dd);
    val_system s = sys_of(c, c->pos, &c->cell);
    if (val_reference_virial(&s, f, &ep, &et, w) != 0) {
        gsl_test(1, "%s: reference", c->name);
        return;
    }
    const double rl = fabs(ep - c->e_lj) / fabs(c->e_lj), ra = fabs(et - c->e_atm) / fabs(c->e_atm);
    gsl_test(!(rl <= tol), "%s: LJ energy %.17g vs LAMMPS %.17g (rel %.3g)", c->name, ep, c->e_lj, rl);
    gsl_test(!(ra <= tol), "%s: ATM energy %.17g vs LAMMPS %.17g (rel %.3g)", c->name, et, c->e_atm, ra);
    const double rf = tb_force_error(f, c->f, c->n);
    gsl_test(!(rf <= tol), "%s: forces, max |dF| / max |F| = %.3g", c->name, rf);
    for (int k = 0; k < 6; k++) {
        const double wl = c->p_lj[k] * c->volume / c->nktv2p + c->p_atm[k] * c->volume / c->nktv2p;
        const double rw = fabs(w[k] - wl) / fabs(wl);
        gsl_test(!(rw <= tol), "%s: virial W_%s %.17g vs LAMMPS %.17g (rel %.3g)", c->name,
                 wname[k], w[k], wl, rw);
    }
    /* The ATM part alone (LAMMPS's second stage), three orders of magnitude below the LJ's. */
    s.lj = 0;
    if (val_reference_virial(&s, NULL, &ep, &et, w) != 0)
        return;
    for (int k = 0; k < 6; k++) {
        const double wl = c->p_atm[k] * c->volume / c->nktv2p;
        const double rw = fabs(w[k] - wl) / fabs(wl);
        gsl_test(!(rw <= tol), "%s: ATM virial W_%s %.17g vs LAMMPS %.17g (rel %.3g)", c->name,
                 wname[k], w[k], wl, rw);
    }
    /* The volume LAMMPS divides by is the cell's, the open axis's extent included. */
    const double v = c->cell.lx * c->cell.ly * c->cell.lz;
    gsl_test(!(fabs(v - c->volume) <= 1e-13 * v), "%s: volume lx ly lz = %.17g is LAMMPS's %.17g",
             c->name, v, c->volume);
}

/* Forces against central differences of the energy for a few atoms. */
static void test_case_fd_force(const lcase *c)
{
    static double f[3 * MAXN], x[3 * MAXN];
    const double h = 1e-6 * fmin(c->cell.lx, fmin(c->cell.ly, c->cell.lz));
    val_system s = sys_of(c, c->pos, &c->cell);
    double ep, et;
    if (val_reference(&s, f, &ep, &et) != 0) {
        gsl_test(1, "%s: reference", c->name);
        return;
    }
    double err = 0.0, scale = 0.0;
    memcpy(x, c->pos, 3 * (size_t)c->n * sizeof *x);
    for (int m = 0; m < c->n; m += 7)
        for (int a = 0; a < 3; a++) {
            const double x0 = x[3 * m + a];
            x[3 * m + a] = x0 + h;
            const double ep_ = total(c, x, &c->cell);
            x[3 * m + a] = x0 - h;
            const double em_ = total(c, x, &c->cell);
            x[3 * m + a] = x0;
            err = fmax(err, fabs(-(ep_ - em_) / (2.0 * h) - f[3 * m + a]));
            scale = fmax(scale, fabs(f[3 * m + a]));
        }
    gsl_test(!(err <= 1e-6 * scale), "%s: forces vs central differences, max err / max |F| = %.3g",
             c->name, err / scale);
}

/* The strained copy: x -> M x for positions and cell, M = 1 + d e_ab (upper triangular). */
static void strain(const lcase *c, int a, int b, double d, double *x, val_cell *cell)
{
    double M[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    M[a][b] += d;
    const double h[3][3] = {{c->cell.lx, c->cell.xy, c->cell.xz},
                            {0.0, c->cell.ly, c->cell.yz},
                            {0.0, 0.0, c->cell.lz}};
    double g[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            g[i][j] = M[i][0] * h[0][j] + M[i][1] * h[1][j] + M[i][2] * h[2][j];
    *cell = c->cell;
    cell->lx = g[0][0], cell->xy = g[0][1], cell->xz = g[0][2];
    cell->ly = g[1][1], cell->yz = g[1][2], cell->lz = g[2][2];
    for (int m = 0; m < c->n; m++)
        for (int i = 0; i < 3; i++)
            x[3 * m + i] = M[i][0] * c->pos[3 * m] + M[i][1] * c->pos[3 * m + 1] +
                           M[i][2] * c->pos[3 * m + 2];
}

/* The virial against the strain derivative of the energy (file header). */
static void test_case_fd_virial(const lcase *c)
{
    static double x[3 * MAXN];
    static const int ab[6][2] = {{0, 0}, {1, 1}, {2, 2}, {0, 1}, {0, 2}, {1, 2}};
    const double d = 1e-7;
    val_system s = sys_of(c, c->pos, &c->cell);
    double ep, et, w[6], scale = 0.0;
    if (val_reference_virial(&s, NULL, &ep, &et, w) != 0) {
        gsl_test(1, "%s: reference", c->name);
        return;
    }
    for (int k = 0; k < 6; k++)
        scale = fmax(scale, fabs(w[k]));
    for (int k = 0; k < 6; k++) {
        val_cell cp, cm;
        /* W_ba with a <= b: x_a += d x_b gives dE/dd = -sum x_b F_a. */
        strain(c, ab[k][0], ab[k][1], d, x, &cp);
        const double e_p = total(c, x, &cp);
        strain(c, ab[k][0], ab[k][1], -d, x, &cm);
        const double e_m = total(c, x, &cm);
        const double fd = -(e_p - e_m) / (2.0 * d);
        gsl_test(!(fabs(fd - w[k]) <= 1e-6 * scale),
                 "%s: virial W_%s %.10g vs strain derivative %.10g (err / max |W| %.3g)", c->name,
                 wname[k], w[k], fd, fabs(fd - w[k]) / scale);
    }
}

/* The general form with one species in a cubic periodic (and an open) box, and with two
 * species of equal coefficients, equals the single-species form bit for bit (one thread). */
static void test_same_as_cubic(void)
{
    enum { N = 64 };
    static double pos[3 * N];
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 20261124);
    const double L = 5.1234;
    for (int m = 0; m < N; m++) /* a jittered 4x4x4 lattice, spacing L/4 = 1.28 */
        for (int a = 0; a < 3; a++)
            pos[3 * m + a] = L / 4 * ((m >> (2 * a)) % 4 + 0.5 + 0.24 * (gsl_rng_uniform(rng) - 0.5)) - 0.37;
    gsl_rng_free(rng);
#ifdef _OPENMP
    /* Forces are summed over per-thread arrays, equal only to the last ulps across thread
     * schedules (reference.c); bitwise comparisons need one thread. */
    const int threads = omp_get_max_threads();
    omp_set_num_threads(1);
#endif
    for (int periodic = 0; periodic < 2; periodic++)
        for (int nt = 1; nt <= 2; nt++) {
            val_system o, g;
            memset(&o, 0, sizeof o);
            o.n = N;
            o.pos = pos;
            o.box = periodic ? L : 0.0;
            o.nu = 0.7321;
            o.atm_cutoff = 2.2;
            o.atm_cutoff_triple = 2.1;
            o.lj = 1;
            o.eps = 0.8123;
            o.sigma = 1.1234;
            o.lj_cutoff = 2.45;
            o.lj_shift = 1;
            g = o;
            g.box = 0.0;
            const val_cell cell = {L, L, L, 0.0, 0.0, 0.0, {periodic, periodic, periodic}};
            int type[N];
            double eps[4], sig[4], rc[4], nu[8];
            for (int m = 0; m < N; m++)
                type[m] = nt == 2 ? m % 3 == 1 : 0;
            for (int p = 0; p < 4; p++)
                eps[p] = o.eps, sig[p] = o.sigma, rc[p] = o.lj_cutoff;
            for (int p = 0; p < 8; p++)
                nu[p] = o.nu;
            g.cell = &cell;
            g.n_types = nt;
            g.type = type;
            g.lj_eps = eps;
            g.lj_sigma = sig;
            g.lj_rc = rc;
            g.nu_t = nu;
            static double fo[3 * N], fg[3 * N];
            double epo, eto, wo[6], epg, etg, wg[6];
            const int rc_o = val_reference_virial(&o, fo, &epo, &eto, wo);
            const int rc_g = val_reference_virial(&g, fg, &epg, &etg, wg);
            gsl_test(rc_o || rc_g || memcmp(&epo, &epg, sizeof epo) || memcmp(&eto, &etg, sizeof eto) ||
                         memcmp(fo, fg, sizeof fo) || memcmp(wo, wg, sizeof wo) || !(eto != 0.0),
                     "%s, %d species: general form equals the cubic single-species form bit for bit "
                     "(E_pair %.17g / %.17g, E_triplet %.17g / %.17g)",
                     periodic ? "periodic" : "open", nt, epo, epg, eto, etg);
        }
#ifdef _OPENMP
    omp_set_num_threads(threads);
#endif
}

/* The triclinic minimum image against a search over images: in cells tilted to LAMMPS's
 * limits (|xy| <= lx/2, |xz| <= lx/2, |yz| <= ly/2) and with one axis open, the pair energy
 * of two particles with an unshifted LJ cut at rc = half the smallest periodic width (the
 * largest cutoff allowed) equals the sum over the images n in [-4, 4]^3 within rc (at most
 * one, reference.c). The pairs are drawn anywhere in the cell, 20% near the cutoff. */
static void test_images(void)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 777);
    int bad = 0, within = 0, tried = 0;
    double worst = 0.0;
    for (int cfg = 0; cfg < 40; cfg++) {
        val_cell cl = {5.0 + gsl_rng_uniform(rng), 4.5 + gsl_rng_uniform(rng),
                       4.8 + gsl_rng_uniform(rng), 0, 0, 0, {1, 1, cfg % 4 != 3}};
        cl.xy = (gsl_rng_uniform(rng) - 0.5) * cl.lx;
        cl.xz = (gsl_rng_uniform(rng) - 0.5) * cl.lx;
        cl.yz = (gsl_rng_uniform(rng) - 0.5) * cl.ly;
        const double h[3][3] = {{cl.lx, cl.xy, cl.xz}, {0, cl.ly, cl.yz}, {0, 0, cl.lz}};
        /* widths V / |b x c|, V / |a x c|, V / |a x b| */
        const double V = cl.lx * cl.ly * cl.lz;
        const double bxc[3] = {cl.ly * cl.lz, -cl.xy * cl.lz, cl.xy * cl.yz - cl.ly * cl.xz};
        const double axc[3] = {0, -cl.lx * cl.lz, cl.lx * cl.yz};
        const double w[3] = {V / sqrt(bxc[0] * bxc[0] + bxc[1] * bxc[1] + bxc[2] * bxc[2]),
                             V / sqrt(axc[1] * axc[1] + axc[2] * axc[2]), cl.lz};
        double wmin = HUGE_VAL;
        for (int a = 0; a < 3; a++)
            if (cl.periodic[a])
                wmin = fmin(wmin, w[a]);
        const double rc = 0.5 * wmin;
        for (int t = 0; t < 200; t++) {
            double pos[6], sfr[3];
            for (int a = 0; a < 3; a++)
                sfr[a] = 2.0 * gsl_rng_uniform(rng) - 0.5;
            for (int a = 0; a < 3; a++)
                pos[a] = h[a][0] * sfr[0] + h[a][1] * sfr[1] + h[a][2] * sfr[2];
            if (t % 5 == 0) { /* near the cutoff, in a random direction */
                double u[3], n2 = 0.0;
                for (int a = 0; a < 3; a++) {
                    u[a] = gsl_rng_uniform(rng) - 0.5;
                    n2 += u[a] * u[a];
                }
                const double r = rc * (1.0 - 1e-3 * gsl_rng_uniform(rng));
                for (int a = 0; a < 3; a++)
                    pos[3 + a] = pos[a] + r * u[a] / sqrt(n2);
            } else
                for (int a = 0; a < 3; a++)
                    pos[3 + a] = 10.0 * gsl_rng_uniform(rng) - 2.0;
            double brute = 0.0, scale = 0.0;
            int found = 0;
            for (int i = -4; i <= 4; i++)
                for (int j = -4; j <= 4; j++)
                    for (int k = -4; k <= 4; k++) {
                        const int n[3] = {i, j, k};
                        if ((!cl.periodic[0] && i) || (!cl.periodic[1] && j) || (!cl.periodic[2] && k))
                            continue;
                        double d[3], r2 = 0.0;
                        for (int a = 0; a < 3; a++) {
                            d[a] = pos[3 + a] - pos[a];
                            for (int b = 0; b < 3; b++)
                                d[a] += h[a][b] * n[b];
                            r2 += d[a] * d[a];
                        }
                        if (r2 < rc * rc) {
                            const double s6 = 1.0 / (r2 * r2 * r2);
                            brute += 4.0 * (s6 * s6 - s6);
                            scale += 4.0 * (s6 * s6 + s6); /* no cancellation near r = 1 */
                            found++;
                        }
                    }
            val_system s;
            memset(&s, 0, sizeof s);
            s.n = 2;
            s.pos = pos;
            s.cell = &cl;
            s.lj = 1;
            s.eps = 1.0;
            s.sigma = 1.0;
            s.lj_cutoff = rc;
            double ep = NAN;
            val_reference(&s, NULL, &ep, NULL);
            const double err = found ? fabs(ep - brute) / scale : 0.0;
            if (found > 1 || !(found ? err <= 1e-13 : ep == 0.0)) {
                printf("# wrong: %d images within rc, E %.17g, search %.17g\n", found, ep, brute);
                bad++;
            }
            worst = found ? fmax(worst, err) : worst;
            within += found;
            tried++;
        }
    }
    gsl_rng_free(rng);
    gsl_test(bad || within < 1000, "tilted cells: %d pairs (%d within rc = half the smallest width) "
             "equal the image search, at most one image within rc (worst |dE| / 4(s^12 + s^6) %.3g, %d wrong)",
             tried, within, worst, bad);
}

/* Mixing: val_lj_mix against the rules written out. */
static void test_mix(void)
{
    double eps[4] = {1.0, 0.0, 0.0, 0.49}, sig[4] = {1.0, 0.0, 0.0, 1.44}, rc[4] = {2.5, 0, 0, 3.6};
    const unsigned char given[4] = {1, 0, 0, 1};
    val_lj_mix(2, given, 0, eps, sig, rc);
    gsl_test(!(eps[1] == 0.7 && eps[2] == 0.7 && sig[1] == 1.2 && rc[1] == 3.0 && rc[2] == 3.0),
             "geometric mixing: eps 0.7, sigma 1.2, rc 3 (got %.17g %.17g %.17g)", eps[1], sig[1], rc[1]);
    val_lj_mix(2, given, 1, eps, sig, rc);
    gsl_test(!(eps[1] == 0.7 && fabs(sig[1] - 1.22) < 1e-15 && rc[1] == 3.05),
             "arithmetic mixing: eps 0.7, sigma 1.22, rc 3.05 (got %.17g %.17g %.17g)", eps[1], sig[1], rc[1]);
    double e2[4] = {1.0, 0.3, 0.3, 0.49};
    const unsigned char g2[4] = {1, 1, 0, 1};
    val_lj_mix(2, g2, 0, e2, sig, rc);
    gsl_test(!(e2[1] == 0.3 && e2[2] == 0.3), "mixing keeps a given cross pair (got %g %g)", e2[1], e2[2]);
}

int main(void)
{
    tb_test_init();
    static const char *const cases[] = {"mix_ortho", "tri_two", "slab_ppf", "argon_metal"};
    static lcase c;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        if (read_ref(cases[i], &c) != 0) {
            gsl_test(1, "tests/lammps/%s.ref reads", cases[i]);
            continue;
        }
        test_case_lammps(&c);
        test_case_fd_force(&c);
        test_case_fd_virial(&c);
    }
    TB_TEST_RUN(test_same_as_cubic);
    TB_TEST_RUN(test_images);
    TB_TEST_RUN(test_mix);
    return tb_test_done();
}
