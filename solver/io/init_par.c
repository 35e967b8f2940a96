/* init_par.c — the parallel random placement (system.init.placement = "parallel"): random
 * sequential addition done cell by cell on OpenMP's threads, the same positions for the same
 * seed whatever the number of threads (not those of the sequential placement, init_random.c).
 *
 * The domain (the box's fractions [0, 1)^3, an open cluster's cube [-R, R)^3 less the outside
 * of its sphere) is cut into m0 x m1 x m2 cells at least min_distance wide (perpendicular
 * widths), m even on a periodic axis, so a particle closer than min_distance to a point lies
 * in the point's cell or a neighbouring one, and cells whose indices have the same parities
 * (one of 8 colours) are never neighbours. The placement runs in rounds; a round visits the 8
 * colours in turn (starting at colour round mod 8) and every cell of the colour, in parallel,
 * draws a Poisson number of candidates (mean a, the round's rate) uniform in itself from its
 * own counter-based stream (SplitMix64 seeded by a hash of system.seed, the round and the
 * cell), keeping each candidate no closer than min_distance (minimum image) to the particles
 * of its neighbourhood, its own new ones included. This is random sequential addition with
 * Poisson arrivals in space and time, the arrivals of one round ordered by colour instead of
 * by time. The rate is set from the last round's acceptance so that a round places about
 * n/32 particles, and the remaining R (1.05 R + 8) at the end; the round that reaches n keeps
 * the n - placed of its own particles of smallest random key (a hash of cell and rank), the
 * rest being dropped (they only free room). A round's new particles get their indices in cell
 * order after it: the output's order, like the positions, depends on nothing but the seed.
 *
 * A cell holds PAR_INLINE particles inline (one cache line or two per test of a cell); more
 * are chained through the particles' array.
 *
 * Near the jamming limit (packing fraction 0.38) almost every candidate lands where a particle
 * already excludes it. Once a round's acceptance falls below PAR_SUB_P, each cell keeps which of
 * its 4 x 4 x 4 sub-cubes are not wholly within min_distance of one particle (the "live" ones,
 * a 64-bit mask; a sub-cube once cut stays cut, as the particles only grow) and draws Poisson(a
 * live / 64) candidates uniform in the sub-cubes live at its last turn: the same arrivals
 * thinned of those that would be refused anyway, so the same process: 6.5 x 10^6 candidates
 * instead of 9.2 x 10^7 for 20000 particles at packing fraction 0.367. A cell brings its mask up to
 * date at its own turn from the particles of its 27 cells placed since its last one (own data
 * only: no race). The liquid (0.31) ends at an acceptance near 0.002 and never turns them on:
 * there the cuts (a cover test per neighbouring particle per cell) cost more than they save.
 * Rounds that place nothing at the top rate (PAR_DRY in a row; PAR_DRY_SUB with the sub-cubes),
 * or no live sub-cube left, end with an error: random sequential addition is jammed. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "common/check.h"
#include "common/phase.h"
#include "solver/box.h"
#include "solver/io/init_gen.h"

#define PAR_INLINE 3       /* particles held in a cell itself */
#define PAR_RATE_MAX 8.0   /* candidates per cell per round, at most (mean) */
#define PAR_DRY 8          /* rounds at the top rate without a placement before giving up */
#define PAR_DRY_SUB 32     /* the same with the sub-cubes on (2 candidates per live one a round) */
#define PAR_SUB_P 0.001    /* the acceptance below which the sub-cubes go on */
#define PAR_GAMMA 0x9e3779b97f4a7c15ULL

typedef struct par_cell {
    int n;                       /* particles in the cell */
    int over;                    /* the first beyond PAR_INLINE (index into pos), -1: none */
    double p[PAR_INLINE][3];     /* the first PAR_INLINE */
} par_cell;

/* a cell's candidate kept while its colour runs but beyond its inline room */
typedef struct par_spill {
    long q;      /* the cell's index within its colour */
    int rank;    /* the cell's spills kept before it in this colour */
    double x[3];
} par_spill;

typedef struct par_thread {
    par_spill *s;
    long n, cap;
} par_thread;

