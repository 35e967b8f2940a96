/* box.h — the simulation box, written once for host and device, in double (tb_box_d) and
 * float (tb_box_f): edges, tilts, origin, per-axis periodicity, and the one minimum image and
 * the one wrap every backend, kernel and list uses.
 *
 * Convention (LAMMPS's restricted triclinic, HOOMD's BoxDim): the lattice vectors are
 *   a = (lx, 0, 0),  b = (xy, ly, 0),  c = (xz, yz, lz),
 * the box spans lo + u a + v b + w c for u, v, w in [0, 1). A tilt acts only along a periodic
 * axis (xy with y, xz and yz with z); an open axis is never wrapped or imaged. The minimum
 * image takes z, then y, then x off the separation (LAMMPS domain.cpp minimum_image, HOOMD
 * minImage): exact whenever the nearest image is shorter than half the smallest
 * perpendicular width (box_widths), which is what a cutoff below that half-width needs.
 *
 * Cost. A box with no tilt takes the orthogonal branch: per periodic axis d - l rint(d / l)
 * with the stored reciprocal, d - l * rint(d * inv), the very expression (same operations, same
 * order) of the scalar cubic box it replaces, so a cube gives bit-identical results. The
 * branches test fields of a kernel argument, uniform across a warp.
 *
 * Who owns it: the state (sim_state.box; checkpoints store it, section BOX). The config makes
 * the first one (cfg_box: system.box, a cube or { lengths; tilt; origin; }, and
 * system.boundary, per axis), or a file gives it (LAMMPS data, extended XYZ). Every evaluation
 * gets a copy through pot_coef.box (pot_params_init_box); the neighbour lists copy the double
 * one.
 *
 * Template: box_body.h is included twice (TB_REAL = double, suffix _d; float, _f), as
 * pot.h instantiates the potentials; box_make_d / box_cube_d / box_to_f build boxes on the
 * host. */
#ifndef TB_BOX_H
#define TB_BOX_H

#include <math.h>

#include "common/tb.h"

#ifdef TB_REAL
#error "box.h must be included outside a TB_REAL template"
#endif

/* The scalar functions of the two types (real.h's, repeated here so the box sits at the
 * solver's root, below physics/, io/ and the backends alike). */
TB_HOSTDEV static inline double box_rint_d(double x) { return rint(x); }
TB_HOSTDEV static inline float box_rint_f(float x) { return rintf(x); }
TB_HOSTDEV static inline double box_floor_d(double x) { return floor(x); }
TB_HOSTDEV static inline float box_floor_f(float x) { return floorf(x); }
TB_HOSTDEV static inline double box_sqrt_d(double x) { return sqrt(x); }
TB_HOSTDEV static inline float box_sqrt_f(float x) { return sqrtf(x); }

#define TB_BOX_PERIODIC_ALL 7 /* pbc bits: 1 x, 2 y, 4 z */

#define TB_REAL double
#define TB_NAME(x) x##_d
#include "solver/box_body.h"
#undef TB_REAL
#undef TB_NAME

#define TB_REAL float
#define TB_NAME(x) x##_f
#include "solver/box_body.h"
#undef TB_REAL
#undef TB_NAME

/* A box from edges l, tilts (xy, xz, yz), origin lo and periodic flags per axis; the
 * reciprocals are 1/l on periodic axes and 0 on open ones. */
TB_HOSTDEV static inline tb_box_d box_make_d(const double l[3], double xy, double xz, double yz,
                                             const double lo[3], const int periodic[3])
{
    tb_box_d b;
    b.pbc = 0;
    for (int a = 0; a < 3; a++) {
        b.l[a] = l[a];
        b.lo[a] = lo[a];
        b.inv[a] = periodic[a] ? 1.0 / l[a] : 0.0;
        b.pbc |= periodic[a] ? 1 << a : 0;
    }
    b.xy = xy;
    b.xz = xz;
    b.yz = yz;
    b.tilted = xy != 0.0 || xz != 0.0 || yz != 0.0;
    return b;
}

/* What the config makes today: a periodic cube of edge L at the origin, or (L <= 0) open
 * boundaries everywhere (edges 0). */
