/* test_boxes.c — the CPU backend in general boxes (solver/box.h): orthorhombic, triclinic
 * (LAMMPS's restricted cell, tilts up to half an edge) and `ppf` slabs, with two species.
 *
 * 1. LAMMPS's own numbers (tests/lammps/CASE.ref, tb_lammps.h): each case's atoms, box and
 *    species as a state and a config, evaluated by the neighbour lists (double, deterministic,
 *    mixed) and the all-triplets maps: energies per term, forces and the virial against
 *    LAMMPS's to 1e-10 (mixed: 1e-6), and the pressure tensor sim_pressure gives and the thermo row prints
 *    (p, pxx .. pzz, pxy, pxz, pyz; volume with the open axis's given extent) against LAMMPS's
 *    compute pressure.
 * 2. Random two-species states in boxes the config can make, cutoffs up to just below half the
 *    smallest perpendicular width, and boxes large enough for several cells per axis: lists =
 *    all-triplets = validate/'s reference (its general form, through valsys.h) to 1e-12 in
 *    double (energies, forces, virial), the lists' cells against a brute-force search, finite
 *    differences of the lists' forces.
 * 3. Runs through the lists in a triclinic box and a slab: particles cross the periodic faces
 *    (wrapped back into the cell, the open axis never), the lists are rebuilt, the skin changes
 *    nothing but the rebuild count (bitwise), and the forces at the end equal the reference's. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "config/config.h"
#include "solver/backend.h"
#include "solver/cli/validate_int.h"
#include "solver/cli/valsys.h"
#include "solver/io/output.h"
#include "solver/physics/nbr_list.h"
#include "solver/physics/pot_params.h"
#include "solver/state.h"
#include "tests/tb_system.h"
#include "tests/tb_test.h"
#include "tests/tb_lammps.h"

#define NB 512

static double rel(double a, double b)
{
    return fabs(a - b) / fmax(fabs(b), 1e-300);
}

/* Largest component error over the largest component (6 virial or pressure components). */
static double tensor_error(const double *w, const double *r)
{
    double num = 0.0, den = 0.0;
    for (int k = 0; k < 6; k++) {
        num = fmax(num, fabs(w[k] - r[k]));
        den = fmax(den, fabs(r[k]));
    }
    return num / den;
}

/* c's system.box group and boundary for the box b (what cfg_box turns back into b). */
static void config_box(sim_config *c, const tb_box_d *b)
{
    const int np = (b->pbc & 1) + (b->pbc >> 1 & 1) + (b->pbc >> 2 & 1);
    c->system.boundary = np == 3 ? CFG_BOUNDARY_PERIODIC : np ? CFG_BOUNDARY_MIXED : CFG_BOUNDARY_OPEN;
    c->system.box = 0.0;
    c->system.box_group = 1;
    for (int a = 0; a < 3; a++) {
        c->system.periodic[a] = b->pbc >> a & 1;
        c->system.box_lengths[a] = b->l[a];
        c->system.box_origin[a] = b->lo[a];
    }
    c->system.box_tilt[0] = b->xy;
    c->system.box_tilt[1] = b->xz;
    c->system.box_tilt[2] = b->yz;
}

/* ---- 1. LAMMPS's cases ---------------------------------------------------------------------- */

static int units_of_name(const char *u)
{
    return !strcmp(u, "metal") ? CFG_UNITS_METAL : !strcmp(u, "real") ? CFG_UNITS_REAL : CFG_UNITS_LJ;
}

/* The config of case k: its units, species, LJ pairs as LAMMPS's pair_coeff lines (the rest
 * mixed by the config's rule), nu per triplet, cutoffs, box. */
