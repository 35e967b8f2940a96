/* gpu_mtk.cu — MTK with its Nose-Hoover chain held on the device during a run (backend.h's
 * `mtk`, integrate.c's mtk_step_dev): the state (solver/mtk_state.h) lives in device memory,
 * the kinetic energy and tensor are reduced where the velocities are (gpu_motion.cu's fixed-order
 * kernels) and consumed there by one-thread kernels that run physics/mtk_body.h, the same
 * functions the host path runs; the velocities' factors and maps are read by the scaling
 * kernels from device memory. Per step one wait: MTK_BEGIN brings the state back, for the box
 * map that the host applies to the box (the kernels take the box as their argument). */
#include <string.h>

#include "common/check.h"
#include "solver/gpu/gpu_backend_int.h"
#include "solver/par/fixed.h"
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
        CUDA_CHECK(cudaMalloc(&b->d_ke, TB_TYPES_MAX * sizeof(double)));
    if (!b->d_ke3)
        CUDA_CHECK(cudaMalloc(&b->d_ke3, 6 * TB_TYPES_MAX * sizeof(double)));
    *out = iso ? b->d_ke : b->d_ke3;
    return iso ? gpu_motion_kinetic(b->d_vel, b->d_pos, b->n, nt, b->d_ke, b->st)
               : gpu_motion_kinetic_axes(b->d_vel, b->d_pos, b->n, nt, b->d_ke3, b->st);
}

static int pull(backend *b, mtk_state *st)
{
    CUDA_CHECK(cudaMemcpyAsync(b->h_mtk, b->d_mtk, sizeof *st, cudaMemcpyDeviceToHost, b->st));
    CUDA_CHECK(cudaStreamSynchronize(b->st));
    memcpy(st, b->h_mtk, sizeof *st);
    return 0;
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
    if (phase == MTK_PUSH) {
        memcpy(b->h_mtk, st, sizeof *st);
        CUDA_CHECK(cudaMemcpyAsync(b->d_mtk, b->h_mtk, sizeof *st, cudaMemcpyHostToDevice, b->st));
        CUDA_CHECK(cudaStreamSynchronize(b->st));
        return 0;
    }
    mtk_mass ms;
    memcpy(ms.m, b->mass, sizeof ms.m);
    ms.nt = b->ntypes > 1 ? b->ntypes : 1;
    const int iso = par->coupling == CFG_COUPLE_ISO;
    double *v2;
    if (phase == MTK_BEGIN) { /* NHC(h) Omega(h) V(h) */
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
        return pull(b, st);
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
    return 0;
}
