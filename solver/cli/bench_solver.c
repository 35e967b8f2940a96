/* bench_solver.c — `tribody bench --kernel solver`: full force evaluations through the backend
 * per n, map, tile and precision, and under mpirun the time per rank and the parallel efficiency
 * (method: cmd_bench.c's opening comment, docs/performance.md). */
#include <errno.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "config/config.h"
#include "maps3d/map2d.h"
#include "maps3d/map3d.h"
#include "solver/backend.h"
#include "solver/cli/bench_liquid.h"
#include "solver/cli/bench_ranks.h"
#include "common/check.h"
#include "solver/cli/cli.h"
#include "solver/gpu/gpu.h"
#include "solver/gpu/gpu_bench.h"
#include "solver/io/init.h"
#include "solver/par/mpi.h"
#include "solver/state.h"
#include "solver/cli/bench_int.h"
#include "solver/cli/bench_species.h"

/* ---- the solver through the backend ---------------------------------------------------------- */

/* The initial state for c (cached per n: every map, tile and species count sees the same
 * particles), with c's species. */
static int ensure_state(bench_ctx *x, const sim_config *c)
{
    int rc;
    if (x->st_n != c->system.particles) {
        sim_state_free(&x->st);
        memset(&x->st, 0, sizeof x->st);
        x->st_n = 0;
        if ((rc = sim_init(&x->st, c)) != 0)
            return rc;
        x->st_n = c->system.particles;
    }
    bench_species_state(&x->st, c); /* the same positions for every K of --species */
    return 0;
}

/* Times one solver point into x->t[]: warm-up, then repeats. 0; BENCH_SKIPPED (*sec_warm
 * says why); TB_EXIT_USAGE when the backend refuses the configuration; -1. */
/* Under MPI: times x->o->repeat evaluations into t[] (the slowest rank's, between barriers);
 * rt (NULL: not wanted): this rank's timers over them, into x->rt and x->rt_wall. */
static int solver_point_ranks(bench_ctx *x, const sim_config *c, double *t, double *sec_warm,
                              int rt)
{
    backend *b = NULL;
    backend_info in;
    int rc = tb_mpi_agree(x->ops->create(&b, c, &x->st));
    double t0;
    x->rt_wall = 0.0;
    /* an MD step's evaluation, as on one rank (below): without the virial, which costs the
     * GPU kernel ~10 % (until 2026-11, ranks > 1 summed it on every evaluation: issue 25) */
    if (rc == 0)
        rc = x->ops->virial_next(b, 1L << 62);
    if (rc == 0) {
        tb_mpi_barrier();
        t0 = bench_now_s();
        rc = x->ops->compute(b);
        *sec_warm = tb_mpi_max_d(bench_now_s() - t0);
    }
    if (rc == 0 && rt)
        rc = x->ops->info(b, &in, BACKEND_TIMERS);
    for (int r = 0; rc == 0 && r < x->o->repeat; r++) {
        tb_mpi_barrier();
        t0 = bench_now_s();
        rc = x->ops->compute(b); /* ends synchronized (GPU: the stream, NCCL sums included) */
        x->rt_wall += bench_now_s() - t0;
        t[r] = tb_mpi_max_d(bench_now_s() - t0);
    }
    if (rc == 0 && rt && (rc = x->ops->info(b, &in, 0)) == 0)
        x->rt = in.times;
    if (b)
        x->ops->destroy(b);
    return rc;
}

