/* test_nbr.c — the neighbour-list path (solver/physics/nbr.h) on the CPU backend: energies and forces
 * against the independent reference and against the all-triplets path, open and periodic,
 * cutoffs from below L/4 to near L/2, cutoff_triple, every precision; the lists' invariants
 * (each row ascending, a superset of the partners that come after the anchor); particles
 * crossing the box and skin-triggered rebuilds in the middle of a run; that the skin changes
 * nothing but the rebuild count (bitwise); and that the work per particle does not grow with N. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "solver/backend.h"
#include "solver/io/init.h"
#include "solver/physics/nbr_list.h"
#include "solver/physics/pot_params.h"
#include "solver/cli/valsys.h"
#include "validate/reference.h"
#include "tests/tb_test.h"

/* A periodic LJ + ATM liquid of n particles at number density rho (random, min distance 0.85);
 * atm_cut = 0 takes the configuration's default L/4. */
static void liquid(sim_config *c, int n, double rho, double atm_cut)
{
    cfg_defaults(c);
    snprintf(c->path, sizeof c->path, "test_nbr");
    c->system.particles = n;
    c->system.seed = 11;
    c->system.boundary = CFG_BOUNDARY_PERIODIC;
    c->system.box = cbrt(n / rho);
    c->system.init.type = CFG_INIT_RANDOM;
    c->system.init.min_distance = 0.85;
    c->system.init.temperature = 1.0;
    c->potential.atm.nu = 0.0713;
    c->potential.atm.cutoff = atm_cut > 0 ? atm_cut : 0.25 * c->system.box; /* config's default */
    c->potential.lj.enabled = 1;
    c->potential.lj.epsilon = 1.03;
    c->potential.lj.sigma = 0.991;
    c->potential.lj.cutoff = 2.5;
    c->potential.lj.shift = 1;
    c->solver.backend = CFG_BACKEND_CPU;
    c->solver.precision = CFG_PREC_DOUBLE;
    c->solver.cull = 1;
    c->solver.skin = 0.3;
}

/* Forces and energies of s under c (CPU backend); info about the path into *in. */
static int eval(const sim_config *c, sim_state *s, backend_info *in)
{
    backend *b = NULL;
    int rc = cpu_backend_ops.create(&b, c, s);
    if (rc == 0)
        rc = cpu_backend_ops.compute(b) || cpu_backend_ops.fetch(b, s) ||
             (in && cpu_backend_ops.info(b, in, 1));
    cpu_backend_ops.destroy(b);
    return rc;
}

/* The neighbour-list path against the reference; tol relative (energy, max force). */
static void compare_ref(const char *what, sim_config *c, double tol)
{
    sim_state s;
    val_view v;
    backend_info in;
    double ep, et;
    if (sim_init(&s, c) != 0) {
        gsl_test(1, "%s: initial state", what);
        return;
    }
    double *ref = malloc(3 * (size_t)s.n * sizeof *ref);
    val_system_of(c, &s, NULL, &v);
    val_reference(&v.sys, ref, &ep, &et);
    if (eval(c, &s, &in) != 0 || !in.cull) {
        gsl_test(1, "%s: the neighbour-list path ran", what);
    } else {
        const double e_ref = ep + et, e = s.e_pair + s.e_triplet;
        const double ferr = tb_force_error(s.force, ref, s.n);
        gsl_test(!(fabs(e - e_ref) <= tol * fabs(e_ref) && fabs(s.e_triplet - et) <= tol * fabs(et) &&
                   ferr <= tol && et != 0.0),
                 "%s: E rel err %.2e (E_triplet %.6g vs %.6g), force err %.2e <= %.0e", what,
                 fabs(e - e_ref) / fabs(e_ref), s.e_triplet, et, ferr, tol);
    }
    free(ref);
    sim_state_free(&s);
}