typedef struct par_grid {
    tb_box_d box;      /* the box (an open cluster: the cube [-R, R)^3, no periodic axis) */
    double R2;         /* an open cluster's squared radius; 0 with a box */
    int m[3];          /* cells per axis */
    double dmin;
    par_cell *cell;    /* [m0 m1 m2], x fastest */
    unsigned char *occ; /* [m0 m1 m2] 1 where a cell holds a particle: an empty neighbour's
                           80 bytes are not read (a cache miss saved) */
    double *pos;       /* [3 cap] the particles placed, in their order */
    int *next;         /* [cap] the chain of the particles beyond a cell's inline room */
    uint64_t *key;     /* [cap] the random key of the particles of the current round */
    uint64_t *live;    /* [cells] the sub-cubes (4^3, bit i + 4 j + 16 k) not inside one
                          particle's exclusion ball; NULL before the sub-cubes are on */
    unsigned char (*seen)[27]; /* [cells] the particles of each neighbour already cut away */
    long n, cap;       /* particles placed, room */
} par_grid;

static inline uint64_t par_next(uint64_t *s)
{
    const uint64_t r = init_splitmix64(*s);
    *s += PAR_GAMMA;
    return r;
}

static inline double par_uniform(uint64_t *s)
{
    return (double)(par_next(s) >> 11) * 0x1p-53;
}

/* Poisson(a) by inversion, e = exp(-a) */
static int par_poisson(uint64_t *s, double a, double e)
{
    const double u = par_uniform(s);
    double p = e, F = e;
    int k = 0;
    while (u > F && k < 1000) {
        k++;
        p *= a / k;
        F += p;
    }
    return k;
}

/* the stream of cell c in round r */
static inline uint64_t par_stream(uint64_t seed, long r, long c)
{
    return init_splitmix64(init_splitmix64(init_splitmix64(seed ^ 0x7061726c6c656cULL) + (uint64_t)r) +
                           (uint64_t)c);
}

static int grow(par_grid *g, long want)
{
    if (want <= g->cap)
        return 0;
    long cap = g->cap + g->cap / 2 > want ? g->cap + g->cap / 2 : want;
    double *p = realloc(g->pos, (size_t)cap * 3 * sizeof *p);
    if (p)
        g->pos = p;
    int *nx = p ? realloc(g->next, (size_t)cap * sizeof *nx) : NULL;
    if (nx)
        g->next = nx;
    uint64_t *k = nx ? realloc(g->key, (size_t)cap * sizeof *k) : NULL;
    if (k)
        g->key = k;
    if (!k)
        return tb_error(NULL, 0, "out of host memory for %ld particles", cap);
    g->cap = cap;
    return 0;
}

/* x from fractions f */
static inline void par_point(const tb_box_d *b, const double f[3], double x[3])
{
    x[0] = b->lo[0] + f[0] * b->l[0] + f[1] * b->xy + f[2] * b->xz;
    x[1] = b->lo[1] + f[1] * b->l[1] + f[2] * b->yz;
    x[2] = b->lo[2] + f[2] * b->l[2];
}

static inline int too_close(const tb_box_d *b, const double x[3], const double y[3], double d2)
{
    double d[3] = {x[0] - y[0], x[1] - y[1], x[2] - y[2]};
    box_min_image_d(b, d);
    return d[0] * d[0] + d[1] * d[1] + d[2] * d[2] < d2;
}

/* 1 when a particle of the neighbourhood of cell k (coordinates c) lies closer than dmin to x;
 * own[0..nown) are the cell's own candidates kept this round beyond its inline room. */
