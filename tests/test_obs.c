/* test_obs.c — the observables of a run (solver/io/obs.h, output.rdf and output.msd): g(r) of
 * one frame against LAMMPS's compute rdf (tests/lammps/rdf_*.in and .ref, two species, an
 * orthorhombic and a triclinic box, counted by all pairs and by cells), the MSD of free
 * particles crossing the periodic boundaries against its hand value, the diffusion slope,
 * block-averaging standard errors of hand series, the checkpoint's continuation, and bad input
 * (exit 2, nothing written). */
#include <gsl/gsl_test.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/config.h"
#include "solver/backend.h"
#include "solver/io/obs.h"
#include "solver/rdf.h"
#include "solver/state.h"
#include "tests/tb_test.h"

static char top[256]; /* this program's scratch directory */
static char root[2048]; /* the repository root (the directory the test starts in) */

static int tribody(const char *dir, const char *args)
{
    return tb_test_tribody(dir, NULL, args, NULL);
}

/* ---- g(r) against LAMMPS ------------------------------------------------------------------ */

/* Reads LAMMPS's fix ave/time rows "k r g1 c1 ... g4 c4" of tests/lammps/NAME into v[bins][9]. */
static int read_lammps_rdf(const char *name, int bins, double *v)
{
    char path[4096], line[2048];
    int rows = 0;
    snprintf(path, sizeof path, "%s/tests/lammps/%s", root, name);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f) && rows < bins) {
        int k, got = 0, off = 0;
        if (line[0] == '#' || sscanf(line, "%d%n", &k, &off) != 1 || k < 1)
            continue;
        char *p = line + off;
        for (int c = 0; c < 9; c++) {
            char *e;
            v[rows * 9 + c] = strtod(p, &e);
            got += e != p;
            p = e;
        }
        if (got == 9)
            rows++;
    }
    fclose(f);
    return rows == bins ? 0 : -1;
}

/* Reads the CSV rows of dir/rdf.csv (after its header line) into v[bins][9]. */
static int read_csv(const char *dir, const char *name, int rows, int cols, double *v, char *head,
                    size_t head_size)
{
    long len;
    char *text = tb_test_read_file(dir, name, &len), *save = NULL;
    int r = -1;
    if (!text)
        return -1;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#')
            continue;
        if (r < 0) { /* the header */
            snprintf(head, head_size, "%s", line);
            r = 0;
            continue;
        }
        if (r >= rows)
            break;
        char *p = line;
        for (int c = 0; c < cols; c++) {
            v[r * cols + c] = strtod(p, &p);
            if (*p == ',')
                p++;
        }
        r++;
    }
    free(text);
    return r == rows ? 0 : -1;
}

/* One frame of LAMMPS case `name` (tests/lammps/NAME.cfg and .data): tribody's rdf.csv at step 0
 * equals LAMMPS's compute rdf (rdf_TAG.ref) to 1e-12, every column. */
static void rdf_case(const char *name, const char *tag, int bins, const char *r_max)
{
    double *want = calloc((size_t)bins * 9, sizeof *want), *got = calloc((size_t)bins * 9, sizeof *got);
    char ref[128], args[4096], head[512] = "";
    const char *d = tb_test_fresh_dir(top, tag);
    snprintf(ref, sizeof ref, "rdf_%s.ref", tag);
    snprintf(args, sizeof args, "run '%s/tests/lammps/%s.cfg' --set integrator.steps=0 "
             "--set output.rdf.bins=%d --set output.rdf.r_max=%s --set output.rdf.every=1",
             root, name, bins, r_max);
    gsl_test(read_lammps_rdf(ref, bins, want) != 0, "%s: LAMMPS's %s read", tag, ref);
    const int rc = tribody(d, args);
    gsl_test(rc != 0, "%s: run with output.rdf, exit 0 (got %d)", tag, rc);
    gsl_test(read_csv(d, "rdf.csv", bins, 9, got, head, sizeof head) != 0, "%s: rdf.csv has %d rows",
             tag, bins);
    gsl_test(strcmp(head, "r,g,coord,g_A_A,coord_A_A,g_A_B,coord_A_B,g_B_B,coord_B_B") != 0,
             "%s: rdf.csv header (%s)", tag, head);
    double worst = 0.0, gmax = 0.0;
    for (int k = 0; k < bins * 9; k++) {
        const double w = want[k], e = fabs(got[k] - w) / fmax(1.0, fabs(w));
        worst = fmax(worst, e);
        gmax = fmax(gmax, w);
    }
    gsl_test(!(worst <= 1e-12) || !(gmax > 1.0), "%s: g(r) and coord of %d bins (total, A-A, A-B, "
             "B-B) = LAMMPS's compute rdf to 1e-12 (worst %.3g; max g %.3g)", tag, bins, worst, gmax);
    free(want);
    free(got);
}

