/* test_hostile.c — tribody's outputs, checkpoints and restarts against a hostile user (issue
 * 19, items 2, 3, 6, 7, 10 and 12): checkpoint paths that are devices, FIFOs, "-", a
 * directory NAME.tmp or too long a name; two outputs on one path; --restart on a FIFO; a
 * restart from an older checkpoint copy; forged checkpoint headers; a huge one-line thermo
 * file; lock files left behind; rows and frames lost or torn by a fast death or a full disk.
 * Every case runs the binary end to end. */
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/tb_test.h"

static char top[256]; /* a fresh temporary directory for this program */

/* tribody ARGS in dir, under `timeout 30` (a hang is a failure, not a stuck test), with a
 * fixed run id; stdout and stderr to dir/out.txt. */
static int tribody(const char *dir, const char *args)
{
    return tb_test_tribody(dir, "TRIBODY_RUN_ID=7e57 timeout 30 env", args, NULL);
}

static const char cfg12[] =
    "system = { particles = 12; seed = 5; };\n"
    "potential = { atm = { nu = 0.07; }; lj = {}; };\n"
    "integrator = { steps = 50; };\n"
    "solver = { backend = \"cpu\"; precision = \"double\"; tile = 8; };\n"
    "output = { thermo_every = 10; trajectory_every = 10; };\n";

/* A fresh scratch directory `name` with c.cfg = cfg12; its path in dir. */
static void fresh(char *dir, size_t size, const char *name)
{
    snprintf(dir, size, "%.2000s", tb_test_fresh_dir(top, name)); /* top is short */
    tb_test_write_file(dir, "c.cfg", cfg12);
}

/* Item 6: --restart on a FIFO is refused at once (it used to wait for a writer forever), in
 * one process and under mpirun, where every rank reads the checkpoint. */
static void test_restart_fifo(void)
{
    char dir[TB_TEST_PATH_MAX / 2];
    double t0;
    int rc;
    fresh(dir, sizeof dir, "rfifo");
    tb_test_system("mkfifo '%s/ck.tbck'", dir);
    t0 = tb_test_now();
    rc = tribody(dir, "run c.cfg --restart ck.tbck");
    gsl_test(rc != 2, "--restart FIFO: exit 2 (got %d; 124 is the 30 s timeout)", rc);
    gsl_test(!tb_test_output_has(dir, "ck.tbck: --restart: not a regular file"),
             "--restart FIFO: the message says it is not a regular file");
    gsl_test(tb_test_now() - t0 > 10, "--restart FIFO: refused within 10 s (%.1f s)", tb_test_now() - t0);
    /* a thermo file that is a FIFO on a restart is not read either (nothing to continue) */
    tb_test_system("rm '%s/ck.tbck'", dir);
    tribody(dir, "run c.cfg --set integrator.steps=20");
    tb_test_system("cd '%s' && mv thermo.csv t0.csv && mkfifo thermo.csv && "
                   "(timeout 20 cat thermo.csv > t1.csv &)", dir);
    rc = tribody(dir, "run c.cfg --restart checkpoint.tbck");
    gsl_test(rc != 0, "restart with output.thermo a FIFO: exit 0 (got %d)", rc);

    if (tb_test_system("command -v mpirun >/dev/null 2>&1") == 0) {
        tb_test_system("mkfifo '%s/m.tbck'", dir);
        rc = tb_test_tribody(dir, "timeout 60 mpirun -q --allow-run-as-root --oversubscribe "
                                  "--mca btl_vader_single_copy_mechanism none -np 2 env",
                             "run c.cfg --restart m.tbck", NULL);
        gsl_test(rc != 2 || !tb_test_output_has(dir, "m.tbck: --restart: not a regular file"),
                 "mpirun -np 2 --restart FIFO: exit 2 with the message (got %d)", rc);
    }
}

/* The address-space limit that makes an 8 GB allocation fail; none under AddressSanitizer
 * (the test-asan build), whose shadow memory needs terabytes of address space. */
#ifdef __SANITIZE_ADDRESS__
#define HOSTILE_VLIMIT ""
#else
#define HOSTILE_VLIMIT "ulimit -v 2097152; "
#endif

/* FNV-1a 64 as checkpoint.c computes it. */
static uint64_t fnv1a(const unsigned char *p, size_t len)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

