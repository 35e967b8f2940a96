/* config.c — reads sim.cfg (libconfig) into sim_config, checking every setting against one schema.
 *
 * Order of precedence: the defaults of the table, then the file, then the --set overrides. The
 * overrides are merged into the parsed tree before anything is checked, so each setting is checked
 * once, by the same code, wherever it came from. A setting knows its origin: file and line from
 * libconfig, or, for one made by an override, the "PATH=VALUE" text stored in its libconfig hook.
 *
 * Invariant: every problem is reported as it is found, one line each, and loading goes on, so the
 * user sees all of them at once; a setting that was rejected is marked bad and the cross checks
 * (periodic box, cutoffs, initial state) skip whatever depends on it, so one mistake yields one
 * line. Nothing here writes a file.
 *
 * This file: the schema, defaults, reading one setting, loading; the checks across settings are
 * in config_checks.c, the lists (species, composition, pairs, triplets) in config_species.c,
 * the --set overrides in config_set.c, integer literals as written in config_literal.c, the reporting in config_report.c (config_int.h). */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <libconfig.h>

#include "config/config.h"
#include "config/input.h"
#include "config/units.h"
#include "maps3d/map2d.h"
#include "maps3d/map3d.h"
#include "common/check.h"

#include "config/config_int.h"


static const char *const boundary_names[] = {"open", "periodic", "mixed", NULL};
static const char *const init_names[] = {"random", "lattice", "xyz", "lammps", NULL};
static const char *const placement_names[] = {"sequential", "parallel", NULL};
static const char *const backend_names[] = {"auto", "cpu", "gpu", NULL};
static const char *const precision_names[] = {"double", "mixed", "single", NULL};
static const char *const integrator_names[] = {"nve", "langevin", "nose-hoover", NULL};
static const char *const units_names[] = {"lj", "metal", "real", NULL};
static const char *const mix_names[] = {"geometric", "arithmetic", NULL};
static const char *const baro_names[] = {"c-rescale", "mtk", NULL};
static const char *const coupling_names[] = {"iso", "aniso", "tri", NULL};

/* solver.threads: 0 (the kernel's default) or a whole number of warps, up to 1024. */
static int threads_ok(long long v)
{
    return v == 0 || (v >= 32 && v <= 1024 && v % 32 == 0);
}

#define FIELD(m) .off = offsetof(sim_config, m), .size = sizeof(((sim_config *)0)->m)

/* The schema: every setting tribody reads. Order is the order of docs/config.md. Rows marked
 * CF_PHYSICS define the dynamics: a restart compares them with its checkpoint's (the one list;
 * system.particles is compared on its own, as a checkpoint of another N cannot continue). */
