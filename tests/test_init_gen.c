/* test_init_gen.c — generated initial states beyond one species in a cube: the counts of
 * system.init.composition (largest remainders) and their seeded shuffle, random and fcc
 * states in orthorhombic, triclinic and ppf-slab boxes (fractions in [0, 1) on periodic axes,
 * inside the extent on an open one, minimum distances by a brute-force image search, 12
 * neighbours on a filled lattice), Maxwell–Boltzmann velocities per species mass, and the
 * random placement's parallel batches and speculated windows of draws from the voxel list: the
 * same positions, bit for bit, as the sequential test (batch 1, window 0, one thread) and as
 * main at 31c9c25 and c99131a, before them (pinned hashes).
 * The configs are built by hand, so this test does not depend on config.c. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/check.h"
#include "solver/io/init.h"
#include "solver/io/init_gen.h"
#include "solver/io/init_vox.h"
#include "solver/state.h"
#include "tests/tb_test.h"

/* n particles of two species (A of mass 1, B of mass 4) in fractions fa, 1 - fa; no box. */
static sim_config two_species(int n, int type, double fa)
{
    sim_config c;
    memset(&c, 0, sizeof c);
    c.system.particles = n;
    c.system.seed = 9071UL;
    c.system.mass = 1.0; /* cfg_load's default; unused with system.species */
    c.system.n_species = 2;
    snprintf(c.system.species[0].name, sizeof c.system.species[0].name, "A");
    snprintf(c.system.species[1].name, sizeof c.system.species[1].name, "B");
    c.system.species[0].mass = 1.0;
    c.system.species[1].mass = 4.0;
    c.system.init.type = type;
    c.system.init.min_distance = 0.9;
    c.system.init.temperature = 1.5;
    c.system.init.n_composition = 2;
    c.system.init.composition[0] = fa;
    c.system.init.composition[1] = 1.0 - fa;
    return c;
}

/* c's box: lengths l, tilts t, origin lo, per-axis periodicity per. */
static void set_box(sim_config *c, const double l[3], const double t[3], const double lo[3],
                    const int per[3])
{
    c->system.box_group = 1;
    c->system.boundary = per[0] && per[1] && per[2] ? CFG_BOUNDARY_PERIODIC : CFG_BOUNDARY_MIXED;
    for (int a = 0; a < 3; a++) {
        c->system.box_lengths[a] = l[a];
        c->system.box_tilt[a] = t[a];
        c->system.box_origin[a] = lo[a];
        c->system.periodic[a] = per[a];
    }
}

static int init_quiet(sim_state *s, const sim_config *c)
{
    char buf[4096];
    int rc;
    tb_test_capture_begin();
    rc = sim_init(s, c);
    tb_test_capture_end(buf, sizeof buf);
    return rc;
}

/* The shortest image of d among the lattice translations i a + j b + k c, |i|,|j|,|k| <= 2
 * along periodic axes: a search independent of box_min_image. */
static double image_dist(const tb_box_d *b, const double d[3])
{
    double best = INFINITY;
    const int rx = b->pbc & 1 ? 2 : 0, ry = b->pbc & 2 ? 2 : 0, rz = b->pbc & 4 ? 2 : 0;
    for (int i = -rx; i <= rx; i++)
        for (int j = -ry; j <= ry; j++)
            for (int k = -rz; k <= rz; k++) {
                const double x = d[0] + i * b->l[0] + j * b->xy + k * b->xz,
                             y = d[1] + j * b->l[1] + k * b->yz, z = d[2] + k * b->l[2];
                const double r = sqrt(x * x + y * y + z * z);
                best = r < best ? r : best;
            }
    return best;
}

static double min_pair(const sim_state *s)
{
    double m = INFINITY;
    for (int i = 0; i < s->n; i++)
        for (int j = i + 1; j < s->n; j++) {
            const double d[3] = {s->pos[3 * i] - s->pos[3 * j], s->pos[3 * i + 1] - s->pos[3 * j + 1],
                                 s->pos[3 * i + 2] - s->pos[3 * j + 2]};
            const double r = image_dist(&s->box, d);
            m = r < m ? r : m;
        }
    return m;
}

