/* units.c — the table of unit styles (units.h). Constants as LAMMPS's update.cpp sets them. */
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
