/* nbr_list.c — neighbour lists on the host: the cell grid, the counting sort by cell, the
 * rows of nbr.h (partners within R that may come after the anchor, ascending), the skin test.
 *
 * A build is deterministic: particles enter their cells in index order, and each row is
 * sorted, so the same positions give the same lists whatever the thread count. A row does
 * not depend on when it was built either, once filtered at the current positions (the
 * entries are those within the cutoffs, in index order), which keeps restarts exact. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/check.h"
#include "solver/physics/nbr_list.h"
#include "solver/physics/potential.h"

void nbr_grid_make(nbr_grid *g, const tb_box_d *box, const double lo[3], const double hi[3],
                   double R, long long max_cells)
{
    double w[3], qlo[3], qhi[3], k[3] = {1.0, 1.0, 1.0};
    memset(g, 0, sizeof *g);
    g->box = *box;
    box_widths_d(box, w);
    for (int d = 0; d < 3; d++) {
        qlo[d] = lo[d] - box->lo[d];
        qhi[d] = hi[d] - box->lo[d];
        if (box->tilted) /* q moves by up to l / w per unit of distance (nbr_grid) */
            k[d] = box->l[d] / w[d];
    }
    if (box->tilted) { /* the shears q takes off, over fractions in [0, 1] (nbr_lattice) */
        qlo[0] -= fmax(box->xy, 0.0) + fmax(box->xz, 0.0);
        qhi[0] -= fmin(box->xy, 0.0) + fmin(box->xz, 0.0);
        qlo[1] -= fmax(box->yz, 0.0);
        qhi[1] -= fmin(box->yz, 0.0);
    }
    for (int d = 0; d < 3; d++) {
        const int per = box->pbc >> d & 1;
        const double ext = per ? box->l[d] : qhi[d] - qlo[d], edge = R * k[d];
        long long nc = edge > 0.0 ? (long long)floor(ext / edge) : 1;
        if (nc < 1)
            nc = 1;
        if (nc > 1024)
            nc = 1024;
        g->nc[d] = (int)nc;
    }
    /* fewer cells than max_cells: halve the longest side until it fits */
    while ((long long)g->nc[0] * g->nc[1] * g->nc[2] > max_cells) {
        int d = g->nc[0] >= g->nc[1] && g->nc[0] >= g->nc[2] ? 0 : g->nc[1] >= g->nc[2] ? 1 : 2;
        g->nc[d] = (g->nc[d] + 1) / 2;
    }
    for (int d = 0; d < 3; d++) {
        const int per = box->pbc >> d & 1;
        const double ext = per ? box->l[d] : qhi[d] - qlo[d];
        g->lo[d] = per ? 0.0 : qlo[d];
        g->cell[d] = ext > 0.0 ? ext / g->nc[d] : 1.0;
        if (!per && g->cell[d] < R * k[d])
            g->cell[d] = R * k[d]; /* one cell holds a flat cluster's whole extent */
    }
}

int nbr_wanted(const sim_config *c, const pot_params *pp)
{
    int all_cut;
    if (!c->solver.cull)
        return 0;
    pot_range(c, &pp->d.box, &all_cut);
    return all_cut;
}

double nbr_radius(const sim_config *c, const pot_params *pp)
{
    int all_cut;
    return pot_range(c, &pp->d.box, &all_cut) + c->solver.skin;
}

int nbr_box_check(const tb_box_d *box)
{
    if (box->tilted && ((box->xy != 0.0 && !(box->pbc & 2)) ||
                        ((box->xz != 0.0 || box->yz != 0.0) && !(box->pbc & 4)) ||
                        !(box->l[0] > 0.0 && box->l[1] > 0.0 && box->l[2] > 0.0)))
        return tb_error(NULL, 0, "neighbour lists: a tilted box needs its tilts along periodic "
                                 "axes and every edge > 0 (box.h; got lengths %g %g %g, tilts %g "
                                 "%g %g, periodic x y z %d %d %d)", box->l[0], box->l[1], box->l[2],
                        box->xy, box->xz, box->yz, box->pbc & 1, box->pbc >> 1 & 1, box->pbc >> 2 & 1);
    return 0;
}

