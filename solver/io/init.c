/* init.c — initial positions (random cluster or box, fcc lattice, XYZ file) and
 * Maxwell–Boltzmann velocities (see init.h).
 *
 * Random: random sequential addition. Candidates are uniform in the sphere |r| < R (open)
 *   or the box [0, L)^3 (periodic, minimum-image distances); one closer than min_distance
 *   to a placed particle is drawn again. Placed particles sit in a cell grid whose cells
 *   are at least min_distance wide, so a check looks at 27 cells, not at every particle.
 *   Near the jamming limit of random sequential addition (packing fraction 0.38; the
 *   defaults, density 0.7 at min_distance 1, are at 0.37) almost every candidate is
 *   rejected, so candidates then come from a list of small cubes that together hold every
 *   available point (init_voxels below): the same distribution, far fewer rejections.
 *   100000 particles at the defaults take a few seconds. A particle that still finds no
 *   room after INIT_ATTEMPTS rejections at the finest cubes is an error.
 * Lattice: fcc is the set of points h (i, j, k) with integer i + j + k even, h = d / sqrt 2,
 *   whose nearest neighbours lie at distance d. Open boundaries take the n sites with the
 *   smallest i^2 + j^2 + k^2 (exact integers, so ties are real ties), ties broken by the
 *   generation order (i, then j, then k ascending); then the centre of mass is moved to
 *   the origin. Periodic boundaries use m^3 conventional cells of edge a = L / m, m the
 *   smallest with 4 m^3 >= n, and take the first n sites in this order: cells with x
 *   fastest, then y, then z; within a cell the basis (0,0,0), (0,1/2,1/2), (1/2,0,1/2),
 *   (1/2,1/2,0) a. With 4 m^3 > n the vacancies are the last sites, in the top z layer.
 * Random numbers: GSL mt19937. Positions use the seed itself (its two 32-bit halves
 *   xor-ed together, since mt19937 takes 32 bits: the identity below 2^32); velocities use
 *   a stream seeded from a hash of the seed, so they are not a function of the position
 *   draws. Everything runs in one fixed order: the same seed gives the same bits. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "common/check.h"
#include "solver/box.h"
#include "config/units.h"
#include "solver/io/init.h"
#include "solver/io/lammps_data.h"
#include "solver/io/xyz.h"

#define INIT_PLAIN_MEAN 16   /* candidates per particle, on average, before the voxel list */
#define INIT_PLAIN_MAX 2000  /* candidates for one particle before the voxel list */
#define INIT_ATTEMPTS 100000 /* rejections per particle at the finest voxels before giving up */
#define INIT_DENSITY 0.7     /* default number density of a random cluster [sigma^-3] */
#define INIT_COMPRESSED 0.8  /* periodic lattice: notice below this neighbour distance [sigma] */

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* mt19937 uses the low 32 bits of its seed; fold the high half in. */
static unsigned long seed32(unsigned long long x)
{
    return (unsigned long)((x ^ (x >> 32)) & 0xffffffffULL);
}

/* splitmix64 (Steele, Lea, Flood 2014): a bijective hash of the seed for the velocity stream. */
static unsigned long long splitmix64(unsigned long long x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static gsl_rng *rng_new(unsigned long seed)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    if (r)
        gsl_rng_set(r, seed);
    return r;
}

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

/* Lists the open cubes of edge h / 2 (level 0), cell by cell. */
static int vox_build(init_voxels *vx, const init_grid *g, const double *pos, double dmin,
                     double L, double R)
{
    const long side = 2L * g->m;
    vx->level = 0;
    vx->hv = g->h / 2;
    vx->n = 0;
    for (long iz = 0; iz < side; iz++)
        for (long iy = 0; iy < side; iy++)
            for (long ix = 0; ix < side; ix++) {
                const unsigned long long v = vox_pack(ix, iy, iz);
                if (vox_open(g, vx, v, pos, dmin, L, R) && vox_push(vx, v) != 0)
                    return -1;
            }
    return 0;
}

/* Splits every cube in 8, keeping the open eighths. Returns 1 when split; 0, the list
 * unchanged, when it may not be split (level, coordinate bits) or the split list would
 * pass cap cubes; -1 on failure. */
