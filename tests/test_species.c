/* test_species.c — several species on the CPU: the per-species tables of the potential unit
 * (LAMMPS's mixing rules by hand, nu per triplet, the one-species scalars), the typed tiles and
 * neighbour-list triangles of the CPU backend against validate/'s independent reference (every
 * map, the lists, open and periodic boundaries; energies, forces and virial), the typed bodies
 * with one species against the one-species path, nu = 0 removing exactly its triplets (by hand
 * on an equilateral triangle), and finite differences of the typed energy. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "config/config.h"
#include "maps3d/map2d.h"
#include "maps3d/map3d.h"
#include "solver/backend.h"
#include "solver/cpu/tile_simd.h"
#include "solver/io/init.h"
#include "solver/physics/potential.h"
#include "validate/reference.h"
#include "tests/tb_system.h"
#include "tests/tb_test.h"

#define NMAX 128

/* ---- configurations ----------------------------------------------------------------------- */

/* nt species with distinct LJ coefficients: the diagonal pairs given (species 2's cutoff left
 * to the shorthand), with three species the pair (0, 1) given, the others mixed by `mix`; ATM: nu per triplet for
 * a few triplets (the others 0), or (all_nu) the shorthand nu for every triplet. */
static void species_config(sim_config *c, int n, int nt, int periodic, int mix, int all_nu)
{
    static const double eps[3] = {1.07, 0.62, 1.53}, sig[3] = {0.983, 1.11, 0.91};
    static const double rc[3] = {2.7, 3.1, 0.0};
    tb_system_config(c, "test_species", n, 11 + (unsigned long)nt, 0.9, 0.0);
    c->system.n_species = nt;
    c->system.species_given = 1;
    for (int t = 0; t < nt; t++) {
        snprintf(c->system.species[t].name, sizeof c->system.species[t].name, "S%d", t);
        c->system.species[t].mass = 1.0;
    }
    c->potential.lj.cutoff = 2.4; /* the shorthand cutoff: species 2's */
    c->potential.lj.mix = mix;
    c->potential.lj.n_pairs = 0;
    for (int t = 0; t < nt; t++) {
        cfg_lj_pair *p = &c->potential.lj.pairs[c->potential.lj.n_pairs++];
        p->t[0] = p->t[1] = t;
        p->epsilon = eps[t];
        p->sigma = sig[t];
        p->cutoff = rc[t];
    }
    if (nt == 3) { /* (0, 1) given; with two species it is mixed */
        cfg_lj_pair *p = &c->potential.lj.pairs[c->potential.lj.n_pairs++];
        p->t[0] = 0;
        p->t[1] = 1;
        p->epsilon = 0.77;
        p->sigma = 1.21;
        p->cutoff = 2.9;
    }
    c->potential.atm.nu = 0.0731;
    c->potential.atm.triplets_given = !all_nu;
    c->potential.atm.n_triplets = 0;
    if (!all_nu) {
        static const int tr[5][3] = {{0, 0, 0}, {0, 0, 1}, {0, 1, 2}, {1, 1, 1}, {0, 2, 2}};
        static const double nu[5] = {0.0731, 0.041, 0.118, 0.0, 0.0562};
        for (int q = 0; q < 5; q++) {
            if (tr[q][2] >= nt)
                continue;
            cfg_atm_triplet *e = &c->potential.atm.triplets[c->potential.atm.n_triplets++];
            memcpy(e->t, tr[q], sizeof e->t);
            e->nu = nu[q];
        }
    }
    if (periodic) {
        c->system.boundary = CFG_BOUNDARY_PERIODIC;
        c->system.box = 7.0;                    /* cutoffs up to 3.1 < L/2 */
        c->potential.atm.cutoff = 0.25 * 7.0;   /* the config's default */
        c->system.init.min_distance = 0.8;
    } else {
        c->system.boundary = CFG_BOUNDARY_OPEN;
        c->system.box = 0.0;
        c->potential.atm.cutoff = 0.0;
        c->system.init.radius = 0.0;
    }
    c->solver.cull = 0;
    c->solver.skin = 0.3;
}

/* Deterministic species: a mix of all nt with every one present. */
static void set_types(sim_state *s, int nt, unsigned seed)
{
    unsigned x = seed * 2654435761u + 12345u;
    for (int i = 0; i < s->n; i++) {
        x = x * 1664525u + 1013904223u;
        s->type[i] = i < nt ? i : (int)((x >> 16) % (unsigned)nt);
    }
    s->ntypes = nt;
}

/* ---- the reference's view: its own tables, from the configuration's numbers ---------------- */

typedef struct ref_tabs {
    double eps[9], sig[9], rc[9], nu[27];
} ref_tabs;

