/* map2d.c — the registry of triangular maps, built from maps2d.def, and the root variants. */
#include <stdio.h>
#include <string.h>

#include "maps3d/map2d.h"
#include "maps3d/maps2d.def"

#define MAP2D_ENTRY(nm, summary, max_nb)                                                   \
    static int host_first_##nm(const map2d_launch *L, unsigned bx, unsigned by,            \
                               map2d_cursor *c)                                            \
    {                                                                                      \
        return map2d_##nm##_first(L, bx, by, c);                                           \
    }                                                                                      \
    static const map2d_type map2d_type_##nm = {#nm, summary, max_nb, map2d_##nm##_plan,    \
                                               host_first_##nm};
#include "maps3d/maps2d.def"
#undef MAP2D_ENTRY

const map2d_type *const map2d_all[] = {
#define MAP2D_ENTRY(nm, summary, max_nb) &map2d_type_##nm,
#include "maps3d/maps2d.def"
#undef MAP2D_ENTRY
    NULL,
};

const map2d_type *map2d_find(const char *name)
{
    for (int i = 0; map2d_all[i]; i++)
        if (strcmp(map2d_all[i]->name, name) == 0)
            return map2d_all[i];
    return NULL;
}

void map2d_names(char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; map2d_all[i] && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", map2d_all[i]->name);
}

static const char *const root_names[] = {"exact", "sqrtf", "rsqrtf", "newton"};

int map2d_root_find(const char *name)
{
    for (int i = 0; i < 4; i++)
        if (strcmp(root_names[i], name) == 0)
            return i;
    return -1;
}

const char *map2d_root_name(int root)
{
    return root >= 0 && root < 4 ? root_names[root] : "?";
}

long long map2d_root_max_nb(int root)
{
    switch (root) {
    case MAP2D_ROOT_SQRTF: return 4607;
    case MAP2D_ROOT_RSQRTF: return 1967;
    case MAP2D_ROOT_NEWTON: return 1527;
    default: return 65535;
    }
}

int map2d_plan_make(const map2d_type *t, int nb, const map2d_opts *o, map2d_plan *p, char *err,
                    size_t errlen)
{
    map2d_opts none = {0};
    memset(p, 0, sizeof *p);
    if (nb > t->max_nb) {
        snprintf(err, errlen, "%s: nb = %d tiles per dimension exceeds its limit %lld", t->name,
                 nb, t->max_nb);
        return -1;
    }
    return t->plan(nb, o ? o : &none, p, err, errlen);
}

long long map2d_plan_blocks(const map2d_plan *p)
{
    long long s = 0;
    for (int i = 0; i < p->n_launch; i++)
        s += (long long)p->launch[i].gx * p->launch[i].gy;
    return s;
}
