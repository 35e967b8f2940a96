/* test_units_nve.c — energy conservation does not depend on the unit style: argon as an LJ + ATM
 * liquid in reduced units (units lj) and the same argon in units metal, where every setting
 * left out takes the config's argon default in the style (config/units.c, units_argon: sigma
 * 3.405 Angstrom, epsilon/k_B 119.8 K, m 39.948 g/mol, tau = sigma sqrt(m/epsilon) = 2.156 ps).
 *
 * The metal run starts from the LJ run's state scaled to the style (positions by sigma,
 * velocities by sigma/tau) and steps the matching time step (dt_lj tau), so both integrate one
 * trajectory in different numbers: NVE through the CPU backend's neighbour lists, 400 steps
 * of 0.002 tau (4.3 fs), energy sampled every 10 steps. Asserted: the metal config's defaults
 * are the LJ ones scaled (to 1e-12), the two starting energies agree in reduced units (1e-10),
 * each run's drift max_t |E(t) - E(0)| / |E(0)| is small (< 1e-3; 1.5e-4 measured), the metal
 * drift is within a factor 2 of the LJ drift and in fact equal to 1e-3 (the same trajectory),
 * and the temperatures at the end agree in kelvin. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "config/config.h"
#include "config/units.h"
#include "solver/backend.h"
#include "solver/io/init.h"
#include "solver/state.h"
#include "tests/tb_test.h"

#define STEPS 400
#define EVERY 10

static const char cfg_text[] =
    "units = \"%s\";\n"
    "system = { particles = 108; box = %.17g; boundary = \"periodic\";\n"
    "           init = { type = \"lattice\"; temperature = %.17g; }; };\n"
    "potential = { lj = { }; atm = { cutoff = %.17g; }; };\n"
    "integrator = { dt = %.17g; steps = %d; };\n"
    "solver = { backend = \"cpu\"; precision = \"double\"; cull = true; skin = %.17g; };\n"
    "output = { thermo = \"\"; trajectory = \"\"; checkpoint = \"\"; };\n";

/* 108 atoms at rho 0.5 sigma^-3 (L = 6.0 sigma), T = 1.0 epsilon/k_B from an fcc lattice,
 * dt = 0.002 tau; the ATM cutoff at 2.9 sigma, just below L/2, where a triplet crossing it
 * changes E by ~5e-6 epsilon (at the default L/4 = 1.5 sigma the hard cutoff's jumps dominate
 * the drift). The LJ term alone drifts 1.3e-4 here (shifted energy, its force cut at 2.5). */
static int load(const char *dir, const char *units, double f_len, double f_temp, double f_time,
                sim_config *c)
{
    char text[2048];
    const double L = cbrt(108 / 0.5);
    snprintf(text, sizeof text, cfg_text, units, L * f_len, 1.0 * f_temp, 2.9 * f_len,
             0.002 * f_time, STEPS, 0.3 * f_len);
    const char *path = tb_test_write_file(dir, units, text);
    return path ? cfg_load(c, path, 0, NULL) : -1;
}

/* NVE of s under c; max_t |E(t) - E(0)| / |E(0)| into *drift and E(0) into *e0. 0 or -1. */
static int nve(const sim_config *c, sim_state *s, double *drift, double *e0)
{
    backend *b = NULL;
    int rc = cpu_backend_ops.create(&b, c, s);
    *drift = 0.0;
    if (rc == 0)
        rc = cpu_backend_ops.compute(b) || cpu_backend_ops.fetch(b, s);
    *e0 = sim_conserved(s);
    for (int k = 0; rc == 0 && k < STEPS / EVERY; k++) {
        rc = cpu_backend_ops.advance(b, EVERY) || cpu_backend_ops.fetch(b, s);
        *drift = fmax(*drift, fabs(sim_conserved(s) - *e0) / fabs(*e0));
    }
    cpu_backend_ops.destroy(b);
    return rc;
}

