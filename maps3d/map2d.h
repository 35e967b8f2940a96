/* map2d.h — the interface of the thread-block maps onto the tile triangle (pair term).
 *
 * Domain: D2(nb) = {(I,J) : 0 <= I <= J < nb}, T2(nb) = nb(nb+1)/2 tiles, diagonal included
 * (diagonal tiles hold the pairs i<j inside one tile). Same contract as map3d.h: over all
 * launches of a plan and every block of each grid as launched, every tile of D2(nb) comes
 * out exactly once and nothing else does. first() returns 0 for DISCARD.
 *
 * Each map is one header maps3d/<name>.h holding
 *     static inline int map2d_<name>_plan(int nb, const map2d_opts *o, map2d_plan *p,
 *                                         char *err, size_t errlen);        (host only)
 *     TB_HOSTDEV static inline int map2d_<name>_first(const map2d_launch *L, unsigned bx,
 *                                   unsigned by, map2d_cursor *c);
 * and two lines in maps3d/maps2d.def. */
#ifndef TB_MAP2D_H
#define TB_MAP2D_H

#include <stddef.h>
#include "common/tb.h"

TB_BEGIN_DECLS

#define MAP2D_MAX_LAUNCH 16 /* rec2d: up to 15 launches for nb <= 65535 */

/* lambda2d square-root variants (solver.root); docs/maps.md#float-only-roots. */
enum map2d_root {
    MAP2D_ROOT_EXACT = 0,  /* float32 estimate + integer fix: exact for omega < 2^45 */
    MAP2D_ROOT_SQRTF = 1,  /* floor(sqrtf(2w+0.25)-0.5), no fix: exact for nb <= 4607 */
    MAP2D_ROOT_RSQRTF = 2, /* x*rsqrtf(x) + 1e-4, no fix (paper LTM-R): nb <= 1967 */
    MAP2D_ROOT_NEWTON = 3  /* 0x5f3759df + 3 Newton steps + 1e-4 (LTM-N): nb <= 1527 */
};

typedef struct map2d_launch {
    unsigned gx, gy; /* grid sides as launched */
    int nb;
    int kind;        /* map-specific */
    int a, b, c;     /* map-specific small parameters */
    long long w0;    /* map-specific 64-bit parameter */
} map2d_launch;

typedef struct map2d_plan {
    int nb;
    int n_launch;
    map2d_launch launch[MAP2D_MAX_LAUNCH];
} map2d_plan;

typedef struct map2d_opts {
    int root; /* enum map2d_root, lambda2d only */
} map2d_opts;

typedef struct map2d_cursor {
    int I, J;
} map2d_cursor;

typedef struct map2d_type {
    const char *name;
    const char *summary;
    long long max_nb;
    int (*plan)(int nb, const map2d_opts *o, map2d_plan *p, char *err, size_t errlen);
    int (*first)(const map2d_launch *L, unsigned bx, unsigned by, map2d_cursor *c);
} map2d_type;

extern const map2d_type *const map2d_all[];
const map2d_type *map2d_find(const char *name);
void map2d_names(char *buf, size_t len);

/* Root variants by name ("exact", "sqrtf", "rsqrtf", "newton"): the enum value, or -1. */
int map2d_root_find(const char *name);
const char *map2d_root_name(int root);
/* Largest nb for which lambda2d with this root is exact (docs/maps.md#float-only-roots). */
long long map2d_root_max_nb(int root);

int map2d_plan_make(const map2d_type *t, int nb, const map2d_opts *o, map2d_plan *p, char *err,
                    size_t errlen);
long long map2d_plan_blocks(const map2d_plan *p);

TB_END_DECLS

#endif
