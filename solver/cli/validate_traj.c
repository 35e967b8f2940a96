/* validate_traj.c — `tribody validate` section 3: velocity Verlet on the backend against GSL rk8pd
 * trajectories of the reference's forces, orders of convergence and energy conservation
 * (docs/validate.md). */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "config/config.h"
#include "maps3d/map2d.h"
#include "maps3d/map3d.h"
#include "validate/gsl_ref.h"
#include "validate/reference.h"
#include "solver/cli/args.h"
#include "solver/backend.h"
#include "common/check.h"
#include "solver/cli/cli.h"
#include "solver/gpu/gpu.h"
#include "solver/io/init.h"
#include "solver/physics/nbr_list.h"
#include "solver/io/output.h"
#include "solver/physics/pot_params.h"
#include "solver/cli/validate_thermo.h"
#include "solver/cli/valsys.h"

#include "solver/cli/validate_int.h"

/* ---- 3: trajectories ------------------------------------------------------------------- */

/* max_i |a_i - b_i| over particles, through the minimum image when box > 0. */
static double max_dist(const double *a, const double *b, int n, double box)
{
    const tb_box_d bx = box_cube_d(box);
    double m = 0.0;
    for (int i = 0; i < n; i++) {
        double d[3];
        for (int x = 0; x < 3; x++)
            d[x] = a[3 * i + x] - b[3 * i + x];
        box_min_image_d(&bx, d);
        const double dn = val_norm3(d);
        if (!(dn <= m))
            m = dn;
    }
    return m;
}

/* nsteps of velocity Verlet from s0 under c on the backend; the final state into out and the
 * largest |E(t) - E0| / (|K| + |U_pair| + |U_triplet|)(0) over 20 samples into *drift. */
static int vv_run(const val_ctx *v, const sim_config *c, const sim_state *s0, long nsteps,
                  sim_state *out, double *drift)
{
    backend *b = NULL;
    double e0, scale, dev = 0.0;
    const long chunks = nsteps < 20 ? nsteps : 20;
    long done = 0;
    int rc = v->ops->create(&b, c, s0);
    if (rc == 0 && (v->ops->compute(b) != 0 || v->ops->fetch(b, out) != 0))
        rc = -1;
    if (rc == 0) {
        e0 = sim_kinetic(out) + out->e_pair + out->e_triplet;
        scale = sim_kinetic(out) + fabs(out->e_pair) + fabs(out->e_triplet);
        for (long k = 1; k <= chunks && rc == 0; k++) {
            const long upto = nsteps * k / chunks;
            if (v->ops->advance(b, upto - done) != 0 || v->ops->fetch(b, out) != 0) {
                rc = -1;
                break;
            }
            done = upto;
            const double d = fabs(sim_kinetic(out) + out->e_pair + out->e_triplet - e0);
            if (!(d <= dev))
                dev = d;
        }
        *drift = scale > 0 ? dev / scale : dev;
    }
    if (b)
        v->ops->destroy(b);
    return rc;
}

/* The configuration of the trajectory checks: double precision, no cutoffs, so that the
 * forces are smooth (a cutoff makes them jump, and then neither Verlet's O(dt^2) error law
 * nor rk8pd's error control holds). A periodic system needs its cutoffs (minimum image), so
 * its particles are taken as they are, as an open cluster (docs/validate.md). */
sim_config val_cfg_traj(const sim_config *c)
{
    sim_config t = *c;
    t.solver.precision = CFG_PREC_DOUBLE;
    t.system.boundary = CFG_BOUNDARY_OPEN;
    t.system.box = 0.0;
    t.potential.atm.cutoff = 0.0;
    t.potential.atm.cutoff_triple = 0.0;
    if (t.potential.lj.enabled)
        t.potential.lj.cutoff = VAL_LJ_NOCUT;
    for (int k = 0; k < t.potential.lj.n_pairs; k++)
        t.potential.lj.pairs[k].cutoff = 0.0; /* not given: potential.lj.cutoff, mixed alike */
    return t;
}

