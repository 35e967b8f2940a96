/* bench_maps.c — `tribody bench --kernel map` (with --2d too): the papers' map-only dummy
 * kernels over the tetrahedron and the triangle, the EDM and the pair term through each 2D map
 * (method: cmd_bench.c's opening comment, docs/performance.md); and the host walks of a plan
 * (the kernel-less check of the tiles, the discarded blocks) that the solver bench uses too. */
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
#include "common/check.h"
#include "solver/cli/cli.h"
#include "solver/gpu/gpu.h"
#include "solver/gpu/gpu_bench.h"
#include "solver/io/init.h"
#include "solver/par/mpi.h"
#include "solver/state.h"
#include "solver/cli/bench_int.h"

/* ---- 3D map-only dummy kernel ------------------------------------------------------------------- */

void bench_map3d_experiment(bench_ctx *x, const int *ns, int n_n, const int *tiles, int n_tile)
{
    const bench_opts *o = x->o;
    char b1[32], b2[32];
    printf("\n== map-only dummy kernel (3D): a block per tile visit, e^3 threads (e = min(tile, 8)),"
           "\n   each decodes the map and forms i+j+k of its particles (lambda-once: thread 0 decodes"
           "\n   and the block reads the tile from shared memory); triplets/s = C(n,3)/t\n");
    if (!x->gpu)
        printf("   needs a GPU: skipped (%s); blocks from the plans, tiles checked on the host\n",
               x->why);
    printf("%7s %6s %4s %-11s %11s %23s %8s %11s %15s %7s  %s\n", "n", "nb", "tile", "map",
           "median ms", "[min, max] ms", "I=bb/map", "triplets/s", "blocks", "wasted", "check");
    for (int it = 0; it < n_tile; it++)
        for (int in = 0; in < n_n; in++) {
            const int n = ns[in], tile = tiles[it], nb = map3d_nb(n, tile);
            const long long tet = map3d_tet(nb);
            const int side = bench_block_side3(tile);
            const double per = pow(ceil((double)tile / side), 3.0); /* positions per thread */
            double t_bb = 0.0;
            for (int step = 0; step < 2 * (o->n_maps + 1); step++) {
                /* bb first (im = -1), so that every row has its I; after lambda (once = 0)
                 * its decode-once row `lambda-once` (once = 1: same plan, one decode per
                 * block handed over in shared memory; gpu_bench.h) */
                const int im = step / 2 - 1, once = step % 2;
                const map3d_type *t = bench_map3d_at(o, im);
                char err[256], key[96], check[96] = "-", spread[64] = "", imp[16] = "-", name[24];
                map3d_plan plan;
                map3d_opts mo = {0};
                long long blocks, wasted;
                double med = 0, tmin = 0, tmax = 0, sec = 0, est, work;
                int id = bench_map3d_id(t), status = 0;
                if (!t || (once && strcmp(t->name, "lambda") != 0))
                    continue;
                snprintf(name, sizeof name, "%s%s", t->name, once ? "-once" : "");
                if (x->gpu && t->persistent) {
                    const int per_sm = gpu_bench_map3d_blocks_per_sm(id, tile);
                    if (per_sm < 0) {
                        x->failed++;
                        continue;
                    }
                    mo.persistent_blocks = x->dev.sms * per_sm;
                }
                if (map3d_plan_make(t, nb, &mo, &plan, err, sizeof err) != 0) {
                    printf("%7d %6d %4d %-11s %11s  %s\n", n, nb, tile, name, "n/a", err);
                    continue;
                }
                blocks = map3d_plan_blocks(&plan);
                wasted = bench_wasted3(t, &plan);
                work = (double)blocks + (double)tet * per;
                snprintf(key, sizeof key, "dummy3d|%s|%d", name, tile);
                if (!x->gpu) {
                    if (blocks + tet <= BENCH_HOST_WALK) {
                        bench_sig got, want;
                        long long disc;
                        bench_host_sig3(t, &plan, &got, &disc);
                        bench_sig_expect(&want, (unsigned long long)tet);
                        if (bench_sig_equal(&got, &want) && disc == wasted) {
                            snprintf(check, sizeof check, "host ok");
                        } else {
                            bench_sig_describe(check, sizeof check, &got, &want);
                            printf("FAIL: %s nb = %d: host walk: %s, %lld blocks exit\n", name,
                                   nb, check, disc);
                            snprintf(check, sizeof check, "host FAIL");
                            x->failed++;
                        }
                    }
                    printf("%7d %6d %4d %-11s %11s %23s %8s %11s %15s %6.1f%%  %s\n", n, nb, tile,
                           name, "-", "-", "-", "-", bench_count_str(b1, sizeof b1, blocks),
                           100.0 * (double)wasted / (double)blocks, check);
                    map3d_plan_free(&plan);
                    continue;
                }
                /* a priori: ~1 ns per launched block, 0.3 ns per position per thread-block */
                est = bench_series_estimate(x, key, work, 1e-9 * (double)blocks + 3e-10 * (double)tet * per);
                if (bench_over_budget(x, est, 1 + o->repeat + o->verify)) {
                    snprintf(spread, sizeof spread, "(est. %.0f s > --budget)",
                             est * (1 + o->repeat + o->verify));
                    status = BENCH_SKIPPED;
                }
                if (!status && o->verify) {
                    bench_sig got, want;
                    bench_sig_expect(&want, (unsigned long long)tet);
                    if (gpu_bench_map3d_run(&plan, id, tile, once, &got, &sec) != 0) {
                        status = -1;
                    } else if (!bench_sig_equal(&got, &want)) {
                        bench_sig_describe(check, sizeof check, &got, &want);
                        printf("FAIL: %s nb = %d tile %d: GPU verification: %s\n", name, nb,
                               tile, check);
                        snprintf(check, sizeof check, "FAIL");
                        status = -1;
                    } else {
                        snprintf(check, sizeof check, "ok");
                    }
                }
                if (!status) { /* warm-up; its time decides whether the repeats fit the budget */
                    if (gpu_bench_map3d_run(&plan, id, tile, once, NULL, &sec) != 0)
                        status = -1;
                    else if (bench_over_budget(x, sec, o->repeat)) {
                        snprintf(spread, sizeof spread, "(%.1f s/run > --budget)", sec);
                        bench_series_record(x, key, work, sec); /* larger n: skipped from the estimate */
                        status = BENCH_SKIPPED;
                    }
                }
                for (int r = 0; !status && r < o->repeat; r++)
                    if (gpu_bench_map3d_run(&plan, id, tile, once, NULL, &x->t[r]) != 0)
                        status = -1;
                if (status == -1) {
                    x->failed++;
                    printf("%7d %6d %4d %-11s %11s %23s %8s %11s %15s %7s  %s\n", n, nb, tile,
                           name, "failed", "", "", "", bench_count_str(b1, sizeof b1, blocks), "",
                           check);
                } else if (status == BENCH_SKIPPED) {
                    printf("%7d %6d %4d %-11s %11s %23s %8s %11s %15s %7s  %s\n", n, nb, tile,
                           name, "skipped", spread, "", "", bench_count_str(b1, sizeof b1, blocks), "",
                           check);
                } else {
                    const double items = bench_c3(n);
                    bench_csv_runs(x, "dummy3d", name, n, nb, tile, "-", 0, x->t, items, "triplets/s",
                             blocks, tet, "gpu");
                    med = bench_stats(x->t, o->repeat, &tmin, &tmax);
                    bench_series_record(x, key, work, med);
                    if (!strcmp(t->name, "bb"))
                        t_bb = med;
                    if (t_bb > 0)
                        snprintf(imp, sizeof imp, "%.3f", t_bb / med);
                    snprintf(spread, sizeof spread, "[%.4g, %.4g]", 1e3 * tmin, 1e3 * tmax);
                    if (t->persistent)
                        snprintf(check + strlen(check), sizeof check - strlen(check),
                                 " (%s tiles/block)", bench_count_str(b2, sizeof b2, (tet + blocks - 1) / blocks));
                    printf("%7d %6d %4d %-11s %11.4g %23s %8s %11.4g %15s %6.1f%%  %s\n", n, nb,
                           tile, name, 1e3 * med, spread, imp, items / med,
                           bench_count_str(b1, sizeof b1, blocks), 100.0 * (double)wasted / (double)blocks,
                           check);
                    bench_add_row(x, "dummy3d", name, n, nb, tile, "-", 0, med, tmin, tmax, t_bb,
                                  items, "triplets/s", blocks, tet, "gpu");
                }
                fflush(stdout);
                map3d_plan_free(&plan);
            }
        }
}

