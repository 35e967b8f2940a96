/* config_checks.c — the checks of sim.cfg across settings, once every setting was read: required
 * settings, the defaults of the unit styles, the box against the boundary and the cutoffs, the
 * initial state's file and geometry, the thermostat settings, and n against the maps (one
 * located line per problem); the species and what refers to them: config_species.c. */
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

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* ---- cross checks -------------------------------------------------------------------------- */

/* The setting where path was given when it was given and accepted; else NULL. */
static const config_setting_t *given(const cfg_ctx *x, const char *path)
{
    int i = cfg_row_of(path);
    return x->bad[i] ? NULL : x->src[i];
}

static int rejected(const cfg_ctx *x, const char *path)
{
    return x->bad[cfg_row_of(path)];
}

/* Where to point a message about `path`: where it was given, else its nearest given group,
 * else nowhere (the file). */
static const config_setting_t *near_src(const cfg_ctx *x, const char *path)
{
    char p[256];
    snprintf(p, sizeof p, "%s", path);
    for (;;) {
        int i = cfg_row_find(p);
        if (i >= 0 && x->src[i])
            return x->src[i];
        char *dot = strrchr(p, '.');
        if (!dot)
            return NULL;
        *dot = '\0';
    }
}

const config_setting_t *cfg_given(const cfg_ctx *x, const char *path) { return given(x, path); }
int cfg_rejected(const cfg_ctx *x, const char *path) { return rejected(x, path); }
const config_setting_t *cfg_near_src(const cfg_ctx *x, const char *path) { return near_src(x, path); }

/* Required settings that were given nowhere; system.particles not with a file
 * (system.init.type xyz or lammps), which gives the count. */
static void check_required(cfg_ctx *x)
{
    const int t = x->c->system.init.type, from_file = t == CFG_INIT_XYZ || t == CFG_INIT_LAMMPS;
    const int particles = cfg_row_of("system.particles");
    char want[128];
    for (int i = 0; i < cfg_n_rows; i++)
        if ((cfg_rows[i].flags & CF_REQUIRED) && !x->src[i] && !(from_file && i == particles)) {
            cfg_range_phrase(&cfg_rows[i], x->c->units, want, sizeof want);
            cfg_problem(x, NULL, cfg_rows[i].path, "required setting is missing (%s)", want);
        }
}

/* A cutoff must not exceed half the smallest perpendicular width of the periodic axes
 * (minimum image convention; LAMMPS requires the same). */
static void check_cutoff(cfg_ctx *x, const char *path, double rc, double half, int cube)
{
    char a[32], b[32];
    if (rc > half)
        cfg_problem(x, near_src(x, path), path, "%s%s exceeds half the box (%s = %s)",
                    cfg_fmt_num(rc, a), given(x, path) ? "" : " (the default)",
                    cube ? "L/2" : "half the smallest periodic width", cfg_fmt_num(half, b));
}

/* system.box against system.boundary (a tilt needs its axis periodic and stays within
 * LAMMPS's limits), and the cutoffs against the box. */