/* Every fraction in [-tol, 1 + tol) (tol 0: [0, 1)): on a periodic axis the box, on an open
 * one the given extent. A lattice site on a face of a tilted box comes out of the wrap a
 * rounding off it (sim_place), hence a tolerance there. */
static int inside(const sim_state *s, double tol)
{
    for (int i = 0; i < s->n; i++) {
        double f[3];
        box_fraction_d(&s->box, s->pos + 3 * i, f);
        for (int a = 0; a < 3; a++)
            if (!(f[a] >= -tol && f[a] < 1.0 + tol))
                return 0;
    }
    return 1;
}

static void count_types(const sim_state *s, int count[2])
{
    count[0] = count[1] = 0;
    for (int i = 0; i < s->n; i++)
        count[s->type[i]]++;
}

static void test_counts(void)
{
    static const struct {
        double f[3];
        int nt, n, want[3];
    } cases[] = {
        {{0.8, 0.2, 0}, 2, 10, {8, 2, 0}},
        {{1.0 / 3, 1.0 / 3, 1.0 / 3}, 3, 10, {4, 3, 3}},  /* equal remainders: the first */
        {{0.45, 0.55, 0}, 2, 3, {1, 2, 0}},               /* 1.35, 1.65: B has the larger */
        {{0.1, 0.3, 0.6}, 3, 7, {1, 2, 4}},               /* 0.7, 2.1, 4.2: A's 0.7 */
        {{0.0, 1.0, 0}, 2, 5, {0, 5, 0}},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        int got[3] = {0, 0, 0};
        init_species_counts(cases[k].f, cases[k].nt, cases[k].n, got);
        gsl_test(memcmp(got, cases[k].want, sizeof got) != 0,
                 "counts case %zu: %d %d %d (want %d %d %d)", k, got[0], got[1], got[2],
                 cases[k].want[0], cases[k].want[1], cases[k].want[2]);
    }
}

/* Composition in a random cube and a lattice cluster: counts, determinism, positions those of
 * one species (the species stream is separate). */
static void test_composition(void)
{
    for (int type = CFG_INIT_RANDOM; type <= CFG_INIT_LATTICE; type++) {
        sim_config c = two_species(500, type, 0.7), one;
        sim_state a, b, o;
        int count[2], mixed = 0;
        c.system.boundary = CFG_BOUNDARY_PERIODIC;
        c.system.box = 9.0;
        one = c;
        one.system.init.n_composition = 0;
        gsl_test(init_quiet(&a, &c) != 0 || init_quiet(&b, &c) != 0 || init_quiet(&o, &one) != 0,
                 "%s: sim_init", cfg_init_name(type));
        count_types(&a, count);
        gsl_test(count[0] != 350 || count[1] != 150, "%s: 0.7 of 500 is 350 A, 150 B (%d, %d)",
                 cfg_init_name(type), count[0], count[1]);
        gsl_test(memcmp(a.type, b.type, 500 * sizeof *a.type) ||
                     memcmp(a.pos, b.pos, 1500 * sizeof *a.pos) ||
                     memcmp(a.vel, b.vel, 1500 * sizeof *a.vel),
                 "%s: the same seed gives the same bits", cfg_init_name(type));
        gsl_test(memcmp(a.pos, o.pos, 1500 * sizeof *a.pos) != 0,
                 "%s: positions those of one species", cfg_init_name(type));
        for (int i = 1; i < 350; i++)
            mixed |= a.type[i] != a.type[0];
        gsl_test(!mixed, "%s: species shuffled over the sites", cfg_init_name(type));
        sim_state_free(&b);
        c.system.seed++;
        init_quiet(&b, &c);
        gsl_test(memcmp(a.type, b.type, 500 * sizeof *a.type) == 0,
                 "%s: another seed, another assignment", cfg_init_name(type));
        sim_state_free(&a);
        sim_state_free(&b);
        sim_state_free(&o);
    }
}

