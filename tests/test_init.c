/* test_init.c — initial states: random packing (minimum distance, bounds, seeds, failure),
 * fcc lattices (size, neighbour distance, coordination), Maxwell–Boltzmann velocities
 * (zero momentum, exact temperature, reproducibility) and initial states from XYZ files.
 * The configs are built by hand, so this test does not depend on config.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/check.h"
#include "solver/io/init.h"
#include "solver/state.h"
#include "tests/tb_test.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static char errbuf[8192]; /* stderr of the last captured call */

/* The captured stderr as one line, for messages. */
static const char *errline(void)
{
    return tb_test_first_line(errbuf);
}

static int first_line_len(void)
{
    return (int)strcspn(errbuf, "\n");
}

static sim_config make_config(int n, int boundary, double box, int type, double dmin)
{
    sim_config c;
    memset(&c, 0, sizeof c);
    c.system.particles = n;
    c.system.seed = 20240611UL;
    c.system.mass = 2.385;
    c.system.boundary = boundary;
    c.system.box = box;
    c.system.init.type = type;
    c.system.init.min_distance = dmin;
    c.system.init.temperature = 1.234;
    return c;
}

/* sim_init with stderr captured in errbuf. */
static int init_quiet(sim_state *s, const sim_config *c)
{
    int rc;
    tb_test_capture_begin();
    rc = sim_init(s, c);
    tb_test_capture_end(errbuf, sizeof errbuf);
    return rc;
}

static double dist2(const double *a, const double *b, double L)
{
    double r2 = 0.0;
    for (int d = 0; d < 3; d++) {
        double x = a[d] - b[d];
        if (L > 0)
            x -= L * round(x / L);
        r2 += x * x;
    }
    return r2;
}

/* Smallest pair distance, checking all pairs (minimum image when L > 0). */
static double min_pair_all(const sim_state *s, double L)
{
    double m2 = INFINITY;
    for (int i = 0; i < s->n; i++)
        for (int j = i + 1; j < s->n; j++) {
            const double r2 = dist2(s->pos + 3 * i, s->pos + 3 * j, L);
            if (r2 < m2)
                m2 = r2;
        }
    return sqrt(m2);
}

/* Smallest pair distance of an open configuration below dmax, by a sweep along x: every
 * pair closer than dmax is compared, independently of the cell grid in init.c. Returns
 * dmax when no pair is closer. */
static const double *sweep_pos;
static int cmp_x(const void *a, const void *b)
{
    const double xa = sweep_pos[3 * *(const int *)a], xb = sweep_pos[3 * *(const int *)b];
    return (xa > xb) - (xa < xb);
}

static double min_pair_sweep(const sim_state *s, double dmax)
{
    int *idx = malloc((size_t)s->n * sizeof *idx);
    double m = dmax;
    for (int i = 0; i < s->n; i++)
        idx[i] = i;
    sweep_pos = s->pos;
    qsort(idx, (size_t)s->n, sizeof *idx, cmp_x);
    for (int a = 0; a < s->n; a++) {
        const double *p = s->pos + 3 * idx[a];
        for (int b = a + 1; b < s->n && s->pos[3 * idx[b]] - p[0] < m; b++) {
            const double r = sqrt(dist2(p, s->pos + 3 * idx[b], 0.0));
            if (r < m)
                m = r;
        }
    }
    free(idx);
    return m;
}

static double max_radius(const sim_state *s)
{
    double m = 0.0;
    for (int i = 0; i < s->n; i++) {
        const double *p = s->pos + 3 * i, r = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
        if (r > m)
            m = r;
    }
    return m;
}

static int inside_box(const sim_state *s, double L)
{
    for (int i = 0; i < 3 * s->n; i++)
        if (!(s->pos[i] >= 0.0 && s->pos[i] < L))
            return 0;
    return 1;
}

static int same_bits(const sim_state *a, const sim_state *b)
{
    return a->n == b->n && !memcmp(a->pos, b->pos, 3 * (size_t)a->n * sizeof *a->pos) &&
           !memcmp(a->vel, b->vel, 3 * (size_t)a->n * sizeof *a->vel);
}

