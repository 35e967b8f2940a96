/* gsl_ref.c — reference trajectories with GSL odeiv2 (rk8pd), forces from val_reference().
 *
 * The ODE system has dimension 6n: y[0 .. 3n) positions, y[3n .. 6n) velocities, and
 *     dy/dt = (y[3n .. 6n), force_scale F(y[0 .. 3n)) / m).
 * The driver (gsl_odeiv2_driver_alloc_y_new) takes steps of the 8th-order Prince–Dormand
 * pair, estimating each step's local error from the embedded 9th-order solution and
 * keeping it below epsabs + epsrel |y_i| per component; it is advanced sample by sample to
 * t_end k / n_samples, so every sample lands exactly on its time.
 *
 * Crossings: the potentials of sys have cutoffs (an LJ pair counts iff r < lj_cutoff, an
 * ATM triplet iff all three sides <= atm_cutoff), so the force jumps where a pair or triplet
 * crosses. At every sample the inside/outside status of each pair (LJ) and triplet (ATM) is
 * compared with the previous sample's; each change is one crossing. A pair that crosses and
 * crosses back between two samples is missed, which is rare at the sample spacings used
 * (a particle moves ~1e-3 sigma between samples). Distances use the minimum image, like the
 * reference. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>

#include "validate/gsl_ref.h"

void val_gsl_opts_default(val_gsl_opts *o)
{
    o->epsabs = 1e-13;
    o->epsrel = 1e-13;
    o->h0 = 1e-4;
    o->n_samples = 50;
    o->force_scale = 1.0;
}

typedef struct gsl_ctx {
    val_system sys; /* a copy whose pos points into the current y */
    const double *mass; /* [n] per particle */
    double scale;
    double *force;  /* [3n] */
    long evals;
    int failed;     /* val_reference failed */
} gsl_ctx;

static int gsl_rhs(double t, const double y[], double dydt[], void *params)
{
    gsl_ctx *g = params;
    const int n3 = 3 * g->sys.n;
    (void)t;
    g->sys.pos = y;
    g->evals++;
    if (val_reference(&g->sys, g->force, NULL, NULL) != 0) {
        g->failed = 1;
        return GSL_EBADFUNC;
    }
    for (int i = 0; i < n3; i++) {
        dydt[i] = y[n3 + i];
        dydt[n3 + i] = g->scale / g->mass[i / 3] * g->force[i];
    }
    return GSL_SUCCESS;
}

double val_total_energy(const val_system *sys, const double *mass, const double *vel)
{
    double ep, et, ke = 0.0;
    if (val_reference(sys, NULL, &ep, &et) != 0)
        return NAN;
    for (int i = 0; i < 3 * sys->n; i++)
        ke += 0.5 * mass[i / 3] * vel[i] * vel[i];
    return ke + ep + et;
}

/* Minimum-image squared distance of particles i, j at positions x. */
static double gsl_dist2(const val_system *s, const double *x, int i, int j)
{
    double r2 = 0.0;
    for (int a = 0; a < 3; a++) {
        double d = x[3 * j + a] - x[3 * i + a];
        if (s->box > 0.0)
            d -= s->box * rint(d / s->box);
        r2 += d * d;
    }
    return r2;
}

/* Cutoff statuses at positions x into pair[] and trip[] (either may be NULL); returns the
 * number of entries that differ from what the arrays held when `compare` is set. The ATM
 * triplet status uses the same three sides as the reference's anchored triangle, which for
 * cutoffs <= L/2 are the minimum images of the three pairs. */
static long gsl_statuses(const val_system *s, const double *x, unsigned char *pair,
                         unsigned char *trip, int compare)
{
    const int n = s->n;
    const double lj2 = s->lj_cutoff * s->lj_cutoff, atm2 = s->atm_cutoff * s->atm_cutoff;
    long changes = 0, ip = 0, it = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            const double rij2 = gsl_dist2(s, x, i, j);
            if (pair) {
                const unsigned char in = rij2 < lj2;
                changes += compare && pair[ip] != in;
                pair[ip++] = in;
            }
            if (!trip)
                continue;
            for (int k = j + 1; k < n; k++) {
                const unsigned char in = rij2 <= atm2 && gsl_dist2(s, x, i, k) <= atm2 &&
                                         gsl_dist2(s, x, j, k) <= atm2;
                changes += compare && trip[it] != in;
                trip[it++] = in;
            }
        }
    return changes;
}

