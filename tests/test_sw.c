/* test_sw.c — Stillinger-Weber (potential.sw, pot_sw.h, the CPU's centred list path):
 * 1. LAMMPS's numbers (tests/lammps/sw_si.*, sw_gan.*, sw_mw.*, scripts/lammps-sw: Debian's
 *    lmp, pair_style sw with its Si.sw and GaN.sw, and examples/mw.sw: 216 mW water sites at
 *    1 g/cm^3): total and pair energy, forces, pressure tensor to 1e-10 in double; mixed and
 *    single to their float accuracy; deterministic sums.
 * 2. Finite differences of the energy against the forces.
 * 3. 100 NVE steps of the 1000 K silicon (and GaN, 298 K mW) against LAMMPS's final
 *    positions (1e-8 A).
 * 4. Bad .sw files and settings: one line naming the file, the line and the setting; exit 2
 *    and nothing written through the binary. */
#include "tests/tb_test.h"

#include "config/config.h"
#include "solver/backend.h"
#include "solver/box.h"
#include "solver/io/init.h"
#include "solver/state.h"
#include "validate/reference.h"
#include "tests/tb_system.h"

#define NMAX 256

typedef struct swref {
    double nktv2p, volume, energy, energy_pair, pressure[6];
    int n;
    double f[3 * NMAX], fin[3 * NMAX];
} swref;

static int read_swref(const char *name, swref *r)
{
    char path[256], line[512];
    snprintf(path, sizeof path, "tests/lammps/%s.ref", name);
    FILE *fp = fopen(path, "r");
    if (!fp)
        return -1;
    memset(r, 0, sizeof *r);
    while (fgets(line, sizeof line, fp)) {
        double *p = r->pressure, x, y, z, fx, fy, fz;
        int id, t;
        if (sscanf(line, "nktv2p %lf", &r->nktv2p) == 1 || sscanf(line, "volume %lf", &r->volume) == 1 ||
            sscanf(line, "natoms %d", &r->n) == 1 || sscanf(line, "energy_pair %lf", &r->energy_pair) == 1 ||
            sscanf(line, "energy %lf", &r->energy) == 1)
            continue;
        if (sscanf(line, "pressure %lf %lf %lf %lf %lf %lf", p, p + 1, p + 2, p + 3, p + 4, p + 5) == 6)
            continue;
        if (sscanf(line, "atom %d %d %lf %lf %lf %lf %lf %lf", &id, &t, &x, &y, &z, &fx, &fy, &fz) == 8 &&
            id >= 1 && id <= NMAX) {
            r->f[3 * id - 3] = fx;
            r->f[3 * id - 2] = fy;
            r->f[3 * id - 1] = fz;
        } else if (sscanf(line, "final %d %lf %lf %lf", &id, &x, &y, &z) == 4 && id >= 1 && id <= NMAX) {
            r->fin[3 * id - 3] = x;
            r->fin[3 * id - 2] = y;
            r->fin[3 * id - 1] = z;
        }
    }
    fclose(fp);
    return r->n > 0 && r->n <= NMAX ? 0 : -1;
}

/* The case's config and state (cfg_load from tests/lammps, sim_init); 0 or -1. */
static int load_case(const char *name, sim_config *c, sim_state *s)
{
    char path[256];
    snprintf(path, sizeof path, "tests/lammps/%s.cfg", name);
    if (cfg_load(c, path, 0, NULL) != 0)
        return -1;
    return sim_init(s, c) == 0 ? 0 : -1;
}

#define eval tb_system_eval /* one CPU evaluation (tb_system.h) */

static double tensor_error(const double *w, const double *r)
{
    double num = 0.0, den = 0.0;
    for (int k = 0; k < 6; k++) {
        num = fmax(num, fabs(w[k] - r[k]));
        den = fmax(den, fabs(r[k]));
    }
    return num / den;
}