/* ---- 2D: the 2D paper's experiment and the pair term ------------------------------------- */

/* Index of bb2d among the selected variants, or -1. */
static int v2d_bb(const bench_opts *o)
{
    for (int v = 0; v < o->n_v2d; v++)
        if (!strcmp(o->v2d[v].t->name, "bb2d"))
            return v;
    return -1;
}

/* The header of a wide 2D table: the reference's time, then I (or time) per variant. */
static void v2d_header(const bench_opts *o, const char *lead)
{
    const int bb = v2d_bb(o);
    printf("%s", lead);
    if (bb >= 0)
        printf(" %10s", "bb2d ms");
    for (int v = 0; v < o->n_v2d; v++)
        if (v != bb)
            printf(" %10s", o->v2d[v].label);
    printf("\n");
}

/* Prints the cells of a wide row: value[v] is the median, or < 0 for a status text[v]. */
static void v2d_cells(const bench_opts *o, const double *med, char (*text)[16])
{
    const int bb = v2d_bb(o);
    const double tb = bb >= 0 ? med[bb] : -1.0;
    if (bb >= 0) {
        if (med[bb] > 0)
            printf(" %10.4g", 1e3 * med[bb]);
        else
            printf(" %10s", text[bb]);
    }
    for (int v = 0; v < o->n_v2d; v++) {
        if (v == bb)
            continue;
        if (med[v] <= 0)
            printf(" %10s", text[v]);
        else if (bb >= 0 && tb > 0)
            printf(" %10.3f", tb / med[v]);
        else
            printf(" %9.4gm", 1e3 * med[v]);
    }
    printf("\n");
    fflush(stdout);
}

