/* config_set.c — the command line's --set PATH=VALUE overrides: each value parsed as a libconfig
 * scalar (or a bare word taken as a string; a list setting's value also as a list or array)
 * and merged into the parsed tree, so that it is checked once, by the same code as the file,
 * and reported as "--set PATH=VALUE". */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <libconfig.h>

#include "config/config.h"
#include "config/input.h"
#include "maps3d/map2d.h"
#include "maps3d/map3d.h"
#include "common/check.h"

#include "config/config_int.h"

/* ---- --set overrides ----------------------------------------------------------------------- */

/* Parses `text` as one libconfig scalar (or, with `aggregate`, also a list ( ... ) or an
 * array [ ... ]) into the scratch config sc; returns its setting, or NULL when text is not
 * one (then it is taken as a bare string). */
static const config_setting_t *parse_scalar(config_t *sc, const char *text, int aggregate)
{
    size_t n = strlen(text) + 8;
    char *src = malloc(n);
    const config_setting_t *v = NULL;
    if (!src || strchr(text, '\n'))
        goto done;
    snprintf(src, n, "v = %s;", text);
    if (config_read_string(sc, src) == CONFIG_TRUE &&
        config_setting_length(config_root_setting(sc)) == 1) {
        v = config_setting_get_member(config_root_setting(sc), "v");
        if (v && !config_setting_is_scalar(v) && !(aggregate && config_setting_is_aggregate(v) &&
                                                   !config_setting_is_group(v)))
            v = NULL;
    }
done:
    free(src);
    return v;
}

/* Copies the aggregate (list, array, group) v into the new setting d of the same type, each
 * setting made tagged with the override `set` (so that messages name it). 0 or -1. */
static int copy_aggregate(config_setting_t *d, const config_setting_t *v, char *set)
{
    for (int i = 0; i < config_setting_length(v); i++) {
        const config_setting_t *e = config_setting_get_elem(v, (unsigned)i);
        const int t = config_setting_type(e);
        config_setting_t *n = config_setting_add(d, config_setting_is_group(d) ?
                                                 config_setting_name(e) : NULL, t);
        if (!n)
            return -1;
        config_setting_set_hook(n, set);
        if (t == CONFIG_TYPE_INT)
            config_setting_set_int(n, config_setting_get_int(e));
        else if (t == CONFIG_TYPE_INT64)
            config_setting_set_int64(n, config_setting_get_int64(e));
        else if (t == CONFIG_TYPE_FLOAT)
            config_setting_set_float(n, config_setting_get_float(e));
        else if (t == CONFIG_TYPE_BOOL)
            config_setting_set_bool(n, config_setting_get_bool(e));
        else if (t == CONFIG_TYPE_STRING)
            config_setting_set_string(n, config_setting_get_string(e));
        else if (copy_aggregate(n, e, set) != 0)
            return -1;
    }
    return 0;
}

/* Adds member `name` to group g holding the value of VALUE (scalar or bare string; with
 * `aggregate`, also a list or an array, copied whole). An integer that does not fit an int,
 * written without the L suffix, is stored as an int64: libconfig kept only its low 32 bits
 * (see int_value). */
static config_setting_t *add_value(config_setting_t *g, const char *name, const char *value,
                                   int aggregate, char *set)
{
    config_t sc;
    long long w = 0;
    config_init(&sc);
    const config_setting_t *v = parse_scalar(&sc, value, aggregate);
    int t = v ? config_setting_type(v) : CONFIG_TYPE_STRING;
    if (t == CONFIG_TYPE_INT && cfg_int_literal(value + strspn(value, " \t"), &w) &&
        cfg_truncated_to(w, config_setting_get_int(v)))
        t = CONFIG_TYPE_INT64;
    else if (t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64)
        w = config_setting_get_int64(v);
    config_setting_t *s = config_setting_add(g, name, t);
    if (s) {
        if (t == CONFIG_TYPE_INT)
            config_setting_set_int(s, (int)w);
        else if (t == CONFIG_TYPE_INT64)
            config_setting_set_int64(s, w);
        else if (t == CONFIG_TYPE_FLOAT)
            config_setting_set_float(s, config_setting_get_float(v));
        else if (t == CONFIG_TYPE_BOOL)
            config_setting_set_bool(s, config_setting_get_bool(v));
        else if (t == CONFIG_TYPE_LIST || t == CONFIG_TYPE_ARRAY) {
            if (copy_aggregate(s, v, set) != 0) {
                config_setting_remove(g, name);
                s = NULL;
            }
        } else
            config_setting_set_string(s, v ? config_setting_get_string(v) : value);
    }
    config_destroy(&sc);
    return s;
}

/* The group that holds `path`'s last name, creating missing groups (tagged with the override).
 * NULL when a part of the path exists but is not a group: the walk reports that setting. */
static config_setting_t *parent_of(config_t *cf, const char *path, char *set, const char **name)
{
    config_setting_t *g = config_root_setting(cf);
    char part[256];
    const char *p = path, *dot;
    while ((dot = strchr(p, '.')) != NULL) {
        snprintf(part, sizeof part, "%.*s", (int)(dot - p), p);
        config_setting_t *m = config_setting_get_member(g, part);
        if (!m) {
            m = config_setting_add(g, part, CONFIG_TYPE_GROUP);
            if (m)
                config_setting_set_hook(m, set);
        }
        if (!m || !config_setting_is_group(m))
            return NULL;
        g = m;
        p = dot + 1;
    }
    *name = p;
    return g;
}

/* Merges one override "PATH=VALUE" into the parsed tree, replacing the file's value. */
void cfg_merge_set(cfg_ctx *x, config_t *cf, char *set)
{
    const char *eq = strchr(set, '='), *name = NULL;
    char path[256];
    if (!eq || eq == set || eq - set >= (long)sizeof path) {
        cfg_problem_set(x, set, NULL, "expected PATH=VALUE (for example --set solver.map=bb)");
        return;
    }
    snprintf(path, sizeof path, "%.*s", (int)(eq - set), set);
    if (cfg_literal_overflows(eq + 1)) {
        cfg_problem_set(x, set, path, "%s is beyond the 64-bit integer range (the largest is %lld)",
                    eq + 1, LLONG_MAX);
        return;
    }
    if (cfg_row_find(path) < 0) {
        cfg_unknown_setting(x, NULL, set, path);
        return;
    }
    config_setting_t *g = parent_of(cf, path, set, &name);
    if (!g)
        return;
    if (config_setting_get_member(g, name))
        config_setting_remove(g, name);
    /* a list setting takes a libconfig list or array: --set 'system.init.composition=[0.8, 0.2]' */
    const int ri = cfg_row_find(path);
    config_setting_t *s = add_value(g, name, eq + 1, cfg_rows[ri].kind == K_LIST, set);
    if (s)
        config_setting_set_hook(s, set);
    else
        cfg_problem_set(x, set, path, "cannot store the value");
}

