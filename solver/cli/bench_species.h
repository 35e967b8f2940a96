/* bench_species.h — `tribody bench --species LIST` and `bench --liquid --species LIST`: the same
 * system as K species for each K of the list, so that the timings show the cost of the
 * several-species path (the typed tiles, triangles and GPU kernels) against one species. A leaf
 * of cmd_bench.c, bench_solver.c and bench_liquid.c (bench_species_experiment is declared with
 * the other experiments in bench_int.h). */
#ifndef TB_BENCH_SPECIES_H
#define TB_BENCH_SPECIES_H

#include "config/config.h"
#include "solver/state.h"

/* Parses a comma-separated list of K (1 .. TB_TYPES_MAX, at most TB_TYPES_MAX of them) into
 * ks[*nk]; 0, or -1 after a one-line message naming `who`. */
int bench_species_parse(const char *v, int *ks, int *nk, const char *who);

/* K species of one cost: the same sigma and cutoffs as c's shorthand (so the same pairs and
 * triplets within the cutoffs as one species), epsilon_t = (1 - 0.05 t) epsilon given per
 * species pair (the cross pairs mixed), masses 1 + 0.25 t times system.mass, nu the shorthand
 * for every triplet (every triplet counts: the typed path's most work). K = 1 leaves c as it
 * is. */
void bench_species_config(sim_config *c, int k);

/* The species of c (bench_species_config) on s: particle i of species i mod K (the positions
 * are random or a random subset of a lattice, so the species are mixed), the names and masses
 * of c; K = 1: every particle of species 0, the mass s had. */
void bench_species_state(sim_state *s, const sim_config *c);

/* The ratio of triplets/s at K species to those at one species, printed by both experiments:
 * a value near 1 is the price of species being nearly free. */
static inline double bench_species_ratio(double rate, double rate1)
{
    return rate1 > 0 ? rate / rate1 : 0.0;
}

#endif