static void test_random_boxes(void)
{
    static const struct {
        const char *name;
        double l[3], t[3], lo[3];
        int per[3];
    } boxes[] = {
        {"orthorhombic", {6.0, 5.0, 8.5}, {0, 0, 0}, {0.5, -1.0, 2.0}, {1, 1, 1}},
        {"triclinic", {6.0, 5.5, 7.0}, {1.2, -0.8, 0.9}, {0.3, -0.7, 0.1}, {1, 1, 1}},
        {"ppf slab", {6.0, 6.5, 4.0}, {1.1, 0, 0}, {0.0, 0.0, 1.0}, {1, 1, 0}},
    };
    for (size_t k = 0; k < sizeof boxes / sizeof boxes[0]; k++) {
        sim_config c = two_species(120, CFG_INIT_RANDOM, 0.5);
        sim_state s;
        double zmin = INFINITY, zmax = -INFINITY;
        set_box(&c, boxes[k].l, boxes[k].t, boxes[k].lo, boxes[k].per);
        const int rc = init_quiet(&s, &c);
        gsl_test(rc != 0, "random %s: sim_init returns 0 (%d)", boxes[k].name, rc);
        if (rc != 0)
            continue;
        gsl_test(!inside(&s, 0.0), "random %s: every fraction in [0, 1)", boxes[k].name);
        const double m = min_pair(&s);
        gsl_test(!(m >= 0.9), "random %s: min distance %.6g >= 0.9 by image search",
                 boxes[k].name, m);
        for (int i = 0; i < s.n; i++) {
            zmin = fmin(zmin, s.pos[3 * i + 2]);
            zmax = fmax(zmax, s.pos[3 * i + 2]);
        }
        gsl_test(!(zmin >= boxes[k].lo[2] && zmax < boxes[k].lo[2] + boxes[k].l[2]),
                 "random %s: z in [%g, %g) (%g .. %g)", boxes[k].name, boxes[k].lo[2],
                 boxes[k].lo[2] + boxes[k].l[2], zmin, zmax);
        sim_state_free(&s);
    }
}

static void test_lattice_boxes(void)
{
    /* An orthorhombic box of 4 x 3 x 2 conventional cells of edge a: 96 sites, all 12-fold. */
    const double a = 1.6, l[3] = {4 * a, 3 * a, 2 * a}, zero[3] = {0, 0, 0};
    const int all[3] = {1, 1, 1}, slab[3] = {1, 1, 0};
    sim_config c = two_species(96, CFG_INIT_LATTICE, 0.25);
    sim_state s;
    set_box(&c, l, zero, zero, all);
    gsl_test(init_quiet(&s, &c) != 0, "lattice orthorhombic: sim_init");
    int twelve = 1;
    for (int i = 0; i < s.n; i++) {
        int nb = 0;
        for (int j = 0; j < s.n; j++) {
            const double d[3] = {s.pos[3 * i] - s.pos[3 * j], s.pos[3 * i + 1] - s.pos[3 * j + 1],
                                 s.pos[3 * i + 2] - s.pos[3 * j + 2]};
            nb += j != i && fabs(image_dist(&s.box, d) - a / sqrt(2.0)) < 1e-12;
        }
        twelve &= nb == 12;
    }
    gsl_test(!twelve, "lattice orthorhombic 4x3x2 cells: every site has 12 neighbours at a/sqrt 2");
    gsl_test(fabs(min_pair(&s) - a / sqrt(2.0)) > 1e-12, "lattice orthorhombic: min distance a/sqrt 2");
    gsl_test(!inside(&s, 0.0), "lattice orthorhombic: fractions in [0, 1)");
    sim_state_free(&s);

    /* Triclinic: the sheared lattice inside the cell, its neighbours no closer than the
     * notice's computed distance; a ppf slab: z within [lo, lo + lz). */
    const double lt[3] = {6.4, 6.0, 6.2}, tilt[3] = {1.0, -0.7, 0.6}, lo[3] = {0.2, -0.5, 1.5};
    c = two_species(200, CFG_INIT_LATTICE, 0.5);
    set_box(&c, lt, tilt, lo, all);
    int rc = init_quiet(&s, &c);
    double m = rc == 0 ? min_pair(&s) : 0.0;
    gsl_test(rc != 0 || !inside(&s, 1e-12) || !(m > 0.9),
             "lattice triclinic: fractions in [0, 1) within 1e-12, min distance %.4g > 0.9", m);
    sim_state_free(&s);
    const double tilt_xy[3] = {1.0, 0, 0};
    set_box(&c, lt, tilt_xy, lo, slab);
    rc = init_quiet(&s, &c);
    m = rc == 0 ? min_pair(&s) : 0.0;
    gsl_test(rc != 0 || !inside(&s, 1e-12) || !(m > 0.9),
             "lattice ppf slab: inside the extent, min distance %.4g > 0.9", m);
    sim_state_free(&s);
}

