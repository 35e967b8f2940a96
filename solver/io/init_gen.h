/* init_gen.h — what the parts of the initial state share (io/ internal): the generators'
 * entry points (init_random.c, init_lattice.c) and the seeded random streams of init.c. */
#ifndef TB_INIT_GEN_H
#define TB_INIT_GEN_H

#include <gsl/gsl_rng.h>

#include "config/config.h"
#include "solver/state.h"

#define INIT_DENSITY 0.7    /* default number density of a random cluster [sigma^-3] */
#define INIT_COMPRESSED 0.8 /* periodic lattice: notice below this neighbour distance [sigma] */

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* mt19937 uses the low 32 bits of its seed; fold the high half in. */
unsigned long init_seed32(unsigned long long x);
/* splitmix64 (Steele, Lea, Flood 2014): a bijective hash of the seed, for the streams that
 * must not be a function of the position draws (velocities, species). */
unsigned long long init_splitmix64(unsigned long long x);
/* A GSL mt19937 seeded with seed, or NULL without memory. */
gsl_rng *init_rng_new(unsigned long seed);

/* A periodic cube (any origin): the generators' own path, whose states predate general boxes. */
static inline int init_box_is_cube(const tb_box_d *b)
{
    return b->pbc == TB_BOX_PERIODIC_ALL && !b->tilted && b->l[0] == b->l[1] && b->l[1] == b->l[2];
}

/* The particles of each of nt species with fractions f (sum 1) among n, into count (init.c):
 * floor(f n) each, the rest one each by the largest remainders, ties to the earlier species. */
void init_species_counts(const double *f, int nt, int n, int *count);

/* Random sequential addition of s->n particles in s's box (init_random.c). */
int init_random(sim_state *s, const sim_config *c);
/* The same, cell by cell on OpenMP's threads (system.init.placement = "parallel",
 * init_par.c): other positions than init_random's, the same for any number of threads. */
int init_random_parallel(sim_state *s, const sim_config *c);
/* Tests: with init_par_verify set, init_random_parallel checks every sub-cube it cut (its
 * corners within min_distance of one particle) into init_par_dead (checked), init_par_bad. */
extern int init_par_verify;
extern long init_par_dead, init_par_bad;
/* Candidates drawn and tested per parallel batch in init_random (default 32768); any value >= 1
 * gives the same positions, 1 being the plain sequential test (tests/test_init_gen.c). */
extern int init_random_batch;
/* fcc: the n sites nearest a site at neighbour distance d, open boundaries (init_lattice.c). */
int init_lattice_open(sim_state *s, double d);
/* fcc: the first n sites of the lattice filling s's box, any box with a periodic axis
 * (init_lattice.c); sigma: the length of the compressed-lattice notice. */
void init_lattice_periodic(sim_state *s, double sigma);

#endif
