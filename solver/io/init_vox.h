/* init_vox.h — the random placement's cell grid and voxel list (io/ internal, init_vox.c): shared
 * by the plain candidates (init_random.c) and the draws from the list (init_draws.c). */
#ifndef TB_INIT_VOX_H
#define TB_INIT_VOX_H

#include <math.h>

#include "solver/io/init_gen.h"

#define INIT_ATTEMPTS 100000 /* rejections per particle at the finest voxels before giving up */

/* A cell grid over [lo, lo + m h)^3 holding the particles placed so far (linked lists). */
typedef struct init_grid {
    int m;        /* cells per edge */
    double lo, h; /* origin and cell edge, h >= min_distance */
    int *head;    /* [m^3] first particle of each cell, -1 when empty */
    int *next;    /* [n] next particle in the same cell */
} init_grid;

/* A grid for n particles over [lo, lo + span)^3, cells at least dmin wide. 0 or -1 (reported). */
int grid_alloc(init_grid *g, int n, double lo, double span, double dmin, int periodic);
void grid_free(init_grid *g);

static inline int grid_coord(const init_grid *g, double x)
{
    int c = (int)floor((x - g->lo) / g->h);
    return c < 0 ? 0 : c >= g->m ? g->m - 1 : c;
}

/* sum_a (|c_a - p_a| + e)^2, minimum image when L > 0: the squared distance from p to the
 * farthest point of the cube of centre c and half-edge e (e = 0: to the point c). Both
 * points lie in [0, L]^3 when periodic, so one shift by L gives the minimum image. */
static inline double far2(const double c[3], const double *p, double e, double L)
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

/* 1 when some particle of the grid lies within dmin of point c (e = 0) or covers the whole cube
 * of centre c and half-edge e; see init_vox.c. */
int grid_blocked(const init_grid *g, const double *pos, const double c[3], double e, double dmin,
                 double L, int *near, int *n_near);
/* grid_blocked's test against the particles first, first + 1, ... alone (those placed since the
 * grid held first particles: the grid's verdict when the older ones do not block c). */
int grid_blocked_since(const init_grid *g, const double *pos, const double c[3], double e,
                       double dmin, double L, int first);
/* Inserts particle i, after 0 .. i-1: each cell's list runs from its newest particle down. */
void grid_insert(init_grid *g, const double p[3], int i);

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

void vox_centre(const init_grid *g, const init_voxels *vx, unsigned long long v, double c[3]);
int vox_in_domain(const double c[3], double hv, double L, double R);
/* 1 when cube v may hold an available point. */
int vox_open(const init_grid *g, const init_voxels *vx, unsigned long long v, const double *pos,
             double dmin, double L, double R);
/* The level-0 list: every open cube of edge h / 2. 0 or -1 (reported). */
int vox_build(init_voxels *vx, const init_grid *g, const double *pos, double dmin, double L,
              double R);
/* Every cube split in 8, the open eighths kept: 1; 0 when it may not be or the result would pass
 * cap cubes (list unchanged); -1 on failure (reported). */
int vox_refine(init_voxels *vx, const init_grid *g, const double *pos, double dmin, double L,
               double R, long cap);

/* Cube v's point at fractions u[3] in [0, 1): its centre plus hv (u - 1/2) per axis, the one
 * formula of both forms of the draws. */
static inline void vox_point(const init_grid *g, const init_voxels *vx, unsigned long long v,
                             const double u[3], double p[3])
{
    vox_centre(g, vx, v, p);
    for (int d = 0; d < 3; d++)
        p[d] += vx->hv * (u[d] - 0.5);
}

/* The draws from the voxel list (init_draws.c): the state they carry and change. */
typedef struct vox_ctx {
    init_grid *g;
    init_voxels *vx;
    double *pos;       /* [3 n] placed particles; the draws write pos[i0 ..] */
    int n;
    double dmin, L, R; /* min distance; the cube's edge (periodic) or 0 and the sphere's radius */
    long cap;          /* most cubes a split may list */
    gsl_rng *rng;      /* the placement's stream, left where the sequential draws leave it */
    long since_refine; /* rejections since the list was last split */
    long split_below;  /* a split that passed cap is retried below this size */
    void (*progress)(void *arg, int i, int n); /* called as particle i is placed */
    void *progress_arg;
} vox_ctx;

/* Places particles i0 .. n-1 from the list, grid_insert-ing each: 0; 1 with *bad the particle
 * that found no room (not reported); -1 on failure (reported). */
int vox_place(vox_ctx *x, int i0, int *bad);
/* Stream outputs speculated per window of the draws (init_draws.c): 0 the sequential draws, a
 * positive count the windows, -1 (the default) windows of 4096 with 4 threads or more. Every
 * value gives the same positions (tests/test_init_gen.c). */
extern int init_random_window;

#endif
