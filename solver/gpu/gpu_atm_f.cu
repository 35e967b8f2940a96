/* gpu_atm_f.cu — the triplet kernels in float arithmetic (precision mixed and single),
 * for tile edges 8, 16, 32, with and without cutoff, with and without the virial; one species
 * (several: the typed instances of gpu_atm_tf.cu). */
#include "common/check.h"
#include "solver/gpu/gpu_atm.cuh"

int gpu_atm_launch_f(const gpu_args *a, const map3d_plan *p, int rho, int flags, cudaStream_t s)
{
    if (GPU_ATM_NTYPES(flags) > 1)
        return gpu_atm_launch_tf(a, p, rho, flags, s);
    TB_ATM_SWITCH(float, false, rho, flags, atm_launch_t, (a, p, s, 1))
}

int gpu_atm_occupancy_f(int rho, int flags)
{
    if (GPU_ATM_NTYPES(flags) > 1)
        return gpu_atm_occupancy_tf(rho, flags);
    TB_ATM_SWITCH(float, false, rho, flags, atm_occupancy_t, (1))
}

int gpu_atm_setup_f(int typed)
{
    const int rc = atm_setup_all<float, false>();
    return typed ? (rc | gpu_atm_setup_tf()) : rc;
}
