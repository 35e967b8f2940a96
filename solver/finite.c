/* finite.c — finding the first non-finite energy, force, position or velocity of a host
 * state (see finite.h). */
#include <math.h>

#include "solver/finite.h"

const char *tb_nonfinite_term(int term)
{
    static const char *const names[] = {"triplet energy", "pair energy", "force", "position",
                                        "velocity"};
    return term >= 0 && term <= TB_NF_VEL ? names[term] : "value";
}

static int vec_finite(const double *v)
{
    return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]);
}

int sim_nonfinite_particle(const sim_state *s, int *term)
{
    const double *arr[3] = {s->force, s->pos, s->vel};
    for (int t = 0; t < 3; t++)
        for (int i = 0; i < s->n; i++)
            if (arr[t] && !vec_finite(arr[t] + 3 * (long)i)) {
                *term = TB_NF_FORCE + t;
                return i;
            }
    return -1;
}

int sim_find_nonfinite(const sim_state *s, tb_nonfinite *nf)
{
    nf->step = -1;
    nf->particle = -1;
    nf->term = -1;
    if (!isfinite(s->e_triplet))
        nf->term = TB_NF_TRIPLET;
    else if (!isfinite(s->e_pair))
        nf->term = TB_NF_PAIR;
    else
        nf->particle = sim_nonfinite_particle(s, &nf->term);
    if (nf->term < 0)
        return 0;
    nf->step = s->step;
    return 1;
}
