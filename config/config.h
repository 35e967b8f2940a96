/* config.h — the simulation settings read from a libconfig file (sim.cfg) into sim_config.
 *
 * Units are those of the `units` style (config/units.h): reduced Lennard-Jones units by
 * default (length sigma, energy epsilon, mass m, time tau = sigma*sqrt(m/epsilon),
 * temperature epsilon/k_B), or LAMMPS's metal or real; the comments below name the lj unit.
 * A default is argon in the style (units.h, units_argon). docs/config.md documents every
 * setting (type, default, range, unit); config.c holds the one schema table that both the
 * parser and that page follow.
 *
 * Loading never writes a file. On bad input cfg_load() prints one line per problem,
 *     tribody: sim.cfg:12: solver.map: unknown map "lamda" (expected one of: bb, lambda, rec)
 * reports every problem it finds (not just the first), and returns TB_EXIT_USAGE (2).
 * Command-line overrides (--set PATH=VALUE) go through the same checks; their messages
 * name "--set PATH=VALUE" in place of file and line. */
#ifndef TB_CONFIG_H
#define TB_CONFIG_H

#include <stddef.h>

#include "common/tb.h"
#include "solver/box.h"

TB_BEGIN_DECLS

#define CFG_PATH_MAX 4096
#define CFG_NAME_MAX 32
/* The largest magnitude of any float setting: beyond it energies and forces overflow, so
 * such a value is a bad input (docs/config.md). */
#define CFG_FLOAT_MAX 1e15
/* The largest config file read [bytes], and how deep @include files are checked. */
#define CFG_FILE_MAX (16 << 20)
#define CFG_INCLUDE_DEPTH 10

/* system.boundary: open or periodic on every axis, or mixed (per axis: system.periodic). */
enum cfg_boundary { CFG_BOUNDARY_OPEN = 0, CFG_BOUNDARY_PERIODIC = 1, CFG_BOUNDARY_MIXED = 2 };
enum cfg_init { CFG_INIT_RANDOM = 0, CFG_INIT_LATTICE = 1, CFG_INIT_XYZ = 2, CFG_INIT_LAMMPS = 3 };
enum cfg_placement { CFG_PLACE_SEQUENTIAL = 0, CFG_PLACE_PARALLEL = 1 };
/* units: LAMMPS's styles of the same names (config/units.h holds their constants). */
enum cfg_units { CFG_UNITS_LJ = 0, CFG_UNITS_METAL = 1, CFG_UNITS_REAL = 2 };
/* potential.lj.mix: LAMMPS's pair_modify mix rules for the pairs not given. */
enum cfg_mix { CFG_MIX_GEOMETRIC = 0, CFG_MIX_ARITHMETIC = 1 };

/* At most one entry per unordered species pair / triplet. */
#define CFG_LJ_PAIRS_MAX (TB_TYPES_MAX * (TB_TYPES_MAX + 1) / 2)
#define CFG_ATM_TRIPLETS_MAX (TB_TYPES_MAX * (TB_TYPES_MAX + 1) * (TB_TYPES_MAX + 2) / 6)

/* One species of system.species. */
typedef struct cfg_species {
    char name[TB_SPECIES_MAX]; /* "Ar": a label of 1 .. 7 characters */
    double mass;               /* [mass unit of the style], > 0 */
} cfg_species;

/* One entry of potential.lj.pairs: the LJ coefficients of one unordered species pair. */
typedef struct cfg_lj_pair {
    int t[2];              /* species indices, t[0] <= t[1] */
    double epsilon, sigma; /* [energy], [length], > 0 */
    double cutoff;         /* [length]; 0: not given, potential.lj.cutoff applies */
} cfg_lj_pair;

