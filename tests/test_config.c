/* test_config.c — config/: defaults, every setting, every error message, --set, docs coverage.
 *
 * Each case writes a small config file into a fresh mkdtemp directory (the current directory
 * while the tests run, so messages read "sim.cfg:LINE:" exactly as a user sees them), loads it
 * with stderr captured, and compares the status (0 or 2) and the exact message text. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/config.h"
#include "config/units.h"
#include "maps3d/map2d.h"
#include "maps3d/map3d.h"
#include "tests/tb_test.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static char root[4096];   /* the directory the test started in (the repository root) */
static char err[16384];   /* what the last load printed on stderr */
static char maps[512];    /* map3d_names() */
static char maps2[512];   /* map2d_names() */
static const char *map0;  /* the first registered map3d name */
static const char *map20; /* the first registered map2d name */

#define MIN_CFG "system = { particles = 10; };\n"

/* Writes text to `name`, relative to the temporary directory (the current directory). */
static void put(const char *name, const char *text)
{
    if (!tb_test_write_file(".", name, text))
        exit(2);
}

/* Loads `path` with stderr captured into err[]; returns cfg_load's status. */
static int load_path(sim_config *c, const char *path, int n_set, char *const sets[])
{
    int rc;
    tb_test_capture_begin();
    rc = cfg_load(c, path, n_set, sets);
    tb_test_capture_end(err, sizeof err);
    return rc;
}

/* Writes text as sim.cfg and loads it. */
static int load(sim_config *c, const char *text, int n_set, char *const sets[])
{
    put("sim.cfg", text);
    return load_path(c, "sim.cfg", n_set, sets);
}

/* s with its newlines shown as " | ", so a check's description stays on one line. */
static const char *one_line(const char *s)
{
    static char buf[2048];
    size_t n = 0;
    for (; *s && n + 4 < sizeof buf; s++) {
        if (*s == '\n') {
            memcpy(buf + n, " | ", 3);
            n += 3;
        } else
            buf[n++] = *s;
    }
    buf[n] = '\0';
    return buf;
}

/* Loading `text` (with overrides) must fail with status 2 and print exactly `want` + newline. */
static void expect_error(const char *what, const char *text, int n_set, char *const sets[],
                         const char *want)
{
    sim_config c;
    char line[2048];
    int rc = load(&c, text, n_set, sets);
    snprintf(line, sizeof line, "%s\n", want);
    gsl_test(rc != TB_EXIT_USAGE, "%s: status 2 (got %d)", what, rc);
    gsl_test(strcmp(err, line) != 0, "%s: message '%s'", what, one_line(want));
    if (strcmp(err, line) != 0)
        printf("    got: %s", err);
}

/* Loading `text` must succeed silently. */
static int expect_ok(const char *what, sim_config *c, const char *text, int n_set,
                     char *const sets[])
{
    int rc = load(c, text, n_set, sets);
    gsl_test(rc != 0 || err[0], "%s: loads with status 0 and no message", what);
    if (rc != 0 || err[0])
        printf("    got status %d: %s", rc, err);
    return rc;
}

static int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* Entries in the current directory (to check that loading writes nothing). */
static int count_entries(void)
{
    DIR *d = opendir(".");
    int n = 0;
    if (!d)
        return -1;
    while (readdir(d))
        n++;
    closedir(d);
    return n;
}

static void test_defaults(void)
{
    sim_config c, d;
    cfg_defaults(&d);
    gsl_test(d.system.particles != 0, "cfg_defaults: system.particles 0 (not set)");
    expect_ok("defaults", &c, MIN_CFG, 0, NULL);
    gsl_test(strcmp(c.path, "sim.cfg") != 0, "defaults: path kept as given");
    gsl_test(c.system.particles != 10, "defaults: system.particles read");
    gsl_test(c.system.seed != 1, "defaults: system.seed 1");
    gsl_test(c.system.mass != 1.0, "defaults: system.mass 1");
    gsl_test(c.system.boundary != CFG_BOUNDARY_OPEN, "defaults: system.boundary open");
    gsl_test(c.system.box != 0.0, "defaults: system.box 0 when open");
    gsl_test(c.system.init.type != CFG_INIT_RANDOM, "defaults: system.init.type random");
    gsl_test(c.system.init.radius != 0.0, "defaults: system.init.radius 0 (from density)");
    gsl_test(c.system.init.min_distance != 1.0, "defaults: system.init.min_distance 1.0");
    gsl_test(c.system.init.temperature != 0.7, "defaults: system.init.temperature 0.7");
    gsl_test(c.system.init.temperature_set != 0, "defaults: temperature_set 0");
    gsl_test(c.system.init.file[0] != '\0', "defaults: system.init.file empty");
    gsl_test(c.potential.atm.nu != 0.0703, "defaults: potential.atm.nu 0.0703");
    gsl_test(c.potential.atm.cutoff != 0.0, "defaults: potential.atm.cutoff 0 (none) when open");
    gsl_test(c.potential.lj.enabled != 0, "defaults: LJ disabled without potential.lj");
    gsl_test(c.potential.lj.epsilon != 1.0 || c.potential.lj.sigma != 1.0 ||
                 c.potential.lj.cutoff != 2.5 || c.potential.lj.shift != 1,
             "defaults: potential.lj epsilon 1, sigma 1, cutoff 2.5, shift true");
    gsl_test(c.integrator.dt != 0.002, "defaults: integrator.dt 0.002");
    gsl_test(c.integrator.steps != 1000, "defaults: integrator.steps 1000");
    gsl_test(c.solver.backend != CFG_BACKEND_AUTO, "defaults: solver.backend auto");
    gsl_test(strcmp(c.solver.map, map3d_find("lambda") ? "lambda" : map0) != 0,
             "defaults: solver.map lambda, or the first map while lambda is not registered (%s)",
             c.solver.map);
    gsl_test(strcmp(c.solver.map2d, map2d_find("lambda2d") ? "lambda2d" : map20) != 0,
             "defaults: solver.map2d lambda2d, or the first 2D map (%s)", c.solver.map2d);
    gsl_test(strcmp(c.solver.root, "exact") != 0, "defaults: solver.root exact");
    gsl_test(c.solver.tile != 32, "defaults: solver.tile 32");
    gsl_test(c.solver.threads != 0, "defaults: solver.threads 0");
    gsl_test(c.solver.precision != CFG_PREC_MIXED, "defaults: solver.precision mixed");
    gsl_test(c.solver.deterministic != 0, "defaults: solver.deterministic false");
    gsl_test(strcmp(c.output.thermo, "thermo.csv") != 0 || c.output.thermo_every != 100,
             "defaults: output.thermo thermo.csv every 100");
    gsl_test(strcmp(c.output.trajectory, "trajectory.xyz") != 0 ||
                 c.output.trajectory_every != 1000,
             "defaults: output.trajectory trajectory.xyz every 1000");
    gsl_test(strcmp(c.output.checkpoint, "checkpoint.tbck") != 0 ||
                 c.output.checkpoint_every != 10000,
             "defaults: output.checkpoint checkpoint.tbck every 10000");
    gsl_test(c.output.forces != 0, "defaults: output.forces false");
}

/* Every setting given a value other than its default. */
static void test_all_settings(void)
{
    sim_config c;
    char text[4096];
    int before = count_entries();
    snprintf(text, sizeof text,
             "# every setting\n"
             "system = {\n"
             "  particles = 250;\n"
             "  seed = 12345678901L;\n"
             "  mass = 2.385;\n"
             "  boundary = \"periodic\";\n"
             "  box = 12.5;\n"
             "  init = { type = \"lattice\"; radius = 3.5; min_distance = 1.25;"
             " temperature = 1.5; };\n"
             "};\n"
             "potential = {\n"
             "  atm = { nu = 0.125; cutoff = 5; };\n"
             "  lj = { epsilon = 1.5; sigma = 0.9; cutoff = 3.0; shift = false; };\n"
             "};\n"
             "integrator = { dt = 0.005; steps = 5000000000L; };\n"
             "solver = { backend = \"cpu\"; map = \"%s\"; map2d = \"%s\"; root = \"newton\";\n"
             "  tile = 32; threads = 256; precision = \"double\"; deterministic = true; };\n"
             "output = { thermo = \"t.csv\"; thermo_every = 7; trajectory = \"\";\n"
             "  trajectory_every = 11; checkpoint = \"c.tbck\"; checkpoint_every = 13;"
             " forces = true; };\n",
             map0, map20);
    expect_ok("all settings", &c, text, 0, NULL);
    gsl_test(c.system.particles != 250 || c.system.seed != 12345678901UL,
             "all settings: particles and an int64 seed");
    gsl_test(c.system.mass != 2.385, "all settings: system.mass");
    gsl_test(c.system.boundary != CFG_BOUNDARY_PERIODIC || c.system.box != 12.5,
             "all settings: periodic box 12.5");
    gsl_test(c.system.init.type != CFG_INIT_LATTICE || c.system.init.radius != 3.5 ||
                 c.system.init.min_distance != 1.25,
             "all settings: lattice, radius, min_distance");
    gsl_test(c.system.init.temperature != 1.5 || c.system.init.temperature_set != 1,
             "all settings: temperature 1.5, temperature_set 1");
    gsl_test(c.potential.atm.nu != 0.125 || c.potential.atm.cutoff != 5.0,
             "all settings: atm nu, and an integer cutoff taken as a float");
    gsl_test(c.potential.lj.enabled != 1 || c.potential.lj.epsilon != 1.5 ||
                 c.potential.lj.sigma != 0.9 || c.potential.lj.cutoff != 3.0 ||
                 c.potential.lj.shift != 0,
             "all settings: lj group enables LJ with its values");
    gsl_test(c.integrator.dt != 0.005 || c.integrator.steps != 5000000000L,
             "all settings: dt and int64 steps");
    gsl_test(c.solver.backend != CFG_BACKEND_CPU || strcmp(c.solver.map, map0) ||
                 strcmp(c.solver.map2d, map20) || strcmp(c.solver.root, "newton"),
             "all settings: backend, map, map2d, root");
    gsl_test(c.solver.tile != 32 || c.solver.threads != 256 ||
                 c.solver.precision != CFG_PREC_DOUBLE || c.solver.deterministic != 1,
             "all settings: tile, threads, precision, deterministic");
    gsl_test(strcmp(c.output.thermo, "t.csv") || c.output.thermo_every != 7 ||
                 strcmp(c.output.trajectory, "") || c.output.trajectory_every != 11 ||
                 strcmp(c.output.checkpoint, "c.tbck") || c.output.checkpoint_every != 13 ||
                 c.output.forces != 1,
             "all settings: output paths, intervals, forces");
    gsl_test(count_entries() != before + (before >= 0 && access("sim.cfg", F_OK) ? 1 : 0) ||
                 access("t.csv", F_OK) == 0 || access("c.tbck", F_OK) == 0,
             "all settings: loading writes no file");
}

