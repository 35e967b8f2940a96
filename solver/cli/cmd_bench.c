/* cmd_bench.c — `tribody bench`: the papers' map benchmarks and the solver's timings, per n,
 * map, tile edge and precision. A benchmark, not a test (docs/performance.md has the method,
 * the numbers and how to reproduce them).
 *
 * Experiments (--kernel and --2d choose; the defaults keep the old `tribody bench`):
 *   3D --kernel map     the map-only dummy kernel of the papers over D3(nb) (gpu_bench.h)
 *   3D --kernel solver  one full force evaluation of the solver through the backend API
 *   2D --kernel map     the 2D paper's experiment: dummy kernel and EDM with 1..4 features
 *                       over D2(nb), maps bb2d, lambda2d (each root), rec2d, rb2d, utm2d
 *   2D --kernel solver  the solver's pair term (LJ on, ATM off) through each 2D map
 * Method per point: the plan's blocks are counted on the host; GPU map kernels first run a
 * verifying instance whose tile signature must match the closed form (EDM: coverage of the
 * matrix and sampled values); then one warm-up run and `repeat` timed runs, each between CUDA
 * events around all launches of the plan (the solver: around compute(), whose work goes to
 * the backend's blocking stream, so the events on the legacy stream bracket it; the CPU
 * backend: the monotonic clock). Reported: median, min and max, I = t(bb)/t(map) at the same
 * n, tile (and precision or features), items per second, the fraction of the measured FMA
 * peak (solver), blocks launched and wasted. Without a GPU the solver timings run on the CPU
 * backend and the GPU-only experiments print the host's block counts and are skipped.
 * A point whose estimated time exceeds --budget seconds is skipped and says so.
 * This file: options, helpers, records, the header, plots and the command; the experiments are
 * in bench_maps.c and bench_solver.c, the liquid in bench_liquid.c (bench_int.h), SW silicon in
 * bench_sw.c. */
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
#include "solver/cli/bench_sw.h"
#include "solver/cli/bench_species.h"
#include "common/check.h"
#include "solver/cli/cli.h"
#include "solver/gpu/gpu.h"
#include "solver/gpu/gpu_bench.h"
#include "solver/io/init.h"
#include "solver/par/mpi.h"
#include "solver/state.h"
#include "solver/cli/bench_int.h"

static const char bench_help[] =
    "usage: tribody bench [CONFIG] [--n LIST] [--maps LIST] [--tile LIST]\n"
    "                     [--precisions LIST] [--repeat R] [--csv FILE] [--set PATH=VALUE ...]\n"
    "                     [--kernel solver|map|both] [--2d] [--features LIST] [--plot DIR]\n"
    "                     [--budget SECONDS] [--no-verify] [--cpu] [--no-solo] [--species LIST]\n"
    "       tribody bench --liquid [CONFIG] [--n LIST] ...  (the O(N) liquid; --liquid --help)\n"
    "       tribody bench --sw [CONFIG] [--n LIST] ...  (Stillinger-Weber silicon; --sw --help)\n"
    "\n"
    "Times the block maps and the solver. A benchmark, not a test; docs/performance.md.\n"
    "\n"
    "  3D (default):\n"
    "    --kernel solver  one full force evaluation (ATM, plus LJ when enabled) on the backend\n"
    "                     (the default; n 4096 on a GPU, 128,256 on the CPU)\n"
    "    --kernel map     the papers' map-only dummy kernel: each thread of a block decodes the\n"
    "                     map and forms i+j+k of its tile (GPU only; n 8192,12288, tile 8);\n"
    "                     row lambda-once: thread 0 decodes, the block reads shared memory\n"
    "  --2d: the 2D paper's experiment (default --kernel both, n 1024:30720:+1024, tile 16):\n"
    "    --kernel map     dummy kernel and Euclidean distance matrix (EDM) with 1..4 features\n"
    "                     (GPU only), maps bb2d, lambda2d:ROOT (exact, sqrtf, rsqrtf, newton),\n"
    "                     rec2d, rb2d, utm2d\n"
    "    --kernel solver  the solver's pair term (LJ on, ATM off) through each 2D map\n"
    "\n"
    "  CONFIG            system and potential (default: built-in LJ+ATM argon-like cluster)\n"
    "  --n LIST          particle counts: 4096,8192 or ranges 1024:16384:x2, 1024:30720:+1024\n"
    "  --maps LIST       maps, comma-separated, or all (default); with --2d the 2D maps, where\n"
    "                    lambda2d means every root and lambda2d:ROOT one\n"
    "  --tile LIST       tile edges (default: map 8, 2D 16, solver the config's solver.tile)\n"
    "  --precisions LIST solver: double, mixed, single or all (default: the config's)\n"
    "  --features LIST   EDM features, 1..4 (default 1,2,3,4)\n"
    "  --repeat R        timed runs per point after one warm-up (default 5, 1..1000)\n"
    "  --csv FILE        also write every timed run as CSV (# lines: device and build)\n"
    "  --plot DIR        write per-experiment summaries DIR/<kernel>.csv and PNG plots of\n"
    "                    I = t(bb)/t(map) versus n (gnuplot, through scripts/plot-bench)\n"
    "  --budget S        skip a point estimated to take more than S seconds (default 120;\n"
    "                    0 = no limit)\n"
    "  --no-verify       skip the verifying run of the GPU map kernels\n"
    "  --cpu             the CPU backend only, as on a machine without a GPU\n"
    "  --no-solo         under mpirun: skip the one-rank timing of each solver point (the\n"
    "                    parallel efficiency then comes from a separate -np 1 run)\n"
    "  --set PATH=VALUE  override a setting of CONFIG (or of the built-in system)\n"
    "  --species LIST    solver: the system as K species of the same cost for each K of LIST\n"
    "                    (1 .. 8, e.g. 1,2,4; particle i of species i mod K, epsilon and mass\n"
    "                    per species, nu for every triplet) at the first tile: triplets/s and\n"
    "                    their ratio to one species\n"
    "\n"
    "I > 1: the map is faster than the bounding box. Exit status: 0, or 1 when a point failed\n"
    "(a CUDA error or a failed verification), 2 bad usage.\n";