static const cfg_row schema[] = {
    {.path = "units", .kind = K_CHOICE, .def = "lj", .choices = units_names,
     .flags = CF_PHYSICS | CF_ABSENT_DEFAULT, FIELD(units),
     .doc = "unit style (LAMMPS's): lj (reduced), metal, real; every number is in its units"},
    {.path = "system", .kind = K_GROUP, .doc = "the particles, their box and their initial state"},
    {.path = "system.particles", .kind = K_INT, .range = "3 .. 10000000", .unit = "particles",
     .flags = CF_REQUIRED, FIELD(system.particles), .doc = "number of particles N (required)"},
    {.path = "system.seed", .kind = K_ULONG, .def = "1", .range = ">= 0", FIELD(system.seed),
     .doc = "seed of the random initial positions and velocities"},
    {.path = "system.species", .kind = K_LIST, .range = "1 .. 8 species",
     .flags = CF_PHYSICS | CF_ABSENT_DEFAULT, .follows = "system.mass",
     .text = cfg_species_text,
     .doc = "the species (particle types), in LAMMPS's type order; absent: one, of system.mass"},
    {.path = "system.mass", .kind = K_FLOAT, .def = "1.0", .range = "> 0", .unit = "m",
     .flags = CF_PHYSICS, FIELD(system.mass), .doc = "mass of every particle"},
    {.path = "system.boundary", .kind = K_BOUNDARY, .def = "open",
     .range = "open, periodic, or p/f per axis x y z (\"ppf\")", .flags = CF_PHYSICS,
     FIELD(system.boundary),
     .doc = "open (a cluster in vacuum), periodic, or per axis: p periodic, f open (a slab: ppf)"},
    {.path = "system.box", .kind = K_BOX, .range = "> 0, or { lengths; tilt; origin; }",
     .unit = "sigma", .flags = CF_PHYSICS, FIELD(system.box),
     .doc = "a cube's edge L, or { lengths = [lx, ly, lz]; tilt = [xy, xz, yz]; origin = "
            "[x0, y0, z0]; }; required with a periodic axis, an error with open"},
    {.path = "system.init", .kind = K_GROUP, .doc = "the initial state"},
    {.path = "system.init.type", .kind = K_CHOICE, .def = "random", .choices = init_names,
     FIELD(system.init.type), .doc = "random cluster, fcc lattice, or an XYZ file"},
    {.path = "system.init.radius", .kind = K_FLOAT, .def = "0", .range = ">= 0", .unit = "sigma",
     FIELD(system.init.radius), .doc = "cluster radius; 0 = from a number density of 0.7"},
    {.path = "system.init.min_distance", .kind = K_FLOAT, .def = "1.0", .range = "> 0",
     .unit = "sigma", FIELD(system.init.min_distance),
     .doc = "random: smallest pair distance; lattice: fcc nearest-neighbour distance"},
    {.path = "system.init.placement", .kind = K_CHOICE, .def = "sequential",
     .choices = placement_names, FIELD(system.init.placement),
     .doc = "random: sequential (one stream, the bits of every earlier version) or parallel "
            "(cell by cell on the threads, other positions, the same for any thread count)"},
    {.path = "system.init.temperature", .kind = K_FLOAT, .def = "0.7", .range = ">= 0",
     .unit = "epsilon/k_B", FIELD(system.init.temperature),
     .doc = "initial temperature of Maxwell-Boltzmann velocities"},
    {.path = "system.init.file", .kind = K_FILE, FIELD(system.init.file),
     .doc = "XYZ or LAMMPS data file of the initial state; required iff type is xyz or lammps"},
    {.path = "system.init.composition", .kind = K_LIST, .range = "one number >= 0 per species",
     .doc = "random, lattice: fraction of each species (normalised); required with several"},
    {.path = "potential", .kind = K_GROUP, .doc = "the interactions"},
    {.path = "potential.atm", .kind = K_GROUP, .doc = "Axilrod-Teller-Muto triple-dipole term"},
    {.path = "potential.atm.nu", .kind = K_FLOAT, .def = "0.0703", .range = ">= 0",
     .unit = "epsilon sigma^9", .flags = CF_PHYSICS, FIELD(potential.atm.nu),
     .doc = "ATM coefficient nu (argon: 0.0703); 0 disables the term"},
    {.path = "potential.atm.cutoff", .kind = K_FLOAT, .def = "0", .range = ">= 0", .unit = "sigma",
     .flags = CF_PHYSICS, .follows = "system.box", FIELD(potential.atm.cutoff),
     .doc = "triplet kept iff all three distances are at most it; 0 = none (periodic: L/4)"},
    {.path = "potential.atm.cutoff_triple", .kind = K_FLOAT, .def = "0", .range = ">= 0",
     .unit = "sigma", .flags = CF_PHYSICS, FIELD(potential.atm.cutoff_triple),
     .doc = "also r_ij r_jk r_ki <= cutoff_triple^3 (LAMMPS's cutoff_triple); 0 = no such limit"},
    {.path = "potential.atm.triplets", .kind = K_LIST, .range = "nu >= 0",
     .flags = CF_PHYSICS | CF_ABSENT_DEFAULT, .text = cfg_triplets_text,
     .doc = "nu per species triplet (LAMMPS's pair_coeff I J K nu); a triplet not given has 0"},
    {.path = "potential.lj", .kind = K_GROUP, .flags = CF_PHYSICS, FIELD(potential.lj.enabled),
     .doc = "Lennard-Jones pair term; present = enabled"},
    {.path = "potential.lj.epsilon", .kind = K_FLOAT, .def = "1.0", .range = "> 0",
     .unit = "epsilon", .flags = CF_PHYSICS, FIELD(potential.lj.epsilon), .doc = "well depth"},
    {.path = "potential.lj.sigma", .kind = K_FLOAT, .def = "1.0", .range = "> 0", .unit = "sigma",
     .flags = CF_PHYSICS, FIELD(potential.lj.sigma),
     .doc = "distance where the pair energy is zero"},
    {.path = "potential.lj.cutoff", .kind = K_FLOAT, .def = "2.5", .range = "> 0", .unit = "sigma",
     .flags = CF_PHYSICS, FIELD(potential.lj.cutoff), .doc = "pair cutoff distance"},
    {.path = "potential.lj.shift", .kind = K_BOOL, .def = "true", .flags = CF_PHYSICS,
     FIELD(potential.lj.shift),
     .doc = "shift the pair energy to 0 at the cutoff"},
    {.path = "potential.lj.mix", .kind = K_CHOICE, .def = "geometric", .choices = mix_names,
     .flags = CF_PHYSICS | CF_ABSENT_DEFAULT, FIELD(potential.lj.mix),
     .doc = "mixing rule of the species pairs not in pairs (LAMMPS's pair_modify mix)"},
    {.path = "potential.lj.pairs", .kind = K_LIST, .range = "epsilon, sigma, cutoff > 0",
     .flags = CF_PHYSICS | CF_ABSENT_DEFAULT, .text = cfg_pairs_text,
     .doc = "epsilon, sigma, cutoff per species pair (LAMMPS's pair_coeff I J)"},
    {.path = "potential.sw", .kind = K_GROUP, .flags = CF_PHYSICS | CF_ABSENT_DEFAULT,
     FIELD(potential.sw.enabled),
     .doc = "Stillinger-Weber pair and three-body terms (LAMMPS's pair_style sw); present = "
            "enabled, alone, units metal"},
    {.path = "potential.sw.file", .kind = K_FILE, .flags = CF_PHYSICS | CF_ABSENT_DEFAULT,
     FIELD(potential.sw.file), .text = cfg_sw_text,
     .doc = "the .sw parameter file (LAMMPS's format), its elements matched to system.species "
            "by name; required with potential.sw"},
    {.path = "integrator", .kind = K_GROUP, .doc = "velocity Verlet time stepping"},
    {.path = "integrator.dt", .kind = K_FLOAT, .def = "0.002", .range = "> 0", .unit = "tau",
     .flags = CF_PHYSICS, FIELD(integrator.dt), .doc = "time step"},
    {.path = "integrator.steps", .kind = K_LONG, .def = "1000", .range = ">= 0", .unit = "steps",
     FIELD(integrator.steps), .doc = "number of steps"},
    {.path = "integrator.type", .kind = K_CHOICE, .def = "nve", .choices = integrator_names,
     .flags = CF_PHYSICS, FIELD(integrator.type),
     .doc = "nve (velocity Verlet), langevin (BAOAB) or nose-hoover (a Nose-Hoover chain)"},
    {.path = "integrator.temperature", .kind = K_FLOAT, .range = ">= 0", .unit = "epsilon/k_B",
     .flags = CF_PHYSICS, FIELD(integrator.temperature),
     .doc = "thermostat target temperature; required with langevin and nose-hoover"},
    {.path = "integrator.temperature_end", .kind = K_FLOAT, .range = ">= 0",
     .unit = "epsilon/k_B", .flags = CF_PHYSICS, .follows = "integrator.temperature",
     FIELD(integrator.temperature_end),
     .doc = "target at the last step: a linear ramp from temperature; default no ramp"},
    {.path = "integrator.gamma", .kind = K_FLOAT, .def = "1.0", .range = "> 0", .unit = "1/tau",
     .flags = CF_PHYSICS, FIELD(integrator.gamma), .doc = "Langevin friction coefficient"},
    {.path = "integrator.nh", .kind = K_GROUP, .doc = "Nose-Hoover chain settings"},
    {.path = "integrator.nh.chain", .kind = K_INT, .def = "3", .range = "1 .. 16",
     .unit = "thermostats", .flags = CF_PHYSICS, FIELD(integrator.nh.chain),
     .doc = "chain length M"},
    {.path = "integrator.nh.period", .kind = K_FLOAT, .def = "0.5", .range = "> 0", .unit = "tau",
     .flags = CF_PHYSICS, FIELD(integrator.nh.period),
     .doc = "thermostat period tau_T (masses Q_1 = N_f k T tau_T^2)"},
    /* the barostat (physics/baro.h): newer than the first checkpoints, which ran without one */
    {.path = "integrator.barostat", .kind = K_GROUP, .flags = CF_PHYSICS | CF_ABSENT_DEFAULT,
     FIELD(integrator.barostat.enabled), .doc = "constant pressure; present = on"},
    {.path = "integrator.barostat.type", .kind = K_CHOICE, .choices = baro_names,
     .flags = CF_PHYSICS | CF_ABSENT_DEFAULT, FIELD(integrator.barostat.type),
     .doc = "c-rescale (stochastic cell rescaling) or mtk; required in the group"},
    {.path = "integrator.barostat.pressure", .kind = K_FLOAT,
     .unit = "epsilon/sigma^3", .flags = CF_PHYSICS | CF_ABSENT_DEFAULT,
     FIELD(integrator.barostat.pressure), .doc = "target pressure; required in the group"},
    {.path = "integrator.barostat.pressure_end", .kind = K_FLOAT,
     .unit = "epsilon/sigma^3", .flags = CF_PHYSICS | CF_ABSENT_DEFAULT,
     .follows = "integrator.barostat.pressure", FIELD(integrator.barostat.pressure_end),
     .doc = "target at the last step (linear ramp)"},
    {.path = "integrator.barostat.period", .kind = K_FLOAT, .def = "2.0", .range = "> 0",
     .unit = "tau", .flags = CF_PHYSICS | CF_ABSENT_DEFAULT, FIELD(integrator.barostat.period),
     .doc = "barostat period tau_P"},
    {.path = "integrator.barostat.coupling", .kind = K_CHOICE, .def = "iso",
     .choices = coupling_names, .flags = CF_PHYSICS | CF_ABSENT_DEFAULT,
     FIELD(integrator.barostat.coupling), .doc = "iso, aniso (each axis) or tri"},
    {.path = "integrator.barostat.compressibility", .kind = K_FLOAT, .def = "0.1", .range = "> 0",
     .unit = "sigma^3/epsilon", .flags = CF_PHYSICS | CF_ABSENT_DEFAULT,
     FIELD(integrator.barostat.compressibility),
     .doc = "isothermal compressibility beta_T (c-rescale)"},
    {.path = "integrator.barostat.every", .kind = K_INT, .def = "10", .range = "1 .. 1000000",
     .unit = "steps", .flags = CF_PHYSICS | CF_ABSENT_DEFAULT, FIELD(integrator.barostat.every),
     .doc = "c-rescale acts every this many steps (GROMACS nstpcouple)"},
    {.path = "solver", .kind = K_GROUP, .doc = "how the forces are computed"},
    {.path = "solver.backend", .kind = K_CHOICE, .def = "auto", .choices = backend_names,
     FIELD(solver.backend), .doc = "auto (the GPU when there is one), cpu or gpu"},
    {.path = "solver.map", .kind = K_MAP3D, .def = "lambda", .range = "a map3d registry name",
     FIELD(solver.map), .doc = "block map of the triplet term"},
    {.path = "solver.map2d", .kind = K_MAP2D, .def = "lambda2d", .range = "a map2d registry name",
     FIELD(solver.map2d), .doc = "block map of the pair term"},
    {.path = "solver.root", .kind = K_ROOT, .def = "exact", FIELD(solver.root),
     .doc = "square-root variant of the lambda2d map"},
    {.path = "solver.tile", .kind = K_INT, .def = "32", .range = "1 .. 1024", .unit = "particles",
     FIELD(solver.tile), .doc = "tile edge rho: particles per tile side (GPU: 8, 16 or 32)"},
    {.path = "solver.threads", .kind = K_INT, .def = "0",
     .range = "0 or a multiple of 32 in 32 .. 1024", .unit = "threads", .check = threads_ok,
     FIELD(solver.threads), .doc = "GPU threads per block of the pair, integration and Stillinger-Weber kernels (SW: one centre per warp, at most 256); 0 = 128 (the triplet kernel always runs 4 x tile)"},
    {.path = "solver.precision", .kind = K_CHOICE, .def = "mixed", .choices = precision_names,
     FIELD(solver.precision), .doc = "floating point of the force sums"},
    {.path = "solver.deterministic", .kind = K_BOOL, .def = "false", FIELD(solver.deterministic),
     .doc = "bitwise repeatable force sums (slower)"},
    {.path = "solver.cull", .kind = K_BOOL, .def = "true", FIELD(solver.cull),
     .doc = "O(N) neighbour-list path when every active term has a cutoff"},
    {.path = "solver.skin", .kind = K_FLOAT, .def = "0.3", .range = ">= 0", .unit = "sigma",
     FIELD(solver.skin), .doc = "neighbour-list skin: lists are rebuilt when a particle has moved skin/2"},
    {.path = "solver.max_step_seconds", .kind = K_FLOAT, .def = "86400", .range = "> 0",
     .unit = "s", FIELD(solver.max_step_seconds),
     .doc = "longest estimated time of one step before run and eval refuse to start"},
    {.path = "output", .kind = K_GROUP, .doc = "files written during the run"},
    {.path = "output.thermo", .kind = K_STRING, .def = "thermo.csv", FIELD(output.thermo),
     .doc = "CSV of energies and temperature; \"\" disables"},
    {.path = "output.thermo_every", .kind = K_INT, .def = "100", .range = ">= 1", .unit = "steps",
     FIELD(output.thermo_every), .doc = "thermo interval"},
    {.path = "output.trajectory", .kind = K_STRING, .def = "trajectory.xyz",
     FIELD(output.trajectory), .doc = "extended XYZ frames; \"\" disables"},
    {.path = "output.trajectory_every", .kind = K_INT, .def = "1000", .range = ">= 1",
     .unit = "steps", FIELD(output.trajectory_every), .doc = "trajectory interval"},
    {.path = "output.checkpoint", .kind = K_STRING, .def = "checkpoint.tbck",
     FIELD(output.checkpoint), .doc = "binary restart file; \"\" disables"},
    {.path = "output.checkpoint_every", .kind = K_INT, .def = "10000", .range = ">= 1",
     .unit = "steps", FIELD(output.checkpoint_every),
     .doc = "checkpoint interval (also written at the end and on SIGINT/SIGTERM)"},
    {.path = "output.forces", .kind = K_BOOL, .def = "false", FIELD(output.forces),
     .doc = "trajectory frames carry forces"},
    {.path = "output.data", .kind = K_STRING, .def = "", FIELD(output.data),
     .doc = "LAMMPS data file of the final state; \"\" disables"},
    {.path = "output.rdf", .kind = K_GROUP, FIELD(output.rdf.enabled),
     .doc = "radial distribution function g(r), averaged over the run; present = enabled"},
    {.path = "output.rdf.file", .kind = K_STRING, .def = "rdf.csv", FIELD(output.rdf.file),
     .doc = "CSV of g(r) and the coordination numbers (total, per species pair); a PNG beside it"},
    {.path = "output.rdf.every", .kind = K_INT, .def = "100", .range = ">= 1", .unit = "steps",
     FIELD(output.rdf.every), .doc = "sample interval"},
    {.path = "output.rdf.r_max", .kind = K_FLOAT, .range = "> 0", .unit = "sigma",
     FIELD(output.rdf.r_max),
     .doc = "histogram range; default the largest cutoff, at most half the smallest periodic width"},
    {.path = "output.rdf.bins", .kind = K_INT, .def = "100", .range = ">= 1", .unit = "bins",
     FIELD(output.rdf.bins), .doc = "number of bins of width r_max / bins"},
    {.path = "output.msd", .kind = K_GROUP, FIELD(output.msd.enabled),
     .doc = "mean-square displacement per species and the diffusion coefficient; present = enabled"},
    {.path = "output.msd.file", .kind = K_STRING, .def = "msd.csv", FIELD(output.msd.file),
     .doc = "CSV of the MSD per species; a PNG beside it"},
    {.path = "output.msd.every", .kind = K_INT, .def = "100", .range = ">= 1", .unit = "steps",
     FIELD(output.msd.every), .doc = "sample interval"},
};