/* Copies dir/from to dir/to with the 8 bytes at offset replaced by *val, the checksum made
 * right again: a forged file that passes every integrity check. 0 or -1. */
static int forge(const char *dir, const char *from, const char *to, long offset, const void *val)
{
    long len = 0;
    char p[TB_TEST_PATH_MAX];
    unsigned char *b = (unsigned char *)tb_test_read_file(dir, from, &len);
    FILE *f;
    uint64_t h;
    if (!b || len < offset + 16 || tb_test_path(p, sizeof p, dir, to) != 0 || !(f = fopen(p, "wb"))) {
        free(b);
        gsl_test(1, "forge %s from %s", to, from);
        return -1;
    }
    memcpy(b + offset, val, 8);
    h = fnv1a(b, (size_t)len - 8);
    memcpy(b + len - 8, &h, 8);
    fwrite(b, 1, (size_t)len, f);
    fclose(f);
    free(b);
    return 0;
}

/* Items 10 and 12: a header's particle count is compared with the configuration's (and the
 * file's size) before anything is allocated; a forged step or energy is refused by name. */
static void test_forged_checkpoints(void)
{
    char dir[TB_TEST_PATH_MAX / 2], p[TB_TEST_PATH_MAX];
    const long long n8 = 100000000, n5 = 500000, neg = -5;
    const double nan = NAN, inf = INFINITY;
    double t0;
    int rc;
    fresh(dir, sizeof dir, "forged");
    tribody(dir, "run c.cfg --set output.thermo= --set output.trajectory=");
    /* 10^8 particles in a sparse file of 8.2 GB: the arrays would fit, so only the count
     * stops it; under a 2 GiB address space an allocation of 8 GB would fail (exit 1) */
    forge(dir, "checkpoint.tbck", "big.tbck", 16, &n8);
    snprintf(p, sizeof p, "%s/big.tbck", dir);
    if (truncate(p, 8200000000LL) != 0)
        gsl_test(1, "make a sparse file of 8.2 GB");
    t0 = tb_test_now();
    rc = tb_test_tribody(dir, HOSTILE_VLIMIT "timeout 30 env", "run c.cfg --restart big.tbck",
                         NULL);
    gsl_test(rc != 2, "checkpoint claiming 10^8 particles in 8.2 GB: exit 2 (got %d)", rc);
    gsl_test(!tb_test_output_has(dir, "big.tbck: --restart: checkpoint has 100000000 particles "
                                      "but c.cfg sets system.particles = 12"),
             "checkpoint claiming 10^8 particles: compared with system.particles first");
    gsl_test(tb_test_now() - t0 > 5, "checkpoint claiming 10^8 particles: refused in %.2f s",
             tb_test_now() - t0);
    tb_test_system("rm -f '%s'", p);
    /* a configuration of 500000 and a small file claiming as many: the size stops it */
    forge(dir, "checkpoint.tbck", "small.tbck", 16, &n5);
    rc = tribody(dir, "run c.cfg --restart small.tbck --set system.particles=500000");
    gsl_test(rc != 2 || !tb_test_output_has(dir, "too few for the 500000 particles its header "
                                                 "claims"),
             "a small file claiming 500000 particles, as configured: exit 2, truncated (got %d)", rc);

    forge(dir, "checkpoint.tbck", "neg.tbck", 24, &neg);
    rc = tribody(dir, "run c.cfg --restart neg.tbck");
    gsl_test(rc != 2 || !tb_test_output_has(dir, "neg.tbck: --restart: the checkpoint's step is "
                                                 "out of range (got -5)"),
             "forged negative step: exit 2 naming the step (got %d)", rc);
    forge(dir, "checkpoint.tbck", "nan.tbck", 64, &nan);
    rc = tribody(dir, "run c.cfg --restart nan.tbck --set integrator.steps=60");
    gsl_test(rc != 2 || !tb_test_output_has(dir, "nan.tbck: --restart: the checkpoint's e0 (the "
                                                 "drift reference energy) is not finite"),
             "forged NaN reference energy: exit 2 naming e0 (got %d)", rc);
    forge(dir, "checkpoint.tbck", "inf.tbck", 32, &inf);
    rc = tribody(dir, "run c.cfg --restart inf.tbck --set integrator.steps=60");
    gsl_test(rc != 2 || !tb_test_output_has(dir, "the checkpoint's time is not finite"),
             "forged infinite time: exit 2 naming it (got %d)", rc);
    gsl_test(tribody(dir, "run c.cfg --restart checkpoint.tbck --set integrator.steps=60 "
                          "--set output.thermo= --set output.trajectory=") != 0,
             "the genuine checkpoint still restarts (exit 0)");
}

