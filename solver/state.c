/* state.c — allocation and the kinetic observables of sim_state (see state.h). */
#include <math.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/check.h"
#include "config/config.h"
#include "config/units.h"
#include "solver/state.h"

int sim_state_alloc(sim_state *s, int n)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    s->ntypes = 1;
    s->mass[0] = 1.0;
    memcpy(s->type_name[0], "Ar", 3);
    s->box = box_cube_d(0.0);
    s->pos = calloc((size_t)3 * n, sizeof *s->pos);
    s->vel = calloc((size_t)3 * n, sizeof *s->vel);
    s->force = calloc((size_t)3 * n, sizeof *s->force);
    s->type = calloc((size_t)n, sizeof *s->type);
    if (!s->pos || !s->vel || !s->force || !s->type) {
        sim_state_free(s);
        return tb_error(NULL, 0, "out of host memory for %d particles", n);
    }
    return 0;
}

void sim_state_free(sim_state *s)
{
    if (!s)
        return;
    free(s->pos);
    free(s->vel);
    free(s->force);
    free(s->type);
    s->type = NULL;
    s->pos = s->vel = s->force = NULL;
}

int sim_host_threads(void)
{
#ifdef _OPENMP
    const int m = omp_get_max_threads();
    return m < SIM_HOST_THREADS ? m : SIM_HOST_THREADS;
#else /* a build without OpenMP (the fuzzers): one thread */
    return 1;
#endif
}

enum { HOST_CHUNK = 65536 }; /* bytes per piece of a threaded host pass */

void sim_copy_bytes(void *dst, const void *src, size_t bytes)
{
    const long pieces = (long)((bytes + HOST_CHUNK - 1) / HOST_CHUNK);
#pragma omp parallel for schedule(static) num_threads(sim_host_threads()) if (pieces >= 4)
    for (long k = 0; k < pieces; k++) {
        const size_t at = (size_t)k * HOST_CHUNK;
        memcpy((char *)dst + at, (const char *)src + at, bytes - at < HOST_CHUNK ? bytes - at : HOST_CHUNK);
    }
}

int sim_same_bytes(const void *a, const void *b, size_t bytes)
{
    const long pieces = (long)((bytes + HOST_CHUNK - 1) / HOST_CHUNK);
    int same = 1;
    /* each piece's memcmp stops at its first difference: a changed array (every position
     * moved) costs a few bytes a piece */
#pragma omp parallel for schedule(static) num_threads(sim_host_threads()) if (pieces >= 4) \
    reduction(& : same)
    for (long k = 0; k < pieces; k++) {
        const size_t at = (size_t)k * HOST_CHUNK;
        same &= memcmp((const char *)a + at, (const char *)b + at,
                       bytes - at < HOST_CHUNK ? bytes - at : HOST_CHUNK) == 0;
    }
    return same;
}

void sim_copy_doubles(double *dst, const double *src, size_t count)
{
    sim_copy_bytes(dst, src, count * sizeof *dst);
}

/* Sums of v^2 per species (one species: the single sum of before, in the same order). */
static void sum_v2(const sim_state *s, double sum[TB_TYPES_MAX])
{
    for (int t = 0; t < TB_TYPES_MAX; t++)
        sum[t] = 0.0;
    if (s->ntypes <= 1) {
        for (long i = 0; i < 3L * s->n; i++)
            sum[0] += s->vel[i] * s->vel[i];
        return;
    }
    for (int i = 0; i < s->n; i++) {
        const double *v = s->vel + 3 * i;
        double *t = &sum[s->type[i]];
        *t += v[0] * v[0];
        *t += v[1] * v[1];
        *t += v[2] * v[2];
    }
}

double sim_kinetic(const sim_state *s)
{
    double sum[TB_TYPES_MAX], ke = 0.0;
    sum_v2(s, sum);
    for (int t = 0; t < (s->ntypes > 1 ? s->ntypes : 1); t++)
        ke += 0.5 * s->mass[t] * sum[t];
    return ke;
}

double sim_volume(const sim_state *s)
{
    if (!s->box.pbc)
        return 0.0;
    return s->box.l[0] * s->box.l[1] * s->box.l[2];
}

