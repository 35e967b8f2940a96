/* valsys.c — the reference's view of a configuration and a state (valsys.h). */
#include <string.h>

#include "solver/cli/valsys.h"

void val_system_of(const sim_config *c, const sim_state *s, const double *pos, val_system *v)
{
    memset(v, 0, sizeof *v);
    v->n = s->n;
    v->pos = pos ? pos : s->pos;
    v->box = s->box.pbc ? s->box.l[0] : 0.0; /* a cube (the general form: val_cell, to come) */
    v->nu = c->potential.atm.nu;
    v->atm_cutoff = c->potential.atm.cutoff;
    v->atm_cutoff_triple = c->potential.atm.cutoff_triple;
    v->lj = c->potential.lj.enabled;
    v->eps = c->potential.lj.epsilon;
    v->sigma = c->potential.lj.sigma;
    v->lj_cutoff = c->potential.lj.cutoff;
    v->lj_shift = c->potential.lj.shift;
}
