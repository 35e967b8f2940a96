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
 * are chained through the particles' array. Rounds that place nothing at the top rate
 * PAR_RATE_MAX, PAR_DRY of them in a row, end with an error (the jamming limit). */
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
#define PAR_DRY 8          /* rounds at PAR_RATE_MAX without a placement before giving up */
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
    double *pos;       /* [3 cap] the particles placed, in their order */
    int *next;         /* [cap] the chain of the particles beyond a cell's inline room */
    uint64_t *key;     /* [cap] the random key of the particles of the current round */
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
                const par_cell *pc =
                    &g->cell[((long)idx[2][iz] * g->m[1] + idx[1][iy]) * g->m[0] + idx[0][ix]];
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

/* One colour of round r: every cell of colour col draws Poisson(a) candidates; newc[q] the
 * kept ones of the colour's q-th cell. Returns the candidates drawn. */
static long colour_run(par_grid *g, int col, long r, double a, uint64_t seed, int *newc,
                       par_thread *th, const int h[3], long nq)
{
    const double e = exp(-a);
    long drawn = 0;
#pragma omp parallel reduction(+ : drawn) if (nq >= 512)
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
            uint64_t s = par_stream(seed, r, k);
            const int tries = par_poisson(&s, a, e);
            par_cell *pc = &g->cell[k];
            const long own0 = t->n;
            int kept = 0;
            drawn += tries;
            for (int j = 0; j < tries; j++) {
                double f[3], x[3];
                for (int d = 0; d < 3; d++) {
                    f[d] = (c[d] + par_uniform(&s)) / g->m[d];
                    if (f[d] >= 1.0)
                        f[d] = 0x1.fffffffffffffp-1;
                }
                par_point(&g->box, f, x);
                if (g->R2 > 0 && x[0] * x[0] + x[1] * x[1] + x[2] * x[2] >= g->R2)
                    continue;
                if (g->dmin > 0 && blocked(g, c, x, t->s + own0, t->n - own0))
                    continue;
                if (pc->n < PAR_INLINE) {
                    memcpy(pc->p[pc->n], x, sizeof x);
                } else {
                    if (t->n == t->cap) {
                        const long cap = 2 * t->cap + 64;
                        par_spill *ns = realloc(t->s, (size_t)cap * sizeof *ns);
                        if (!ns)
                            abort(); /* a few particles beyond a cell's room: never this many */
                        t->s = ns;
                        t->cap = cap;
                    }
                    t->s[t->n].q = q;
                    t->s[t->n].rank = (int)(t->n - own0);
                    memcpy(t->s[t->n].x, x, sizeof x);
                    t->n++;
                }
                pc->n++;
                kept++;
            }
            newc[q] = kept;
        }
    }
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
    int *newc = malloc((size_t)nqmax * sizeof *newc);
    long *base = malloc((size_t)nqmax * sizeof *base);
    par_thread *th = calloc((size_t)nth, sizeof *th);
    if (!g.cell || !newc || !base || !th || grow(&g, n + n / 16 + 1024) != 0) {
        rc = tb_error(NULL, 0, "out of host memory for a cell grid of %ld cells", nc);
        goto done;
    }
#pragma omp parallel for schedule(static)
    for (long k = 0; k < nc; k++) {
        g.cell[k].n = 0;
        g.cell[k].over = -1;
    }
    double p = 1.0;                /* the acceptance of the last 64 candidates or more */
    long tried = 0, rounds = 0, acc_drawn = 0, acc_got = 0;
    int dry = 0;
    for (long r = 0; g.n < n; r++, rounds++) {
        const long left = n - g.n, from = g.n;
        double target = ceil(1.05 * left) + 8.0;
        if (target > n / 32.0 + 1.0)
            target = n / 32.0 + 1.0;
        double a = target / (nc * p);
        a = a > PAR_RATE_MAX ? PAR_RATE_MAX : a;
        long drawn = 0;
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
            drawn += colour_run(&g, col, r, a, seed, newc, th, h, nq);
            rc = colour_commit(&g, col, r, seed, newc, th, nth, h, nq, base);
        }
        if (rc != 0)
            goto done;
        tried += drawn;
        const long got = g.n - from;
        if (getenv("TB_INIT_PAR_STATS"))
            tb_notice("round %ld: rate %.4g, %ld candidates, %ld kept, %ld placed", r, a, drawn, got, g.n);
        acc_drawn += drawn;
        acc_got += got;
        if (acc_drawn >= 64) {
            p = acc_got > 0 ? (double)acc_got / acc_drawn : p / 4;
            acc_drawn = acc_got = 0;
        }
        p = p < 1e-9 ? 1e-9 : p;
        dry = got == 0 && a >= PAR_RATE_MAX ? dry + 1 : 0;
        if (dry >= PAR_DRY) {
            tb_error(c->path[0] ? c->path : NULL, 0,
                     "system.init.min_distance: cannot place particle %ld of %d at min_distance %g "
                     "(system.init.placement = \"parallel\": %ld rounds of %g candidates per cell "
                     "placed nothing; lower min_distance or use placement \"sequential\")",
                     g.n + 1, n, g.dmin, (long)PAR_DRY, PAR_RATE_MAX);
            rc = TB_EXIT_USAGE;
            goto done;
        }
        if (g.n > n && (rc = trim(&g, from, n - from)) != 0)
            goto done;
    }
    memcpy(s->pos, g.pos, (size_t)n * 3 * sizeof *s->pos);
    if (getenv("TB_INIT_PAR_STATS"))
        tb_notice("system.init: parallel placement: %d particles, %d x %d x %d cells, %ld rounds, "
                  "%ld candidates", n, g.m[0], g.m[1], g.m[2], rounds, tried);
    tb_phase("init_parallel");
done:
    for (int t = 0; th && t < nth; t++)
        free(th[t].s);
    free(th);
    free(base);
    free(newc);
    free(g.cell);
    free(g.pos);
    free(g.next);
    free(g.key);
    return rc;
}
