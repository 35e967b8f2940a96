/* test_rdf_cells.c — the cell-based RDF histogram (solver/physics/rdf_cells.h) against the
 * all-pairs one (solver/rdf.h, rdf_count_host, itself equal to LAMMPS's compute rdf:
 * test_obs.c): the same integers, bin for bin, on a cube, an orthorhombic and a triclinic cell
 * (particles unwrapped by whole lattice vectors), a ppf slab with a vapour far off its open axis,
 * an open cluster, r_max near and at half the smallest width, lattices whose pairs sit exactly
 * on bin edges and on r_max and whose particles sit exactly on cell faces, two species, and
 * 0, 1, 2 particles; then the plan: cells where they pay, all pairs near half the box. */
#include <gsl/gsl_test.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solver/physics/rdf_cells.h"
#include "solver/rdf.h"
#include "tests/tb_test.h"

static unsigned long long rng_state = 88172645463325252ull;

static double uniform(void) /* xorshift64 in [0, 1) */
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (double)(rng_state >> 11) * (1.0 / 9007199254740992.0);
}

static tb_box_d make_box(double lx, double ly, double lz, double xy, double xz, double yz,
                         const double lo[3], int px, int py, int pz)
{
    const double l[3] = {lx, ly, lz};
    const int per[3] = {px, py, pz};
    return box_make_d(l, xy, xz, yz, lo, per);
}

/* n particles at uniform fractions of box b (open axes: over [lo, lo + l]); every `shift`-th
 * one moved by a whole lattice vector (k a + m b + p c, periodic axes only), as unwrapped
 * positions are. Types 0 / 1 at random when typed. */
static void fill(const tb_box_d *b, int n, int shift, double *pos, int *type)
{
    for (int i = 0; i < n; i++) {
        double u[3] = {uniform(), uniform(), uniform()};
        if (shift > 0 && i % shift == 0)
            for (int a = 0; a < 3; a++)
                if (b->pbc >> a & 1)
                    u[a] += (double)((int)(5.0 * uniform()) - 2);
        pos[3 * i + 0] = b->lo[0] + u[0] * b->l[0] + u[1] * b->xy + u[2] * b->xz;
        pos[3 * i + 1] = b->lo[1] + u[1] * b->l[1] + u[2] * b->yz;
        pos[3 * i + 2] = b->lo[2] + u[2] * b->l[2];
        if (type)
            type[i] = uniform() < 0.3;
    }
}

/* The all-pairs and the cell-based histograms of one frame: equal, and not empty (pairs > 0
 * within r_max, a minimum asked of each case). */
static void same(const char *label, const tb_box_d *b, const double *pos, const int *type, int n,
                 double r_max, int bins, long long want_pairs)
{
    const rdf_spec s = {.r_max = r_max, .bins = bins, .ntypes = type ? 2 : 1};
    const size_t len = (size_t)rdf_npairs(s.ntypes) * (size_t)bins;
    unsigned long long *all = calloc(len, sizeof *all), *cells = calloc(len, sizeof *cells);
    unsigned long long *planned = calloc(len, sizeof *planned);
    double lo[3], hi[3];
    nbr_grid g;
    rdf_extent(pos, n, lo, hi);
    rdf_count_host(&s, b, pos, type, n, all);
    const int made = rdf_grid(&s, b, lo, hi, n, &g);
    const int rc = made == 0 ? rdf_count_cells(&s, &g, pos, type, n, cells) : -1;
    rdf_count(&s, b, pos, type, n, planned);
    long long pairs = 0;
    size_t diff = 0;
    for (size_t k = 0; k < len; k++) {
        pairs += (long long)all[k];
        diff += all[k] != cells[k];
    }
    gsl_test(made != 0 || rc != 0 || diff != 0 || pairs < want_pairs,
             "%s: n = %d, r_max %.17g, %d bins, grid %d x %d x %d: cells = all pairs in every "
             "bin (%zu bins differ; %lld pairs counted, >= %lld)", label, n, r_max, bins,
             g.nc[0], g.nc[1], g.nc[2], diff, pairs, want_pairs);
    gsl_test(memcmp(planned, all, len * sizeof *all) != 0, "%s: the planned count = all pairs",
             label);
    free(all);
    free(cells);
    free(planned);
}