static int vox_refine(init_voxels *vx, const init_grid *g, const double *pos, double dmin,
                      double L, double R, long cap)
{
    /* Each parent gathers the particles that can reach any point of it, once; its
     * eighths are checked against those alone. */
    const double d2min = dmin * dmin, ep = 0.5 * vx->hv, ec = 0.5 * ep;
    int near[VOX_NEAR];
    init_voxels out;
    if (vx->level >= VOX_MAX_LEVEL || ((long)g->m << (vx->level + 2)) > (long)VOX_MASK)
        return 0;
    memset(&out, 0, sizeof out);
    out.level = vx->level + 1;
    out.hv = vx->hv / 2;
    for (long k = 0; k < vx->n; k++) {
        const unsigned long long v = vx->v[k];
        const long ix = (long)(v & VOX_MASK), iy = (long)((v >> VOX_BITS) & VOX_MASK),
                   iz = (long)((v >> (2 * VOX_BITS)) & VOX_MASK);
        double c[3];
        int nn = VOX_NEAR, parent_covered = 0;
        vox_centre(g, vx, v, c);
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
            if (open && vox_push(&out, w) != 0) {
                free(out.v);
                return -1;
            }
        }
        if (out.n > cap) {
            free(out.v);
            return 0;
        }
    }
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

/* Random positions: uniform in the sphere of radius R (L = 0) or in [0, L)^3, no two
 * closer than dmin. Candidates come from the whole domain until they get expensive (more
 * than INIT_PLAIN_MEAN per particle in a running mean over about 256, and the particles
 * left would cost more than building the voxel list) or one particle needs INIT_PLAIN_MAX;
 * then from the voxel list. */
