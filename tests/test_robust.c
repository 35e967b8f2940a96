/* test_robust.c — tribody against a hostile user (issue 12): odd output paths, non-finite
 * results, far and wrapped coordinates, unbounded reads, signals, late problems, restarts
 * that do not belong, two runs in one directory. Every case runs the binary end to end. */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tests/tb_test.h"

static char top[256]; /* a fresh temporary directory for this program */

static int tribody(const char *dir, const char *args)
{
    return tb_test_tribody(dir, NULL, args, NULL);
}

/* Sends sig to child pid and waits for it, at most `secs` seconds; then kills it (SIGKILL,
 * a FAIL line: the run ignored the signal). Returns the wait status. */
static int stop_child(pid_t pid, int sig, int secs)
{
    int st = 0;
    kill(pid, sig);
    for (int i = 0; i < 100 * secs; i++) {
        if (waitpid(pid, &st, WNOHANG) == pid)
            return st;
        tb_test_sleep_ms(10);
    }
    kill(pid, SIGKILL);
    waitpid(pid, &st, 0);
    gsl_test(1, "the run acted on signal %d within %d s (killed)", sig, secs);
    return st;
}

static const char cfg16[] =
    "system = { particles = 16; seed = 3; };\n"
    "potential = { atm = { nu = 0.07; }; lj = {}; };\n"
    "integrator = { steps = 20; };\n"
    "solver = { backend = \"cpu\"; precision = \"mixed\"; tile = 8; };\n"
    "output = { thermo_every = 5; };\n";

/* Item 1: only regular files are backed up; devices and FIFOs are written as they are. */
static void test_output_kinds(void)
{
    const char *d = tb_test_fresh_dir(top, "kinds");
    char dir[TB_TEST_PATH_MAX / 2], path[TB_TEST_PATH_MAX];
    struct stat st;
    snprintf(dir, sizeof dir, "%s", d);
    tb_test_write_file(dir, "c.cfg", cfg16);
    /* A character device of our own (a copy of /dev/null's numbers), so that a regression
     * renames it and not the system's. Only root may make one. */
    if (getuid() == 0 && tb_test_system("mknod '%s/nul' c 1 3", dir) == 0) {
        int rc = tribody(dir, "eval c.cfg -o nul");
        snprintf(path, sizeof path, "%s/nul", dir);
        gsl_test(rc != 0, "eval -o DEVICE exits 0 (got %d)", rc);
        gsl_test(!(stat(path, &st) == 0 && S_ISCHR(st.st_mode)) || tb_test_exists(dir, "nul.~1~"),
                 "eval -o DEVICE leaves the device node in place, no nul.~1~");
    }
    if (tb_test_system("mkfifo '%s/ff' && (timeout 30 cat '%s/ff' >/dev/null &)", dir, dir) == 0) {
        int rc = tribody(dir, "eval c.cfg -o ff");
        snprintf(path, sizeof path, "%s/ff", dir);
        gsl_test(rc != 0, "eval -o FIFO exits 0 (got %d)", rc);
        gsl_test(!(stat(path, &st) == 0 && S_ISFIFO(st.st_mode)) || tb_test_exists(dir, "ff.~1~"),
                 "eval -o FIFO writes into the FIFO, no ff.~1~");
    }
    tb_test_system("mkdir '%s/adir'", dir);
    gsl_test(tribody(dir, "eval c.cfg -o adir") != 2, "eval -o DIRECTORY exits 2");
    gsl_test(!tb_test_output_has(dir, "\"adir\" is a directory"),
             "eval -o DIRECTORY says it is a directory");
    gsl_test(tb_test_exists(dir, "adir.~1~"), "eval -o DIRECTORY moves nothing");
    gsl_test(tribody(dir, "eval c.cfg -o -") != 0 || !tb_test_output_has(dir, "Properties="),
             "eval -o - writes the frame on stdout");
}

/* Item 7: an output path whose directory is missing is refused before step 0. */
static void test_output_dirs(void)
{
    const char *d = tb_test_fresh_dir(top, "dirs");
    char dir[TB_TEST_PATH_MAX];
    int before;
    snprintf(dir, sizeof dir, "%s", d);
    tb_test_write_file(dir, "c.cfg", cfg16);
    before = tb_test_count_entries(dir);
    gsl_test(tribody(dir, "run c.cfg --set output.checkpoint=nodir/ck.tbck") != 2,
             "output.checkpoint in a missing directory: exit 2");
    gsl_test(
        !tb_test_output_has(dir,
                            "c.cfg: output.checkpoint = \"nodir/ck.tbck\": directory nodir/ does "
                            "not exist"),
        "output.checkpoint in a missing directory: the message names config, setting, directory");
    gsl_test(tb_test_count_entries(dir) != before + 1,
             "output.checkpoint in a missing directory: no thermo or trajectory written");
    gsl_test(tribody(dir, "run c.cfg --set output.thermo=nodir/t.csv") != 2 ||
                 !tb_test_output_has(dir, "output.thermo"),
             "output.thermo in a missing directory: exit 2 naming output.thermo");
}