int val_gsl_trajectory(const val_system *sys, const double *mass, const double *vel0, double t_end,
                       const val_gsl_opts *o, double *pos_end, double *vel_end,
                       val_gsl_result *r)
{
    const int n = sys->n;
    const size_t n3 = 3 * (size_t)n;
    const size_t npair = (size_t)n * (size_t)(n - 1) / 2;
    const size_t ntrip = (size_t)n * (size_t)(n - 1) * (size_t)(n - 2) / 6;
    const int lj_cut = sys->lj && sys->lj_cutoff > 0.0;
    const int atm_cut = sys->nu != 0.0 && sys->atm_cutoff > 0.0 && n >= 3;
    gsl_ctx g;
    gsl_odeiv2_driver *d = NULL;
    double *y = malloc(2 * n3 * sizeof *y);
    unsigned char *pair = lj_cut ? malloc(npair ? npair : 1) : NULL;
    unsigned char *trip = atm_cut ? malloc(ntrip ? ntrip : 1) : NULL;
    gsl_error_handler_t *old_handler = NULL;
    int rc = -1;

    memset(r, 0, sizeof *r);
    memset(&g, 0, sizeof g);
    g.sys = *sys;
    g.mass = mass;
    g.scale = o->force_scale;
    g.force = malloc(n3 * sizeof *g.force);
    gsl_odeiv2_system ode = {gsl_rhs, NULL, 2 * n3, &g};
    if (!y || !g.force || (lj_cut && !pair) || (atm_cut && !trip)) {
        fprintf(stderr, "tribody: validate: out of host memory for the GSL reference (n = %d)\n", n);
        goto done;
    }
    memcpy(y, sys->pos, n3 * sizeof *y);
    memcpy(y + n3, vel0, n3 * sizeof *y);
    r->e0 = val_total_energy(sys, mass, vel0);
    gsl_statuses(sys, y, pair, trip, 0);

    d = gsl_odeiv2_driver_alloc_y_new(&ode, gsl_odeiv2_step_rk8pd, o->h0, o->epsabs, o->epsrel);
    if (!d) {
        fprintf(stderr, "tribody: validate: cannot set up the GSL rk8pd driver\n");
        goto done;
    }
    /* Failures come back as status codes, reported below, not as GSL's abort. */
    old_handler = gsl_set_error_handler_off();
    const int ns = o->n_samples >= 1 ? o->n_samples : 1;
    double t = 0.0;
    for (int k = 1; k <= ns; k++) {
        const double t1 = k == ns ? t_end : t_end * (double)k / (double)ns;
        const int st = gsl_odeiv2_driver_apply(d, &t, t1, y);
        if (st != GSL_SUCCESS) {
            fprintf(stderr, "tribody: validate: GSL rk8pd reference failed at t = %.6g tau: %s%s\n",
                    t, gsl_strerror(st), g.failed ? " (force evaluation)" : "");
            goto done;
        }
        val_system at = *sys;
        at.pos = y;
        const double e = val_total_energy(&at, mass, y + n3);
        const double dev = fabs(e - r->e0);
        if (!isnan(r->max_dev) && !(dev <= r->max_dev)) /* a NaN stays */
            r->max_dev = dev;
        r->e_end = e;
        r->crossings += gsl_statuses(sys, y, pair, trip, 1);
    }
    memcpy(pos_end, y, n3 * sizeof *y);
    memcpy(vel_end, y + n3, n3 * sizeof *y);
    rc = 0;
done:
    r->rhs_evals = g.evals;
    if (d) {
        gsl_odeiv2_driver_free(d);
        gsl_set_error_handler(old_handler);
    }
    free(g.force);
    free(y);
    free(pair);
    free(trip);
    return rc;
}