/* |total momentum| / sum of |m v|: 0 up to rounding. */
static double momentum_ratio(const sim_state *s)
{
    double P[3] = {0, 0, 0}, sum = 0.0;
    for (int i = 0; i < s->n; i++)
        for (int d = 0; d < 3; d++) {
            P[d] += s->mass[0] * s->vel[3 * i + d];
            sum += fabs(s->mass[0] * s->vel[3 * i + d]);
        }
    return sum > 0 ? sqrt(P[0] * P[0] + P[1] * P[1] + P[2] * P[2]) / sum : 0.0;
}

static void test_random_open(void)
{
    const int n = 1000;
    const double dmin = 0.9, R = cbrt(3.0 * n / (4.0 * M_PI * 0.7));
    sim_config c = make_config(n, CFG_BOUNDARY_OPEN, 0.0, CFG_INIT_RANDOM, dmin);
    sim_state a, b;
    int rc = init_quiet(&a, &c);
    double dm;
    gsl_test(rc != 0, "random open: sim_init returns 0 (%s)", errline());
    gsl_test(a.n != n || a.mass[0] != 2.385 || a.box.pbc != 0, "random open: n, mass, box = 0");
    dm = min_pair_all(&a, 0.0);
    gsl_test(dm < dmin, "random open n=%d: every pair >= min_distance %g (min %.6f)", n, dmin, dm);
    gsl_test(max_radius(&a) >= R, "random open: all inside the default radius %.4f (max %.4f)", R,
             max_radius(&a));
    /* The sphere is filled, not a corner of it: the farthest point is near R. */
    gsl_test(max_radius(&a) < 0.95 * R, "random open: the sphere is filled (max r %.4f)",
             max_radius(&a));
    /* Velocities follow at the configured temperature; 1e-13: a few roundings. */
    gsl_test(fabs(sim_temperature(&a) / 1.234 - 1) > 1e-13, "random open: temperature = 1.234");
    gsl_test(momentum_ratio(&a) > 1e-12, "random open: zero total momentum");

    rc = init_quiet(&b, &c);
    gsl_test(rc != 0 || !same_bits(&a, &b), "random open: same seed, same bits");
    sim_state_free(&b);
    c.system.seed++;
    rc = init_quiet(&b, &c);
    gsl_test(rc != 0 || !memcmp(a.pos, b.pos, 3 * n * sizeof *a.pos) ||
                 !memcmp(a.vel, b.vel, 3 * n * sizeof *a.vel),
             "random open: another seed, other positions and velocities");
    sim_state_free(&b);
    /* mt19937 takes 32 bits; the high half of a 64-bit seed still counts. */
    c.system.seed = 20240611UL + (1UL << 40);
    rc = init_quiet(&b, &c);
    gsl_test(rc != 0 || !memcmp(a.pos, b.pos, 3 * n * sizeof *a.pos),
             "random open: seeds differing above bit 32 differ");
    sim_state_free(&b);
    sim_state_free(&a);

    /* An explicit radius, and the dense end: density 0.95 at min_distance 0.8. */
    c = make_config(400, CFG_BOUNDARY_OPEN, 0.0, CFG_INIT_RANDOM, 0.8);
    c.system.init.radius = cbrt(3.0 * 400 / (4.0 * M_PI * 0.95));
    rc = init_quiet(&a, &c);
    gsl_test(rc != 0 || min_pair_all(&a, 0.0) < 0.8 || max_radius(&a) >= c.system.init.radius,
             "random open, radius %.4f: min_distance kept, inside (%s)", c.system.init.radius,
             errbuf);
    sim_state_free(&a);

    /* min_distance 0: no rejection at all. */
    c = make_config(500, CFG_BOUNDARY_OPEN, 0.0, CFG_INIT_RANDOM, 0.0);
    c.system.init.radius = 2.385;
    rc = init_quiet(&a, &c);
    gsl_test(rc != 0 || max_radius(&a) >= 2.385, "random open, min_distance 0: inside radius");
    sim_state_free(&a);
}