static void test_lammps(const char *name)
{
    static sim_config c;
    sim_state s = {0};
    swref r;
    if (read_swref(name, &r) != 0 || load_case(name, &c, &s) != 0) {
        gsl_test(1, "%s: the case loads", name);
        return;
    }
    double w[6];
    for (int k = 0; k < 6; k++)
        w[k] = r.pressure[k] * r.volume / r.nktv2p;
    static const char *const pn[3] = {"double", "mixed", "single"};
    static const double tol[3] = {1e-10, 2e-5, 2e-5};
    for (int p = 0; p < 3; p++)
        for (int det = 0; det < 2; det++) {
            c.solver.precision = p;
            c.solver.deterministic = det;
            if (eval(&c, &s) != 0) {
                gsl_test(1, "%s %s: evaluation", name, pn[p]);
                continue;
            }
            const double et = s.e_pair + s.e_triplet;
            const double ee = fabs(et - r.energy) / fabs(r.energy);
            const double ep = fabs(s.e_pair - r.energy_pair) / fabs(r.energy_pair);
            const double ef = tb_force_error(s.force, r.f, s.n), ew = tensor_error(s.virial, w);
            gsl_test(!(ee <= tol[p] && ep <= tol[p] && ef <= tol[p] && ew <= tol[p]),
                     "%s, %s%s: energy %.2e, pair energy %.2e, forces %.2e, virial %.2e against "
                     "LAMMPS (<= %.0e)", name, pn[p], det ? " deterministic" : "", ee, ep, ef, ew,
                     tol[p]);
        }
    sim_state_free(&s);
}

/* validate/'s independent reference (reference_sw.c) against LAMMPS, and the CPU backend
 * against it in a tilted copy of the case's box (LAMMPS's restricted triclinic). */
static void test_reference(const char *name)
{
    static sim_config c;
    sim_state s = {0};
    swref r;
    static double p[11 * TB_TYPES_MAX * TB_TYPES_MAX * TB_TYPES_MAX];
    double f[3 * NMAX], e2, e3, w[6], wl[6];
    if (read_swref(name, &r) != 0 || load_case(name, &c, &s) != 0) {
        gsl_test(1, "%s: the case loads", name);
        return;
    }
    const int nt = c.system.n_species;
    for (int a = 0; a < nt; a++)
        for (int b = 0; b < nt; b++)
            for (int k = 0; k < nt; k++) {
                const cfg_sw_entry *e = &c.potential.sw.p[CFG_SW_INDEX(a, b, k)];
                const double v[11] = {e->epsilon, e->sigma, e->a, e->lambda, e->gamma,
                                      e->costheta0, e->A, e->B, e->p, e->q, e->tol};
                memcpy(p + 11 * ((a * nt + b) * nt + k), v, sizeof v);
            }
    val_cell cell = {s.box.l[0], s.box.l[1], s.box.l[2], 0, 0, 0, {1, 1, 1}};
    val_system vs = {0};
    val_sw sw = {nt, p};
    vs.n = s.n;
    vs.pos = s.pos;
    vs.cell = &cell;
    vs.type = s.type;
    for (int k = 0; k < 6; k++)
        wl[k] = r.pressure[k] * r.volume / r.nktv2p;
    val_reference_sw(&vs, &sw, f, &e2, &e3, w);
    const double ee = fabs(e2 + e3 - r.energy) / fabs(r.energy);
    const double ep = fabs(e2 - r.energy_pair) / fabs(r.energy_pair);
    gsl_test(!(ee <= 1e-10 && ep <= 1e-10 && tb_force_error(f, r.f, s.n) <= 1e-10 &&
               tensor_error(w, wl) <= 1e-10),
             "%s: validate's reference against LAMMPS: energy %.2e, pair %.2e, forces %.2e, "
             "virial %.2e (<= 1e-10)", name, ee, ep, tb_force_error(f, r.f, s.n),
             tensor_error(w, wl));
    /* tilt the box (xy, xz, yz), positions as they are: the CPU lists against the reference */
    s.box = box_make_d(s.box.l, 0.9, -0.7, 0.5, s.box.lo, (int[3]){1, 1, 1});
    cell.xy = 0.9, cell.xz = -0.7, cell.yz = 0.5;
    val_reference_sw(&vs, &sw, f, &e2, &e3, w);
    for (int det = 0; det < 2; det++) {
        c.solver.deterministic = det;
        if (eval(&c, &s) != 0) {
            gsl_test(1, "%s tilted: evaluation", name);
            continue;
        }
        const double ex = fabs(s.e_pair + s.e_triplet - e2 - e3) / fabs(e2 + e3);
        gsl_test(!(ex <= 1e-12 && fabs(s.e_triplet - e3) <= 1e-12 * fabs(e3) &&
                   tb_force_error(s.force, f, s.n) <= 1e-12 && tensor_error(s.virial, w) <= 1e-12),
                 "%s in a tilted box%s: the CPU lists against validate's reference: energy %.2e, "
                 "forces %.2e, virial %.2e (<= 1e-12)", name, det ? " (deterministic)" : "", ex,
                 tb_force_error(s.force, f, s.n), tensor_error(s.virial, w));
    }
    sim_state_free(&s);
}

