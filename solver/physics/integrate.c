/* integrate.c — nve, Langevin (BAOAB) and Nose-Hoover chain steps over the backends'
 * primitives (see integrate.h; equations in docs/physics.md).
 *
 * Invariant: everything a step depends on is either in the backend's state (positions,
 * velocities, forces) or in this struct (chain, bath energy, RNG), and both are saved in a
 * checkpoint; the kinetic energy comes from the backend's fixed-order reduction. Hence a
 * restarted run is bit for bit the uninterrupted one. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "common/check.h"
#include "config/units.h"
#include "solver/box.h"
#include "solver/physics/baro.h"
#include "solver/physics/integrate.h"
#include "solver/physics/mtk_body.h"
#include "solver/physics/potential.h"
#include "solver/physics/rng_seed.h"

#define NH_MAX MTK_NH_MAX
#define INTEG_VERSION 1

struct integ {
    int type;             /* enum cfg_integrator */
    int n;
    int ntypes;
    double mass[TB_TYPES_MAX]; /* internal masses per species (state.h) */
    double boltz;         /* k_B of the unit style: kT = boltz * T */
    double dt;
    long steps;           /* integrator.steps: the ramp's length */
    double t0, t1;        /* target at step 0 and at `steps` [temperature] */
    double gamma;         /* Langevin friction [1/tau] */
    int dof;              /* N_f = 3n - 3 */
    int m;                /* chain length */
    double period;        /* tau_T [tau] */
    double eta[NH_MAX];   /* chain positions [1] */
    double veta[NH_MAX];  /* chain velocities [1/tau] */
    double e_bath;        /* see integ_bath [epsilon] */
    gsl_rng *rng;
    double *xi;           /* [3n] noise */
    baro *baro;           /* the barostat (baro.h), NULL without one */
    int dev;              /* MTK / C-rescale: -1 not chosen yet, 0 the host path, 1 the backend's
                           * (mtk_step_dev, crs_step_dev) */
    int pushed;           /* the backend holds the state (MTK_PUSH done since create / restore) */
    int stale;            /* the backend's state is ahead of this struct's and the barostat's */
    int lazy;             /* integ_advance leaves them stale (integ_lazy): the caller syncs */
};

/* The header of a saved block. */
typedef struct integ_blob {
    uint32_t version, type, m, pad;
    double e_bath;
    double eta[NH_MAX], veta[NH_MAX];
    char rng_name[32];
    uint64_t rng_size;
} integ_blob;

int integ_create(integ **out, const sim_config *c, const sim_state *s)
{
    integ *g = calloc(1, sizeof *g);
    *out = NULL;
    if (!g)
        return tb_error(NULL, 0, "out of host memory");
    g->type = c->integrator.type;
    g->n = s->n;
    g->ntypes = s->ntypes;
    memcpy(g->mass, s->mass, sizeof g->mass);
    g->boltz = units_of(s->units)->boltz;
    g->dt = c->integrator.dt;
    g->steps = c->integrator.steps;
    g->t0 = c->integrator.temperature;
    g->t1 = c->integrator.temperature_end;
    g->gamma = c->integrator.gamma;
    g->dof = sim_dof(s);
    g->m = c->integrator.nh.chain < 1 ? 1 : c->integrator.nh.chain > NH_MAX ? NH_MAX
                                                                               : c->integrator.nh.chain;
    g->period = c->integrator.nh.period;
    if (g->type == CFG_INTEG_LANGEVIN) {
        g->rng = gsl_rng_alloc(gsl_rng_mt19937);
        g->xi = malloc(3 * (size_t)s->n * sizeof *g->xi);
        if (!g->rng || !g->xi) {
            integ_destroy(g);
            return tb_error(NULL, 0, "out of host memory for the Langevin noise");
        }
        gsl_rng_set(g->rng, rng_stream_seed(c->system.seed, 0x4c414e47455649ULL));
    }
    g->dev = -1;
    const int rc = baro_create(&g->baro, c, s);
    if (rc != 0) {
        integ_destroy(g);
        return rc;
    }
    *out = g;
    return 0;
}

