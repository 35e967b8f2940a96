/* bench_sw.c — `tribody bench --sw`: the cost of Stillinger-Weber silicon (issue 24) through the
 * neighbour-list path (nbr.h; gpu_sw.cu, cpu/sw_cpu.h) as N grows. A benchmark, not a test
 * (docs/performance-sw.md).
 *
 * The system: diamond silicon, m x m x m conventional cells of a = 5.431 A (n = 8 m^3, the m
 * nearest to each size asked for), periodic, under LAMMPS's Si.sw (examples/Si.sw, else
 * Debian's /usr/share/lammps/potentials/Si.sw), metal units, velocity Verlet at dt = 1 fs,
 * Maxwell-Boltzmann velocities at 2000 K from the perfect crystal, which equipartition brings
 * to about 1000 K within a few hundred fs (the final temperature is printed). The same system
 * in LAMMPS: scripts/sw-lammps-speed. A CONFIG file (or --set) overrides the potential, the
 * solver and the integrator (it must name a one-species potential.sw; the lattice stays
 * silicon's).
 *
 * Per point (n, precision): forces once (builds the lists), `warm` MD steps, `repeat` timed
 * force evaluations at fixed positions, then `steps` timed MD steps (integration and the list
 * rebuilds at their natural rate, when the skin is crossed) twice: first with the backend's
 * per-rank timers off, the wall clock alone (the headline: what a run pays; on a GPU the timers
 * record 8 events per step, ~4 % of a 0.2 ms step at 10^5 atoms), then with them on (the
 * per-rank phase table and its wall). Reported: ms per step, atom-steps
 * per second and us per step and atom (flat in N when the cost is O(N)), ms per force
 * evaluation, angles within the cutoffs per evaluation (the backend's count, when it keeps
 * one), list entries per atom, list builds over the timed steps, the temperature at the end
 * and, on a GPU, the device memory the point holds. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/check.h"
#include "config/config.h"
#include "solver/backend.h"
#include "solver/cli/bench_args.h"
#include "solver/cli/bench_int.h"
#include "solver/cli/bench_sw.h"
#include "solver/gpu/gpu.h"
#include "solver/io/init.h"
#include "solver/par/mpi.h"
#include "solver/state.h"

#define SW_A 5.431    /* silicon's lattice constant [A] */
#define SW_T0 2000.0  /* initial temperature [K]: about 1000 K once equipartitioned */
#define SW_WARM 20    /* untimed steps before the timed ones */

static const char sw_help[] =
    "usage: tribody bench --sw [CONFIG] [--n LIST] [--precisions LIST] [--steps K]\n"
    "                 [--repeat R] [--csv FILE] [--set PATH=VALUE ...] [--cpu]\n"
    "\n"
    "Times Stillinger-Weber silicon (Si.sw; diamond, a = 5.431 A, started at 2000 K from the\n"
    "perfect crystal: about 1000 K after a few hundred steps; dt 1 fs) through the neighbour\n"
    "lists for each N of --n, rounded to the nearest 8 m^3 (default 1e5,1e6,1e7 on a GPU,\n"
    "4096,32768 on the CPU): ms per MD step, atom-steps per second, us per step and atom, the\n"
    "force evaluation alone, angles per evaluation, list entries per atom, list builds, the\n"
    "final temperature and the GPU memory held.\n"
    "  --steps K       timed MD steps per point, list rebuilds included (default 300)\n"
    "  --repeat R      timed force evaluations per point (default 5)\n"
    "  --cpu           the CPU backend even when a GPU is present\n";

/* Diamond silicon of m^3 cells into s (allocated here; species and units from c). */
static int sw_state(sim_state *s, const sim_config *c, int m, double T)
{
    static const double basis[8][3] = {{0, 0, 0},          {0, .5, .5},         {.5, 0, .5},
                                       {.5, .5, 0},        {.25, .25, .25},     {.25, .75, .75},
                                       {.75, .25, .75},    {.75, .75, .25}};
    const int n = 8 * m * m * m;
    if (sim_state_alloc(s, n) != 0)
        return tb_error(NULL, 0, "bench --sw: out of host memory for n = %d", n);
    sim_set_species(s, c);
    for (int i = 0; i < n; i++) {
        const int b = i % 8, cell = i / 8;
        const int cx = cell % m, cy = cell / m % m, cz = cell / (m * m);
        const double site[3] = {cx + basis[b][0], cy + basis[b][1], cz + basis[b][2]};
        for (int x = 0; x < 3; x++)
            s->pos[3 * i + x] = SW_A * site[x];
    }
    s->box = box_cube_d(SW_A * m);
    sim_init_velocities(s, T, c->system.seed);
    return 0;
}

