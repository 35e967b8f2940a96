/* test_config_species.c — config/: units, species, composition, LJ pairs and mixing, ATM
 * triplets (issue 20): their values, every error message, --set of lists, and the physics text
 * a restart compares. Same method as test_config.c (tb_config.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "config/units.h"
#include "tests/tb_config.h"
#include "tests/tb_test.h"

/* Two species, lines 1-4 (what follows starts on line 5). */
#define TWO_SPECIES                                                                            \
    "system = { particles = 10;\n"                                                             \
    "  species = ( { name = \"Ar\"; mass = 39.948; }, { name = \"Kr\"; mass = 83.798; } );\n" \
    "  init = { composition = [0.8, 0.2]; };\n};\n"

static int close_to(double a, double b)
{
    return fabs(a - b) <= 1e-13 * fabs(b);
}

/* In metal and real every default with a unit is argon in the style (sigma 3.405 A,
 * epsilon/k_B 119.8 K, m 39.948 g/mol), derived here by hand from LAMMPS's constants. */
static void test_units(void)
{
    sim_config c;
    char b[64], s1[32] = "units=real";
    const double eps_m = 119.8 * 8.617343e-5, tau_m = 3.405 * sqrt(1.0364269e-4 * 39.948 / eps_m);
    const double eps_r = 119.8 * 0.0019872067;
    const double tau_r = 3.405 * sqrt(48.88821291 * 48.88821291 * 39.948 / eps_r);
    expect_ok("units: lj by default", &c, MIN_CFG, 0, NULL);
    gsl_test(c.units != CFG_UNITS_LJ || c.integrator.dt != 0.002 || c.system.mass != 1.0 ||
                 c.system.init.radius != 0.0 || strcmp(cfg_units_name(c.units), "lj"),
             "units: lj, dt 0.002, mass 1, radius 0 (from the density) as before");
    expect_ok("units metal", &c, "units = \"metal\";\nsystem = { particles = 100; };\n"
              "potential = { lj = { }; };\n"
              "integrator = { type = \"langevin\"; temperature = 90; };\n", 0, NULL);
    gsl_test(c.units != CFG_UNITS_METAL || fabs(tau_m - 2.15635) > 1e-5 ||
                 !close_to(c.integrator.dt, 0.002 * tau_m) || fabs(c.integrator.dt - 0.0043127) > 1e-7,
             "metal: dt is argon's 0.002 tau = %.8g ps (tau %.6g ps)", c.integrator.dt, tau_m);
    gsl_test(!close_to(c.system.init.temperature, 83.86) || c.integrator.temperature != 90 ||
                 !close_to(c.system.mass, 39.948) || !close_to(c.system.species[0].mass, 39.948),
             "metal: init temperature 0.7 x 119.8 K = %.6g K, a given temperature kept (90), "
             "mass 39.948 g/mol, also the one species'", c.system.init.temperature);
    gsl_test(!close_to(c.potential.lj.epsilon, eps_m) || !close_to(c.potential.lj.sigma, 3.405) ||
                 !close_to(c.potential.lj.cutoff, 2.5 * 3.405) ||
                 !close_to(c.potential.atm.nu, 0.0703 * eps_m * pow(3.405, 9)),
             "metal: epsilon %.8g eV, sigma 3.405, cutoff 8.5125 A, nu %.8g eV A^9 (argon's "
             "0.0703 epsilon sigma^9)", c.potential.lj.epsilon, c.potential.atm.nu);
    gsl_test(!close_to(c.solver.skin, 0.3 * 3.405) || !close_to(c.system.init.min_distance, 3.405) ||
                 !close_to(c.integrator.gamma, 1.0 / tau_m) ||
                 !close_to(c.integrator.nh.period, 0.5 * tau_m) ||
                 !close_to(c.system.init.radius, cbrt(300.0 / (4.0 * M_PI * 0.7)) * 3.405),
             "metal: skin, min_distance, gamma 1/tau, nh.period 0.5 tau, and the radius of an "
             "open random cluster from 0.7 per sigma^3 (%.8g A)", c.system.init.radius);
    expect_ok("metal: given values are kept", &c, "units = \"metal\";\n"
              "system = { particles = 10; mass = 2; boundary = \"periodic\"; box = 20.0;\n"
              " init = { type = \"lattice\"; }; };\nintegrator = { dt = 0.001; };\n", 0, NULL);
    gsl_test(c.system.mass != 2.0 || c.integrator.dt != 0.001 ||
                 !close_to(c.system.init.min_distance, pow(2.0, 1.0 / 6.0) * 3.405) ||
                 c.potential.atm.cutoff != 5.0 || c.system.init.radius != 0.0,
             "metal: mass 2 and dt 0.001 as given, the lattice spacing argon's 2^(1/6) sigma, "
             "the ATM cutoff L/4, no radius made for a periodic box");
    expect_ok("units real by --set", &c, MIN_CFG, 1, (char *[]){s1});
    gsl_test(c.units != CFG_UNITS_REAL || !close_to(c.integrator.dt, 0.002 * tau_r) ||
                 fabs(c.integrator.dt - 4.3127) > 1e-4 || !close_to(c.potential.lj.epsilon, eps_r),
             "real: dt %.8g fs, epsilon %.8g kcal/mol", c.integrator.dt, c.potential.lj.epsilon);
    expect_error("metal: a message names ps", "units = \"metal\";\n" MIN_CFG
                 "integrator = { dt = 0; };\n", 0, NULL,
                 "tribody: sim.cfg:3: integrator.dt: must be > 0 ps (got 0)");
    expect_error("real: a message names g/mol", "system = { particles = 10; mass = -1; };\n"
                 "units = \"real\";\n", 0, NULL,
                 "tribody: sim.cfg:1: system.mass: must be > 0 g/mol (got -1)");
    expect_error("real: 1/fs", "units = \"real\";\n" MIN_CFG "integrator = { type = "
                 "\"langevin\"; temperature = 300; gamma = 0; };\n", 0, NULL,
                 "tribody: sim.cfg:3: integrator.gamma: must be > 0 1/fs (got 0)");
    expect_error("unknown units", "units = \"si\";\n" MIN_CFG, 0, NULL,
                 "tribody: sim.cfg:1: units: unknown value \"si\" (expected one of: lj, metal, "
                 "real)");
    expect_error("units not a string", "units = 2;\n" MIN_CFG, 0, NULL,
                 "tribody: sim.cfg:1: units: expected a string (got an integer)");
    gsl_test(strcmp(units_name(units_of(CFG_UNITS_METAL), "epsilon sigma^9", b, sizeof b),
                    "eV Angstrom^9") ||
                 strcmp(units_name(units_of(CFG_UNITS_REAL), "1/tau", b, sizeof b), "1/fs") ||
                 strcmp(units_name(units_of(CFG_UNITS_LJ), "epsilon/k_B", b, sizeof b),
                        "epsilon/k_B") ||
                 strcmp(units_name(units_of(CFG_UNITS_METAL), "steps", b, sizeof b), "steps") ||
                 units_argon(units_of(CFG_UNITS_METAL), "particles") != 1.0,
             "units_name: eV Angstrom^9, 1/fs, epsilon/k_B; a count is no unit");
}