/* Dummy kernel (kernel 0) or EDM (1..4) of one variant at one point: 0 and x->t[] filled;
 * BENCH_NA / BENCH_SKIPPED with text; -1 failed (text says how). */
static int map2d_point(bench_ctx *x, const bench_v2d *v, const map2d_plan *plan, int n, int tile,
                       int kernel, double work, char *text, size_t tlen)
{
    const bench_opts *o = x->o;
    const int id = bench_map2d_id(v->t);
    char key[96];
    double sec = 0.0, est;
    snprintf(key, sizeof key, "%s|%s|%d|%d", kernel ? "edm" : "dummy2d", v->name, tile, kernel);
    est = bench_series_estimate(x, key, work, 0.0);
    if (bench_over_budget(x, est, 1 + o->repeat + o->verify)) {
        snprintf(text, tlen, "skip(est)");
        return BENCH_SKIPPED;
    }
    if (o->verify) {
        bench_sig got, want;
        long long bad = 0;
        if (kernel == BENCH_2D_DUMMY) {
            bench_sig_expect(&want, (unsigned long long)map3d_tri(plan->nb));
            if (gpu_bench_map2d_run(plan, id, v->root, tile, n, kernel, &got, NULL, &sec) != 0) {
                snprintf(text, tlen, "failed");
                return -1;
            }
            if (!bench_sig_equal(&got, &want)) {
                char d[96];
                bench_sig_describe(d, sizeof d, &got, &want);
                printf("FAIL: %s dummy2d n = %d tile %d: GPU verification: %s\n", v->name, n, tile, d);
                snprintf(text, tlen, "FAIL");
                return -1;
            }
        } else {
            if (gpu_bench_map2d_run(plan, id, v->root, tile, n, kernel, NULL, &bad, &sec) != 0) {
                snprintf(text, tlen, "failed");
                return -1;
            }
            if (bad) {
                printf("FAIL: %s EDM-%d n = %d tile %d: %lld matrix cells wrong (written outside "
                       "i <= j < n, missing inside, or a sampled value off)\n", v->name, kernel, n,
                       tile, bad);
                snprintf(text, tlen, "FAIL");
                return -1;
            }
        }
    }
    if (gpu_bench_map2d_run(plan, id, v->root, tile, n, kernel, NULL, NULL, &sec) != 0) {
        snprintf(text, tlen, "failed"); /* the warm-up; its time checks the budget */
        return -1;
    }
    if (bench_over_budget(x, sec, o->repeat)) {
        snprintf(text, tlen, "skip(%.0fs)", sec);
        bench_series_record(x, key, work, sec);
        return BENCH_SKIPPED;
    }
    for (int r = 0; r < o->repeat; r++)
        if (gpu_bench_map2d_run(plan, id, v->root, tile, n, kernel, NULL, NULL, &x->t[r]) != 0) {
            snprintf(text, tlen, "failed");
            return -1;
        }
    bench_series_record(x, key, work, x->t[0]);
    return 0;
}