void integ_destroy(integ *g)
{
    if (!g)
        return;
    if (g->rng)
        gsl_rng_free(g->rng);
    free(g->xi);
    baro_destroy(g->baro);
    free(g);
}

double integ_bath(const integ *g)
{
    if (g && g->baro)
        return g->e_bath + baro_energy(g->baro);
    return g ? g->e_bath : 0.0;
}

double integ_target(const integ *g, long step)
{
    const double f = g->steps > 0 ? (double)(step + 1) / (double)g->steps : 1.0;
    return g->t0 + (g->t1 - g->t0) * (f > 1.0 ? 1.0 : f);
}

/* The force evaluation of a step; on a step the barostat rescales (baro.h), the stretch
 * before it and the work's dU after it. Without a barostat: compute() alone. */
static int crs_eval_dev(integ *g, const backend_ops *ops, backend *b, long step);

static int evaluate(integ *g, const backend_ops *ops, backend *b, long step)
{
    const int due = baro_due(g->baro, step);
    if (g->dev == 1) /* C-rescale on the backend: stretch, forces and work there; no wait */
        return due ? crs_eval_dev(g, ops, b, step) : ops->mtk(b, CRS_FORCES, NULL, NULL);
    if (due && baro_rescale(g->baro, ops, b, step) != 0)
        return -1;
    if (ops->compute(b) != 0)
        return -1;
    return due ? baro_end(g->baro, ops, b) : 0;
}

/* ---- Langevin ---------------------------------------------------------------------- */

/* n x 3 standard normals with their mean over the particles removed per component: the
 * noise then has zero sum, which leaves the total momentum alone (up to friction). */
static void draw_noise(integ *g)
{
    double mean[3] = {0, 0, 0};
    for (int i = 0; i < 3 * g->n; i++) {
        g->xi[i] = gsl_ran_gaussian_ziggurat(g->rng, 1.0);
        mean[i % 3] += g->xi[i];
    }
    for (int d = 0; d < 3; d++)
        mean[d] /= g->n;
    for (int i = 0; i < 3 * g->n; i++)
        g->xi[i] -= mean[i % 3];
}

static int langevin_step(integ *g, const backend_ops *ops, backend *b, long step)
{
    const double h = 0.5 * g->dt, kT = g->boltz * integ_target(g, step);
    const double c1 = exp(-g->gamma * g->dt);
    double c2[TB_TYPES_MAX];
    for (int t = 0; t < g->ntypes; t++)
        c2[t] = sqrt((1.0 - c1 * c1) * kT / g->mass[t]);
    double k0, k1;
    draw_noise(g);
    if (ops->kick(b, h) || ops->drift(b, h) || ops->kinetic(b, &k0) ||
        ops->ostep(b, c1, c2, g->xi) || ops->kinetic(b, &k1) || ops->drift(b, h) ||
        evaluate(g, ops, b, step) || ops->kick(b, h))
        return -1;
    g->e_bath -= k1 - k0; /* the heat the bath took out */
    return 0;
}

/* ---- Nose-Hoover chain -------------------------------------------------------------- */

/* exp(iL_NHC h) for kinetic energy K at target kT (Martyna, Tuckerman, Klein, Mol. Phys. 87,
 * 1117 (1996), with n_c = 1 and the 3-stage Suzuki-Yoshida weights: mtk_body.h, which the GPU's
 * MTK step runs too). Returns the factor by which the particle velocities are to be scaled. */
static double nhc_half(integ *g, double K, double kT, double h)
{
    return mtk_nhc_half(g->m, g->dof, g->period, g->eta, g->veta, K, kT, h);
}

/* Energy of the chain: sum Q_j v_j^2 / 2 + N_f kT eta_1 + kT sum_{j>=2} eta_j. */
static double nhc_energy(const integ *g, double kT)
{
    return mtk_nhc_energy(g->m, g->dof, g->period, g->eta, g->veta, kT);
}

/* The chain's closing half step (nh_step, mtk_step) at the kinetic energy K now: the
 * velocities scaled, the chain's energy kept as the bath's. */
