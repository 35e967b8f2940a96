/* engine.c — the engine behind the library and `tribody eval` (engine.h): configuration,
 * state, backend, evaluations, steps and checkpoints, every failure returned. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/check.h"
#include "solver/io/checkpoint.h"
#include "solver/io/init.h"
#include "solver/io/restart.h"
#include "solver/lib/engine.h"
#include "solver/par/mpi.h"
#include "solver/physics/integrate.h"
#include "solver/physics/potential.h"

double engine_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The term backends' results are of older positions (or of an older box: gone). */
static void terms_stale(tb_engine *e, int box)
{
    for (int k = 0; k < 2; k++) {
        e->tfresh[k] = 0;
        if (box && e->tb[k]) {
            e->ops->destroy(e->tb[k]);
            e->tb[k] = NULL;
        }
    }
}

int engine_config(tb_engine *e, const char *path, const char *text, int n_set, char *const sets[])
{
    const char *w = getenv("TB_ONE_WAIT");
    memset(e, 0, sizeof *e);
    e->nf.step = -1;
    e->one_wait = !(w && w[0] == '0' && !w[1]);
    return text ? cfg_load_text(&e->cfg, path, text, n_set, sets)
                : cfg_load(&e->cfg, path, n_set, sets);
}

int engine_state_from_config(tb_engine *e)
{
    return sim_init(&e->s, &e->cfg);
}

/* A box the state can take: finite numbers, a positive edge along every periodic axis. */
static int check_box(const tb_engine *e, const tb_box_d *box)
{
    const double v[6] = {box->l[0], box->l[1], box->l[2], box->xy, box->xz, box->yz};
    for (int k = 0; k < 6; k++)
        if (!isfinite(v[k]) || !isfinite(box->lo[k % 3]))
            return tb_error(e->cfg.path, 0, "box: a non-finite edge, tilt or origin (got %g)", v[k]);
    for (int a = 0; a < 3; a++)
        if (box->pbc >> a & 1 && !(box->l[a] > 0))
            return tb_error(e->cfg.path, 0, "box: the edge along periodic axis %c must be > 0 "
                                            "(got %g)", "xyz"[a], box->l[a]);
    return 0;
}

/* Positions into the state: finite, placed (init.h: wrapped into a periodic box) and, in the
 * float precisions, within the extent floats resolve; a refusal leaves the state as it was.
 * One pass (sim_place_from) from the caller's array into e->spare, which then becomes s.pos
 * (the old s.pos the next spare): no copy of the old positions to undo a refusal with. In a
 * box periodic along every axis the extent is the box's (sim_check_extent reads no position). */
static int take_positions(tb_engine *e, const double *pos, double *keep)
{
    const int prec = e->cfg.solver.precision;
    if (!e->spare && !(e->spare = malloc(3 * (size_t)e->s.n * sizeof *e->spare)))
        return tb_error(NULL, 0, "out of host memory");
    const long bad = sim_place_from(&e->s, pos, e->spare, keep);
    if (bad >= 0)
        return tb_error(e->cfg.path, 0, "positions: particle %ld has a non-finite coordinate "
                                        "(got %g)", bad / 3, pos[bad]), TB_EXIT_USAGE;
    double *old = e->s.pos;
    e->s.pos = e->spare;
    const int rc = sim_check_extent(&e->s, prec, e->cfg.path);
    if (rc != 0) {
        e->s.pos = old;
        return rc;
    }
    e->spare = old;
    e->put |= BACKEND_PUT_POS;
    e->fresh = 0;
    terms_stale(e, 0);
    return 0;
}

int engine_state_from_arrays(tb_engine *e, int n, const double *pos, const int *type,
                             const tb_box_d *box)
{
    if (n < 1)
        return tb_error(e->cfg.path, 0, "particles: at least 1 (got %d)", n), TB_EXIT_USAGE;
    if (check_box(e, box) != 0)
        return TB_EXIT_USAGE;
    if (sim_state_alloc(&e->s, n) != 0)
        return -1;
    sim_set_species(&e->s, &e->cfg);
    e->s.box = *box;
    for (int i = 0; type && i < n; i++) {
        if (type[i] < 0 || type[i] >= e->s.ntypes)
            return tb_error(e->cfg.path, 0, "species: particle %d is of species %d, but "
                                            "system.species has %d (0 .. %d)", i, type[i],
                            e->s.ntypes, e->s.ntypes - 1), TB_EXIT_USAGE;
        e->s.type[i] = type[i];
    }
    if (sim_check_cutoffs(&e->s, &e->cfg, e->cfg.path, "box", "the box given") != 0)
        return TB_EXIT_USAGE;
    return take_positions(e, pos, NULL);
}

