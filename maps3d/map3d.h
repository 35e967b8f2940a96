/* map3d.h — the one interface of the thread-block maps onto the tile tetrahedron.
 *
 * Domain: nb tiles per dimension, D3(nb) = {(I,J,K) : 0 <= I <= J <= K < nb}, with
 * Tet(nb) = nb(nb+1)(nb+2)/6 tiles (faces and diagonal included; they hold valid particle
 * triplets i<j<k). docs/maps.md gives every map's formulas.
 *
 * A map turns nb into a plan: one or more launches (grids of blocks). For a block
 * (bx,by,bz) of launch L, first() yields its tile or DISCARD (returns 0). Persistent maps
 * (stride) hand one block several tiles: the kernel loops `while (next(L, &c))`; every
 * other map's next() returns 0 at once. Contract: over all launches of the plan and all
 * blocks of each grid exactly as launched, every tile of D3(nb) is yielded exactly once and
 * nothing outside D3(nb) is yielded.
 *
 * Each map is one header maps3d/<name>.h holding
 *     static inline int map3d_<name>_plan(int nb, const map3d_opts *o, map3d_plan *p,
 *                                         char *err, size_t errlen);        (host only)
 *     TB_HOSTDEV static inline int map3d_<name>_first(const map3d_launch *L, unsigned bx,
 *                                   unsigned by, unsigned bz, map3d_cursor *c);
 *     TB_HOSTDEV static inline int map3d_<name>_next(const map3d_launch *L, map3d_cursor *c);
 * and two lines in maps3d/maps3d.def (its #include and its MAP3D_ENTRY). The registry
 * (map3d.c), the GPU kernels (one instantiation per entry), config lookup, `tribody maps`,
 * bench and the tests all iterate that list. Maps never pad or round n: tiles are clipped
 * to n by the kernels. */
#ifndef TB_MAP3D_H
#define TB_MAP3D_H

#include <stddef.h>
#include "common/tb.h"

TB_BEGIN_DECLS

#define MAP3D_MAX_LAUNCH 96
#define MAP3D_GRID_X_MAX 2147483647LL /* CUDA limits on grid sides */
#define MAP3D_GRID_YZ_MAX 65535LL

/* One launch of a plan: its grid as launched and the map's parameters for decoding it.
 * Passed by value to kernels, so it holds no host-only pointers except `table`, which the
 * backend points at a copy in the memory space of the code that decodes (host or device). */
typedef struct map3d_launch {
    unsigned gx, gy, gz; /* grid sides as launched */
    int nb;              /* tiles per dimension of the whole domain */
    int kind;            /* map-specific: segment kind, family, layout */
    int a, b, c, d, e;   /* map-specific small parameters (offsets, family c, m, ...) */
    long long w0, w1;    /* map-specific 64-bit parameters (omega range, volume, ...) */
    long long w_off;     /* enumerating maps: the first omega of the launch (a rank's range) */
    const long long *table; /* map-specific lookup table (NULL for most maps) */
} map3d_launch;

typedef struct map3d_plan {
    int nb;
    int n_launch;
    map3d_launch launch[MAP3D_MAX_LAUNCH];
    long long *h_table;   /* host lookup table owned by the plan (NULL for most maps) */
    long long table_len;  /* its entries */
    /* The part of the lambda order omega = Tet(K) + T2(J) + I the plan yields: [w_begin, w_end).
     * [0, Tet(nb)) unless the options asked for a sub-range and the map enumerates. */
    long long w_begin, w_end;
} map3d_plan;

/* Options some maps need. */
typedef struct map3d_opts {
    int persistent_blocks; /* stride: number of resident blocks G (0 = map's default) */
    /* A sub-range [w_begin, w_end) of the lambda order to cover (one rank's share, split.h);
     * w_end = 0: the whole domain. The maps that enumerate omega (lambda, table, stride) launch
     * only that range; the others (bb, rec) cover the whole domain, and the caller skips the
     * tiles outside it (map3d_in_range) — plan.w_begin/w_end say which happened. */
    long long w_begin, w_end;
} map3d_opts;

/* Where a block stands. I <= J <= K are tile indices; the rest is the map's own state. */
typedef struct map3d_cursor {
    int I, J, K;
    long long left; /* persistent maps: tiles still to visit after this one */
} map3d_cursor;

typedef struct map3d_type {
    const char *name;    /* key in sim.cfg: "bb", "lambda", "rec", ... */
    const char *summary; /* one line for `tribody maps` and --help */
    long long max_nb;    /* the largest nb the map accepts (exact up to there) */
    int persistent;      /* 1 when blocks loop over several tiles (next() may return 1) */
    int (*plan)(int nb, const map3d_opts *o, map3d_plan *p, char *err, size_t errlen);
    int (*first)(const map3d_launch *L, unsigned bx, unsigned by, unsigned bz, map3d_cursor *c);
    int (*next)(const map3d_launch *L, map3d_cursor *c);
} map3d_type;

/* NULL-terminated registry, in the order of maps3d.def. */
extern const map3d_type *const map3d_all[];

/* The map called `name`, or NULL. */
const map3d_type *map3d_find(const char *name);

/* Writes "bb, lambda, rec, ..." (the registry's names) into buf. */
void map3d_names(char *buf, size_t len);

/* Builds the plan of map t for nb tiles; on failure writes a one-line reason to err and
 * returns -1 (for example nb beyond the map's exact range). map3d_plan_free releases
 * what a plan owns (the lookup table); it accepts a zeroed plan. */
int map3d_plan_make(const map3d_type *t, int nb, const map3d_opts *o, map3d_plan *p,
                    char *err, size_t errlen);
void map3d_plan_free(map3d_plan *p);

/* Total blocks launched by a plan (sum over launches of gx*gy*gz). */
long long map3d_plan_blocks(const map3d_plan *p);

/* Tet(k) = k(k+1)(k+2)/6 and T2(r) = r(r+1)/2, in 64 bits. */
TB_HOSTDEV static inline long long map3d_tet(long long k) { return k * (k + 1) * (k + 2) / 6; }
TB_HOSTDEV static inline long long map3d_tri(long long r) { return r * (r + 1) / 2; }

/* The lambda-order index of tile (I, J, K): omega = Tet(K) + T2(J) + I. */
TB_HOSTDEV static inline long long map3d_omega(int I, int J, int K)
{
    return map3d_tet(K) + map3d_tri(J) + I;
}

/* Is the tile of c inside [lo, hi) of the lambda order? (The per-rank filter of maps that do
 * not enumerate omega.) */
TB_HOSTDEV static inline int map3d_in_range(const map3d_cursor *c, long long lo, long long hi)
{
    const long long w = map3d_omega(c->I, c->J, c->K);
    return w >= lo && w < hi;
}

/* Number of tiles per dimension for n particles and tile edge rho. */
static inline int map3d_nb(int n, int edge) { return (n + edge - 1) / edge; }

TB_END_DECLS

#endif
