/* nbr.h — the neighbour-list ("culled") force path for systems whose every term has a cutoff:
 * what the CPU and GPU backends share (host and device).
 *
 * Why. With a cutoff rc, a particle has O(rc^3 rho) partners and O(rc^6 rho^2) triplets, so
 * the work is O(N). Launching every tile triplet of the tetrahedron and masking costs O(N^3)
 * (99.8 % thrown away in a periodic liquid at rc = L/4).
 *
 * Lists. Each particle i (the anchor) keeps the particles t within R = max(cutoffs) + skin of it
 * that may come after it in the order below, sorted by index: row i of (off, idx). A build
 * puts particles into cells of edge >= R (a counting sort by cell), then scans the 27 cells
 * around each particle. The lists stay valid until some particle has moved more than skin/2
 * from where it was at the build (two particles then approach by at most skin).
 *
 * Which anchor owns a triplet. Every pair and triplet is counted once, at the vertex that comes
 * first in the lexicographic order of the image positions (x, then y, then z, then the index):
 * the leftmost vertex of the triangle, as LAMMPS's pair_style atm does. Seen from anchor i,
 * t comes after i iff d = mic(x_t - x_i) satisfies nbr_after(d, i, t). With rc below half the
 * smallest perpendicular width (box.h; L/2 of a cube) the image
 * triangle of a triplet within the cutoff is unique, so anchoring at its leftmost vertex counts
 * the triangle triplet.h anchors at the lowest index: the two paths sum the same terms. A build
 * keeps every t with d.x >= -skin (a later "after" has d.x > -skin at the build).
 *
 * Work of one anchor. Its list, filtered at the current positions, gives the entries: first
 * the m_atm partners with r^2 <= rc_atm^2 that come after it, then those only within the LJ
 * cutoff. Pairs: every entry with r^2 < rc_lj^2. Triplets: the pairs (j, k), j < k, of the
 * first m_atm entries, a triangle of entry pairs cut into NBR_TILE x NBR_TILE tiles and placed
 * by the 2D map lambda2d (omega -> tile (P, Q), P <= Q). The triplet body is nbr_atm
 * (triplet.h), on the anchor-relative separations d_ij, d_ik, d_jk = d_ik - d_ij (the GPU's
 * default loop walks the pairs as a ring, gpu_nbr_ring.cuh, with pot_atm_list_v in double and
 * its dot form in float (nbr_tri_dot), pot_atm.h; the CPU's walks rows with pot_atm_list_v,
 * nbr_simd_body.h: both scale their sums by
 * -3 nu 5^(-5/2) instead of 0.75 nu below, and take the energy from the forces by Euler's
 * relation, 9 E = sum_q d_q . F_q).
 *
 * Forces per anchor, in the pair sums of pot_atm (scaled by 2 (3 nu/8) at the end): each entry
 * q keeps V_q (vector) and S_q (scalar) so that F_q = 0.75 nu (V_q + S_q d_q): as j it adds
 * V += sum_k gb d_jk, S -= sum_k ga; as k, V -= sum_j gb d_jk, S -= sum_j gc. The anchor gets
 * F_i = -sum_q F_q, so the forces of one anchor sum to zero, and its virial is
 * sum_q d_q (x) F_q (translation invariance). */
#ifndef TB_NBR_H
#define TB_NBR_H

#include <math.h>

#include "common/tb.h"
#include "solver/box.h"

TB_BEGIN_DECLS

#define NBR_TILE 32 /* entries per side of a tile of entry pairs */

/* Does the image at d = mic(x_t - x_i) come after anchor i (lexicographic x, y, z, index)? */
TB_HOSTDEV static inline int nbr_after(double dx, double dy, double dz, int i, int t)
{
    return dx > 0.0 ||
           (dx == 0.0 && (dy > 0.0 || (dy == 0.0 && (dz > 0.0 || (dz == 0.0 && t > i)))));
}

/* The separation e = mic(x_t - x_i) in double and its square: how every list path forms an
 * entry (the lists work in double whatever the precision; mixed precision also takes its pairs
 * from here, nbr_cpu.h and gpu_nbr.cu). */
