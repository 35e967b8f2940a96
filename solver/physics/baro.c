/* baro.c — stochastic cell rescaling (baro.h) over the backends' primitives, its conserved
 * energy term and its checkpoint block.
 *
 * Invariant (as integrate.c's): a rescale depends only on the backend's state (virial,
 * velocities, box) and this struct (W, the RNG), both saved in a checkpoint, so a restarted
 * run repeats an uninterrupted one bit for bit. */
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
#include "solver/physics/crescale_body.h"
#include "solver/physics/mtk_body.h"
#include "solver/physics/potential.h"
#include "solver/physics/rng_seed.h"

#define BARO_VERSION 1 /* iso and c-rescale: the block as it always was */
#define BARO_VERSION_MTK6 2 /* mtk aniso and tri: version 1's block, the RNG, then baro_tail */

struct baro {
    int type, coupling, every;
    long steps;             /* integrator.steps: the ramp's length */
    double p0, p1;          /* target at step 0 and at `steps` [pressure] */
    double period, beta;    /* tau_P [time], compressibility [1/pressure] */
    double dt;              /* integrator.dt [time] */
    double nktv2p;          /* energy / volume -> pressure */
    int dof;                /* N_f, for the kinetic temperature under nve */
    int n;                  /* particles (MTK's N) */
    double om[6];           /* MTK: the strain rates [1/time]: iso om[0] (every edge), aniso
                             * the diagonal xx yy zz, tri also xy xz yz (the virial's order) */
    double w_mass;          /* MTK: its mass W = (N + 1) kT tau_P^2, at the last kick */
    double range;           /* the widest cutoff: the box's half width may not go below it */
    double v0;              /* volume at creation [length^3] */
    tb_box_d box;           /* the box, moved as the backend moves it (box_stretch_d) */
    double p_last;          /* target of the last rescale */
    double work;            /* W of baro.h [energy] */
    double mu[3];           /* the stretch of the step under way (baro_begin) */
    double xi[3];           /* its standard normals (iso xi[0]), drawn at baro_begin */
    double map[6];          /* MTK: the map of its half-step dilation (box_deform_d) */
    double w_old[6];        /* the virial its pressure came from */
    double w_prev[6];       /* the virial of the last step before a rescale (baro_keep) */
    int have_prev;
    gsl_rng *rng;
};

/* The block saved: what a restart needs beyond the state's box. */
typedef struct baro_blob {
    uint32_t version, type, coupling, have_prev;
    double work, p_last, omega_dot, w_mass;
    double w_prev[6];
    char rng_name[32];
    uint64_t rng_size;
} baro_blob;

/* After the RNG in a version-2 block: the strain rates but the first (in omega_dot). */
typedef struct baro_tail {
    double om[5];
} baro_tail;

int baro_create(baro **out, const sim_config *c, const sim_state *s)
{
    *out = NULL;
    if (!c->integrator.barostat.enabled)
        return 0;
    if (c->integrator.barostat.coupling == CFG_COUPLE_TRI && mtk_tilt_beyond(&s->box) >= 0) {
        const int k = mtk_tilt_beyond(&s->box);
        tb_error(c->path, 0, "integrator.barostat.coupling: tri needs the box within LAMMPS's "
                             "skew limits |xy|, |xz| <= lx/2, |yz| <= ly/2 (got %s = %g)",
                 (const char *[]){"xy", "xz", "yz"}[k], (double[]){s->box.xy, s->box.xz, s->box.yz}[k]);
        return TB_EXIT_USAGE;
    }
    baro *p = calloc(1, sizeof *p);
    if (!p)
        return tb_error(NULL, 0, "out of host memory");
    int all_cut;
    p->type = c->integrator.barostat.type;
    p->coupling = c->integrator.barostat.coupling;
    p->every = c->integrator.barostat.every > 0 && p->type == CFG_BARO_CRESCALE
                   ? c->integrator.barostat.every : 1;
    p->n = s->n;
    p->steps = c->integrator.steps;
    p->p0 = c->integrator.barostat.pressure;
    p->p1 = c->integrator.barostat.pressure_end;
    p->period = c->integrator.barostat.period;
    p->beta = c->integrator.barostat.compressibility;
    p->dt = c->integrator.dt;
    p->nktv2p = units_of(s->units)->nktv2p;
    p->dof = sim_dof(s);
    p->range = pot_range(c, &s->box, &all_cut);
    p->box = s->box;
    p->v0 = box_volume_d(&s->box);
    p->p_last = baro_target(p, s->step > 0 ? s->step - 1 : 0);
    p->rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!p->rng) {
        baro_destroy(p);
        return tb_error(NULL, 0, "out of host memory for the barostat's noise");
    }
    gsl_rng_set(p->rng, rng_stream_seed(c->system.seed, 0x4241524f53544154ULL)); /* "BAROSTAT" */
    *out = p;
    return 0;
}