static void check_box(cfg_ctx *x)
{
    sim_config *c = x->c;
    if (rejected(x, "system.boundary") || rejected(x, "system.box"))
        return;
    if (c->system.init.type == CFG_INIT_LAMMPS) {
        /* the data file gives the box (the cutoffs are checked against it by sim_init); its
         * axes are periodic unless system.boundary says otherwise, LAMMPS's default */
        if (given(x, "system.box"))
            cfg_problem(x, given(x, "system.box"), "system.box", "not used with "
                        "system.init.type = \"lammps\": the data file gives the box");
        if (!given(x, "system.boundary")) {
            c->system.boundary = CFG_BOUNDARY_PERIODIC;
            for (int a = 0; a < 3; a++)
                c->system.periodic[a] = 1;
        }
        return;
    }
    if (c->system.boundary == CFG_BOUNDARY_OPEN) {
        if (given(x, "system.box"))
            cfg_problem(x, given(x, "system.box"), "system.box", "only used with a periodic "
                    "axis in system.boundary (the boundary is open)");
        return;
    }
    if (!given(x, "system.box") && c->system.init.type == CFG_INIT_XYZ)
        return; /* the frame's Lattice gives the box (sim_init checks it and the cutoffs) */
    if (!given(x, "system.box")) {
        cfg_problem(x, near_src(x, "system.boundary"), "system.box",
                "required with system.boundary = \"%s\"",
                c->system.boundary == CFG_BOUNDARY_PERIODIC ? "periodic" : "mixed (per axis)");
        return;
    }
    if (c->system.box_group) {
        const double *l = c->system.box_lengths, *t = c->system.box_tilt;
        const int *p = c->system.periodic;
        const int per_y = c->system.boundary == CFG_BOUNDARY_PERIODIC || p[1];
        const int per_z = c->system.boundary == CFG_BOUNDARY_PERIODIC || p[2];
        static const char *const tn[3] = {"xy", "xz", "yz"};
        const double lim[3] = {0.5 * l[0], 0.5 * l[0], 0.5 * l[1]};
        const int axis_ok[3] = {per_y, per_z, per_z};
        int bad = 0;
        for (int k = 0; k < 3; k++) {
            if (t[k] != 0.0 && !axis_ok[k]) {
                cfg_problem(x, given(x, "system.box"), "system.box.tilt", "%s = %g needs the %c "
                            "axis periodic (LAMMPS: a triclinic box must be periodic in its "
                            "skewed dimensions)", tn[k], t[k], k == 0 ? 'y' : 'z');
                bad = 1;
            } else if (fabs(t[k]) > lim[k] * (1 + 1e-14)) {
                cfg_problem(x, given(x, "system.box"), "system.box.tilt", "%s = %g is beyond "
                            "LAMMPS's limit |%s| <= %s/2 = %g (choose the equivalent cell with "
                            "the smaller tilt)", tn[k], t[k], tn[k], k == 2 ? "ly" : "lx", lim[k]);
                bad = 1;
            }
        }
        if (bad)
            return;
    }
    const int cube = !c->system.box_group && c->system.boundary == CFG_BOUNDARY_PERIODIC;
    const double half = cfg_box_half_width(c);
    if (!rejected(x, "potential.atm.cutoff")) {
        if (c->potential.atm.cutoff > 0)
            check_cutoff(x, "potential.atm.cutoff", c->potential.atm.cutoff, half, cube);
        else /* L/4: the image triangle is then the same from every corner (docs/physics.md) */
            c->potential.atm.cutoff = 0.5 * half;
    }
    if (c->potential.lj.enabled && !rejected(x, "potential.lj.cutoff"))
        check_cutoff(x, "potential.lj.cutoff", c->potential.lj.cutoff, half, cube);
}

/* system.init.file against system.init.type: a file type (xyz, lammps) needs it. */
static void check_init_file(cfg_ctx *x)
{
    const int t = x->c->system.init.type, from_file = t == CFG_INIT_XYZ || t == CFG_INIT_LAMMPS;
    if (rejected(x, "system.init.type") || rejected(x, "system.init.file"))
        return;
    if (from_file && !given(x, "system.init.file"))
        cfg_problem(x, near_src(x, "system.init.type"), "system.init.file",
                "required with system.init.type = \"%s\"", cfg_init_name(t));
    if (!from_file && given(x, "system.init.file"))
        cfg_problem(x, given(x, "system.init.file"), "system.init.file",
                "only used with system.init.type = \"xyz\" or \"lammps\" (the type is %s)",
                cfg_init_name(t));
    if (t != CFG_INIT_RANDOM && given(x, "system.init.placement") &&
        !rejected(x, "system.init.placement"))
        cfg_problem(x, given(x, "system.init.placement"), "system.init.placement",
                "only used with system.init.type = \"random\" (the type is %s)", cfg_init_name(t));
}