/* The values land in sim_config; the one rule for a pair and a triplet (LAMMPS's mixing). */
static void test_species(void)
{
    sim_config c;
    double e, s, r;
    expect_ok("no system.species", &c, MIN_CFG "potential = { lj = { }; };\n", 0, NULL);
    cfg_lj_coeffs(&c, 0, 0, &e, &s, &r);
    gsl_test(c.system.n_species != 1 || c.system.species_given || strcmp(c.system.species[0].name,
             "Ar") || c.system.species[0].mass != 1.0 || c.system.init.n_composition ||
                 c.potential.lj.n_pairs || c.potential.atm.triplets_given ||
                 c.potential.lj.mix != CFG_MIX_GEOMETRIC || e != 1.0 || s != 1.0 || r != 2.5 ||
                 cfg_atm_nu(&c, 0, 0, 0) != 0.0703 || !cfg_atm_active(&c) ||
                 cfg_species_find(&c, "Ar") != 0 || cfg_species_find(&c, "Kr") != -1 ||
                 c.output.data[0],
             "no system.species: one Ar of system.mass, the shorthand for its pair and triplet, "
             "no output.data");
    const char *pairs =
        TWO_SPECIES "potential = {\n"
        "  lj = { mix = \"arithmetic\"; cutoff = 3.0; pairs = (\n"
        "    { species = [\"Kr\", \"Kr\"]; epsilon = 1.4; sigma = 1.1; cutoff = 3.5; },\n"
        "    { species = (\"Ar\", \"Ar\"); epsilon = 1.0; sigma = 1.0; } ); };\n"
        "  atm = { triplets = ( { species = [\"Kr\", \"Ar\", \"Kr\"]; nu = 0.2; },\n"
        "    { species = [\"Ar\", \"Ar\", \"Ar\"]; nu = 0.07; } ); };\n};\n"
        "output = { data = \"final.data\"; };\n";
    expect_ok("two species, pairs, triplets", &c, pairs, 0, NULL);
    gsl_test(c.system.n_species != 2 || !c.system.species_given ||
                 strcmp(c.system.species[1].name, "Kr") || c.system.species[1].mass != 83.798 ||
                 c.system.init.n_composition != 2 || c.system.init.composition[0] != 0.8 ||
                 c.system.init.composition[1] != 0.2 || strcmp(c.output.data, "final.data"),
             "two species: names, masses, composition 0.8 / 0.2, output.data");
    const cfg_lj_pair *p = c.potential.lj.pairs;
    gsl_test(c.potential.lj.n_pairs != 2 || p[0].t[0] != 0 || p[0].t[1] != 0 || p[0].cutoff != 0 ||
                 p[1].t[0] != 1 || p[1].t[1] != 1 || p[1].epsilon != 1.4 || p[1].sigma != 1.1 ||
                 p[1].cutoff != 3.5 || c.potential.lj.mix != CFG_MIX_ARITHMETIC,
             "pairs: sorted by species (Ar-Ar first), a cutoff not given is 0, mix arithmetic");
    cfg_lj_coeffs(&c, 1, 0, &e, &s, &r);
    gsl_test(!close_to(e, sqrt(1.4)) || !close_to(s, 1.05) || !close_to(r, 3.25),
             "arithmetic mix of Ar-Kr: epsilon sqrt(1 x 1.4), sigma (1 + 1.1)/2, cutoff "
             "(3 + 3.5)/2 (got %.17g %.17g %.17g)", e, s, r);
    cfg_lj_coeffs(&c, 0, 0, &e, &s, &r);
    gsl_test(e != 1.0 || s != 1.0 || r != 3.0 || cfg_lj_cutoff_max(&c) != 3.5,
             "Ar-Ar as given with potential.lj.cutoff; the largest cutoff Kr-Kr's 3.5");
    const cfg_atm_triplet *q = c.potential.atm.triplets;
    gsl_test(c.potential.atm.n_triplets != 2 || !c.potential.atm.triplets_given ||
                 q[0].t[0] || q[0].t[2] || q[0].nu != 0.07 || q[1].t[0] != 0 || q[1].t[1] != 1 ||
                 q[1].t[2] != 1 || q[1].nu != 0.2,
             "triplets: sorted, Kr-Ar-Kr stored as Ar-Kr-Kr");
    gsl_test(cfg_atm_nu(&c, 1, 0, 1) != 0.2 || cfg_atm_nu(&c, 1, 1, 0) != 0.2 ||
                 cfg_atm_nu(&c, 0, 1, 1) != 0.2 || cfg_atm_nu(&c, 0, 0, 1) != 0.0 ||
                 cfg_atm_nu(&c, 1, 1, 1) != 0.0 || cfg_atm_nu(&c, 0, 0, 0) != 0.07 ||
                 !cfg_atm_active(&c),
             "triplets: every order of Ar-Kr-Kr 0.2, a triplet not given 0 (LAMMPS's atm)");
    expect_ok("geometric mix", &c, TWO_SPECIES "potential = { lj = { cutoff = 3.0; pairs = (\n"
              "  { species = [\"Kr\", \"Kr\"]; epsilon = 1.4; sigma = 1.1; cutoff = 3.5; },\n"
              "  { species = [\"Ar\", \"Ar\"]; epsilon = 1.0; sigma = 1.0; },\n"
              "  { species = [\"Kr\", \"Ar\"]; epsilon = 1.2; sigma = 1.06; } ); }; };\n",
              0, NULL);
    cfg_lj_coeffs(&c, 0, 1, &e, &s, &r);
    gsl_test(c.potential.lj.mix != CFG_MIX_GEOMETRIC || e != 1.2 || s != 1.06 || r != 3.0 ||
                 c.potential.lj.pairs[1].t[0] != 0 || c.potential.lj.pairs[1].t[1] != 1,
             "a given Ar-Kr is not mixed; its cutoff potential.lj.cutoff");
    expect_ok("geometric mix of a pair not given", &c, TWO_SPECIES "potential = { lj = { "
              "cutoff = 3.0; pairs = (\n"
              "  { species = [\"Kr\", \"Kr\"]; epsilon = 1.4; sigma = 1.1; cutoff = 3.5; },\n"
              "  { species = [\"Ar\", \"Ar\"]; epsilon = 1.0; sigma = 1.0; } ); }; };\n", 0, NULL);
    cfg_lj_coeffs(&c, 0, 1, &e, &s, &r);
    gsl_test(!close_to(e, sqrt(1.4)) || !close_to(s, sqrt(1.1)) || !close_to(r, sqrt(10.5)),
             "geometric mix: sigma sqrt(1.1), cutoff sqrt(3 x 3.5) (got %.17g %.17g)", s, r);
    expect_ok("several species, the shorthand", &c, TWO_SPECIES "potential = { lj = { epsilon = "
              "1.5; }; atm = { nu = 0.09; }; };\n", 0, NULL);
    cfg_lj_coeffs(&c, 0, 1, &e, &s, &r);
    gsl_test(e != 1.5 || s != 1.0 || r != 2.5 || cfg_atm_nu(&c, 0, 1, 1) != 0.09,
             "several species without pairs or triplets: the shorthand for every one");
    expect_ok("composition normalised", &c, "system = { particles = 10;\n"
              "  species = ( { name = \"A\"; mass = 1; }, { name = \"B_2\"; mass = 2; },"
              " { name = \"c\"; mass = 3; } );\n  init = { composition = (4, 0, 1.0); }; };\n",
              0, NULL);
    gsl_test(c.system.init.composition[0] != 0.8 || c.system.init.composition[1] != 0.0 ||
                 c.system.init.composition[2] != 0.2 || c.system.n_species != 3,
             "composition (4, 0, 1.0) is 0.8, 0, 0.2");
    expect_ok("one species given: no composition needed", &c, "system = { particles = 10;\n"
              "  species = ( { name = \"Xe\"; mass = 131.293; } ); };\n", 0, NULL);
    gsl_test(c.system.n_species != 1 || strcmp(c.system.species[0].name, "Xe") ||
                 c.system.init.n_composition != 0, "one species Xe, composition 0 (all of it)");
    put("start.data", "LAMMPS data file\n\n3 atoms\n2 atom types\n");
    expect_ok("init lammps", &c, "system = { particles = 3;\n"
              "  species = ( { name = \"Ar\"; mass = 39.948; }, { name = \"Kr\"; mass = 83.798; } );\n"
              "  init = { type = \"lammps\"; file = \"start.data\"; }; };\n", 0, NULL);
    gsl_test(c.system.init.type != CFG_INIT_LAMMPS || strcmp(c.system.init.file, "start.data") ||
                 strcmp(cfg_init_name(CFG_INIT_LAMMPS), "lammps"),
             "init lammps: the type and its file, no composition needed");
    expect_ok("triplets all zero", &c, MIN_CFG "potential = { atm = { triplets = ( { species = "
              "[\"Ar\", \"Ar\", \"Ar\"]; nu = 0; } ); }; };\n", 0, NULL);
    gsl_test(cfg_atm_active(&c), "triplets all 0: the ATM term is off");
}

