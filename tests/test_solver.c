/* test_solver.c — the CPU backend of the solver against the independent reference:
 * energies and forces through every registered map and precision, finite differences of
 * its energy, momentum conservation, and the NVE energy error of velocity Verlet. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "config/config.h"
#include "maps3d/map2d.h"
#include "maps3d/map3d.h"
#include "solver/backend.h"
#include "solver/io/init.h"
#include "solver/cli/valsys.h"
#include "validate/reference.h"
#include "tests/tb_system.h"
#include "tests/tb_test.h"

/* The small LJ + ATM system of tb_system.h, with the maps under test (no culling). */
static void base_config(sim_config *c, int n)
{
    tb_system_config(c, "test_solver", n, 7, 0.95, 0.43);
    c->system.init.radius = 0.0;
    c->solver.cull = 0; /* the maps under test; tests/test_nbr.c covers the lists */
}

/* One comparison of the solver (map m3 / m2, precision) against the reference. */
static void compare(const char *what, sim_config *c, double tol)
{
    sim_state s;
    val_view v;
    double ep, et;
    static double ref[3 * 4096];
    if (sim_init(&s, c) != 0) {
        gsl_test(1, "%s: initial state", what);
        return;
    }
    val_system_of(c, &s, NULL, &v);
    val_reference(&v.sys, ref, &ep, &et);
    if (tb_system_eval(c, &s) != 0) {
        gsl_test(1, "%s: CPU backend ran", what);
    } else {
        const double e_ref = ep + et, e = s.e_pair + s.e_triplet;
        const double ferr = tb_force_error(s.force, ref, s.n);
        gsl_test(!(fabs(e - e_ref) <= tol * fabs(e_ref) && ferr <= tol),
                 "%s: energy rel err %.2e, force err %.2e <= %.0e", what,
                 fabs(e - e_ref) / fabs(e_ref), ferr, tol);
    }
    sim_state_free(&s);
}

/* Every map, every precision, awkward n and tile sizes (faces, clipped last tiles, tile > n). */
static void test_maps_vs_reference(void)
{
    /* Tolerances: double sums in another order than the reference differ by rounding,
     * ~n^3 * 1e-16 relative at worst: 1e-12. mixed: float arithmetic per triplet (relative
     * 6e-8 per operation, ~50 operations, cancellation in the energy sum ~10x): 1e-5.
     * single: float accumulation over up to n^2 terms as well: 1e-3. */
    static const double tol[3] = {1e-12, 1e-5, 1e-3};
    static const int ns[] = {3, 37, 61, 100};
    static const int tiles[] = {1, 3, 8, 16, 128};
    sim_config c;
    char what[256];
    for (int m = 0; map3d_all[m]; m++)
        for (unsigned a = 0; a < sizeof ns / sizeof *ns; a++)
            for (unsigned t = 0; t < sizeof tiles / sizeof *tiles; t++) {
                if (ns[a] >= 61 && tiles[t] == 1)
                    continue; /* n^3 single-particle tiles: slow and adds nothing */
                base_config(&c, ns[a]);
                snprintf(c.solver.map, sizeof c.solver.map, "%s", map3d_all[m]->name);
                c.solver.tile = tiles[t];
                for (int p = 0; p < 3; p++) {
                    c.solver.precision = p;
                    snprintf(what, sizeof what, "map %s, n %d, tile %d, %s", map3d_all[m]->name,
                             ns[a], tiles[t], cfg_precision_name(p));
                    compare(what, &c, tol[p]);
                }
            }
    for (int m = 0; map2d_all[m]; m++)
        for (unsigned a = 1; a < sizeof ns / sizeof *ns; a++) {
            base_config(&c, ns[a]);
            snprintf(c.solver.map2d, sizeof c.solver.map2d, "%s", map2d_all[m]->name);
            c.solver.tile = 3 + (int)a;
            c.potential.atm.nu = 0.0; /* the pair term alone */
            snprintf(what, sizeof what, "map2d %s, n %d, tile %d, double (LJ only)",
                     map2d_all[m]->name, ns[a], c.solver.tile);
            compare(what, &c, 1e-12);
        }
}

/* Periodic box and cutoffs, through the default maps. */
static void test_periodic_vs_reference(void)
{
    sim_config c;
    base_config(&c, 90);
    c.system.boundary = CFG_BOUNDARY_PERIODIC;
    c.system.box = 5.31;
    c.potential.atm.cutoff = 2.1;
    c.potential.lj.cutoff = 2.4;
    compare("periodic box 5.31, atm cutoff 2.1, lj cutoff 2.4, double", &c, 1e-12);
    c.potential.atm.cutoff = 2.6; /* above L/4: triplets of inconsistent images must drop */
    compare("periodic box 5.31, atm cutoff 2.6 > L/4, double", &c, 1e-12);
    c.solver.cull = 1;
    compare("periodic box 5.31, atm cutoff 2.6 > L/4, neighbour lists, double", &c, 1e-12);
    base_config(&c, 50);
    c.potential.atm.cutoff = 1.9;
    compare("open, atm cutoff 1.9, double", &c, 1e-12);
}

