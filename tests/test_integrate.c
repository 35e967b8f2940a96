/* test_integrate.c — the thermostatted integrators on the CPU backend: the Langevin run's
 * mean temperature and its fluctuation against the canonical values, the Nose-Hoover chain's
 * conserved quantity, the temperature ramp, and bit-exact restarts of both through a
 * checkpoint file (integ_save / ckpt_write / ckpt_read / integ_restore). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "solver/backend.h"
#include "solver/finite.h"
#include "solver/io/checkpoint.h"
#include "solver/io/init.h"
#include "solver/physics/integrate.h"
#include "tests/tb_run.h"
#include "tests/tb_test.h"

static void base_config(sim_config *c, int n, int type)
{
    cfg_defaults(c);
    snprintf(c->path, sizeof c->path, "test_integrate");
    c->system.particles = n;
    c->system.seed = 23;
    c->system.init.type = CFG_INIT_RANDOM;
    c->system.init.min_distance = 1.05;
    c->system.init.temperature = 0.37;
    c->potential.atm.nu = 0.0731;
    c->potential.atm.cutoff = 0.0;
    c->potential.lj.enabled = 1;
    c->potential.lj.cutoff = 1.0e4; /* smooth: no cutoff crossings */
    c->potential.lj.shift = 0;
    c->solver.backend = CFG_BACKEND_CPU;
    c->solver.precision = CFG_PREC_DOUBLE;
    c->solver.tile = 8;
    snprintf(c->solver.root, sizeof c->solver.root, "exact");
    c->integrator.type = type;
    c->integrator.dt = 0.004;
    c->integrator.temperature = c->integrator.temperature_end = 0.41;
    c->integrator.gamma = 4.0;
    c->integrator.nh.chain = 3;
    c->integrator.nh.period = 0.3;
}

/* Langevin: <T> = T0 within 4 standard errors (block averages of 100 steps, 4 times the
 * kinetic energy's correlation time 1/(2 gamma) = 0.125 tau = 31 steps), and the relative
 * standard deviation of T over all 6000 samples against sqrt(2/N_f) (the Gamma distribution
 * of K) within 4 of its own standard errors. BAOAB's kinetic temperature is exact for free particles and errs by
 * O(dt^2) otherwise, far below the statistical error here. */
static void test_langevin_canonical(void)
{
    enum { N = 27, EQUIL = 1000, BLOCKS = 60, BLOCK = 100 };
    sim_config c;
    run r;
    double bm[BLOCKS], g1 = 0.0, g2 = 0.0;
    base_config(&c, N, CFG_INTEG_LANGEVIN);
    c.integrator.steps = EQUIL + BLOCKS * BLOCK;
    if (run_open(&r, &c) != 0) {
        gsl_test(1, "langevin: setup");
        run_close(&r);
        return;
    }
    const double T0 = c.integrator.temperature, nf = 3.0 * N - 3.0;
    long step = 0;
    int bad = integ_advance(r.g, &cpu_backend_ops, r.b, step, EQUIL) != 0;
    step += EQUIL;
    for (int k = 0; k < BLOCKS && !bad; k++) {
        double s1 = 0;
        for (int i = 0; i < BLOCK; i++) {
            double ke;
            bad |= integ_advance(r.g, &cpu_backend_ops, r.b, step++, 1) != 0;
            cpu_backend_ops.kinetic(r.b, &ke);
            const double T = 2.0 * ke / nf;
            s1 += T;
            g1 += T;
            g2 += T * T;
        }
        bm[k] = s1 / BLOCK;
    }
    gsl_test(bad, "langevin: %d steps run", (int)step);
    double m = 0, v = 0;
    for (int k = 0; k < BLOCKS; k++)
        m += bm[k] / BLOCKS;
    for (int k = 0; k < BLOCKS; k++)
        v += (bm[k] - m) * (bm[k] - m) / (BLOCKS - 1);
    const double ns = (double)BLOCKS * BLOCK, sm = sqrt(g2 / ns - (g1 / ns) * (g1 / ns)) / T0;
    /* the std's standard error, sqrt(1/(2 n_eff)) relative, with n_eff = samples / (2 x 31) */
    const double err = sqrt(v / BLOCKS), want = sqrt(2.0 / nf), serr = want * sqrt(62.0 / (2 * ns));
    gsl_test(fabs(m - T0) > 4 * err, "langevin: <T> = %.5f vs T0 = %.5f (standard error %.2g, "
             "%.2f sigma)", m, T0, err, (m - T0) / err);
    gsl_test(fabs(sm - want) > 4 * serr,
             "langevin: std(T)/T0 = %.4f vs canonical sqrt(2/N_f) = %.4f (standard error %.2g)",
             sm, want, serr);
    run_close(&r);
}

