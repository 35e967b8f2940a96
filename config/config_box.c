/* config_box.c — system.box and system.boundary: reading both forms of each, the checks of the
 * box against the boundary and the cutoffs, and cfg_box(), the one place that turns them into
 * the box type of solver/box.h.
 *
 *   system.boundary = "open" | "periodic" | "ppf"     (per axis x y z: p periodic, f open)
 *   system.box = 12.5;                                (a cube)
 *   system.box = { lengths = [lx, ly, lz]; tilt = [xy, xz, yz]; origin = [x0, y0, z0]; };
 *
 * LAMMPS's restricted triclinic cell (solver/box.h): a tilt needs its axis periodic (xy: y;
 * xz, yz: z) and at most half the edge it shears along (|xy| <= lx/2, |xz| <= lx/2,
 * |yz| <= ly/2), LAMMPS's limits; every cutoff at most half the smallest perpendicular width
 * of the periodic axes. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <libconfig.h>

#include "config/config.h"
#include "solver/box.h"

#include "config/config_int.h"

/* Reads "open", "periodic", or three of p / f (spaces allowed: LAMMPS's "p p f"). */
int cfg_take_boundary(cfg_ctx *x, const cfg_row *r, const config_setting_t *s)
{
    const char *v = config_setting_get_string(s);
    sim_config *c = x->c;
    char axes[4];
    int n = 0;
    if (!strcmp(v, "open") || !strcmp(v, "periodic")) {
        const int p = !strcmp(v, "periodic");
        c->system.boundary = p ? CFG_BOUNDARY_PERIODIC : CFG_BOUNDARY_OPEN;
        for (int a = 0; a < 3; a++)
            c->system.periodic[a] = p;
        return 0;
    }
    for (const char *q = v; *q; q++) {
        if (*q == ' ')
            continue;
        if (n == 3 || (*q != 'p' && *q != 'f')) {
            n = -1;
            break;
        }
        axes[n++] = *q;
    }
    if (n != 3) {
        cfg_problem(x, s, r->path, "unknown value \"%s\" (expected open, periodic, or one of p "
                    "(periodic) or f (open) per axis x y z, as \"ppf\"%s)", v,
                    strpbrk(v, "sm") ? "; LAMMPS's shrink-wrapped s and m are not supported" : "");
        return -1;
    }
    for (int a = 0; a < 3; a++)
        c->system.periodic[a] = axes[a] == 'p';
    const int np = c->system.periodic[0] + c->system.periodic[1] + c->system.periodic[2];
    c->system.boundary = np == 3 ? CFG_BOUNDARY_PERIODIC : np == 0 ? CFG_BOUNDARY_OPEN
                                                                   : CFG_BOUNDARY_MIXED;
    return 0;
}

/* Three numbers of an array or list member `name` of group g into v; 1 when read, 0 when absent,
 * -1 when wrong (reported). */
static int take_triple(cfg_ctx *x, const cfg_row *r, const config_setting_t *g, const char *name,
                       double v[3])
{
    const config_setting_t *a = config_setting_get_member(g, name);
    char path[128];
    snprintf(path, sizeof path, "%s.%s", r->path, name);
    if (!a)
        return 0;
    const int t = config_setting_type(a);
    if ((t != CONFIG_TYPE_ARRAY && t != CONFIG_TYPE_LIST) || config_setting_length(a) != 3) {
        cfg_problem(x, a, path, "expected three numbers [x, y, z]");
        return -1;
    }
    for (int i = 0; i < 3; i++) {
        const config_setting_t *e = config_setting_get_elem(a, (unsigned)i);
        const int et = config_setting_type(e);
        if (et == CONFIG_TYPE_FLOAT)
            v[i] = config_setting_get_float(e);
        else if (et == CONFIG_TYPE_INT || et == CONFIG_TYPE_INT64)
            v[i] = (double)config_setting_get_int64(e);
        else {
            cfg_problem(x, a, path, "expected three numbers [x, y, z] (element %d is not a number)",
                        i + 1);
            return -1;
        }
        if (!isfinite(v[i]) || fabs(v[i]) > CFG_FLOAT_MAX) {
            cfg_problem(x, a, path, "element %d out of range (at most %g in magnitude)", i + 1,
                        CFG_FLOAT_MAX);
            return -1;
        }
    }
    return 1;
}