double sim_density(const sim_state *s)
{
    const tb_units *u = units_of(s->units);
    const double v = sim_volume(s);
    double m = 0.0;
    if (!(v > 0))
        return (double)NAN;
    for (int i = 0; i < s->n; i++)
        m += sim_mass(s, i);
    m /= u->mvv2e; /* the masses as configured */
    /* LAMMPS's mv2d (update.cpp): 1 in lj, 1/0.602214129 in metal and real */
    return m * (s->units == CFG_UNITS_LJ ? 1.0 : 1.0 / 0.602214129) / v;
}

int sim_dof(const sim_state *s)
{
    return s->n > 1 ? 3 * s->n - 3 : 3;
}

double sim_temperature_k(const sim_state *s, double k)
{
    const double kb = units_of(s->units)->boltz;
    return kb == 1.0 ? 2.0 * k / sim_dof(s) : 2.0 * k / (sim_dof(s) * kb);
}

double sim_temperature(const sim_state *s)
{
    return sim_temperature_k(s, sim_kinetic(s));
}

double sim_virial_trace(const sim_state *s)
{
    return s->virial[0] + s->virial[1] + s->virial[2];
}

void sim_kinetic_tensor(const sim_state *s, double kin[6])
{
    double mvv[TB_TYPES_MAX][6] = {{0}};
    for (int i = 0; i < s->n; i++) {
        const double *v = s->vel + 3 * i;
        double *m = mvv[s->ntypes > 1 ? s->type[i] : 0];
        m[0] += v[0] * v[0];
        m[1] += v[1] * v[1];
        m[2] += v[2] * v[2];
        m[3] += v[0] * v[1];
        m[4] += v[0] * v[2];
        m[5] += v[1] * v[2];
    }
    for (int c = 0; c < 6; c++) {
        kin[c] = 0.0;
        for (int t = 0; t < (s->ntypes > 1 ? s->ntypes : 1); t++)
            kin[c] += s->mass[t] * mvv[t][c];
    }
}

int sim_pressure_kin(const sim_state *s, const double kin[6], double p[7])
{
    const double vol = sim_volume(s), nktv2p = units_of(s->units)->nktv2p;
    if (!s->box.pbc || !(s->box.l[0] > 0 && s->box.l[1] > 0 && s->box.l[2] > 0))
        return -1;
    /* One species: (m sum + W) / L^3, the expression of the cubic box before. */
    const double iv = s->box.l[0] == s->box.l[1] && s->box.l[1] == s->box.l[2]
                          ? 1.0 / (s->box.l[0] * s->box.l[0] * s->box.l[0])
                          : 1.0 / vol;
    for (int c = 0; c < 6; c++) {
        p[1 + c] = (kin[c] + s->virial[c]) * iv;
        if (nktv2p != 1.0)
            p[1 + c] *= nktv2p;
    }
    p[0] = (p[1] + p[2] + p[3]) / 3.0;
    return 0;
}

int sim_pressure(const sim_state *s, double p[7])
{
    double kin[6];
    if (!s->box.pbc || !(s->box.l[0] > 0 && s->box.l[1] > 0 && s->box.l[2] > 0))
        return -1;
    sim_kinetic_tensor(s, kin);
    return sim_pressure_kin(s, kin, p);
}

double sim_conserved_k(const sim_state *s, double k)
{
    return k + s->e_pair + s->e_triplet + s->e_bath;
}

double sim_conserved(const sim_state *s)
{
    return sim_conserved_k(s, sim_kinetic(s));
}

void sim_set_species(sim_state *s, const sim_config *c)
{
    const tb_units *u = units_of(c->units);
    s->units = c->units;
    s->ntypes = c->system.n_species > 0 ? c->system.n_species : 1;
    for (int t = 0; t < s->ntypes; t++) {
        snprintf(s->type_name[t], sizeof s->type_name[t], "%s",
                 c->system.n_species > 0 ? c->system.species[t].name : "Ar");
        s->mass[t] = units_mass_internal(u, c->system.n_species > 0 ? c->system.species[t].mass
                                                                   : c->system.mass);
    }
}

void sim_state_like(sim_state *dst, const sim_state *src)
{
    const int n = dst->n < src->n ? dst->n : src->n;
    dst->units = src->units;
    dst->ntypes = src->ntypes;
    memcpy(dst->type_name, src->type_name, sizeof dst->type_name);
    memcpy(dst->mass, src->mass, sizeof dst->mass);
    dst->box = src->box;
    if (dst->type && src->type && n > 0)
        memcpy(dst->type, src->type, (size_t)n * sizeof *dst->type);
}