static int blocked(const par_grid *g, const int c[3], const double x[3], const par_spill *own,
                   long nown)
{
    const double d2 = g->dmin * g->dmin;
    int idx[3][3], cnt[3];
    double gap[3][3]; /* an untilted box: the distance from x to the neighbouring cell's slab */
    for (int a = 0; a < 3; a++) { /* the neighbouring indices, each once, the cell's own first */
        const int m = g->m[a], per = g->box.pbc >> a & 1;
        const double w = g->box.l[a] / m, t = x[a] - g->box.lo[a] - c[a] * w;
        cnt[a] = 0;
        gap[a][0] = 0.0;
        idx[a][cnt[a]++] = c[a];
        for (int s = -1; s <= 1; s += 2) {
            int v = c[a] + s;
            if (per)
                v = (v + m) % m;
            else if (v < 0 || v >= m)
                continue;
            if (v != c[a] && (cnt[a] < 2 || v != idx[a][1])) {
                /* less 1e-9 w for the rounding of the candidate's fraction; none where m < 3
                 * (a cell is then a neighbour on both sides) */
                const double e = s < 0 ? t : w - t;
                gap[a][cnt[a]] = g->box.tilted || m < 3 ? 0.0 : e - 1e-9 * w > 0 ? e - 1e-9 * w : 0.0;
                idx[a][cnt[a]++] = v;
            }
        }
    }
    for (long i = 0; i < nown; i++)
        if (too_close(&g->box, x, own[i].x, d2))
            return 1;
    for (int iz = 0; iz < cnt[2]; iz++)
        for (int iy = 0; iy < cnt[1]; iy++)
            for (int ix = 0; ix < cnt[0]; ix++) {
                if (gap[2][iz] * gap[2][iz] + gap[1][iy] * gap[1][iy] + gap[0][ix] * gap[0][ix] >= d2)
                    continue; /* even the cell's nearest point is too far */
                const long kk = ((long)idx[2][iz] * g->m[1] + idx[1][iy]) * g->m[0] + idx[0][ix];
                if (!g->occ[kk])
                    continue;
                const par_cell *pc = &g->cell[kk];
                const int in = pc->n < PAR_INLINE ? pc->n : PAR_INLINE;
                for (int j = 0; j < in; j++)
                    if (too_close(&g->box, x, pc->p[j], d2))
                        return 1;
                for (int j = pc->over; j >= 0; j = g->next[j])
                    if (too_close(&g->box, x, g->pos + 3L * j, d2))
                        return 1;
            }
    return 0;
}

/* The sub-cubes of cell c wholly closer than dmin to p (its image nearest the cell's centre):
 * every corner within dmin (1 - 1e-9), the margin covering the rounding of a candidate's
 * fraction, so a candidate in such a sub-cube is blocked. An untilted box per axis (a sub-cube's
 * farthest corner), a tilted one corner by corner. */
static uint64_t cover_mask(const par_grid *g, const int c[3], const double p[3])
{
    const double lim = g->dmin * g->dmin * (1.0 - 2e-9);
    double fc[3], xc[3], d[3], q[3];
    for (int a = 0; a < 3; a++)
        fc[a] = (c[a] + 0.5) / g->m[a];
    par_point(&g->box, fc, xc);
    for (int a = 0; a < 3; a++)
        d[a] = p[a] - xc[a];
    box_min_image_d(&g->box, d);
    for (int a = 0; a < 3; a++)
        q[a] = xc[a] + d[a]; /* the image */
    uint64_t dead = 0;
    if (!g->box.tilted) {
        double e[3][5];
        for (int a = 0; a < 3; a++)
            for (int i = 0; i < 5; i++) {
                const double x = g->box.lo[a] + (c[a] + 0.25 * i) / g->m[a] * g->box.l[a] - q[a];
                e[a][i] = x * x;
            }
        double w[3][4];
        for (int a = 0; a < 3; a++)
            for (int i = 0; i < 4; i++)
                w[a][i] = e[a][i] > e[a][i + 1] ? e[a][i] : e[a][i + 1];
        double lo[3];
        for (int a = 0; a < 3; a++) {
            lo[a] = w[a][0];
            for (int i = 1; i < 4; i++)
                lo[a] = w[a][i] < lo[a] ? w[a][i] : lo[a];
        }
        if (lo[0] + lo[1] + lo[2] >= lim)
            return 0; /* not even the nearest sub-cube */
        for (int b = 0; b < 64; b++)
            if (w[0][b & 3] + w[1][b >> 2 & 3] + w[2][b >> 4] < lim)
                dead |= 1ULL << b;
        return dead;
    }
    unsigned char in[125];
    for (int k = 0; k < 125; k++) {
        const double f[3] = {(c[0] + 0.25 * (k % 5)) / g->m[0], (c[1] + 0.25 * (k / 5 % 5)) / g->m[1],
                             (c[2] + 0.25 * (k / 25)) / g->m[2]};
        double x[3];
        par_point(&g->box, f, x);
        in[k] = (x[0] - q[0]) * (x[0] - q[0]) + (x[1] - q[1]) * (x[1] - q[1]) +
                    (x[2] - q[2]) * (x[2] - q[2]) < lim;
    }
    for (int b = 0; b < 64; b++) {
        const int i = b & 3, j = b >> 2 & 3, k = b >> 4;
        int all = 1;
        for (int v = 0; v < 8 && all; v++)
            all = in[(i + (v & 1)) + 5 * (j + (v >> 1 & 1)) + 25 * (k + (v >> 2))];
        dead |= (uint64_t)all << b;
    }
    return dead;
}

