/* gpu_mtk.cu — MTK with its Nose-Hoover chain held on the device during a run (backend.h's
 * `mtk`, integrate.c's mtk_step_dev): the state (solver/mtk_state.h) lives in device memory,
 * the kinetic energy and tensor are reduced where the velocities are (gpu_motion.cu's fixed-order
 * kernels) and consumed there by one-thread kernels that run physics/mtk_body.h, the same
 * functions the host path runs; the velocities' factors and maps are read by the scaling
 * kernels from device memory. On the neighbour-list path the box moves on the device too
 * (MTK_MOVE: gpu_mtk_box.cu), the drift, the dilations, the lists' skin test and the force
 * kernel reading it there, so a step has no wait; the state comes back late (copied at each
 * MTK_END, read at the next call: a box's fault stops the run there) and at MTK_PULL. Else
 * (the all-triplets kernels, Stillinger-Weber, TB_BARO_BOX=0) MTK_BEGIN brings the state
 * back, for the box map that the host applies to the box (the kernels take it as their
 * argument): one wait a step.
 * C-rescale (the CRS phases, integrate.c's crs_step_dev; TB_CRESCALE_DEV=0: the host path) holds its state
 * here too, on the same device-box path: mu from the kept virial and the kinetic tensor
 * (CRS_BEGIN), the stretch of the box (mtk_box_move, the lists' record), positions and
 * velocities from device memory, the work's terms (gpu_mtk_box.cu: crescale_body.h) and the
 * forces (CRS_EVAL), the virial kept (CRS_KEEP); the host takes the stretched box from a pinned
 * copy behind an event that the evaluation's forces are queued after (no drain), before it
 * queues the next drift, which takes the box as its argument. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/check.h"
#include "solver/gpu/gpu_backend_int.h"
#include "solver/gpu/gpu_nbr_int.h"
#include "solver/par/fixed.h"
#include "solver/physics/baro.h"
#include "solver/physics/mtk_body.h"

/* The species' masses, by value. */
typedef struct mtk_mass {
    double m[TB_TYPES_MAX];
    int nt;
} mtk_mass;

/* The chain's half step at the kinetic energy of the sums v2 (kinetic_kernel). */
__global__ void mtk_chain_kernel(mtk_state *s, mtk_par p, mtk_mass ms, const double *v2, int end)
{
    double K = 0.0;
    for (int t = 0; t < ms.nt; t++) /* gpu_kinetic's order */
        K += 0.5 * ms.m[t] * v2[t];
    mtk_state_chain(s, &p, K, end);
}

/* The chain's closing half step at the kinetic energy the pressure took (nhc_end_at). */
__global__ void mtk_chain_end_kernel(mtk_state *s, mtk_par p)
{
    mtk_state_chain(s, &p, s->K, 1);
}

/* The strain rates' half kick: before (the kept virial) or after an evaluation (its virial,
 * vir or the fixed-point words vfix, then kept for the next step). */
__global__ void mtk_omega_kernel(mtk_state *s, mtk_par p, mtk_mass ms, const double *v2,
                                 const double *vir, const unsigned long long *vfix, int before)
{
    double w[6];
    for (int c = 0; c < 6; c++)
        w[c] = before ? s->w_prev[c]
               : vfix ? (double)(long long)vfix[2 * c] / TB_FIX_HI +
                            (double)(long long)vfix[2 * c + 1] / (TB_FIX_HI * TB_FIX_LO)
                      : vir[c];
    if (!before)
        for (int c = 0; c < 6; c++)
            s->w_prev[c] = w[c];
    mtk_state_omega(s, &p, ms.nt, ms.m, v2, w);
}

/* v *= the chain's factor (scale_kernel's arithmetic). */
__global__ void mtk_scale_kernel(tb_double4 *vel, int n, const mtk_state *s)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const double c = s->scale;
    tb_double4 v = vel[i];
    v.x *= c;
    v.y *= c;
    v.z *= c;
    vel[i] = v;
}

/* v = VM v, the half step's velocities' map (rescale_kernel's arithmetic: diagonal or general
 * by the same rule, an off-diagonal term not zero). */