static void test_vs_reference(void)
{
    /* double: the same terms in another order: 1e-12; mixed: float per triplet, 1e-5;
     * single: float sums over ~1e4 terms per particle too: 1e-4 */
    static const double tol[3] = {1e-12, 1e-5, 1e-4};
    sim_config c;
    char what[200];
    for (int p = 0; p < 3; p++) {
        liquid(&c, 600, 0.8, 0); /* L = 9.57: default cutoff L/4 = 2.39 */
        c.solver.precision = p;
        snprintf(what, sizeof what, "periodic liquid n 600, atm cutoff L/4, %s", cfg_precision_name(p));
        compare_ref(what, &c, tol[p]);
        liquid(&c, 600, 0.8, 4.5); /* between L/4 and L/2 */
        c.solver.precision = p;
        snprintf(what, sizeof what, "periodic liquid n 600, atm cutoff 4.5 (L/2 = %.3f), %s",
                 0.5 * c.system.box, cfg_precision_name(p));
        compare_ref(what, &c, tol[p]);
    }
    liquid(&c, 600, 0.8, 4.4);
    c.potential.atm.cutoff_triple = 3.1;
    compare_ref("periodic n 600, atm cutoff 4.4, cutoff_triple 3.1, double", &c, 1e-12);
    liquid(&c, 300, 0.8, 3.3);
    c.system.box = 7.2; /* cutoff 3.3 and skin 0.3 near L/2 = 3.6: the grid has 2 cells a side */
    compare_ref("periodic n 300, L 7.2, atm cutoff 3.3 near L/2, double", &c, 1e-12);
    liquid(&c, 300, 0.8, 2.2);
    c.system.boundary = CFG_BOUNDARY_OPEN;
    c.system.box = 0;
    c.system.init.radius = 5.0;
    compare_ref("open cluster n 300, atm cutoff 2.2, double", &c, 1e-12);
    liquid(&c, 400, 0.8, 3.0);
    c.potential.atm.nu = 0.0;
    c.potential.lj.cutoff = 3.0;
    {
        sim_state s;
        val_view v;
        double ep, et;
        sim_init(&s, &c);
        double *ref = malloc(3 * (size_t)s.n * sizeof *ref);
        val_system_of(&c, &s, NULL, &v);
        val_reference(&v.sys, ref, &ep, &et);
        backend_info in;
        const int rc = eval(&c, &s, &in);
        gsl_test(!(rc == 0 && in.cull && fabs(s.e_pair - ep) <= 1e-12 * fabs(ep) &&
                   tb_force_error(s.force, ref, s.n) <= 1e-12 && s.e_triplet == 0.0),
                 "periodic LJ alone (cutoff 3.0) through the lists: E_pair %.10g vs %.10g", s.e_pair,
                 ep);
        free(ref);
        sim_state_free(&s);
    }
}

/* The lists: each row ascending, no self, and it holds every t within the cutoff of i that
 * comes after i (an exhaustive check over all pairs). */
/* One minimum-image component written out here, apart from the box type the lists use. */
static double mic_by_hand(double d, double L)
{
    return L > 0.0 ? d - L * rint(d / L) : d;
}

static void test_list_invariants(void)
{
    sim_config c;
    sim_state s;
    pot_params pp;
    nbr_list l;
    liquid(&c, 500, 0.8, 3.1);
    sim_init(&s, &c);
    pot_params_init(&pp, &c);
    int bad = nbr_list_init(&l, s.n, &pp.d.box, nbr_radius(&c, &pp), c.solver.skin) ||
              nbr_list_build(&l, s.pos);
    long long missing = 0, unsorted = 0, self = 0, found = 0;
    for (int i = 0; i < s.n && !bad; i++) {
        for (int q = l.off[i]; q < l.off[i + 1]; q++) {
            unsorted += q > l.off[i] && l.idx[q] <= l.idx[q - 1];
            self += l.idx[q] == i;
        }
        for (int t = 0; t < s.n; t++) {
            if (t == i)
                continue;
            double d[3], r2 = 0;
            for (int x = 0; x < 3; x++) {
                d[x] = mic_by_hand(s.pos[3 * t + x] - s.pos[3 * i + x], s.box.l[0]);
                r2 += d[x] * d[x];
            }
            if (r2 > 3.1 * 3.1 || !nbr_after(d[0], d[1], d[2], i, t))
                continue;
            found++;
            int in = 0;
            for (int q = l.off[i]; q < l.off[i + 1]; q++)
                in |= l.idx[q] == t;
            missing += !in;
        }
    }
    gsl_test(bad || missing || unsorted || self || found == 0,
             "lists of a 500-particle liquid: %lld partners after their anchor, %lld missing, "
             "%lld rows out of order, %lld self entries", found, missing, unsorted, self);
    /* every pair is after exactly one of its two ends */
    long long both = 0;
    for (int i = 0; i < 60; i++)
        for (int t = 0; t < s.n; t++) {
            if (t == i)
                continue;
            double d[3];
            for (int x = 0; x < 3; x++)
                d[x] = mic_by_hand(s.pos[3 * t + x] - s.pos[3 * i + x], s.box.l[0]);
            both += nbr_after(d[0], d[1], d[2], i, t) == nbr_after(-d[0], -d[1], -d[2], t, i);
        }
    gsl_test(both != 0, "nbr_after: exactly one end of every pair comes first (%lld violations)", both);
    double same[3] = {1.5, 2.0, 2.5};
    gsl_test(!(nbr_after(0, 0, 0, 3, 7) && !nbr_after(0, 0, 0, 7, 3) && nbr_after(0, 1e-300, -5, 9, 2)),
             "nbr_after: ties broken by y, z, then index (%g)", same[0]);
    nbr_list_free(&l);
    sim_state_free(&s);
}