/* Item 9: a second run on the same outputs is refused while the first holds them. */
static void test_lock(void)
{
    const char *d = tb_test_fresh_dir(top, "lock");
    const char *bin = tb_test_bin();
    char dir[TB_TEST_PATH_MAX];
    pid_t pid;
    if (!bin)
        return;
    snprintf(dir, sizeof dir, "%s", d);
    tb_test_write_file(dir, "c.cfg", cfg16);
    pid = fork();
    if (pid == 0) {
        if (chdir(dir) != 0)
            _exit(99);
        setenv("OMP_NUM_THREADS", "1", 1);
        if (!freopen("first.txt", "w", stderr) || !freopen("/dev/null", "w", stdout))
            _exit(97);
        execl(bin, bin, "run", "c.cfg", "--set", "integrator.steps=100000000", "--set",
              "system.particles=40", (char *)NULL);
        _exit(98);
    }
    for (int i = 0; i < 100 && !tb_test_exists(dir, "thermo.csv"); i++)
        tb_test_sleep_ms(50);
    int rc = tribody(dir, "run c.cfg");
    gsl_test(rc != 2, "second run on the same outputs: exit 2 (got %d)", rc);
    gsl_test(!tb_test_output_has(dir, "in use by another tribody run"),
             "second run on the same outputs: says another run holds them");
    gsl_test(tb_test_exists(dir, "thermo.csv.~1~") ||
                 tb_test_exists(dir, "checkpoint.tbck.tmp.~1~"),
             "second run on the same outputs: backs up nothing");
    stop_child(pid, SIGTERM, 20);
    gsl_test(tribody(dir, "run c.cfg") != 0, "after the first run ends, a run on the outputs works");
}

/* Item 2: an input that is non-finite from the start is a bad input (exit 2, nothing
 * written); a value that overflows during the run stops it (exit 1) with the step, the term
 * and a particle named, keeping the last good checkpoint. */
static void test_nonfinite(void)
{
    const char *d = tb_test_fresh_dir(top, "nonfinite");
    char dir[TB_TEST_PATH_MAX / 2];
    int before;
    long len = 0;
    snprintf(dir, sizeof dir, "%s", d);
    tb_test_write_file(dir, "same.xyz", "3\nplain\nAr 0 0 0\nAr 0 0 0\nAr 1 0 0\n");
    tb_test_write_file(dir, "s.cfg",
                       "system = { particles = 3; init = { type = \"xyz\"; file = \"same.xyz\"; }; };\n"
                       "potential = { atm = { nu = 0.07; }; lj = {}; };\n"
                       "solver = { backend = \"cpu\"; precision = \"double\"; tile = 8; };\n");
    before = tb_test_count_entries(dir);
    gsl_test(tribody(dir, "eval s.cfg") != 2, "two particles at one place: eval exits 2");
    gsl_test(!tb_test_output_has(
                 dir, "s.cfg: the initial state has a non-finite triplet energy (particle 0"),
             "two particles at one place: eval names the term and a particle");
    gsl_test(tb_test_count_entries(dir) != before + 1, "two particles at one place: eval writes nothing");
    gsl_test(tribody(dir, "run s.cfg") != 2, "two particles at one place: run exits 2");
    gsl_test(tb_test_count_entries(dir) != before + 1, "two particles at one place: run writes nothing");
    /* solver.deterministic sums fixed-point integer words, which cannot carry a NaN: the
     * non-finite values are counted beside them and still refused (they had decoded to finite
     * garbage, forces of 2^43) */
    tb_test_write_file(dir, "sd.cfg",
                       "system = { particles = 3; init = { type = \"xyz\"; file = \"same.xyz\"; }; };\n"
                       "potential = { atm = { nu = 0.07; }; lj = {}; };\n"
                       "solver = { backend = \"cpu\"; precision = \"double\"; tile = 8; "
                       "deterministic = true; };\n");
    gsl_test(tribody(dir, "eval sd.cfg") != 2, "two particles at one place, deterministic: eval exits 2");
    gsl_test(!tb_test_output_has(dir, "sd.cfg: the initial state has a non-finite"),
             "two particles at one place, deterministic: eval names the non-finite state");
    gsl_test(tribody(dir, "eval sd.cfg --set potential.atm.cutoff=2.0 --set potential.lj.cutoff=2.0")
                 != 2,
             "two particles at one place, deterministic, neighbour lists: eval exits 2");
    gsl_test(tb_test_count_entries(dir) != before + 2,
             "two particles at one place, deterministic: eval writes nothing");

    /* Two particles flying apart at 10^6 sigma/tau: in mixed precision the products of the
     * squared sides pass FLT_MAX (3.4e38) when the sides reach about 2.6e6 sigma, at step
     * 742 here (the step is fixed: same input, one thread order). */
    tb_test_write_file(dir, "fly.xyz", "4\nProperties=species:S:1:pos:R:3:vel:R:3\n"
                                       "Ar 0 0 0 0 0 0\nAr 1.1 0 0 0 0 0\n"
                                       "Ar 0.55 0.95 0 0 0 -1e6\nAr 0.5 0.3 1.0 0 0 1e6\n");
    tb_test_write_file(dir, "f.cfg",
                       "system = { particles = 4; init = { type = \"xyz\"; file = \"fly.xyz\"; }; };\n"
                       "potential = { atm = { nu = 0.07; }; lj = {}; };\n"
                       "integrator = { steps = 40000; dt = 0.002; };\n"
                       "solver = { backend = \"cpu\"; precision = \"mixed\"; tile = 8; };\n"
                       "output = { thermo_every = 100; checkpoint_every = 100; trajectory = \"\"; };\n");
    gsl_test(tribody(dir, "run f.cfg") != 1, "overflow during the run: exit 1");
    gsl_test(!tb_test_output_has(
                 dir, "f.cfg: non-finite triplet energy (first bad particle: 0, its force) "
                      "at step 742"),
             "overflow during the run: the message names the term, a particle and the step");
    gsl_test(!tb_test_output_has(dir, "checkpoint.tbck at step 700, is kept"),
             "overflow during the run: the last good checkpoint (step 700) is named and kept");
    char *t = tb_test_read_file(dir, "thermo.csv", &len);
    gsl_test(!(t && strstr(t, "\n700,") && !strstr(t, "nan") && !strstr(t, "\n800,")),
             "overflow during the run: thermo.csv ends at step 700 with no NaN");
    free(t);
}

