/* gpu_internal.h — what the GPU backend's .cu files share (CUDA C++ only).
 *
 * Device memory layout: positions, velocities and forces as double4 (x, y, z, unused) in
 * d_pos, d_vel, d_force; positions rounded to float4 in d_posf for the float kernels.
 * The type lane: the fourth lane of each position (d_pos and d_posf) carries the particle's
 * species index t (sim_state.type, 0 .. ntypes-1) as a bit pattern, the integer t read as the
 * lane's floating type: tb_double4 .w = __longlong_as_double(t), float4 .w = __int_as_float(t)
 * (gpu_type_of reads it back). So a kernel gets the type with the position it loads anyway and
 * converts nothing; the lane is never used in arithmetic (t > 0 is a denormal), only moved,
 * and every kernel that rewrites positions (to_float, drift, kick_drift) keeps it. Type 0 is
 * +0.0, the lane's value before the species: one species leaves it zero.
 * Force accumulation, per precision and solver.deterministic:
 *   ACC_DOUBLE: double atomics into acc[4n] (double, mixed);
 *   ACC_FLOAT:  float atomics into acc_f[4n] (single);
 *   ACC_FIXED:  two-word fixed point, integer atomics into fix[8n] (deterministic): a value
 *               v adds hi = floor(v 2^20) to one int64 and lo = rint((v 2^20 - hi) 2^32) to
 *               another (so up to 2^31 adds cannot overflow it); integer sums do not depend on the
 *               order, so runs repeat bit for bit; resolution 2^-52, range 2^43. */
#ifndef TB_GPU_INTERNAL_H
#define TB_GPU_INTERNAL_H

#include <cuda_runtime.h>

#include "maps3d/map2d.h"
#include "maps3d/map3d.h"
#include "solver/mtk_state.h"
#include "solver/physics/pot_params.h"

/* double4 is deprecated from CUDA 13 in favour of explicitly aligned types. */
#if CUDART_VERSION >= 13000
typedef double4_32a tb_double4;
#else
typedef double4 tb_double4;
#endif

enum gpu_acc { ACC_DOUBLE = 0, ACC_FLOAT = 1, ACC_FIXED = 2 };

#include "solver/par/fixed.h" /* TB_FIX_HI, TB_FIX_LO */

/* The species index in a position's type lane (above). */
__device__ __forceinline__ int gpu_type_of(float w) { return __float_as_int(w); }
__device__ __forceinline__ int gpu_type_of(double w) { return (int)__double_as_longlong(w); }

/* A value per species for the O(n) kernels (dt/2m, noise amplitudes, masses), passed by value
 * and indexed by the type lane: gpu_per_type_at<TYP>, whose one-species instance reads v[0]
 * and no lane, the code of before the species. */
typedef struct gpu_per_type {
    double v[TB_TYPES_MAX];
} gpu_per_type;
template <bool TYP> __device__ __forceinline__ double gpu_per_type_at(const gpu_per_type &p, double w)
{
    return TYP ? p.v[gpu_type_of(w)] : p.v[0];
}

/* Programmatic dependent launch (sm_90; docs/gpu.md, "The cost per atom at 10^5"): a step's
 * kernels (the kick-drift, Stillinger-Weber's forces, the closing finalize-kick) launched so
 * that each may start while the one before ends, each waiting (gpu_pdl_wait, gpu_nbr_test.cuh)
 * before its first memory access. gpu_pdl(): TB_STEP_PDL in the environment (1 on, 0 off;
 * default gpu_step.cu's), and only on a device of compute capability 9 or more. gpu_launch:
 * k<<<grid, block, smem, st>>>(args...), with the attribute when pdl. */