/* The same system through the lists and through the all-triplets maps (both CPU, double):
 * rounding apart, the same terms. */
/* A rank's lists (issue 25): nbr_list_count + nbr_list_fill(lo, hi) give rows lo..hi-1 equal
 * to the whole build's, counts and max_row of every row, and hold only those rows' entries. */
static void test_list_range(void)
{
    sim_config c;
    sim_state s;
    pot_params pp;
    nbr_list whole, part;
    liquid(&c, 500, 0.8, 3.1);
    sim_init(&s, &c);
    pot_params_init(&pp, &c);
    const double R = nbr_radius(&c, &pp);
    int bad = nbr_list_init(&whole, s.n, &pp.d.box, R, c.solver.skin) ||
              nbr_list_init(&part, s.n, &pp.d.box, R, c.solver.skin) ||
              nbr_list_build(&whole, s.pos) || nbr_list_count(&part, s.pos) ||
              nbr_list_fill(&part, s.pos, 123, 311);
    long long diff = 0;
    for (int i = 0; i <= s.n && !bad; i++)
        diff += whole.off[i] != part.off[i];
    for (int i = 123; i < 311 && !bad; i++)
        diff += memcmp(nbr_list_row(&whole, i), nbr_list_row(&part, i),
                       (size_t)(whole.off[i + 1] - whole.off[i]) * sizeof(int)) != 0;
    const long long held = bad ? -1 : (long long)part.off[311] - part.off[123];
    gsl_test(bad || diff || whole.max_row != part.max_row || part.lo != 123 || part.hi != 311 ||
                 part.cap > held + held / 4 + 64 || held >= whole.off[s.n] / 2,
             "rows 123..310 of a 500-particle liquid alone: %lld rows or offsets differ from the "
             "whole build, %lld of %d entries held (capacity %lld)", diff, held,
             bad ? -1 : whole.off[s.n], part.cap);
    nbr_list_free(&whole);
    nbr_list_free(&part);
    sim_state_free(&s);
}

static void test_vs_all_triplets(void)
{
    sim_config c;
    sim_state a, b;
    liquid(&c, 600, 0.85, 0);
    sim_init(&a, &c);
    sim_init(&b, &c);
    eval(&c, &a, NULL);
    c.solver.cull = 0;
    c.solver.tile = 16;
    eval(&c, &b, NULL);
    gsl_test(!(fabs(a.e_triplet - b.e_triplet) <= 1e-12 * fabs(b.e_triplet) &&
               fabs(a.e_pair - b.e_pair) <= 1e-12 * fabs(b.e_pair) &&
               tb_force_error(a.force, b.force, a.n) <= 1e-12),
             "lists vs all-triplets maps, n 600 at L/4: E_triplet %.12g vs %.12g, force err %.2e",
             a.e_triplet, b.e_triplet, tb_force_error(a.force, b.force, a.n));
    sim_state_free(&a);
    sim_state_free(&b);
}

/* A run through the lists: particles cross the box, the lists are rebuilt several times, and
 * the forces at the end still equal the reference's; with another skin, bitwise the same. */
static void run_steps(sim_config *c, long steps, sim_state *s, backend_info *in)
{
    backend *b = NULL;
    sim_init(s, c);
    if (cpu_backend_ops.create(&b, c, s) != 0 || cpu_backend_ops.compute(b) != 0 ||
        cpu_backend_ops.advance(b, steps) != 0 || cpu_backend_ops.fetch(b, s) != 0 ||
        cpu_backend_ops.info(b, in, 0) != 0)
        gsl_test(1, "run of %ld steps", steps);
    cpu_backend_ops.destroy(b);
}

