/* test_virial.c — the virial tensor of the CPU backend (every map and precision) and of the
 * independent reference: a pair against its analytic value, Euler's theorem for ATM (the
 * trace of an open cluster's triplet virial is 9 E, E being homogeneous of degree -9), the
 * backend against the reference, and the trace against a central difference of the energy
 * under a uniform scaling of positions and box, tr W = -dE/ds at s = 1. */
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

static void base_config(sim_config *c, int n)
{
    tb_system_config(c, "test_virial", n, 11, 0.93, 0.61);
}

static double trace(const double *w)
{
    return w[0] + w[1] + w[2];
}

/* max_c |w_c - r_c| / max_c |r_c| over the six components. */
static double tensor_err(const double *w, const double *r)
{
    double num = 0.0, den = 0.0;
    for (int c = 0; c < 6; c++) {
        if (fabs(w[c] - r[c]) > num)
            num = fabs(w[c] - r[c]);
        if (fabs(r[c]) > den)
            den = fabs(r[c]);
    }
    return num / den;
}

/* One LJ pair: W = d (x) F_j = -(dE/dr) d d / r, by hand. */
static void test_pair_analytic(void)
{
    sim_config c;
    sim_state s;
    base_config(&c, 3);
    c.potential.atm.nu = 0.0;
    if (sim_state_alloc(&s, 3) != 0)
        return;
    /* particles 0 and 1 at r = 1.0817 along (0.36, -0.48, 0.8); particle 2 far away */
    const double u[3] = {0.36, -0.48, 0.8}, r = 1.0817;
    for (int x = 0; x < 3; x++) {
        s.pos[x] = 0.3 + 0.1 * x;
        s.pos[3 + x] = s.pos[x] + r * u[x];
        s.pos[6 + x] = 50.0 + x;
    }
    if (tb_system_eval(&c, &s) != 0) {
        gsl_test(1, "pair virial: evaluation");
        sim_state_free(&s);
        return;
    }
    const double eps = 1.07, sg = 0.983, sr6 = pow(sg / r, 6);
    const double dedr = -24.0 * eps / r * (2.0 * sr6 * sr6 - sr6);
    const double want[6] = {-dedr * r * u[0] * u[0], -dedr * r * u[1] * u[1],
                            -dedr * r * u[2] * u[2], -dedr * r * u[0] * u[1],
                            -dedr * r * u[0] * u[2], -dedr * r * u[1] * u[2]};
    /* a handful of roundings on values ~10: 1e-13 */
    gsl_test(tensor_err(s.virial, want) > 1e-13, "pair virial = -(dE/dr) d d / r by hand "
             "(err %.2e)", tensor_err(s.virial, want));
    gsl_test_rel(trace(s.virial), -dedr * r, 1e-13, "pair virial trace = -r dE/dr");
    sim_state_free(&s);
}

/* Euler: an open cluster under ATM alone has tr W = 9 E, every map and precision. */
static void test_atm_euler(void)
{
    /* double: the sum of ~1e4 terms of both signs, 1e-12; mixed and single: float rounding
     * of the separations amplified by r^-9 (docs/physics.md), 1e-5 and 1e-3 */
    static const double tol[3] = {1e-12, 1e-5, 1e-3};
    for (int p = 0; p < 3; p++)
        for (int m = 0; map3d_all[m]; m++) {
            sim_config c;
            sim_state s;
            base_config(&c, 37);
            c.potential.lj.enabled = 0;
            c.solver.precision = p;
            snprintf(c.solver.map, sizeof c.solver.map, "%s", map3d_all[m]->name);
            if (sim_init(&s, &c) != 0 || tb_system_eval(&c, &s) != 0) {
                gsl_test(1, "ATM Euler: evaluation, map %s", map3d_all[m]->name);
                sim_state_free(&s);
                continue;
            }
            gsl_test_rel(trace(s.virial), 9.0 * s.e_triplet, tol[p],
                         "ATM open cluster: tr W = 9 E, map %s, %s (n = 37)", map3d_all[m]->name,
                         cfg_precision_name(p));
            sim_state_free(&s);
        }
}

