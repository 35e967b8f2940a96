/* init_vox.c — the random placement's cell grid of placed particles and its voxel list (the
 * cubes that together hold every available point, split as the gaps shrink): see init_vox.h
 * and, for how they are used, init_random.c. The list's build and splits test their cubes in
 * parallel (OpenMP), listing them in one fixed order, so the list does not depend on the
 * thread count. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/check.h"
#include "solver/io/init_vox.h"

int grid_alloc(init_grid *g, int n, double lo, double span, double dmin, int periodic)
{
    /* Cells a hair wider than dmin, so rounding in the cell index never hides a neighbour;
     * at most about 4n cells, so a tiny dmin does not exhaust memory. */
    const double cap = cbrt(4.0 * n + 64.0);
    double m = floor(span / (dmin * (1.0 + 1e-9)));
    if (m > cap)
        m = floor(cap);
    if (m < 1 || (periodic && m < 3)) /* periodic wrap needs 3 distinct neighbour cells */
        m = 1;
    g->m = (int)m;
    g->lo = lo;
    g->h = span / g->m;
    g->head = malloc((size_t)g->m * g->m * g->m * sizeof *g->head);
    g->next = malloc((size_t)n * sizeof *g->next);
    if (!g->head || !g->next) {
        free(g->head);
        free(g->next);
        return tb_error(NULL, 0, "out of host memory for a cell grid of %d^3 cells", g->m);
    }
    for (long c = 0; c < (long)g->m * g->m * g->m; c++)
        g->head[c] = -1;
    return 0;
}

void grid_free(init_grid *g)
{
    free(g->head);
    free(g->next);
}



/* The 27 neighbour offsets, nearest first: the cell itself, its 6 faces, 12 edges, 8 corners,
 * so that a test that is blocked (most of them near jamming) stops sooner. */
static const signed char walk_order[27][3] = {
    {0, 0, 0},   {-1, 0, 0},  {1, 0, 0},   {0, -1, 0},  {0, 1, 0},   {0, 0, -1},  {0, 0, 1},
    {-1, -1, 0}, {1, -1, 0},  {-1, 1, 0},  {1, 1, 0},   {-1, 0, -1}, {1, 0, -1},  {-1, 0, 1},
    {1, 0, 1},   {0, -1, -1}, {0, 1, -1},  {0, -1, 1},  {0, 1, 1},   {-1, -1, -1}, {1, -1, -1},
    {-1, 1, -1}, {1, 1, -1},  {-1, -1, 1}, {1, -1, 1},  {-1, 1, 1},  {1, 1, 1}};

/* 1 when some placed particle j has far2(c, p_j, e) < dmin^2. With e = 0: the point c is
 * closer than dmin to j, so it is not available. With e = hv/2: the whole cube of centre c
 * and edge hv lies within dmin of j, so no point of it is available. Both need only the
 * 27 cells around c, since e < h / 2. With near != NULL, collects instead (up to *n_near,
 * which returns the count) every j with far2(c, p_j, 0) < (dmin + e)^2 and returns 0.
 * A neighbour cell is skipped when even its nearest point is too far: a particle in it lies at
 * least gap_a from c along each axis a (the distance from c to the cell's slab, less a margin of
 * 1e-9 h for the rounding of cell indices), so far2 >= sum (gap_a + e)^2; the verdicts are
 * those of visiting every cell. */