void bench_map2d_experiment(bench_ctx *x, const int *ns, int n_n, const int *tiles, int n_tile)
{
    const bench_opts *o = x->o;
    const int bb = v2d_bb(o);
    char lead[96];
    printf("\n== 2D paper's experiment: dummy kernel and EDM-d (d features), a block of e x e "
           "threads\n   per tile (e = min(tile, 32)); cells: I = t(bb2d)/t(map), median of %d; "
           "n/a: outside\n   the map's exact range; l2d = lambda2d; row blocks/T2: blocks "
           "launched / tiles\n", o->repeat);
    if (!x->gpu)
        printf("   needs a GPU: skipped (%s); blocks from the plans, tiles checked on the host\n",
               x->why);
    snprintf(lead, sizeof lead, "%7s %5s %4s %-9s", "n", "nb", "tile", "kernel");
    v2d_header(o, lead);
    for (int it = 0; it < n_tile; it++)
        for (int in = 0; in < n_n; in++) {
            const int n = ns[in], tile = tiles[it], nb = map3d_nb(n, tile);
            const long long t2 = map3d_tri(nb);
            map2d_plan plans[BENCH_MAX_V2D];
            int ok[BENCH_MAX_V2D];
            double med[BENCH_MAX_V2D];
            char text[BENCH_MAX_V2D][16];
            int edm_ok = x->gpu;
            const int side = bench_block_side2(tile);
            const double per = pow(ceil((double)tile / side), 2.0);
            /* plans and the blocks row */
            printf("%7d %5d %4d %-9s", n, nb, tile, "blocks/T2");
            for (int v = 0; v < o->n_v2d; v++) {
                char err[256];
                map2d_opts mo = {0};
                mo.root = o->v2d[v].root;
                ok[v] = map2d_plan_make(o->v2d[v].t, nb, &mo, &plans[v], err, sizeof err) == 0;
                if (!ok[v]) {
                    snprintf(text[v], sizeof text[v], "n/a");
                    continue;
                }
                if (!x->gpu && map2d_plan_blocks(&plans[v]) + t2 <= BENCH_HOST_WALK) {
                    bench_sig got, want;
                    long long disc;
                    bench_host_sig2(o->v2d[v].t, &plans[v], &got, &disc);
                    bench_sig_expect(&want, (unsigned long long)t2);
                    if (!bench_sig_equal(&got, &want) ||
                        disc != map2d_plan_blocks(&plans[v]) - t2) {
                        char d[96];
                        bench_sig_describe(d, sizeof d, &got, &want);
                        printf("\nFAIL: %s nb = %d: host walk: %s\n", o->v2d[v].name, nb, d);
                        x->failed++;
                    }
                }
            }
            /* the volume ratios, in the columns of the table (bb2d's first) */
            for (int pass = 0; pass < 2; pass++)
                for (int v = 0; v < o->n_v2d; v++) {
                    if ((pass == 0) != (v == bb))
                        continue;
                    if (ok[v])
                        printf(" %10.4f", (double)map2d_plan_blocks(&plans[v]) / (double)t2);
                    else
                        printf(" %10s", "n/a");
                }
            printf("\n");
            if (!x->gpu)
                continue;
            for (int k = -1; k < o->n_features; k++) {
                const int kernel = k < 0 ? BENCH_2D_DUMMY : o->features[k];
                char kname[16];
                double t_ref = 0.0;
                if (kernel != BENCH_2D_DUMMY && !edm_ok)
                    continue;
                if (kernel != BENCH_2D_DUMMY) {
                    const int rc = gpu_bench_edm_prepare(n);
                    if (rc != 0) {
                        edm_ok = 0;
                        if (rc < 0)
                            x->failed++;
                        printf("%7d %5d %4d %-9s  EDM skipped (see the message above)\n", n, nb,
                               tile, "EDM");
                        continue;
                    }
                }
                if (kernel == BENCH_2D_DUMMY)
                    snprintf(kname, sizeof kname, "dummy");
                else
                    snprintf(kname, sizeof kname, "EDM-%d", kernel);
                /* bb2d first, so that every I has its reference */
                for (int pass = 0; pass < 2; pass++)
                    for (int v = 0; v < o->n_v2d; v++) {
                        const double work = kernel == BENCH_2D_DUMMY
                                                ? (double)map2d_plan_blocks(&plans[v]) + (double)t2 * per
                                                : (double)n * n;
                        int rc;
                        if ((pass == 0) != (v == bb))
                            continue;
                        med[v] = -1.0;
                        if (!ok[v])
                            continue;
                        rc = map2d_point(x, &o->v2d[v], &plans[v], n, tile, kernel, work, text[v],
                                         sizeof text[v]);
                        if (rc == -1)
                            x->failed++;
                        if (rc == 0) {
                            const double items = (double)n * (n + 1) / 2.0;
                            double tmin, tmax;
                            const char *kn = kernel == BENCH_2D_DUMMY ? "dummy2d" : "edm";
                            bench_csv_runs(x, kn, o->v2d[v].name, n, nb, tile,
                                     kernel == BENCH_2D_DUMMY ? "-" : "single", kernel, x->t, items,
                                     "entries/s", map2d_plan_blocks(&plans[v]), t2, "gpu");
                            med[v] = bench_stats(x->t, o->repeat, &tmin, &tmax);
                            if (v == bb)
                                t_ref = med[v];
                            bench_add_row(x, kn, o->v2d[v].name, n, nb, tile,
                                  kernel == BENCH_2D_DUMMY ? "-" : "single", kernel, med[v], tmin,
                                  tmax, t_ref, items, "entries/s", map2d_plan_blocks(&plans[v]), t2,
                                  "gpu");
                        }
                    }
                printf("%7d %5d %4d %-9s", n, nb, tile, kname);
                v2d_cells(o, med, text);
            }
        }
    if (x->gpu)
        gpu_bench_release(); /* the EDM matrix: up to n^2 floats */
}