static int nhc_end_at(integ *g, const backend_ops *ops, backend *b, double kT, double h, double K)
{
    if (ops->scale(b, nhc_half(g, K, kT, h)))
        return -1;
    g->e_bath = nhc_energy(g, kT);
    return 0;
}

static int nhc_end(integ *g, const backend_ops *ops, backend *b, double kT, double h)
{
    double K;
    return ops->kinetic(b, &K) || nhc_end_at(g, ops, b, kT, h, K);
}

static int nh_step(integ *g, const backend_ops *ops, backend *b, long step)
{
    const double h = 0.5 * g->dt, kT = g->boltz * integ_target(g, step);
    double K, s;
    if (ops->kinetic(b, &K))
        return -1;
    s = nhc_half(g, K, kT, h);
    if (ops->scale(b, s) || ops->kick(b, h) || ops->drift(b, g->dt) || evaluate(g, ops, b, step) ||
        ops->kick(b, h))
        return -1;
    return nhc_end(g, ops, b, kT, h);
}

/* One MTK step (baro.h): the Nose-Hoover chain around the barostat's half steps. */
static int mtk_step(integ *g, const backend_ops *ops, backend *b, long step)
{
    baro *p = g->baro;
    const double h = 0.5 * g->dt, kT = g->boltz * integ_target(g, step);
    double K, s;
    if (ops->virial_next(b, 1) || ops->kinetic(b, &K))
        return -1;
    s = nhc_half(g, K, kT, h);
    if (ops->scale(b, s) || baro_mtk_omega(p, ops, b, 1, h, kT, step, &K) ||
        baro_mtk_velocities(p, ops, b, h) || ops->kick(b, h) ||
        baro_mtk_dilate(p, ops, b, h, step) || ops->drift(b, g->dt) ||
        baro_mtk_dilate(p, ops, b, h, step) || ops->compute(b) || ops->kick(b, h) ||
        baro_mtk_velocities(p, ops, b, h) || baro_mtk_omega(p, ops, b, 0, h, kT, step, &K))
        return -1;
    return nhc_end_at(g, ops, b, kT, h, K);
}

/* ---- MTK on the backend (backend.h's mtk) ------------------------------------------- */

/* The call's numbers for `step`; st: scratch (baro_mtk_get fills the barostat's part). */
static void mtk_par_of(const integ *g, long step, mtk_par *par, mtk_state *st)
{
    baro_mtk_get(g->baro, st, par);
    par->dof = g->dof;
    par->m = g->m;
    par->period_t = g->period;
    par->kT = g->boltz * integ_target(g, step);
    par->h = 0.5 * g->dt;
    par->p0 = baro_target(g->baro, step);
    par->step = step;
}

/* This struct's and the barostat's state from the backend's. */
static void mtk_take(integ *g, const mtk_state *st)
{
    baro_mtk_set(g->baro, st);
    memcpy(g->eta, st->eta, sizeof g->eta);
    memcpy(g->veta, st->veta, sizeof g->veta);
    g->e_bath = st->e_bath;
}

/* The backend takes the state (the first step, and after a restore). */
static int mtk_push(integ *g, const backend_ops *ops, backend *b, long step)
{
    mtk_state st;
    mtk_par par;
    memset(&st, 0, sizeof st);
    if (baro_mtk_prev(g->baro, ops, b) != 0)
        return -1;
    mtk_par_of(g, step, &par, &st);
    memcpy(st.eta, g->eta, sizeof st.eta);
    memcpy(st.veta, g->veta, sizeof st.veta);
    st.e_bath = g->e_bath;
    if (ops->mtk(b, MTK_PUSH, &par, &st) != 0)
        return -1;
    g->pushed = 1;
    return 0;
}

/* mtk_step on the backend: the same splitting, NHC(h) Omega(h) V(h) in MTK_BEGIN, then
 * either the state comes back (MTK_BEGIN answers 0: one wait, for the box map) and B(h) D(h)
 * A(dt) D(h) go from here (the box moved on the host, checked there: a box that collapses
 * stops the run), or the backend moves the box itself (it answers 1: MTK_MOVE, no wait; the
 * box's fault is read late, by the backend); F B(h) V(h) Omega(h) NHC(h) in MTK_END (no wait). */