/* examples/silicon.cfg's perfect diamond crystal: no angle away from the tetrahedral one, so
 * phi3 = 0 and each atom's four bonds at sqrt(3)/4 a = 2.35169 A, within 2e-5 A of phi2's
 * minimum 2^(1/6) sigma where phi2 = -epsilon (Stillinger and Weber's choice of A and B): the
 * cohesive energy is -2 epsilon = -4.3366 eV per atom. */
static void test_silicon_example(void)
{
    static sim_config c;
    sim_state s = {0};
    if (cfg_load(&c, "examples/silicon.cfg", 0, NULL) != 0 || sim_init(&s, &c) != 0) {
        gsl_test(1, "examples/silicon.cfg loads");
        return;
    }
    c.solver.precision = CFG_PREC_DOUBLE;
    const int rc = eval(&c, &s);
    const double e = (s.e_pair + s.e_triplet) / s.n;
    gsl_test(rc != 0 || s.n != 512 || !(fabs(e + 2 * 2.1683) <= 1e-6) || !(fabs(s.e_triplet) <= 1e-9),
             "examples/silicon.cfg: 512 atoms of diamond Si at %.10f eV per atom (-2 epsilon = "
             "-4.3366), phi3 %.2e eV (0)", e, s.e_triplet);
    sim_state_free(&s);
}

/* Central differences of the energy against the forces, a few components (double). */
static void test_fd(const char *name)
{
    static sim_config c;
    sim_state s = {0};
    if (load_case(name, &c, &s) != 0 || eval(&c, &s) != 0) {
        gsl_test(1, "%s: the case loads", name);
        return;
    }
    double f0[3 * NMAX], err = 0.0, fmaxv = 0.0;
    const double h = 1e-5;
    memcpy(f0, s.force, 3 * (size_t)s.n * sizeof *f0);
    for (int q = 0; q < 3 * s.n; q += 7) {
        const double x0 = s.pos[q];
        s.pos[q] = x0 + h;
        eval(&c, &s);
        const double ep = s.e_pair + s.e_triplet;
        s.pos[q] = x0 - h;
        eval(&c, &s);
        const double em = s.e_pair + s.e_triplet;
        s.pos[q] = x0;
        err = fmax(err, fabs(-(ep - em) / (2 * h) - f0[q]));
        fmaxv = fmax(fmaxv, fabs(f0[q]));
    }
    gsl_test(!(err <= 1e-7 * fmaxv), "%s: forces against central differences of the energy "
             "(max error %.2e of max |F| %.3g, <= 1e-7)", name, err, fmaxv);
    sim_state_free(&s);
}

/* 100 NVE steps at dt 0.001 ps from the data file's velocities against LAMMPS's final
 * (unwrapped) positions, compared through the minimum image. */
