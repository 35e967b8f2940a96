/* test_api.c — the C API (include/tribody.h): its numbers are `tribody eval`'s and `tribody
 * run`'s bit for bit on the CPU (one engine, two faces); new positions, velocities and boxes
 * give what a fresh handle gives; bad input returns TRIBODY_EINPUT with a message, prints
 * nothing and exits nothing; a checkpoint of the library restarts `tribody run`. */
#include <omp.h>

#include "include/tribody.h"
#include "tests/tb_test.h"

#define NMAX 512

/* One extended-XYZ frame of eval -o / a trajectory: its first frame with forces. */
typedef struct frame {
    int n;
    double energy, lattice[9];
    int pbc;
    char species[NMAX][8];
    double pos[3 * NMAX], vel[3 * NMAX], force[3 * NMAX];
} frame;

static frame g_fr, g_fr2; /* large: not on the stack */

/* Reads the last frame of path (with forces when forces = 1). 0 or -1. */
static int read_frame(const char *path, frame *fr, int forces)
{
    FILE *f = fopen(path, "r");
    char line[4096];
    int ok = -1;
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f)) {
        fr->n = atoi(line);
        if (fr->n < 1 || fr->n > NMAX || !fgets(line, sizeof line, f))
            break;
        const char *e = strstr(line, " energy="), *l = strstr(line, "Lattice=\"");
        fr->energy = e ? strtod(e + 8, NULL) : (double)NAN;
        fr->pbc = l != NULL;
        for (int k = 0; l && k < 9; k++)
            fr->lattice[k] = strtod(k ? l : l + 9, (char **)&l);
        ok = 0;
        for (int i = 0; i < fr->n && ok == 0; i++) {
            double *x = fr->pos + 3 * i, *v = fr->vel + 3 * i, *F = fr->force + 3 * i;
            if (!fgets(line, sizeof line, f) ||
                sscanf(line, "%7s %lf %lf %lf %lf %lf %lf %lf %lf %lf", fr->species[i], x, x + 1,
                       x + 2, v, v + 1, v + 2, F, F + 1, F + 2) != (forces ? 10 : 7))
                ok = -1;
        }
    }
    fclose(f);
    return ok;
}

/* Whether two arrays hold the same bits (as doubles compare: -0 == 0 aside). */
static int same(const double *a, const double *b, int n, int *where)
{
    for (int i = 0; i < n; i++)
        if (!(a[i] == b[i])) {
            *where = i;
            return 0;
        }
    return 1;
}

static char g_dir[1024];
static char g_root[2048];

/* Path of a repository file, absolute (eval runs in the scratch directory). */
static const char *repo(const char *rel)
{
    static char p[4][3072];
    static int k;
    k = (k + 1) % 4;
    snprintf(p[k], sizeof p[k], "%s/%s", g_root, rel);
    return p[k];
}

static const char *const CPU_DOUBLE[] = {"solver.backend=cpu", "solver.precision=double"};

/* The API's energy and forces of `cfg` are those of `tribody eval cfg -o` bit for bit, and so
 * are those of a handle made from the frame's arrays (positions, species, box). */