static void case_config(const lcase *k, sim_config *c)
{
    tb_system_config(c, "test_boxes", k->n, 1, 0.8, 0.0);
    c->units = units_of_name(k->units);
    c->system.n_species = k->nt;
    c->system.species_given = 1;
    for (int t = 0; t < k->nt; t++) {
        snprintf(c->system.species[t].name, sizeof c->system.species[t].name, "T%d", (t + 1) % 10);
        c->system.species[t].mass = k->mass[t];
    }
    c->potential.lj.shift = k->shift;
    c->potential.lj.mix = k->arithmetic ? CFG_MIX_ARITHMETIC : CFG_MIX_GEOMETRIC;
    c->potential.lj.n_pairs = 0;
    for (int a = 0; a < k->nt; a++)
        for (int b = a; b < k->nt; b++)
            if (k->given[a * k->nt + b]) {
                cfg_lj_pair *p = &c->potential.lj.pairs[c->potential.lj.n_pairs++];
                p->t[0] = a, p->t[1] = b;
                p->epsilon = k->eps[a * k->nt + b];
                p->sigma = k->sigma[a * k->nt + b];
                p->cutoff = k->rc[a * k->nt + b];
            }
    c->potential.atm.triplets_given = 1;
    c->potential.atm.n_triplets = 0;
    for (int a = 0; a < k->nt; a++)
        for (int b = a; b < k->nt; b++)
            for (int d = b; d < k->nt; d++)
                if (k->nu[(a * k->nt + b) * k->nt + d] != 0.0) {
                    cfg_atm_triplet *e = &c->potential.atm.triplets[c->potential.atm.n_triplets++];
                    e->t[0] = a, e->t[1] = b, e->t[2] = d;
                    e->nu = k->nu[(a * k->nt + b) * k->nt + d];
                }
    c->potential.atm.cutoff = k->atm_rc;
    c->potential.atm.cutoff_triple = k->atm_rct;
    c->solver.skin = 0.3;
}

static tb_box_d case_box(const lcase *k)
{
    const double l[3] = {k->cell.lx, k->cell.ly, k->cell.lz};
    return box_make_d(l, k->cell.xy, k->cell.xz, k->cell.yz, k->origin, k->cell.periodic);
}

/* The state of case k under c: LAMMPS's positions, types and box, at rest. */
static int case_state(const lcase *k, const sim_config *c, sim_state *s)
{
    if (sim_state_alloc(s, k->n) != 0)
        return -1;
    sim_set_species(s, c);
    s->box = case_box(k);
    memcpy(s->pos, k->pos, 3 * (size_t)k->n * sizeof *s->pos);
    memcpy(s->type, k->type, (size_t)k->n * sizeof *s->type);
    return 0;
}

/* The thermo row of s, parsed: p, pxx, pyy, pzz (columns 9..12), pxy, pxz, pyz (14..16) and
 * the volume (17) into col[8]; 0 when it reads. */
static int thermo_columns(const sim_state *s, double col[8])
{
    static const int want[8] = {9, 10, 11, 12, 14, 15, 16, 17};
    char row[1024];
    FILE *f = tmpfile();
    if (!f || thermo_row(f, "tmp", s, NULL) != 0 || fseek(f, 0, SEEK_SET) != 0 || !fgets(row, sizeof row, f)) {
        if (f)
            fclose(f);
        return -1;
    }
    fclose(f);
    int got = 0, k = 0;
    for (char *p = row, *q; p && k <= 17; p = q ? q + 1 : NULL, k++) {
        q = strchr(p, ',');
        for (int m = 0; m < 8; m++)
            if (want[m] == k)
                col[m] = strtod(p, NULL), got++;
    }
    return got == 8 ? 0 : -1;
}

static const char *const path_name[4] = {"lists", "lists, deterministic", "maps", "lists, mixed"};