static void test_derived(void)
{
    sim_config c;
    expect_ok("lattice", &c, "system = { particles = 1000;\n init = { type = \"lattice\";"
              " radius = 2.0; }; };\n", 0, NULL);
    gsl_test(fabs(c.system.init.min_distance - pow(2.0, 1.0 / 6.0)) > 1e-15,
             "lattice: min_distance defaults to 2^(1/6) = %.6f", c.system.init.min_distance);
    expect_ok("periodic", &c, "system = { particles = 10; boundary = \"periodic\"; box = 9.5; };\n",
              0, NULL);
    gsl_test(c.potential.atm.cutoff != 2.375, "periodic: atm cutoff defaults to L/4 (got %g)",
             c.potential.atm.cutoff);
    expect_ok("periodic LJ", &c, "system = { particles = 10; boundary = \"periodic\"; box = 5; };"
              "\npotential = { lj = { }; };\n", 0, NULL);
    gsl_test(c.potential.lj.enabled != 1 || c.potential.lj.cutoff != 2.5,
             "empty potential.lj group: LJ enabled with defaults, cutoff 2.5 = L/2 accepted");
    expect_ok("random sphere", &c, "system = { particles = 100;\n init = { radius = 5.0;"
              " temperature = 0.0; }; };\n", 0, NULL);
    gsl_test(c.system.init.temperature_set != 1, "temperature 0 given: temperature_set 1");
}

/* XYZ input: relative paths resolve against the config file's directory. */
/* libconfig 1.5 keeps the low 32 bits of a long integer without the L suffix; config.c
 * rereads the literal, so these come out as written. */
static void test_long_integers(void)
{
    sim_config c;
    char s1[64] = "integrator.steps=5000000000", s2[64] = "system.seed=0x1FFFFFFFF";
    expect_ok("long integers", &c,
              "system = { particles = 10; seed = 0xFFFFFFFF; };\n"
              "integrator = { steps = 5000000000; };\n"
              "potential = { atm = { cutoff = 5; }; lj = { cutoff = 3000000000; }; };\n", 0, NULL);
    gsl_test(c.integrator.steps != 5000000000L, "long integers: steps = 5000000000 without L"
             " (got %ld)", c.integrator.steps);
    gsl_test(c.system.seed != 4294967295UL, "long integers: seed = 0xFFFFFFFF is 4294967295"
             " (got %lu)", c.system.seed);
    gsl_test(c.potential.atm.cutoff != 5.0 || c.potential.lj.cutoff != 3e9,
             "long integers: same name twice on a line, each value kept (got %g, %g)",
             c.potential.atm.cutoff, c.potential.lj.cutoff);
    expect_ok("long integers by --set", &c, MIN_CFG, 2, (char *[]){s1, s2});
    gsl_test(c.integrator.steps != 5000000000L || c.system.seed != 0x1FFFFFFFFUL,
             "long integers by --set: steps 5000000000, seed 0x1FFFFFFFF (got %ld, %lu)",
             c.integrator.steps, c.system.seed);
    expect_error("long integer out of range", "system = {\n  particles = 3000000000;\n};\n", 0,
                 NULL, "tribody: sim.cfg:2: system.particles: must be between 3 and 10000000 "
                       "particles (got 3000000000)");
    expect_error("long negative integer", "system = { particles = -5000000000; };\n", 0, NULL,
                 "tribody: sim.cfg:1: system.particles: must be between 3 and 10000000 "
                 "particles (got -5000000000)");
}

static void test_xyz(void)
{
    sim_config c;
    char abs[8192], set[8300], *sets[1] = {set};
    mkdir("sub", 0700);
    put("sub/init.xyz", "3\n\nAr 0 0 0\nAr 1 0 0\nAr 0 1 0\n");
    put("sub/sim.cfg", "system = {\n particles = 3;\n init = {\n  type = \"xyz\";\n"
                       "  file = \"init.xyz\";\n };\n};\n");
    int rc = load_path(&c, "sub/sim.cfg", 0, NULL);
    gsl_test(rc != 0 || err[0], "xyz: loads (got %d, '%s')", rc, one_line(err));
    gsl_test(strcmp(c.system.init.file, "sub/init.xyz") != 0,
             "xyz: relative file resolved against the config's directory (got %s)",
             c.system.init.file);
    if (!getcwd(abs, 4096))
        abs[0] = '\0';
    strcat(abs, "/sub/init.xyz");
    snprintf(set, sizeof set, "system.init.file=%s", abs);
    rc = load_path(&c, "sub/sim.cfg", 1, sets);
    gsl_test(rc != 0 || strcmp(c.system.init.file, abs) != 0,
             "xyz: an absolute path is kept (got %s)", c.system.init.file);
    snprintf(set, sizeof set, "system.init.file=sub/init.xyz");
    rc = load_path(&c, "sub/sim.cfg", 1, sets);
    gsl_test(rc != 0 || strcmp(c.system.init.file, "sub/init.xyz") != 0,
             "xyz: a --set file is relative to the current directory (got %s)",
             c.system.init.file);
    expect_error("missing xyz file",
                 "system = {\n particles = 3;\n init = {\n  type = \"xyz\";\n"
                 "  file = \"nope.xyz\";\n };\n};\n", 0, NULL,
                 "tribody: sim.cfg:5: system.init.file: cannot read \"nope.xyz\": "
                 "No such file or directory");
    expect_error("xyz file is a directory",
                 "system = {\n particles = 3;\n init = { type = \"xyz\"; file = \"sub\"; };\n};\n",
                 0, NULL, "tribody: sim.cfg:3: system.init.file: cannot read \"sub\": "
                          "Is a directory");
    expect_error("xyz without file",
                 "system = {\n particles = 3;\n init = {\n  type = \"xyz\";\n };\n};\n", 0, NULL,
                 "tribody: sim.cfg:4: system.init.file: required with system.init.type = \"xyz\"");
    expect_error("file without xyz",
                 "system = {\n particles = 3;\n init = {\n  file = \"sub/init.xyz\";\n };\n};\n",
                 0, NULL,
                 "tribody: sim.cfg:4: system.init.file: only used with system.init.type = \"xyz\""
                 " or \"lammps\" (the type is random)");
}

/* @include: resolved against the config file's directory; messages name the included file by
 * its path from the current directory, and its relative paths resolve against its directory. */
static void test_include(void)
{
    sim_config c;
    put("sub/main.cfg", "solver = { tile = 8; };\n@include \"more.cfg\"\n");
    put("sub/more.cfg", "# more\nsystem = { particles = 3; init = { type = \"xyz\";"
                        " file = \"init.xyz\"; }; };\nintegrator = { steps = 5000000000; };\n");
    int rc = load_path(&c, "sub/main.cfg", 0, NULL);
    gsl_test(rc != 0 || err[0], "include: loads (got %d, '%s')", rc, one_line(err));
    gsl_test(strcmp(c.system.init.file, "sub/init.xyz") != 0 || c.integrator.steps != 5000000000L,
             "include: its file resolves against its directory, its long literal is reread there"
             " (got %s, %ld)", c.system.init.file, c.integrator.steps);
    put("sub/more.cfg", "# more\nsystem = { particles = 3; };\n"
                        "output = { thermo_every = 5000000000; };\n");
    rc = load_path(&c, "sub/main.cfg", 0, NULL);
    gsl_test(rc != TB_EXIT_USAGE ||
                 strcmp(err, "tribody: sub/more.cfg:3: output.thermo_every: must be at most "
                             "2147483647 (got 5000000000)\n"),
             "include: an error names the included file's path and line (got '%s')",
             one_line(err));
    put("sub/more.cfg", "# more\nsystem = { particles = ; };\n");
    rc = load_path(&c, "sub/main.cfg", 0, NULL);
    gsl_test(rc != TB_EXIT_USAGE || strcmp(err, "tribody: sub/more.cfg:2: syntax error\n"),
             "include: a syntax error names the included file (got '%s')", one_line(err));
    expect_error("duplicate setting", "system = { particles = 10; };\nsystem = { seed = 3; };\n",
                 0, NULL, "tribody: sim.cfg:2: duplicate setting name");
}

/* `tribody eval NAME` in the temporary directory within 5 s (timeout): exit 2, one line that
 * starts with `want`, in less than 2 s. */
static void expect_fast_refusal(const char *what, const char *name, const char *want)
{
    char args[256], line[1024];
    const double t0 = tb_test_now();
    snprintf(args, sizeof args, "eval %s", name);
    const int rc = tb_test_tribody(".", "timeout 5 env", args, NULL);
    const double t = tb_test_now() - t0;
    char *out = tb_test_read_file(".", "out.txt", NULL);
    snprintf(line, sizeof line, "tribody: %s", want);
    gsl_test(rc != TB_EXIT_USAGE || t > 2.0, "%s: exit 2 in %.3f s (got %d; at most 2 s)", what,
             t, rc);
    gsl_test(!out || strncmp(out, line, strlen(line)) != 0 || strchr(out, '\n') != out + strlen(out) - 1,
             "%s: one line '%s' (got '%s')", what, line, out ? one_line(out) : "(nothing)");
    free(out);
}

/* Include cycles and files that cannot be read as text (issue 19, items 5 and 12): one line
 * naming the @include, exit 2, in milliseconds. The old pre-check walked a file that includes
 * itself ten times to depth 10 (10^10 reads, a hang); /proc/self/mem made libconfig's scanner
 * exit with flex's own "input in flex scanner failed". */
