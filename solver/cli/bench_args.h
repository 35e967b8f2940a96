/* bench_args.h — the command line that the self-contained bench cases share (`bench --liquid`,
 * `bench --sw`): an optional CONFIG, --cpu, --n LIST, --precisions LIST, --steps, --repeat,
 * --csv FILE, --set KEY=VALUE and -h; a case's own options go through a callback. Not a public
 * interface. */
#ifndef TB_BENCH_ARGS_H
#define TB_BENCH_ARGS_H

#include <stdio.h>

#include "solver/backend.h"

#define BENCH_CASE_MAX_N 16
#define BENCH_CASE_MAX_SET 64

typedef struct bench_case_args {
    const char *cfg, *csv;   /* CONFIG and --csv; NULL when not given */
    double n[BENCH_CASE_MAX_N]; /* --n, as written (each within the case's range) */
    int n_n;
    int precs[3], n_p;       /* --precisions: 0 double, 1 mixed, 2 single */
    int steps, repeat, cpu;  /* steps and repeat hold the case's defaults on entry */
    char *sets[BENCH_CASE_MAX_SET];
    int n_set;
} bench_case_args;

/* A case's own option a (with the next word v, NULL at the end): 0 not its own, 1 a flag taken,
 * 2 a flag and its value taken, -1 bad (the one-line message printed). */
typedef int (*bench_case_opt)(const char *a, const char *v, void *ctx);

typedef struct bench_case_spec {
    const char *flag;         /* "--liquid": the case's selector, skipped */
    const char *help;         /* printed by -h / --help */
    double n_min, n_max;      /* --n's range */
    const char *n_range;      /* the range as the message says it: "100 .. 1e7" */
    bench_case_opt own;       /* NULL: none */
    void *ctx;
} bench_case_spec;

/* Parses argv[1..argc) into b (whose steps and repeat hold the defaults). Returns -1 when the
 * case should run, 0 when the help was printed, 2 on bad input (one line printed naming the
 * option, as "bench --liquid: --n: ..."). */
int bench_case_parse(bench_case_args *b, int argc, char **argv, const bench_case_spec *spec);

/* --csv FILE (NULL: none) opened on rank 0 with its header line written; *f stays NULL on the
 * other ranks and without --csv. 0, or 2 with the message printed. */
int bench_case_csv(const char *csv, const char *header, FILE **f);

/* The two per-rank tables (bench_ranks.h) of one point of a case: its force evaluations at fixed
 * positions (tf, wall_f seconds), then its MD steps (ts, wall_s), under the CSV keys
 * "NAME-force,n,prec" and "NAME-step,n,prec"; units names the rank's share ("anchors"), entries
 * the lists' total. Collective. 0, or -1 when a table failed. */
int bench_case_ranks(const char *name, int n, const char *prec, const backend_times *tf,
                     double wall_f, const backend_times *ts, double wall_s, const char *units,
                     double entries, FILE *f);

#endif
