/* cmd_bench.c — `tribody bench`: times full force evaluations of the solver per n, map,
 * tile edge and precision, and reports triplets per second. A benchmark, not a test.
 *
 * Method: for each point, build the initial state at that n (sim_init with the config's
 * settings), set up the backend, evaluate the forces once to warm up (module load, first
 * touch), then time `repeat` evaluations one by one, each ending in a device synchronize,
 * with the monotonic clock. Report the median, the min and max (the spread), triplets/s =
 * n(n-1)(n-2)/6 / median, and I = t(bb) / t(map) at the same n, tile and precision. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../config/config.h"
#include "../maps3d/map3d.h"
#include "backend.h"
#include "check.h"
#include "cli.h"
#include "gpu.h"
#include "init.h"

#define BENCH_MAX 64

static const char bench_help[] =
    "usage: tribody bench [CONFIG] [--n LIST] [--maps LIST] [--tile LIST]\n"
    "                     [--precisions LIST] [--repeat R] [--csv FILE] [--set PATH=VALUE ...]\n"
    "\n"
    "Times full force evaluations (ATM, plus LJ when CONFIG enables it) on the configured\n"
    "backend and prints, per point: median time, spread, triplets/s and the improvement\n"
    "I = t(bb) / t(map). A benchmark, not a test.\n"
    "\n"
    "  CONFIG            system and potential (default: built-in LJ+ATM argon-like cluster)\n"
    "  --n LIST          particle counts: 4096,8192 or a range 1024:16384:x2 (default 4096)\n"
    "  --maps LIST       tetrahedral maps, comma-separated, or all (default all)\n"
    "  --tile LIST       tile edges (default: the config's solver.tile)\n"
    "  --precisions LIST double, mixed, single or all (default: the config's)\n"
    "  --repeat R        timed evaluations per point (default 5, at least 1)\n"
    "  --csv FILE        also write every repeat as CSV\n";

typedef struct bench_opts {
    const char *config;
    int n[BENCH_MAX], n_n;
    const map3d_type *maps[BENCH_MAX];
    int n_maps;
    int tile[BENCH_MAX], n_tile;
    int prec[3], n_prec;
    int repeat;
    const char *csv;
    char *sets[64];
    int n_set;
} bench_opts;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* "4096,8192" or "A:B:xF" (geometric) or "A:B:+S" (arithmetic). */
static int parse_int_list(const char *s, int *out, int max, const char *opt)
{
    int cnt = 0;
    long a, b, step;
    char mode, extra;
    if (sscanf(s, "%ld:%ld:%c%ld%c", &a, &b, &mode, &step, &extra) == 4 && a >= 1 && b >= a &&
        ((mode == 'x' && step >= 2) || (mode == '+' && step >= 1))) {
        for (long v = a; v <= b && cnt < max; v = mode == 'x' ? v * step : v + step)
            out[cnt++] = (int)v;
        return cnt;
    }
    for (const char *p = s; *p && cnt < max;) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p || v < 1 || v > 100000000 || (*end && *end != ',')) {
            tb_error(NULL, 0, "bench: %s: expected integers like 4096,8192 or 1024:16384:x2 (got \"%s\")",
                     opt, s);
            return -1;
        }
        out[cnt++] = (int)v;
        p = *end ? end + 1 : end;
    }
    return cnt;
}

static int parse_maps(const char *s, bench_opts *o)
{
    char buf[512], names[256];
    o->n_maps = 0;
    if (!strcmp(s, "all")) {
        for (int i = 0; map3d_all[i] && o->n_maps < BENCH_MAX; i++)
            o->maps[o->n_maps++] = map3d_all[i];
        return 0;
    }
    snprintf(buf, sizeof buf, "%s", s);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        const map3d_type *t = map3d_find(tok);
        if (!t) {
            map3d_names(names, sizeof names);
            tb_error(NULL, 0, "bench: --maps: unknown map \"%s\" (expected one of: %s, or all)", tok,
                     names);
            return -1;
        }
        if (o->n_maps < BENCH_MAX)
            o->maps[o->n_maps++] = t;
    }
    return 0;
}