int nbr_list_init(nbr_list *l, int n, const tb_box_d *box, double radius, double skin)
{
    memset(l, 0, sizeof *l);
    if (nbr_box_check(box) != 0)
        return -1;
    l->n = n;
    l->box = *box;
    l->radius = radius;
    l->skin = skin;
    l->off = calloc((size_t)n + 1, sizeof *l->off);
    l->xref = malloc(3 * (size_t)n * sizeof *l->xref);
    l->cell_part = malloc((size_t)n * sizeof *l->cell_part);
    if (!l->off || !l->xref || !l->cell_part) {
        nbr_list_free(l);
        return tb_error(NULL, 0, "out of host memory for the neighbour lists (n = %d)", n);
    }
    return 0;
}

void nbr_list_free(nbr_list *l)
{
    if (!l)
        return;
    free(l->off);
    free(l->idx);
    free(l->xref);
    free(l->cell_start);
    free(l->cell_part);
    memset(l, 0, sizeof *l);
}

/* Counting sort of the particles by cell (stable: ascending index within a cell). */
static int sort_cells(nbr_list *l, const double *pos)
{
    const int n = l->n;
    double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    if (l->box.pbc != TB_BOX_PERIODIC_ALL) { /* the open axes' extent */
        for (int d = 0; d < 3; d++)
            lo[d] = hi[d] = pos[d];
        for (int i = 1; i < n; i++)
            for (int d = 0; d < 3; d++) {
                lo[d] = fmin(lo[d], pos[3 * i + d]);
                hi[d] = fmax(hi[d], pos[3 * i + d]);
            }
    }
    nbr_grid_make(&l->g, &l->box, lo, hi, l->radius, 2LL * n + 64);
    const long long cells = (long long)l->g.nc[0] * l->g.nc[1] * l->g.nc[2];
    if (cells + 1 > l->cells_cap) {
        free(l->cell_start);
        l->cell_start = malloc((size_t)(cells + 1) * sizeof *l->cell_start);
        l->cells_cap = l->cell_start ? cells + 1 : 0;
        if (!l->cell_start)
            return tb_error(NULL, 0, "out of host memory for %lld neighbour cells", cells);
    }
    int *start = l->cell_start;
    memset(start, 0, (size_t)(cells + 1) * sizeof *start);
    for (int i = 0; i < n; i++)
        start[nbr_cell_of(&l->g, pos[3 * i], pos[3 * i + 1], pos[3 * i + 2]) + 1]++;
    for (long long c = 0; c < cells; c++)
        start[c + 1] += start[c];
    for (int i = 0; i < n; i++) {
        const int c = nbr_cell_of(&l->g, pos[3 * i], pos[3 * i + 1], pos[3 * i + 2]);
        l->cell_part[start[c]++] = i;
    }
    for (long long c = cells; c > 0; c--) /* start[c] now holds the end of cell c: shift back */
        start[c] = start[c - 1];
    start[0] = 0;
    return 0;
}

/* Scans the cells around particle i: counts its row (out == NULL) or writes it. */
static int scan_row(const nbr_list *l, const double *pos, int i, int *out)
{
    const nbr_grid *g = &l->g;
    const double R2 = l->radius * l->radius, *xi = pos + 3 * i;
    int c[3], f[3], cnt[3], m = 0;
    nbr_cell_coords(g, xi, c);
    for (int d = 0; d < 3; d++)
        nbr_stencil(g, c[d], d, &f[d], &cnt[d]);
    for (int sz = 0; sz < cnt[2]; sz++)
        for (int sy = 0; sy < cnt[1]; sy++)
            for (int sx = 0; sx < cnt[0]; sx++) {
                const int u = (((f[2] + sz) % g->nc[2]) * g->nc[1] + (f[1] + sy) % g->nc[1]) *
                                  g->nc[0] + (f[0] + sx) % g->nc[0];
                for (int p = l->cell_start[u]; p < l->cell_start[u + 1]; p++) {
                    const int t = l->cell_part[p];
                    double d[3] = {pos[3 * t] - xi[0], pos[3 * t + 1] - xi[1],
                                   pos[3 * t + 2] - xi[2]};
                    box_min_image_d(&l->box, d);
                    if (t == i || (!l->full && d[0] < -l->skin) || d[0] * d[0] + d[1] * d[1] + d[2] * d[2] > R2)
                        continue;
                    if (out)
                        out[m] = t;
                    m++;
                }
            }
    return m;
}