/* One entry of potential.atm.triplets: nu of one unordered species triplet. */
typedef struct cfg_atm_triplet {
    int t[3];  /* species indices, t[0] <= t[1] <= t[2] */
    double nu; /* [energy length^9], >= 0 */
} cfg_atm_triplet;
/* One entry of a Stillinger-Weber file (LAMMPS's .sw format), for one ordered species triplet
 * (i, j, k): the ten parameters and tol, in the file's units (metal: eV, Angstrom). LAMMPS's
 * rule of which apply: the two-body ones (epsilon, sigma, a, A, B, p, q, tol) from entry
 * (i, j, j), the three-body lambda, epsilon and cos theta0 from (i, j, k), gamma, sigma and a
 * of each leg from (i, j, j) and (i, k, k). */
typedef struct cfg_sw_entry {
    double epsilon, sigma, a, lambda, gamma, costheta0, A, B, p, q, tol;
    int line; /* its line in the file (messages) */
} cfg_sw_entry;
#define CFG_SW_INDEX(ti, tj, tk) (((ti) * TB_TYPES_MAX + (tj)) * TB_TYPES_MAX + (tk))

enum cfg_backend { CFG_BACKEND_AUTO = 0, CFG_BACKEND_CPU = 1, CFG_BACKEND_GPU = 2 };
enum cfg_precision { CFG_PREC_DOUBLE = 0, CFG_PREC_MIXED = 1, CFG_PREC_SINGLE = 2 };
enum cfg_integrator { CFG_INTEG_NVE = 0, CFG_INTEG_LANGEVIN = 1, CFG_INTEG_NOSE_HOOVER = 2 };
/* integrator.barostat.type and .coupling (physics/baro.h). */
enum cfg_baro { CFG_BARO_CRESCALE = 0, CFG_BARO_MTK = 1 };
enum cfg_coupling { CFG_COUPLE_ISO = 0, CFG_COUPLE_ANISO = 1, CFG_COUPLE_TRI = 2 };