static void test_random_boxes(void)
{
    const int n = 3000;
    double *pos = malloc(3 * (size_t)n * sizeof *pos);
    int *type = malloc((size_t)n * sizeof *type);
    const double o0[3] = {0, 0, 0}, o1[3] = {-1.0, 2.0, 0.5}, o2[3] = {0.3, -0.7, 1.1};
    tb_box_d b = make_box(10, 10, 10, 0, 0, 0, o0, 1, 1, 1);
    fill(&b, n, 0, pos, NULL);
    same("cube", &b, pos, NULL, n, 2.0, 40, 50000);
    fill(&b, n, 7, pos, type);
    same("cube, unwrapped, two species", &b, pos, type, n, 1.3, 26, 10000);

    b = make_box(8, 11, 14, 0, 0, 0, o1, 1, 1, 1);
    fill(&b, n, 5, pos, type);
    same("orthorhombic, two species", &b, pos, type, n, 1.9, 37, 20000);

    b = make_box(9, 10, 11, 2.5, -1.7, 1.2, o2, 1, 1, 1);
    fill(&b, n, 3, pos, type);
    same("triclinic, unwrapped, two species", &b, pos, type, n, 2.2, 44, 20000);
    same("triclinic, r_max = half the smallest width", &b, pos, type, n, box_half_width_d(&b), 50,
         100000);
    same("triclinic, r_max 0.98 of half the smallest width", &b, pos, type, n,
         0.98 * box_half_width_d(&b), 50, 100000);

    /* long and thin: r_max near the half width of the narrow axes, a coarse grid (2 x 2 x 10) */
    b = make_box(6, 6.5, 30, 0, 0, 0, o0, 1, 1, 1);
    fill(&b, n, 4, pos, type);
    same("6 x 6.5 x 30, r_max 2.95", &b, pos, type, n, 2.95, 59, 100000);
    same("6 x 6.5 x 30, r_max 3.0 = half the smallest width", &b, pos, type, n, 3.0, 60, 100000);

    /* ppf slab: a liquid slab in z over [0, 6], a few vapour particles far above and below */
    b = make_box(9, 9, 6, 0, 0, 0, o0, 1, 1, 0);
    fill(&b, n, 6, pos, type);
    for (int i = 0; i < n; i += 97)
        pos[3 * i + 2] += i % 2 ? 25.0 : -13.0;
    same("ppf slab with a vapour", &b, pos, type, n, 1.7, 34, 20000);
    b = make_box(9, 9, 6, 1.5, 0, 0, o0, 1, 1, 0); /* tilted in xy, open z */
    fill(&b, n, 6, pos, type);
    same("ppf slab, tilt xy", &b, pos, type, n, 1.7, 34, 20000);

    /* an open cluster (no periodic axis: the observables refuse it, the count does not) */
    b = make_box(7, 7, 7, 0, 0, 0, o0, 0, 0, 0);
    fill(&b, n, 0, pos, NULL);
    same("open cluster", &b, pos, NULL, n, 1.1, 11, 10000);
    free(pos);
    free(type);
}

/* Simple cubic lattices of spacing 1: pairs at exactly 1, sqrt 2, sqrt 3, 2 (on bin edges and,
 * for r_max = 2, on r_max itself, which the bin rule leaves out), and particles exactly on cell
 * faces (cells of edge 2 at r_max 1.99). */
static void test_lattices(void)
{
    const int m = 12, n = m * m * m;
    double *pos = malloc(3 * (size_t)n * sizeof *pos);
    const double o0[3] = {0, 0, 0};
    for (int i = 0; i < n; i++) {
        pos[3 * i + 0] = i % m;
        pos[3 * i + 1] = i / m % m;
        pos[3 * i + 2] = i / (m * m);
    }
    tb_box_d b = make_box(m, m, m, 0, 0, 0, o0, 1, 1, 1);
    /* within 1.99: 6 at 1, 12 at sqrt 2, 8 at sqrt 3 per particle: 13 n pairs */
    same("sc lattice, faces on cell faces, r_max 1.99", &b, pos, NULL, n, 1.99, 10, 13LL * n);
    same("sc lattice, r_max 2 (pairs on r_max and on bin edges)", &b, pos, NULL, n, 2.0, 8, 13LL * n);
    same("sc lattice, r_max 2, 4 bins (1 = an edge)", &b, pos, NULL, n, 2.0, 4, 13LL * n);
    same("sc lattice, r_max 1.5 = 3/2", &b, pos, NULL, n, 1.5, 3, 9LL * n);
    free(pos);
}

