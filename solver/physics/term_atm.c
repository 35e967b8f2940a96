/* term_atm.c — the Axilrod-Teller-Muto term as a unit (potential.h): on when some nu is not
 * zero; its cutoffs (one for every species triplet, as LAMMPS's pair_style atm: the given one,
 * else L/4 of a periodic box, else none) and its coefficients (pot_params: the scalars and
 * nu[POT_TRIPLET(ti, tj, tk)]). The body is pot_atm.h. */
#include <math.h>

#include "solver/physics/potential.h"

static int n_types(const sim_config *c)
{
    return c->system.n_species > 1 ? c->system.n_species : 1;
}

/* nu of every ordered species triplet of c into nu[POT_TRIPLET(a, b, c)], by the config's one
 * rule (cfg_atm_nu: potential.atm.nu for all without potential.atm.triplets, else the triplets
 * given in every order and 0 for the others, LAMMPS's pair_style atm). Returns nt. */
static int atm_nu(const sim_config *c, double *nu)
{
    const int nt = n_types(c);
    for (int a = 0; a < nt; a++)
        for (int b = 0; b < nt; b++)
            for (int k = 0; k < nt; k++)
                nu[POT_TRIPLET(a, b, k)] = cfg_atm_nu(c, a, b, k);
    return nt;
}

int pot_atm_on(const sim_config *c)
{
    double nu[TB_TYPES_MAX * TB_TYPES_MAX * TB_TYPES_MAX];
    const int nt = atm_nu(c, nu);
    for (int a = 0; a < nt; a++)
        for (int b = 0; b < nt; b++)
            for (int k = 0; k < nt; k++)
                if (nu[POT_TRIPLET(a, b, k)] != 0.0)
                    return 1;
    return 0;
}

double pot_atm_cutoff_default(const tb_box_d *box)
{
    double w[3], lo = HUGE_VAL;
    if (!box_periodic_d(box))
        return 0.0;
    if (box->tilted)
        box_widths_d(box, w);
    else /* the edges themselves: a cube's default is exactly 0.25 L, as the config's */
        for (int a = 0; a < 3; a++)
            w[a] = box->l[a];
    for (int a = 0; a < 3; a++)
        if (box->pbc >> a & 1)
            lo = fmin(lo, w[a]);
    return 0.25 * lo;
}

double pot_atm_cutoff(const sim_config *c, const tb_box_d *box)
{
    return c->potential.atm.cutoff > 0.0 ? c->potential.atm.cutoff : pot_atm_cutoff_default(box);
}

void pot_atm_cutoffs(const sim_config *c, const tb_box_d *box, double *lo, double *hi,
                     const char **setting)
{
    *lo = *hi = pot_atm_cutoff(c, box);
    *setting = "potential.atm.cutoff";
}

/* With one species the scalar nu is potential.atm.nu (or the one triplet given), as before;
 * with several it is the largest |nu| of the table: not zero iff some triplet runs. */
void pot_atm_build(pot_params *p, const sim_config *c)
{
    pot_coef_d *d = &p->d;
    const int nt = atm_nu(c, p->tab_d.nu);
    const double rc = pot_atm_cutoff(c, &d->box);
    d->nu = p->tab_d.nu[0];
    if (nt > 1)
        for (int a = 0; a < nt; a++)
            for (int b = 0; b < nt; b++)
                for (int k = 0; k < nt; k++)
                    d->nu = fmax(d->nu, fabs(p->tab_d.nu[POT_TRIPLET(a, b, k)]));
    p->atm_on = pot_atm_on(c);
    d->atm_rc2 = rc > 0 ? rc * rc : TB_NO_CUTOFF2;
    d->atm_rct6 = c->potential.atm.cutoff_triple > 0 ? pow(c->potential.atm.cutoff_triple, 6)
                                                     : TB_NO_CUTOFF6;
}