/* Velocities of two species of masses 1 and 4: each species at T (2000 particles: within
 * 6 % at 3 sigma), the total T exact, the total momentum zero. */
static void test_velocities(void)
{
    sim_config c = two_species(2000, CFG_INIT_RANDOM, 0.5);
    sim_state s;
    double k[2] = {0, 0}, p[3] = {0, 0, 0}, pabs = 0;
    int count[2];
    c.system.boundary = CFG_BOUNDARY_PERIODIC;
    c.system.box = 16.0;
    gsl_test(init_quiet(&s, &c) != 0, "velocities: sim_init");
    count_types(&s, count);
    for (int i = 0; i < s.n; i++)
        for (int a = 0; a < 3; a++) {
            const double m = sim_mass(&s, i), v = s.vel[3 * i + a];
            k[s.type[i]] += 0.5 * m * v * v;
            p[a] += m * v;
            pabs += fabs(m * v);
        }
    for (int t = 0; t < 2; t++) {
        const double Tt = 2.0 * k[t] / (3.0 * count[t]);
        gsl_test(fabs(Tt / 1.5 - 1.0) > 0.06, "velocities: species %d (mass %g) at T = %.4g vs 1.5",
                 t, s.mass[t], Tt);
    }
    gsl_test(fabs(sim_temperature(&s) - 1.5) > 1e-13, "velocities: total T exactly 1.5 (%.17g)",
             sim_temperature(&s));
    gsl_test(fabs(p[0]) + fabs(p[1]) + fabs(p[2]) > 1e-13 * pabs,
             "velocities: total momentum sum m v zero (%.3g of %.3g)",
             fabs(p[0]) + fabs(p[1]) + fabs(p[2]), pabs);
    sim_state_free(&s);
}


/* One species, random placement: a periodic cube at density 0.8, min distance 0.9 (the liquid
 * of examples/liquid.cfg), or an open cluster at min distance 1 (cube = 0). */
static sim_config random_one(int n, unsigned long long seed, int cube)
{
    sim_config c;
    memset(&c, 0, sizeof c);
    c.system.particles = n;
    c.system.seed = seed;
    c.system.mass = 1.0;
    c.system.init.type = CFG_INIT_RANDOM;
    c.system.init.min_distance = cube ? 0.9 : 1.0;
    if (cube) {
        const double l = cbrt(n / 0.8), L[3] = {l, l, l}, t[3] = {0}, lo[3] = {0};
        const int per[3] = {1, 1, 1};
        set_box(&c, L, t, lo, per);
    }
    return c;
}

/* Candidates tested in parallel batches, then again in order (init_random.c): every batch size
 * and thread count gives the positions of the sequential test (batch 1, one thread), and those
 * are main's before the batches (the hashes: 31c9c25's library, one thread). Each case passes
 * from plain candidates to the voxel list and splits it, so the stream's rewind is covered. */
