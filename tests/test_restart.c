/* test_restart.c — what a restart compares with its checkpoint (solver/io/restart.c): every
 * setting the schema marks physics (config/config.c, cfg_physics_text), refused when changed
 * unless --allow-change names it, mass and box included; every other setting free; a
 * checkpoint of an older tribody compared on the settings it records. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "solver/io/checkpoint.h"
#include "solver/io/restart.h"
#include "tests/tb_test.h"

static char top[256]; /* a fresh temporary directory for this program */

static const char cluster_cfg[] =
    "system = { particles = 40; seed = 11; init = { temperature = 0.6; }; };\n"
    "potential = { atm = { nu = 0.0731; }; lj = { cutoff = 3.0; }; };\n"
    "integrator = { dt = 0.002; steps = 50; };\n"
    "solver = { backend = \"cpu\"; precision = \"double\"; tile = 8; };\n"
    "output = { thermo_every = 10; trajectory_every = 50; checkpoint_every = 100; };\n";

static const char box_cfg[] =
    "system = { particles = 40; seed = 11; boundary = \"periodic\"; box = 6.0;\n"
    "  init = { min_distance = 0.9; temperature = 0.6; }; };\n"
    "potential = { atm = { nu = 0.0731; }; lj = { cutoff = 2.5; }; };\n"
    "integrator = { dt = 0.002; steps = 50; };\n"
    "solver = { backend = \"cpu\"; precision = \"double\"; };\n"
    "output = { thermo_every = 10; trajectory_every = 50; checkpoint_every = 100; };\n";

static int tribody(const char *dir, const char *args)
{
    return tb_test_tribody(dir, "TRIBODY_RUN_ID=8e57", args, NULL);
}

/* A directory with c.cfg (text) run to step 50: checkpoint.tbck. */
static const char *first_run(const char *name, const char *text)
{
    static char dir[TB_TEST_PATH_MAX];
    snprintf(dir, sizeof dir, "%s", tb_test_fresh_dir(top, name));
    tb_test_write_file(dir, "c.cfg", text);
    gsl_test(tribody(dir, "run c.cfg") != 0, "%s: the first run to step 50 exits 0", name);
    return dir;
}

/* A restart with `args` is refused: exit 2, the message, nothing written. */
static void refused(const char *dir, const char *what, const char *args, const char *msg)
{
    char cmd[1024];
    const int before = tb_test_count_entries(dir);
    snprintf(cmd, sizeof cmd, "run c.cfg --restart checkpoint.tbck --set integrator.steps=60 %s",
             args);
    const int rc = tribody(dir, cmd);
    gsl_test(rc != 2, "%s: refused, exit 2 (got %d)", what, rc);
    gsl_test(!tb_test_output_has(dir, msg), "%s: the message says '%s'", what, msg);
    gsl_test(tb_test_count_entries(dir) != before, "%s: nothing written", what);
}

/* A restart with `args` continues to step 60 (exit 0) and says `msg` (NULL: nothing asked). */
static void accepted(const char *dir, const char *what, const char *args, const char *msg)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "run c.cfg --restart checkpoint.tbck --set integrator.steps=60 %s",
             args);
    const int rc = tribody(dir, cmd);
    gsl_test(rc != 0, "%s: continues, exit 0 (got %d)", what, rc);
    if (msg)
        gsl_test(!tb_test_output_has(dir, msg), "%s: says '%s'", what, msg);
}

/* The time column of dir/thermo.csv at `step` (NAN when there is no such row). */
static double thermo_time(const char *dir, long step)
{
    char *t = tb_test_read_file(dir, "thermo.csv", NULL), *line = t;
    double v = NAN;
    while (line && *line) {
        char *end;
        if (*line != '#' && strtol(line, &end, 10) == step && end != line && *end == ',') {
            v = strtod(end + 1, NULL);
            break;
        }
        line = strchr(line, '\n');
        line = line ? line + 1 : NULL;
    }
    free(t);
    return v;
}

/* A restart that changes integrator.dt (allowed) continues the time from the checkpoint's,
 * 0.1 tau at step 50: step 60 at dt 0.001 is 0.11 (before, step * dt: 0.06, backwards), and
 * the checkpoint carries the time origin, so a second restart (same dt) writes the same times
 * as one run from the change. */