TB_HOSTDEV static inline double nbr_separation(const tb_box_d *b, const double xi[3],
                                               const double xt[3], double e[3])
{
    e[0] = xt[0] - xi[0];
    e[1] = xt[1] - xi[1];
    e[2] = xt[2] - xi[2];
    box_min_image_d(b, e);
    return e[0] * e[0] + e[1] * e[1] + e[2] * e[2];
}

/* vir[6] (xx yy zz xy xz yz) += d (x) f, symmetrized: one list entry's share of the virial,
 * sum_q d_q (x) F_q (the centred bodies: cpu/sw_cpu.h, gpu/gpu_sw.cu). */
TB_HOSTDEV static inline void nbr_virial_add(double vir[6], const double d[3], const double f[3])
{
    vir[0] += d[0] * f[0];
    vir[1] += d[1] * f[1];
    vir[2] += d[2] * f[2];
    vir[3] += 0.5 * (d[0] * f[1] + d[1] * f[0]);
    vir[4] += 0.5 * (d[0] * f[2] + d[2] * f[0]);
    vir[5] += 0.5 * (d[1] * f[2] + d[2] * f[1]);
}

/* The cell grid of a build, in the box's lattice coordinates (LAMMPS bins a triclinic box in
 * its lamda coordinates): q = x - lo less the tilts' shear, q_a = l_a u_a for the fractions u
 * (box_fraction), so q = x - lo in an untilted box, the cube's own cells. nc cells per axis of
 * edge cell[a] over [lo[a], lo[a] + nc cell) of q (periodic axis: lo 0 and nc cell = l). A
 * particle within R of x moves q_a by at most R l_a / w_a (w: the perpendicular widths,
 * box_widths; l_a / w_a = 1 untilted), and cell[a] >= that, so its cell is a neighbour of x's
 * along every axis: periodic nc = floor(w_a / R); open, the positions' extent in q. */
typedef struct nbr_grid {
    int nc[3];
    double lo[3], cell[3];
    tb_box_d box; /* the box (box.h); no periodic axis = open */
} nbr_grid;

/* The lattice coordinates q of position x in box b (see nbr_grid): x - lo, then the shears of
 * the periodic axes off (a tilt acts only along a periodic axis, box.h, so no division by an
 * open axis's edge). */
TB_HOSTDEV static inline void nbr_lattice(const tb_box_d *b, const double x[3], double q[3])
{
    q[0] = x[0] - b->lo[0];
    q[1] = x[1] - b->lo[1];
    q[2] = x[2] - b->lo[2];
    if (b->tilted) {
        const double w = b->xz != 0.0 || b->yz != 0.0 ? q[2] / b->l[2] : 0.0;
        q[1] -= b->yz * w;
        const double v = b->xy != 0.0 ? q[1] / b->l[1] : 0.0;
        q[0] -= b->xy * v + b->xz * w;
    }
}

/* Cell coordinates c of position x, wrapped into the box first (box_wrap_d), clamped into
 * the grid. */
TB_HOSTDEV static inline void nbr_cell_coords(const nbr_grid *g, const double x[3], int c[3])
{
    double w[3] = {x[0], x[1], x[2]}, q[3];
    box_wrap_d(&g->box, w);
    nbr_lattice(&g->box, w, q);
    for (int d = 0; d < 3; d++) {
        c[d] = (int)floor((q[d] - g->lo[d]) / g->cell[d]);
        if (c[d] < 0)
            c[d] = 0;
        if (c[d] >= g->nc[d])
            c[d] = g->nc[d] - 1;
    }
}

TB_HOSTDEV static inline int nbr_cell_of(const nbr_grid *g, double x, double y, double z)
{
    const double p[3] = {x, y, z};
    int c[3];
    nbr_cell_coords(g, p, c);
    return (c[2] * g->nc[1] + c[1]) * g->nc[0] + c[0];
}

/* The distinct cells next to coordinate c along dim (itself included): *first and *count; a
 * cell u of the range is (first + s) mod nc for s < count. Periodic grids wrap; with fewer than
 * 3 cells every cell is a neighbour once. */
TB_HOSTDEV static inline void nbr_stencil(const nbr_grid *g, int c, int dim, int *first, int *count)
{
    const int nc = g->nc[dim];
    if (g->box.pbc >> dim & 1) {
        if (nc < 3) {
            *first = 0;
            *count = nc;
        } else {
            *first = c - 1 + nc;
            *count = 3;
        }
    } else {
        const int lo = c > 0 ? c - 1 : 0, hi = c + 1 < nc ? c + 1 : nc - 1;
        *first = lo;
        *count = hi - lo + 1;
    }
}

