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
#include "tests/tb_config.h"
#include "tests/tb_test.h"

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
                 " or \"lammps\" (the type is random)");    expect_error("placement without random",
                 "system = {\n particles = 3;\n init = {\n  type = \"lattice\";\n"
                 "  placement = \"parallel\";\n };\n};\n", 0, NULL,
                 "tribody: sim.cfg:5: system.init.placement: only used with system.init.type = "
                 "\"random\" (the type is lattice)");
    rc = load(&c, "system = {\n particles = 3;\n init = { placement = \"fast\"; };\n};\n", 0,
              NULL);
    gsl_test(rc != TB_EXIT_USAGE || strncmp(err, "tribody: sim.cfg:3: system.init.placement: ", 43),
             "placement: an unknown one is refused by name (%d, %s)", rc, one_line(err));
    snprintf(set, sizeof set, "system.init.placement=\"parallel\"");
    rc = load(&c, "system = { particles = 3; };\n", 1, sets);
    gsl_test(rc != 0 || c.system.init.placement != CFG_PLACE_PARALLEL,
             "placement: --set system.init.placement=\"parallel\" is read (got %d, %d)", rc,
             c.system.init.placement);
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

/* integrator.barostat: defaults, the ramp's default, units, and each bad input of issue 21
 * with the setting named (docs/config.md, "Checks across settings"). */
#define BOX_CFG "system = { particles = 10; boundary = \"periodic\"; box = 6.0; };\n" \
                "potential = { atm = { cutoff = 2.0; }; };\n"
static void test_barostat(void)
{
    sim_config c;
    int rc = load(&c, BOX_CFG "integrator = { type = \"langevin\"; temperature = 1.0;\n"
                  "  barostat = { type = \"c-rescale\"; pressure = 0.5; }; };\n", 0, NULL);
    gsl_test(rc != 0, "barostat: loads (%s)", err);
    gsl_test(!c.integrator.barostat.enabled || c.integrator.barostat.type != CFG_BARO_CRESCALE ||
             c.integrator.barostat.coupling != CFG_COUPLE_ISO || c.integrator.barostat.every != 10,
             "barostat: enabled, c-rescale, iso, every 10");
    gsl_test(c.integrator.barostat.pressure != 0.5 || c.integrator.barostat.pressure_end != 0.5 ||
             c.integrator.barostat.period != 2.0 || c.integrator.barostat.compressibility != 0.1,
             "barostat: P 0.5, P_end = P, period 2, compressibility 0.1 (got %g %g %g %g)",
             c.integrator.barostat.pressure, c.integrator.barostat.pressure_end,
             c.integrator.barostat.period, c.integrator.barostat.compressibility);
    rc = load(&c, BOX_CFG "integrator = { dt = 0.001; };\n", 0, NULL);
    gsl_test(rc != 0 || c.integrator.barostat.enabled, "no barostat group: off");
    /* metal: the defaults are argon's: tau_P = 2 tau = 4.3127 ps, beta_T = 0.1 sigma^3/epsilon
     * over argon's epsilon/sigma^3 = 119.8 k_B K / 3.405^3 A^3 * nktv2p = 418.976 bar */
    rc = load(&c, "units = \"metal\";\n" BOX_CFG "integrator = { type = \"nose-hoover\"; "
                  "temperature = 90; barostat = { type = \"c-rescale\"; pressure = 1.0; "
                  "coupling = \"aniso\"; }; };\n", 0, NULL);
    gsl_test(rc != 0, "barostat metal: loads (%s)", err);
    gsl_test(fabs(c.integrator.barostat.period - 4.31270) > 1e-4 ||
             fabs(c.integrator.barostat.compressibility * 418.976 - 0.1) > 1e-6,
             "barostat metal: period 4.3127 ps, compressibility 0.1/418.976 1/bar (got %g, %g)",
             c.integrator.barostat.period, c.integrator.barostat.compressibility);
    expect_error("barostat without type", BOX_CFG "integrator = {\n barostat = { pressure = 1.0; "
                 "}; };\n", 0, NULL, "tribody: sim.cfg:4: integrator.barostat.type: required in "
                 "an integrator.barostat group");
    expect_error("barostat without pressure", BOX_CFG "integrator = {\n barostat = { type = "
                 "\"c-rescale\"; }; };\n", 0, NULL, "tribody: sim.cfg:4: "
                 "integrator.barostat.pressure: required in an integrator.barostat group");
    expect_error("mtk with nve", BOX_CFG "integrator = { barostat = {\n type = \"mtk\"; "
                 "pressure = 1.0; }; };\n", 0, NULL, "tribody: sim.cfg:4: "
                 "integrator.barostat.type: mtk needs the Nose-Hoover chain: integrator.type = "
                 "\"nose-hoover\" (the type is nve)");
    expect_error("barostat on an open axis", "system = { particles = 10; boundary = \"ppf\"; "
                 "box = 6.0; };\nintegrator = { barostat = { type = \"c-rescale\"; pressure = 1.0;\n"
                 " coupling = \"aniso\"; }; };\n", 0, NULL, "tribody: sim.cfg:3: "
                 "integrator.barostat.coupling: aniso scales every axis, but axis z is open "
                 "(system.boundary): a barostat needs a periodic box");
    expect_error("barostat in vacuum", MIN_CFG "potential = { atm = { cutoff = 2.0; }; };\n"
                 "integrator = { barostat = { type = \"c-rescale\"; pressure = 1.0; }; };\n", 0,
                 NULL, "tribody: sim.cfg:3: "
                 "integrator.barostat.coupling: iso scales every axis, but axis x is open "
                 "(system.boundary): a barostat needs a periodic box");
    expect_error("tau_P = 0", BOX_CFG "integrator = { barostat = { type = \"c-rescale\"; "
                 "pressure = 1.0;\n period = 0.0; }; };\n", 0, NULL, "tribody: sim.cfg:4: "
                 "integrator.barostat.period: must be > 0 tau (got 0)");
    expect_error("negative compressibility", BOX_CFG "integrator = { barostat = { type = "
                 "\"c-rescale\"; pressure = 1.0;\n compressibility = -1e-4; }; };\n", 0, NULL,
                 "tribody: sim.cfg:4: integrator.barostat.compressibility: must be > 0 "
                 "sigma^3/epsilon (got -0.0001)");
    expect_error("negative compressibility in metal", "units = \"metal\";\n" BOX_CFG
                 "integrator = { barostat = { type = \"c-rescale\"; pressure = 1.0;\n "
                 "compressibility = -1e-4; }; };\n", 0, NULL, "tribody: sim.cfg:5: "
                 "integrator.barostat.compressibility: must be > 0 1/bar (got -0.0001)");
    expect_error("c-rescale tri", BOX_CFG "integrator = { barostat = { type = \"c-rescale\"; "
                 "pressure = 1.0;\n coupling = \"tri\"; }; };\n", 0, NULL, "tribody: sim.cfg:4: "
                 "integrator.barostat.coupling: c-rescale scales the edges only: iso or aniso "
                 "(got tri; tri is mtk's)");
}

int main(void)
{
    char dir[] = "/tmp/tb_test_config.XXXXXX";
    if (tb_config_begin(dir, "test_config: temporary directory") != 0)
        return 2;

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
    test_barostat();
    test_packing();
    test_overrides();
    test_many();
    test_docs();
    test_examples();
    test_names_helpers();

    cleanup(dir);
    return tb_test_done();
}