static void test_random_batches(void)
{
    static const struct {
        int n, cube;
        unsigned long long seed, hash;
    } cases[] = {
        {2000, 1, 9ULL, 0x865ef17ddb97173fULL},
        {6000, 1, 12345ULL, 0x56c63a33385f772dULL},
        {1500, 0, 1099511627783ULL, 0x82769f9a0b31f8acULL},
    };
    static const int batches[] = {7, 1000, 32768};
    const int batch0 = init_random_batch;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const sim_config c = random_one(cases[k].n, cases[k].seed, cases[k].cube);
        sim_state ref, s;
        init_random_batch = 1;
        omp_set_num_threads(1);
        int rc = init_quiet(&ref, &c);
        gsl_test(rc != 0, "batches n=%d: sequential sim_init returns 0 (%d)", cases[k].n, rc);
        if (rc != 0)
            continue;
        const size_t bytes = 3 * sizeof(double) * (size_t)ref.n;
        const unsigned long long h = tb_test_fnv1a(ref.pos, bytes);
        gsl_test(h != cases[k].hash, "batches n=%d seed=%llu: sequential positions hash %016llx "
                 "= main's %016llx", cases[k].n, cases[k].seed, h, cases[k].hash);
        init_random_window = 0; /* the reference: sequential draws from the list */
        for (size_t b = 0; b < sizeof batches / sizeof batches[0]; b++) {
            init_random_batch = batches[b];
            omp_set_num_threads(2);
            rc = init_quiet(&s, &c);
            gsl_test(rc != 0 || memcmp(s.pos, ref.pos, bytes) != 0,
                     "batches n=%d seed=%llu: batch %d on 2 threads = the sequential positions "
                     "bit for bit", cases[k].n, cases[k].seed, batches[b]);
            if (rc == 0)
                sim_state_free(&s);
        }
        /* the draws from the list in speculated windows (init_draws.c): 64 outputs end a
         * window every few draws (many cut draws, stream rewinds, re-tests of the particles
         * placed in the window), 4096 the default, 1000 on one thread */
        static const int windows[] = {64, 4096, 1000};
        init_random_batch = 32768;
        for (size_t b = 0; b < sizeof windows / sizeof windows[0]; b++) {
            init_random_window = windows[b];
            omp_set_num_threads(b == 2 ? 1 : 2);
            rc = init_quiet(&s, &c);
            gsl_test(rc != 0 || memcmp(s.pos, ref.pos, bytes) != 0,
                     "windows n=%d seed=%llu: draws in windows of %d outputs on %d threads = the "
                     "sequential positions bit for bit", cases[k].n, cases[k].seed, windows[b],
                     b == 2 ? 1 : 2);
            if (rc == 0)
                sim_state_free(&s);
        }
        init_random_window = -1;
        sim_state_free(&ref);
    }
    init_random_batch = batch0;
    omp_set_num_threads(omp_get_num_procs());
}

/* The liquid's 32768 particles (seed 9): a list of over 65536 cubes, where uniform_int's scale
 * stays put across drops, so later draws in a window take slots an earlier drop rewrote (about 3
 * here; ignoring that changes the positions). The sequential draws give main's positions (the
 * hash: main c99131a's library, one thread); windows of 4096 on 2 threads the same bits. */
static void test_random_windows_large(void)
{
    const sim_config c = random_one(32768, 9ULL, 1);
    sim_state ref, s;
    init_random_window = 0;
    omp_set_num_threads(1);
    int rc = init_quiet(&ref, &c);
    gsl_test(rc != 0, "windows n=32768: sequential sim_init returns 0 (%d)", rc);
    if (rc == 0) {
        const size_t bytes = 3 * sizeof(double) * (size_t)ref.n;
        const unsigned long long h = tb_test_fnv1a(ref.pos, bytes);
        gsl_test(h != 0xf36c4a57be318b1aULL,
                 "windows n=32768 seed=9: sequential positions hash %016llx = main's %016llx", h,
                 0xf36c4a57be318b1aULL);
        init_random_window = 4096;
        omp_set_num_threads(2);
        rc = init_quiet(&s, &c);
        gsl_test(rc != 0 || memcmp(s.pos, ref.pos, bytes) != 0,
                 "windows n=32768 seed=9: windows of 4096 on 2 threads = the sequential positions "
                 "bit for bit");
        if (rc == 0)
            sim_state_free(&s);
        sim_state_free(&ref);
    }
    init_random_window = -1;
    omp_set_num_threads(omp_get_num_procs());
}

int main(void)
{
    tb_test_init();
    test_counts();
    test_composition();
    test_random_boxes();
    test_lattice_boxes();
    test_velocities();
    test_random_batches();
    test_random_windows_large();
    return tb_test_done();
}
