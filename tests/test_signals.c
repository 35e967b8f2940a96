/* test_signals.c — what `tribody run` does with SIGINT and SIGTERM (solver/cli/run.c): the
 * first one saves the state at the next step boundary, says so, and the run dies of it; a
 * repeat within a second (GNU timeout and job launchers signal the process, then its group)
 * is ignored; a deliberate second one a second later stops the run at once, without saving.
 * The runs here take 0.4 s per step, so that a repeated signal lands inside the step the
 * first one interrupted. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/tb_test.h"

static char top[256]; /* a fresh temporary directory for this program */

/* About 0.4 s per step on two cores (1000 particles, all triplets), so that a repeat sent 20 ms
 * after the first signal lands in the step it interrupted. A trajectory frame every step: the
 * file grows by 1002 lines a step, which shows the stepping (thermo rows sit in a buffer). */
#define SLOW_N 1000
static const char slow_cfg[] =
    "system = { particles = 1000; seed = 3; };\n"
    "potential = { atm = { nu = 0.07; }; lj = {}; };\n"
    "integrator = { steps = 100000000; };\n"
    "solver = { backend = \"cpu\"; precision = \"mixed\"; tile = 8; };\n"
    "output = { thermo_every = 1; trajectory_every = 1; checkpoint_every = 100000; };\n";

/* Starts `tribody run c.cfg ARGS` in dir, stderr to err.txt; in a process group of its own
 * when group is set (as GNU timeout puts its child). Returns the pid, or -1. */
static pid_t start_run(const char *dir, int group, const char *a1, const char *a2)
{
    const char *bin = tb_test_bin();
    pid_t pid;
    if (!bin)
        return -1;
    pid = fork();
    if (pid == 0) {
        if (group)
            setpgid(0, 0);
        if (chdir(dir) != 0)
            _exit(99);
        setenv("OMP_NUM_THREADS", "2", 1);
        setenv("TRIBODY_RUN_ID", "516", 1);
        if (!freopen("err.txt", "w", stderr) || !freopen("/dev/null", "w", stdout))
            _exit(97);
        execl(bin, bin, "run", "c.cfg", a1, a2, (char *)NULL);
        _exit(98);
    }
    if (group && pid > 0)
        setpgid(pid, pid); /* also here: the group exists before the parent signals it */
    return pid;
}

/* Lines in dir/name (0 when missing). */
static int count_lines(const char *dir, const char *name)
{
    char *s = tb_test_read_file(dir, name, NULL);
    int n = 0;
    for (char *p = s; p && (p = strchr(p, '\n')); p++)
        n++;
    free(s);
    return n;
}

/* Waits up to secs for dir/name to hold `needle` (NULL: to have at least `lines` lines). */
static int wait_for(const char *dir, const char *name, const char *needle, int lines, double secs)
{
    const double t0 = tb_test_now();
    while (tb_test_now() - t0 < secs) {
        if (needle) {
            char *s = tb_test_read_file(dir, name, NULL);
            const int has = s && strstr(s, needle);
            free(s);
            if (has)
                return 1;
        } else if (count_lines(dir, name) >= lines) {
            return 1;
        }
        tb_test_sleep_ms(10);
    }
    return 0;
}

/* The wait status of pid within secs; after that it is killed (SIGKILL) and -1 returned. */
static int wait_exit(pid_t pid, double secs)
{
    const double t0 = tb_test_now();
    int st;
    while (tb_test_now() - t0 < secs) {
        if (waitpid(pid, &st, WNOHANG) == pid)
            return st;
        tb_test_sleep_ms(10);
    }
    kill(pid, SIGKILL);
    waitpid(pid, &st, 0);
    return -1;
}

/* The step named in "interrupted by signal S at step N" in dir/err.txt, or -1. */
static long stopped_step(const char *dir)
{
    char *s = tb_test_read_file(dir, "err.txt", NULL), *p = s ? strstr(s, " at step ") : NULL;
    const long step = p ? strtol(p + 9, NULL, 10) : -1;
    free(s);
    return step;
}

/* The checkpoint of an interrupted run continues: one more step, exit 0. */
static void check_resumes(const char *what, const char *dir)
{
    char args[256];
    const long step = stopped_step(dir);
    snprintf(args, sizeof args, "run c.cfg --restart checkpoint.tbck --set integrator.steps=%ld",
             step + 1);
    gsl_test(step < 0 || tb_test_tribody(dir, NULL, args, "err2.txt") != 0,
             "%s: the checkpoint (step %ld) resumes to step %ld, exit 0", what, step, step + 1);
}

/* sig delivered twice while the run steps: how (the second at once to the process, or to its
 * group, or 20 ms later: after the first was handled, the step still running). The run saves
 * and dies of sig. */
enum twice { BACK_TO_BACK, TO_GROUP, AFTER_20MS };

