/* units.h — the unit styles of `units` (LAMMPS's lj, metal and real) and their constants.
 *
 * Owner of every unit conversion. The program computes in the style's own units; three
 * constants make it consistent, with LAMMPS's values (update.cpp, LAMMPS 29 Sep 2021):
 *   boltz   k_B in the style's energy per kelvin (lj: 1, temperature is in epsilon/k_B),
 *   mvv2e   m v^2 -> energy: kinetic energy = mvv2e m v^2 / 2 (and F/m -> acceleration is
 *           1/mvv2e, LAMMPS's ftm2v),
 *   nktv2p  energy / volume -> pressure.
 * The state holds masses already multiplied by mvv2e (units_mass_internal), so the
 * integrators and the kinetic energy need no constant (lj: the same numbers as before).
 *
 * The configuration's defaults are argon in reduced units (epsilon = sigma = m = 1, the
 * project's model); in metal and real they are the same argon in the style's units
 * (units_argon: sigma = 3.405 Angstrom, epsilon/k_B = 119.8 K, m = 39.948 g/mol). */
#ifndef TB_UNITS_H
#define TB_UNITS_H

#include <stddef.h>

#include "common/tb.h"

TB_BEGIN_DECLS

typedef struct tb_units {
    const char *name; /* "lj", "metal", "real" (the `units` setting) */
    double boltz, mvv2e, nktv2p;
    double dt;        /* LAMMPS's default time step in the style [time] */
    /* The unit of each quantity, as thermo headers and docs/config.md name it. */
    const char *length, *energy, *mass, *time, *temperature, *pressure, *velocity, *force;
} tb_units;

/* The style of `units` (enum cfg_units); an unknown value gives lj. */
const tb_units *units_of(int style);

/* The name of the lj unit `lj` ("sigma", "tau", "epsilon/k_B", "1/tau", "epsilon sigma^9",
 * ...) in style u ("Angstrom", "ps", "K", "1/ps", "eV Angstrom^9"), into buf; a name that is
 * no unit of the styles ("steps", "particles", "s", "") is copied as it is. Returns buf. */
const char *units_name(const tb_units *u, const char *lj, char *buf, size_t size);

/* The factor that turns a value in the lj unit `lj` (as units_name reads it) into style u,
 * argon's reduced units taken as the lj ones: 1 in lj and for a name that is no unit. */
double units_argon(const tb_units *u, const char *lj);

/* A mass as configured [mass] into the state's internal mass [energy time^2 / length^2]. */
static inline double units_mass_internal(const tb_units *u, double mass) { return mass * u->mvv2e; }

TB_END_DECLS

#endif