static void test_rdf_lammps(void)
{
    rdf_case("mix_ortho", "mix_ortho", 60, "3.0"); /* r_max near half the box: all pairs */
    rdf_case("tri_two", "tri_two", 50, "2.5");
    /* short ranges, where the plan takes the cells (physics/rdf_cells.h; test_rdf_cells.c
     * checks that it does, on these boxes) */
    rdf_case("mix_ortho", "mix_ortho_cells", 25, "1.25");
    rdf_case("tri_two", "tri_two_cells", 30, "1.2");
}

/* The backend op (cpu) and the host count give the same integers, and every pair once. */
static void test_rdf_counts(void)
{
    sim_state s;
    rdf_spec sp = {.r_max = 4.9, .bins = 7, .ntypes = 2};
    unsigned long long h[3 * 7] = {0};
    memset(&s, 0, sizeof s);
    sim_state_alloc(&s, 4);
    s.ntypes = 2;
    s.box = box_cube_d(10.0);
    /* 0 at the origin, 1 at x = 9.5 (0.5 through the wall), 2 at y = 3, 3 at z = 7.2 (2.8) */
    const double p[12] = {0, 0, 0, 9.5, 0, 0, 0, 3, 0, 0, 0, 7.2};
    const int t[4] = {0, 1, 1, 0};
    memcpy(s.pos, p, sizeof p);
    memcpy(s.type, t, sizeof t);
    rdf_count_host(&sp, &s.box, s.pos, s.type, 4, h);
    /* delr = 0.7: 0-1 r 0.5 bin 0 (A-B); 0-2 r 3 bin 4 (A-B); 0-3 r 2.8 bin 4 (A-A: 2.8/0.7 = 4
     * in floating point 3.9999999999999996 or 4: the same rule as LAMMPS's, so take its bin);
     * 1-2 r sqrt(9.25) = 3.041 bin 4 (B-B); 1-3 r sqrt(0.25 + 7.84) = 2.844 bin 4 (A-B);
     * 2-3 r sqrt(9 + 7.84) = 4.104 bin 5 (A-B) */
    const int b03 = (int)(2.8 * (1.0 / (4.9 / 7)));
    unsigned long long want[21] = {0};
    want[0 * 7 + b03] += 1;                            /* A-A */
    want[1 * 7 + 0] += 1, want[1 * 7 + 4] += 2, want[1 * 7 + 5] += 1; /* A-B */
    want[2 * 7 + 4] += 1;                              /* B-B */
    gsl_test(memcmp(h, want, sizeof h) != 0, "rdf_count_host: the 6 pairs of 4 particles in their "
             "species pair and bin, across the periodic wall");
    sim_state_free(&s);
}

/* ---- MSD ---------------------------------------------------------------------------------- */

/* Free particles: x(t) = wrap(x0 + v t) in a tilted periodic cell, looked at every unit of time
 * (each moves less than half a width between looks); the MSD per species is t^2 <|v|^2>. The
 * state is saved half way and continued in a fresh obs, as a restart does. */
