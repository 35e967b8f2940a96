/* potential.c — the registry of the potential's terms (terms.def) and the questions asked of
 * the whole potential: its range, its shortest range, its widest term (potential.h). */
#include <math.h>
#include <string.h>

#include "solver/physics/potential.h"

#define POT_TERM(nm, bd, sm)                                                               \
    static const pot_term pot_term_##nm = {#nm, bd, sm, pot_##nm##_on, pot_##nm##_cutoffs, \
                                           pot_##nm##_build};
#include "solver/physics/terms.def"
#undef POT_TERM

const pot_term *const pot_terms[] = {
#define POT_TERM(nm, bd, sm) &pot_term_##nm,
#include "solver/physics/terms.def"
#undef POT_TERM
    NULL,
};

const pot_term *pot_term_find(const char *name)
{
    for (int i = 0; pot_terms[i]; i++)
        if (strcmp(pot_terms[i]->name, name) == 0)
            return pot_terms[i];
    return NULL;
}

/* Term i's cutoffs in box when it runs for c (1), else 0. */
static int running(int i, const sim_config *c, const tb_box_d *box, double *lo, double *hi,
                   const char **setting)
{
    if (!pot_terms[i]->on(c))
        return 0;
    pot_terms[i]->cutoffs(c, box, lo, hi, setting);
    return 1;
}

double pot_range(const sim_config *c, const tb_box_d *box, int *all_cut)
{
    double r = 0.0, lo, hi;
    const char *setting;
    int on = 0, cut = 1;
    for (int i = 0; pot_terms[i]; i++)
        if (running(i, c, box, &lo, &hi, &setting)) {
            on = 1;
            cut &= hi > 0.0;
            r = fmax(r, hi);
        }
    *all_cut = on && cut;
    return r;
}

double pot_range_min(const sim_config *c, const tb_box_d *box, const char **setting)
{
    double r = 0.0, lo, hi;
    const char *s;
    *setting = NULL;
    for (int i = 0; pot_terms[i]; i++)
        if (running(i, c, box, &lo, &hi, &s) && lo > 0.0 && (!*setting || lo < r)) {
            r = lo;
            *setting = s;
        }
    return r;
}

const pot_term *pot_widest(const sim_config *c, const tb_box_d *box, double *range)
{
    const pot_term *w = NULL;
    double lo, hi;
    const char *s;
    *range = 0.0;
    for (int i = 0; pot_terms[i]; i++)
        if (running(i, c, box, &lo, &hi, &s) && (!w || hi >= *range)) {
            w = pot_terms[i]; /* a tie: the later term (the triplet one) */
            *range = hi;
        }
    return w;
}
