/* init_draws.c — the random placement's draws from the voxel list (init_vox.h), the last phase
 * of random sequential addition near jamming (init_random.c), in two forms that give the same
 * positions bit for bit.
 *
 * The sequential draw: a cube k uniform among the vx->n listed (gsl_rng_uniform_int: one stream
 * output, more when it rejects), dropped (swapped with the last) when a placed particle now
 * covers it; else a point uniform in it (three outputs), placed when no particle lies within
 * dmin. Each draw's stream position and list depend on the verdicts before it, and the two
 * verdicts are grid walks through memory (about 1 us a draw at 10^6 particles: 5 M draws).
 *
 * The windows: M outputs are drawn ahead; for every output t, the draw that would start there
 * (cube (out[t] - min) / scale of the list as it is, its verdict) is worked out in parallel
 * (OpenMP) against the grid as it is, then, at the starts the walk will reach if nothing is
 * placed, the point from out[t+1 .. t+3] and its verdict (in parallel again). Then the
 * sequential draws are walked through the outputs, taking each verdict from there, which gives
 * the sequential verdicts because
 *   - the grid only grows: blocked then is blocked now; open then is open now unless one of the
 *     particles placed since the window began blocks it, and those few are tested again, each
 *     only where the grid's 27 cells would have found it (the same set the grid walk visits);
 *   - the cube at slot k is the window's unless a drop in the window rewrote slot k (those slots
 *     are noted, and their draws re-tested in full), and output t names the same slot unless
 *     the list's drops have changed uniform_int's scale (range / vx->n) so that it does not
 *     (then the draw is re-tested in full too);
 *   - a split of the list, the outputs' end, or no room ends the window; the stream is then put
 *     where the walk left it (a copy from the window's start, advanced by the outputs used).
 * About 3.5 outputs per draw, so the parallel work is about twice the sequential (3.5 cube
 * tests and one point test per draw, against one and 0.8); with 16 threads the draws of 10^6
 * particles take a fraction of their sequential time. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "common/check.h"
#include "common/phase.h"
#include "solver/io/init_vox.h"

int init_random_window = -1;

/* Verdicts of the draw starting at a window's output t. */
enum { W_NONE = 0, /* the output is rejected by uniform_int, or no draw was worked out */
       W_COVERED,  /* the cube is covered */
       W_NOPOINT,  /* the cube is open; its point not worked out (off the predicted starts) */
       W_BLOCKED,  /* the cube is open, its point blocked (or outside the sphere) */
       W_FREE };   /* the cube is open, its point free */

/* The point's verdict against the whole grid: inside the domain and no particle within dmin. */
static int point_free(const vox_ctx *x, const double p[3])
{
    return (x->L > 0 || p[0] * p[0] + p[1] * p[1] + p[2] * p[2] < x->R * x->R) &&
           !grid_blocked(x->g, x->pos, p, 0.0, x->dmin, x->L, NULL, NULL);
}

/* After a rejected point: count it, and split the list when the rejections since the last split
 * have cost an eighth of a split (a split costs about 8 vx->n cube checks, a rejection about
 * one; measured: sooner or later is slower). 1 when a split was tried, 0 when not, -1 on
 * failure. */
static int after_reject(vox_ctx *x)
{
    init_voxels *vx = x->vx;
    if (++x->since_refine > (vx->n / 8 > 256 ? vx->n / 8 : 256) && vx->n < x->split_below) {
        tb_phase("init_draws");
        const int r = vox_refine(vx, x->g, x->pos, x->dmin, x->L, x->R, x->cap);
        tb_phase(r > 0 ? "init_voxel_split" : "init_voxel_split_refused");
        if (r < 0)
            return -1;
        if (r > 0)
            x->since_refine = 0;
        else
            x->split_below = vx->n / 2;
        return 1;
    }
    return 0;
}

/* One sequential draw for particle i into p: 1 placed, 0 rejected (or the cube dropped), 2 no
 * room left (jammed, or as fine as the list may get and still none), -1 failure. */
