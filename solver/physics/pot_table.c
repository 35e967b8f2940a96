/* pot_table.c — the coefficients of the potentials from the configuration. */
#include <math.h>
#include <string.h>

#include "config/config.h"
#include "solver/physics/pot_params.h"

/* LJ energy 4 eps ((s/r)^12 - (s/r)^6) at distance r, in double. */
static double lj_energy(double eps, double sigma, double r)
{
    const double s6 = (sigma / r) * (sigma / r) * (sigma / r) * (sigma / r) * (sigma / r) * (sigma / r);
    return 4.0 * eps * (s6 * s6 - s6);
}

void pot_params_init(pot_params *p, const sim_config *c)
{
    pot_coef_d *d = &p->d;
    memset(p, 0, sizeof *p);
    p->atm_on = c->potential.atm.nu != 0.0;
    p->lj_on = c->potential.lj.enabled;
    p->periodic = c->system.boundary != CFG_BOUNDARY_OPEN;

    d->nu = c->potential.atm.nu;
    d->atm_rc2 = c->potential.atm.cutoff > 0 ? c->potential.atm.cutoff * c->potential.atm.cutoff
                                             : TB_NO_CUTOFF2;
    d->atm_rct6 = c->potential.atm.cutoff_triple > 0 ? pow(c->potential.atm.cutoff_triple, 6)
                                                     : TB_NO_CUTOFF6;
    if (p->lj_on) {
        const double rc = c->potential.lj.cutoff;
        d->lj_eps4 = 4.0 * c->potential.lj.epsilon;
        d->lj_sig2 = c->potential.lj.sigma * c->potential.lj.sigma;
        d->lj_rc2 = rc * rc;
        d->lj_eshift = c->potential.lj.shift
                           ? lj_energy(c->potential.lj.epsilon, c->potential.lj.sigma, rc)
                           : 0.0;
    }
    d->box = cfg_box(c);
    d->ntypes = 1;
    pot_params_point(p);

    pot_params_round(p);
}

void pot_params_point(pot_params *p)
{
    p->d.tab = &p->tab_d;
    p->f.tab = &p->tab_f;
}

void pot_params_round(pot_params *p)
{
    const pot_coef_d *d = &p->d;
    p->f.nu = (float)d->nu;
    p->f.atm_rc2 = (float)d->atm_rc2;
    p->f.atm_rct6 = (float)d->atm_rct6;
    p->f.lj_eps4 = (float)d->lj_eps4;
    p->f.lj_sig2 = (float)d->lj_sig2;
    p->f.lj_rc2 = (float)d->lj_rc2;
    p->f.lj_eshift = (float)d->lj_eshift;
    p->f.box = box_to_f(&d->box);
    p->f.ntypes = d->ntypes;
}
