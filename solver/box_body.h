/* box_body.h — the body of box.h for one arithmetic type (TB_REAL, suffix TB_NAME); included
 * by box.h only, twice (no include guard on purpose). */

typedef struct TB_NAME(tb_box) {
    TB_REAL l[3];      /* edges lx ly lz [sigma] */
    TB_REAL inv[3];    /* 1/l on a periodic axis, 0 on an open one */
    TB_REAL xy, xz, yz; /* tilts [sigma] (restricted triclinic) */
    TB_REAL lo[3];     /* origin: the corner u = v = w = 0 [sigma] */
    int pbc;           /* periodic axes, bits 1 x, 2 y, 4 z */
    int tilted;        /* some tilt is non-zero */
} TB_NAME(tb_box);

/* Is any axis periodic? */
TB_HOSTDEV static inline int TB_NAME(box_periodic)(const TB_NAME(tb_box) *b) { return b->pbc != 0; }

/* Minimum image of the separation d, in place. */
TB_HOSTDEV static inline void TB_NAME(box_min_image)(const TB_NAME(tb_box) *b, TB_REAL d[3])
{
    if (!b->tilted) {
        if (b->pbc == TB_BOX_PERIODIC_ALL) { /* the cube's path: as the scalar box did it */
            d[0] -= b->l[0] * TB_NAME(box_rint)(d[0] * b->inv[0]);
            d[1] -= b->l[1] * TB_NAME(box_rint)(d[1] * b->inv[1]);
            d[2] -= b->l[2] * TB_NAME(box_rint)(d[2] * b->inv[2]);
        } else if (b->pbc) {
            for (int a = 0; a < 3; a++)
                if (b->pbc >> a & 1)
                    d[a] -= b->l[a] * TB_NAME(box_rint)(d[a] * b->inv[a]);
        }
        return;
    }
    if (b->pbc & 4) { /* z first: c = (xz, yz, lz) */
        const TB_REAL s = TB_NAME(box_rint)(d[2] * b->inv[2]);
        d[2] -= b->l[2] * s;
        d[1] -= b->yz * s;
        d[0] -= b->xz * s;
    }
    if (b->pbc & 2) { /* then y: b = (xy, ly, 0) */
        const TB_REAL s = TB_NAME(box_rint)(d[1] * b->inv[1]);
        d[1] -= b->l[1] * s;
        d[0] -= b->xy * s;
    }
    if (b->pbc & 1)
        d[0] -= b->l[0] * TB_NAME(box_rint)(d[0] * b->inv[0]);
}

/* Fractional coordinates (u, v, w) of position x: x = lo + u a + v b + w c (HOOMD's
 * makeFraction, LAMMPS's x2lamda). */
TB_HOSTDEV static inline void TB_NAME(box_fraction)(const TB_NAME(tb_box) *b, const TB_REAL x[3],
                                                    TB_REAL f[3])
{
    const TB_REAL dz = x[2] - b->lo[2];
    const TB_REAL w = dz / b->l[2];
    const TB_REAL v = (x[1] - b->lo[1] - b->yz * w) / b->l[1];
    f[0] = (x[0] - b->lo[0] - b->xy * v - b->xz * w) / b->l[0];
    f[1] = v;
    f[2] = w;
}

/* Wrap of a position into the box, in place, along the periodic axes. Without tilts, per axis
 * t - l floor(t / l) of t = x - lo, the scalar box's expression: with lo = 0 a cube's
 * positions come out bit for bit as before. With tilts, HOOMD's wrap: the lattice vectors
 * n = floor(fraction) off. The result may sit on the far face (a fraction of 1) when x is a
 * hair below a face (rounding); callers that need [lo, lo + l) strictly clamp (sim_place). */
TB_HOSTDEV static inline void TB_NAME(box_wrap)(const TB_NAME(tb_box) *b, TB_REAL x[3])
{
    if (!b->pbc)
        return;
    if (!b->tilted) {
        for (int a = 0; a < 3; a++)
            if (b->pbc >> a & 1) {
                const TB_REAL t = x[a] - b->lo[a];
                x[a] = (t - b->l[a] * TB_NAME(box_floor)(t / b->l[a])) + b->lo[a];
            }
        return;
    }
    TB_REAL f[3];
    TB_NAME(box_fraction)(b, x, f);
    const TB_REAL na = b->pbc & 1 ? TB_NAME(box_floor)(f[0]) : (TB_REAL)0,
                  nb = b->pbc & 2 ? TB_NAME(box_floor)(f[1]) : (TB_REAL)0,
                  nc = b->pbc & 4 ? TB_NAME(box_floor)(f[2]) : (TB_REAL)0;
    x[0] -= b->l[0] * na + b->xy * nb + b->xz * nc;
    x[1] -= b->l[1] * nb + b->yz * nc;
    x[2] -= b->l[2] * nc;
}

/* Volume lx ly lz. */
TB_HOSTDEV static inline TB_REAL TB_NAME(box_volume)(const TB_NAME(tb_box) *b)
{
    return b->l[0] * b->l[1] * b->l[2];
}

/* Perpendicular widths: the distances between opposite faces, V / |b x c|, V / |c x a|,
 * V / |a x b| (LAMMPS's "perpendicular box widths"). A cutoff below half the smallest
 * periodic one sees each neighbour once. */
TB_HOSTDEV static inline void TB_NAME(box_widths)(const TB_NAME(tb_box) *b, TB_REAL w[3])
{
    const TB_REAL lx = b->l[0], ly = b->l[1], lz = b->l[2];
    const TB_REAL bcx = ly * lz, bcy = -b->xy * lz, bcz = b->xy * b->yz - ly * b->xz;
    w[0] = lx * ly * lz / TB_NAME(box_sqrt)(bcx * bcx + bcy * bcy + bcz * bcz);
    w[1] = ly * lz / TB_NAME(box_sqrt)(lz * lz + b->yz * b->yz);
    w[2] = lz;
}