/* Each bad input: exit 2, one line naming file:line and the setting. */
static void test_species_errors(void)
{
    char nine[1024] = "system = { particles = 10; species = (";
    for (int i = 0; i < 9; i++)
        snprintf(nine + strlen(nine), sizeof nine - strlen(nine), "%s{ name = \"S%d\"; mass = 1; }",
                 i ? ", " : "", i);
    strcat(nine, "); };\n");
    expect_error("too many species", nine, 0, NULL,
                 "tribody: sim.cfg:1: system.species: at most 8 species (got 9)");
    expect_error("empty species", "system = { particles = 10; species = (); };\n", 0, NULL,
                 "tribody: sim.cfg:1: system.species: an empty list (leave the setting out, or "
                 "give at least one entry)");
    expect_error("species not a list", "system = { particles = 10; species = \"Ar\"; };\n", 0,
                 NULL, "tribody: sim.cfg:1: system.species: expected a list (got a string)");
    expect_error("species entry not a group", "system = { particles = 10;\n"
                 "  species = ( \"Ar\" ); };\n", 0, NULL,
                 "tribody: sim.cfg:2: system.species[1]: expected a group { name = \"Ar\"; mass "
                 "= 39.948; } (got a string)");
    expect_error("duplicate species, bad mass, unknown member", "system = { particles = 10;\n"
                 "  species = ( { name = \"Ar\"; mass = 1; },\n"
                 "    { name = \"Ar\"; mass = 0; charge = 1; } ); };\n", 0, NULL,
                 "tribody: sim.cfg:3: system.species[2].charge: unknown setting (expected name, "
                 "mass)\n"
                 "tribody: sim.cfg:3: system.species[2].name: \"Ar\" is already the name of "
                 "system.species[1]\n"
                 "tribody: sim.cfg:3: system.species[2].mass: must be > 0 m (got 0)");
    expect_error("bad names, missing mass", "system = { particles = 10;\n"
                 "  species = ( { name = \"2Ar\"; mass = 1; }, { name = \"Argon_12\"; mass = 1; },\n"
                 "    { name = \"Ar-Kr\"; mass = 1; }, { name = 3; mass = 1; }, { mass = 1; },\n"
                 "    { name = \"\"; mass = 1; }, { name = \"Kr\"; } ); };\n", 0, NULL,
                 "tribody: sim.cfg:2: system.species[1].name: must be 1 .. 7 letters, digits or _, "
                 "not starting with a digit (got \"2Ar\")\n"
                 "tribody: sim.cfg:2: system.species[2].name: must be 1 .. 7 letters, digits or _, "
                 "not starting with a digit (got \"Argon_12\")\n"
                 "tribody: sim.cfg:3: system.species[3].name: must be 1 .. 7 letters, digits or _, "
                 "not starting with a digit (got \"Ar-Kr\")\n"
                 "tribody: sim.cfg:3: system.species[4].name: expected a string (got an integer)\n"
                 "tribody: sim.cfg:3: system.species[5].name: required setting is missing (1 .. 7 "
                 "letters, digits or _)\n"
                 "tribody: sim.cfg:4: system.species[6].name: must be 1 .. 7 letters, digits or _, "
                 "not starting with a digit (got \"\")\n"
                 "tribody: sim.cfg:4: system.species[7].mass: required setting is missing (> 0 m)");
    expect_error("mass not a number, and system.mass", "system = { particles = 10; mass = 2;\n"
                 "  species = ( { name = \"Ar\"; mass = \"heavy\"; } ); };\n", 0, NULL,
                 "tribody: sim.cfg:2: system.species[1].mass: expected a number (got a string)\n"
                 "tribody: sim.cfg:1: system.mass: not used with system.species (each species "
                 "gives its mass)");
    expect_error("species mass beyond CFG_FLOAT_MAX", "system = { particles = 10;\n"
                 "  species = ( { name = \"Ar\"; mass = 1e300; } ); };\n", 0, NULL,
                 "tribody: sim.cfg:2: system.species[1].mass: must be at most 1e+15 in magnitude "
                 "(got 1e+300)");
    /* composition */
    expect_error("composition missing", "system = { particles = 10;\n"
                 "  species = ( { name = \"Ar\"; mass = 1; }, { name = \"Kr\"; mass = 2; } );\n"
                 "  init = { type = \"lattice\"; }; };\n", 0, NULL,
                 "tribody: sim.cfg:3: system.init.composition: required with 2 species and "
                 "system.init.type = \"lattice\" (the fraction of each, in the order of "
                 "system.species)");
    expect_error("composition without species", "system = { particles = 10;\n"
                 "  init = { composition = [1.0]; }; };\n", 0, NULL,
                 "tribody: sim.cfg:2: system.init.composition: only used with system.species "
                 "(the fraction of each species)");
    put("start.xyz", "3\n\nAr 0 0 0\nKr 1 0 0\nAr 0 1 0\n");
    expect_error("composition with an xyz file", "system = { particles = 3;\n"
                 "  species = ( { name = \"Ar\"; mass = 1; }, { name = \"Kr\"; mass = 2; } );\n"
                 "  init = { type = \"xyz\"; file = \"start.xyz\"; composition = [0.5, 0.5]; };"
                 " };\n", 0, NULL,
                 "tribody: sim.cfg:3: system.init.composition: only used with system.init.type = "
                 "\"random\" or \"lattice\" (the type is xyz: the file gives each particle's "
                 "species)");
    expect_error("composition count", "system = { particles = 10;\n"
                 "  species = ( { name = \"Ar\"; mass = 1; }, { name = \"Kr\"; mass = 2; } );\n"
                 "  init = { composition = [0.5, 0.3, 0.2]; }; };\n", 0, NULL,
                 "tribody: sim.cfg:3: system.init.composition: 3 fractions for 2 species (one "
                 "per entry of system.species, in its order)");
    expect_error("composition entries", "system = { particles = 10;\n"
                 "  species = ( { name = \"Ar\"; mass = 1; }, { name = \"Kr\"; mass = 2; } );\n"
                 "  init = { composition = (-0.5, \"x\"); }; };\n", 0, NULL,
                 "tribody: sim.cfg:3: system.init.composition[1]: must be >= 0 and at most 1e+15 "
                 "(got -0.5)\n"
                 "tribody: sim.cfg:3: system.init.composition[2]: expected a number (got a "
                 "string)");
    expect_error("composition all zero", "system = { particles = 10;\n"
                 "  species = ( { name = \"Ar\"; mass = 1; }, { name = \"Kr\"; mass = 2; } );\n"
                 "  init = { composition = [0.0, 0.0]; }; };\n", 0, NULL,
                 "tribody: sim.cfg:3: system.init.composition: the fractions sum to 0 (at least "
                 "one must be > 0)");
    expect_error("composition as a group", "system = { particles = 10;\n"
                 "  init = { composition = { a = 1; }; }; };\n", 0, NULL,
                 "tribody: sim.cfg:2: system.init.composition: expected a list (got a group)");
    expect_error("lammps without a file", "system = { particles = 10;\n"
                 "  init = { type = \"lammps\"; }; };\n", 0, NULL,
                 "tribody: sim.cfg:2: system.init.file: required with system.init.type = "
                 "\"lammps\"");
    /* pairs */
    expect_error("pairs: entries", TWO_SPECIES "potential = { lj = { pairs = (\n"
                 "  { species = [\"Ar\", \"Kr\"]; epsilon = 1; sigma = 1; },\n"
                 "  { species = [\"Kr\", \"Ar\"]; epsilon = 1; sigma = 1; cutoff = -1; },\n"
                 "  { species = [\"Ar\", \"Xe\"]; epsilon = 1; },\n"
                 "  { species = \"Ar\"; epsilon = 0; sigma = 1; eps = 2; },\n"
                 "  { species = (\"Ar\", 3); epsilon = 1; sigma = 1; },\n"
                 "  { species = [\"Ar\"]; epsilon = 1; sigma = \"1\"; },\n"
                 "  { epsilon = 1; sigma = 1; }, 7 ); }; };\n", 0, NULL,
                 "tribody: sim.cfg:7: potential.lj.pairs[2]: the pair Ar-Kr is already "
                 "potential.lj.pairs[1]\n"
                 "tribody: sim.cfg:7: potential.lj.pairs[2].cutoff: must be > 0 sigma (got -1)\n"
                 "tribody: sim.cfg:8: potential.lj.pairs[3].species: unknown species \"Xe\" "
                 "(expected one of: Ar, Kr)\n"
                 "tribody: sim.cfg:8: potential.lj.pairs[3].sigma: required setting is missing "
                 "(> 0 sigma)\n"
                 "tribody: sim.cfg:9: potential.lj.pairs[4].eps: unknown setting (expected "
                 "species, epsilon, sigma, cutoff)\n"
                 "tribody: sim.cfg:9: potential.lj.pairs[4].species: expected two species names, "
                 "[\"Ar\", \"Kr\"] (got a string)\n"
                 "tribody: sim.cfg:9: potential.lj.pairs[4].epsilon: must be > 0 epsilon (got 0)\n"
                 "tribody: sim.cfg:10: potential.lj.pairs[5].species: expected two species names, "
                 "[\"Ar\", \"Kr\"] (got an integer among them)\n"
                 "tribody: sim.cfg:11: potential.lj.pairs[6].species: expected two species names, "
                 "[\"Ar\", \"Kr\"] (got 1 entry)\n"
                 "tribody: sim.cfg:11: potential.lj.pairs[6].sigma: expected a number (got a "
                 "string)\n"
                 "tribody: sim.cfg:12: potential.lj.pairs[7].species: required setting is missing "
                 "(two species names, [\"Ar\", \"Kr\"])\n"
                 "tribody: sim.cfg:12: potential.lj.pairs[8]: expected a group { species = "
                 "[\"Ar\", \"Kr\"]; epsilon = ...; sigma = ...; } (got an integer)");
    expect_error("pairs: an own pair missing", TWO_SPECIES "potential = { lj = { pairs = (\n"
                 "  { species = [\"Ar\", \"Kr\"]; epsilon = 1; sigma = 1; },\n"
                 "  { species = [\"Ar\", \"Ar\"]; epsilon = 1; sigma = 1; } ); }; };\n", 0, NULL,
                 "tribody: sim.cfg:5: potential.lj.pairs: no entry for Kr-Kr: every species' own "
                 "pair must be given (the pairs of two species that are not given are mixed from "
                 "them, as LAMMPS does)");
    expect_error("pairs with epsilon and sigma", TWO_SPECIES "potential = { lj = {\n"
                 "  epsilon = 1.0;\n  sigma = 1.0;\n  pairs = (\n"
                 "  { species = [\"Ar\", \"Ar\"]; epsilon = 1; sigma = 1; },\n"
                 "  { species = [\"Kr\", \"Kr\"]; epsilon = 1; sigma = 1; } ); }; };\n", 0, NULL,
                 "tribody: sim.cfg:6: potential.lj.epsilon: not used with potential.lj.pairs "
                 "(each entry gives its own)\n"
                 "tribody: sim.cfg:7: potential.lj.sigma: not used with potential.lj.pairs (each "
                 "entry gives its own)");
    expect_error("mix without pairs", MIN_CFG "potential = { lj = { mix = \"arithmetic\"; }; };\n",
                 0, NULL, "tribody: sim.cfg:2: potential.lj.mix: only used with "
                          "potential.lj.pairs (it mixes the pairs that it does not give)");
    expect_error("unknown mix", MIN_CFG "potential = { lj = { mix = \"sixthpower\"; }; };\n", 0,
                 NULL, "tribody: sim.cfg:2: potential.lj.mix: unknown value \"sixthpower\" "
                       "(expected one of: geometric, arithmetic)");
    expect_error("pairs empty", MIN_CFG "potential = { lj = { pairs = (); }; };\n", 0, NULL,
                 "tribody: sim.cfg:2: potential.lj.pairs: an empty list (leave the setting out, "
                 "or give at least one entry)");
    expect_error("pairs: a cutoff beyond half the box", "system = { particles = 10; boundary = "
                 "\"periodic\"; box = 10.0; };\npotential = { lj = { cutoff = 2.0; pairs = (\n"
                 "  { species = [\"Ar\", \"Ar\"]; epsilon = 1; sigma = 1; cutoff = 5.5; } ); }; };\n",
                 0, NULL, "tribody: sim.cfg:3: potential.lj.pairs[1].cutoff: 5.5 exceeds half the "
                          "box (L/2 = 5)");
    expect_error("pairs: a species list that is wrong says nothing more", "system = { particles "
                 "= 10;\n  species = ( { name = \"Ar\"; mass = 0; } ); };\npotential = { lj = { "
                 "pairs = ( { species = [\"Xe\", \"Xe\"]; } ); }; };\n", 0, NULL,
                 "tribody: sim.cfg:2: system.species[1].mass: must be > 0 m (got 0)");
    /* triplets */
    expect_error("triplets: entries", TWO_SPECIES "potential = { atm = { triplets = (\n"
                 "  { species = [\"Ar\", \"Kr\", \"Ar\"]; nu = 1; },\n"
                 "  { species = [\"Kr\", \"Ar\", \"Ar\"]; nu = -1; },\n"
                 "  { species = [\"Ar\", \"Kr\"]; },\n"
                 "  { species = [\"Ar\", \"Ar\", \"Ne\"]; nu = 1; cutoff = 2; } ); }; };\n", 0,
                 NULL,
                 "tribody: sim.cfg:7: potential.atm.triplets[2]: the triplet Ar-Ar-Kr is already "
                 "potential.atm.triplets[1]\n"
                 "tribody: sim.cfg:7: potential.atm.triplets[2].nu: must be >= 0 epsilon sigma^9 "
                 "(got -1)\n"
                 "tribody: sim.cfg:8: potential.atm.triplets[3].species: expected three species "
                 "names, [\"Ar\", \"Ar\", \"Kr\"] (got 2 entries)\n"
                 "tribody: sim.cfg:8: potential.atm.triplets[3].nu: required setting is missing "
                 "(>= 0 epsilon sigma^9)\n"
                 "tribody: sim.cfg:9: potential.atm.triplets[4].cutoff: unknown setting (expected "
                 "species, nu)\n"
                 "tribody: sim.cfg:9: potential.atm.triplets[4].species: unknown species \"Ne\" "
                 "(expected one of: Ar, Kr)");
    expect_error("triplets with nu", MIN_CFG "potential = { atm = {\n  nu = 0.07;\n"
                 "  triplets = ( { species = [\"Ar\", \"Ar\", \"Ar\"]; nu = 0.07; } ); }; };\n", 0,
                 NULL, "tribody: sim.cfg:3: potential.atm.nu: not used with "
                       "potential.atm.triplets (each entry gives its own; a triplet not given "
                       "has nu = 0)");
    expect_error("metal: a pair's message names eV", "units = \"metal\";\n" MIN_CFG
                 "potential = { lj = { pairs = ( { species = [\"Ar\", \"Ar\"]; epsilon = -1; "
                 "sigma = 3.4; } ); }; };\n", 0, NULL,
                 "tribody: sim.cfg:3: potential.lj.pairs[1].epsilon: must be > 0 eV (got -1)");
}