#define N_ROWS ((int)(sizeof schema / sizeof schema[0]))

_Static_assert(N_ROWS <= CFG_MAX_ROWS, "CFG_MAX_ROWS: raise it");
const cfg_row *const cfg_rows = schema;
const int cfg_n_rows = N_ROWS;


/* ---- the schema ---------------------------------------------------------------------------- */

/* Index of the row named `path`, or -1. */
int cfg_row_find(const char *path)
{
    for (int i = 0; i < N_ROWS; i++)
        if (strcmp(schema[i].path, path) == 0)
            return i;
    return -1;
}

/* The row named `path`, which must exist (a name spelled in this file). */
int cfg_row_of(const char *path)
{
    int i = cfg_row_find(path);
    if (i < 0) {
        tb_error(__FILE__, __LINE__, "internal: no schema row %s", path);
        abort();
    }
    return i;
}

static void *field_of(sim_config *c, const cfg_row *r)
{
    return (char *)c + r->off;
}

/* Writes "a, b, c" (NULL-terminated names) into buf. */
static void join_names(const char *const *names, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; names[i] && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", names[i]);
}

/* Writes the root variants "exact, sqrtf, ..." into buf (map2d_root_name answers "?" past them). */
static void root_names(char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; strcmp(map2d_root_name(i), "?") != 0 && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", map2d_root_name(i));
}