static void test_include_limits(void)
{
    char self[512] = "";
    for (int i = 0; i < 10; i++)
        strcat(self, "@include \"self.cfg\"\n");
    strcat(self, MIN_CFG);
    put("self.cfg", self);
    expect_fast_refusal("a file that includes itself ten times", "self.cfg",
                        "self.cfg:1: @include \"self.cfg\": an include cycle");
    put("ring_a.cfg", MIN_CFG "@include \"ring_b.cfg\"\n");
    put("ring_b.cfg", "@include \"ring_a.cfg\"\n");
    expect_fast_refusal("a cycle through two files", "ring_a.cfg",
                        "ring_b.cfg:1: @include \"ring_a.cfg\": an include cycle");
    /* no cycle, but ten includes of the next file at each of ten levels: 10^10 reads */
    for (int i = 0; i < 10; i++) {
        char name[32], text[512] = "";
        snprintf(name, sizeof name, "lvl%d.cfg", i);
        for (int k = 0; k < 10 && i < 9; k++)
            snprintf(text + strlen(text), sizeof text - strlen(text), "@include \"lvl%d.cfg\"\n",
                     i + 1);
        put(name, i < 9 ? text : "# the last level\n");
    }
    put("fan.cfg", "@include \"lvl0.cfg\"\n" MIN_CFG);
    expect_fast_refusal("ten includes at each of ten levels", "fan.cfg",
                        "lvl5.cfg:10: @include \"lvl6.cfg\": the includes expand to more than "
                        "10000 file reads");
    put("fan3.cfg", "@include \"lvl7.cfg\"\n" MIN_CFG); /* 111 reads: fine */
    gsl_test(tb_test_tribody(".", "timeout 5 env", "eval fan3.cfg --set solver.backend=cpu",
                             NULL) != 0,
             "ten includes at each of three levels (111 reads): eval exits 0");
    put("mem.cfg", "@include \"/proc/self/mem\"\n" MIN_CFG);
    expect_fast_refusal("@include \"/proc/self/mem\"", "mem.cfg",
                        "mem.cfg:1: @include \"/proc/self/mem\": cannot read: Input/output error");
    if (mkfifo("fifo", 0600) == 0) {
        put("fifo.cfg", "@include \"fifo\"\n" MIN_CFG);
        expect_fast_refusal("@include of a FIFO (nothing writes it)", "fifo.cfg",
                            "fifo.cfg:1: @include \"fifo\": cannot read: not a regular file");
    }
    if (mkdir("incdir", 0700) == 0 || errno == EEXIST) {
        put("dir.cfg", MIN_CFG "@include \"incdir\"\n");
        expect_fast_refusal("@include of a directory", "dir.cfg",
                            "dir.cfg:2: @include \"incdir\": cannot read: Is a directory");
    }
}

static void test_file_errors(void)
{
    sim_config c;
    int rc = load_path(&c, "nope.cfg", 0, NULL);
    gsl_test(rc != TB_EXIT_USAGE, "missing file: status 2 (got %d)", rc);
    gsl_test(strcmp(err, "tribody: nope.cfg: cannot read config file: No such file or directory\n"),
             "missing file: message (got '%s')", one_line(err));
    rc = load_path(&c, "sub", 0, NULL);
    gsl_test(rc != TB_EXIT_USAGE || strcmp(err, "tribody: sub: cannot read config file: "
                                                "Is a directory\n"),
             "directory as config: status 2 and message (got %d, '%s')", rc, one_line(err));
    expect_error("syntax error", "system = {\n  particles = 10;\n  seed = ;\n};\n", 0, NULL,
                 "tribody: sim.cfg:3: syntax error");
    expect_error("bare word in the file", "solver = { map = bb; };\n", 0, NULL,
                 "tribody: sim.cfg:1: syntax error");
}

static void test_unknown(void)
{
    expect_error("unknown setting with suggestion",
                 "system = {\n  particles = 10;\n};\nsolver = {\n  tile = 8;\n\n  mapp = \"bb\";\n};\n",
                 0, NULL, "tribody: sim.cfg:7: solver.mapp: unknown setting (did you mean solver.map?)");
    expect_error("unknown setting in the wrong group",
                 "system = {\n  particles = 10;\n  dt = 0.1;\n};\n", 0, NULL,
                 "tribody: sim.cfg:3: system.dt: unknown setting (did you mean integrator.dt?)");
    expect_error("unknown setting, nothing close", MIN_CFG "frobnicate = 1;\n", 0, NULL,
                 "tribody: sim.cfg:2: frobnicate: unknown setting");
    expect_error("unknown setting, misspelt leaf",
                 MIN_CFG "system2 = 1;\noutput = { thermo_evry = 10; };\n", 0, NULL,
                 "tribody: sim.cfg:2: system2: unknown setting (did you mean system?)\n"
                 "tribody: sim.cfg:3: output.thermo_evry: unknown setting "
                 "(did you mean output.thermo_every?)");
    expect_error("misspelt group, particles then missing", "sytem = { particles = 10; };\n", 0,
                 NULL,
                 "tribody: sim.cfg:1: sytem: unknown setting (did you mean system?)\n"
                 "tribody: sim.cfg: system.particles: required setting is missing "
                 "(between 3 and 10000000 particles)");
    expect_error("empty file", "# nothing\n", 0, NULL,
                 "tribody: sim.cfg: system.particles: required setting is missing "
                 "(between 3 and 10000000 particles)");
}

static void test_types(void)
{
    expect_error("string for int", "system = {\n  particles = \"ten\";\n};\n", 0, NULL,
                 "tribody: sim.cfg:2: system.particles: expected an integer (got a string)");
    expect_error("float for int", "system = {\n  particles = 10.0;\n};\n", 0, NULL,
                 "tribody: sim.cfg:2: system.particles: expected an integer (got a float)");
    expect_error("string for float", MIN_CFG "integrator = { dt = \"fast\"; };\n", 0, NULL,
                 "tribody: sim.cfg:2: integrator.dt: expected a number (got a string)");
    expect_error("integer for bool", MIN_CFG "output = { forces = 1; };\n", 0, NULL,
                 "tribody: sim.cfg:2: output.forces: expected true or false (got an integer)");
    expect_error("number for string", MIN_CFG "output = { thermo = 5; };\n", 0, NULL,
                 "tribody: sim.cfg:2: output.thermo: expected a string (got an integer)");
    expect_error("group for scalar", "system = {\n  particles = { n = 3; };\n};\n", 0, NULL,
                 "tribody: sim.cfg:2: system.particles: expected an integer (got a group)");
    expect_error("array for scalar", "system = {\n  particles = [1, 2];\n};\n", 0, NULL,
                 "tribody: sim.cfg:2: system.particles: expected an integer (got an array)");
    expect_error("scalar for group", "system = {\n  particles = 10;\n  init = 3;\n};\n", 0, NULL,
                 "tribody: sim.cfg:3: system.init: expected a group (got an integer)");
    expect_error("list for group", MIN_CFG "potential = ( 1, 2 );\n", 0, NULL,
                 "tribody: sim.cfg:2: potential: expected a group (got a list)");
}

static void test_ranges(void)
{
    expect_error("particles too few", "system = { particles = 2; };\n", 0, NULL,
                 "tribody: sim.cfg:1: system.particles: must be between 3 and 10000000 particles"
                 " (got 2)");
    expect_error("particles too many", "system = { particles = 10000001; };\n", 0, NULL,
                 "tribody: sim.cfg:1: system.particles: must be between 3 and 10000000 particles"
                 " (got 10000001)");
    expect_error("negative dt", MIN_CFG "integrator = { dt = -0.1; };\n", 0, NULL,
                 "tribody: sim.cfg:2: integrator.dt: must be > 0 tau (got -0.1)");
    expect_error("zero mass", "system = { particles = 10; mass = 0; };\n", 0, NULL,
                 "tribody: sim.cfg:1: system.mass: must be > 0 m (got 0)");
    expect_error("negative temperature",
                 "system = { particles = 10; init = { temperature = -1.5; }; };\n", 0, NULL,
                 "tribody: sim.cfg:1: system.init.temperature: must be >= 0 epsilon/k_B (got -1.5)");
    expect_error("negative seed", "system = { particles = 10; seed = -1; };\n", 0, NULL,
                 "tribody: sim.cfg:1: system.seed: must be >= 0 (got -1)");
    expect_error("negative steps", MIN_CFG "integrator = { steps = -5; };\n", 0, NULL,
                 "tribody: sim.cfg:2: integrator.steps: must be >= 0 steps (got -5)");
    expect_error("tile too large", MIN_CFG "solver = { tile = 2000; };\n", 0, NULL,
                 "tribody: sim.cfg:2: solver.tile: must be between 1 and 1024 particles (got 2000)");
    expect_error("threads not a multiple of 32", MIN_CFG "solver = { threads = 48; };\n", 0, NULL,
                 "tribody: sim.cfg:2: solver.threads: must be 0 or a multiple of 32 in 32 .. 1024"
                 " (got 48)");
    expect_error("thermo_every zero", MIN_CFG "output = { thermo_every = 0; };\n", 0, NULL,
                 "tribody: sim.cfg:2: output.thermo_every: must be >= 1 steps (got 0)");
    expect_error("int64 for int", MIN_CFG "output = { thermo_every = 3000000000L; };\n", 0, NULL,
                 "tribody: sim.cfg:2: output.thermo_every: must be at most 2147483647"
                 " (got 3000000000)");
    expect_error("negative nu", MIN_CFG "potential = { atm = { nu = -0.07; }; };\n", 0, NULL,
                 "tribody: sim.cfg:2: potential.atm.nu: must be >= 0 epsilon sigma^9 (got -0.07)");
}

/* The map message exactly as the issue writes it, solver.map on line 12. */
static void test_names(void)
{
    char want[1024];
    snprintf(want, sizeof want,
             "tribody: sim.cfg:12: solver.map: unknown map \"lamda\" (expected one of: %s)", maps);
    expect_error("unknown map",
                 "# line 1\nsystem = {\n  particles = 10;\n};\n\n\n\n\n\n"
                 "solver = {\n  tile = 16;\n  map = \"lamda\";\n};\n", 0, NULL, want);
    snprintf(want, sizeof want,
             "tribody: sim.cfg:2: solver.map2d: unknown map \"tri\" (expected one of: %s)", maps2);
    expect_error("unknown map2d", MIN_CFG "solver = { map2d = \"tri\"; };\n", 0, NULL, want);
    expect_error("unknown root", MIN_CFG "solver = { root = \"fast\"; };\n", 0, NULL,
                 "tribody: sim.cfg:2: solver.root: unknown root variant \"fast\" "
                 "(expected one of: exact, sqrtf, rsqrtf, newton)");
    expect_error("unknown boundary", "system = { particles = 10; boundary = \"peri\"; };\n", 0,
                 NULL, "tribody: sim.cfg:1: system.boundary: unknown value \"peri\" "
                       "(expected open, periodic, or one of p (periodic) or f (open) per axis x y z, as \"ppf\")");
    expect_error("unknown precision", MIN_CFG "solver = { precision = \"half\"; };\n", 0, NULL,
                 "tribody: sim.cfg:2: solver.precision: unknown value \"half\" "
                 "(expected one of: double, mixed, single)");
    expect_error("unknown backend", MIN_CFG "solver = { backend = \"tpu\"; };\n", 0, NULL,
                 "tribody: sim.cfg:2: solver.backend: unknown value \"tpu\" "
                 "(expected one of: auto, cpu, gpu)");
    expect_error("unknown init type",
                 "system = { particles = 10; init = { type = \"grid\"; }; };\n", 0, NULL,
                 "tribody: sim.cfg:1: system.init.type: unknown value \"grid\" "
                 "(expected one of: random, lattice, xyz, lammps)");
}