int bench_solver_point(bench_ctx *x, const sim_config *c, double *sec_warm)
{
    backend *b = NULL;
    backend_info in;
    int rc = ensure_state(x, c);
    double t0;
    *sec_warm = 0.0;
    if (rc == 0 && tb_nranks() > 1) {
        double w1 = 0.0;
        rc = solver_point_ranks(x, c, x->t, sec_warm, 1);
        if (rc == 0 && bench_over_budget(x, *sec_warm, x->o->repeat))
            return BENCH_SKIPPED;
        if (rc == 0 && !x->o->no_solo) { /* the point on one rank alone, each on its device */
            tb_mpi_solo(1);
            rc = solver_point_ranks(x, c, x->t1, &w1, 0);
            tb_mpi_solo(0);
        }
        return rc;
    }
    if (rc == 0)
        rc = x->ops->create(&b, c, &x->st);
    if (rc == 0) /* the forces and energies of an MD step; the virial only on output steps */
        rc = x->ops->virial_next(b, 1L << 62);
    if (rc == 0) {
        t0 = bench_now_s();
        rc = x->ops->compute(b); /* warm-up: module load, first touch, clocks */
        *sec_warm = bench_now_s() - t0;
        if (rc == 0 && bench_over_budget(x, *sec_warm, x->o->repeat))
            rc = BENCH_SKIPPED;
    }
    x->rt_wall = 0.0;
    if (rc == 0)
        rc = x->ops->info(b, &in, BACKEND_TIMERS);
    for (int r = 0; rc == 0 && r < x->o->repeat; r++) {
        if (x->ops_gpu) {
            if (gpu_bench_timer_begin() != 0 || x->ops->compute(b) != 0 ||
                gpu_bench_timer_end(&x->t[r]) != 0)
                rc = -1;
        } else {
            t0 = bench_now_s();
            rc = x->ops->compute(b);
            x->t[r] = bench_now_s() - t0;
        }
        x->rt_wall += x->t[r];
    }
    if (rc == 0 && (rc = x->ops->info(b, &in, 0)) == 0)
        x->rt = in.times;
    if (b)
        x->ops->destroy(b);
    return rc;
}

