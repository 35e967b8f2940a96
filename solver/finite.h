/* finite.h — the first non-finite number of a run: which step, which term, which particle.
 *
 * After every step (and after the step-0 evaluation) the backend's check_finite() looks at
 * the two energies and every force, position and velocity: on the GPU one small reduction
 * kernel per step (gpu_finite.cu) that records the smallest (term, particle) key it finds
 * into a device record; on the CPU a host loop over the backend's arrays. The terms are
 * ordered as listed below, so a NaN energy is named before the forces it came with.
 * Deterministic GPU sums (solver.deterministic) keep energies and forces in fixed point,
 * where a NaN cannot be told from a large number: there only positions and velocities, and
 * the forces converted back to double, are checked. */
#ifndef TB_FINITE_H
#define TB_FINITE_H

#include "solver/state.h"

TB_BEGIN_DECLS

enum tb_nf_term {
    TB_NF_TRIPLET = 0, /* the ATM energy */
    TB_NF_PAIR = 1,    /* the LJ energy */
    TB_NF_FORCE = 2,
    TB_NF_POS = 3,
    TB_NF_VEL = 4
};

typedef struct tb_nonfinite {
    long step;    /* the step whose state holds it; -1: everything finite */
    int term;     /* enum tb_nf_term */
    int particle; /* 0-based; -1 for an energy */
} tb_nonfinite;

/* "triplet energy", "pair energy", "force", "position", "velocity". */
const char *tb_nonfinite_term(int term);

/* Scans s (energies, then forces, positions, velocities, particle by particle) and fills
 * nf with the first non-finite value (nf->step = s->step), or sets nf->step = -1. Returns
 * 1 when one was found, else 0. */
int sim_find_nonfinite(const sim_state *s, tb_nonfinite *nf);

/* The first particle whose force, position or velocity is non-finite (in that order of
 * terms), for naming a particle when only an energy was flagged; -1 when there is none. */
int sim_nonfinite_particle(const sim_state *s, int *term);

TB_END_DECLS

#endif
