/* tb_system.h — the small LJ + ATM test system ("high entropy" coefficients) that
 * test_solver.c and test_virial.c both start from: n random particles, CPU backend, double
 * precision, tile 8, the exact lambda root. Each test then sets what it varies; two named
 * species (tb_two_species); and one evaluation of a state under it through the CPU backend
 * (tb_system_eval). */
#ifndef TB_SYSTEM_H
#define TB_SYSTEM_H

#include <stdio.h>

#include "config/config.h"
#include "solver/backend.h"

static inline void tb_system_config(sim_config *c, const char *path, int n, unsigned long seed,
                                    double min_distance, double temperature)
{
    cfg_defaults(c);
    snprintf(c->path, sizeof c->path, "%s", path);
    c->system.particles = n;
    c->system.seed = seed;
    c->system.init.type = CFG_INIT_RANDOM;
    c->system.init.min_distance = min_distance;
    c->system.init.temperature = temperature;
    c->potential.atm.nu = 0.0731;
    c->potential.atm.cutoff = 0.0;
    c->potential.lj.enabled = 1;
    c->potential.lj.epsilon = 1.07;
    c->potential.lj.sigma = 0.983;
    c->potential.lj.cutoff = 2.7;
    c->potential.lj.shift = 1;
    c->solver.backend = CFG_BACKEND_CPU;
    c->solver.precision = CFG_PREC_DOUBLE;
    c->solver.tile = 8;
    snprintf(c->solver.root, sizeof c->solver.root, "exact");
}

/* Two named species, A (mass 1) and B (mass mb), as a config file would give them
 * (test_boxes.c, test_nbr_simd.c; their pairs and triplets are each test's own). */
static inline void tb_two_species(sim_config *c, double mb)
{
    c->system.n_species = 2;
    c->system.species_given = 1;
    snprintf(c->system.species[0].name, sizeof c->system.species[0].name, "A");
    snprintf(c->system.species[1].name, sizeof c->system.species[1].name, "B");
    c->system.species[0].mass = 1.0;
    c->system.species[1].mass = mb;
}

/* Forces, energies and virial of state s under c, through the CPU backend; 0 or an error. */
static inline int tb_system_eval(const sim_config *c, sim_state *s)
{
    backend *b = NULL;
    int rc = cpu_backend_ops.create(&b, c, s);
    if (rc == 0)
        rc = cpu_backend_ops.compute(b) || cpu_backend_ops.fetch(b, s);
    cpu_backend_ops.destroy(b);
    return rc;
}

#endif
