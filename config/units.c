/* units.c — the table of unit styles (units.h), constants as LAMMPS's update.cpp sets them; the
 * names of the lj units in each style, and argon, the model the defaults describe, in each. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "config/config.h"
#include "config/units.h"

static const tb_units styles[] = {
    [CFG_UNITS_LJ] = {.name = "lj", .boltz = 1.0, .mvv2e = 1.0, .nktv2p = 1.0, .dt = 0.005,
                      .length = "sigma", .energy = "epsilon", .mass = "m", .time = "tau",
                      .temperature = "epsilon/k_B", .pressure = "epsilon/sigma^3",
                      .velocity = "sigma/tau", .force = "epsilon/sigma"},
    [CFG_UNITS_METAL] = {.name = "metal", .boltz = 8.617343e-5, .mvv2e = 1.0364269e-4,
                         .nktv2p = 1.6021765e6, .dt = 0.001, .length = "Angstrom",
                         .energy = "eV", .mass = "g/mol", .time = "ps", .temperature = "K",
                         .pressure = "bar", .velocity = "Angstrom/ps", .force = "eV/Angstrom"},
    [CFG_UNITS_REAL] = {.name = "real", .boltz = 0.0019872067,
                        .mvv2e = 48.88821291 * 48.88821291, .nktv2p = 68568.415, .dt = 1.0,
                        .length = "Angstrom", .energy = "kcal/mol", .mass = "g/mol",
                        .time = "fs", .temperature = "K", .pressure = "atm",
                        .velocity = "Angstrom/fs", .force = "kcal/mol-Angstrom"},
};

const tb_units *units_of(int style)
{
    if (style < 0 || style >= (int)(sizeof styles / sizeof styles[0]))
        style = CFG_UNITS_LJ;
    return &styles[style];
}

/* Argon, the model the defaults describe, in the real-unit styles (Rahman 1964, as LAMMPS's
 * examples): sigma [Angstrom], epsilon / k_B [K], mass [g/mol]. */
#define ARGON_SIGMA 3.405
#define ARGON_EPS_K 119.8
#define ARGON_MASS 39.948

/* The lj units of a configuration's settings, their dimension in powers of mass, length,
 * energy and time, temperature on its own (epsilon/k_B: an energy over k_B), and pressure
 * (energy / length^3 times nktv2p: the style's pressure unit, bar or atm) on its own. */
static const struct lj_dim {
    const char *lj;
    int mass, length, energy, time, temp, press;
} dims[] = {
    {"m", 1, 0, 0, 0, 0, 0},     {"sigma", 0, 1, 0, 0, 0, 0},  {"epsilon", 0, 0, 1, 0, 0, 0},
    {"tau", 0, 0, 0, 1, 0, 0},   {"1/tau", 0, 0, 0, -1, 0, 0}, {"epsilon/k_B", 0, 0, 0, 0, 1, 0},
    {"epsilon sigma^9", 0, 9, 1, 0, 0, 0}, {"epsilon/sigma^3", 0, 0, 0, 0, 0, 1},
    {"sigma^3/epsilon", 0, 0, 0, 0, 0, -1},
};

static const struct lj_dim *dim_of(const char *lj)
{
    for (size_t i = 0; lj && i < sizeof dims / sizeof dims[0]; i++)
        if (!strcmp(dims[i].lj, lj))
            return &dims[i];
    return NULL;
}

const char *units_name(const tb_units *u, const char *lj, char *buf, size_t size)
{
    const struct lj_dim *d = dim_of(lj);
    if (!d || (d->press && !strcmp(u->name, "lj")))
        snprintf(buf, size, "%s", lj ? lj : "");
    else if (d->press)
        snprintf(buf, size, "%s%s", d->press < 0 ? "1/" : "", u->pressure);
    else if (d->mass)
        snprintf(buf, size, "%s", u->mass);
    else if (d->temp)
        snprintf(buf, size, "%s", u->temperature);
    else if (d->time)
        snprintf(buf, size, "%s%s", d->time < 0 ? "1/" : "", u->time);
    else if (d->length > 1)
        snprintf(buf, size, "%s %s^%d", u->energy, u->length, d->length);
    else
        snprintf(buf, size, "%s", d->length ? u->length : u->energy);
    return buf;
}

double units_argon(const tb_units *u, const char *lj)
{
    const struct lj_dim *d = dim_of(lj);
    if (!d || !strcmp(u->name, "lj"))
        return 1.0;
    const double e = ARGON_EPS_K * u->boltz; /* [energy] */
    /* tau = sigma sqrt(m / epsilon), with m v^2 in energy units through mvv2e */
    const double tau = ARGON_SIGMA * sqrt(u->mvv2e * ARGON_MASS / e);
    const double p = u->nktv2p * e / (ARGON_SIGMA * ARGON_SIGMA * ARGON_SIGMA); /* [pressure] */
    return pow(ARGON_MASS, d->mass) * pow(ARGON_SIGMA, d->length) * pow(e, d->energy) *
           pow(tau, d->time) * pow(ARGON_EPS_K, d->temp) * pow(p, d->press);
}