static void test_random_periodic(void)
{
    const int n = 800;
    const double dmin = 0.95, L = cbrt(n / 0.6);
    sim_config c = make_config(n, CFG_BOUNDARY_PERIODIC, L, CFG_INIT_RANDOM, dmin);
    sim_state a, b;
    int rc = init_quiet(&a, &c);
    double dm;
    gsl_test(rc != 0 || a.box.l[0] != L || a.box.pbc != TB_BOX_PERIODIC_ALL, "random periodic: sim_init returns 0, box = L (%s)", errline());
    dm = min_pair_all(&a, L);
    gsl_test(dm < dmin, "random periodic: every minimum-image pair >= %g (min %.6f)", dmin, dm);
    gsl_test(!inside_box(&a, L), "random periodic: all in [0, L)^3");
    rc = init_quiet(&b, &c);
    gsl_test(rc != 0 || !same_bits(&a, &b), "random periodic: same seed, same bits");
    sim_state_free(&a);
    sim_state_free(&b);

    /* A box under 3 min_distance wide: one cell, wrap checked against every particle. */
    c = make_config(12, CFG_BOUNDARY_PERIODIC, 2.5, CFG_INIT_RANDOM, 0.9);
    rc = init_quiet(&a, &c);
    gsl_test(rc != 0 || min_pair_all(&a, 2.5) < 0.9 || !inside_box(&a, 2.5),
             "random periodic, small box: minimum images kept (%s)", errline());
    sim_state_free(&a);
}

static void test_random_large(void)
{
    const int n = 100000;
    const double dmin = 0.9, R = cbrt(3.0 * n / (4.0 * M_PI * 0.7));
    sim_config c = make_config(n, CFG_BOUNDARY_OPEN, 0.0, CFG_INIT_RANDOM, dmin);
    sim_state a;
    const clock_t t0 = clock();
    int rc = init_quiet(&a, &c);
    const double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    double dm;
    /* 5 s: a cell-grid packing takes well under a second; O(n^2) checks would take minutes. */
    gsl_test(rc != 0 || secs > 5.0, "random open n=%d: packed in %.2f s", n, secs);
    dm = min_pair_sweep(&a, 2.0);
    gsl_test(dm < dmin, "random open n=%d: every pair >= %g (min %.6f, x sweep)", n, dmin, dm);
    gsl_test(max_radius(&a) >= R, "random open n=%d: all inside radius %.3f", n, R);
    sim_state_free(&a);
}

/* Near the jamming limit (the defaults: density 0.7, min_distance 1), where most
 * particles come from the voxel list. */