/* Starts `tribody run c.cfg ARGS...` in dir (stderr to err.txt), waits until the file
 * `ready` appears in dir (a lock file: the run takes its locks just before it installs its
 * signal handlers), then ms milliseconds more, sends sig and returns the wait status. */
static int run_and_signal(const char *dir, int sig, const char *ready, long ms, const char *a1,
                          const char *a2, const char *a3, const char *a4)
{
    const char *bin = tb_test_bin();
    pid_t pid;
    if (!bin)
        return -1;
    pid = fork();
    if (pid == 0) {
        if (chdir(dir) != 0)
            _exit(99);
        setenv("OMP_NUM_THREADS", "2", 1);
        if (!freopen("err.txt", "w", stderr) || !freopen("/dev/null", "w", stdout))
            _exit(97);
        execl(bin, bin, "run", "c.cfg", a1, a2, a3, a4, (char *)NULL);
        _exit(98);
    }
    for (int i = 0; i < 1000 && !tb_test_exists(dir, ready); i++)
        tb_test_sleep_ms(10);
    tb_test_sleep_ms(ms);
    return stop_child(pid, sig, 20);
}

/* Item 6: a signal is acted on at the next step boundary, even with every output disabled
 * and before the first output event; after saving, the run dies of the signal. */
static void test_signals(void)
{
    const char *d = tb_test_fresh_dir(top, "signals");
    char dir[TB_TEST_PATH_MAX / 2];
    int st;
    snprintf(dir, sizeof dir, "%s", d);
    tb_test_write_file(dir, "c.cfg",
                       "system = { particles = 40; seed = 3; };\n"
                       "potential = { atm = { nu = 0.07; }; lj = {}; };\n"
                       "integrator = { steps = 100000000; };\n"
                       "solver = { backend = \"cpu\"; precision = \"mixed\"; tile = 8; };\n"
                       "output = { thermo = \"\"; trajectory = \"\"; checkpoint = \"\"; };\n");
    st = run_and_signal(dir, SIGTERM, ".interrupted.tbck.lock", 300, "--set",
                        "output.thermo_every=7", "--set", "system.seed=5");
    gsl_test(!(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM),
             "SIGTERM with outputs disabled: the run dies of SIGTERM (shell: 143)");
    gsl_test(!tb_test_exists(dir, "interrupted.tbck"),
             "SIGTERM with outputs disabled: interrupted.tbck written");
    gsl_test(!tb_test_file_has(dir, "err.txt",
                               "resume with: tribody run c.cfg --set output.thermo_every=7 --set "
                               "system.seed=5 --restart interrupted.tbck"),
             "SIGTERM: the resume command keeps every --set");
    tb_test_system("rm -f '%s/.interrupted.tbck.lock'", dir);
    st = run_and_signal(dir, SIGINT, ".interrupted.tbck.lock", 300, "--set", "output.thermo_every=7",
                        NULL, NULL);
    gsl_test(!(WIFSIGNALED(st) && WTERMSIG(st) == SIGINT), "SIGINT: the run dies of SIGINT (shell: 130)");
    gsl_test(!tb_test_exists(dir, "interrupted.tbck.~1~"),
             "a second interruption keeps the first interrupted.tbck as interrupted.tbck.~1~");

    /* During the step-0 evaluation (n = 800 takes about a second on two cores): the
     * evaluation finishes, step 0 is written and checkpointed, and the run dies. */
    d = tb_test_fresh_dir(top, "signal0");
    snprintf(dir, sizeof dir, "%s", d);
    tb_test_write_file(dir, "c.cfg",
                       "system = { particles = 800; seed = 3; };\n"
                       "potential = { atm = { nu = 0.07; }; lj = {}; };\n"
                       "integrator = { steps = 100; };\n"
                       "solver = { backend = \"cpu\"; precision = \"mixed\"; tile = 8; };\n");
    st = run_and_signal(dir, SIGTERM, ".checkpoint.tbck.lock", 30, NULL, NULL, NULL, NULL);
    gsl_test(!(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM),
             "SIGTERM during the step-0 evaluation: the run dies of SIGTERM");
    gsl_test(
        !tb_test_file_has(dir, "err.txt",
                          "interrupted by signal 15 at step 0; state saved to checkpoint.tbck"),
        "SIGTERM during the step-0 evaluation: step 0 saved, with a message");
    char *t = tb_test_read_file(dir, "thermo.csv", NULL);
    gsl_test(!(t && strstr(t, "\n0,0,")), "SIGTERM during the step-0 evaluation: thermo.csv has step 0");
    free(t);
}

