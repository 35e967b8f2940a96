/* gpu_atm_d.cu — the triplet kernels in double arithmetic (precision double),
 * for tile edges 8, 16, 32, with and without cutoff, with and without the virial; one species
 * (several: the typed instances of gpu_atm_td.cu). */
#include "common/check.h"
#include "solver/gpu/gpu_atm.cuh"

int gpu_atm_launch_d(const gpu_args *a, const map3d_plan *p, int rho, int flags, cudaStream_t s)
{
    if (GPU_ATM_NTYPES(flags) > 1)
        return gpu_atm_launch_td(a, p, rho, flags, s);
    TB_ATM_SWITCH(double, false, rho, flags, atm_launch_t, (a, p, s, 1))
}

int gpu_atm_occupancy_d(int rho, int flags)
{
    if (GPU_ATM_NTYPES(flags) > 1)
        return gpu_atm_occupancy_td(rho, flags);
    TB_ATM_SWITCH(double, false, rho, flags, atm_occupancy_t, (1))
}

int gpu_atm_setup_d(int typed)
{
    const int rc = atm_setup_all<double, false>();
    return typed ? (rc | gpu_atm_setup_td()) : rc;
}