static void test_dt_change_time(void)
{
    const char *d = first_run("dt_time", cluster_cfg);
    const double t50 = thermo_time(d, 50);
    gsl_test(t50 != 50 * 0.002, "dt change: step 50 at time 0.1 (got %.17g)", t50);
    tb_test_system("cd '%s' && cp checkpoint.tbck at50.tbck", d);
    int rc = tribody(d, "run c.cfg --restart checkpoint.tbck --set integrator.steps=80 "
                        "--set integrator.dt=0.001 --set output.checkpoint_every=10 "
                        "--allow-change integrator.dt");
    const double t60 = thermo_time(d, 60), t80 = thermo_time(d, 80);
    gsl_test(rc != 0 || fabs(t60 - 0.11) > 1e-15 || fabs(t80 - 0.13) > 1e-15,
             "dt change: exit 0 (%d), time runs on from 0.1 at the new dt: 0.11 at step 60 (got "
             "%.17g), 0.13 at step 80 (%.17g)", rc, t60, t80);
    /* from the checkpoint at step 80: the run that changed dt at step 50 goes on */
    rc = tribody(d, "run c.cfg --restart checkpoint.tbck --set integrator.steps=90 "
                    "--set integrator.dt=0.001 --set output.checkpoint_every=10 "
                    "--allow-change integrator.dt");
    const double t90 = thermo_time(d, 90);
    gsl_test(rc != 0 || t90 != 0.1 + (double)(90 - 50) * 0.001,
             "dt change, then a restart at the new dt: the time origin stays at step 50, 0.1 "
             "(step 90: %.17g, want 0.1 + 40 x 0.001 = %.17g)", t90, 0.1 + 40 * 0.001);
}

/* The mass and box of checkpoint dir/name. */
static void ckpt_mass_box(const char *dir, const char *name, double *mass, double *box)
{
    char path[TB_TEST_PATH_MAX + 32];
    sim_state s;
    ckpt_extra x;
    memset(&s, 0, sizeof s);
    memset(&x, 0, sizeof x);
    *mass = *box = -1;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (ckpt_read(path, 0, NULL, &s, &x) == 0) {
        *mass = s.mass[0];
        *box = s.box.pbc ? s.box.l[0] : 0.0;
    }
    free(x.thermostat);
    sim_state_free(&s);
}

/* Issue 19, item 8: cutoff_triple was not compared (the old hand-kept subset lacked it). */
static void test_physics_changes(void)
{
    const char *d = first_run("cluster", cluster_cfg);
    char dir[TB_TEST_PATH_MAX];
    double mass, box;
    snprintf(dir, sizeof dir, "%s", d);
    refused(dir, "potential.atm.cutoff_triple changed", "--set potential.atm.cutoff_triple=3",
            "c.cfg: potential.atm.cutoff_triple = 3, but the checkpoint checkpoint.tbck was run "
            "with potential.atm.cutoff_triple = 0; to continue with the change, add "
            "--allow-change potential.atm.cutoff_triple");
    refused(dir, "system.mass changed", "--set system.mass=2",
            "system.mass = 2, but the checkpoint checkpoint.tbck was run with system.mass = 1;");
    refused(dir, "integrator.type changed", "--set integrator.type=langevin --set "
            "integrator.temperature=0.7", "add --allow-change integrator.type");
    refused(dir, "a misspelt --allow-change", "--allow-change integrator.td",
            "--allow-change: integrator.td is not a physics setting");
    accepted(dir, "--allow-change potential.atm.cutoff_triple",
             "--set potential.atm.cutoff_triple=3 --allow-change potential.atm.cutoff_triple",
             "potential.atm.cutoff_triple changes from 0 to 3 at the restart (--allow-change)");
    /* the run is at step 60 now: a new first run for each of the next */
    snprintf(dir, sizeof dir, "%s", first_run("mass", cluster_cfg));
    accepted(dir, "--allow-change system.mass", "--set system.mass=2 --allow-change system.mass",
             "system.mass changes from 1 to 2");
    ckpt_mass_box(dir, "checkpoint.tbck", &mass, &box);
    gsl_test(mass != 2.0, "--allow-change system.mass: the continued state has mass 2 (got %g)",
             mass);
    snprintf(dir, sizeof dir, "%s", first_run("thermostat", cluster_cfg));
    accepted(dir, "--allow-change integrator.type,integrator.temperature",
             "--set integrator.type=langevin --set integrator.temperature=0.7 "
             "--allow-change integrator.type,integrator.temperature",
             "integrator.temperature_end changes from 0 to 0.7 with "
             "integrator.temperature (--allow-change integrator.temperature)");
    snprintf(dir, sizeof dir, "%s", first_run("box", box_cfg));
    refused(dir, "system.box changed", "--set system.box=6.2",
            "system.box = 6.2, but the checkpoint checkpoint.tbck was run with "
            "system.box = 6;");
    accepted(dir, "--allow-change system.box", "--set system.box=6.2 --allow-change system.box",
             "potential.atm.cutoff changes from 1.5 to 1.55 with system.box");
    ckpt_mass_box(dir, "checkpoint.tbck", &mass, &box);
    gsl_test(box != 6.2, "--allow-change system.box: the continued state has box 6.2 (got %g)", box);
}