/* Cuts from cell k's live sub-cubes the particles of its neighbourhood placed since its last
 * turn (seen: the particles of each neighbour cut already; a cell's particles come in order,
 * the inline ones first, its chain newest first). Only cell k's own data is written, and its
 * neighbours run in other colours: no race. */
static void refresh(par_grid *g, long k, const int c[3])
{
    int idx[3][3], cnt[3];
    for (int a = 0; a < 3; a++) {
        const int m = g->m[a], per = g->box.pbc >> a & 1;
        cnt[a] = 0;
        idx[a][cnt[a]++] = c[a];
        for (int s = -1; s <= 1; s += 2) {
            int v = c[a] + s;
            if (per)
                v = (v + m) % m;
            else if (v < 0 || v >= m)
                continue;
            if (v != c[a] && (cnt[a] < 2 || v != idx[a][1]))
                idx[a][cnt[a]++] = v;
        }
    }
    uint64_t live = g->live[k];
    for (int iz = 0; iz < cnt[2]; iz++)
        for (int iy = 0; iy < cnt[1]; iy++)
            for (int ix = 0; ix < cnt[0]; ix++) {
                const long kk = ((long)idx[2][iz] * g->m[1] + idx[1][iy]) * g->m[0] + idx[0][ix];
                if (!g->occ[kk])
                    continue;
                const par_cell *pc = &g->cell[kk];
                unsigned char *sn = &g->seen[k][(iz * 3 + iy) * 3 + ix];
                const int from = *sn;
                for (int t = from; t < pc->n && t < PAR_INLINE && live; t++)
                    live &= ~cover_mask(g, c, pc->p[t]);
                /* the chain holds particles PAR_INLINE .. n - 1, the newest first */
                int left = pc->n - (from > PAR_INLINE ? from : PAR_INLINE);
                for (int j = pc->over; j >= 0 && left > 0 && live; j = g->next[j], left--)
                    live &= ~cover_mask(g, c, g->pos + 3L * j);
                *sn = (unsigned char)(pc->n < 255 ? pc->n : 255);
            }
    g->live[k] = live;
}

/* One colour of round r: every cell of colour col draws Poisson(a) candidates; newc[q] the
 * kept ones of the colour's q-th cell. Returns the candidates drawn. */