int gpu_pdl(void);
template <typename... P, typename... A>
static inline cudaError_t gpu_launch(void (*k)(P...), int grid, int block, size_t smem,
                                     cudaStream_t st, int pdl, A... args)
{
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute at[1];
    cfg.gridDim = dim3((unsigned)grid);
    cfg.blockDim = dim3((unsigned)block);
    cfg.dynamicSmemBytes = smem;
    cfg.stream = st;
    at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    at[0].val.programmaticStreamSerializationAllowed = 1;
    cfg.attrs = at;
    cfg.numAttrs = pdl ? 1 : 0;
    return cudaLaunchKernelEx(&cfg, k, args...);
}

/* Everything a force kernel needs, passed by value. With several species (kf.ntypes > 1) kf.tab
 * and kd.tab point at the backend's device copies of the tables (pot_params.h). */
typedef struct gpu_args {
    const float4 *posf;  /* float kernels */
    const tb_double4 *posd; /* double kernels */
    int n;
    int map_id;          /* map3d_id or map2d_id */
    pot_coef_f kf;
    pot_coef_d kd;
    int mode;            /* enum gpu_acc */
    double *acc;         /* [4n] */
    float *acc_f;        /* [4n] */
    unsigned long long *fix; /* [8n]: x hi, x lo, y hi, y lo, z hi, z lo, unused, unused */
    double *energy;      /* [2]: triplet, pair (ACC_DOUBLE, ACC_FLOAT) */
    unsigned long long *efix; /* [4]: triplet hi, lo, pair hi, lo (ACC_FIXED) */
    double *virial;      /* [6]: W xx yy zz xy xz yz, both terms (ACC_DOUBLE, ACC_FLOAT) */
    unsigned long long *vfix; /* [12]: the same as hi, lo pairs (ACC_FIXED) */
    long long w_lo, w_hi;     /* this rank's triplet tiles, lambda order (split.h) */
    long long q_lo, q_hi;     /* this rank's pair tiles, omega2 = T2(J) + I */
} gpu_args;

/* The triplet term through every launch of plan p, tile edge rho in {8, 16, 32}, float
 * (_f: mixed, single) or double (_d) arithmetic, with or without cutoff: 0, or -1 (reported;
 * also for another rho). Threads per block: 4 rho. */
#define GPU_ATM_CUT 1    /* flags: the cutoff tests */
#define GPU_ATM_VIRIAL 2 /* flags: also sum the virial */
/* flags: nt > 1 species, the typed instances (nu per triplet from the tables); 0 for one */
#define GPU_ATM_TYPES(nt) ((nt) > 1 ? (nt) << 4 : 0)
#define GPU_ATM_NTYPES(flags) ((flags) >> 4) /* 0: one species */
int gpu_atm_launch_f(const gpu_args *a, const map3d_plan *p, int rho, int flags, cudaStream_t s);
int gpu_atm_launch_d(const gpu_args *a, const map3d_plan *p, int rho, int flags, cudaStream_t s);
/* Blocks of the kernel that fit on one multiprocessor (for persistent maps). */
int gpu_atm_occupancy_f(int rho, int flags);
int gpu_atm_occupancy_d(int rho, int flags);
/* Raises the kernels' shared-memory limits where they need more than 48 KB, the typed
 * instances' too when typed; 0 or -1. */
int gpu_atm_setup_f(int typed);
int gpu_atm_setup_d(int typed);
/* The typed instances (gpu_atm_tf.cu, gpu_atm_td.cu: their own files, compiled in parallel),
 * which the functions above call when flags carry GPU_ATM_TYPES. */
int gpu_atm_launch_tf(const gpu_args *a, const map3d_plan *p, int rho, int flags, cudaStream_t s);
int gpu_atm_launch_td(const gpu_args *a, const map3d_plan *p, int rho, int flags, cudaStream_t s);
int gpu_atm_occupancy_tf(int rho, int flags);
int gpu_atm_occupancy_td(int rho, int flags);
int gpu_atm_setup_tf(void);
int gpu_atm_setup_td(void);

/* The pair term through every launch of plan p (tile edge rho, any value), blocks of
 * `threads` threads (solver.threads; fewer when the tile is smaller); dbl: in double (double
 * and mixed precision), else float (single). */
