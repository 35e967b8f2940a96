/* test_init_par.c — the parallel random placement (system.init.placement = "parallel",
 * solver/io/init_par.c): the same positions bit for bit on 1, 2, 4 and 16 threads (and a pinned
 * hash, so that a change of them is seen), exactly N particles, no pair closer than min_distance
 * (every pair within reach, by a cell list of this file's own; brute force with an image search
 * in triclinic, slab and cluster domains), a uniform density (chi^2 of the counts in 4^3 blocks
 * and in the 8 colours of the placement's cells: the colours run in turn, so a bias of the
 * order would show there), a pair distribution g(r) within the noise of the sequential
 * placement's at the liquid's state point, and the species' counts with a composition.
 * The configs are built by hand, so this test does not depend on config.c. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/check.h"
#include "solver/io/init.h"
#include "solver/io/init_gen.h"
#include "solver/state.h"
#include "tests/tb_test.h"

static int init_quiet(sim_state *s, const sim_config *c)
{
    char buf[4096];
    tb_test_capture_begin();
    const int rc = sim_init(s, c);
    tb_test_capture_end(buf, sizeof buf);
    return rc;
}

/* The liquid of examples/liquid.cfg: a periodic cube at density 0.8, min distance 0.9. */
static sim_config liquid(int n, unsigned long long seed, int placement)
{
    sim_config c;
    memset(&c, 0, sizeof c);
    c.system.particles = n;
    c.system.seed = seed;
    c.system.mass = 1.0;
    c.system.init.type = CFG_INIT_RANDOM;
    c.system.init.placement = placement;
    c.system.init.min_distance = 0.9;
    c.system.boundary = CFG_BOUNDARY_PERIODIC;
    c.system.box = cbrt(n / 0.8);
    for (int a = 0; a < 3; a++)
        c.system.periodic[a] = 1;
    return c;
}

/* The shortest pair distance of a periodic cube by its own cell list (cells >= rc wide, the
 * minimum image by rint), and the pairs closer than rc counted into hist (nb bins of width
 * rc / nb from 0) when given. */
static double cube_pairs(const sim_state *s, double rc, long *hist, int nb)
{
    const double L = s->box.l[0];
    const int m = (int)floor(L / rc) < 3 ? 1 : (int)floor(L / rc);
    int *head = malloc((size_t)m * m * m * sizeof *head), *next = malloc((size_t)s->n * sizeof *next);
    double best = INFINITY;
    for (int k = 0; k < m * m * m; k++)
        head[k] = -1;
    for (int i = 0; i < s->n; i++) {
        int c[3];
        for (int a = 0; a < 3; a++) {
            const double u = s->pos[3 * i + a] / L;
            c[a] = (int)floor((u - floor(u)) * m) % m;
        }
        const int k = (c[2] * m + c[1]) * m + c[0];
        next[i] = head[k];
        head[k] = i;
    }
    for (int cz = 0; cz < m; cz++)
        for (int cy = 0; cy < m; cy++)
            for (int cx = 0; cx < m; cx++)
                for (int i = head[(cz * m + cy) * m + cx]; i >= 0; i = next[i])
                    for (int dz = m > 1 ? -1 : 0; dz <= (m > 1 ? 1 : 0); dz++)
                        for (int dy = m > 1 ? -1 : 0; dy <= (m > 1 ? 1 : 0); dy++)
                            for (int dx = m > 1 ? -1 : 0; dx <= (m > 1 ? 1 : 0); dx++) {
                                const int k = (((cz + dz + m) % m) * m + (cy + dy + m) % m) * m +
                                              (cx + dx + m) % m;
                                for (int j = head[k]; j >= 0; j = next[j]) {
                                    if (j <= i)
                                        continue;
                                    double r2 = 0;
                                    for (int a = 0; a < 3; a++) {
                                        double d = s->pos[3 * i + a] - s->pos[3 * j + a];
                                        d -= L * rint(d / L);
                                        r2 += d * d;
                                    }
                                    const double r = sqrt(r2);
                                    best = r < best ? r : best;
                                    if (hist && r < rc)
                                        hist[(int)(r / rc * nb)]++;
                                }
                            }
    free(head);
    free(next);
    return best;
}