void bench_solver_experiment(bench_ctx *x, const int *ns, int n_n, const int *tiles, int n_tile)
{
    const bench_opts *o = x->o;
    char b1[32];
    printf("\n== solver: one full force evaluation (ATM%s) on the %s backend; triplets/s = "
           "C(n,3)/t;\n   %%peak = triplets/s x %.0f flops / measured FMA peak (FP64 for "
           "double, else FP32)\n", x->base.potential.lj.enabled ? " + LJ" : "", x->ops->name,
           BENCH_FLOPS_PER_TRIPLET);
    printf("%7s %4s %-9s %-8s %11s %23s %8s %11s %6s %15s %7s\n", "n", "tile", "precision", "map",
           "median ms", "[min, max] ms", "I=bb/map", "triplets/s", "%peak", "blocks", "wasted");
    for (int in = 0; in < n_n; in++)
        for (int it = 0; it < n_tile; it++)
            for (int ip = 0; ip < o->n_prec; ip++) {
                double t_bb = 0.0;
                for (int im = -1; im < o->n_maps; im++) {
                    const map3d_type *t = bench_map3d_at(o, im);
                    const int n = ns[in], tile = tiles[it], prec = o->prec[ip];
                    const int nb = map3d_nb(n, tile), dbl = prec == CFG_PREC_DOUBLE;
                    const long long tet = map3d_tet(nb);
                    sim_config c = x->base;
                    char err[256], key[96], spread[64] = "", imp[16] = "-", pk[16] = "-";
                    map3d_plan plan;
                    map3d_opts mo = {0};
                    long long blocks, wasted;
                    double med, tmin, tmax, est, warm, peak;
                    int rc;
                    if (!t)
                        continue;
                    c.system.particles = n;
                    c.solver.tile = tile;
                    c.solver.precision = prec;
                    snprintf(c.solver.map, sizeof c.solver.map, "%s", t->name);
                    if (x->ops_gpu && t->persistent)
                        mo.persistent_blocks =
                            (int)gpu_bench_solver_persistent(tile, dbl, c.potential.atm.cutoff > 0);
                    if (map3d_plan_make(t, nb, &mo, &plan, err, sizeof err) != 0) {
                        printf("%7d %4d %-9s %-8s %11s  %s\n", n, tile, cfg_precision_name(prec),
                               t->name, "n/a", err);
                        continue;
                    }
                    blocks = map3d_plan_blocks(&plan);
                    wasted = bench_wasted3(t, &plan);
                    map3d_plan_free(&plan);
                    snprintf(key, sizeof key, "solver3d|%s|%d|%d", t->name, tile, prec);
                    est = bench_series_estimate(x, key, bench_c3(n), 0.0);
                    if (bench_over_budget(x, est, 1 + o->repeat)) {
                        printf("%7d %4d %-9s %-8s %11s %23s\n", n, tile, cfg_precision_name(prec),
                               t->name, "skipped", "(estimate > --budget)");
                        continue;
                    }
                    rc = bench_solver_point(x, &c, &warm);
                    if (rc == BENCH_SKIPPED) {
                        bench_series_record(x, key, bench_c3(n), warm);
                        snprintf(spread, sizeof spread, "(%.1f s/run > --budget)", warm);
                        printf("%7d %4d %-9s %-8s %11s %23s\n", n, tile, cfg_precision_name(prec),
                               t->name, "skipped", spread);
                        continue;
                    }
                    if (rc == TB_EXIT_USAGE) {
                        printf("%7d %4d %-9s %-8s %11s  %s\n", n, tile, cfg_precision_name(prec),
                               t->name, "n/a", "(refused: see the message above)");
                        continue;
                    }
                    if (rc != 0) {
                        x->failed++;
                        printf("%7d %4d %-9s %-8s %11s\n", n, tile, cfg_precision_name(prec),
                               t->name, "failed");
                        continue;
                    }
                    {
                        const double items = bench_c3(n);
                        bench_csv_runs(x, "solver3d", t->name, n, nb, tile, cfg_precision_name(prec), 0,
                                 x->t, items, "triplets/s", blocks, tet, x->ops_gpu ? "gpu" : "cpu");
                        med = bench_stats(x->t, o->repeat, &tmin, &tmax);
                        bench_series_record(x, key, items, med);
                        if (!strcmp(t->name, "bb"))
                            t_bb = med;
                        if (t_bb > 0)
                            snprintf(imp, sizeof imp, "%.3f", t_bb / med);
                        peak = dbl ? x->peak64 : x->peak32;
                        if (x->ops_gpu && peak > 0)
                            snprintf(pk, sizeof pk, "%.1f",
                                     100.0 * items / med * BENCH_FLOPS_PER_TRIPLET / peak);
                        snprintf(spread, sizeof spread, "[%.4g, %.4g]", 1e3 * tmin, 1e3 * tmax);
                        printf("%7d %4d %-9s %-8s %11.4g %23s %8s %11.4g %6s %15s %6.1f%%\n", n,
                               tile, cfg_precision_name(prec), t->name, 1e3 * med, spread, imp,
                               items / med, pk, bench_count_str(b1, sizeof b1, blocks),
                               100.0 * (double)wasted / (double)blocks);
                        if (tb_nranks() > 1 && o->no_solo) {
                            printf("%7s   %d ranks: %.4g ms per evaluation, %.4g triplets/s in "
                                   "total, %.4g per %s\n", "", tb_nranks(), 1e3 * med,
                                   items / med, items / med / tb_nranks(),
                                   x->ops_gpu ? "GPU" : "rank");
                        } else if (tb_nranks() > 1) {
                            const int P = tb_nranks();
                            double a1, b1x;
                            const double med1 = bench_stats(x->t1, o->repeat, &a1, &b1x);
                            printf("%7s   %d ranks: %.4g ms per evaluation, %.4g triplets/s in "
                                   "total, %.4g per %s; one rank %.4g ms: parallel efficiency "
                                   "%.1f%%\n", "", P, 1e3 * med, items / med, items / med / P,
                                   x->ops_gpu ? "GPU" : "rank", 1e3 * med1,
                                   100.0 * med1 / (P * med));
                            if (x->csv)
                                fprintf(x->csv, "# scaling,%s,%d,%d,%s,ranks=%d,t_ranks=%.9g,"
                                                "t_one=%.9g,efficiency=%.6g\n", t->name, n, tile,
                                        cfg_precision_name(prec), P, med, med1,
                                        med1 / (P * med));
                        }
                        snprintf(key, sizeof key, "solver3d,%s,%d,%d,%s", t->name, n, tile,
                                 cfg_precision_name(prec));
                        if (bench_rank_table(&x->rt, x->rt_wall, 0, "tiles", "triplets", items,
                                             x->csv, key) != 0)
                            x->failed++;
                        bench_add_row(x, "solver3d", t->name, n, nb, tile,
                                      cfg_precision_name(prec), 0, med, tmin, tmax, t_bb, items,
                                      "triplets/s", blocks, tet, x->ops_gpu ? "gpu" : "cpu");
                    }
                    fflush(stdout);
                }
            }
}