/* A 2D map variant: lambda2d once per root. */

/* ---- small helpers ------------------------------------------------------------------------ */

double bench_now_s(void)
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

/* Median, min and max of t[0..r) (t is left sorted). */
double bench_stats(double *t, int r, double *tmin, double *tmax)
{
    qsort(t, (size_t)r, sizeof *t, cmp_double);
    *tmin = t[0];
    *tmax = t[r - 1];
    return r % 2 ? t[r / 2] : 0.5 * (t[r / 2 - 1] + t[r / 2]);
}

double bench_c3(double n) { return n * (n - 1) * (n - 2) / 6.0; }
double bench_c2(double n) { return n * (n - 1) / 2.0; }

/* "1,073,741,824" (blocks and counts). */
const char *bench_count_str(char *buf, size_t len, long long v)
{
    char tmp[32];
    int n = snprintf(tmp, sizeof tmp, "%lld", v), o = 0;
    for (int i = 0; i < n && o < (int)len - 1; i++) {
        if (i && tmp[i - 1] != '-' && (n - i) % 3 == 0 && o < (int)len - 2)
            buf[o++] = ',';
        buf[o++] = tmp[i];
    }
    buf[o] = '\0';
    return buf;
}

/* ---- records: CSV, rows, series -------------------------------------------------------------- */

void bench_csv_runs(bench_ctx *x, const char *kernel, const char *map, int n, int nb, int tile,
                     const char *prec, int features, const double *t, double items,
                     const char *unit, long long blocks, long long useful, const char *where)
{
    if (!x->csv)
        return;
    for (int r = 0; r < x->o->repeat; r++)
        fprintf(x->csv, "%s,%s,%d,%d,%d,%s,%d,%d,%.9g,%.6g,%s,%lld,%lld,%s\n", kernel, map, n, nb,
                tile, prec, features, r, t[r], t[r] > 0 ? items / t[r] : 0.0, unit, blocks, useful,
                where);
    fflush(x->csv);
}

