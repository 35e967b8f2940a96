/* bench_ranks.c — the per-rank timers of `tribody bench` (the solver experiment and --liquid):
 * every rank's force, sum, integration and list-build times (backend_times: CUDA events on the
 * GPU, the wall clock on the CPU) and its work share, gathered to rank 0 and printed as a small
 * table under the point's row, so that a loss of parallel efficiency shows where it is
 * (unequal shares, a slower phase on one rank, or time outside the timed phases). */
#include "solver/cli/bench_ranks.h"

#include <stdlib.h>

#include "common/check.h"
#include "solver/par/mpi.h"

enum { F_WALL, F_FORCE, F_SUM, F_INT, F_LISTS, F_EVALS, F_STEPS, F_UNITS, F_WORK, F_VIR, F_HELD, F_N };

int bench_rank_table(const backend_times *t, double wall, int per_step, const char *units_name,
                     const char *work_name, double total_work, FILE *csv, const char *key)
{
    const int P = tb_nranks();
    const double mine[F_N] = {wall, t->force, t->sum, t->integrate, t->lists, (double)t->evals,
                              (double)t->steps, (double)t->units, t->work, (double)t->virials, t->held};
    double *all = malloc((size_t)P * F_N * sizeof *all), sum_work = 0.0;
    if (!all)
        return tb_error(NULL, 0, "bench: out of host memory for the per-rank table");
    if (tb_mpi_gather_d(mine, F_N, all) != 0) {
        free(all);
        return -1;
    }
    if (tb_rank() != 0) {
        free(all);
        return 0;
    }
    printf("%9s per rank, ms per %s: %4s %10s %10s %9s %9s %9s %9s %12s %14s %7s %6s\n", "",
           per_step ? "step" : "eval", "rank", "wall", "force", "sum", "integr", "lists",
           "other", units_name, work_name, "share", "virial");
    for (int r = 0; r < P; r++)
        sum_work += all[r * F_N + F_WORK];
    for (int r = 0; r < P; r++) {
        const double *v = all + r * F_N;
        const double per = per_step ? v[F_STEPS] : v[F_EVALS], d = per > 0 ? 1e3 / per : 0.0;
        const double other = v[F_WALL] - v[F_FORCE] - v[F_SUM] - v[F_INT] - v[F_LISTS];
        printf("%9s %22s %4d %10.4g %10.4g %9.4g %9.4g %9.4g %9.3g %12.0f %14.0f %6.2f%% %6.0f\n",
               "", "", r, v[F_WALL] * d, v[F_FORCE] * d, v[F_SUM] * d, v[F_INT] * d,
               v[F_LISTS] * d, other * d, v[F_UNITS], v[F_WORK],
               sum_work > 0 ? 100.0 * v[F_WORK] / sum_work : 0.0, v[F_VIR]);
        if (csv)
            fprintf(csv, "# rank,%s,rank=%d,per=%s,count=%.0f,wall_s=%.9g,force_s=%.9g,sum_s=%.9g,"
                         "integrate_s=%.9g,lists_s=%.9g,units=%.0f,work=%.0f,virials=%.0f,held=%.0f\n", key, r,
                    per_step ? "step" : "eval", per, v[F_WALL], v[F_FORCE], v[F_SUM], v[F_INT],
                    v[F_LISTS], v[F_UNITS], v[F_WORK], v[F_VIR], v[F_HELD]);
    }
    if (total_work > 0)
        printf("%9s %22s work shares sum to %.0f %s of %.0f\n", "", "", sum_work, work_name,
               total_work);
    free(all);
    return 0;
}
