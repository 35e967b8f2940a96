/* validate_boxes.c — `tribody validate` section 5: the backend on systems beyond the config's,
 * against validate/'s reference in its general form (valsys.h): a two-species mixture in a
 * triclinic cell (tilts near half the edges), a two-species `ppf` slab (particles spread past the
 * open axis's given extent) and argon in units metal (the config's argon defaults in the style)
 * in an orthorhombic box. Each runs the full potential through the neighbour lists and through
 * the configured maps, at every precision checked, with the solver settings of the config
 * (backend, maps, tile, deterministic); rows: energy, force max and virial against the
 * reference, tolerances those of section 1 (docs/validate.md). A backend that refuses such a
 * system gives SKIP rows, with its reason. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "config/config.h"
#include "config/units.h"
#include "validate/reference.h"
#include "common/check.h"
#include "solver/cli/valsys.h"

#include "solver/cli/validate_int.h"

int val_place_box(sim_state *s, const tb_box_d *b, int n, double zlo, double zhi, double dmin,
                  unsigned long seed)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    if (!r)
        return -1;
    gsl_rng_set(r, seed);
    s->box = *b;
    for (int i = 0; i < n; i++) {
        int ok = 0;
        double *x = s->pos + 3 * i;
        for (int tries = 0; tries < 100000 && !ok; tries++) {
            const double u = gsl_rng_uniform(r), v = gsl_rng_uniform(r), w = gsl_rng_uniform(r);
            const double qz = b->pbc & 4 ? w * b->l[2] : zlo + (zhi - zlo) * w;
            const double fz = b->l[2] > 0.0 ? qz / b->l[2] : 0.0;
            x[0] = b->lo[0] + u * b->l[0] + v * b->xy + fz * b->xz;
            x[1] = b->lo[1] + v * b->l[1] + fz * b->yz;
            x[2] = b->lo[2] + qz;
            ok = 1;
            for (int j = 0; j < i && ok; j++) {
                double d[3] = {x[0] - s->pos[3 * j], x[1] - s->pos[3 * j + 1], x[2] - s->pos[3 * j + 2]};
                box_min_image_d(b, d);
                ok = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] >= dmin * dmin;
            }
        }
        if (!ok) {
            gsl_rng_free(r);
            return tb_error(NULL, 0, "validate: no room for particle %d of %d at distance %g", i,
                            n, dmin);
        }
        if (s->ntypes > 1)
            s->type[i] = (int)(gsl_rng_uniform(r) * s->ntypes) % s->ntypes;
    }
    gsl_rng_free(r);
    return 0;
}

/* One system of the section. */
typedef struct gen_sys {
    const char *name; /* the check's prefix, <= 14 characters */
    int units, nt, n;
    double l[3], tilt[3];
    int per[3];
    double zlo, zhi;   /* an open z: where the particles go [sigma] */
    double lj_rc[2], atm_rc; /* lj units; metal: times argon's sigma */
} gen_sys;

static const gen_sys systems[] = {
    {"triclinic mix", CFG_UNITS_LJ, 2, 80, {6.2, 5.8, 6.0}, {2.0, -2.5, 2.6}, {1, 1, 1}, 0, 0,
     {2.3, 2.45}, 2.2},
    {"ppf slab mix", CFG_UNITS_LJ, 2, 100, {6.5, 6.9, 8.0}, {0, 0, 0}, {1, 1, 0}, -1.0, 9.0,
     {2.5, 3.0}, 3.0},
    {"argon metal", CFG_UNITS_METAL, 1, 96, {5.4, 5.0, 5.2}, {0, 0, 0}, {1, 1, 1}, 0, 0,
     {2.45, 2.45}, 2.4},
};

/* The config of system g: the solver settings of base, the physics of g. */
static sim_config gen_config(const sim_config *base, const gen_sys *g, const tb_box_d *box)
{
    sim_config c = *base;
    const tb_units *u = units_of(g->units);
    const double f_len = units_argon(u, "sigma"), f_e = units_argon(u, "epsilon");
    c.units = g->units;
    c.system.particles = g->n;
    c.system.boundary = g->per[0] && g->per[1] && g->per[2] ? CFG_BOUNDARY_PERIODIC : CFG_BOUNDARY_MIXED;
    c.system.box = 0.0;
    c.system.box_group = 1;
    for (int a = 0; a < 3; a++) {
        c.system.periodic[a] = g->per[a];
        c.system.box_lengths[a] = box->l[a];
        c.system.box_tilt[a] = g->tilt[a] * f_len;
        c.system.box_origin[a] = box->lo[a];
    }
    c.system.n_species = g->nt;
    c.system.species_given = 1;
    c.potential.lj.enabled = 1;
    c.potential.lj.shift = 1;
    c.potential.lj.mix = CFG_MIX_ARITHMETIC;
    c.potential.lj.epsilon = f_e;
    c.potential.lj.sigma = f_len;
    c.potential.lj.cutoff = g->lj_rc[0] * f_len;
    c.potential.lj.n_pairs = 0;
    c.potential.atm.nu = 0.0703 * units_argon(u, "epsilon sigma^9"); /* argon's, the default */
    c.potential.atm.triplets_given = 0;
    c.potential.atm.n_triplets = 0;
    c.potential.atm.cutoff = g->atm_rc * f_len;
    c.potential.atm.cutoff_triple = 0.0;
    c.solver.skin = 0.3 * f_len;
    snprintf(c.system.species[0].name, sizeof c.system.species[0].name, "Ar");
    c.system.species[0].mass = units_argon(u, "m");
    if (g->nt == 2) { /* LAMMPS's tri_two: B heavier, its own pair; the cross pair mixed */
        snprintf(c.system.species[0].name, sizeof c.system.species[0].name, "A");
        snprintf(c.system.species[1].name, sizeof c.system.species[1].name, "B");
        c.system.species[1].mass = 1.7;
        c.potential.lj.n_pairs = 2;
        c.potential.lj.pairs[0] = (cfg_lj_pair){{0, 0}, 1.0, 1.0, g->lj_rc[0]};
        c.potential.lj.pairs[1] = (cfg_lj_pair){{1, 1}, 1.3, 0.92, g->lj_rc[1]};
        c.potential.atm.triplets_given = 1;
        c.potential.atm.n_triplets = 3; /* (0, 0, 1) left out: nu 0, skipped */
        c.potential.atm.triplets[0] = (cfg_atm_triplet){{0, 0, 0}, 0.072};
        c.potential.atm.triplets[1] = (cfg_atm_triplet){{0, 1, 1}, 0.11};
        c.potential.atm.triplets[2] = (cfg_atm_triplet){{1, 1, 1}, 0.064};
    }
    return c;
}