void bench_add_row(bench_ctx *x, const char *kernel, const char *map, int n, int nb, int tile,
                   const char *prec, int features, double med, double tmin, double tmax,
                   double t_ref, double items, const char *unit, long long blocks,
                   long long useful, const char *where)
{
    bench_row *r;
    if (x->n_rows == x->cap_rows) {
        int cap = x->cap_rows ? 2 * x->cap_rows : 256;
        bench_row *p = (bench_row *)realloc(x->rows, (size_t)cap * sizeof *p);
        if (!p)
            return; /* the summary loses a row; the table and CSV have it */
        x->rows = p;
        x->cap_rows = cap;
    }
    r = &x->rows[x->n_rows++];
    memset(r, 0, sizeof *r);
    snprintf(r->kernel, sizeof r->kernel, "%s", kernel);
    snprintf(r->map, sizeof r->map, "%s", map);
    snprintf(r->prec, sizeof r->prec, "%s", prec);
    snprintf(r->unit, sizeof r->unit, "%s", unit);
    snprintf(r->backend, sizeof r->backend, "%s", where);
    r->n = n, r->nb = nb, r->tile = tile, r->features = features;
    r->med = med, r->tmin = tmin, r->tmax = tmax;
    r->imp = t_ref > 0 ? t_ref / med : 0.0;
    r->rate = items / med;
    r->blocks = blocks, r->useful = useful;
}

static bench_series *series_find(bench_ctx *x, const char *key)
{
    for (int i = 0; i < x->n_series; i++)
        if (!strcmp(x->series[i].key, key))
            return &x->series[i];
    return NULL;
}

/* Seconds per run of a point of `work` units: scaled from the series' last point, else
 * `apriori` (0: unknown). */
double bench_series_estimate(bench_ctx *x, const char *key, double work, double apriori)
{
    const bench_series *s = series_find(x, key);
    return s && s->work > 0 ? s->sec * work / s->work : apriori;
}

void bench_series_record(bench_ctx *x, const char *key, double work, double sec)
{
    bench_series *s = series_find(x, key);
    if (!s && x->n_series < (int)(sizeof x->series / sizeof x->series[0])) {
        s = &x->series[x->n_series++];
        snprintf(s->key, sizeof s->key, "%s", key);
    }
    if (s) {
        s->work = work;
        s->sec = sec;
    }
}

/* 1 when `runs` runs of `sec` each exceed the budget. */
int bench_over_budget(const bench_ctx *x, double sec, int runs)
{
    return x->o->budget > 0 && sec * runs > x->o->budget;
}

int bench_map3d_id(const map3d_type *t)
{
    for (int i = 0; map3d_all[i]; i++)
        if (map3d_all[i] == t)
            return i;
    return -1;
}

const map3d_type *bench_map3d_at(const bench_opts *o, int im)
{
    const map3d_type *t = im < 0 ? map3d_find("bb") : o->maps[im];
    int sel = 0;
    if (!t)
        return NULL;
    if (im >= 0) /* bb runs first (im = -1) when it is selected */
        sel = strcmp(t->name, "bb") != 0;
    else
        for (int k = 0; k < o->n_maps; k++)
            sel |= o->maps[k] == t;
    return sel ? t : NULL;
}

int bench_map2d_id(const map2d_type *t)
{
    for (int i = 0; map2d_all[i]; i++)
        if (map2d_all[i] == t)
            return i;
    return -1;
}

void bench_sig_describe(char *buf, size_t len, const bench_sig *got, const bench_sig *want)
{
    snprintf(buf, len, "tiles %llu (want %llu), outside %llu, sums %s", got->tiles, want->tiles,
             got->bad, got->sum == want->sum && got->sumsq == want->sumsq ? "match" : "differ");
}

/* ---- the header ---------------------------------------------------------------------------------- */

