/* bench_int.h — what the parts of `tribody bench` share: options, context, rows and the
 * helpers of cmd_bench.c (timing, records, budget, host walks of the maps), and the entry points
 * of the experiments (bench_maps.c: the map-only kernels in 3D and 2D; bench_solver.c: the
 * solver through the backend). Not a public interface. */
#ifndef TB_BENCH_INT_H
#define TB_BENCH_INT_H

#include <stdio.h>

#include "config/config.h"
#include "maps3d/map2d.h"
#include "maps3d/map3d.h"
#include "solver/backend.h"
#include "solver/gpu/gpu_bench.h"
#include "solver/state.h"

#define BENCH_MAX 64
#define BENCH_MAX_REPEAT 1000
#define BENCH_MAX_V2D 16
#define BENCH_SKIPPED 100        /* point status: skipped by the budget */
#define BENCH_NA 101             /* point status: the map cannot plan this nb */
#define BENCH_HOST_WALK 50000000LL /* largest block + tile count walked on the host */
/* Floating-point operations per triplet counted from the GPU kernel's code (docs/gpu.md):
 * pot_atm_part (pot_atm.h) has 5 FMA (2 flops each), 8 FMUL and 3 FADD = 21 flops plus one
 * reciprocal square root; the kernel (gpu_atm.cuh) adds 5 FMA and 1 FMUL to sum the three
 * derivatives (11 flops) and about one per triplet in the butterfly that sums C_ik over j
 * (9 adds per 8 triplets at tile 32). Older results used other counts: 50 flops a triplet
 * before 2026-11-23 (pot_atm_add and its energy), then 35 (the first half-cosine kernel). */
#define BENCH_FLOPS_PER_TRIPLET 33.0

enum { KSEL_SOLVER = 1, KSEL_MAP = 2, KSEL_BOTH = 3 };

typedef struct bench_v2d {
    const map2d_type *t;
    int root;
    char name[32];  /* "lambda2d:rsqrtf" */
    char label[12]; /* table column: "l2d-rsqrtf" */
} bench_v2d;

typedef struct bench_opts {
    const char *config;
    int n[BENCH_MAX], n_n;
    const char *maps_arg;
    const map3d_type *maps[BENCH_MAX];
    int n_maps;
    bench_v2d v2d[BENCH_MAX_V2D];
    int n_v2d;
    int tile[BENCH_MAX], n_tile;
    int prec[3], n_prec;
    int features[4], n_features;
    int repeat;
    const char *csv, *plot;
    char *sets[64];
    int n_set;
    int kernel; /* KSEL_*; 0: the default of the experiment */
    int two_d, force_cpu, verify;
    int no_solo; /* under mpirun: no one-rank timing (docs/scaling.md) */
    int species[TB_TYPES_MAX], n_species; /* --species LIST (bench_species.h); 0: none */
    double budget;
} bench_opts;

/* One measured point, for the summaries of --plot. */
typedef struct bench_row {
    char kernel[12], map[32], prec[8], unit[16], backend[4];
    int n, nb, tile, features;
    double med, tmin, tmax, imp, rate;
    long long blocks, useful;
} bench_row;

typedef struct bench_series {
    char key[96];
    double work, sec; /* last measured point: work units and seconds per run */
} bench_series;

typedef struct bench_ctx {
    bench_opts *o;
    sim_config base;
    FILE *csv;
    int gpu;                 /* GPU experiments possible */
    const char *why;         /* why not */
    const backend_ops *ops;  /* the solver's backend */
    int ops_gpu;             /* ops is the GPU backend (CUDA-event timing) */
    gpu_bench_device dev;
    double peak32, peak64;   /* measured FMA peaks, flop/s (0 unknown) */
    sim_state st;            /* initial state of the last n (shared by every map) */
    int st_n;
    double *t;               /* [repeat] */
    double *t1;              /* [repeat] ranks > 1: one rank alone (tb_mpi_solo) */
    backend_times rt;        /* the last point's per-rank timers (bench_ranks.h) */
    double rt_wall;          /* and this rank's seconds over its timed evaluations */
    bench_row *rows;
    int n_rows, cap_rows;
    bench_series series[512];
    int n_series;
    int failed;
} bench_ctx;

double bench_now_s(void);
double bench_stats(double *t, int r, double *tmin, double *tmax);
double bench_c3(double n);
double bench_c2(double n);
const char *bench_count_str(char *buf, size_t len, long long v);
void bench_csv_runs(bench_ctx *x, const char *kernel, const char *map, int n, int nb, int tile, const char *prec, int features, const double *t, double items, const char *unit, long long blocks, long long useful, const char *where);
/* One measured point for the --plot summaries; imp = t_ref / med (0 without t_ref), rate =
 * items / med. */
void bench_add_row(bench_ctx *x, const char *kernel, const char *map, int n, int nb, int tile,
                   const char *prec, int features, double med, double tmin, double tmax,
                   double t_ref, double items, const char *unit, long long blocks,
                   long long useful, const char *where);
double bench_series_estimate(bench_ctx *x, const char *key, double work, double apriori);
void bench_series_record(bench_ctx *x, const char *key, double work, double sec);
int bench_over_budget(const bench_ctx *x, double sec, int runs);
void bench_host_sig3(const map3d_type *t, const map3d_plan *p, bench_sig *s, long long *discarded);
void bench_host_sig2(const map2d_type *t, const map2d_plan *p, bench_sig *s, long long *discarded);
long long bench_wasted3(const map3d_type *t, const map3d_plan *p);
int bench_map3d_id(const map3d_type *t);
int bench_map2d_id(const map2d_type *t);
/* The map of step im of a 3D experiment: bb first (im = -1) when it is selected, so that every
 * row has its I = t_bb / t, then the selected maps in order (bb not again); NULL: none. */
const map3d_type *bench_map3d_at(const bench_opts *o, int im);
void bench_sig_describe(char *buf, size_t len, const bench_sig *got, const bench_sig *want);
void bench_map3d_experiment(bench_ctx *x, const int *ns, int n_n, const int *tiles, int n_tile);
void bench_solver_experiment(bench_ctx *x, const int *ns, int n_n, const int *tiles, int n_tile);
void bench_map2d_experiment(bench_ctx *x, const int *ns, int n_n, const int *tiles, int n_tile);
void bench_pair2d_experiment(bench_ctx *x, const int *ns, int n_n, const int *tiles, int n_tile);
/* --species LIST: the solver at each K of the list, with its ratio to one species
 * (bench_species.c). */
void bench_species_experiment(bench_ctx *x, const int *ns, int n_n, int tile);
/* One solver point: warm-up and timed evaluations into x->t; 0, or a status (cmd_bench.c). */
int bench_solver_point(bench_ctx *x, const sim_config *c, double *sec_warm);

#endif