/* Item 12: the thermo file's run id is looked for in a bounded head, not in a first line
 * read whole (a 300 MB line took 300 MB). */
static void test_huge_thermo_line(void)
{
    char dir[TB_TEST_PATH_MAX / 2], p[TB_TEST_PATH_MAX];
    double t0;
    int rc;
    fresh(dir, sizeof dir, "hugeline");
    tribody(dir, "run c.cfg --set integrator.steps=20");
    /* 300 MB with no newline: 100 x, then zeros (a sparse file) */
    tb_test_system("cd '%s' && printf 'x%%.0s' $(seq 100) >thermo.csv", dir);
    snprintf(p, sizeof p, "%s/thermo.csv", dir);
    if (truncate(p, 300000000) != 0)
        gsl_test(1, "grow thermo.csv");
    t0 = tb_test_now();
    rc = tribody(dir, "run c.cfg --restart checkpoint.tbck");
    gsl_test(rc != 2, "thermo.csv a 300 MB first line: exit 2 (got %d)", rc);
    gsl_test(!tb_test_output_has(dir, "output.thermo = \"thermo.csv\" carries no run id (its first "
                                      "lines are longer than 65536 bytes)"),
             "thermo.csv a 300 MB first line: says only its head was read");
    gsl_test(tb_test_now() - t0 > 5, "thermo.csv a 300 MB first line: refused in %.2f s",
             tb_test_now() - t0);
}

/* Starts `tribody run c.cfg ARGS` in dir (stdout and stderr to err.txt) with a fixed run id;
 * returns its pid, or -1. */
static pid_t start_run(const char *dir, const char *a1, const char *a2, const char *a3,
                       const char *a4)
{
    const char *bin = tb_test_bin();
    pid_t pid;
    if (!bin)
        return -1;
    pid = fork();
    if (pid == 0) {
        if (chdir(dir) != 0)
            _exit(99);
        setenv("OMP_NUM_THREADS", "1", 1);
        setenv("TRIBODY_RUN_ID", "7e57", 1);
        if (!freopen("err.txt", "w", stderr) || !freopen("/dev/null", "w", stdout))
            _exit(97);
        execl(bin, bin, "run", "c.cfg", a1, a2, a3, a4, (char *)NULL);
        _exit(98);
    }
    return pid;
}

/* Waits (at most secs) until dir/name holds needle; 1 when it does. */
static int wait_for(const char *dir, const char *name, const char *needle, double secs)
{
    const double t0 = tb_test_now();
    for (;;) {
        char *s = tb_test_read_file(dir, name, NULL);
        const int has = s && strstr(s, needle);
        free(s);
        if (has)
            return 1;
        if (tb_test_now() - t0 > secs)
            return 0;
        tb_test_sleep_ms(10);
    }
}

/* Item 3 (flushing) and item 12 (full disk): the header and every row are in the thermo file
 * as soon as written, so a SIGKILL loses nothing; a write that a full disk cuts short
 * leaves no torn row or frame. */
