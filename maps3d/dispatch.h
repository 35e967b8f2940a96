/* dispatch.h — a map chosen at run time, decoded in device (or host) code.
 *
 * map3d_dispatch_first/next switch on the map's index in the registry (map3d_all, which
 * follows maps3d.def), so one kernel serves every map: the switch costs a few instructions
 * per block (per tile for persistent maps), against thousands of triplets per tile. The
 * papers' map-only benchmark kernels instantiate each map directly instead. */
#ifndef TB_MAP3D_DISPATCH_H
#define TB_MAP3D_DISPATCH_H

#include "maps3d/map3d.h"
#include "maps3d/map2d.h"
#include "maps3d/maps3d.def"
#include "maps3d/maps2d.def"

enum map3d_id {
#define MAP3D_ENTRY(nm, summary, max_nb, persistent) MAP3D_ID_##nm,
#include "maps3d/maps3d.def"
#undef MAP3D_ENTRY
    MAP3D_COUNT
};

enum map2d_id {
#define MAP2D_ENTRY(nm, summary, max_nb) MAP2D_ID_##nm,
#include "maps3d/maps2d.def"
#undef MAP2D_ENTRY
    MAP2D_COUNT
};

TB_HOSTDEV static inline int map3d_dispatch_first(int id, const map3d_launch *L, unsigned bx,
                                                  unsigned by, unsigned bz, map3d_cursor *c)
{
    switch (id) {
#define MAP3D_ENTRY(nm, summary, max_nb, persistent)                                       \
    case MAP3D_ID_##nm:                                                                    \
        return map3d_##nm##_first(L, bx, by, bz, c);
#include "maps3d/maps3d.def"
#undef MAP3D_ENTRY
    default:
        return 0;
    }
}

TB_HOSTDEV static inline int map3d_dispatch_next(int id, const map3d_launch *L, map3d_cursor *c)
{
    switch (id) {
#define MAP3D_ENTRY(nm, summary, max_nb, persistent)                                       \
    case MAP3D_ID_##nm:                                                                    \
        return map3d_##nm##_next(L, c);
#include "maps3d/maps3d.def"
#undef MAP3D_ENTRY
    default:
        return 0;
    }
}

TB_HOSTDEV static inline int map2d_dispatch_first(int id, const map2d_launch *L, unsigned bx,
                                                  unsigned by, map2d_cursor *c)
{
    switch (id) {
#define MAP2D_ENTRY(nm, summary, max_nb)                                                   \
    case MAP2D_ID_##nm:                                                                    \
        return map2d_##nm##_first(L, bx, by, c);
#include "maps3d/maps2d.def"
#undef MAP2D_ENTRY
    default:
        return 0;
    }
}

/* Index of a registered map (its map3d_id / map2d_id), or -1. */
static inline int map3d_index(const map3d_type *t)
{
    for (int i = 0; map3d_all[i]; i++)
        if (map3d_all[i] == t)
            return i;
    return -1;
}
static inline int map2d_index(const map2d_type *t)
{
    for (int i = 0; map2d_all[i]; i++)
        if (map2d_all[i] == t)
            return i;
    return -1;
}

#endif
