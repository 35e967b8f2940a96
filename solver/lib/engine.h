/* engine.h — one tribody engine: a configuration, its host state and the backend that
 * evaluates it. The library (api.c, include/tribody.h) is a thin face over it, and so is
 * `tribody eval` (solver/cli/eval.c): one engine, two faces (docs/architecture.md).
 *
 * Every function returns 0, TB_EXIT_USAGE (2) for bad input, or -1 / TB_EXIT_RUNTIME (1) for
 * a failure of the machine, after one line through tb_error(): the caller decides where the
 * line goes (the library keeps it for tribody_last_error; the command line prints it). None
 * exits, none writes a file unless asked to (engine_checkpoint). */
#ifndef TB_ENGINE_H
#define TB_ENGINE_H

#include "config/config.h"
#include "solver/backend.h"
#include "solver/finite.h"
#include "solver/state.h"

TB_BEGIN_DECLS

struct integ;

/* The phases of an API force call the engine times (wall clock, tribody_timings): the host's
 * checks and wrap of new positions or velocities; their upload (put); the evaluation; the
 * download of forces, energies and virial (results; inside the evaluation's phase when the
 * backend makes the two with one wait, compute_results); the finiteness checks; the copy of
 * the forces out to the caller (api.c). */
enum { ENGINE_SET, ENGINE_UPLOAD, ENGINE_EVAL, ENGINE_DOWNLOAD, ENGINE_CHECK, ENGINE_COPY,
       ENGINE_PHASES };

/* Seconds of a monotonic clock (for the phases' timers). */
double engine_now(void);

typedef struct tb_engine {
    sim_config cfg;
    sim_state s;            /* the host state; forces, energies and virial of s.pos after compute */
    const backend_ops *ops; /* the backend chosen by solver.backend */
    backend *b;             /* NULL until engine_start, and after a new box */
    struct integ *g;        /* the integrator, made by the first engine_run */
    int put;                /* BACKEND_PUT_POS | _VEL: the host's arrays newer than the backend's */
    int fresh;              /* 1: s's forces, energies and virial are those of s.pos */
    unsigned long long run_id; /* of the checkpoints it writes */
    tb_nonfinite nf;        /* the last evaluation's first non-finite value (nf.step < 0: none) */
    /* the terms alone, for their virials (engine_term_virial): a configuration with the other
     * term off and its backend, made at the first ask; their results in ts */
    sim_config *tcfg[2];
    backend *tb[2];
    int tfresh[2];          /* 1: tw[k] is of s.pos */
    double tw[2][6];
    sim_state ts;
    double *spare;          /* [3n]: set_positions places new positions here, then swaps it
                             * with s.pos (one pass; a refusal leaves s.pos as it was) */
    /* the backend's host memory (backend_ops.host_alloc: page-locked on the GPU) for s.pos,
     * spare and s.force, taken at engine_start when it offers it: the positions go up and the
     * forces come down without a staging copy; heap[] keeps the arrays they replaced, given
     * back to the state at engine_free */
    int pinned;
    double *heap[3];
    double kin[7];          /* sim_kinetic_sums of s.vel, for the checks of each evaluation */
    int kin_ok;             /* 1: kin is of the current s.vel */
    int one_wait;           /* 1: compute and results in one backend call, one wait
                             * (backend_ops.compute_results); TB_ONE_WAIT=0: two calls */
    double tm[ENGINE_PHASES]; /* wall seconds of each phase since engine_config */
    long long n_eval;       /* evaluations engine_compute made */
} tb_engine;

/* Reads the configuration: the file `path`, or the text `text` (path then names it in
 * messages), with the n_set "PATH=VALUE" overrides. e is zeroed first. */
int engine_config(tb_engine *e, const char *path, const char *text, int n_set, char *const sets[]);

/* The state of the configuration's system group (initial state, as `run` and `eval` make it). */
int engine_state_from_config(tb_engine *e);

/* The state from arrays, in the configuration's units: n particles at pos[3n], of species
 * type[n] (indices into system.species; NULL: all 0), in box (periodic axes wrapped into
 * it, the cutoffs checked against it), velocities zero. */
int engine_state_from_arrays(tb_engine *e, int n, const double *pos, const int *type,
                             const tb_box_d *box);

/* Picks the backend (solver.backend) and creates it on the state. */
int engine_start(tb_engine *e);

/* New positions / velocities (3n, copied) / box: the next evaluation uses them. Positions are
 * wrapped into a periodic box; a new box (same periodic axes or not) is checked against the
 * cutoffs and makes a new backend. keep (NULL: none): pos copied into it as it is, in the
 * same pass (tribody_set_positions_copy). */
int engine_set_positions(tb_engine *e, const double *pos, double *keep);
int engine_set_velocities(tb_engine *e, const double *vel);
int engine_set_box(tb_engine *e, const tb_box_d *box);

/* Forces, energies and virial of the current positions into e->s (nothing when fresh). A
 * non-finite energy or force: TB_EXIT_USAGE after one line "`what` has a non-finite ...",
 * the first one in e->nf. */
int engine_compute(tb_engine *e, const char *what);

/* The virial w[6] of one term alone (term 0: the pair term, Lennard-Jones; 1: the triplet
 * term, ATM) at the current positions: zeros when that term does not run, the total when it
 * is the only one, else an evaluation of that term alone (a second backend, made at the
 * first ask, on a copy of the configuration with the other term off). The two sum to the
 * total to rounding. Stillinger-Weber (its two- and three-body parts are one term):
 * TB_EXIT_USAGE. */
int engine_term_virial(tb_engine *e, int term, double w[6]);

/* Advances k steps with the configured integrator from the current state (forces computed
 * first when stale); e->s then holds the state after them. A non-finite value: TB_EXIT_RUNTIME
 * after a line naming the step, the term and the particle. */
int engine_run(tb_engine *e, long k);

/* Writes a checkpoint of the current state to path (atomically, as `run` does), restartable by
 * `tribody run CONFIG --restart path` with the same configuration. */
int engine_checkpoint(tb_engine *e, const char *path);

/* Frees everything; accepts a zeroed engine. */
void engine_free(tb_engine *e);

TB_END_DECLS

#endif