/* LJ tables of stride nt: given pairs as they are, the diagonal ones' cutoff 0 = the
 * shorthand, the rest mixed by validate's val_lj_mix (an independent implementation); nu per
 * triplet from the list (every order), the others 0, or the shorthand for all. */
static void ref_system(const sim_config *c, const sim_state *s, val_system *v, ref_tabs *t)
{
    const int nt = c->system.n_species;
    unsigned char given[9] = {0};
    memset(v, 0, sizeof *v);
    memset(t, 0, sizeof *t);
    v->n = s->n;
    v->pos = s->pos;
    v->box = s->box.pbc ? s->box.l[0] : 0.0; /* validate knows cubes (valsys.h) */
    v->atm_cutoff = c->potential.atm.cutoff;
    v->atm_cutoff_triple = c->potential.atm.cutoff_triple;
    v->lj = c->potential.lj.enabled;
    v->lj_shift = c->potential.lj.shift;
    for (int q = 0; q < c->potential.lj.n_pairs; q++) {
        const cfg_lj_pair *p = &c->potential.lj.pairs[q];
        const int ab = p->t[0] * nt + p->t[1], ba = p->t[1] * nt + p->t[0];
        t->eps[ab] = t->eps[ba] = p->epsilon;
        t->sig[ab] = t->sig[ba] = p->sigma;
        t->rc[ab] = t->rc[ba] = p->cutoff > 0 ? p->cutoff : c->potential.lj.cutoff;
        given[ab] = given[ba] = 1;
    }
    val_lj_mix(nt, given, c->potential.lj.mix == CFG_MIX_ARITHMETIC, t->eps, t->sig, t->rc);
    for (int a = 0; a < nt * nt * nt; a++)
        t->nu[a] = c->potential.atm.triplets_given ? 0.0 : c->potential.atm.nu;
    for (int q = 0; q < c->potential.atm.n_triplets && c->potential.atm.triplets_given; q++) {
        const int *x = c->potential.atm.triplets[q].t;
        const int o[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
        for (int p = 0; p < 6; p++)
            t->nu[(x[o[p][0]] * nt + x[o[p][1]]) * nt + x[o[p][2]]] = c->potential.atm.triplets[q].nu;
    }
    v->n_types = nt;
    v->type = s->type;
    v->lj_eps = t->eps;
    v->lj_sigma = t->sig;
    v->lj_rc = t->rc;
    v->nu_t = t->nu;
}

/* Largest component error of the virial over its largest component. */
static double virial_error(const double *w, const double *r)
{
    double num = 0.0, den = 0.0;
    for (int k = 0; k < 6; k++) {
        num = fmax(num, fabs(w[k] - r[k]));
        den = fmax(den, fabs(r[k]));
    }
    return num / den;
}

static double rel(double a, double b)
{
    return fabs(a - b) / fmax(fabs(b), 1e-300);
}

/* The backend on s (types set) under c against the reference: energies each, forces, virial. */
static void compare(const char *what, const sim_config *c, sim_state *s, double tol)
{
    static double ref[3 * NMAX];
    double ep, et, w[6];
    val_system v;
    ref_tabs t;
    ref_system(c, s, &v, &t);
    if (val_reference_virial(&v, ref, &ep, &et, w) != 0 || tb_system_eval(c, s) != 0) {
        gsl_test(1, "%s: ran", what);
        return;
    }
    const double ferr = tb_force_error(s->force, ref, s->n), werr = virial_error(s->virial, w);
    gsl_test(!(rel(s->e_pair, ep) <= tol && rel(s->e_triplet, et) <= tol && ferr <= tol &&
               werr <= tol && et != 0.0 && ep != 0.0),
             "%s: pair %.2e, triplet %.2e, force %.2e, virial %.2e <= %.0e", what,
             rel(s->e_pair, ep), rel(s->e_triplet, et), ferr, werr, tol);
}

/* ---- the tables ---------------------------------------------------------------------------- */

static double lj_at(double eps, double sig, double r)
{
    const double s6 = pow(sig / r, 6);
    return 4 * eps * (s6 * s6 - s6);
}

static void test_tables(void)
{
    sim_config c;
    pot_params p;
    /* geometric (LAMMPS's default): (0, 2) and (1, 2) mixed, (0, 1) given; species 2 takes the
     * shorthand cutoff 2.4 */
    species_config(&c, 10, 3, 0, CFG_MIX_GEOMETRIC, 0);
    pot_params_init(&p, &c);
    const pot_lj_pair_d *l = p.tab_d.lj;
    gsl_test_rel(l[POT_PAIR(0, 2)].eps4, 4 * sqrt(1.07 * 1.53), 1e-15, "geometric eps_02 = sqrt(eps_0 eps_2)");
    gsl_test_rel(l[POT_PAIR(0, 2)].sig2, 0.983 * 0.91, 1e-15, "geometric sigma_02^2 = sigma_0 sigma_2");
    gsl_test_rel(l[POT_PAIR(0, 2)].rc2, 2.7 * 2.4, 1e-15, "geometric rc_02^2 = rc_0 rc_2 (rc_2 the shorthand 2.4)");
    gsl_test_rel(l[POT_PAIR(1, 2)].rc2, 3.1 * 2.4, 1e-15, "geometric rc_12^2 = rc_1 rc_2");
    gsl_test_rel(l[POT_PAIR(0, 1)].eps4, 4 * 0.77, 1e-15, "a pair given is not mixed (eps)");
    gsl_test_rel(l[POT_PAIR(1, 0)].sig2, 1.21 * 1.21, 1e-15, "a pair given is not mixed (sigma, other order)");
    gsl_test_rel(l[POT_PAIR(1, 0)].rc2, 2.9 * 2.9, 1e-15, "a pair given keeps its cutoff");
    gsl_test_rel(l[POT_PAIR(2, 2)].rc2, 2.4 * 2.4, 1e-15, "a diagonal pair of cutoff 0 takes potential.lj.cutoff");
    gsl_test_rel(l[POT_PAIR(1, 2)].eshift, lj_at(sqrt(0.62 * 1.53), sqrt(1.11 * 0.91), sqrt(3.1 * 2.4)), 1e-13,
                 "shift of a mixed pair: its energy at its own cutoff");
    int sym = 1;
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            sym &= !memcmp(&l[POT_PAIR(a, b)], &l[POT_PAIR(b, a)], sizeof *l);
    gsl_test(!sym, "LJ table symmetric (both orders filled)");
    gsl_test(!(p.d.lj_rc2 == 3.1 * 3.1 && p.d.ntypes == 3 && p.f.ntypes == 3),
             "several species: lj_rc2 the largest rc^2 (%g), ntypes 3", p.d.lj_rc2);
    /* arithmetic */
    species_config(&c, 10, 3, 0, CFG_MIX_ARITHMETIC, 0);
    pot_params_init(&p, &c);
    gsl_test_rel(l[POT_PAIR(0, 2)].eps4, 4 * sqrt(1.07 * 1.53), 1e-15, "arithmetic eps_02 = sqrt(eps_0 eps_2)");
    gsl_test_rel(l[POT_PAIR(2, 0)].sig2, pow(0.5 * (0.983 + 0.91), 2), 1e-15, "arithmetic sigma_02 = (sigma_0 + sigma_2)/2");
    gsl_test_rel(l[POT_PAIR(1, 2)].rc2, pow(0.5 * (3.1 + 2.4), 2), 1e-15, "arithmetic rc_12 = (rc_1 + rc_2)/2");
    /* the LJ shift off: no shift anywhere */
    c.potential.lj.shift = 0;
    pot_params_init(&p, &c);
    gsl_test(!(l[POT_PAIR(1, 2)].eshift == 0.0 && l[POT_PAIR(0, 0)].eshift == 0.0), "shift off: eshift 0");
    /* ATM: every order of a triplet given, the others 0, float rounded from double */
    species_config(&c, 10, 3, 0, CFG_MIX_GEOMETRIC, 0);
    pot_params_init(&p, &c);
    const int o[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    int perm = 1;
    for (int q = 0; q < 6; q++)
        perm &= p.tab_d.nu[POT_TRIPLET(o[q][0], o[q][1], o[q][2])] == 0.118;
    gsl_test(!perm, "nu of (0, 1, 2) in all six orders");
    gsl_test(!(p.tab_d.nu[POT_TRIPLET(1, 0, 0)] == 0.041 && p.tab_d.nu[POT_TRIPLET(2, 2, 0)] == 0.0562 &&
               p.tab_d.nu[POT_TRIPLET(1, 1, 2)] == 0.0 && p.tab_d.nu[POT_TRIPLET(1, 1, 1)] == 0.0),
             "nu of the triplets given, 0 for the others");
    gsl_test(!(p.atm_on && p.d.nu == 0.118), "several species: atm on, scalar nu the largest (%g)", p.d.nu);
    int rounded = 1;
    for (int k = 0; k < TB_TYPES_MAX * TB_TYPES_MAX * TB_TYPES_MAX; k++)
        rounded &= p.tab_f.nu[k] == (float)p.tab_d.nu[k];
    for (int k = 0; k < TB_TYPES_MAX * TB_TYPES_MAX; k++)
        rounded &= p.tab_f.lj[k].eps4 == (float)l[k].eps4 && p.tab_f.lj[k].rc2 == (float)l[k].rc2 &&
                   p.tab_f.lj[k].sig2 == (float)l[k].sig2 && p.tab_f.lj[k].eshift == (float)l[k].eshift;
    gsl_test(!rounded, "float tables rounded from the double ones");
    gsl_test(!(p.d.tab == &p.tab_d && p.f.tab == &p.tab_f), "tab pointers at the params' own tables");
    /* every nu given is 0: the term is off */
    for (int q = 0; q < c.potential.atm.n_triplets; q++)
        c.potential.atm.triplets[q].nu = 0.0;
    pot_params_init(&p, &c);
    gsl_test(p.atm_on || pot_atm_on(&c), "every nu 0: ATM off");
    /* no triplets given: the shorthand nu for all */
    species_config(&c, 10, 2, 0, CFG_MIX_GEOMETRIC, 1);
    pot_params_init(&p, &c);
    gsl_test(!(p.tab_d.nu[POT_TRIPLET(1, 0, 1)] == 0.0731 && p.tab_d.nu[POT_TRIPLET(0, 0, 0)] == 0.0731),
             "no potential.atm.triplets: potential.atm.nu for every triplet");
}

/* One species: the scalars are the expressions of before the species, bit for bit, and the
 * tables hold them at index 0. */
static void test_one_species(void)
{
    sim_config c;
    pot_params p;
    tb_system_config(&c, "test_species", 10, 1, 0.9, 0.0);
    c.system.boundary = CFG_BOUNDARY_PERIODIC;
    c.system.box = 9.0;
    c.potential.atm.cutoff = 2.0;
    c.potential.atm.cutoff_triple = 1.9;
    pot_params_init(&p, &c);
    const double rc = c.potential.lj.cutoff, e = c.potential.lj.epsilon, sg = c.potential.lj.sigma;
    const double s6 = (sg / rc) * (sg / rc) * (sg / rc) * (sg / rc) * (sg / rc) * (sg / rc);
    const double shift = 4.0 * e * (s6 * s6 - s6);
    gsl_test(!(p.d.ntypes == 1 && p.d.nu == c.potential.atm.nu && p.d.atm_rc2 == 2.0 * 2.0 &&
               p.d.atm_rct6 == pow(1.9, 6) && p.d.lj_eps4 == 4.0 * e && p.d.lj_sig2 == sg * sg &&
               p.d.lj_rc2 == rc * rc && p.d.lj_eshift == shift && p.atm_on && p.lj_on && p.periodic),
             "one species: the scalars of before, bit for bit");
    gsl_test(!(p.f.nu == (float)p.d.nu && p.f.lj_eps4 == (float)p.d.lj_eps4 &&
               p.f.lj_eshift == (float)p.d.lj_eshift && p.f.atm_rc2 == (float)p.d.atm_rc2),
             "one species: float scalars rounded from double");
    gsl_test(!(p.tab_d.lj[0].eps4 == p.d.lj_eps4 && p.tab_d.lj[0].sig2 == p.d.lj_sig2 &&
               p.tab_d.lj[0].rc2 == p.d.lj_rc2 && p.tab_d.lj[0].eshift == p.d.lj_eshift &&
               p.tab_d.nu[0] == p.d.nu),
             "one species: table entry 0 = the scalars");
    /* one species with its pair and its triplet given: their values */
    c.potential.lj.n_pairs = 1;
    c.potential.lj.pairs[0] = (cfg_lj_pair){{0, 0}, 0.5, 1.5, 3.0};
    c.potential.atm.triplets_given = 1;
    c.potential.atm.n_triplets = 1;
    c.potential.atm.triplets[0] = (cfg_atm_triplet){{0, 0, 0}, 0.02};
    pot_params_init(&p, &c);
    gsl_test(!(p.d.lj_eps4 == 2.0 && p.d.lj_sig2 == 2.25 && p.d.lj_rc2 == 9.0 && p.d.nu == 0.02),
             "one species given as a pair and a triplet: their coefficients");
    /* the ATM cutoff in effect and its periodic default */
    tb_box_d box = box_cube_d(12.0), open = box_cube_d(0.0);
    c.potential.atm.cutoff = 0.0;
    gsl_test(!(pot_atm_cutoff_default(&box) == 3.0 && pot_atm_cutoff(&c, &box) == 3.0 &&
               pot_atm_cutoff(&c, &open) == 0.0 && pot_atm_cutoff_default(&open) == 0.0),
             "ATM cutoff: L/4 of a periodic cube when not given, none when open");
    c.potential.atm.cutoff = 2.5;
    gsl_test(pot_atm_cutoff(&c, &box) != 2.5, "ATM cutoff: the one given");
}

/* The registry and the ranges. */
static void test_unit(void)
{
    sim_config c;
    species_config(&c, 10, 3, 1, CFG_MIX_GEOMETRIC, 0);
    const tb_box_d box = cfg_box(&c);
    const pot_term *lj = pot_term_find("lj"), *atm = pot_term_find("atm"), *sw = pot_term_find("sw");
    const char *what;
    int all_cut;
    double r;
    gsl_test(!(lj && atm && lj->body == POT_BODY_PAIR && atm->body == POT_BODY_TRIPLET &&
               pot_terms[POT_TERM_lj] == lj && pot_terms[POT_TERM_atm] == atm &&
               sw && sw->body == POT_BODY_CENTRED && pot_terms[POT_TERM_sw] == sw &&
               pot_terms[POT_NTERMS] == NULL && !pot_term_find("tersoff") && !sw->on(&c)),
             "registry: lj (pair), atm (triplet), sw (centred, off here), in terms.def's order");
    gsl_test(!(pot_range(&c, &box, &all_cut) == 3.1 && all_cut), "range: the largest species pair cutoff, 3.1 (got %g)",
             pot_range(&c, &box, &all_cut));
    r = pot_range_min(&c, &box, &what);
    gsl_test(!(r == 1.75 && what && !strcmp(what, "potential.atm.cutoff")),
             "shortest range: ATM's L/4 = 1.75 (got %g, %s)", r, what ? what : "-");
    c.potential.atm.cutoff = 3.5;
    r = pot_range_min(&c, &box, &what);
    gsl_test(!(r == 2.4 && what && !strcmp(what, "potential.lj.pairs")),
             "shortest range: the smallest pair cutoff, 2.4 (got %g)", r);
    gsl_test(!(pot_widest(&c, &box, &r) == atm && r == 3.5), "widest term: atm at 3.5");
    species_config(&c, 10, 3, 0, CFG_MIX_GEOMETRIC, 0);
    const tb_box_d ob = cfg_box(&c);
    pot_range(&c, &ob, &all_cut);
    gsl_test(all_cut, "open cluster, ATM without a cutoff: not every term is cut");
    c.potential.lj.enabled = 0;
    c.potential.atm.triplets_given = 1;
    c.potential.atm.n_triplets = 0;
    pot_range(&c, &ob, &all_cut);
    gsl_test(all_cut || pot_widest(&c, &ob, &r) != NULL, "no term on: no range, no widest term");
}

/* ---- the backend against the reference ----------------------------------------------------- */

static void test_backend(void)
{
    sim_config c;
    sim_state s;
    char what[256];
    for (int nt = 2; nt <= 3; nt++)
        for (int per = 0; per < 2; per++)
            for (int mix = 0; mix < 2; mix++) {
                species_config(&c, per ? 110 : 41, nt, per, mix, 0);
                if (sim_init(&s, &c) != 0) {
                    gsl_test(1, "initial state");
                    continue;
                }
                set_types(&s, nt, (unsigned)(nt + 3 * per));
                for (int m = 0; map3d_all[m]; m++) {
                    sim_config x = c;
                    snprintf(x.solver.map, sizeof x.solver.map, "%s", map3d_all[m]->name);
                    snprintf(x.solver.map2d, sizeof x.solver.map2d, "%s",
                             map2d_all[m % 5] ? map2d_all[m % 5]->name : "lambda2d");
                    x.solver.tile = m == 0 ? 5 : 8;
                    snprintf(what, sizeof what, "%d species, %s, %s mix, maps %s+%s, double", nt,
                             per ? "periodic" : "open", mix ? "arithmetic" : "geometric",
                             x.solver.map, x.solver.map2d);
                    compare(what, &x, &s, 1e-12);
                }
                if (per) { /* the neighbour lists (every term has a cutoff) */
                    sim_config x = c;
                    x.solver.cull = 1;
                    snprintf(what, sizeof what, "%d species, periodic, %s mix, lists, double", nt,
                             mix ? "arithmetic" : "geometric");
                    compare(what, &x, &s, 1e-12);
                    x.solver.deterministic = 1;
                    snprintf(what, sizeof what, "%d species, periodic, %s mix, lists, deterministic",
                             nt, mix ? "arithmetic" : "geometric");
                    compare(what, &x, &s, 1e-12);
                } else { /* an open cluster with an ATM cutoff, through the lists */
                    sim_config x = c;
                    x.solver.cull = 1;
                    x.potential.atm.cutoff = 2.2;
                    snprintf(what, sizeof what, "%d species, open, %s mix, ATM cutoff 2.2, lists, double",
                             nt, mix ? "arithmetic" : "geometric");
                    compare(what, &x, &s, 1e-12);
                    x.solver.cull = 0;
                    snprintf(what, sizeof what, "%d species, open, %s mix, ATM cutoff 2.2, lambda, double",
                             nt, mix ? "arithmetic" : "geometric");
                    compare(what, &x, &s, 1e-12);
                }
                /* float arithmetic (tolerances of test_solver.c) and the deterministic sums */
                for (int cull = 0; cull <= per; cull++)
                    for (int p = 1; p < 3; p++) {
                        sim_config x = c;
                        x.solver.cull = cull;
                        x.solver.precision = p;
                        snprintf(what, sizeof what, "%d species, %s, %s mix, %s, %s", nt,
                                 per ? "periodic" : "open", mix ? "arithmetic" : "geometric",
                                 cull ? "lists" : "maps", cfg_precision_name(p));
                        compare(what, &x, &s, p == 1 ? 1e-5 : 1e-3);
                    }
                sim_config x = c;
                x.solver.deterministic = 1;
                snprintf(what, sizeof what, "%d species, %s, %s mix, maps, deterministic", nt,
                         per ? "periodic" : "open", mix ? "arithmetic" : "geometric");
                compare(what, &x, &s, 1e-12);
                sim_state_free(&s);
            }
    /* each term alone, and the shorthand nu for all triplets, 3 species, periodic */
    for (int k = 0; k < 3; k++) {
        species_config(&c, 110, 3, 1, CFG_MIX_GEOMETRIC, k == 2);
        if (k == 0)
            c.potential.lj.enabled = 0;
        if (k == 1)
            c.potential.atm.n_triplets = 0; /* triplets given, none: ATM off */
        if (sim_init(&s, &c) != 0)
            continue;
        set_types(&s, 3, 5);
        static const char *name[3] = {"ATM alone", "LJ alone", "shorthand nu"};
        for (int cull = 0; cull < 2; cull++) {
            sim_config x = c;
            x.solver.cull = cull;
            snprintf(what, sizeof what, "3 species, periodic, %s, %s", name[k], cull ? "lists" : "maps");
            if (k == 1) { /* e_triplet is 0 here: compare() wants both terms */
                static double ref[3 * NMAX];
                double ep, et, w[6];
                val_system v;
                ref_tabs t;
                ref_system(&x, &s, &v, &t);
                val_reference_virial(&v, ref, &ep, &et, w);
                tb_system_eval(&x, &s);
                gsl_test(!(rel(s.e_pair, ep) <= 1e-12 && s.e_triplet == 0.0 && et == 0.0 &&
                           tb_force_error(s.force, ref, s.n) <= 1e-12 &&
                           virial_error(s.virial, w) <= 1e-12),
                         "%s: pair %.2e, no triplet term", what, rel(s.e_pair, ep));
            } else if (k == 0) {
                static double ref[3 * NMAX];
                double ep, et, w[6];
                val_system v;
                ref_tabs t;
                ref_system(&x, &s, &v, &t);
                val_reference_virial(&v, ref, &ep, &et, w);
                tb_system_eval(&x, &s);
                gsl_test(!(rel(s.e_triplet, et) <= 1e-12 && s.e_pair == 0.0 &&
                           tb_force_error(s.force, ref, s.n) <= 1e-12 &&
                           virial_error(s.virial, w) <= 1e-12 && et != 0.0),
                         "%s: triplet %.2e, no pair term", what, rel(s.e_triplet, et));
            } else {
                compare(what, &x, &s, 1e-12);
            }
        }
        sim_state_free(&s);
    }
}

/* A particle of a species the configuration does not have: refused at creation. */
static void test_type_range(void)
{
    sim_config c;
    sim_state s;
    backend *b = NULL;
    species_config(&c, 10, 2, 0, CFG_MIX_GEOMETRIC, 0);
    if (sim_init(&s, &c) != 0)
        return;
    s.type[3] = 2;
    char err[512];
    tb_test_capture_begin();
    const int rc = cpu_backend_ops.create(&b, &c, &s);
    tb_test_capture_end(err, sizeof err);
    gsl_test(!(rc == TB_EXIT_USAGE && b == NULL && strstr(err, "particle 3 is of species 2")),
             "a particle of a species beyond system.species is refused (%s)", tb_test_first_line(err));
    sim_state_free(&s);
}

/* ---- one species through the typed path ---------------------------------------------------- */

/* Two species alike (no pairs or triplets given: the shorthand for all) run the typed tiles
 * and triangles; they must give the one-species results, to rounding (nu is applied per lane
 * there, once at the end here). And the typed tile with a one-species table against the
 * one-species tile directly. */
static void test_typed_equals_scalar(void)
{
    sim_config c1, c2;
    sim_state s1, s2;
    char what[128];
    for (int per = 0; per < 2; per++) {
        species_config(&c2, 50, 2, per, CFG_MIX_GEOMETRIC, 1);
        c2.potential.lj.n_pairs = 0;
        c1 = c2;
        c1.system.n_species = 1;
        c1.system.species_given = 0;
        if (sim_init(&s1, &c1) != 0 || sim_init(&s2, &c2) != 0)
            continue;
        set_types(&s2, 2, 9);
        for (int cull = 0; cull <= per; cull++)
            for (int p = 0; p < 3; p++) {
                static const double tol[3] = {1e-13, 1e-6, 1e-4};
                c1.solver.cull = c2.solver.cull = cull;
                c1.solver.precision = c2.solver.precision = p;
                if (tb_system_eval(&c1, &s1) != 0 || tb_system_eval(&c2, &s2) != 0) {
                    gsl_test(1, "ran");
                    continue;
                }
                snprintf(what, sizeof what, "%s, %s, %s", per ? "periodic" : "open",
                         cull ? "lists" : "maps", cfg_precision_name(p));
                gsl_test(!(rel(s2.e_pair, s1.e_pair) <= tol[p] &&
                           rel(s2.e_triplet, s1.e_triplet) <= tol[p] &&
                           tb_force_error(s2.force, s1.force, s1.n) <= tol[p] &&
                           virial_error(s2.virial, s1.virial) <= tol[p]),
                         "2 species alike = 1 species (typed = scalar path), %s: %.1e %.1e %.1e",
                         what, rel(s2.e_pair, s1.e_pair), rel(s2.e_triplet, s1.e_triplet),
                         tb_force_error(s2.force, s1.force, s1.n));
            }
        sim_state_free(&s1);
        sim_state_free(&s2);
    }
    /* the typed tile itself with ntypes 1 (table index 0 = the scalars), all of species 0 */
    pot_params p;
    species_config(&c1, 40, 2, 0, CFG_MIX_GEOMETRIC, 1);
    c1.system.n_species = 1;
    pot_params_init(&p, &c1);
    if (sim_init(&s1, &c1) != 0)
        return;
    const int n = s1.n, edge = 8, nb = (n + edge - 1) / edge;
    static double f1[3 * NMAX], f2[3 * NMAX];
    double w1[6] = {0}, w2[6] = {0}, e1 = 0, e2 = 0;
    void *scr = aligned_alloc(64, tile_simd_scratch(edge));
    memset(f1, 0, sizeof f1);
    memset(f2, 0, sizeof f2);
    for (int I = 0; I < nb; I++)
        for (int J = I; J < nb; J++)
            for (int K = J; K < nb; K++) {
                e1 += tile_simd_triplets_dd(&p.d, s1.pos, n, edge, I, J, K, f1, w1, scr);
                e2 += tile_simd_triplets_typed_dd(&p.d, s1.type, s1.pos, n, edge, I, J, K, f2, w2, scr);
            }
    gsl_test(!(rel(e2, e1) <= 1e-14 && tb_force_error(f2, f1, n) <= 1e-14 && virial_error(w2, w1) <= 1e-14),
             "typed tile on a one-species table = one-species tile (energy %.1e, force %.1e)",
             rel(e2, e1), tb_force_error(f2, f1, n));
    free(scr);
    sim_state_free(&s1);
}

/* ---- nu = 0 removes exactly its triplets --------------------------------------------------- */

static void test_nu_zero(void)
{
    sim_config c;
    sim_state s;
    /* three particles on an equilateral triangle of side r, species 0, 0, 1 */
    const double r = 1.3, nu = 0.05;
    tb_system_config(&c, "test_species", 3, 1, 0.5, 0.0);
    c.potential.lj.enabled = 0;
    c.system.n_species = 2;
    c.potential.atm.triplets_given = 1;
    c.potential.atm.n_triplets = 2;
    c.potential.atm.triplets[0] = (cfg_atm_triplet){{0, 0, 0}, 1.0};
    c.potential.atm.triplets[1] = (cfg_atm_triplet){{0, 0, 1}, nu};
    if (sim_state_alloc(&s, 3) != 0)
        return;
    const double P[9] = {0, 0, 0, r, 0, 0, 0.5 * r, 0.5 * sqrt(3.0) * r, 0};
    memcpy(s.pos, P, sizeof P);
    s.mass[0] = s.mass[1] = 1.0;
    s.type[2] = 1;
    s.ntypes = 2;
    for (int cull = 0; cull < 2; cull++) {
        c.solver.cull = cull;
        c.potential.atm.cutoff = cull ? 2.0 : 0.0;
        c.potential.atm.triplets[1].nu = nu;
        tb_system_eval(&c, &s);
        gsl_test_rel(s.e_triplet, 11.0 * nu / (8.0 * pow(r, 9)), 1e-14,
                     "equilateral (0, 0, 1), %s: E = 11 nu / (8 r^9)", cull ? "lists" : "maps");
        double fs = 0;
        for (int k = 0; k < 9; k++)
            fs += fabs(s.force[k]);
        c.potential.atm.triplets[1].nu = 0.0;
        tb_system_eval(&c, &s);
        double fz = 0;
        for (int k = 0; k < 9; k++)
            fz += fabs(s.force[k]);
        gsl_test(!(s.e_triplet == 0.0 && fz == 0.0 && fs > 0.0 && s.virial[0] == 0.0),
                 "nu(0, 0, 1) = 0, %s: no energy, force or virial (the (0, 0, 0) nu of 1 unused)",
                 cull ? "lists" : "maps");
    }
    sim_state_free(&s);
    /* a larger system: E(all) - E(nu_001 = 0) = the (0, 0, 1) triplets' energy alone (reference) */
    for (int cull = 0; cull < 2; cull++) {
        species_config(&c, 50, 3, 0, CFG_MIX_GEOMETRIC, 0);
        c.solver.cull = cull;
        c.potential.atm.cutoff = cull ? 2.5 : 0.0; /* open: the lists need a cutoff */
        if (sim_init(&s, &c) != 0)
            return;
        set_types(&s, 3, 21);
        tb_system_eval(&c, &s);
        const double e_all = s.e_triplet;
        static double f_all[3 * NMAX], ref[3 * NMAX];
        memcpy(f_all, s.force, 3 * (size_t)s.n * sizeof *f_all);
        sim_config z = c;
        for (int q = 0; q < z.potential.atm.n_triplets; q++)
            if (z.potential.atm.triplets[q].t[2] == 1 && z.potential.atm.triplets[q].t[1] == 0)
                z.potential.atm.triplets[q].nu = 0.0; /* (0, 0, 1) */
        tb_system_eval(&z, &s);
        sim_config only = c; /* the reference with nu of (0, 0, 1) alone */
        only.potential.atm.n_triplets = 1;
        only.potential.atm.triplets[0] = (cfg_atm_triplet){{0, 0, 1}, 0.041};
        val_system v;
        ref_tabs t;
        double ep, et;
        ref_system(&only, &s, &v, &t);
        v.lj = 0;
        val_reference(&v, ref, &ep, &et);
        for (int k = 0; k < 3 * s.n; k++)
            ref[k] = f_all[k] - ref[k];
        gsl_test(!(rel(e_all - s.e_triplet, et) <= 1e-10 && et != 0.0 &&
                   tb_force_error(s.force, ref, s.n) <= 1e-12),
                 "nu(0, 0, 1) = 0 removes exactly the (0, 0, 1) triplets, %s (energy %.1e, force %.1e)",
                 cull ? "lists" : "maps", rel(e_all - s.e_triplet, et), tb_force_error(s.force, ref, s.n));
        sim_state_free(&s);
    }
}

/* ---- finite differences -------------------------------------------------------------------- */

static double energy_at(const sim_config *c, sim_state *s)
{
    tb_system_eval(c, s);
    return s->e_pair + s->e_triplet;
}

static void test_finite_differences(void)
{
    sim_config c;
    sim_state s;
    for (int cull = 0; cull < 2; cull++) {
        species_config(&c, 20, 3, cull, CFG_MIX_ARITHMETIC, 0);
        c.solver.cull = cull;
        if (sim_init(&s, &c) != 0)
            return;
        set_types(&s, 3, 4);
        static double f[3 * NMAX];
        energy_at(&c, &s);
        memcpy(f, s.force, 3 * (size_t)s.n * sizeof *f);
        /* central differences, h = 1e-5: truncation ~h^2 |E'''| ~ 1e-9 relative, rounding
         * ~1e-16 E / h ~ 1e-11; no pair crosses a cutoff within h at these positions (checked by
         * the error itself) */
        const double h = 1e-5;
        double num = 0, den = 0;
        for (int k = 0; k < 3 * s.n; k += 5) {
            const double x = s.pos[k];
            s.pos[k] = x + h;
            const double ep = energy_at(&c, &s);
            s.pos[k] = x - h;
            const double em = energy_at(&c, &s);
            s.pos[k] = x;
            num = fmax(num, fabs(-(ep - em) / (2 * h) - f[k]));
            den = fmax(den, fabs(f[k]));
        }
        gsl_test(!(num / den <= 1e-6), "3 species, %s: forces = -dE/dx by central differences (%.1e)",
                 cull ? "periodic, lists" : "open, maps", num / den);
        sim_state_free(&s);
    }
}

int main(void)
{
    tb_test_init();
    TB_TEST_RUN(test_tables);
    TB_TEST_RUN(test_one_species);
    TB_TEST_RUN(test_unit);
    TB_TEST_RUN(test_backend);
    TB_TEST_RUN(test_type_range);
    TB_TEST_RUN(test_typed_equals_scalar);
    TB_TEST_RUN(test_nu_zero);
    TB_TEST_RUN(test_finite_differences);
    return tb_test_done();
}