static void test_nve(const char *name)
{
    static sim_config c;
    sim_state s = {0};
    swref r;
    backend *b = NULL;
    if (read_swref(name, &r) != 0 || load_case(name, &c, &s) != 0) {
        gsl_test(1, "%s: the case loads", name);
        return;
    }
    int rc = cpu_backend_ops.create(&b, &c, &s);
    if (rc == 0)
        rc = cpu_backend_ops.compute(b) || cpu_backend_ops.advance(b, 100) ||
             cpu_backend_ops.fetch(b, &s);
    cpu_backend_ops.destroy(b);
    double err = 0.0;
    for (int i = 0; i < s.n; i++) {
        double d[3] = {s.pos[3 * i] - r.fin[3 * i], s.pos[3 * i + 1] - r.fin[3 * i + 1],
                       s.pos[3 * i + 2] - r.fin[3 * i + 2]};
        box_min_image_d(&s.box, d);
        err = fmax(err, sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]));
    }
    gsl_test(rc != 0 || !(err <= 1e-8), "%s: 100 NVE steps (dt 0.001 ps) against LAMMPS's "
             "final positions: max distance %.2e A (<= 1e-8)", name, err);
    sim_state_free(&s);
}

/* A leg at the cutoff's edge: r = a sigma - 1e-9 A is within the cutoff in double (the lists'
 * test, r^2 < cutsq), but the float separation rounds to a sigma itself, where 1 / (r - a
 * sigma) is infinite. Its terms vanish there (exp(sigma / (r - a sigma)) -> 0): mixed and
 * single must give finite energies and forces within float accuracy of double's. Three atoms
 * of sw_si's box: i, j at the edge along x, k at 2.6 A along y (beyond phi2's minimum, so the
 * forces do not cancel to nothing). */
static void test_edge(void)
{
    static sim_config c;
    sim_state s = {0};
    double e[3], f[3][9];
    if (load_case("sw_si", &c, &s) != 0) {
        gsl_test(1, "sw_si: the case loads");
        return;
    }
    const double cut = c.potential.sw.p[0].a * c.potential.sw.p[0].sigma;
    const double x[9] = {5, 5, 5, 5 + cut - 1e-9, 5, 5, 5, 5 + 2.6, 5};
    s.n = 3;
    for (int p = 0; p < 3; p++) {
        memcpy(s.pos, x, sizeof x);
        c.solver.precision = p;
        const int rc = eval(&c, &s);
        e[p] = rc == 0 ? s.e_pair + s.e_triplet : (double)NAN;
        memcpy(f[p], s.force, sizeof f[p]);
    }
    s.n = 64;
    for (int p = 1; p < 3; p++) {
        double err = 0.0, fm = 0.0;
        for (int q = 0; q < 9; q++) {
            const double d = fabs(f[p][q] - f[0][q]);
            err = d <= err ? err : d; /* a NaN sticks */
            fm = fmax(fm, fabs(f[0][q]));
        }
        gsl_test(!(fabs(e[p] - e[0]) <= 1e-6 * fabs(e[0]) && err <= 1e-5 * fm),
                 "a leg 1e-9 A inside the cutoff (%.6f A), %s: energy %.9g eV (double's %.9g), "
                 "forces within %.2e of max |F| %.3g (finite, <= 1e-5)", cut, p == 1 ? "mixed" :
                 "single", e[p], e[0], err / fm, fm);
    }
    sim_state_free(&s);
}

/* cfg_load of a config around an .sw text: returns its status and the first line it printed. */
static sim_config bad_c; /* load_bad's last configuration */