static long colour_run(par_grid *g, int col, long r, double a, uint64_t seed, int *newc,
                       par_thread *th, const int h[3], long nq, long *livesum, int *oom)
{
    const double e = exp(-a);
    long drawn = 0, ls = 0;
#pragma omp parallel reduction(+ : drawn, ls) if (nq >= 512)
    {
#ifdef _OPENMP
        par_thread *t = th + omp_get_thread_num();
#else
        par_thread *t = th;
#endif
#pragma omp for schedule(static, 256)
        for (long q = 0; q < nq; q++) {
            const int c[3] = {(col & 1) + 2 * (int)(q % h[0]), (col >> 1 & 1) + 2 * (int)(q / h[0] % h[1]),
                              (col >> 2 & 1) + 2 * (int)(q / ((long)h[0] * h[1]))};
            const long k = ((long)c[2] * g->m[1] + c[1]) * g->m[0] + c[0];
            uint64_t s = par_stream(seed, r, k), live0 = ~0ULL;
            int nl = 64, tries;
            if (g->live) {
                /* the sub-cubes on: Poisson(a nl / 64) candidates in the nl sub-cubes live at the
                 * cell's last turn, those in a sub-cube cut since then refused (a thinning of the
                 * same arrivals); the cut brought up to date only where a candidate comes */
                live0 = g->live[k];
                nl = __builtin_popcountll(live0);
                ls += nl;
                tries = nl == 0 ? 0 : par_poisson(&s, a * nl / 64, exp(-a * nl / 64));
                if (tries > 0)
                    refresh(g, k, c);
            } else {
                tries = par_poisson(&s, a, e);
            }
            par_cell *pc = &g->cell[k];
            const long own0 = t->n;
            int kept = 0;
            drawn += tries;
            for (int j = 0; j < tries; j++) {
                double f[3], x[3];
                int b = 0;
                if (g->live) { /* the sub-cube: the r-th live one, r uniform */
                    uint64_t v = live0;
                    for (int rr = (int)((par_next(&s) >> 32) * (uint64_t)nl >> 32); rr > 0; rr--)
                        v &= v - 1;
                    b = __builtin_ctzll(v);
                }
                for (int d = 0; d < 3; d++) {
                    f[d] = g->live ? (c[d] + ((b >> 2 * d & 3) + par_uniform(&s)) * 0.25) / g->m[d]
                                   : (c[d] + par_uniform(&s)) / g->m[d];
                    if (f[d] >= 1.0)
                        f[d] = 0x1.fffffffffffffp-1;
                }
                par_point(&g->box, f, x);
                if (g->R2 > 0 && x[0] * x[0] + x[1] * x[1] + x[2] * x[2] >= g->R2)
                    continue;
                if (g->live && !(g->live[k] >> b & 1))
                    continue; /* cut by a particle this cell placed in this turn */
                if (g->dmin > 0 && blocked(g, c, x, t->s + own0, t->n - own0))
                    continue;
                if (pc->n < PAR_INLINE) {
                    memcpy(pc->p[pc->n], x, sizeof x);
                } else {
                    if (t->n == t->cap) {
                        const long cap = 2 * t->cap + 64;
                        par_spill *ns = realloc(t->s, (size_t)cap * sizeof *ns);
                        if (!ns) { /* reported by the caller; the cell keeps no more */
#pragma omp atomic write
                            *oom = 1;
                            break;
                        }
                        t->s = ns;
                        t->cap = cap;
                    }
                    t->s[t->n].q = q;
                    t->s[t->n].rank = (int)(t->n - own0);
                    memcpy(t->s[t->n].x, x, sizeof x);
                    t->n++;
                }
                pc->n++;
                g->occ[k] = 1;
                kept++;
                if (g->live)
                    g->live[k] &= ~cover_mask(g, c, x);
            }
            newc[q] = kept;
        }
    }
    *livesum += ls;
    return drawn;
}

static int spill_order(const void *a, const void *b)
{
    const par_spill *x = a, *y = b;
    if (x->q != y->q)
        return (x->q > y->q) - (x->q < y->q);
    return (x->rank > y->rank) - (x->rank < y->rank);
}

/* The kept candidates of colour col into the particles' array, in cell order (within a cell,
 * in the order kept); their keys hash the round's stream, the cell and the rank. */