static int draw_once(vox_ctx *x, double *p, long *fails)
{
    init_voxels *vx = x->vx;
    double u[3];
    if (vx->n == 0)
        return 2; /* jammed: no open cube left */
    const long k = (long)gsl_rng_uniform_int(x->rng, (unsigned long)vx->n);
    if (!vox_open(x->g, vx, vx->v[k], x->pos, x->dmin, x->L, x->R)) {
        vx->v[k] = vx->v[--vx->n]; /* covered since it was listed */
        return 0;
    }
    for (int d = 0; d < 3; d++)
        u[d] = gsl_rng_uniform(x->rng);
    vox_point(x->g, vx, vx->v[k], u, p);
    if (point_free(x, p))
        return 1;
    ++*fails;
    if (after_reject(x) < 0)
        return -1;
    return *fails > INIT_ATTEMPTS && vx->n >= x->split_below ? 2 : 0;
}

/* The particles placed in the present window, with their cells, for the re-tests. */
typedef struct win_new {
    int *id, (*cell)[3];
    int n;
} win_new;

/* 1 when a particle placed in this window blocks the cube of centre c and half-edge e (e = 0:
 * the point c): the grid walk's test, for those particles in the 27 cells it visits. */
static int new_blocks(const vox_ctx *x, const win_new *w, const double c[3], double e)
{
    const init_grid *g = x->g;
    const int m = g->m, cc[3] = {grid_coord(g, c[0]), grid_coord(g, c[1]), grid_coord(g, c[2])};
    for (int t = 0; t < w->n; t++) {
        int near = 1;
        for (int a = 0; a < 3 && near && m > 1; a++) {
            const int d = w->cell[t][a] - cc[a];
            near = x->L > 0 ? (d + m) % m <= 1 || (d + m) % m == m - 1 : d >= -1 && d <= 1;
        }
        if (near && far2(c, x->pos + 3 * w->id[t], e, x->L) < x->dmin * x->dmin)
            return 1;
    }
    return 0;
}

/* Slots of the list rewritten in this window: a small open-addressing set. */
typedef struct win_dirty {
    long *slot; /* [size], -1 when empty */
    long size, n;
} win_dirty;

static int dirty_has(const win_dirty *h, long k)
{
    for (long at = (k * 0x9E3779B97F4A7C15ULL) >> 20 & (h->size - 1); h->slot[at] >= 0;
         at = (at + 1) & (h->size - 1))
        if (h->slot[at] == k)
            return 1;
    return 0;
}

static void dirty_add(win_dirty *h, long k)
{
    long at = (k * 0x9E3779B97F4A7C15ULL) >> 20 & (h->size - 1);
    while (h->slot[at] >= 0 && h->slot[at] != k)
        at = (at + 1) & (h->size - 1);
    h->n += h->slot[at] < 0;
    h->slot[at] = k;
}

/* A window's buffers. */
typedef struct window {
    long m;                   /* outputs per window */
    unsigned long *out;       /* [m] the stream's outputs */
    unsigned long *slot;      /* [m] the slot of the list the draw at t takes */
    unsigned long long *cube; /* [m] its cube */
    unsigned char *verdict;   /* [m] W_* */
    double *pt;               /* [3 m] its point */
    long *at;                 /* [m] the outputs whose points are worked out */
    win_new nw;
    win_dirty dirty;
    gsl_rng *mark;            /* the stream at the window's start */
} window;

static void window_free(window *w)
{
    free(w->out);
    free(w->slot);
    free(w->cube);
    free(w->verdict);
    free(w->pt);
    free(w->at);
    free(w->nw.id);
    free(w->nw.cell);
    free(w->dirty.slot);
    if (w->mark)
        gsl_rng_free(w->mark);
}

static int window_alloc(window *w, long m, const gsl_rng *rng)
{
    memset(w, 0, sizeof *w);
    w->m = m;
    for (w->dirty.size = 64; w->dirty.size < 2 * m; w->dirty.size *= 2)
        ;
    w->out = malloc((size_t)m * sizeof *w->out);
    w->slot = malloc((size_t)m * sizeof *w->slot);
    w->cube = malloc((size_t)m * sizeof *w->cube);
    w->verdict = malloc((size_t)m);
    w->pt = malloc((size_t)m * 3 * sizeof *w->pt);
    w->at = malloc((size_t)m * sizeof *w->at);
    w->nw.id = malloc((size_t)(m / 4 + 1) * sizeof *w->nw.id);
    w->nw.cell = malloc((size_t)(m / 4 + 1) * sizeof *w->nw.cell);
    w->dirty.slot = malloc((size_t)w->dirty.size * sizeof *w->dirty.slot);
    w->mark = gsl_rng_clone(rng);
    if (!w->out || !w->slot || !w->cube || !w->verdict || !w->pt || !w->at || !w->nw.id || !w->nw.cell ||
        !w->dirty.slot || !w->mark) {
        window_free(w);
        return tb_error(NULL, 0, "out of host memory for %ld speculated draws", m);
    }
    return 0;
}

