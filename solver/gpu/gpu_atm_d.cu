/* gpu_atm_d.cu — the triplet kernels in double arithmetic (precision double),
 * for tile edges 8, 16, 32, with and without cutoff, with and without the virial. */
#include "common/check.h"
#include "solver/gpu/gpu_atm.cuh"

int gpu_atm_launch_d(const gpu_args *a, const map3d_plan *p, int rho, int flags, cudaStream_t s)
{
    TB_ATM_SWITCH(double, rho, flags, atm_launch_t, (a, p, s))
}

int gpu_atm_occupancy_d(int rho, int flags)
{
    TB_ATM_SWITCH(double, rho, flags, atm_occupancy_t, ())
}

int gpu_atm_setup_d(void)
{
    return atm_setup_all<double>();
}