/* The range of a row as printed in docs and messages' "expected one of". */
static void row_range(const cfg_row *r, char *buf, size_t len)
{
    if (r->kind == K_CHOICE)
        join_names(r->choices, buf, len);
    else if (r->kind == K_ROOT)
        root_names(buf, len);
    else
        snprintf(buf, len, "%s", r->range ? r->range : "");
}

static const char *kind_type(enum cfg_kind k)
{
    switch (k) {
    case K_GROUP: return "group";
    case K_INT: return "int";
    case K_LONG:
    case K_ULONG: return "int64";
    case K_FLOAT: return "float";
    case K_BOOL: return "bool";
    case K_BOX: return "float or group";
    case K_LIST: return "list";
    default: return "string";
    }
}

int cfg_schema_count(void)
{
    return N_ROWS;
}

const char *cfg_schema_path(int i)
{
    return i >= 0 && i < N_ROWS ? schema[i].path : NULL;
}

int cfg_schema_get(int i, cfg_schema_info *info)
{
    if (i < 0 || i >= N_ROWS)
        return -1;
    const cfg_row *r = &schema[i];
    info->path = r->path;
    info->type = kind_type(r->kind);
    info->def = r->def;
    info->unit = r->unit ? r->unit : "";
    info->doc = r->doc;
    info->required = (r->flags & CF_REQUIRED) != 0;
    row_range(r, info->range, sizeof info->range);
    return 0;
}

