/* test_mtk_dev.c — MTK held by the backend (backend.h's mtk; integrate.c's mtk_step_dev, the
 * path the GPU takes) against the host path, on the CPU: a backend that is the CPU's with an
 * `mtk` operation doing on the host, from the CPU's primitives, what gpu_mtk.cu does on the
 * device (the same mtk_body.h functions, in the same order). Asserts that the backend path's
 * bookkeeping (the state pushed at the first step and after a restore, brought back at each
 * step's MTK_BEGIN and by integ_sync, integ_lazy) gives the host path's run bit for bit: the
 * positions, velocities, box and the conserved quantity's bath term after 150 steps, for iso,
 * aniso and tri, with and without integ_lazy, and through a checkpoint's blocks at step 60;
 * the same with the box moved by the backend (MTK_MOVE, gpu_mtk.cu's path on the lists: the
 * volume of the backend's box at each kick, the host's box brought back by integ_sync); and
 * the box's fault check (mtk_box_fault, mtk_box_move) on hand-made boxes. C-rescale's phases
 * (CRS_*: integrate.c's crs_step_dev, gpu_mtk.cu's CRS path with TB_CRESCALE_DEV=1) emulated
 * the same way, from crescale_body.h (Nose-Hoover's chain on the backend too, mtk_state_chain):
 * bitwise the host path (baro.c, integrate.c) for nve, Langevin and Nose-Hoover, iso and aniso, every 3 steps, 60 steps, with integ_lazy and through a restart
 * at step 26 (a step that rescales from the virial kept by step 25: in the checkpoint's block). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "solver/backend.h"
#include "solver/io/init.h"
#include "solver/physics/baro.h"
#include "solver/physics/crescale_body.h"
#include "solver/physics/integrate.h"
#include "solver/physics/mtk_body.h"
#include "tests/tb_baro.h"
#include "tests/tb_run.h"
#include "tests/tb_test.h"

/* The "device" state of the emulated backend (one run at a time holds it); emu_box: the box
 * moves there too (MTK_BEGIN answers 1, MTK_MOVE: gpu_mtk.cu's path on the lists). */
static mtk_state dev;
static int pushes, pulls, emu_box, moves, evals, chains;

/* gpu_mtk.cu's CRS phases on the CPU backend's primitives (the box on the "device"). */
static int emu_crs(backend *b, int phase, const mtk_par *par)
{
    const backend_ops *o = &cpu_backend_ops;
    double k[6], w[6], K;
    if (phase == CRS_FORCES)
        return o->compute(b);
    if (phase == CRS_NHC_BEGIN || phase == CRS_NHC_END) {
        if (o->kinetic(b, &K) != 0)
            return -1;
        chains++;
        mtk_state_chain(&dev, par, K, phase == CRS_NHC_END);
        return o->scale(b, dev.scale);
    }
    if (phase == CRS_KEEP) {
        if (o->virial(b, w) != 0)
            return -1;
        memcpy(dev.w_prev, w, sizeof w);
        return 0;
    }
    if (o->kinetic_axes(b, k) != 0)
        return -1;
    if (phase == CRS_BEGIN) {
        crescale_state_begin(&dev, par, k);
        return 0;
    }
    evals++; /* CRS_EVAL */
    crescale_state_move(&dev, par, k);
    if (dev.fault)
        return baro_box_fault(dev.fault, &dev.fault_box, dev.fault_step, par->v0, par->range);
    if (o->rescale(b, dev.map, dev.vm) != 0 || o->compute(b) != 0 || o->virial(b, w) != 0)
        return -1;
    crescale_work_end(&dev.work, dev.map, dev.w_old, w);
    return 0;
}