/* The .sw file of the default system: examples/Si.sw, else Debian's; NULL when neither. */
static const char *si_sw(void)
{
    static const char *const paths[] = {"examples/Si.sw", "/usr/share/lammps/potentials/Si.sw"};
    static char abs[4096];
    for (int k = 0; k < 2; k++)
        if (access(paths[k], R_OK) == 0) {
            if (paths[k][0] == '/' || !getcwd(abs, sizeof abs - 64))
                return paths[k];
            strcat(abs, "/");
            strcat(abs, paths[k]);
            return abs;
        }
    return NULL;
}

/* The configuration: CONFIG, or the default text (Si.sw, metal, nve, dt 1 fs), then the
 * --set overrides; 0 or an exit status (reported). */
static int sw_config(sim_config *c, const char *cfg, char **sets, int n_set)
{
    char tmp[] = "/tmp/tribody-bench-sw-XXXXXX", *all[66];
    int m = 0, rc;
    all[m++] = "system.particles=64";
    for (int k = 0; k < n_set; k++)
        all[m++] = sets[k];
    if (cfg) {
        rc = cfg_load(c, cfg, m, all);
    } else {
        const char *sw = si_sw();
        const int fd = mkstemp(tmp);
        FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
        if (!sw)
            return tb_error(NULL, 0, "bench --sw: no Si.sw (examples/Si.sw, or Debian's "
                                     "lammps-data); give a CONFIG naming potential.sw"), 2;
        if (!f)
            return tb_error(tmp, 0, "bench --sw: cannot write the default config"), 2;
        fprintf(f, "units = \"metal\";\nsystem = { species = ( { name = \"Si\"; mass = 28.0855; } "
                   "); boundary = \"periodic\"; box = 20.0; };\npotential = { sw = { file = "
                   "\"%s\"; }; };\nintegrator = { type = \"nve\"; dt = 0.001; };\n", sw);
        fclose(f);
        rc = cfg_load(c, tmp, m, all);
        unlink(tmp);
        snprintf(c->path, sizeof c->path, "bench --sw");
    }
    if (rc != 0)
        return 2;
    if (!c->potential.sw.enabled || c->system.n_species > 1)
        return tb_error(c->path, 0, "bench --sw: the CONFIG must name potential.sw with one "
                                    "species (the lattice is silicon's)"), 2;
    c->system.boundary = CFG_BOUNDARY_PERIODIC;
    return 0;
}

typedef struct sw_row {
    int n;
    const char *prec, *backend;
    double step_ms, force_ms, hits, entries, temp, gib;
    long long builds;
    backend_times tf, ts; /* this rank's timers over the force evaluations, over the steps */
    double wall_f, wall_s, wall_t; /* seconds: the evaluations, the steps, the timed steps */
} sw_row;

/* One point; 0, or nonzero (reported). */
static int sw_point(const sim_config *base, const backend_ops *ops, int m, int prec, int steps,
                    int repeat, sw_row *row)
{
    sim_config c = *base;
    sim_state s;
    backend *b = NULL;
    backend_info in, in2, in3;
    int rc;
    const int n = 8 * m * m * m;
    const int gpu = ops == &gpu_backend_ops;
    double used0 = gpu ? gpu_mem_used() : 0.0;
    c.system.particles = n;
    c.solver.precision = prec;
    if ((rc = sw_state(&s, &c, m, SW_T0)) != 0)
        return rc;
    c.system.box = s.box.l[0];
    if ((rc = ops->create(&b, &c, &s)) != 0 || (rc = ops->compute(b)) != 0 ||
        (rc = ops->advance(b, SW_WARM)) != 0 || (rc = ops->info(b, &in, 1)) != 0 ||
        (rc = ops->compute(b)) != 0 || (rc = ops->info(b, &in, BACKEND_TIMERS)) != 0)
        goto done;
    double t0 = bench_now_s();
    for (int r = 0; r < repeat && rc == 0; r++)
        rc = ops->compute(b);
    row->wall_f = bench_now_s() - t0;
    if (rc == 0 && (rc = ops->info(b, &in2, BACKEND_TIMERS)) == 0)
        row->tf = in2.times;
    /* the steps without the timers (the headline), then as many with them (the phase table) */
    if (rc == 0)
        rc = ops->info(b, &in2, BACKEND_TIMERS_OFF);
    t0 = bench_now_s();
    if (rc == 0)
        rc = ops->advance(b, steps);
    row->wall_s = bench_now_s() - t0;
    if (rc == 0 && (rc = ops->info(b, &in3, BACKEND_TIMERS)) == 0) {
        t0 = bench_now_s();
        rc = ops->advance(b, steps);
        row->wall_t = bench_now_s() - t0;
    }
    if (rc == 0 && (rc = ops->info(b, &in2, 0)) == 0)
        row->ts = in2.times;
    row->gib = gpu ? (gpu_mem_used() - used0) / (1024.0 * 1024.0 * 1024.0) : 0.0;
    if (rc == 0)
        rc = ops->fetch(b, &s);
    if (rc == 0) {
        row->n = n;
        row->prec = cfg_precision_name(prec);
        row->backend = ops->name;
        row->step_ms = 1e3 * row->wall_s / steps;
        row->force_ms = 1e3 * row->wall_f / repeat;
        row->hits = (double)in.hits;
        row->entries = (double)in2.entries;
        row->builds = in3.builds - in.builds; /* over the headline's steps */
        row->temp = sim_temperature(&s);
    }
done:
    ops->destroy(b);
    sim_state_free(&s);
    return rc;
}