static void test_msd_free(void)
{
    sim_config c;
    sim_state s;
    obs *o = NULL, *o2 = NULL;
    const double v[12] = {3.7, 0, 0, 0, -4.2, 0.5, 2.9, 2.9, 2.9, -1.1, 3.3, -2.4};
    const double x0[12] = {9.9, 1, 1, 2, 0.1, 3, 5, 5, 5, 1, 9, 0.5};
    const int type[4] = {0, 1, 0, 1};
    const double l[3] = {10, 11, 12}, lo[3] = {0, 0, 0};
    const int per[3] = {1, 1, 1};
    double worst = 0.0;
    int wraps = 0, rc;
    cfg_defaults(&c);
    c.output.msd.enabled = 1;
    c.output.msd.every = 1;
    c.output.msd.file[0] = '\0';
    memset(&s, 0, sizeof s);
    sim_state_alloc(&s, 4);
    s.ntypes = 2;
    snprintf(s.type_name[0], sizeof s.type_name[0], "A");
    snprintf(s.type_name[1], sizeof s.type_name[1], "B");
    s.box = box_make_d(l, 2.0, 1.0, -1.5, lo, per);
    memcpy(s.pos, x0, sizeof x0);
    memcpy(s.type, type, sizeof type);
    rc = obs_create(&o, &c, &s, 0.0);
    gsl_test(rc != 0 || !o, "obs_create with output.msd");
    if (!o)
        return;
    for (int step = 0; step <= 20; step++) {
        const double t = step;
        for (int i = 0; i < 4; i++) {
            double x[3] = {x0[3 * i] + v[3 * i] * t, x0[3 * i + 1] + v[3 * i + 1] * t,
                           x0[3 * i + 2] + v[3 * i + 2] * t};
            box_wrap_d(&s.box, x);
            wraps += fabs(x[0] - (x0[3 * i] + v[3 * i] * t)) > 1e-9;
            memcpy(s.pos + 3 * i, x, sizeof x);
        }
        s.step = step;
        s.time = t;
        if (step == 10) { /* a checkpoint: the state goes on in a fresh obs */
            unsigned char *buf = NULL;
            size_t len = 0;
            obs_track(o, &s);
            rc = obs_save(o, &buf, &len);
            rc |= obs_create(&o2, &c, &s, 0.0);
            rc |= o2 ? obs_restore(o2, buf, len, "test") : -1;
            free(buf);
            gsl_test(rc != 0, "msd: saved and restored at step 10");
            obs_destroy(o);
            o = o2;
            if (!o)
                return;
        }
        obs_track(o, &s);
        obs_msd_sample(o, &s);
    }
    /* the samples' rows: step, time, all, A, B; A = particles 0, 2; B = 1, 3 */
    const double va = (3.7 * 3.7 + 3 * 2.9 * 2.9) / 2, vb = (4.2 * 4.2 + 0.25 + 1.21 + 10.89 + 5.76) / 2;
    long rows;
    int w;
    const double *row = obs_msd_rows(o, &rows, &w);
    for (long r = 0; r < rows && w == 5; r++) {
        const double t = row[r * w + 1];
        worst = fmax(worst, fabs(row[r * w + 3] - va * t * t) / fmax(1.0, va * t * t));
        worst = fmax(worst, fabs(row[r * w + 4] - vb * t * t) / fmax(1.0, vb * t * t));
        worst = fmax(worst, fabs(row[r * w + 2] - (va + vb) / 2 * t * t) / fmax(1.0, t * t));
    }
    gsl_test(!(worst < 1e-12) || rows != 21 || w != 5 || wraps < 4,
             "msd of free particles across %d wraps in a tilted cell, continued from a save at "
             "step 10 = t^2 <v^2> per species and of all, 21 samples (rel. error %.3g)", wraps, worst);
    /* D: MSD = <v^2> t^2 is not linear; its least-squares slope over the later half (t = 10 .. 20,
     * evenly spaced about 15) is <v^2> 30 exactly */
    FILE *f = tmpfile();
    char text[2048] = "", want[64];
    obs_finish(o, f, 1.0);
    rewind(f);
    const size_t got = fread(text, 1, sizeof text - 1, f);
    text[got] = '\0';
    fclose(f);
    snprintf(want, sizeof want, "D = %.6g sigma^2/tau, D_A = %.6g", (va + vb) / 2 * 30 / 6, va * 30 / 6);
    gsl_test(!strstr(text, want), "msd: D = slope / 6 over the later half: '%s' in '%s'", want, text);
    obs_destroy(o);
    sim_state_free(&s);
}