typedef struct sim_config {
    char path[CFG_PATH_MAX]; /* the config file as given on the command line */
    int units; /* enum cfg_units, default lj */

    struct {
        int particles;         /* N >= 3 */
        unsigned long seed;    /* RNG seed for positions and velocities */
        double mass;           /* particle mass [m], > 0, default 1: the one species' mass
                                  when system.species is not given (then an error to give) */
        int n_species;         /* >= 1 after cfg_load: system.species, else one "Ar" of mass;
                                  a particle's type indexes species[] (LAMMPS's type - 1) */
        int species_given;     /* 1 when system.species was given */
        cfg_species species[TB_TYPES_MAX];
        int boundary;          /* enum cfg_boundary, default open */
        int boundary_given;    /* 1 when system.boundary was given (a file's pbc is checked
                                  against it) */
        int periodic[3];       /* per axis (x, y, z): 1 periodic, 0 open; set by system.boundary */
        double box;            /* edge L of a cubic box [sigma] (system.box a number); 0 else */
        int box_group;         /* 1: system.box was the group form: box_lengths, tilt, origin */
        double box_lengths[3], box_tilt[3], box_origin[3]; /* the box of either form [sigma];
                                  tilt: xy, xz, yz (LAMMPS's restricted triclinic) */
        struct {
            int type;             /* enum cfg_init, default random */
            double radius;        /* random/lattice cluster radius [sigma]; 0 = from density */
            double min_distance;  /* random: smallest pair distance; lattice: neighbour distance [sigma] */
            int placement;        /* random: enum cfg_placement, default sequential */
            double temperature;   /* initial temperature [epsilon/k_B], >= 0 */
            int temperature_set;  /* 1 when given explicitly (applies even to an XYZ file with velocities) */
            char file[CFG_PATH_MAX]; /* xyz, lammps: path, resolved against the config file's directory */
            double composition[TB_TYPES_MAX]; /* random/lattice: fraction of each species,
                                                 normalised (sum 1) */
            int n_composition;                /* n_species when given (required with several
                                                 species and random/lattice); 0: all species 0 */
        } init;
    } system;

    struct {
        struct {
            double nu;     /* triple-dipole coefficient nu [epsilon sigma^9], >= 0; 0 disables */
            double cutoff; /* triplet kept iff all three distances <= cutoff [sigma]; 0 = none */
            double cutoff_triple; /* and r_ij r_jk r_ki <= cutoff_triple^3 [sigma]; 0 = none */
            int triplets_given;   /* 1: potential.atm.triplets given (then nu is not used:
                                     it keeps its default; cfg_atm_nu is the one rule) */
            int n_triplets;
            cfg_atm_triplet triplets[CFG_ATM_TRIPLETS_MAX]; /* sorted by t; not given: nu 0 */
        } atm;
        struct {
            int enabled;    /* 1 iff the potential.lj group is present */
            double epsilon; /* well depth [epsilon], default 1 */
            double sigma;   /* zero crossing [sigma], default 1 */
            double cutoff;  /* [sigma], default 2.5 sigma; must be > 0 */
            int shift;      /* 1: energy shifted to 0 at the cutoff (default) */
            int mix;        /* enum cfg_mix: the pairs not in `pairs` (default geometric) */
            int n_pairs;    /* 0: epsilon, sigma and cutoff above hold for every pair */
            cfg_lj_pair pairs[CFG_LJ_PAIRS_MAX]; /* the species pairs given, sorted by t; every
                                                    species' own pair is among them, the others
                                                    are mixed (cfg_lj_coeffs is the one rule);
                                                    then epsilon and sigma above are unused and
                                                    cutoff is the cutoff of a pair without one */
        } lj;
        struct {
            int enabled;             /* 1 iff the potential.sw group is present */
            char file[CFG_PATH_MAX]; /* the .sw file, resolved against the config's directory */
            cfg_sw_entry p[TB_TYPES_MAX * TB_TYPES_MAX * TB_TYPES_MAX]; /* by CFG_SW_INDEX of
                                        the species (matched by element name); read by
                                        cfg_load (config_sw.c) */
        } sw;
    } potential;

    struct {
        double dt;  /* time step [tau], > 0 */
        long steps; /* number of steps, >= 0 */
        int type;   /* enum cfg_integrator, default nve */
        double temperature;     /* thermostat target [epsilon/k_B]; required with a thermostat */
        double temperature_end; /* target at the last step (linear ramp); = temperature if not given */
        double gamma;           /* Langevin friction [1/tau], > 0 */
        struct {
            int chain;          /* Nose-Hoover chain length M, 1 .. 16 */
            double period;      /* thermostat period tau_T [tau]: Q_1 = N_f k T tau_T^2 */
        } nh;
        struct {
            int enabled;        /* 1 iff the integrator.barostat group is present */
            int type;           /* enum cfg_baro; required in the group */
            double pressure;    /* target P [pressure of the style: epsilon/sigma^3, bar, atm] */
            double pressure_end; /* target at the last step (linear ramp); = pressure if not given */
            double period;      /* tau_P [tau], > 0 */
            int coupling;       /* enum cfg_coupling, default iso */
            double compressibility; /* beta_T [1/pressure], > 0 (c-rescale) */
            int every;          /* c-rescale acts every `every` steps (GROMACS's nstpcouple) */
        } barostat;
    } integrator;

    struct {
        int backend;              /* enum cfg_backend, default auto */
        char map[CFG_NAME_MAX];   /* triplet map (maps3d registry name), default "lambda" */
        char map2d[CFG_NAME_MAX]; /* pair map (map2d registry name), default "lambda2d" */
        char root[CFG_NAME_MAX];  /* lambda2d root variant: exact | sqrtf | rsqrtf | newton */
        int tile;                 /* tile edge rho [particles], >= 1 */
        int threads;              /* GPU threads per block; 0 = the kernel's default */
        int precision;            /* enum cfg_precision */
        int deterministic;        /* 1: bitwise repeatable force sums */
        int cull;                 /* 1: neighbour-list path when every term has a cutoff */
        double skin;              /* neighbour-list skin [sigma], >= 0 */
        double max_step_seconds;  /* refuse a step estimated longer than this [s], > 0 */
    } solver;

    struct {
        char thermo[CFG_PATH_MAX];     /* CSV; "" disables */
        int thermo_every;              /* steps, >= 1 */
        char trajectory[CFG_PATH_MAX]; /* extended XYZ; "" disables */
        int trajectory_every;          /* steps, >= 1 */
        char checkpoint[CFG_PATH_MAX]; /* binary restart file; "" disables */
        int checkpoint_every;          /* steps, >= 1 (also written at the end and on SIGINT/SIGTERM) */
        int forces;                    /* 1: trajectory frames carry forces:R:3 */
        char data[CFG_PATH_MAX];       /* LAMMPS data file of the final state; "" disables */
        struct {                       /* g(r) averaged over the run (solver/io/obs.h) */
            int enabled;               /* the group output.rdf was given */
            char file[CFG_PATH_MAX];   /* CSV; the plot beside it (.png) */
            int every;                 /* sample interval [steps], >= 1 */
            double r_max;              /* histogram range [sigma]; 0: not given (the default) */
            int bins;                  /* >= 1 */
        } rdf;
        struct {                       /* mean-square displacement per species */
            int enabled;               /* the group output.msd was given */
            char file[CFG_PATH_MAX];   /* CSV; the plot beside it (.png) */
            int every;                 /* sample interval [steps], >= 1 */
        } msd;
    } output;
} sim_config;