static int blocked_walk(const init_grid *g, const double *pos, const double c[3], double e,
                        double dmin, double L, int *near, int *n_near, int first)
{
    const double d2min = near ? (dmin + e) * (dmin + e) : dmin * dmin, ee = near ? 0.0 : e;
    const int m = g->m, cc[3] = {grid_coord(g, c[0]), grid_coord(g, c[1]), grid_coord(g, c[2])};
    const int room = near ? *n_near : 0;
    long idx[3][3]; /* [axis][offset + 1]: the cell coordinate (times the axis' stride), -1 none */
    double gap2[3][3]; /* [axis][offset + 1]: (gap + ee)^2 */
    int found = 0;
    for (int a = 0; a < 3; a++) {
        const long stride = a == 0 ? 1 : a == 1 ? m : (long)m * m;
        const double f = c[a] - (g->lo + cc[a] * g->h), tol = 1e-9 * g->h;
        const int inside = f >= 0 && f <= g->h; /* c clamped into an edge cell: no skipping */
        for (int d = -1; d <= 1; d++) {
            int k = cc[a] + d;
            double gap = d == 0 || !inside ? 0.0 : d < 0 ? f - tol : g->h - f - tol;
            gap = gap > 0 ? gap + ee : ee;
            gap2[a][d + 1] = gap * gap;
            if (m == 1 && d != 0)
                k = -1; /* one cell per edge: only itself */
            else if (L > 0)
                k = (k + m) % m;
            idx[a][d + 1] = k < 0 || k >= m ? -1 : k * stride;
        }
    }
    for (int o = 0; o < 27; o++) {
        const int dx = walk_order[o][0] + 1, dy = walk_order[o][1] + 1, dz = walk_order[o][2] + 1;
        if (idx[0][dx] < 0 || idx[1][dy] < 0 || idx[2][dz] < 0 ||
            gap2[0][dx] + gap2[1][dy] + gap2[2][dz] >= d2min)
            continue;
        /* a cell's list runs from its newest particle down (grid_insert) */
        for (int j = g->head[idx[0][dx] + idx[1][dy] + idx[2][dz]]; j >= first; j = g->next[j]) {
            if (far2(c, pos + 3 * j, ee, L) >= d2min)
                continue;
            if (!near)
                return 1;
            if (found < room)
                near[found] = j;
            found++;
        }
    }
    if (near)
        *n_near = found;
    return 0;
}

int grid_blocked(const init_grid *g, const double *pos, const double c[3], double e, double dmin,
                 double L, int *near, int *n_near)
{
    return blocked_walk(g, pos, c, e, dmin, L, near, n_near, 0);
}

int grid_blocked_since(const init_grid *g, const double *pos, const double c[3], double e,
                       double dmin, double L, int first)
{
    return blocked_walk(g, pos, c, e, dmin, L, NULL, NULL, first > 0 ? first : 0);
}

void grid_insert(init_grid *g, const double p[3], int i)
{
    const long c = ((long)grid_coord(g, p[2]) * g->m + grid_coord(g, p[1])) * g->m +
                   grid_coord(g, p[0]);
    g->next[i] = g->head[c];
    g->head[c] = i;
}


static unsigned long long vox_pack(long ix, long iy, long iz)
{
    return (unsigned long long)ix | (unsigned long long)iy << VOX_BITS |
           (unsigned long long)iz << (2 * VOX_BITS);
}

/* Centre of cube v into c[3]. */
void vox_centre(const init_grid *g, const init_voxels *vx, unsigned long long v, double c[3])
{
    for (int a = 0; a < 3; a++)
        c[a] = g->lo + ((double)((v >> (a * VOX_BITS)) & VOX_MASK) + 0.5) * vx->hv;
}

/* 1 when the cube of centre c and edge hv meets the domain: the box, or the sphere of
 * radius R when L = 0. */
int vox_in_domain(const double c[3], double hv, double L, double R)
{
    double r2 = 0.0;
    if (L > 0)
        return 1;
    for (int a = 0; a < 3; a++) { /* the point of the cube nearest the origin */
        const double x = fabs(c[a]) - 0.5 * hv;
        r2 += x > 0 ? x * x : 0.0;
    }
    return r2 < R * R;
}

/* 1 when cube v may hold an available point: inside the domain and not within dmin of
 * one placed particle. */
int vox_open(const init_grid *g, const init_voxels *vx, unsigned long long v,
                    const double *pos, double dmin, double L, double R)
{
    double c[3];
    vox_centre(g, vx, v, c);
    return vox_in_domain(c, vx->hv, L, R) &&
           !grid_blocked(g, pos, c, 0.5 * vx->hv, dmin, L, NULL, NULL);
}

static int vox_push(init_voxels *vx, unsigned long long v)
{
    if (vx->n == vx->cap) {
        const long cap = vx->cap ? 2 * vx->cap : 4096;
        unsigned long long *p = realloc(vx->v, (size_t)cap * sizeof *p);
        if (!p)
            return tb_error(NULL, 0, "out of host memory for %ld voxels", cap);
        vx->v = p;
        vx->cap = cap;
    }
    vx->v[vx->n++] = v;
    return 0;
}

/* Lists the open cubes of edge h / 2 (level 0), cell by cell: each z layer's cubes tested in
 * parallel (OpenMP; the tests only read the grid), then listed in the one order. */