int gpu_pair_launch(const gpu_args *a, const map2d_plan *p, int rho, int dbl, int threads,
                    cudaStream_t s);

/* The integrators' O(n) kernels (gpu_motion.cu), blocks of `threads` on stream st (the kinetic
 * energy: one block); posf NULL: no float copy (double precision); typed: several species, the
 * per-species values by the type lane. 0, or -1 (the launch reported). */
int gpu_motion_to_float(const tb_double4 *pos, float4 *posf, int n, int threads, cudaStream_t st);
/* Words the kick-drift zeroes for the next evaluation (gpu_step.cu's gpu_acc_clear_of): per[i
 * words .. + words) of each particle i, and the small arrays, by particle 0's thread. */
typedef struct gpu_acc_clear {
    unsigned long long *per;
    int words;
    unsigned long long *small[4];
    int nsmall[4];
} gpu_acc_clear;
/* v += hm F; x += dt v, wrapped into box (NVE's step around a force evaluation); z (or NULL):
 * the accumulators zeroed as well. */
struct gpu_nbr_fuse;
int gpu_motion_kick_drift(tb_double4 *pos, tb_double4 *vel, const tb_double4 *force, float4 *posf,
                          int n, int typed, const gpu_per_type *hm, double dt, const tb_box_d *box,
                          const gpu_acc_clear *z, int threads, cudaStream_t st);
/* The same, and the lists' skin test of the new positions (t: gpu_nbr_test_fusable's), its
 * flag published as gpu_nbr_test_start's; pdl: launched with gpu_launch's attribute; fc (or
 * NULL): the finiteness check of the state it starts from (gpu_fin_check below), whose bad
 * values also set NBR_BAD in t's flag. */
struct gpu_fin_check;
int gpu_motion_kick_drift_test(tb_double4 *pos, tb_double4 *vel, const tb_double4 *force,
                               float4 *posf, int n, int typed, const gpu_per_type *hm, double dt,
                               const tb_box_d *box, const gpu_acc_clear *z,
                               const struct gpu_nbr_fuse *t, const struct gpu_fin_check *fc,
                               int pdl, int threads, cudaStream_t st);
int gpu_motion_kick(tb_double4 *vel, const tb_double4 *force, const tb_double4 *pos, int n,
                    int typed, const gpu_per_type *hm, int threads, cudaStream_t st);
int gpu_motion_drift(tb_double4 *pos, const tb_double4 *vel, float4 *posf, int n, double h,
                     const tb_box_d *box, int threads, cudaStream_t st);
int gpu_motion_scale(tb_double4 *vel, int n, double c, int threads, cudaStream_t st);
/* v = c1 v + c2 xi (xi: [3n] on the device, c2 per species). */
int gpu_motion_ostep(tb_double4 *vel, const tb_double4 *pos, const double *xi, int n, int typed,
                     double c1, const gpu_per_type *c2s, int threads, cudaStream_t st);
/* out[t] = sum |v|^2 over species t (nt > 1), else out[0] over all; fixed order (bitwise).
 * out holds GPU_KE_WORDS(1) doubles (GPU_KE_WORDS(6) for gpu_motion_kinetic_axes): the sums,
 * then the partial sums of up to GPU_KE_BLOCKS blocks (gpu_motion.cu). */
#define GPU_KE_BLOCKS 512
#define GPU_KE_WORDS(k) ((size_t)(k) * TB_TYPES_MAX * (1 + GPU_KE_BLOCKS))
int gpu_motion_kinetic(const tb_double4 *vel, const tb_double4 *pos, int n, int nt, double *out,
                       cudaStream_t st);

/* The barostat's map (backend.h rescale; box: the moved box; a map NULL: off) and the
 * kinetic tensor: out[6 t + c] = sum v_a v_b (xx yy zz xy xz yz) over species t (nt > 1),
 * else out[c]; fixed order. */
