/* term_sw.c — the Stillinger-Weber term as a unit (potential.h): on when the potential.sw
 * group is present; its cutoffs (a sigma of the legs, less by tol as LAMMPS's pair_sw) and its
 * coefficients (pot_params: sw2[POT_PAIR(ti, tj)] from the file's entry (ti, tj, tj),
 * sw3[POT_TRIPLET(ti, tj, tk)] from (ti, tj, tk); config_sw.c read the file). The body is
 * pot_sw.h. */
#include <math.h>

#include "solver/physics/potential.h"

static int n_types(const sim_config *c)
{
    return c->system.n_species > 1 ? c->system.n_species : 1;
}

/* The leg's cutoff in effect: a sigma, less by tol (at most 0.01) as LAMMPS's setup_params,
 * which cuts where the exponential falls below tol. */
static double leg_cutoff(const cfg_sw_entry *e)
{
    double r = e->a * e->sigma;
    if (e->tol > 0.0) {
        const double tol = e->tol > 0.01 ? 0.01 : e->tol;
        r += (e->gamma < 1.0 ? e->gamma * e->sigma : e->sigma) / log(tol);
    }
    return r;
}

int pot_sw_on(const sim_config *c)
{
    return c->potential.sw.enabled;
}

void pot_sw_cutoffs(const sim_config *c, const tb_box_d *box, double *lo, double *hi,
                    const char **setting)
{
    const int nt = n_types(c);
    (void)box;
    *lo = HUGE_VAL;
    *hi = 0.0;
    for (int a = 0; a < nt; a++)
        for (int b = 0; b < nt; b++) {
            const double r = leg_cutoff(&c->potential.sw.p[CFG_SW_INDEX(a, b, b)]);
            *lo = fmin(*lo, r);
            *hi = fmax(*hi, r);
        }
    *setting = "potential.sw.file";
}

void pot_sw_build(pot_params *p, const sim_config *c)
{
    const int nt = n_types(c);
    p->sw_on = pot_sw_on(c);
    if (!p->sw_on)
        return;
    for (int a = 0; a < nt; a++)
        for (int b = 0; b < nt; b++) {
            const cfg_sw_entry *e = &c->potential.sw.p[CFG_SW_INDEX(a, b, b)];
            const double rc = leg_cutoff(e), k = e->A * e->epsilon;
            pot_sw_pair_d *q = &p->tab_d.sw2[POT_PAIR(a, b)];
            q->cut = e->a * e->sigma;
            q->cutsq = rc * rc;
            q->sigma = e->sigma;
            q->sigma_gamma = e->sigma * e->gamma;
            q->p = e->p;
            q->q = e->q;
            q->c1 = k * e->p * e->B * pow(e->sigma, e->p);
            q->c2 = k * e->q * pow(e->sigma, e->q);
            q->c3 = k * e->B * pow(e->sigma, e->p + 1.0);
            q->c4 = k * pow(e->sigma, e->q + 1.0);
            q->c5 = k * e->B * pow(e->sigma, e->p);
            q->c6 = k * pow(e->sigma, e->q);
            for (int t = 0; t < nt; t++) {
                const cfg_sw_entry *f = &c->potential.sw.p[CFG_SW_INDEX(a, b, t)];
                pot_sw_trip_d *r = &p->tab_d.sw3[POT_TRIPLET(a, b, t)];
                r->lambda_epsilon = f->lambda * f->epsilon;
                r->costheta0 = f->costheta0;
            }
        }
}