int vox_build(init_voxels *vx, const init_grid *g, const double *pos, double dmin,
                     double L, double R)
{
    const long side = 2L * g->m;
    unsigned char *open = malloc((size_t)side * side);
    vx->level = 0;
    vx->hv = g->h / 2;
    vx->n = 0;
    if (!open)
        return tb_error(NULL, 0, "out of host memory for %ld voxels", side * side);
    for (long iz = 0; iz < side; iz++) {
#pragma omp parallel for schedule(static)
        for (long q = 0; q < side * side; q++)
            open[q] = (unsigned char)vox_open(g, vx, vox_pack(q % side, q / side, iz), pos, dmin, L, R);
        for (long q = 0; q < side * side; q++)
            if (open[q] && vox_push(vx, vox_pack(q % side, q / side, iz)) != 0) {
                free(open);
                return -1;
            }
    }
    free(open);
    return 0;
}

/* The particles of the 27 cells around one grid cell, copied out once and reused by the parents
 * of a split that follow in that cell (the list runs in space order, a few parents in a row), so
 * that each gathers its near particles from a few hundred bytes instead of walking the grid. */
#define NEAR_CACHE 256
typedef struct near_cache {
    long cell;               /* the grid cell, -1 none */
    int n, over;             /* particles held; over: more than NEAR_CACHE (ask the grid) */
    int id[NEAR_CACHE];
    double p[NEAR_CACHE][3]; /* their positions, the same doubles */
} near_cache;

/* grid_blocked's gather (near mode) for the cube of centre c: the particles j of the 27 cells
 * with far2(c, p_j, 0) < (dmin + e)^2 into near (up to room), their count returned. The same set
 * as the grid walk's (it visits those 27 cells and skips only particles that fail the test), in
 * another order, which the split's verdicts do not depend on. */
static int near_gather(near_cache *nc, const init_grid *g, const double *pos, const double c[3],
                       double e, double dmin, double L, int *near, int room)
{
    const int m = g->m, cc[3] = {grid_coord(g, c[0]), grid_coord(g, c[1]), grid_coord(g, c[2])};
    const long cell = ((long)cc[2] * m + cc[1]) * m + cc[0];
    const double d2 = (dmin + e) * (dmin + e);
    int found = 0;
    if (nc->cell != cell) {
        const int reach = m == 1 ? 0 : 1;
        nc->cell = cell;
        nc->n = nc->over = 0;
        for (int dz = -reach; dz <= reach && !nc->over; dz++)
            for (int dy = -reach; dy <= reach && !nc->over; dy++)
                for (int dx = -reach; dx <= reach; dx++) {
                    int x = cc[0] + dx, y = cc[1] + dy, z = cc[2] + dz;
                    if (L > 0) {
                        x = (x + m) % m;
                        y = (y + m) % m;
                        z = (z + m) % m;
                    } else if (x < 0 || y < 0 || z < 0 || x >= m || y >= m || z >= m) {
                        continue;
                    }
                    for (int j = g->head[((long)z * m + y) * m + x]; j >= 0; j = g->next[j]) {
                        if (nc->n == NEAR_CACHE) {
                            nc->over = 1;
                            break;
                        }
                        nc->id[nc->n] = j;
                        memcpy(nc->p[nc->n++], pos + 3 * j, sizeof nc->p[0]);
                    }
                }
    }
    if (nc->over) {
        found = room;
        grid_blocked(g, pos, c, e, dmin, L, near, &found);
        return found;
    }
    for (int t = 0; t < nc->n; t++)
        if (far2(c, nc->p[t], 0.0, L) < d2) {
            if (found < room)
                near[found] = nc->id[t];
            found++;
        }
    return found;
}

/* Splits every cube in 8, keeping the open eighths. Returns 1 when split; 0, the list
 * unchanged, when it may not be split (level, coordinate bits) or the split list would
 * pass cap cubes; -1 on failure. */