static void test_box(void)
{
    expect_error("periodic without box",
                 "system = {\n  particles = 10;\n  boundary = \"periodic\";\n};\n", 0, NULL,
                 "tribody: sim.cfg:3: system.box: required with system.boundary = \"periodic\"");
    expect_error("box with open boundary", "system = {\n  particles = 10;\n  box = 5.0;\n};\n",
                 0, NULL,
                 "tribody: sim.cfg:3: system.box: only used with a periodic axis in "
                 "system.boundary (the boundary is open)");
    expect_error("atm cutoff beyond L/2",
                 "system = { particles = 10; boundary = \"periodic\"; box = 10; };\n"
                 "potential = {\n  atm = {\n    cutoff = 6.0;\n  };\n};\n", 0, NULL,
                 "tribody: sim.cfg:4: potential.atm.cutoff: 6 exceeds half the box (L/2 = 5)");
    expect_error("lj cutoff beyond L/2",
                 "system = { particles = 10; boundary = \"periodic\"; box = 10; };\n"
                 "potential = {\n  lj = {\n    cutoff = 5.5;\n  };\n};\n", 0, NULL,
                 "tribody: sim.cfg:4: potential.lj.cutoff: 5.5 exceeds half the box (L/2 = 5)");
    expect_error("default lj cutoff beyond L/2",
                 "system = { particles = 10; boundary = \"periodic\"; box = 4; };\n"
                 "potential = {\n  lj = {\n    epsilon = 1.0;\n  };\n};\n", 0, NULL,
                 "tribody: sim.cfg:3: potential.lj.cutoff: 2.5 (the default) exceeds half the box"
                 " (L/2 = 2)");
    expect_error("bad box: no cutoff message",
                 "system = { particles = 10; boundary = \"periodic\"; box = -4; };\n"
                 "potential = { atm = { cutoff = 3.0; }; };\n", 0, NULL,
                 "tribody: sim.cfg:1: system.box: must be > 0 sigma (got -4)");
}

static void test_packing(void)
{
    sim_config c;
    expect_error("random cluster too dense",
                 "system = {\n  particles = 1000;\n  init = {\n    radius = 2.0;\n"
                 "    min_distance = 1.0;\n  };\n};\n", 0, NULL,
                 "tribody: sim.cfg:5: system.init.min_distance: 1000 particles 1 apart do not fit"
                 " in a sphere of radius 2 (packing fraction n (d/2)^3 / R^3 = 15.6 > 0.6)");
    expect_ok("random cluster that fits", &c,
              "system = { particles = 100; init = { radius = 4.0; min_distance = 1.0; }; };\n", 0,
              NULL);
    expect_ok("periodic random: no sphere check", &c,
              "system = { particles = 1000; boundary = \"periodic\"; box = 12.0;\n"
              " init = { radius = 2.0; }; };\n", 0, NULL);
}

static void test_overrides(void)
{
    sim_config c;
    char s1[64] = "system.particles=20", s2[64], s3[64] = "output.thermo=out/run1.csv";
    char s4[64] = "integrator.dt=0.01", s5[64] = "potential.lj.epsilon=1.5";
    char s6[64] = "output.trajectory=\"true\"", s7[64] = "integrator.steps=5000000000";
    char *sets[] = {s1, s2, s3, s4, s5, s6, s7};
    snprintf(s2, sizeof s2, "solver.map=%s", map0);
    expect_ok("--set", &c, "system = { particles = 2; };\nintegrator = { dt = 0.5; };\n", 7, sets);
    gsl_test(c.system.particles != 20, "--set: replaces the file's (bad) value");
    gsl_test(strcmp(c.solver.map, map0) != 0, "--set: a bare word is a string (solver.map=%s)",
             map0);
    gsl_test(strcmp(c.output.thermo, "out/run1.csv") != 0, "--set: bare path string");
    gsl_test(c.integrator.dt != 0.01, "--set: float overrides the file");
    gsl_test(c.potential.lj.enabled != 1 || c.potential.lj.epsilon != 1.5,
             "--set: creates potential.lj (LJ enabled) and its epsilon");
    gsl_test(strcmp(c.output.trajectory, "true") != 0, "--set: quoted string");
    gsl_test(c.integrator.steps != 5000000000L, "--set: int64 value");

    char b1[64] = "solver.map=lamda", b2[64] = "solver.mapp=bb", b3[64] = "solver.map";
    char b4[64] = "system.particles=ten", b5[64] = "output.forces=yes", b6[64] = "=3";
    char want[1024];
    snprintf(want, sizeof want, "tribody: --set solver.map=lamda: solver.map: unknown map "
                                "\"lamda\" (expected one of: %s)", maps);
    expect_error("--set unknown map", MIN_CFG, 1, (char *[]){b1}, want);
    expect_error("--set unknown setting", MIN_CFG, 1, (char *[]){b2},
                 "tribody: --set solver.mapp=bb: solver.mapp: unknown setting "
                 "(did you mean solver.map?)");
    expect_error("--set without =", MIN_CFG, 1, (char *[]){b3},
                 "tribody: --set solver.map: expected PATH=VALUE (for example --set solver.map=bb)");
    expect_error("--set empty path", MIN_CFG, 1, (char *[]){b6},
                 "tribody: --set =3: expected PATH=VALUE (for example --set solver.map=bb)");
    expect_error("--set wrong type", MIN_CFG, 1, (char *[]){b4},
                 "tribody: --set system.particles=ten: system.particles: expected an integer"
                 " (got a string)");
    expect_error("--set bool as a word", MIN_CFG, 1, (char *[]){b5},
                 "tribody: --set output.forces=yes: output.forces: expected true or false"
                 " (got a string)");
    char p1[64] = "system.boundary=periodic";
    expect_error("--set periodic without box", MIN_CFG, 1, (char *[]){p1},
                 "tribody: --set system.boundary=periodic: system.box: required with "
                 "system.boundary = \"periodic\"");
}

/* Every problem is reported, one line each. */
static void test_many(void)
{
    sim_config c;
    char b1[64] = "solver.tile=0";
    int rc = load(&c, "system = {\n  particles = 2;\n  mass = \"heavy\";\n  boundary = \"periodic\";"
                      "\n};\nintegrator = { dt = -1; stepz = 10; };\nsolver = { map = \"nope\"; };\n"
                      "output = { forces = 1; };\n", 1, (char *[]){b1});
    gsl_test(rc != TB_EXIT_USAGE, "many errors: status 2 (got %d)", rc);
    gsl_test(count_lines(err) != 8, "many errors: 8 lines, one per problem (got %d)",
             count_lines(err));
    if (count_lines(err) != 8)
        printf("%s", err);
    gsl_test(!strstr(err, "sim.cfg:2: system.particles") || !strstr(err, "sim.cfg:3: system.mass") ||
                 !strstr(err, "sim.cfg:4: system.box") || !strstr(err, "sim.cfg:6: integrator.dt") ||
                 !strstr(err, "sim.cfg:6: integrator.stepz") ||
                 !strstr(err, "sim.cfg:7: solver.map") ||
                 !strstr(err, "sim.cfg:8: output.forces") ||
                 !strstr(err, "--set solver.tile=0: solver.tile"),
             "many errors: each names its line and setting");
}

/* docs/config.md has one table row per schema row, with its type, default, range and unit. */
static void test_docs(void)
{
    char *doc = tb_test_read_file(root, "docs/config.md", NULL);
    gsl_test(doc == NULL, "docs/config.md readable");
    if (!doc)
        return;
    gsl_test(cfg_schema_count() < 40 || cfg_schema_path(-1) || cfg_schema_path(cfg_schema_count()),
             "schema: %d rows, NULL out of range", cfg_schema_count());
    for (int i = 0; i < cfg_schema_count(); i++) {
        cfg_schema_info in;
        char key[160], line[1024] = "";
        cfg_schema_get(i, &in);
        snprintf(key, sizeof key, "| `%s` |", in.path);
        const char *at = strstr(doc, key);
        if (at) {
            const char *end = strchr(at, '\n');
            snprintf(line, sizeof line, "%.*s", end ? (int)(end - at) : (int)strlen(at), at);
        }
        gsl_test(!at, "docs: %s has a table row", in.path);
        gsl_test(!strstr(line, in.type) || (in.def && !strstr(line, in.def)) ||
                     !strstr(line, in.range) || !strstr(line, in.unit),
                 "docs: %s row gives type %s, default %s, range '%s', unit '%s'", in.path,
                 in.type, in.def ? in.def : "(none)", in.range, in.unit);
    }
    gsl_test(cfg_schema_get(cfg_schema_count(), &(cfg_schema_info){0}) != -1,
             "cfg_schema_get: -1 out of range");
    free(doc);
}