static int mtk_step_dev(integ *g, const backend_ops *ops, backend *b, long step)
{
    baro *p = g->baro;
    mtk_state st;
    mtk_par par;
    if (!g->pushed && mtk_push(g, ops, b, step) != 0)
        return -1;
    mtk_par_of(g, step, &par, &st);
    if (ops->virial_next(b, 1))
        return -1;
    const int on_dev = ops->mtk(b, MTK_BEGIN, &par, &st);
    if (on_dev < 0)
        return -1;
    if (on_dev) { /* the box moves on the backend too: nothing came back */
        if (ops->mtk(b, MTK_MOVE, &par, NULL) != 0)
            return -1;
    } else {
        mtk_take(g, &st);
        g->stale = 0;
        if (ops->kick(b, par.h) || baro_mtk_apply(p, ops, b, step) || ops->drift(b, g->dt) ||
            baro_mtk_apply(p, ops, b, step))
            return -1;
        mtk_par_of(g, step, &par, &st); /* the volume after the dilations */
    }
    if (ops->mtk(b, MTK_END, &par, NULL) != 0)
        return -1;
    g->stale = 1;
    return 0;
}

/* Whether MTK runs on the backend: it offers it, and TB_BARO_HOST (1: the host path of
 * before, the primitives' round trips) is not set. */
static int mtk_on_backend(integ *g, const backend_ops *ops)
{
    if (g->dev < 0) {
        const char *e = getenv("TB_BARO_HOST");
        g->dev = ops->mtk && !(e && e[0] == '1');
    }
    return g->dev;
}

void integ_lazy(integ *g)
{
    g->lazy = 1;
}

int integ_sync(integ *g, const backend_ops *ops, backend *b)
{
    mtk_state st;
    if (!g || !g->stale)
        return 0;
    if (ops->mtk(b, MTK_PULL, NULL, &st) != 0)
        return -1;
    if (baro_is_mtk(g->baro) || g->type == CFG_INTEG_NOSE_HOOVER)
        mtk_take(g, &st);
    else /* C-rescale with nve or Langevin: the bath's energy is the host's */
        baro_mtk_set(g->baro, &st);
    g->stale = 0;
    return 0;
}

/* One step with the barostat (baro.h): its pressure at the start of a step that rescales,
 * the stretch within the step (evaluate), the virial kept for the next one. */
static int baro_step(integ *g, const backend_ops *ops, backend *b, long step)
{
    const int due = baro_due(g->baro, step);
    const double h = 0.5 * g->dt;
    int rc;
    if (baro_wants_virial(g->baro, step) && ops->virial_next(b, 1) != 0)
        return -1;
    if (due && baro_begin(g->baro, ops, b, step, g->type == CFG_INTEG_NVE
                                                     ? -1.0 : g->boltz * integ_target(g, step)))
        return -1;
    if (g->type == CFG_INTEG_NVE)
        rc = !due ? ops->advance(b, 1)
                  : ops->kick(b, h) || ops->drift(b, g->dt) || evaluate(g, ops, b, step) ||
                        ops->kick(b, h);
    else
        rc = g->type == CFG_INTEG_LANGEVIN ? langevin_step(g, ops, b, step)
                                           : nh_step(g, ops, b, step);
    if (rc != 0)
        return -1;
    return baro_due(g->baro, step + 1) ? baro_keep(g->baro, ops, b) : 0;
}

/* ---- C-rescale on the backend (backend.h's CRS phases) --------------------------------- */

/* The call's numbers for `step` (mtk_par_of's; nve: kT < 0, the kinetic temperature). */
static void crs_par_of(const integ *g, long step, mtk_par *par, mtk_state *st)
{
    mtk_par_of(g, step, par, st);
    if (g->type == CFG_INTEG_NVE)
        par->kT = -1.0;
}

/* Whether C-rescale runs on the backend: it offers the phases and TB_CRESCALE_DEV is not 0
 * (0: the host path of before, for before/after measurements; docs/gpu.md). CRS_PUSH may
 * still answer 0 (a force path that cannot move the box on the device). */
