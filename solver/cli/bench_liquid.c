/* bench_liquid.c — `tribody bench --liquid`: the cost of a periodic LJ + ATM liquid through the
 * neighbour-list path (nbr.h) as N grows. A benchmark, not a test (docs/performance.md).
 *
 * The system (issue #9's reference case, examples/liquid.cfg): number density 0.8 sigma^-3,
 * T = 1.0 epsilon/k_B, LJ cut at 2.5 sigma (shifted), ATM with nu = 0.0703 (argon) cut at
 * 4.5 sigma, skin 0.3 sigma, dt = 0.002 tau. The state: N sites drawn at random from an fcc
 * lattice slightly denser than 0.8, scaled to the box L = (N/0.8)^(1/3), jittered by +-0.05
 * sigma, Maxwell–Boltzmann velocities at T; with --state random, examples/liquid.cfg's start
 * instead (sim_init: uniform random positions at least 0.9 sigma apart, placed cell by cell in
 * parallel, T = 1.0, in the box L = (N/0.8)^(1/3); a CONFIG's system.init where one is given).
 * Settings of a CONFIG file and --set override the potential and solver (system.particles and
 * the initial state come from --n).
 *
 * Per point (n, precision): forces once (builds the lists), `warm` MD steps, then `repeat`
 * timed force evaluations at fixed positions (the first counts the triplets within the
 * cutoffs and the entry-pair slots launched), then `steps` timed MD steps (velocity Verlet,
 * list rebuilds included when the skin is crossed). Times: the monotonic clock around calls
 * that synchronize (compute, advance). Reported: ms per step, us per step and atom (flat in N
 * when the cost is O(N)), ms per force evaluation, triplets within the cutoffs per evaluation
 * and per second, the fraction of the launched slots that hold one, list builds. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "config/config.h"
#include "solver/backend.h"
#include "solver/cli/bench_liquid.h"
#include "solver/cli/bench_args.h"
#include "solver/cli/bench_int.h"
#include "solver/cli/bench_species.h"
#include "solver/par/mpi.h"
#include "common/check.h"
#include "solver/gpu/gpu.h"
#include "solver/io/init.h"
#include "solver/physics/nbr.h"
#include "solver/state.h"

static const char liquid_help[] =
    "usage: tribody bench --liquid [CONFIG] [--n LIST] [--precisions LIST] [--steps K]\n"
    "                     [--repeat R] [--csv FILE] [--set PATH=VALUE ...] [--cpu] [--species LIST]\n"
    "                     [--state fcc|random]\n"
    "\n"
    "Times a periodic LJ + ATM liquid (rho 0.8, T 1.0, LJ cutoff 2.5, ATM cutoff 4.5) through\n"
    "the neighbour-list path for each N of --n (default 32768,100000,1000000 on a GPU, 1000,4000\n"
    "on the CPU): ms per MD step, us per step and atom, the force evaluation alone, triplets\n"
    "within the cutoff per second and the fraction of launched entry-pair slots holding one.\n"
    "  --steps K       timed MD steps per point (default 20)\n"
    "  --repeat R      timed force evaluations per point (default 5)\n"
    "  --cpu           the CPU backend even when a GPU is present\n"
    "  --species LIST  the liquid as K species of the same cost for each K of LIST (1 .. 8, e.g.\n"
    "                  1,2,4; particle i of species i mod K, epsilon and mass per species, nu\n"
    "                  for every triplet): a row per K, with triplets/s over one species'\n"
    "  --state S       the initial state: fcc (default: N random sites of an fcc lattice, jittered)\n"
    "                  or random (examples/liquid.cfg's start: uniform, min_distance 0.9 sigma,\n"
    "                  placed in parallel; a CONFIG's system.init instead)\n"
    "  --alternatives  also count, on the host, the slots the rejected alternative would launch:\n"
    "                  tile triplets of rho = 8, 16, 32 particles in Morton order whose bounding\n"
    "                  boxes are pairwise within rc + skin (docs/gpu.md, cutoff systems)\n";

/* The liquid of n particles at density 0.8 into s (allocated here). */
static int liquid_state(sim_state *s, int n, double T, unsigned long seed)
{
    const double rho = 0.8, L = cbrt(n / rho);
    int k = (int)ceil(cbrt(n / 4.0));
    const long long sites = 4LL * k * k * k;
    static const double basis[4][3] = {{0, 0, 0}, {0.5, 0.5, 0}, {0.5, 0, 0.5}, {0, 0.5, 0.5}};
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    int *pick = malloc((size_t)sites * sizeof *pick);
    if (!r || !pick || sim_state_alloc(s, n) != 0) {
        gsl_rng_free(r);
        free(pick);
        return tb_error(NULL, 0, "bench --liquid: out of host memory for n = %d", n);
    }
    gsl_rng_set(r, seed);
    for (long long q = 0; q < sites; q++)
        pick[q] = (int)q;
    for (long long q = 0; q < n; q++) { /* a random n-subset of the sites */
        const long long u = q + (long long)gsl_rng_uniform_int(r, (unsigned long)(sites - q));
        const int t = pick[q];
        pick[q] = pick[u];
        pick[u] = t;
    }
    const double a = L / k;
    const tb_box_d box = box_cube_d(L);
    for (int i = 0; i < n; i++) {
        const int q = pick[i], b = q % 4, c = q / 4;
        const int cx = c % k, cy = c / k % k, cz = c / (k * k);
        const double site[3] = {cx + basis[b][0], cy + basis[b][1], cz + basis[b][2]};
        for (int x = 0; x < 3; x++)
            s->pos[3 * i + x] = a * site[x] + 0.1 * (gsl_rng_uniform(r) - 0.5);
        box_wrap_d(&box, s->pos + 3 * i);
    }
    s->box = box_cube_d(L);
    s->mass[0] = 1.0;
    sim_init_velocities(s, T, seed);
    gsl_rng_free(r);
    free(pick);
    return 0;
}

