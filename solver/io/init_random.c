/* init_random.c — random initial positions (system.init.type = "random"), see init.h.
 *
 * Random: random sequential addition. Candidates are uniform in the sphere |r| < R (open)
 *   or the box [0, L)^3 (periodic, minimum-image distances); one closer than min_distance
 *   to a placed particle is drawn again. Placed particles sit in a cell grid whose cells
 *   are at least min_distance wide, so a check looks at 27 cells, not at every particle.
 *   Near the jamming limit of random sequential addition (packing fraction 0.38; the
 *   defaults, density 0.7 at min_distance 1, are at 0.37) almost every candidate is
 *   rejected, so candidates then come from a list of small cubes that together hold every
 *   available point (init_voxels below): the same distribution, far fewer rejections.
 *   Building and splitting that list test their cubes in parallel (OpenMP), listing them
 *   in one fixed order, so the positions do not depend on the thread count. The plain
 *   candidates are drawn ahead in batches and tested in parallel against the grid as it was
 *   (plain_batch below), those still open tested again in turn: the sequential verdicts, so
 *   the same positions bit for bit (tests/test_init_gen.c). The draws from the list stay
 *   sequential (each rejection's stream position depends on the verdict before it).
 *   100000 particles at the defaults take a few seconds. A particle that still finds no
 *   room after INIT_ATTEMPTS rejections at the finest cubes is an error. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/check.h"
#include "common/phase.h"
#include "solver/io/init_gen.h"

#define INIT_PLAIN_MEAN 16   /* candidates per particle, on average, before the voxel list */
#define INIT_PLAIN_MAX 2000  /* candidates for one particle before the voxel list */
#define INIT_ATTEMPTS 100000 /* rejections per particle at the finest voxels before giving up */

/* A cell grid over [lo, lo + m h)^3 holding the particles placed so far (linked lists). */
typedef struct init_grid {
    int m;        /* cells per edge */
    double lo, h; /* origin and cell edge, h >= min_distance */
    int *head;    /* [m^3] first particle of each cell, -1 when empty */
    int *next;    /* [n] next particle in the same cell */
} init_grid;

static int grid_alloc(init_grid *g, int n, double lo, double span, double dmin, int periodic)
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

static void grid_free(init_grid *g)
{
    free(g->head);
    free(g->next);
}

static int grid_coord(const init_grid *g, double x)
{
    int c = (int)floor((x - g->lo) / g->h);
    return c < 0 ? 0 : c >= g->m ? g->m - 1 : c;
}

/* sum_a (|c_a - p_a| + e)^2, minimum image when L > 0: the squared distance from p to the
 * farthest point of the cube of centre c and half-edge e (e = 0: to the point c). Both
 * points lie in [0, L]^3 when periodic, so one shift by L gives the minimum image. */
static double far2(const double c[3], const double *p, double e, double L)
{
    double r2 = 0.0;
    for (int d = 0; d < 3; d++) {
        double x = c[d] - p[d];
        if (L > 0 && x > 0.5 * L)
            x -= L;
        else if (L > 0 && x < -0.5 * L)
            x += L;
        x = fabs(x) + e;
        r2 += x * x;
    }
    return r2;
}

/* 1 when some placed particle j has far2(c, p_j, e) < dmin^2. With e = 0: the point c is
 * closer than dmin to j, so it is not available. With e = hv/2: the whole cube of centre c
 * and edge hv lies within dmin of j, so no point of it is available. Both need only the
 * 27 cells around c, since e < h / 2. With near != NULL, collects instead (up to *n_near,
 * which returns the count) every j with far2(c, p_j, 0) < (dmin + e)^2 and returns 0. */
