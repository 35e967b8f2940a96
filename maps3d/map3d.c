/* map3d.c — the registry of tetrahedral maps, built from maps3d.def. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "maps3d/map3d.h"
#include "maps3d/maps3d.def"

/* Host twins of each map's decode, with the registry's signature. */
#define MAP3D_ENTRY(nm, summary, max_nb, persistent)                                       \
    static int host_first_##nm(const map3d_launch *L, unsigned bx, unsigned by, unsigned bz, \
                               map3d_cursor *c)                                            \
    {                                                                                      \
        return map3d_##nm##_first(L, bx, by, bz, c);                                       \
    }                                                                                      \
    static int host_next_##nm(const map3d_launch *L, map3d_cursor *c)                      \
    {                                                                                      \
        return map3d_##nm##_next(L, c);                                                    \
    }
#include "maps3d/maps3d.def"
#undef MAP3D_ENTRY

#define MAP3D_ENTRY(nm, summary, max_nb, persistent)                                       \
    static const map3d_type map3d_type_##nm = {#nm,          summary,         max_nb,       \
                                               persistent,   map3d_##nm##_plan, host_first_##nm, \
                                               host_next_##nm};
#include "maps3d/maps3d.def"
#undef MAP3D_ENTRY

const map3d_type *const map3d_all[] = {
#define MAP3D_ENTRY(nm, summary, max_nb, persistent) &map3d_type_##nm,
#include "maps3d/maps3d.def"
#undef MAP3D_ENTRY
    NULL,
};

const map3d_type *map3d_find(const char *name)
{
    for (int i = 0; map3d_all[i]; i++)
        if (strcmp(map3d_all[i]->name, name) == 0)
            return map3d_all[i];
    return NULL;
}

void map3d_names(char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; map3d_all[i] && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", map3d_all[i]->name);
}

int map3d_plan_make(const map3d_type *t, int nb, const map3d_opts *o, map3d_plan *p,
                    char *err, size_t errlen)
{
    map3d_opts none = {0};
    memset(p, 0, sizeof *p);
    if (nb > t->max_nb) {
        snprintf(err, errlen, "%s: nb = %d tiles per dimension exceeds its limit %lld", t->name,
                 nb, t->max_nb);
        return -1;
    }
    if (t->plan(nb, o ? o : &none, p, err, errlen) != 0)
        return -1;
    if (p->w_end == 0) { /* the map covers the whole domain */
        p->w_begin = 0;
        p->w_end = map3d_tet(nb);
    }
    return 0;
}

void map3d_plan_free(map3d_plan *p)
{
    if (!p)
        return;
    free(p->h_table);
    p->h_table = NULL;
    p->table_len = 0;
}

long long map3d_plan_blocks(const map3d_plan *p)
{
    long long s = 0;
    for (int i = 0; i < p->n_launch; i++)
        s += (long long)p->launch[i].gx * p->launch[i].gy * p->launch[i].gz;
    return s;
}