__global__ void mtk_vmap_kernel(tb_double4 *vel, int n, const mtk_state *s)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const double *m = s->vm;
    tb_double4 v = vel[i];
    if (m[3] != 0.0 || m[4] != 0.0 || m[5] != 0.0) {
        v.x = m[0] * v.x + m[3] * v.y + m[4] * v.z;
        v.y = m[1] * v.y + m[5] * v.z;
        v.z = m[2] * v.z;
    } else {
        v.x *= m[0];
        v.y *= m[1];
        v.z *= m[2];
    }
    vel[i] = v;
}

static int blocks(const backend *b)
{
    return (b->n + b->threads - 1) / b->threads;
}

/* The kinetic sums the coupling takes (iso: per species |v|^2; else the tensor), on the device. */
static int kinetic_sums(backend *b, int iso, double **out)
{
    const int nt = b->ntypes > 1 ? b->ntypes : 1;
    if (!b->d_ke)
        CUDA_CHECK(cudaMalloc(&b->d_ke, GPU_KE_WORDS(1) * sizeof(double)));
    if (!b->d_ke3)
        CUDA_CHECK(cudaMalloc(&b->d_ke3, GPU_KE_WORDS(6) * sizeof(double)));
    *out = iso ? b->d_ke : b->d_ke3;
    return iso ? gpu_motion_kinetic(b->d_vel, b->d_pos, b->n, nt, b->d_ke, b->st)
               : gpu_motion_kinetic_axes(b->d_vel, b->d_pos, b->n, nt, b->d_ke3, b->st);
}

/* A box's fault in the state st (mtk_box_fault's code, first step), as the host path says it. */
static int box_fault_of(const backend *b, const mtk_state *st)
{
    return st->box_dev && st->fault
               ? baro_box_fault(st->fault, &st->fault_box, st->fault_step, b->box_v0, b->box_range)
               : 0;
}

/* The host's copies of a box that moved on the device (fetch, rdf, the lists' host side). */
static void box_take(backend *b, const tb_box_d *box)
{
    b->pp.d.box = *box;
    b->pp.f.box = box_to_f(box);
    b->args.kd.box = b->pp.d.box;
    b->args.kf.box = b->pp.f.box;
    gpu_nbr_move_box(b->nb, box);
}

static int pull(backend *b, mtk_state *st)
{
    CUDA_CHECK(cudaMemcpyAsync(b->h_mtk, b->d_mtk, sizeof *st, cudaMemcpyDeviceToHost, b->st));
    CUDA_CHECK(gpu_wait_stream(b->st));
    memcpy(st, b->h_mtk, sizeof *st);
    b->mtk_late = 0; /* what it would say, this says */
    if (box_fault_of(b, st) != 0)
        return -1;
    if (st->box_dev)
        box_take(b, &st->box);
    return 0;
}

/* The box at a build (gpu_nbr_box_dev): the state now, a fault stops the run, the lists'
 * host copy of the box set (box_take). */
static int build_box(void *ctx)
{
    mtk_state st;
    return pull((backend *)ctx, &st);
}

/* The copy of MTK_END, read at the next call: its event passed long before (a step's forces
 * came after it), so the read does not wait in practice; a fault stops the run, one step
 * after it happened, naming its step. */
static int read_late(backend *b)
{
    if (!b->mtk_late)
        return 0;
    b->mtk_late = 0;
    CUDA_CHECK(gpu_wait_event(b->ev_mtk));
    return box_fault_of(b, b->h_mtk_late);
}

/* Whether the box moves on the device: the neighbour-list force kernels that read it there
 * (ATM + LJ's and Stillinger-Weber's default instances; not the counters' or the older tile
 * loops', not the all-triplets kernels), and TB_BARO_BOX is not 0 (the path of one wait a step,
 * kept for before/after measurements). */
static int box_on_device(const backend *b)
{
    const char *e = getenv("TB_BARO_BOX");
    return b->cull && b->nb && !b->stats &&
           (b->pp.sw_on ? gpu_sw_moving_ok() : gpu_nbr_moving_ok()) && !(e && e[0] == '0');
}