static void test_flushing(void)
{
    char dir[TB_TEST_PATH_MAX / 2];
    pid_t pid;
    int st = 0, rc;
    fresh(dir, sizeof dir, "flush");
    /* no checkpoint before the kill: writing one flushed the thermo file, which hid this */
    tb_test_write_file(dir, "c.cfg",
                       "system = { particles = 12; seed = 5; };\n"
                       "potential = { atm = { nu = 0.07; }; lj = {}; };\n"
                       "integrator = { steps = 100000000; };\n"
                       "solver = { backend = \"cpu\"; precision = \"double\"; tile = 8; };\n"
                       "output = { thermo_every = 100000000; trajectory_every = 100000000;\n"
                       "           checkpoint_every = 100000000; };\n");
    pid = start_run(dir, NULL, NULL, NULL, NULL);
    if (pid > 0) {
        wait_for(dir, "thermo.csv", "\n0,", 10);
        wait_for(dir, "trajectory.xyz", "run_id=", 2);
        kill(pid, SIGKILL);
        waitpid(pid, &st, 0);
        gsl_test(!tb_test_file_has(dir, "thermo.csv", "# tribody run_id=0000000000007e57\n") ||
                     !tb_test_file_has(dir, "thermo.csv", "\nstep,time,kinetic"),
                 "SIGKILL: thermo.csv has its run-id line and header");
        gsl_test(!tb_test_file_has(dir, "thermo.csv", "\n0,0,"), "SIGKILL: thermo.csv has step 0");
        gsl_test(!tb_test_file_has(dir, "trajectory.xyz", "step=0 "), "SIGKILL: trajectory.xyz has frame 0");
    }

    /* A file size limit of 8 KiB (ulimit -f 16, in 512-byte blocks; SIGXFSZ ignored, so the
     * write fails with EFBIG as on a full disk): frames of 12 particles are about 2.2 KiB. */
    fresh(dir, sizeof dir, "full");
    rc = tb_test_tribody(dir, "trap '' XFSZ; ulimit -f 16; timeout 30 env",
                         "run c.cfg --set output.trajectory_every=1 --set integrator.steps=20", NULL);
    gsl_test(rc != 1, "trajectory over the size limit: exit 1 (got %d)", rc);
    gsl_test(!tb_test_output_has(dir, "cannot write an XYZ frame: File too large"),
             "trajectory over the size limit: the error names the cause");
    {
        long len = 0;
        char *t = tb_test_read_file(dir, "trajectory.xyz", &len);
        int lines = 0;
        for (long i = 0; t && i < len; i++)
            lines += t[i] == '\n';
        gsl_test(!(t && len > 0 && len < 8192 && t[len - 1] == '\n' && lines % 14 == 0),
                 "trajectory over the size limit: ends on a whole frame (%ld bytes, %d lines)",
                 len, lines);
        free(t);
    }
    fresh(dir, sizeof dir, "fullt");
    rc = tb_test_tribody(dir, "trap '' XFSZ; ulimit -f 16; timeout 30 env",
                         "run c.cfg --set output.thermo_every=1 --set output.trajectory= "
                         "--set integrator.steps=100", NULL);
    gsl_test(rc != 1, "thermo over the size limit: exit 1 (got %d)", rc);
    {
        long len = 0;
        char *t = tb_test_read_file(dir, "thermo.csv", &len);
        const char *last = NULL;
        int commas = 0; /* 25 columns: step .. yz, density */
        for (long i = 0; t && i + 1 < len; i++)
            if (t[i] == '\n')
                last = t + i + 1;
        for (const char *c = last; c && *c && *c != '\n'; c++)
            commas += *c == ',';
        gsl_test(!(t && len > 0 && t[len - 1] == '\n' && commas == 24),
                 "thermo over the size limit: ends on a whole row (%ld bytes, %d commas)", len,
                 commas);
        free(t);
    }
}

/* Whether dir/out.txt contains needle (printing nothing either way). */
static int output_has(const char *dir, const char *needle)
{
    char *s = tb_test_read_file(dir, "out.txt", NULL);
    const int has = s && strstr(s, needle);
    free(s);
    return has;
}

/* Item 7: a restart from an older checkpoint copy keeps the longer thermo and trajectory
 * whole as backups (NAME.~1~) before cutting them back, and says so. */