/* Lattice default spacing, and whether a random cluster of the given radius can plausibly hold
 * n points min_distance apart: spheres of diameter d around them fill n (d/2)^3 / R^3 of the
 * cluster, and no random packing passes about 0.6 (random close packing is 0.64). This rejects
 * only the hopeless; rejection sampling already jams near 0.38 (random sequential addition),
 * and sim_init reports a cluster it cannot fill. Lattice and XYZ states are not checked. */
static void check_init_geometry(cfg_ctx *x)
{
    sim_config *c = x->c;
    const double max_fill = 0.6;
    if (rejected(x, "system.init.type") || rejected(x, "system.init.min_distance"))
        return;
    if (c->system.init.type == CFG_INIT_LATTICE && !x->src[cfg_row_of("system.init.min_distance")])
        c->system.init.min_distance = pow(2.0, 1.0 / 6.0) * /* the LJ pair minimum (argon's) */
                                      units_argon(units_of(c->units), "sigma");
    if (c->system.init.type != CFG_INIT_RANDOM || c->system.boundary != CFG_BOUNDARY_OPEN ||
        !given(x, "system.init.radius") || !given(x, "system.particles") ||
        rejected(x, "system.boundary") || c->system.init.radius <= 0)
        return;
    double d = c->system.init.min_distance, R = c->system.init.radius;
    double fill = c->system.particles * pow(0.5 * d / R, 3);
    char a[32], b[32];
    if (fill > max_fill)
        cfg_problem(x, near_src(x, "system.init.min_distance"), "system.init.min_distance",
                "%d particles %s apart do not fit in a sphere of radius %s (packing fraction "
                "n (d/2)^3 / R^3 = %.3g > %.1f)", c->system.particles, cfg_fmt_num(d, a),
                cfg_fmt_num(R, b), fill, max_fill);
}

/* The thermostat settings against integrator.type: a thermostat needs its target; a setting
 * of another integrator is an error (it would be silently ignored). */
static void check_integrator(cfg_ctx *x)
{
    sim_config *c = x->c;
    const int t = c->integrator.type;
    static const char *const lv_only[] = {"integrator.gamma", NULL};
    static const char *const nh_only[] = {"integrator.nh", "integrator.nh.chain",
                                          "integrator.nh.period", NULL};
    static const char *const thermo_only[] = {"integrator.temperature",
                                              "integrator.temperature_end", NULL};
    if (rejected(x, "integrator.type"))
        return;
    for (int i = 0; t != CFG_INTEG_LANGEVIN && lv_only[i]; i++)
        if (given(x, lv_only[i]))
            cfg_problem(x, given(x, lv_only[i]), lv_only[i],
                    "only used with integrator.type = \"langevin\" (the type is %s)",
                    cfg_integrator_name(t));
    for (int i = 0; t != CFG_INTEG_NOSE_HOOVER && nh_only[i]; i++)
        if (given(x, nh_only[i]))
            cfg_problem(x, given(x, nh_only[i]), nh_only[i],
                    "only used with integrator.type = \"nose-hoover\" (the type is %s)",
                    cfg_integrator_name(t));
    for (int i = 0; t == CFG_INTEG_NVE && thermo_only[i]; i++)
        if (given(x, thermo_only[i]))
            cfg_problem(x, given(x, thermo_only[i]), thermo_only[i],
                    "only used with a thermostat (integrator.type = \"langevin\" or "
                    "\"nose-hoover\"; the type is nve)");
    if (t != CFG_INTEG_NVE && !given(x, "integrator.temperature") &&
        !rejected(x, "integrator.temperature"))
        cfg_problem(x, near_src(x, "integrator.type"), "integrator.temperature",
                "required with integrator.type = \"%s\"", cfg_integrator_name(t));
    if (!given(x, "integrator.temperature_end") && !rejected(x, "integrator.temperature_end"))
        c->integrator.temperature_end = c->integrator.temperature;
}

