/* backend.c — choosing the backend named by solver.backend. */
#include "backend.h"
#include "check.h"
#include "gpu.h"

int backend_select(const sim_config *c, const backend_ops **ops)
{
    const char *why = "";
    const int ngpu = gpu_count(&why);
    switch (c->solver.backend) {
    case CFG_BACKEND_CPU:
        *ops = &cpu_backend_ops;
        return 0;
    case CFG_BACKEND_GPU:
        if (ngpu == 0) {
            tb_error(c->path, 0, "solver.backend = \"gpu\": no usable GPU (%s); "
                                 "set solver.backend = \"cpu\" or \"auto\"", why);
            return TB_EXIT_USAGE;
        }
        *ops = &gpu_backend_ops;
        return 0;
    default:
        if (ngpu > 0) {
            *ops = &gpu_backend_ops;
        } else {
            tb_notice("no usable GPU (%s): running on the CPU backend", why);
            *ops = &cpu_backend_ops;
        }
        return 0;
    }
}