/* Fills c with every default, then reads `path` and applies the n_set overrides in sets[]
 * ("PATH=VALUE", VALUE a libconfig scalar or a bare word taken as a string). Checks every
 * setting: unknown names, wrong types, out-of-range values, unknown map names, missing
 * input files. Returns 0 when the configuration is usable; otherwise prints every problem
 * (one line each) and returns TB_EXIT_USAGE. Nothing is written. */
int cfg_load(sim_config *c, const char *path, int n_set, char *const sets[]);

/* cfg_load of the configuration `text` itself (libconfig syntax) in place of a file; `name`
 * stands for the file in messages and c->path ("<config string>"), relative paths in it are
 * taken from the current directory, and it may not @include. */
int cfg_load_text(sim_config *c, const char *name, const char *text, int n_set,
                  char *const sets[]);

/* Fills c with the defaults alone (system.particles = 0, meaning "not set"). */
void cfg_defaults(sim_config *c);

/* Without system.species, makes the one species "Ar" of mass system.mass (cfg_load and
 * cfg_defaults call it; a caller that changes system.mass calls it again). */
void cfg_single_species(sim_config *c);

/* The box of c's system.box and system.boundary (config_box.c), the one conversion: a cube
 * (system.box a number, system.boundary periodic or open), or the group form with per-axis
 * periodicity. Open boundaries everywhere with no box: edges 0. */
tb_box_d cfg_box(const sim_config *c);
/* Half the smallest perpendicular width of c's periodic axes (L/2 for a cube), the largest
 * cutoff the minimum image allows; 0 without a periodic axis. */
double cfg_box_half_width(const sim_config *c);

/* system.boundary per axis (x, y, z): 1 periodic, 0 open (cfg_box's; a data file's box takes
 * it too, as LAMMPS's `boundary` does). */
void cfg_periodic(const sim_config *c, int per[3]);

/* Name of an enum value, for printing ("open", "mixed", ...). */
const char *cfg_boundary_name(int b);
const char *cfg_init_name(int t);
const char *cfg_placement_name(int t);
const char *cfg_backend_name(int b);
const char *cfg_precision_name(int p);
const char *cfg_integrator_name(int t);
const char *cfg_units_name(int u);
const char *cfg_mix_name(int m);
const char *cfg_baro_name(int t);
const char *cfg_coupling_name(int k);