/* TB_WAITS=1: the waits since the last MTK_BEGIN (a step), counted. */
static void count_waits(backend *b)
{
    const long long now[3] = {gpu_syncs, gpu_event_waits, gpu_event_blocking};
    const long long k = now[0] - b->w_last[0];
    if (b->w_steps++ > 0) { /* the first has the setup before it */
        b->w_zero += k == 0;
        b->w_max = k > b->w_max ? k : b->w_max;
        b->w_syncs += k;
        b->w_events += now[1] - b->w_last[1];
        b->w_blocking += now[2] - b->w_last[2];
    }
    memcpy(b->w_last, now, sizeof now);
}

void gpu_mtk_free(backend *b)
{
    const char *e = getenv("TB_WAITS");
    if (e && e[0] == '1' && b->w_steps > 1)
        fprintf(stderr, "host waits (TB_WAITS=1), box on the %s: %lld %s after the first, "
                        "%lld without a stream synchronization, at most %lld in a step, %lld in "
                        "all; %lld event waits (work queued behind them), %lld of them blocking\n",
                b->box_dev ? "device" : "host", b->w_steps - 1,
                b->crs ? "C-rescale rescales" : "MTK steps", b->w_zero, b->w_max, b->w_syncs,
                b->w_events, b->w_blocking);
    cudaFree(b->d_mtk);
    if (b->h_mtk)
        cudaFreeHost(b->h_mtk);
    if (b->h_mtk_late)
        cudaFreeHost(b->h_mtk_late);
    if (b->ev_mtk)
        cudaEventDestroy(b->ev_mtk);
    cudaFree(b->d_boxr);
}

/* MTK_PUSH: the state to the device; the box goes with it when it moves there. */
static int push(backend *b, const mtk_par *par, mtk_state *st)
{
    b->box_dev = box_on_device(b);
    st->box_dev = b->box_dev;
    st->fault = 0;
    b->box_v0 = par->v0;
    b->box_range = par->range;
    memcpy(b->h_mtk, st, sizeof *st);
    CUDA_CHECK(cudaMemcpyAsync(b->d_mtk, b->h_mtk, sizeof *st, cudaMemcpyHostToDevice, b->st));
    if (b->box_dev) {
        if (!b->d_boxr) {
            CUDA_CHECK(cudaMalloc(&b->d_boxr, sizeof *b->d_boxr));
            CUDA_CHECK(cudaMallocHost(&b->h_mtk_late, sizeof *b->h_mtk_late));
            CUDA_CHECK(cudaEventCreateWithFlags(&b->ev_mtk, cudaEventDisableTiming));
        }
        if (gpu_box_rec_init(&b->d_mtk->box, b->d_boxr, &b->nb->box_ref,
                             b->nb->radius - b->nb->skin, b->nb->skin, b->st) != 0)
            return -1;
        gpu_nbr_box_dev(b->nb, &b->d_mtk->box, b->d_boxr, build_box, b);
    } else if (b->nb) {
        gpu_nbr_box_dev(b->nb, NULL, NULL, NULL, NULL);
    }
    b->mtk_late = 0;
    CUDA_CHECK(gpu_wait_stream(b->st));
    return 0;
}

/* MTK_MOVE: B(h) D(h) A(dt) D(h), the box moved and checked on the device at each D(h). */
static int move(backend *b, const mtk_par *par)
{
    const double rc = b->nb->radius - b->nb->skin, skin = b->nb->skin;
    float4 *posf = b->dbl ? NULL : b->d_posf;
    if (gpu_kick(b, par->h) != 0)
        return -1;
    for (int k = 0; k < 2; k++) {
        if (k == 1 && gpu_motion_drift_dev(b->d_pos, b->d_vel, posf, b->n, 2.0 * par->h,
                                           &b->d_mtk->box, b->threads, b->st) != 0)
            return -1;
        if (gpu_mtk_box_move(b->d_mtk, par, par->step, b->d_boxr, rc, skin, b->st) != 0 ||
            gpu_motion_rescale_dev(b->d_pos, posf, b->n, b->d_mtk->map, &b->d_mtk->box,
                                   b->threads, b->st) != 0)
            return -1;
    }
    return 0;
}

/* ---- C-rescale (backend.h's CRS phases) ---- */

/* CRS_PUSH: MTK_PUSH's, where the box can move on the device (1); else 0, nothing taken. */
static int crs_push(backend *b, const mtk_par *par, mtk_state *st)
{
    if (!box_on_device(b))
        return 0;
    b->crs = 1;
    return push(b, par, st) != 0 ? -1 : 1;
}

