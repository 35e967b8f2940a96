/* init.h — initial states: random cluster, lattice, or an XYZ file; Maxwell–Boltzmann
 * velocities with zero total momentum.
 *
 * random: n points uniform in a sphere of radius R (system.init.radius; default from a
 *   number density of 0.7 sigma^-3, R = (3n / (4 pi 0.7))^(1/3)), no two closer than
 *   system.init.min_distance, by seeded rejection sampling (GSL mt19937, system.seed).
 *   With a periodic axis: uniform in the box instead of a sphere (any box: fractions uniform
 *   in [0, 1)^3, an open axis its given extent; minimum-image distances). A placement that takes
 *   more than a second shows a progress line on stderr when it is a terminal.
 *   system.init.placement = "parallel": random sequential addition cell by cell on OpenMP's
 *   threads instead (init_par.c), other positions, the same for any number of threads.
 * lattice: fcc with nearest-neighbour distance system.init.min_distance; open boundaries
 *   take the n sites nearest the centre (a compact cluster), a box with a periodic axis is
 *   filled with the smallest fcc lattice of >= n sites, its cells the box's scaled per axis.
 * random, lattice with several species: system.init.composition's counts (largest
 *   remainders), the species shuffled over the sites by their own seeded stream.
 * xyz: positions (and velocities, when the file has them) from system.init.file.
 * Velocities not read from a file are drawn from Maxwell–Boltzmann at
 * system.init.temperature, the centre-of-mass velocity removed and the kinetic energy
 * rescaled to exactly that temperature (3n - 3 degrees of freedom).
 *
 * Every state is then put where the float force path can resolve it (docs/physics.md):
 * periodic positions are wrapped into [0, L) in double; open positions are shifted, axis
 * by axis, by the centre of their bounding box when that box does not contain the origin
 * (a compact cluster far from the origin); and in mixed and single precision an extent
 * (open: the bounding box's largest edge; periodic: L) beyond SIM_FLOAT_EXTENT_MAX is
 * refused, since products of squared distances would overflow float. */
#ifndef TB_INIT_H
#define TB_INIT_H

#include "config/config.h"
#include "solver/state.h"

TB_BEGIN_DECLS

/* Allocates s and fills positions, velocities, species, mass and box from c. Returns 0;
 * TB_EXIT_USAGE on bad input (an unreadable or malformed XYZ file, a cluster that cannot
 * be packed with the requested minimum distance), with a one-line message; -1 on other
 * failures. On failure s is already freed (sim_state_free on it again is harmless).
 * Writes no file. */
int sim_init(sim_state *s, const sim_config *c);

/* The largest extent [sigma] the float path (mixed, single) accepts: the ATM formula
 * multiplies three squared distances, up to (3 L^2)^3 = 2.7e37 < FLT_MAX = 3.4e38. */
#define SIM_FLOAT_EXTENT_MAX 1e6

/* s's box (a file's, or one handed to the library) against c's cutoffs: each at most half
 * the smallest periodic width, as the config checks system.box (config_checks.c), here once
 * the box is known. 0, or -1 after one line "where: setting: ... of whose (half width)". */
int sim_check_cutoffs(const sim_state *s, const sim_config *c, const char *where,
                      const char *setting, const char *whose);

/* Wraps periodic positions into [0, L); shifts open positions (see above). */
void sim_place(sim_state *s);
/* The same in one pass from src[3n] into dst[3n] (another array; s->pos is not touched), with
 * the positions' finiteness checked on the way: -1, or the index of the first non-finite
 * coordinate (dst then holds a part of the work). The library's set_positions. keep (NULL:
 * none): a bitwise copy of src written in the same pass (tribody_set_positions_copy; written
 * in full only when -1 is returned). */
long sim_place_from(sim_state *s, const double *src, double *dst, double *keep);

/* Checks s's extent against SIM_FLOAT_EXTENT_MAX for precision (enum cfg_precision).
 * (Every axis periodic: the box alone decides, without a pass over the positions.)
 * Returns 0, or TB_EXIT_USAGE after one line naming `where`, the extent and the limit. */
int sim_check_extent(const sim_state *s, int precision, const char *where);

/* Draws Maxwell–Boltzmann velocities at temperature T (0 gives zero velocities), removes
 * the centre-of-mass velocity and rescales to exactly T. Uses seed, through a hash that
 * makes this stream independent of the positions sim_init draws from the same seed. */
void sim_init_velocities(sim_state *s, double T, unsigned long seed);

TB_END_DECLS

#endif