/* The species of that name in c, its index (type), or -1. */
int cfg_species_find(const sim_config *c, const char *name);

/* The LJ coefficients of the species pair (ti, tj), as LAMMPS's pair_style lj/cut has them:
 * without potential.lj.pairs, potential.lj's epsilon, sigma and cutoff for every pair; with
 * them, the pair as given (its cutoff, else potential.lj.cutoff), and a pair not given mixed
 * from the two species' own pairs by potential.lj.mix: epsilon = sqrt(e_i e_j), sigma and
 * cutoff = sqrt(a_i a_j) (geometric) or (a_i + a_j) / 2 (arithmetic). */
void cfg_lj_coeffs(const sim_config *c, int ti, int tj, double *epsilon, double *sigma,
                   double *cutoff);

/* The largest LJ cutoff of any species pair of c (potential.lj.cutoff with one set). */
double cfg_lj_cutoff_max(const sim_config *c);

/* nu of the species triplet (ti, tj, tk), in any order, as LAMMPS's pair_style atm: with
 * potential.atm.triplets, the triplet as given, 0 when not given; else potential.atm.nu. */
double cfg_atm_nu(const sim_config *c, int ti, int tj, int tk);

/* Whether any triplet of species has nu > 0 (the ATM term is on). */
int cfg_atm_active(const sim_config *c);

/* The settings that define the physics (the schema rows marked so, config.c) with c's values,
 * as "name=value\n" lines in schema order: floats as the shortest text that reads back as
 * the value (at most 17 digits), choices by name, a group that
 * is present or not (potential.lj) as 1 or 0, and a setting inside an absent group as 0.
 * A list (system.species, potential.lj.pairs, potential.atm.triplets) is one line: its entries
 * as "Ar 39.948, Kr 83.798", "none" when not given, or, past 240 characters, its count and a
 * 64-bit hash of them ("120 entries, fnv1a 0123456789abcdef").
 * A checkpoint stores it; a restart compares it (solver/io/restart.c). Returns 0, or -1 when
 * it does not fit in size bytes. */
int cfg_physics_text(const sim_config *c, char *buf, size_t size);

/* The value of the physics setting `name` in a checkpoint whose physics text `stored` lacks
 * its line, into buf: for a setting newer than that text (units, the species and what refers
 * to them), the value it had then, its default (system.species: one "Ar" of the stored
 * system.mass), and 1; 0 for any other (not known: not compared). */
int cfg_physics_absent(const char *name, const char *stored, char *buf, size_t size);

/* Whether the setting named path (dotted) is one of those. */
int cfg_is_physics(const char *path);

/* The physics setting whose value the default of path follows (potential.atm.cutoff: L/4 of
 * system.box; integrator.temperature_end: integrator.temperature), or NULL. */
const char *cfg_physics_follows(const char *path);

/* The schema: every setting cfg_load() knows, groups included, in the order of
 * docs/config.md. Exposed so that the docs can be checked against it (tests/test_config.c)
 * and so that a command can list the settings. */
typedef struct cfg_schema_info {
    const char *path;  /* dotted name, "system.particles" */
    const char *type;  /* "int", "int64", "float", "bool", "string" or "group" */
    const char *def;   /* default as a config file writes it (strings unquoted); NULL: none */
    char range[256];   /* "> 0", ">= 0", "3 .. 10000000", "open, periodic", ...; "" = any */
    const char *unit;  /* "sigma", "tau", "particles", ...; "" = none */
    const char *doc;   /* one line */
    int required;      /* 1: no default, must be given */
} cfg_schema_info;

/* Number of schema rows. */
int cfg_schema_count(void);

/* Dotted name of row i (0 <= i < cfg_schema_count()), or NULL out of range. */
const char *cfg_schema_path(int i);

/* Fills *info with row i; returns 0, or -1 when i is out of range. */
int cfg_schema_get(int i, cfg_schema_info *info);

TB_END_DECLS

#endif