/* The shipped examples load (lambda may not be registered yet: then the first map stands in). */
static void test_examples(void)
{
    sim_config c;
    char path[4200], s1[64], s2[64];
    char *sets[2] = {s1, s2};
    int n_set = 0;
    snprintf(path, sizeof path, "%s/examples/sim.cfg", root);
    int rc = load_path(&c, path, 0, NULL);
    gsl_test(rc != 0 || err[0], "examples/sim.cfg loads (got %d, '%s')", rc, one_line(err));
    gsl_test(c.system.particles != 128 || !c.potential.lj.enabled || c.potential.atm.nu <= 0 ||
                 c.integrator.dt != 0.002 || c.system.boundary != CFG_BOUNDARY_OPEN,
             "examples/sim.cfg: 128 particles, LJ + ATM, open, dt 0.002");
    if (!map3d_find("lambda"))
        snprintf(sets[n_set++], 64, "solver.map=%s", map0);
    if (!map2d_find("lambda2d"))
        snprintf(sets[n_set++], 64, "solver.map2d=%s", map20);
    snprintf(path, sizeof path, "%s/examples/gpu-large.cfg", root);
    rc = load_path(&c, path, n_set, sets);
    gsl_test(rc != 0 || err[0], "examples/gpu-large.cfg loads%s (got %d, '%s')",
             n_set ? " (lambda maps not registered yet: first maps in their place)" : "", rc,
             one_line(err));
    gsl_test(c.system.particles != 16384 || c.solver.backend != CFG_BACKEND_GPU ||
                 c.solver.precision != CFG_PREC_MIXED || c.integrator.steps != 100,
             "examples/gpu-large.cfg: 16384 particles, gpu, mixed, 100 steps");
    snprintf(path, sizeof path, "%s/examples/liquid.cfg", root);
    rc = load_path(&c, path, n_set, sets);
    gsl_test(rc != 0 || err[0], "examples/liquid.cfg loads (got %d, '%s')", rc, one_line(err));
    /* Its box must follow its N at density 0.8 (the file says so), and its cutoffs must suit
     * the GPU backend (ATM <= L/4) at that N. */
    gsl_test(c.system.boundary != CFG_BOUNDARY_PERIODIC ||
                 fabs(c.system.box - cbrt(c.system.particles / 0.8)) > 1e-12 * c.system.box ||
                 !c.potential.lj.enabled || c.potential.atm.nu <= 0 ||
                 c.potential.atm.cutoff <= 0 || c.potential.atm.cutoff > c.system.box / 4,
             "examples/liquid.cfg: periodic, box = (N / 0.8)^(1/3) (N %d, box %g), LJ + ATM, "
             "ATM cutoff in (0, L/4]",
             c.system.particles, c.system.box);
}

static void test_names_helpers(void)
{
    gsl_test(strcmp(cfg_boundary_name(CFG_BOUNDARY_PERIODIC), "periodic") ||
                 strcmp(cfg_boundary_name(CFG_BOUNDARY_OPEN), "open") ||
                 strcmp(cfg_boundary_name(7), "?"),
             "cfg_boundary_name");
    gsl_test(strcmp(cfg_init_name(CFG_INIT_XYZ), "xyz") || strcmp(cfg_init_name(-1), "?"),
             "cfg_init_name");
    gsl_test(strcmp(cfg_backend_name(CFG_BACKEND_GPU), "gpu") || strcmp(cfg_backend_name(3), "?"),
             "cfg_backend_name");
    gsl_test(strcmp(cfg_precision_name(CFG_PREC_SINGLE), "single") ||
                 strcmp(cfg_precision_name(CFG_PREC_MIXED), "mixed"),
             "cfg_precision_name");
}

/* ---- units, species, pairs, triplets (issue 20) ----------------------------------------- */

/* Two species, lines 1-4 (what follows starts on line 5). */
#define TWO_SPECIES                                                                            \
    "system = { particles = 10;\n"                                                             \
    "  species = ( { name = \"Ar\"; mass = 39.948; }, { name = \"Kr\"; mass = 83.798; } );\n" \
    "  init = { composition = [0.8, 0.2]; };\n};\n"

static int close_to(double a, double b)
{
    return fabs(a - b) <= 1e-13 * fabs(b);
}

/* In metal and real every default with a unit is argon in the style (sigma 3.405 A,
 * epsilon/k_B 119.8 K, m 39.948 g/mol), derived here by hand from LAMMPS's constants. */
static void test_units(void)
{
    sim_config c;
    char b[64], s1[32] = "units=real";
    const double eps_m = 119.8 * 8.617343e-5, tau_m = 3.405 * sqrt(1.0364269e-4 * 39.948 / eps_m);
    const double eps_r = 119.8 * 0.0019872067;
    const double tau_r = 3.405 * sqrt(48.88821291 * 48.88821291 * 39.948 / eps_r);
    expect_ok("units: lj by default", &c, MIN_CFG, 0, NULL);
    gsl_test(c.units != CFG_UNITS_LJ || c.integrator.dt != 0.002 || c.system.mass != 1.0 ||
                 c.system.init.radius != 0.0 || strcmp(cfg_units_name(c.units), "lj"),
             "units: lj, dt 0.002, mass 1, radius 0 (from the density) as before");
    expect_ok("units metal", &c, "units = \"metal\";\nsystem = { particles = 100; };\n"
              "potential = { lj = { }; };\n"
              "integrator = { type = \"langevin\"; temperature = 90; };\n", 0, NULL);
    gsl_test(c.units != CFG_UNITS_METAL || !close_to(tau_m, 2.15635) == 0 ||
                 !close_to(c.integrator.dt, 0.002 * tau_m) || fabs(c.integrator.dt - 0.0043127) > 1e-7,
             "metal: dt is argon's 0.002 tau = %.8g ps (tau %.6g ps)", c.integrator.dt, tau_m);
    gsl_test(!close_to(c.system.init.temperature, 83.86) || c.integrator.temperature != 90 ||
                 !close_to(c.system.mass, 39.948) || !close_to(c.system.species[0].mass, 39.948),
             "metal: init temperature 0.7 x 119.8 K = %.6g K, a given temperature kept (90), "
             "mass 39.948 g/mol, also the one species'", c.system.init.temperature);
    gsl_test(!close_to(c.potential.lj.epsilon, eps_m) || !close_to(c.potential.lj.sigma, 3.405) ||
                 !close_to(c.potential.lj.cutoff, 2.5 * 3.405) ||
                 !close_to(c.potential.atm.nu, 0.0703 * eps_m * pow(3.405, 9)),
             "metal: epsilon %.8g eV, sigma 3.405, cutoff 8.5125 A, nu %.8g eV A^9 (argon's "
             "0.0703 epsilon sigma^9)", c.potential.lj.epsilon, c.potential.atm.nu);
    gsl_test(!close_to(c.solver.skin, 0.3 * 3.405) || !close_to(c.system.init.min_distance, 3.405) ||
                 !close_to(c.integrator.gamma, 1.0 / tau_m) ||
                 !close_to(c.integrator.nh.period, 0.5 * tau_m) ||
                 !close_to(c.system.init.radius, cbrt(300.0 / (4.0 * M_PI * 0.7)) * 3.405),
             "metal: skin, min_distance, gamma 1/tau, nh.period 0.5 tau, and the radius of an "
             "open random cluster from 0.7 per sigma^3 (%.8g A)", c.system.init.radius);
    expect_ok("metal: given values are kept", &c, "units = \"metal\";\n"
              "system = { particles = 10; mass = 2; boundary = \"periodic\"; box = 20.0;\n"
              " init = { type = \"lattice\"; }; };\nintegrator = { dt = 0.001; };\n", 0, NULL);
    gsl_test(c.system.mass != 2.0 || c.integrator.dt != 0.001 ||
                 !close_to(c.system.init.min_distance, pow(2.0, 1.0 / 6.0) * 3.405) ||
                 c.potential.atm.cutoff != 5.0 || c.system.init.radius != 0.0,
             "metal: mass 2 and dt 0.001 as given, the lattice spacing argon's 2^(1/6) sigma, "
             "the ATM cutoff L/4, no radius made for a periodic box");
    expect_ok("units real by --set", &c, MIN_CFG, 1, (char *[]){s1});
    gsl_test(c.units != CFG_UNITS_REAL || !close_to(c.integrator.dt, 0.002 * tau_r) ||
                 fabs(c.integrator.dt - 4.3127) > 1e-4 || !close_to(c.potential.lj.epsilon, eps_r),
             "real: dt %.8g fs, epsilon %.8g kcal/mol", c.integrator.dt, c.potential.lj.epsilon);
    expect_error("metal: a message names ps", "units = \"metal\";\n" MIN_CFG
                 "integrator = { dt = 0; };\n", 0, NULL,
                 "tribody: sim.cfg:3: integrator.dt: must be > 0 ps (got 0)");
    expect_error("real: a message names g/mol", "system = { particles = 10; mass = -1; };\n"
                 "units = \"real\";\n", 0, NULL,
                 "tribody: sim.cfg:1: system.mass: must be > 0 g/mol (got -1)");
    expect_error("real: 1/fs", "units = \"real\";\n" MIN_CFG "integrator = { type = "
                 "\"langevin\"; temperature = 300; gamma = 0; };\n", 0, NULL,
                 "tribody: sim.cfg:3: integrator.gamma: must be > 0 1/fs (got 0)");
    expect_error("unknown units", "units = \"si\";\n" MIN_CFG, 0, NULL,
                 "tribody: sim.cfg:1: units: unknown value \"si\" (expected one of: lj, metal, "
                 "real)");
    expect_error("units not a string", "units = 2;\n" MIN_CFG, 0, NULL,
                 "tribody: sim.cfg:1: units: expected a string (got an integer)");
    gsl_test(strcmp(units_name(units_of(CFG_UNITS_METAL), "epsilon sigma^9", b, sizeof b),
                    "eV Angstrom^9") ||
                 strcmp(units_name(units_of(CFG_UNITS_REAL), "1/tau", b, sizeof b), "1/fs") ||
                 strcmp(units_name(units_of(CFG_UNITS_LJ), "epsilon/k_B", b, sizeof b),
                        "epsilon/k_B") ||
                 strcmp(units_name(units_of(CFG_UNITS_METAL), "steps", b, sizeof b), "steps") ||
                 units_argon(units_of(CFG_UNITS_METAL), "particles") != 1.0,
             "units_name: eV Angstrom^9, 1/fs, epsilon/k_B; a count is no unit");
}