static void test_lammps_case(const char *name)
{
    lcase k;
    sim_config c;
    sim_state s;
    if (read_ref(name, &k) != 0) {
        gsl_test(1, "tests/lammps/%s.ref reads", name);
        return;
    }
    case_config(&k, &c);
    const tb_box_d box = case_box(&k);
    config_box(&c, &box);
    if (case_state(&k, &c, &s) != 0) {
        gsl_test(1, "%s: state", name);
        return;
    }
    double wl[6], pl[6];
    for (int m = 0; m < 6; m++) {
        pl[m] = k.p_lj[m] + k.p_atm[m];
        wl[m] = pl[m] * k.volume / k.nktv2p;
    }
    gsl_test(!(rel(sim_volume(&s), k.volume) <= 1e-14),
             "%s: sim_volume %.17g = LAMMPS's %.17g (the open axis's given extent)", name,
             sim_volume(&s), k.volume);
    for (int path = 0; path < 4; path++) {
        sim_config x = c;
        const double tol = path == 3 ? 1e-6 : 1e-10; /* mixed: the 1e-6 (pairs in double) */
        x.solver.cull = path != 2;
        x.solver.deterministic = path == 1;
        x.solver.precision = path == 3 ? CFG_PREC_MIXED : CFG_PREC_DOUBLE;
        if (tb_system_eval(&x, &s) != 0) {
            gsl_test(1, "%s, %s: evaluates", name, path_name[path]);
            continue;
        }
        const double ep = rel(s.e_pair, k.e_lj), et = rel(s.e_triplet, k.e_atm);
        const double ef = tb_force_error(s.force, k.f, s.n), ew = tensor_error(s.virial, wl);
        gsl_test(!(ep <= tol && et <= tol && ef <= tol && ew <= tol),
                 "%s, %s: LJ %.2e, ATM %.2e, forces %.2e, virial %.2e against LAMMPS (<= %.0e)",
                 name, path_name[path], ep, et, ef, ew, tol);
        if (path != 0)
            continue;
        /* the pressure tensor (at rest: the virial's) as sim_pressure and the thermo row say */
        double p[7] = {0}, col[8] = {0};
        const int rp = sim_pressure(&s, p), rt = thermo_columns(&s, col);
        const double ptr = (pl[0] + pl[1] + pl[2]) / 3.0;
        gsl_test(!(rp == 0 && tensor_error(p + 1, pl) <= 1e-10 && rel(p[0], ptr) <= 1e-10),
                 "%s: sim_pressure P %.12g (LAMMPS %.12g), tensor err %.2e", name, p[0], ptr,
                 tensor_error(p + 1, pl));
        gsl_test(!(rt == 0 && tensor_error(col + 1, pl) <= 1e-10 && rel(col[0], ptr) <= 1e-10 &&
                   rel(col[7], k.volume) <= 1e-14),
                 "%s: thermo p, pxx..pzz, pxy %.12g pxz %.12g pyz %.12g = LAMMPS's %.12g %.12g "
                 "%.12g (err %.2e), volume %.15g", name, col[4], col[5], col[6], pl[3], pl[4],
                 pl[5], tensor_error(col + 1, pl), col[7]);
        /* and validate's general reference through valsys.h */
        static double ref[3 * MAXN];
        double rp_, rt_, rw[6];
        val_view v;
        if (val_reference_virial(val_system_of(&x, &s, NULL, &v), ref, &rp_, &rt_, rw) != 0)
            continue;
        gsl_test(!(rel(s.e_pair, rp_) <= 1e-12 && rel(s.e_triplet, rt_) <= 1e-12 &&
                   tb_force_error(s.force, ref, s.n) <= 1e-12 && tensor_error(s.virial, rw) <= 1e-12),
                 "%s: lists = validate's reference through valsys (%.2e %.2e %.2e %.2e)", name,
                 rel(s.e_pair, rp_), rel(s.e_triplet, rt_), tb_force_error(s.force, ref, s.n),
                 tensor_error(s.virial, rw));
    }
    sim_state_free(&s);
}

static void test_lammps_cases(void)
{
    static const char *const cases[] = {"mix_ortho", "tri_two", "slab_ppf", "argon_metal"};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        test_lammps_case(cases[i]);
}

/* ---- 2. random two-species states ------------------------------------------------------------ */

/* Two species: LJ (0,0) and (1,1) given with cutoffs rc0, rc1, the cross pair mixed
 * (arithmetic); ATM triplets (0,0,0), (0,1,1), (1,1,1), with (0,0,1) nu 0; ATM cutoff rca. */
static void two_species(sim_config *c, int n, double rc0, double rc1, double rca)
{
    tb_system_config(c, "test_boxes", n, 5, 0.85, 0.0);
    tb_two_species(c, 2.3);
    c->potential.lj.mix = CFG_MIX_ARITHMETIC;
    c->potential.lj.n_pairs = 2;
    c->potential.lj.pairs[0] = (cfg_lj_pair){{0, 0}, 1.07, 0.983, rc0};
    c->potential.lj.pairs[1] = (cfg_lj_pair){{1, 1}, 0.71, 1.12, rc1};
    c->potential.lj.cutoff = rc0;
    c->potential.atm.triplets_given = 1;
    c->potential.atm.n_triplets = 3;
    c->potential.atm.triplets[0] = (cfg_atm_triplet){{0, 0, 0}, 0.0731};
    c->potential.atm.triplets[1] = (cfg_atm_triplet){{0, 1, 1}, 0.118};
    c->potential.atm.triplets[2] = (cfg_atm_triplet){{1, 1, 1}, 0.0562};
    c->potential.atm.cutoff = rca;
    c->solver.skin = 0.3;
}

