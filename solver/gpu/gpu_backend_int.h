/* gpu_backend_int.h — the GPU backend's state (struct backend), shared by gpu_backend.cu (create,
 * forces, steps, fetch, the ops table), gpu_backend_ext.cu (the operations the barostats,
 * the library and the observables added: kinetic energy per axis, virial, rescale, put, rdf;
 * the integrators' primitives, the finiteness checks) and gpu_spec.cu (the speculative skin
 * test). CUDA only; nothing outside solver/gpu/ includes it. */
#ifndef TB_GPU_BACKEND_INT_H
#define TB_GPU_BACKEND_INT_H

#include "solver/backend.h"
#include "solver/gpu/gpu_internal.h"
#include "solver/physics/pot.h"

#define GPU_TSLOTS 8 /* steps whose timers may be in flight (gpu_backend.cu, gpu_time_*) */

struct backend {
    int n;
    double mass[TB_TYPES_MAX], dt; /* each species' internal mass; the box: pp.d.box (box.h) */
    int rho, dbl, cut;
    int pdbl; /* pairs in double: double and mixed precision (float triplets only) */
    pot_params pp;
    const map3d_type *m3;
    const map2d_type *m2;
    map3d_plan p3;
    map2d_plan p2;
    long long *d_table;
    tb_double4 *d_pos, *d_vel, *d_force;
    float4 *d_posf;
    int ntypes;                    /* species of the potential (pp.d.ntypes) */
    pot_tab_d *d_tab_d;            /* ntypes > 1: the tables on the device (args.kd.tab, kf.tab) */
    pot_tab_f *d_tab_f;
    double *d_acc;
    float *d_acc_f;
    unsigned long long *d_fix;
    double *d_energy;
    unsigned long long *d_efix;
    double *d_virial;              /* [6] */
    double *d_xi;                  /* [3n] noise of ostep(), allocated at its first call */
    double *d_ke;                  /* kinetic()'s sums [GPU_KE_WORDS(1)] */
    gpu_rdf_work *rdfw;            /* rdf()'s work space (gpu_rdf.cu), at its first call */
    double *d_ke3;                 /* kinetic_axes()'s [GPU_KE_WORDS(6)], at its first call */
    mtk_state *d_mtk, *h_mtk;      /* MTK's state on the device, its pinned copy (gpu_mtk.cu) */
    /* the box moved on the device by MTK (gpu_mtk.cu's MTK_MOVE, gpu_mtk_box.cu) */
    int box_dev;                   /* 1: it moves there (from MTK_PUSH on) */
    gpu_box_rec *d_boxr;           /* what the lists' skin test reads of it */
    mtk_state *h_mtk_late;         /* the state copied at each MTK_END, read at the next call */
    cudaEvent_t ev_mtk;            /* behind that copy */
    int mtk_late;                  /* a copy in flight that no call has read yet */
    double box_v0, box_range;      /* the fault messages' numbers (mtk_par) */
    int crs;                       /* the state is C-rescale's (CRS_PUSH; gpu_mtk.cu) */
    /* TB_WAITS=1: host waits between one MTK_BEGIN and the next (gpu_internal.h's counters):
     * steps, those without a stream synchronization, the most in one, the sums, the last
     * counters seen */
    long long w_steps, w_zero, w_max, w_syncs, w_events, w_blocking, w_last[3];
    unsigned long long *d_vfix;    /* [12] */
    gpu_args args;
    cudaStream_t st;
    int threads;     /* for the small kernels */
    int threads_cfg; /* solver.threads as given: 0 lets a kernel pick (gpu_sw.cu: 256) */
    int computed;    /* forces computed on the device since create() */
    int cull;        /* the neighbour-list path (nbr.h) */
    int stats;       /* count slots and hits (bench) */
    long vir_countdown; /* virial_next: evaluations until the one that sums the virial; 0: all */
    int vir_valid;   /* the last evaluation summed the virial */
    gpu_nbr *nb;
    double nbr_radius; /* list radius R [sigma] */
    double e_given[2]; /* triplet, pair energies of the state given to create() */
    double w_given[6]; /* and its virial */
    gpu_finite_rec *d_finite; /* the finiteness check's record (gpu_finite.cu) */
    gpu_finite_rec *h_finite; /* [2] its pinned host copies, one per parity of the check */
    cudaEvent_t ev_fin[2];    /* each copy's event */
    int fin_slot;             /* the slot of the last check launched */
    int fin_pending;          /* check_finite_late launched one the host has not read yet */
    int fin_early;            /* results() launched the check of the state it returned before
                               * its one wait: check_finite(step 0) only reads it; put and any
                               * force evaluation drop it (gpu_results) */
    double *h_res;            /* [8] pinned: the two energies and the virial of results() */
    int fin_bad;              /* check_finite read a non-finite value: the record keeps it (a
                               * run's first bad step) until put brings new positions */
    int fin_defer;            /* check_finite_late's step, fin_defer_step, not checked yet: the
                               * next step's kick-drift checks it as it reads that state (when it
                               * tests the skin too), else gpu_fin_flush launches the check first */
    long fin_defer_step;
    int fin_fused;            /* the last check was a kick-drift's: its bad values reach the host
                               * as NBR_BAD in the skin test's flag (fin_flag), no copy per step */
    int fin_flag;             /* NBR_BAD read since the last read of the record */
    int async;                /* the caller reads the checks late: advance() does not wait */
    double *h_stage;          /* [4n] host staging of upload3 / download3: pinned when it can be */
    double *d_h3;             /* [3n] their device side: host-order xyz, scattered / gathered */
    int stage_pinned;
    int h_direct;             /* the download in flight goes straight into the caller's
                               * page-locked array (gpu_download3_start), not the staging */
    int zc;                   /* page-locked positions and forces read and written by kernels
                               * over the link (gpu_put_pos, gpu_results_zc); TB_ZEROCOPY=0:
                               * through the staging copies (the path before) */
    int dev;           /* this rank's device */
    int nranks;        /* ranks summing their shares (gpu_comm) */
    int timing;        /* per-rank timers on (info with BACKEND_TIMERS, bench) */
    backend_times tm;  /* their sums */
    /* the timers' events, a ring of GPU_TSLOTS steps read GPU_TSLOTS steps late (gpu_backend.cu
     * gpu_time_*): evaluation 0 lists 1 force 2 sum 3; step: 4 drift 5, 6 kick 7 */
    cudaEvent_t ev[GPU_TSLOTS][8];
    int tslot;         /* the slot the next evaluation records into */
    int tqueued;       /* steps recorded and not read yet: the slots before tslot */
    int tsync;         /* TB_TIMERS_SYNC=1: read every step at its end (the waits of before) */
    int tphase;        /* 0 (TB_TIMERS_PHASES=0): a step's events 4 and 7 only */
    /* the speculative skin test (gpu_spec.cu) */
    int spec;          /* TB_NBR_SPEC: 0 wait, 1 speculate, 2 speculate ignoring the early bit */
    int spec_step;     /* the evaluation is gpu_advance's: a rollback restores v, kicks again */
    int spec_pending;  /* an evaluation ran on lists whose test is in flight: 1 a compute,
                          2 a step of advance */
    int spec_wait;     /* the next evaluation waits for its test (the early bit, a rollback) */
    int spec_fused;    /* the step's kick-drift ran this evaluation's test (gpu_spec_fuse) */
    long spec_countdown;     /* vir_countdown before the evaluation in flight */
    tb_double4 *d_vel_spec;  /* [n] v before it (a step's rollback) */
    /* a step's small kernels fused (gpu_step.cu; gpu_step_fuse() >= 2) */
    int fuse_kick;           /* the next gpu_finalize also kicks v by kick_h (consumed by it) */
    gpu_per_type kick_h;
    int acc_clean;           /* the kick-drift zeroed the accumulators: the next gpu_acc_zero
                                skips its kernel (consumed by it) */
    long long spec_evals, spec_rollbacks, spec_waits;
};