/* One bad input: exit 2 within 20 s (timeout), the message, and nothing written. cfg is the
 * config text, files (NULL-terminated name, text pairs) are written beside it. */
static void bad_input(const char *what, const char *cfg, const char *const *files,
                      const char *args, const char *msg)
{
    const char *d = tb_test_fresh_dir(top, "bad");
    char dir[TB_TEST_PATH_MAX / 2];
    int before, rc;
    snprintf(dir, sizeof dir, "%s", d);
    tb_test_write_file(dir, "c.cfg", cfg);
    for (int i = 0; files && files[i]; i += 2) /* "!name": the text is a printf format */
        if (files[i][0] == '!')
            tb_test_system("printf '%s' >'%s/%s'", files[i + 1], dir, files[i] + 1);
        else
            tb_test_write_file(dir, files[i], files[i + 1]);
    before = tb_test_count_entries(dir);
    rc = tb_test_tribody(dir, "timeout 20 env", args, NULL);
    gsl_test(rc != 2, "%s: exit status 2 (got %d)", what, rc);
    gsl_test(!tb_test_output_has(dir, msg), "%s: message contains '%s'", what, msg);
    gsl_test(tb_test_count_entries(dir) != before + 1, "%s: nothing written", what);
}

#define XYZ_CFG(n) "system = { particles = " #n "; init = { type = \"xyz\"; file = \"in.xyz\"; }; };\n" \
                   "solver = { backend = \"cpu\"; };\n"