/* The values land in sim_config; the one rule for a pair and a triplet (LAMMPS's mixing). */
static void test_species(void)
{
    sim_config c;
    double e, s, r;
    expect_ok("no system.species", &c, MIN_CFG "potential = { lj = { }; };\n", 0, NULL);
    cfg_lj_coeffs(&c, 0, 0, &e, &s, &r);
    gsl_test(c.system.n_species != 1 || c.system.species_given || strcmp(c.system.species[0].name,
             "Ar") || c.system.species[0].mass != 1.0 || c.system.init.n_composition ||
                 c.potential.lj.n_pairs || c.potential.atm.triplets_given ||
                 c.potential.lj.mix != CFG_MIX_GEOMETRIC || e != 1.0 || s != 1.0 || r != 2.5 ||
                 cfg_atm_nu(&c, 0, 0, 0) != 0.0703 || !cfg_atm_active(&c) ||
                 cfg_species_find(&c, "Ar") != 0 || cfg_species_find(&c, "Kr") != -1 ||
                 c.output.data[0],
             "no system.species: one Ar of system.mass, the shorthand for its pair and triplet, "
             "no output.data");
    const char *pairs =
        TWO_SPECIES "potential = {\n"
        "  lj = { mix = \"arithmetic\"; cutoff = 3.0; pairs = (\n"
        "    { species = [\"Kr\", \"Kr\"]; epsilon = 1.4; sigma = 1.1; cutoff = 3.5; },\n"
        "    { species = (\"Ar\", \"Ar\"); epsilon = 1.0; sigma = 1.0; } ); };\n"
        "  atm = { triplets = ( { species = [\"Kr\", \"Ar\", \"Kr\"]; nu = 0.2; },\n"
        "    { species = [\"Ar\", \"Ar\", \"Ar\"]; nu = 0.07; } ); };\n};\n"
        "output = { data = \"final.data\"; };\n";
    expect_ok("two species, pairs, triplets", &c, pairs, 0, NULL);
    gsl_test(c.system.n_species != 2 || !c.system.species_given ||
                 strcmp(c.system.species[1].name, "Kr") || c.system.species[1].mass != 83.798 ||
                 c.system.init.n_composition != 2 || c.system.init.composition[0] != 0.8 ||
                 c.system.init.composition[1] != 0.2 || strcmp(c.output.data, "final.data"),
             "two species: names, masses, composition 0.8 / 0.2, output.data");
    const cfg_lj_pair *p = c.potential.lj.pairs;
    gsl_test(c.potential.lj.n_pairs != 2 || p[0].t[0] != 0 || p[0].t[1] != 0 || p[0].cutoff != 0 ||
                 p[1].t[0] != 1 || p[1].t[1] != 1 || p[1].epsilon != 1.4 || p[1].sigma != 1.1 ||
                 p[1].cutoff != 3.5 || c.potential.lj.mix != CFG_MIX_ARITHMETIC,
             "pairs: sorted by species (Ar-Ar first), a cutoff not given is 0, mix arithmetic");
    cfg_lj_coeffs(&c, 1, 0, &e, &s, &r);
    gsl_test(!close_to(e, sqrt(1.4)) || !close_to(s, 1.05) || !close_to(r, 3.25),
             "arithmetic mix of Ar-Kr: epsilon sqrt(1 x 1.4), sigma (1 + 1.1)/2, cutoff "
             "(3 + 3.5)/2 (got %.17g %.17g %.17g)", e, s, r);
    cfg_lj_coeffs(&c, 0, 0, &e, &s, &r);
    gsl_test(e != 1.0 || s != 1.0 || r != 3.0 || cfg_lj_cutoff_max(&c) != 3.5,
             "Ar-Ar as given with potential.lj.cutoff; the largest cutoff Kr-Kr's 3.5");
    const cfg_atm_triplet *q = c.potential.atm.triplets;
    gsl_test(c.potential.atm.n_triplets != 2 || !c.potential.atm.triplets_given ||
                 q[0].t[0] || q[0].t[2] || q[0].nu != 0.07 || q[1].t[0] != 0 || q[1].t[1] != 1 ||
                 q[1].t[2] != 1 || q[1].nu != 0.2,
             "triplets: sorted, Kr-Ar-Kr stored as Ar-Kr-Kr");
    gsl_test(cfg_atm_nu(&c, 1, 0, 1) != 0.2 || cfg_atm_nu(&c, 1, 1, 0) != 0.2 ||
                 cfg_atm_nu(&c, 0, 1, 1) != 0.2 || cfg_atm_nu(&c, 0, 0, 1) != 0.0 ||
                 cfg_atm_nu(&c, 1, 1, 1) != 0.0 || cfg_atm_nu(&c, 0, 0, 0) != 0.07 ||
                 !cfg_atm_active(&c),
             "triplets: every order of Ar-Kr-Kr 0.2, a triplet not given 0 (LAMMPS's atm)");
    expect_ok("geometric mix", &c, TWO_SPECIES "potential = { lj = { cutoff = 3.0; pairs = (\n"
              "  { species = [\"Kr\", \"Kr\"]; epsilon = 1.4; sigma = 1.1; cutoff = 3.5; },\n"
              "  { species = [\"Ar\", \"Ar\"]; epsilon = 1.0; sigma = 1.0; },\n"
              "  { species = [\"Kr\", \"Ar\"]; epsilon = 1.2; sigma = 1.06; } ); }; };\n",
              0, NULL);
    cfg_lj_coeffs(&c, 0, 1, &e, &s, &r);
    gsl_test(c.potential.lj.mix != CFG_MIX_GEOMETRIC || e != 1.2 || s != 1.06 || r != 3.0 ||
                 c.potential.lj.pairs[1].t[0] != 0 || c.potential.lj.pairs[1].t[1] != 1,
             "a given Ar-Kr is not mixed; its cutoff potential.lj.cutoff");
    expect_ok("geometric mix of a pair not given", &c, TWO_SPECIES "potential = { lj = { "
              "cutoff = 3.0; pairs = (\n"
              "  { species = [\"Kr\", \"Kr\"]; epsilon = 1.4; sigma = 1.1; cutoff = 3.5; },\n"
              "  { species = [\"Ar\", \"Ar\"]; epsilon = 1.0; sigma = 1.0; } ); }; };\n", 0, NULL);
    cfg_lj_coeffs(&c, 0, 1, &e, &s, &r);
    gsl_test(!close_to(e, sqrt(1.4)) || !close_to(s, sqrt(1.1)) || !close_to(r, sqrt(10.5)),
             "geometric mix: sigma sqrt(1.1), cutoff sqrt(3 x 3.5) (got %.17g %.17g)", s, r);
    expect_ok("several species, the shorthand", &c, TWO_SPECIES "potential = { lj = { epsilon = "
              "1.5; }; atm = { nu = 0.09; }; };\n", 0, NULL);
    cfg_lj_coeffs(&c, 0, 1, &e, &s, &r);
    gsl_test(e != 1.5 || s != 1.0 || r != 2.5 || cfg_atm_nu(&c, 0, 1, 1) != 0.09,
             "several species without pairs or triplets: the shorthand for every one");
    expect_ok("composition normalised", &c, "system = { particles = 10;\n"
              "  species = ( { name = \"A\"; mass = 1; }, { name = \"B_2\"; mass = 2; },"
              " { name = \"c\"; mass = 3; } );\n  init = { composition = (4, 0, 1.0); }; };\n",
              0, NULL);
    gsl_test(c.system.init.composition[0] != 0.8 || c.system.init.composition[1] != 0.0 ||
                 c.system.init.composition[2] != 0.2 || c.system.n_species != 3,
             "composition (4, 0, 1.0) is 0.8, 0, 0.2");
    expect_ok("one species given: no composition needed", &c, "system = { particles = 10;\n"
              "  species = ( { name = \"Xe\"; mass = 131.293; } ); };\n", 0, NULL);
    gsl_test(c.system.n_species != 1 || strcmp(c.system.species[0].name, "Xe") ||
                 c.system.init.n_composition != 0, "one species Xe, composition 0 (all of it)");
    put("start.data", "LAMMPS data file\n\n3 atoms\n2 atom types\n");
    expect_ok("init lammps", &c, "system = { particles = 3;\n"
              "  species = ( { name = \"Ar\"; mass = 39.948; }, { name = \"Kr\"; mass = 83.798; } );\n"
              "  init = { type = \"lammps\"; file = \"start.data\"; }; };\n", 0, NULL);
    gsl_test(c.system.init.type != CFG_INIT_LAMMPS || strcmp(c.system.init.file, "start.data") ||
                 strcmp(cfg_init_name(CFG_INIT_LAMMPS), "lammps"),
             "init lammps: the type and its file, no composition needed");
    expect_ok("triplets all zero", &c, MIN_CFG "potential = { atm = { triplets = ( { species = "
              "[\"Ar\", \"Ar\", \"Ar\"]; nu = 0; } ); }; };\n", 0, NULL);
    gsl_test(cfg_atm_active(&c), "triplets all 0: the ATM term is off");
}

