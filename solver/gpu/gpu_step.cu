/* gpu_step.cu — the end of a force evaluation on the GPU: the forces from the accumulators of
 * the mode (finalize_kernel), or, in a step of advance() (gpu_step_fuse() >= 2, the default),
 * the forces and the step's closing kick in one kernel (finalize_kick_kernel: the same
 * arithmetic as finalize_kernel then gpu_motion.cu's kick_kernel, so the same bits, one kernel
 * fewer per step); and what a step's kick-drift zeroes of the next evaluation's accumulators
 * (gpu_acc_clear_of: one more kernel fewer, gpu_acc_zero then skips its own). The step's
 * fixed costs at 1e5 atoms: docs/gpu.md, "Stillinger-Weber", and gpu-measured.md. */
#include <stdlib.h>
#include <string.h>

#include "common/check.h"
#include "solver/gpu/gpu_backend_int.h"
#include "solver/gpu/gpu_nbr_test.cuh"

int gpu_pdl(void)
{
    static int on = -1;
    if (on < 0) {
        const char *e = getenv("TB_STEP_PDL");
        int dev = 0, major = 0;
        on = e && *e ? atoi(e) != 0 : 0; /* measured no faster (gpu-measured.md): off */
        if (on && (cudaGetDevice(&dev) != cudaSuccess ||
                   cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) !=
                       cudaSuccess || major < 9)) {
            (void)cudaGetLastError();
            on = 0;
        }
    }
    return on;
}

__device__ __forceinline__ double fix_value(const unsigned long long *hl)
{
    return (double)(long long)hl[0] / TB_FIX_HI + (double)(long long)hl[1] / (TB_FIX_HI * TB_FIX_LO);
}

/* Particle i's force from the accumulators of the mode. */
__device__ __forceinline__ tb_double4 finalize_at(const gpu_args &a, int i)
{
    tb_double4 f;
    f.w = 0.0;
    if (a.mode == ACC_DOUBLE) {
        f.x = a.acc[4 * i];
        f.y = a.acc[4 * i + 1];
        f.z = a.acc[4 * i + 2];
    } else if (a.mode == ACC_FLOAT) {
        f.x = (double)a.acc_f[4 * i];
        f.y = (double)a.acc_f[4 * i + 1];
        f.z = (double)a.acc_f[4 * i + 2];
    } else {
        f.x = fix_value(a.fix + 8 * i);
        f.y = fix_value(a.fix + 8 * i + 2);
        f.z = fix_value(a.fix + 8 * i + 4);
        if (a.fix[8 * i + 6]) /* non-finite values added (add_force): the words are garbage */
            f.x = f.y = f.z = __longlong_as_double(0x7ff8000000000000ULL);
    }
    return f;
}

/* Forces from the accumulators of the mode. */
__global__ void finalize_kernel(gpu_args a, tb_double4 *force)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= a.n)
        return;
    force[i] = finalize_at(a, i);
}

/* The same, then v += h F (kick_kernel's expressions, h = dt / 2m of the particle's species). */
template <bool TYP>
__global__ void finalize_kick_kernel(gpu_args a, tb_double4 *force, tb_double4 *vel,
                                     const tb_double4 *pos, gpu_per_type hm)
{
    gpu_pdl_wait(); /* the forces' kernel ended (launched early under TB_STEP_PDL) */
    gpu_pdl_trigger();
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= a.n)
        return;
    const tb_double4 f = finalize_at(a, i);
    force[i] = f;
    tb_double4 v = vel[i];
    const double h = gpu_per_type_at<TYP>(hm, TYP ? pos[i].w : 0.0);
    v.x += h * f.x;
    v.y += h * f.y;
    v.z += h * f.z;
    vel[i] = v;
}

int gpu_finalize(backend *b)
{
    const int T = b->threads, blocks = (b->n + T - 1) / T;
    const int kick = b->fuse_kick;
    b->fuse_kick = 0;
    if (!kick) {
        finalize_kernel<<<blocks, T, 0, b->st>>>(b->args, b->d_force);
        TB_LAUNCH_CHECK("finalize_kernel");
        return 0;
    }
    CUDA_CHECK(gpu_launch(b->ntypes > 1 ? finalize_kick_kernel<true> : finalize_kick_kernel<false>,
                          blocks, T, 0, b->st, gpu_pdl(), b->args, b->d_force, b->d_vel,
                          b->d_pos, b->kick_h));
    TB_LAUNCH_CHECK("finalize_kick_kernel");
    return 0;
}

void gpu_acc_clear_of(const backend *b, gpu_acc_clear *z)
{
    memset(z, 0, sizeof *z); /* the words gpu_acc_zero zeroes, the same in every mode */
    z->small[0] = (unsigned long long *)b->d_energy;
    z->nsmall[0] = 2;
    z->small[1] = (unsigned long long *)b->d_virial;
    z->nsmall[1] = 6;
    switch (b->args.mode) {
    case ACC_DOUBLE:
        z->per = (unsigned long long *)b->d_acc;
        z->words = 4;
        break;
    case ACC_FLOAT:
        z->per = (unsigned long long *)b->d_acc_f; /* 4 floats: 2 words */
        z->words = 2;
        break;
    default:
        z->per = b->d_fix;
        z->words = 8;
        z->small[2] = b->d_efix;
        z->nsmall[2] = 4;
        z->small[3] = b->d_vfix;
        z->nsmall[3] = 12;
    }
}