static double rel_of(double x, double ref)
{
    return ref != 0.0 ? fabs(x - ref) / fabs(ref) : (x == 0.0 ? 0.0 : HUGE_VAL);
}

/* The three rows of one evaluation (skip: the backend refused the system). */
static int gen_rows(val_ctx *v, const gen_sys *g, const char *path, int prec, const sim_state *got,
                    const double *ref_f, double ref_e, const double *ref_w, int skip)
{
    const val_tol *t = &val_tols[prec];
    const char *pn = cfg_precision_name(prec);
    char name[3][32];
    double fd = 0.0, fr = 0.0, wd = 0.0, wr = 0.0;
    for (int i = 0; !skip && i < got->n; i++) {
        const double d[3] = {got->force[3 * i] - ref_f[3 * i], got->force[3 * i + 1] - ref_f[3 * i + 1],
                             got->force[3 * i + 2] - ref_f[3 * i + 2]};
        if (!(val_norm3(d) <= fd))
            fd = val_norm3(d);
        fr = fmax(fr, val_norm3(ref_f + 3 * i));
    }
    for (int k = 0; !skip && k < 6; k++) {
        if (!(fabs(got->virial[k] - ref_w[k]) <= wd))
            wd = fabs(got->virial[k] - ref_w[k]);
        wr = fmax(wr, fabs(ref_w[k]));
    }
    snprintf(name[0], sizeof name[0], "%s: energy", g->name);
    snprintf(name[1], sizeof name[1], "%s: force max", g->name);
    snprintf(name[2], sizeof name[2], "%s: virial", g->name);
    const double e = skip ? (double)NAN : rel_of(got->e_pair + got->e_triplet, ref_e);
    if (val_add_row(v, name[0], path, pn, e, CMP_LE, 0, t->energy, skip) != 0 ||
        val_add_row(v, name[1], path, pn, skip ? (double)NAN : fd / fr, CMP_LE, 0, t->fmax, skip) != 0 ||
        val_add_row(v, name[2], path, pn, skip ? (double)NAN : wd / wr, CMP_LE, 0, t->fmax, skip) != 0)
        return -1;
    return 0;
}

static int gen_system(val_ctx *v, const gen_sys *g)
{
    const tb_units *u = units_of(g->units);
    const double f_len = units_argon(u, "sigma"), lo[3] = {0.3 * f_len, -0.7 * f_len, 0.0};
    double l[3];
    for (int a = 0; a < 3; a++)
        l[a] = g->l[a] * f_len;
    const tb_box_d box = box_make_d(l, g->tilt[0] * f_len, g->tilt[1] * f_len, g->tilt[2] * f_len,
                                    lo, g->per);
    const sim_config c = gen_config(&v->cfg, g, &box);
    double *ref = calloc(3 * (size_t)g->n, sizeof *ref), ep = 0, et = 0, w[6];
    sim_state s, got;
    val_view vw;
    int rc = -1;
    memset(&s, 0, sizeof s);
    memset(&got, 0, sizeof got);
    if (!ref || sim_state_alloc(&s, g->n) != 0) {
        tb_error(NULL, 0, "validate: out of host memory");
        goto done;
    }
    sim_set_species(&s, &c);
    if (val_place_box(&s, &box, g->n, g->zlo * f_len, g->zhi * f_len, 0.9 * f_len, 4242) != 0 ||
        val_make_like(&s, &got) != 0 ||
        val_reference_virial(val_system_of(&c, &s, NULL, &vw), ref, &ep, &et, w) != 0)
        goto done;
    for (int ip = 0; ip < v->n_prec; ip++)
        for (int cull = 1; cull >= 0; cull--) {
            sim_config x = c;
            char label[2 * CFG_NAME_MAX + 2];
            x.solver.cull = cull;
            x.solver.precision = v->prec[ip];
            val_full_label(&x, &box, label, sizeof label);
            const int refused = val_backend_eval(v, &x, &s, &got) != 0;
            if (refused)
                printf("  (%s, %s: the backend refuses this system, above; rows skipped)\n",
                       g->name, label);
            if (gen_rows(v, g, label, v->prec[ip], &got, ref, ep + et, w, refused) != 0)
                goto done;
        }
    rc = 0;
done:
    free(ref);
    sim_state_free(&s);
    sim_state_free(&got);
    return rc;
}

int val_general_checks(val_ctx *v)
{
    for (size_t i = 0; i < sizeof systems / sizeof *systems; i++)
        if (gen_system(v, &systems[i]) != 0)
            return -1;
    return 0;
}
