/* rdf_cells.c — the cell-based RDF histogram on the host (rdf_cells.h): the plan, a counting
 * sort of the particles by cell, then OpenMP threads over the sorted particles, each thread its
 * own histogram, summed at the end (integers: the same counts for any number of threads, and
 * the same as the all-pairs count of solver/rdf.c and the GPU's, solver/gpu/gpu_rdf.cu). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "solver/physics/rdf_cells.h"

int rdf_grid(const rdf_spec *s, const tb_box_d *b, const double lo[3], const double hi[3], int n,
             nbr_grid *g)
{
    /* nbr_box_check's conditions, unreported: the all-pairs count takes such a box */
    if (b->tilted && ((b->xy != 0.0 && !(b->pbc & 2)) ||
                      ((b->xz != 0.0 || b->yz != 0.0) && !(b->pbc & 4)) ||
                      !(b->l[0] > 0.0 && b->l[1] > 0.0 && b->l[2] > 0.0)))
        return -1;
    if (!(s->r_max > 0.0) || n < 0)
        return -1;
    for (int d = 0; d < 3; d++)
        if ((b->pbc >> d & 1) && !(b->l[d] > 0.0))
            return -1;
    nbr_grid_make(g, b, lo, hi, s->r_max * (1.0 + RDF_CELL_SLACK), 2LL * n + 64);
    return 0;
}

int rdf_cells_pay(const nbr_grid *g)
{
    double share = 1.0;
    for (int d = 0; d < 3; d++)
        share *= (g->nc[d] < 3 ? g->nc[d] : 3) / (double)g->nc[d];
    return share <= RDF_CELLS_MAX_FRACTION;
}

int rdf_plan(const rdf_spec *s, const tb_box_d *b, const double lo[3], const double hi[3], int n,
             nbr_grid *g)
{
    return rdf_grid(s, b, lo, hi, n, g) == 0 && rdf_cells_pay(g);
}

void rdf_extent(const double *pos, int n, double lo[3], double hi[3])
{
    for (int d = 0; d < 3; d++)
        lo[d] = hi[d] = n > 0 ? pos[d] : 0.0;
    for (int i = 1; i < n; i++)
        for (int d = 0; d < 3; d++) {
            lo[d] = fmin(lo[d], pos[3 * (size_t)i + d]);
            hi[d] = fmax(hi[d], pos[3 * (size_t)i + d]);
        }
}

int rdf_count_cells(const rdf_spec *s, const nbr_grid *g, const double *pos, const int *type,
                    int n, unsigned long long *counts)
{
    const int nt = s->ntypes, bins = s->bins;
    const size_t len = (size_t)rdf_npairs(nt) * (size_t)bins;
    const long long cells = (long long)g->nc[0] * g->nc[1] * g->nc[2];
    const double r2 = rdf_guard2(s), inv = rdf_delrinv(s);
    int *start = calloc((size_t)cells + 1, sizeof *start), *part = malloc((size_t)(n > 0 ? n : 1) * sizeof *part);
    int *cell = malloc((size_t)(n > 0 ? n : 1) * sizeof *cell), failed = 0;
    if (!start || !part || !cell) {
        free(start);
        free(part);
        free(cell);
        return -1;
    }
    /* counting sort by cell, stable (ascending index within a cell) */
    for (int i = 0; i < n; i++) {
        cell[i] = nbr_cell_of(g, pos[3 * (size_t)i], pos[3 * (size_t)i + 1], pos[3 * (size_t)i + 2]);
        start[cell[i] + 1]++;
    }
    for (long long c = 0; c < cells; c++)
        start[c + 1] += start[c];
    {
        int *fill = malloc((size_t)(cells > 0 ? cells : 1) * sizeof *fill);
        if (!fill) {
            free(start);
            free(part);
            free(cell);
            return -1;
        }
        memcpy(fill, start, (size_t)cells * sizeof *fill);
        for (int i = 0; i < n; i++)
            part[fill[cell[i]]++] = i;
        free(fill);
    }
    free(cell);
    unsigned long long *sum = calloc(len, sizeof *sum); /* summed here, added only when whole */
    if (!sum) {
        free(start);
        free(part);
        return -1;
    }
#pragma omp parallel
    {
        unsigned long long *h = calloc(len, sizeof *h);
        if (!h) {
#pragma omp atomic write
            failed = 1;
        }
#pragma omp for schedule(dynamic, 256)
        for (int p = 0; p < n; p++) {
            const int i = part[p], ti = type ? type[i] : 0;
            const double *xi = pos + 3 * (size_t)i;
            int u[27];
            const int m = h ? rdf_stencil_cells(g, xi, u) : 0;
            for (int k = 0; k < m; k++)
                for (int q = start[u[k]]; q < start[u[k] + 1]; q++) {
                    const int t = part[q];
                    if (t <= i) /* each pair once, from its lower index, as rdf_count_host */
                        continue;
                    const int bin = rdf_bin(&g->box, xi, pos + 3 * (size_t)t, r2, inv, bins);
                    if (bin >= 0)
                        h[(size_t)rdf_tpair(ti, type ? type[t] : 0, nt) * bins + bin]++;
                }
        }
        if (h)
#pragma omp critical(rdf_cells_sum)
            for (size_t k = 0; k < len; k++)
                sum[k] += h[k];
        free(h);
    }
    if (!failed)
        for (size_t k = 0; k < len; k++)
            counts[k] += sum[k];
    free(sum);
    free(start);
    free(part);
    return failed ? -1 : 0;
}

int rdf_count(const rdf_spec *s, const tb_box_d *b, const double *pos, const int *type, int n,
              unsigned long long *counts)
{
    double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    nbr_grid g;
    if (b->pbc != TB_BOX_PERIODIC_ALL)
        rdf_extent(pos, n, lo, hi);
    if (rdf_plan(s, b, lo, hi, n, &g) && rdf_count_cells(s, &g, pos, type, n, counts) == 0)
        return 1;
    rdf_count_host(s, b, pos, type, n, counts);
    return 0;
}