/* Items 4 and 7 and the minor ones: unbounded reads, overflowing numbers, odd files. */
static void test_bad_inputs(void)
{
    static char huge_line[3 << 20];
    const char *const zero_file[] = {"in.xyz", "3\nplain\nAr 0 0 0\nAr 1 0 0\nAr 0 1 0\n", NULL};
    const char *const far_xyz[] = {"in.xyz", "3\nplain\nAr 0 0 0\nAr 1e308 0 0\nAr 0 1 0\n", NULL};
    const char *const big_count[] = {"in.xyz", "1000000000000\nplain\nAr 0 0 0\n", NULL};
    const char *const many[] = {"in.xyz", "1000000\nplain\nAr 0 0 0\nAr 1 0 0\n", NULL};
    const char *const nul[] = {"!in.xyz", "3\\nplain\\nAr 0 0 0\\nAr 1 \\0 0\\nAr 0 1 0\\n", NULL};
    const char *const line[] = {"in.xyz", huge_line, NULL};
    memset(huge_line, 'x', sizeof huge_line - 1);
    memcpy(huge_line, "3\n", 2);
    bad_input("system.init.file = /dev/zero",
              "system = { particles = 3; init = { type = \"xyz\"; file = \"/dev/zero\"; }; };\n",
              zero_file, "eval c.cfg", "c.cfg:1: system.init.file: \"/dev/zero\" is not a regular file");
    bad_input("config file /dev/zero", "", NULL, "eval /dev/zero",
              "/dev/zero: cannot read config file: not a regular file");
    bad_input("@include /dev/zero", "@include \"/dev/zero\"\nsystem = { particles = 3; };\n", NULL,
              "eval c.cfg", "c.cfg:1: @include \"/dev/zero\": cannot read: not a regular file");
    bad_input("UTF-8 byte-order mark", "\xef\xbb\xbfsystem = { particles = 3; };\n", NULL,
              "eval c.cfg", "c.cfg:1: the file starts with a UTF-8 byte-order mark");
    bad_input("XYZ coordinate 1e308", XYZ_CFG(3), far_xyz, "eval c.cfg",
              "in.xyz:4: column 2 (x): value 1e308 is beyond the largest supported magnitude");
    bad_input("XYZ count 10^12 on a tiny file", XYZ_CFG(3), big_count, "eval c.cfg",
              "in.xyz:1: expected the atom count");
    bad_input("XYZ count 10^6 on a tiny file", XYZ_CFG(1000000), many, "eval c.cfg",
              "in.xyz:1: 1000000 atoms cannot fit in the file's 32 bytes");
    bad_input("XYZ NUL byte", XYZ_CFG(3), nul, "eval c.cfg", "in.xyz:4: NUL byte in the line");
    bad_input("XYZ line of 3 MB", XYZ_CFG(3), line, "eval c.cfg",
              "in.xyz:2: line longer than 1048576 bytes");
    bad_input("system.init.radius = 1e160",
              "system = { particles = 16; init = { radius = 1e160; }; };\n", NULL, "eval c.cfg",
              "c.cfg:1: system.init.radius: must be at most 1e+15 in magnitude (got 1e+160)");
    bad_input("temperature 9e18", "system = { particles = 16; };\n", NULL,
              "run c.cfg --set system.init.temperature=9e18",
              "system.init.temperature: must be at most 1e+15 in magnitude (got 9e+18)");
    bad_input("2^63 with the L suffix", "system = { particles = 16; seed = 9223372036854775808L; };\n",
              NULL, "eval c.cfg",
              "c.cfg:1: system.seed: 9223372036854775808L is beyond the 64-bit integer range");
    bad_input("10^23 with the L suffix", "integrator = { steps = 99999999999999999999999L; };\n"
                                         "system = { particles = 16; };\n",
              NULL, "run c.cfg", "c.cfg:1: integrator.steps: 99999999999999999999999L is beyond");
    /* fuzz_config's finding: libconfig leaks its string buffer here (tests/asan.supp) */
    bad_input("syntax error after a string", "system = { particles = 3; init = { type = \"xyz\";"
                                             "threads \"/dev/null\"; }; };\n",
              NULL, "eval c.cfg", "c.cfg:1: syntax error");
    bad_input("empty string where '=' belongs", "system = { particles = 3; };\na \"\" ;\n", NULL,
              "eval c.cfg", "c.cfg:2: syntax error");
    /* fuzz_config's finding: libconfig's scanner exit()s on an @include of a directory, which
     * an include name cut short by a NUL byte becomes */
    {
        const char *const nul_include[] = {"!c.cfg", "system = { particles = 3; };\\n"
                                                     "@include \\\"\\0\\0\\001\\\"\\n", NULL};
        bad_input("NUL byte in an @include name", "", nul_include, "eval c.cfg",
                  "c.cfg:2: NUL byte in the line");
    }
    bad_input("@include of a directory", "@include \".\"\nsystem = { particles = 3; };\n", NULL,
              "eval c.cfg", "c.cfg:1: @include \".\": cannot read: Is a directory");
    bad_input("n beyond what the map covers", "system = { particles = 10000000; };\n"
              "solver = { backend = \"cpu\"; map = \"bb\"; tile = 8; };\n", NULL, "run c.cfg",
              "c.cfg:1: system.particles: 10000000 particles in tiles of 8 make 1250000 tiles per "
              "side, more than solver.map = \"bb\" supports (65535): at most 524280 particles");
    /* issue 21: the barostat's bad inputs, through `run` (nothing written) */
#define BARO_CFG "system = { particles = 32; boundary = \"periodic\"; box = 5.0; };\n" \
                 "potential = { atm = { cutoff = 2.0; }; };\n"
    bad_input("barostat without type", BARO_CFG "integrator = { barostat = { pressure = 1.0; "
              "}; };\n", NULL, "run c.cfg", "c.cfg:3: integrator.barostat.type: required");
    bad_input("mtk with nve", BARO_CFG "integrator = { barostat = { type = \"mtk\"; "
              "pressure = 1.0; }; };\n", NULL, "run c.cfg",
              "c.cfg:3: integrator.barostat.type: mtk needs the Nose-Hoover chain");
    bad_input("mtk tri on an open axis", "system = { particles = 32; boundary = \"ppf\"; box = "
              "5.0; };\npotential = { atm = { cutoff = 2.0; }; };\nintegrator = { type = "
              "\"nose-hoover\"; temperature = 1.0; barostat = { type = \"mtk\"; pressure = 1.0; "
              "coupling = \"tri\"; }; };\n", NULL, "run c.cfg",
              "integrator.barostat.coupling: tri scales every axis, but axis z is open");
    bad_input("barostat on an open axis", "system = { particles = 32; boundary = \"ppf\"; box = "
              "5.0; };\npotential = { atm = { cutoff = 2.0; }; };\nintegrator = { barostat = { "
              "type = \"c-rescale\"; pressure = 1.0; }; };\n", NULL, "run c.cfg",
              "integrator.barostat.coupling: iso scales every axis, but axis z is open");
    bad_input("tau_P = 0", BARO_CFG "integrator = { barostat = { type = \"c-rescale\"; "
              "pressure = 1.0; }; };\n", NULL, "run c.cfg --set integrator.barostat.period=0",
              "integrator.barostat.period: must be > 0 tau (got 0)");
    bad_input("negative compressibility", BARO_CFG "integrator = { barostat = { type = "
              "\"c-rescale\"; pressure = 1.0; compressibility = -0.1; }; };\n", NULL, "run c.cfg",
              "c.cfg:3: integrator.barostat.compressibility: must be > 0 sigma^3/epsilon");
#undef BARO_CFG
    bad_input("--set of 2^64", "system = { particles = 16; };\n", NULL,
              "run c.cfg --set system.seed=18446744073709551616",
              "system.seed: 18446744073709551616 is beyond the 64-bit integer range");
}

/* The number after "key" in dir/out.txt; NAN when absent. */
static double out_value(const char *dir, const char *key)
{
    char *s = tb_test_read_file(dir, "out.txt", NULL);
    const char *p = s ? strstr(s, key) : NULL;
    double v = p ? strtod(p + strlen(key), NULL) : (double)NAN;
    free(s);
    return v;
}

/* An 8-particle cube of edge 1.1 shifted by (dx, 0, 0), its first particle at x = x0. */
static const char *cube_xyz(double dx, double x0)
{
    static char buf[1024];
    int len = snprintf(buf, sizeof buf, "8\nplain\n");
    for (int i = 0; i < 8; i++) {
        double x = i == 0 ? x0 : dx + 1.1 * (i & 1);
        len += snprintf(buf + len, sizeof buf - (size_t)len, "Ar %.17g %.17g %.17g\n", x,
                        1.1 * ((i >> 1) & 1), 1.1 * ((i >> 2) & 1));
    }
    return buf;
}