static void test_metal_as_lj(void)
{
    char dir[256];
    sim_config cl, cm;
    sim_state sl, sm;
    if (tb_test_temp_dir(dir, sizeof dir, "units_nve") != 0)
        return;
    const tb_units *um = units_of(CFG_UNITS_METAL);
    const double f_len = units_argon(um, "sigma"), f_e = units_argon(um, "epsilon"),
                 f_tau = units_argon(um, "tau"), f_temp = units_argon(um, "epsilon/k_B"),
                 f_nu = units_argon(um, "epsilon sigma^9");
    if (load(dir, "lj", 1.0, 1.0, 1.0, &cl) != 0 || load(dir, "metal", f_len, f_temp, f_tau, &cm) != 0) {
        gsl_test(1, "configs load");
        tb_test_remove_dir(dir);
        return;
    }
    gsl_test(!(fabs(f_tau - 2.156) < 0.001), "tau of argon in metal = %.6g ps (2.156)", f_tau);
    const double d_eps = fabs(cm.potential.lj.epsilon / (cl.potential.lj.epsilon * f_e) - 1),
                 d_sig = fabs(cm.potential.lj.sigma / (cl.potential.lj.sigma * f_len) - 1),
                 d_rc = fabs(cm.potential.lj.cutoff / (cl.potential.lj.cutoff * f_len) - 1),
                 d_nu = fabs(cm.potential.atm.nu / (cl.potential.atm.nu * f_nu) - 1),
                 d_m = fabs(cm.system.species[0].mass / (cl.system.species[0].mass * 39.948) - 1);
    gsl_test(!(d_eps < 1e-12 && d_sig < 1e-12 && d_rc < 1e-12 && d_nu < 1e-12 && d_m < 1e-12),
             "metal defaults = argon's LJ ones scaled: epsilon %.6g eV, sigma %.6g A, cutoff %.6g "
             "A, nu %.6g eV A^9, mass %.6g", cm.potential.lj.epsilon, cm.potential.lj.sigma,
             cm.potential.lj.cutoff, cm.potential.atm.nu, cm.system.species[0].mass);
    if (sim_init(&sl, &cl) != 0 || sim_state_alloc(&sm, sl.n) != 0) {
        gsl_test(1, "states");
        tb_test_remove_dir(dir);
        return;
    }
    sim_set_species(&sm, &cm);
    sm.box = box_cube_d(sl.box.l[0] * f_len);
    for (int i = 0; i < 3 * sl.n; i++) {
        sm.pos[i] = sl.pos[i] * f_len;
        sm.vel[i] = sl.vel[i] * f_len / f_tau;
    }
    double dl, dm, el, em;
    const int rl = nve(&cl, &sl, &dl, &el), rm = nve(&cm, &sm, &dm, &em);
    gsl_test(!(rl == 0 && rm == 0 && fabs(em / f_e - el) <= 1e-10 * fabs(el)),
             "both runs: E(0) %.12g epsilon, metal %.12g eV = %.12g epsilon", el, em, em / f_e);
    gsl_test(!(dl < 1e-3 && dm < 1e-3 && dl > 0 && dm > 0),
             "drift over %d steps of 0.002 tau: lj %.3e, metal %.3e (both < 1e-3)", STEPS, dl, dm);
    gsl_test(!(dm <= 2.0 * dl && dm >= 0.5 * dl && fabs(dm / dl - 1.0) < 1e-3),
             "metal drift %.4e within a factor 2 of the lj drift %.4e (ratio %.6f: the same "
             "trajectory, to 1e-3)", dm, dl, dm / dl);
    const double tl = sim_temperature(&sl) * f_temp, tm = sim_temperature(&sm);
    gsl_test(!(fabs(tm - tl) <= 1e-6 * tl), "temperature at the end: lj %.9g K, metal %.9g K", tl, tm);
    sim_state_free(&sl);
    sim_state_free(&sm);
    tb_test_remove_dir(dir);
}

int main(void)
{
    tb_test_init();
    TB_TEST_RUN(test_metal_as_lj);
    return tb_test_done();
}