/* The barostat group (physics/baro.h): its type and target are required in it; mtk moves
 * the box with the Nose-Hoover chain, so it needs integrator.type = "nose-hoover" (c-rescale
 * runs with any: under nve its noise takes the kinetic temperature, the NPH form); every
 * coupling scales all three edges, which must be periodic; tri (the tilts) is mtk's only. */
static void check_barostat(cfg_ctx *x)
{
    sim_config *c = x->c;
    static const char *const inner[] = {"integrator.barostat.type", "integrator.barostat.pressure",
        "integrator.barostat.pressure_end", "integrator.barostat.period",
        "integrator.barostat.coupling", "integrator.barostat.compressibility",
        "integrator.barostat.every", NULL};
    const config_setting_t *g = given(x, "integrator.barostat");
    c->integrator.barostat.enabled = g != NULL;
    if (!g)
        return;
    const int t = c->integrator.barostat.type, k = c->integrator.barostat.coupling;
    for (int i = 0; i < 2; i++)
        if (!given(x, inner[i]) && !rejected(x, inner[i]))
            cfg_problem(x, g, inner[i], "required in an integrator.barostat group");
    if (!given(x, "integrator.barostat.pressure_end"))
        c->integrator.barostat.pressure_end = c->integrator.barostat.pressure;
    if (!given(x, "integrator.barostat.type") || rejected(x, "integrator.barostat.coupling"))
        return;
    if (t == CFG_BARO_MTK && c->integrator.type != CFG_INTEG_NOSE_HOOVER &&
        !rejected(x, "integrator.type"))
        cfg_problem(x, given(x, "integrator.barostat.type"), "integrator.barostat.type",
                    "mtk needs the Nose-Hoover chain: integrator.type = \"nose-hoover\" (the type "
                    "is %s)", cfg_integrator_name(c->integrator.type));
    if (t == CFG_BARO_CRESCALE && k == CFG_COUPLE_TRI)
        cfg_problem(x, near_src(x, "integrator.barostat.coupling"), "integrator.barostat.coupling",
                    "c-rescale scales the edges only: iso or aniso (got tri; tri is mtk's)");
    if (t == CFG_BARO_MTK && given(x, "integrator.barostat.compressibility"))
        cfg_problem(x, given(x, "integrator.barostat.compressibility"),
                    "integrator.barostat.compressibility",
                    "only used with integrator.barostat.type = \"c-rescale\" (the type is mtk)");
    if (t == CFG_BARO_MTK && given(x, "integrator.barostat.every"))
        cfg_problem(x, given(x, "integrator.barostat.every"), "integrator.barostat.every",
                    "only used with integrator.barostat.type = \"c-rescale\" (mtk acts every step)");
    if (cfg_atm_active(c) && !(c->potential.atm.cutoff > 0.0) &&
        !rejected(x, "potential.atm.cutoff"))
        cfg_problem(x, near_src(x, "potential.atm.cutoff"), "potential.atm.cutoff",
                    "required with an integrator.barostat and a box from a file (its default, "
                    "a quarter of that box, would move with the box)");
    if (rejected(x, "system.boundary"))
        return;
    int per[3];
    cfg_periodic(c, per);
    for (int a = 0; a < 3; a++)
        if (!per[a]) {
            cfg_problem(x, near_src(x, "integrator.barostat.coupling"),
                        "integrator.barostat.coupling", "%s scales every axis, but axis %c is "
                        "open (system.boundary): a barostat needs a periodic box",
                        cfg_coupling_name(k), "xyz"[a]);
            break;
        }
}

/* system.particles against what the block maps can cover at solver.tile: nb = ceil(n / tile)
 * tiles per side must not pass the map's max_nb (its exact range, within the GPU's grid and
 * 64-bit block counts), so a run that cannot be launched is refused here, before any
 * allocation, naming the largest n that works. */