/* max |H - H0| over 3000 steps of integrator `type` at time step dt; *de: the same for
 * K + U alone. */
static double conserved_error(int type, double dt, double *de)
{
    sim_config c;
    run r;
    double dh = 0.0;
    base_config(&c, 27, type);
    c.integrator.dt = dt;
    c.integrator.steps = 3000;
    *de = 0.0;
    if (run_open(&r, &c) != 0) {
        run_close(&r);
        return NAN;
    }
    cpu_backend_ops.fetch(r.b, &r.s);
    const double h0 = sim_conserved(&r.s);
    for (long s = 0; s < 3000; s += 10) {
        if (integ_advance(r.g, &cpu_backend_ops, r.b, s, 10) != 0) {
            dh = NAN;
            break;
        }
        cpu_backend_ops.fetch(r.b, &r.s);
        r.s.e_bath = integ_bath(r.g);
        dh = fmax(dh, fabs(sim_conserved(&r.s) - h0));
        *de = fmax(*de, fabs(sim_conserved(&r.s) - r.s.e_bath - h0));
    }
    run_close(&r);
    return dh;
}

/* Nose-Hoover: H = K + U + E_chain is conserved as well as velocity Verlet conserves the
 * energy of the same system (within 3 times its error: measured 1.6 times at dt = 0.004),
 * its error is second order (dt -> dt/2 divides it by ~4: measured 3.8; accepted >= 3), and
 * K + U alone, which exchanges heat with the chain, moves far more. */
static void test_nh_conserved(void)
{
    double de, de2, de_nve;
    const double dh = conserved_error(CFG_INTEG_NOSE_HOOVER, 0.004, &de);
    const double dh2 = conserved_error(CFG_INTEG_NOSE_HOOVER, 0.002, &de2);
    const double dnve = conserved_error(CFG_INTEG_NVE, 0.004, &de_nve);
    gsl_test(!(dh <= 3.0 * dnve), "nose-hoover: max |H - H0| = %.3g <= 3 x velocity Verlet's "
             "max |E - E0| = %.3g (3000 steps, dt = 0.004)", dh, dnve);
    gsl_test(!(dh / dh2 >= 3.0), "nose-hoover: error ratio dt / (dt/2) = %.2f >= 3 (second "
             "order)", dh / dh2);
    gsl_test(!(de > 100 * dh), "nose-hoover: K + U alone changes (%.3g) far more than H (%.3g)",
             de, dh);
}

/* The ramp: T(s) = T0 + (T1 - T0) (s + 1) / steps. */
static void test_ramp(void)
{
    sim_config c;
    sim_state s;
    integ *g = NULL;
    base_config(&c, 5, CFG_INTEG_LANGEVIN);
    c.integrator.temperature = 0.5;
    c.integrator.temperature_end = 1.5;
    c.integrator.steps = 100;
    if (sim_state_alloc(&s, 5) != 0 || integ_create(&g, &c, &s) != 0) {
        gsl_test(1, "ramp: setup");
        return;
    }
    gsl_test_rel(integ_target(g, 0), 0.51, 1e-15, "ramp: target of the first step");
    gsl_test_rel(integ_target(g, 49), 1.0, 1e-15, "ramp: target of step 49 -> 50");
    gsl_test_rel(integ_target(g, 99), 1.5, 1e-15, "ramp: target of the last step");
    gsl_test_rel(integ_target(g, 150), 1.5, 1e-15, "ramp: held past the end (a longer restart)");
    integ_destroy(g);
    sim_state_free(&s);
}