static void test_few(void)
{
    const double o0[3] = {0, 0, 0}, p[6] = {0.1, 0.2, 0.3, 9.9, 0.2, 0.3};
    tb_box_d b = make_box(10, 10, 10, 0, 0, 0, o0, 1, 1, 1);
    same("no particle", &b, p, NULL, 0, 1.0, 10, 0);
    same("one particle", &b, p, NULL, 1, 1.0, 10, 0);
    same("two particles across the wall (r 0.2)", &b, p, NULL, 2, 1.0, 10, 1);
}

/* The plan: cells in the liquid (n = 32768 and 10^6) and at the short ranges of test_obs.c's
 * LAMMPS frames; all pairs at r_max near half these small boxes, and where the grid does not
 * take the box (a tilt along an open axis). */
static void test_plan(void)
{
    struct {
        const char *label;
        double l[3], t[3], r_max;
        int per[3], want;
    } c[] = {
        {"liquid n = 32768, r_max 4.5", {34.470955040510134, 34.470955040510134, 34.470955040510134},
         {0, 0, 0}, 4.5, {1, 1, 1}, 1},
        {"liquid n = 10^6, r_max 4.5", {107.72173450159418, 107.72173450159418, 107.72173450159418},
         {0, 0, 0}, 4.5, {1, 1, 1}, 1},
        {"mix_ortho, r_max 1.25", {7.1, 6.3, 6.7}, {0, 0, 0}, 1.25, {1, 1, 1}, 1},
        {"tri_two, r_max 1.2", {7.0, 6.6, 6.8}, {1.3, -0.9, 0.7}, 1.2, {1, 1, 1}, 1},
        {"mix_ortho, r_max 3.0", {7.1, 6.3, 6.7}, {0, 0, 0}, 3.0, {1, 1, 1}, 0},
        {"tri_two, r_max 2.5", {7.0, 6.6, 6.8}, {1.3, -0.9, 0.7}, 2.5, {1, 1, 1}, 0},
        {"cube 10, r_max 4.9", {10, 10, 10}, {0, 0, 0}, 4.9, {1, 1, 1}, 0},
        {"tilt xy along an open y", {10, 10, 10}, {1.0, 0, 0}, 1.0, {1, 0, 1}, 0},
    };
    const double o0[3] = {0, 0, 0}, lo[3] = {0, 0, 0}, hi[3] = {10, 10, 10};
    for (size_t k = 0; k < sizeof c / sizeof c[0]; k++) {
        const tb_box_d b = make_box(c[k].l[0], c[k].l[1], c[k].l[2], c[k].t[0], c[k].t[1],
                                    c[k].t[2], o0, c[k].per[0], c[k].per[1], c[k].per[2]);
        const rdf_spec s = {.r_max = c[k].r_max, .bins = 10, .ntypes = 1};
        nbr_grid g;
        memset(&g, 0, sizeof g);
        const int got = rdf_plan(&s, &b, lo, hi, 1000000, &g);
        gsl_test(got != c[k].want, "rdf_plan: %s: %s (got %s, grid %d x %d x %d)", c[k].label,
                 c[k].want ? "cells" : "all pairs", got ? "cells" : "all pairs", g.nc[0], g.nc[1],
                 g.nc[2]);
    }
}

int main(void)
{
    tb_test_init();
    TB_TEST_RUN(test_random_boxes);
    TB_TEST_RUN(test_lattices);
    TB_TEST_RUN(test_few);
    TB_TEST_RUN(test_plan);
    return tb_test_done();
}