static void check_sizes(cfg_ctx *x)
{
    const sim_config *c = x->c;
    const map3d_type *m3 = map3d_find(c->solver.map);
    const map2d_type *m2 = map2d_find(c->solver.map2d);
    if (rejected(x, "system.particles") || rejected(x, "solver.tile") || c->solver.tile < 1 ||
        c->system.particles < 1)
        return;
    /* the neighbour-list path (solver.cull, every term with a cutoff) launches no map */
    if (c->solver.cull && (c->system.boundary == CFG_BOUNDARY_PERIODIC ||
                           !cfg_atm_active(c) || c->potential.atm.cutoff > 0.0))
        return;
    const long long nb = ((long long)c->system.particles + c->solver.tile - 1) / c->solver.tile;
    if (m3 && !rejected(x, "solver.map") && cfg_atm_active(c) && nb > m3->max_nb)
        cfg_problem(x, near_src(x, "system.particles"), "system.particles",
                "%d particles in tiles of %d make %lld tiles per side, more than solver.map = "
                "\"%s\" supports (%lld): at most %lld particles at this tile",
                c->system.particles, c->solver.tile, nb, m3->name, m3->max_nb,
                m3->max_nb * c->solver.tile);
    if (m2 && !rejected(x, "solver.map2d") && c->potential.lj.enabled) {
        long long lim = m2->max_nb;
        const int root = map2d_root_find(c->solver.root);
        if (root > 0 && map2d_root_max_nb(root) < lim && !strcmp(m2->name, "lambda2d"))
            lim = map2d_root_max_nb(root);
        if (nb > lim)
            cfg_problem(x, near_src(x, "system.particles"), "system.particles",
                    "%d particles in tiles of %d make %lld tiles per side, more than "
                    "solver.map2d = \"%s\" (solver.root = \"%s\") supports (%lld): at most %lld "
                    "particles at this tile", c->system.particles, c->solver.tile, nb, m2->name,
                    c->solver.root, lim, lim * c->solver.tile);
    }
}

/* In metal and real, every default not given becomes argon in the style's units (units.h:
 * the lj defaults are argon in reduced units), so a file means the same matter in any style.
 * An open random cluster's radius, 0 (from a number density of 0.7 sigma^-3, solver/io/
 * init.c), is made here from argon's sigma, as init.c reads its density in lj units. */
static void units_defaults(cfg_ctx *x)
{
    sim_config *c = x->c;
    const tb_units *u = units_of(c->units);
    if (c->units == CFG_UNITS_LJ)
        return;
    for (int i = 0; i < cfg_n_rows; i++) {
        const cfg_row *r = &cfg_rows[i];
        if (r->kind == K_FLOAT && r->def && !x->src[i])
            *(double *)((char *)c + r->off) *= units_argon(u, r->unit);
    }
    if (c->system.init.type == CFG_INIT_RANDOM && c->system.boundary == CFG_BOUNDARY_OPEN &&
        !x->src[cfg_row_of("system.init.radius")] && c->system.particles > 0)
        c->system.init.radius = cbrt(3.0 * c->system.particles / (4.0 * M_PI * 0.7)) *
                                units_argon(u, "sigma");
}

/* Everything that involves more than one setting, after all were read. */
void cfg_cross_check(cfg_ctx *x)
{
    x->c->potential.lj.enabled = given(x, "potential.lj") != NULL;
    x->c->system.init.temperature_set = given(x, "system.init.temperature") != NULL;
    x->c->system.boundary_given = given(x, "system.boundary") != NULL;
    units_defaults(x);
    cfg_single_species(x->c);
    cfg_read_species(x);
    cfg_read_sw(x);
    check_required(x);
    check_box(x);
    check_init_file(x);
    check_init_geometry(x);
    check_integrator(x);
    check_barostat(x);
    check_sizes(x);
    cfg_check_output(x);
}