static int load_bad(const char *dir, const char *sw, const char *species, const char *extra,
                    char *msg, size_t size)
{
    sim_config *const cp = &bad_c;
    char cfg[2048], path[4096];
    if (sw)
        tb_test_write_file(dir, "x.sw", sw);
    snprintf(cfg, sizeof cfg,
             "units = \"metal\";\nsystem = { particles = 8; species = ( %s );\n"
             "  boundary = \"periodic\"; box = 10.862;\n  init = { type = \"lattice\"; "
             "min_distance = 2.35; composition = [ %s ]; }; };\npotential = {\n"
             "  sw = { file = \"x.sw\"; }; %s };\n", species,
             strstr(species, "}, {") ? "0.5, 0.5" : "1.0", extra);
    tb_test_write_file(dir, "x.cfg", cfg);
    snprintf(path, sizeof path, "%s/x.cfg", dir);
    tb_test_capture_begin();
    const int rc = cfg_load(cp, path, 0, NULL);
    char *out = tb_test_capture_end(msg, size);
    (void)out;
    return rc;
}

static void test_bad_input(void)
{
    char dir[1024], msg[4096];
    const char *si = "{ name = \"Si\"; mass = 28.0855; }";
    const char *good = "Si Si Si 2.1683 2.0951 1.80 21.0 1.20 -0.333333333333\n"
                       "  7.049556277 0.6022245584 4.0 0.0 0.0\n";
    if (tb_test_temp_dir(dir, sizeof dir, "sw") != 0)
        return;
    int rc = load_bad(dir, good, si, "", msg, sizeof msg);
    gsl_test(rc != 0, "a good .sw file over two lines loads (%s)", tb_test_first_line(msg));
    rc = load_bad(dir, "# c\nSi Si Si 2.1683 2.0951 1.80 21.0 1.20 -0.3333 7.0 0.6 4.0 zero 0.0\n",
                  si, "", msg, sizeof msg);
    gsl_test(rc == 0 || !strstr(msg, "x.sw:2: potential.sw.file: malformed entry: q is not"),
             "a word that is not a number: file, line and setting named (%s)",
             tb_test_first_line(msg));
    rc = load_bad(dir, "Si Si Si 2.1683 2.0951 1.80 21.0\n", si, "", msg, sizeof msg);
    gsl_test(rc == 0 || !strstr(msg, "x.sw:1: potential.sw.file: malformed entry: the file ends"),
             "a truncated entry (%s)", tb_test_first_line(msg));
    rc = load_bad(dir, "Si Si Si -2.1683 2.0951 1.80 21.0 1.20 -0.3333 7.0 0.6 4.0 0.0 0.0\n", si,
                  "", msg, sizeof msg);
    gsl_test(rc == 0 || !strstr(msg, "x.sw:1: potential.sw.file: epsilon must be >= 0"),
             "a negative epsilon (%s)", tb_test_first_line(msg));
    rc = load_bad(dir, good, "{ name = \"Ge\"; mass = 72.63; }", "", msg, sizeof msg);
    gsl_test(rc == 0 || !strstr(msg, "potential.sw.file: species \"Ge\"") || !strstr(msg, "x.cfg:"),
             "a species not in the file (%s)", tb_test_first_line(msg));
    tb_test_system("cp tests/lammps/GaN.sw '%s/GaN.sw' && grep -v '^N  Ga N' tests/lammps/GaN.sw "
                   "> '%s/x.sw'", dir, dir);
    rc = load_bad(dir, NULL, "{ name = \"Ga\"; mass = 69.7; }, { name = \"N\"; mass = 14.0; }", "",
                  msg, sizeof msg);
    gsl_test(rc == 0 || !strstr(msg, "has no entry for the triplet N Ga N"),
             "a triplet without its entry (%s)", tb_test_first_line(msg));
    char twice[512];
    snprintf(twice, sizeof twice, "%s%s", good, good);
    rc = load_bad(dir, twice, si, "", msg, sizeof msg);
    gsl_test(rc == 0 || !strstr(msg, "x.sw:3: potential.sw.file: duplicate entry"),
             "a duplicate entry (%s)", tb_test_first_line(msg));
    rc = load_bad(dir, good, si, "lj = { epsilon = 0.01; };", msg, sizeof msg);
    gsl_test(rc == 0 || !strstr(msg, "potential.lj: not used with potential.sw"),
             "SW with LJ refused (%s)", tb_test_first_line(msg));
    /* examples/mw.sw, the mW water model: its one entry read as published */
    tb_test_system("cp examples/mw.sw '%s/x.sw'", dir);
    rc = load_bad(dir, NULL, "{ name = \"W\"; mass = 18.015; }", "", msg, sizeof msg);
    const cfg_sw_entry *mw = &bad_c.potential.sw.p[CFG_SW_INDEX(0, 0, 0)];
    gsl_test(rc != 0 || mw->epsilon != 0.268381 || mw->sigma != 2.3925 || mw->lambda != 23.15 ||
             mw->a != 1.8 || mw->A != 7.049556277 || mw->B != 0.6022245584 || mw->p != 4.0,
             "examples/mw.sw (mW water, Molinero and Moore 2009) loads with its parameters (%s)",
             tb_test_first_line(msg));
    tb_test_system("rm -f '%s/x.sw'", dir);
    rc = load_bad(dir, NULL, si, "", msg, sizeof msg);
    gsl_test(rc == 0 || !strstr(msg, "potential.sw.file: cannot read"),
             "a missing file (%s)", tb_test_first_line(msg));
    /* through the binary: exit 2, nothing written */
    tb_test_write_file(dir, "x.sw", "Si Si Si 2.1683 oops\n");
    const int st = tb_test_tribody(dir, NULL, "run x.cfg", "err.txt");
    gsl_test(st != 2 || !tb_test_file_has(dir, "err.txt", "x.sw:1: potential.sw.file") ||
             tb_test_exists(dir, "thermo.csv"),
             "tribody run with a malformed .sw file: exit 2 (got %d), the line named, nothing "
             "written", st);
    tb_test_remove_dir(dir);
}

