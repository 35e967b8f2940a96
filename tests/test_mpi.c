/* test_mpi.c — one simulation over two MPI ranks on the CPU backend (docs/scaling.md), against
 * one process: `mpirun -np 2 tribody eval` gives the same energies and forces (bitwise with
 * solver.deterministic, within 1e-12 otherwise) on every force path (the maps lambda, bb,
 * stride; the neighbour lists), a run interrupted and restarted with another rank count ends in
 * the same state bit for bit, and a failure on one rank stops the job with one message.
 * Skipped (one SKIP line) when the build has no MPI or mpirun is missing. */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "solver/io/checkpoint.h"
#include "tests/tb_test.h"

static char top[256];

/* mpirun as root (CI containers), more ranks than cores (CI has 2), one message per failure;
 * no single-copy shared memory (CMA needs ptrace rights that containers often withhold). */
#define MPIRUN                                                                             \
    "mpirun -q --allow-run-as-root --oversubscribe --mca btl_vader_single_copy_mechanism none"

/* Runs tribody ARGS in dir on np ranks (np = 0: no mpirun), OMP_NUM_THREADS = threads, stdout
 * and stderr to dir/out.txt; env: extra assignments or "". Returns the exit status. */
static int run_np(const char *dir, int np, int threads, const char *env, const char *args)
{
    const char *bin = tb_test_bin();
    char launch[128] = "";
    int st;
    if (!bin)
        return -1;
    if (np > 0)
        snprintf(launch, sizeof launch, MPIRUN " -np %d", np);
    st = tb_test_system("cd '%s' && %s OMP_NUM_THREADS=%d %s '%s' %s >out.txt 2>&1", dir, env,
                        threads, launch, bin, args);
    return st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Largest |a - b| / (1 + |b|) over the numbers of two text files read in step (both must hold
 * the same words); HUGE_VAL when they do not line up. */
static double max_rel_diff(const char *d1, const char *d2, const char *name)
{
    long l1, l2;
    char *a = tb_test_read_file(d1, name, &l1), *b = tb_test_read_file(d2, name, &l2);
    double worst = 0.0;
    char *pa = a, *pb = b;
    if (!a || !b) {
        free(a);
        free(b);
        return HUGE_VAL;
    }
    for (;;) {
        pa += strspn(pa, " \t\n=\"");
        pb += strspn(pb, " \t\n=\"");
        if (!*pa || !*pb) {
            if (*pa || *pb)
                worst = HUGE_VAL;
            break;
        }
        char *ea, *eb;
        const double x = strtod(pa, &ea), y = strtod(pb, &eb);
        if (ea != pa && eb != pb) {
            const double d = fabs(x - y) / (1.0 + fabs(y));
            if (d > worst)
                worst = d;
            pa = ea;
            pb = eb;
        } else { /* a word: must be the same word */
            const size_t wa = strcspn(pa, " \t\n=\""), wb = strcspn(pb, " \t\n=\"");
            if (wa != wb || strncmp(pa, pb, wa) != 0) {
                worst = HUGE_VAL;
                break;
            }
            pa += wa;
            pb += wb;
        }
    }
    free(a);
    free(b);
    return worst;
}

/* The line of out.txt that starts with key (first one), into buf; "" when none. */
static const char *out_line(const char *dir, const char *key, char *buf, size_t len)
{
    long n;
    char *s = tb_test_read_file(dir, "out.txt", &n), *p;
    buf[0] = '\0';
    if (s && (p = strstr(s, key))) {
        const size_t w = strcspn(p, "\n");
        snprintf(buf, len, "%.*s", (int)w, p);
    }
    free(s);
    return buf;
}

static const char cluster_cfg[] =
    "# LJ + ATM cluster, all triplets (maps)\n"
    "system = { particles = 61; seed = 23; init = { type = \"random\"; temperature = 0.6; }; };\n"
    "potential = { atm = { nu = 0.0731; }; lj = { epsilon = 1.0; sigma = 1.0; cutoff = 3.0; }; };\n"
    "integrator = { dt = 0.002; steps = 200; };\n"
    "solver = { backend = \"cpu\"; precision = \"double\"; tile = 8; };\n"
    "output = { thermo_every = 10; trajectory_every = 50; checkpoint_every = 100; };\n";

/* A small periodic liquid: every term has a cutoff, so the neighbour lists run. */
static const char liquid_cfg[] =
    "# LJ + ATM liquid with cutoffs (neighbour lists)\n"
    "system = { particles = 300; seed = 9; boundary = \"periodic\"; box = 7.2112478515; init = {\n"
    "  type = \"random\"; min_distance = 0.9; temperature = 1.0; }; };\n"
    "potential = { lj = { epsilon = 1.0; sigma = 1.0; cutoff = 2.5; shift = true; };\n"
    "  atm = { nu = 0.0703; cutoff = 3.0; }; };\n"
    "integrator = { dt = 0.002; steps = 40; };\n"
    "solver = { backend = \"cpu\"; precision = \"mixed\"; };\n"
    "output = { thermo_every = 10; trajectory_every = 20; checkpoint_every = 20; };\n";

/* A dilute gas in which no particle has a partner within the cutoffs plus the skin: every
 * neighbour row is empty (issue 19: it crashed with SIGSEGV on every rank count). */
static const char gas_cfg[] =
    "system = { particles = 20; boundary = \"periodic\"; box = 100.0; };\n"
    "potential = { lj = { }; atm = { cutoff = 2.5; }; };\n"
    "integrator = { steps = 40; };\n"
    "solver = { backend = \"cpu\"; };\n"
    "output = { thermo_every = 10; trajectory_every = 20; checkpoint_every = 20; };\n";

/* eval on 1 and 2 ranks: bitwise with deterministic, within tol without (sums in another
 * order: rounding of ~1e-16 per double term, ~6e-8 per float term in single precision). */
static void test_eval(const char *what, const char *cfg, const char *set, double tol)
{
    for (int det = 0; det < 2; det++) {
        char d1[TB_TEST_PATH_MAX], d2[TB_TEST_PATH_MAX], args[512], l1[512], l2[512];
        snprintf(d1, sizeof d1, "%s", tb_test_fresh_dir(top, "eval1"));
        snprintf(d2, sizeof d2, "%s", tb_test_fresh_dir(top, "eval2"));
        tb_test_write_file(d1, "sim.cfg", cfg);
        tb_test_write_file(d2, "sim.cfg", cfg);
        snprintf(args, sizeof args, "eval sim.cfg %s --set solver.deterministic=%s -o e.xyz", set,
                 det ? "true" : "false");
        const int r1 = run_np(d1, 0, 2, "", args), r2 = run_np(d2, 2, 1, "", args);
        gsl_test(r1 != 0 || r2 != 0, "%s, deterministic %d: eval exits 0 on 1 process (%d) and on "
                                     "2 ranks (%d)", what, det, r1, r2);
        gsl_test(!strstr(out_line(d2, "tribody eval:", l2, sizeof l2), "2 ranks on CPUs"),
                 "%s: the first line of eval names the 2 ranks (%s)", what, l2);
        if (det) {
            gsl_test(
                !tb_test_same_file(d1, d2, "e.xyz"),
                "%s, deterministic: 2 ranks x 1 thread give the forces and energy of 1 process "
                "x 2 threads bit for bit",
                what);
            gsl_test(strcmp(out_line(d1, "E_triplet", l1, sizeof l1),
                            out_line(d2, "E_triplet", l2, sizeof l2)) != 0 ||
                         strcmp(out_line(d1, "virial", l1, sizeof l1),
                                out_line(d2, "virial", l2, sizeof l2)) != 0,
                     "%s, deterministic: the same triplet energy and virial printed", what);
        } else {
            const double d = max_rel_diff(d1, d2, "e.xyz");
            gsl_test(!(d <= tol), "%s: 2 ranks agree with 1 process within %g (max relative "
                                  "difference %.3g)", what, tol, d);
        }
    }
}

/* Interrupted at step 100 with np_a ranks, restarted with np_b: the same files as an
 * uninterrupted one-process run. */
static void test_restart(const char *what, const char *cfg, long half, int np_a, int np_b)
{
    char ref[TB_TEST_PATH_MAX], d[TB_TEST_PATH_MAX], args[256];
    const char *set = "--set solver.deterministic=true";
    snprintf(ref, sizeof ref, "%s", tb_test_fresh_dir(top, "restart_ref"));
    snprintf(d, sizeof d, "%s", tb_test_fresh_dir(top, "restart"));
    tb_test_write_file(ref, "sim.cfg", cfg);
    tb_test_write_file(d, "sim.cfg", cfg);
    snprintf(args, sizeof args, "run sim.cfg %s", set);
    gsl_test(run_np(ref, 0, 2, "", args) != 0, "%s: uninterrupted run on 1 process exits 0", what);
    snprintf(args, sizeof args, "run sim.cfg %s --set integrator.steps=%ld", set, half);
    gsl_test(run_np(d, np_a, 1, "", args) != 0, "%s: first half on %d rank(s) exits 0", what, np_a);
    snprintf(args, sizeof args, "run sim.cfg %s --restart checkpoint.tbck", set);
    gsl_test(run_np(d, np_b, 1, "", args) != 0, "%s: restart on %d rank(s) exits 0", what, np_b);
    gsl_test(!tb_test_same_file(ref, d, "checkpoint.tbck"),
             "%s: %d ranks then %d ranks end in the state of 1 process bit for bit", what, np_a,
             np_b);
    gsl_test(!tb_test_same_file(ref, d, "thermo.csv") ||
                 !tb_test_same_file(ref, d, "trajectory.xyz"),
             "%s: and write the same thermo.csv and trajectory.xyz", what);
}

/* A Langevin run (host noise drawn by every rank from the same stream) on 2 ranks equals one
 * process bit for bit. */
static void test_langevin(void)
{
    char d1[TB_TEST_PATH_MAX], d2[TB_TEST_PATH_MAX];
    const char *args = "run sim.cfg --set solver.deterministic=true --set integrator.type=langevin "
                       "--set integrator.temperature=0.7";
    snprintf(d1, sizeof d1, "%s", tb_test_fresh_dir(top, "langevin1"));
    snprintf(d2, sizeof d2, "%s", tb_test_fresh_dir(top, "langevin2"));
    tb_test_write_file(d1, "sim.cfg", cluster_cfg);
    tb_test_write_file(d2, "sim.cfg", cluster_cfg);
    const int r1 = run_np(d1, 0, 2, "", args), r2 = run_np(d2, 2, 1, "", args);
    gsl_test(
        r1 != 0 || r2 != 0 || !tb_test_same_file(d1, d2, "checkpoint.tbck") ||
            !tb_test_same_file(d1, d2, "thermo.csv"),
        "Langevin, deterministic: 2 ranks end in the state of 1 process bit for bit (exit %d, %d)",
        r1, r2);
}

/* A failure on rank 1 mid-run: nonzero exit, one message naming the rank, no final checkpoint. */
static void test_failure(void)
{
    char d[TB_TEST_PATH_MAX];
    long len = 0;
    snprintf(d, sizeof d, "%s", tb_test_fresh_dir(top, "fault"));
    tb_test_write_file(d, "sim.cfg", cluster_cfg);
    const int rc = run_np(d, 2, 1, "TRIBODY_FAULT_RANK=1 TRIBODY_FAULT_AFTER=5",
                          "run sim.cfg --set integrator.steps=50");
    char *out = tb_test_read_file(d, "out.txt", &len);
    int msgs = 0;
    for (char *p = out; p && (p = strstr(p, "tribody: ")); p++)
        msgs++;
    gsl_test(rc == 0, "a fault on rank 1 at its 5th force evaluation: nonzero exit (%d)", rc);
    gsl_test(msgs != 1 || !strstr(out ? out : "", "rank 1 of 2") ||
                 !strstr(out ? out : "", "injected fault"),
             "one message, from rank 1, naming it (%d messages)", msgs);
    if (msgs != 1)
        printf("  (out.txt: %s)\n", out ? out : "(missing)");
    free(out);
    gsl_test(tb_test_read_file(d, "checkpoint.tbck", &len) != NULL,
             "no checkpoint written: the run did not end");

    snprintf(d, sizeof d, "%s", tb_test_fresh_dir(top, "badcfg"));
    tb_test_write_file(d, "sim.cfg", cluster_cfg);
    const int rb = run_np(d, 2, 1, "", "run sim.cfg --set solver.tile=0");
    out = tb_test_read_file(d, "out.txt", &len);
    msgs = 0;
    for (char *p = out; p && (p = strstr(p, "tribody: ")); p++)
        msgs++;
    gsl_test(rb != 2 || msgs != 1, "a bad setting on 2 ranks: exit 2 (%d), one message (%d)", rb,
             msgs);
    free(out);
    gsl_test(tb_test_read_file(d, "thermo.csv", &len) != NULL, "and no file written");
}

/* Reads the per-rank table that follows the first line holding `head` in dir/out.txt: rows
 * "rank wall force sum integr lists other units work share"; up to 4 ranks into units[] and
 * work[] (-1 where missing). Returns the rows read. */
static int rank_rows(const char *dir, const char *head, double *units, double *work, double *vir)
{
    long len;
    char *s = tb_test_read_file(dir, "out.txt", &len), *p;
    int got = 0;
    for (int r = 0; r < 4; r++)
        units[r] = work[r] = vir[r] = -1.0;
    if (s && (p = strstr(s, head)) && (p = strchr(p, '\n'))) {
        for (int row = 0; row < 4; row++) {
            double v[10];
            int r;
            p++;
            if (sscanf(p, "%d %lf %lf %lf %lf %lf %lf %lf %lf %lf%% %lf", &r, &v[0], &v[1], &v[2],
                       &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9]) != 11 || r != row)
                break;
            units[r] = v[6];
            work[r] = v[7];
            vir[r] = v[9];
            got++;
            if (!(p = strchr(p, '\n')))
                break;
        }
    }
    free(s);
    return got;
}

