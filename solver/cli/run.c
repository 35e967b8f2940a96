/* run.c — `tribody run`: integrate, write thermo, trajectory and checkpoints, resume.
 *
 * Order of work, so that bad input never writes or overwrites a file: read and check the
 * configuration, build the initial state (or read the checkpoint), set up the backend;
 * only then back up and open the outputs. Outputs come at step 0 and at multiples of
 * their intervals; a checkpoint also at the end and on SIGINT/SIGTERM. A checkpoint records
 * the sizes of the thermo and trajectory files, and a restart truncates them back to that
 * point before appending, so a resumed run writes exactly what an uninterrupted one would. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "config/config.h"
#include "config/units.h"
#include "solver/cli/args.h"
#include "solver/backend.h"
#include "common/check.h"
#include "common/phase.h"
#include "solver/io/checkpoint.h"
#include "solver/io/lammps_data.h"
#include "solver/finite.h"
#include "solver/cli/cli.h"
#include "solver/cli/step_cost.h"
#include "solver/io/init.h"
#include "solver/physics/integrate.h"
#include "solver/par/mpi.h"
#include "solver/io/output.h"
#include "solver/io/restart.h"
#include "solver/cli/run_obs.h"
#include "solver/cli/run_signal.h"
#include "solver/io/xyz.h"

static const char run_help[] =
    "usage: tribody run CONFIG [--set PATH=VALUE ...] [--restart FILE]\n"
    "\n"
    "Integrates the system of CONFIG (a libconfig file, see docs/config.md) for\n"
    "integrator.steps steps with integrator.type: nve (velocity Verlet), langevin (BAOAB)\n"
    "or nose-hoover (a Nose-Hoover chain), writing:\n"
    "  output.thermo      CSV: step,time,kinetic,pair,triplet,total,drift,temperature,\n"
    "                     virial,pressure,pxx,pyy,pzz (periodic only),conserved,\n"
    "                     pxy,pxz,pyz,volume,lx,ly,lz,xy,xz,yz,density\n"
    "  output.trajectory  extended XYZ frames (ASE, OVITO)\n"
    "  output.checkpoint  exact binary state, also at the end and on Ctrl-C / SIGTERM\n"
    "  output.data        LAMMPS data file of the final state (read_data; tribody reads it back)\n"
    "  output.rdf, output.msd  g(r) and the MSD per species, CSV + PNG at the end; the run\n"
    "                     then prints D, and always the means and block-averaging errors\n"
    "                     of T, P, density and energies over the thermo steps\n"
    "Existing outputs (regular files) are kept as NAME.~1~, NAME.~2~, ... never overwritten;\n"
    "devices and FIFOs are written as they are. Every output path is checked before step 0,\n"
    "and a second run on the same outputs is refused (a lock file .NAME.lock beside each).\n"
    "\n"
    "options:\n"
    "  --set PATH=VALUE   override a setting, checked like the file (e.g. --set solver.map=bb)\n"
    "  --restart FILE     continue from a checkpoint up to integrator.steps; the thermo and\n"
    "                     trajectory files are continued from the checkpoint's step when\n"
    "                     they carry its run id; the physics settings must be the same\n"
    "  --allow-change LIST  with --restart: settings that may differ from the checkpoint's\n"
    "                     (comma-separated names such as integrator.dt, or all)\n"
    "  -h, --help         this help\n"
    "\n"
    "Units are the config's (units: lj, the default, reduced sigma, epsilon, m, tau; metal;\n"
    "real: LAMMPS's styles, named in the outputs). A progress line is shown\n"
    "on stderr when it is a terminal. After every step all energies, forces, positions,\n"
    "velocities and thermo columns are checked: a non-finite start, or one whose forces move\n"
    "a particle past the shortest cutoff in one step, is a bad input; a later one stops the run.\n"
    "Exit status: 0 done, 1 runtime failure (a non-finite value: the last checkpoint is kept),\n"
    "2 bad usage, config or input; on SIGINT/SIGTERM the state is saved at the next step\n"
    "boundary and the run then dies of the signal (the shell sees 130 or 143). Repeats\n"
    "within a second are ignored (GNU timeout and job launchers signal the process, then its\n"
    "group); a second Ctrl-C or SIGTERM after that stops at once, without saving.\n"
    "Under mpirun: docs/scaling.md, \"Signals\".\n";

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
    long ckpt_step;    /* step of the last checkpoint written (-1: none) */
    const char *ckpt_path; /* where it is */
    unsigned long long run_id; /* this run's id (restart.h), kept across restarts */
    long long step_origin;     /* time = time_origin + (step - step_origin) dt: (0, 0) unless */
    double time_origin;        /* a restart changed dt (checkpoint.h, "TORG") */
    obs *obs;                  /* output.rdf, output.msd, the summary (NULL: none asked) */
    double kin[7];             /* the velocities' sums of the last thermo row (thermo_sums) */
} run_ctx;