/* Sets up the grid for list radius R: over the box along its periodic axes, over [lo, hi] (the
 * positions' bounding box, Cartesian) along open ones, widened in a tilted box by the shears
 * q takes off (nbr_lattice). At most max_cells cells in all (cells grow beyond R to respect
 * it). */
void nbr_grid_make(nbr_grid *g, const tb_box_d *box, const double lo[3], const double hi[3],
                   double R, long long max_cells);

/* Whether the lists (nbr_lattice's cells) take box: tilts only along periodic axes, every edge
 * > 0 in a tilted box. 0, or -1 (reported). The CPU's and the GPU's lists ask it alike. */
int nbr_box_check(const tb_box_d *box);

/* Lists in a box that moves (a barostat, physics/baro.h). The box `now` is the build's box
 * `ref` under an upper-triangular map M = H_now H_ref^-1 (m[6] = M_xx, M_yy, M_zz, M_xy,
 * M_xz, M_yz; box_deform_d), positions carried alike about the fixed corner lo
 * (x' = lo + M (x - lo)). A pair separation then goes from r to M r + (d_j - d_i), d_i being
 * particle i's displacement from its build position carried by M. With D = diag(M) and N its
 * off-diagonal part, |M - I| <= dev = max |m_aa - 1| + |N|_F and |M r| >= mmin |r|,
 * mmin = min m_aa - |N|_F (Weyl). Every pair within rc now was within (rc + 2 dmax) / mmin at
 * the build and has moved by at most dev (rc + 2 dmax) / mmin + 2 dmax: at most the skin (as
 * skin/2 per particle does without a stretch) iff dmax <= nbr_stretch_limit. A negative limit:
 * rebuild. A diagonal M (N = 0) gives the bounds of a pure stretch, bit for bit. */
TB_HOSTDEV static inline double nbr_stretch_limit(const double m[6], double rc, double skin)
{
    double dev = 0.0, mmin = m[0];
    const double off = sqrt(m[3] * m[3] + m[4] * m[4] + m[5] * m[5]);
    for (int a = 0; a < 3; a++) {
        dev = fmax(dev, fabs(m[a] - 1.0));
        mmin = fmin(mmin, m[a]);
    }
    dev += off;
    mmin -= off;
    if (!(mmin > 0.0))
        return -1.0;
    return (skin - dev * rc / mmin) / (2.0 + 2.0 * dev / mmin);
}

/* Squared displacement of a particle now at x from its build position xr carried by the map
 * m (above), minimum-imaged in the box now. */
TB_HOSTDEV static inline double nbr_stretch_moved2(const tb_box_d *now, const double m[6],
                                                   const double x[3], const double xr[3])
{
    double d[3], c[3] = {xr[0], xr[1], xr[2]};
    if (m[3] != 0.0 || m[4] != 0.0 || m[5] != 0.0) {
        box_map_point_d(now->lo, m, c);
        for (int a = 0; a < 3; a++)
            d[a] = x[a] - c[a];
    } else {
        for (int a = 0; a < 3; a++)
            d[a] = x[a] - (now->lo[a] + m[a] * (xr[a] - now->lo[a]));
    }
    box_min_image_d(now, d);
    return d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
}

/* m of the map from ref to now (above; its off-diagonal terms exactly 0 in an untilted box),
 * and whether the box moved (else the lists' old test runs unchanged). */
TB_HOSTDEV static inline int nbr_stretch(const tb_box_d *now, const tb_box_d *ref, double m[6])
{
    int same = now->xy == ref->xy && now->xz == ref->xz && now->yz == ref->yz;
    for (int a = 0; a < 3; a++) {
        m[a] = now->l[a] / ref->l[a];
        same &= now->l[a] == ref->l[a];
    }
    m[3] = (now->xy - m[0] * ref->xy) / ref->l[1];
    m[5] = (now->yz - m[1] * ref->yz) / ref->l[2];
    m[4] = (now->xz - m[0] * ref->xz - m[3] * ref->yz) / ref->l[2];
    return !same;
}

TB_END_DECLS

#endif
