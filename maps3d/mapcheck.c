/* mapcheck.c — the coverage checkers of mapcheck.h (docs/maps.md#checking-a-map).
 *
 * Invariant of every exhaustive walk: a domain element is produced for the first time iff
 * the atomic fetch-or of its bit returns the bit clear, so after the walk
 *     produced = outside + popcount(bits) + duplicate,   missing = expected - popcount(bits),
 * and the map passes iff outside = duplicate = missing = 0. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "maps3d/lambda.h"
#include "maps3d/mapcheck.h"

typedef unsigned long long u64;

long long map_check_bytes(long long elements)
{
    return (elements + 63) / 64 * 8;
}

long long map_check_triplets(long long n)
{
    unsigned __int128 v;
    if (n < 3)
        return 0;
    v = (unsigned __int128)n * (u64)(n - 1) * (u64)(n - 2) / 6;
    return v > (unsigned __int128)0x7fffffffffffffffLL ? 0x7fffffffffffffffLL : (long long)v;
}

long long map_check_pairs(long long n)
{
    return n < 2 ? 0 : n * (n - 1) / 2;
}

void map_check_tile_of(long long idx, int *I, int *J, int *K)
{
    map3d_cursor c;
    map3d_lambda_decode(idx, &c);
    *I = c.I, *J = c.J, *K = c.K;
}

/* Records the first problem (the walks call it from several threads, rarely). */
static void note(map_check *r, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void note(map_check *r, const char *fmt, ...)
{
#pragma omp critical(map_check_note)
    {
        if (!r->first[0]) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(r->first, sizeof r->first, fmt, ap);
            va_end(ap);
        }
    }
}

static u64 *bits_alloc(long long elements, map_check *r)
{
    u64 *b = (u64 *)calloc((size_t)((elements + 63) / 64) + 1, sizeof *b);
    if (!b)
        snprintf(r->first, sizeof r->first, "cannot allocate %lld bytes for the bitset of %lld "
                 "elements: nothing checked", map_check_bytes(elements), elements);
    return b;
}

/* Marks element idx; returns 1 if it was already marked. */
static inline int bits_mark(u64 *bits, long long idx)
{
    u64 bit = 1ULL << (idx & 63);
    return (__atomic_fetch_or(&bits[idx >> 6], bit, __ATOMIC_RELAXED) & bit) != 0;
}

/* missing = expected - popcount; also the first missing element. */
static long long bits_missing(const u64 *bits, long long expected, long long *first_missing)
{
    long long words = (expected + 63) / 64, seen = 0;
    *first_missing = -1;
    for (long long w = 0; w < words; w++) {
        u64 v = bits[w];
        seen += __builtin_popcountll(v);
        if (*first_missing < 0) {
            u64 want = (w == words - 1 && expected % 64) ? (1ULL << (expected % 64)) - 1 : ~0ULL;
            if (v != want)
                *first_missing = w * 64 + __builtin_ctzll(~v);
        }
    }
    return expected - seen;
}

/* The walk visits each grid in bricks of up to 32 x 16 x 16 blocks (a 1D grid in runs of
 * gx/64 blocks): most maps send nearby blocks to nearby tiles, so a brick's tiles share bitset
 * cache lines. Threads take contiguous ranges of bricks (static schedule), far apart in the
 * grid, so they seldom touch the same line. */
typedef struct brick_grid {
    long long sx, sy, sz, nx, ny, nz;
} brick_grid;

static brick_grid bricks_of(long long gx, long long gy, long long gz)
{
    brick_grid g;
    if (gy == 1 && gz == 1) {
        g.sx = gx / 64 < 1 ? 1 : gx / 64;
        g.sy = g.sz = 1;
    } else {
        g.sx = gx < 32 ? gx : 32;
        g.sy = gy < 16 ? gy : 16;
        g.sz = gz < 16 ? gz : 16;
    }
    g.nx = (gx + g.sx - 1) / g.sx;
    g.ny = (gy + g.sy - 1) / g.sy;
    g.nz = (gz + g.sz - 1) / g.sz;
    return g;
}

enum { WALK_TILES, WALK_PARTICLES };

/* Counts of one thread's part of a walk. */
typedef struct walk_counts {
    long long disc, prod, out, dup;
} walk_counts;

