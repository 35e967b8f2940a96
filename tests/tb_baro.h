/* tb_baro.h — the barostat tests' system (test_baro.c, test_mtk_dev.c): 108 LJ + ATM atoms, fcc
 * at rho = 0.75 (box 5.2415), T = 1, a liquid once melted (LJ's triple point is at T = 0.69);
 * the cutoffs of 2.0 leave room for the box to breathe (half width >= 2.0). CPU backend, double
 * precision, integrator `type` with c-rescale `coupling` (P0 = 1, period 0.5, beta 0.1, every
 * 5); each test then sets what it varies. */
#ifndef TB_TESTS_BARO_H
#define TB_TESTS_BARO_H

#include <math.h>
#include <stdio.h>

#include "config/config.h"

static inline void tb_baro_liquid(sim_config *c, const char *path, int type, int coupling)
{
    cfg_defaults(c);
    snprintf(c->path, sizeof c->path, "%s", path);
    c->system.particles = 108;
    c->system.seed = 7;
    c->system.boundary = CFG_BOUNDARY_PERIODIC;
    c->system.box = cbrt(108 / 0.75);
    for (int a = 0; a < 3; a++) {
        c->system.periodic[a] = 1;
        c->system.box_lengths[a] = c->system.box;
    }
    c->system.init.type = CFG_INIT_LATTICE;
    c->system.init.temperature = 1.0;
    c->potential.atm.nu = 0.0703;
    c->potential.atm.cutoff = 2.0;
    c->potential.lj.enabled = 1;
    c->potential.lj.cutoff = 2.0;
    c->solver.backend = CFG_BACKEND_CPU;
    c->solver.precision = CFG_PREC_DOUBLE;
    c->solver.skin = 0.3;
    c->integrator.type = type;
    c->integrator.dt = 0.005;
    c->integrator.steps = 100000;
    c->integrator.temperature = c->integrator.temperature_end = 1.0;
    c->integrator.gamma = 2.0;
    c->integrator.barostat.enabled = 1;
    c->integrator.barostat.type = CFG_BARO_CRESCALE;
    c->integrator.barostat.coupling = coupling;
    c->integrator.barostat.pressure = c->integrator.barostat.pressure_end = 1.0;
    c->integrator.barostat.period = 0.5;
    c->integrator.barostat.compressibility = 0.1;
    c->integrator.barostat.every = 5;
}

#endif