/* Items 3 and 5: periodic positions are wrapped in double on input; open clusters far from
 * the origin are recentred, and an extent float cannot resolve is refused. */
static void test_far_coordinates(void)
{
    const char *d = tb_test_fresh_dir(top, "far");
    char dir[TB_TEST_PATH_MAX / 2];
    double e0, e1;
    snprintf(dir, sizeof dir, "%s", d);
    tb_test_write_file(dir, "p.cfg",
                       "system = { particles = 8; boundary = \"periodic\"; box = 5.0;\n"
                       "  init = { type = \"xyz\"; file = \"in.xyz\"; }; };\n"
                       "potential = { atm = { nu = 0.07; cutoff = 2.5; }; lj = {}; };\n"
                       "solver = { backend = \"cpu\"; precision = \"mixed\"; tile = 8; };\n");
    tb_test_write_file(dir, "in.xyz", cube_xyz(0.0, 0.0));
    gsl_test(tribody(dir, "eval p.cfg -o a.xyz") != 0, "periodic cube at x = 0: eval exits 0");
    e0 = out_value(dir, "E_triplet = ");
    tb_test_write_file(dir, "in.xyz", cube_xyz(0.0, 1e6));
    gsl_test(tribody(dir, "eval p.cfg -o b.xyz") != 0, "periodic cube, one particle at x = 1e6: eval exits 0");
    e1 = out_value(dir, "E_triplet = ");
    gsl_test(!(e0 == e1 && isfinite(e0) && e0 != 0),
             "periodic: x = 1e6 wraps to x = 0 in a box of 5, same triplet energy in mixed "
             "precision (%.15g, %.15g)", e0, e1);

    tb_test_write_file(dir, "o.cfg",
                       "system = { particles = 8; init = { type = \"xyz\"; file = \"in.xyz\"; }; };\n"
                       "potential = { atm = { nu = 0.07; }; lj = {}; };\n"
                       "solver = { backend = \"cpu\"; precision = \"mixed\"; tile = 8; };\n");
    tb_test_write_file(dir, "in.xyz", cube_xyz(0.0, 0.0));
    tribody(dir, "eval o.cfg -o c.xyz");
    e0 = out_value(dir, "E_triplet = ");
    tb_test_write_file(dir, "in.xyz", cube_xyz(1e7, 1e7));
    gsl_test(tribody(dir, "eval o.cfg -o d.xyz") != 0, "open cube at x = 1e7: eval exits 0");
    e1 = out_value(dir, "E_triplet = ");
    /* the recentred cube differs from the original by the rounding of the shift (1 ulp of
     * 1e7, 2e-9 sigma), and mixed precision resolves about 1e-7 relative */
    gsl_test(!(fabs(e1 - e0) <= 1e-6 * fabs(e0)),
             "open cube at x = 1e7 is recentred: mixed triplet energy %.9g, at the origin %.9g",
             e1, e0);
    tb_test_write_file(dir, "in.xyz", cube_xyz(0.0, 5e7));
    gsl_test(tribody(dir, "eval o.cfg -o e.xyz") != 2,
             "open cluster with one particle at 5e7 sigma, mixed precision: exit 2");
    gsl_test(
        !tb_test_output_has(dir, "o.cfg: the system extends over 5e+07 sigma, more than the 1e+06 "
                                 "sigma that solver.precision = \"mixed\" can resolve"),
        "open cluster with one particle at 5e7 sigma: the message names the extent and the limit");
    gsl_test(tribody(dir, "eval o.cfg -o f.xyz --set solver.precision=double") != 0 ||
                 !isfinite(out_value(dir, "E_triplet = ")),
             "open cluster with one particle at 5e7 sigma, double precision: a finite energy");
}

static const char restart_cfg[] =
    "system = { particles = 12; seed = 5; };\n"
    "potential = { atm = { nu = 0.07; }; lj = {}; };\n"
    "integrator = { steps = 50; };\n"
    "solver = { backend = \"cpu\"; precision = \"double\"; tile = 8; };\n"
    "output = { thermo_every = 10; trajectory_every = 10; };\n";

/* Item 8: a restart refuses changed physics (unless allowed), another run's files, and a
 * checkpoint that is not what it claims; an older checkpoint does not overwrite the newer. */