static int parse_precisions(const char *s, bench_opts *o)
{
    char buf[128];
    static const char *names[3] = {"double", "mixed", "single"};
    o->n_prec = 0;
    if (!strcmp(s, "all"))
        s = "double,mixed,single";
    snprintf(buf, sizeof buf, "%s", s);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        int p = -1;
        for (int i = 0; i < 3; i++)
            if (!strcmp(tok, names[i]))
                p = i;
        if (p < 0 || o->n_prec == 3) {
            tb_error(NULL, 0, "bench: --precisions: expected double, mixed, single or all (got \"%s\")", tok);
            return -1;
        }
        o->prec[o->n_prec++] = p;
    }
    return 0;
}

static int parse_args(int argc, char **argv, bench_opts *o, int *help)
{
    memset(o, 0, sizeof *o);
    o->repeat = 5;
    o->n[0] = 4096;
    o->n_n = 1;
    *help = 0;
    if (parse_maps("all", o) != 0)
        return -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            *help = 1;
            return 0;
        }
        if (a[0] != '-') {
            if (o->config) {
                tb_error(NULL, 0, "bench: unexpected argument '%s' (one CONFIG file only)", a);
                return -1;
            }
            o->config = a;
            continue;
        }
        if (!v) {
            tb_error(NULL, 0, "bench: %s: missing value (see tribody bench --help)", a);
            return -1;
        }
        i++;
        if (!strcmp(a, "--n")) {
            if ((o->n_n = parse_int_list(v, o->n, BENCH_MAX, "--n")) <= 0)
                return -1;
        } else if (!strcmp(a, "--tile")) {
            if ((o->n_tile = parse_int_list(v, o->tile, BENCH_MAX, "--tile")) <= 0)
                return -1;
        } else if (!strcmp(a, "--maps")) {
            if (parse_maps(v, o) != 0)
                return -1;
        } else if (!strcmp(a, "--precisions")) {
            if (parse_precisions(v, o) != 0)
                return -1;
        } else if (!strcmp(a, "--repeat")) {
            char *end;
            o->repeat = (int)strtol(v, &end, 10);
            if (*end || o->repeat < 1 || o->repeat > 1000) {
                tb_error(NULL, 0, "bench: --repeat: expected an integer 1..1000 (got \"%s\")", v);
                return -1;
            }
        } else if (!strcmp(a, "--csv")) {
            o->csv = v;
        } else if (!strcmp(a, "--set")) {
            if (o->n_set < 64)
                o->sets[o->n_set++] = (char *)v;
        } else {
            tb_error(NULL, 0, "bench: unknown option '%s' (see tribody bench --help)", a);
            return -1;
        }
    }
    return 0;
}

/* Times one point; fills t[repeat] (seconds). Returns 0, or the failure status. */
static int time_point(const sim_config *c, const backend_ops *ops, int repeat, double *t)
{
    sim_state s;
    backend *b = NULL;
    int rc = sim_init(&s, c);
    if (rc == 0)
        rc = ops->create(&b, c, &s);
    if (rc == 0)
        rc = ops->compute(b); /* warm-up */
    for (int r = 0; rc == 0 && r < repeat; r++) {
        const double t0 = now_s();
        rc = ops->compute(b);
        t[r] = now_s() - t0;
    }
    if (b)
        ops->destroy(b);
    sim_state_free(&s);
    return rc;
}