static void test_random_dense(void)
{
    const int n = 20000;
    const double R = cbrt(3.0 * n / (4.0 * M_PI * 0.7)), L = cbrt(4000 / 0.7);
    sim_config c = make_config(n, CFG_BOUNDARY_OPEN, 0.0, CFG_INIT_RANDOM, 1.0);
    sim_state a, b;
    double com[3] = {0, 0, 0}, dm;
    int rc = init_quiet(&a, &c), inner = 0, oct[8] = {0}, worst = 0;
    gsl_test(rc != 0, "random dense n=%d: sim_init returns 0 (%s)", n, errline());
    dm = min_pair_sweep(&a, 2.0);
    gsl_test(dm < 1.0, "random dense: every pair >= 1 (min %.6f, x sweep)", dm);
    gsl_test(max_radius(&a) >= R, "random dense: all inside radius %.3f", R);
    for (int i = 0; i < n; i++) {
        const double *p = a.pos + 3 * i;
        for (int d = 0; d < 3; d++)
            com[d] += p[d] / n;
        inner += p[0] * p[0] + p[1] * p[1] + p[2] * p[2] < 0.25 * R * R;
    }
    /* Uniform: the mean sits within a few R / sqrt(5 n) = 0.07 of the centre, and the ball
     * of radius R/2 holds 1/8 of the particles (2500; 10 %: the wall layers of the
     * sphere shift a little weight outward, and the counts are sub-Poissonian). */
    gsl_test(fabs(com[0]) + fabs(com[1]) + fabs(com[2]) > 0.5,
             "random dense: centre of mass near the origin (%.3f %.3f %.3f)", com[0], com[1],
             com[2]);
    gsl_test(fabs(inner - n / 8.0) > 0.1 * n / 8, "random dense: 1/8 inside R/2 (%d of %d)", inner,
             n);
    rc = init_quiet(&b, &c);
    gsl_test(rc != 0 || !same_bits(&a, &b), "random dense: same seed, same bits");
    sim_state_free(&a);
    sim_state_free(&b);

    c = make_config(4000, CFG_BOUNDARY_PERIODIC, L, CFG_INIT_RANDOM, 1.0);
    rc = init_quiet(&a, &c);
    dm = min_pair_all(&a, L);
    gsl_test(rc != 0 || dm < 1.0 || !inside_box(&a, L),
             "random dense periodic n=4000: minimum-image pairs >= 1 (min %.6f), in the box", dm);
    for (int i = 0; i < a.n; i++) {
        const double *p = a.pos + 3 * i;
        oct[(p[0] >= L / 2) + 2 * (p[1] >= L / 2) + 4 * (p[2] >= L / 2)]++;
    }
    for (int k = 0; k < 8; k++)
        if (abs(oct[k] - 500) > worst)
            worst = abs(oct[k] - 500);
    /* 500 per octant; 50 is 2.4 Poisson sigma, and these counts vary less than Poisson. */
    gsl_test(worst > 50, "random dense periodic: 500 per octant (worst off by %d)", worst);
    sim_state_free(&a);
}

static void test_random_impossible(void)
{
    sim_config c = make_config(100, CFG_BOUNDARY_OPEN, 0.0, CFG_INIT_RANDOM, 1.2);
    sim_state s;
    const char *want = "tribody: system.init.min_distance: cannot place particle ";
    int rc, k;
    c.system.init.radius = 1.5;
    rc = init_quiet(&s, &c);
    gsl_test(rc != TB_EXIT_USAGE, "impossible packing (open): TB_EXIT_USAGE (got %d)", rc);
    gsl_test(strncmp(errbuf, want, strlen(want)) != 0 ||
                 !strstr(errbuf, " of 100 at min_distance 1.2 in radius 1.5 (lower min_distance "
                                 "or raise system.init.radius)\n") ||
                 sscanf(errbuf + strlen(want), "%d", &k) != 1 || k < 2 || k > 100,
             "impossible packing (open): message (got \"%.*s\")", first_line_len(), errbuf);
    gsl_test(s.pos != NULL, "impossible packing: the state is freed");
    sim_state_free(&s);

    c = make_config(50, CFG_BOUNDARY_PERIODIC, 2.0, CFG_INIT_RANDOM, 1.0);
    rc = init_quiet(&s, &c);
    gsl_test(rc != TB_EXIT_USAGE || !strstr(errbuf, "in box 2 (lower min_distance or raise "
                                                    "system.box)"),
             "impossible packing (periodic): TB_EXIT_USAGE, message (got \"%.*s\")",
             first_line_len(), errbuf);
    sim_state_free(&s);
}

/* Neighbours of site i within (1 + 1e-9) d, and the closest distance to any other site. */
static int coordination(const sim_state *s, int i, double d, double L, double *closest)
{
    int k = 0;
    *closest = INFINITY;
    for (int j = 0; j < s->n; j++) {
        double r;
        if (j == i)
            continue;
        r = sqrt(dist2(s->pos + 3 * i, s->pos + 3 * j, L));
        if (r < *closest)
            *closest = r;
        k += r < d * (1 + 1e-9);
    }
    return k;
}