/* Settings that are not physics never stop a restart. */
static void test_free_changes(void)
{
    const char *d = first_run("free", cluster_cfg);
    char dir[TB_TEST_PATH_MAX];
    snprintf(dir, sizeof dir, "%s", d);
    accepted(dir, "output paths, intervals, precision, seed and init changed",
             "--set output.thermo_every=5 --set output.trajectory=other.xyz "
             "--set output.checkpoint_every=7 --set solver.precision=mixed --set system.seed=99 "
             "--set system.init.temperature=2 --set solver.tile=4", NULL);
    char *out = tb_test_read_file(dir, "out.txt", NULL);
    gsl_test(!out || strstr(out, "but the checkpoint") || strstr(out, "changes from"),
             "and no setting is named as changed");
    free(out);
}

/* A checkpoint of the tribody before this list (5ae3f34): its PHYS section holds ten settings.
 * Those are compared; the rest are named in a notice and not compared. */
static void test_older_checkpoint(void)
{
    const char *d = first_run("older", cluster_cfg);
    char dir[TB_TEST_PATH_MAX], path[TB_TEST_PATH_MAX + 32];
    sim_state s;
    ckpt_extra x;
    snprintf(dir, sizeof dir, "%s", d);
    memset(&s, 0, sizeof s);
    memset(&x, 0, sizeof x);
    snprintf(path, sizeof path, "%s/checkpoint.tbck", dir);
    if (ckpt_read(path, 0, NULL, &s, &x) != 0) {
        gsl_test(1, "older checkpoint: the first run's checkpoint reads");
        return;
    }
    snprintf(x.phys, sizeof x.phys,
             "system.mass=1\nsystem.box=0\nintegrator.dt=0.002\n"
             "potential.atm.nu=0.073099999999999998\n"
             "potential.atm.cutoff=0\npotential.lj=1\npotential.lj.epsilon=1\n"
             "potential.lj.sigma=1\npotential.lj.cutoff=3\npotential.lj.shift=1\n");
    gsl_test(ckpt_write(path, &s, &x) != 0, "older checkpoint: written");
    free(x.thermostat);
    sim_state_free(&s);
    refused(dir, "older checkpoint, integrator.dt changed", "--set integrator.dt=0.001",
            "integrator.dt = 0.001, but the checkpoint checkpoint.tbck was run with "
            "integrator.dt = 0.002");
    /* issue 20: a line newer than the checkpoint reads as its default then, and is compared */
    refused(dir, "older checkpoint, units changed", "--set units=metal --set integrator.dt=0.002",
            "units = metal, but the checkpoint checkpoint.tbck was run with units = lj;");
    refused(dir, "older checkpoint, a species of another name",
            "--set 'system.species=({ name = \"Kr\"; mass = 1.0; })'",
            "system.species = Kr 1, but the checkpoint checkpoint.tbck was run with "
            "system.species = Ar 1;");
    accepted(dir, "older checkpoint, cutoff_triple changed", "--set potential.atm.cutoff_triple=3",
             "checkpoint.tbck records no system.boundary, potential.atm.cutoff_triple, "
             "integrator.type, integrator.temperature, integrator.temperature_end, "
             "integrator.gamma, integrator.nh.chain, integrator.nh.period (written by an older "
             "tribody): those settings are not compared");
}

