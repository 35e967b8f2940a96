/* test_mtk_dev.c — MTK held by the backend (backend.h's mtk; integrate.c's mtk_step_dev, the
 * path the GPU takes) against the host path, on the CPU: a backend that is the CPU's with an
 * `mtk` operation doing on the host, from the CPU's primitives, what gpu_mtk.cu does on the
 * device (the same mtk_body.h functions, in the same order). Asserts that the backend path's
 * bookkeeping (the state pushed at the first step and after a restore, brought back at each
 * step's MTK_BEGIN and by integ_sync, integ_lazy) gives the host path's run bit for bit: the
 * positions, velocities, box and the conserved quantity's bath term after 150 steps, for iso,
 * aniso and tri, with and without integ_lazy, and through a checkpoint's blocks at step 60. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "solver/backend.h"
#include "solver/io/init.h"
#include "solver/physics/integrate.h"
#include "solver/physics/mtk_body.h"
#include "tests/tb_baro.h"
#include "tests/tb_test.h"

/* The "device" state of the emulated backend (one run at a time holds it). */
static mtk_state dev;
static int pushes, pulls;

/* gpu_mtk's sequence on the CPU backend's primitives. */
static int emu_mtk(backend *b, int phase, const mtk_par *par, mtk_state *st)
{
    const backend_ops *o = &cpu_backend_ops;
    const int iso = par ? par->coupling == CFG_COUPLE_ISO : 0;
    double K, k[6], w[6];
    if (phase == MTK_PUSH || phase == MTK_PULL) {
        if (phase == MTK_PUSH)
            dev = *st, pushes++;
        else
            *st = dev, pulls++;
        return 0;
    }
    if (phase == MTK_BEGIN) {
        if (o->kinetic(b, &K) != 0)
            return -1;
        mtk_state_chain(&dev, par, K, 0);
        if (o->scale(b, dev.scale) != 0 || (iso ? o->kinetic(b, &K) : o->kinetic_axes(b, k)) != 0)
            return -1;
        memcpy(w, dev.w_prev, sizeof w);
    } else {
        if (o->compute(b) != 0 || o->kick(b, par->h) != 0 || o->rescale(b, NULL, dev.vm) != 0 ||
            o->virial(b, w) != 0 || (iso ? o->kinetic(b, &K) : o->kinetic_axes(b, k)) != 0)
            return -1;
        memcpy(dev.w_prev, w, sizeof w);
    }
    if (!iso)
        K = k[0] + k[1] + k[2];
    dev.K = K;
    dev.p_last = par->p0;
    mtk_omega_kick(dev.om, &dev.w_mass, par->coupling, par->n, par->nktv2p, par->period_p,
                   par->kT, par->p0, par->vol, par->h, w, k, K);
    mtk_vmap(dev.om, par->coupling, par->n, par->h, dev.vm);
    mtk_box_map(dev.om, par->coupling, par->h, dev.map);
    if (phase == MTK_BEGIN) {
        *st = dev;
        return o->rescale(b, NULL, dev.vm);
    }
    mtk_state_chain(&dev, par, dev.K, 1);
    return o->scale(b, dev.scale);
}

static backend_ops emu_ops;

/* 108 atoms of an LJ + ATM liquid (tb_baro.h), nose-hoover + mtk. */
static void config(sim_config *c, int coupling)
{
    static sim_config d; /* the defaults of what c-rescale's settings leave set */
    cfg_defaults(&d);
    tb_baro_liquid(c, "test_mtk_dev", CFG_INTEG_NOSE_HOOVER, coupling);
    c->integrator.gamma = d.integrator.gamma;
    c->integrator.nh.period = 0.5;
    c->integrator.barostat.type = CFG_BARO_MTK;
    c->integrator.barostat.compressibility = d.integrator.barostat.compressibility;
    c->integrator.barostat.every = d.integrator.barostat.every;
}

typedef struct run {
    sim_state s;
    backend *b;
    integ *g;
} run;

static int run_open(run *r, const sim_config *c)
{
    memset(r, 0, sizeof *r);
    return sim_init(&r->s, c) != 0 || cpu_backend_ops.create(&r->b, c, &r->s) != 0 ||
                   integ_create(&r->g, c, &r->s) != 0 || cpu_backend_ops.compute(r->b) != 0
               ? -1 : 0;
}

static void run_close(run *r)
{
    cpu_backend_ops.destroy(r->b);
    integ_destroy(r->g);
    sim_state_free(&r->s);
}