static void test_lattice_open(void)
{
    const double d = 1.1224620483093730; /* 2^(1/6), the LJ minimum */
    sim_config c = make_config(13, CFG_BOUNDARY_OPEN, 0.0, CFG_INIT_LATTICE, d);
    sim_state s, t;
    double closest, com[3] = {0, 0, 0}, dm;
    int rc = init_quiet(&s, &c), k, centre = 0, ok = 1;

    /* 13: a site and its 12 neighbours, the cuboctahedron. */
    gsl_test(rc != 0 || s.n != 13, "lattice open n=13: sim_init returns 0 (%s)", errline());
    for (int i = 0; i < 13; i++) {
        const double r = sqrt(dist2(s.pos + 3 * i, com, 0.0));
        if (r < 1e-12)
            centre = i;
        else
            ok &= fabs(r - d) < 1e-12 * d;
    }
    gsl_test(!ok || coordination(&s, centre, d, 0.0, &closest) != 12,
             "lattice open n=13: cuboctahedron, 12 sites at d around the centre");
    sim_state_free(&s);

    c.system.particles = 200;
    rc = init_quiet(&s, &c);
    gsl_test(rc != 0 || s.n != 200, "lattice open n=200: 200 sites");
    for (int i = 0; i < s.n; i++)
        for (int a = 0; a < 3; a++)
            com[a] += s.pos[3 * i + a] / s.n;
    gsl_test(fabs(com[0]) + fabs(com[1]) + fabs(com[2]) > 1e-12,
             "lattice open: centre of mass at the origin (%.3g %.3g %.3g)", com[0], com[1], com[2]);
    dm = min_pair_all(&s, 0.0);
    /* 1e-12: the sites are exact multiples of d / sqrt 2 shifted by the centre of mass. */
    gsl_test(fabs(dm - d) > 1e-12 * d, "lattice open: nearest-neighbour distance = d (%.17g)", dm);
    for (int i = 0; i < s.n; i++)
        if (dist2(s.pos + 3 * i, com, 0.0) < dist2(s.pos + 3 * centre, com, 0.0))
            centre = i;
    k = coordination(&s, centre, d, 0.0, &closest);
    gsl_test(k != 12 || fabs(closest - d) > 1e-12 * d,
             "lattice open: an interior site has 12 neighbours at d (got %d)", k);
    /* Compact: the n sites nearest the centre fit in a ball not much larger than their volume. */
    gsl_test(max_radius(&s) > 1.25 * cbrt(3.0 * 200 / (4 * M_PI) / (sqrt(2.0) / (d * d * d))),
             "lattice open: compact cluster (max r %.3f)", max_radius(&s));
    rc = init_quiet(&t, &c);
    gsl_test(rc != 0 || !same_bits(&s, &t), "lattice open: reproducible bit for bit");
    sim_state_free(&s);
    sim_state_free(&t);

    c.system.particles = 100000;
    rc = init_quiet(&s, &c);
    dm = min_pair_sweep(&s, 2.0 * d);
    gsl_test(rc != 0 || fabs(dm - d) > 1e-12 * d, "lattice open n=100000: neighbour distance d");
    sim_state_free(&s);

    c.system.init.min_distance = 0.0;
    rc = init_quiet(&s, &c);
    gsl_test(rc != TB_EXIT_USAGE || !strstr(errbuf, "system.init.min_distance must be > 0"),
             "lattice open, min_distance 0: TB_EXIT_USAGE (got \"%.*s\")", first_line_len(),
             errbuf);
    sim_state_free(&s);
}