/* The solver's forces are -grad E by central differences; they sum to zero. */
static void test_fd_and_momentum(void)
{
    sim_config c;
    sim_state s, t;
    double worst = 0.0, fsum[3] = {0, 0, 0}, fabs_sum = 0.0;
    base_config(&c, 12);
    c.solver.tile = 3;
    sim_init(&s, &c);
    tb_system_eval(&c, &s);
    sim_init(&t, &c);
    for (int i = 0; i < s.n; i++)
        for (int x = 0; x < 3; x++) {
            /* h = 1e-5 sigma: truncation ~ h^2 E''' ~ 1e-10 relative, rounding ~ 1e-16/h
             * ~ 1e-11 relative: the difference quotient is good to ~1e-9 of the force. */
            const double h = 1e-5, x0 = t.pos[3 * i + x];
            double ep, em;
            t.pos[3 * i + x] = x0 + h;
            tb_system_eval(&c, &t);
            ep = t.e_pair + t.e_triplet;
            t.pos[3 * i + x] = x0 - h;
            tb_system_eval(&c, &t);
            em = t.e_pair + t.e_triplet;
            t.pos[3 * i + x] = x0;
            const double fd = -(ep - em) / (2 * h), f = s.force[3 * i + x];
            worst = fmax(worst, fabs(fd - f) / fmax(fabs(f), 1e-3));
            fsum[x] += f;
            fabs_sum += fabs(f);
        }
    gsl_test(!(worst < 1e-7), "solver forces = -grad E (central differences): worst rel err %.2e < 1e-7",
             worst);
    gsl_test(!(fabs(fsum[0]) + fabs(fsum[1]) + fabs(fsum[2]) < 1e-12 * fabs_sum),
             "solver forces sum to zero: |sum F| / sum |F| = %.2e < 1e-12",
             (fabs(fsum[0]) + fabs(fsum[1]) + fabs(fsum[2])) / fabs_sum);
    sim_state_free(&s);
    sim_state_free(&t);
}

/* Largest |E(t) - E(0)| over `steps` velocity-Verlet steps of dt, and the largest
 * sum_i |F_i|^2 / m seen along the way. */
static void nve_error(double dt, long steps, double *de, double *f2m, double *e0)
{
    sim_config c;
    sim_state s;
    backend *b = NULL;
    base_config(&c, 32);
    c.potential.lj.cutoff = 50.0; /* no cutoff in effect: the dynamics is smooth */
    c.system.init.temperature = 0.35;
    c.integrator.dt = dt;
    sim_init(&s, &c);
    cpu_backend_ops.create(&b, &c, &s);
    cpu_backend_ops.compute(b);
    cpu_backend_ops.fetch(b, &s);
    *e0 = sim_kinetic(&s) + s.e_pair + s.e_triplet;
    *de = *f2m = 0.0;
    for (long k = 0; k <= steps; k += 10) {
        double f2 = 0.0;
        if (k > 0) {
            cpu_backend_ops.advance(b, 10);
            cpu_backend_ops.fetch(b, &s);
        }
        for (int i = 0; i < 3 * s.n; i++)
            f2 += s.force[i] * s.force[i];
        *f2m = fmax(*f2m, f2 / s.mass[0]);
        *de = fmax(*de, fabs(sim_kinetic(&s) + s.e_pair + s.e_triplet - *e0));
    }
    cpu_backend_ops.destroy(b);
    sim_state_free(&s);
}

/* NVE: velocity Verlet conserves a shadow Hamiltonian H~ = H + O(dt^2), so E - E0 stays
 * bounded and oscillates instead of drifting. The bound: for a harmonic mode VV gives
 * exactly H - H~ = (dt^2/8) F^2/m at the turning points, so over the run
 *   |E(t) - E0| <= 2 (dt^2/8) max_t sum_i |F_i|^2/m
 * (the 2 covers the swing from one extreme to the other; anharmonic terms are of higher
 * order in dt). Checked on an n = 32 LJ+ATM cluster, 1000 steps of dt = 0.001 tau, and the
 * order: the error over the same time falls by ~4 when dt halves (ratio in [3, 5.5]). */
static void test_nve(void)
{
    double de1, f1, e01, de2, f2, e02;
    nve_error(0.002, 500, &de1, &f1, &e01);
    nve_error(0.001, 1000, &de2, &f2, &e02);
    const double bound = 2.0 * 0.001 * 0.001 / 8.0 * f2;
    gsl_test(!(de2 <= bound), "NVE n=32, dt=0.001, 1000 steps: max |E - E0| = %.3e <= 2 (dt^2/8) "
                              "max sum F^2/m = %.3e (|dE/E0| = %.2e)", de2, bound, de2 / fabs(e02));
    gsl_test(!(de1 / de2 > 3.0 && de1 / de2 < 5.5),
             "NVE error is second order: err(dt=0.002)/err(dt=0.001) = %.2f in [3, 5.5]", de1 / de2);
}

int main(void)
{
    tb_test_init();
    test_maps_vs_reference();
    test_periodic_vs_reference();
    test_fd_and_momentum();
    test_nve();
    return tb_test_done();
}