/* Reads a number (a cube) or a group { lengths; tilt; origin; }. */
int cfg_take_box(cfg_ctx *x, const cfg_row *r, const config_setting_t *s)
{
    sim_config *c = x->c;
    const int t = config_setting_type(s);
    if (t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64 || t == CONFIG_TYPE_FLOAT) {
        const double L = t == CONFIG_TYPE_FLOAT ? config_setting_get_float(s)
                                                : (double)config_setting_get_int64(s);
        if (!(L > 0) || L > CFG_FLOAT_MAX) {
            char a[32];
            cfg_problem(x, s, r->path, "must be > 0 %s (got %s)", r->unit, cfg_fmt_num(L, a));
            return -1;
        }
        c->system.box = L;
        c->system.box_group = 0;
        for (int a = 0; a < 3; a++) {
            c->system.box_lengths[a] = L;
            c->system.box_tilt[a] = c->system.box_origin[a] = 0.0;
        }
        return 0;
    }
    if (t != CONFIG_TYPE_GROUP) {
        cfg_problem(x, s, r->path, "expected a number (a cube's edge) or a group { lengths = [lx, "
                    "ly, lz]; tilt = [xy, xz, yz]; origin = [x0, y0, z0]; } (got %s)",
                    cfg_type_phrase(t));
        return -1;
    }
    int rc = 0;
    for (int i = 0; i < config_setting_length(s); i++) {
        const config_setting_t *m = config_setting_get_elem(s, (unsigned)i);
        const char *name = config_setting_name(m);
        if (strcmp(name, "lengths") && strcmp(name, "tilt") && strcmp(name, "origin")) {
            char path[128];
            snprintf(path, sizeof path, "%s.%s", r->path, name);
            cfg_problem(x, m, path, "unknown setting (system.box takes lengths, tilt and origin)");
            rc = -1;
        }
    }
    double l[3] = {0, 0, 0}, tl[3] = {0, 0, 0}, o[3] = {0, 0, 0};
    const int hl = take_triple(x, r, s, "lengths", l);
    if (hl == 0) {
        cfg_problem(x, s, "system.box.lengths", "required in the group form of system.box");
        rc = -1;
    }
    if (hl < 0 || take_triple(x, r, s, "tilt", tl) < 0 || take_triple(x, r, s, "origin", o) < 0)
        rc = -1;
    for (int a = 0; a < 3 && hl > 0; a++)
        if (!(l[a] > 0)) {
            cfg_problem(x, config_setting_get_member(s, "lengths"), "system.box.lengths",
                        "must be > 0 on every axis (got %g for %c)", l[a], "xyz"[a]);
            rc = -1;
        }
    if (rc != 0)
        return -1;
    c->system.box = 0.0;
    c->system.box_group = 1;
    memcpy(c->system.box_lengths, l, sizeof l);
    memcpy(c->system.box_tilt, tl, sizeof tl);
    memcpy(c->system.box_origin, o, sizeof o);
    return 0;
}

void cfg_periodic(const sim_config *c, int per[3])
{
    for (int a = 0; a < 3; a++)
        per[a] = c->system.boundary == CFG_BOUNDARY_MIXED ? c->system.periodic[a]
                                                          : c->system.boundary == CFG_BOUNDARY_PERIODIC;
}

tb_box_d cfg_box(const sim_config *c)
{
    int per[3];
    double l[3], lo[3] = {0, 0, 0}, t[3] = {0, 0, 0};
    cfg_periodic(c, per);
    for (int a = 0; a < 3; a++)
        l[a] = c->system.box_group ? c->system.box_lengths[a] : c->system.box;
    if (c->system.boundary == CFG_BOUNDARY_OPEN && !c->system.box_group)
        return box_cube_d(0.0);
    if (c->system.box_group) {
        memcpy(lo, c->system.box_origin, sizeof lo);
        memcpy(t, c->system.box_tilt, sizeof t);
    }
    return box_make_d(l, t[0], t[1], t[2], lo, per);
}

double cfg_box_half_width(const sim_config *c)
{
    const tb_box_d b = cfg_box(c);
    return box_half_width_d(&b);
}