/* Fills w from the stream and works out, in parallel, the draw that would start at each
 * output, against the list and grid as they are. */
static void window_fill(window *w, vox_ctx *x)
{
    const init_voxels *vx = x->vx;
    const unsigned long lo = gsl_rng_min(x->rng), scale = (gsl_rng_max(x->rng) - lo) / vx->n;
    const long m = w->m, n0 = vx->n;
    gsl_rng_memcpy(w->mark, x->rng);
    for (long t = 0; t < m; t++)
        w->out[t] = gsl_rng_get(x->rng);
    /* the cubes' verdicts at every output */
#pragma omp parallel for schedule(dynamic, 64)
    for (long t = 0; t < m; t++) {
        const unsigned long k = (w->out[t] - lo) / scale;
        w->verdict[t] = W_NONE;
        w->slot[t] = k;
        if (k >= (unsigned long)n0)
            continue;
        w->cube[t] = vx->v[k];
        w->verdict[t] = vox_open(x->g, vx, w->cube[t], x->pos, x->dmin, x->L, x->R) ? W_NOPOINT
                                                                                     : W_COVERED;
    }
    /* The points only where the walk will want them: the draws' starts if no particle is placed
     * and the list keeps its length (a placement takes the four outputs a rejection does; a
     * start this misses, rare, is tested in full by the walk). */
    long np = 0;
    for (long t = 0; t < m;) {
        if (w->verdict[t] == W_NOPOINT && t + 3 < m)
            w->at[np++] = t;
        t += w->verdict[t] == W_NOPOINT ? 4 : 1;
    }
#pragma omp parallel for schedule(dynamic, 32)
    for (long a = 0; a < np; a++) {
        const long t = w->at[a];
        double u[3], *p = w->pt + 3 * t;
        for (int d = 0; d < 3; d++) /* gsl_rng_uniform of mt19937: the output / 2^32 */
            u[d] = w->out[t + 1 + d] / 4294967296.0;
        vox_point(x->g, vx, w->cube[t], u, p);
        w->verdict[t] = point_free(x, p) ? W_FREE : W_BLOCKED;
    }
    w->nw.n = 0;
    if (w->dirty.n > 0) /* all -1 */
        memset(w->dirty.slot, 0xff, (size_t)w->dirty.size * sizeof *w->dirty.slot);
    w->dirty.n = 0;
}

/* Walks the sequential draws through window w from particle *i: the outputs used (the stream
 * is then put there by the caller); *state 0 go on, 1 all placed, 2 particle *i found no room,
 * -1 failure. */