static void test_eval_same(const char *cfg)
{
    char args[4096];
    tribody *t = NULL;
    int where = -1;
    snprintf(args, sizeof args, "eval '%s' -o eval.xyz --set solver.backend=cpu "
                                "--set solver.precision=double", repo(cfg));
    const int st = tb_test_tribody(g_dir, NULL, args, NULL);
    char path[1100];
    snprintf(path, sizeof path, "%s/eval.xyz", g_dir);
    if (st != 0 || read_frame(path, &g_fr, 1) != 0) {
        gsl_test(1, "%s: tribody eval ran (status %d) and wrote a frame", cfg, st);
        return;
    }
    remove(path);
    int rc = tribody_create(&t, repo(cfg), NULL, 2, CPU_DOUBLE);
    gsl_test(rc != 0 || !t, "%s: tribody_create (%d: %s)", cfg, rc, tribody_last_error());
    if (!t)
        return;
    double e = 0, ep = 0, et = 1;
    rc = tribody_energy(t, TRIBODY_TOTAL, &e) | tribody_energy(t, TRIBODY_PAIR, &ep) |
         tribody_energy(t, TRIBODY_TRIPLET, &et);
    gsl_test(rc != 0 || !(e == g_fr.energy) || !(e == ep + et),
             "%s: API energy %.17g == eval's %.17g bit for bit (= pair + triplet)", cfg, e,
             g_fr.energy);
    const int n = tribody_count(t);
    gsl_test(n != g_fr.n || !same(tribody_positions(t), g_fr.pos, 3 * n, &where),
             "%s: the same %d positions (first differing component %d)", cfg, n, where);
    gsl_test(!same(tribody_forces_view(t), g_fr.force, 3 * n, &where),
             "%s: the same forces bit for bit (first differing component %d)", cfg, where);
    /* the frame's arrays make a handle of the same numbers */
    static int species[NMAX];
    for (int i = 0; i < n; i++)
        for (int k = 0; k < tribody_species_count(t); k++)
            if (!strcmp(g_fr.species[i], tribody_species_name(t, k)))
                species[i] = k;
    double box[9] = {0}, box2[9];
    int per[3] = {0, 0, 0}, per2[3];
    tribody_box(t, box2, per2);
    if (g_fr.pbc) {
        const double *L = g_fr.lattice; /* rows a, b, c: (lx 0 0) (xy ly 0) (xz yz lz) */
        const double b9[9] = {L[0], L[4], L[8], L[3], L[6], L[7], box2[6], box2[7], box2[8]};
        memcpy(box, b9, sizeof box);
        per[0] = per[1] = per[2] = 1;
    }
    tribody *u = NULL;
    rc = tribody_create_system(&u, repo(cfg), NULL, 2, CPU_DOUBLE, n, g_fr.pos, species,
                               g_fr.pbc ? box : NULL, g_fr.pbc ? per : NULL);
    double eu = 1;
    static double fu[3 * NMAX];
    rc = rc ? rc : tribody_energy(u, TRIBODY_TOTAL, &eu) | tribody_forces(u, fu);
    gsl_test(rc != 0 || !(eu == e) || !same(fu, g_fr.force, 3 * n, &where),
             "%s: tribody_create_system of the frame's arrays: energy %.17g and forces the same "
             "bits (%s)", cfg, eu, rc ? tribody_last_error() : "ok");
    tribody_destroy(u);
    tribody_destroy(t);
}

/* New positions (a particle moved past the skin: a new list), velocities and box give the bits
 * of a fresh handle made at them. */
static void expect_bad(int rc, const char *want, const char *what);