static void print_header(bench_ctx *x)
{
    const bench_opts *o = x->o;
    char ranks[96];
    printf("tribody bench %s (%s), %s\n", TB_VERSION, gpu_build_info(),
           tb_ranks_desc(ranks, sizeof ranks, x->ops_gpu));
    if (tb_nranks() > 1)
        printf("ranks: the solver's force work split over %d ranks (docs/scaling.md); a time is the "
               "slowest rank's, between barriers; %s\n", tb_nranks(),
               o->no_solo ? "--no-solo: no one-rank timing"
                          : "each point is also timed on one rank alone for the parallel "
                            "efficiency E = t1 / (P tP)");
    if (x->gpu) {
        printf("device: %s, %d SMs, cc %d.%d, %d MHz, %.1f GiB; CUDA runtime %d.%d, driver %d.%d\n",
               x->dev.name, x->dev.sms, x->dev.cc_major, x->dev.cc_minor, x->dev.clock_mhz,
               x->dev.mem_gib, x->dev.runtime / 1000, (x->dev.runtime % 1000) / 10,
               x->dev.driver / 1000, (x->dev.driver % 1000) / 10);
        if (x->peak32 > 0)
            printf("measured FMA peak: FP32 %.2f Tflop/s, FP64 %.2f Tflop/s (16 FMA chains per "
                   "thread, best of 5); solver flops per triplet %.0f\n",
                   1e-12 * x->peak32, 1e-12 * x->peak64, BENCH_FLOPS_PER_TRIPLET);
        else
            printf("measured FMA peak: failed (see above); %%peak not reported\n");
    } else {
        printf("CPU backend (%s%s), %d OpenMP threads; GPU-only experiments are skipped\n",
               o->force_cpu ? "" : "no GPU: ", x->why, omp_get_max_threads());
    }
    printf("timing: 1 warm-up, %d timed runs, median [min, max];%s solver on the %s backend%s\n",
           o->repeat, x->gpu ? " GPU kernels: CUDA events around all launches of a plan;" : "",
           x->ops->name, x->ops_gpu ? " (CUDA events around compute())" : " (monotonic clock)");
    if (o->budget > 0)
        printf("budget: points estimated above %g s are skipped (--budget)\n", o->budget);
    if (x->csv) {
        fprintf(x->csv, "# tribody bench %s (%s), %s\n", TB_VERSION, gpu_build_info(), ranks);
        if (x->gpu)
            fprintf(x->csv, "# device: %s, %d SMs, cc %d.%d, %d MHz; fp32_peak_flops=%.6g "
                            "fp64_peak_flops=%.6g flops_per_triplet=%.0f\n",
                    x->dev.name, x->dev.sms, x->dev.cc_major, x->dev.cc_minor, x->dev.clock_mhz,
                    x->peak32, x->peak64, BENCH_FLOPS_PER_TRIPLET);
        else
            fprintf(x->csv, "# device: CPU backend (no GPU: %s), %d OpenMP threads\n", x->why,
                    omp_get_max_threads());
        fprintf(x->csv, "kernel,map,n,nb,tile,precision,features,repeat,seconds,rate,rate_unit,"
                        "blocks,useful,backend\n");
    }
}

/* ---- parsing ------------------------------------------------------------------------------ */

/* "4096,8192" or "A:B:xF" (geometric) or "A:B:+S" (arithmetic); values in [lo, hi]. */
static int parse_int_list(const char *s, int *out, int max, const char *opt, long lo, long hi)
{
    int cnt = 0;
    long a, b, step;
    char mode, extra;
    if (sscanf(s, "%ld:%ld:%c%ld%c", &a, &b, &mode, &step, &extra) == 4) {
        if (a < lo || b > hi || b < a || !((mode == 'x' && step >= 2) || (mode == '+' && step >= 1))) {
            tb_error(NULL, 0, "bench: %s: range \"%s\" must be A:B:xF (F >= 2) or A:B:+S (S >= 1) "
                              "with %ld <= A <= B <= %ld", opt, s, lo, hi);
            return -1;
        }
        for (long v = a; v <= b; v = mode == 'x' ? v * step : v + step) {
            if (cnt == max) {
                tb_error(NULL, 0, "bench: %s: \"%s\" has more than %d values", opt, s, max);
                return -1;
            }
            out[cnt++] = (int)v;
        }
        return cnt;
    }
    for (const char *p = s; *p;) {
        char *end;
        long v;
        errno = 0;
        v = strtol(p, &end, 10);
        if (end == p || errno || v < lo || v > hi || (*end && *end != ',') ||
            (*end == ',' && !end[1])) {
            tb_error(NULL, 0, "bench: %s: expected integers %ld..%ld: a list like 8,16 or a "
                              "range A:B:xF or A:B:+S (got \"%s\")", opt, lo, hi, s);
            return -1;
        }
        if (cnt == max) {
            tb_error(NULL, 0, "bench: %s: more than %d values", opt, max);
            return -1;
        }
        out[cnt++] = (int)v;
        p = *end ? end + 1 : end;
    }
    if (!cnt)
        tb_error(NULL, 0, "bench: %s: empty list", opt);
    return cnt ? cnt : -1;
}

