/* bench_species.c — the several-species variant of the benchmarks (bench_species.h): the
 * species list, the K-species system and the all-triplets experiment over K (the liquid's is a
 * loop of bench_liquid.c). */
#include <stdio.h>
#include <stdlib.h>

#include "common/check.h"
#include "solver/cli/bench_int.h"
#include "solver/cli/bench_species.h"

int bench_species_parse(const char *v, int *ks, int *nk, const char *who)
{
    *nk = 0;
    for (const char *s = v;;) {
        char *end;
        const long x = strtol(s, &end, 10);
        if (end == s || x < 1 || x > TB_TYPES_MAX || (*end && *end != ',') || *nk == TB_TYPES_MAX)
            return tb_error(NULL, 0, "%s: --species: expected species counts 1 .. %d separated by "
                                     "commas (got \"%s\")", who, TB_TYPES_MAX, v);
        ks[(*nk)++] = (int)x;
        if (!*end)
            return 0;
        s = end + 1;
    }
}

void bench_species_config(sim_config *c, int k)
{
    if (k <= 1)
        return;
    c->system.n_species = k;
    c->system.species_given = 1;
    c->potential.lj.n_pairs = 0;
    for (int t = 0; t < k; t++) {
        cfg_lj_pair *p = &c->potential.lj.pairs[c->potential.lj.n_pairs++];
        snprintf(c->system.species[t].name, sizeof c->system.species[t].name, "%c", 'A' + t);
        c->system.species[t].mass = (1.0 + 0.25 * t) * c->system.mass;
        p->t[0] = p->t[1] = t;
        p->epsilon = (1.0 - 0.05 * t) * c->potential.lj.epsilon;
        p->sigma = c->potential.lj.sigma;
        p->cutoff = c->potential.lj.cutoff;
    }
    c->potential.atm.triplets_given = 0;
}

void bench_species_state(sim_state *s, const sim_config *c)
{
    const int k = c->system.n_species > 1 ? c->system.n_species : 1;
    for (int i = 0; i < s->n; i++)
        s->type[i] = i % k;
    if (k > 1)
        sim_set_species(s, c);
    else
        s->ntypes = 1;
}

/* One row per (n, precision, K): the full force evaluation (ATM and LJ as the base config has
 * them) on the all-triplets path at the base config's map and tile, median of --repeat. */
void bench_species_experiment(bench_ctx *x, const int *ns, int n_n, int tile)
{
    const bench_opts *o = x->o;
    printf("\n== species: one full force evaluation on the %s backend at K species (every triplet "
           "counts, nu the same), map %s, tile %d; ratio = triplets/s / those of one species\n",
           x->ops->name, x->base.solver.map, tile);
    printf("%7s %-9s %7s %11s %23s %11s %7s\n", "n", "precision", "species", "median ms",
           "[min, max] ms", "triplets/s", "ratio");
    for (int in = 0; in < n_n; in++)
        for (int ip = 0; ip < o->n_prec; ip++) {
            double rate1 = 0.0;
            for (int ik = 0; ik < o->n_species; ik++) {
                const int n = ns[in], prec = o->prec[ip], k = o->species[ik];
                sim_config c = x->base;
                double warm, tmin, tmax;
                char spread[64];
                c.system.particles = n;
                c.solver.tile = tile;
                c.solver.precision = prec;
                bench_species_config(&c, k);
                const int rc = bench_solver_point(x, &c, &warm);
                if (rc != 0) {
                    x->failed += rc != TB_EXIT_USAGE;
                    printf("%7d %-9s %7d %11s\n", n, cfg_precision_name(prec), k,
                           rc == TB_EXIT_USAGE ? "refused" : "failed");
                    continue;
                }
                const double med = bench_stats(x->t, o->repeat, &tmin, &tmax);
                const double rate = bench_c3(n) / med;
                if (k == 1)
                    rate1 = rate;
                snprintf(spread, sizeof spread, "[%.4g, %.4g]", 1e3 * tmin, 1e3 * tmax);
                printf("%7d %-9s %7d %11.4g %23s %11.4g %7.3f\n", n, cfg_precision_name(prec), k,
                       1e3 * med, spread, rate, bench_species_ratio(rate, rate1));
                if (x->csv)
                    fprintf(x->csv, "# species,%d,%s,%d,%s,%d,median_s=%.9g,triplets_per_s=%.9g,"
                                    "ratio=%.6g\n", n, cfg_precision_name(prec), k,
                            c.solver.map, tile, med, rate, bench_species_ratio(rate, rate1));
                fflush(stdout);
            }
        }
}
