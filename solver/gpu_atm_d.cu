/* gpu_atm_d.cu — the triplet kernels in double arithmetic (precision double),
 * for tile edges 8, 16, 32, with and without cutoff. */
#include "check.h"
#include "gpu_atm.cuh"

int gpu_atm_launch_d(const gpu_args *a, const map3d_plan *p, int rho, int cut, cudaStream_t s)
{
    TB_ATM_SWITCH(double, rho, cut, atm_launch_t, (a, p, s))
}

int gpu_atm_occupancy_d(int rho, int cut)
{
    TB_ATM_SWITCH(double, rho, cut, atm_occupancy_t, ())
}

int gpu_atm_setup_d(void)
{
    int rc = 0;
    for (int rho = 8; rho <= 32; rho *= 2)
        for (int cut = 0; cut < 2; cut++) {
            int r;
            switch (rho * 2 + cut) {
            case 16: r = atm_setup_t<double, 8, false>(); break;
            case 17: r = atm_setup_t<double, 8, true>(); break;
            case 32: r = atm_setup_t<double, 16, false>(); break;
            case 33: r = atm_setup_t<double, 16, true>(); break;
            case 64: r = atm_setup_t<double, 32, false>(); break;
            default: r = atm_setup_t<double, 32, true>(); break;
            }
            rc |= r;
        }
    return rc;
}