void bench_pair2d_experiment(bench_ctx *x, const int *ns, int n_n, const int *tiles, int n_tile)
{
    const bench_opts *o = x->o;
    const int bb = v2d_bb(o);
    char lead[96];
    printf("\n== solver pair term: LJ through each 2D map (ATM off) on the %s backend; cells: "
           "I = t(bb2d)/t(map),\n   median of %d; pairs/s in the CSV\n", x->ops->name, o->repeat);
    snprintf(lead, sizeof lead, "%7s %5s %4s %-9s", "n", "nb", "tile", "precision");
    v2d_header(o, lead);
    for (int in = 0; in < n_n; in++)
        for (int it = 0; it < n_tile; it++)
            for (int ip = 0; ip < o->n_prec; ip++) {
                const int n = ns[in], tile = tiles[it], prec = o->prec[ip], nb = map3d_nb(n, tile);
                const long long t2 = map3d_tri(nb);
                double med[BENCH_MAX_V2D], t_ref = 0.0;
                char text[BENCH_MAX_V2D][16];
                for (int pass = 0; pass < 2; pass++)
                    for (int v = 0; v < o->n_v2d; v++) {
                        sim_config c = x->base;
                        map2d_plan plan;
                        map2d_opts mo = {0};
                        char err[256], key[96];
                        double warm, est, tmin, tmax;
                        long long blocks;
                        int rc;
                        if ((pass == 0) != (v == bb))
                            continue;
                        med[v] = -1.0;
                        mo.root = o->v2d[v].root;
                        if (map2d_plan_make(o->v2d[v].t, nb, &mo, &plan, err, sizeof err) != 0) {
                            snprintf(text[v], sizeof text[v], "n/a");
                            continue;
                        }
                        blocks = map2d_plan_blocks(&plan);
                        c.system.particles = n;
                        c.solver.tile = tile;
                        c.solver.precision = prec;
                        c.potential.atm.nu = 0.0;
                        c.potential.lj.enabled = 1;
                        snprintf(c.solver.map2d, sizeof c.solver.map2d, "%s", o->v2d[v].t->name);
                        snprintf(c.solver.root, sizeof c.solver.root, "%s",
                                 map2d_root_name(o->v2d[v].root));
                        snprintf(key, sizeof key, "pair2d|%s|%d|%d", o->v2d[v].name, tile, prec);
                        est = bench_series_estimate(x, key, (double)n * n, 0.0);
                        if (bench_over_budget(x, est, 1 + o->repeat)) {
                            snprintf(text[v], sizeof text[v], "skip(est)");
                            continue;
                        }
                        rc = bench_solver_point(x, &c, &warm);
                        if (rc == BENCH_SKIPPED) {
                            bench_series_record(x, key, (double)n * n, warm);
                            snprintf(text[v], sizeof text[v], "skip(%.0fs)", warm);
                            continue;
                        }
                        if (rc == TB_EXIT_USAGE) {
                            snprintf(text[v], sizeof text[v], "n/a");
                            continue;
                        }
                        if (rc != 0) {
                            x->failed++;
                            snprintf(text[v], sizeof text[v], "failed");
                            continue;
                        }
                        bench_csv_runs(x, "pair2d", o->v2d[v].name, n, nb, tile, cfg_precision_name(prec),
                                 0, x->t, bench_c2(n), "pairs/s", blocks, t2, x->ops_gpu ? "gpu" : "cpu");
                        med[v] = bench_stats(x->t, o->repeat, &tmin, &tmax);
                        bench_series_record(x, key, (double)n * n, med[v]);
                        if (v == bb)
                            t_ref = med[v];
                        bench_add_row(x, "pair2d", o->v2d[v].name, n, nb, tile, cfg_precision_name(prec), 0,
                              med[v], tmin, tmax, t_ref, bench_c2(n), "pairs/s", blocks, t2,
                              x->ops_gpu ? "gpu" : "cpu");
                    }
                printf("%7d %5d %4d %-9s", n, nb, tile, cfg_precision_name(prec));
                v2d_cells(o, med, text);
            }
}

