/* pot_table.c — the coefficients of the potentials from the configuration: each term of the
 * registry (potential.h, terms.def) fills its part in double (term_<name>.c), then the float
 * copy is rounded from it. */
#include <string.h>

#include "config/config.h"
#include "solver/physics/potential.h"

void pot_params_init(pot_params *p, const sim_config *c)
{
    const tb_box_d box = cfg_box(c);
    pot_params_init_box(p, c, &box);
}

void pot_params_init_box(pot_params *p, const sim_config *c, const tb_box_d *box)
{
    pot_coef_d *d = &p->d;
    memset(p, 0, sizeof *p);
    p->periodic = box->pbc != 0;
    d->box = *box;
    d->ntypes = c->system.n_species > 1 ? c->system.n_species : 1;
    for (int i = 0; pot_terms[i]; i++)
        pot_terms[i]->build(p, c);
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
    for (int k = 0; k < TB_TYPES_MAX * TB_TYPES_MAX; k++) {
        const pot_lj_pair_d *q = &p->tab_d.lj[k];
        pot_lj_pair_f *r = &p->tab_f.lj[k];
        r->eps4 = (float)q->eps4;
        r->sig2 = (float)q->sig2;
        r->rc2 = (float)q->rc2;
        r->eshift = (float)q->eshift;
    }
    for (int k = 0; k < TB_TYPES_MAX * TB_TYPES_MAX * TB_TYPES_MAX; k++) {
        p->tab_f.nu[k] = (float)p->tab_d.nu[k];
        p->tab_f.sw3[k].lambda_epsilon = (float)p->tab_d.sw3[k].lambda_epsilon;
        p->tab_f.sw3[k].costheta0 = (float)p->tab_d.sw3[k].costheta0;
    }
    for (int k = 0; k < TB_TYPES_MAX * TB_TYPES_MAX; k++) {
        const double *q = &p->tab_d.sw2[k].cut; /* every member a double, in order */
        float *r = &p->tab_f.sw2[k].cut;
        for (size_t m = 0; m < sizeof(pot_sw_pair_d) / sizeof(double); m++)
            r[m] = (float)q[m];
    }
}
