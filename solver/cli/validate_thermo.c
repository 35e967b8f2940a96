/* validate_thermo.c — `tribody validate`'s thermostat rows: the Langevin run's temperature
 * against the canonical ensemble, and the Nose-Hoover chain's conserved quantity
 * (docs/validate.md, "Thermostats").
 *
 * Both run on the backend under test, in double, on the trajectory checks' system (an open
 * cluster with smooth forces: no cutoff crossings to blur the statistics or the conservation).
 *
 * At most VT_N particles of that system take part (the statistics need no more, and the runs
 * are some 10^4 steps).
 *
 * Langevin (BAOAB, friction gamma = 4/tau): after 500 steps of equilibration, 24 blocks of B
 * steps, B = 4 correlation times of the kinetic energy, 1/(2 gamma) each. <T> must lie within 4
 * standard errors of the block means of T0, and std(T)/T0 within 4 of its standard errors of
 * sqrt(2/N_f), the relative width of the canonical kinetic energy (a Gamma distribution of
 * shape N_f/2). BAOAB's configurational bias is O(dt^2), far below these errors.
 *
 * Nose-Hoover (chain 3, period 0.3 tau): over 1500 steps of dt, max |H - H0| with H = K + U +
 * E_chain must be at most 3 times velocity Verlet's max |E - E0| on the same system (the chain
 * adds its own O(dt^2) error), fall by at least 3 when dt halves (second order), and K + U
 * alone must move at least 10 times more (the chain really exchanges heat). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "config/config.h"
#include "config/units.h"
#include "solver/backend.h"
#include "common/check.h"
#include "solver/physics/integrate.h"
#include "solver/cli/validate_thermo.h"

#define VT_N 32 /* particles of the thermostat runs, at most */

typedef struct vt_run {
    sim_state s;
    backend *b;
    integ *g;
    const backend_ops *ops;
} vt_run;

static int vt_open(vt_run *r, const backend_ops *ops, const sim_config *c, const sim_state *s0)
{
    const int n = s0->n < VT_N ? s0->n : VT_N;
    memset(r, 0, sizeof *r);
    r->ops = ops;
    if (sim_state_alloc(&r->s, n) != 0)
        return -1;
    sim_state_like(&r->s, s0);
    memcpy(r->s.pos, s0->pos, 3 * (size_t)n * sizeof *s0->pos);
    memcpy(r->s.vel, s0->vel, 3 * (size_t)n * sizeof *s0->vel);
    if (ops->create(&r->b, c, &r->s) != 0 || integ_create(&r->g, c, &r->s) != 0 ||
        ops->compute(r->b) != 0 || ops->fetch(r->b, &r->s) != 0)
        return -1;
    return 0;
}

static void vt_close(vt_run *r)
{
    if (r->ops && r->b)
        r->ops->destroy(r->b);
    integ_destroy(r->g);
    sim_state_free(&r->s);
}

static sim_config vt_config(const sim_config *c, int type, double T0, double dt)
{
    sim_config t = *c;
    t.solver.precision = CFG_PREC_DOUBLE;
    t.integrator.type = type;
    t.integrator.temperature = t.integrator.temperature_end = T0;
    const tb_units *u = units_of(c->units); /* the reduced choices, as argon in c's units */
    t.integrator.gamma = 4.0 * units_argon(u, "1/tau");
    t.integrator.nh.chain = 3;
    t.integrator.nh.period = 0.3 * units_argon(u, "tau");
    t.integrator.dt = dt;
    return t;
}