/* --set of a list setting: a whole libconfig list or array, checked like the file's. */
static void test_species_set(void)
{
    sim_config c;
    char s1[128] = "system.init.composition=[1.0, 3.0]";
    char s2[256] = "system.species=({ name = \"Ne\"; mass = 20.18; }, { name = \"Ar\"; mass = "
                   "39.948; })";
    char s3[128] = "potential.atm.triplets=({ species = [\"Ar\", \"Ar\", \"Ne\"]; nu = 0.5; })";
    char s4[128] = "system.species=({ name = \"Ne\"; mass = -2; })";
    char s5[64] = "system.init.composition=0.5";
    char s6[64] = "output.data=run.data";
    expect_ok("--set composition", &c, TWO_SPECIES, 2, (char *[]){s1, s6});
    gsl_test(c.system.init.composition[0] != 0.25 || c.system.init.composition[1] != 0.75 ||
                 strcmp(c.output.data, "run.data"),
             "--set composition=[1.0, 3.0]: 0.25, 0.75 (the file's replaced); output.data");
    expect_ok("--set species and triplets", &c, TWO_SPECIES, 3, (char *[]){s2, s1, s3});
    gsl_test(c.system.n_species != 2 || strcmp(c.system.species[0].name, "Ne") ||
                 c.potential.atm.n_triplets != 1 || cfg_atm_nu(&c, 1, 0, 1) != 0.5,
             "--set species (Ne, Ar) and a triplet Ar-Ar-Ne");
    expect_error("--set species, a bad mass", MIN_CFG, 1, (char *[]){s4},
                 "tribody: --set system.species=({ name = \"Ne\"; mass = -2; }): "
                 "system.species[1].mass: must be > 0 m (got -2)");
    expect_error("--set composition, a number", TWO_SPECIES, 1, (char *[]){s5},
                 "tribody: --set system.init.composition=0.5: system.init.composition: expected "
                 "a list (got a float)");
}