/* 300 steps in one go equal 120 + a checkpoint file + 180, bit for bit. */
static void test_restart(int type)
{
    const char *name = cfg_integrator_name(type);
    char dir[4096], path[4200];
    sim_config c;
    run a, b;
    ckpt_extra x;
    sim_state rs;
    base_config(&c, 21, type);
    c.integrator.steps = 300;
    if (tb_test_temp_dir(dir, sizeof dir, "integrate") != 0)
        return;
    snprintf(path, sizeof path, "%s/%s.tbck", dir, name);
    if (run_open(&a, &c) != 0 || run_open(&b, &c) != 0) {
        gsl_test(1, "%s restart: setup", name);
        return;
    }
    int bad = integ_advance(a.g, &cpu_backend_ops, a.b, 0, 300) != 0;
    cpu_backend_ops.fetch(a.b, &a.s);
    a.s.e_bath = integ_bath(a.g);

    bad |= integ_advance(b.g, &cpu_backend_ops, b.b, 0, 120) != 0;
    cpu_backend_ops.fetch(b.b, &b.s);
    b.s.step = 120;
    memset(&x, 0, sizeof x);
    x.thermo_bytes = x.traj_bytes = -1;
    x.dt = c.integrator.dt;
    bad |= integ_save(b.g, &x.thermostat, &x.thermostat_len) != 0;
    bad |= ckpt_write(path, &b.s, &x) != 0;
    free(x.thermostat);
    run_close(&b);
    /* a fresh process's view: state, backend and integrator from the file alone */
    memset(&b, 0, sizeof b);
    bad |= ckpt_read(path, 0, NULL, &rs, &x) != 0;
    gsl_test(x.thermostat_len == 0, "%s restart: checkpoint carries a THRM section (%zu bytes)",
             name, x.thermostat_len);
    bad |= cpu_backend_ops.create(&b.b, &c, &rs) != 0 || integ_create(&b.g, &c, &rs) != 0;
    bad |= integ_restore(b.g, x.thermostat, x.thermostat_len, path) != 0;
    free(x.thermostat);
    bad |= integ_advance(b.g, &cpu_backend_ops, b.b, 120, 180) != 0;
    b.s = rs;
    cpu_backend_ops.fetch(b.b, &b.s);
    const size_t bytes = 3 * (size_t)c.system.particles * sizeof(double);
    gsl_test(bad || memcmp(a.s.pos, b.s.pos, bytes) != 0 || memcmp(a.s.vel, b.s.vel, bytes) != 0 ||
                 integ_bath(a.g) != integ_bath(b.g),
             "%s: 120 steps + checkpoint + 180 steps equal 300 steps bit for bit", name);
    gsl_test(a.s.e_bath == 0.0, "%s: the bath energy moved (%.6g)", name, a.s.e_bath);
    run_close(&a);
    run_close(&b);
    tb_test_remove_dir(dir);
}

/* integ_check_start at its threshold (|F| dt^2 / 2m against the shortest range) and
 * sim_find_nonfinite's thermo columns, on hand-made states of 3 particles. */