static void test_set_same(void)
{
    const char *cfg = repo("tests/lammps/mix_ortho.cfg");
    tribody *t = NULL, *u = NULL;
    static double x[3 * NMAX], f1[3 * NMAX], f2[3 * NMAX];
    static int sp[NMAX];
    double box[9], e1 = 0, e2 = 1, w1[6], w2[6];
    int per[3], where = -1;
    if (tribody_create(&t, cfg, NULL, 2, CPU_DOUBLE) != 0) {
        gsl_test(1, "mix_ortho: tribody_create (%s)", tribody_last_error());
        return;
    }
    const int n = tribody_count(t);
    memcpy(x, tribody_positions(t), 3 * (size_t)n * sizeof *x);
    memcpy(sp, tribody_species(t), (size_t)n * sizeof *sp);
    tribody_box(t, box, per);
    x[0] += 0.4; /* beyond skin/2 (0.15 by default): the list is built again */
    x[4] -= 0.07;
    for (int a = 0; a < 3; a++) /* a box 2 % larger, positions scaled with it */
        box[a] *= 1.02;
    for (int i = 0; i < 3 * n; i++)
        x[i] = box[6 + i % 3] + (x[i] - box[6 + i % 3]) * 1.02;
    int rc = tribody_compute(t) | tribody_set_box(t, box, NULL) | tribody_set_positions(t, x) |
             tribody_energy(t, TRIBODY_TOTAL, &e1) | tribody_forces(t, f1) |
             tribody_virial(t, TRIBODY_TOTAL, w1);
    rc |= tribody_create_system(&u, cfg, NULL, 2, CPU_DOUBLE, n, x, sp, box, per);
    rc |= u ? tribody_energy(u, TRIBODY_TOTAL, &e2) | tribody_forces(u, f2) |
              tribody_virial(u, TRIBODY_TOTAL, w2)
            : 1;
    gsl_test(rc != 0 || !(e1 == e2) || !same(f1, f2, 3 * n, &where) || !same(w1, w2, 6, &where),
             "set_box + set_positions: energy %.17g, forces and virial the bits of a fresh handle "
             "(%.17g; %s)", e1, e2, rc ? tribody_last_error() : "ok");
    /* tribody_set_positions_copy: set_positions' bits, and pos copied as it is (a position
     * outside the box too, which the handle wraps) */
    {
        static double x2[3 * NMAX], kept[3 * NMAX], f3[3 * NMAX], f4[3 * NMAX];
        double e3 = 0, e4 = 0;
        tribody *u3 = NULL;
        for (int i = 0; i < 3 * n; i++)
            x2[i] = x[i] + 1e-3 * (double)(i % 5 - 2);
        x2[1] += box[1]; /* outside: wrapped by the handle, kept as it is in the copy */
        rc = tribody_create_system(&u3, cfg, NULL, 2, CPU_DOUBLE, n, x, sp, box, per);
        rc |= u && u3 ? tribody_set_positions(u, x2) | tribody_energy(u, TRIBODY_TOTAL, &e3) |
                            tribody_forces(u, f3) | tribody_set_positions_copy(u3, x2, kept) |
                            tribody_energy(u3, TRIBODY_TOTAL, &e4) | tribody_forces(u3, f4)
                      : 1;
        gsl_test(rc != 0 || !(e3 == e4) || !same(f3, f4, 3 * n, &where) ||
                     memcmp(kept, x2, 3 * (size_t)n * sizeof *x2) != 0,
                 "set_positions_copy: the energy (%.17g) and forces of set_positions (%.17g), "
                 "the copy bit for bit the positions handed in (%s)", e4, e3,
                 rc ? tribody_last_error() : "ok");
        tribody_destroy(u3);
    }
    /* tribody_set_positions_changed and tribody_evaluate (API 5): equal to the copy, nothing
     * (no evaluation); the last particle moved is set_positions_copy (a change past the head
     * the library compares first: tests/python/test_ase.py's test_fast, 256 particles);
     * evaluate gives energy, forces and virial's bits */
    {
        static double x2[3 * NMAX], kept[3 * NMAX], f3[3 * NMAX], f4[3 * NMAX], f5[3 * NMAX];
        double e3 = 0, e4 = 1, w3[6], w4[6];
        int ch[3] = {-1, -1, -1};
        long long n1 = 0, n2 = 0, n3 = 0;
        double sec[TRIBODY_TIMINGS];
        tribody *u3 = NULL;
        memcpy(x2, x, 3 * (size_t)n * sizeof *x);
        rc = tribody_create_system(&u3, cfg, NULL, 2, CPU_DOUBLE, n, x, sp, box, per);
        rc |= u3 ? tribody_set_positions_copy(u3, x2, kept) | tribody_compute(u3) |
                       tribody_timings(u3, sec, &n1) | tribody_set_positions_changed(u3, x2, kept, &ch[0]) |
                       tribody_evaluate(u3, &e3, f3, NULL, w3) | tribody_timings(u3, sec, &n2)
                 : 1;
        x2[3 * n - 1] += 1e-3;
        rc |= u3 ? tribody_set_positions_changed(u3, x2, kept, &ch[1]) |
                       tribody_evaluate(u3, &e3, f3, NULL, w3) | tribody_timings(u3, sec, &n3) |
                       tribody_set_positions(u, x2) | tribody_energy(u, TRIBODY_TOTAL, &e4) |
                       tribody_forces(u, f4) | tribody_virial(u, TRIBODY_TOTAL, w4) |
                       tribody_evaluate(u3, NULL, NULL, NULL, NULL) | tribody_evaluate(u3, NULL, f3, f5, NULL)
                 : 1;
        gsl_test(rc != 0 || ch[0] != 0 || n2 != n1 ||
                     ch[1] != 1 || n3 != n2 + 1 || !(e3 == e4) || !same(f3, f4, 3 * n, &where) ||
                     !same(w3, w4, 6, &where) || !same(f5, f4, 3 * n, &where) ||
                     memcmp(kept, x2, 3 * (size_t)n * sizeof *x2) != 0,
                 "set_positions_changed: equal, changed %d and %lld evaluations; the last "
                 "particle moved, changed %d and %lld evaluation, the copy written; evaluate's "
                 "energy %.17g, forces (and their second copy) and virial a set_positions "
                 "handle's (%.17g; %s)", ch[0],
                 n2 - n1, ch[1], n3 - n2, e3, e4, rc ? tribody_last_error() : "ok");
        expect_bad(tribody_set_positions_changed(u3, x2, kept, NULL), "array is NULL",
                   "set_positions_changed without changed");
        expect_bad(tribody_evaluate(NULL, &e3, f3, NULL, w3), "handle is NULL",
                   "evaluate without a handle");
        expect_bad(tribody_evaluate(u3, &e3, NULL, f5, w3), "array is NULL",
                   "evaluate: a forces copy without forces");
        tribody_destroy(u3);
    }
    /* each term's virial alone (tests/python/test_virial_terms.py holds them to LAMMPS's) */
    double wp[6], wt[6], dmax = 0, wmax = 0;
    rc = tribody_virial(t, TRIBODY_PAIR, wp) | tribody_virial(t, TRIBODY_TRIPLET, wt);
    for (int c = 0; c < 6; c++) {
        dmax = fmax(dmax, fabs(wp[c] + wt[c] - w1[c]));
        wmax = fmax(wmax, fabs(w1[c]));
    }
    gsl_test(rc != 0 || !(dmax <= 1e-13 * wmax) || !(fabs(wt[0]) > 1e-3 * wmax),
             "the pair and triplet virials alone sum to the total: %.2g of %.3g (W_xx triplet "
             "%.6g; %s)", dmax, wmax, wt[0], rc ? tribody_last_error() : "ok");
    /* velocities: the kinetic part of the pressure, P = nktv2p (2K + tr W) / 3V */
    static double v[3 * NMAX];
    double p[7], K = 0, m[2] = {tribody_species_mass(t, 0), tribody_species_mass(t, 1)};
    for (int i = 0; i < 3 * n; i++) {
        v[i] = 0.01 * (i % 7) - 0.03;
        K += 0.5 * m[sp[i / 3]] * v[i] * v[i];
    }
    rc = tribody_set_velocities(t, v) | tribody_pressure(t, p);
    const double V = box[0] * box[1] * box[2], want = (2 * K + w1[0] + w1[1] + w1[2]) / (3 * V);
    gsl_test(rc != 0 || fabs(p[0] - want) > 1e-14 * fabs(want),
             "pressure after set_velocities %.17g = (2K + tr W)/3V = %.17g (lj: nktv2p = 1)", p[0],
             want);
    /* velocities set after an evaluation (forces still fresh) are the ones the steps use:
     * 10 steps from (x, v) give the bits of a fresh handle's 10 steps from (x, v) */
    static double xa[3 * NMAX], xb[3 * NMAX];
    tribody *u2 = NULL;
    rc = tribody_create_system(&u2, cfg, NULL, 2, CPU_DOUBLE, n, x, sp, box, per) |
         tribody_set_velocities(u2, v) | tribody_set_velocities(t, v) | tribody_run(t, 10) |
         tribody_run(u2, 10);
    if (rc == 0) {
        memcpy(xa, tribody_positions(t), 3 * (size_t)n * sizeof *xa);
        memcpy(xb, tribody_positions(u2), 3 * (size_t)n * sizeof *xb);
    }
    gsl_test(rc != 0 || !same(xa, xb, 3 * n, &where),
             "set_velocities after an evaluation, then run(10): the positions of a fresh handle "
             "given the same velocities, bit for bit (%s)", rc ? tribody_last_error() : "ok");
    tribody_destroy(u2);
    tribody_destroy(u);
    tribody_destroy(t);
}

