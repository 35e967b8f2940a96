/* gpu_atm_f.cu — the triplet kernels in float arithmetic (precision mixed and single),
 * for tile edges 8, 16, 32, with and without cutoff, with and without the virial. */
#include "common/check.h"
#include "solver/gpu/gpu_atm.cuh"

int gpu_atm_launch_f(const gpu_args *a, const map3d_plan *p, int rho, int flags, cudaStream_t s)
{
    TB_ATM_SWITCH(float, rho, flags, atm_launch_t, (a, p, s))
}

int gpu_atm_occupancy_f(int rho, int flags)
{
    TB_ATM_SWITCH(float, rho, flags, atm_occupancy_t, ())
}

int gpu_atm_setup_f(void)
{
    return atm_setup_all<float>();
}
