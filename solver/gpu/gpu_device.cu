/* gpu_device.cu — the GPU devices themselves: how many this process sees (and why none), the
 * memory in use, what the build's kernels were compiled for, and which device each MPI rank
 * takes (gpu_pick_device, called by gpu_backend.cu's create). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/check.h"
#include "solver/gpu/gpu.h"
#include "solver/gpu/gpu_internal.h"
#include "solver/gpu/gpu_backend_int.h"
#include "solver/par/mpi.h"

#ifndef TB_CUDA_ARCH_LIST
#define TB_CUDA_ARCH_LIST "?"
#endif


static const char *gpu_why = "";

int gpu_count(const char **why)
{
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e == cudaErrorInsufficientDriver) {
        gpu_why = "no NVIDIA driver, or one too old for this build's CUDA runtime";
        cudaGetLastError();
        n = 0;
    } else if (e != cudaSuccess) {
        gpu_why = cudaGetErrorString(e);
        cudaGetLastError(); /* clear it */
        n = 0;
    } else if (n == 0) {
        gpu_why = "no CUDA device found";
    }
    if (why)
        *why = gpu_why;
    return n;
}

double gpu_mem_used(void)
{
    size_t free_b = 0, total_b = 0;
    if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) {
        cudaGetLastError(); /* clear it */
        return 0.0;
    }
    return (double)(total_b - free_b);
}

const char *gpu_build_info(void)
{
    static char buf[128];
    snprintf(buf, sizeof buf, "CUDA %d.%d, kernels for sm_%s", CUDART_VERSION / 1000,
             (CUDART_VERSION % 1000) / 10, TB_CUDA_ARCH_LIST);
    return buf;
}

/* This rank's GPU: the node-local rank's device. More ranks on a node than GPUs is an error
 * unless TRIBODY_SHARE_GPUS=1 asks for sharing (device = local rank mod GPUs). */
int gpu_pick_device(int *dev)
{
    const int ngpu = gpu_count(NULL), local = tb_local_rank(), lsize = tb_local_size();
    const char *share = getenv("TRIBODY_SHARE_GPUS");
    *dev = 0;
    if (tb_nranks() == 1)
        return 0;
    if (ngpu == 0)
        return tb_error(NULL, 0, "%s: no usable GPU (%s); every rank of a GPU run needs one",
                        tb_rank_name(), gpu_why);
    if (lsize > ngpu && !(share && !strcmp(share, "1"))) {
        tb_error(NULL, 0, "%d ranks on this node but %d GPUs: launch at most %d ranks per node "
                          "(mpirun -np, --map-by ppr:%d:node), or set TRIBODY_SHARE_GPUS=1 to "
                          "share GPUs", lsize, ngpu, ngpu, ngpu);
        return TB_EXIT_USAGE;
    }
    *dev = local % ngpu;
    CUDA_CHECK(cudaSetDevice(*dev));
    return 0;
}

int gpu_use_rank_device(void)
{
    int dev;
    return gpu_pick_device(&dev);
}