/* Each bad input: exit 2, one line naming file:line and the setting. */
static void test_species_errors(void)
{
    char nine[1024] = "system = { particles = 10; species = (";
    for (int i = 0; i < 9; i++)
        snprintf(nine + strlen(nine), sizeof nine - strlen(nine), "%s{ name = \"S%d\"; mass = 1; }",
                 i ? ", " : "", i);
    strcat(nine, "); };\n");
    expect_error("too many species", nine, 0, NULL,
                 "tribody: sim.cfg:1: system.species: at most 8 species (got 9)");
    expect_error("empty species", "system = { particles = 10; species = (); };\n", 0, NULL,
                 "tribody: sim.cfg:1: system.species: an empty list (leave the setting out, or "
                 "give at least one entry)");
    expect_error("species not a list", "system = { particles = 10; species = \"Ar\"; };\n", 0,
                 NULL, "tribody: sim.cfg:1: system.species: expected a list (got a string)");
    expect_error("species entry not a group", "system = { particles = 10;\n"
                 "  species = ( \"Ar\" ); };\n", 0, NULL,
                 "tribody: sim.cfg:2: system.species[1]: expected a group { name = \"Ar\"; mass "
                 "= 39.948; } (got a string)");
    expect_error("duplicate species, bad mass, unknown member", "system = { particles = 10;\n"
                 "  species = ( { name = \"Ar\"; mass = 1; },\n"
                 "    { name = \"Ar\"; mass = 0; charge = 1; } ); };\n", 0, NULL,
                 "tribody: sim.cfg:3: system.species[2].charge: unknown setting (expected name, "
                 "mass)\n"
                 "tribody: sim.cfg:3: system.species[2].name: \"Ar\" is already the name of "
                 "system.species[1]\n"
                 "tribody: sim.cfg:3: system.species[2].mass: must be > 0 m (got 0)");
    expect_error("bad names, missing mass", "system = { particles = 10;\n"
                 "  species = ( { name = \"2Ar\"; mass = 1; }, { name = \"Argon_12\"; mass = 1; },\n"
                 "    { name = \"Ar-Kr\"; mass = 1; }, { name = 3; mass = 1; }, { mass = 1; },\n"
                 "    { name = \"\"; mass = 1; }, { name = \"Kr\"; } ); };\n", 0, NULL,
                 "tribody: sim.cfg:2: system.species[1].name: must be 1 .. 7 letters, digits or _, "
                 "not starting with a digit (got \"2Ar\")\n"
                 "tribody: sim.cfg:2: system.species[2].name: must be 1 .. 7 letters, digits or _, "
                 "not starting with a digit (got \"Argon_12\")\n"
                 "tribody: sim.cfg:3: system.species[3].name: must be 1 .. 7 letters, digits or _, "
                 "not starting with a digit (got \"Ar-Kr\")\n"
                 "tribody: sim.cfg:3: system.species[4].name: expected a string (got an integer)\n"
                 "tribody: sim.cfg:3: system.species[5].name: required setting is missing (1 .. 7 "
                 "letters, digits or _)\n"
                 "tribody: sim.cfg:4: system.species[6].name: must be 1 .. 7 letters, digits or _, "
                 "not starting with a digit (got \"\")\n"
                 "tribody: sim.cfg:4: system.species[7].mass: required setting is missing (> 0 m)");
    expect_error("mass not a number, and system.mass", "system = { particles = 10; mass = 2;\n"
                 "  species = ( { name = \"Ar\"; mass = \"heavy\"; } ); };\n", 0, NULL,
                 "tribody: sim.cfg:2: system.species[1].mass: expected a number (got a string)\n"
                 "tribody: sim.cfg:1: system.mass: not used with system.species (each species "
                 "gives its mass)");
    expect_error("species mass beyond CFG_FLOAT_MAX", "system = { particles = 10;\n"
                 "  species = ( { name = \"Ar\"; mass = 1e300; } ); };\n", 0, NULL,
                 "tribody: sim.cfg:2: system.species[1].mass: must be at most 1e+15 in magnitude "
                 "(got 1e+300)");
    /* composition */
    expect_error("composition missing", "system = { particles = 10;\n"
                 "  species = ( { name = \"Ar\"; mass = 1; }, { name = \"Kr\"; mass = 2; } );\n"
                 "  init = { type = \"lattice\"; }; };\n", 0, NULL,
                 "tribody: sim.cfg:3: system.init.composition: required with 2 species and "
                 "system.init.type = \"lattice\" (the fraction of each, in the order of "
                 "system.species)");
    expect_error("composition without species", "system = { particles = 10;\n"
                 "  init = { composition = [1.0]; }; };\n", 0, NULL,
                 "tribody: sim.cfg:2: system.init.composition: only used with system.species "
                 "(the fraction of each species)");
    put("start.xyz", "3\n\nAr 0 0 0\nKr 1 0 0\nAr 0 1 0\n");
    expect_error("composition with an xyz file", "system = { particles = 3;\n"
                 "  species = ( { name = \"Ar\"; mass = 1; }, { name = \"Kr\"; mass = 2; } );\n"
                 "  init = { type = \"xyz\"; file = \"start.xyz\"; composition = [0.5, 0.5]; };"
                 " };\n", 0, NULL,
                 "tribody: sim.cfg:3: system.init.composition: only used with system.init.type = "
                 "\"random\" or \"lattice\" (the type is xyz: the file gives each particle's "
                 "species)");
    expect_error("composition count", "system = { particles = 10;\n"
                 "  species = ( { name = \"Ar\"; mass = 1; }, { name = \"Kr\"; mass = 2; } );\n"
                 "  init = { composition = [0.5, 0.3, 0.2]; }; };\n", 0, NULL,
                 "tribody: sim.cfg:3: system.init.composition: 3 fractions for 2 species (one "
                 "per entry of system.species, in its order)");
    expect_error("composition entries", "system = { particles = 10;\n"
                 "  species = ( { name = \"Ar\"; mass = 1; }, { name = \"Kr\"; mass = 2; } );\n"
                 "  init = { composition = (-0.5, \"x\"); }; };\n", 0, NULL,
                 "tribody: sim.cfg:3: system.init.composition[1]: must be >= 0 and at most 1e+15 "
                 "(got -0.5)\n"
                 "tribody: sim.cfg:3: system.init.composition[2]: expected a number (got a "
                 "string)");
    expect_error("composition all zero", "system = { particles = 10;\n"
                 "  species = ( { name = \"Ar\"; mass = 1; }, { name = \"Kr\"; mass = 2; } );\n"
                 "  init = { composition = [0.0, 0.0]; }; };\n", 0, NULL,
                 "tribody: sim.cfg:3: system.init.composition: the fractions sum to 0 (at least "
                 "one must be > 0)");
    expect_error("composition as a group", "system = { particles = 10;\n"
                 "  init = { composition = { a = 1; }; }; };\n", 0, NULL,
                 "tribody: sim.cfg:2: system.init.composition: expected a list (got a group)");
    expect_error("lammps without a file", "system = { particles = 10;\n"
                 "  init = { type = \"lammps\"; }; };\n", 0, NULL,
                 "tribody: sim.cfg:2: system.init.file: required with system.init.type = "
                 "\"lammps\"");
    /* pairs */
    expect_error("pairs: entries", TWO_SPECIES "potential = { lj = { pairs = (\n"
                 "  { species = [\"Ar\", \"Kr\"]; epsilon = 1; sigma = 1; },\n"
                 "  { species = [\"Kr\", \"Ar\"]; epsilon = 1; sigma = 1; cutoff = -1; },\n"
                 "  { species = [\"Ar\", \"Xe\"]; epsilon = 1; },\n"
                 "  { species = \"Ar\"; epsilon = 0; sigma = 1; eps = 2; },\n"
                 "  { species = (\"Ar\", 3); epsilon = 1; sigma = 1; },\n"
                 "  { species = [\"Ar\"]; epsilon = 1; sigma = \"1\"; },\n"
                 "  { epsilon = 1; sigma = 1; }, 7 ); }; };\n", 0, NULL,
                 "tribody: sim.cfg:7: potential.lj.pairs[2]: the pair Ar-Kr is already "
                 "potential.lj.pairs[1]\n"
                 "tribody: sim.cfg:7: potential.lj.pairs[2].cutoff: must be > 0 sigma (got -1)\n"
                 "tribody: sim.cfg:8: potential.lj.pairs[3].species: unknown species \"Xe\" "
                 "(expected one of: Ar, Kr)\n"
                 "tribody: sim.cfg:8: potential.lj.pairs[3].sigma: required setting is missing "
                 "(> 0 sigma)\n"
                 "tribody: sim.cfg:9: potential.lj.pairs[4].eps: unknown setting (expected "
                 "species, epsilon, sigma, cutoff)\n"
                 "tribody: sim.cfg:9: potential.lj.pairs[4].species: expected two species names, "
                 "[\"Ar\", \"Kr\"] (got a string)\n"
                 "tribody: sim.cfg:9: potential.lj.pairs[4].epsilon: must be > 0 epsilon (got 0)\n"
                 "tribody: sim.cfg:10: potential.lj.pairs[5].species: expected two species names, "
                 "[\"Ar\", \"Kr\"] (got an integer among them)\n"
                 "tribody: sim.cfg:11: potential.lj.pairs[6].species: expected two species names, "
                 "[\"Ar\", \"Kr\"] (got 1 entry)\n"
                 "tribody: sim.cfg:11: potential.lj.pairs[6].sigma: expected a number (got a "
                 "string)\n"
                 "tribody: sim.cfg:12: potential.lj.pairs[7].species: required setting is missing "
                 "(two species names, [\"Ar\", \"Kr\"])\n"
                 "tribody: sim.cfg:12: potential.lj.pairs[8]: expected a group { species = "
                 "[\"Ar\", \"Kr\"]; epsilon = ...; sigma = ...; } (got an integer)");
    expect_error("pairs: an own pair missing", TWO_SPECIES "potential = { lj = { pairs = (\n"
                 "  { species = [\"Ar\", \"Kr\"]; epsilon = 1; sigma = 1; },\n"
                 "  { species = [\"Ar\", \"Ar\"]; epsilon = 1; sigma = 1; } ); }; };\n", 0, NULL,
                 "tribody: sim.cfg:5: potential.lj.pairs: no entry for Kr-Kr: every species' own "
                 "pair must be given (the pairs of two species that are not given are mixed from "
                 "them, as LAMMPS does)");
    expect_error("pairs with epsilon and sigma", TWO_SPECIES "potential = { lj = {\n"
                 "  epsilon = 1.0;\n  sigma = 1.0;\n  pairs = (\n"
                 "  { species = [\"Ar\", \"Ar\"]; epsilon = 1; sigma = 1; },\n"
                 "  { species = [\"Kr\", \"Kr\"]; epsilon = 1; sigma = 1; } ); }; };\n", 0, NULL,
                 "tribody: sim.cfg:6: potential.lj.epsilon: not used with potential.lj.pairs "
                 "(each entry gives its own)\n"
                 "tribody: sim.cfg:7: potential.lj.sigma: not used with potential.lj.pairs (each "
                 "entry gives its own)");
    expect_error("mix without pairs", MIN_CFG "potential = { lj = { mix = \"arithmetic\"; }; };\n",
                 0, NULL, "tribody: sim.cfg:2: potential.lj.mix: only used with "
                          "potential.lj.pairs (it mixes the pairs that it does not give)");
    expect_error("unknown mix", MIN_CFG "potential = { lj = { mix = \"sixthpower\"; }; };\n", 0,
                 NULL, "tribody: sim.cfg:2: potential.lj.mix: unknown value \"sixthpower\" "
                       "(expected one of: geometric, arithmetic)");
    expect_error("pairs empty", MIN_CFG "potential = { lj = { pairs = (); }; };\n", 0, NULL,
                 "tribody: sim.cfg:2: potential.lj.pairs: an empty list (leave the setting out, "
                 "or give at least one entry)");
    expect_error("pairs: a cutoff beyond half the box", "system = { particles = 10; boundary = "
                 "\"periodic\"; box = 10.0; };\npotential = { lj = { cutoff = 2.0; pairs = (\n"
                 "  { species = [\"Ar\", \"Ar\"]; epsilon = 1; sigma = 1; cutoff = 5.5; } ); }; };\n",
                 0, NULL, "tribody: sim.cfg:3: potential.lj.pairs[1].cutoff: 5.5 exceeds half the "
                          "box (L/2 = 5)");
    expect_error("pairs: a species list that is wrong says nothing more", "system = { particles "
                 "= 10;\n  species = ( { name = \"Ar\"; mass = 0; } ); };\npotential = { lj = { "
                 "pairs = ( { species = [\"Xe\", \"Xe\"]; } ); }; };\n", 0, NULL,
                 "tribody: sim.cfg:2: system.species[1].mass: must be > 0 m (got 0)");
    /* triplets */
    expect_error("triplets: entries", TWO_SPECIES "potential = { atm = { triplets = (\n"
                 "  { species = [\"Ar\", \"Kr\", \"Ar\"]; nu = 1; },\n"
                 "  { species = [\"Kr\", \"Ar\", \"Ar\"]; nu = -1; },\n"
                 "  { species = [\"Ar\", \"Kr\"]; },\n"
                 "  { species = [\"Ar\", \"Ar\", \"Ne\"]; nu = 1; cutoff = 2; } ); }; };\n", 0,
                 NULL,
                 "tribody: sim.cfg:7: potential.atm.triplets[2]: the triplet Ar-Ar-Kr is already "
                 "potential.atm.triplets[1]\n"
                 "tribody: sim.cfg:7: potential.atm.triplets[2].nu: must be >= 0 epsilon sigma^9 "
                 "(got -1)\n"
                 "tribody: sim.cfg:8: potential.atm.triplets[3].species: expected three species "
                 "names, [\"Ar\", \"Ar\", \"Kr\"] (got 2 entries)\n"
                 "tribody: sim.cfg:8: potential.atm.triplets[3].nu: required setting is missing "
                 "(>= 0 epsilon sigma^9)\n"
                 "tribody: sim.cfg:9: potential.atm.triplets[4].cutoff: unknown setting (expected "
                 "species, nu)\n"
                 "tribody: sim.cfg:9: potential.atm.triplets[4].species: unknown species \"Ne\" "
                 "(expected one of: Ar, Kr)");
    expect_error("triplets with nu", MIN_CFG "potential = { atm = {\n  nu = 0.07;\n"
                 "  triplets = ( { species = [\"Ar\", \"Ar\", \"Ar\"]; nu = 0.07; } ); }; };\n", 0,
                 NULL, "tribody: sim.cfg:3: potential.atm.nu: not used with "
                       "potential.atm.triplets (each entry gives its own; a triplet not given "
                       "has nu = 0)");
    expect_error("metal: a pair's message names eV", "units = \"metal\";\n" MIN_CFG
                 "potential = { lj = { pairs = ( { species = [\"Ar\", \"Ar\"]; epsilon = -1; "
                 "sigma = 3.4; } ); }; };\n", 0, NULL,
                 "tribody: sim.cfg:3: potential.lj.pairs[1].epsilon: must be > 0 eV (got -1)");
}