static void test_restart_older_copy(void)
{
    char dir[TB_TEST_PATH_MAX / 2], keep[TB_TEST_PATH_MAX / 2];
    long len50 = 0, len100 = 0, lenb = 0;
    char *t50, *t100, *bak, *now;
    fresh(dir, sizeof dir, "older");
    snprintf(keep, sizeof keep, "%s", tb_test_fresh_dir(top, "older_keep"));
    tribody(dir, "run c.cfg");
    tb_test_system("cd '%s' && cp checkpoint.tbck old.tbck", dir);
    t50 = tb_test_read_file(dir, "thermo.csv", &len50);
    gsl_test(tribody(dir, "run c.cfg --restart checkpoint.tbck --set integrator.steps=100") != 0,
             "older copy: the run continued to step 100");
    tb_test_system("cp '%s/thermo.csv' '%s/trajectory.xyz' '%s/'", dir, dir, keep);
    t100 = tb_test_read_file(dir, "thermo.csv", &len100);
    gsl_test(tribody(dir, "run c.cfg --restart old.tbck --set integrator.steps=60") != 0,
             "older copy: restart from the step-50 copy exits 0");
    bak = tb_test_read_file(dir, "thermo.csv.~1~", &lenb);
    gsl_test(!(bak && lenb == len100 && t100 && !memcmp(bak, t100, (size_t)lenb)),
             "older copy: thermo.csv.~1~ holds the whole step-100 file (%ld bytes, %ld)", lenb,
             len100);
    free(bak);
    {
        char p1[TB_TEST_PATH_MAX], p2[TB_TEST_PATH_MAX];
        snprintf(p1, sizeof p1, "%s/trajectory.xyz.~1~", dir);
        snprintf(p2, sizeof p2, "%s/trajectory.xyz", keep);
        gsl_test(tb_test_system("cmp -s '%s' '%s'", p1, p2) != 0,
                 "older copy: trajectory.xyz.~1~ holds the whole step-100 trajectory");
    }
    gsl_test(!tb_test_output_has(dir, "thermo.csv runs past the checkpoint (") ||
                 !tb_test_output_has(dir, "the whole file is kept as thermo.csv.~1~") ||
                 !tb_test_output_has(dir, "kept as trajectory.xyz.~1~"),
             "older copy: a notice names each backup");
    now = tb_test_read_file(dir, "thermo.csv", NULL);
    gsl_test(!(now && t50 && !strncmp(now, t50, (size_t)len50) && strstr(now, "\n60,") &&
               !strstr(now, "\n70,")),
             "older copy: thermo.csv is the step-50 file continued to step 60");
    free(now);
    free(t50);
    free(t100);
    /* a restart from the newest checkpoint, files as long as it recorded: no backup */
    gsl_test(tribody(dir, "run c.cfg --restart checkpoint.tbck --set integrator.steps=70") != 0 ||
                 tb_test_exists(dir, "thermo.csv.~2~") || output_has(dir, "runs past"),
             "restart from the latest checkpoint: no backup, no notice");
}

/* Whether dir/name is of the kind mode (S_IFIFO, S_IFCHR, ...), the link not followed. */
static int is_kind(const char *dir, const char *name, mode_t kind)
{
    char p[TB_TEST_PATH_MAX];
    struct stat st;
    return tb_test_path(p, sizeof p, dir, name) == 0 && lstat(p, &st) == 0 &&
           (st.st_mode & S_IFMT) == kind;
}

/* Item 2: a checkpoint path that is a FIFO or a device is refused at the path check (it
 * would be replaced by the rename of NAME.tmp), as is a NAME.tmp that is not a regular file;
 * nothing is computed or written. */