/* One block of a 3D launch: first(), then next() while it returns 1. */
static inline void visit3(const map3d_type *t, const map3d_launch *L, int li, unsigned bx,
                          unsigned by, unsigned bz, int mode, int n, int edge, u64 *bits,
                          map_check *r, walk_counts *w)
{
    const int nb = L->nb;
    map3d_cursor c;
    if (!t->first(L, bx, by, bz, &c)) {
        w->disc++;
        return;
    }
    do {
        if (mode == WALK_TILES) {
            w->prod++;
            if (c.I < 0 || c.I > c.J || c.J > c.K || c.K >= nb) {
                w->out++;
                note(r, "launch %d block (%u,%u,%u): tile (%d,%d,%d) outside D3(%d)", li, bx, by,
                     bz, c.I, c.J, c.K, nb);
            } else if (bits_mark(bits, map3d_tet(c.K) + map3d_tri(c.J) + c.I)) {
                w->dup++;
                note(r, "launch %d block (%u,%u,%u): tile (%d,%d,%d) produced again", li, bx, by,
                     bz, c.I, c.J, c.K);
            }
        } else if (c.I < 0 || c.I >= nb || c.J < 0 || c.J >= nb || c.K < 0 || c.K >= nb) {
            w->out++;
            w->prod++;
            note(r, "launch %d block (%u,%u,%u): tile (%d,%d,%d) has an index outside [0,%d)", li,
                 bx, by, bz, c.I, c.J, c.K, nb);
        } else { /* the kernel's loops: tile T is [T·edge, min((T+1)·edge, n)), mask i<j<k */
            long long i0 = (long long)c.I * edge, j0 = (long long)c.J * edge,
                      k0 = (long long)c.K * edge;
            long long i1 = i0 + edge < n ? i0 + edge : n, j1 = j0 + edge < n ? j0 + edge : n,
                      k1 = k0 + edge < n ? k0 + edge : n;
            for (long long i = i0; i < i1; i++)
                for (long long j = i + 1 > j0 ? i + 1 : j0; j < j1; j++)
                    for (long long k = j + 1 > k0 ? j + 1 : k0; k < k1; k++) {
                        w->prod++;
                        if (bits_mark(bits, k * (k - 1) * (k - 2) / 6 + j * (j - 1) / 2 + i)) {
                            w->dup++;
                            note(r, "launch %d block (%u,%u,%u) tile (%d,%d,%d): triplet "
                                 "(%lld,%lld,%lld) produced again", li, bx, by, bz, c.I, c.J, c.K,
                                 i, j, k);
                        }
                    }
        }
    } while (t->next(L, &c));
}

static int finish(map_check *r, u64 *bits, int mode3, int n)
{
    long long fm;
    r->missing = bits_missing(bits, r->expected, &fm);
    if (r->missing && fm >= 0) {
        if (mode3 == 3) {
            int I, J, K;
            map_check_tile_of(fm, &I, &J, &K);
            note(r, "tile (%d,%d,%d) never produced (%lld missing)", I, J, K, r->missing);
        } else if (mode3 == 2) {
            int J = map2d_lambda2d_row(fm);
            note(r, "tile (%d,%d) never produced (%lld missing)", (int)(fm - map3d_tri(J)), J,
                 r->missing);
        } else if (mode3 == -3) { /* particle triplet of combinatorial index fm */
            long long k = 2, j, i;
            while ((k + 1) * k * (k - 1) / 6 <= fm)
                k++;
            fm -= k * (k - 1) * (k - 2) / 6;
            j = 1;
            while ((j + 1) * j / 2 <= fm)
                j++;
            i = fm - j * (j - 1) / 2;
            note(r, "triplet (%lld,%lld,%lld) of n = %d never produced (%lld missing)", i, j, k, n,
                 r->missing);
        } else {
            long long j = 1;
            while ((j + 1) * j / 2 <= fm)
                j++;
            note(r, "pair (%lld,%lld) of n = %d never produced (%lld missing)",
                 fm - j * (j - 1) / 2, j, n, r->missing);
        }
    }
    free(bits);
    return r->outside || r->duplicate || r->missing ? 1 : 0;
}