static int crs_on_backend(integ *g, const backend_ops *ops)
{
    if (g->dev < 0) {
        const char *e = getenv("TB_CRESCALE_DEV");
        g->dev = ops->mtk && !(e && e[0] == '0');
    }
    return g->dev;
}

/* The backend takes the barostat's state (the first step, and after a restore); the initial
 * state's virial first where this step rescales and none was kept (virial_before's case). */
static int crs_push(integ *g, const backend_ops *ops, backend *b, long step)
{
    mtk_state st;
    mtk_par par;
    memset(&st, 0, sizeof st);
    if (baro_due(g->baro, step) && baro_mtk_prev(g->baro, ops, b) != 0)
        return -1;
    crs_par_of(g, step, &par, &st);
    memcpy(st.eta, g->eta, sizeof st.eta); /* Nose-Hoover's chain goes with it */
    memcpy(st.veta, g->veta, sizeof st.veta);
    st.e_bath = g->e_bath;
    const int rc = ops->mtk(b, CRS_PUSH, &par, &st);
    if (rc < 0)
        return -1;
    g->pushed = 1;
    g->dev = rc; /* 0: the backend cannot move the box: the host path from here on */
    return 0;
}

/* evaluate() of a step that rescales, on the backend. */
static int crs_eval_dev(integ *g, const backend_ops *ops, backend *b, long step)
{
    mtk_state st;
    mtk_par par;
    crs_par_of(g, step, &par, &st);
    return ops->mtk(b, CRS_EVAL, &par, NULL);
}

/* nh_step with the chain on the backend (mtk_body.h's mtk_state_chain, as MTK's): no wait. */
static int nh_step_dev(integ *g, const backend_ops *ops, backend *b, long step)
{
    mtk_state st;
    mtk_par par;
    const double h = 0.5 * g->dt;
    crs_par_of(g, step, &par, &st);
    g->stale = 1;
    return ops->mtk(b, CRS_NHC_BEGIN, &par, NULL) || ops->kick(b, h) || ops->drift(b, g->dt) ||
                   evaluate(g, ops, b, step) || ops->kick(b, h) ||
                   ops->mtk(b, CRS_NHC_END, &par, NULL)
               ? -1 : 0;
}

/* baro_step with the barostat's state on the backend: the noise drawn here (baro_noise), mu
 * from the pressure at the step's start (CRS_BEGIN), the stretch, forces and work in the step's
 * evaluation (CRS_EVAL; the others: CRS_FORCES), the virial kept there (CRS_KEEP), Nose-Hoover's
 * chain held there too (nh_step_dev): no wait. Langevin's step is the host's (its kinetic
 * energies come back for the bath's heat, its noise goes up). */
static int crs_step_dev(integ *g, const backend_ops *ops, backend *b, long step)
{
    baro *p = g->baro;
    const int due = baro_due(p, step);
    if (!g->pushed && crs_push(g, ops, b, step) != 0)
        return -1;
    if (!g->dev)
        return baro_step(g, ops, b, step);
    if (baro_wants_virial(p, step) && ops->virial_next(b, 1) != 0)
        return -1;
    if (due) {
        mtk_state st;
        mtk_par par;
        baro_noise(p, step);
        crs_par_of(g, step, &par, &st);
        if (ops->mtk(b, CRS_BEGIN, &par, NULL) != 0)
            return -1;
        g->stale = 1;
    }
    int rc;
    if (g->type == CFG_INTEG_NVE)
        rc = !due ? ops->advance(b, 1)
                  : ops->kick(b, 0.5 * g->dt) || ops->drift(b, g->dt) ||
                        evaluate(g, ops, b, step) || ops->kick(b, 0.5 * g->dt);
    else
        rc = g->type == CFG_INTEG_LANGEVIN ? langevin_step(g, ops, b, step)
                                           : nh_step_dev(g, ops, b, step);
    if (rc != 0)
        return -1;
    if (baro_due(p, step + 1)) {
        if (ops->mtk(b, CRS_KEEP, NULL, NULL) != 0)
            return -1;
        baro_kept(p);
        g->stale = 1;
    }
    return 0;
}