/* n particles in b's cell (an open z: [zlo, zhi) of q, beyond the given extent) by validate's
 * generator (val_place_box: uniform, none closer than 0.85, types drawn), velocities of about
 * temperature T. */
static int place(sim_state *s, const sim_config *c, const tb_box_d *b, int n, double zlo,
                 double zhi, double T, unsigned long seed)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed);
    if (sim_state_alloc(s, n) != 0) {
        gsl_rng_free(r);
        return -1;
    }
    sim_set_species(s, c);
    const int rc = val_place_box(s, b, n, zlo, zhi, 0.85, seed);
    for (int i = 0; i < 3 * n; i++)
        s->vel[i] = sqrt(3.0 * T / (s->type[i / 3] ? 2.3 : 1.0)) * (2.0 * gsl_rng_uniform(r) - 1.0);
    gsl_rng_free(r);
    return rc;
}

typedef struct gbox {
    const char *name;
    double l[3], tilt[3];
    int per[3];
    int n;
    double frac; /* the largest cutoff as a fraction of half the smallest periodic width */
} gbox;

static const gbox boxes[] = {
    {"triclinic, tilts at half the edges", {9.0, 8.0, 7.5}, {4.5, -3.75, 4.0}, {1, 1, 1}, 150, 0.97},
    {"triclinic, several cells per axis", {16.0, 14.5, 13.0}, {6.5, -5.5, 5.0}, {1, 1, 1}, 500, 0.30},
    {"orthorhombic, elongated", {13.0, 7.2, 9.5}, {0, 0, 0}, {1, 1, 1}, 200, 0.97},
    {"ppf slab", {8.5, 9.0, 6.0}, {0, 0, 0}, {1, 1, 0}, 160, 0.97},
    {"ppf slab, tilted in xy", {8.5, 9.0, 6.0}, {3.5, 0, 0}, {1, 1, 0}, 160, 0.97},
    {"ppf slab, several cells", {15.0, 14.0, 6.0}, {0, 0, 0}, {1, 1, 0}, 300, 0.45},
};

static int make_box_state(const gbox *g, sim_config *c, sim_state *s, double T, unsigned long seed)
{
    const double lo[3] = {-1.25, 0.5, -2.0};
    const tb_box_d b = box_make_d(g->l, g->tilt[0], g->tilt[1], g->tilt[2], lo, g->per);
    const double h = box_half_width_d(&b), rmax = g->frac * h;
    two_species(c, g->n, 0.8 * rmax, rmax, 0.93 * rmax);
    config_box(c, &b);
    return place(s, c, &b, g->n, -1.5, g->l[2] + 1.5, T, seed);
}

/* One box: lists (double, deterministic) and the all-triplets maps against the reference. */
static void test_box_paths(const gbox *g)
{
    static double ref[3 * NB];
    sim_config c;
    sim_state s;
    double ep, et, w[6];
    val_view v;
    if (make_box_state(g, &c, &s, 0.0, 77) != 0) {
        gsl_test(1, "%s: state", g->name);
        return;
    }
    if (val_reference_virial(val_system_of(&c, &s, NULL, &v), ref, &ep, &et, w) != 0 || !(et != 0.0)) {
        gsl_test(1, "%s: reference (triplet energy %g)", g->name, et);
        sim_state_free(&s);
        return;
    }
    for (int path = 0; path < 3; path++) {
        sim_config x = c;
        x.solver.cull = path != 2;
        x.solver.deterministic = path == 1;
        if (tb_system_eval(&x, &s) != 0) {
            gsl_test(1, "%s, %s: evaluates", g->name, path_name[path]);
            continue;
        }
        const double e1 = rel(s.e_pair, ep), e2 = rel(s.e_triplet, et);
        const double ef = tb_force_error(s.force, ref, s.n), ew = tensor_error(s.virial, w);
        gsl_test(!(e1 <= 1e-12 && e2 <= 1e-12 && ef <= 1e-12 && ew <= 1e-12),
                 "%s (n %d, cutoffs up to %.3g of half the width), %s: pair %.2e, triplet %.2e, "
                 "forces %.2e, virial %.2e <= 1e-12", g->name, g->n, g->frac, path_name[path], e1,
                 e2, ef, ew);
    }
    sim_state_free(&s);
}