/* `tribody run CFG [--restart api.tbck]` of test_run_same's settings to step `steps`, its last
 * trajectory frame into fr: the run's exit status, or -1 when the frame is missing. */
static int run_cli(const char *cfg, const char *restart, int steps, frame *fr)
{
    char args[4096], path[1100];
    snprintf(args, sizeof args, "run '%s' %s%s --set solver.backend=cpu --set solver.precision=double "
                                "--set system.init.temperature=0.8 --set integrator.dt=0.003 "
                                "--set integrator.steps=%d --set output.trajectory=traj.xyz "
                                "--set output.trajectory_every=10", cfg, restart ? "--restart " : "",
             restart ? restart : "", steps);
    snprintf(path, sizeof path, "%s/traj.xyz", g_dir);
    remove(path);
    const int st = tb_test_tribody(g_dir, NULL, args, NULL);
    return st != 0 ? st : read_frame(path, fr, 0);
}

/* tribody_run(K) is `tribody run` with integrator.steps = K, bit for bit; its checkpoint
 * restarts `tribody run`. */
static void test_run_same(void)
{
    const char *cfg = repo("tests/lammps/mix_ortho.cfg");
    const char *const sets[] = {"solver.backend=cpu", "solver.precision=double",
                                "system.init.temperature=0.8", "integrator.dt=0.003"};
    char path[1100];
    tribody *t = NULL;
    int where = -1;
    const int st = run_cli(cfg, NULL, 40, &g_fr);
    if (st != 0) {
        gsl_test(1, "tribody run ran (status %d) and wrote its frame", st);
        return;
    }
    int rc = tribody_create(&t, cfg, NULL, 4, sets);
    double e0 = 0, e1 = 0;
    rc = rc ? rc : tribody_energy(t, TRIBODY_TOTAL, &e0) | tribody_run(t, 15) | tribody_run(t, 25);
    const int n = t ? tribody_count(t) : 0;
    gsl_test(rc != 0 || tribody_step(t) != 40 || !same(tribody_positions(t), g_fr.pos, 3 * n, &where) ||
                 !same(tribody_velocities(t), g_fr.vel, 3 * n, &where),
             "run(15) + run(25): the positions and velocities of tribody run's step 40 bit for bit "
             "(%s; component %d)", rc ? tribody_last_error() : "ok", where);
    rc = tribody_energy(t, TRIBODY_TOTAL, &e1);
    gsl_test(rc != 0 || !(e1 == g_fr.energy), "run: potential energy at step 40 %.17g = run's %.17g",
             e1, g_fr.energy);
    snprintf(path, sizeof path, "%s/api.tbck", g_dir);
    rc = tribody_write_checkpoint(t, path);
    gsl_test(rc != 0, "write_checkpoint (%s)", rc ? tribody_last_error() : "ok");
    const int st2 = run_cli(cfg, "api.tbck", 50, &g_fr2);
    /* the library goes on to step 50 too: the restart continues the same trajectory */
    rc = tribody_run(t, 10);
    gsl_test(st2 != 0 || rc != 0 ||
                 !same(tribody_positions(t), g_fr2.pos, 3 * n, &where),
             "tribody run --restart of the library's checkpoint (status %d) reaches the library's "
             "step 50 bit for bit", st2);
    tribody_destroy(t);
}