static void test_checkpoint_kinds(void)
{
    char dir[TB_TEST_PATH_MAX / 2];
    int before, rc;
    fresh(dir, sizeof dir, "ckfifo");
    tb_test_system("mkfifo '%s/ck'", dir);
    before = tb_test_count_entries(dir);
    rc = tribody(dir, "run c.cfg --set output.checkpoint=ck");
    gsl_test(rc != 2, "output.checkpoint = a FIFO: exit 2 (got %d)", rc);
    gsl_test(!tb_test_output_has(dir, "c.cfg: output.checkpoint = \"ck\" is a FIFO, not a regular "
                                      "file (a checkpoint is written to ck.tmp and renamed over it)"),
             "output.checkpoint = a FIFO: the message names the setting and why");
    gsl_test(!is_kind(dir, "ck", S_IFIFO), "output.checkpoint = a FIFO: the FIFO is left in place");
    gsl_test(tb_test_count_entries(dir) != before + 1,
             "output.checkpoint = a FIFO: nothing written but out.txt");
    /* the interrupt checkpoint (output.checkpoint = "") is checked the same way */
    tb_test_system("mkfifo '%s/interrupted.tbck'", dir);
    rc = tribody(dir, "run c.cfg --set output.checkpoint= --set output.thermo=t.csv");
    gsl_test(rc != 2 || !tb_test_output_has(dir, "the interrupt checkpoint = \"interrupted.tbck\" "
                                                  "is a FIFO"),
             "interrupted.tbck a FIFO: exit 2 naming the interrupt checkpoint (got %d)", rc);

    /* A character device of our own (/dev/null's numbers), never the system's: only root. */
    if (getuid() == 0 && tb_test_system("mknod '%s/nul' c 1 3", dir) == 0) {
        rc = tribody(dir, "run c.cfg --set output.checkpoint=nul");
        gsl_test(rc != 2 || !tb_test_output_has(dir, "output.checkpoint = \"nul\" is a character "
                                                     "device, not a regular file"),
                 "output.checkpoint = a character device: exit 2 naming it (got %d)", rc);
        gsl_test(!is_kind(dir, "nul", S_IFCHR), "output.checkpoint = a device: the node stays");
    }

    fresh(dir, sizeof dir, "cktmp");
    tb_test_system("mkdir '%s/checkpoint.tbck.tmp'", dir);
    before = tb_test_count_entries(dir);
    rc = tribody(dir, "run c.cfg");
    gsl_test(rc != 2, "checkpoint.tbck.tmp a directory: exit 2 before step 0 (got %d)", rc);
    gsl_test(!tb_test_output_has(dir, "c.cfg: output.checkpoint = \"checkpoint.tbck\": "
                                      "checkpoint.tbck.tmp, where the checkpoint is written first, "
                                      "is a directory"),
             "checkpoint.tbck.tmp a directory: the message names it");
    gsl_test(tb_test_count_entries(dir) != before + 1, "checkpoint.tbck.tmp a directory: nothing written");
    /* a link there would be followed by the write: refused too */
    tb_test_system("rmdir '%s/checkpoint.tbck.tmp' && ln -s elsewhere '%s/checkpoint.tbck.tmp'",
                   dir, dir);
    rc = tribody(dir, "run c.cfg");
    gsl_test(rc != 2 || !tb_test_output_has(dir, "is a symbolic link"),
             "checkpoint.tbck.tmp a symbolic link: exit 2 (got %d)", rc);
    gsl_test(tb_test_exists(dir, "elsewhere"), "checkpoint.tbck.tmp a symbolic link: its target not made");
    /* a stale regular NAME.tmp (a run killed while writing) is simply replaced */
    tb_test_system("rm '%s/checkpoint.tbck.tmp' && echo stale > '%s/checkpoint.tbck.tmp'", dir, dir);
    gsl_test(tribody(dir, "run c.cfg") != 0 || tb_test_exists(dir, "checkpoint.tbck.tmp") ||
                 !tb_test_exists(dir, "checkpoint.tbck"),
             "a stale regular checkpoint.tbck.tmp: the run writes its checkpoint (exit 0)");
}

/* Item 12: "-" as the checkpoint, two outputs on one path, names too long for the lock and
 * backup names beside them: exit 2 at the path check, one line. */
static void test_paths(void)
{
    char dir[TB_TEST_PATH_MAX / 2], args[1024], name[300];
    int before, rc;
    fresh(dir, sizeof dir, "paths");
    before = tb_test_count_entries(dir);
    rc = tribody(dir, "run c.cfg --set output.checkpoint=-");
    gsl_test(rc != 2, "output.checkpoint = \"-\": exit 2 (got %d)", rc);
    gsl_test(!tb_test_output_has(dir, "c.cfg: output.checkpoint = \"-\": a checkpoint is a binary "
                                      "file, not standard output"),
             "output.checkpoint = \"-\": the message says why");
    gsl_test(tb_test_exists(dir, "-") || tb_test_count_entries(dir) != before + 1,
             "output.checkpoint = \"-\": no file named - and nothing else written");

    rc = tribody(dir, "run c.cfg --set output.trajectory=thermo.csv");
    gsl_test(rc != 2, "output.trajectory = output.thermo: exit 2 (got %d)", rc);
    gsl_test(!tb_test_output_has(dir, "c.cfg: output.thermo = \"thermo.csv\" and "
                                      "output.trajectory = \"thermo.csv\" are the same path"),
             "output.trajectory = output.thermo: says \"same path\" naming both settings");
    gsl_test(output_has(dir, "pid"), "output.trajectory = output.thermo: no pid named");
    rc = tribody(dir, "run c.cfg --set output.checkpoint=./thermo.csv");
    gsl_test(rc != 2 || !tb_test_output_has(dir, "output.thermo = \"thermo.csv\" and "
                                                 "output.checkpoint = \"./thermo.csv\" are the "
                                                 "same path"),
             "output.checkpoint = ./thermo.csv: the same path written two ways (got %d)", rc);
    gsl_test(tb_test_count_entries(dir) != before + 1, "same paths: nothing written");

    /* 250 bytes: .NAME.lock would be 256, over NAME_MAX (255) */
    memset(name, 'a', 250);
    name[250] = '\0';
    snprintf(args, sizeof args, "run c.cfg --set output.thermo=%s", name);
    rc = tribody(dir, args);
    gsl_test(rc != 2, "output.thermo of 250 bytes: exit 2 (got %d)", rc);
    gsl_test(!tb_test_output_has(dir, "the file name is 250 bytes long; at most 247 leave room"),
             "output.thermo of 250 bytes: the message gives the length and the limit");
    memset(name, 'c', 252);
    name[252] = '\0';
    snprintf(args, sizeof args, "run c.cfg --set output.checkpoint=%s", name);
    rc = tribody(dir, args);
    gsl_test(rc != 2 || !tb_test_output_has(dir, "output.checkpoint = \"ccc"),
             "output.checkpoint of 252 bytes (NAME.tmp 256): exit 2 naming it (got %d)", rc);
    gsl_test(tb_test_count_entries(dir) != before + 1, "names too long: nothing written");
    gsl_test(tribody(dir, "run c.cfg --set output.thermo=bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
                          "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
                          "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
                          "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb") != 0,
             "output.thermo of 240 bytes: runs (exit 0)");
}