/* bench's per-rank timers on 2 ranks: one row per rank, and the work shares tile the whole:
 * the triplets sum to C(n,3) and the tiles to Tet(nb) (all-triplets); the anchors to n and
 * their entries to the lists' (liquid). */
static void test_bench_ranks(void)
{
    char d[TB_TEST_PATH_MAX];
    double u[4], w[4], v[4];
    snprintf(d, sizeof d, "%s", tb_test_fresh_dir(top, "bench"));
    gsl_test(run_np(d, 2, 1, "", "bench --cpu --kernel solver --n 200 --maps lambda,stride "
                                 "--precisions mixed --tile 32 --repeat 2 --no-solo --csv b.csv") != 0,
             "bench on 2 ranks exits 0");
    int rows = rank_rows(d, "per rank, ms per eval:", u, w, v);
    gsl_test(rows != 2, "bench on 2 ranks prints one per-rank row for each rank (%d rows)", rows);
    /* C(200,3) = 1313400 triplets in Tet(7) = 84 tiles of 32 */
    gsl_test(!(w[0] > 0 && w[1] > 0 && w[0] + w[1] == 1313400.0),
             "the ranks' triplets sum to C(200,3) = 1313400 (%.0f + %.0f)", w[0], w[1]);
    gsl_test(u[0] + u[1] != 84.0, "the ranks' tiles sum to Tet(7) = 84 (%.0f + %.0f)", u[0], u[1]);
    /* timed like an MD step: without the virial on every rank, as on one (issue 25: ranks > 1
     * summed it on every evaluation, ~10 % of the GPU kernel) */
    gsl_test(v[0] != 0.0 || v[1] != 0.0, "the timed evaluations on 2 ranks sum no virial, as on "
                                         "one rank (%.0f, %.0f)", v[0], v[1]);
    gsl_test(!tb_test_file_has(d, "b.csv", "# rank,solver3d,lambda,200,32,mixed,rank=1,per=eval,count=2"),
             "the CSV holds rank 1's timers");
    snprintf(d, sizeof d, "%s", tb_test_fresh_dir(top, "bench_liquid"));
    gsl_test(run_np(d, 2, 1, "", "bench --liquid --cpu --n 1000 --steps 3 --repeat 2 --csv l.csv") != 0,
             "bench --liquid on 2 ranks exits 0");
    rows = rank_rows(d, "per rank, ms per step:", u, w, v);
    gsl_test(rows != 2, "bench --liquid on 2 ranks prints one per-rank row for each rank (%d)", rows);
    gsl_test(u[0] + u[1] != 1000.0 || !(u[0] > 0 && u[1] > 0),
             "the ranks' anchors sum to n = 1000 (%.0f + %.0f)", u[0], u[1]);
    char sum[64];
    snprintf(sum, sizeof sum, "work shares sum to %.0f entries of %.0f", w[0] + w[1], w[0] + w[1]);
    gsl_test(!(w[0] > 0 && w[1] > 0) || !tb_test_output_has(d, sum),
             "the ranks' list entries sum to the lists' entries (\"%s\")", sum);
    /* issue 25: a rank builds only its anchors' rows (before, every rank built them all) */
    double held[2] = {-1, -1};
    long len;
    char *csv = tb_test_read_file(d, "l.csv", &len), *p = csv;
    while (p && (p = strstr(p, "# rank,")) != NULL) {
        int r;
        const char *h = strstr(p, "held="), *q = strstr(p, "rank="), *e = strchr(p, '\n');
        if (h && q && e && h < e && sscanf(q, "rank=%d", &r) == 1 && r >= 0 && r < 2)
            held[r] = strtod(h + 5, NULL);
        p++;
    }
    free(csv);
    gsl_test(held[0] != w[0] || held[1] != w[1],
             "each of 2 ranks holds only its anchors' rows: %.0f and %.0f entries (its shares "
             "%.0f and %.0f of %.0f)", held[0], held[1], w[0], w[1], w[0] + w[1]);
}