static void test_lattice_periodic(void)
{
    /* 108 = 4 * 3^3: the full lattice, every site with 12 neighbours under minimum image. */
    const double nn = 1.0873, a = nn * sqrt(2.0), L = 3 * a;
    sim_config c = make_config(108, CFG_BOUNDARY_PERIODIC, L, CFG_INIT_LATTICE, 0.5);
    sim_state s;
    double closest, worst = 0.0;
    int rc = init_quiet(&s, &c), all12 = 1;
    gsl_test(rc != 0 || s.n != 108 || s.box.l[0] != L, "lattice periodic n=108: sim_init returns 0");
    gsl_test(errbuf[0] != '\0', "lattice periodic n=108: no notice (got \"%.*s\")",
             first_line_len(), errbuf);
    gsl_test(!inside_box(&s, L), "lattice periodic: all sites in [0, L)^3");
    for (int i = 0; i < s.n; i++) {
        all12 &= coordination(&s, i, nn, L, &closest) == 12;
        if (fabs(closest - nn) > worst)
            worst = fabs(closest - nn);
    }
    gsl_test(!all12, "lattice periodic: the box is filled, every site has 12 neighbours");
    gsl_test(worst > 1e-12 * nn, "lattice periodic: neighbour distance L / (m sqrt 2) (err %.3g)",
             worst);
    sim_state_free(&s);

    /* 100 sites: m = 3 still, 8 vacancies; the neighbour distance stays a / sqrt 2. */
    c.system.particles = 100;
    rc = init_quiet(&s, &c);
    gsl_test(rc != 0 || s.n != 100 || fabs(min_pair_all(&s, L) - nn) > 1e-12 * nn ||
                 !inside_box(&s, L),
             "lattice periodic n=100: 100 sites of the 3^3-cell lattice");
    sim_state_free(&s);

    /* Compressed: 108 sites in a box of 2 sigma. */
    c.system.particles = 108;
    c.system.box = 2.0;
    rc = init_quiet(&s, &c);
    gsl_test(rc != 0 || !strstr(errbuf, "the lattice is compressed"),
             "lattice periodic, box 2: compressed-lattice notice (got \"%.*s\")", first_line_len(),
             errbuf);
    sim_state_free(&s);
}

static void test_velocities(void)
{
    const int n = 500;
    const double T = 1.234, m = 2.385;
    sim_state a, b;
    double var = 0.0;
    int zero = 1;

    sim_state_alloc(&a, n);
    sim_state_alloc(&b, n);
    a.mass[0] = b.mass[0] = m;
    sim_init_velocities(&a, T, 77);
    sim_init_velocities(&b, T, 77);
    /* 1e-12: sums of 500 terms of either sign, relative to the sum of magnitudes. */
    gsl_test(momentum_ratio(&a) > 1e-12, "velocities: total momentum zero (ratio %.3g)",
             momentum_ratio(&a));
    /* 1e-13: one square root and a rescale, a few roundings. */
    gsl_test(fabs(sim_temperature(&a) - T) > 1e-13 * T,
             "velocities: temperature exactly %g (%.17g)", T, sim_temperature(&a));
    gsl_test(memcmp(a.vel, b.vel, 3 * n * sizeof *a.vel) != 0, "velocities: same seed, same bits");
    sim_init_velocities(&b, T, 78);
    gsl_test(memcmp(a.vel, b.vel, 3 * n * sizeof *a.vel) == 0, "velocities: another seed differs");
    /* Per-component variance T/m (exact up to the (3n-3)/3n of the removed momentum). */
    for (int i = 0; i < 3 * n; i++)
        var += a.vel[i] * a.vel[i] / (3 * n);
    gsl_test(fabs(var / (T / m) - (3.0 * n - 3) / (3.0 * n)) > 1e-12,
             "velocities: <v^2> = T/m (%.6g vs %.6g)", var, T / m);
    sim_init_velocities(&a, 0.0, 77);
    for (int i = 0; i < 3 * n; i++)
        zero &= a.vel[i] == 0.0;
    gsl_test(!zero, "velocities: T = 0 gives zero velocities");
    sim_state_free(&a);
    sim_state_free(&b);
}

