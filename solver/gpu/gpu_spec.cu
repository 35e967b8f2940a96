/* gpu_spec.cu — the GPU backend's speculative skin test (issue 23; docs/gpu.md, "A step's
 * waits"): the neighbour lists' staleness read without the host waiting for it per step.
 *
 * An evaluation queues the lists' skin test with its flag copied into pinned memory
 * (gpu_nbr_test_start) and runs the forces on the lists as they are. The host reads the flag
 * when it queues the next operation (gpu_spec_settle, which every backend operation calls
 * first), by which time that evaluation's forces are queued behind the flag's copy, so the
 * read does not leave the GPU idle. When the lists were stale the evaluation is rolled back:
 * the velocities of before it (a step of advance: v_{s-1/2}, kept on the device) and the
 * virial countdown are restored, the lists are built at the same positions x_s, and the
 * evaluation (with the step's closing kick) is queued again: the same lists built at the same
 * positions as the waiting path, so the same bits and the same number of builds. The test's
 * early bit (a particle may cross within the next step, gpu_nbr_stale.cu) makes the next
 * evaluation wait for its own test as before, so rollbacks stay rare.
 *
 * TB_NBR_SPEC in the environment: 1 (default) speculate; 0 wait for the test at every
 * evaluation (the path before, kept for before/after measurements in one run); 2 speculate
 * and ignore the early bit, so every rebuild goes through a rollback (the tests' switch).
 * Under MPI every rank holds the same positions, velocities and forces, so all ranks read the
 * same flag and roll back together (the redone evaluation's all-reduce included). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/check.h"
#include "solver/gpu/gpu_backend_int.h"
#include "solver/gpu/gpu_nbr_int.h"

int gpu_spec_init(backend *b)
{
    const char *e = getenv("TB_NBR_SPEC");
    b->spec = 1;
    if (!e || !*e)
        return 0;
    if ((e[0] == '0' || e[0] == '1' || e[0] == '2') && !e[1]) {
        b->spec = e[0] - '0';
        return 0;
    }
    tb_error(NULL, 0, "TB_NBR_SPEC: 0 (wait for the skin test), 1 (speculate) or 2 (speculate, "
                      "every rebuild through a rollback) (got \"%s\")", e);
    return TB_EXIT_USAGE;
}

/* The test's early-bit margin and, in a step, the copy of v_{s-1/2} it keeps. */
static int spec_soon(backend *b, gpu_nbr_soon *s)
{
    memset(s, 0, sizeof *s);
    if (b->spec == 1) { /* the early bit's margin, 2 dt |v| + 2 dt^2 |F| / m */
        s->vel = b->d_vel;
        s->force = b->d_force;
        s->v2 = 2.0 * b->dt;
        s->f2 = gpu_over_mass(b, 2.0 * b->dt * b->dt);
        s->typed = b->ntypes > 1;
    }
    if (b->spec_step && b->spec && !b->spec_wait) { /* v_{s-1/2}: the step's kick comes after the forces; the test copies
                           it when it runs (gpu_nbr_test_start) */
        if (!b->d_vel_spec)
            CUDA_CHECK(cudaMalloc(&b->d_vel_spec, (size_t)b->n * sizeof(tb_double4)));
        s->vsrc = b->d_vel;
        s->vsave = b->d_vel_spec;
    }
    return 0;
}

int gpu_spec_fuse(backend *b, gpu_nbr_fuse *f)
{
    gpu_nbr_soon s;
    b->spec_fused = 0;
    if (!b->cull || !b->spec || b->spec_wait)
        return 0;
    b->spec_step = 1; /* the step's evaluation (gpu_advance sets it again) */
    if (spec_soon(b, &s) != 0)
        return -1;
    b->spec_fused = gpu_nbr_test_fusable(b->nb, &s, f);
    return b->spec_fused;
}

int gpu_spec_lists(backend *b)
{
    gpu_nbr_soon s;
    unsigned bits = 0;
    if (!b->cull)
        return 0;
    if (spec_soon(b, &s) != 0)
        return -1;
    if (b->spec && !b->spec_wait) {
        const int r = b->spec_fused ? gpu_nbr_test_fused(b->nb, b->st)
                                    : gpu_nbr_test_start(b->nb, b->d_pos, &s, b->st);
        b->spec_fused = 0;
        if (r < 0)
            return -1;
        if (r == 0) {
            b->spec_pending = b->spec_step ? 2 : 1;
            b->spec_evals++;
            return 0;
        }
    }
    b->spec_fused = 0;
    /* waiting: while the early bit stays set (and the lists were not just built), the next
     * evaluation waits too, up to the build */
    if (gpu_nbr_refresh(b->nb, b->d_pos, b->spec ? &s : NULL, &bits, b->st) != 0)
        return -1;
    b->spec_wait = (bits & (NBR_SOON | NBR_STALE)) == NBR_SOON;
    b->spec_waits += b->spec_wait;
    return 0;
}

int gpu_spec_settle(backend *b)
{
    const int kind = b->spec_pending;
    unsigned f = 0;
    if (!kind)
        return 0;
    b->spec_pending = 0;
    if (gpu_nbr_test_read(b->nb, &f) != 0)
        return -1;
    b->fin_flag |= (f & NBR_BAD) != 0; /* the kick-drift's finiteness check (gpu_fin_check) */
    if (!(f & NBR_STALE)) {
        b->spec_wait = (f & NBR_SOON) != 0;
        b->spec_waits += b->spec_wait;
        return 0;
    }
    b->spec_rollbacks++;
    if (kind == 2)
        CUDA_CHECK(cudaMemcpyAsync(b->d_vel, b->d_vel_spec, (size_t)b->n * sizeof(tb_double4),
                                   cudaMemcpyDeviceToDevice, b->st));
    b->vir_countdown = b->spec_countdown;
    if (gpu_nbr_rebuild(b->nb, b->d_pos, b->st) != 0)
        return -1;
    b->spec_wait = 1; /* the evaluation again, on the fresh lists (no test of its own) */
    b->spec_step = 0;
    b->acc_clean = 0; /* the first evaluation added into them */
    if (kind == 2 && gpu_step_fuse() >= 2) { /* the closing kick in the forces' last kernel */
        b->fuse_kick = 1;
        b->kick_h = gpu_over_mass(b, 0.5 * b->dt);
        return gpu_forces(b);
    }
    b->fuse_kick = 0;
    if (gpu_forces(b) != 0)
        return -1;
    if (kind == 2) {
        const gpu_per_type h = gpu_over_mass(b, 0.5 * b->dt);
        return gpu_motion_kick(b->d_vel, b->d_force, b->d_pos, b->n, b->ntypes > 1, &h,
                               b->threads, b->st);
    }
    return 0;
}

void gpu_spec_report(const backend *b)
{
    if (!b->cull || !b->nb || !getenv("TB_NBR_SPEC"))
        return;
    fprintf(stderr, "skin test (TB_NBR_SPEC=%d): %lld evaluations speculated, %lld rollbacks, "
                    "%lld waits asked by the early bit, %lld list builds\n",
            b->spec, b->spec_evals, b->spec_rollbacks, b->spec_waits, b->nb->builds);
}
