/* finite.c — finding the first non-finite energy, force, position, velocity, kinetic energy
 * or thermo column of a host state (see finite.h). */
#include <math.h>
#include <stddef.h>

#include "solver/finite.h"

const char *tb_nonfinite_term(int term)
{
    static const char *const names[] = {
        "triplet energy", "pair energy",        "force", "position",    "velocity",
        "kinetic energy", "virial",             "total energy",         "conserved quantity",
        "drift",          "temperature",        "pressure"};
    return term >= 0 && term <= TB_NF_PRESSURE ? names[term] : "value";
}

static int vec_finite(const double *v)
{
    return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]);
}

int sim_nonfinite_particle(const sim_state *s, int *term)
{
    const double *arr[3] = {s->force, s->pos, s->vel};
    const double bound = tb_ke_bound(s->n);
    for (int t = 0; t < 3; t++)
        for (int i = 0; i < s->n; i++)
            if (arr[t] && !vec_finite(arr[t] + 3 * (long)i)) {
                *term = TB_NF_FORCE + t;
                return i;
            }
    for (int i = 0; s->vel && i < s->n; i++) {
        const double *v = s->vel + 3 * (long)i;
        if (!tb_ke_ok(v[0] * v[0] + v[1] * v[1] + v[2] * v[2], sim_mass(s, i), bound)) {
            *term = TB_NF_KINETIC;
            return i;
        }
    }
    return -1;
}

/* The first non-finite column of the thermo file (output.c's thermo_row), -1 when none; kin:
 * the velocities' sums (sim_find_nonfinite_derived_kin) or NULL (computed here). */
static int thermo_nonfinite(const sim_state *s, const double kin[7])
{
    double p[7], kt[6];
    for (int c = 0; c < 6; c++)
        if (!isfinite(s->virial[c]))
            return TB_NF_VIRIAL;
    const double k = kin ? kin[0] : sim_kinetic(s), h = sim_conserved_k(s, k); /* one pass */
    if (!isfinite(k))
        return TB_NF_KINETIC;
    if (!isfinite(k + s->e_pair + s->e_triplet))
        return TB_NF_TOTAL;
    if (!isfinite(h))
        return TB_NF_CONSERVED;
    /* as sim_drift (output.c) */
    if (!isfinite(s->e0 != 0.0 ? (h - s->e0) / fabs(s->e0) : h - s->e0))
        return TB_NF_DRIFT;
    if (!isfinite(sim_temperature_k(s, k)))
        return TB_NF_TEMPERATURE;
    if (!kin && s->box.pbc)
        sim_kinetic_tensor(s, kt);
    if (sim_pressure_kin(s, kin ? kin + 1 : kt, p) == 0)
        for (int c = 0; c < 7; c++)
            if (!isfinite(p[c]))
                return TB_NF_PRESSURE;
    return -1;
}

/* sim_find_nonfinite, the particles scanned or not (particles = 0: a backend's check_finite
 * found them finite). */
static int find_nonfinite(const sim_state *s, tb_nonfinite *nf, int particles,
                          const double kin[7])
{
    nf->step = -1;
    nf->particle = -1;
    nf->term = -1;
    if (!isfinite(s->e_triplet))
        nf->term = TB_NF_TRIPLET;
    else if (!isfinite(s->e_pair))
        nf->term = TB_NF_PAIR;
    else if (!particles || (nf->particle = sim_nonfinite_particle(s, &nf->term)) < 0)
        nf->term = thermo_nonfinite(s, kin);
    if (nf->term < 0)
        return 0;
    nf->step = s->step;
    return 1;
}

int sim_find_nonfinite(const sim_state *s, tb_nonfinite *nf)
{
    return find_nonfinite(s, nf, 1, NULL);
}

int sim_find_nonfinite_derived(const sim_state *s, tb_nonfinite *nf)
{
    return find_nonfinite(s, nf, 0, NULL);
}

void sim_kinetic_sums(const sim_state *s, double kin[7])
{
    kin[0] = sim_kinetic(s);
    sim_kinetic_tensor(s, kin + 1);
}

int sim_find_nonfinite_derived_kin(const sim_state *s, tb_nonfinite *nf, const double kin[7])
{
    return find_nonfinite(s, nf, 0, kin);
}
