/* tb_run.h — a run of the integrator on the CPU backend for the integrator tests (test_integrate.c,
 * test_mtk_dev.c): the state from the config (sim_init), the backend, the integrator and the
 * first evaluation; closed in reverse. */
#ifndef TB_TESTS_RUN_H
#define TB_TESTS_RUN_H

#include <string.h>

#include "config/config.h"
#include "solver/backend.h"
#include "solver/io/init.h"
#include "solver/physics/integrate.h"

typedef struct run {
    sim_state s;
    backend *b;
    integ *g;
} run;

/* 0, or -1 (what was made is freed by run_close). */
static inline int run_open(run *r, const sim_config *c)
{
    memset(r, 0, sizeof *r);
    if (sim_init(&r->s, c) != 0 || cpu_backend_ops.create(&r->b, c, &r->s) != 0 ||
        integ_create(&r->g, c, &r->s) != 0 || cpu_backend_ops.compute(r->b) != 0)
        return -1;
    return 0;
}

static inline void run_close(run *r)
{
    cpu_backend_ops.destroy(r->b);
    integ_destroy(r->g);
    sim_state_free(&r->s);
}

#endif