static int init_random(sim_state *s, const sim_config *c)
{
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

    memset(&g, 0, sizeof g);
    memset(&vx, 0, sizeof vx);
    if (dmin > 0 && grid_alloc(&g, n, lo, span, dmin, L > 0) != 0)
        return -1;
    if (!(rng = rng_new(seed32(c->system.seed)))) {
        grid_free(&g);
        return tb_error(NULL, 0, "out of host memory for the random number generator");
    }
    for (int i = 0; i < n && rc == 0; i++) {
        double *p = s->pos + 3 * i;
        int placed = 0;
        progress_show(&pg, i, n, 0);
        long fails = 0;
        int tries = 0;
        while (!use_voxels && !placed && tries < INIT_PLAIN_MAX) {
            tries++;
            if (L > 0) {
                for (int d = 0; d < 3; d++)
                    p[d] = L * gsl_rng_uniform(rng);
            } else {
                do {
                    for (int d = 0; d < 3; d++)
                        p[d] = R * (2.0 * gsl_rng_uniform(rng) - 1.0);
                } while (p[0] * p[0] + p[1] * p[1] + p[2] * p[2] >= R * R);
            }
            placed = dmin <= 0 || !grid_blocked(&g, s->pos, p, 0.0, dmin, L, NULL, NULL);
        }
        mean_tries += (tries - mean_tries) / 256.0;
        /* Switch when the rest would cost, at the present rate, more than building the
         * list (8 m^3 cube checks) and the rate is poor. */
        if (!use_voxels && (!placed || (mean_tries > INIT_PLAIN_MEAN &&
                                        mean_tries * (n - i) > 8.0 * g.m * g.m * g.m))) {
            if (vox_build(&vx, &g, s->pos, dmin, L, R) != 0) {
                rc = -1;
                break;
            }
            use_voxels = 1;
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
                const int r = vox_refine(&vx, &g, s->pos, dmin, L, R, vox_cap);
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
    free(vx.v);
    gsl_rng_free(rng);
    grid_free(&g);
    return rc;
}

/* One fcc site of the open cluster: integer coordinates in units of h = d / sqrt 2. */
typedef struct fcc_site {
    long r2; /* i^2 + j^2 + k^2 */
    int idx; /* generation order, the tie-break */
    int ijk[3];
} fcc_site;

static int fcc_site_cmp(const void *a, const void *b)
{
    const fcc_site *x = a, *y = b;
    if (x->r2 != y->r2)
        return x->r2 < y->r2 ? -1 : 1;
    return (x->idx > y->idx) - (x->idx < y->idx);
}

/* Open boundaries: the n fcc sites nearest a lattice site, centre of mass at the origin. */
static int init_lattice_open(sim_state *s, double d)
{
    const int n = s->n;
    const double h = d / sqrt(2.0);
    /* The ball of radius M (units h) holds about (4/3) pi M^3 / 2 sites; the cube
     * [-M, M]^3 holds every site of that ball, so the n nearest are all generated once the
     * n-th lies within distance M. Usually the first M does. */
    int M = (int)ceil(cbrt(3.0 * n / (2.0 * M_PI))) + 2;
    for (;;) {
        const long side = 2L * M + 1, cap = (side * side * side + 1) / 2;
        fcc_site *site = malloc((size_t)cap * sizeof *site);
        int ns = 0;
        if (!site)
            return tb_error(NULL, 0, "out of host memory for %ld lattice sites", cap);
        for (int i = -M; i <= M; i++)
            for (int j = -M; j <= M; j++)
                for (int k = -M; k <= M; k++) {
                    if ((i + j + k) % 2 != 0)
                        continue;
                    site[ns].r2 = (long)i * i + (long)j * j + (long)k * k;
                    site[ns].idx = ns;
                    site[ns].ijk[0] = i;
                    site[ns].ijk[1] = j;
                    site[ns].ijk[2] = k;
                    ns++;
                }
        qsort(site, (size_t)ns, sizeof *site, fcc_site_cmp);
        if (ns >= n && site[n - 1].r2 <= (long)M * M) {
            double com[3] = {0.0, 0.0, 0.0};
            for (int p = 0; p < n; p++)
                for (int a = 0; a < 3; a++) {
                    s->pos[3 * p + a] = h * site[p].ijk[a];
                    com[a] += s->pos[3 * p + a];
                }
            free(site);
            for (int a = 0; a < 3; a++)
                com[a] /= n;
            for (int p = 0; p < n; p++)
                for (int a = 0; a < 3; a++)
                    s->pos[3 * p + a] -= com[a];
            return 0;
        }
        free(site);
        M += 2;
    }
}

/* Periodic boundaries: the first n sites of an m^3-cell fcc lattice filling [0, L)^3. */
static void init_lattice_periodic(sim_state *s, double sigma)
{
    static const double basis[4][3] = {{0, 0, 0}, {0, 0.5, 0.5}, {0.5, 0, 0.5}, {0.5, 0.5, 0}};
    const int n = s->n;
    const double L = s->box.l[0];
    int m = (int)cbrt(n / 4.0);
    double a, nn;
    while (4L * m * m * m < n)
        m++;
    while (m > 1 && 4L * (m - 1) * (m - 1) * (m - 1) >= n)
        m--;
    a = L / m;
    for (int p = 0; p < n; p++) {
        const int b = p % 4, cell = p / 4;
        const int ix = cell % m, iy = (cell / m) % m, iz = cell / (m * m);
        s->pos[3 * p + 0] = a * (ix + basis[b][0]);
        s->pos[3 * p + 1] = a * (iy + basis[b][1]);
        s->pos[3 * p + 2] = a * (iz + basis[b][2]);
    }
    nn = a / sqrt(2.0);
    if (nn < INIT_COMPRESSED * sigma)
        tb_notice("system.init: the fcc lattice of %d^3 cells in box %g has nearest-neighbour "
                  "distance %g < %g sigma: the lattice is compressed (raise system.box or lower "
                  "system.particles)",
                  m, L, nn, INIT_COMPRESSED);
}

/* A file's box against the configured cutoffs: each at most half the smallest periodic
 * width, as the config checks system.box (config_checks.c), here once the box is known. */
static int check_file_cutoffs(const sim_state *s, const sim_config *c)
{
    const double half = box_half_width_d(&s->box);
    const char *file = c->system.init.file;
    if (!(half > 0))
        return 0;
    if (c->potential.lj.enabled && cfg_lj_cutoff_max(c) > half)
        return tb_error(file, 0, "system.init.file: %s %.17g exceeds half the smallest periodic "
                                 "width of the file's box (%.17g)",
                        c->potential.lj.n_pairs > 0 ? "a cutoff of potential.lj.pairs"
                                                    : "potential.lj.cutoff",
                        cfg_lj_cutoff_max(c), half);
    if (c->potential.atm.cutoff > half)
        return tb_error(file, 0, "system.init.file: potential.atm.cutoff %.17g exceeds half the "
                                 "smallest periodic width of the file's box (%.17g)",
                        c->potential.atm.cutoff, half);
    return 0;
}

/* s allocated for c's particles, of c's species, in c's box. */
static int init_allocated(sim_state *s, const sim_config *c)
{
    const int n = c->system.particles;
    const tb_box_d box = cfg_box(c);
    int rc = 0;
    if (n < 1)
        rc = tb_error(NULL, 0, "system.particles must be >= 1 (got %d)", n);
    else if (!(c->system.mass > 0))
        rc = tb_error(NULL, 0, "system.mass must be > 0 (got %g)", c->system.mass);
    for (int a = 0; a < 3 && rc == 0; a++)
        if ((box.pbc >> a & 1) && !(box.l[a] > 0))
            rc = tb_error(NULL, 0, "system.box must be > 0 along a periodic axis (got %g along "
                                   "%c)", box.l[a], 'x' + a);
    if (rc != 0)
        return TB_EXIT_USAGE;
    if (sim_state_alloc(s, n) != 0)
        return -1;
    sim_set_species(s, c);
    s->box = box;
    return 0;
}

/* The box of an XYZ state: system.box when given (the frame's Lattice unused); else the
 * frame's cell (Lattice, Origin, pbc), whose periodicity must be system.boundary's when that
 * is given, checked against the cutoffs; else open boundaries, which system.boundary must
 * then allow. */
static int xyz_box(sim_state *s, const sim_config *c, int has_cell)
{
    int per[3];
    const char *file = c->system.init.file;
    cfg_periodic(c, per);
    if (c->system.box_group || c->system.box > 0) {
        s->box = cfg_box(c);
        return 0;
    }
    if (!has_cell) {
        if (per[0] || per[1] || per[2]) {
            tb_error(file, 2, "system.init.file: the frame has no periodic Lattice, and "
                              "system.boundary = \"%s\" needs a box: give system.box or a "
                              "Lattice with pbc", cfg_boundary_name(c->system.boundary));
            return TB_EXIT_USAGE;
        }
        return 0;
    }
    if (c->system.boundary_given && (unsigned)s->box.pbc != ((unsigned)per[0] | (unsigned)per[1] << 1 |
                                                             (unsigned)per[2] << 2)) {
        tb_error(file, 2, "system.init.file: the frame's pbc=\"%c %c %c\" is not "
                          "system.boundary's (%c%c%c)", s->box.pbc & 1 ? 'T' : 'F',
                 s->box.pbc & 2 ? 'T' : 'F', s->box.pbc & 4 ? 'T' : 'F', per[0] ? 'p' : 'f',
                 per[1] ? 'p' : 'f', per[2] ? 'p' : 'f');
        return TB_EXIT_USAGE;
    }
    return check_file_cutoffs(s, c) != 0 ? TB_EXIT_USAGE : 0;
}

/* A generated state (random, lattice) of c's particles in c's box. */
static int init_generated(sim_state *s, const sim_config *c)
{
    const int periodic = c->system.boundary != CFG_BOUNDARY_OPEN;
    const tb_box_d box = cfg_box(c);
    const int cube = box.pbc == TB_BOX_PERIODIC_ALL && !box.tilted && box.l[0] == box.l[1] &&
                     box.l[1] == box.l[2];
    int rc;
    if ((rc = init_allocated(s, c)) != 0)
        return rc;
    if (periodic && !cube) {
        tb_error(c->path, 0, "system.init.type = \"%s\": generated states fill a "
                        "periodic cube or an open cluster so far; give this box's particles in "
                        "a file (system.init.type = \"xyz\" or \"lammps\")",
                        cfg_init_name(c->system.init.type));
        return TB_EXIT_USAGE;
    }
    if (c->system.init.type == CFG_INIT_RANDOM)
        return init_random(s, c);
    if (periodic) {
        const double sigma = c->potential.lj.enabled && c->potential.lj.sigma > 0
                                 ? c->potential.lj.sigma
                                 : 1.0;
        init_lattice_periodic(s, sigma);
        return 0;
    }
    if (!(c->system.init.min_distance > 0)) {
        tb_error(NULL, 0, "system.init.min_distance must be > 0 for an fcc lattice (got %g)",
                 c->system.init.min_distance);
        return TB_EXIT_USAGE;
    }
    return init_lattice_open(s, c->system.init.min_distance);
}

int sim_init(sim_state *s, const sim_config *c)
{
    int rc = 0, has_vel = 0, has_cell = 0;

    memset(s, 0, sizeof *s);
    switch (c->system.init.type) {
    case CFG_INIT_RANDOM:
    case CFG_INIT_LATTICE:
        rc = init_generated(s, c);
        break;
    case CFG_INIT_XYZ:
        rc = xyz_read(c->system.init.file, "system.init.file", c, s, &has_vel, &has_cell);
        if (rc == 0)
            rc = xyz_box(s, c, has_cell);
        break;
    case CFG_INIT_LAMMPS:
        rc = lmp_data_read(c->system.init.file, "system.init.file", c, s, &has_vel);
        if (rc == 0 && check_file_cutoffs(s, c) != 0)
            rc = TB_EXIT_USAGE;
        break;
    default:
        tb_error(NULL, 0, "system.init.type: unknown initial state %d", c->system.init.type);
        rc = TB_EXIT_USAGE;
    }
    if (rc != 0) {
        sim_state_free(s);
        return rc;
    }
    sim_place(s);
    if ((rc = sim_check_extent(s, c->solver.precision, c->path)) != 0) {
        sim_state_free(s);
        return rc;
    }
    /* An explicit temperature wins over velocities read from the file (docs/config.md). */
    if (has_vel && c->system.init.temperature_set)
        tb_notice("system.init.temperature = %g replaces the velocities read from %s",
                  c->system.init.temperature, c->system.init.file);
    if (!has_vel || c->system.init.temperature_set)
        sim_init_velocities(s, c->system.init.temperature, c->system.seed);
    return 0;
}

/* The bounding box of the positions: lo[3], hi[3]. */
static void bounding_box(const sim_state *s, double lo[3], double hi[3])
{
    for (int d = 0; d < 3; d++)
        lo[d] = hi[d] = s->n > 0 ? s->pos[d] : 0.0;
    for (long i = 0; i < 3L * s->n; i++) {
        const int d = (int)(i % 3);
        if (s->pos[i] < lo[d])
            lo[d] = s->pos[i];
        if (s->pos[i] > hi[d])
            hi[d] = s->pos[i];
    }
}

void sim_place(sim_state *s)
{
    const tb_box_d box = s->box;
    if (box_periodic_d(&box)) {
        /* the wrap leaves a position already in the box as it is, bit for bit */
        for (int i = 0; i < s->n; i++) {
            double *x = s->pos + 3 * i;
            box_wrap_d(&box, x);
            /* rounding can land on the far face itself; in a tilted box a Cartesian
             * coordinate outside [lo, lo + l) is no sign of that, and the minimum image
             * takes a fraction a hair off [0, 1) as it is */
            for (int a = 0; a < 3 && !box.tilted; a++)
                if (box.pbc >> a & 1 && (x[a] >= box.lo[a] + box.l[a] || x[a] < box.lo[a]))
                    x[a] = box.lo[a];
        }
        return;
    }
    double lo[3], hi[3];
    bounding_box(s, lo, hi);
    for (int d = 0; d < 3; d++) {
        if (lo[d] <= 0 && hi[d] >= 0)
            continue; /* the origin is inside: coordinates are no larger than the extent */
        const double c = 0.5 * (lo[d] + hi[d]);
        for (int i = 0; i < s->n; i++)
            s->pos[3 * i + d] -= c;
    }
}

int sim_check_extent(const sim_state *s, int precision, const char *where)
{
    double lo[3], hi[3], ext = 0.0;
    if (precision == CFG_PREC_DOUBLE)
        return 0;
    bounding_box(s, lo, hi);
    for (int d = 0; d < 3; d++) {
        const double e = s->box.pbc >> d & 1 ? s->box.l[d] : hi[d] - lo[d];
        if (e > ext)
            ext = e;
    }
    if (ext > SIM_FLOAT_EXTENT_MAX) {
        tb_error(where, 0, "the system extends over %g sigma, more than the %g sigma that "
                           "solver.precision = \"%s\" can resolve (float): use "
                           "solver.precision = \"double\"", ext, SIM_FLOAT_EXTENT_MAX,
                 cfg_precision_name(precision));
        return TB_EXIT_USAGE;
    }
    return 0;
}

void sim_init_velocities(sim_state *s, double T, unsigned long seed)
{
    const long n3 = 3L * s->n;
    const double kb = units_of(s->units)->boltz;
    double vcm[3] = {0.0, 0.0, 0.0}, t_now, scale;
    gsl_rng *rng;

    memset(s->vel, 0, (size_t)n3 * sizeof *s->vel);
    if (!(T > 0) || s->n < 2)
        return;
    /* No memory for the generator leaves zero velocities and says so; the run is still
     * well defined (this function returns nothing to keep its callers simple). */
    if (!(rng = rng_new(seed32(splitmix64(seed ^ 0x76656c6f63697479ULL))))) {
        tb_error(NULL, 0, "out of host memory for the random number generator: zero velocities");
        return;
    }
    for (long i = 0; i < n3; i++)
        s->vel[i] = gsl_ran_gaussian(rng, sqrt(kb * T / sim_mass(s, (int)(i / 3))));
    gsl_rng_free(rng);
    for (long i = 0; i < n3; i++)
        vcm[i % 3] += s->vel[i];
    for (int d = 0; d < 3; d++)
        vcm[d] /= s->n;
    for (long i = 0; i < n3; i++)
        s->vel[i] -= vcm[i % 3];
    t_now = sim_temperature(s);
    if (!(t_now > 0))
        return;
    scale = sqrt(T / t_now);
    for (long i = 0; i < n3; i++)
        s->vel[i] *= scale;
}