static int cmp_int(const void *a, const void *b)
{
    const int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

int nbr_list_count(nbr_list *l, const double *pos)
{
    const int n = l->n;
    long long total = 0;
    int max_row = 0;
    if (sort_cells(l, pos) != 0)
        return -1;
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n; i++)
        l->off[i + 1] = scan_row(l, pos, i, NULL);
    l->off[0] = 0;
    for (int i = 0; i < n; i++) {
        max_row = l->off[i + 1] > max_row ? l->off[i + 1] : max_row;
        total += l->off[i + 1];
        if (total > 2147483647LL)
            return tb_error(NULL, 0, "neighbour lists of %lld entries exceed 2^31: lower "
                                     "solver.skin or the cutoffs", total);
        l->off[i + 1] = (int)total;
    }
    l->max_row = max_row;
    l->lo = l->hi = 0; /* no rows until nbr_list_fill */
    return 0;
}

int nbr_list_fill(nbr_list *l, const double *pos, int lo, int hi)
{
    const long long held = (long long)l->off[hi] - l->off[lo];
    if (held > l->cap || !l->idx) { /* an empty list (held 0) still gets an array: rows of
                                       * no entry point into it (l->idx + off[i] - off[lo]) */
        const long long cap = held + held / 4 + 64;
        int *p = realloc(l->idx, (size_t)cap * sizeof *p);
        if (!p)
            return tb_error(NULL, 0, "out of host memory for %lld neighbour entries", cap);
        l->idx = p;
        l->cap = cap;
    }
    l->lo = lo;
    l->hi = hi;
#pragma omp parallel for schedule(static)
    for (int i = lo; i < hi; i++) {
        int *row = l->idx + (l->off[i] - l->off[lo]);
        scan_row(l, pos, i, row);
        qsort(row, (size_t)(l->off[i + 1] - l->off[i]), sizeof(int), cmp_int);
    }
    memcpy(l->xref, pos, 3 * (size_t)l->n * sizeof *pos);
    l->box_ref = l->box;
    l->builds++;
    return 0;
}

int nbr_list_build(nbr_list *l, const double *pos)
{
    return nbr_list_count(l, pos) != 0 ? -1 : nbr_list_fill(l, pos, 0, l->n);
}

void nbr_list_move_box(nbr_list *l, const tb_box_d *box)
{
    l->box = *box;
}

/* nbr_list_stale in a box stretched since the build (nbr.h). */
static int stale_stretched(const nbr_list *l, const double *pos, const double m[6])
{
    const double lim = nbr_stretch_limit(m, l->radius - l->skin, l->skin);
    int stale = lim < 0.0;
#pragma omp parallel for schedule(static) reduction(| : stale)
    for (int i = 0; i < l->n; i++)
        stale |= nbr_stretch_moved2(&l->box, m, pos + 3 * i, l->xref + 3 * i) > lim * lim;
    return stale;
}

int nbr_list_stale(const nbr_list *l, const double *pos)
{
    const double lim2 = 0.25 * l->skin * l->skin;
    double m[6];
    int stale = 0;
    if (l->builds == 0)
        return 1;
    if (nbr_stretch(&l->box, &l->box_ref, m))
        return stale_stretched(l, pos, m);
#pragma omp parallel for schedule(static) reduction(| : stale)
    for (int i = 0; i < l->n; i++) {
        double d[3] = {pos[3 * i] - l->xref[3 * i], pos[3 * i + 1] - l->xref[3 * i + 1],
                       pos[3 * i + 2] - l->xref[3 * i + 2]};
        box_min_image_d(&l->box, d);
        stale |= d[0] * d[0] + d[1] * d[1] + d[2] * d[2] > lim2;
    }
    return stale;
}