/* The last evaluation's virial (summed: virial_next) into the state: dU (end) or kept. */
static int crs_virial(backend *b, int end)
{
    const int fixed = b->args.mode == ACC_FIXED;
    if (!b->vir_valid)
        return tb_error(NULL, 0, "internal: C-rescale's evaluation did not sum the virial");
    return gpu_crs_virial(b->d_mtk, fixed ? NULL : b->d_virial, fixed ? b->d_vfix : NULL, end,
                          b->st);
}

/* CRS_EVAL: the stretch (dK from the kinetic tensor before it), the forces in the new box, the
 * host's box copies from the pinned copy (its event passed once the skin test's has: the forces
 * stay queued), the fault checked, then dU. */
static int crs_eval(backend *b, const mtk_par *par)
{
    const int nt = b->ntypes > 1 ? b->ntypes : 1;
    float4 *posf = b->dbl ? NULL : b->d_posf;
    double *v2;
    if (kinetic_sums(b, 0, &v2) != 0 ||
        gpu_crs_move(b->d_mtk, par, b->mass, nt, v2, b->d_boxr, b->nb->radius - b->nb->skin,
                     b->nb->skin, b->st) != 0 ||
        gpu_motion_rescale_dev(b->d_pos, posf, b->n, b->d_mtk->map, &b->d_mtk->box, b->threads,
                               b->st) != 0)
        return -1;
    mtk_vmap_kernel<<<blocks(b), b->threads, 0, b->st>>>(b->d_vel, b->n, b->d_mtk);
    TB_LAUNCH_CHECK("mtk_vmap_kernel");
    CUDA_CHECK(cudaMemcpyAsync(b->h_mtk_late, b->d_mtk, sizeof *b->h_mtk_late,
                               cudaMemcpyDeviceToHost, b->st));
    CUDA_CHECK(cudaEventRecord(b->ev_mtk, b->st));
    b->spec_step = 0;
    if (gpu_forces(b) != 0)
        return -1;
    GPU_SETTLE(b); /* its skin test (a rollback evaluates again; a build pulls the box) */
    CUDA_CHECK(gpu_wait_event(b->ev_mtk));
    if (box_fault_of(b, b->h_mtk_late) != 0)
        return -1;
    box_take(b, &b->h_mtk_late->box);
    return crs_virial(b, 1);
}

/* CRS_NHC_BEGIN / _END: MTK_BEGIN's chain half step (mtk_chain_kernel), the velocities
 * scaled by its factor from device memory. */
static int crs_chain(backend *b, const mtk_par *par, int end)
{
    mtk_mass ms;
    double *v2;
    memcpy(ms.m, b->mass, sizeof ms.m);
    ms.nt = b->ntypes > 1 ? b->ntypes : 1;
    if (kinetic_sums(b, 1, &v2) != 0)
        return -1;
    mtk_chain_kernel<<<1, 1, 0, b->st>>>(b->d_mtk, *par, ms, v2, end);
    TB_LAUNCH_CHECK("mtk_chain_kernel");
    mtk_scale_kernel<<<blocks(b), b->threads, 0, b->st>>>(b->d_vel, b->n, b->d_mtk);
    TB_LAUNCH_CHECK("mtk_scale_kernel");
    return 0;
}

static int crs(backend *b, int phase, const mtk_par *par)
{
    if (phase == CRS_KEEP)
        return crs_virial(b, 0);
    if (phase == CRS_EVAL)
        return crs_eval(b, par);
    if (phase == CRS_NHC_BEGIN || phase == CRS_NHC_END)
        return crs_chain(b, par, phase == CRS_NHC_END);
    if (phase == CRS_FORCES) { /* compute's evaluation without its wait (MTK_END's) */
        b->spec_step = 0;
        if (gpu_forces(b) != 0)
            return -1;
        GPU_SETTLE(b);
        return 0;
    }
    double *v2; /* CRS_BEGIN */
    count_waits(b);
    return kinetic_sums(b, 0, &v2) != 0 ||
                   gpu_crs_begin(b->d_mtk, par, b->mass, b->ntypes > 1 ? b->ntypes : 1, v2,
                                 b->st) != 0
               ? -1 : 0;
}