/* Starts `mpirun -np 2 tribody run sim.cfg` in dir (stdout and stderr to out.txt); returns
 * mpirun's pid. */
static pid_t start_mpirun(const char *dir)
{
    const char *bin = tb_test_bin();
    char cmd[TB_TEST_PATH_MAX + 512];
    pid_t pid;
    if (!bin)
        return -1;
    snprintf(cmd, sizeof cmd, "exec " MPIRUN " -np 2 '%s' run sim.cfg --set integrator.steps=100000000 "
             "--set output.trajectory_every=1 >out.txt 2>&1", bin);
    pid = fork();
    if (pid == 0) {
        if (chdir(dir) != 0)
            _exit(99);
        setenv("OMP_NUM_THREADS", "1", 1);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(98);
    }
    return pid;
}

/* mpirun's wait status within secs; else it (and its ranks) are killed and -1 returned. */
static int wait_mpirun(pid_t pid, double secs)
{
    const double t0 = tb_test_now();
    int st;
    while (tb_test_now() - t0 < secs) {
        if (waitpid(pid, &st, WNOHANG) == pid)
            return st;
        tb_test_sleep_ms(20);
    }
    tb_test_system("pkill -KILL -P %d", (int)pid);
    kill(pid, SIGKILL);
    waitpid(pid, &st, 0);
    return -1;
}