static int parse_maps3d(const char *s, bench_opts *o)
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
            return tb_error(NULL, 0, "bench: --maps: unknown map \"%s\" (expected one of: %s, or "
                                     "all; 2D maps with --2d)", tok, names);
        }
        if (o->n_maps < BENCH_MAX)
            o->maps[o->n_maps++] = t;
    }
    return o->n_maps ? 0 : tb_error(NULL, 0, "bench: --maps: empty list");
}

static void add_v2d(bench_opts *o, const map2d_type *t, int root)
{
    bench_v2d *v;
    if (o->n_v2d == BENCH_MAX_V2D)
        return;
    v = &o->v2d[o->n_v2d++];
    v->t = t;
    v->root = root;
    if (!strcmp(t->name, "lambda2d")) {
        snprintf(v->name, sizeof v->name, "lambda2d:%s", map2d_root_name(root));
        snprintf(v->label, sizeof v->label, "l2d-%s", map2d_root_name(root));
    } else {
        snprintf(v->name, sizeof v->name, "%s", t->name);
        snprintf(v->label, sizeof v->label, "%s", t->name);
    }
}

/* 2D variants: "all", a map (lambda2d: every root) or lambda2d:ROOT. */
static int parse_maps2d(const char *s, bench_opts *o)
{
    char buf[512], names[256];
    o->n_v2d = 0;
    snprintf(buf, sizeof buf, "%s", s);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        char *colon = strchr(tok, ':');
        const map2d_type *t;
        int root = -1;
        if (colon) {
            *colon = '\0';
            root = map2d_root_find(colon + 1);
        }
        if (!strcmp(tok, "all") && !colon) {
            for (int i = 0; map2d_all[i]; i++)
                if (!strcmp(map2d_all[i]->name, "lambda2d"))
                    for (int r = MAP2D_ROOT_EXACT; r <= MAP2D_ROOT_NEWTON; r++)
                        add_v2d(o, map2d_all[i], r);
                else
                    add_v2d(o, map2d_all[i], MAP2D_ROOT_EXACT);
            continue;
        }
        t = map2d_find(tok);
        if (!t || (colon && (root < 0 || strcmp(tok, "lambda2d") != 0))) {
            map2d_names(names, sizeof names);
            return tb_error(NULL, 0, "bench: --maps: unknown 2D map \"%s%s%s\" (expected one of: "
                                     "%s, lambda2d:exact|sqrtf|rsqrtf|newton, or all)", tok,
                            colon ? ":" : "", colon ? colon + 1 : "", names);
        }
        if (colon)
            add_v2d(o, t, root);
        else if (!strcmp(t->name, "lambda2d"))
            for (int r = MAP2D_ROOT_EXACT; r <= MAP2D_ROOT_NEWTON; r++)
                add_v2d(o, t, r);
        else
            add_v2d(o, t, MAP2D_ROOT_EXACT);
    }
    return o->n_v2d ? 0 : tb_error(NULL, 0, "bench: --maps: empty list");
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
        if (p < 0 || o->n_prec == 3)
            return tb_error(NULL, 0, "bench: --precisions: expected double, mixed, single or all "
                                     "(got \"%s\")", tok);
        o->prec[o->n_prec++] = p;
    }
    return o->n_prec ? 0 : tb_error(NULL, 0, "bench: --precisions: empty list");
}