/* The time at a step [tau]. With the origin (0, 0), as in every run whose dt never changed,
 * 0 + step dt is step dt bit for bit. */
static double step_time(const run_ctx *r, long step)
{
    return r->time_origin + (double)(step - r->step_origin) * r->cfg.integrator.dt;
}

/* The checkpoint written on a signal: output.checkpoint, or interrupted.tbck when that is "". */
static const char *stop_checkpoint(const run_ctx *r)
{
    return r->cfg.output.checkpoint[0] ? r->cfg.output.checkpoint : "interrupted.tbck";
}

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

/* Opens an output to continue a restarted run: cut back to `bytes` (its size at the
 * checkpoint) and appended to; a longer file (rows written after the checkpoint, or a
 * restart from an older checkpoint) is kept whole as a backup first (out_cut_back). A
 * missing or shorter file is started anew (with header). */
static FILE *reopen_output(const char *path, long long bytes, int *fresh)
{
    struct stat st;
    FILE *f;
    *fresh = 0;
    if (bytes >= 0 && stat(path, &st) == 0 && (long long)st.st_size >= bytes) {
        if (out_cut_back(path, bytes) != 0)
            return NULL;
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

/* Whether paths a and b name the same existing file. */
static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
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
        if (!r->thermo)
            return -1;
        if (fresh && thermo_header(r->thermo, c->output.thermo, r->run_id, r->s.units) != 0)
            return -1;
    }
    if (c->output.trajectory[0]) {
        r->traj = x ? reopen_output(c->output.trajectory, x->traj_bytes, &fresh)
                    : out_create(c->output.trajectory);
        if (!r->traj)
            return -1;
    }
    /* A fresh run must not overwrite an earlier run's checkpoint, nor a restart from another
     * file (an older checkpoint) the current one. */
    if (c->output.checkpoint[0] && (!x || !same_file(c->output.checkpoint, r->args.restart)) &&
        out_backup(c->output.checkpoint) != 0)
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
    x.run_id = r->run_id;
    x.step_origin = r->step_origin;
    x.time_origin = r->time_origin;
    run_physics(&r->cfg, x.phys, sizeof x.phys);
    x.observ = NULL;
    x.observ_len = 0;
    x.barostat = NULL;
    if (integ_save(r->g, &x.thermostat, &x.thermostat_len) != 0 ||
        integ_save_baro(r->g, &x.barostat, &x.barostat_len) != 0 ||
        (r->obs && obs_save(r->obs, &x.observ, &x.observ_len) != 0)) {
        ckpt_extra_free(&x);
        return -1;
    }
    tb_phase("checkpoint_begin");
    rc = ckpt_write(path, &r->s, &x);
    tb_phase("checkpoint");
    ckpt_extra_free(&x);
    if (rc != 0)
        return -1;
    r->ckpt_step = r->s.step;
    r->ckpt_path = path;
    return 0;
}

/* The kinetic energy and tensor of a thermo row (finite.h's kin[7]) into r->kin: the
 * backend's sums where the velocities are, with the energies, virial and box (its thermo(),
 * so that a row needs no fetch), or the host's of the fetched r->s (a backend without it).
 * One source for every row of a run and for e0, so that the columns keep one rounding. */
static int thermo_sums(run_ctx *r)
{
    if (r->ops->thermo)
        return r->ops->thermo(r->b, &r->s, r->kin);
    sim_kinetic_sums(&r->s, r->kin);
    return 0;
}