/* Issue 19, item 9: a signal under mpirun. to_ranks = 0: sig to mpirun, which sends SIGCONT,
 * then 1 s later SIGTERM to every rank (SIGKILL 1 s after that), and exits 1 whatever the
 * ranks do (Open MPI 4.1); to_ranks = 1: sig to the ranks, as a batch system's scancel does,
 * and mpirun exits with their status, 128 + sig. Either way every rank stops at the same step
 * boundary, rank 0 saves, and the checkpoint continues on 2 ranks. */
static void test_signal(const char *what, int sig, int to_ranks, int want)
{
    char d[TB_TEST_PATH_MAX], args[256];
    long len = 0, step = -1;
    int st, rc;
    snprintf(d, sizeof d, "%s", tb_test_fresh_dir(top, "signal"));
    tb_test_write_file(d, "sim.cfg", cluster_cfg);
    const pid_t pid = start_mpirun(d);
    if (pid < 0)
        return;
    /* stepping: trajectory frames (every step, 4 KB each), signalled at once: 5ae3f34 then lost
     * the run 4 times in 5 (rank 1 died before rank 0 had saved, and mpirun killed rank 0) */
    for (int i = 0; i < 1500 && len < 3 * 4096; i++) {
        char *t = tb_test_read_file(d, "trajectory.xyz", &len);
        free(t);
        tb_test_sleep_ms(10);
    }
    gsl_test(len < 3 * 4096, "%s: the run reaches stepping", what);
    if (to_ranks)
        tb_test_system("pkill -%d -P %d", sig, (int)pid);
    else
        kill(pid, sig);
    st = wait_mpirun(pid, 30.0);
    rc = st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    gsl_test(rc != want, "%s: mpirun exits %d (got %d)", what, want, rc);
    {
        char path[TB_TEST_PATH_MAX + 32], msg[128];
        sim_state s;
        ckpt_extra x;
        memset(&s, 0, sizeof s);
        memset(&x, 0, sizeof x);
        snprintf(path, sizeof path, "%s/checkpoint.tbck", d);
        if (ckpt_read(path, 0, "sim.cfg", &s, &x) == 0)
            step = s.step;
        free(x.thermostat);
        sim_state_free(&s);
        gsl_test(step < 1, "%s: rank 0 saved the state (checkpoint at step %ld)", what, step);
        /* mpirun, once signalled itself, may drop what the ranks print after that */
        snprintf(msg, sizeof msg, "interrupted by signal %d at step %ld; state saved to "
                                  "checkpoint.tbck", to_ranks ? sig : SIGTERM, step);
        if (to_ranks)
            gsl_test(!tb_test_output_has(d, msg), "%s: and says so", what);
    }
    snprintf(args, sizeof args, "run sim.cfg --restart checkpoint.tbck --set integrator.steps=%ld",
             step + 10);
    gsl_test(step < 0 || run_np(d, 2, 1, "", args) != 0,
             "%s: the checkpoint continues on 2 ranks, exit 0", what);
}

