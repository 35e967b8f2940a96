/* init_random.c — random initial positions (system.init.type = "random"), see init.h.
 *
 * Random: random sequential addition. Candidates are uniform in the sphere |r| < R (open)
 *   or the box [0, L)^3 (periodic, minimum-image distances); one closer than min_distance
 *   to a placed particle is drawn again. Placed particles sit in a cell grid whose cells
 *   are at least min_distance wide, so a check looks at 27 cells, not at every particle.
 *   Near the jamming limit of random sequential addition (packing fraction 0.38; the
 *   defaults, density 0.7 at min_distance 1, are at 0.37) almost every candidate is
 *   rejected, so candidates then come from a list of small cubes that together hold every
 *   available point (init_vox.c): the same distribution, far fewer rejections.
 *   Building and splitting that list test their cubes in parallel (OpenMP), listing them
 *   in one fixed order, so the positions do not depend on the thread count. The plain
 *   candidates are drawn ahead in batches and tested in parallel against the grid as it was
 *   (plain_batch below), those still open tested again in turn against the particles placed
 *   since: the sequential verdicts, so the same positions bit for bit (tests/test_init_gen.c).
 *   The draws from the list are speculated in windows the same way (init_draws.c).
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
#include "solver/io/init_vox.h"

#define INIT_PLAIN_MEAN 16   /* candidates per particle, on average, before the voxel list */
#define INIT_PLAIN_MAX 2000  /* candidates for one particle before the voxel list */

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

static void progress_step(void *pg, int i, int n)
{
    progress_show(pg, i, n, 0);
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
    int first;              /* particles in the grid at the refill */
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
                         int first, int m, double dmin, double L, double R)
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
    pb->first = first;
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
        int tries = 0;
        while (!use_voxels && !placed && tries < INIT_PLAIN_MAX) {
            long k;
            tries++;
            if (pb.next == pb.n) {
                const double want = (n - i) * mean_tries * 1.25 + 16.0;
                plain_refill(&pb, rng, &g, s->pos, i, want < pb.cap ? (int)want : pb.cap, dmin, L,
                             R);
            }
            k = pb.next++;
            memcpy(p, pb.p + 3 * k, 3 * sizeof *p);
            /* blocked then: blocked now (the grid only grows); open then: open now unless a
             * particle placed since blocks it */
            placed = dmin <= 0 || (!pb.blocked[k] && !grid_blocked_since(&g, s->pos, p, 0.0, dmin,
                                                                         L, pb.first));
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
        if (use_voxels) { /* the rest comes from the list (init_draws.c) */
            vox_ctx x = {&g, &vx, s->pos, n, dmin, L, R, vox_cap, rng, 0, LONG_MAX,
                         progress_step, &pg};
            int bad = n;
            if (placed)
                grid_insert(&g, p, i);
            if ((rc = vox_place(&x, placed ? i + 1 : i, &bad)) > 0) {
                if (L > 0)
                    tb_error(c->path[0] ? c->path : NULL, 0,
                             "system.init.min_distance: cannot place particle %d of %d at "
                             "min_distance %g in box %g (lower min_distance or raise system.box)",
                             bad + 1, n, dmin, L);
                else
                    tb_error(c->path[0] ? c->path : NULL, 0,
                             "system.init.min_distance: cannot place particle %d of %d at "
                             "min_distance %g in radius %g (lower min_distance or raise "
                             "system.init.radius)",
                             bad + 1, n, dmin, R);
                rc = TB_EXIT_USAGE;
            }
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

