/* backend.h — where forces are computed and the equations of motion integrated.
 *
 * A backend owns a copy of the state (the CPU backend works on the host arrays in place;
 * the GPU backend keeps positions, velocities and forces on the device and copies back
 * only when fetch() is called, for output steps). Both evaluate the triplet term through
 * the configured tetrahedral map (solver.map) and the pair term through the triangular map
 * (solver.map2d), with the same tile bodies (pot.h).
 *
 * advance() integrates with velocity Verlet (time step dt):
 *   v += (dt/2m) F;  x += dt v;  F = F(x);  v += (dt/2m) F.
 * The thermostatted integrators (integrate.h) compose their steps from the primitives at the
 * end of backend_ops, which do the same arithmetic on both backends; random numbers are drawn
 * on the host (GSL) and handed to ostep(), so a run does not depend on the backend's RNG. */
#ifndef TB_BACKEND_H
#define TB_BACKEND_H

#include "config/config.h"
#include "solver/finite.h"
#include "solver/mtk_state.h"
#include "solver/rdf.h"
#include "solver/state.h"

TB_BEGIN_DECLS

typedef struct backend backend;

/* What a backend reports about its force path (bench, validate, tests). */
/* Per-rank timers (bench, docs/scaling.md): seconds accumulated since info() was last called
 * with BACKEND_TIMERS. GPU: CUDA events around each phase on the stream (kernels only; a
 * compute waits for its evaluation's events, advance() reads each step's GPU_TSLOTS steps late
 * and all at its end, so the host does not wait per step); CPU: the wall clock. */
typedef struct backend_times {
    double force;      /* the force kernels (triplets, pairs, anchors) of this rank's share */
    double sum;        /* the sum of the shares over the ranks (NCCL / MPI) */
    double integrate;  /* kick and drift of advance() */
    double lists;      /* neighbour lists: the staleness check and the builds */
    long long evals, steps;
    long long virials; /* evaluations that summed the virial (virial_next) */
    long long units;   /* this rank's share: triplet tiles (blocks), or list anchors */
    double work;       /* its triplets (all-triplets path) or list entries of its anchors */
    double held;       /* list entries this rank built and holds (its anchors' rows only) */
} backend_times;

/* info()'s `counting` flags: switch the timers on (and zero them); switch them off (a pass
 * whose wall clock their per-step events must not touch: bench --sw's headline). */
#define BACKEND_TIMERS 2
#define BACKEND_TIMERS_OFF 4