int integ_advance(integ *g, const backend_ops *ops, backend *b, long step, long nsteps)
{
    if (g->baro) {
        for (long s = 0; s < nsteps; s++)
            if ((!baro_is_mtk(g->baro)           ? (crs_on_backend(g, ops)
                                                        ? crs_step_dev(g, ops, b, step + s)
                                                        : baro_step(g, ops, b, step + s))
                 : mtk_on_backend(g, ops)        ? mtk_step_dev(g, ops, b, step + s)
                                                 : mtk_step(g, ops, b, step + s)) != 0)
                return -1;
        return g->lazy ? 0 : integ_sync(g, ops, b);
    }
    if (g->type == CFG_INTEG_NVE)
        return ops->advance(b, nsteps);
    for (long s = 0; s < nsteps; s++) {
        const int rc = g->type == CFG_INTEG_LANGEVIN ? langevin_step(g, ops, b, step + s)
                                                      : nh_step(g, ops, b, step + s);
        if (rc != 0)
            return -1;
    }
    return 0;
}

int integ_save_baro(const integ *g, unsigned char **buf, size_t *len)
{
    *buf = NULL;
    *len = 0;
    return g->baro ? baro_save(g->baro, buf, len) : 0;
}

int integ_restore_baro(integ *g, const unsigned char *buf, size_t len, const char *path)
{
    g->pushed = g->stale = 0; /* the backend takes the restored state at the next step */
    return g->baro ? baro_restore(g->baro, buf, len, path) : 0;
}

/* ---- checkpoint block ----------------------------------------------------------------- */

int integ_save(const integ *g, unsigned char **buf, size_t *len)
{
    integ_blob hd;
    const size_t rs = g->rng ? gsl_rng_size(g->rng) : 0;
    *buf = NULL;
    *len = 0;
    if (g->type == CFG_INTEG_NVE)
        return 0;
    memset(&hd, 0, sizeof hd);
    hd.version = INTEG_VERSION;
    hd.type = (uint32_t)g->type;
    hd.m = (uint32_t)g->m;
    hd.e_bath = g->e_bath;
    memcpy(hd.eta, g->eta, sizeof hd.eta);
    memcpy(hd.veta, g->veta, sizeof hd.veta);
    if (g->rng)
        snprintf(hd.rng_name, sizeof hd.rng_name, "%s", gsl_rng_name(g->rng));
    hd.rng_size = rs;
    *buf = malloc(sizeof hd + rs);
    if (!*buf)
        return tb_error(NULL, 0, "out of host memory");
    memcpy(*buf, &hd, sizeof hd);
    if (rs)
        memcpy(*buf + sizeof hd, gsl_rng_state(g->rng), rs);
    *len = sizeof hd + rs;
    return 0;
}

int integ_restore(integ *g, const unsigned char *buf, size_t len, const char *path)
{
    integ_blob hd;
    if (g->type == CFG_INTEG_NVE)
        return 0;
    if (!buf || len == 0) {
        tb_notice("%s has no thermostat state: %s starts afresh", path,
                  cfg_integrator_name(g->type));
        return 0;
    }
    if (len < sizeof hd) {
        tb_error(path, 0, "--restart: thermostat block is truncated");
        return TB_EXIT_USAGE;
    }
    memcpy(&hd, buf, sizeof hd);
    if (hd.version != INTEG_VERSION) {
        tb_error(path, 0, "--restart: thermostat block of version %u (expected %d)",
                 (unsigned)hd.version, INTEG_VERSION);
        return TB_EXIT_USAGE;
    }
    if ((int)hd.type != g->type) {
        tb_notice("%s holds the state of a %s run: %s starts afresh", path,
                  cfg_integrator_name((int)hd.type), cfg_integrator_name(g->type));
        return 0;
    }
    if (g->type == CFG_INTEG_NOSE_HOOVER && (int)hd.m != g->m) {
        tb_error(path, 0, "--restart: checkpoint has a Nose-Hoover chain of %u but "
                          "integrator.nh.chain = %d", (unsigned)hd.m, g->m);
        return TB_EXIT_USAGE;
    }
    if (g->rng && (hd.rng_size != gsl_rng_size(g->rng) ||
                   strcmp(hd.rng_name, gsl_rng_name(g->rng)) != 0 || len != sizeof hd + hd.rng_size)) {
        tb_error(path, 0, "--restart: the checkpoint's random number generator state does not "
                          "fit (%s, %llu bytes)", hd.rng_name, (unsigned long long)hd.rng_size);
        return TB_EXIT_USAGE;
    }
    g->e_bath = hd.e_bath;
    g->pushed = g->stale = 0; /* the backend takes the restored chain at the next step */
    memcpy(g->eta, hd.eta, sizeof hd.eta);
    memcpy(g->veta, hd.veta, sizeof hd.veta);
    if (g->rng)
        memcpy(gsl_rng_state(g->rng), buf + sizeof hd, hd.rng_size);
    return 0;
}