/* The backend's tensor against the reference's, open and periodic, every precision. */
static void test_vs_reference(void)
{
    static const double tol[3] = {1e-12, 2e-5, 2e-3};
    for (int periodic = 0; periodic < 2; periodic++)
        for (int p = 0; p < 3; p++) {
            sim_config c;
            sim_state s;
            val_view v;
            double wref[6], ep, et;
            base_config(&c, periodic ? 80 : 45);
            if (periodic) {
                c.system.boundary = CFG_BOUNDARY_PERIODIC;
                c.system.box = 5.31;
                c.potential.atm.cutoff = 1.9;
                c.potential.lj.cutoff = 2.4;
            }
            c.solver.precision = p;
            if (sim_init(&s, &c) != 0 || tb_system_eval(&c, &s) != 0) {
                gsl_test(1, "virial vs reference: evaluation");
                sim_state_free(&s);
                continue;
            }
            val_system_of(&c, &s, NULL, &v);
            if (val_reference_virial(&v.sys, NULL, &ep, &et, wref) != 0) {
                gsl_test(1, "virial vs reference: reference");
                sim_state_free(&s);
                continue;
            }
            gsl_test(tensor_err(s.virial, wref) > tol[p],
                     "virial tensor vs reference, %s, %s (err %.2e, tol %.0e)",
                     periodic ? "periodic L = 5.31" : "open", cfg_precision_name(p),
                     tensor_err(s.virial, wref), tol[p]);
            sim_state_free(&s);
        }
}

/* tr W = -dE/ds under x -> s x, L -> s L (cutoffs fixed), central difference h = 1e-6:
 * truncation ~h^2 E''' ~ 1e-10 relative, rounding ~1e-16 |E| / h ~ 1e-10. Both the solver
 * (CPU, double) and the reference, periodic and open. */
static void test_fd_scaling(void)
{
    const double h = 1e-6;
    for (int periodic = 0; periodic < 2; periodic++) {
        sim_config c;
        sim_state s, t;
        val_view v;
        double e[2], eref[2], wref[6], ep, et;
        base_config(&c, periodic ? 80 : 40);
        if (periodic) {
            c.system.boundary = CFG_BOUNDARY_PERIODIC;
            c.system.box = 5.31;
            c.potential.atm.cutoff = 1.3;
            c.potential.lj.cutoff = 2.4;
        }
        if (sim_init(&s, &c) != 0 || sim_init(&t, &c) != 0 || tb_system_eval(&c, &s) != 0) {
            gsl_test(1, "virial FD: setup");
            continue;
        }
        for (int sgn = 0; sgn < 2; sgn++) {
            const double f = 1.0 + (sgn ? h : -h);
            sim_config cs = c;
            for (int i = 0; i < 3 * s.n; i++)
                t.pos[i] = s.pos[i] * f;
            t.box = box_cube_d(s.box.l[0] * f);
            cs.system.box = c.system.box * f;
            if (tb_system_eval(&cs, &t) != 0)
                gsl_test(1, "virial FD: evaluation");
            e[sgn] = t.e_pair + t.e_triplet;
            val_system_of(&cs, &t, NULL, &v);
            val_reference(&v.sys, NULL, &ep, &et);
            eref[sgn] = ep + et;
        }
        val_system_of(&c, &s, NULL, &v);
        val_reference_virial(&v.sys, NULL, &ep, &et, wref);
        const double fd = -(e[1] - e[0]) / (2 * h), fdr = -(eref[1] - eref[0]) / (2 * h);
        gsl_test_rel(trace(s.virial), fd, 1e-7, "solver tr W = -dE/ds, %s (W %.10g, FD %.10g)",
                     periodic ? "periodic L = 5.31" : "open", trace(s.virial), fd);
        gsl_test_rel(trace(wref), fdr, 1e-7, "reference tr W = -dE/ds, %s",
                     periodic ? "periodic L = 5.31" : "open");
        sim_state_free(&s);
        sim_state_free(&t);
    }
}

int main(void)
{
    tb_test_init();
    test_pair_analytic();
    test_atm_euler();
    test_vs_reference();
    test_fd_scaling();
    return tb_test_done();
}