int bench_sw(int argc, char **argv)
{
    static sim_config c;
    int ms[BENCH_CASE_MAX_N], n_n = 0;
    bench_case_args g = {.steps = 300, .repeat = 5};
    const bench_case_spec spec = {"--sw", sw_help, 64, 2e7, "64 .. 2e7", NULL, NULL};
    const int parsed = bench_case_parse(&g, argc, argv, &spec);
    if (parsed >= 0)
        return parsed;
    for (int k = 0; k < g.n_n; k++)
        ms[n_n++] = (int)lround(cbrt(g.n[k] / 8.0)); /* the nearest 8 m^3 */
    int *precs = g.precs, n_p = g.n_p, steps = g.steps, repeat = g.repeat, cpu = g.cpu;
    const char *cfg = g.cfg, *csv = g.csv;
    int rc = sw_config(&c, cfg, g.sets, g.n_set);
    if (rc != 0)
        return rc;
    const backend_ops *ops = &cpu_backend_ops;
    if (!cpu && gpu_count(NULL) > 0)
        ops = &gpu_backend_ops;
    if (!n_n) {
        static const int gpu_def[] = {23, 50, 108}, cpu_def[] = {8, 16}; /* 1e5, 1e6, 1e7 */
        n_n = ops == &cpu_backend_ops ? 2 : 3;
        memcpy(ms, ops == &cpu_backend_ops ? cpu_def : gpu_def, (size_t)n_n * sizeof *ms);
    }
    if (!n_p)
        precs[n_p++] = c.solver.precision;
    FILE *f;
    if (bench_case_csv(csv, "n,precision,backend,step_ms,atom_steps_per_s,us_per_atom_step,"
                            "force_ms,angles,entries_per_atom,builds,steps,temperature,gpu_gib",
                       &f) != 0)
        return 2;
    printf("== sw: diamond Si (a %.3f A), %s, skin %.6g A, dt %.4g ps, %g K at the start; "
           "backend %s (%s)%s\n", SW_A, c.potential.sw.file, c.solver.skin, c.integrator.dt,
           SW_T0, ops->name, ops == &gpu_backend_ops ? gpu_build_info() : "OpenMP",
           c.solver.deterministic ? ", deterministic" : "");
    printf("%9s %-7s %10s %13s %12s %10s %12s %9s %8s %7s %8s\n", "n", "prec", "ms/step",
           "atom-steps/s", "us/atom/step", "ms/force", "angles/eval", "list/atom", "builds",
           "T end", "GPU GiB");
    int failed = 0;
    for (int q = 0; q < n_p * n_n; q++) {
        const int p = q / n_n, k = q % n_n;
        sw_row r;
        memset(&r, 0, sizeof r);
        if (ms[k] < 2) {
            tb_error(NULL, 0, "bench --sw: n = %d is below 64 atoms", 8 * ms[k] * ms[k] * ms[k]);
            failed = 1;
            continue;
        }
        if (sw_point(&c, ops, ms[k], precs[p], steps, repeat, &r) != 0) {
            failed = 1;
            continue;
        }
        const double rate = r.n / (1e-3 * r.step_ms), us = 1e3 * r.step_ms / r.n;
        printf("%9d %-7s %10.4f %13.4g %12.6f %10.4f %12.4g %9.1f %4lld/%-3d %7.0f %8.3f\n", r.n,
               r.prec, r.step_ms, rate, us, r.force_ms, r.hits, r.entries / r.n, r.builds, steps,
               r.temp, r.gib);
        if (f)
            fprintf(f, "%d,%s,%s,%.6g,%.6g,%.6g,%.6g,%.6g,%.4g,%lld,%d,%.1f,%.4f\n", r.n, r.prec,
                    r.backend, r.step_ms, rate, us, r.force_ms, r.hits, r.entries / r.n, r.builds,
                    steps, r.temp, r.gib);
        fflush(stdout);
        if (bench_case_ranks("sw", r.n, r.prec, &r.tf, r.wall_f, &r.ts, r.wall_t, "centres",
                             r.entries, f) != 0)
            failed = 1;
    }
    if (f)
        fclose(f);
    return failed ? 1 : 0;
}