static int colour_commit(par_grid *g, int col, long r, uint64_t seed, const int *newc,
                         par_thread *th, int nth, const int h[3], long nq, long *base)
{
    long total = 0, spills = 0;
    for (long q = 0; q < nq; q++) {
        base[q] = total;
        total += newc[q];
    }
    for (int t = 0; t < nth; t++)
        spills += th[t].n;
    if (grow(g, g->n + total) != 0)
        return -1;
    par_spill *all = NULL;
    if (spills > 0) { /* rare: gathered and put in cell order (a cell's spills in kept order) */
        if (!(all = malloc((size_t)spills * sizeof *all)))
            return tb_error(NULL, 0, "out of host memory for %ld particles", spills);
        long k = 0;
        for (int t = 0; t < nth; t++) {
            if (th[t].n > 0) /* a thread without spills may have no array (NULL) */
                memcpy(all + k, th[t].s, (size_t)th[t].n * sizeof *all);
            k += th[t].n;
            th[t].n = 0;
        }
        qsort(all, (size_t)spills, sizeof *all, spill_order);
    }
#pragma omp parallel for schedule(static, 256) if (nq >= 512)
    for (long q = 0; q < nq; q++) {
        if (newc[q] == 0)
            continue;
        const int c[3] = {(col & 1) + 2 * (int)(q % h[0]), (col >> 1 & 1) + 2 * (int)(q / h[0] % h[1]),
                          (col >> 2 & 1) + 2 * (int)(q / ((long)h[0] * h[1]))};
        const long k = ((long)c[2] * g->m[1] + c[1]) * g->m[0] + c[0];
        const par_cell *pc = &g->cell[k];
        const int n0 = pc->n - newc[q];
        const uint64_t ks = par_stream(seed ^ 0x6b6579ULL, r, k);
        for (int j = 0; j < newc[q] && n0 + j < PAR_INLINE; j++) {
            const long id = g->n + base[q] + j;
            memcpy(g->pos + 3 * id, pc->p[n0 + j], 3 * sizeof(double));
            g->key[id] = init_splitmix64(ks + (uint64_t)j * PAR_GAMMA);
        }
    }
    for (long i = 0; i < spills; i++) { /* in cell order: the j-th spill of its cell */
        const long q = all[i].q;
        const int c[3] = {(col & 1) + 2 * (int)(q % h[0]), (col >> 1 & 1) + 2 * (int)(q / h[0] % h[1]),
                          (col >> 2 & 1) + 2 * (int)(q / ((long)h[0] * h[1]))};
        const long k = ((long)c[2] * g->m[1] + c[1]) * g->m[0] + c[0];
        par_cell *pc = &g->cell[k];
        const int n0 = pc->n - newc[q];
        const int inl = n0 < PAR_INLINE ? PAR_INLINE - n0 : 0; /* the new ones held inline */
        const int j = inl + all[i].rank;
        const long id = g->n + base[q] + j;
        memcpy(g->pos + 3 * id, all[i].x, 3 * sizeof(double));
        g->key[id] = init_splitmix64(par_stream(seed ^ 0x6b6579ULL, r, k) + (uint64_t)j * PAR_GAMMA);
        g->next[id] = pc->over;
        pc->over = (int)id;
    }
    free(all);
    g->n += total;
    return 0;
}

typedef struct par_keyed {
    uint64_t key;
    long id;
} par_keyed;

static int keyed_order(const void *a, const void *b)
{
    const par_keyed *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (x->id > y->id) - (x->id < y->id);
}

/* Keeps want of the particles [from, g->n) (the last round's), those of smallest key, in
 * their order. */
static int trim(par_grid *g, long from, long want)
{
    const long m = g->n - from;
    par_keyed *k = malloc((size_t)m * sizeof *k);
    unsigned char *keep = calloc((size_t)m, 1);
    if (!k || !keep) {
        free(k);
        free(keep);
        return tb_error(NULL, 0, "out of host memory for %ld particles", m);
    }
    for (long i = 0; i < m; i++) {
        k[i].key = g->key[from + i];
        k[i].id = i;
    }
    qsort(k, (size_t)m, sizeof *k, keyed_order);
    for (long i = 0; i < want; i++)
        keep[k[i].id] = 1;
    long w = from;
    for (long i = 0; i < m; i++)
        if (keep[i]) {
            memmove(g->pos + 3 * w, g->pos + 3 * (from + i), 3 * sizeof(double));
            w++;
        }
    g->n = w;
    free(k);
    free(keep);
    return 0;
}

/* The cells: at least dmin wide, even on a periodic axis (the colours), at most ~4n + 64. */
static void cells_of(par_grid *g, int n)
{
    double w[3], cells = 1.0;
    box_widths_d(&g->box, w);
    const double d = g->dmin > 0 ? g->dmin : cbrt(w[0] * w[1] * w[2] / n);
    for (int a = 0; a < 3; a++) {
        double m = floor(w[a] / (d * (1.0 + 1e-9)));
        m = m < 1 ? 1 : m > 1e6 ? 1e6 : m;
        g->m[a] = (int)m;
        cells *= m;
    }
    for (int a = 0; a < 3 && cells > 4.0 * n + 64; a++) {
        const int m = (int)ceil(g->m[a] / cbrt(cells / (4.0 * n + 64)));
        cells = cells / g->m[a] * m;
        g->m[a] = m < 1 ? 1 : m;
    }
    for (int a = 0; a < 3; a++)
        if ((g->box.pbc >> a & 1) && g->m[a] > 2 && (g->m[a] & 1))
            g->m[a]--;
}