/* One block of a 2D launch. */
static inline void visit2(const map2d_type *t, const map2d_launch *L, int li, unsigned bx,
                          unsigned by, int mode, int n, int edge, u64 *bits, map_check *r,
                          walk_counts *w)
{
    const int nb = L->nb;
    map2d_cursor c;
    if (!t->first(L, bx, by, &c)) {
        w->disc++;
    } else if (mode == WALK_TILES) {
        w->prod++;
        if (c.I < 0 || c.I > c.J || c.J >= nb) {
            w->out++;
            note(r, "launch %d block (%u,%u): tile (%d,%d) outside D2(%d)", li, bx, by, c.I, c.J,
                 nb);
        } else if (bits_mark(bits, map3d_tri(c.J) + c.I)) {
            w->dup++;
            note(r, "launch %d block (%u,%u): tile (%d,%d) produced again", li, bx, by, c.I, c.J);
        }
    } else if (c.I < 0 || c.I >= nb || c.J < 0 || c.J >= nb) {
        w->out++;
        w->prod++;
        note(r, "launch %d block (%u,%u): tile (%d,%d) has an index outside [0,%d)", li, bx, by,
             c.I, c.J, nb);
    } else {
        long long i0 = (long long)c.I * edge, j0 = (long long)c.J * edge;
        long long i1 = i0 + edge < n ? i0 + edge : n, j1 = j0 + edge < n ? j0 + edge : n;
        for (long long i = i0; i < i1; i++)
            for (long long j = i + 1 > j0 ? i + 1 : j0; j < j1; j++) {
                w->prod++;
                if (bits_mark(bits, j * (j - 1) / 2 + i)) {
                    w->dup++;
                    note(r, "launch %d block (%u,%u) tile (%d,%d): pair (%lld,%lld) produced again",
                         li, bx, by, c.I, c.J, i, j);
                }
            }
    }
}

/* The map a walk checks: a 3D type and plan (t3, p3), or a 2D one (t2, p2; t3 NULL). */
typedef struct walk_map {
    const map3d_type *t3;
    const map3d_plan *p3;
    const map2d_type *t2;
    const map2d_plan *p2;
} walk_map;

/* Walks every block of every launch of a plan, 3D or 2D (no persistent maps in 2D); see the
 * file comment. A 2D grid is a 3D one of gz = 1. */
static void walk(const walk_map *m, int mode, int n, int edge, u64 *bits, map_check *r)
{
    const int n_launch = m->t3 ? m->p3->n_launch : m->p2->n_launch;
    long long disc = 0, prod = 0, out = 0, dup = 0;
    for (int li = 0; li < n_launch; li++) {
        const map3d_launch *L3 = m->t3 ? &m->p3->launch[li] : NULL;
        const map2d_launch *L2 = m->t3 ? NULL : &m->p2->launch[li];
        const long long gx = L3 ? L3->gx : L2->gx, gy = L3 ? L3->gy : L2->gy, gz = L3 ? L3->gz : 1;
        const brick_grid g = bricks_of(gx, gy, gz);
        const long long nbr = g.nx * g.ny * g.nz;
        r->blocks += gx * gy * gz;
#pragma omp parallel for schedule(static) reduction(+ : disc, prod, out, dup)
        for (long long br = 0; br < nbr; br++) {
            walk_counts w = {0, 0, 0, 0};
            const long long x0 = br % g.nx * g.sx, y0 = br / g.nx % g.ny * g.sy,
                            z0 = br / (g.nx * g.ny) * g.sz;
            const long long x1 = x0 + g.sx < gx ? x0 + g.sx : gx,
                            y1 = y0 + g.sy < gy ? y0 + g.sy : gy,
                            z1 = z0 + g.sz < gz ? z0 + g.sz : gz;
            for (long long z = z0; z < z1; z++)
                for (long long y = y0; y < y1; y++)
                    for (long long x = x0; x < x1; x++) {
                        if (L3)
                            visit3(m->t3, L3, li, (unsigned)x, (unsigned)y, (unsigned)z, mode, n,
                                   edge, bits, r, &w);
                        else
                            visit2(m->t2, L2, li, (unsigned)x, (unsigned)y, mode, n, edge, bits,
                                   r, &w);
                    }
            disc += w.disc, prod += w.prod, out += w.out, dup += w.dup;
        }
    }
    r->discarded += disc;
    r->produced += prod;
    r->outside += out;
    r->duplicate += dup;
}

/* The four exhaustive checks: one walk of map m over its domain dom (finish()'s mode: 3 tiles
 * of D3, 2 tiles of D2, -3 particle triplets, -2 particle pairs of n bodies in tiles of edge). */
static int check(const walk_map *m, int dom, int n, int edge, map_check *r)
{
    const int nb = m->t3 ? m->p3->nb : m->p2->nb;
    u64 *bits;
    memset(r, 0, sizeof *r);
    r->expected = dom == 3 ? map3d_tet(nb) : dom == 2 ? map3d_tri(nb)
                : dom == -3 ? map_check_triplets(n) : map_check_pairs(n);
    if (dom < 0 && map3d_nb(n, edge) != nb) {
        snprintf(r->first, sizeof r->first, "plan for nb = %d, but n = %d, edge = %d gives nb = %d",
                 nb, n, edge, map3d_nb(n, edge));
        return 1;
    }
    if (!(bits = bits_alloc(r->expected, r)))
        return -1;
    walk(m, dom < 0 ? WALK_PARTICLES : WALK_TILES, n, edge, bits, r);
    return finish(r, bits, dom, n);
}