static void liquid_config(sim_config *c)
{
    cfg_defaults(c);
    snprintf(c->path, sizeof c->path, "bench --liquid");
    c->system.boundary = CFG_BOUNDARY_PERIODIC;
    c->potential.atm.nu = 0.0703;
    c->potential.atm.cutoff = 4.5;
    c->potential.lj.enabled = 1;
    c->potential.lj.epsilon = 1.0;
    c->potential.lj.sigma = 1.0;
    c->potential.lj.cutoff = 2.5;
    c->potential.lj.shift = 1;
    c->integrator.dt = 0.002;
    c->solver.cull = 1;
    c->solver.skin = 0.3;
    /* --state random: examples/liquid.cfg's start (a CONFIG brings its own) */
    c->system.init.type = CFG_INIT_RANDOM;
    c->system.init.min_distance = 0.9;
    c->system.init.placement = CFG_PLACE_PARALLEL;
    c->system.init.temperature = 1.0;
}

/* ---- the alternative the lists were chosen over ------------------------------------------ */

/* Interleaves the low 10 bits of x, y, z (Morton order). */
static unsigned long long morton3(unsigned x, unsigned y, unsigned z)
{
    unsigned long long m = 0;
    for (int b = 0; b < 10; b++)
        m |= ((unsigned long long)(x >> b & 1) << (3 * b)) |
             ((unsigned long long)(y >> b & 1) << (3 * b + 1)) |
             ((unsigned long long)(z >> b & 1) << (3 * b + 2));
    return m;
}

typedef struct mkey {
    unsigned long long key;
    int i;
} mkey;

static int cmp_mkey(const void *a, const void *b)
{
    const unsigned long long x = ((const mkey *)a)->key, y = ((const mkey *)b)->key;
    return (x > y) - (x < y);
}

/* Tile triplets I <= J <= K of rho particles consecutive in Morton order (1024 cells a side),
 * launched when the three tiles' bounding boxes (minimum image) are pairwise within rc + skin:
 * the triplet slots they hold (the faces counted exactly, as a kernel masks them). This is the
 * enumeration issue 9 proposed, either through per-anchor triangles or a compacted table. */