int val_traj_checks(val_ctx *v, const sim_state *s, long nsteps)
{
    const size_t n3 = 3 * (size_t)s->n;
    sim_config c = val_cfg_traj(&v->cfg);
    const double dt = c.integrator.dt, T = (double)nsteps * dt;
    double *xg = malloc((4 * n3 + (size_t)s->n) * sizeof *xg), *vg = xg + n3, *xg11 = vg + n3,
           *vg11 = xg11 + n3, *mass = vg11 + n3; /* per particle: its species' mass */
    double ex[3], ev[3], drift[3], ep, et, ke = 0.0;
    static const char *const hname[3] = {"dt", "dt/2", "dt/4"};
    char label[2 * CFG_NAME_MAX + 2], name[48];
    val_gsl_opts o;
    val_gsl_result r13, r11;
    val_view vs;
    sim_state out;
    int rc = -1;

    memset(&out, 0, sizeof out);
    if (!xg || val_make_like(s, &out) != 0) {
        tb_error(NULL, 0, "validate: out of host memory for n = %d", s->n);
        goto done;
    }
    for (int i = 0; i < s->n; i++)
        mass[i] = sim_mass(s, i);
    val_full_label(&c, &s->box, label, sizeof label);
    val_system_of(&c, s, s->pos, &vs);
    val_gsl_opts_default(&o);
    o.n_samples = (int)ceil(T / 0.004); /* about the step rk8pd takes at 1e-13 here */
    if (v->fault_ref)
        o.force_scale = 1.0 + 1e-3;
    if (val_gsl_trajectory(&vs.sys, mass, s->vel, T, &o, xg, vg, &r13) != 0)
        goto done;
    /* The bound: a looser run on other step sizes (one sample: no forced step ends). */
    o.epsabs = o.epsrel = 1e-11;
    o.n_samples = 1;
    if (val_gsl_trajectory(&vs.sys, mass, s->vel, T, &o, xg11, vg11, &r11) != 0)
        goto done;
    if (val_reference(&vs.sys, NULL, &ep, &et) != 0)
        goto done;
    for (size_t i = 0; i < n3; i++)
        ke += 0.5 * mass[i / 3] * s->vel[i] * s->vel[i];
    const double escale = ke + fabs(ep) + fabs(et);
    const double gx = max_dist(xg, xg11, s->n, s->box.pbc ? s->box.l[0] : 0.0), gv = max_dist(vg, vg11, s->n, 0.0);

    for (int k = 0; k < 3; k++) {
        c.integrator.dt = dt / (double)(1 << k);
        if ((rc = vv_run(v, &c, s, nsteps << k, &out, &drift[k])) != 0)
            goto done;
        ex[k] = max_dist(out.pos, xg, s->n, s->box.pbc ? s->box.l[0] : 0.0);
        ev[k] = max_dist(out.vel, vg, s->n, 0.0);
    }
    rc = -1;
    printf("  (GSL rk8pd: %ld force evaluations at 1e-13, %ld at 1e-11; %ld cutoff crossings)\n",
           r13.rhs_evals, r11.rhs_evals, r13.crossings);
    /* Cutoff crossings make the force jump: Verlet's error is then no longer O(dt^2). */
    const int skip = r13.crossings > 0;
    if (val_add_row(v, "GSL error bound: x", "-", "double", gx, CMP_LE, 0, VAL_GSL_ERR, 0) ||
        val_add_row(v, "GSL error bound: v", "-", "double", gv, CMP_LE, 0, VAL_GSL_ERR, 0) ||
        val_add_row(v, "GSL energy drift", "-", "double", r13.max_dev / escale, CMP_LE, 0,
                VAL_GSL_DRIFT, 0))
        goto done;
    for (int k = 0; k < 3; k++) {
        snprintf(name, sizeof name, "VV position error %s", hname[k]);
        if (val_add_row(v, name, label, "double", ex[k], CMP_GE, VAL_FLOOR * gx, 0, skip))
            goto done;
        snprintf(name, sizeof name, "VV velocity error %s", hname[k]);
        if (val_add_row(v, name, label, "double", ev[k], CMP_GE, VAL_FLOOR * gv, 0, skip))
            goto done;
    }
    for (int k = 0; k < 2; k++) {
        snprintf(name, sizeof name, "VV position order %s", hname[k + 1]);
        if (val_add_row(v, name, label, "double", log2(ex[k] / ex[k + 1]), CMP_IN, VAL_ORDER_LO,
                    VAL_ORDER_HI, skip))
            goto done;
        snprintf(name, sizeof name, "VV velocity order %s", hname[k + 1]);
        if (val_add_row(v, name, label, "double", log2(ev[k] / ev[k + 1]), CMP_IN, VAL_ORDER_LO,
                    VAL_ORDER_HI, skip))
            goto done;
    }
    if (val_add_row(v, "VV energy drift dt", label, "double", drift[0], CMP_LE, 0, VAL_VV_DRIFT, 0))
        goto done;
    for (int k = 0; k < 2; k++) {
        snprintf(name, sizeof name, "VV energy drift order %s", hname[k + 1]);
        if (val_add_row(v, name, label, "double", log2(drift[k] / drift[k + 1]), CMP_IN,
                    VAL_ORDER_LO, VAL_ORDER_HI, skip))
            goto done;
    }
    if (skip)
        printf("  (errors and orders SKIPPED: %ld cutoff crossings make the forces jump; "
               "reported, not judged)\n", r13.crossings);
    rc = 0;
done:
    free(xg);
    sim_state_free(&out);
    return rc;
}