/* Whether dir holds a lock file (.NAME.lock); lists them when it does. */
static int has_locks(const char *dir)
{
    return tb_test_system("ls -a '%s' | grep '\\.lock$'", dir) == 0;
}

/* Item 12: a run removes the lock files it holds when it ends: done, failed or stopped by a
 * signal; and it does not remove another run's. */
static void test_locks_removed(void)
{
    char dir[TB_TEST_PATH_MAX / 2];
    pid_t pid;
    int st = 0;
    fresh(dir, sizeof dir, "locks");
    gsl_test(tribody(dir, "run c.cfg") != 0 || has_locks(dir),
             "a clean run leaves no .NAME.lock files");
    gsl_test(tribody(dir, "run c.cfg --set output.checkpoint= ") != 0 || has_locks(dir),
             "a clean run with output.checkpoint = \"\" leaves no .interrupted.tbck.lock");
    /* errors after the locks are taken: a bad initial state (exit 2), a full disk (exit 1) */
    tb_test_write_file(dir, "same.xyz", "12\nplain\nAr 0 0 0\nAr 0 0 0\nAr 1 0 0\nAr 2 0 0\n"
                                        "Ar 3 0 0\nAr 4 0 0\nAr 5 0 0\nAr 6 0 0\nAr 7 0 0\n"
                                        "Ar 8 0 0\nAr 9 0 0\nAr 10 0 0\n");
    gsl_test(tribody(dir, "run c.cfg --set system.init.type=xyz --set system.init.file=same.xyz") != 2 ||
                 has_locks(dir),
             "a non-finite initial state (exit 2, after the locks) leaves no lock files");
    gsl_test(tb_test_tribody(dir, "trap '' XFSZ; ulimit -f 16; timeout 30 env",
                             "run c.cfg --set output.trajectory_every=1", NULL) != 1 ||
                 has_locks(dir),
             "a full disk (exit 1) leaves no lock files");
    pid = start_run(dir, "--set", "integrator.steps=100000000", "--set", "system.particles=40");
    if (pid > 0) {
        gsl_test(!wait_for(dir, ".thermo.csv.lock", "", 10), "the long run took its locks");
        /* a second run is refused while the first holds them, and leaves them in place */
        gsl_test(tribody(dir, "run c.cfg") != 2 || !tb_test_exists(dir, ".thermo.csv.lock"),
                 "a refused second run leaves the first run's locks alone");
        kill(pid, SIGTERM);
        waitpid(pid, &st, 0);
        gsl_test(!(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM) || has_locks(dir),
                 "a run stopped by SIGTERM leaves no lock files");
    }
}

int main(void)
{
    tb_test_init();
    if (tb_test_temp_dir(top, sizeof top, "hostile") != 0)
        return tb_test_done();
    TB_TEST_RUN(test_restart_fifo);
    TB_TEST_RUN(test_forged_checkpoints);
    TB_TEST_RUN(test_huge_thermo_line);
    TB_TEST_RUN(test_flushing);
    TB_TEST_RUN(test_restart_older_copy);
    TB_TEST_RUN(test_checkpoint_kinds);
    TB_TEST_RUN(test_paths);
    TB_TEST_RUN(test_locks_removed);
    tb_test_remove_dir(top);
    return tb_test_done();
}