/* The lists' cells: every partner within R that comes after the anchor (minimum image,
 * brute force) is in its row, in a box where the cells cull. */
static void test_cells(const gbox *g)
{
    sim_config c;
    sim_state s;
    nbr_list l;
    pot_params pp;
    if (make_box_state(g, &c, &s, 0.0, 78) != 0) {
        gsl_test(1, "%s: state", g->name);
        return;
    }
    pot_params_init_box(&pp, &c, &s.box);
    const double R = nbr_radius(&c, &pp);
    long long missing = 0, extra = 0, want = 0;
    if (nbr_list_init(&l, s.n, &s.box, R, c.solver.skin) != 0 || nbr_list_build(&l, s.pos) != 0) {
        gsl_test(1, "%s: list build", g->name);
        sim_state_free(&s);
        return;
    }
    for (int i = 0; i < s.n; i++) {
        const int *row = nbr_list_row(&l, i), m = l.off[i + 1] - l.off[i];
        for (int t = 0; t < s.n; t++) {
            double d[3] = {s.pos[3 * t] - s.pos[3 * i], s.pos[3 * t + 1] - s.pos[3 * i + 1],
                           s.pos[3 * t + 2] - s.pos[3 * i + 2]};
            box_min_image_d(&s.box, d);
            const double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
            int in = 0;
            for (int q = 0; q < m; q++)
                in |= row[q] == t;
            if (t != i && r2 <= R * R && d[0] >= -c.solver.skin) {
                want++;
                missing += !in;
            } else
                extra += in;
        }
    }
    const long long cells = (long long)l.g.nc[0] * l.g.nc[1] * l.g.nc[2];
    gsl_test(!(missing == 0 && extra == 0 && want > s.n),
             "%s: cells %d x %d x %d: %lld of %lld partners within R = %.3g missing, %lld extra",
             g->name, l.g.nc[0], l.g.nc[1], l.g.nc[2], missing, want, R, extra);
    if (g->frac < 0.5) /* the boxes meant to cull: at least 3 cells along each periodic axis */
        gsl_test(!(cells >= 27 && l.g.nc[0] >= 3 && l.g.nc[1] >= 3),
                 "%s: the grid culls (%d x %d x %d cells)", g->name, l.g.nc[0], l.g.nc[1], l.g.nc[2]);
    nbr_list_free(&l);
    sim_state_free(&s);
}

/* Forces of the lists = -dE/dx by central differences (h = 1e-5; truncation ~1e-10, rounding
 * ~1e-11 relative; no cutoff crossed within h at these positions, which the error shows). */
static void test_fd(const gbox *g)
{
    static double f[3 * NB];
    sim_config c;
    sim_state s;
    if (make_box_state(g, &c, &s, 0.0, 79) != 0) {
        gsl_test(1, "%s: state", g->name);
        return;
    }
    c.solver.cull = 1;
    tb_system_eval(&c, &s);
    memcpy(f, s.force, 3 * (size_t)s.n * sizeof *f);
    const double h = 1e-5;
    double num = 0.0, den = 0.0;
    for (int k = 0; k < 3 * s.n; k += 7) {
        const double x = s.pos[k];
        s.pos[k] = x + h;
        tb_system_eval(&c, &s);
        const double ep = s.e_pair + s.e_triplet;
        s.pos[k] = x - h;
        tb_system_eval(&c, &s);
        const double em = s.e_pair + s.e_triplet;
        s.pos[k] = x;
        num = fmax(num, fabs(-(ep - em) / (2 * h) - f[k]));
        den = fmax(den, fabs(f[k]));
    }
    gsl_test(!(num / den <= 1e-6), "%s, lists: forces = -dE/dx by central differences (%.1e)",
             g->name, num / den);
    sim_state_free(&s);
}