/* steps [from, to) one integ_advance call each (lazy: integ_sync only at the end) */
static int steps(run *r, const backend_ops *ops, long from, long to, int lazy)
{
    for (long s = from; s < to; s++)
        if (ops->virial_next(r->b, 1) != 0 || integ_advance(r->g, ops, r->b, s, 1) != 0)
            return -1;
    return (lazy && integ_sync(r->g, ops, r->b) != 0) || ops->fetch(r->b, &r->s) != 0 ? -1 : 0;
}

static int same(const run *a, const run *b)
{
    const size_t bytes = 3 * (size_t)a->s.n * sizeof *a->s.pos;
    return !memcmp(a->s.pos, b->s.pos, bytes) && !memcmp(a->s.vel, b->s.vel, bytes) &&
           !memcmp(&a->s.box, &b->s.box, sizeof a->s.box) && integ_bath(a->g) == integ_bath(b->g);
}

static void test_coupling(int coupling, const char *name)
{
    sim_config c;
    run h, d, l, r;
    unsigned char *tb = NULL, *bb = NULL;
    size_t tl = 0, bl = 0;
    config(&c, coupling);
    pushes = pulls = 0;
    int bad = run_open(&h, &c) != 0 || steps(&h, &cpu_backend_ops, 0, 150, 0) != 0;
    bad = bad || run_open(&d, &c) != 0 || steps(&d, &emu_ops, 0, 150, 0) != 0;
    gsl_test(bad, "mtk %s: runs", name);
    gsl_test(!same(&h, &d), "mtk %s: the backend's path = the host path after 150 steps, bitwise "
             "(lx %.17g vs %.17g, bath %.17g vs %.17g)", name, d.s.box.l[0], h.s.box.l[0],
             integ_bath(d.g), integ_bath(h.g));
    gsl_test(h.s.box.l[0] == c.system.box, "mtk %s: the box moved (%.17g)", name, h.s.box.l[0]);
    gsl_test(pushes != 1 || pulls != 150, "mtk %s: one push, one pull a step without integ_lazy "
             "(%d, %d)", name, pushes, pulls);
    /* lazy: the host's copies are stale until integ_sync; a restart through their blocks */
    pushes = pulls = 0;
    bad = run_open(&l, &c) != 0;
    if (!bad)
        integ_lazy(l.g);
    bad = bad || steps(&l, &emu_ops, 0, 60, 1) != 0 || integ_save(l.g, &tb, &tl) != 0 ||
          integ_save_baro(l.g, &bb, &bl) != 0;
    gsl_test(pulls != 1, "mtk %s: integ_lazy: one pull in 60 steps (%d)", name, pulls);
    /* r: step 60's particles and box, its blocks restored, pushed at its first step */
    memset(&r, 0, sizeof r);
    bad = bad || sim_state_alloc(&r.s, l.s.n) != 0;
    if (!bad) {
        sim_state_like(&r.s, &l.s);
        r.s.box = l.s.box;
        memcpy(r.s.pos, l.s.pos, 3 * (size_t)l.s.n * sizeof *l.s.pos);
        memcpy(r.s.vel, l.s.vel, 3 * (size_t)l.s.n * sizeof *l.s.vel);
        memcpy(r.s.force, l.s.force, 3 * (size_t)l.s.n * sizeof *l.s.force);
        memcpy(r.s.virial, l.s.virial, sizeof r.s.virial);
        r.s.e_pair = l.s.e_pair;
        r.s.e_triplet = l.s.e_triplet;
    }
    bad = bad || cpu_backend_ops.create(&r.b, &c, &r.s) != 0 || integ_create(&r.g, &c, &r.s) != 0 ||
          integ_restore(r.g, tb, tl, "test") != 0 || integ_restore_baro(r.g, bb, bl, "test") != 0;
    pushes = 0;
    bad = bad || steps(&l, &emu_ops, 60, 150, 1) != 0 || steps(&r, &emu_ops, 60, 150, 0) != 0;
    gsl_test(bad, "mtk %s: lazy and restarted runs", name);
    gsl_test(pushes != 1, "mtk %s: the restored state pushed once (%d)", name, pushes);
    gsl_test(!same(&h, &l), "mtk %s: integ_lazy + integ_sync = the host path, bitwise", name);
    gsl_test(!same(&h, &r), "mtk %s: 60 + restart + 90 = the host path's 150, bitwise", name);
    free(tb);
    free(bb);
    run_close(&r);
    run_close(&h);
    run_close(&d);
    run_close(&l);
}

int main(void)
{
    tb_test_init();
    emu_ops = cpu_backend_ops;
    emu_ops.mtk = emu_mtk;
    test_coupling(CFG_COUPLE_ISO, "iso");
    test_coupling(CFG_COUPLE_ANISO, "aniso");
    test_coupling(CFG_COUPLE_TRI, "tri");
    return tb_test_done();
}