void baro_destroy(baro *p)
{
    if (!p)
        return;
    if (p->rng)
        gsl_rng_free(p->rng);
    free(p);
}

int baro_due(const baro *p, long step)
{
    return p && (step + 1) % p->every == 0;
}

int baro_wants_virial(const baro *p, long step)
{
    return baro_due(p, step) || baro_due(p, step + 1);
}

double baro_target(const baro *p, long step)
{
    const double f = p->steps > 0 ? (double)(step + 1) / (double)p->steps : 1.0;
    return p->p0 + (p->p1 - p->p0) * (f > 1.0 ? 1.0 : f);
}

double baro_energy(const baro *p)
{
    if (p && p->type == CFG_BARO_MTK) { /* each strain rate of mass W */
        double e = 0.0;
        if (p->coupling == CFG_COUPLE_ISO)
            e = 3.0 * p->om[0] * p->om[0];
        else
            for (int a = 0; a < (p->coupling == CFG_COUPLE_TRI ? 6 : 3); a++)
                e += p->om[a] * p->om[a];
        return 0.5 * p->w_mass * e + p->p_last * box_volume_d(&p->box) / p->nktv2p;
    }
    return p ? p->p_last * box_volume_d(&p->box) / p->nktv2p + p->work : 0.0;
}

int baro_is_mtk(const baro *p)
{
    return p && p->type == CFG_BARO_MTK;
}

static int virial_before(baro *p, const backend_ops *ops, backend *b, double w[6]);
static int box_check(const baro *p, const tb_box_d *nb, long step);

/* ---- MTK (baro.h) ------------------------------------------------------------------------ */

int baro_mtk_omega(baro *p, const backend_ops *ops, backend *b, int before, double h,
                   double kT, long step, double *K)
{
    double w[6], k[6];
    if (before ? virial_before(p, ops, b, w) : ops->virial(b, w))
        return -1;
    if (!before) { /* the next step's pressure starts from this evaluation */
        memcpy(p->w_prev, w, sizeof p->w_prev);
        p->have_prev = 1;
    }
    const int iso = p->coupling == CFG_COUPLE_ISO;
    if (iso ? ops->kinetic(b, K) : ops->kinetic_axes(b, k))
        return -1;
    if (!iso)
        *K = k[0] + k[1] + k[2];
    p->p_last = baro_target(p, step);
    mtk_omega_kick(p->om, &p->w_mass, p->coupling, p->n, p->nktv2p, p->period, kT, p->p_last,
                   box_volume_d(&p->box), h, w, k, *K);
    return 0;
}

double baro_mtk_vfactor(const baro *p, double h)
{
    return mtk_vfactor(p->om, p->n, h);
}

int baro_mtk_velocities(baro *p, const backend_ops *ops, backend *b, double h)
{
    if (p->coupling == CFG_COUPLE_ISO)
        return ops->scale(b, baro_mtk_vfactor(p, h));
    double vm[6];
    mtk_vmap(p->om, p->coupling, p->n, h, vm);
    return ops->rescale(b, NULL, vm);
}

int baro_mtk_dilate(baro *p, const backend_ops *ops, backend *b, double h, long step)
{
    mtk_box_map(p->om, p->coupling, h, p->map);
    return baro_mtk_apply(p, ops, b, step);
}

int baro_mtk_apply(baro *p, const backend_ops *ops, backend *b, long step)
{
    tb_box_d nb = p->box;
    box_deform_d(&nb, p->map);
    if (box_check(p, &nb, step) != 0 || ops->rescale(b, p->map, NULL))
        return -1;
    p->box = nb;
    return 0;
}

void baro_mtk_get(const baro *p, mtk_state *s, mtk_par *par)
{
    memcpy(s->om, p->om, sizeof s->om);
    s->w_mass = p->w_mass;
    s->p_last = p->p_last;
    memcpy(s->w_prev, p->w_prev, sizeof s->w_prev);
    memcpy(s->map, p->map, sizeof s->map);
    par->coupling = p->coupling;
    par->n = p->n;
    par->nktv2p = p->nktv2p;
    par->period_p = p->period;
    par->vol = box_volume_d(&p->box);
    par->v0 = p->v0;
    par->range = p->range;
    s->box = p->box;
    s->work = p->work; /* C-rescale's (crescale_body.h) */
    memcpy(s->w_old, p->w_old, sizeof s->w_old);
    par->cr_f = p->beta * (p->every * p->dt) / p->period;
    par->dof = p->dof;
    memcpy(par->xi, p->xi, sizeof par->xi);
}