/* s.pos, spare and s.force into the backend's host memory (backend_ops.host_alloc), once,
 * after the backend is made (the GPU's allocator needs its device): all three or none. */
static void engine_pin(tb_engine *e)
{
    const size_t bytes = 3 * (size_t)e->s.n * sizeof(double);
    double *p[3] = {NULL, NULL, NULL};
    if (e->pinned || !e->ops->host_alloc || !e->ops->host_free)
        return;
    for (int k = 0; k < 3; k++)
        if (!(p[k] = e->ops->host_alloc(bytes))) {
            for (int j = 0; j < k; j++)
                e->ops->host_free(p[j]);
            return; /* the heap's arrays serve, through the backend's staging */
        }
    sim_copy_doubles(p[0], e->s.pos, 3 * (size_t)e->s.n);
    sim_copy_doubles(p[2], e->s.force, 3 * (size_t)e->s.n);
    e->heap[0] = e->s.pos;
    e->heap[1] = e->spare;
    e->heap[2] = e->s.force;
    e->s.pos = p[0];
    e->spare = p[1];
    e->s.force = p[2];
    e->pinned = 1;
}

int engine_start(tb_engine *e)
{
    int rc;
    if (!e->ops && (rc = backend_select(&e->cfg, &e->ops)) != 0)
        return rc;
    if (e->b)
        return 0;
    if ((rc = e->ops->create(&e->b, &e->cfg, &e->s)) != 0) {
        e->b = NULL;
        return rc;
    }
    engine_pin(e);
    e->put = 0;
    e->fresh = 0;
    return 0;
}

int engine_set_positions(tb_engine *e, const double *pos, double *keep)
{
    const double t0 = engine_now();
    const int rc = take_positions(e, pos, keep);
    e->tm[ENGINE_SET] += engine_now() - t0;
    return rc;
}

int engine_set_velocities(tb_engine *e, const double *vel)
{
    for (long i = 0; i < 3L * e->s.n; i++)
        if (!isfinite(vel[i]))
            return tb_error(e->cfg.path, 0, "velocities: particle %ld has a non-finite component "
                                            "(got %g)", i / 3, vel[i]), TB_EXIT_USAGE;
    memcpy(e->s.vel, vel, 3 * (size_t)e->s.n * sizeof *vel);
    e->put |= BACKEND_PUT_VEL;
    e->kin_ok = 0;
    return 0;
}

int engine_set_box(tb_engine *e, const tb_box_d *box)
{
    const tb_box_d old = e->s.box;
    if (check_box(e, box) != 0)
        return TB_EXIT_USAGE;
    e->s.box = *box;
    if (sim_check_cutoffs(&e->s, &e->cfg, e->cfg.path, "box", "the box given") != 0) {
        e->s.box = old;
        return TB_EXIT_USAGE;
    }
    sim_place(&e->s);
    /* the box is in the backend's coefficients, lists and cells: a new backend */
    if (e->b)
        e->ops->destroy(e->b);
    e->b = NULL;
    e->fresh = 0;
    terms_stale(e, 1);
    return 0;
}

/* The first non-finite value of the last evaluation as one line naming `what`. */
static int report_nonfinite(tb_engine *e, const char *what)
{
    tb_nonfinite *nf = &e->nf;
    int t = nf->term;
    char who[96] = "";
    if (nf->particle < 0)
        nf->particle = sim_nonfinite_particle(&e->s, &t);
    if (nf->particle >= 0)
        snprintf(who, sizeof who, " (particle %d%s%s)", nf->particle, t != nf->term ? ", its " : "",
                 t != nf->term ? tb_nonfinite_term(t) : "");
    return tb_error(e->cfg.path, 0, "%s has a non-finite %s%s: overlapping particles or values "
                                    "too large; nothing written", what, tb_nonfinite_term(nf->term),
                    who);
}