/* tribody eval and validate on the GaN case: the SW terms named, every validate row passing
 * (the lists against validate/reference_sw.c, the trajectory against GSL). */
static void test_cli(void)
{
    int st = tb_test_tribody("tests/lammps", NULL, "eval sw_gan.cfg", "err.txt");
    gsl_test(st != 0 || !tb_test_file_has("tests/lammps", "out.txt", "E_triplet = 2.69867") ||
                 !tb_test_file_has("tests/lammps", "out.txt", "Stillinger-Weber phi3"),
             "tribody eval sw_gan.cfg: exit 0 (got %d), E_triplet = LAMMPS's 2.69867 eV, the "
             "SW terms named", st);
    st = tb_test_tribody("tests/lammps", NULL, "validate sw_gan.cfg", "err.txt");
    gsl_test(st != 0 || !tb_test_file_has("tests/lammps", "out.txt", "24 checks: 24 passed"),
             "tribody validate sw_gan.cfg (double): exit 0 (got %d), its 24 checks passed", st);
    /* bench --sw's plumbing (docs/performance-runs.md): the 64-atom crystal, 60 steps in double */
    st = tb_test_tribody("tests/lammps", NULL, "bench --sw sw_si.cfg --cpu --n 64 --steps 60 "
                         "--repeat 1 --precisions double --csv swb.csv", "err.txt");
    char *csv = tb_test_read_file("tests/lammps", "swb.csv", NULL), prec[16] = "", be[8] = "";
    int n = 0, steps = 0;
    long long builds = -1;
    double v[6], T = NAN, gib = NAN;
    const char *row = csv ? strchr(csv, '\n') : NULL;
    const int got = row ? sscanf(row + 1, "%d,%15[^,],%7[^,],%lf,%lf,%lf,%lf,%lf,%lf,%lld,%d,%lf,%lf",
                                 &n, prec, be, v, v + 1, v + 2, v + 3, v + 4, v + 5, &builds,
                                 &steps, &T, &gib) : 0;
    gsl_test(st != 0 || got != 13 || n != 64 || strcmp(prec, "double") || strcmp(be, "cpu") ||
                 !(v[0] > 0 && fabs(v[1] - 64 / (1e-3 * v[0])) <= 1e-3 * v[1]) || steps != 60 ||
                 builds < 1 || !(T > 500 && T < 1500) || gib != 0.0,
             "tribody bench --sw --cpu --n 64: exit 0 (got %d), a CSV row of n 64 (%d), "
             "atom-steps/s = n / step time (%.4g, %.4g ms), list builds in 60 steps (%lld), the "
             "crystal near 1000 K after 140 steps from 2000 K (20 warm, 60 untimed, 60 timed; %.0f K)", st, n, v[1], v[0],
             builds, T);
    free(csv);
    st = tb_test_tribody("tests/lammps", NULL, "bench --sw --cpu --n 10", "err.txt");
    const int named = tb_test_file_has("tests/lammps", "err.txt", "--n: expected sizes 64");
    const int st2 = tb_test_tribody("tests/lammps", NULL, "bench --sw ../../examples/liquid.cfg "
                                    "--cpu", "err.txt");
    gsl_test(st != 2 || !named || st2 != 2 ||
                 !tb_test_file_has("tests/lammps", "err.txt", "must name potential.sw"),
             "tribody bench --sw: --n 10 and a CONFIG without potential.sw: exit 2 (got %d, %d), "
             "the option named", st, st2);
    tb_test_system("rm -f tests/lammps/out.txt tests/lammps/err.txt tests/lammps/swb.csv");
}