/* ---- host walks (the kernel-less check) ------------------------------------------------------ */

/* Walks every block of every launch of p through the host decode; returns the blocks that exit
 * at once. With s, each tile a block visits is signed into s; without, only each block's
 * first() runs (a persistent map's blocks are not stepped through their tiles). */
static long long host_walk3(const map3d_type *t, const map3d_plan *p, bench_sig *s)
{
    long long discarded = 0;
    for (int l = 0; l < p->n_launch; l++) {
        const map3d_launch *L = &p->launch[l];
        for (unsigned bz = 0; bz < L->gz; bz++)
            for (unsigned by = 0; by < L->gy; by++)
                for (unsigned bx = 0; bx < L->gx; bx++) {
                    map3d_cursor c;
                    if (!t->first(L, bx, by, bz, &c)) {
                        discarded++;
                        continue;
                    }
                    if (s)
                        do
                            bench_sig_tile3(s, c.I, c.J, c.K, p->nb);
                        while (t->next(L, &c));
                }
    }
    return discarded;
}

/* Walks every block of every launch of p through the host decode, signing each tile visited.
 * *discarded: blocks that exit at once. */
void bench_host_sig3(const map3d_type *t, const map3d_plan *p, bench_sig *s, long long *discarded)
{
    memset(s, 0, sizeof *s);
    *discarded = host_walk3(t, p, s);
}

void bench_host_sig2(const map2d_type *t, const map2d_plan *p, bench_sig *s, long long *discarded)
{
    memset(s, 0, sizeof *s);
    *discarded = 0;
    for (int l = 0; l < p->n_launch; l++) {
        const map2d_launch *L = &p->launch[l];
        for (unsigned by = 0; by < L->gy; by++)
            for (unsigned bx = 0; bx < L->gx; bx++) {
                map2d_cursor c;
                if (!t->first(L, bx, by, &c)) {
                    (*discarded)++;
                    continue;
                }
                bench_sig_tile2(s, c.I, c.J, p->nb);
            }
    }
}

/* Blocks of plan p that exit at once: by the map contract blocks - Tet(nb) for maps with one
 * tile per block; persistent maps are walked (first() of their few blocks). */
long long bench_wasted3(const map3d_type *t, const map3d_plan *p)
{
    if (!t->persistent)
        return map3d_plan_blocks(p) - map3d_tet(p->nb);
    return host_walk3(t, p, NULL);
}
