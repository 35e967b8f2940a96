/* state.c — allocation and the kinetic observables of sim_state (see state.h). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "state.h"

int sim_state_alloc(sim_state *s, int n)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    s->mass = 1.0;
    s->pos = calloc((size_t)3 * n, sizeof *s->pos);
    s->vel = calloc((size_t)3 * n, sizeof *s->vel);
    s->force = calloc((size_t)3 * n, sizeof *s->force);
    s->species = calloc((size_t)n, sizeof *s->species);
    if (!s->pos || !s->vel || !s->force || !s->species) {
        sim_state_free(s);
        return tb_error(NULL, 0, "out of host memory for %d particles", n);
    }
    for (int i = 0; i < n; i++)
        memcpy(s->species[i], "Ar", 3);
    return 0;
}

void sim_state_free(sim_state *s)
{
    if (!s)
        return;
    free(s->pos);
    free(s->vel);
    free(s->force);
    free(s->species);
    s->pos = s->vel = s->force = NULL;
    s->species = NULL;
}

double sim_kinetic(const sim_state *s)
{
    double sum = 0.0;
    for (long i = 0; i < 3L * s->n; i++)
        sum += s->vel[i] * s->vel[i];
    return 0.5 * s->mass * sum;
}

int sim_dof(const sim_state *s)
{
    return s->n > 1 ? 3 * s->n - 3 : 3;
}

double sim_temperature(const sim_state *s)
{
    return 2.0 * sim_kinetic(s) / sim_dof(s);
}