/* The physics text (config_physics.c): the new lines, a change that shows, and what a
 * checkpoint without them reads as. */
static void test_species_physics(void)
{
    sim_config c;
    char t1[8192], t2[8192], v[256];
    expect_ok("physics text, one species", &c, MIN_CFG "potential = { lj = { }; };\n", 0, NULL);
    cfg_physics_text(&c, t1, sizeof t1);
    gsl_test(!strstr(t1, "units=lj\n") || !strstr(t1, "system.species=Ar 1\n") ||
                 !strstr(t1, "potential.lj.mix=geometric\n") ||
                 !strstr(t1, "potential.lj.pairs=none\n") ||
                 !strstr(t1, "potential.atm.triplets=none\n"),
             "physics text: units, the one species, mix, no pairs, no triplets ('%s')",
             one_line(t1));
    gsl_test(!cfg_is_physics("units") || !cfg_is_physics("system.species") ||
                 !cfg_is_physics("potential.lj.pairs") || !cfg_is_physics("potential.lj.mix") ||
                 !cfg_is_physics("potential.atm.triplets") ||
                 cfg_is_physics("system.init.composition") || cfg_is_physics("output.data"),
             "physics: units, species, pairs, mix, triplets; not composition nor output.data");
    /* issue 20 item 8: a changed cutoff_triple changes the text a restart compares */
    char s1[64] = "potential.atm.cutoff_triple=3";
    expect_ok("cutoff_triple", &c, MIN_CFG "potential = { lj = { }; };\n", 1, (char *[]){s1});
    cfg_physics_text(&c, t2, sizeof t2);
    gsl_test(!strcmp(t1, t2) || !strstr(t2, "potential.atm.cutoff_triple=3\n"),
             "physics text: a changed cutoff_triple differs");
    expect_ok("physics text, two species", &c, TWO_SPECIES "potential = { lj = { pairs = (\n"
              "  { species = [\"Kr\", \"Kr\"]; epsilon = 1.4; sigma = 1.1; cutoff = 3.5; },\n"
              "  { species = [\"Ar\", \"Ar\"]; epsilon = 1.0; sigma = 1.0; } ); };\n"
              "  atm = { triplets = ( { species = [\"Kr\", \"Ar\", \"Kr\"]; nu = 0.2; } ); };\n"
              "};\nunits = \"metal\";\n", 0, NULL);
    cfg_physics_text(&c, t1, sizeof t1);
    gsl_test(!strstr(t1, "units=metal\n") ||
                 !strstr(t1, "system.species=Ar 39.948, Kr 83.798\n") ||
                 !strstr(t1, "potential.lj.pairs=Ar Ar 1 1 0, Kr Kr 1.4 1.1 3.5\n") ||
                 !strstr(t1, "potential.atm.triplets=Ar Kr Kr 0.2\n"),
             "physics text: metal, the species, pairs sorted, the triplet ('%s')", one_line(t1));
    /* every pair of 8 species: past 240 characters, a count and a hash */
    char big[8192] = "system = { particles = 10; species = (";
    for (int i = 0; i < 8; i++)
        snprintf(big + strlen(big), sizeof big - strlen(big), "%s{ name = \"Sp%d\"; mass = 1; }",
                 i ? ", " : "", i);
    strcat(big, "); init = { composition = [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]; }; };\n"
                "potential = { lj = { pairs = (");
    for (int i = 0, k = 0; i < 8; i++)
        for (int j = i; j < 8; j++, k++)
            snprintf(big + strlen(big), sizeof big - strlen(big),
                     "%s{ species = [\"Sp%d\", \"Sp%d\"]; epsilon = 1.%d; sigma = 1; }",
                     k ? ", " : "", i, j, k);
    strcat(big, "); }; };\n");
    expect_ok("36 pairs", &c, big, 0, NULL);
    gsl_test(cfg_physics_text(&c, t1, sizeof t1) != 0 || strlen(t1) > 4000 ||
                 !strstr(t1, "potential.lj.pairs=36 entries, fnv1a "),
             "36 pairs: the text fits a checkpoint (%zu bytes), the pairs as a count and a hash",
             strlen(t1));
    c.potential.lj.pairs[35].epsilon = 2.0;
    cfg_physics_text(&c, t2, sizeof t2);
    gsl_test(!strcmp(t1, t2), "36 pairs: one epsilon changed changes the hash");
    /* a checkpoint of a tribody before species lacks these lines */
    const char *old = "system.mass=2.3849999999999998\npotential.lj=1\n";
    gsl_test(!cfg_physics_absent("units", old, v, sizeof v) || strcmp(v, "lj"),
             "absent units: lj (got %s)", v);
    gsl_test(!cfg_physics_absent("system.species", old, v, sizeof v) || strcmp(v, "Ar 2.385"),
             "absent system.species: Ar of the stored mass, as it reads now (got %s)", v);
    gsl_test(!cfg_physics_absent("potential.lj.mix", old, v, sizeof v) || strcmp(v, "geometric") ||
                 !cfg_physics_absent("potential.lj.pairs", "potential.lj=0\n", v, sizeof v) ||
                 strcmp(v, "0"), "absent mix: geometric with LJ; pairs 0 without LJ");
    gsl_test(!cfg_physics_absent("potential.atm.triplets", old, v, sizeof v) ||
                 strcmp(v, "none") || cfg_physics_absent("system.boundary", old, v, sizeof v) ||
                 cfg_physics_absent("nope", old, v, sizeof v),
             "absent triplets: none; an older setting (system.boundary) is not known");
}

int main(void)
{
    char dir[] = "/tmp/tb_test_config_species.XXXXXX";
    if (tb_config_begin(dir, "test_config_species: temporary directory") != 0)
        return 2;

    test_units();
    test_species();
    test_species_errors();
    test_species_set();
    test_species_physics();

    cleanup(dir);
    return tb_test_done();
}