int engine_compute(tb_engine *e, const char *what)
{
    int rc;
    if ((rc = engine_start(e)) != 0)
        return rc;
    if (e->fresh)
        return 0;
    /* The host's positions and velocities are the backend's (uploaded now, or fetched after
     * the last run): only the results come back. Each phase waits for its copies and kernels
     * (compute, results and check_finite synchronize), so the timers see them apart; on the
     * GPU, put of page-locked positions (engine_pin) and the finiteness check are queued
     * behind the next phase's wait (include/tribody.h, tribody_timings), and the evaluation
     * and the results are one call with one wait (compute_results; its time the evaluation
     * phase's, the download's none) unless TB_ONE_WAIT=0. */
    double t = engine_now(), t1;
    if (e->put && e->ops->put(e->b, &e->s, e->put) != 0)
        return TB_EXIT_RUNTIME;
    e->put = 0;
    e->tm[ENGINE_UPLOAD] += (t1 = engine_now()) - t;
    if (e->one_wait && e->ops->compute_results) { /* the download inside the evaluation's phase */
        if (e->ops->compute_results(e->b, &e->s) != 0)
            return TB_EXIT_RUNTIME;
        e->tm[ENGINE_EVAL] += (t = engine_now()) - t1;
        t1 = t;
    } else {
        if (e->ops->compute(e->b) != 0)
            return TB_EXIT_RUNTIME;
        e->tm[ENGINE_EVAL] += (t = engine_now()) - t1;
        if (e->ops->results(e->b, &e->s) != 0)
            return TB_EXIT_RUNTIME;
        e->tm[ENGINE_DOWNLOAD] += (t1 = engine_now()) - t;
    }
    e->n_eval++;
    if (e->ops->check_finite(e->b, 0, &e->nf) != 0)
        return TB_EXIT_RUNTIME;
    if (e->nf.step < 0) { /* the backend saw every particle: the virial, kinetic energy ... */
        if (!e->kin_ok) { /* the velocities' sums, kept while the velocities stay */
            sim_kinetic_sums(&e->s, e->kin);
            e->kin_ok = 1;
        }
        sim_find_nonfinite_derived_kin(&e->s, &e->nf, e->kin);
    }
    e->tm[ENGINE_CHECK] += engine_now() - t1;
    if (e->nf.step >= 0) { /* an input whose energy or forces overflow is a bad input */
        report_nonfinite(e, what);
        return TB_EXIT_USAGE;
    }
    e->fresh = 1;
    return 0;
}

int engine_run(tb_engine *e, long k)
{
    int rc;
    if (k < 0)
        return tb_error(e->cfg.path, 0, "steps: at least 0 (got %ld)", k), TB_EXIT_USAGE;
    if ((rc = engine_compute(e, "the state")) != 0)
        return rc;
    /* velocities set after the last evaluation (which stays fresh: forces do not depend on
     * them) go up before the steps use them */
    if (e->put && e->ops->put(e->b, &e->s, e->put) != 0)
        return TB_EXIT_RUNTIME;
    e->put = 0;
    if (!e->g) {
        if ((rc = integ_check_start(&e->s, &e->cfg, e->cfg.path)) != 0)
            return rc;
        if (integ_create(&e->g, &e->cfg, &e->s) != 0)
            return TB_EXIT_RUNTIME;
        e->s.e0 = sim_conserved(&e->s);
    }
    if (k == 0)
        return 0;
    e->kin_ok = 0; /* the steps move the velocities */
    if (e->ops->virial_next(e->b, k) != 0 || integ_advance(e->g, e->ops, e->b, e->s.step, k) != 0)
        return TB_EXIT_RUNTIME;
    e->s.step += k;
    e->s.time = (double)e->s.step * e->cfg.integrator.dt;
    e->fresh = 0;
    terms_stale(e, 1); /* a barostat may have moved the box the term backends were made in */
    if (e->ops->fetch(e->b, &e->s) != 0 || e->ops->check_finite(e->b, e->s.step, &e->nf) != 0)
        return TB_EXIT_RUNTIME;
    e->s.e_bath = integ_bath(e->g);
    if (e->nf.step >= 0) {
        char what[64];
        snprintf(what, sizeof what, "the state after step %ld", e->s.step);
        report_nonfinite(e, what);
        return TB_EXIT_RUNTIME;
    }
    e->fresh = 1;
    return 0;
}