/* ---- enum names ---------------------------------------------------------------------------- */

static const char *enum_name(const char *const *names, int v)
{
    for (int i = 0; names[i]; i++)
        if (i == v)
            return names[i];
    return "?";
}

const char *cfg_boundary_name(int b) { return enum_name(boundary_names, b); }
const char *cfg_init_name(int t) { return enum_name(init_names, t); }
const char *cfg_placement_name(int t) { return enum_name(placement_names, t); }
const char *cfg_backend_name(int b) { return enum_name(backend_names, b); }
const char *cfg_precision_name(int p) { return enum_name(precision_names, p); }
const char *cfg_integrator_name(int t) { return enum_name(integrator_names, t); }
const char *cfg_units_name(int u) { return enum_name(units_names, u); }
const char *cfg_mix_name(int m) { return enum_name(mix_names, m); }
const char *cfg_baro_name(int t) { return enum_name(baro_names, t); }
const char *cfg_coupling_name(int k) { return enum_name(coupling_names, k); }

/* ---- defaults ------------------------------------------------------------------------------ */

/* The default map: `want` when registered (lambda may not be yet), else the first map. */
static const char *default_map3d(const char *want)
{
    if (map3d_find(want))
        return want;
    return map3d_all[0] ? map3d_all[0]->name : "";
}

