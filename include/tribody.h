/* tribody.h — the C API of tribody (build/libtribody.so, `make`): one simulation behind an
 * opaque handle. The engine is the one `tribody eval` and `tribody run` use
 * (docs/architecture.md, "The library").
 *
 * Units: every number is in the units of the configuration's `units` style (lj, metal, real:
 * docs/config.md), as in the configuration files; arrays are interleaved x0 y0 z0 x1 ...,
 * C doubles. The box is LAMMPS's restricted triclinic: box[9] = {lx, ly, lz, xy, xz, yz,
 * xlo, ylo, zlo}, edge vectors a = (lx, 0, 0), b = (xy, ly, 0), c = (xz, yz, lz) from the
 * origin (xlo, ylo, zlo); periodic[3] per axis (1 periodic, 0 open). Species are indices
 * into the configuration's system.species (0 = the first; LAMMPS's type - 1).
 *
 * Errors: every function that can fail returns an int: TRIBODY_OK (0), TRIBODY_EINPUT (2:
 * bad configuration, argument or state, as the command line's exit status 2) or
 * TRIBODY_ERUNTIME (1: a failure of the machine, a GPU error, a non-finite value after steps).
 * tribody_last_error() then holds the one-line message ("FILE: SETTING: what is wrong (got X)").
 * The library never calls exit() and prints nothing unless tribody_set_verbose(1) asks it to
 * copy its messages to stderr. A handle whose call failed stays usable (the failed call
 * changed nothing) unless the message says otherwise (a GPU fault).
 *
 * Threads: every function may be called from any thread. Calls are serialized by one lock of
 * the library (two handles do not evaluate at the same time; each evaluation uses OpenMP
 * threads, or the GPU, inside; the host's passes of a force call over the particles,
 * set_positions' checks and wrap, the copy of the forces out and the GPU's staging copies,
 * use up to 4 of OpenMP's threads from n = 8192: OMP_NUM_THREADS=1 keeps them on the
 * caller's thread). tribody_last_error() is per thread: the message of that thread's last
 * failed call. The pointers returned by tribody_positions() and friends stay valid until the
 * next call on the same handle that changes the state (set_*, compute, run, destroy;
 * set_positions writes the new positions into a second array and swaps the two, so an older
 * positions pointer shows stale values); read them from one thread while no such call runs.
 *
 * One process: the library does not use MPI (a configuration is evaluated by one process, on
 * one GPU or the CPU's threads), even when the command line was built with it. */
#ifndef TRIBODY_H
#define TRIBODY_H