typedef struct gpu_map6 {
    double m[6];
    int on, general;
} gpu_map6;
int gpu_motion_rescale(tb_double4 *pos, tb_double4 *vel, float4 *posf, int n, const double m[6],
                       const double vm[6], const tb_box_d *box, int threads, cudaStream_t st);
/* The same two read from device memory (a barostat that moves the box there, gpu_mtk_box.cu):
 * the map dmap[6] and the box *dbox; the positions' map only. */
int gpu_motion_drift_dev(tb_double4 *pos, const tb_double4 *vel, float4 *posf, int n, double h,
                         const tb_box_d *dbox, int threads, cudaStream_t st);
int gpu_motion_rescale_dev(tb_double4 *pos, float4 *posf, int n, const double *dmap,
                           const tb_box_d *dbox, int threads, cudaStream_t st);

/* What the lists' skin test reads of a box that moves on the device (gpu_mtk_box.cu writes
 * it in stream order after each dilation, gpu_nbr_stale.cu reads it): nbr.h's map from the
 * lists' box to the box now and the test's bound, as the host computes them for a box it
 * moves (nbr_stretch, nbr_stretch_limit), and the float copy of the box. */
typedef struct gpu_box_rec {
    tb_box_d ref;    /* the box at the lists' last build */
    tb_box_f f;      /* the box now, in float (box_to_f) */
    double m[6];     /* nbr_stretch(now, ref) */
    double lim2;     /* the bound on a particle's squared displacement; < 0: rebuild */
    int moved;       /* the box is not ref */
} gpu_box_rec;
/* r->ref = *dbox and the bound of an unmoved box (the lists were just built), in stream order;
 * rc = radius - skin. 0 or -1. */
int gpu_box_ref(const tb_box_d *dbox, gpu_box_rec *r, double rc, double skin, cudaStream_t st);
/* r's reference *ref given by the host (the lists' box at their last build) and r from it. */
int gpu_box_rec_init(const tb_box_d *dbox, gpu_box_rec *r, const tb_box_d *ref, double rc,
                     double skin, cudaStream_t st);
/* One dilation's box (MTK_MOVE): s->box mapped by s->map and checked on the device
 * (mtk_body.h's mtk_box_move), r updated. */
int gpu_mtk_box_move(mtk_state *s, const mtk_par *p, long step, gpu_box_rec *r, double rc,
                     double skin, cudaStream_t st);
/* C-rescale's one-thread kernels (gpu_mtk.cu's CRS phases; physics/crescale_body.h), the kinetic
 * sums v2[6 t + c] of gpu_motion_kinetic_axes over nt species of masses mass[TB_TYPES_MAX]:
 * crs_begin: mu from the kept virial (crescale_state_begin); crs_move: the box stretched and
 * checked, the work's dK + P0 dV (crescale_state_move), r updated; crs_virial: the virial of
 * the last evaluation (vir, or the fixed-point words vfix when not NULL) into the state: the
 * work's dU (end) or kept for the next rescale (keep). 0 or -1. */
int gpu_crs_begin(mtk_state *s, const mtk_par *p, const double *mass, int nt, const double *v2,
                  cudaStream_t st);
int gpu_crs_move(mtk_state *s, const mtk_par *p, const double *mass, int nt, const double *v2,
                 gpu_box_rec *r, double rc, double skin, cudaStream_t st);
int gpu_crs_virial(mtk_state *s, const double *vir, const unsigned long long *vfix, int end,
                   cudaStream_t st);

/* Host waits, counted when TB_WAITS=1 is in the environment (gpu_wait_count, read at create;
 * printed per MTK step: gpu_mtk.cu): every stream synchronization of the backend (the GPU
 * drains its queue: it idles until the host queues again) and every event wait (work queued
 * behind the event keeps it busy; the blocking ones found the event not reached yet, which
 * costs a cudaEventQuery: only when counting) goes through these two. */