/* Bad input: a status, a message naming the problem, nothing on stderr, no exit. */
static void expect_bad(int rc, const char *want, const char *what)
{
    const char *msg = tribody_last_error();
    gsl_test(rc != TRIBODY_EINPUT || !strstr(msg, want), "%s: TRIBODY_EINPUT (got %d) with \"%s\" "
             "in the message \"%s\"", what, rc, want, msg);
}

static void test_errors(void)
{
    static const char text[] =
        "units = \"lj\"; system = { species = ( { name = \"A\"; mass = 1.0; } ); };\n"
        "potential = { lj = { cutoff = 2.5; }; atm = { nu = 0.07; cutoff = 2.0; }; };\n"
        "solver = { backend = \"cpu\"; precision = \"double\"; };\n";
    const double pos[9] = {0, 0, 0, 1.1, 0, 0, 0, 1.2, 0};
    const double box[9] = {4, 4, 4, 0, 0, 0, 0, 0, 0}, small[9] = {4, 4, 4.5, 0, 0, 0, 0, 0, 0};
    const int per[3] = {1, 1, 1}, bad_sp[3] = {0, 1, 0};
    tribody *t = (tribody *)&t; /* set to NULL by a failed create */
    char err[4096];
    tb_test_capture_begin();
    expect_bad(tribody_create(&t, "/nonexistent/x.cfg", NULL, 0, NULL), "/nonexistent/x.cfg",
               "a missing config file");
    gsl_test(t != NULL, "a failed create leaves *out NULL");
    expect_bad(tribody_create(&t, NULL, "units = ;", 0, NULL), "<config text>", "a syntax error");
    expect_bad(tribody_create(&t, NULL, "@include \"/etc/passwd\"\n", 0, NULL), "@include",
               "an @include in a text");
    const char *const unknown[] = {"solver.mapp=bb"};
    expect_bad(tribody_create_system(&t, NULL, text, 1, unknown, 3, pos, NULL, box, per),
               "solver.mapp", "an unknown --set");
    expect_bad(tribody_create_system(&t, NULL, text, 0, NULL, 3, pos, bad_sp, box, per),
               "species 1", "a species the config does not have");
    const double tiny[9] = {4.5, 4.5, 4.5, 0, 0, 0, 0, 0, 0};
    expect_bad(tribody_create_system(&t, NULL, text, 0, NULL, 3, pos, NULL, tiny, per),
               "exceeds half", "a box narrower than twice the LJ cutoff");
    expect_bad(tribody_create_system(&t, NULL, text, 0, NULL, 0, pos, NULL, NULL, NULL),
               "n must be", "no particles");
    expect_bad(tribody_compute(NULL), "handle is NULL", "a NULL handle");
    /* a good handle: open boundaries (box NULL) */
    int rc = tribody_create_system(&t, NULL, text, 0, NULL, 3, pos, NULL, NULL, NULL);
    gsl_test(rc != 0 || !t, "a text config and three particles (%s)", tribody_last_error());
    double e0 = 0, e1 = 1, p[7];
    rc = tribody_energy(t, TRIBODY_TOTAL, &e0);
    const double nan_pos[9] = {0, 0, (double)NAN, 1.1, 0, 0, 0, 1.2, 0};
    expect_bad(tribody_set_positions(t, nan_pos), "non-finite", "a NaN position");
    const double same_pos[9] = {0, 0, 0, 0, 0, 0, 0, 1.2, 0};
    expect_bad(tribody_set_positions(t, same_pos) | tribody_compute(t), "non-finite",
               "two particles on one point");
    rc |= tribody_set_positions(t, pos); /* the set succeeded: its evaluation failed */
    expect_bad(tribody_pressure(t, p), "no periodic axis", "the pressure of an open system");
    expect_bad(tribody_set_box(t, small, per), "exceeds half", "a box too small for the cutoffs");
    expect_bad(tribody_energy(t, 7, &e1), "term must be", "an unknown term");
    double w7[6];
    expect_bad(tribody_virial(t, 7, w7), "term must be", "an unknown term of the virial");
    rc |= tribody_set_positions(t, pos) | tribody_energy(t, TRIBODY_TOTAL, &e1);
    /* mixed precision: positions beyond what floats resolve are refused, the old ones kept */
    const char *const mixed[] = {"solver.precision=mixed"};
    tribody *m = NULL;
    const double far[9] = {0, 0, 0, 1.1, 0, 0, 0, 1e7, 0};
    double em0 = 0, em1 = 1;
    rc |= tribody_create_system(&m, NULL, text, 1, mixed, 3, pos, NULL, NULL, NULL) |
          tribody_energy(m, TRIBODY_TOTAL, &em0);
    expect_bad(tribody_set_positions(m, far), "extends over", "mixed: a system 1e7 sigma wide");
    rc |= tribody_energy(m, TRIBODY_TOTAL, &em1);
    gsl_test(rc != 0 || !(em0 == em1), "mixed: the refused positions left the state as it was "
             "(%.9g = %.9g)", em1, em0);
    tribody_destroy(m);
    char *out = tb_test_capture_end(err, sizeof err);
    gsl_test(rc != 0 || !(e0 == e1), "the handle still evaluates after its failed calls: %.17g "
             "= %.17g", e1, e0);
    gsl_test(out == NULL || err[0] != '\0', "nothing printed on stderr by the failed calls "
             "(got \"%.200s\")", err);
    /* verbose: the message on stderr, as the command line prints it */
    tribody_set_verbose(1);
    tb_test_capture_begin();
    tribody_set_positions(t, nan_pos);
    tb_test_capture_end(err, sizeof err);
    tribody_set_verbose(0);
    gsl_test(strncmp(err, "tribody: <config text>: positions: particle 0 has a non-finite", 62) != 0,
             "verbose: the message on stderr (got \"%.200s\")", err);
    tribody_destroy(t);
    gsl_test(tribody_last_error()[0] != '\0' || tribody_api_version() != TRIBODY_API_VERSION,
             "a call that succeeds clears the message; the API version is the header's");
}

