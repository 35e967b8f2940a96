/* rdf_cells.h — the RDF pair histogram (solver/rdf.h) in O(n) per sample: the plan (cells or
 * all pairs) and the stencil walk, one body for the host (rdf_cells.c) and the device
 * (solver/gpu/gpu_rdf.cu).
 *
 * Cells. The particles are binned into the neighbour lists' grid (nbr.h: nbr_grid_make,
 * nbr_lattice, nbr_cell_coords, nbr_stencil; cubes, orthorhombic and triclinic cells, open
 * axes over the positions' extent) for radius R = r_max (1 + RDF_CELL_SLACK): a particle within
 * r_max of x lies in one of the (up to) 27 cells around x's cell. Each particle i scans those
 * cells and counts every t > i in them with rdf_bin(box, x_i, x_t) — the very call, on the very
 * arguments, of the all-pairs count rdf_count_host (i < j, x_i first) — so every pair within
 * r_max is found once, its distance rounded exactly as there, and the histogram is the same
 * integers. The stencil's cells are distinct (nbr_stencil: fewer than 3 cells on a periodic
 * axis give each cell once), so no pair is counted twice. The slack makes the cells a little
 * wider than r_max, more than the rounding of the lattice coordinates (~1e-15 L) can move a
 * particle across a cell face, so the geometric guarantee holds in floating point too.
 *
 * Why a minimum-image pair is always in the stencil. rdf_bin counts a pair only when the image
 * the minimum image returns, x_i - d, lies within r_max of x_i; that image is within R, and the
 * grid's cells are at least R wide in the lattice coordinates (nbr_grid), so its cell, wrapped,
 * is next to x_i's along every axis: whether or not that image is the nearest one (r_max beyond
 * half a width only makes the grid coarser; fewer than 3 cells cover the axis).
 *
 * The plan (rdf_plan): the cells where they pay, all pairs where not. Not: a box the grid does
 * not take (nbr_box_check's tilts along open axes or an edge <= 0; the observables refuse a
 * box with no periodic axis before that, obs.c), or a stencil that covers more than
 * RDF_CELLS_MAX_FRACTION of the grid (r_max near half the box widths: every particle would
 * scan most of the box anyway, and all pairs skip the sort). Both paths give the same integers,
 * so the plan only moves the cost.
 *
 * Cost: with cells, a sample reads about 27 r_max^3 rho particles per particle (half of them
 * counted, t > i), n (27/2) r_max^3 rho distances, against n^2/2 for all pairs: the liquid of
 * examples/liquid.cfg (rho = 0.8, r_max 4.5) about 1e3 per particle, whatever n. */
#ifndef TB_RDF_CELLS_H
#define TB_RDF_CELLS_H

#include "common/tb.h"
#include "solver/physics/nbr.h"
#include "solver/rdf.h"

TB_BEGIN_DECLS

#define RDF_CELL_SLACK 1e-9        /* the cells' edge over r_max, relative (above) */
#define RDF_CELLS_MAX_FRACTION 0.25 /* the largest share of the grid a stencil may cover */

/* The distinct cells next to position x's cell, x's own included, into u[27]; their number. */
TB_HOSTDEV static inline int rdf_stencil_cells(const nbr_grid *g, const double x[3], int u[27])
{
    int c[3], f[3], cnt[3], m = 0;
    nbr_cell_coords(g, x, c);
    for (int d = 0; d < 3; d++)
        nbr_stencil(g, c[d], d, &f[d], &cnt[d]);
    for (int sz = 0; sz < cnt[2]; sz++)
        for (int sy = 0; sy < cnt[1]; sy++)
            for (int sx = 0; sx < cnt[0]; sx++)
                u[m++] = (((f[2] + sz) % g->nc[2]) * g->nc[1] + (f[1] + sy) % g->nc[1]) * g->nc[0] +
                         (f[0] + sx) % g->nc[0];
    return m;
}

/* The cells of a sample in box b (lo, hi: the positions' bounding box, read along open axes
 * only): 0 and *g set, or -1 where the grid does not take the box (nothing reported). */
int rdf_grid(const rdf_spec *s, const tb_box_d *b, const double lo[3], const double hi[3], int n,
             nbr_grid *g);

/* Whether cells pay on grid g: the share of the grid one stencil covers <= the limit above. */
int rdf_cells_pay(const nbr_grid *g);

/* The plan of a sample: 1 and *g set (cells), or 0 (all pairs). */
int rdf_plan(const rdf_spec *s, const tb_box_d *b, const double lo[3], const double hi[3], int n,
             nbr_grid *g);

/* The bounding box of pos[3n] (zeros when n = 0). */
void rdf_extent(const double *pos, int n, double lo[3], double hi[3]);

/* The histogram by the cells of grid g (from rdf_grid on these positions and box), added to
 * counts as rdf_count_host adds it: the same integers. 0, or -1 out of host memory (nothing
 * added, nothing reported). */
int rdf_count_cells(const rdf_spec *s, const nbr_grid *g, const double *pos, const int *type,
                    int n, unsigned long long *counts);

/* A sample on the host: rdf_plan, then the cells or rdf_count_host (also where the cells find
 * no memory). Returns 1 for cells, 0 for all pairs. */
int rdf_count(const rdf_spec *s, const tb_box_d *b, const double *pos, const int *type, int n,
              unsigned long long *counts);

TB_END_DECLS

#endif