extern int gpu_wait_count;
extern long long gpu_syncs, gpu_event_waits, gpu_event_blocking;
static inline cudaError_t gpu_wait_stream(cudaStream_t st)
{
    gpu_syncs++;
    return cudaStreamSynchronize(st);
}
static inline cudaError_t gpu_wait_event(cudaEvent_t ev)
{
    if (gpu_wait_count) {
        gpu_event_waits++;
        if (cudaEventQuery(ev) == cudaErrorNotReady)
            gpu_event_blocking++;
    }
    return cudaEventSynchronize(ev);
}
int gpu_motion_kinetic_axes(const tb_double4 *vel, const tb_double4 *pos, int n, int nt,
                            double *out, cudaStream_t st);

/* The neighbour-list path (gpu_nbr_build.cu: the lists; gpu_nbr.cu: the forces; nbr.h). */
typedef struct gpu_nbr gpu_nbr;
typedef struct gpu_nbr_info {
    long long slots;   /* entry-pair slots launched since the last call (with stats) */
    long long hits;    /* triplets within the cutoffs among them */
    long long builds;  /* list builds so far */
    long long entries; /* list entries of the last build */
    int max_row;       /* longest row of the last build */
} gpu_nbr_info;
/* Lists for n particles in box (box.h; no periodic axis = open), list radius and skin
 * [sigma]; 0 or -1. */
int gpu_nbr_create(gpu_nbr **out, int n, const tb_box_d *box, double radius, double skin);
void gpu_nbr_destroy(gpu_nbr *b);
/* Full lists (every partner within R, before the anchor too) for a centred body; set once,
 * before the first build. */
void gpu_nbr_set_full(gpu_nbr *b, int full);
/* Stillinger-Weber alone over the full lists (gpu_sw.cu): rebuilds when stale, then adds its
 * forces, energies and virial into a's accumulators, float (dbl = 0) or double arithmetic, in
 * blocks of `threads` / 32 centres (solver.threads; the same results at every value).
 * 0 or -1 (reported). */
int gpu_sw_forces(gpu_nbr *b, const gpu_args *a, const pot_params *pp, int dbl, int threads,
                  cudaStream_t st);
/* Rebuilds the lists when stale, then adds the forces, energies and virial of every term of pp
 * into the accumulators of a (a.virial / a.vfix for the virial; zeroed by the caller), float (dbl = 0) or double arithmetic;
 * pdbl = 1 with dbl = 0 (mixed precision): the pairs in double all the same; stats = 1 also
 * counts slots and hits. 0 or -1 (reported). */
int gpu_nbr_forces(gpu_nbr *b, const gpu_args *a, const pot_params *pp, int dbl, int pdbl,
                   int stats, cudaStream_t st);
/* The device counters of stats (slots, hits) the ranks sum after an evaluation: for gpu_comm
 * (the lists' virial goes to the common a.virial / a.vfix, summed with the rest). */
unsigned long long *gpu_nbr_counters(gpu_nbr *b);
/* The speculative skin test (gpu_nbr_stale.cu; docs/gpu.md, "A step's waits"). The early
 * bit's margin: v2 |v_i| + f2[type] |F_i| (2 dt and 2 dt^2 / m); vel NULL: no early bit. */
typedef struct gpu_nbr_soon {
    const tb_double4 *vel, *force;
    double v2;
    gpu_per_type f2;
    int typed;
    /* the speculative test only: vsave[i] = vsrc[i] when vsave (a step's v_{s-1/2}, kept for a
     * rollback: one kernel with the test rather than a copy after it) */
    const tb_double4 *vsrc;
    tb_double4 *vsave;
} gpu_nbr_soon;
/* The staleness check and, when stale, the build, alone (so that the backend can time it),
 * the host waiting for the test; the next gpu_nbr_forces then skips its own check. *bits: the
 * test's bits (NBR_STALE, NBR_SOON below; s NULL: no early bit; 0 when no test ran). 0 or -1. */