int main(void)
{
    tb_test_init();
    /* the byte-for-byte comparisons run separate runs: one run id for all (solver/io/restart.c) */
    setenv("TRIBODY_RUN_ID", "5eed1d", 1);
    const char *bin = tb_test_bin();
    char ver[512];
    long len;
    if (!bin)
        return tb_test_done();
    if (tb_test_temp_dir(top, sizeof top, "mpi") != 0)
        return tb_test_done();
    /* the build says whether it has MPI */
    tb_test_system("'%s' --version > '%s/version.txt' 2>&1", bin, top);
    char *v = tb_test_read_file(top, "version.txt", &len);
    snprintf(ver, sizeof ver, "%s", v ? v : "");
    free(v);
    if (!strstr(ver, "MPI") || tb_test_system("command -v mpirun >/dev/null 2>&1") != 0) {
        printf("SKIP: the build has no MPI or mpirun is missing (%s)\n", ver);
        return tb_test_done();
    }
    test_eval("cluster, map lambda", cluster_cfg, "--set solver.map=lambda", 1e-12);
    test_eval("cluster, map bb (per-rank sub-grid)", cluster_cfg, "--set solver.map=bb", 1e-12);
    test_eval("cluster, map stride", cluster_cfg,
              "--set solver.map=stride --set solver.precision=mixed", 1e-12);
    test_eval("cluster, map rec (filtered per tile)", cluster_cfg, "--set solver.map=rec", 1e-12);
    test_eval("cluster, map table, single precision", cluster_cfg,
              "--set solver.map=table --set solver.precision=single", 1e-5);
    test_eval("liquid, neighbour lists", liquid_cfg, "", 1e-12);
    test_restart("cluster", cluster_cfg, 100, 2, 1);
    test_restart("cluster", cluster_cfg, 100, 1, 2);
    test_restart("liquid", liquid_cfg, 20, 2, 1);
    { /* Stillinger-Weber: a centred body over full lists, each rank its centres' rows */
        char cwd[2048], sw_cfg[4096];
        snprintf(sw_cfg, sizeof sw_cfg,
                 "units = \"metal\";\nsystem = { particles = 64; seed = 3; boundary = "
                 "\"periodic\"; box = 10.862;\n  species = ( { name = \"Si\"; mass = 28.0855; } );\n"
                 "  init = { type = \"random\"; min_distance = 2.2; temperature = 1000.0; }; };\n"
                 "potential = { sw = { file = \"%s/tests/lammps/Si.sw\"; }; };\n"
                 "solver = { backend = \"cpu\"; precision = \"double\"; };\n"
                 "output = { thermo = \"\"; trajectory = \"\"; checkpoint = \"\"; };\n",
                 getcwd(cwd, sizeof cwd) ? cwd : ".");
        test_eval("Stillinger-Weber (Si.sw), full lists", sw_cfg, "", 1e-12);
    }
    test_eval("dilute gas, empty neighbour lists", gas_cfg, "", 1e-12);
    test_restart("dilute gas, empty neighbour lists", gas_cfg, 20, 2, 1);
    test_langevin();
    test_failure();
    test_bench_ranks();
    test_signal("SIGTERM to mpirun", SIGTERM, 0, 1);
    test_signal("SIGTERM to the ranks", SIGTERM, 1, 128 + SIGTERM);
    test_signal("SIGINT to the ranks", SIGINT, 1, 128 + SIGINT);
    tb_test_system("rm -rf '%s'", top);
    return tb_test_done();
}
