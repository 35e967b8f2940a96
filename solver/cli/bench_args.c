/* bench_args.c — what `bench --liquid` and `bench --sw` share (bench_args.h): one parser, so that
 * both cases take and refuse the same options in the same words, their CSV's opening and the
 * per-rank tables of each point. */
#include "solver/cli/bench_args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/check.h"
#include "solver/cli/bench_ranks.h"
#include "solver/par/mpi.h"

int bench_case_parse(bench_case_args *b, int argc, char **argv, const bench_case_spec *spec)
{
    const char *what = spec->flag; /* messages say "bench --liquid: ..." */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, spec->flag))
            continue;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(spec->help, stdout);
            return 0;
        }
        if (!strcmp(a, "--cpu")) {
            b->cpu = 1;
            continue;
        }
        if (spec->own) {
            const int k = spec->own(a, v, spec->ctx);
            if (k < 0)
                return 2;
            if (k > 0) {
                i += k - 1;
                continue;
            }
        }
        if (a[0] != '-') {
            if (b->cfg)
                return tb_error(NULL, 0, "bench %s: one CONFIG at most (got \"%s\")", what, a), 2;
            b->cfg = a;
            continue;
        }
        if (!v)
            return tb_error(NULL, 0, "bench %s: %s needs a value", what, a), 2;
        i++;
        if (!strcmp(a, "--n")) {
            for (char *s = (char *)v, *e; *s; s = *e ? e + 1 : e) {
                const double x = strtod(s, &e);
                if (e == s || !(x >= spec->n_min && x <= spec->n_max) || (*e && *e != ','))
                    return tb_error(NULL, 0, "bench %s: --n: expected sizes %s separated by "
                                             "commas (got \"%s\")", what, spec->n_range, v), 2;
                if (b->n_n == BENCH_CASE_MAX_N)
                    return tb_error(NULL, 0, "bench %s: --n: at most %d sizes (got \"%s\")", what,
                                    BENCH_CASE_MAX_N, v), 2;
                b->n[b->n_n++] = x;
            }
        } else if (!strcmp(a, "--precisions")) {
            static const char *const names[] = {"double", "mixed", "single"};
            b->n_p = 0;
            for (int p = 0; p < 3; p++)
                if (strstr(v, names[p]))
                    b->precs[b->n_p++] = p;
            if (!b->n_p)
                return tb_error(NULL, 0, "bench %s: --precisions: double, mixed, single "
                                         "(got \"%s\")", what, v), 2;
        } else if (!strcmp(a, "--steps") || !strcmp(a, "--repeat")) {
            char *e;
            const long x = strtol(v, &e, 10);
            if (e == v || *e || x < 1 || x > 100000)
                return tb_error(NULL, 0, "bench %s: %s: 1 .. 100000 (got \"%s\")", what, a, v), 2;
            *(!strcmp(a, "--steps") ? &b->steps : &b->repeat) = (int)x;
        } else if (!strcmp(a, "--csv")) {
            b->csv = v;
        } else if (!strcmp(a, "--set")) {
            if (b->n_set == BENCH_CASE_MAX_SET)
                return tb_error(NULL, 0, "bench %s: --set: at most %d (got \"%s\")", what,
                                BENCH_CASE_MAX_SET, v), 2;
            b->sets[b->n_set++] = (char *)v;
        } else {
            return tb_error(NULL, 0, "bench %s: unknown option %s (see --help)", what, a), 2;
        }
    }
    return -1;
}

int bench_case_csv(const char *csv, const char *header, FILE **f)
{
    *f = NULL;
    if (!csv || tb_rank() != 0) /* rank 0 writes */
        return 0;
    if (!(*f = fopen(csv, "w")))
        return tb_error(csv, 0, "cannot write: %s", "check the directory"), 2;
    fprintf(*f, "%s\n", header);
    return 0;
}

int bench_case_ranks(const char *name, int n, const char *prec, const backend_times *tf,
                     double wall_f, const backend_times *ts, double wall_s, const char *units,
                     double entries, FILE *f)
{
    char key[64];
    int bad = 0;
    snprintf(key, sizeof key, "%s-force,%d,%s", name, n, prec);
    bad |= bench_rank_table(tf, wall_f, 0, units, "entries", 0.0, f, key) != 0;
    snprintf(key, sizeof key, "%s-step,%d,%s", name, n, prec);
    bad |= bench_rank_table(ts, wall_s, 1, units, "entries", entries, f, key) != 0;
    fflush(stdout);
    return bad ? -1 : 0;
}
