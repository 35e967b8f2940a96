/* fuzz_config.c — libFuzzer target: the config loader (config/config.c over libconfig) and,
 * for a small accepted configuration, the initial state it describes (solver/io/init.c).
 *
 * Each input is written to a scratch file and loaded as a config file. Besides the
 * sanitizers' crashes, leaks and undefined behaviour, the target aborts on a broken promise:
 * a configuration that loads (exit 0) must hold only finite float settings no larger than
 * CFG_FLOAT_MAX (the species, composition, pairs and triplets within their ranges), and an
 * initial state built from it must be finite. Initial states are built
 * only for n <= 64 so that one input stays fast; a hang shows up as a libFuzzer timeout. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/config.h"
#include "solver/finite.h"
#include "solver/io/init.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char scratch[64];

static void broken(const char *what, double v)
{
    fprintf(stderr, "fuzz_config: broken promise: %s (%g)\n", what, v);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sim_config c;
    sim_state s;
    FILE *f;
    if (!scratch[0]) {
        snprintf(scratch, sizeof scratch, "/tmp/fuzz_config_%ld.cfg", (long)getpid());
    }
    if (!(f = fopen(scratch, "wb")))
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    if (cfg_load(&c, scratch, 0, NULL) != 0)
        return 0;
    const double fl[] = {c.system.mass, c.system.box, c.system.init.radius,
                         c.system.init.min_distance, c.system.init.temperature,
                         c.potential.atm.nu, c.potential.atm.cutoff, c.potential.lj.epsilon,
                         c.potential.lj.sigma, c.potential.lj.cutoff, c.integrator.dt};
    for (size_t i = 0; i < sizeof fl / sizeof fl[0]; i++)
        if (!isfinite(fl[i]) || fabs(fl[i]) > CFG_FLOAT_MAX)
            broken("a loaded float setting is non-finite or beyond CFG_FLOAT_MAX", fl[i]);
    /* the lists: every species' mass > 0, the composition a distribution, every pair's and
     * triplet's coefficients finite and in range, their species within n_species */
    double sum = 0;
    if (c.system.n_species < 1 || c.system.n_species > TB_TYPES_MAX)
        broken("n_species out of 1 .. TB_TYPES_MAX", c.system.n_species);
    for (int i = 0; i < c.system.n_species; i++)
        if (!(c.system.species[i].mass > 0) || c.system.species[i].mass > CFG_FLOAT_MAX ||
            !c.system.species[i].name[0])
            broken("a species without a name or a mass in (0, CFG_FLOAT_MAX]",
                   c.system.species[i].mass);
    for (int i = 0; i < c.system.init.n_composition; i++)
        sum += c.system.init.composition[i];
    if (c.system.init.n_composition && (c.system.init.n_composition != c.system.n_species ||
                                        fabs(sum - 1.0) > 1e-12))
        broken("a composition that is not one fraction per species summing to 1", sum);
    for (int i = 0; i < c.potential.lj.n_pairs; i++) {
        const cfg_lj_pair *p = &c.potential.lj.pairs[i];
        if (p->t[0] < 0 || p->t[0] > p->t[1] || p->t[1] >= c.system.n_species ||
            !(p->epsilon > 0) || !(p->sigma > 0) || !(p->cutoff >= 0) ||
            p->epsilon > CFG_FLOAT_MAX || p->sigma > CFG_FLOAT_MAX || p->cutoff > CFG_FLOAT_MAX)
            broken("an LJ pair out of range", (double)i);
    }
    for (int i = 0; i < c.potential.atm.n_triplets; i++) {
        const cfg_atm_triplet *q = &c.potential.atm.triplets[i];
        if (q->t[0] < 0 || q->t[0] > q->t[1] || q->t[1] > q->t[2] ||
            q->t[2] >= c.system.n_species || !(q->nu >= 0) || q->nu > CFG_FLOAT_MAX)
            broken("an ATM triplet out of range", (double)i);
    }
    if (c.system.particles < 3 || c.system.particles > 64)
        return 0;
    memset(&s, 0, sizeof s);
    if (sim_init(&s, &c) == 0) {
        tb_nonfinite nf;
        if (sim_find_nonfinite(&s, &nf))
            broken("an initial state with a non-finite value", (double)nf.term);
        sim_state_free(&s);
    }
    return 0;
}