/* ---- can the first step be taken ------------------------------------------------------- */

/* Minimum-image distance between particles i and j of s. */
static double pair_distance(const sim_state *s, int i, int j)
{
    double d[3] = {s->pos[3 * j] - s->pos[3 * i], s->pos[3 * j + 1] - s->pos[3 * i + 1],
                   s->pos[3 * j + 2] - s->pos[3 * i + 2]};
    box_min_image_d(&s->box, d);
    return sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
}

/* The shortest interaction range of c and s [sigma] and the setting it comes from. */
static double interaction_range(const sim_state *s, const sim_config *c, const char **what)
{
    const tb_box_d box = s->box;
    const char *setting;
    double range = pot_range_min(c, &box, &setting);
    *what = setting;
    if (!setting) {
        range = HUGE_VAL;
        *what = "the extent of the initial cluster";
    }
    const double half = box_half_width_d(&s->box);
    if (half > 0 && half < range) {
        range = half;
        *what = "half of system.box";
    }
    if (range == HUGE_VAL) { /* an open cluster without cutoffs: its largest bounding-box edge */
        range = 0.0;
        for (int a = 0; a < 3; a++) {
            double lo = HUGE_VAL, hi = -HUGE_VAL;
            for (int i = 0; i < s->n; i++) {
                lo = fmin(lo, s->pos[3 * i + a]);
                hi = fmax(hi, s->pos[3 * i + a]);
            }
            range = fmax(range, hi - lo);
        }
    }
    return range;
}

int integ_check_start(const sim_state *s, const sim_config *c, const char *where)
{
    const double dt = c->integrator.dt;
    const char *what;
    double worst = 0.0;
    int far = -1;
    for (int i = 0; i < s->n; i++) {
        const double *f = s->force + 3 * i;
        const double k = dt * dt / (2.0 * sim_mass(s, i));
        const double d = k * hypot(hypot(f[0], f[1]), f[2]); /* |F| up to DBL_MAX */
        if (far < 0 || d > worst || (isnan(d) && !isnan(worst))) {
            worst = d;
            far = i;
        }
    }
    const double range = interaction_range(s, c, &what);
    if (far < 0 || worst <= range) /* a NaN displacement is not <= range */
        return 0;
    int near = -1;
    double dmin = HUGE_VAL;
    for (int j = 0; j < s->n; j++) {
        const double r = j == far ? HUGE_VAL : pair_distance(s, far, j);
        if (r < dmin) {
            dmin = r;
            near = j;
        }
    }
    const double *f = s->force + 3 * far;
    tb_error(where, 0, "the initial state cannot be integrated at integrator.dt = %g: the force "
                       "on particle %d (%.3g epsilon/sigma) moves it %.3g sigma in one step "
                       "(|F| dt^2 / 2m, %s = %g), more than the shortest interaction "
                       "range, %g sigma (%s); its closest particle is %d, %.3g sigma away "
                       "(overlapping particles, too small a mass or too long a step)",
             dt, far, hypot(hypot(f[0], f[1]), f[2]), worst,
             c->system.species_given ? "its species' mass" : "system.mass",
             sim_mass(s, far) / units_of(s->units)->mvv2e, range, what,
             near, dmin);
    return TB_EXIT_USAGE;
}