static const char *default_map2d(const char *want)
{
    if (map2d_find(want))
        return want;
    return map2d_all[0] ? map2d_all[0]->name : "";
}

static int choice_index(const char *const *names, const char *s)
{
    for (int i = 0; names[i]; i++)
        if (strcmp(names[i], s) == 0)
            return i;
    return -1;
}

/* Stores row r's default (its text, read as the kind says) into c. */
static void apply_default(sim_config *c, const cfg_row *r)
{
    void *f = field_of(c, r);
    const char *d = r->def;
    switch (r->kind) {
    case K_INT: *(int *)f = (int)strtol(d, NULL, 10); break;
    case K_LONG: *(long *)f = strtol(d, NULL, 10); break;
    case K_ULONG: *(unsigned long *)f = strtoul(d, NULL, 10); break;
    case K_FLOAT: *(double *)f = strtod(d, NULL); break;
    case K_BOOL: *(int *)f = strcmp(d, "true") == 0; break;
    case K_CHOICE: *(int *)f = choice_index(r->choices, d); break;
    case K_BOUNDARY: *(int *)f = CFG_BOUNDARY_OPEN; break; /* the only default: open */
    case K_MAP3D: snprintf((char *)f, r->size, "%s", default_map3d(d)); break;
    case K_MAP2D: snprintf((char *)f, r->size, "%s", default_map2d(d)); break;
    default: snprintf((char *)f, r->size, "%s", d); break;
    }
}

void cfg_defaults(sim_config *c)
{
    memset(c, 0, sizeof *c);
    for (int i = 0; i < N_ROWS; i++)
        if (schema[i].def)
            apply_default(c, &schema[i]);
    cfg_single_species(c);
}

void cfg_single_species(sim_config *c)
{
    if (c->system.species_given)
        return;
    c->system.n_species = 1;
    snprintf(c->system.species[0].name, sizeof c->system.species[0].name, "Ar");
    c->system.species[0].mass = c->system.mass;
}

/* ---- one setting --------------------------------------------------------------------------- */

/* Whether a libconfig value of type t can fill a row of kind k (an integer fills a float). */
static int type_fits(enum cfg_kind k, int t)
{
    int integer = t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64;
    switch (k) {
    case K_GROUP: return t == CONFIG_TYPE_GROUP;
    case K_INT:
    case K_LONG:
    case K_ULONG: return integer;
    case K_FLOAT: return integer || t == CONFIG_TYPE_FLOAT;
    case K_BOOL: return t == CONFIG_TYPE_BOOL;
    case K_BOX: return integer || t == CONFIG_TYPE_FLOAT || t == CONFIG_TYPE_GROUP;
    case K_LIST: return t == CONFIG_TYPE_LIST || t == CONFIG_TYPE_ARRAY;
    default: return t == CONFIG_TYPE_STRING;
    }
}

/* Whether v lies in a numeric range "> X", ">= X" or "LO .. HI" (NULL: anything). */
static int in_range(const char *range, double v)
{
    double lo, hi;
    if (!range)
        return 1;
    if (sscanf(range, ">= %lf", &lo) == 1)
        return v >= lo;
    if (sscanf(range, "> %lf", &lo) == 1)
        return v > lo;
    if (sscanf(range, "%lf .. %lf", &lo, &hi) == 2)
        return v >= lo && v <= hi;
    return 1;
}

/* "between 3 and 10000000 particles", "> 0 tau": what the range asks, for a message. */
void cfg_range_phrase(const cfg_row *r, int units, char *buf, size_t len)
{
    const char *sep = strstr(r->range, " .. ");
    char unit[64];
    units_name(units_of(units), r->unit, unit, sizeof unit);
    if (r->check)
        snprintf(buf, len, "%s", r->range);
    else if (sep && r->range[0] != '>')
        snprintf(buf, len, "between %.*s and %s%s%s", (int)(sep - r->range), r->range, sep + 4,
                 *unit ? " " : "", unit);
    else
        snprintf(buf, len, "%s%s%s", r->range, *unit ? " " : "", unit);
}

/* Reads an integer setting into its int/long/unsigned long field. Returns 0 or -1 (reported). */
static int take_integer(cfg_ctx *x, const cfg_row *r, const config_setting_t *s)
{
    long long v = cfg_int_value(x, s);
    char want[128], lit[64];
    int ok = r->check ? r->check(v) : in_range(r->range, (double)v);
    if (cfg_source_literal_overflows(x, s, lit, sizeof lit)) {
        cfg_problem(x, s, r->path, "%s is beyond the 64-bit integer range (the largest is %lld)",
                lit, LLONG_MAX);
        return -1;
    }
    if (ok && r->kind == K_INT && (v > INT_MAX || v < INT_MIN)) {
        cfg_problem(x, s, r->path, "must be at most %d (got %lld)", INT_MAX, v);
        return -1;
    }
    if (!ok) {
        cfg_range_phrase(r, x->c->units, want, sizeof want);
        cfg_problem(x, s, r->path, "must be %s (got %lld)", want, v);
        return -1;
    }
    void *f = field_of(x->c, r);
    if (r->kind == K_INT)
        *(int *)f = (int)v;
    else if (r->kind == K_LONG)
        *(long *)f = (long)v;
    else
        *(unsigned long *)f = (unsigned long)v;
    return 0;
}

