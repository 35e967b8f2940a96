/* gpu_atm_td.cu — the typed triplet kernels (several species: nu per triplet, gpu_atm.cuh) in
 * double arithmetic (precision double), for tile edges 8, 16, 32, with and without cutoff,
 * with and without the virial. A file of their own so that make compiles them beside the
 * one-species ones of gpu_atm_d.cu. */
#include "common/check.h"
#include "solver/gpu/gpu_atm.cuh"

int gpu_atm_launch_td(const gpu_args *a, const map3d_plan *p, int rho, int flags, cudaStream_t s)
{
    const int nt = GPU_ATM_NTYPES(flags);
    if (nt < 2 || nt > TB_TYPES_MAX)
        return tb_error(NULL, 0, "GPU triplet kernel: %d species (1 .. %d)", nt, TB_TYPES_MAX);
    TB_ATM_SWITCH(double, true, rho, flags, atm_launch_t, (a, p, s, nt))
}

int gpu_atm_occupancy_td(int rho, int flags)
{
    TB_ATM_SWITCH(double, true, rho, flags, atm_occupancy_t, (GPU_ATM_NTYPES(flags)))
}

int gpu_atm_setup_td(void)
{
    return atm_setup_all<double, true>();
}