/* Loads config text (written to dir/name) into c; 0 when it loads. */
static int load_text(const char *dir, const char *name, const char *text, sim_config *c)
{
    char path[TB_TEST_PATH_MAX + 32], err[4096];
    tb_test_write_file(dir, name, text);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    tb_test_capture_begin();
    const int rc = cfg_load(c, path, 0, NULL);
    tb_test_capture_end(err, sizeof err);
    if (rc)
        printf("  %s: %s", name, err);
    return rc;
}

/* restart_check_physics between a checkpoint of config `before` and config `after`: its status,
 * and what it printed into out. */
static int check_between(const char *dir, const char *before, const char *after, const char *allow,
                         char *out, size_t size)
{
    static sim_config a, b;
    char stored[CKPT_PHYS_MAX];
    if (load_text(dir, "a.cfg", before, &a) || load_text(dir, "b.cfg", after, &b))
        return -1;
    run_physics(&a, stored, sizeof stored);
    tb_test_capture_begin();
    const int rc = restart_check_physics("ck.tbck", stored, &b, allow);
    tb_test_capture_end(out, size);
    return rc;
}

/* Issue 20: units, the species, the pairs, mix and the triplets are physics; composition is
 * not. Each change is refused naming the setting, and allowed by --allow-change. */
static void test_species_changes(void)
{
    const char *dir = tb_test_fresh_dir(top, "species");
    char out[4096];
    static const char base[] =
        "system = { particles = 10;\n"
        "  species = ( { name = \"Ar\"; mass = 39.948; }, { name = \"Kr\"; mass = 83.798; } );\n"
        "  init = { composition = [0.8, 0.2]; }; };\n"
        "potential = { lj = { pairs = (\n"
        "  { species = [\"Ar\", \"Ar\"]; epsilon = 0.0104; sigma = 3.4; },\n"
        "  { species = [\"Kr\", \"Kr\"]; epsilon = 0.0141; sigma = 3.65; } ); };\n"
        "  atm = { triplets = ( { species = [\"Ar\", \"Ar\", \"Kr\"]; nu = 70; } ); }; };\n"
        "units = \"metal\";\n";
    static const struct {
        const char *what, *from, *to, *msg;
    } change[] = {
        {"units", "units = \"metal\"", "units = \"real\"",
         "units = real, but the checkpoint ck.tbck was run with units = metal;"},
        {"a species' mass", "mass = 83.798", "mass = 83.8",
         "system.species = Ar 39.948, Kr 83.8, but the checkpoint ck.tbck was run with "
         "system.species = Ar 39.948, Kr 83.798;"},
        {"a pair's sigma", "sigma = 3.65", "sigma = 3.6",
         "potential.lj.pairs = Ar Ar 0.0104 3.4 0, Kr Kr 0.0141 3.6 0, but the checkpoint "
         "ck.tbck was run with potential.lj.pairs = Ar Ar 0.0104 3.4 0, Kr Kr 0.0141 3.65 0;"},
        {"the mixing rule", "lj = { pairs", "lj = { mix = \"arithmetic\"; pairs",
         "potential.lj.mix = arithmetic, but the checkpoint ck.tbck was run with "
         "potential.lj.mix = geometric;"},
        {"a triplet's nu", "nu = 70", "nu = 71",
         "potential.atm.triplets = Ar Ar Kr 71, but the checkpoint ck.tbck was run with "
         "potential.atm.triplets = Ar Ar Kr 70;"},
    };
    for (size_t i = 0; i < sizeof change / sizeof change[0]; i++) {
        char after[2048], name[64];
        const char *at = strstr(base, change[i].from);
        snprintf(after, sizeof after, "%.*s%s%s", (int)(at - base), base, change[i].to,
                 at + strlen(change[i].from));
        const int rc = check_between(dir, base, after, NULL, out, sizeof out);
        gsl_test(rc != TB_EXIT_USAGE || !strstr(out, change[i].msg),
                 "species: %s changed is refused, naming it (got %d)", change[i].what, rc);
        if (!strstr(out, change[i].msg))
            printf("  got: %s", out);
        /* units: every default that is argon in the style changes with it (dt, nu, ...) */
        snprintf(name, sizeof name, "%.*s", (int)strcspn(change[i].msg, " "), change[i].msg);
        if (!strcmp(name, "units"))
            snprintf(name, sizeof name, "all");
        gsl_test(check_between(dir, base, after, name, out, sizeof out) != 0 ||
                     !strstr(out, "(--allow-change)"),
                 "species: %s changed with --allow-change %s continues, with a notice",
                 change[i].what, name);
    }
    char after[2048];
    snprintf(after, sizeof after, "%s", base);
    memcpy(strstr(after, "[0.8, 0.2]"), "[0.5, 0.5]", 10);
    gsl_test(check_between(dir, base, after, NULL, out, sizeof out) != 0 || out[0],
             "species: a changed composition is no physics (got '%s')", tb_test_first_line(out));
    /* one species: its line follows system.mass, so allowing the mass allows it */
    gsl_test(check_between(dir, "system = { particles = 10; };\n",
                           "system = { particles = 10; mass = 2.0; };\n", "system.mass", out,
                           sizeof out) != 0 ||
                 !strstr(out, "system.species changes from Ar 1 to Ar 2 with system.mass"),
             "one species: an allowed mass change carries the species line");
    gsl_test(check_between(dir, "system = { particles = 10; };\n",
                           "system = { particles = 10;\n species = ( { name = \"Ar\"; mass = "
                           "1.0; } ); };\n", NULL, out, sizeof out) != 0 || out[0],
             "one species: written out as Ar of mass 1 is the same physics (got '%s')",
             tb_test_first_line(out));
}