/* The host passes for bindings: a copy of 1 MiB + 5 bytes (16 pieces and a tail, on two
 * threads) lands byte for byte; the comparison sees one byte changed in the last piece, in
 * the first, and in the tail, a -0.0 against 0.0 (bitwise: differ), and no change. */
static void test_host_passes(void)
{
    enum { BYTES = (1 << 20) + 5 };
    unsigned char *a = malloc(BYTES), *b = malloc(BYTES);
    if (!a || !b) {
        gsl_test(1, "host passes: malloc");
        free(a);
        free(b);
        return;
    }
    for (size_t i = 0; i < BYTES; i++)
        a[i] = (unsigned char)(i * 2654435761u >> 13);
    memset(b, 0, BYTES);
    tribody_copy_bytes(b, a, BYTES);
    gsl_test(memcmp(a, b, BYTES) != 0, "host passes: tribody_copy_bytes of %d bytes byte for byte", BYTES);
    int same = tribody_same_bytes(a, b, BYTES), diff[3];
    const size_t at[3] = {BYTES - 6 - 65536 * 3, 1, BYTES - 2};
    for (int k = 0; k < 3; k++) {
        b[at[k]] ^= 0x10;
        diff[k] = tribody_same_bytes(a, b, BYTES);
        b[at[k]] ^= 0x10;
    }
    const double z[2] = {0.0, 1.5}, mz[2] = {-0.0, 1.5};
    gsl_test(same != 1 || diff[0] != 0 || diff[1] != 0 || diff[2] != 0 ||
                 tribody_same_bytes(z, mz, sizeof z) != 0 || tribody_same_bytes(a, b, 0) != 1,
             "host passes: tribody_same_bytes: equal 1 (got %d), one byte changed at %zu, %zu, "
             "%zu: 0 (got %d %d %d), -0.0 against 0.0: 0, no bytes: 1", same, at[0], at[1], at[2],
             diff[0], diff[1], diff[2]);
    free(a);
    free(b);
}

int main(void)
{
    tb_test_init();
    omp_set_num_threads(2); /* eval and run run with two threads (tb_test_tribody) */
    if (!getcwd(g_root, sizeof g_root) || tb_test_temp_dir(g_dir, sizeof g_dir, "api") != 0)
        return 1;
    TB_TEST_RUN(test_errors);
    test_eval_same("tests/lammps/mix_ortho.cfg");
    test_eval_same("tests/lammps/tri_two.cfg");
    test_eval_same("tests/lammps/slab_ppf.cfg");
    TB_TEST_RUN(test_set_same);
    TB_TEST_RUN(test_run_same);
    TB_TEST_RUN(test_host_passes);
    tb_test_system("rm -rf '%s'", g_dir);
    return tb_test_done();
}