static void test_run_rebuilds(void)
{
    sim_config c;
    sim_state s, t, u;
    val_view v;
    backend_info in, in2, in3;
    double ep, et;
    liquid(&c, 400, 0.8, 3.2);
    c.system.init.temperature = 2.5;
    c.integrator.dt = 0.004;
    c.solver.skin = 0.2;
    run_steps(&c, 150, &s, &in);
    sim_state init;
    sim_init(&init, &c);
    int crossed = 0; /* particles whose wrapped position jumped by more than L/2 */
    for (int i = 0; i < 3 * s.n; i++)
        crossed += fabs(s.pos[i] - init.pos[i]) > 0.5 * s.box.l[0];
    double *ref = malloc(3 * (size_t)s.n * sizeof *ref);
    val_system_of(&c, &s, NULL, &v);
    val_reference(&v.sys, ref, &ep, &et);
    gsl_test(!(in.builds >= 3 && crossed > 0 && fabs(s.e_triplet - et) <= 1e-12 * fabs(et) &&
               tb_force_error(s.force, ref, s.n) <= 1e-12),
             "150 steps at T 2.5, skin 0.2: %lld list builds, %d box crossings, forces at the end "
             "= reference (err %.2e)", in.builds, crossed, tb_force_error(s.force, ref, s.n));
    c.solver.skin = 1.0;
    run_steps(&c, 150, &t, &in2);
    c.solver.skin = 0.0;
    run_steps(&c, 150, &u, &in3);
    gsl_test(!(memcmp(s.pos, t.pos, 3 * (size_t)s.n * sizeof *s.pos) == 0 &&
               memcmp(s.pos, u.pos, 3 * (size_t)s.n * sizeof *s.pos) == 0 &&
               memcmp(s.force, u.force, 3 * (size_t)s.n * sizeof *s.pos) == 0 &&
               in2.builds < in.builds && in3.builds == 151),
             "the skin changes only the rebuilds (bitwise same run): %lld builds at skin 1.0, "
             "%lld at 0.2, %lld at 0", in2.builds, in.builds, in3.builds);
    free(ref);
    sim_state_free(&s);
    sim_state_free(&t);
    sim_state_free(&u);
    sim_state_free(&init);
}

/* O(N): the work per particle (list entries, entry-pair slots, triplets counted) is the same
 * at n and 4n at equal density. */
static void test_linear_work(void)
{
    sim_config c;
    sim_state s;
    backend_info a, b;
    liquid(&c, 1000, 0.8, 3.0);
    sim_init(&s, &c);
    eval(&c, &s, &a);
    sim_state_free(&s);
    liquid(&c, 4000, 0.8, 3.0);
    sim_init(&s, &c);
    eval(&c, &s, &b);
    sim_state_free(&s);
    const double r_slots = (b.slots / 4000.0) / (a.slots / 1000.0);
    const double r_hits = (b.hits / 4000.0) / (a.hits / 1000.0);
    const double r_ent = (b.entries / 4000.0) / (a.entries / 1000.0);
    gsl_test(!(fabs(r_slots - 1) < 0.1 && fabs(r_hits - 1) < 0.1 && fabs(r_ent - 1) < 0.1),
             "work per particle at n 4000 / at n 1000: slots %.3f, triplets %.3f, list entries %.3f "
             "(1 +- 0.1); %.0f triplets per particle, %.1f%% of the slots", r_slots, r_hits, r_ent,
             b.hits / 4000.0, 100.0 * (double)b.hits / (double)b.slots);
}

/* A tilted box is binned in its lattice coordinates (test_boxes.c checks the lists there); a
 * tilt along an open axis, which box.h's tilts never are, is refused with a message. */
static void test_tilt_open_refused(void)
{
    const double l[3] = {6, 6, 6}, lo[3] = {0, 0, 0};
    const int per[3] = {1, 1, 1}, ppf[3] = {1, 1, 0};
    const tb_box_d tilted = box_make_d(l, 1.5, 0.0, 0.0, lo, per),
                   open_z = box_make_d(l, 0.0, 1.5, 0.0, lo, ppf);
    nbr_list a, b;
    char err[256] = "";
    tb_test_capture_begin();
    const int ra = nbr_list_init(&a, 10, &open_z, 2.5, 0.3);
    tb_test_capture_end(err, sizeof err);
    const int rb = nbr_list_init(&b, 10, &tilted, 2.5, 0.3);
    gsl_test(ra != -1 || !strstr(err, "tilts along periodic axes") || rb != 0,
             "nbr_list_init: xz with z open is refused (%d: %s), a tilted periodic box taken (%d)",
             ra, err, rb);
    nbr_list_free(&b);
}

int main(void)
{
    tb_test_init();
    test_tilt_open_refused();
    test_list_invariants();
    test_list_range();
    test_vs_reference();
    test_vs_all_triplets();
    test_run_rebuilds();
    test_linear_work();
    return tb_test_done();
}