int engine_checkpoint(tb_engine *e, const char *path)
{
    ckpt_extra x;
    int rc;
    if ((rc = engine_compute(e, "the state")) != 0)
        return rc;
    memset(&x, 0, sizeof x);
    x.thermo_bytes = -1;
    x.traj_bytes = -1;
    x.dt = e->cfg.integrator.dt;
    if (!e->run_id)
        e->run_id = run_id_new();
    x.run_id = e->run_id;
    run_physics(&e->cfg, x.phys, sizeof x.phys);
    if (e->g && integ_save(e->g, &x.thermostat, &x.thermostat_len) != 0)
        return TB_EXIT_RUNTIME;
    rc = ckpt_write(path, &e->s, &x);
    free(x.thermostat);
    return rc != 0 ? TB_EXIT_RUNTIME : 0;
}

/* A configuration with term `term` alone (0 pair, 1 triplet): the other switched off. */
static sim_config *term_config(const sim_config *c, int term)
{
    sim_config *t = malloc(sizeof *t);
    if (!t)
        return NULL;
    *t = *c;
    if (term == 0) { /* no ATM: nu 0 and no per-species triplets (cfg_atm_nu's rule) */
        t->potential.atm.nu = 0.0;
        t->potential.atm.triplets_given = 0;
        t->potential.atm.n_triplets = 0;
    } else {
        t->potential.lj.enabled = 0;
    }
    return t;
}

int engine_term_virial(tb_engine *e, int term, double w[6])
{
    int rc;
    if ((rc = engine_compute(e, "the state")) != 0)
        return rc;
    const int on[2] = {pot_lj_on(&e->cfg), pot_atm_on(&e->cfg)};
    if (pot_sw_on(&e->cfg))
        return tb_error(e->cfg.path, 0, "potential.sw: the virial of a term alone is of "
                                        "Lennard-Jones or ATM; Stillinger-Weber's two- and "
                                        "three-body parts are one term: ask for the total"),
               TB_EXIT_USAGE;
    if (!on[term] || !on[1 - term]) { /* that term does not run, or is the only one */
        for (int c = 0; c < 6; c++)
            w[c] = on[term] ? e->s.virial[c] : 0.0;
        return 0;
    }
    if (!e->tfresh[term]) {
        if (!e->ts.n && sim_state_alloc(&e->ts, e->s.n) != 0)
            return TB_EXIT_RUNTIME;
        if (!e->tcfg[term] && !(e->tcfg[term] = term_config(&e->cfg, term)))
            return tb_error(NULL, 0, "out of host memory"), TB_EXIT_RUNTIME;
        if (!e->tb[term]) {
            if ((rc = e->ops->create(&e->tb[term], e->tcfg[term], &e->s)) != 0) {
                e->tb[term] = NULL;
                return rc;
            }
        } else if (e->ops->put(e->tb[term], &e->s, BACKEND_PUT_POS) != 0) {
            return TB_EXIT_RUNTIME;
        }
        if (e->ops->compute(e->tb[term]) != 0 || e->ops->results(e->tb[term], &e->ts) != 0)
            return TB_EXIT_RUNTIME;
        for (int c = 0; c < 6; c++)
            if (!isfinite(e->ts.virial[c]))
                return tb_error(e->cfg.path, 0, "the state has a non-finite %s virial",
                                term ? "triplet" : "pair"), TB_EXIT_USAGE;
        memcpy(e->tw[term], e->ts.virial, sizeof e->tw[term]);
        e->tfresh[term] = 1;
    }
    memcpy(w, e->tw[term], sizeof e->tw[term]);
    return 0;
}

void engine_free(tb_engine *e)
{
    for (int k = 0; k < 2; k++) {
        if (e->ops && e->tb[k])
            e->ops->destroy(e->tb[k]);
        free(e->tcfg[k]);
        e->tb[k] = NULL;
        e->tcfg[k] = NULL;
    }
    sim_state_free(&e->ts);
    if (e->ops && e->b)
        e->ops->destroy(e->b);
    integ_destroy(e->g);
    if (e->pinned) { /* the state's own arrays back, freed below */
        e->ops->host_free(e->s.pos);
        e->ops->host_free(e->spare);
        e->ops->host_free(e->s.force);
        e->s.pos = e->heap[0];
        e->spare = e->heap[1];
        e->s.force = e->heap[2];
        e->pinned = 0;
    }
    sim_state_free(&e->s);
    free(e->spare);
    e->spare = NULL;
    e->b = NULL;
    e->g = NULL;
}
