/* gpu_backend_int.h — the GPU backend's state (struct backend), shared by gpu_backend.cu (create,
 * forces, steps, fetch, the ops table) and gpu_backend_ext.cu (the operations the barostats,
 * the library and the observables added: kinetic energy per axis, virial, rescale, put, rdf).
 * CUDA only; nothing outside solver/gpu/ includes it. */
#ifndef TB_GPU_BACKEND_INT_H
#define TB_GPU_BACKEND_INT_H

#include "solver/backend.h"
#include "solver/gpu/gpu_internal.h"
#include "solver/physics/pot.h"

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
    double *d_ke;                  /* [1] kinetic() result */
    gpu_rdf_work *rdfw;            /* rdf()'s work space (gpu_rdf.cu), at its first call */
    double *d_ke3;                 /* [6 ntypes] kinetic_axes() result, at its first call */
    unsigned long long *d_vfix;    /* [12] */
    gpu_args args;
    cudaStream_t st;
    int threads;     /* for the small kernels */
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
    int async;                /* the caller reads the checks late: advance() does not wait */
    double *h_stage;          /* [4n] host staging of upload3 / download3: pinned when it can be */
    double *d_h3;             /* [3n] their device side: host-order xyz, scattered / gathered */
    int stage_pinned;
    int dev;           /* this rank's device */
    int nranks;        /* ranks summing their shares (gpu_comm) */
    int timing;        /* per-rank timers on (info with BACKEND_TIMERS, bench) */
    backend_times tm;  /* their sums */
    cudaEvent_t ev[8]; /* evaluation: 0 lists 1 force 2 sum 3; step: 4 drift 5, 6 kick 7 */
};

/* gpu_backend_ext.cu: host interleaved [3n] doubles into the xyz lanes of device double4 [n]
 * (the fourth lane, the species, kept), and back. */
int gpu_upload3(backend *b, tb_double4 *d, const double *h);
int gpu_download3(backend *b, double *h, const tb_double4 *d);
/* gpu_download3 in two parts around the caller's own wait for the stream: the gather and the
 * copy into the pinned staging queued; then, after a synchronization, the copy out of it. */
int gpu_download3_start(backend *b, const tb_double4 *d);
void gpu_download3_finish(backend *b, double *h);
/* The fixed-point virial words as doubles (synchronizes the stream). */
int gpu_virial_fixed(backend *b, double w[6]);

/* gpu_backend_ext.cu: the backend_ops entries of the same names (backend.h). */
int gpu_kinetic(backend *b, double *ke);
int gpu_virial(backend *b, double w[6]);
int gpu_kinetic_axes(backend *b, double k[6]);
int gpu_rescale(backend *b, const double m[6], const double vm[6]);
int gpu_put(backend *b, const sim_state *s, int what);
int gpu_rdf(backend *b, const rdf_spec *s, unsigned long long *counts, double *volume);

#endif