int vox_refine(init_voxels *vx, const init_grid *g, const double *pos, double dmin,
                      double L, double R, long cap)
{
    /* Each parent gathers the particles that can reach any point of it, once; its
     * eighths are checked against those alone. The parents are tested in parallel (OpenMP:
     * a mask of open eighths each, the grid only read), then listed in their order. */
    const double d2min = dmin * dmin, ep = 0.5 * vx->hv, ec = 0.5 * ep;
    init_voxels out;
    unsigned char *mask;
    if (vx->level >= VOX_MAX_LEVEL || ((long)g->m << (vx->level + 2)) > (long)VOX_MASK)
        return 0;
    memset(&out, 0, sizeof out);
    out.level = vx->level + 1;
    out.hv = vx->hv / 2;
    if (!(mask = malloc((size_t)vx->n + 1)))
        return tb_error(NULL, 0, "out of host memory for %ld voxels", vx->n);
    /* In chunks, counting the open eighths as it goes: a split that would pass cap stops at
     * the chunk where it does, not after testing every parent. */
    for (long k0 = 0, total = 0; k0 < vx->n; k0 += VOX_CHUNK) {
        const long k1 = k0 + VOX_CHUNK < vx->n ? k0 + VOX_CHUNK : vx->n;
#pragma omp parallel reduction(+ : total)
        {
            near_cache *nc = malloc(sizeof *nc); /* NULL: the grid walk */
            if (nc)
                nc->cell = -1;
#pragma omp for schedule(dynamic, 4096)
            for (long k = k0; k < k1; k++) {
                const unsigned long long v = vx->v[k];
                const long ix = (long)(v & VOX_MASK), iy = (long)((v >> VOX_BITS) & VOX_MASK),
                           iz = (long)((v >> (2 * VOX_BITS)) & VOX_MASK);
                double c[3];
                int near[VOX_NEAR], nn = VOX_NEAR, parent_covered = 0;
                unsigned char m = 0;
                vox_centre(g, vx, v, c);
                mask[k] = 0;
                if (!vox_in_domain(c, vx->hv, L, R))
                    continue;
                /* A particle covering the parent or an eighth lies within dmin + sqrt(3) ep / 2 of
                 * c. One the 27 cells miss is not gathered; the cube then stays listed, which is
                 * safe: the list may hold too much, never too little. */
                if (nc)
                    nn = near_gather(nc, g, pos, c, 0.5 * sqrt(3.0) * ep, dmin, L, near, VOX_NEAR);
                else
                    grid_blocked(g, pos, c, 0.5 * sqrt(3.0) * ep, dmin, L, near, &nn);
                if (nn > VOX_NEAR) /* a crowd: the grid's verdict, not that of the first gathered */
                    parent_covered = grid_blocked(g, pos, c, ep, dmin, L, NULL, NULL);
                for (int t = 0; t < nn && t < VOX_NEAR && !parent_covered; t++)
                    parent_covered = far2(c, pos + 3 * near[t], ep, L) < d2min;
                if (parent_covered)
                    continue;
                for (int b = 0; b < 8; b++) {
                    const unsigned long long w =
                        vox_pack(2 * ix + (b & 1), 2 * iy + ((b >> 1) & 1), 2 * iz + (b >> 2));
                    double cc[3];
                    int open;
                    vox_centre(g, &out, w, cc);
                    open = vox_in_domain(cc, out.hv, L, R);
                    if (open && nn > VOX_NEAR) /* a crowd: ask the grid */
                        open = !grid_blocked(g, pos, cc, ec, dmin, L, NULL, NULL);
                    for (int t = 0; open && nn <= VOX_NEAR && t < nn; t++)
                        open = far2(cc, pos + 3 * near[t], ec, L) >= d2min;
                    m |= (unsigned char)(open << b);
                }
                mask[k] = m;
                total += __builtin_popcount(m);
            }
            free(nc);
        }
        if (total > cap) {
            free(mask);
            return 0;
        }
    }
    for (long k = 0; k < vx->n; k++) {
        const unsigned long long v = vx->v[k];
        const long ix = (long)(v & VOX_MASK), iy = (long)((v >> VOX_BITS) & VOX_MASK),
                   iz = (long)((v >> (2 * VOX_BITS)) & VOX_MASK);
        for (int b = 0; b < 8; b++)
            if ((mask[k] >> b & 1) &&
                vox_push(&out, vox_pack(2 * ix + (b & 1), 2 * iy + ((b >> 1) & 1),
                                        2 * iz + (b >> 2))) != 0) {
                free(out.v);
                free(mask);
                return -1;
            }
        if (out.n > cap) {
            free(out.v);
            free(mask);
            return 0;
        }
    }
    free(mask);
    free(vx->v);
    *vx = out;
    return 1;
}