static int langevin_rows(const backend_ops *ops, const sim_config *c, const sim_state *s0,
                         double T0, val_row_fn add, void *ctx)
{
    enum { EQUIL = 500, BLOCKS = 24 };
    const double dt = c->integrator.dt;
    const sim_config cl = vt_config(c, CFG_INTEG_LANGEVIN, T0, dt);
    const double gamma = cl.integrator.gamma;
    const long B = lround(4.0 / (2.0 * gamma * dt)) > 10 ? lround(4.0 / (2.0 * gamma * dt)) : 10;
    const double nf = 3.0 * (s0->n < VT_N ? s0->n : VT_N) - 3.0;
    const double kb = units_of(s0->units)->boltz;
    double bm[BLOCKS], g1 = 0.0, g2 = 0.0;
    vt_run r;
    int bad = vt_open(&r, ops, &cl, s0) != 0;
    long step = 0;
    if (!bad)
        bad = integ_advance(r.g, ops, r.b, step, EQUIL) != 0;
    step = EQUIL;
    for (int k = 0; k < BLOCKS && !bad; k++) {
        double s1 = 0.0;
        for (long i = 0; i < B && !bad; i++) {
            double ke = 0.0;
            bad = integ_advance(r.g, ops, r.b, step++, 1) != 0 || ops->kinetic(r.b, &ke) != 0;
            const double T = 2.0 * ke / (nf * kb); /* in the config's temperature unit */
            s1 += T;
            g1 += T;
            g2 += T * T;
        }
        bm[k] = s1 / (double)B;
    }
    vt_close(&r);
    if (bad)
        return tb_error(NULL, 0, "validate: the Langevin run failed on the %s backend", ops->name);
    double m = 0.0, v = 0.0;
    for (int k = 0; k < BLOCKS; k++)
        m += bm[k] / BLOCKS;
    for (int k = 0; k < BLOCKS; k++)
        v += (bm[k] - m) * (bm[k] - m) / (BLOCKS - 1);
    const double ns = (double)BLOCKS * (double)B, err = sqrt(v / BLOCKS);
    const double sm = sqrt(fmax(g2 / ns - (g1 / ns) * (g1 / ns), 0.0)) / T0;
    /* std's standard error: sqrt(1/(2 n_eff)) relative, n_eff = samples / (2 tau_K / dt) */
    const double want = sqrt(2.0 / nf), tau_steps = 1.0 / (2.0 * gamma * dt);
    const double serr = want * sqrt(2.0 * tau_steps / (2.0 * ns));
    printf("  (Langevin: T0 = %.4g, gamma = 4/tau, %ld steps in %d blocks of %ld; <T> = %.5f +- "
           "%.2g, std(T)/T0 = %.4f vs canonical %.4f +- %.2g)\n", T0, step, BLOCKS, B, m, err,
           sm, want, serr);
    if (add(ctx, "langevin <T>-T0 [std err]", "-", "double", (m - T0) / err, VAL_CMP_IN, -4.0,
            4.0, 0) != 0 ||
        add(ctx, "langevin std(T)/T0", "-", "double", sm, VAL_CMP_IN, want - 4.0 * serr,
            want + 4.0 * serr, 0) != 0)
        return -1;
    return 0;
}

/* max |H - H0| over 1500 steps of `type` at dt; *du: max |K + U - (K + U)0|. */
static int conserved(const backend_ops *ops, const sim_config *c, const sim_state *s0, int type,
                     double T0, double dt, double *dh, double *du)
{
    const sim_config cn = vt_config(c, type, T0, dt);
    vt_run r;
    *dh = *du = 0.0;
    if (vt_open(&r, ops, &cn, s0) != 0) {
        vt_close(&r);
        return -1;
    }
    r.s.e_bath = 0.0;
    const double h0 = sim_conserved(&r.s);
    for (long st = 0; st < 1500; st += 10) {
        if (integ_advance(r.g, ops, r.b, st, 10) != 0 || ops->fetch(r.b, &r.s) != 0) {
            vt_close(&r);
            return -1;
        }
        r.s.e_bath = integ_bath(r.g);
        *dh = fmax(*dh, fabs(sim_conserved(&r.s) - h0));
        *du = fmax(*du, fabs(sim_conserved(&r.s) - r.s.e_bath - h0));
    }
    vt_close(&r);
    return 0;
}

static int nh_rows(const backend_ops *ops, const sim_config *c, const sim_state *s0, double T0,
                   val_row_fn add, void *ctx)
{
    const double dt = c->integrator.dt;
    double dh, du, dh2, du2, dv, dvu;
    if (conserved(ops, c, s0, CFG_INTEG_NOSE_HOOVER, T0, dt, &dh, &du) != 0 ||
        conserved(ops, c, s0, CFG_INTEG_NOSE_HOOVER, T0, 0.5 * dt, &dh2, &du2) != 0 ||
        conserved(ops, c, s0, CFG_INTEG_NVE, T0, dt, &dv, &dvu) != 0)
        return tb_error(NULL, 0, "validate: the Nose-Hoover runs failed on the %s backend",
                        ops->name);
    printf("  (Nose-Hoover: chain 3, period 0.3 tau, T0 = %.4g, 1500 steps: max |H - H0| = %.3g at "
           "dt, %.3g at dt/2; velocity Verlet %.3g; K + U alone %.3g)\n", T0, dh, dh2, dv, du);
    if (add(ctx, "nose-hoover |dH| / VV |dE|", "-", "double", dh / dv, VAL_CMP_LE, 0.0, 3.0, 0) ||
        add(ctx, "nose-hoover |dH| order", "-", "double", dh / dh2, VAL_CMP_GE, 3.0, 0.0, 0) ||
        add(ctx, "nose-hoover |d(K+U)| / |dH|", "-", "double", du / dh, VAL_CMP_GE, 10.0, 0.0, 0))
        return -1;
    return 0;
}

int val_thermostat_checks(const backend_ops *ops, const sim_config *c, const sim_state *s0,
                          val_row_fn add, void *ctx)
{
    double T0 = c->integrator.type != CFG_INTEG_NVE ? c->integrator.temperature
                                                      : c->system.init.temperature;
    if (!(T0 > 0.0))
        T0 = 0.5 * units_argon(units_of(c->units), "epsilon/k_B");
    if (s0->n < 2) {
        return add(ctx, "langevin <T>-T0 [std err]", "-", "double", 0.0, VAL_CMP_IN, -4.0, 4.0, 1);
    }
    if (langevin_rows(ops, c, s0, T0, add, ctx) != 0 || nh_rows(ops, c, s0, T0, add, ctx) != 0)
        return -1;
    return 0;
}
