/* state.c — allocation and the kinetic observables of sim_state (see state.h). */
#include <stdlib.h>
#include <string.h>

#include "common/check.h"
#include "solver/state.h"

int sim_state_alloc(sim_state *s, int n)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    s->mass = 1.0;
    s->pos = calloc((size_t)3 * n, sizeof *s->pos);
    s->vel = calloc((size_t)3 * n, sizeof *s->vel);
    s->force = calloc((size_t)3 * n, sizeof *s->force);
    s->species = calloc((size_t)n, sizeof *s->species);
    s->type = calloc((size_t)n, sizeof *s->type);
    s->ntypes = 1;
    if (!s->pos || !s->vel || !s->force || !s->species || !s->type) {
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
    free(s->type);
    s->type = NULL;
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

double sim_virial_trace(const sim_state *s)
{
    return s->virial[0] + s->virial[1] + s->virial[2];
}

int sim_pressure(const sim_state *s, double p[7])
{
    double mvv[6] = {0, 0, 0, 0, 0, 0};
    if (!(s->box > 0.0))
        return -1;
    for (int i = 0; i < s->n; i++) {
        const double *v = s->vel + 3 * i;
        mvv[0] += v[0] * v[0];
        mvv[1] += v[1] * v[1];
        mvv[2] += v[2] * v[2];
        mvv[3] += v[0] * v[1];
        mvv[4] += v[0] * v[2];
        mvv[5] += v[1] * v[2];
    }
    const double iv = 1.0 / (s->box * s->box * s->box);
    for (int c = 0; c < 6; c++)
        p[1 + c] = (s->mass * mvv[c] + s->virial[c]) * iv;
    p[0] = (p[1] + p[2] + p[3]) / 3.0;
    return 0;
}

double sim_conserved(const sim_state *s)
{
    return sim_kinetic(s) + s->e_pair + s->e_triplet + s->e_bath;
}