/* gpu_backend_ext.cu: host interleaved [3n] doubles into the xyz lanes of device double4 [n]
 * (the fourth lane, the species, kept), and back. */
int gpu_upload3(backend *b, tb_double4 *d, const double *h);
int gpu_download3(backend *b, double *h, const tb_double4 *d);
/* gpu_download3 into h in two parts around the caller's own wait for the stream: the gather
 * and the copy into the pinned staging (or into h itself, when h is page-locked) queued; then,
 * after a synchronization, the copy out of the staging. */
int gpu_download3_start(backend *b, double *h, const tb_double4 *d);
/* The library's zero-copy paths (b->zc, page-locked host arrays only): gpu_put_pos reads
 * the positions h3 (host order) in one kernel into d_pos's lanes and d_posf; gpu_get_results
 * writes the forces into h3 and (res) the two energies and the virial into h_res in one kernel.
 * 1: queued; 0: h3 is not page-locked (use the staging path); -1: a CUDA failure. */
int gpu_put_pos(backend *b, const double *h3);
int gpu_get_results(backend *b, double *h3, int res);
void gpu_download3_finish(backend *b, double *h);
/* The fixed-point virial words as doubles (synchronizes the stream). */
int gpu_virial_fixed(backend *b, double w[6]);

/* gpu_device.cu: this rank's device (the node-local rank's; TRIBODY_SHARE_GPUS=1 to share), set
 * current; 0 or an exit status with the message given. */