static int write_outputs(run_ctx *r, int thermo, int traj)
{
    const sim_config *c = &r->cfg;
    char extra[128];
    if (thermo && r->thermo && thermo_row(r->thermo, c->output.thermo, &r->s, r->kin) != 0)
        return -1;
    if (traj && r->traj) {
        snprintf(extra, sizeof extra, "kinetic=%.17g run_id=%016llx", sim_kinetic(&r->s),
                 r->run_id);
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

/* Appends arg to buf (size bytes) as the shell reads it back: bare when it holds only
 * harmless characters, else in single quotes. */
static void shell_quote(char *buf, size_t size, const char *arg)
{
    size_t len = strlen(buf);
    const int bare = *arg && strspn(arg, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                         "0123456789_./=:,+-@%") == strlen(arg);
    if (bare) {
        snprintf(buf + len, size - len, " %s", arg);
        return;
    }
    snprintf(buf + len, size - len, " '");
    for (const char *c = arg; *c; c++) {
        len = strlen(buf);
        snprintf(buf + len, size - len, *c == '\'' ? "'\\''" : "%c", *c);
    }
    len = strlen(buf);
    snprintf(buf + len, size - len, "'");
}

/* The whole command that continues this run from checkpoint path: the config and every
 * --set of this run, so that the continued run has the same settings. */
static void resume_command(const run_ctx *r, const char *path, char *buf, size_t size)
{
    snprintf(buf, size, "tribody run");
    shell_quote(buf, size, r->args.config);
    for (int i = 0; i < r->args.n_set; i++) {
        strncat(buf, " --set", size - strlen(buf) - 1);
        shell_quote(buf, size, r->args.sets[i]);
    }
    strncat(buf, " --restart", size - strlen(buf) - 1);
    shell_quote(buf, size, path);
}

/* A signal arrived: save the state at this step boundary and say how to resume. 0, or -1
 * when the checkpoint cannot be written. The caller then dies of the signal. */
static int stop_on_signal(run_ctx *r, int saved)
{
    const char *path = stop_checkpoint(r);
    char cmd[16384];
    int rc = 0;
    if (r->progress)
        fputc('\n', stderr);
    if (!saved) {
        rc = r->ops->fetch(r->b, &r->s);
        /* interrupted.tbck is not a configured output: an earlier one is kept, not replaced */
        if (rc == 0 && !r->cfg.output.checkpoint[0] && tb_rank() == 0)
            rc = out_backup(path);
        if (rc == 0)
            rc = save_checkpoint(r, path);
    }
    /* Every rank waits for rank 0's checkpoint before any dies: under mpirun the first rank
     * to end makes mpirun kill the others, rank 0 in the middle of its write. */
    if (tb_mpi_agree(rc) != 0)
        return -1;
    resume_command(r, path, cmd, sizeof cmd);
    if (tb_rank() == 0)
        tb_error(NULL, 0, "interrupted by signal %d at step %ld; state saved to %s; resume "
                          "with: %s", run_signal_pending(), r->s.step, path, cmd);
    /* and for its message: mpirun may drop the output of the job once a rank has ended */
    return tb_mpi_agree(0) == 0 ? 0 : -1;
}

/* The first non-finite value: fetch the state it is in and say where. Returns 0, or -1
 * when the state cannot be fetched. A check read a step late (check_finite_late) names its
 * step; the state fetched to name a particle for a whole-state value is then the next one. */
static int report_nonfinite(run_ctx *r, tb_nonfinite *nf)
{
    char last[4400], who[64];
    if (r->ops->fetch(r->b, &r->s) != 0)
        return -1;
    if (nf->particle < 0) { /* an energy: name a particle whose force or position is bad */
        int t = -1;
        const int i = sim_nonfinite_particle(&r->s, &t);
        if (i >= 0)
            snprintf(who, sizeof who, " (first bad particle: %d, its %s)", i, tb_nonfinite_term(t));
        else
            who[0] = '\0';
    } else {
        snprintf(who, sizeof who, " of particle %d", nf->particle);
    }
    if (r->ckpt_step >= 0)
        snprintf(last, sizeof last, "the last checkpoint, %s at step %ld, is kept", r->ckpt_path,
                 r->ckpt_step);
    else
        snprintf(last, sizeof last, "no checkpoint was written");
    if (r->progress)
        fputc('\n', stderr);
    tb_error(r->cfg.path, 0, "non-finite %s%s at step %ld (time %g): the run is stopped and %s "
                             "(lower integrator.dt, or check the initial state)",
             tb_nonfinite_term(nf->term), who, nf->step,
             step_time(r, nf->step), last);
    return 0;
}

/* The stepping loop, one step at a time: after each step the backend checks that every
 * value is finite (one reduction, read a step late on the GPU except at fetched steps), and a signal is acted on at the next step boundary.
 * Returns 0 when done, 1 on a non-finite value, 2 on a signal (state saved), -1 on failure. */
static int integrate(run_ctx *r)
{
    const sim_config *c = &r->cfg;
    tb_nonfinite nf;
    tb_phase("stepping_start");
    r->t0 = now_seconds();
    r->step0 = r->s.step;
    while (r->s.step < c->integrator.steps) {
        int stop = run_signal_agreed();
        if (stop) { /* the last step may have been checked late: check it now, before saving */
            if (integ_sync(r->g, r->ops, r->b) != 0)
                return -1;
            r->s.e_bath = integ_bath(r->g);
            if (r->ops->check_finite(r->b, r->s.step, &nf) != 0)
                return -1;
            if (nf.step >= 0)
                return report_nonfinite(r, &nf) == 0 ? 1 : -1;
            return stop_on_signal(r, 0) == 0 ? 2 : -1;
        }
        {
            /* the virial only where it is written: a step that ends at an output. Decided
             * from the configuration, not from the open files, which rank 0 alone holds: every
             * rank must ask for the virial of the same steps, or the other ranks' shares of it
             * are missing (and the GPU kernels with and without it round differently) */
            const long nx = r->s.step + 1;
            const int out = (is_multiple(nx, c->output.thermo_every) && c->output.thermo[0]) ||
                            (is_multiple(nx, c->output.trajectory_every) && c->output.trajectory[0]) ||
                            (is_multiple(nx, c->output.checkpoint_every) && c->output.checkpoint[0]) ||
                            nx == c->integrator.steps || run_obs_fetch_due(r->obs, c, nx);
            if (r->ops->virial_next(r->b, out ? 1 : LONG_MAX) != 0 ||
                integ_advance(r->g, r->ops, r->b, r->s.step, 1) != 0)
                return -1;
        }
        r->s.e_bath = integ_bath(r->g);
        stop = run_signal_agreed();
        r->s.step += 1;
        r->s.time = step_time(r, r->s.step);

        const int th = is_multiple(r->s.step, c->output.thermo_every) && c->output.thermo[0];
        const int tr = is_multiple(r->s.step, c->output.trajectory_every) && c->output.trajectory[0];
        const int ck = is_multiple(r->s.step, c->output.checkpoint_every) && c->output.checkpoint[0];
        const int last = r->s.step == c->integrator.steps;
        const int fetch = th || tr || ck || last || stop || run_obs_fetch_due(r->obs, c, r->s.step);
        /* a step that writes a thermo row and nothing else: the row's numbers alone come back */
        const int row_only = th && !tr && !ck && !last && !stop && !r->obs && r->ops->thermo;
        /* A step that is fetched (written, saved) is checked at once; the others a step late
         * where the backend can (GPU: the host does not wait for the step it has just
         * queued), which names the same first bad step, one step later */
        if ((fetch || !r->ops->check_finite_late
                 ? r->ops->check_finite(r->b, r->s.step, &nf)
                 : r->ops->check_finite_late(r->b, r->s.step, &nf)) != 0)
            return -1;
        if (nf.step >= 0)
            return report_nonfinite(r, &nf) == 0 ? 1 : -1;
        if (fetch) {
            if (integ_sync(r->g, r->ops, r->b) != 0) /* MTK's state held on the device */
                return -1;
            r->s.e_bath = integ_bath(r->g);
            if ((!row_only && r->ops->fetch(r->b, &r->s) != 0) || (th && thermo_sums(r) != 0))
                return -1;
            /* and the columns the host derives (the particles: check_finite above) */
            if (row_only ? sim_find_nonfinite_derived_kin(&r->s, &nf, r->kin)
                         : sim_find_nonfinite(&r->s, &nf))
                return report_nonfinite(r, &nf) == 0 ? 1 : -1;
        }
        if (tb_rank() == 0 && run_obs_step(r->obs, c, r->ops, r->b, &r->s, fetch) != 0)
            return -1;
        if (write_outputs(r, th, tr) != 0)
            return -1;
        if ((ck || last) && c->output.checkpoint[0] && save_checkpoint(r, c->output.checkpoint) != 0)
            return -1;
        if (last && c->output.data[0] && tb_rank() == 0 &&
            lmp_data_write(c->output.data, &r->s, NULL) != 0)
            return -1;
        show_progress(r, last);
        if (stop && !last)
            return stop_on_signal(r, ck) == 0 ? 2 : -1;
    }
    return 0;
}

/* Every output path can be written (before anything is computed), no two are the same file,
 * then all are locked against a second run writing the same files (before anything is
 * written). */
static int check_outputs(const run_ctx *r)
{
    const sim_config *c = &r->cfg;
    /* the checkpoint and the data file are written to PATH.tmp and renamed over PATH; then
     * the observables' files (obs_paths) */
    const char *path[8] = {c->output.thermo, c->output.trajectory, stop_checkpoint(r),
                           c->output.data};
    const char *name[8] = {"output.thermo", "output.trajectory",
                           c->output.checkpoint[0] ? "output.checkpoint"
                                                   : "the interrupt checkpoint",
                           "output.data"};
    const int np = 4 + obs_paths(r->obs, path + 4, name + 4);
    int rc;
    for (int i = 0; i < np; i++)
        if (path[i][0] && (rc = i == 2 || i == 3 ? out_check_checkpoint(path[i], c->path, name[i])
                                                 : out_check(path[i], c->path, name[i])) != 0)
            return rc;
    for (int i = 0; i < np; i++)
        for (int j = i + 1; j < np; j++)
            if (path[i][0] && path[j][0] && out_same_path(path[i], path[j])) {
                tb_error(c->path, 0, "%s = \"%s\" and %s = \"%s\" are the same path (each "
                                     "output needs a file of its own)",
                         name[i], path[i], name[j], path[j]);
                return TB_EXIT_USAGE;
            }
    for (int i = 0; i < np; i++)
        if (path[i][0] && (rc = out_lock(path[i])) != 0)
            return rc < 0 ? 1 : rc;
    return 0;
}

/* The starting state (step 0, or the checkpoint's) holds only finite numbers, also in the
 * thermo columns derived from it, and a fresh one can be integrated (integ_check_start);
 * else it is a bad input: TB_EXIT_USAGE with the term and particle named. */
static int check_start(run_ctx *r)
{
    tb_nonfinite nf;
    char who[64] = "";
    if (r->ops->check_finite(r->b, r->s.step, &nf) != 0)
        return 1;
    if (nf.step < 0)
        sim_find_nonfinite(&r->s, &nf);
    if (nf.step < 0)
        return r->args.restart ? 0 : integ_check_start(&r->s, &r->cfg, r->cfg.path);
    if (nf.particle < 0) {
        int t = -1;
        nf.particle = sim_nonfinite_particle(&r->s, &t);
    }
    if (nf.particle >= 0)
        snprintf(who, sizeof who, " (particle %d)", nf.particle);
    tb_error(r->args.restart ? r->args.restart : r->cfg.path, 0,
             "the %s state has a non-finite %s%s: overlapping particles or values too large",
             r->args.restart ? "checkpoint's" : "initial", tb_nonfinite_term(nf.term), who);
    return TB_EXIT_USAGE;
}

/* The thermo and trajectory files a restart would continue belong to the checkpoint's run. */
static int check_restart_files(const run_ctx *r, const ckpt_extra *x)
{
    const sim_config *c = &r->cfg;
    int rc = 0;
    if (c->output.thermo[0] && x->thermo_bytes >= 0)
        rc = restart_check_file(c->output.thermo, "output.thermo", c->path, x->run_id, 0);
    if (rc == 0 && c->output.trajectory[0] && x->traj_bytes > 0)
        rc = restart_check_file(c->output.trajectory, "output.trajectory", c->path, x->run_id, 1);
    return rc;
}

/* Checks that a checkpoint belongs to this configuration: every physics setting (config.h, cfg_physics_text) the same unless --allow-change names it.
 * An allowed change of system.box or system.mass is applied to the checkpoint's state (the
 * box not with a barostat: it owns the box). */
static int check_restart(run_ctx *r, const ckpt_extra *x)
{
    const sim_config *c = &r->cfg;
    int rc;
    /* the particle count was compared by ckpt_read, before it allocated anything */
    if ((rc = restart_check_physics(r->args.restart, x->phys, c, r->args.allow_change)) != 0)
        return rc;
    /* a data file's box stays the checkpoint's, and so does a box a barostat moved (now or
     * in the run that wrote the checkpoint: physics/baro.h) */
    if (c->system.init.type != CFG_INIT_LAMMPS && !c->integrator.barostat.enabled &&
        !strstr(x->phys, "integrator.barostat=1\n"))
        r->s.box = cfg_box(c);
    sim_set_species(&r->s, c);
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
    const tb_units *u = units_of(r->s.units);
    printf("  step %ld, time %.6g %s: E = %.12g %s (kinetic %.9g, pair %.9g, triplet %.9g)\n",
           r->s.step, r->s.time, u->time, sim_kinetic(&r->s) + r->s.e_pair + r->s.e_triplet,
           u->energy, sim_kinetic(&r->s), r->s.e_pair, r->s.e_triplet);
    if (c->integrator.type != CFG_INTEG_NVE)
        printf("  %s at T = %.6g %s: conserved H = %.12g %s (bath %.9g)\n",
               cfg_integrator_name(c->integrator.type), integ_target(r->g, r->s.step - 1),
               u->temperature, sim_conserved(&r->s), u->energy, r->s.e_bath);
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
    /* After a failure (already reported: a full disk, say) the files are closed quietly,
     * so the same error is not printed twice. */
    if (r->thermo && r->thermo != stdout && rc != 0)
        fclose(r->thermo);
    else if (r->thermo && out_close(r->thermo, r->cfg.output.thermo) != 0 && rc == 0)
        rc = 1;
    if (r->traj && r->traj != stdout && rc != 0)
        fclose(r->traj);
    else if (r->traj && out_close(r->traj, r->cfg.output.trajectory) != 0 && rc == 0)
        rc = 1;
    r->thermo = r->traj = NULL;
    out_unlock_all(); /* the lock files go too, as the run ends (a signal's death included) */
    if (r->ops && r->b)
        r->ops->destroy(r->b);
    integ_destroy(r->g);
    obs_destroy(r->obs);
    r->obs = NULL;
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
    memset(&x, 0, sizeof x);
    if ((rc = tb_mpi_agree(args_parse(argc, argv, "r", &r->args))) != 0)
        return rc;
    if (r->args.help) {
        fputs(run_help, stdout);
        return 0;
    }
    tb_phase("start");
    if ((rc = tb_mpi_agree(cfg_load(&r->cfg, r->args.config, r->args.n_set, r->args.sets))) != 0)
        return rc;
    tb_phase("config");
    if (r->args.restart) {
        (void)((rc = ckpt_read(r->args.restart, r->cfg.system.particles, r->cfg.path, &r->s,
                               &x)) != 0 ||
            (rc = check_restart(r, &x)) != 0 || (rc = check_restart_files(r, &x)) != 0 ||
            (rc = sim_check_extent(&r->s, r->cfg.solver.precision, r->args.restart)) != 0 ||
            (rc = integ_create(&r->g, &r->cfg, &r->s)) != 0 ||
            (rc = integ_restore(r->g, x.thermostat, x.thermostat_len, r->args.restart)) != 0 ||
            (rc = integ_restore_baro(r->g, x.barostat, x.barostat_len, r->args.restart)) != 0);
        if ((rc = tb_mpi_agree(rc)) != 0) { /* every rank reads the checkpoint */
            ckpt_extra_free(&x);
            return finish(r, rc < 0 ? 1 : rc);
        }
        free(x.thermostat); /* x.observ waits for run_obs_create */
        free(x.barostat);
        x.thermostat = x.barostat = NULL;
        r->s.e_bath = integ_bath(r->g);
        r->run_id = x.run_id;
        r->step_origin = x.step_origin;
        r->time_origin = x.time_origin;
        if (x.dt != r->cfg.integrator.dt) { /* allowed (--allow-change): time runs on from here */
            r->step_origin = r->s.step;
            r->time_origin = r->s.time;
        }
        if (r->s.step >= r->cfg.integrator.steps) {
            tb_notice("checkpoint %s is at step %ld >= integrator.steps = %ld: nothing to do",
                      r->args.restart, r->s.step, r->cfg.integrator.steps);
            ckpt_extra_free(&x);
            return finish(r, 0);
        }
    } else {
        if ((rc = sim_init(&r->s, &r->cfg)) == 0 && (tb_phase("state"), 1) &&
            (rc = integ_create(&r->g, &r->cfg, &r->s)) == 0)
            r->s.e_bath = integ_bath(r->g); /* a barostat's P0 V from step 0 */
        if ((rc = tb_mpi_agree(rc)) != 0)
            return finish(r, rc < 0 ? 1 : rc);
        r->run_id = run_id_new();
    }
    tb_phase("integrator");
    integ_lazy(r->g); /* the loop syncs MTK's device state on the steps it fetches */
    rc = run_obs_create(&r->obs, &r->cfg, &r->s, r->args.restart ? &x : NULL, r->args.restart);
    if (r->args.restart)
        ckpt_extra_free(&x);
    if ((rc = tb_mpi_agree(rc)) != 0)
        return finish(r, rc < 0 ? 1 : rc);
    tb_phase("observables");
    if ((rc = tb_mpi_agree(backend_select(&r->cfg, &r->ops))) != 0 ||
        (rc = tb_mpi_agree(step_cost_check(&r->cfg, &r->s, r->ops))) != 0)
        return finish(r, rc);
    tb_phase("backend_select");
    if ((rc = tb_mpi_agree(r->ops->create(&r->b, &r->cfg, &r->s))) != 0)
        return finish(r, rc);
    tb_phase("backend_create");
    {
        char ranks[96];
        printf("tribody run: n = %d on %s, %s\n", r->s.n, r->ops->name,
               tb_ranks_desc(ranks, sizeof ranks, !strcmp(r->ops->name, "gpu")));
        fflush(stdout);
    }

    /* rank 0 alone writes, so it alone checks and locks the outputs */
    if ((rc = tb_mpi_agree(tb_rank() == 0 ? check_outputs(r) : 0)) != 0)
        return finish(r, rc);
    tb_phase("check_outputs");
    /* From here a signal is acted on at the next step boundary (step 0 included). */
    r->ckpt_step = -1;
    r->progress = isatty(STDERR_FILENO) && tb_rank() == 0; /* one progress line */
    run_signals_catch(r->progress);
    /* The starting state is evaluated and checked before any file is written: an input
     * that is non-finite from the start is a bad input. */
    if (tb_mpi_agree(!r->args.restart &&
                     (r->ops->compute(r->b) != 0 || r->ops->fetch(r->b, &r->s) != 0)) != 0)
        return finish(r, 1);
    tb_phase("first_evaluation");
    if ((rc = tb_mpi_agree(check_start(r))) != 0)
        return finish(r, rc);
    tb_phase("check_start");
    /* Everything checked on every rank: from here on rank 0 writes files. */
    if (tb_mpi_agree(open_outputs(r, r->args.restart ? &x : NULL)) != 0)
        return finish(r, 1);
    tb_phase("open_outputs");
    if (!r->args.restart) {
        if (tb_mpi_agree(thermo_sums(r)) != 0)
            return finish(r, 1);
        r->s.e0 = sim_conserved_k(&r->s, r->kin[0]);
        if (write_outputs(r, r->thermo != NULL, 0) != 0 || (tb_phase("step0_thermo"), 0) ||
            write_outputs(r, 0, r->traj != NULL) != 0 || (tb_phase("step0_trajectory"), 0) ||
            (tb_rank() == 0 && run_obs_step(r->obs, &r->cfg, r->ops, r->b, &r->s, 1) != 0))
            return finish(r, 1);
        tb_phase("step0_observables");
    }
    rc = integrate(r);
    if (rc == 2) { /* a signal: close the files, then die of it as the shell expects */
        const int sig = run_signal_pending();
        rc = finish(r, 1);
        run_signals_default();
        raise(sig);
        return rc;
    }
    run_signals_default();
    if (rc != 0)
        return finish(r, 1);
    tb_phase("stepping");
    const double wall = now_seconds() - r->t0;
    summary(r, wall);
    if (tb_rank() == 0 && obs_finish(r->obs, stdout, wall) != 0)
        return finish(r, 1);
    tb_phase("summary");
    rc = finish(r, 0);
    tb_phase("finish");
    return rc;
}
