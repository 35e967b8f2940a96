/* term_lj.c — the Lennard-Jones term as a unit (potential.h): on when the potential.lj group
 * is present; its species pairs (given, shorthand, mixed: pot_lj_pairs through the config's
 * cfg_lj_coeffs), their cutoffs, and
 * its coefficients (pot_params: the scalars and lj[POT_PAIR(ti, tj)]). The body is pot_lj.h. */
#include <math.h>

#include "solver/physics/potential.h"

/* LJ energy 4 eps ((s/r)^12 - (s/r)^6) at distance r, in double. */
static double lj_energy(double eps, double sigma, double r)
{
    const double s6 = (sigma / r) * (sigma / r) * (sigma / r) * (sigma / r) * (sigma / r) * (sigma / r);
    return 4.0 * eps * (s6 * s6 - s6);
}

static int n_types(const sim_config *c)
{
    return c->system.n_species > 1 ? c->system.n_species : 1;
}

/* Every ordered pair's coefficients from the config's one rule (cfg_lj_coeffs: the pairs
 * given, the shorthand, LAMMPS's mixing), which the config's own checks also use. */
int pot_lj_pairs(const sim_config *c, double *eps, double *sigma, double *rc)
{
    const int nt = n_types(c);
    for (int a = 0; a < nt; a++)
        for (int b = 0; b < nt; b++) {
            const int k = POT_PAIR(a, b);
            cfg_lj_coeffs(c, a, b, &eps[k], &sigma[k], &rc[k]);
        }
    return nt;
}

int pot_lj_on(const sim_config *c)
{
    return c->potential.lj.enabled;
}

void pot_lj_cutoffs(const sim_config *c, const tb_box_d *box, double *lo, double *hi,
                    const char **setting)
{
    double eps[TB_TYPES_MAX * TB_TYPES_MAX], sigma[TB_TYPES_MAX * TB_TYPES_MAX];
    double rc[TB_TYPES_MAX * TB_TYPES_MAX];
    const int nt = pot_lj_pairs(c, eps, sigma, rc);
    (void)box;
    *lo = HUGE_VAL;
    *hi = 0.0;
    for (int a = 0; a < nt; a++)
        for (int b = a; b < nt; b++) {
            *lo = fmin(*lo, rc[POT_PAIR(a, b)]);
            *hi = fmax(*hi, rc[POT_PAIR(a, b)]);
        }
    *setting = c->potential.lj.n_pairs > 0 ? "potential.lj.pairs" : "potential.lj.cutoff";
}

/* With one species the scalars are today's expressions of the shorthand (or of the one pair
 * given), bit for bit; with several they are pair (0, 0)'s, except lj_rc2, the largest rc^2:
 * the envelope the lists sort their entries by (nbr_cpu.h). */
void pot_lj_build(pot_params *p, const sim_config *c)
{
    double eps[TB_TYPES_MAX * TB_TYPES_MAX], sigma[TB_TYPES_MAX * TB_TYPES_MAX];
    double rc[TB_TYPES_MAX * TB_TYPES_MAX];
    pot_coef_d *d = &p->d;
    p->lj_on = pot_lj_on(c);
    if (!p->lj_on)
        return; /* rc2 = 0 everywhere: no pair runs */
    const int nt = pot_lj_pairs(c, eps, sigma, rc);
    for (int a = 0; a < nt; a++)
        for (int b = 0; b < nt; b++) {
            const int k = POT_PAIR(a, b);
            pot_lj_pair_d *q = &p->tab_d.lj[k];
            q->eps4 = 4.0 * eps[k];
            q->sig2 = sigma[k] * sigma[k];
            q->rc2 = rc[k] * rc[k];
            q->eshift = c->potential.lj.shift ? lj_energy(eps[k], sigma[k], rc[k]) : 0.0;
        }
    const pot_lj_pair_d *q0 = &p->tab_d.lj[0];
    d->lj_eps4 = q0->eps4;
    d->lj_sig2 = q0->sig2;
    d->lj_rc2 = q0->rc2;
    d->lj_eshift = q0->eshift;
    for (int a = 0; a < nt; a++)
        for (int b = 0; b < nt; b++)
            d->lj_rc2 = fmax(d->lj_rc2, p->tab_d.lj[POT_PAIR(a, b)].rc2);
}
