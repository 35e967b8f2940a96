/* integrate.h — the integrators of `tribody run`: velocity Verlet (nve), Langevin dynamics
 * (BAOAB) and a Nose-Hoover chain, composed from the backends' primitive steps.
 *
 * docs/physics.md gives the equations. In brief, with h = dt/2, target T_s at step s:
 *   nve:          the backend's advance() (velocity Verlet).
 *   langevin:     B(h) A(h) O(dt) A(h) [forces] B(h), B: v += (h/m) F, A: x += h v,
 *                 O: v = c1 v + c2 xi, c1 = exp(-gamma dt), c2 = sqrt((1 - c1^2) k T / m),
 *                 xi standard normal (GSL mt19937, ziggurat) with its mean over the particles
 *                 removed per component, so the total momentum is not kicked by the noise.
 *   nose-hoover:  NHC(h) B(h) A(dt) [forces] B(h) NHC(h), NHC the Martyna-Tuckerman-Klein
 *                 chain propagator with a 3-stage Suzuki-Yoshida factorization; chain masses
 *                 Q_1 = N_f k T tau^2, Q_j = k T tau^2 (j >= 2), as LAMMPS's fix nvt.
 * A ramp sets the target of the step from s to s + 1 to T(s + 1) = T0 + (T1 - T0) (s + 1) /
 * steps (LAMMPS's convention).
 *
 * The state beyond the particles (chain positions and velocities, the RNG state, the
 * bath energy) is saved in checkpoints as an opaque block (integ_save / integ_restore), so
 * a restarted run repeats an uninterrupted one bit for bit. */
#ifndef TB_INTEGRATE_H
#define TB_INTEGRATE_H

#include <stddef.h>

#include "config/config.h"
#include "solver/backend.h"
#include "solver/state.h"

TB_BEGIN_DECLS

typedef struct integ integ;

/* Sets up the integrator of c for the n particles of s (fresh chain, RNG seeded from
 * system.seed). 0, or -1 (out of memory, reported). */
int integ_create(integ **out, const sim_config *c, const sim_state *s);

/* Frees g; accepts NULL. */
void integ_destroy(integ *g);

/* Advances nsteps steps from step `step` (the forces in b current, as after compute() or a
 * previous advance). 0 or -1. */
int integ_advance(integ *g, const backend_ops *ops, backend *b, long step, long nsteps);

/* The thermostat's energy term E_bath [epsilon]: K + U + E_bath is the conserved quantity
 * (the energy the Langevin bath has taken out; the chain's energy for Nose-Hoover; 0 nve),
 * plus the barostat's P0 V + W (baro.h) when there is one. */
double integ_bath(const integ *g);

/* MTK on a backend that holds it (backend.h's mtk: the GPU; TB_BARO_HOST=1 keeps the host
 * path): the backend's state runs ahead of g's (the chain, the strain rates; the box is always
 * the host's too). integ_advance brings g up to date before it returns, unless integ_lazy(g)
 * was called: then the caller calls integ_sync before it reads g (integ_bath, integ_save, the
 * barostat's block), on the steps it fetches: one wait fewer per step. 0 or -1. */
void integ_lazy(integ *g);
int integ_sync(integ *g, const backend_ops *ops, backend *b);

/* Target temperature of the step from `step` to step + 1 [epsilon/k_B]. */
double integ_target(const integ *g, long step);

/* The state as bytes for a checkpoint (malloc'd into *buf, length *len; *buf NULL and *len 0
 * for nve, which has none). 0 or -1. */
int integ_save(const integ *g, unsigned char **buf, size_t *len);

/* Restores what integ_save wrote. A block of another integrator type is ignored with a notice
 * (the run starts that thermostat afresh); a block that does not fit this configuration
 * (another chain length, a corrupt RNG state) is an error naming `path`: TB_EXIT_USAGE. */
int integ_restore(integ *g, const unsigned char *buf, size_t len, const char *path);

/* The barostat's state (baro.h) for the checkpoint's section "BARO" (*buf NULL, *len 0
 * without a barostat), and its restore (no block: a fresh barostat, with a notice). */
int integ_save_baro(const integ *g, unsigned char **buf, size_t *len);
int integ_restore_baro(integ *g, const unsigned char *buf, size_t len, const char *path);

/* Whether velocity Verlet can take the first step of s (forces evaluated) at integrator.dt:
 * the force on every particle must move it, over one step, by |F| dt^2 / (2m) at most the
 * shortest interaction range: the smallest cutoff of the terms that run (pot_range_min,
 * potential.h: a species pair's LJ cutoff, ATM's), half a periodic box, or else the extent of
 * the initial cluster.
 * Beyond it a particle jumps past every partner it interacts with in one step, the energy
 * is not conserved even roughly, and the next steps overflow (two atoms 1e-13 sigma apart,
 * system.mass = 1e-300). Returns 0, or TB_EXIT_USAGE after one line naming `where`, the
 * particle, its displacement, the range and its closest particle. */
int integ_check_start(const sim_state *s, const sim_config *c, const char *where);

TB_END_DECLS

#endif