int gpu_mtk(backend *b, int phase, const mtk_par *par, mtk_state *st)
{
    GPU_SETTLE(b);
    CUDA_CHECK(cudaSetDevice(b->dev));
    if (!b->d_mtk) {
        CUDA_CHECK(cudaMalloc(&b->d_mtk, sizeof *b->d_mtk));
        CUDA_CHECK(cudaMallocHost(&b->h_mtk, sizeof *b->h_mtk));
    }
    if (phase == MTK_PULL)
        return pull(b, st);
    if (phase == MTK_PUSH)
        return push(b, par, st);
    if (phase == CRS_PUSH)
        return crs_push(b, par, st);
    if (read_late(b) != 0)
        return -1;
    if (phase >= CRS_BEGIN)
        return crs(b, phase, par);
    if (phase == MTK_MOVE)
        return move(b, par);
    mtk_mass ms;
    memcpy(ms.m, b->mass, sizeof ms.m);
    ms.nt = b->ntypes > 1 ? b->ntypes : 1;
    const int iso = par->coupling == CFG_COUPLE_ISO;
    double *v2;
    if (phase == MTK_BEGIN) { /* NHC(h) Omega(h) V(h) */
        count_waits(b);
        if (kinetic_sums(b, 1, &v2) != 0)
            return -1;
        mtk_chain_kernel<<<1, 1, 0, b->st>>>(b->d_mtk, *par, ms, v2, 0);
        TB_LAUNCH_CHECK("mtk_chain_kernel");
        mtk_scale_kernel<<<blocks(b), b->threads, 0, b->st>>>(b->d_vel, b->n, b->d_mtk);
        TB_LAUNCH_CHECK("mtk_scale_kernel");
        if (kinetic_sums(b, iso, &v2) != 0)
            return -1;
        mtk_omega_kernel<<<1, 1, 0, b->st>>>(b->d_mtk, *par, ms, v2, NULL, NULL, 1);
        TB_LAUNCH_CHECK("mtk_omega_kernel");
        mtk_vmap_kernel<<<blocks(b), b->threads, 0, b->st>>>(b->d_vel, b->n, b->d_mtk);
        TB_LAUNCH_CHECK("mtk_vmap_kernel");
        return b->box_dev ? 1 : pull(b, st);
    }
    /* MTK_END: F B(h) V(h) Omega(h) NHC(h) */
    b->spec_step = 0;
    if (gpu_forces(b) != 0)
        return -1;
    GPU_SETTLE(b); /* its skin test (a rollback evaluates again) before the kick reads the forces */
    if (!b->vir_valid)
        return tb_error(NULL, 0, "internal: MTK's evaluation did not sum the virial");
    if (gpu_kick(b, par->h) != 0)
        return -1;
    mtk_vmap_kernel<<<blocks(b), b->threads, 0, b->st>>>(b->d_vel, b->n, b->d_mtk);
    TB_LAUNCH_CHECK("mtk_vmap_kernel");
    if (kinetic_sums(b, iso, &v2) != 0)
        return -1;
    const int fixed = b->args.mode == ACC_FIXED;
    mtk_omega_kernel<<<1, 1, 0, b->st>>>(b->d_mtk, *par, ms, v2, fixed ? NULL : b->d_virial,
                                         fixed ? b->d_vfix : NULL, 0);
    TB_LAUNCH_CHECK("mtk_omega_kernel");
    mtk_chain_end_kernel<<<1, 1, 0, b->st>>>(b->d_mtk, *par);
    TB_LAUNCH_CHECK("mtk_chain_end_kernel");
    mtk_scale_kernel<<<blocks(b), b->threads, 0, b->st>>>(b->d_vel, b->n, b->d_mtk);
    TB_LAUNCH_CHECK("mtk_scale_kernel");
    if (b->box_dev) { /* the state, to be read late */
        CUDA_CHECK(cudaMemcpyAsync(b->h_mtk_late, b->d_mtk, sizeof *b->h_mtk_late,
                                   cudaMemcpyDeviceToHost, b->st));
        CUDA_CHECK(cudaEventRecord(b->ev_mtk, b->st));
        b->mtk_late = 1;
    }
    return 0;
}