/* gpu_mtk's sequence on the CPU backend's primitives. */
static int emu_mtk(backend *b, int phase, const mtk_par *par, mtk_state *st)
{
    const backend_ops *o = &cpu_backend_ops;
    const int iso = par ? par->coupling == CFG_COUPLE_ISO : 0;
    double K, k[6], w[6];
    if (phase >= CRS_BEGIN)
        return emu_crs(b, phase, par);
    if (phase == MTK_PUSH || phase == MTK_PULL || phase == CRS_PUSH) {
        if (phase != MTK_PULL) {
            dev = *st, pushes++;
            dev.box_dev = emu_box || phase == CRS_PUSH;
            dev.fault = 0;
        } else {
            *st = dev, pulls++;
        }
        return phase == CRS_PUSH;
    }
    if (phase == MTK_MOVE) { /* B(h) D(h) A(dt) D(h), the box moved on the "device" */
        moves++;
        if (o->kick(b, par->h) != 0)
            return -1;
        for (int d = 0; d < 2; d++) {
            if (d == 1 && o->drift(b, 2.0 * par->h) != 0)
                return -1;
            mtk_box_move(&dev, par, par->step);
            if (o->rescale(b, dev.map, NULL) != 0)
                return -1;
        }
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
                   par->kT, par->p0, dev.box_dev ? box_volume_d(&dev.box) : par->vol, par->h, w,
                   k, K);
    mtk_vmap(dev.om, par->coupling, par->n, par->h, dev.vm);
    mtk_box_map(dev.om, par->coupling, par->h, dev.map);
    if (phase == MTK_BEGIN) {
        if (!emu_box)
            *st = dev;
        return o->rescale(b, NULL, dev.vm) != 0 ? -1 : emu_box;
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

/* r: l's particles, box, forces and energies, a CPU backend and integrator over them with the
 * integrator's and barostat's blocks tb, bb restored (a restart at l's step); 0 or -1. */
static int restart_from(run *r, const run *l, const sim_config *c, const unsigned char *tb,
                        size_t tl, const unsigned char *bb, size_t bl)
{
    memset(r, 0, sizeof *r);
    if (sim_state_alloc(&r->s, l->s.n) != 0)
        return -1;
    sim_state_like(&r->s, &l->s);
    r->s.box = l->s.box;
    memcpy(r->s.pos, l->s.pos, 3 * (size_t)l->s.n * sizeof *l->s.pos);
    memcpy(r->s.vel, l->s.vel, 3 * (size_t)l->s.n * sizeof *l->s.vel);
    memcpy(r->s.force, l->s.force, 3 * (size_t)l->s.n * sizeof *l->s.force);
    memcpy(r->s.virial, l->s.virial, sizeof r->s.virial);
    r->s.e_pair = l->s.e_pair;
    r->s.e_triplet = l->s.e_triplet;
    return cpu_backend_ops.create(&r->b, c, &r->s) != 0 || integ_create(&r->g, c, &r->s) != 0 ||
                   integ_restore(r->g, tb, tl, "test") != 0 ||
                   integ_restore_baro(r->g, bb, bl, "test") != 0
               ? -1
               : 0;
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

/* The emulated backend's path with integ_lazy (the host's copies stale until integ_sync) from
 * step 0 to split, then on to end, and a run restarted at split from its state and its
 * integrator's and barostat's blocks (pushed once, at its first step), both against the host
 * path h (end steps), bitwise; *pulls_at_split: the pulls of the lazy part. what names the
 * barostat in the messages. */
static void lazy_restart(const sim_config *c, const run *h, long split, long end, const char *what,
                         const char *name, int *pulls_at_split)
{
    run l, r;
    unsigned char *tb = NULL, *bb = NULL;
    size_t tl = 0, bl = 0;
    pulls = 0;
    int bad = run_open(&l, c) != 0;
    if (!bad)
        integ_lazy(l.g);
    bad = bad || steps(&l, &emu_ops, 0, split, 1) != 0 || integ_save(l.g, &tb, &tl) != 0 ||
          integ_save_baro(l.g, &bb, &bl) != 0;
    *pulls_at_split = pulls;
    memset(&r, 0, sizeof r); /* run_close(&r) below, restarted or not */
    bad = bad || restart_from(&r, &l, c, tb, tl, bb, bl) != 0;
    pushes = 0;
    bad = bad || steps(&l, &emu_ops, split, end, 1) != 0 || steps(&r, &emu_ops, split, end, 0) != 0;
    gsl_test(bad, "%s %s: lazy and restarted runs", what, name);
    gsl_test(pushes != 1, "%s %s: the restored state pushed once (%d)", what, name, pushes);
    gsl_test(!same(h, &l), "%s %s: integ_lazy + integ_sync = the host path, bitwise", what, name);
    gsl_test(!same(h, &r), "%s %s: %ld + restart + %ld = the host path's %ld, bitwise", what, name,
             split, end - split, end);
    free(tb);
    free(bb);
    run_close(&r);
    run_close(&l);
}

static void test_coupling(int coupling, const char *name)
{
    sim_config c;
    run h, d;
    config(&c, coupling);
    pushes = pulls = moves = 0;
    int bad = run_open(&h, &c) != 0 || steps(&h, &cpu_backend_ops, 0, 150, 0) != 0;
    bad = bad || run_open(&d, &c) != 0 || steps(&d, &emu_ops, 0, 150, 0) != 0;
    gsl_test(bad, "mtk %s: runs", name);
    gsl_test(!same(&h, &d), "mtk %s: the backend's path = the host path after 150 steps, bitwise "
             "(lx %.17g vs %.17g, bath %.17g vs %.17g)", name, d.s.box.l[0], h.s.box.l[0],
             integ_bath(d.g), integ_bath(h.g));
    gsl_test(h.s.box.l[0] == c.system.box, "mtk %s: the box moved (%.17g)", name, h.s.box.l[0]);
    gsl_test(pushes != 1 || pulls != 150, "mtk %s: one push, one pull a step without integ_lazy "
             "(%d, %d)", name, pushes, pulls);
    gsl_test(moves != (emu_box ? 150 : 0), "mtk %s: MTK_MOVE at every step with the box on the "
             "backend (%d)", name, moves);
    /* lazy: the host's copies are stale until integ_sync; a restart at step 60 */
    int lazy_pulls = 0;
    lazy_restart(&c, &h, 60, 150, "mtk", name, &lazy_pulls);
    gsl_test(lazy_pulls != 1, "mtk %s: integ_lazy: one pull in 60 steps (%d)", name, lazy_pulls);
    run_close(&h);
    run_close(&d);
}

/* mtk_box_fault's codes on hand-made boxes, and mtk_box_move keeping the first fault's step:
 * a 10 x 10 x 10 cube of v0 = 1000, widest cutoff 4. */
static void test_box_fault(void)
{
    const double lo[3] = {0, 0, 0};
    const int per[3] = {1, 1, 1};
    const double l[3] = {10, 10, 10};
    tb_box_d ok = box_make_d(l, 0, 0, 0, lo, per), big = ok, thin = ok, tilt = ok;
    big.l[0] = big.l[1] = big.l[2] = 1001.0; /* 1.003e9 > 1e6 v0 */
    thin.l[2] = 7.9;                        /* half of 7.9 below 4 */
    thin = box_make_d(thin.l, 0, 0, 0, lo, per);
    tilt = box_make_d(l, 0, 0, 5.1, lo, per); /* |yz| = 5.1 > ly / 2 */
    gsl_test(mtk_box_fault(&ok, CFG_COUPLE_TRI, 1000.0, 4.0) != 0, "box fault: a good box");
    gsl_test(mtk_box_fault(&big, CFG_COUPLE_ISO, 1000.0, 4.0) != 1, "box fault: exploded");
    gsl_test(mtk_box_fault(&thin, CFG_COUPLE_ANISO, 1000.0, 4.0) != 2, "box fault: collapsed");
    gsl_test(mtk_box_fault(&tilt, CFG_COUPLE_TRI, 1000.0, 4.0) != 5, "box fault: yz tilted "
             "beyond ly/2");
    gsl_test(mtk_box_fault(&tilt, CFG_COUPLE_ANISO, 1000.0, 4.0) != 0, "box fault: tilt ignored "
             "by aniso");
    /* a stretch of 0.9 per dilation: 10 -> 9 -> 8.1 -> 7.29 (step 2 collapses, the first kept) */
    mtk_state s;
    mtk_par p;
    memset(&s, 0, sizeof s);
    memset(&p, 0, sizeof p);
    s.box = ok;
    s.map[0] = s.map[1] = s.map[2] = 0.9;
    p.coupling = CFG_COUPLE_ISO;
    p.v0 = 1000.0;
    p.range = 4.0;
    for (long step = 0; step < 4; step++)
        mtk_box_move(&s, &p, step);
    gsl_test(s.fault != 2 || s.fault_step != 2 || s.fault_box.l[0] != 10.0 * 0.9 * 0.9 * 0.9,
             "box fault: the first collapse kept, step 2, lx 7.29 (%d, %ld, %.17g)", s.fault,
             s.fault_step, s.fault_box.l[0]);
    gsl_test(s.box.l[0] != 10.0 * 0.9 * 0.9 * 0.9 * 0.9, "box fault: the box moved on (%.17g)",
             s.box.l[0]);
}

/* C-rescale: the emulated backend's phases (TB_CRESCALE_DEV=1) = the host path, bitwise. */
static void test_crs(int type, int coupling, const char *name)
{
    sim_config c;
    run h, d;
    tb_baro_liquid(&c, "test_mtk_dev", type, coupling);
    c.integrator.barostat.every = 3;
    if (type == CFG_INTEG_NVE)
        c.integrator.temperature = c.integrator.temperature_end = 0.0;
    pushes = evals = chains = 0;
    int bad = run_open(&h, &c) != 0 || steps(&h, &cpu_backend_ops, 0, 60, 0) != 0;
    setenv("TB_CRESCALE_DEV", "1", 1);
    bad = bad || run_open(&d, &c) != 0 || steps(&d, &emu_ops, 0, 60, 0) != 0;
    gsl_test(bad, "c-rescale %s: runs", name);
    gsl_test(!same(&h, &d), "c-rescale %s: the backend's path = the host path after 60 steps, "
             "bitwise (lx %.17g vs %.17g, bath %.17g vs %.17g)", name, d.s.box.l[0],
             h.s.box.l[0], integ_bath(d.g), integ_bath(h.g));
    gsl_test(h.s.box.l[0] == c.system.box || integ_bath(h.g) == 0.0, "c-rescale %s: the box "
             "moved (%.17g), the work done (%.17g)", name, h.s.box.l[0], integ_bath(h.g));
    gsl_test(pushes != 1 || evals != 20 || (type == CFG_INTEG_NOSE_HOOVER && chains != 120),
             "c-rescale %s: one push, 20 rescales on the backend, nose-hoover's chain there (%d, %d, "
             "%d half steps)", name, pushes, evals, chains);
    /* lazy, and a restart at step 26: it rescales from the virial step 25 kept (in the block) */
    int lazy_pulls = 0;
    lazy_restart(&c, &h, 26, 60, "c-rescale", name, &lazy_pulls);
    unsetenv("TB_CRESCALE_DEV");
    run_close(&h);
    run_close(&d);
}

int main(void)
{
    tb_test_init();
    emu_ops = cpu_backend_ops;
    emu_ops.mtk = emu_mtk;
    for (emu_box = 0; emu_box < 2; emu_box++) {
        test_coupling(CFG_COUPLE_ISO, emu_box ? "iso, box on the backend" : "iso");
        test_coupling(CFG_COUPLE_ANISO, emu_box ? "aniso, box on the backend" : "aniso");
        test_coupling(CFG_COUPLE_TRI, emu_box ? "tri, box on the backend" : "tri");
    }
    test_box_fault();
    const char *in[3] = {"nve", "langevin", "nose-hoover"};
    const int it[3] = {CFG_INTEG_NVE, CFG_INTEG_LANGEVIN, CFG_INTEG_NOSE_HOOVER};
    for (int k = 0; k < 3; k++)
        for (int cp = 0; cp < 2; cp++) {
            char name[64];
            snprintf(name, sizeof name, "%s %s", in[k], cp ? "aniso" : "iso");
            test_crs(it[k], cp ? CFG_COUPLE_ANISO : CFG_COUPLE_ISO, name);
        }
    return tb_test_done();
}