static int parse_args(int argc, char **argv, bench_opts *o, int *help)
{
    /* The options without a value: each sets one flag. */
    const struct {
        const char *name;
        int *flag, value;
    } sw[] = {{"--2d", &o->two_d, 1}, {"--cpu", &o->force_cpu, 1}, {"--no-verify", &o->verify, 0},
              {"--no-solo", &o->no_solo, 1}};
    size_t k;
    memset(o, 0, sizeof *o);
    o->repeat = 5;
    o->verify = 1;
    o->budget = 120.0;
    o->maps_arg = "all";
    *help = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            *help = 1;
            return 0;
        }
        if (a[0] != '-') {
            if (o->config)
                return tb_error(NULL, 0, "bench: unexpected argument '%s' (one CONFIG file only)", a);
            o->config = a;
            continue;
        }
        for (k = 0; k < sizeof sw / sizeof sw[0] && strcmp(a, sw[k].name); k++)
            ;
        if (k < sizeof sw / sizeof sw[0]) {
            *sw[k].flag = sw[k].value;
            continue;
        }
        if (strcmp(a, "--n") && strcmp(a, "--tile") && strcmp(a, "--maps") &&
            strcmp(a, "--precisions") && strcmp(a, "--repeat") && strcmp(a, "--csv") &&
            strcmp(a, "--set") && strcmp(a, "--kernel") && strcmp(a, "--plot") &&
            strcmp(a, "--budget") && strcmp(a, "--features") && strcmp(a, "--species"))
            return tb_error(NULL, 0, "bench: unknown option '%s' (see tribody bench --help)", a);
        if (!v)
            return tb_error(NULL, 0, "bench: %s: missing value (see tribody bench --help)", a);
        i++;
        if (!strcmp(a, "--n")) {
            if ((o->n_n = parse_int_list(v, o->n, BENCH_MAX, "--n", 3, 100000000)) <= 0)
                return -1;
        } else if (!strcmp(a, "--tile")) {
            if ((o->n_tile = parse_int_list(v, o->tile, BENCH_MAX, "--tile", 1, 1024)) <= 0)
                return -1;
        } else if (!strcmp(a, "--features")) {
            if ((o->n_features = parse_int_list(v, o->features, 4, "--features", 1, 4)) <= 0)
                return -1;
        } else if (!strcmp(a, "--species")) {
            if (bench_species_parse(v, o->species, &o->n_species, "bench") != 0)
                return -1;
        } else if (!strcmp(a, "--maps")) {
            o->maps_arg = v;
        } else if (!strcmp(a, "--precisions")) {
            if (parse_precisions(v, o) != 0)
                return -1;
        } else if (!strcmp(a, "--repeat")) {
            char *end;
            errno = 0;
            o->repeat = (int)strtol(v, &end, 10);
            if (*end || errno || o->repeat < 1 || o->repeat > BENCH_MAX_REPEAT)
                return tb_error(NULL, 0, "bench: --repeat: expected an integer 1..%d (got \"%s\")",
                                BENCH_MAX_REPEAT, v);
        } else if (!strcmp(a, "--budget")) {
            char *end;
            o->budget = strtod(v, &end);
            if (*end || end == v || !(o->budget >= 0.0) || o->budget > 1e9)
                return tb_error(NULL, 0, "bench: --budget: expected seconds >= 0 (got \"%s\")", v);
        } else if (!strcmp(a, "--kernel")) {
            if (!strcmp(v, "solver"))
                o->kernel = KSEL_SOLVER;
            else if (!strcmp(v, "map"))
                o->kernel = KSEL_MAP;
            else if (!strcmp(v, "both"))
                o->kernel = KSEL_BOTH;
            else
                return tb_error(NULL, 0, "bench: --kernel: expected solver, map or both (got \"%s\")", v);
        } else if (!strcmp(a, "--csv")) {
            o->csv = v;
        } else if (!strcmp(a, "--plot")) {
            o->plot = v;
        } else { /* --set */
            if (o->n_set == 64)
                return tb_error(NULL, 0, "bench: more than 64 --set options");
            o->sets[o->n_set++] = (char *)v;
        }
    }
    if (!o->kernel)
        o->kernel = o->two_d ? KSEL_BOTH : KSEL_SOLVER;
    if (!o->n_features) {
        for (int f = 0; f < 4; f++)
            o->features[f] = f + 1;
        o->n_features = 4;
    }
    return o->two_d ? parse_maps2d(o->maps_arg, o) : parse_maps3d(o->maps_arg, o);
}

/* The configuration: CONFIG, or the built-in system (a generated file, so that --set works
 * the same way). */
static int load_config(const bench_opts *o, sim_config *c)
{
    static const char builtin[] =
        "# tribody bench built-in system: argon-like LJ + ATM cluster, every other setting default\n"
        "system = { particles = 4096; };\n"
        "potential = { lj = { }; };\n";
    char path[] = "/tmp/tribody-bench-XXXXXX";
    FILE *f;
    int fd, rc;
    if (o->config)
        return cfg_load(c, o->config, o->n_set, o->sets);
    fd = mkstemp(path);
    if (fd < 0 || !(f = fdopen(fd, "w"))) {
        if (fd >= 0)
            close(fd);
        tb_error(path, 0, "bench: cannot write the built-in configuration: %s", strerror(errno));
        return TB_EXIT_RUNTIME;
    }
    fputs(builtin, f);
    fclose(f);
    rc = cfg_load(c, path, o->n_set, o->sets);
    unlink(path);
    snprintf(c->path, sizeof c->path, "(built-in bench system)");
    return rc;
}

