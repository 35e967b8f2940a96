/* test_validate.c — `tribody validate` end to end on the CPU backend: a small LJ + ATM case
 * passes every check (exit 0), the reports hold the same rows as CSV and JSON, and each kind
 * of deliberate fault (TB_VALIDATE_FAULT, test-only) is caught: a flipped force component, a
 * scaled energy and a perturbed GSL reference each give FAIL rows and exit 1 — a validator
 * that cannot fail is no validator. Bad usage exits 2 with one message and writes nothing.
 *
 * The systems are small (n = 24, T = 0.05 tau) so that the program runs in seconds on two
 * cores; the physics of the tolerances is in docs/validate.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "maps3d/map2d.h"
#include "maps3d/map3d.h"
#include "tests/tb_test.h"

static char top[4096]; /* a fresh temporary directory for this program */

/* Runs `[env] tribody ARGS` in dir, stdout+stderr to dir/out.txt; returns the exit status. */
static int tribody(const char *dir, const char *env, const char *args)
{
    return tb_test_tribody(dir, env, args, NULL);
}

static int count_str(const char *s, const char *needle)
{
    int n = 0;
    for (const char *p = s ? strstr(s, needle) : NULL; p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* Table rows of out.txt whose check starts with `prefix` ("" for all) and whose verdict is
 * `verdict` (PASS, FAIL or SKIP). A row ends in its verdict; the summary line does not count. */
static int rows(const char *dir, const char *prefix, const char *verdict)
{
    char *s = tb_test_read_file(dir, "out.txt", NULL);
    int n = 0;
    const size_t vl = strlen(verdict);
    for (char *line = s ? strtok(s, "\n") : NULL; line; line = strtok(NULL, "\n")) {
        const size_t len = strlen(line);
        if (len > vl + 1 && strcmp(line + len - vl, verdict) == 0 && line[len - vl - 1] == ' ' &&
            strncmp(line, "tribody", 7) != 0 && strncmp(line, prefix, strlen(prefix)) == 0)
            n++;
    }
    free(s);
    return n;
}

static void show_output(const char *dir)
{
    char *s = tb_test_read_file(dir, "out.txt", NULL);
    printf("  (out.txt:\n%s)\n", s ? s : "(missing)");
    free(s);
}

/* LJ + ATM cluster of 24 particles; every setting the checks touch given explicitly. */
static const char small_cfg[] =
    "system = { particles = 24; seed = 2385; init = { type = \"random\"; radius = 2.6; "
    "min_distance = 1.0; temperature = 0.6; }; };\n"
    "potential = { atm = { nu = 0.0731; }; lj = { cutoff = 2.5; }; };\n"
    "integrator = { dt = 0.002; steps = 10; };\n"
    "solver = { backend = \"cpu\"; precision = \"double\"; tile = 4; };\n";

/* Periodic box: translation instead of rotation; trajectories as an open cluster. */
static const char periodic_cfg[] =
    "system = { particles = 20; seed = 77; boundary = \"periodic\"; box = 5.2; "
    "init = { type = \"random\"; min_distance = 1.0; temperature = 0.7; }; };\n"
    "potential = { atm = { nu = 0.0731; cutoff = 2.5; }; lj = { cutoff = 2.5; }; };\n"
    "integrator = { dt = 0.002; steps = 10; };\n"
    "solver = { backend = \"cpu\"; precision = \"mixed\"; tile = 4; };\n";

#define RUN_ARGS "validate sim.cfg --time 0.05 --precisions all"

/* Registered maps: the checks iterate the registries, and so does this test. */
static int n_maps3d(void)
{
    int n = 0;
    while (map3d_all[n])
        n++;
    return n;
}

static int n_maps2d(void)
{
    int n = 0;
    while (map2d_all[n])
        n++;
    return n;
}

static void test_pass(void)
{
    const char *d = tb_test_fresh_dir(top, "pass");
    const int m3 = n_maps3d();
    /* Per precision: 3 rows per 3D map, 3 for lambda2d, 6 for the full potential, 1 virial
     * (plus its finite difference in double); then 16 trajectory rows (3 GSL, 6 errors,
     * 4 orders, 3 energy) and 5 thermostat rows (2 Langevin, 3 Nose-Hoover); then per
     * precision 3 general systems x (lists, maps) x 3 rows (energy, force max, virial). */
    const int want = 3 * (3 * m3 + 3 + 6 + 1) + 1 + 16 + 5 + 3 * 3 * 2 * 3;
    char text[128];
    int rc;
    tb_test_write_file(d, "sim.cfg", small_cfg);
    rc = tribody(d, NULL, RUN_ARGS " --report r.csv");
    gsl_test(rc != 0, "validate on the CPU backend passes (exit 0, got %d)", rc);
    if (rc != 0)
        show_output(d);
    const int pass = rows(d, "", "PASS"), fail = rows(d, "", "FAIL"), skip = rows(d, "", "SKIP");
    gsl_test(pass != want || fail != 0 || skip != 0, "%d PASS rows, no FAIL or SKIP (%d, %d, %d)",
             want, pass, fail, skip);
    gsl_test(rows(d, "triplet force max rel err", "PASS") != 3 * m3,
             "a triplet force row per 3D map and precision (%d)",
             rows(d, "triplet force max rel err", "PASS"));
    gsl_test(rows(d, "VV position order", "PASS") != 2 || rows(d, "VV velocity order", "PASS") != 2,
             "VV orders of convergence pass");
    gsl_test(rows(d, "rotation+translation", "PASS") != 6, "rotation+translation rows pass");
    gsl_test(rows(d, "langevin", "PASS") != 2 || rows(d, "nose-hoover", "PASS") != 3,
             "Langevin temperature and Nose-Hoover conservation rows pass");
    gsl_test(rows(d, "triclinic mix: ", "PASS") != 18 || rows(d, "ppf slab mix: ", "PASS") != 18 ||
                 rows(d, "argon metal: ", "PASS") != 18,
             "general systems: 18 rows each pass (triclinic %d, slab %d, metal %d)",
             rows(d, "triclinic mix: ", "PASS"), rows(d, "ppf slab mix: ", "PASS"),
             rows(d, "argon metal: ", "PASS"));
    char *out = tb_test_read_file(d, "out.txt", NULL);
    gsl_test(!out || !strstr(out, "on backend cpu") || !strstr(out, "n = 24") ||
                 !strstr(out, "dt = 0.002") || !strstr(out, "check ") || !strstr(out, "verdict"),
             "the header names backend, n, dt and the columns");
    snprintf(text, sizeof text, "%d checks: %d passed, 0 failed", want, want);
    gsl_test(!out || !strstr(out, text), "the summary says '%s'", text);
    free(out);

    /* CSV: a header and one line per row, the same rows. */
    char *csv = tb_test_read_file(d, "r.csv", NULL);
    gsl_test(!csv || strncmp(csv, "check,map,precision,measured,tolerance,verdict\n", 47) != 0,
             "--report r.csv: CSV header");
    gsl_test(count_str(csv, "\n") != want + 1 || count_str(csv, ",PASS\n") != want,
             "--report r.csv: %d rows, all PASS (%d lines)", want, count_str(csv, "\n"));
    gsl_test(!csv || !strstr(csv, "triplet energy rel err,lambda,mixed,"),
             "--report r.csv: a row names check, map and precision");
    free(csv);

    rc = tribody(d, NULL, RUN_ARGS " --report r.json");
    char *json = tb_test_read_file(d, "r.json", NULL);
    gsl_test(rc != 0 || !json || json[0] != '{' || !strstr(json, "\"verdict\": \"PASS\"") ||
                 !strstr(json, "\"backend\": \"cpu\"") || !strstr(json, "\"n_force\": 24"),
             "--report r.json: JSON with backend, n and verdict");
    gsl_test(count_str(json, "{\"check\": ") != want ||
                 count_str(json, "\"verdict\": \"PASS\"}") != want,
             "--report r.json: %d checks, all PASS (%d)", want, count_str(json, "{\"check\": "));
    free(json);
}

/* Each fault makes its checks FAIL, leaves the others alone, and exits 1. */
static void test_faults(void)
{
    const char *d = tb_test_fresh_dir(top, "faults");
    const int m3 = n_maps3d();
    int rc;
    tb_test_write_file(d, "sim.cfg", small_cfg);

    rc = tribody(d, "TB_VALIDATE_FAULT=flip-force", RUN_ARGS);
    gsl_test(rc != 1, "flip-force: exit 1 (got %d)", rc);
    gsl_test(rows(d, "triplet force max rel err", "FAIL") != 3 * m3 ||
                 rows(d, "pair force max rel err", "FAIL") != 3 ||
                 rows(d, "force max rel err", "FAIL") != 3 || rows(d, "force sum", "FAIL") != 3,
             "flip-force: every force max and force sum row FAILs");
    gsl_test(rows(d, "triplet energy rel err", "PASS") != 3 * m3 || rows(d, "VV", "FAIL") != 0,
             "flip-force: energy and trajectory rows still PASS");
    gsl_test(rows(d, "triclinic mix: force max", "FAIL") != 6 ||
                 rows(d, "ppf slab mix: force max", "FAIL") != 6 ||
                 rows(d, "argon metal: energy", "PASS") != 6,
             "flip-force: the general systems' force rows FAIL, their energy rows PASS");

    rc = tribody(d, "TB_VALIDATE_FAULT=scale-energy", RUN_ARGS);
    gsl_test(rc != 1, "scale-energy: exit 1 (got %d)", rc);
    gsl_test(rows(d, "triplet energy rel err", "FAIL") != 3 * m3 ||
                 rows(d, "pair energy rel err", "FAIL") != 3 ||
                 rows(d, "energy rel err", "FAIL") != 3,
             "scale-energy: every energy row FAILs, single precision included");
    gsl_test(rows(d, "triplet force max rel err", "PASS") != 3 * m3, "scale-energy: force rows PASS");
    gsl_test(rows(d, "argon metal: energy", "FAIL") != 6 || rows(d, "triclinic mix: energy", "FAIL") != 6,
             "scale-energy: the general systems' energy rows FAIL");

    rc = tribody(d, "TB_VALIDATE_FAULT=perturb-ref", "validate sim.cfg --time 0.05 --maps lambda");
    gsl_test(rc != 1, "perturb-ref: exit 1 (got %d)", rc);
    gsl_test(rows(d, "VV position order", "FAIL") != 2 || rows(d, "VV velocity order", "FAIL") != 2,
             "perturb-ref: the orders of convergence FAIL against a perturbed GSL reference");
    gsl_test(rows(d, "triplet force max rel err", "PASS") != 1, "perturb-ref: force rows PASS");
    if (rc != 1)
        show_output(d);
}

static void test_periodic_and_maps(void)
{
    const char *d = tb_test_fresh_dir(top, "periodic");
    int rc;
    tb_test_write_file(d, "sim.cfg", periodic_cfg);
    rc = tribody(d, NULL, "validate sim.cfg --time 0.05 --maps all2d,rec");
    gsl_test(rc != 0, "periodic, mixed precision, all 2D maps: exit 0 (got %d)", rc);
    if (rc != 0)
        show_output(d);
    /* a periodic system with cutoffs takes the neighbour lists: one more row set per term */
    gsl_test(rows(d, "pair force max rel err", "PASS") != n_maps2d() + 1 ||
                 rows(d, "triplet force max rel err", "PASS") != 2,
             "--maps all2d,rec: one row set per 2D map, one for rec, one per term for the lists");
    char *out = tb_test_read_file(d, "out.txt", NULL);
    gsl_test(rows(d, "translation: energy", "PASS") != 1 || !out || strstr(out, "rotation"),
             "periodic: translation checked, rotation not");
    free(out);
}

/* A start from a LAMMPS data file (tests/lammps/tri_two: two species, masses 1 and 1.7, in a
 * triclinic cell): the box and species are the state's, the particle count the file's, and
 * the trajectory section runs with both masses (GSL per-particle masses); every row passes. */
static void test_data_file(void)
{
    const char *d = tb_test_fresh_dir(top, "datafile");
    char cwd[4096], args[4200];
    int rc;
    if (!getcwd(cwd, sizeof cwd)) { /* the tests run from the repository root */
        gsl_test(1, "the working directory");
        return;
    }
    snprintf(args, sizeof args, "validate %s/tests/lammps/tri_two.cfg --n 24 --time 0.05", cwd);
    rc = tribody(d, NULL, args);
    gsl_test(rc != 0, "tri_two.data start: exit 0 (got %d)", rc);
    if (rc != 0)
        show_output(d);
    gsl_test(rows(d, "", "FAIL") != 0 || rows(d, "", "SKIP") != 0 ||
                 rows(d, "VV position order", "PASS") != 2 ||
                 rows(d, "GSL energy drift", "PASS") != 1 ||
                 !tb_test_output_has(d, "forces: n = 24"),
             "tri_two.data start: no FAIL or SKIP; VV orders and GSL drift pass with two masses");
}

/* Argon in units metal (tests/lammps/argon_metal: K, ps, eV): the thermostat rows take their
 * reduced choices (T0 = 0.5 epsilon/k_B, gamma = 4/tau, period 0.3 tau) as argon in the
 * config's units and measure T in kelvin; before, <T> came out in eV (k_B T) and failed. */
static void test_metal_thermostats(void)
{
    const char *d = tb_test_fresh_dir(top, "metal");
    char cwd[4096], args[4200];
    int rc;
    if (!getcwd(cwd, sizeof cwd)) {
        gsl_test(1, "the working directory");
        return;
    }
    snprintf(args, sizeof args, "validate %s/tests/lammps/argon_metal.cfg --n 64 --time 0.05 "
             "--maps lambda", cwd);
    rc = tribody(d, NULL, args);
    gsl_test(rc != 0, "argon_metal: exit 0 (got %d)", rc);
    if (rc != 0)
        show_output(d);
    gsl_test(rows(d, "langevin", "PASS") != 2 || rows(d, "nose-hoover", "PASS") < 3 ||
                 !tb_test_output_has(d, "T0 = 59.9"),
             "argon_metal: Langevin and Nose-Hoover rows pass at T0 = 0.5 epsilon/k_B = 59.9 K");
}

/* One bad usage: exit 2, the message, and no file written in the directory. */
static void bad_usage(const char *what, const char *env, const char *args, const char *msg)
{
    const char *d = tb_test_fresh_dir(top, "bad");
    int before, rc;
    tb_test_write_file(d, "sim.cfg", small_cfg);
    before = tb_test_count_entries(d);
    rc = tribody(d, env, args);
    char *out = tb_test_read_file(d, "out.txt", NULL);
    gsl_test(rc != 2, "%s: exit status 2 (got %d)", what, rc);
    gsl_test(!out || !strstr(out, msg), "%s: message contains '%s'", what, msg);
    gsl_test(tb_test_count_entries(d) != before + 1, "%s: nothing written", what);
    free(out);
}

static void test_bad_usage(void)
{
    bad_usage("missing CONFIG", NULL, "validate", "missing CONFIG");
    bad_usage("unknown option", NULL, "validate sim.cfg --frob", "unknown option '--frob'");
    bad_usage("unknown map", NULL, "validate sim.cfg --maps lamda --report r.csv",
              "--maps: unknown map \"lamda\"");
    bad_usage("unknown precision", NULL, "validate sim.cfg --precisions quad", "--precisions");
    bad_usage("report extension", NULL, "validate sim.cfg --report r.txt", "FILE.csv or FILE.json");
    bad_usage("bad --n", NULL, "validate sim.cfg --n 2", "--n");
    bad_usage("bad --time", NULL, "validate sim.cfg --time 0", "--time");
    bad_usage("missing config file", NULL, "validate nope.cfg", "nope.cfg");
    bad_usage("bad setting", NULL, "validate sim.cfg --set solver.map=lamda", "solver.map");
    bad_usage("unknown fault", "TB_VALIDATE_FAULT=bogus", "validate sim.cfg", "unknown fault");

    const char *d = tb_test_fresh_dir(top, "help");
    gsl_test(tribody(d, NULL, "validate --help") != 0 || rows(d, "", "PASS") != 0,
             "validate --help exits 0 and runs nothing");
}

int main(void)
{
    tb_test_init();
    if (tb_test_temp_dir(top, sizeof top, "validate") != 0)
        return tb_test_done();
    test_pass();
    test_faults();
    test_periodic_and_maps();
    test_data_file();
    test_metal_thermostats();
    test_bad_usage();
    tb_test_remove_dir(top);
    return tb_test_done();
}