int gpu_nbr_refresh(gpu_nbr *b, const tb_double4 *pos, const gpu_nbr_soon *s, unsigned *bits,
                    cudaStream_t st);
/* Queues the skin test of pos with its flag copied into pinned memory behind an event; the
 * next gpu_nbr_forces runs on the lists as they are. 0 queued; 1 when it cannot speculate (no
 * lists yet, or a box stretched beyond what the test bounds: gpu_nbr_refresh builds now); -1. */
int gpu_nbr_test_start(gpu_nbr *b, const tb_double4 *pos, const gpu_nbr_soon *s, cudaStream_t st);
/* The plain speculative test done by the step's kick-drift as it moves the particles
 * (TB_STEP_FUSE=3, the default: gpu_motion.cu's kick_drift_test_kernel): what it reads. */
typedef struct gpu_nbr_fuse {
    const tb_double4 *xref; /* positions at the build */
    tb_box_d box;           /* the lists' box (its minimum image) */
    double lim2;            /* (skin/2)^2 */
    double v2;              /* the early bit's margin (soon): v2 |v| + f2[type] |F| */
    gpu_per_type f2;
    int soon;
    tb_double4 *vsave;      /* v_{s-1/2} for a rollback (the kicked v), or NULL */
    unsigned *flag, *hflag; /* d_pub and the mapped pinned word (gpu_nbr_stale.cu) */
} gpu_nbr_fuse;
/* 1 and *f filled when the kick-drift can test (TB_STEP_FUSE >= 3, lists built, the box neither
 * moving on the device nor stretched since the build), 0 when the test's own kernel runs. */
int gpu_nbr_test_fusable(gpu_nbr *b, const gpu_nbr_soon *s, gpu_nbr_fuse *f);
/* After the kick-drift that tested: the flag's event, the forces on the lists as they are
 * (gpu_nbr_test_start's bookkeeping without its launch). 0 or -1. */
int gpu_nbr_test_fused(gpu_nbr *b, cudaStream_t st);
/* TB_STEP_FUSE: 3 (default) as 2, and a step's kick-drift also runs the speculative skin test
 * (gpu_nbr_test_fusable); 2 as 1, and a step of advance() zeroes the accumulators in its
 * kick-drift and kicks in the forces' last kernel (gpu_step.cu); 1: that test is one kernel, its
 * flag written into the pinned word by the kernel, s->vsave copied by it, and gpu_forces zeroes
 * its accumulators in one kernel; 0: a memset, the kernel, two copies, and a memset per
 * accumulator (before). */
int gpu_step_fuse(void);
/* Waits for that test's flag (NBR_STALE 1: the lists were stale at pos; NBR_SOON 2: they may
 * be at the next step). 0 or -1. */
int gpu_nbr_test_read(gpu_nbr *b, unsigned *flag);
/* Builds at pos whatever the test says (a rollback); the next gpu_nbr_forces uses it. */
int gpu_nbr_rebuild(gpu_nbr *b, const tb_double4 *pos, cudaStream_t st);
/* The box moved (a barostat's diagonal stretch, nbr.h): the forces and the next staleness
 * test and build use it. */
void gpu_nbr_move_box(gpu_nbr *b, const tb_box_d *box);
/* The lists follow a box that moves on the device (dbox, r: gpu_box_rec above; NULL, NULL:
 * the host's box again): the skin test and the force kernel read it there, a build reads it
 * back first (a wait) and marks r's reference. fault: the backend's check of that box at a
 * build (its late record read at once; 0 or -1, reported), with its context ctx. */
int gpu_nbr_moving_ok(void); /* the force kernel takes such a box (TB_NBR_KERNEL unset, 1, 7, 8) */
int gpu_sw_moving_ok(void);  /* SW's kernel takes it too (TB_SW_KERNEL unset or 4) */
void gpu_nbr_box_dev(gpu_nbr *b, const tb_box_d *dbox, gpu_box_rec *r,
                     int (*fault)(void *ctx), void *ctx);
