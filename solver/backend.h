/* backend.h — where forces are computed and the equations of motion integrated.
 *
 * A backend owns a copy of the state (the CPU backend works on the host arrays in place;
 * the GPU backend keeps positions, velocities and forces on the device and copies back
 * only when fetch() is called, for output steps). Both evaluate the triplet term through
 * the configured tetrahedral map (solver.map) and the pair term through the triangular map
 * (solver.map2d), with the same tile bodies (pot.h).
 *
 * Integration is velocity Verlet with time step dt:
 *   v += (dt/2m) F;  x += dt v;  F = F(x);  v += (dt/2m) F. */
#ifndef TB_BACKEND_H
#define TB_BACKEND_H

#include "../config/config.h"
#include "finite.h"
#include "state.h"

TB_BEGIN_DECLS

typedef struct backend backend;

typedef struct backend_ops {
    const char *name; /* "cpu" or "gpu" */
    /* Sets up for state s under config c and takes a copy of s. Returns 0; TB_EXIT_USAGE
     * when the configuration cannot run here (n beyond a map's range, too little memory),
     * with a one-line message; -1 on other failures. */
    int (*create)(backend **out, const sim_config *c, const sim_state *s);
    /* Computes forces and energies at the current positions. */
    int (*compute)(backend *b);
    /* Advances nsteps velocity-Verlet steps; forces must be current (compute or advance). */
    int (*advance)(backend *b, long nsteps);
    /* Copies positions, velocities, forces and the two energies into s. */
    int (*fetch)(backend *b, sim_state *s);
    /* Frees everything; accepts NULL. */
    void (*destroy)(backend *b);
    /* Looks at the backend's current energies, forces, positions and velocities (the state
     * after `step`) and fills nf with the first non-finite one, nf->step = step; nf->step =
     * -1 when all are finite. 0, or -1 on a failure of the check itself (finite.h). */
    int (*check_finite)(backend *b, long step, tb_nonfinite *nf);
} backend_ops;

extern const backend_ops cpu_backend_ops;
extern const backend_ops gpu_backend_ops;

/* Picks the backend for c (solver.backend): auto takes the GPU when one is present, else
 * the CPU with a one-line notice; gpu with no usable GPU is an error (TB_EXIT_USAGE).
 * Returns 0 and sets *ops, or TB_EXIT_USAGE. */
int backend_select(const sim_config *c, const backend_ops **ops);

TB_END_DECLS

#endif
