/* cpu_internal.h — the CPU backend's state (struct backend), shared by its three files:
 * cpu_backend.c (creation, force evaluations over the maps' blocks or the neighbour lists),
 * cpu_sums.c (the sums over threads and ranks, the deterministic mode's fixed-point words) and
 * cpu_motion.c (the integrators' primitives on the backend's copy of the state). */
#ifndef TB_CPU_INTERNAL_H
#define TB_CPU_INTERNAL_H

#include "maps3d/map2d.h"
#include "maps3d/map3d.h"
#include "solver/backend.h"
#include "solver/physics/nbr_list.h"
#include "solver/physics/pot.h"

struct backend {
    sim_state s; /* the backend's own copy of the state */
    pot_params pp;
    int typed;     /* several species: the _typed tiles and triangles, s.type per particle */
    int precision; /* enum cfg_precision */
    int edge;      /* tile edge rho */
    int nthreads;
    double dt;
    const map3d_type *m3;
    const map2d_type *m2;
    map3d_plan p3;
    map2d_plan p2;
    double *acc_d;  /* nthreads * 3n force buffers (double, mixed) */
    float *acc_f;   /* nthreads * 3n force buffers (single) */
    float *x_f;     /* positions in float (mixed, single) */
    double *e_thr;  /* 2 * nthreads energies: triplet, pair */
    unsigned char *tscr; /* nthreads scratch blocks of tile_simd_scratch(edge) bytes */
    /* the neighbour-list path (nbr.h), when nbr_wanted() */
    int cull;
    nbr_list nl;
    void *scr;        /* nthreads scratch blocks of scr_bytes */
    size_t scr_bytes;
    int scr_cap;      /* entries each scratch block holds */
    long long *hits_thr; /* nthreads: triplets that counted */
    long long hits;   /* triplets within the cutoffs at the last evaluation */
    long long slots;  /* entry-pair slots (32 x 32 per tile pair) of the last evaluation */
    long long *slots_thr; /* nthreads */
    double *w_thr;  /* 8 * nthreads: the virial xx yy zz xy xz yz per thread (and 2 unused) */
    /* ranks: this rank's shares (split.h) */
    int rank, nranks;
    long long w_lo, w_hi;   /* triplet tiles, lambda order */
    long long q_lo, q_hi;   /* pair tiles, omega2 = T2(J) + I */
    int a_lo, a_hi;         /* anchors (neighbour lists), index order */
    long long *a_prefix;    /* [n + 1] running work of the anchors */
    double *red;            /* [3n + 8] the sums sent over the ranks */
    /* solver.deterministic: fixed-point words per thread, FIX_WORDS(n) each */
    int det;
    unsigned long long *fix_thr;
    /* virial_next, as on the GPU: evaluations until the one whose virial is kept (0: all);
     * vir_skip: the last evaluation dropped this rank's share of the virial */
    long vir_countdown;
    int vir_skip;
    int timing;        /* per-rank timers on (info with BACKEND_TIMERS, bench): wall clock */
    backend_times tm;
};

/* Fixed-point words of one accumulator set: forces 6n (x hi lo, y hi lo, z hi lo), then the
 * triplet and pair energies (4), then the virial (12), then hits and slots (2, plain counts),
 * then the count of non-finite values added (integer words cannot carry a NaN or an infinity:
 * fix_reduce turns a nonzero count into non-finite energies, which the state's check reports). */
#define FIX_WORDS(n) (6 * (size_t)(n) + 19)
#define FIX_BAD(n) (6 * (size_t)(n) + 18)
#define FIX_E(n) (6 * (size_t)(n))
#define FIX_W(n) (6 * (size_t)(n) + 4)
#define FIX_HS(n) (6 * (size_t)(n) + 16)

/* cpu_sums.c (inside the parallel region where said: worksharing loops every thread calls). */
void cpu_zero_forces(backend *b, int t);
void cpu_sum_forces(backend *b, int nt);     /* in the region, after a barrier */
void cpu_fix_flush(backend *b, int t, int p0, int p1);
void cpu_fix_unit(backend *b, int t, double et, double ep, const double *w);
void cpu_fix_sum_threads(backend *b, int nt); /* in the region, after a barrier */
int cpu_fix_reduce(backend *b, double *vir);
int cpu_rank_reduce(backend *b, double *vir);
int cpu_count_reduce(backend *b);
void cpu_det_zero(backend *b);
void cpu_vir_drop(backend *b);

/* cpu_motion.c: v += (h/m) F, and x += h v wrapped into the box; the backend_ops primitives. */
void cpu_kick_by(backend *b, double h);
void cpu_drift_by(backend *b, double h);
int cpu_kick(backend *b, double h);
int cpu_drift(backend *b, double h);
int cpu_scale(backend *b, double c);
int cpu_ostep(backend *b, double c1, const double *c2, const double *xi);
int cpu_kinetic(backend *b, double *ke);
int cpu_kinetic_axes(backend *b, double k[6]);
int cpu_rescale(backend *b, const double m[6], const double vm[6]);
int cpu_virial(backend *b, double w[6]);
int cpu_check_finite(backend *b, long step, tb_nonfinite *nf);
int cpu_put(backend *b, const sim_state *s, int what);
int cpu_results(backend *b, sim_state *s);
int cpu_rdf(backend *b, const rdf_spec *s, unsigned long long *counts, double *volume);

#endif