int baro_mtk_prev(baro *p, const backend_ops *ops, backend *b)
{
    if (p->have_prev)
        return 0;
    if (ops->virial(b, p->w_prev)) /* the initial state's: as virial_before would ask */
        return -1;
    p->have_prev = 1;
    return 0;
}

void baro_mtk_set(baro *p, const mtk_state *s)
{
    memcpy(p->om, s->om, sizeof p->om);
    p->w_mass = s->w_mass;
    p->p_last = s->p_last;
    memcpy(p->w_prev, s->w_prev, sizeof p->w_prev);
    memcpy(p->map, s->map, sizeof p->map);
    if (s->box_dev) /* the backend moved the box (MTK_MOVE, CRS_EVAL) */
        p->box = s->box;
    if (p->type == CFG_BARO_CRESCALE) {
        p->work = s->work;
        memcpy(p->w_old, s->w_old, sizeof p->w_old);
        memcpy(p->mu, s->map, sizeof p->mu);
    }
}

/* The standard normals of the rescale of a step (iso one, aniso three), in the order they were
 * always drawn: they do not depend on the state, so the device path takes them as an argument. */
static void crescale_noise(baro *p)
{
    for (int a = 0; a < (p->coupling == CFG_COUPLE_ISO ? 1 : 3); a++)
        p->xi[a] = gsl_ran_gaussian_ziggurat(p->rng, 1.0);
}

/* The virial of the evaluation before step `step` (the previous step's, kept by baro_keep;
 * the initial state's, asked of the backend, at the first step of a run). */
static int virial_before(baro *p, const backend_ops *ops, backend *b, double w[6])
{
    if (p->have_prev) {
        memcpy(w, p->w_prev, sizeof p->w_prev);
        return 0;
    }
    return ops->virial(b, w);
}

/* Whether the box nb after a stretch can be used: not exploded (volume beyond 1e6 times the
 * starting one, or not finite), not collapsed (half its smallest width below the widest
 * cutoff). 0, or -1 with the message naming the step. */
int baro_box_fault(int fault, const tb_box_d *nb, long step, double v0, double range)
{
    const double vol1 = box_volume_d(nb), half = box_half_width_d(nb);
    if (fault == 1)
        return tb_error(NULL, 0, "step %ld: the barostat's box exploded (volume %g, %g at the "
                                 "start): check integrator.barostat.pressure, compressibility "
                                 "and period", step + 1, vol1, v0);
    if (fault == 2)
        return tb_error(NULL, 0, "step %ld: the barostat's box collapsed: half its smallest "
                                 "width, %g, is below the widest cutoff, %g (volume %g, %g at "
                                 "the start)", step + 1, half, range, vol1, v0);
    const int k = fault - 3; /* LAMMPS would flip the box (fix npt flip yes); tribody keeps one cell */
    return tb_error(NULL, 0, "step %ld: the barostat's box tilted beyond LAMMPS's skew limit: "
                             "%s = %g, beyond half of %s = %g (a sheared liquid or solid; "
                             "tribody does not flip the box)", step + 1,
                    (const char *[]){"xy", "xz", "yz"}[k], (double[]){nb->xy, nb->xz, nb->yz}[k],
                    k == 2 ? "ly" : "lx", k == 2 ? nb->l[1] : nb->l[0]);
}

static int box_check(const baro *p, const tb_box_d *nb, long step)
{
    const int f = mtk_box_fault(nb, p->coupling, p->v0, p->range);
    return f ? baro_box_fault(f, nb, step, p->v0, p->range) : 0;
}

int baro_begin(baro *p, const backend_ops *ops, backend *b, long step, double kT)
{
    double k[6];
    if (virial_before(p, ops, b, p->w_old) || ops->kinetic_axes(b, k))
        return -1;
    p->p_last = baro_target(p, step);
    crescale_noise(p);
    crescale_mu(p->coupling, p->beta * (p->every * p->dt) / p->period, p->p_last, p->nktv2p, kT,
                p->dof, box_volume_d(&p->box), k, p->w_old, p->xi, p->mu);
    return 0;
}

int baro_noise(baro *p, long step)
{
    p->p_last = baro_target(p, step);
    crescale_noise(p);
    return 0;
}