static long window_walk(window *w, vox_ctx *x, int *i, long *fails, int *state)
{
    init_voxels *vx = x->vx;
    const unsigned long lo = gsl_rng_min(x->rng), range = gsl_rng_max(x->rng) - lo;
    const long m = w->m;
    long t = 0;
    *state = 0;
    for (;;) {
        const long t0 = t;
        unsigned long k;
        double p[3], u[3];
        int open, valid;
        if (vx->n == 0) {
            *state = 2; /* jammed */
            return t;
        }
        const unsigned long scale = range / vx->n;
        do { /* gsl_rng_uniform_int */
            if (t == m)
                return t0;
            k = (w->out[t++] - lo) / scale;
        } while (k >= (unsigned long)vx->n);
        const long td = t - 1;
        valid = w->verdict[td] != W_NONE && w->slot[td] == k && !dirty_has(&w->dirty, (long)k);
        if (valid) {
            double c[3];
            open = w->verdict[td] != W_COVERED;
            if (open && w->nw.n > 0) {
                vox_centre(x->g, vx, w->cube[td], c);
                open = !new_blocks(x, &w->nw, c, 0.5 * vx->hv);
            }
        } else {
            open = vox_open(x->g, vx, vx->v[k], x->pos, x->dmin, x->L, x->R);
        }
        if (!open) {
            dirty_add(&w->dirty, (long)k);
            vx->v[k] = vx->v[--vx->n]; /* covered since it was listed */
            continue;
        }
        if (t + 3 > m)
            return t0; /* the point's outputs lie past the window: draw it in the next */
        int placed;
        if (valid && w->verdict[td] != W_NOPOINT) {
            memcpy(p, w->pt + 3 * td, sizeof p);
            placed = w->verdict[td] == W_FREE && !new_blocks(x, &w->nw, p, 0.0);
        } else {
            for (int d = 0; d < 3; d++)
                u[d] = w->out[t + d] / 4294967296.0;
            vox_point(x->g, vx, vx->v[k], u, p);
            placed = point_free(x, p);
        }
        t += 3;
        if (placed) {
            double *q = x->pos + 3 * *i;
            memcpy(q, p, sizeof p);
            grid_insert(x->g, q, *i);
            for (int a = 0; a < 3; a++)
                w->nw.cell[w->nw.n][a] = grid_coord(x->g, q[a]);
            w->nw.id[w->nw.n++] = *i;
            *fails = 0;
            if (x->progress)
                x->progress(x->progress_arg, *i, x->n);
            if (++*i == x->n) {
                *state = 1;
                return t;
            }
            continue;
        }
        memcpy(x->pos + 3 * *i, p, sizeof p); /* as the sequential draws leave it */
        ++*fails;
        const int r = after_reject(x);
        if (r < 0) {
            *state = -1;
            return t;
        }
        if (*fails > INIT_ATTEMPTS && vx->n >= x->split_below) {
            *state = 2;
            return t;
        }
        if (r > 0)
            return t; /* the list was split (or may not be): a new window */
    }
}

/* The outputs per window: init_random_window, or by default 4096 where 4 threads or more run
 * (below that the 3.5-fold work of the windows costs more than it saves). */
static long window_size(void)
{
    if (init_random_window >= 0)
        return init_random_window;
#ifdef _OPENMP
    return omp_get_max_threads() >= 4 ? 4096 : 0;
#else
    return 0;
#endif
}

int vox_place(vox_ctx *x, int i0, int *bad)
{
    const long m = window_size();
    long fails = 0;
    int i = i0, rc = 0;
    window w;
    /* The windows read the stream's outputs as gsl_rng_uniform does for mt19937 alone. */
    if (m > 0 && gsl_rng_min(x->rng) == 0 && gsl_rng_max(x->rng) == 0xffffffffUL &&
        !strcmp(gsl_rng_name(x->rng), "mt19937")) {
        if (window_alloc(&w, m < 64 ? 64 : m, x->rng) != 0)
            return -1;
        memset(w.dirty.slot, 0xff, (size_t)w.dirty.size * sizeof *w.dirty.slot);
        while (i < x->n && rc == 0) {
            int state;
            if (x->vx->n == 0) {
                rc = 1; /* jammed */
                break;
            }
            window_fill(&w, x);
            const long used = window_walk(&w, x, &i, &fails, &state);
            gsl_rng_memcpy(x->rng, w.mark); /* the stream where the walk left it */
            for (long t = 0; t < used; t++)
                (void)gsl_rng_get(x->rng);
            if (state < 0)
                rc = -1;
            else if (state == 2)
                rc = 1;
            else if (state == 0 && used == 0) { /* no whole draw fitted: one sequential draw */
                const int r = draw_once(x, x->pos + 3 * i, &fails);
                if (r < 0)
                    rc = -1;
                else if (r == 2)
                    rc = 1;
                else if (r == 1) {
                    grid_insert(x->g, x->pos + 3 * i, i);
                    fails = 0;
                    if (x->progress)
                        x->progress(x->progress_arg, i, x->n);
                    i++;
                }
            }
        }
        window_free(&w);
    } else {
        while (i < x->n && rc == 0) {
            int r;
            fails = 0;
            while ((r = draw_once(x, x->pos + 3 * i, &fails)) == 0)
                ;
            if (r < 0)
                rc = -1;
            else if (r == 2)
                rc = 1;
            else {
                grid_insert(x->g, x->pos + 3 * i, i);
                if (x->progress)
                    x->progress(x->progress_arg, i, x->n);
                i++;
            }
        }
    }
    if (rc == 1)
        *bad = i;
    return rc;
}
