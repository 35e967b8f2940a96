/* run.c — `tribody run`: integrate, write thermo, trajectory and checkpoints, resume.
 *
 * Order of work, so that bad input never writes or overwrites a file: read and check the
 * configuration, build the initial state (or read the checkpoint), set up the backend;
 * only then back up and open the outputs. Outputs come at step 0 and at multiples of
 * their intervals; a checkpoint also at the end and on SIGINT/SIGTERM. A checkpoint records
 * the sizes of the thermo and trajectory files, and a restart truncates them back to that
 * point before appending, so a resumed run writes exactly what an uninterrupted one would. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../config/config.h"
#include "args.h"
#include "backend.h"
#include "check.h"
#include "checkpoint.h"
#include "cli.h"
#include "init.h"
#include "integrate.h"
#include "mpi.h"
#include "output.h"
#include "xyz.h"

static const char run_help[] =
    "usage: tribody run CONFIG [--set PATH=VALUE ...] [--restart FILE]\n"
    "\n"
    "Integrates the system of CONFIG (a libconfig file, see docs/config.md) for\n"
    "integrator.steps steps with integrator.type: nve (velocity Verlet), langevin (BAOAB)\n"
    "or nose-hoover (a Nose-Hoover chain), writing:\n"
    "  output.thermo      CSV: step,time,kinetic,pair,triplet,total,drift,temperature,\n"
    "                     virial,pressure,pxx,pyy,pzz (periodic only),conserved\n"
    "  output.trajectory  extended XYZ frames (ASE, OVITO)\n"
    "  output.checkpoint  exact binary state, also at the end and on Ctrl-C / SIGTERM\n"
    "Existing outputs are kept as NAME.~1~, NAME.~2~, ... never overwritten.\n"
    "\n"
    "options:\n"
    "  --set PATH=VALUE   override a setting, checked like the file (e.g. --set solver.map=bb)\n"
    "  --restart FILE     continue from a checkpoint up to integrator.steps; the thermo and\n"
    "                     trajectory files are continued from the checkpoint's step\n"
    "  -h, --help         this help\n"
    "\n"
    "Units are reduced Lennard-Jones units (sigma, epsilon, m, tau). A progress line is shown\n"
    "on stderr when it is a terminal. Exit status: 0 done, 1 runtime failure or interrupted\n"
    "(state saved), 2 bad usage, config or input.\n";

static volatile sig_atomic_t stop_signal = 0;

/* First SIGINT/SIGTERM: finish the step, save, exit. Second: die at once. */
static void on_signal(int sig)
{
    if (stop_signal) {
        signal(sig, SIG_DFL);
        raise(sig);
    }
    stop_signal = sig;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct run_ctx {
    sim_config cfg;
    cli_args args;
    sim_state s;
    const backend_ops *ops;
    backend *b;
    integ *g;          /* the integrator (integrate.h) */
    FILE *thermo, *traj;
    int progress;      /* stderr is a terminal */
    double t0;         /* wall clock at the start of stepping */
    long step0;        /* step at the start of stepping */
    double last_shown; /* wall clock of the last progress line */
} run_ctx;

/* Triplets i<j<k of n particles, as a double. */
static double n_triplets(int n)
{
    return (double)n * (n - 1) * (n - 2) / 6.0;
}

static long long file_bytes(FILE *f)
{
    if (!f)
        return -1;
    fflush(f);
    return (long long)ftell(f);
}

/* Opens an output to continue a restarted run: truncated back to `bytes` (its size at the
 * checkpoint) and appended to. A missing or shorter file is started anew (with header). */
static FILE *reopen_output(const char *path, long long bytes, int *fresh)
{
    struct stat st;
    FILE *f;
    *fresh = 0;
    if (bytes >= 0 && stat(path, &st) == 0 && (long long)st.st_size >= bytes) {
        if (truncate(path, (off_t)bytes) != 0) {
            tb_error(path, 0, "cannot truncate to the checkpoint's %lld bytes: %s", bytes,
                     strerror(errno));
            return NULL;
        }
        f = fopen(path, "a");
        if (!f)
            tb_error(path, 0, "cannot append: %s", strerror(errno));
        return f;
    }
    if (bytes >= 0)
        tb_notice("%s is missing or shorter than at the checkpoint: starting it anew", path);
    *fresh = 1;
    return out_create(path);
}

static int open_outputs(run_ctx *r, const ckpt_extra *x)
{
    const sim_config *c = &r->cfg;
    int fresh = 1;
    if (tb_rank() != 0)
        return 0; /* rank 0 alone writes files */
    if (c->output.thermo[0]) {
        r->thermo = x ? reopen_output(c->output.thermo, x->thermo_bytes, &fresh)
                      : out_create(c->output.thermo);
        if (!r->thermo || (fresh && thermo_header(r->thermo, c->output.thermo) != 0))
            return -1;
    }
    if (c->output.trajectory[0]) {
        r->traj = x ? reopen_output(c->output.trajectory, x->traj_bytes, &fresh)
                    : out_create(c->output.trajectory);
        if (!r->traj)
            return -1;
    }
    /* A fresh run must not overwrite an earlier run's checkpoint. */
    if (!x && c->output.checkpoint[0] && out_backup(c->output.checkpoint) != 0)
        return -1;
    return 0;
}

static int save_checkpoint(run_ctx *r, const char *path)
{
    ckpt_extra x;
    int rc;
    if (tb_rank() != 0)
        return 0; /* rank 0 alone writes */
    x.thermo_bytes = file_bytes(r->thermo);
    x.traj_bytes = file_bytes(r->traj);
    x.dt = r->cfg.integrator.dt;
    if (integ_save(r->g, &x.thermostat, &x.thermostat_len) != 0)
        return -1;
    rc = ckpt_write(path, &r->s, &x);
    free(x.thermostat);
    return rc;
}

static int write_outputs(run_ctx *r, int thermo, int traj)
{
    const sim_config *c = &r->cfg;
    char extra[128];
    if (thermo && r->thermo && thermo_row(r->thermo, c->output.thermo, &r->s) != 0)
        return -1;
    if (traj && r->traj) {
        snprintf(extra, sizeof extra, "kinetic=%.17g", sim_kinetic(&r->s));
        if (xyz_write_frame(r->traj, &r->s, c->output.forces, extra) != 0)
            return -1;
    }
    return 0;
}

static void show_progress(run_ctx *r, int final)
{
    const double t = now_seconds(), done = (double)(r->s.step - r->step0);
    const double todo = (double)(r->cfg.integrator.steps - r->s.step);
    const double el = t - r->t0;
    if (!r->progress || (!final && t - r->last_shown < 0.25))
        return;
    r->last_shown = t;
    const double eta = done > 0 ? el / done * todo : 0.0;
    fprintf(stderr, "\rstep %ld/%ld  %5.1f%%  ETA %d:%02d  %.3g triplets/s   ", r->s.step,
            r->cfg.integrator.steps, 100.0 * (double)r->s.step / (double)r->cfg.integrator.steps,
            (int)(eta / 60), (int)fmod(eta, 60.0), el > 0 ? done * n_triplets(r->s.n) / el : 0.0);
    if (final)
        fputc('\n', stderr);
}

static int is_multiple(long step, int every)
{
    return every > 0 && step % every == 0;
}

/* Steps until the next output event (or the end). */
static long steps_to_event(const run_ctx *r)
{
    const sim_config *c = &r->cfg;
    const long step = r->s.step;
    long next = c->integrator.steps;
    const int every[3] = {c->output.thermo[0] ? c->output.thermo_every : 0,
                          c->output.trajectory[0] ? c->output.trajectory_every : 0,
                          c->output.checkpoint[0] ? c->output.checkpoint_every : 0};
    for (int i = 0; i < 3; i++)
        if (every[i] > 0) {
            const long e = (step / every[i] + 1) * every[i];
            if (e < next)
                next = e;
        }
    return next - step;
}

/* The stepping loop: chunks between output events, at most ~0.5 s each so the progress
 * line and Ctrl-C stay responsive. */
static int integrate(run_ctx *r)
{
    const sim_config *c = &r->cfg;
    double sec_per_step = 0.0;
    r->t0 = now_seconds();
    r->step0 = r->s.step;
    while (r->s.step < c->integrator.steps) {
        long chunk = steps_to_event(r);
        if (sec_per_step > 0 && chunk > 1) {
            const long cap = (long)(0.5 / sec_per_step) + 1;
            if (cap < chunk)
                chunk = cap;
        }
        const double t = now_seconds();
        if (integ_advance(r->g, r->ops, r->b, r->s.step, chunk) != 0)
            return -1;
        r->s.e_bath = integ_bath(r->g);
        /* ranks take the same chunks and stop at the same step: they decide together */
        sec_per_step = tb_mpi_max_d((now_seconds() - t) / (double)chunk);
        if (tb_nranks() > 1)
            stop_signal = (sig_atomic_t)tb_mpi_max_ll((long long)stop_signal);
        r->s.step += chunk;
        r->s.time = (double)r->s.step * c->integrator.dt;

        const int th = is_multiple(r->s.step, c->output.thermo_every) && r->thermo;
        const int tr = is_multiple(r->s.step, c->output.trajectory_every) && r->traj;
        const int ck = is_multiple(r->s.step, c->output.checkpoint_every) && c->output.checkpoint[0];
        const int last = r->s.step == c->integrator.steps;
        if (th || tr || ck || last || stop_signal) {
            if (r->ops->fetch(r->b, &r->s) != 0)
                return -1;
        }
        if (write_outputs(r, th, tr) != 0)
            return -1;
        if ((ck || last) && c->output.checkpoint[0] && save_checkpoint(r, c->output.checkpoint) != 0)
            return -1;
        show_progress(r, last);
        if (stop_signal && !last) {
            const char *path = c->output.checkpoint[0] ? c->output.checkpoint : "interrupted.tbck";
            if (r->progress)
                fputc('\n', stderr);
            if (!ck && save_checkpoint(r, path) != 0)
                return -1;
            if (tb_rank() == 0)
                tb_error(NULL, 0, "interrupted by signal %d at step %ld; state saved to %s; "
                                  "resume with: tribody run %s --restart %s",
                         (int)stop_signal, r->s.step, path, r->args.config, path);
            return tb_mpi_agree(1); /* every rank stops here: an agreed exit */
        }
    }
    return 0;
}

/* Checks that a checkpoint belongs to this configuration. */
static int check_restart(const run_ctx *r)
{
    const sim_config *c = &r->cfg;
    const double box = c->system.boundary == CFG_BOUNDARY_PERIODIC ? c->system.box : 0.0;
    if (r->s.n != c->system.particles) {
        tb_error(r->args.restart, 0, "--restart: checkpoint has %d particles but %s sets "
                                     "system.particles = %d", r->s.n, c->path, c->system.particles);
        return TB_EXIT_USAGE;
    }
    if (r->s.box != box || r->s.mass != c->system.mass) {
        tb_error(r->args.restart, 0, "--restart: checkpoint has box %g and mass %g but %s sets "
                                     "%g and %g", r->s.box, r->s.mass, c->path, box, c->system.mass);
        return TB_EXIT_USAGE;
    }
    return 0;
}

static void summary(const run_ctx *r, double wall)
{
    const sim_config *c = &r->cfg;
    const long steps = r->s.step - r->step0;
    backend_info in;
    memset(&in, 0, sizeof in);
    if (r->ops->info && r->b)
        r->ops->info(r->b, &in, 0);
    if (tb_nranks() > 1 && !tb_mpi_same(r->s.pos, 3 * (size_t)r->s.n * sizeof *r->s.pos))
        tb_error(NULL, 0, "the ranks' final positions differ: report this (docs/scaling.md)");
    if (in.cull)
        printf("tribody: %ld steps of n = %d on %s (neighbour lists, skin %g, precision %s) in "
               "%.3g s\n", steps, r->s.n, r->ops->name, c->solver.skin,
               cfg_precision_name(c->solver.precision), wall);
    else
        printf("tribody: %ld steps of n = %d on %s (map %s, precision %s, tile %d) in %.3g s\n",
               steps, r->s.n, r->ops->name, c->solver.map, cfg_precision_name(c->solver.precision),
               c->solver.tile, wall);
    printf("  step %ld, time %.6g tau: E = %.12g epsilon (kinetic %.9g, pair %.9g, triplet %.9g)\n",
           r->s.step, r->s.time, sim_kinetic(&r->s) + r->s.e_pair + r->s.e_triplet,
           sim_kinetic(&r->s), r->s.e_pair, r->s.e_triplet);
    if (c->integrator.type != CFG_INTEG_NVE)
        printf("  %s at T = %.6g: conserved H = %.12g epsilon (bath %.9g)\n",
               cfg_integrator_name(c->integrator.type), integ_target(r->g, r->s.step - 1),
               sim_conserved(&r->s), r->s.e_bath);
    if (in.cull)
        printf("  energy drift (E - E0)/|E0| = %.3e, T = %.6g, %.3g us per step and particle; "
               "neighbour lists built %lld times (%.1f entries per particle)\n", sim_drift(&r->s),
               sim_temperature(&r->s), steps > 0 ? 1e6 * wall / ((double)steps * r->s.n) : 0.0,
               in.builds, (double)in.entries / r->s.n);
    else
        printf("  energy drift (E - E0)/|E0| = %.3e, T = %.6g, %.3g triplets/s\n", sim_drift(&r->s),
               sim_temperature(&r->s), wall > 0 ? (double)steps * n_triplets(r->s.n) / wall : 0.0);
}

static int finish(run_ctx *r, int rc)
{
    if (r->thermo && out_close(r->thermo, r->cfg.output.thermo) != 0 && rc == 0)
        rc = 1;
    if (r->traj && out_close(r->traj, r->cfg.output.trajectory) != 0 && rc == 0)
        rc = 1;
    if (r->ops && r->b)
        r->ops->destroy(r->b);
    integ_destroy(r->g);
    sim_state_free(&r->s);
    return rc;
}

int cmd_run(int argc, char **argv)
{
    static run_ctx ctx;
    run_ctx *r = &ctx;
    ckpt_extra x;
    int rc;

    memset(r, 0, sizeof *r);
    if ((rc = tb_mpi_agree(args_parse(argc, argv, "r", &r->args))) != 0)
        return rc;
    if (r->args.help) {
        fputs(run_help, stdout);
        return 0;
    }
    if ((rc = tb_mpi_agree(cfg_load(&r->cfg, r->args.config, r->args.n_set, r->args.sets))) != 0)
        return rc;
    if (r->args.restart) {
        rc = ckpt_read(r->args.restart, &r->s, &x);
        if (rc == 0 && (rc = check_restart(r)) == 0 &&
            (rc = integ_create(&r->g, &r->cfg, &r->s)) == 0) {
            rc = integ_restore(r->g, x.thermostat, x.thermostat_len, r->args.restart);
            r->s.e_bath = integ_bath(r->g);
        }
        free(x.thermostat);
        if ((rc = tb_mpi_agree(rc)) != 0) /* every rank reads the checkpoint */
            return finish(r, rc);
        if (r->s.step >= r->cfg.integrator.steps) {
            tb_notice("checkpoint %s is at step %ld >= integrator.steps = %ld: nothing to do",
                      r->args.restart, r->s.step, r->cfg.integrator.steps);
            return finish(r, 0);
        }
    } else {
        if ((rc = sim_init(&r->s, &r->cfg)) == 0)
            rc = integ_create(&r->g, &r->cfg, &r->s);
        if ((rc = tb_mpi_agree(rc)) != 0)
            return finish(r, rc);
    }
    if ((rc = tb_mpi_agree(backend_select(&r->cfg, &r->ops))) != 0)
        return finish(r, rc);
    if ((rc = tb_mpi_agree(r->ops->create(&r->b, &r->cfg, &r->s))) != 0)
        return finish(r, rc);
    {
        char ranks[96];
        printf("tribody run: n = %d on %s, %s\n", r->s.n, r->ops->name,
               tb_ranks_desc(ranks, sizeof ranks, !strcmp(r->ops->name, "gpu")));
        fflush(stdout);
    }

    /* Everything checked on every rank: from here on rank 0 writes files. */
    if (tb_mpi_agree(open_outputs(r, r->args.restart ? &x : NULL)) != 0)
        return finish(r, 1);
    if (!r->args.restart) {
        if (r->ops->compute(r->b) != 0 || r->ops->fetch(r->b, &r->s) != 0)
            return finish(r, 1);
        r->s.e0 = sim_conserved(&r->s);
        if (write_outputs(r, r->thermo != NULL, r->traj != NULL) != 0)
            return finish(r, 1);
    }
    r->progress = isatty(STDERR_FILENO) && tb_rank() == 0; /* one progress line */
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    rc = integrate(r);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    if (rc != 0)
        return finish(r, 1);
    summary(r, now_seconds() - r->t0);
    return finish(r, 0);
}