int gpu_pick_device(int *dev);

/* gpu_backend.cu: one force evaluation queued (lists, accumulators, kernels, the sum over the
 * ranks, forces); x / m for each species. */
int gpu_forces(backend *b);
gpu_per_type gpu_over_mass(const backend *b, double x);
/* gpu_step.cu: the evaluation's last kernel, the forces from the accumulators (with the step's
 * closing kick when b->fuse_kick); the accumulators a step's kick-drift zeroes. */
int gpu_finalize(backend *b);
void gpu_acc_clear_of(const backend *b, gpu_acc_clear *z);

/* gpu_spec.cu: the speculative skin test. gpu_spec_init reads TB_NBR_SPEC (TB_EXIT_USAGE on a
 * bad value); gpu_spec_lists is the evaluation's lists step (the test queued, or the waiting
 * refresh); gpu_spec_settle reads the test in flight and, when the lists were stale, rolls the
 * evaluation back and does it again on new lists: every operation calls it first;
 * gpu_spec_report prints the counts (TB_NBR_SPEC set). */
int gpu_spec_init(backend *b);
/* gpu_backend_ext.cu: zeroes the accumulators of an evaluation on the stream (gpu_step_fuse:
 * one kernel). 0 or -1. */
int gpu_acc_zero(backend *b);
/* Every operation first settles a skin test in flight and launches a deferred finiteness check
 * (gpu_fin_flush: before anything changes the state it checks); GPU_SETTLE_ONLY, the settle
 * alone, for the operations a run calls between a check_finite_late and the next step that
 * neither change nor read the particles (virial_next, info), so the step's kick-drift can take
 * the check. */
#define GPU_SETTLE(b)                                                                              \
    do {                                                                                           \
        if (gpu_spec_settle(b) != 0 || gpu_fin_flush(b) != 0)                                      \
            return -1;                                                                             \
    } while (0)
#define GPU_SETTLE_ONLY(b)                                                                         \
    do {                                                                                           \
        if (gpu_spec_settle(b) != 0)                                                               \
            return -1;                                                                             \
    } while (0)
/* gpu_backend_ext.cu: the deferred check (fin_defer) launched on its own, or, with fc, handed
 * to the step's kick-drift (gpu_fin_take fills fc); 0 or -1. */
int gpu_fin_flush(backend *b);
struct gpu_fin_check;
int gpu_fin_take(backend *b, struct gpu_fin_check *fc);
int gpu_spec_lists(backend *b);
/* Before a step's kick-drift: 1 and *f filled when it is to run the evaluation's speculative
 * test (TB_STEP_FUSE=3; gpu_spec_lists then records its flag's event only), 0 when the test runs
 * apart (or the evaluation waits for it), -1 on an error. */
int gpu_spec_fuse(backend *b, gpu_nbr_fuse *f);
int gpu_spec_settle(backend *b);
void gpu_spec_report(const backend *b);

/* gpu_backend_ext.cu: the backend_ops entries of the same names (backend.h). */
int gpu_kinetic(backend *b, double *ke);
int gpu_virial(backend *b, double w[6]);
int gpu_kinetic_axes(backend *b, double k[6]);
/* The sums v_a v_b (xx yy zz xy xz yz) of each species t into v2[6 t ..], on the device in a
 * fixed order (gpu_motion_kinetic_axes); one wait. */
int gpu_kinetic_v2(backend *b, double v2[6 * TB_TYPES_MAX]);
int gpu_rescale(backend *b, const double m[6], const double vm[6]);
int gpu_put(backend *b, const sim_state *s, int what);
int gpu_rdf(backend *b, const rdf_spec *s, unsigned long long *counts, double *volume);
int gpu_mtk(backend *b, int phase, const mtk_par *par, mtk_state *st); /* gpu_mtk.cu */
void gpu_mtk_free(backend *b); /* its buffers; TB_WAITS=1: prints the waits per MTK step */
int gpu_kick(backend *b, double h);
int gpu_drift(backend *b, double h);
int gpu_scale(backend *b, double c);
int gpu_ostep(backend *b, double c1, const double *c2, const double *xi);
int gpu_check_finite(backend *b, long step, tb_nonfinite *nf);
/* Queues the finiteness check of the state after `step` into the next slot of the pinned
 * record (gpu_finite.cu); gpu_check_finite reads it. */
int gpu_finite_start(backend *b, long step);
int gpu_check_finite_late(backend *b, long step, tb_nonfinite *nf);
/* backend_ops.host_alloc / host_free: page-locked host memory (cudaHostAlloc, portable). */
void *gpu_host_alloc(size_t bytes);
void gpu_host_free(void *p);

#endif