/* A restart continues an SW run bit for bit, and refuses a changed .sw file by name (its
 * physics text is the parameters' hash, not the path). */
static void test_restart(void)
{
    char dir[1024];
    if (tb_test_temp_dir(dir, sizeof dir, "swrs") != 0)
        return;
    tb_test_system("cp tests/lammps/sw_si.cfg tests/lammps/sw_si.data tests/lammps/Si.sw '%s'", dir);
    const char *env = "TRIBODY_RUN_ID=7e57c0de";
    const int a = tb_test_tribody(dir, env, "run sw_si.cfg --set integrator.steps=40 "
                                  "--set 'output.checkpoint=\"full.tbck\"'", NULL);
    const int b = tb_test_tribody(dir, env, "run sw_si.cfg --set integrator.steps=20 "
                                  "--set 'output.checkpoint=\"half.tbck\"'", NULL);
    const int c = tb_test_tribody(dir, env, "run sw_si.cfg --set integrator.steps=40 "
                                  "--set 'output.checkpoint=\"rest.tbck\"' --restart half.tbck",
                                  NULL);
    gsl_test(a || b || c || tb_test_system("cmp -s '%s/full.tbck' '%s/rest.tbck'", dir, dir) != 0,
             "sw_si: 20 + 20 steps through a restart give the 40-step checkpoint bit for bit "
             "(exits %d %d %d)", a, b, c);
    tb_test_system("sed -i 's/2.1683/2.1684/' '%s/Si.sw'", dir);
    const int d = tb_test_tribody(dir, env, "run sw_si.cfg --set integrator.steps=40 "
                                  "--set 'output.checkpoint=\"r2.tbck\"' --restart half.tbck",
                                  "err.txt");
    gsl_test(d != 2 || !tb_test_file_has(dir, "err.txt", "potential.sw.file") ||
                 tb_test_exists(dir, "r2.tbck"),
             "a restart with a changed .sw file: exit 2 (got %d) naming potential.sw.file, "
             "nothing written", d);
    tb_test_remove_dir(dir);
}

int main(void)
{
    tb_test_init();
    TB_TEST_RUN(test_bad_input);
    TB_TEST_RUN(test_cli);
    test_lammps("sw_si");
    test_lammps("sw_gan");
    test_lammps("sw_mw");
    test_reference("sw_si");
    test_reference("sw_gan");
    test_reference("sw_mw");
    test_silicon_example();
    test_edge();
    test_fd("sw_si");
    test_fd("sw_gan");
    test_fd("sw_mw");
    test_nve("sw_si");
    test_nve("sw_gan");
    test_nve("sw_mw");
    TB_TEST_RUN(test_restart);
    return tb_test_done();
}