/* This rank's anchors of the last build and their list entries (the per-rank timers). */
void gpu_nbr_share(const gpu_nbr *b, long long *anchors, long long *entries);

/* The rank layer on GPUs (gpu_comm.cu): one NCCL communicator over the ranks, bootstrapped over
 * MPI, on the device of this rank. gpu_comm_init is collective (once per process; later calls
 * return at once); 0 or -1 (reported). */
int gpu_comm_init(int device);
/* In-place sums over the ranks on stream s: type 0 double, 1 float, 2 unsigned 64-bit. Calls
 * between gpu_comm_begin and gpu_comm_end are fused into one NCCL group. 0 or -1. */
int gpu_comm_begin(void);
int gpu_comm_sum(void *d_buf, size_t count, int type, cudaStream_t s);
int gpu_comm_end(void);
/* Counters; slots and hits of the last evaluation made with stats = 1. */
int gpu_nbr_stats(gpu_nbr *b, gpu_nbr_info *info, cudaStream_t st);
/* The record of the finiteness check (gpu_finite.cu): the first step with a non-finite
 * value (-1: none yet) and the smallest key term * 2^32 + particle found at it (finite.h). */
typedef struct gpu_finite_rec {
    long long step;
    unsigned long long key;
} gpu_finite_rec;

/* The finiteness check of a step's starting state (the state after step `step`), done by the
 * step's kick-drift as it reads that state (gpu_motion_kick_drift_test; gpu_finite.cuh's keys,
 * the same record as gpu_finite_launch's): mass each species' mass, ke_bound tb_ke_bound(n),
 * energy and virial as gpu_finite_launch's. */
typedef struct gpu_fin_check {
    gpu_finite_rec *rec;
    long long step;
    gpu_per_type mass;
    double ke_bound;
    const double *energy, *virial;
} gpu_fin_check;

/* Empties the record (synchronously); 0 or -1. */
int gpu_finite_reset(gpu_finite_rec *d_rec, cudaStream_t st);

/* The RDF histogram of rdf.h over pos[n] (gpu_rdf.cu), by cells or all pairs
 * (physics/rdf_cells.h's plan), added to counts (host). *work: the O(n) device work space,
 * created at the first call, kept between samples, freed by gpu_rdf_free. 0 or -1. */
struct rdf_spec;
typedef struct gpu_rdf_work gpu_rdf_work;
int gpu_rdf_count(const tb_double4 *pos, int n, int typed, const tb_box_d *box,
                  const struct rdf_spec *s, gpu_rdf_work **work, unsigned long long *counts,
                  cudaStream_t st);
void gpu_rdf_free(gpu_rdf_work *w);

/* gpu_finite_launch checks the state after `step` (energy: the [triplet, pair] energies and
 * virial its [6] components, NULL when they are not kept in double; mass: each species' mass,
 * for each particle's kinetic energy, typed: several species, read from the positions' type
 * lane) and copies the record to h_rec (pinned host memory), recording ev after the copy;
 * gpu_finite_read waits for ev and decodes it: *bad_step = -1 when everything so far was
 * finite, else the first bad step with its term and particle (-1 for a whole-state value).
 * Both 0 or -1. */
int gpu_finite_launch(const tb_double4 *pos, const tb_double4 *vel, const tb_double4 *force,
                      const double *energy, const double *virial, const gpu_per_type *mass,
                      int typed, int n, long step, gpu_finite_rec *d_rec, gpu_finite_rec *h_rec,
                      cudaEvent_t ev, cudaStream_t st);
int gpu_finite_read(const gpu_finite_rec *h_rec, cudaEvent_t ev, long *bad_step, int *term,
                    int *particle);
/* The record alone copied to h_rec behind the stream's work, ev recorded after (for
 * gpu_finite_read); 0 or -1. */
int gpu_finite_copy(const gpu_finite_rec *d_rec, gpu_finite_rec *h_rec, cudaEvent_t ev,
                    cudaStream_t st);

#endif