/* ---- --plot -------------------------------------------------------------------------------- */

/* The plot script: $TB_PLOT_BENCH, else scripts/plot-bench next to the binary's build/. */
static int find_plot_script(char *buf, size_t len)
{
    const char *env = getenv("TB_PLOT_BENCH");
    char exe[4096];
    ssize_t k;
    if (env && *env) {
        snprintf(buf, len, "%s", env);
        return access(buf, X_OK) == 0;
    }
    k = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (k > 0) {
        char *slash;
        exe[k] = '\0';
        if ((slash = strrchr(exe, '/')))
            *slash = '\0';
        snprintf(buf, len, "%s/../scripts/plot-bench", exe);
        if (access(buf, X_OK) == 0)
            return 1;
    }
    snprintf(buf, len, "scripts/plot-bench");
    return access(buf, X_OK) == 0;
}

/* Writes DIR/<kernel>.csv (one row per point: median, spread, I) and makes the PNGs. */
static int write_plots(bench_ctx *x, const char *dir)
{
    static const char *kernels[] = {"dummy3d", "solver3d", "dummy2d", "edm", "pair2d"};
    char path[4200], script[4200], cmd[13000];
    int files = 0;
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        tb_error(dir, 0, "bench: --plot: cannot create the directory: %s", strerror(errno));
        return -1;
    }
    for (size_t k = 0; k < sizeof kernels / sizeof kernels[0]; k++) {
        FILE *f = NULL;
        for (int i = 0; i < x->n_rows; i++) {
            const bench_row *r = &x->rows[i];
            if (strcmp(r->kernel, kernels[k]))
                continue;
            if (!f) {
                snprintf(path, sizeof path, "%s/%s.csv", dir, kernels[k]);
                if (!(f = fopen(path, "w"))) {
                    tb_error(path, 0, "bench: --plot: cannot write: %s", strerror(errno));
                    return -1;
                }
                fprintf(f, "# tribody bench %s (%s); %s\n", TB_VERSION, gpu_build_info(),
                        x->gpu ? x->dev.name : "CPU backend");
                fprintf(f, "kernel,map,n,nb,tile,precision,features,median_s,min_s,max_s,I,rate,"
                           "rate_unit,blocks,useful,backend\n");
                files++;
            }
            fprintf(f, "%s,%s,%d,%d,%d,%s,%d,%.9g,%.9g,%.9g,%.6g,%.6g,%s,%lld,%lld,%s\n",
                    r->kernel, r->map, r->n, r->nb, r->tile, r->prec, r->features, r->med, r->tmin,
                    r->tmax, r->imp, r->rate, r->unit, r->blocks, r->useful, r->backend);
        }
        if (f)
            fclose(f);
    }
    printf("\nplot data: %d summary file%s in %s/\n", files, files == 1 ? "" : "s", dir);
    if (!files)
        return 0;
    if (system("command -v gnuplot >/dev/null 2>&1") != 0) {
        printf("gnuplot is not installed here (Debian: gnuplot-nox, `make deps`): make the PNGs "
               "where it is with\n    scripts/plot-bench %s %s\n", dir, dir);
        return 0;
    }
    if (!find_plot_script(script, sizeof script)) {
        printf("scripts/plot-bench not found (set TB_PLOT_BENCH): make the PNGs with\n"
               "    scripts/plot-bench %s %s\n", dir, dir);
        return 0;
    }
    fflush(stdout);
    snprintf(cmd, sizeof cmd, "'%s' '%s' '%s'", script, dir, dir);
    if (system(cmd) != 0) {
        tb_error(NULL, 0, "bench: --plot: %s failed", script);
        return -1;
    }
    return 0;
}

/* ---- the command ------------------------------------------------------------------------------ */