/* --set of a list setting: a whole libconfig list or array, checked like the file's. */
static void test_species_set(void)
{
    sim_config c;
    char s1[128] = "system.init.composition=[1.0, 3.0]";
    char s2[256] = "system.species=({ name = \"Ne\"; mass = 20.18; }, { name = \"Ar\"; mass = "
                   "39.948; })";
    char s3[128] = "potential.atm.triplets=({ species = [\"Ar\", \"Ar\", \"Ne\"]; nu = 0.5; })";
    char s4[128] = "system.species=({ name = \"Ne\"; mass = -2; })";
    char s5[64] = "system.init.composition=0.5";
    char s6[64] = "output.data=run.data";
    expect_ok("--set composition", &c, TWO_SPECIES, 2, (char *[]){s1, s6});
    gsl_test(c.system.init.composition[0] != 0.25 || c.system.init.composition[1] != 0.75 ||
                 strcmp(c.output.data, "run.data"),
             "--set composition=[1.0, 3.0]: 0.25, 0.75 (the file's replaced); output.data");
    expect_ok("--set species and triplets", &c, TWO_SPECIES, 3, (char *[]){s2, s1, s3});
    gsl_test(c.system.n_species != 2 || strcmp(c.system.species[0].name, "Ne") ||
                 c.potential.atm.n_triplets != 1 || cfg_atm_nu(&c, 1, 0, 1) != 0.5,
             "--set species (Ne, Ar) and a triplet Ar-Ar-Ne");
    expect_error("--set species, a bad mass", MIN_CFG, 1, (char *[]){s4},
                 "tribody: --set system.species=({ name = \"Ne\"; mass = -2; }): "
                 "system.species[1].mass: must be > 0 m (got -2)");
    expect_error("--set composition, a number", TWO_SPECIES, 1, (char *[]){s5},
                 "tribody: --set system.init.composition=0.5: system.init.composition: expected "
                 "a list (got a float)");
}

/* The physics text (config_physics.c): the new lines, a change that shows, and what a
 * checkpoint without them reads as. */
static void test_species_physics(void)
{
    sim_config c;
    char t1[8192], t2[8192], v[256];
    expect_ok("physics text, one species", &c, MIN_CFG "potential = { lj = { }; };\n", 0, NULL);
    cfg_physics_text(&c, t1, sizeof t1);
    gsl_test(!strstr(t1, "units=lj\n") || !strstr(t1, "system.species=Ar 1\n") ||
                 !strstr(t1, "potential.lj.mix=geometric\n") ||
                 !strstr(t1, "potential.lj.pairs=none\n") ||
                 !strstr(t1, "potential.atm.triplets=none\n"),
             "physics text: units, the one species, mix, no pairs, no triplets ('%s')",
             one_line(t1));
    gsl_test(!cfg_is_physics("units") || !cfg_is_physics("system.species") ||
                 !cfg_is_physics("potential.lj.pairs") || !cfg_is_physics("potential.lj.mix") ||
                 !cfg_is_physics("potential.atm.triplets") ||
                 cfg_is_physics("system.init.composition") || cfg_is_physics("output.data"),
             "physics: units, species, pairs, mix, triplets; not composition nor output.data");
    /* issue 20 item 8: a changed cutoff_triple changes the text a restart compares */
    char s1[64] = "potential.atm.cutoff_triple=3";
    expect_ok("cutoff_triple", &c, MIN_CFG "potential = { lj = { }; };\n", 1, (char *[]){s1});
    cfg_physics_text(&c, t2, sizeof t2);
    gsl_test(!strcmp(t1, t2) || !strstr(t2, "potential.atm.cutoff_triple=3\n"),
             "physics text: a changed cutoff_triple differs");
    expect_ok("physics text, two species", &c, TWO_SPECIES "potential = { lj = { pairs = (\n"
              "  { species = [\"Kr\", \"Kr\"]; epsilon = 1.4; sigma = 1.1; cutoff = 3.5; },\n"
              "  { species = [\"Ar\", \"Ar\"]; epsilon = 1.0; sigma = 1.0; } ); };\n"
              "  atm = { triplets = ( { species = [\"Kr\", \"Ar\", \"Kr\"]; nu = 0.2; } ); };\n"
              "};\nunits = \"metal\";\n", 0, NULL);
    cfg_physics_text(&c, t1, sizeof t1);
    gsl_test(!strstr(t1, "units=metal\n") ||
                 !strstr(t1, "system.species=Ar 39.948, Kr 83.798\n") ||
                 !strstr(t1, "potential.lj.pairs=Ar Ar 1 1 0, Kr Kr 1.4 1.1 3.5\n") ||
                 !strstr(t1, "potential.atm.triplets=Ar Kr Kr 0.2\n"),
             "physics text: metal, the species, pairs sorted, the triplet ('%s')", one_line(t1));
    /* every pair of 8 species: past 240 characters, a count and a hash */
    char big[8192] = "system = { particles = 10; species = (";
    for (int i = 0; i < 8; i++)
        snprintf(big + strlen(big), sizeof big - strlen(big), "%s{ name = \"Sp%d\"; mass = 1; }",
                 i ? ", " : "", i);
    strcat(big, "); init = { composition = [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]; }; };\n"
                "potential = { lj = { pairs = (");
    for (int i = 0, k = 0; i < 8; i++)
        for (int j = i; j < 8; j++, k++)
            snprintf(big + strlen(big), sizeof big - strlen(big),
                     "%s{ species = [\"Sp%d\", \"Sp%d\"]; epsilon = 1.%d; sigma = 1; }",
                     k ? ", " : "", i, j, k);
    strcat(big, "); }; };\n");
    expect_ok("36 pairs", &c, big, 0, NULL);
    gsl_test(cfg_physics_text(&c, t1, sizeof t1) != 0 || strlen(t1) > 4000 ||
                 !strstr(t1, "potential.lj.pairs=36 entries, fnv1a "),
             "36 pairs: the text fits a checkpoint (%zu bytes), the pairs as a count and a hash",
             strlen(t1));
    c.potential.lj.pairs[35].epsilon = 2.0;
    cfg_physics_text(&c, t2, sizeof t2);
    gsl_test(!strcmp(t1, t2), "36 pairs: one epsilon changed changes the hash");
    /* a checkpoint of a tribody before species lacks these lines */
    const char *old = "system.mass=2.3849999999999998\npotential.lj=1\n";
    gsl_test(!cfg_physics_absent("units", old, v, sizeof v) || strcmp(v, "lj"),
             "absent units: lj (got %s)", v);
    gsl_test(!cfg_physics_absent("system.species", old, v, sizeof v) || strcmp(v, "Ar 2.385"),
             "absent system.species: Ar of the stored mass, as it reads now (got %s)", v);
    gsl_test(!cfg_physics_absent("potential.lj.mix", old, v, sizeof v) || strcmp(v, "geometric") ||
                 !cfg_physics_absent("potential.lj.pairs", "potential.lj=0\n", v, sizeof v) ||
                 strcmp(v, "0"), "absent mix: geometric with LJ; pairs 0 without LJ");
    gsl_test(!cfg_physics_absent("potential.atm.triplets", old, v, sizeof v) ||
                 strcmp(v, "none") || cfg_physics_absent("system.boundary", old, v, sizeof v) ||
                 cfg_physics_absent("nope", old, v, sizeof v),
             "absent triplets: none; an older setting (system.boundary) is not known");
}

/* Removes what put() wrote, then the directory. */
static void cleanup(const char *dir)
{
    if (chdir(root) != 0)
        fprintf(stderr, "test_config: could not remove %s\n", dir);
    else
        tb_test_remove_dir(dir);
}

int main(void)
{
    char dir[] = "/tmp/tb_test_config.XXXXXX";
    tb_test_init();
    tb_test_bin(); /* its path, from the repository root, before the chdir below */
    if (!getcwd(root, sizeof root) || !mkdtemp(dir) || chdir(dir) != 0) {
        perror("test_config: temporary directory");
        return 2;
    }
    map3d_names(maps, sizeof maps);
    map2d_names(maps2, sizeof maps2);
    map0 = map3d_all[0]->name;
    map20 = map2d_all[0]->name;

    test_defaults();
    test_all_settings();
    test_derived();
    test_long_integers();
    test_xyz();
    test_file_errors();
    test_include();
    test_include_limits();
    test_unknown();
    test_types();
    test_ranges();
    test_names();
    test_box();
    test_packing();
    test_overrides();
    test_many();
    test_docs();
    test_examples();
    test_names_helpers();
    test_units();
    test_species();
    test_species_errors();
    test_species_set();
    test_species_physics();

    cleanup(dir);
    return tb_test_done();
}
