/* gpu_bench_none.c — the GPU side of `tribody bench` in a build made without nvcc: there is
 * no device, so cmd_bench.c never calls these (gpu_count() is 0); each says why and fails. */
#include <string.h>

#include "common/check.h"
#include "solver/gpu/gpu_bench.h"

static int no_cuda(void)
{
    return tb_error(NULL, 0, "bench: this tribody was built without CUDA (nvcc was not found at "
                             "build time)");
}

int gpu_bench_device_info(gpu_bench_device *d)
{
    memset(d, 0, sizeof *d);
    return no_cuda();
}

int gpu_bench_fma_peak(double *fp32, double *fp64)
{
    *fp32 = *fp64 = 0.0;
    return no_cuda();
}

int gpu_bench_map3d_blocks_per_sm(int id, int rho)
{
    (void)id;
    (void)rho;
    return no_cuda();
}

int gpu_bench_map3d_run(const map3d_plan *p, int id, int rho, int once, bench_sig *sig,
                        double *sec)
{
    (void)p;
    (void)id;
    (void)rho;
    (void)once;
    (void)sig;
    *sec = 0.0;
    return no_cuda();
}

int gpu_bench_edm_prepare(int n)
{
    (void)n;
    return no_cuda();
}

int gpu_bench_map2d_run(const map2d_plan *p, int id, int root, int rho, int n, int kernel,
                        bench_sig *sig, long long *bad, double *sec)
{
    (void)p;
    (void)id;
    (void)root;
    (void)rho;
    (void)n;
    (void)kernel;
    (void)sig;
    (void)bad;
    *sec = 0.0;
    return no_cuda();
}

long long gpu_bench_solver_persistent(int rho, int dbl, int cut)
{
    (void)rho;
    (void)dbl;
    (void)cut;
    return 0;
}

int gpu_bench_timer_begin(void)
{
    return no_cuda();
}

int gpu_bench_timer_end(double *sec)
{
    *sec = 0.0;
    return no_cuda();
}

void gpu_bench_release(void)
{
}