int map3d_check_tiles(const map3d_type *t, const map3d_plan *p, map_check *r)
{
    return check(&(const walk_map){t, p, NULL, NULL}, 3, 0, 0, r);
}

int map3d_check_particles(const map3d_type *t, const map3d_plan *p, int n, int edge,
                          map_check *r)
{
    return check(&(const walk_map){t, p, NULL, NULL}, -3, n, edge, r);
}

int map2d_check_tiles(const map2d_type *t, const map2d_plan *p, map_check *r)
{
    return check(&(const walk_map){NULL, NULL, t, p}, 2, 0, 0, r);
}

int map2d_check_particles(const map2d_type *t, const map2d_plan *p, int n, int edge,
                          map_check *r)
{
    return check(&(const walk_map){NULL, NULL, t, p}, -2, n, edge, r);
}

/* ---- enumeration probe and sampled check ---- */

static long long idx3(const map3d_cursor *c)
{
    return map3d_tet(c->K) + map3d_tri(c->J) + c->I;
}

static int inside3(const map3d_cursor *c, int nb)
{
    return c->I >= 0 && c->I <= c->J && c->J <= c->K && c->K < nb;
}

/* Global linear block g of plan p: its launch and block coordinates. */
static const map3d_launch *block_of(const map3d_plan *p, const long long *cum, long long g,
                                    int *li, unsigned *bx, unsigned *by, unsigned *bz)
{
    int q = 0;
    const map3d_launch *L;
    long long b;
    while (q + 1 < p->n_launch && cum[q + 1] <= g)
        q++;
    L = &p->launch[q];
    b = g - cum[q];
    *li = q;
    *bx = (unsigned)(b % L->gx);
    *by = (unsigned)(b / L->gx % L->gy);
    *bz = (unsigned)(b / ((long long)L->gx * L->gy));
    return L;
}

int map3d_check_ordered(const map3d_type *t, const map3d_opts *o)
{
    const int nb = 40;
    map3d_plan p;
    char err[200];
    long long g = 0, run = 0, tet = map3d_tet(nb);
    int ok = 1;
    if (map3d_plan_make(t, nb, o, &p, err, sizeof err))
        return -1;
    for (int li = 0; li < p.n_launch && ok; li++) {
        const map3d_launch *L = &p.launch[li];
        for (unsigned bz = 0; bz < L->gz && ok; bz++)
            for (unsigned by = 0; by < L->gy && ok; by++)
                for (unsigned bx = 0; bx < L->gx && ok; bx++, g++) {
                    map3d_cursor c;
                    int got = t->first(L, bx, by, bz, &c);
                    if (!t->persistent) {
                        if (got)
                            ok = g < tet && inside3(&c, nb) && idx3(&c) == g && !t->next(L, &c);
                        else
                            ok = g >= tet;
                    } else if (got) {
                        do
                            ok = inside3(&c, nb) && idx3(&c) == run++;
                        while (ok && t->next(L, &c));
                    }
                }
    }
    if (t->persistent && run != tet)
        ok = 0;
    map3d_plan_free(&p);
    return ok;
}

