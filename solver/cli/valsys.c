/* valsys.c — the reference's view of a configuration and a state (valsys.h). */
#include <string.h>

#include "solver/cli/valsys.h"
#include "solver/physics/potential.h"

/* A periodic cube at the origin's orientation, or no periodic axis at all: the scalar form. */
static int scalar_box(const tb_box_d *b)
{
    return !b->pbc || (b->pbc == TB_BOX_PERIODIC_ALL && !b->tilted && b->l[0] == b->l[1] &&
                       b->l[1] == b->l[2]);
}

const val_system *val_system_of(const sim_config *c, const sim_state *s, const double *pos,
                                val_view *w)
{
    val_system *v = &w->sys;
    const int nt = s->ntypes > 1 ? s->ntypes : 1; /* the state's species (a file's types) */
    memset(w, 0, sizeof *w);
    v->n = s->n;
    v->pos = pos ? pos : s->pos;
    v->nu = c->potential.atm.nu;
    v->atm_cutoff = pot_atm_cutoff(c, &s->box); /* a file's box: its L/4 default */
    v->atm_cutoff_triple = c->potential.atm.cutoff_triple;
    v->lj = c->potential.lj.enabled;
    v->eps = c->potential.lj.epsilon;
    v->sigma = c->potential.lj.sigma;
    v->lj_cutoff = c->potential.lj.cutoff;
    v->lj_shift = c->potential.lj.shift;
    if (scalar_box(&s->box)) {
        v->box = s->box.pbc ? s->box.l[0] : 0.0;
    } else {
        w->cell = (val_cell){s->box.l[0], s->box.l[1], s->box.l[2], s->box.xy, s->box.xz,
                             s->box.yz, {s->box.pbc & 1, s->box.pbc >> 1 & 1, s->box.pbc >> 2 & 1}};
        v->cell = &w->cell;
    }
    if (pot_sw_on(c)) { /* Stillinger-Weber alone: the file's entries as read (config_sw.c) */
        for (int a = 0; a < nt; a++)
            for (int b = 0; b < nt; b++)
                for (int k = 0; k < nt; k++) {
                    const cfg_sw_entry *e = &c->potential.sw.p[CFG_SW_INDEX(a, b, k)];
                    const double q[11] = {e->epsilon, e->sigma, e->a, e->lambda, e->gamma,
                                          e->costheta0, e->A, e->B, e->p, e->q, e->tol};
                    memcpy(w->sw_p + 11 * ((a * nt + b) * nt + k), q, sizeof q);
                }
        w->sw = (val_sw){nt, w->sw_p};
        v->sw = &w->sw;
        v->type = nt > 1 ? s->type : NULL;
        return v;
    }
    /* Species: the tables whenever the config has pairs or triplets per species (one species
     * given that way too: its coefficients are then the pair's and triplet's). */
    if (nt > 1 || c->potential.lj.n_pairs > 0 || c->potential.atm.triplets_given) {
        for (int a = 0; a < nt; a++)
            for (int b = 0; b < nt; b++) {
                cfg_lj_coeffs(c, a, b, &w->lj_eps[a * nt + b], &w->lj_sigma[a * nt + b],
                              &w->lj_rc[a * nt + b]);
                for (int k = 0; k < nt; k++)
                    w->nu[(a * nt + b) * nt + k] = cfg_atm_nu(c, a, b, k);
            }
        v->n_types = nt;
        v->type = s->type;
        v->lj_eps = w->lj_eps;
        v->lj_sigma = w->lj_sigma;
        v->lj_rc = w->lj_rc;
        v->nu_t = w->nu;
    }
    return v;
}