static void test_restart_trust(void)
{
    const char *d = tb_test_fresh_dir(top, "restart");
    char dir[TB_TEST_PATH_MAX / 2], path[TB_TEST_PATH_MAX];
    int before;
    snprintf(dir, sizeof dir, "%s", d);
    tb_test_write_file(dir, "c.cfg", restart_cfg);
    gsl_test(tribody(dir, "run c.cfg") != 0, "restart: first run to step 50 exits 0");
    before = tb_test_count_entries(dir);
    gsl_test(tribody(dir, "run c.cfg --restart checkpoint.tbck --set integrator.steps=60 "
                          "--set integrator.dt=0.001") != 2,
             "restart with another integrator.dt: exit 2");
    gsl_test(!tb_test_output_has(
                 dir, "integrator.dt = 0.001, but the checkpoint checkpoint.tbck was run "
                      "with integrator.dt = 0.002; to continue with the change, add --allow-change "
                      "integrator.dt"),
             "restart with another integrator.dt: the message names the setting and both values");
    gsl_test(tb_test_count_entries(dir) != before, "restart with another integrator.dt: nothing written");
    gsl_test(tribody(dir, "run c.cfg --restart checkpoint.tbck --set integrator.steps=60 "
                          "--set potential.atm.nu=0.08") != 2 ||
                 !tb_test_output_has(dir, "add --allow-change potential.atm.nu"),
             "restart with another potential.atm.nu: exit 2, saying how to allow it");
    gsl_test(tribody(dir, "run c.cfg --restart checkpoint.tbck --set integrator.steps=60 "
                          "--set potential.atm.nu=0.08 --allow-change potential.atm.nu") != 0 ||
                 !tb_test_output_has(dir, "potential.atm.nu changes from"),
             "restart with --allow-change potential.atm.nu: exit 0 with a notice");

    /* An older checkpoint continues its own files, and the newer checkpoint is kept. */
    tb_test_system("cd '%s' && rm -f thermo* traj* check* && cp c.cfg c2.cfg", dir);
    tribody(dir, "run c.cfg");
    tb_test_system("cd '%s' && cp checkpoint.tbck old.tbck", dir);
    gsl_test(tribody(dir, "run c.cfg --restart checkpoint.tbck --set integrator.steps=100") != 0,
             "restart: continued to step 100");
    gsl_test(tribody(dir, "run c.cfg --restart old.tbck --set integrator.steps=80") != 0,
             "restart from the older checkpoint (step 50) of the same run: exit 0");
    gsl_test(!tb_test_exists(dir, "checkpoint.tbck.~1~"),
             "restart from an older checkpoint keeps the newer one as checkpoint.tbck.~1~");
    char *t = tb_test_read_file(dir, "thermo.csv", NULL);
    gsl_test(!(t && strstr(t, "\n80,") && !strstr(t, "\n90,") && !strncmp(t, "# tribody run_id=", 17)),
             "restart from the older checkpoint: thermo.csv truncated to step 50 and continued to 80");
    free(t);

    /* Another run now owns thermo.csv: the old checkpoint must not extend it. */
    tribody(dir, "run c.cfg --set system.seed=9");
    before = tb_test_count_entries(dir);
    gsl_test(tribody(dir, "run c.cfg --restart old.tbck --set integrator.steps=80") != 2,
             "restart from a checkpoint whose thermo.csv now belongs to another run: exit 2");
    gsl_test(!tb_test_output_has(dir, "output.thermo = \"thermo.csv\" belongs to another run"),
             "another run's thermo.csv: the message says so");
    gsl_test(tb_test_count_entries(dir) != before, "another run's thermo.csv: nothing written");

    /* A version 1 checkpoint, and a header that claims more particles than the file holds. */
    tb_test_write_file(dir, "v1.tbck", "TBCKPT01 and then some bytes");
    gsl_test(tribody(dir, "run c.cfg --restart v1.tbck") != 2 ||
                 !tb_test_output_has(dir, "v1.tbck: --restart: a version 1 checkpoint (TBCKPT01"),
             "a version 1 checkpoint is refused with a message");
    snprintf(path, sizeof path, "%s/checkpoint.tbck", dir);
    FILE *f = fopen(path, "r+b");
    long long n = 100000000;
    if (f) {
        fseek(f, 16, SEEK_SET); /* magic, endianness marker, then n */
        fwrite(&n, sizeof n, 1, f);
        fclose(f);
    }
    gsl_test(tribody(dir, "run c.cfg --restart checkpoint.tbck") != 2 ||
                 !tb_test_output_has(dir, "checkpoint has 100000000 particles but c.cfg sets "
                                          "system.particles = 12"),
             "a header claiming 10^8 particles is refused before allocating them");
}

/* A full disk (a copy of /dev/full) is reported once, with exit 1; and the random initial
 * state's "cannot place" message names the config file. */
static void test_late_errors(void)
{
    const char *d = tb_test_fresh_dir(top, "full");
    char dir[TB_TEST_PATH_MAX / 2];
    snprintf(dir, sizeof dir, "%s", d);
    tb_test_write_file(dir, "c.cfg", cfg16);
    if (getuid() == 0 && tb_test_system("mknod '%s/full' c 1 7", dir) == 0) {
        gsl_test(tribody(dir, "run c.cfg --set output.trajectory=full --set output.trajectory_every=5")
                     != 1, "full disk: exit 1");
        char *s = tb_test_read_file(dir, "out.txt", NULL);
        const char *p = s ? strstr(s, "No space left on device") : NULL;
        gsl_test(!(p && !strstr(p + 1, "No space left on device")),
                 "full disk: the error is printed once (%s)", s ? tb_test_first_line(s) : "");
        free(s);
    }
    gsl_test(tribody(dir, "eval c.cfg --set system.particles=400 --set system.init.radius=4.7 "
                          "--set system.init.min_distance=1.0") != 2 ||
                 !tb_test_output_has(
                     dir, "tribody: c.cfg: system.init.min_distance: cannot place particle"),
             "random initial state that cannot be packed: exit 2, the message names the config");
}