int cmd_bench(int argc, char **argv)
{
    static bench_opts o;
    sim_config base, c;
    const backend_ops *ops;
    FILE *csv = NULL;
    int help, rc;
    static double t[1000], t_bb[BENCH_MAX][3][BENCH_MAX];

    if (parse_args(argc, argv, &o, &help) != 0)
        return TB_EXIT_USAGE;
    if (help) {
        fputs(bench_help, stdout);
        return 0;
    }
    if (o.config) {
        if ((rc = cfg_load(&base, o.config, o.n_set, o.sets)) != 0)
            return rc;
    } else {
        cfg_defaults(&base);
        snprintf(base.path, sizeof base.path, "(built-in bench system)");
        base.potential.lj.enabled = 1;
        base.system.particles = o.n[0];
    }
    if (!o.n_tile) {
        o.tile[0] = base.solver.tile;
        o.n_tile = 1;
    }
    if (!o.n_prec) {
        o.prec[0] = base.solver.precision;
        o.n_prec = 1;
    }
    if ((rc = backend_select(&base, &ops)) != 0)
        return rc;
    if (o.csv && !(csv = fopen(o.csv, "w"))) {
        tb_error(o.csv, 0, "bench: cannot write CSV");
        return 1;
    }
    if (csv)
        fprintf(csv, "n,map,tile,precision,repeat,seconds,triplets_per_s\n");
    printf("tribody bench: backend %s (%s), %d repeats, median [min, max]\n", ops->name,
           gpu_build_info(), o.repeat);
    printf("%7s %-7s %4s %-9s %12s %23s %12s %7s %12s\n", "n", "map", "tile", "precision",
           "median ms", "spread ms", "triplets/s", "I=bb/map", "blocks");
    memset(t_bb, 0, sizeof t_bb);
    for (int in = 0; in < o.n_n; in++)
        for (int it = 0; it < o.n_tile; it++)
            for (int ip = 0; ip < o.n_prec; ip++)
                for (int im = 0; im < o.n_maps; im++) {
                    char err[256];
                    map3d_plan plan;
                    long long blocks = -1;
                    const int n = o.n[in];
                    c = base;
                    c.system.particles = n;
                    c.solver.tile = o.tile[it];
                    c.solver.precision = o.prec[ip];
                    snprintf(c.solver.map, sizeof c.solver.map, "%s", o.maps[im]->name);
                    if (map3d_plan_make(o.maps[im], map3d_nb(n, c.solver.tile), NULL, &plan, err,
                                        sizeof err) == 0) {
                        blocks = map3d_plan_blocks(&plan);
                        map3d_plan_free(&plan);
                    }
                    rc = time_point(&c, ops, o.repeat, t);
                    if (rc != 0) {
                        printf("%7d %-7s %4d %-9s %12s\n", n, o.maps[im]->name, c.solver.tile,
                               cfg_precision_name(c.solver.precision), "failed");
                        continue;
                    }
                    const double trip = (double)n * (n - 1) * (n - 2) / 6.0;
                    for (int r = 0; csv && r < o.repeat; r++)
                        fprintf(csv, "%d,%s,%d,%s,%d,%.9g,%.6g\n", n, o.maps[im]->name,
                                c.solver.tile, cfg_precision_name(c.solver.precision), r, t[r],
                                trip / t[r]);
                    qsort(t, (size_t)o.repeat, sizeof *t, cmp_double);
                    const double med = o.repeat % 2 ? t[o.repeat / 2]
                                                    : 0.5 * (t[o.repeat / 2 - 1] + t[o.repeat / 2]);
                    if (!strcmp(o.maps[im]->name, "bb"))
                        t_bb[in][ip][it] = med;
                    char spread[64], imp[16];
                    snprintf(spread, sizeof spread, "[%.4g, %.4g]", 1e3 * t[0], 1e3 * t[o.repeat - 1]);
                    if (t_bb[in][ip][it] > 0)
                        snprintf(imp, sizeof imp, "%.3f", t_bb[in][ip][it] / med);
                    else
                        snprintf(imp, sizeof imp, "-");
                    printf("%7d %-7s %4d %-9s %12.4g %23s %12.4g %7s %12lld\n", n, o.maps[im]->name,
                           c.solver.tile, cfg_precision_name(c.solver.precision), 1e3 * med, spread,
                           trip / med, imp, blocks);
                    fflush(stdout);
                }
    if (csv)
        fclose(csv);
    return 0;
}