static int grid_blocked(const init_grid *g, const double *pos, const double c[3], double e,
                        double dmin, double L, int *near, int *n_near)
{
    const double d2min = near ? (dmin + e) * (dmin + e) : dmin * dmin, ee = near ? 0.0 : e;
    const int m = g->m, cc[3] = {grid_coord(g, c[0]), grid_coord(g, c[1]), grid_coord(g, c[2])};
    const int reach = m == 1 ? 0 : 1, room = near ? *n_near : 0;
    int found = 0;
    for (int dz = -reach; dz <= reach; dz++)
        for (int dy = -reach; dy <= reach; dy++)
            for (int dx = -reach; dx <= reach; dx++) {
                int cx = cc[0] + dx, cy = cc[1] + dy, cz = cc[2] + dz;
                if (L > 0) {
                    cx = (cx + m) % m;
                    cy = (cy + m) % m;
                    cz = (cz + m) % m;
                } else if (cx < 0 || cy < 0 || cz < 0 || cx >= m || cy >= m || cz >= m) {
                    continue;
                }
                for (int j = g->head[((long)cz * m + cy) * m + cx]; j >= 0; j = g->next[j]) {
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

static void grid_insert(init_grid *g, const double p[3], int i)
{
    const long c = ((long)grid_coord(g, p[2]) * g->m + grid_coord(g, p[1])) * g->m +
                   grid_coord(g, p[0]);
    g->next[i] = g->head[c];
    g->head[c] = i;
}

/* The voxel list of random sequential addition near jamming (after Zhang & Torquato,
 * Phys. Rev. E 88, 053312 (2013)). Equal cubes of edge hv = h / 2^(level+1) on the grid
 * whose union contains every available point of the domain: a cube is dropped only when it
 * lies outside the domain or within dmin of one placed particle. A cube drawn uniformly,
 * then a point uniformly in it, is a point drawn uniformly from the union; rejecting the
 * unavailable ones leaves the same distribution as drawing from the whole domain, with
 * far fewer rejections. When rejections pile up, every cube is split in 8 and the covered
 * eighths dropped, which follows the shrinking gaps. */
typedef struct init_voxels {
    unsigned long long *v; /* packed (ix, iy, iz), 21 bits each */
    long n, cap;           /* cubes listed, room for */
    int level;
    double hv; /* cube edge [sigma] */
} init_voxels;

#define VOX_BITS 21
#define VOX_MASK ((1ULL << VOX_BITS) - 1)
#define VOX_MAX_LEVEL 10
#define VOX_NEAR 64 /* particles gathered around one cube when splitting it */
#define VOX_CHUNK (1L << 20) /* parents split per parallel pass */

static unsigned long long vox_pack(long ix, long iy, long iz)
{
    return (unsigned long long)ix | (unsigned long long)iy << VOX_BITS |
           (unsigned long long)iz << (2 * VOX_BITS);
}

/* Centre of cube v into c[3]. */
static void vox_centre(const init_grid *g, const init_voxels *vx, unsigned long long v, double c[3])
{
    for (int a = 0; a < 3; a++)
        c[a] = g->lo + ((double)((v >> (a * VOX_BITS)) & VOX_MASK) + 0.5) * vx->hv;
}

/* 1 when the cube of centre c and edge hv meets the domain: the box, or the sphere of
 * radius R when L = 0. */
static int vox_in_domain(const double c[3], double hv, double L, double R)
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
static int vox_open(const init_grid *g, const init_voxels *vx, unsigned long long v,
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
static int vox_build(init_voxels *vx, const init_grid *g, const double *pos, double dmin,
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

/* Splits every cube in 8, keeping the open eighths. Returns 1 when split; 0, the list
 * unchanged, when it may not be split (level, coordinate bits) or the split list would
 * pass cap cubes; -1 on failure. */
static int vox_refine(init_voxels *vx, const init_grid *g, const double *pos, double dmin,
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
#pragma omp parallel for schedule(dynamic, 4096) reduction(+ : total)
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
            grid_blocked(g, pos, c, 0.5 * sqrt(3.0) * ep, dmin, L, near, &nn);
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

/* A progress line on stderr, when it is a terminal, for a placement that takes more than a
 * second (10^6 particles take tens of seconds): how many are placed, redrawn at most twice a
 * second; done = 1 ends the line. The clock is read every 64 particles (20 ns each). */
typedef struct init_progress {
    int on;          /* stderr is a terminal */
    int shown;       /* a line was drawn */
    double t0, last; /* start, last line [s] */
} init_progress;

static double mono_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void progress_show(init_progress *pg, int i, int n, int done)
{
    if (!pg->on || (!done && (i & 63) != 0))
        return;
    const double t = mono_seconds();
    if (done ? !pg->shown : t - pg->t0 < 1.0 || t - pg->last < 0.5)
        return;
    pg->last = t;
    pg->shown = 1;
    fprintf(stderr, "\rsystem.init: placing particles at random: %d of %d (%.0f%%), %.0f s%s", i,
            n, 100.0 * i / n, t - pg->t0, done ? "\n" : "   ");
}

/* ---- boxes other than a cube: the box's lattice coordinates ------------------------------ */

/* A cell grid over the fractions (u, v, w) of a box: m[a] cells along axis a, each at least
 * dmin wide in perpendicular width, so a particle closer than dmin (by the minimum image)
 * to a point lies in its cell or a neighbouring one along every axis. */
typedef struct frac_grid {
    int m[3];  /* cells per axis; 1 on a periodic axis narrower than 3 cells */
    int *head; /* [m0 m1 m2] first particle of each cell, -1 when empty */
    int *next; /* [n] next particle in the same cell */
} frac_grid;

static int frac_grid_alloc(frac_grid *g, const tb_box_d *b, int n, double dmin)
{
    double w[3], cells = 1.0;
    box_widths_d(b, w);
    for (int a = 0; a < 3; a++) {
        const double m = floor(w[a] / (dmin * (1.0 + 1e-9)));
        g->m[a] = m < 1 || ((b->pbc >> a & 1) && m < 3) ? 1 : m > 1e6 ? 1000000 : (int)m;
        cells *= g->m[a];
    }
    for (int a = 0; a < 3 && cells > 4.0 * n + 64; a++) { /* a tiny dmin: at most ~4n cells */
        const int m = (int)ceil(g->m[a] / cbrt(cells / (4.0 * n + 64)));
        cells = cells / g->m[a] * (m < 3 ? 1 : m);
        g->m[a] = m < 3 ? 1 : m;
    }
    const long nc = (long)g->m[0] * g->m[1] * g->m[2];
    g->head = malloc((size_t)nc * sizeof *g->head);
    g->next = malloc((size_t)n * sizeof *g->next);
    if (!g->head || !g->next)
        return tb_error(NULL, 0, "out of host memory for a cell grid of %ld cells", nc);
    for (long c = 0; c < nc; c++)
        g->head[c] = -1;
    return 0;
}

static void frac_grid_free(frac_grid *g)
{
    free(g->head);
    free(g->next);
}

static int frac_coord(const frac_grid *g, int a, double f)
{
    const int c = (int)floor(f * g->m[a]);
    return c < 0 ? 0 : c >= g->m[a] ? g->m[a] - 1 : c;
}

/* 1 when some placed particle lies closer than dmin to x (fractions f), by minimum image. */
static int frac_blocked(const frac_grid *g, const tb_box_d *b, const double *pos,
                        const double x[3], const double f[3], double dmin)
{
    int lo[3], hi[3];
    for (int a = 0; a < 3; a++) {
        const int c = frac_coord(g, a, f[a]), reach = g->m[a] > 1;
        lo[a] = c - reach;
        hi[a] = c + reach;
        if (!(b->pbc >> a & 1)) { /* an open axis: no neighbour past its ends */
            lo[a] = lo[a] < 0 ? 0 : lo[a];
            hi[a] = hi[a] >= g->m[a] ? g->m[a] - 1 : hi[a];
        }
    }
    for (int cz = lo[2]; cz <= hi[2]; cz++)
        for (int cy = lo[1]; cy <= hi[1]; cy++)
            for (int cx = lo[0]; cx <= hi[0]; cx++) {
                const int k[3] = {(cx + g->m[0]) % g->m[0], (cy + g->m[1]) % g->m[1],
                                  (cz + g->m[2]) % g->m[2]};
                for (int j = g->head[((long)k[2] * g->m[1] + k[1]) * g->m[0] + k[0]]; j >= 0;
                     j = g->next[j]) {
                    double d[3] = {x[0] - pos[3 * j], x[1] - pos[3 * j + 1], x[2] - pos[3 * j + 2]};
                    box_min_image_d(b, d);
                    if (d[0] * d[0] + d[1] * d[1] + d[2] * d[2] < dmin * dmin)
                        return 1;
                }
            }
    return 0;
}

/* Random positions in a box that is not a periodic cube (orthorhombic, triclinic, a slab):
 * fractions (u, v, w) uniform in [0, 1)^3, x = lo + u a + v b + w c, so an open axis takes
 * its given extent [lo, lo + l); a candidate closer than dmin to a placed particle (minimum
 * image) is drawn again, at most INIT_ATTEMPTS times per particle. No voxel list here: near
 * the jamming limit (packing fraction 0.38) placement fails where the cube's would not. */
static int init_random_box(sim_state *s, const sim_config *c)
{
    const int n = s->n;
    const tb_box_d *b = &s->box;
    const double dmin = c->system.init.min_distance;
    frac_grid g;
    gsl_rng *rng;
    int rc = 0;

    memset(&g, 0, sizeof g);
    if (dmin > 0 && frac_grid_alloc(&g, b, n, dmin) != 0) {
        frac_grid_free(&g);
        return -1;
    }
    if (!(rng = init_rng_new(init_seed32(c->system.seed)))) {
        frac_grid_free(&g);
        return tb_error(NULL, 0, "out of host memory for the random number generator");
    }
    for (int i = 0; i < n && rc == 0; i++) {
        double *x = s->pos + 3 * i, f[3];
        long tries = 0;
        do {
            for (int a = 0; a < 3; a++)
                f[a] = gsl_rng_uniform(rng);
            x[0] = b->lo[0] + f[0] * b->l[0] + f[1] * b->xy + f[2] * b->xz;
            x[1] = b->lo[1] + f[1] * b->l[1] + f[2] * b->yz;
            x[2] = b->lo[2] + f[2] * b->l[2];
        } while (dmin > 0 && frac_blocked(&g, b, s->pos, x, f, dmin) && ++tries < INIT_ATTEMPTS);
        if (tries >= INIT_ATTEMPTS) {
            tb_error(c->path[0] ? c->path : NULL, 0,
                     "system.init.min_distance: cannot place particle %d of %d at min_distance "
                     "%g in a box of %g x %g x %g (lower min_distance or raise system.box)",
                     i + 1, n, dmin, b->l[0], b->l[1], b->l[2]);
            rc = TB_EXIT_USAGE;
        } else if (dmin > 0) {
            const long k = ((long)frac_coord(&g, 2, f[2]) * g.m[1] + frac_coord(&g, 1, f[1])) *
                               g.m[0] + frac_coord(&g, 0, f[0]);
            g.next[i] = g.head[k];
            g.head[k] = i;
        }
    }
    gsl_rng_free(rng);
    frac_grid_free(&g);
    return rc;
}

/* ---- the plain candidates, tested in parallel batches --------------------------------- */

int init_random_batch = 32768;

/* Candidates drawn ahead of their use, in the stream's order, and tested in parallel against
 * the grid as it was when they were drawn. The grid only grows, so a candidate blocked then
 * is blocked when its turn comes; one open then is tested again, in order, against the grid
 * of its turn: the same verdicts as testing each in turn, so the same positions bit for bit,
 * for any batch size and thread count. */
typedef struct plain_batch {
    double *p;              /* [3 cap] candidates */
    unsigned char *blocked; /* [cap] blocked by the grid as it was at the refill */
    long *draws;            /* [cap] the stream's draws up to and including candidate k */
    int n, next, cap;       /* candidates held, the next one to use, room */
    gsl_rng *mark;          /* the stream at the refill */
} plain_batch;

static int plain_alloc(plain_batch *pb, int cap)
{
    memset(pb, 0, sizeof *pb);
    pb->cap = cap < 1 ? 1 : cap;
    pb->p = malloc((size_t)pb->cap * 3 * sizeof *pb->p);
    pb->blocked = malloc((size_t)pb->cap);
    pb->draws = malloc((size_t)pb->cap * sizeof *pb->draws);
    pb->mark = gsl_rng_alloc(gsl_rng_mt19937);
    if (!pb->p || !pb->blocked || !pb->draws || !pb->mark) {
        free(pb->p);
        free(pb->blocked);
        free(pb->draws);
        if (pb->mark)
            gsl_rng_free(pb->mark);
        return tb_error(NULL, 0, "out of host memory for %d candidates", pb->cap);
    }
    return 0;
}

static void plain_free(plain_batch *pb)
{
    free(pb->p);
    free(pb->blocked);
    free(pb->draws);
    if (pb->mark)
        gsl_rng_free(pb->mark);
}

/* m candidates (1 <= m <= cap) drawn from rng, uniform in [0, L)^3 or the sphere of radius R,
 * then tested in parallel (OpenMP; the grid only read). */
static void plain_refill(plain_batch *pb, gsl_rng *rng, const init_grid *g, const double *pos,
                         int m, double dmin, double L, double R)
{
    long draws = 0;
    gsl_rng_memcpy(pb->mark, rng);
    if (m < 1)
        m = 1;
    for (int k = 0; k < m; k++) {
        double *p = pb->p + 3 * k;
        if (L > 0) {
            for (int d = 0; d < 3; d++)
                p[d] = L * gsl_rng_uniform(rng);
            draws += 3;
        } else {
            do {
                for (int d = 0; d < 3; d++)
                    p[d] = R * (2.0 * gsl_rng_uniform(rng) - 1.0);
                draws += 3;
            } while (p[0] * p[0] + p[1] * p[1] + p[2] * p[2] >= R * R);
        }
        pb->draws[k] = draws;
    }
    if (dmin > 0) {
#pragma omp parallel for schedule(static) if (m >= 256)
        for (int k = 0; k < m; k++)
            pb->blocked[k] =
                (unsigned char)grid_blocked(g, pos, pb->p + 3 * k, 0.0, dmin, L, NULL, NULL);
    }
    pb->n = m;
    pb->next = 0;
}

/* Puts rng where it would be had only the candidates used so far been drawn, and empties pb. */
static void plain_rewind(plain_batch *pb, gsl_rng *rng)
{
    if (pb->n > 0) {
        gsl_rng_memcpy(rng, pb->mark);
        for (long t = pb->next > 0 ? pb->draws[pb->next - 1] : 0; t > 0; t--)
            (void)gsl_rng_get(rng);
    }
    pb->n = pb->next = 0;
}

/* Random positions: uniform in the sphere of radius R (L = 0) or in [0, L)^3, no two
 * closer than dmin. Candidates come from the whole domain until they get expensive (more
 * than INIT_PLAIN_MEAN per particle in a running mean over about 256, and the particles
 * left would cost more than building the voxel list) or one particle needs INIT_PLAIN_MAX;
 * then from the voxel list. */
int init_random(sim_state *s, const sim_config *c)
{
    if (s->box.pbc && !init_box_is_cube(&s->box))
        return init_random_box(s, c);
    const int n = s->n;
    const double L = s->box.pbc ? s->box.l[0] : 0.0, dmin = c->system.init.min_distance;
    const double R = c->system.init.radius > 0 ? c->system.init.radius
                                               : cbrt(3.0 * n / (4.0 * M_PI * INIT_DENSITY));
    const double lo = L > 0 ? 0.0 : -R, span = L > 0 ? L : 2.0 * R;
    /* at most 16 n cubes (at least 4M), and below 2^32 for gsl_rng_uniform_int */
    const long vox_cap = 16L * n < (1L << 22)   ? (1L << 22)
                         : 16L * n < (1L << 31) ? 16L * n
                                                : (1L << 31);
    init_grid g;
    init_voxels vx;
    gsl_rng *rng;
    long since_refine = 0; /* rejections from the voxel list since it was last split */
    long split_below = LONG_MAX; /* a split that passed vox_cap is retried below this size */
    double mean_tries = 1.0; /* running mean of the candidates per particle */
    int rc = 0, use_voxels = 0;
    init_progress pg = {isatty(STDERR_FILENO), 0, mono_seconds(), 0.0};
    plain_batch pb;

    memset(&g, 0, sizeof g);
    memset(&vx, 0, sizeof vx);
    if (dmin > 0 && grid_alloc(&g, n, lo, span, dmin, L > 0) != 0)
        return -1;
    if (!(rng = init_rng_new(init_seed32(c->system.seed)))) {
        grid_free(&g);
        return tb_error(NULL, 0, "out of host memory for the random number generator");
    }
    if (plain_alloc(&pb, init_random_batch) != 0) {
        gsl_rng_free(rng);
        grid_free(&g);
        return -1;
    }
    for (int i = 0; i < n && rc == 0; i++) {
        double *p = s->pos + 3 * i;
        int placed = 0;
        progress_show(&pg, i, n, 0);
        long fails = 0;
        int tries = 0;
        while (!use_voxels && !placed && tries < INIT_PLAIN_MAX) {
            long k;
            tries++;
            if (pb.next == pb.n) {
                const double want = (n - i) * mean_tries * 1.25 + 16.0;
                plain_refill(&pb, rng, &g, s->pos, want < pb.cap ? (int)want : pb.cap, dmin, L, R);
            }
            k = pb.next++;
            memcpy(p, pb.p + 3 * k, 3 * sizeof *p);
            /* blocked then: blocked now (the grid only grows); open then: ask the grid now */
            placed = dmin <= 0 ||
                     (!pb.blocked[k] && !grid_blocked(&g, s->pos, p, 0.0, dmin, L, NULL, NULL));
        }
        mean_tries += (tries - mean_tries) / 256.0;
        /* Switch when the rest would cost, at the present rate, more than building the
         * list (8 m^3 cube checks) and the rate is poor. */
        if (!use_voxels && (!placed || (mean_tries > INIT_PLAIN_MEAN &&
                                        mean_tries * (n - i) > 8.0 * g.m * g.m * g.m))) {
            plain_rewind(&pb, rng); /* the stream as if only the used candidates were drawn */
            tb_phase("init_plain");
            if (vox_build(&vx, &g, s->pos, dmin, L, R) != 0) {
                rc = -1;
                break;
            }
            use_voxels = 1;
            tb_phase("init_voxel_build");
        }
        while (!placed) {
            long k;
            if (vx.n == 0)
                break; /* jammed: no open cube left */
            k = (long)gsl_rng_uniform_int(rng, (unsigned long)vx.n);
            if (!vox_open(&g, &vx, vx.v[k], s->pos, dmin, L, R)) {
                vx.v[k] = vx.v[--vx.n]; /* covered since it was listed */
                continue;
            }
            vox_centre(&g, &vx, vx.v[k], p);
            for (int d = 0; d < 3; d++)
                p[d] += vx.hv * (gsl_rng_uniform(rng) - 0.5);
            if ((L > 0 || p[0] * p[0] + p[1] * p[1] + p[2] * p[2] < R * R) &&
                !grid_blocked(&g, s->pos, p, 0.0, dmin, L, NULL, NULL)) {
                placed = 1;
                break;
            }
            fails++;
            /* Splitting costs about 8 vx.n cube checks, a rejection about one: split once
             * the rejections since the last split have cost an eighth of that (measured:
             * splitting sooner or later is slower). */
            if (++since_refine > (vx.n / 8 > 256 ? vx.n / 8 : 256) && vx.n < split_below) {
                tb_phase("init_draws");
                const int r = vox_refine(&vx, &g, s->pos, dmin, L, R, vox_cap);
                tb_phase(r > 0 ? "init_voxel_split" : "init_voxel_split_refused");
                if (r < 0) {
                    rc = -1;
                    break;
                }
                if (r > 0)
                    since_refine = 0;
                else
                    split_below = vx.n / 2;
            }
            if (fails > INIT_ATTEMPTS && vx.n >= split_below)
                break; /* as fine as the list may get, and still no room */
        }
        if (rc != 0)
            break;
        if (!placed) {
            if (L > 0)
                tb_error(c->path[0] ? c->path : NULL, 0,
                         "system.init.min_distance: cannot place particle %d of %d at "
                         "min_distance %g in box %g (lower min_distance or raise system.box)",
                         i + 1, n, dmin, L);
            else
                tb_error(c->path[0] ? c->path : NULL, 0,
                         "system.init.min_distance: cannot place particle %d of %d at "
                         "min_distance %g in radius %g (lower min_distance or raise "
                         "system.init.radius)",
                         i + 1, n, dmin, R);
            rc = TB_EXIT_USAGE;
            break;
        }
        if (dmin > 0)
            grid_insert(&g, p, i);
    }
    progress_show(&pg, rc == 0 ? n : 0, n, 1);
    plain_free(&pb);
    free(vx.v);
    gsl_rng_free(rng);
    grid_free(&g);
    return rc;
}