/* Issue 19, item 4: every thermo column is checked, not only energies, forces, positions and
 * velocities (a kinetic energy that overflows with finite velocities, its total, drift,
 * temperature), and an initial state whose forces move a particle past the interaction range
 * in one step is refused (exit 2) with the particles named. */
static void test_nonfinite_thermo(void)
{
    const char *d = tb_test_fresh_dir(top, "nonfinite_thermo");
    char dir[TB_TEST_PATH_MAX / 2];
    int before, rc;
    long len = 0;
    snprintf(dir, sizeof dir, "%s", d);
    tb_test_write_file(dir, "close.xyz", "3\nplain\nAr 0 0 0\nAr 1e-13 0 0\nAr 0 5 0\n");
    tb_test_write_file(dir, "far.xyz", "3\nplain\nAr 0 0 0\nAr 10 0 0\nAr 0 10 0\n");
    tb_test_write_file(dir, "close.cfg",
                       "system = { particles = 3; init = { type = \"xyz\"; file = \"close.xyz\"; }; };\n"
                       "potential = { lj = {}; };\n"
                       "solver = { backend = \"cpu\"; precision = \"double\"; };\n");
    before = tb_test_count_entries(dir);
    /* LJ at 1e-13 sigma: E = 4e156, |F| = 4.8e170, all finite in double; one step would move
     * the atoms 9.6e164 sigma (old: exit 0, kinetic inf from step 1) */
    rc = tribody(dir, "run close.cfg");
    gsl_test(rc != 2, "two atoms 1e-13 sigma apart: run exits 2 (got %d)", rc);
    gsl_test(!tb_test_output_has(dir, "close.cfg: the initial state cannot be integrated at "
                                      "integrator.dt = 0.002: the force on particle 0 "
                                      "(4.8e+170 epsilon/sigma) moves it 9.6e+164 sigma") ||
                 !tb_test_output_has(dir, "more than the shortest interaction range, 2.5 sigma "
                                          "(potential.lj.cutoff); its closest particle is 1, "
                                          "1e-13 sigma away"),
             "two atoms 1e-13 sigma apart: the message names both atoms, the step's reach and "
             "the range");
    gsl_test(tb_test_count_entries(dir) != before + 1, "two atoms 1e-13 sigma apart: nothing written");
    /* a mass of 1e-300: |F| ~ 20 moves a particle 4e295 sigma in one step */
    tb_test_write_file(dir, "light.cfg",
                       "system = { particles = 16; seed = 3; mass = 1e-300; };\n"
                       "potential = { lj = {}; };\n"
                       "solver = { backend = \"cpu\"; precision = \"double\"; };\n");
    rc = tribody(dir, "run light.cfg");
    gsl_test(rc != 2 || !tb_test_output_has(dir, "system.mass = 1e-300), more than the shortest "
                                                 "interaction range, 2.5 sigma"),
             "system.mass = 1e-300: run exits 2 naming the mass and the range (got %d)", rc);
    gsl_test(tb_test_count_entries(dir) != before + 2, "system.mass = 1e-300: nothing written");

    /* a Langevin ramp to 1e15 at mass 1e-293: v.v passes DBL_MAX / 12 (tb_ke_bound) at step
     * 223 while every velocity is finite (old: exit 0, inf and nan in the thermo from there) */
    tb_test_write_file(dir, "ramp.cfg",
                       "system = { particles = 3; mass = 1e-293; init = { type = \"xyz\"; "
                       "file = \"far.xyz\"; }; };\n"
                       "potential = { lj = {}; atm = { cutoff = 3.0; }; };\n"
                       "integrator = { steps = 1000; type = \"langevin\"; temperature = 1.0; "
                       "temperature_end = 1e15; };\n"
                       "solver = { backend = \"cpu\"; precision = \"double\"; cull = false; };\n"
                       "output = { thermo_every = 10; checkpoint_every = 100; };\n");
    rc = tribody(dir, "run ramp.cfg");
    gsl_test(rc != 1, "kinetic energy overflowing mid-run: exit 1 (got %d)", rc);
    gsl_test(!tb_test_output_has(dir, "ramp.cfg: non-finite kinetic energy of particle 0 at step "
                                      "223 (time 0.446): the run is stopped and the last "
                                      "checkpoint, checkpoint.tbck at step 200, is kept"),
             "kinetic energy overflowing mid-run: the message names the term, particle, step and "
             "checkpoint");
    char *t = tb_test_read_file(dir, "thermo.csv", &len);
    gsl_test(!(t && strstr(t, "\n220,") && !strstr(t, "\n230,") && !strstr(t, "inf") &&
               !strstr(t, "nan")),
             "kinetic energy overflowing mid-run: thermo.csv ends at step 220, no inf or nan");
    free(t);
}

int main(void)
{
    tb_test_init();
    if (tb_test_temp_dir(top, sizeof top, "robust") != 0)
        return tb_test_done();
    test_output_kinds();
    test_output_dirs();
    test_lock();
    test_nonfinite();
    test_signals();
    test_bad_inputs();
    test_far_coordinates();
    test_restart_trust();
    test_late_errors();
    test_nonfinite_thermo();
    tb_test_remove_dir(top);
    return tb_test_done();
}