/* The same bits on 1, 2, 4, 16 threads; exactly n; the pinned hash of 1's positions. */
static void test_threads(void)
{
    static const struct {
        int n;
        unsigned long long seed, hash;
    } cases[] = {{6000, 9ULL, 0x5e2b2e8985cda3a5ULL}, {20000, 12345ULL, 0x11e8e71c1c9decfdULL}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const sim_config c = liquid(cases[k].n, cases[k].seed, CFG_PLACE_PARALLEL);
        sim_state ref;
        omp_set_num_threads(1);
        int rc = init_quiet(&ref, &c);
        gsl_test(rc != 0 || ref.n != cases[k].n, "parallel n=%d: sim_init returns 0 (%d) with n "
                 "particles", cases[k].n, rc);
        if (rc != 0)
            continue;
        const size_t bytes = 3 * sizeof(double) * (size_t)ref.n;
        const unsigned long long h = tb_test_fnv1a(ref.pos, bytes);
        gsl_test(h != cases[k].hash, "parallel n=%d seed=%llu: positions hash %016llx = the pinned "
                 "%016llx (init_par.c's streams and rounds unchanged)", cases[k].n, cases[k].seed,
                 h, cases[k].hash);
        /* 16 threads on this machine's few cores: every barrier waits for a core (seconds at
         * 20000), so the larger case stops at 4 */
        static const int threads[] = {2, 4, 16};
        for (size_t t = 0; t < (k == 0 ? 3u : 2u); t++) {
            sim_state s;
            omp_set_num_threads(threads[t]);
            rc = init_quiet(&s, &c);
            gsl_test(rc != 0 || memcmp(s.pos, ref.pos, bytes) != 0,
                     "parallel n=%d seed=%llu: %d threads = 1 thread bit for bit", cases[k].n,
                     cases[k].seed, threads[t]);
            if (rc == 0)
                sim_state_free(&s);
        }
        const double dmin = cube_pairs(&ref, 0.9, NULL, 0);
        gsl_test(!(dmin >= 0.9), "parallel n=%d: shortest pair %.17g >= min_distance 0.9 (every "
                 "pair within 0.9 by a cell list)", cases[k].n, dmin);
        sim_state_free(&ref);
    }
    omp_set_num_threads(omp_get_num_procs());
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

/* Other domains, brute force over every pair: a triclinic box, a ppf slab (an open axis: its
 * given extent), an orthorhombic box 3.5 x 3.5 x 20 (2 x 2 x 22 cells of 2.2 particles: cells
 * hold more than their inline room, and a cell is the neighbour of its neighbour on both
 * sides), an open cluster (the cube around its sphere); each the same on 1 and 3 threads. */
static void test_domains(void)
{
    static const struct {
        const char *what;
        double l[3], t[3];
        int per[3], n;
        double dmin, R;
    } cases[] = {
        {"triclinic", {9.0, 8.0, 7.5}, {2.0, -1.5, 1.0}, {1, 1, 1}, 400, 0.9, 0},
        {"ppf slab", {9.0, 8.0, 6.0}, {0, 0, 0}, {1, 1, 0}, 300, 0.9, 0},
        {"3.5 x 3.5 x 20", {3.5, 3.5, 20.0}, {0, 0, 0}, {1, 1, 1}, 190, 0.9, 0},
        {"open cluster", {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, 500, 1.0, 0},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        sim_config c;
        memset(&c, 0, sizeof c);
        c.system.particles = cases[k].n;
        c.system.seed = 77ULL + k;
        c.system.mass = 1.0;
        c.system.init.type = CFG_INIT_RANDOM;
        c.system.init.placement = CFG_PLACE_PARALLEL;
        c.system.init.min_distance = cases[k].dmin;
        if (cases[k].per[0] || cases[k].per[2]) {
            const int per = cases[k].per[0] && cases[k].per[1] && cases[k].per[2];
            c.system.box_group = 1;
            c.system.boundary = per ? CFG_BOUNDARY_PERIODIC : CFG_BOUNDARY_MIXED;
            for (int a = 0; a < 3; a++) {
                c.system.box_lengths[a] = cases[k].l[a];
                c.system.box_tilt[a] = cases[k].t[a];
                c.system.periodic[a] = cases[k].per[a];
            }
        }
        sim_state s, t;
        omp_set_num_threads(1);
        int rc = init_quiet(&s, &c);
        gsl_test(rc != 0 || s.n != cases[k].n, "parallel %s: sim_init returns 0 (%d), n = %d",
                 cases[k].what, rc, cases[k].n);
        if (rc != 0)
            continue;
        double m = INFINITY, far = 0;
        for (int i = 0; i < s.n; i++) {
            double f[3];
            box_fraction_d(&s.box, s.pos + 3 * i, f);
            for (int a = 0; a < 3 && s.box.pbc; a++)
                far = fmax(far, fmax(-f[a], f[a] - (1.0 - 1e-15)));
            if (!s.box.pbc)
                far = fmax(far, sqrt(s.pos[3 * i] * s.pos[3 * i] + s.pos[3 * i + 1] *
                                     s.pos[3 * i + 1] + s.pos[3 * i + 2] * s.pos[3 * i + 2]) -
                                    cbrt(3.0 * s.n / (4.0 * M_PI * 0.7)));
            for (int j = i + 1; j < s.n; j++) {
                const double d[3] = {s.pos[3 * i] - s.pos[3 * j], s.pos[3 * i + 1] - s.pos[3 * j + 1],
                                     s.pos[3 * i + 2] - s.pos[3 * j + 2]};
                m = fmin(m, image_dist(&s.box, d));
            }
        }
        gsl_test(!(m >= cases[k].dmin), "parallel %s: shortest pair %.17g >= min_distance %g "
                 "(every pair, an image search)", cases[k].what, m, cases[k].dmin);
        gsl_test(!(far <= 0), "parallel %s: every particle inside the domain (%s; %.3g beyond)",
                 cases[k].what, s.box.pbc ? "fractions in [0, 1)" : "the cluster's sphere, "
                 "shifted by at most its bounding box's centre", far);
        omp_set_num_threads(3);
        rc = init_quiet(&t, &c);
        gsl_test(rc != 0 || memcmp(s.pos, t.pos, 3 * sizeof(double) * (size_t)s.n) != 0,
                 "parallel %s: 3 threads = 1 thread bit for bit", cases[k].what);
        if (rc == 0)
            sim_state_free(&t);
        sim_state_free(&s);
    }
    omp_set_num_threads(omp_get_num_procs());
}

/* chi^2 of the counts of s's particles in the k^3 blocks of its cube, against n / k^3 each;
 * with m > 0, in the 8 parity classes of an m^3 grid instead. */
static double chi2(const sim_state *s, int k, int m)
{
    const double L = s->box.l[0];
    const int nb = m > 0 ? 8 : k * k * k;
    long *cnt = calloc((size_t)nb, sizeof *cnt);
    for (int i = 0; i < s->n; i++) {
        int c[3];
        for (int a = 0; a < 3; a++) {
            const double u = s->pos[3 * i + a] / L;
            c[a] = (int)floor((u - floor(u)) * (m > 0 ? m : k)) % (m > 0 ? m : k);
        }
        cnt[m > 0 ? (c[0] & 1) + 2 * (c[1] & 1) + 4 * (c[2] & 1) : (c[2] * k + c[1]) * k + c[0]]++;
    }
    double x = 0;
    for (int b = 0; b < nb; b++)
        x += (cnt[b] - (double)s->n / nb) * (cnt[b] - (double)s->n / nb) / ((double)s->n / nb);
    free(cnt);
    return x;
}

/* The liquid's 32768 particles (seed 9) placed both ways: g(r) in bins of 0.05 from 0.9 to
 * 3.0 the same within the noise, a density as uniform. Random sequential addition is far more
 * uniform than a Poisson process (chi^2 of the 4^3 blocks about 6 for 63 degrees of freedom, the
 * sequential's here 6.3), so its chi^2 bounds the parallel's, not the Poisson table; the
 * colours' chi^2 (7 degrees of freedom) is held below its 95 % point 14.07, where a colour
 * 2 % denser than the rest would give 12.5. */
static void test_structure(void)
{
    enum { NB = 60, N = 32768 };
    const double rc = 3.0;
    sim_state seq, par;
    sim_config c = liquid(N, 9ULL, CFG_PLACE_SEQUENTIAL);
    int rc1 = init_quiet(&seq, &c);
    c.system.init.placement = CFG_PLACE_PARALLEL;
    int rc2 = init_quiet(&par, &c);
    gsl_test(rc1 != 0 || rc2 != 0, "structure: both placements return 0 (%d, %d)", rc1, rc2);
    if (rc1 != 0 || rc2 != 0)
        return;
    long h0[NB] = {0}, h1[NB] = {0};
    const double m0 = cube_pairs(&seq, rc, h0, NB), m1 = cube_pairs(&par, rc, h1, NB);
    gsl_test(!(m1 >= 0.9), "structure: parallel shortest pair %.17g >= 0.9 (sequential's %.17g)",
             m1, m0);
    const double L = par.box.l[0], rho = N / (L * L * L), w = rc / NB;
    double worst = 0, at = 0, c0 = 0, c1 = 0;
    for (int b = (int)(0.9 / w + 0.5); b < NB; b++) {
        const double shell = 4.0 / 3.0 * M_PI * (pow((b + 1) * w, 3) - pow(b * w, 3)) * rho * N / 2;
        const double g0 = h0[b] / shell, g1 = h1[b] / shell;
        if (fabs(g1 - g0) > worst) {
            worst = fabs(g1 - g0);
            at = b * w;
        }
        if (b * w < 0.999) {
            c0 += g0 / 2;
            c1 += g1 / 2;
        }
    }
    /* a bin near contact holds ~15000 pairs: g's noise there is ~0.018 a sample, 0.025 a
     * difference; 0.08 is 3.2 of those (42 bins); measured 0.023 */
    gsl_test(!(worst < 0.08), "structure: g(r) of the parallel placement within 0.08 of the "
             "sequential's in every bin of 0.05 in [0.9, 3) (worst %.4f at r = %.2f)", worst, at);
    gsl_test(!(fabs(c1 - c0) < 0.05), "structure: contact value g(0.9..1.0) %.4f parallel, %.4f "
             "sequential (within 0.05)", c1, c0);
    const double b0 = chi2(&seq, 4, 0), b1 = chi2(&par, 4, 0);
    gsl_test(!(b1 < 2 * b0 + 3), "structure: chi^2 of the 4^3 blocks' counts %.2f parallel < 2 x "
             "%.2f sequential + 3", b1, b0);
    const int m = (int)floor(L / (0.9 * (1 + 1e-9))) & ~1;
    const double k1 = chi2(&par, 0, m);
    gsl_test(!(k1 < 14.07), "structure: chi^2 of the 8 colours' counts (%d^3 cells) %.2f < 14.07 "
             "(sequential's %.2f)", m, k1, chi2(&seq, 0, m));
    sim_state_free(&seq);
    sim_state_free(&par);
}

/* Two species: the composition's counts (largest remainders) over the parallel positions. */
static void test_species(void)
{
    sim_config c = liquid(3001, 5ULL, CFG_PLACE_PARALLEL);
    c.system.n_species = 2;
    snprintf(c.system.species[0].name, sizeof c.system.species[0].name, "A");
    snprintf(c.system.species[1].name, sizeof c.system.species[1].name, "B");
    c.system.species[0].mass = 1.0;
    c.system.species[1].mass = 4.0;
    c.system.init.n_composition = 2;
    c.system.init.composition[0] = 0.8;
    c.system.init.composition[1] = 0.2;
    sim_state s;
    const int rc = init_quiet(&s, &c);
    gsl_test(rc != 0, "species: sim_init returns 0 (%d)", rc);
    if (rc != 0)
        return;
    int cnt[2] = {0, 0}, first = 0;
    for (int i = 0; i < s.n; i++) {
        cnt[s.type[i]]++;
        first += i < 600 && s.type[i] == 1;
    }
    /* 0.8 * 3001 = 2400.8: 2400 + the remainder 0.8 > 0.2; B 600 */
    gsl_test(cnt[0] != 2401 || cnt[1] != 600, "species: counts %d A, %d B = 2401, 600", cnt[0],
             cnt[1]);
    /* shuffled: B among the first 600 sites about 120 times, not 0 or 600 */
    gsl_test(first < 80 || first > 160, "species: %d B among the first 600 sites (about 120)",
             first);
    sim_state_free(&s);
}

/* Near the jamming limit (packing fraction 0.367: density 0.7 at min distance 1, the open
 * cluster's default), where the plain rounds' acceptance falls below 0.001 and the sub-cubes go
 * on: every sub-cube cut lies within min_distance of one particle (a search over all of them,
 * init_par_verify), the shortest pair, 1 = 3 threads; a cube at packing fraction 0.393, beyond
 * random sequential addition's jamming limit 0.384, is refused (exit status 2). */
static void test_jamming(void)
{
    sim_config c = liquid(1000, 31ULL, CFG_PLACE_PARALLEL);
    c.system.init.min_distance = 1.0;
    c.system.box = cbrt(1000 / 0.7);
    sim_state s, t;
    init_par_verify = 1;
    omp_set_num_threads(1);
    int rc = init_quiet(&s, &c);
    init_par_verify = 0;
    gsl_test(rc != 0, "jamming: sim_init returns 0 (%d)", rc);
    if (rc != 0)
        return;
    gsl_test(init_par_dead < 1000 || init_par_bad != 0, "jamming: %ld sub-cubes cut, each within "
             "min_distance of one particle (%ld not)", init_par_dead, init_par_bad);
    const double m = cube_pairs(&s, 1.0, NULL, 0);
    gsl_test(!(m >= 1.0), "jamming: shortest pair %.17g >= 1", m);
    omp_set_num_threads(3);
    rc = init_quiet(&t, &c);
    gsl_test(rc != 0 || memcmp(s.pos, t.pos, 3 * sizeof(double) * (size_t)s.n) != 0,
             "jamming: 3 threads = 1 thread bit for bit");
    if (rc == 0)
        sim_state_free(&t);
    sim_state_free(&s);
    c.system.particles = 500;
    c.system.box = cbrt(500 / 0.75);
    rc = init_quiet(&t, &c);
    gsl_test(rc != TB_EXIT_USAGE, "jamming: packing fraction 0.393 refused with status 2 (%d)", rc);
    if (rc == 0)
        sim_state_free(&t);
    omp_set_num_threads(omp_get_num_procs());
}

int main(int argc, char **argv)
{
    /* libgomp reads OMP_WAIT_POLICY when it starts: a passive wait, so that two threads on a
     * shared two-core machine do not spin a time slice away at each of the placement's few
     * hundred barriers (9 s instead of 0.03 under load); started again once with it */
    if (!getenv("OMP_WAIT_POLICY") && argc > 0) {
        setenv("OMP_WAIT_POLICY", "passive", 1);
        execv("/proc/self/exe", argv);
    }
    tb_test_init();
    TB_TEST_RUN(test_threads);
    TB_TEST_RUN(test_domains);
    TB_TEST_RUN(test_structure);
    TB_TEST_RUN(test_species);
    TB_TEST_RUN(test_jamming);
    return tb_test_done();
}