#ifdef __cplusplus
extern "C" {
#endif

#include <stddef.h>

#define TRIBODY_API_VERSION 5 /* 2: tribody_virial per term, tribody_timings; 3: the host passes;
                                * 4: tribody_set_positions_copy; 5: tribody_set_positions_changed,
                                * tribody_evaluate */

enum { TRIBODY_OK = 0, TRIBODY_ERUNTIME = 1, TRIBODY_EINPUT = 2 };

/* Terms of tribody_energy / tribody_virial. */
enum { TRIBODY_TOTAL = 0, TRIBODY_PAIR = 1, TRIBODY_TRIPLET = 2 };

typedef struct tribody tribody;

/* The API version this library implements (TRIBODY_API_VERSION of its header). */
int tribody_api_version(void);

/* A handle on the configuration file `path` (or the configuration text `text` when path is
 * NULL: libconfig syntax, no @include), with n_set "PATH=VALUE" overrides as --set takes
 * them ("solver.backend=cpu", "solver.precision=double"). The particles are the
 * configuration's initial state (system group), as `tribody run` and `eval` make it.
 * *out is NULL after a failure. */
int tribody_create(tribody **out, const char *path, const char *text, int n_set,
                   const char *const *sets);

/* A handle whose potential, units, species and solver come from the configuration (path or
 * text, as above; its system group needs no particles, box or initial state) and whose n
 * particles come from the arrays: pos[3n], species[n] (NULL: all species 0), box[9] and
 * periodic[3] (see above; box NULL: open on every axis). Velocities start at zero.
 * Periodic positions are wrapped into the box; each cutoff must be at most half the box's
 * smallest periodic width. */
int tribody_create_system(tribody **out, const char *path, const char *text, int n_set,
                          const char *const *sets, int n, const double *pos, const int *species,
                          const double *box, const int *periodic);

/* Frees the handle; NULL is accepted. */
void tribody_destroy(tribody *t);

/* New positions or velocities (3n, copied), or a new box (box[9], periodic[3]; periodic NULL
 * keeps the axes'). The next evaluation uses them; a new box rebuilds the backend. */
int tribody_set_positions(tribody *t, const double *pos);
/* tribody_set_positions, and an exact copy of pos written into copy[3n] in the same pass (a
 * binding's snapshot of what it handed in, e.g. the ASE calculator's change check: one pass
 * over the caller's array instead of two). On a failure copy may be partly written. */
int tribody_set_positions_copy(tribody *t, const double *pos, double *copy);
/* A binding's change check and set_positions in one call: when pos[3n] equals copy[3n] bit
 * for bit (copy: what the binding handed in last, as tribody_set_positions_copy wrote it),
 * *changed = 0 and nothing else is done (the last evaluation stays fresh); else *changed = 1
 * and it is tribody_set_positions_copy(t, pos, copy). The comparison reads the first
 * coordinates alone when they differ (a moved state: an MD or optimiser step), the whole
 * array on the library's threads otherwise; its time counts as the set phase's
 * (tribody_timings). On a failure copy may be partly written and *changed is 1. */
int tribody_set_positions_changed(tribody *t, const double *pos, double *copy, int *changed);
int tribody_set_velocities(tribody *t, const double *vel);
int tribody_set_box(tribody *t, const double *box, const int *periodic);

/* Evaluates the energies, forces and virial at the current positions (no work when nothing
 * changed since the last evaluation). A non-finite energy or force: TRIBODY_EINPUT. */
int tribody_compute(tribody *t);

/* Advances k steps with the configured integrator (integrator.type, dt, thermostat) from the
 * current state; the forces are those of the state after them. */
int tribody_run(tribody *t, long k);

/* Writes a checkpoint of the current state to path (atomically: path.tmp, then renamed over
 * path), which `tribody run CONFIG --restart path` continues. */
int tribody_write_checkpoint(tribody *t, const char *path);

/* Results of the last tribody_compute or tribody_run (evaluating first when stale):
 * energy of TRIBODY_TOTAL, _PAIR (Lennard-Jones) or _TRIPLET (ATM) [energy];
 * forces [3n] [energy/length] (copied into f);
 * virial[6] = W_xx W_yy W_zz W_xy W_xz W_yz = sum over interactions of r_a F_b [energy], of
 * both terms (TRIBODY_TOTAL), of Lennard-Jones alone (TRIBODY_PAIR) or of ATM alone
 * (TRIBODY_TRIPLET): LAMMPS's `compute pressure NULL pair lj/cut` / `pair atm` times the
 * volume. A term alone is a second evaluation, of that term only, at the first ask after new
 * positions (a second backend, made at the first ask: the memory of another handle); the
 * terms sum to the total to rounding (zeros for a term that does not run; the total when
 * only one runs; Stillinger-Weber, whose two- and three-body parts are one term: EINPUT);
 * pressure[7] = P, Pxx, Pyy, Pzz, Pxy, Pxz, Pyz with the kinetic part, as LAMMPS's compute
 * pressure [pressure] (TRIBODY_EINPUT when no axis is periodic: no volume). */
int tribody_energy(tribody *t, int term, double *e);
int tribody_forces(tribody *t, double *f);
int tribody_virial(tribody *t, int term, double *w);
int tribody_pressure(tribody *t, double *p);
/* One call for a binding's force evaluation: evaluates when stale (as tribody_compute), then
 * the total energy into *energy, the forces into forces[3n] and the total virial into
 * virial[6], as tribody_energy(TRIBODY_TOTAL), tribody_forces and tribody_virial(TRIBODY_TOTAL)
 * give them; a NULL pointer skips its result. forces_copy[3n] (NULL: none; needs forces): the
 * forces again, written in the same pass (a binding's results and the copy it hands its
 * caller, e.g. ASE's get_forces). One crossing and one lock instead of three. */
int tribody_evaluate(tribody *t, double *energy, double *forces, double *forces_copy,
                     double *virial);

/* Where the time of the handle's evaluations went (wall clock, seconds summed since its
 * creation; a profile, not a result): sec[TRIBODY_TIMINGS] = the host's checks and wrap of
 * new positions and velocities (set_*); their upload to the backend; the evaluation; the
 * download of the forces, energies and virial; the finiteness checks; the copy of the forces
 * into the caller's array (tribody_forces). *evals (may be NULL): the evaluations made. On the
 * GPU each phase waits for its copies and kernels, so the phases do not overlap, but for two
 * that are queued behind the next one's wait: the upload of the positions (the library keeps
 * them in page-locked memory: the copy runs first in the evaluation's phase) and the
 * finiteness check (queued with the download; its phase reads the result); and the download
 * itself is queued behind the evaluation's kernels with one wait for both (its time in the
 * evaluation's phase, the download's 0; TB_ONE_WAIT=0 in the environment at the handle's
 * creation: the two waits apart, as before API 5). */
#define TRIBODY_TIMINGS 6
int tribody_timings(tribody *t, double *sec, long long *evals);

/* Views of the handle's arrays (no copy; see "Threads"): positions, velocities and forces
 * [3n], species [n]. NULL for a NULL handle. The forces are those of the last evaluation. */
const double *tribody_positions(const tribody *t);
const double *tribody_velocities(const tribody *t);
const double *tribody_forces_view(const tribody *t);
const int *tribody_species(const tribody *t);

/* What the handle holds: particles, steps done, its time [time unit], box[9] and periodic[3]. */
int tribody_count(const tribody *t);
long tribody_step(const tribody *t);
double tribody_time(const tribody *t);
int tribody_box(const tribody *t, double *box, int *periodic);
/* The unit style ("lj", "metal", "real"), the backend ("cpu", "gpu"), the precision
 * ("double", "mixed", "single"), the species count, a species' name and mass [mass unit]. */
const char *tribody_units(const tribody *t);
const char *tribody_backend(const tribody *t);
const char *tribody_precision(const tribody *t);
int tribody_species_count(const tribody *t);
const char *tribody_species_name(const tribody *t, int i);
double tribody_species_mass(const tribody *t, int i);
/* The largest cutoff of the terms that run (the neighbour list's radius less its skin);
 * 0 when some running term has none (all pairs, all triplets). */
double tribody_cutoff(const tribody *t);

/* Host passes for bindings, on the threads of the library's own passes (see "Threads"; they
 * touch no handle and take no lock): whether the `bytes` bytes at a and at b are the same (1)
 * or not (0), and a copy of `bytes` bytes from src to dst (not overlapping). A binding's change
 * check and snapshot of the positions and its copies of the results are one pass each over
 * 3n doubles; a single thread's pass costs 0.05-0.08 ms at n = 32768 on an H200 machine
 * (tribody.ase's calculator: docs/performance-runs.md). */
int tribody_same_bytes(const void *a, const void *b, size_t bytes);
void tribody_copy_bytes(void *dst, const void *src, size_t bytes);

/* The message of this thread's last failed call ("" when none). */
const char *tribody_last_error(void);

/* 1: also print every message (errors and notices) on stderr as the command line does
 * ("tribody: ..."); 0 (the default): print nothing. For the whole process. */
void tribody_set_verbose(int on);

#ifdef __cplusplus
}
#endif

#endif