static double tile_alternative(const sim_state *s, int rho, double R)
{
    const int n = s->n, nb = (n + rho - 1) / rho;
    const double L = s->box.l[0];
    const tb_box_d box = s->box;
    mkey *k = malloc((size_t)n * sizeof *k);
    double(*lo)[3] = malloc((size_t)nb * sizeof *lo), (*hi)[3] = malloc((size_t)nb * sizeof *hi);
    int *cnt = calloc((size_t)nb, sizeof *cnt), **nl = calloc((size_t)nb, sizeof *nl);
    unsigned char *adj = calloc((size_t)nb * (size_t)nb, 1);
    double slots = -1.0;
    if (!k || !lo || !hi || !cnt || !nl || !adj)
        goto done;
    for (int i = 0; i < n; i++) {
        unsigned c[3];
        for (int d = 0; d < 3; d++)
            c[d] = (unsigned)(s->pos[3 * i + d] / L * 1024.0) & 1023u;
        k[i].key = morton3(c[0], c[1], c[2]);
        k[i].i = i;
    }
    qsort(k, (size_t)n, sizeof *k, cmp_mkey);
    for (int t = 0; t < nb; t++) { /* boxes, unwrapped around each tile's first particle */
        const double *r0 = s->pos + 3 * k[t * rho].i;
        for (int d = 0; d < 3; d++) {
            lo[t][d] = 1e300;
            hi[t][d] = -1e300;
        }
        for (int p = t * rho; p < (t + 1) * rho && p < n; p++)
            {
                const double *x = s->pos + 3 * k[p].i;
                double e[3] = {x[0] - r0[0], x[1] - r0[1], x[2] - r0[2]};
                box_min_image_d(&box, e);
                for (int d = 0; d < 3; d++) {
                    lo[t][d] = fmin(lo[t][d], r0[d] + e[d]);
                    hi[t][d] = fmax(hi[t][d], r0[d] + e[d]);
                }
            }
    }
    for (int a = 0; a < nb; a++) {
        nl[a] = malloc((size_t)nb * sizeof **nl);
        if (!nl[a])
            goto done;
        for (int b = a; b < nb; b++) {
            double g2 = 0.0, c[3];
            for (int d = 0; d < 3; d++)
                c[d] = 0.5 * (lo[b][d] + hi[b][d]) - 0.5 * (lo[a][d] + hi[a][d]);
            box_min_image_d(&box, c);
            for (int d = 0; d < 3; d++) {
                const double dc = fabs(c[d]);
                const double g = dc - 0.5 * (hi[a][d] - lo[a][d]) - 0.5 * (hi[b][d] - lo[b][d]);
                g2 += g > 0 ? g * g : 0.0;
            }
            if (g2 <= R * R) {
                nl[a][cnt[a]++] = b;
                adj[(size_t)a * nb + b] = adj[(size_t)b * nb + a] = 1;
            }
        }
    }
    slots = 0.0;
    for (int a = 0; a < nb; a++)
        for (int p = 0; p < cnt[a]; p++)
            for (int q = p; q < cnt[a]; q++) {
                const int J = nl[a][p], K = nl[a][q];
                if (!adj[(size_t)J * nb + K])
                    continue;
                slots += a < J && J < K ? (double)rho * rho * rho
                         : a == J && J == K ? rho * (rho - 1.0) * (rho - 2.0) / 6.0
                                            : rho * rho * (rho - 1.0) / 2.0;
            }
done:
    if (nl)
        for (int a = 0; a < nb; a++)
            free(nl[a]);
    free(nl);
    free(k);
    free(lo);
    free(hi);
    free(cnt);
    free(adj);
    return slots;
}

typedef struct liquid_row {
    int n;
    const char *prec, *backend;
    double step_ms, force_ms, hits, slots, entries;
    long long builds;
    double alt[3]; /* tile-triplet slots at rho = 8, 16, 32 (0: not measured) */
    backend_times tf, ts; /* this rank's timers over the force evaluations, over the steps */
    double wall_f, wall_s; /* and its seconds over them */
} liquid_row;