static void test_start_checks(void)
{
    sim_config c;
    sim_state s;
    tb_nonfinite nf;
    char err[512];
    int found;
    base_config(&c, 3, CFG_INTEG_NVE);
    c.potential.lj.cutoff = 2.5;
    c.integrator.dt = 0.01;
    if (sim_state_alloc(&s, 3) != 0)
        return;
    s.mass[0] = 2.0;
    s.pos[3] = 1.2; /* particles 0 and 1 are 1.2 apart, particle 2 at 7 */
    s.pos[7] = 7.0;
    /* reach = |F| dt^2 / 2m = |F| 2.5e-5: exactly 2.5 at |F| = 1e5 */
    s.force[3] = 1e5;
    gsl_test(integ_check_start(&s, &c, "t.cfg") != 0,
             "a force that moves a particle exactly the LJ cutoff in one step passes");
    s.force[3] = 1.001e5;
    tb_test_capture_begin();
    const int rc = integ_check_start(&s, &c, "t.cfg");
    tb_test_capture_end(err, sizeof err);
    gsl_test(rc != 2 || !strstr(err, "the force on particle 1 (1e+05 epsilon/sigma) moves it "
                                     "2.5 sigma") ||
                 !strstr(err, "its closest particle is 0, 1.2 sigma away"),
             "0.1 %% more: exit 2 naming particle 1 and its closest, 0 (%s)", err);
    c.potential.atm.nu = 0.07;
    c.potential.atm.cutoff = 2.0; /* the shorter range now */
    tb_test_capture_begin();
    const int rc2 = integ_check_start(&s, &c, "t.cfg");
    tb_test_capture_end(err, sizeof err);
    gsl_test(rc2 != 2 || !strstr(err, "range, 2 sigma (potential.atm.cutoff)"),
             "with an ATM cutoff of 2 the range is 2 (%s)", err);
    s.force[3] = 0;

    gsl_test(sim_find_nonfinite(&s, &nf) != 0, "a finite state has no non-finite value");
    s.virial[4] = NAN;
    found = sim_find_nonfinite(&s, &nf);
    gsl_test(!(found == 1 && nf.term == TB_NF_VIRIAL && nf.particle < 0),
             "a NaN virial component is found (term %d)", nf.term);
    s.virial[4] = 0;
    s.vel[0] = 1e154; /* v.v = 1e308 > DBL_MAX / 12: the sum of m v^2 / 2 could overflow */
    found = sim_find_nonfinite(&s, &nf);
    gsl_test(!(found == 1 && nf.term == TB_NF_KINETIC && nf.particle == 0),
             "a finite velocity beyond the kinetic bound is found (term %d, particle %d)", nf.term,
             nf.particle);
    s.vel[0] = 0;
    s.e_pair = 1.5e308;
    s.e_triplet = 1.5e308; /* each finite, their total not */
    found = sim_find_nonfinite(&s, &nf);
    gsl_test(!(found == 1 && nf.term == TB_NF_TOTAL),
             "a total energy that overflows is found (term %d)", nf.term);
    s.e_triplet = 0;
    s.e_bath = 1.5e308; /* K + U finite, + E_bath not */
    found = sim_find_nonfinite(&s, &nf);
    gsl_test(!(found == 1 && nf.term == TB_NF_CONSERVED),
             "a conserved quantity that overflows is found (term %d)", nf.term);
    s.e_bath = 0;
    s.e_pair = 0;
    s.box = box_cube_d(1e-110); /* V = 1e-330 underflows to 0: the pressure divides by it */
    s.vel[0] = 1.0;
    found = sim_find_nonfinite(&s, &nf);
    gsl_test(!(found == 1 && nf.term == TB_NF_PRESSURE),
             "a pressure that overflows is found (term %d, %s)", nf.term,
             tb_nonfinite_term(nf.term));
    sim_state_free(&s);
}

int main(void)
{
    tb_test_init();
    test_start_checks();
    test_ramp();
    test_langevin_canonical();
    test_nh_conserved();
    test_restart(CFG_INTEG_LANGEVIN);
    test_restart(CFG_INTEG_NOSE_HOOVER);
    return tb_test_done();
}
