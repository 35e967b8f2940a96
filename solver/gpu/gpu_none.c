/* gpu_none.c — the GPU side of a build made without nvcc: no device is ever usable, and
 * asking for the GPU backend explains why. */
#include <stddef.h>

#include "solver/backend.h"
#include "common/check.h"
#include "solver/gpu/gpu.h"

int gpu_count(const char **why)
{
    if (why)
        *why = "this tribody was built without CUDA (nvcc was not found at build time)";
    return 0;
}

double gpu_mem_used(void)
{
    return 0.0;
}

const char *gpu_build_info(void)
{
    return "CPU-only build, no CUDA";
}

static int none_create(backend **out, const sim_config *c, const sim_state *s)
{
    (void)c;
    (void)s;
    *out = NULL;
    tb_error(NULL, 0, "solver.backend = \"gpu\": this tribody was built without CUDA; "
                      "rebuild with nvcc on the PATH, or set solver.backend = \"cpu\"");
    return TB_EXIT_USAGE;
}

const backend_ops gpu_backend_ops = {"gpu", none_create, NULL, NULL, NULL, NULL, NULL,
                                     NULL,  NULL,        NULL, NULL, NULL, NULL, NULL, NULL};
int gpu_use_rank_device(void)
{
    return 0;
}