/* One point; 0, or nonzero (reported). */
static int liquid_point(const sim_config *base, const backend_ops *ops, int n, int prec,
                        int steps, int repeat, int alt, int random, liquid_row *row)
{
    sim_config c = *base;
    sim_state s;
    backend *b = NULL;
    backend_info in, in2;
    int rc;
    c.system.particles = n;
    c.solver.precision = prec;
    if (random) { /* system.init: liquid_config's (liquid.cfg's values) or a CONFIG's */
        c.system.box = cbrt(n / 0.8);
        c.system.init.type = CFG_INIT_RANDOM;
        memset(&s, 0, sizeof s);
        if ((rc = sim_init(&s, &c)) != 0)
            return rc;
    } else if ((rc = liquid_state(&s, n, 1.0, c.system.seed)) != 0)
        return rc;
    bench_species_state(&s, &c);
    c.system.box = s.box.l[0];
    if (c.potential.atm.cutoff > 0.5 * c.system.box || c.potential.lj.cutoff > 0.5 * c.system.box) {
        sim_state_free(&s);
        return tb_error(NULL, 0, "bench --liquid: n = %d gives L/2 = %.3g, below a cutoff", n,
                        0.5 * c.system.box);
    }
    if ((rc = ops->create(&b, &c, &s)) != 0 || (rc = ops->compute(b)) != 0 ||
        (rc = ops->advance(b, 5)) != 0 || (rc = ops->info(b, &in, 1)) != 0 ||
        (rc = ops->compute(b)) != 0 || (rc = ops->info(b, &in, BACKEND_TIMERS)) != 0)
        goto done;
    double t0 = bench_now_s();
    for (int r = 0; r < repeat && rc == 0; r++)
        rc = ops->compute(b);
    row->wall_f = bench_now_s() - t0;
    const double force = row->wall_f / repeat;
    if (rc == 0 && (rc = ops->info(b, &in2, BACKEND_TIMERS)) == 0)
        row->tf = in2.times; /* the timers over the evaluations; zeroed for the steps */
    t0 = bench_now_s();
    if (rc == 0)
        rc = ops->advance(b, steps);
    row->wall_s = bench_now_s() - t0;
    const double step = row->wall_s / steps;
    if (rc == 0 && (rc = ops->info(b, &in2, 0)) == 0)
        row->ts = in2.times;
    if (rc == 0 && alt) {
        const double R = fmax(c.potential.atm.cutoff, c.potential.lj.cutoff) + c.solver.skin;
        for (int q = 0; q < 3; q++)
            row->alt[q] = tile_alternative(&s, 8 << q, R);
    }
    if (rc == 0) {
        row->n = n;
        row->prec = cfg_precision_name(prec);
        row->backend = ops->name;
        row->step_ms = 1e3 * step;
        row->force_ms = 1e3 * force;
        row->hits = (double)in.hits;
        row->slots = (double)in.slots;
        row->entries = (double)in2.entries;
        row->builds = in2.builds - in.builds;
    }
done:
    ops->destroy(b);
    sim_state_free(&s);
    return rc;
}

/* bench --liquid's own options: --alternatives, --species LIST */
typedef struct liquid_opts {
    int alt, listed, n_species, species[TB_TYPES_MAX], random;
} liquid_opts;

static int liquid_opt(const char *a, const char *v, void *ctx)
{
    liquid_opts *o = ctx;
    if (!strcmp(a, "--alternatives"))
        return o->alt = 1;
    if (!strcmp(a, "--state")) {
        if (!v || (strcmp(v, "fcc") && strcmp(v, "random")))
            return tb_error(NULL, 0, "bench --liquid: --state takes fcc or random, not %s",
                            v ? v : "nothing"), -1;
        o->random = !strcmp(v, "random");
        return 2;
    }
    if (strcmp(a, "--species"))
        return 0;
    if (!v)
        return tb_error(NULL, 0, "bench --liquid: --species needs a value"), -1;
    if (bench_species_parse(v, o->species, &o->n_species, "bench --liquid") != 0)
        return -1;
    o->listed = 1;
    return 2;
}