int init_par_verify;
long init_par_dead, init_par_bad;

/* init_par_verify: every sub-cube cut from a cell must lie within dmin of one particle of the
 * cell's neighbourhood, by every corner, the minimum image taken per corner (a search of its
 * own, not cover_mask); counts into init_par_dead and init_par_bad. */
static void verify(const par_grid *g)
{
    long dead = 0, bad = 0;
    const double d2 = g->dmin * g->dmin;
    const long nc = (long)g->m[0] * g->m[1] * g->m[2];
    for (long k = 0; g->live && k < nc; k++) {
        const int c[3] = {(int)(k % g->m[0]), (int)(k / g->m[0] % g->m[1]),
                          (int)(k / ((long)g->m[0] * g->m[1]))};
        for (int b = 0; b < 64; b++) {
            if (g->live[k] >> b & 1)
                continue;
            dead++;
            int found = 0;
            for (long i = 0; i < g->n && !found; i++) { /* every particle: slow, for tests */
                int all = 1;
                for (int v = 0; v < 8 && all; v++) {
                    const double f[3] = {(c[0] + 0.25 * ((b & 3) + (v & 1))) / g->m[0],
                                         (c[1] + 0.25 * ((b >> 2 & 3) + (v >> 1 & 1))) / g->m[1],
                                         (c[2] + 0.25 * ((b >> 4) + (v >> 2))) / g->m[2]};
                    double x[3];
                    par_point(&g->box, f, x);
                    all = too_close(&g->box, x, g->pos + 3 * i, d2);
                }
                found = all;
            }
            bad += !found;
        }
    }
    init_par_dead = dead;
    init_par_bad = bad;
}

