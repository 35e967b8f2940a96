/* gpu_nbr_test.cuh — the skin test's per-particle bits and its flag's reduction (device code,
 * CUDA C++ only), shared by the test's own kernels (gpu_nbr_stale.cu) and the step's kick-drift
 * that tests as it moves (gpu_motion.cu's kick_drift_test_kernel, TB_STEP_FUSE=3: one kernel
 * fewer per step; docs/gpu.md, "The cost per atom at 10^5"). Also the programmatic dependent
 * launch's two instructions (sm_90; no-ops before, and in a kernel launched without it). */
#ifndef TB_GPU_NBR_TEST_CUH
#define TB_GPU_NBR_TEST_CUH

#include "solver/gpu/gpu_nbr_int.h"

/* Wait for the kernel before in the stream (its writes visible): before any memory access of a
 * kernel that gpu_launch may start early (gpu_internal.h). */
__device__ __forceinline__ void gpu_pdl_wait(void)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

/* Let the kernel after this one (launched with gpu_launch's attribute) start its blocks once
 * every block of this one has reached here; it still waits in gpu_pdl_wait for this one's end. */
__device__ __forceinline__ void gpu_pdl_trigger(void)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;" :::);
#endif
}

/* The test's bits for a particle of displacement squared moved2 (in the measure of lim2):
 * NBR_STALE; NBR_SOON from the margin of the next step (soon: v2 |v| + dm |F|, dm of its
 * species). */
__device__ __forceinline__ unsigned nbr_bits_vf(double moved2, double lim2, bool soon,
                                                const tb_double4 &v, const tb_double4 &F,
                                                double v2, double dm)
{
    unsigned f = moved2 > lim2 ? NBR_STALE : 0u;
    if (soon) {
        const double r = sqrt(moved2) + v2 * sqrt(v.x * v.x + v.y * v.y + v.z * v.z) +
                         dm * sqrt(F.x * F.x + F.y * F.y + F.z * F.z);
        f |= r * r > lim2 ? NBR_SOON : 0u;
    }
    return f;
}

/* One atomic per warp (every lane reaches the reduction: no early return). PUB (the
 * speculative test): flag is d_pub, zero before the test; the last block to end moves the
 * flag into the host's pinned word (hflag, mapped) and zeroes d_pub for the next test, so the
 * test is one kernel, without a memset before it or a copy after it (2 of a step's ~12 stream
 * operations at 10^5 atoms, docs/gpu.md). Every thread reaches it (no early return). */
template <bool PUB>
__device__ __forceinline__ void nbr_flag_or(unsigned f, unsigned *flag, unsigned *hflag)
{
    f = __reduce_or_sync(0xffffffffu, f);
    if ((threadIdx.x & 31) == 0 && f)
        atomicOr(flag, f);
    if (!PUB)
        return;
    __syncthreads(); /* the block's atomics issued */
    if (threadIdx.x == 0) {
        __threadfence();
        if (atomicAdd(flag + 1, 1u) == gridDim.x - 1) { /* every block's atomics done */
            *(volatile unsigned *)hflag = atomicExch(flag, 0u);
            flag[1] = 0u;
            __threadfence_system();
        }
    }
}

#endif
