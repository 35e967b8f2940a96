/* config_report.c — how cfg_load reports a problem: one line naming file, line (or the --set
 * text) and setting; numbers as a config file writes them; the nearest known name for an
 * unknown one. */
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

/* ---- reporting ----------------------------------------------------------------------------- */

/* The file that setting s was read from, as a path from the current directory. libconfig 1.5
 * records an @include file by the name in the directive, which it resolved against the config
 * file's directory (cfg_load sets that as the include directory). */
void cfg_source_path(const cfg_ctx *x, const config_setting_t *s, char *buf, size_t len)
{
    const char *f = config_setting_source_file(s);
    if (!f || strcmp(f, x->path) == 0 || f[0] == '/')
        snprintf(buf, len, "%s", f ? f : x->path);
    else
        snprintf(buf, len, "%s%s", x->dir, f);
}

/* Reports one problem: "tribody: FILE[:LINE]: [SETTING: ]message". */
static void vproblem(cfg_ctx *x, const char *file, int line, const char *setting, const char *fmt,
                     va_list ap)
{
    char msg[1024];
    vsnprintf(msg, sizeof msg, fmt, ap);
    if (setting)
        tb_error(file, line, "%s: %s", setting, msg);
    else
        tb_error(file, line, "%s", msg);
    x->n_err++;
}

/* Reports a problem with setting `path`, located where s was given (s NULL: the file itself). */
void cfg_problem(cfg_ctx *x, const config_setting_t *s, const char *path, const char *fmt, ...)
{
    char where[CFG_PATH_MAX + 16];
    int line = 0;
    const char *hook = s ? (const char *)config_setting_get_hook(s) : NULL;
    if (hook)
        snprintf(where, sizeof where, "--set %s", hook);
    else if (s && config_setting_source_file(s)) {
        cfg_source_path(x, s, where, sizeof where);
        line = (int)config_setting_source_line(s);
    } else
        snprintf(where, sizeof where, "%s", x->path);
    va_list ap;
    va_start(ap, fmt);
    vproblem(x, where, line, path, fmt, ap);
    va_end(ap);
}

void cfg_problem_at(cfg_ctx *x, const char *file, int line, const char *path, const char *fmt,
                    ...)
{
    va_list ap;
    va_start(ap, fmt);
    vproblem(x, file, line, path, fmt, ap);
    va_end(ap);
}

/* Reports a problem with the override `set` itself (before it became a setting). */
void cfg_problem_set(cfg_ctx *x, const char *set, const char *path, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 4, 5)))
#endif
    ;

void cfg_problem_set(cfg_ctx *x, const char *set, const char *path, const char *fmt, ...)
{
    char where[CFG_PATH_MAX + 16];
    snprintf(where, sizeof where, "--set %s", set);
    va_list ap;
    va_start(ap, fmt);
    vproblem(x, where, 0, path, fmt, ap);
    va_end(ap);
}

/* The shortest text that reads back as v ("0.002", not "0.0020000000000000000"). */
const char *cfg_fmt_num(double v, char buf[32])
{
    snprintf(buf, 32, "%.15g", v);
    if (strtod(buf, NULL) != v)
        snprintf(buf, 32, "%.17g", v);
    return buf;
}

/* "an integer", "a string", ... : what a libconfig setting is, for "(got ...)". */
const char *cfg_type_phrase(int t)
{
    switch (t) {
    case CONFIG_TYPE_INT:
    case CONFIG_TYPE_INT64: return "an integer";
    case CONFIG_TYPE_FLOAT: return "a float";
    case CONFIG_TYPE_STRING: return "a string";
    case CONFIG_TYPE_BOOL: return "a bool";
    case CONFIG_TYPE_GROUP: return "a group";
    case CONFIG_TYPE_ARRAY: return "an array";
    case CONFIG_TYPE_LIST: return "a list";
    default: return "nothing";
    }
}

/* What a row wants, for "expected ...". */
const char *cfg_kind_phrase(enum cfg_kind k)
{
    switch (k) {
    case K_GROUP: return "a group";
    case K_INT:
    case K_LONG:
    case K_ULONG: return "an integer";
    case K_FLOAT: return "a number";
    case K_BOOL: return "true or false";
    case K_LIST: return "a list";
    default: return "a string";
    }
}

/* Edit (Levenshtein) distance between a and b, both shorter than 128 characters. */
static int edit_distance(const char *a, const char *b)
{
    int la = (int)strlen(a), lb = (int)strlen(b), row[128];
    if (la >= 128 || lb >= 128)
        return INT_MAX;
    for (int j = 0; j <= lb; j++)
        row[j] = j;
    for (int i = 1; i <= la; i++) {
        int diag = row[0];
        row[0] = i;
        for (int j = 1; j <= lb; j++) {
            int up = row[j];
            int best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

static const char *last_part(const char *path)
{
    const char *dot = strrchr(path, '.');
    return dot ? dot + 1 : path;
}

/* The known setting nearest to an unknown `path`: the one with the same last name
 * (system.dt -> integrator.dt), else the closest by edit distance when it is within a third
 * of the name's length; NULL when nothing is close. */
static const char *suggest(const char *path)
{
    const char *best = NULL;
    int best_d = INT_MAX;
    for (int i = 0; i < cfg_n_rows; i++)
        if (strcmp(last_part(cfg_rows[i].path), last_part(path)) == 0)
            return cfg_rows[i].path;
    for (int i = 0; i < cfg_n_rows; i++) {
        int d = edit_distance(path, cfg_rows[i].path);
        if (d < best_d) {
            best_d = d;
            best = cfg_rows[i].path;
        }
    }
    int limit = (int)strlen(path) / 3;
    return best_d <= (limit > 1 ? limit : 1) ? best : NULL;
}

/* "unknown setting (did you mean X?)" for s, or for the override `set` when s is NULL. */
void cfg_unknown_setting(cfg_ctx *x, const config_setting_t *s, const char *set,
                            const char *path)
{
    const char *near = suggest(path);
    char hint[160] = "";
    if (near)
        snprintf(hint, sizeof hint, " (did you mean %s?)", near);
    if (s)
        cfg_problem(x, s, path, "unknown setting%s", hint);
    else
        cfg_problem_set(x, set, path, "unknown setting%s", hint);
}