int baro_rescale(baro *p, const backend_ops *ops, backend *b, long step)
{
    double k[6];
    tb_box_d nb = p->box;
    box_stretch_d(&nb, p->mu);
    const double vol = box_volume_d(&p->box), vol1 = box_volume_d(&nb);
    if (box_check(p, &nb, step) != 0)
        return -1;
    const double vm[3] = {1.0 / p->mu[0], 1.0 / p->mu[1], 1.0 / p->mu[2]};
    const double m[6] = {p->mu[0], p->mu[1], p->mu[2], 0.0, 0.0, 0.0},
                 v[6] = {vm[0], vm[1], vm[2], 0.0, 0.0, 0.0};
    if (ops->kinetic_axes(b, k) || ops->rescale(b, m, v))
        return -1;
    crescale_work_move(&p->work, k, p->mu, p->p_last, vol, vol1, p->nktv2p);
    p->box = nb;
    return 0;
}

int baro_end(baro *p, const backend_ops *ops, backend *b)
{
    double w[6];
    if (ops->virial(b, w))
        return -1;
    crescale_work_end(&p->work, p->mu, p->w_old, w);
    return 0;
}

int baro_keep(baro *p, const backend_ops *ops, backend *b)
{
    if (ops->virial(b, p->w_prev))
        return -1;
    p->have_prev = 1;
    return 0;
}

void baro_kept(baro *p)
{
    p->have_prev = 1;
}

int baro_save(const baro *p, unsigned char **buf, size_t *len)
{
    baro_blob hd;
    baro_tail tl;
    const size_t rs = gsl_rng_size(p->rng);
    const int six = p->type == CFG_BARO_MTK && p->coupling != CFG_COUPLE_ISO;
    const size_t ts = six ? sizeof tl : 0;
    memset(&hd, 0, sizeof hd);
    memcpy(tl.om, p->om + 1, sizeof tl.om);
    hd.version = six ? BARO_VERSION_MTK6 : BARO_VERSION;
    hd.type = (uint32_t)p->type;
    hd.coupling = (uint32_t)p->coupling;
    hd.work = p->work;
    hd.p_last = p->p_last;
    hd.have_prev = (uint32_t)p->have_prev;
    hd.omega_dot = p->om[0];
    hd.w_mass = p->w_mass;
    memcpy(hd.w_prev, p->w_prev, sizeof hd.w_prev);
    snprintf(hd.rng_name, sizeof hd.rng_name, "%s", gsl_rng_name(p->rng));
    hd.rng_size = rs;
    *len = 0;
    *buf = malloc(sizeof hd + rs + ts);
    if (!*buf)
        return tb_error(NULL, 0, "out of host memory");
    memcpy(*buf, &hd, sizeof hd);
    memcpy(*buf + sizeof hd, gsl_rng_state(p->rng), rs);
    if (ts)
        memcpy(*buf + sizeof hd + rs, &tl, ts);
    *len = sizeof hd + rs + ts;
    return 0;
}

int baro_restore(baro *p, const unsigned char *buf, size_t len, const char *path)
{
    baro_blob hd;
    if (!buf || len == 0) {
        tb_notice("%s has no barostat state: the barostat starts afresh", path);
        return 0;
    }
    if (len < sizeof hd)
        return tb_error(path, 0, "--restart: barostat block is truncated"), TB_EXIT_USAGE;
    memcpy(&hd, buf, sizeof hd);
    const int six = p->type == CFG_BARO_MTK && p->coupling != CFG_COUPLE_ISO;
    const uint32_t want = six ? BARO_VERSION_MTK6 : BARO_VERSION;
    const size_t ts = six ? sizeof(baro_tail) : 0;
    if (hd.version != want || (int)hd.type != p->type || (int)hd.coupling != p->coupling)
        return tb_error(path, 0, "--restart: barostat block of version %u, type %u, coupling %u "
                                 "does not fit (expected %d, %d, %d)", (unsigned)hd.version,
                        (unsigned)hd.type, (unsigned)hd.coupling, (int)want, p->type,
                        p->coupling), TB_EXIT_USAGE;
    if (hd.rng_size != gsl_rng_size(p->rng) || strcmp(hd.rng_name, gsl_rng_name(p->rng)) != 0 ||
        len != sizeof hd + hd.rng_size + ts)
        return tb_error(path, 0, "--restart: the barostat's random number generator state does "
                                 "not fit (%s, %llu bytes)", hd.rng_name,
                        (unsigned long long)hd.rng_size), TB_EXIT_USAGE;
    p->work = hd.work;
    p->p_last = hd.p_last;
    p->have_prev = hd.have_prev != 0;
    p->om[0] = hd.omega_dot;
    if (ts) {
        baro_tail tl;
        memcpy(&tl, buf + sizeof hd + hd.rng_size, ts);
        memcpy(p->om + 1, tl.om, sizeof tl.om);
    }
    p->w_mass = hd.w_mass;
    memcpy(p->w_prev, hd.w_prev, sizeof p->w_prev);
    memcpy(gsl_rng_state(p->rng), buf + sizeof hd, hd.rng_size);
    return 0;
}