TB_HOSTDEV static inline tb_box_d box_cube_d(double L)
{
    const int p = L > 0.0;
    const double l[3] = {p ? L : 0.0, p ? L : 0.0, p ? L : 0.0}, lo[3] = {0.0, 0.0, 0.0};
    const int per[3] = {p, p, p};
    return box_make_d(l, 0.0, 0.0, 0.0, lo, per);
}

/* Half the smallest perpendicular width of b's periodic axes (the edge itself on an untilted
 * axis, so a cube gives exactly L/2): the largest cutoff the minimum image allows; 0 when no
 * axis is periodic. */
TB_HOSTDEV static inline double box_half_width_d(const tb_box_d *b)
{
    double w[3], hw = 0.0;
    box_widths_d(b, w);
    for (int a = 0; a < 3; a++) {
        const double wa = b->tilted ? w[a] : b->l[a];
        if ((b->pbc >> a & 1) && (hw == 0.0 || 0.5 * wa < hw))
            hw = 0.5 * wa;
    }
    return hw;
}

/* The box stretched by mu per axis about its corner lo, as a barostat moves it: the lattice
 * vectors a, b, c become diag(mu) a, ... (l_a *= mu_a; xy, xz *= mu_x; yz *= mu_y), the
 * reciprocals recomputed. */
TB_HOSTDEV static inline void box_stretch_d(tb_box_d *b, const double mu[3])
{
    int per[3];
    double l[3];
    for (int a = 0; a < 3; a++) {
        per[a] = b->pbc >> a & 1;
        l[a] = b->l[a] * mu[a];
    }
    *b = box_make_d(l, b->xy * mu[0], b->xz * mu[0], b->yz * mu[1], b->lo, per);
}

/* The box under the upper-triangular map M (m[6] = M_xx, M_yy, M_zz, M_xy, M_xz, M_yz, the
 * virial's order) about its corner lo, as MTK's tri moves it: the lattice vectors a, b, c
 * become M a, M b, M c, which stays restricted triclinic (lx' = M_xx lx, xy' = M_xx xy +
 * M_xy ly, xz' = M_xx xz + M_xy yz + M_xz lz, yz' = M_yy yz + M_yz lz). Without off-diagonal
 * terms: box_stretch_d, its bits. */
TB_HOSTDEV static inline void box_deform_d(tb_box_d *b, const double m[6])
{
    if (m[3] == 0.0 && m[4] == 0.0 && m[5] == 0.0) {
        box_stretch_d(b, m);
        return;
    }
    int per[3];
    double l[3];
    for (int a = 0; a < 3; a++) {
        per[a] = b->pbc >> a & 1;
        l[a] = b->l[a] * m[a];
    }
    *b = box_make_d(l, m[0] * b->xy + m[3] * b->l[1], m[0] * b->xz + m[3] * b->yz + m[4] * b->l[2],
                    m[1] * b->yz + m[5] * b->l[2], b->lo, per);
}

/* x = lo + M (x - lo) for the map m[6] of box_deform_d (one position, unwrapped). */
TB_HOSTDEV static inline void box_map_point_d(const double lo[3], const double m[6], double x[3])
{
    const double d0 = x[0] - lo[0], d1 = x[1] - lo[1], d2 = x[2] - lo[2];
    x[0] = lo[0] + (m[0] * d0 + m[3] * d1 + m[4] * d2);
    x[1] = lo[1] + (m[1] * d1 + m[5] * d2);
    x[2] = lo[2] + m[2] * d2;
}

/* The float copy: every field rounded from its double one (inv too, not recomputed). */
TB_HOSTDEV static inline tb_box_f box_to_f(const tb_box_d *d)
{
    tb_box_f f;
    for (int a = 0; a < 3; a++) {
        f.l[a] = (float)d->l[a];
        f.lo[a] = (float)d->lo[a];
        f.inv[a] = (float)d->inv[a];
    }
    f.xy = (float)d->xy;
    f.xz = (float)d->xz;
    f.yz = (float)d->yz;
    f.pbc = d->pbc;
    f.tilted = d->tilted;
    return f;
}

#endif