/* Reads a number (float or integer) into its double field. Returns 0 or -1 (reported). */
static int take_float(cfg_ctx *x, const cfg_row *r, const config_setting_t *s)
{
    int t = config_setting_type(s);
    double v = t == CONFIG_TYPE_FLOAT ? config_setting_get_float(s) : (double)cfg_int_value(x, s);
    char want[128], got[32];
    if (!isfinite(v) || !in_range(r->range, v)) {
        cfg_range_phrase(r, x->c->units, want, sizeof want);
        cfg_problem(x, s, r->path, "must be %s (got %s)", want, cfg_fmt_num(v, got));
        return -1;
    }
    if (fabs(v) > CFG_FLOAT_MAX) { /* larger values overflow the physics: a bad input */
        cfg_problem(x, s, r->path, "must be at most %g in magnitude (got %s)", CFG_FLOAT_MAX,
                cfg_fmt_num(v, got));
        return -1;
    }
    *(double *)field_of(x->c, r) = v;
    return 0;
}

/* The directory part of `file` with its slash ("" when there is none). */
static void dir_of(const char *file, char *buf, size_t len)
{
    const char *slash = strrchr(file, '/');
    int n = slash ? (int)(slash - file + 1) : 0;
    snprintf(buf, len, "%.*s", n, file);
}

/* An input file: resolved against the directory of the file that names it (a --set value is
 * taken as given, relative to the current directory), and it must be a readable file. */
static int take_file(cfg_ctx *x, const cfg_row *r, const config_setting_t *s, const char *v)
{
    char src[CFG_PATH_MAX], dir[CFG_PATH_MAX] = "", full[CFG_PATH_MAX + 8];
    struct stat st;
    FILE *f;
    if (!*v) {
        cfg_problem(x, s, r->path, "must name a file (got an empty string)");
        return -1;
    }
    if (v[0] != '/' && !config_setting_get_hook(s)) {
        cfg_source_path(x, s, src, sizeof src);
        dir_of(src, dir, sizeof dir);
    }
    snprintf(full, sizeof full, "%s%s", dir, v);
    if (strlen(full) >= r->size) {
        cfg_problem(x, s, r->path, "path too long (at most %zu characters)", r->size - 1);
        return -1;
    }
    errno = 0;
    if (stat(full, &st) == 0 && S_ISDIR(st.st_mode))
        errno = EISDIR;
    else if (stat(full, &st) == 0 && !S_ISREG(st.st_mode)) {
        cfg_problem(x, s, r->path, "\"%s\" is not a regular file (a device or FIFO cannot be read "
                               "as an input)", full);
        return -1;
    } else if ((f = fopen(full, "r")) != NULL)
        fclose(f);
    if (errno) {
        cfg_problem(x, s, r->path, "cannot read \"%s\": %s", full, strerror(errno));
        return -1;
    }
    memcpy(field_of(x->c, r), full, strlen(full) + 1);
    return 0;
}

/* A name that must be one of a list; `what` is "map", "value", "root variant". */
static int unknown_name(cfg_ctx *x, const cfg_row *r, const config_setting_t *s, const char *what,
                        const char *v, const char *list)
{
    cfg_problem(x, s, r->path, "unknown %s \"%s\" (expected one of: %s)", what, v, list);
    return -1;
}

/* Reads a string setting of any string kind, checking it against its list or file. */
static int take_string(cfg_ctx *x, const cfg_row *r, const config_setting_t *s)
{
    const char *v = config_setting_get_string(s);
    char list[512];
    void *f = field_of(x->c, r);
    if (r->kind == K_FILE)
        return take_file(x, r, s, v);
    if (r->kind == K_CHOICE) {
        int i = choice_index(r->choices, v);
        join_names(r->choices, list, sizeof list);
        if (i < 0)
            return unknown_name(x, r, s, "value", v, list);
        *(int *)f = i;
        return 0;
    }
    if (r->kind == K_MAP3D && !map3d_find(v)) {
        map3d_names(list, sizeof list);
        return unknown_name(x, r, s, "map", v, list);
    }
    if (r->kind == K_MAP2D && !map2d_find(v)) {
        map2d_names(list, sizeof list);
        return unknown_name(x, r, s, "map", v, list);
    }
    if (r->kind == K_ROOT && map2d_root_find(v) < 0) {
        root_names(list, sizeof list);
        return unknown_name(x, r, s, "root variant", v, list);
    }
    if (strlen(v) >= r->size) {
        cfg_problem(x, s, r->path, "too long (at most %zu characters, got %zu)", r->size - 1,
                strlen(v));
        return -1;
    }
    memcpy(f, v, strlen(v) + 1);
    return 0;
}

/* Checks setting s against row ri and stores its value. Marks the row given, and bad if not
 * usable. */