int init_random_parallel(sim_state *s, const sim_config *c)
{
    const int n = s->n;
    const uint64_t seed = c->system.seed;
    par_grid g;
    int rc = 0;
    memset(&g, 0, sizeof g);
    g.dmin = c->system.init.min_distance;
    if (s->box.pbc) {
        g.box = s->box;
    } else { /* an open cluster: the cube around its sphere */
        const double R = c->system.init.radius > 0 ? c->system.init.radius
                                                   : cbrt(3.0 * n / (4.0 * M_PI * INIT_DENSITY));
        const double l[3] = {2 * R, 2 * R, 2 * R}, lo[3] = {-R, -R, -R};
        const int open[3] = {0, 0, 0};
        g.box = box_make_d(l, 0, 0, 0, lo, open);
        g.R2 = R * R;
    }
    cells_of(&g, n);
    const long nc = (long)g.m[0] * g.m[1] * g.m[2];
#ifdef _OPENMP
    const int nth = omp_get_max_threads();
#else
    const int nth = 1;
#endif
    long nqmax = 0;
    for (int col = 0; col < 8; col++) {
        long q = 1;
        for (int a = 0; a < 3; a++)
            q *= (g.m[a] - (col >> a & 1) + 1) / 2;
        nqmax = q > nqmax ? q : nqmax;
    }
    g.cell = malloc((size_t)nc * sizeof *g.cell);
    g.occ = calloc((size_t)nc, 1);
    int *newc = malloc((size_t)nqmax * sizeof *newc);
    long *base = malloc((size_t)nqmax * sizeof *base);
    par_thread *th = calloc((size_t)nth, sizeof *th);
    if (!g.cell || !g.occ || !newc || !base || !th || grow(&g, n + n / 16 + 1024) != 0) {
        rc = tb_error(NULL, 0, "out of host memory for a cell grid of %ld cells", nc);
        goto done;
    }
#pragma omp parallel for schedule(static)
    for (long k = 0; k < nc; k++) {
        g.cell[k].n = 0;
        g.cell[k].over = -1;
    }
    double p = 1.0;                /* the acceptance of the last 64 candidates or more */
    double vol = (double)nc;       /* the volume candidates are drawn in [cells] */
    long tried = 0, rounds = 0, acc_drawn = 0, acc_got = 0, sub_round = -1;
    int dry = 0;
    const double sub_p = getenv("TB_INIT_PAR_SUB_P") ? atof(getenv("TB_INIT_PAR_SUB_P")) : PAR_SUB_P;
    for (long r = 0; g.n < n; r++, rounds++) {
        const long left = n - g.n, from = g.n;
        double target = ceil(1.05 * left) + 8.0;
        if (target > n / 32.0 + 1.0)
            target = n / 32.0 + 1.0;
        const double amax = g.live ? 16 * PAR_RATE_MAX : PAR_RATE_MAX;
        double a = target / (vol * p);
        a = a > amax ? amax : a;
        long drawn = 0, livesum = 0;
        for (int ph = 0; ph < 8 && rc == 0; ph++) {
            const int col = (int)((r + ph) % 8);
            int h[3];
            long nq = 1;
            for (int ax = 0; ax < 3; ax++) {
                h[ax] = (g.m[ax] - (col >> ax & 1) + 1) / 2;
                nq *= h[ax];
            }
            if (nq == 0)
                continue;
            int oom = 0;
            drawn += colour_run(&g, col, r, a, seed, newc, th, h, nq, &livesum, &oom);
            if (oom) {
                rc = tb_error(NULL, 0, "out of host memory for the particles of a cell");
                break;
            }
            rc = colour_commit(&g, col, r, seed, newc, th, nth, h, nq, base);
        }
        if (rc != 0)
            goto done;
        tried += drawn;
        const long got = g.n - from;
        if (getenv("TB_INIT_PAR_STATS"))
            tb_notice("round %ld: rate %.4g, %ld candidates, %ld kept, %ld placed, %ld live sub-cubes", r,
                      a, drawn, got, g.n, livesum);
        acc_drawn += drawn;
        acc_got += got;
        if (acc_drawn >= 64) {
            p = acc_got > 0 ? (double)acc_got / acc_drawn : p / 4;
            acc_drawn = acc_got = 0;
        }
        p = p < 1e-9 ? 1e-9 : p;
        if (g.live)
            vol = livesum / 64.0;
        dry = got == 0 && a >= amax ? dry + 1 : 0;
        if (g.n < n && (dry >= (g.live ? PAR_DRY_SUB : PAR_DRY) || (g.live && livesum == 0))) {
            tb_error(c->path[0] ? c->path : NULL, 0,
                     "system.init.min_distance: cannot place particle %ld of %d at min_distance %g "
                     "(system.init.placement = \"parallel\": %s; lower min_distance or use "
                     "placement \"sequential\")", g.n + 1, n, g.dmin,
                     livesum == 0 && g.live ? "no room is left" : "rounds at the top rate placed nothing");
            rc = TB_EXIT_USAGE;
            goto done;
        }
        if (!g.live && g.dmin > 0 && p < sub_p && g.n < n) { /* the sub-cubes on */
            g.live = malloc((size_t)nc * sizeof *g.live);
            g.seen = calloc((size_t)nc, sizeof *g.seen);
            if (!g.live || !g.seen) {
                rc = tb_error(NULL, 0, "out of host memory for the sub-cubes of %ld cells", nc);
                goto done;
            }
            for (long k = 0; k < nc; k++)
                g.live[k] = ~0ULL;
            sub_round = r + 1;
        }
        if (g.n >= n && init_par_verify)
            verify(&g); /* before the last round's trim, which only frees room */
        if (g.n > n && (rc = trim(&g, from, n - from)) != 0)
            goto done;
    }
    memcpy(s->pos, g.pos, (size_t)n * 3 * sizeof *s->pos);
    if (getenv("TB_INIT_PAR_STATS"))
        tb_notice("system.init: parallel placement: %d particles, %d x %d x %d cells, %ld rounds "
                  "(sub-cubes from round %ld), %ld candidates", n, g.m[0], g.m[1], g.m[2], rounds,
                  sub_round, tried);
    tb_phase("init_parallel");
done:
    for (int t = 0; th && t < nth; t++)
        free(th[t].s);
    free(th);
    free(base);
    free(newc);
    free(g.cell);
    free(g.occ);
    free(g.pos);
    free(g.next);
    free(g.key);
    free(g.live);
    free(g.seen);
    return rc;
}