static void test_random_boxes(void)
{
    for (size_t i = 0; i < sizeof boxes / sizeof *boxes; i++) {
        test_box_paths(&boxes[i]);
        test_cells(&boxes[i]);
    }
    test_fd(&boxes[0]);
    test_fd(&boxes[4]);
}

/* ---- 3. runs ---------------------------------------------------------------------------------- */

static int run(const sim_config *c, sim_state *s, long steps, backend_info *in)
{
    backend *b = NULL;
    int rc = cpu_backend_ops.create(&b, c, s);
    if (rc == 0)
        rc = cpu_backend_ops.compute(b) || cpu_backend_ops.advance(b, steps) ||
             cpu_backend_ops.fetch(b, s) || cpu_backend_ops.info(b, in, 0);
    cpu_backend_ops.destroy(b);
    return rc;
}

static void test_run(const gbox *g)
{
    static double ref[3 * NB];
    sim_config c;
    sim_state s, t, u;
    backend_info in, in2, in3;
    val_view v;
    double ep, et;
    if (make_box_state(g, &c, &s, 2.0, 80) != 0 || make_box_state(g, &c, &t, 2.0, 80) != 0 ||
        make_box_state(g, &c, &u, 2.0, 80) != 0) {
        gsl_test(1, "%s: state", g->name);
        return;
    }
    double *x0 = malloc(3 * (size_t)s.n * sizeof *x0);
    memcpy(x0, s.pos, 3 * (size_t)s.n * sizeof *x0);
    c.solver.cull = 1;
    c.integrator.dt = 0.004;
    c.solver.skin = 0.25;
    const int r1 = run(&c, &s, 150, &in);
    c.solver.skin = 0.8;
    const int r2 = run(&c, &t, 150, &in2);
    c.solver.skin = 0.0;
    const int r3 = run(&c, &u, 150, &in3);
    /* crossings: a periodic fraction that jumped by more than a half; open z never wrapped */
    int crossed = 0, outside = 0, zmoved_far = 0;
    for (int i = 0; i < s.n; i++) {
        double f0[3], f1[3];
        box_fraction_d(&s.box, x0 + 3 * i, f0);
        box_fraction_d(&s.box, s.pos + 3 * i, f1);
        for (int a = 0; a < 3; a++)
            if (s.box.pbc >> a & 1) {
                crossed += fabs(f1[a] - f0[a]) > 0.5;
                outside += f1[a] < -1e-12 || f1[a] > 1.0 + 1e-12;
            }
        if (!(s.box.pbc & 4))
            zmoved_far += fabs(s.pos[3 * i + 2] - x0[3 * i + 2]) > 0.5 * s.box.l[2];
    }
    val_reference(val_system_of(&c, &s, NULL, &v), ref, &ep, &et);
    gsl_test(!(r1 == 0 && in.builds >= 3 && crossed > 0 && outside == 0 && zmoved_far == 0 &&
               rel(s.e_pair, ep) <= 1e-12 && rel(s.e_triplet, et) <= 1e-12 &&
               tb_force_error(s.force, ref, s.n) <= 1e-12),
             "%s: 150 steps, %lld builds, %d crossings, %d outside the cell, %d far in open z, "
             "end forces = reference (%.2e)", g->name, in.builds, crossed, outside, zmoved_far,
             tb_force_error(s.force, ref, s.n));
    const size_t bytes = 3 * (size_t)s.n * sizeof *s.pos;
    gsl_test(!(r2 == 0 && r3 == 0 && !memcmp(s.pos, t.pos, bytes) && !memcmp(s.pos, u.pos, bytes) &&
               !memcmp(s.vel, u.vel, bytes) && in2.builds < in.builds && in3.builds == 151),
             "%s: the skin changes only the rebuilds (bitwise): %lld builds at skin 0.8, %lld at "
             "0.25, %lld at 0", g->name, in2.builds, in.builds, in3.builds);
    free(x0);
    sim_state_free(&s);
    sim_state_free(&t);
    sim_state_free(&u);
}

static void test_runs(void)
{
    test_run(&boxes[0]);
    test_run(&boxes[4]);
}

int main(void)
{
    tb_test_init();
    TB_TEST_RUN(test_lammps_cases);
    TB_TEST_RUN(test_random_boxes);
    TB_TEST_RUN(test_runs);
    return tb_test_done();
}
