/* finite.h — the first non-finite number of a run: which step, which term, which particle.
 *
 * After every step (and after the step-0 evaluation) the backend's check_finite() looks at
 * the two energies, the virial, every force, position and velocity, and each particle's
 * kinetic energy: on the GPU one small reduction kernel per step (gpu_finite.cu) that records
 * the smallest (term, particle) key it finds into a device record, which a run reads a step
 * late except on the steps it fetches (backend_ops.check_finite_late); on the CPU a host loop
 * over the backend's arrays (sim_find_nonfinite, which also checks the thermo columns). The
 * terms are ordered as listed below, so a NaN energy is named before the forces it came
 * with, and the columns derived from the state after the values they come from.
 *
 * A particle's kinetic energy counts as non-finite beyond tb_ke_bound(n) (also v.v beyond
 * it): then neither the sum 0.5 m sum v.v (computed in that order, on the host and on the
 * GPU) nor the temperature can overflow, although every velocity is finite. The columns
 * derived on the host from the state (kinetic, temperature, total, conserved, drift,
 * pressure) are checked by sim_find_nonfinite on every state the run fetches (its output
 * steps, its end), and on the CPU after every step.
 *
 * Deterministic GPU sums (solver.deterministic) keep energies, forces and the virial in
 * fixed point, where a NaN cannot be told from a large number: there only positions and
 * velocities, and the forces converted back to double, are checked on the device, the rest
 * when fetched. */
#ifndef TB_FINITE_H
#define TB_FINITE_H

#include <float.h>

#include "solver/state.h"

TB_BEGIN_DECLS

enum tb_nf_term {
    TB_NF_TRIPLET = 0, /* the ATM energy */
    TB_NF_PAIR = 1,    /* the LJ energy */
    TB_NF_FORCE = 2,
    TB_NF_POS = 3,
    TB_NF_VEL = 4,
    TB_NF_KINETIC = 5, /* a particle's m v^2 / 2 beyond tb_ke_bound (particle >= 0), or the sum */
    TB_NF_VIRIAL = 6,  /* a component of the virial tensor */
    TB_NF_TOTAL = 7,   /* K + U */
    TB_NF_CONSERVED = 8,
    TB_NF_DRIFT = 9,
    TB_NF_TEMPERATURE = 10,
    TB_NF_PRESSURE = 11
};

typedef struct tb_nonfinite {
    long step;    /* the step whose state holds it; -1: everything finite */
    int term;     /* enum tb_nf_term */
    int particle; /* 0-based; -1 for an energy or another whole-state value */
} tb_nonfinite;

/* The largest kinetic energy of one particle of n (and the largest v.v) that keeps every
 * sum of the kinetic terms below DBL_MAX / 4 [epsilon]. */
static inline TB_HOSTDEV double tb_ke_bound(int n)
{
    return DBL_MAX / (4.0 * (double)(n > 0 ? n : 1));
}

/* Whether a particle's v.v = q and its kinetic energy 0.5 m q stay within bound (a NaN
 * fails). */
static inline TB_HOSTDEV int tb_ke_ok(double q, double m, double bound)
{
    return q <= bound && 0.5 * m * q <= bound;
}

/* "triplet energy", "pair energy", "force", "position", "velocity", "kinetic energy", ... */
const char *tb_nonfinite_term(int term);

/* Scans s (energies, then forces, positions, velocities and kinetic energies particle by
 * particle, then the virial, the kinetic energy, total, conserved quantity, drift,
 * temperature and pressure as the thermo file writes them) and fills nf with the first
 * non-finite value (nf->step = s->step), or sets nf->step = -1. Returns 1 when one was
 * found, else 0. */
int sim_find_nonfinite(const sim_state *s, tb_nonfinite *nf);
/* The same without the scan of the particles (the energies, then the virial and the derived
 * columns): for a state whose forces, positions, velocities and kinetic energies a backend's
 * check_finite has just found finite (the same values: the library after put, compute and
 * results), where the scan would only repeat it. */
int sim_find_nonfinite_derived(const sim_state *s, tb_nonfinite *nf);
/* The same with the velocities' sums given, kin[7] = sim_kinetic(s) and sim_kinetic_tensor(s)
 * (sim_kinetic_sums): the same result without the passes over the velocities, for a caller
 * that keeps kin while the velocities do not change (the library's force calls). */
void sim_kinetic_sums(const sim_state *s, double kin[7]);
int sim_find_nonfinite_derived_kin(const sim_state *s, tb_nonfinite *nf, const double kin[7]);

/* The first particle whose force, position, velocity or kinetic energy is non-finite (in that
 * order of terms), for naming a particle when only a whole-state value was flagged; -1 when
 * there is none. */
int sim_nonfinite_particle(const sim_state *s, int *term);

TB_END_DECLS

#endif