typedef struct backend_info {
    int cull;          /* 1: the neighbour-list path (nbr.h) */
    long long builds;  /* neighbour-list builds so far */
    long long entries; /* list entries of the last build */
    int max_row;       /* longest list row of the last build */
    long long slots;   /* entry-pair slots of the last evaluation (GPU: when counting) */
    long long hits;    /* triplets within the cutoffs in the last evaluation (likewise) */
    backend_times times; /* this rank's timers (zeros unless BACKEND_TIMERS switched them on) */
} backend_info;

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
    /* Primitive steps (integrate.c), each on every particle, 0 or -1:
     * kick: v += (h/m) F;  drift: x += h v, wrapped into the box;  scale: v *= c;
     * ostep: v = c1 v + c2[t] xi with xi[3n] (host memory, interleaved) uploaded by the
     * backend and c2[t] of the particle's species t;
     * kinetic: *ke = sum m v^2 / 2, summed in an order that does not change from call to call
     * (restarts must repeat bit for bit). None of them recomputes forces: call compute(). */
    int (*kick)(backend *b, double h);
    int (*drift)(backend *b, double h);
    int (*scale)(backend *b, double c);
    int (*ostep)(backend *b, double c1, const double *c2, const double *xi);
    int (*kinetic)(backend *b, double *ke);
    /* Fills *out (zeros where not applicable); counting & 1 asks the next evaluations to
     * count slots and hits where that costs time (GPU); counting & BACKEND_TIMERS switches the
     * per-rank timers on and zeroes them (out->times: before the zeroing), BACKEND_TIMERS_OFF
     * off. 0 or -1. */
    int (*info)(backend *b, backend_info *out, int counting);
    /* Of the next k force evaluations (compute, advance, or the integrators' steps) only the
     * k-th, the last of an advance over k steps, need sum the virial, which fetch() then
     * returns; evaluations after it compute it again. Without a call every evaluation
     * computes it. The GPU's all-triplets kernel runs ~10 % faster without it; the CPU sums
     * it anyway but drops this rank's share where it was not asked for, as the GPU does, so
     * that ranks asking on different steps show in the sums (tests/test_mpi.c). Every rank
     * must ask for the same evaluations. fetch() after an evaluation without it evaluates
     * again, with it (collective under MPI: every rank fetches at the same steps). */
    int (*virial_next)(backend *b, long k);
    /* Looks at the backend's current energies, forces, positions and velocities (the state
     * after `step`) and fills nf with the first non-finite one, nf->step = step; nf->step =
     * -1 when all are finite. 0, or -1 on a failure of the check itself (finite.h). */
    int (*check_finite)(backend *b, long step, tb_nonfinite *nf);
    /* Replaces the backend's positions (what & BACKEND_PUT_POS) and/or velocities
     * (what & BACKEND_PUT_VEL) with s's (s of the same particles, species and box as at
     * create: a new box takes a new backend). The forces are stale until compute(); a
     * neighbour list is rebuilt when a particle moved more than skin/2 since its build, as
     * after any step. The library's set_positions / set_velocities (solver/lib/). 0 or -1. */
    int (*put)(backend *b, const sim_state *s, int what);
    /* The RDF pair histogram (solver/rdf.h) of the backend's current positions in its box,
     * added to counts[rdf_npairs(spec->ntypes) * spec->bins]; *volume = that box's volume.
     * Computed where the positions are (GPU: on the device, only the counts come back), the
     * same integers on both backends. Local to the rank (no collective). 0 or -1. */
    int (*rdf)(backend *b, const rdf_spec *spec, unsigned long long *counts, double *volume);
    /* The barostats' primitives (physics/baro.h), 0 or -1:
     * virial: w[6] = the virial of the last evaluation, summed over the ranks (xx yy zz xy xz
     * yz, as sim_state.virial); that evaluation must have summed it (virial_next);
     * kinetic_axes: k[6] = sum m v_a v_b / 2 (xx yy zz xy xz yz), in a fixed order;
     * rescale: m[6] an upper-triangular map (M_xx, M_yy, M_zz, M_xy, M_xz, M_yz), or NULL:
     * the box's lattice vectors become M a, M b, M c about its corner lo (box_deform_d; a
     * diagonal m: l_a *= m_a; xy, xz *= m_x; yz *= m_y, box_stretch_d), the positions
     * x = lo + M (x - lo), wrapped; vm[6] the same for the velocities (v = VM v), or NULL:
     * kept. The neighbour lists follow (nbr.h, "a box that moves"); the forces are not
     * recomputed. fetch() returns the moved box in s->box. */
    int (*virial)(backend *b, double w[6]);
    int (*kinetic_axes)(backend *b, double k[6]);
    int (*rescale)(backend *b, const double m[6], const double vm[6]);
    /* check_finite a step late, so that the host need not wait for the step it has just
     * queued (NULL: the backend checks at once, the CPU): starts the check of the state
     * after `step` (the GPU may leave it to the next step's first kernel, or to whichever
     * operation comes next, before anything changes that state) and fills nf with the result
     * of the check of the previous call's step
     * (nf->step = -1: none, or all finite up to that step; else the first bad step <= it,
     * as check_finite says). After the first call advance() no longer waits for its steps
     * to finish; check_finite (at once) reads every check started so far. 0 or -1. */
    int (*check_finite_late)(backend *b, long step, tb_nonfinite *nf);
    /* fetch() of the last evaluation's results only: forces, the two energies and the virial
     * into s (evaluating again with the virial when it was skipped, as fetch does); s's
     * positions, velocities and box are left as they are. For a caller whose s holds what the
     * backend holds (the library after put and compute: solver/lib/engine.c), where fetch
     * would copy back what it has just uploaded. 0 or -1. */
    int (*results)(backend *b, sim_state *s);
    /* MTK with its Nose-Hoover chain held by the backend during a run (physics/baro.h,
     * integrate.c's mtk_step_dev; NULL: the host runs it from the primitives above, the CPU).
     * phase MTK_PUSH: *st becomes the backend's state (a copy; waits);
     * MTK_BEGIN: the step's opening NHC(h) Omega(h) V(h), from the kinetic energy and tensor
     *   reduced where the velocities are and the kept virial, then either *st = the state and
     *   0 (one wait: the host needs the box map st->map for the dilations), or 1 when the box
     *   moves on the backend (nothing comes back: MTK_MOVE follows);
     * MTK_MOVE: B(h) D(h) A(dt) D(h) on the backend, the box mapped and checked there
     *   (mtk_body.h's mtk_box_move; a fault stops the run when the backend reads it, naming
     *   its step);
     * MTK_END: after B(h) D(h) A(dt) D(h): the force evaluation (its virial summed),
     *   B(h) V(h) Omega(h) NHC(h), the virial kept for the next step; nothing comes back;
     * MTK_PULL: *st = the state (waits), with the box when the backend moves it (st->box_dev).
     * C-rescale (baro.h; integrate.c's crs_step_dev, physics/crescale_body.h), the box on the
     * backend: CRS_PUSH: as MTK_PUSH, answering 1, or 0 when the backend cannot move the box
     *   (the host path is then taken); CRS_BEGIN: at a rescale's step start, mu from the kept
     *   virial and the kinetic tensor, the noise par->xi; CRS_EVAL: in place of the step's
     *   evaluation, the box, positions and velocities stretched, the forces and virial, the
     *   work's terms (the host's box copies set before it returns, the fault checked);
     *   CRS_KEEP: the last evaluation's virial kept for the next rescale; CRS_NHC_BEGIN,
     *   CRS_NHC_END: Nose-Hoover's half steps of the chain held there (the kinetic energy
     *   reduced, the velocities scaled; _END its energy too); CRS_FORCES: an evaluation that
     *   does not rescale, without compute's wait. No wait but the push's. par: the step's
     *   numbers (mtk_state.h). 0 or -1. */
    int (*mtk)(backend *b, int phase, const mtk_par *par, mtk_state *st);
    /* Host memory the backend copies to and from without a staging copy (the GPU: page-locked,
     * cudaHostAlloc), for a caller's arrays that go up and come back at every evaluation (the
     * library's positions and forces: solver/lib/engine.c); NULL when it cannot be had, and
     * for a backend with no such memory (both NULL: the CPU). put, results and fetch take any
     * host memory; this only saves a pass. host_free(NULL) does nothing. */
    void *(*host_alloc)(size_t bytes);
    void (*host_free)(void *p);
    /* compute() then results() with one wait: results' copies queued behind the evaluation's
     * kernels, the same bits (NULL: the caller makes the two calls; the CPU). 0 or -1. */
    int (*compute_results)(backend *b, sim_state *s);
    /* What a thermo row needs without the state (NULL: the caller fetches and sums on the host,
     * the CPU, whose state is host memory): the last evaluation's two energies and virial into
     * s (evaluating again with the virial when it was skipped, as fetch does) and the box into
     * s->box; kin[7] = the velocities' sums of finite.h's sim_kinetic_sums (the kinetic energy,
     * then sum m v_a v_b, xx yy zz xy xz yz) reduced where the velocities are, per species in
     * a fixed order (restarts repeat bit for bit; they differ from the host's serial sums by
     * rounding). s's positions, velocities and forces are left as they are. The call fetch
     * cost at a thermo row, less the copies of the particles and the host's passes over them
     * (tribody run: a few ms per row at 1e5 atoms, ~35 ms at 1e6 on an H200 before). Every
     * rank calls it at the same steps, as fetch. 0 or -1. */
    int (*thermo)(backend *b, sim_state *s, double kin[7]);
} backend_ops;

/* put()'s `what`. */
enum { BACKEND_PUT_POS = 1, BACKEND_PUT_VEL = 2 };

/* virial_next's countdown, for the backends: 1 when the evaluation about to run sums the
 * virial (no request pending, or this is the k-th evaluation asked for), else 0. */
static inline int backend_virial_due(long *countdown)
{
    return *countdown > 0 ? --*countdown == 0 : 1;
}

extern const backend_ops cpu_backend_ops;
extern const backend_ops gpu_backend_ops;

/* Picks the backend for c (solver.backend): auto takes the GPU when one is present, else
 * the CPU with a one-line notice; gpu with no usable GPU is an error (TB_EXIT_USAGE).
 * Returns 0 and sets *ops, or TB_EXIT_USAGE. */
int backend_select(const sim_config *c, const backend_ops **ops);

TB_END_DECLS

#endif