int cmd_bench(int argc, char **argv)
{
    static bench_opts o;
    static bench_ctx x;
    static const int n_map_def[] = {8192, 12288}, n_solver_gpu[] = {4096}, n_cpu3[] = {128, 256},
                     n_pair_cpu[] = {1024, 2048};
    int n2d_def[30];
    const int tile_map_def[] = {8}, tile_2d_def[] = {16};
    int help, rc;

    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--liquid"))
            return bench_liquid(argc, argv);
        else if (!strcmp(argv[i], "--sw"))
            return bench_sw(argc, argv);
    if (parse_args(argc, argv, &o, &help) != 0)
        return TB_EXIT_USAGE;
    if (help) {
        fputs(bench_help, stdout);
        return 0;
    }
    memset(&x, 0, sizeof x);
    x.o = &o;
    if ((rc = load_config(&o, &x.base)) != 0)
        return rc;
    if (!o.n_prec) {
        o.prec[0] = x.base.solver.precision;
        o.n_prec = 1;
    }
    x.why = "--cpu";
    if (!o.force_cpu && gpu_count(&x.why) > 0)
        x.gpu = 1;
    if (o.force_cpu) {
        x.ops = &cpu_backend_ops;
    } else if ((rc = backend_select(&x.base, &x.ops)) != 0) {
        return rc;
    }
    x.ops_gpu = x.ops == &gpu_backend_ops;
    if (x.gpu) {
        if (gpu_bench_device_info(&x.dev) != 0)
            return TB_EXIT_RUNTIME;
        if (gpu_bench_fma_peak(&x.peak32, &x.peak64) != 0)
            x.peak32 = x.peak64 = 0.0;
    }
    if (x.gpu && tb_nranks() > 1 && (rc = tb_mpi_agree(gpu_use_rank_device())) != 0)
        return rc;
    if (!(x.t1 = (double *)calloc((size_t)o.repeat, sizeof *x.t1)) ||
        !(x.t = (double *)calloc((size_t)o.repeat, sizeof *x.t)))
        return tb_error(NULL, 0, "out of host memory"), TB_EXIT_RUNTIME;
    if (o.csv && tb_rank() == 0 && !(x.csv = fopen(o.csv, "w"))) { /* rank 0 writes */
        tb_error(o.csv, 0, "bench: cannot write CSV: %s", strerror(errno));
        free(x.t);
        return TB_EXIT_RUNTIME;
    }
    print_header(&x);
    for (int k = 0; k < 30; k++)
        n2d_def[k] = 1024 * (k + 1);

    if (!o.two_d) {
        if (o.kernel & KSEL_MAP)
            bench_map3d_experiment(&x, o.n_n ? o.n : n_map_def, o.n_n ? o.n_n : 2,
                             o.n_tile ? o.tile : tile_map_def, o.n_tile ? o.n_tile : 1);
        if (o.kernel & KSEL_SOLVER) {
            const int *ns = o.n_n ? o.n : x.ops_gpu ? n_solver_gpu : n_cpu3;
            const int nn = o.n_n ? o.n_n : x.ops_gpu ? 1 : 2;
            const int *ts = o.n_tile ? o.tile : &x.base.solver.tile;
            if (o.n_species)
                bench_species_experiment(&x, ns, nn, ts[0]);
            else
                bench_solver_experiment(&x, ns, nn, ts, o.n_tile ? o.n_tile : 1);
        }
    } else {
        const int *ts = o.n_tile ? o.tile : tile_2d_def;
        const int nt = o.n_tile ? o.n_tile : 1;
        if (o.kernel & KSEL_MAP)
            bench_map2d_experiment(&x, o.n_n ? o.n : n2d_def, o.n_n ? o.n_n : 30, ts, nt);
        if (o.kernel & KSEL_SOLVER)
            bench_pair2d_experiment(&x, o.n_n ? o.n : x.ops_gpu ? n2d_def : n_pair_cpu,
                              o.n_n ? o.n_n : x.ops_gpu ? 30 : 2, ts, nt);
    }
    if (o.plot && tb_rank() == 0 && write_plots(&x, o.plot) != 0)
        x.failed++;
    if (x.failed)
        printf("\n%d point%s failed (see above)\n", x.failed, x.failed == 1 ? "" : "s");
    if (x.csv)
        fclose(x.csv);
    if (x.gpu)
        gpu_bench_release();
    sim_state_free(&x.st);
    free(x.t);
    free(x.t1);
    free(x.rows);
    return x.failed ? TB_EXIT_RUNTIME : 0;
}

