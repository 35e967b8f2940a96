/* backend.c — choosing the backend named by solver.backend. */
#include "solver/backend.h"
#include "common/check.h"
#include "solver/gpu/gpu.h"
#include "solver/par/mpi.h"

int backend_select(const sim_config *c, const backend_ops **ops)
{
    const char *why = "";
    int ngpu = gpu_count(&why);
    if (tb_nranks() > 1) {
        /* the ranks must take the same backend: GPUs only when every rank has one */
        const long long none = tb_mpi_max_ll(ngpu == 0), some = tb_mpi_max_ll(ngpu > 0);
        if (none && some && c->solver.backend != CFG_BACKEND_CPU) {
            if (ngpu == 0)
                tb_error(c->path, 0, "solver.backend = \"%s\": %s has no usable GPU (%s) while "
                                     "other ranks have one; launch only where there are GPUs, or "
                                     "set solver.backend = \"cpu\"",
                         c->solver.backend == CFG_BACKEND_GPU ? "gpu" : "auto", tb_rank_name(),
                         why);
            return TB_EXIT_USAGE;
        }
    }
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