/* The one list: the physics text has one line per physics row, and docs/config.md names each
 * of them in its restart paragraph. */
static void test_one_list(void)
{
    sim_config c;
    char text[CKPT_PHYS_MAX];
    int rows = 0, lines = 0, missing = 0;
    cfg_defaults(&c);
    gsl_test(cfg_physics_text(&c, text, sizeof text) != 0, "the physics text fits a checkpoint");
    for (const char *p = text; (p = strchr(p, '\n')); p++)
        lines++;
    char *doc = tb_test_read_file(".", "docs/config.md", NULL);
    char *par = doc ? strstr(doc, "- A restart is checked against the checkpoint") : NULL;
    char *end = par ? strstr(par + 1, "\n- ") : NULL;
    if (end)
        *end = '\0';
    for (int i = 0; i < cfg_schema_count(); i++) {
        const char *name = cfg_schema_path(i);
        char quoted[160];
        if (!cfg_is_physics(name))
            continue;
        rows++;
        snprintf(quoted, sizeof quoted, "`%s`", name);
        if (!par || !strstr(par, quoted)) {
            printf("  docs/config.md's restart paragraph lacks %s\n", quoted);
            missing++;
        }
    }
    free(doc);
    gsl_test(rows < 18 || lines != rows, "one line per physics row (%d rows, %d lines)", rows,
             lines);
    gsl_test(!cfg_is_physics("potential.atm.cutoff_triple") || cfg_is_physics("integrator.steps") ||
                 cfg_is_physics("output.thermo") || cfg_is_physics("solver.precision"),
             "cutoff_triple is physics; steps, output paths and precision are not");
    gsl_test(missing != 0, "docs/config.md names every physics setting (%d missing)", missing);
}

int main(void)
{
    tb_test_init();
    if (!tb_test_bin() || tb_test_temp_dir(top, sizeof top, "restart") != 0)
        return tb_test_done();
    test_one_list();
    TB_TEST_RUN(test_physics_changes);
    TB_TEST_RUN(test_free_changes);
    TB_TEST_RUN(test_older_checkpoint);
    TB_TEST_RUN(test_dt_change_time);
    TB_TEST_RUN(test_species_changes);
    tb_test_remove_dir(top);
    return tb_test_done();
}