int bench_liquid(int argc, char **argv)
{
    sim_config c;
    int ns[BENCH_CASE_MAX_N], n_n = 0;
    liquid_opts lo = {.n_species = 1, .species = {1}};
    bench_case_args g = {.steps = 20, .repeat = 5};
    const bench_case_spec spec = {"--liquid", liquid_help, 100, 1e7, "100 .. 1e7", liquid_opt, &lo};
    const int parsed = bench_case_parse(&g, argc, argv, &spec);
    if (parsed >= 0)
        return parsed;
    for (int k = 0; k < g.n_n; k++)
        ns[n_n++] = (int)lround(g.n[k]);
    int *precs = g.precs, n_p = g.n_p, steps = g.steps, repeat = g.repeat, cpu = g.cpu;
    int n_set = g.n_set, alt = lo.alt, n_species = lo.n_species, listed = lo.listed;
    int *species = lo.species;
    const char *cfg = g.cfg, *csv = g.csv;
    char **sets = g.sets;
    liquid_config(&c);
    if (cfg || n_set) {
        /* a file or overrides: loaded and checked like `run` (particles given by --n) */
        char *all[66];
        int m = 0;
        all[m++] = "system.particles=1000";
        for (int k = 0; k < n_set; k++)
            all[m++] = sets[k];
        if (cfg_load(&c, cfg ? cfg : "/dev/null", m, all) != 0)
            return 2;
        c.system.boundary = CFG_BOUNDARY_PERIODIC;
    }
    const backend_ops *ops = &cpu_backend_ops;
    if (!cpu && gpu_count(NULL) > 0)
        ops = &gpu_backend_ops;
    if (!n_n) {
        static const int gpu_def[] = {32768, 100000, 1000000}, cpu_def[] = {1000, 4000};
        const int *d = ops == &cpu_backend_ops ? cpu_def : gpu_def;
        n_n = ops == &cpu_backend_ops ? 2 : 3;
        memcpy(ns, d, (size_t)n_n * sizeof *ns);
    }
    if (!n_p)
        precs[n_p++] = c.solver.precision;
    FILE *f;
    if (bench_case_csv(csv, "n,precision,backend,step_ms,us_per_atom_step,force_ms,triplets,"
                            "triplets_per_s,fraction,entries_per_atom,builds,steps",
                       &f) != 0)
        return 2;
    printf("== liquid: rho 0.8, T 1.0, LJ rc %.2f, ATM rc %.2f (nu %.4g), skin %.2f, dt %.4g; "
           "%s start; backend %s (%s)\n", c.potential.lj.cutoff, c.potential.atm.cutoff,
           c.potential.atm.nu, c.solver.skin, c.integrator.dt,
           lo.random ? "random" : "fcc sites", ops->name,
           ops == &gpu_backend_ops ? gpu_build_info() : "OpenMP");
    printf("%9s %-7s %10s %12s %10s %14s %12s %9s %9s %7s\n", "n", "prec", "ms/step",
           "us/atom/step", "ms/force", "triplets/eval", "triplets/s", "in slots", "list/atom",
           "builds");
    int failed = 0;
    double rate1 = 0.0; /* one species' triplets/s at this (precision, n) */
    for (int q = 0; q < n_p * n_n * n_species; q++) { /* precision, n, then species */
        const int p = q / (n_n * n_species), k = q / n_species % n_n, ik = q % n_species;
        liquid_row r;
        sim_config ck = c;
        bench_species_config(&ck, species[ik]);
        memset(&r, 0, sizeof r);
        if (ik == 0)
            rate1 = 0.0;
        if (liquid_point(&ck, ops, ns[k], precs[p], steps, repeat, alt && p == 0 && ik == 0,
                         lo.random, &r) != 0) {
            failed = 1;
            continue;
        }
        const double us = 1e3 * r.step_ms / r.n, rate = r.hits / (1e-3 * r.force_ms);
        if (species[ik] == 1)
            rate1 = rate;
        printf("%9d %-7s %10.3f %12.4f %10.3f %14.4g %12.4g %8.2f%% %9.1f %4lld/%d\n", r.n,
               r.prec, r.step_ms, us, r.force_ms, r.hits, rate,
               r.slots > 0 ? 100.0 * r.hits / r.slots : 0.0, r.entries / r.n, r.builds, steps);
        if (listed)
            printf("%9s species %d: %.4g triplets/s, %.3f of one species'\n", "", species[ik],
                   rate, bench_species_ratio(rate, rate1));
        if (r.alt[0] > 0)
            printf("          alternative, tile triplets of rho particles in Morton order, boxes "
                   "within rc + skin: triplets in slots rho 8: %.2f%%, rho 16: %.2f%%, rho 32: "
                   "%.2f%% (lists: %.2f%%)\n", 100.0 * r.hits / r.alt[0], 100.0 * r.hits / r.alt[1],
                   100.0 * r.hits / r.alt[2], r.slots > 0 ? 100.0 * r.hits / r.slots : 0.0);
        fflush(stdout);
        if (f)
            fprintf(f, "%d,%s,%s,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.4g,%lld,%d\n", r.n, r.prec,
                    r.backend, r.step_ms, us, r.force_ms, r.hits, rate,
                    r.slots > 0 ? r.hits / r.slots : 0.0, r.entries / r.n, r.builds, steps);
        /* per rank: the force evaluations at fixed positions, then the MD steps */
        if (bench_case_ranks("liquid", r.n, r.prec, &r.tf, r.wall_f, &r.ts, r.wall_s, "anchors",
                             r.entries, f) != 0)
            failed = 1;
    }
    if (f)
        fclose(f);
    return failed ? 1 : 0;
}