static void test_twice(const char *what, int sig, enum twice how)
{
    char dir[TB_TEST_PATH_MAX / 2], msg[64];
    pid_t pid;
    int st;
    snprintf(dir, sizeof dir, "%s", tb_test_fresh_dir(top, "twice"));
    tb_test_write_file(dir, "c.cfg", slow_cfg);
    pid = start_run(dir, how == TO_GROUP, NULL, NULL);
    if (pid < 0)
        return;
    /* stepping: the frames of steps 0 and 1 */
    gsl_test(!wait_for(dir, "trajectory.xyz", NULL, 2 * (SLOW_N + 2), 60.0),
             "%s: the run reaches stepping", what);
    kill(pid, sig);
    if (how == TO_GROUP)
        kill(-pid, sig); /* GNU timeout: the child, then the group */
    else
        tb_test_sleep_ms(how == AFTER_20MS ? 20 : 0);
    if (how != TO_GROUP)
        kill(pid, sig);
    st = wait_exit(pid, 30.0);
    gsl_test(!(st != -1 && WIFSIGNALED(st) && WTERMSIG(st) == sig),
             "%s: the run saves and dies of signal %d (shell: %d), not at once (status 0x%x)",
             what, sig, 128 + sig, st);
    snprintf(msg, sizeof msg, "interrupted by signal %d at step ", sig);
    gsl_test(!tb_test_file_has(dir, "err.txt", msg) ||
                 !tb_test_file_has(dir, "err.txt", "state saved to checkpoint.tbck"),
             "%s: says it saved the state and where", what);
    {
        char *e = tb_test_read_file(dir, "err.txt", NULL);
        gsl_test(!e || strstr(e, "stopped at once") != NULL,
                 "%s: the repeat is not taken for a second request", what);
        free(e);
    }
    check_resumes(what, dir);
}

/* A deliberate second Ctrl-C, 1.3 s after the first, during a long step-0 evaluation (3000
 * particles: about 10 s on two cores): the run stops at once and saves nothing. */
static void test_second_request(void)
{
    char dir[TB_TEST_PATH_MAX / 2];
    pid_t pid;
    int st;
    double t;
    snprintf(dir, sizeof dir, "%s", tb_test_fresh_dir(top, "second"));
    tb_test_write_file(dir, "c.cfg", slow_cfg);
    pid = start_run(dir, 0, "--set", "system.particles=3000");
    if (pid < 0)
        return;
    /* the locks are taken just before the handlers are installed */
    for (t = tb_test_now(); tb_test_now() - t < 30.0 && !tb_test_exists(dir, ".checkpoint.tbck.lock");)
        tb_test_sleep_ms(10);
    gsl_test(!tb_test_exists(dir, ".checkpoint.tbck.lock"), "second Ctrl-C: the run takes its locks");
    tb_test_sleep_ms(100);
    kill(pid, SIGINT);
    tb_test_sleep_ms(1300);
    t = tb_test_now();
    kill(pid, SIGINT);
    st = wait_exit(pid, 30.0);
    t = tb_test_now() - t;
    gsl_test(!(st != -1 && WIFSIGNALED(st) && WTERMSIG(st) == SIGINT) || t > 2.0,
             "second Ctrl-C 1.3 s after the first: the run dies of SIGINT at once (%.2f s)", t);
    gsl_test(tb_test_exists(dir, "checkpoint.tbck"), "second Ctrl-C: nothing saved");
    gsl_test(!tb_test_file_has(dir, "err.txt", "a second signal: stopped at once, without saving"),
             "second Ctrl-C: says it stopped without saving");
}

/* GNU timeout itself (SIGTERM to the child, then to its group): 143 with --preserve-status,
 * the state saved. */
static void test_timeout(void)
{
    char dir[TB_TEST_PATH_MAX / 2];
    int rc;
    snprintf(dir, sizeof dir, "%s", tb_test_fresh_dir(top, "timeout"));
    tb_test_write_file(dir, "c.cfg", slow_cfg);
    if (tb_test_system("command -v timeout >/dev/null 2>&1") != 0) {
        printf("SKIP: no timeout command\n");
        return;
    }
    rc = tb_test_tribody(dir, "TRIBODY_RUN_ID=516 timeout --preserve-status 1 env", "run c.cfg",
                         "err.txt");
    gsl_test(rc != 128 + SIGTERM, "timeout 1 tribody run: exit 143 (got %d)", rc);
    gsl_test(!tb_test_file_has(dir, "err.txt", "interrupted by signal 15 at step "),
             "timeout 1 tribody run: the state saved, with the message");
    check_resumes("timeout", dir);
}

int main(void)
{
    tb_test_init();
    if (!tb_test_bin() || tb_test_temp_dir(top, sizeof top, "signals") != 0)
        return tb_test_done();
    test_twice("SIGTERM twice, back to back", SIGTERM, BACK_TO_BACK);
    test_twice("SIGTERM to the process, then to its group", SIGTERM, TO_GROUP);
    test_twice("SIGINT, then again 20 ms later", SIGINT, AFTER_20MS);
    TB_TEST_RUN(test_second_request);
    TB_TEST_RUN(test_timeout);
    tb_test_remove_dir(top);
    return tb_test_done();
}