static void take_setting(cfg_ctx *x, int ri, const config_setting_t *s)
{
    const cfg_row *r = &schema[ri];
    int t = config_setting_type(s), rc = 0;
    x->src[ri] = s;
    if (!type_fits(r->kind, t)) {
        cfg_problem(x, s, r->path, "expected %s (got %s)", cfg_kind_phrase(r->kind), cfg_type_phrase(t));
        rc = -1;
    } else if (r->kind == K_INT || r->kind == K_LONG || r->kind == K_ULONG)
        rc = take_integer(x, r, s);
    else if (r->kind == K_FLOAT)
        rc = take_float(x, r, s);
    else if (r->kind == K_BOOL)
        *(int *)field_of(x->c, r) = config_setting_get_bool(s);
    else if (r->kind == K_BOUNDARY)
        rc = cfg_take_boundary(x, r, s);
    else if (r->kind == K_BOX)
        rc = cfg_take_box(x, r, s);
    else if (r->kind != K_GROUP && r->kind != K_LIST) /* a list is read by cfg_read_species */
        rc = take_string(x, r, s);
    x->bad[ri] = rc != 0;
}

/* Walks the settings of group g (named `prefix`, "" for the root), recursing into known groups. */
static void walk_group(cfg_ctx *x, const config_setting_t *g, const char *prefix)
{
    int n = config_setting_length(g);
    for (int i = 0; i < n; i++) {
        const config_setting_t *s = config_setting_get_elem(g, (unsigned)i);
        char path[256];
        int len = snprintf(path, sizeof path, "%s%s%s", prefix, *prefix ? "." : "",
                           config_setting_name(s) ? config_setting_name(s) : "?");
        int ri = len < (int)sizeof path ? cfg_row_find(path) : -1;
        if (ri < 0) {
            cfg_unknown_setting(x, s, NULL, path);
            continue;
        }
        take_setting(x, ri, s);
        if (schema[ri].kind == K_GROUP && !x->bad[ri])
            walk_group(x, s, path);
    }
}

/* ---- loading ------------------------------------------------------------------------------- */

/* Reads and parses the file; reports a missing file or a syntax error. 0 or -1. */
static int read_file(cfg_ctx *x, config_t *cf)
{
    if (x->text) { /* no file to pre-check, so none to include (input.c says why) */
        if (strstr(x->text, "@include"))
            return tb_error(x->path, 0, "@include: a configuration given as text cannot include "
                                        "files (give it as a file)");
        if (config_read_string(cf, x->text) == CONFIG_TRUE)
            return 0;
        return tb_error(x->path, config_error_line(cf), "%s", config_error_text(cf));
    }
    if (cfg_check_input_file(x->path, x->dir) != 0)
        return -1;
    if (config_read_file(cf, x->path) == CONFIG_TRUE)
        return 0;
    const char *ef = config_error_file(cf);
    char file[CFG_PATH_MAX + 8];
    if (!ef || strcmp(ef, x->path) == 0 || ef[0] == '/')
        snprintf(file, sizeof file, "%s", ef ? ef : x->path);
    else
        snprintf(file, sizeof file, "%s%s", x->dir, ef); /* an @include file: see source_path */
    if (config_error_type(cf) == CONFIG_ERR_FILE_IO)
        tb_error(x->path, 0, "cannot read config file");
    else
        tb_error(file, config_error_line(cf), "%s", config_error_text(cf));
    return -1;
}

int cfg_load(sim_config *c, const char *path, int n_set, char *const sets[])
{
    return cfg_load_text(c, path, NULL, n_set, sets);
}

int cfg_load_text(sim_config *c, const char *path, const char *text, int n_set,
                  char *const sets[])
{
    cfg_ctx ctx, *x = &ctx;
    config_t cf;

    cfg_defaults(c);
    if (!path) {
        tb_error(NULL, 0, "no config file given");
        return TB_EXIT_USAGE;
    }
    snprintf(c->path, sizeof c->path, "%s", path);
    if (strlen(path) >= sizeof c->path) {
        tb_error(path, 0, "cannot read config file: path too long");
        return TB_EXIT_USAGE;
    }
    memset(x, 0, sizeof *x);
    x->path = path;
    x->text = text;
    x->c = c;
    config_init(&cf);
    if (!text)
        dir_of(path, x->dir, sizeof x->dir);
    if (*x->dir)
        config_set_include_dir(&cf, x->dir);
    if (read_file(x, &cf) != 0) {
        config_destroy(&cf);
        return TB_EXIT_USAGE;
    }
    for (int i = 0; i < n_set; i++)
        cfg_merge_set(x, &cf, sets[i]);
    const char *style;
    if (config_lookup_string(&cf, "units", &style) == CONFIG_TRUE && choice_index(units_names, style) >= 0)
        c->units = choice_index(units_names, style); /* first: messages name its units */
    walk_group(x, config_root_setting(&cf), "");
    cfg_cross_check(x);
    config_destroy(&cf);
    return x->n_err ? TB_EXIT_USAGE : TB_EXIT_OK;
}