static u64 splitmix64(u64 x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* One non-persistent block g: checks what it produces. */
static void sample_block(const map3d_type *t, const map3d_plan *p, const long long *cum, int ordered,
                         long long g, map_check *r, long long *disc, long long *prod,
                         long long *out, long long *bad)
{
    int li;
    unsigned bx, by, bz;
    map3d_cursor c;
    const map3d_launch *L = block_of(p, cum, g, &li, &bx, &by, &bz);
    const long long tet = map3d_tet(p->nb);
    if (!t->first(L, bx, by, bz, &c)) {
        (*disc)++;
        if (ordered && g < tet) {
            (*bad)++;
            note(r, "block %lld (launch %d (%u,%u,%u)) exits, expected tile index %lld", g, li, bx,
                 by, bz, g);
        }
        return;
    }
    (*prod)++;
    if (!inside3(&c, p->nb)) {
        (*out)++;
        note(r, "block %lld (launch %d (%u,%u,%u)): tile (%d,%d,%d) outside D3(%d)", g, li, bx, by,
             bz, c.I, c.J, c.K, p->nb);
    } else if (ordered && idx3(&c) != g) {
        (*bad)++;
        note(r, "block %lld (launch %d (%u,%u,%u)): tile (%d,%d,%d) has index %lld, expected %lld",
             g, li, bx, by, bz, c.I, c.J, c.K, idx3(&c), g);
    }
    if (t->next(L, &c)) {
        (*bad)++;
        note(r, "block %lld: a non-persistent map's next() returned 1", g);
    }
}

int map3d_check_sampled(const map3d_type *t, const map3d_plan *p, int ordered, long long samples,
                        unsigned long long seed, map_check *r)
{
    long long cum[MAP3D_MAX_LAUNCH + 1], total = 0, disc = 0, prod = 0, out = 0, bad = 0;
    const long long tet = map3d_tet(p->nb);
    memset(r, 0, sizeof *r);
    r->expected = tet;
    for (int i = 0; i < p->n_launch; i++) {
        cum[i] = total;
        total += (long long)p->launch[i].gx * p->launch[i].gy * p->launch[i].gz;
    }
    cum[p->n_launch] = total;
    if (!t->persistent) {
        long long nbound = ordered ? 2LL * p->nb : 0;
        long long spare = ordered ? (total - tet < 1000000 ? total - tet : 1000000) : 0;
        long long work = samples + nbound + (spare > 0 ? spare : 0);
#pragma omp parallel for schedule(static, 4096) reduction(+ : disc, prod, out, bad)
        for (long long s = 0; s < work; s++) {
            long long g;
            if (s < samples)
                g = (long long)(splitmix64(seed + (u64)s) % (u64)total);
            else if (s < samples + nbound) { /* layer boundaries Tet(k) - 1 and Tet(k) */
                long long k = (s - samples) / 2 + 1;
                g = map3d_tet(k) - 1 + (s - samples) % 2;
                if (g >= total)
                    continue;
            } else {
                g = tet + (s - samples - nbound); /* spare blocks must exit */
            }
            sample_block(t, p, cum, ordered, g, r, &disc, &prod, &out, &bad);
        }
        r->blocks = work;
    } else {
        /* Persistent: every block's first tile (ordered: must continue the running index),
         * then whole walks of the first, the last and a few random blocks. */
        long long run = 0, walks[8];
        int nw = 0;
        for (long long g = 0; g < total; g++) {
            int li;
            unsigned bx, by, bz;
            map3d_cursor c;
            const map3d_launch *L = block_of(p, cum, g, &li, &bx, &by, &bz);
            r->blocks++;
            if (!t->first(L, bx, by, bz, &c)) {
                disc++;
                continue;
            }
            prod++;
            if (!inside3(&c, p->nb)) {
                out++;
                note(r, "block %lld: first tile (%d,%d,%d) outside D3(%d)", g, c.I, c.J, c.K, p->nb);
            } else if (ordered && idx3(&c) != run) {
                bad++;
                note(r, "block %lld: first tile (%d,%d,%d) has index %lld, expected %lld", g, c.I,
                     c.J, c.K, idx3(&c), run);
            }
            run += c.left + 1;
        }
        if (ordered && run != tet) {
            bad++;
            note(r, "the blocks' walks add up to %lld tiles, expected Tet(%d) = %lld", run, p->nb, tet);
        }
        walks[nw++] = 0;
        if (total > 1)
            walks[nw++] = total - 1;
        while (nw < 8 && nw < total) {
            walks[nw] = (long long)(splitmix64(seed + (u64)nw) % (u64)total);
            nw++;
        }
        for (int w = 0; w < nw; w++) {
            int li;
            unsigned bx, by, bz;
            map3d_cursor c;
            const map3d_launch *L = block_of(p, cum, walks[w], &li, &bx, &by, &bz);
            long long expect, steps = 0, want;
            if (!t->first(L, bx, by, bz, &c))
                continue;
            expect = idx3(&c);
            want = c.left + 1;
            do {
                steps++;
                if (!inside3(&c, p->nb)) {
                    out++;
                    note(r, "block %lld step %lld: tile (%d,%d,%d) outside D3(%d)", walks[w], steps,
                         c.I, c.J, c.K, p->nb);
                    break;
                }
                if (ordered && idx3(&c) != expect) {
                    bad++;
                    note(r, "block %lld step %lld: tile (%d,%d,%d) has index %lld, expected %lld",
                         walks[w], steps, c.I, c.J, c.K, idx3(&c), expect);
                    break;
                }
                expect++;
            } while (t->next(L, &c));
            prod += steps - 1;
            if (steps != want) {
                bad++;
                note(r, "block %lld walked %lld tiles, its cursor announced %lld", walks[w], steps,
                     want);
            }
        }
    }
    r->discarded = disc;
    r->produced = prod;
    r->outside = out;
    r->mismatch = bad;
    return out || bad ? 1 : 0;
}