static void test_from_xyz(void)
{
    char path[] = "/tmp/tb_test_init_XXXXXX";
    const int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w");
    sim_config c = make_config(3, CFG_BOUNDARY_OPEN, 0.0, CFG_INIT_XYZ, 0.0);
    sim_state s;
    int rc;

    fputs("3\nProperties=species:S:1:pos:R:3:vel:R:3\n"
          "Ar 0 0 0 0.5 0 0\nKr 1.5 0 0 -0.25 0 0\nXe 0 1.5 0 -0.25 0.125 0\n",
          f);
    fclose(f);
    snprintf(c.system.init.file, sizeof c.system.init.file, "%s", path);
    c.system.init.temperature_set = 0;
    c.system.species_given = 1; /* Ar, Kr, Xe: types 0, 2, 1 by name */
    c.system.n_species = 3;
    static const char *const names[3] = {"Ar", "Xe", "Kr"};
    for (int t = 0; t < 3; t++) {
        snprintf(c.system.species[t].name, TB_SPECIES_MAX, "%s", names[t]);
        c.system.species[t].mass = 2.385 * (t + 1);
    }
    rc = init_quiet(&s, &c);
    gsl_test(rc != 0 || s.pos[3] != 1.5 || s.vel[0] != 0.5 || s.vel[7] != 0.125 ||
                 s.type[0] != 0 || s.type[1] != 2 || s.type[2] != 1 ||
                 strcmp(s.type_name[s.type[2]], "Xe") != 0 || s.mass[2] != 3 * 2.385,
             "xyz: positions, velocities and species (types by name in system.species) from "
             "the file (%s)", errline());
    sim_state_free(&s);

    /* An explicit temperature replaces the file's velocities (docs/config.md). */
    c.system.init.temperature_set = 1;
    rc = init_quiet(&s, &c);
    gsl_test(rc != 0 || s.pos[3] != 1.5 || s.vel[0] == 0.5 ||
                 fabs(sim_temperature(&s) - c.system.init.temperature) > 1e-12,
             "xyz: explicit temperature replaces the file's velocities (T = %g)", sim_temperature(&s));
    gsl_test(!strstr(errbuf, "system.init.temperature = 1.234 replaces the velocities"),
             "xyz: notice that the file's velocities are replaced (got \"%.*s\")", first_line_len(),
             errbuf);
    sim_state_free(&s);

    c.system.init.temperature_set = 0;
    rc = init_quiet(&s, &c);
    gsl_test(rc != 0 || errbuf[0] != '\0', "xyz: no notice without an explicit temperature");
    sim_state_free(&s);

    f = fopen(path, "w");
    fputs("3\nplain\nAr 0 0 0\nAr 1.5 0 0\nAr 0 1.5 0\n", f);
    fclose(f);
    rc = init_quiet(&s, &c);
    gsl_test(rc != 0 || fabs(sim_temperature(&s) - 1.234) > 1e-13,
             "xyz without velocities: Maxwell-Boltzmann at the temperature");
    sim_state_free(&s);

    c.system.particles = 4;
    rc = init_quiet(&s, &c);
    gsl_test(rc != TB_EXIT_USAGE || !strstr(errbuf, ":1: system.init.file has 3 atoms but "
                                                    "system.particles = 4") || s.pos != NULL,
             "xyz with the wrong count: TB_EXIT_USAGE, state freed (got \"%.*s\")",
             first_line_len(), errbuf);
    sim_state_free(&s);
    unlink(path);
}

static void test_bad_config(void)
{
    sim_config c = make_config(10, CFG_BOUNDARY_PERIODIC, 0.0, CFG_INIT_RANDOM, 0.5);
    sim_state s;
    int rc = init_quiet(&s, &c);
    gsl_test(rc != TB_EXIT_USAGE || !strstr(errbuf, "system.box must be > 0"),
             "periodic with box 0: TB_EXIT_USAGE");
    sim_state_free(&s);
    c = make_config(10, CFG_BOUNDARY_OPEN, 0.0, CFG_INIT_RANDOM, 0.5);
    c.system.mass = 0.0;
    rc = init_quiet(&s, &c);
    gsl_test(rc != TB_EXIT_USAGE || !strstr(errbuf, "system.mass must be > 0"),
             "mass 0: TB_EXIT_USAGE");
    sim_state_free(&s);
}

int main(void)
{
    tb_test_init();
    test_random_open();
    test_random_periodic();
    test_random_large();
    test_random_dense();
    test_random_impossible();
    test_lattice_open();
    test_lattice_periodic();
    test_velocities();
    test_from_xyz();
    test_bad_config();
    return tb_test_done();
}