static void test_slope(void)
{
    double t[8], y[8];
    for (int i = 0; i < 8; i++) {
        t[i] = 0.5 * i;
        y[i] = 6 * 0.125 * t[i] + 3.0 + (i < 4 ? 100.0 * i : 0.0); /* the first half ignored */
    }
    const double s = obs_slope(t, y, 1, 4, 8);
    gsl_test(fabs(s - 0.75) > 1e-14, "obs_slope of the later half of a line: 0.75 (got %.17g)", s);
}

/* ---- block averaging ---------------------------------------------------------------------- */

static void test_block_se(void)
{
    int level, ok;
    /* 1..8: SE_0 = sqrt(42 / 56), SE_1 = sqrt(20 / 12), SE_2 = sqrt(8 / 2) = 2; the criterion
     * B^3 > 2 n (SE_k/SE_0)^4 fails at B = 1 (1 > 16), 2 (8 > 79) and 4 (64 > 455): none met,
     * the last level of >= 2 blocks (2 blocks of 4) taken */
    const double a[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    double se = obs_block_se(a, 8, &level, &ok);
    gsl_test(fabs(se - 2.0) > 1e-15 || level != 2 || ok, "block SE of 1..8: 2 at blocks of 4, "
             "not converged (got %.17g, level %d, ok %d)", se, level, ok);
    /* +1 -1 ...: anticorrelated; level 1 blocks are all 0: SE 0, met at B = 2 (8 > 0) */
    double b[16];
    for (int i = 0; i < 16; i++)
        b[i] = i % 2 ? -1.0 : 1.0;
    se = obs_block_se(b, 16, &level, &ok);
    gsl_test(se != 0.0 || level != 1 || !ok, "block SE of +1 -1 ...: 0 at blocks of 2 (got %g, %d, %d)",
             se, level, ok);
    /* 1 3 1 3 1 3 1 3 5 7 5 7 5 7 5 7: SE_0 = sqrt(80 / 240), SE_1 = sqrt(32 / 56), SE_2 =
     * sqrt(16 / 12), SE_3 = sqrt(8 / 2) = 2 (blocks 2 and 6); 2^(3k) > 32 (SE_k / SE_0)^4 fails
     * at every level (k = 3: 512 > 32 * 144): 2 at blocks of 8, not converged */
    const double c[16] = {1, 3, 1, 3, 1, 3, 1, 3, 5, 7, 5, 7, 5, 7, 5, 7};
    se = obs_block_se(c, 16, &level, &ok);
    gsl_test(fabs(se - 2.0) > 1e-15 || level != 3 || ok, "block SE of a step: 2 at blocks of 8, "
             "not converged (got %.17g, level %d, ok %d)", se, level, ok);
    se = obs_block_se(c, 1, &level, &ok);
    gsl_test(!isnan(se), "block SE of one value: NaN");
}

/* ---- bad input and the files of a run -------------------------------------------------------- */

static const char liquid_cfg[] =
    "system = { particles = 108; boundary = \"periodic\"; box = 5.0;\n"
    "  init = { type = \"lattice\"; temperature = 1.0; }; };\n"
    "potential = { atm = { nu = 0.0; }; lj = { cutoff = 2.2; }; };\n"
    "integrator = { dt = 0.004; steps = 40; type = \"langevin\"; temperature = 1.2; };\n"
    "solver = { backend = \"cpu\"; precision = \"double\"; };\n"
    "output = { thermo_every = 5; trajectory = \"\"; checkpoint_every = 20;\n"
    "  rdf = { every = 5; bins = 40; }; msd = { every = 5; }; };\n";

static void bad_input(const char *what, const char *cfg, const char *set, const char *msg)
{
    const char *d = tb_test_fresh_dir(top, "bad");
    char args[512];
    tb_test_write_file(d, "sim.cfg", cfg);
    const int before = tb_test_count_entries(d);
    snprintf(args, sizeof args, "run sim.cfg %s", set);
    const int rc = tribody(d, args);
    gsl_test(rc != 2, "%s: exit status 2 (got %d)", what, rc);
    gsl_test(!tb_test_output_has(d, msg), "%s: message names '%s'", what, msg);
    gsl_test(tb_test_count_entries(d) != before + 1, "%s: nothing written", what);
}

static void test_bad_input(void)
{
    const char *q = liquid_cfg;
    bad_input("bins = 0", q, "--set output.rdf.bins=0", "output.rdf.bins");
    bad_input("r_max < 0", q, "--set output.rdf.r_max=-1.0", "output.rdf.r_max");
    bad_input("r_max = 0", q, "--set output.rdf.r_max=0.0", "output.rdf.r_max");
    bad_input("r_max beyond L/2", q, "--set output.rdf.r_max=2.6",
              "output.rdf.r_max: beyond half the smallest periodic width of the box, 2.5 (got 2.6)");
    bad_input("rdf every = 0", q, "--set output.rdf.every=0", "output.rdf.every");
    bad_input("msd every = -3", q, "--set output.msd.every=-3", "output.msd.every");
    bad_input("rdf in an open cluster",
              "system = { particles = 20; };\npotential = { lj = { cutoff = 2.5; }; };\n"
              "output = { rdf = { bins = 10; }; };\n", "", "sim.cfg:3: output.rdf: needs a box");
}

/* A run writes rdf.csv, msd.csv and the summary; stopped at step 20 and continued from its
 * checkpoint it writes the same files, byte for byte. */
static void test_run_restart(void)
{
    char a[TB_TEST_PATH_MAX], b[TB_TEST_PATH_MAX];
    snprintf(a, sizeof a, "%s", tb_test_fresh_dir(top, "whole"));
    snprintf(b, sizeof b, "%s", tb_test_fresh_dir(top, "parts"));
    tb_test_write_file(a, "sim.cfg", liquid_cfg);
    tb_test_write_file(b, "sim.cfg", liquid_cfg);
    int rc = tribody(a, "run sim.cfg");
    gsl_test(rc != 0, "liquid with rdf and msd: exit 0 (got %d)", rc);
    gsl_test(!tb_test_output_has(a, "diffusion (MSD slope / 6") ||
                 !tb_test_output_has(a, "averages over 9 thermo steps") ||
                 !tb_test_output_has(a, "temperature  epsilon/k_B"),
             "the run prints D and the summary table of 9 samples");
    rc = tribody(b, "run sim.cfg --set integrator.steps=20");
    rc |= tribody(b, "run sim.cfg --restart checkpoint.tbck");
    gsl_test(rc != 0, "stopped at 20 and restarted: exit 0");
    gsl_test(!tb_test_same_file(a, b, "rdf.csv") || !tb_test_same_file(a, b, "msd.csv"),
             "rdf.csv and msd.csv of the restarted run = the uninterrupted run's");
    const char *e = tb_test_fresh_dir(top, "stdout");
    tb_test_write_file(e, "sim.cfg", liquid_cfg);
    rc = tribody(e, "run sim.cfg --set integrator.steps=10 --set 'output.rdf.file=\"\"' "
                    "--set 'output.msd.file=\"-\"' --set 'output.checkpoint=\"\"'");
    gsl_test(rc != 0 || !tb_test_output_has(e, "step,time,msd\n0,0,0\n5,") ||
                 tb_test_exists(e, "rdf.csv") || tb_test_exists(e, "-.png"),
             "output.rdf.file = \"\": not written; output.msd.file = \"-\": on stdout, no plot "
             "(exit %d)", rc);
    gsl_test(!tb_test_file_has(a, "rdf.csv", "averaged over 9 samples") ||
                 !tb_test_file_has(a, "msd.csv", "step,time,msd\n0,0,0\n5,"),
             "rdf.csv: 9 samples; msd.csv: header and step 0");
}

int main(void)
{
    tb_test_init();
    if (!getcwd(root, sizeof root) || tb_test_temp_dir(top, sizeof top, "obs") != 0)
        return 1;
    TB_TEST_RUN(test_rdf_counts);
    TB_TEST_RUN(test_rdf_lammps);
    TB_TEST_RUN(test_msd_free);
    TB_TEST_RUN(test_slope);
    TB_TEST_RUN(test_block_se);
    TB_TEST_RUN(test_bad_input);
    TB_TEST_RUN(test_run_restart);
    tb_test_remove_dir(top);
    return tb_test_done();
}
