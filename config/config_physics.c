/* config_physics.c — the settings that define the physics, as text: the schema rows marked
 * CF_PHYSICS (config.c) with a configuration's values, one "name=value" line each. A checkpoint
 * stores this text and a restart compares it with its configuration's (solver/io/restart.c),
 * so a setting is checked on restart by marking its row, not by a list kept elsewhere. A row
 * newer than a checkpoint's text (CF_ABSENT_DEFAULT) reads there as it was before it existed:
 * its default (cfg_physics_absent). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"

#include "config/config_int.h"

/* Whether row r sits inside a group that records its presence (potential.lj) and was not
 * given: its setting is then not in effect, written as 0 whatever its default. */
static int in_absent_group(const sim_config *c, const cfg_row *r)
{
    for (int i = 0; i < cfg_n_rows; i++) {
        const cfg_row *g = &cfg_rows[i];
        const size_t n = strlen(g->path);
        if (g->kind == K_GROUP && g->size == sizeof(int) && g != r &&
            !strncmp(r->path, g->path, n) && r->path[n] == '.' &&
            !*(const int *)((const char *)c + g->off))
            return 1;
    }
    return 0;
}

/* The shortest text that reads back as v: "0.7", not 0.6999... */
static void float_text(double v, char *buf, size_t size)
{
    snprintf(buf, size, "%.15g", v);
    if (strtod(buf, NULL) != v)
        snprintf(buf, size, "%.17g", v);
}

/* Row r's value in c as the physics text writes it, into buf. */
static void physics_value(const sim_config *c, const cfg_row *r, char *buf, size_t size)
{
    const char *f = (const char *)c + r->off;
    if (r->text && r->kind != K_LIST) { /* a file's physics is what it holds (potential.sw) */
        r->text(c, buf, size);
        return;
    }
    if (in_absent_group(c, r)) {
        snprintf(buf, size, "0");
        return;
    }
    switch (r->kind) {
    case K_BOUNDARY: {
        const int *p = c->system.periodic;
        if (c->system.boundary == CFG_BOUNDARY_MIXED)
            snprintf(buf, size, "%c%c%c", p[0] ? 'p' : 'f', p[1] ? 'p' : 'f', p[2] ? 'p' : 'f');
        else
            snprintf(buf, size, "%s", cfg_boundary_name(c->system.boundary));
        break;
    }
    case K_BOX: /* a cube (or none) as its edge, as before; the group form as its nine numbers */
        if (!c->system.box_group) {
            float_text(c->system.box, buf, size);
            break;
        }
        {
            size_t u = 0;
            const double *v[3] = {c->system.box_lengths, c->system.box_tilt, c->system.box_origin};
            for (int k = 0; k < 9 && u < size; k++) {
                char one[32];
                float_text(v[k / 3][k % 3], one, sizeof one);
                u += (size_t)snprintf(buf + u, size - u, "%s%s", k ? " " : "", one);
            }
        }
        break;
    case K_FLOAT: float_text(*(const double *)f, buf, size); break;
    case K_LONG: snprintf(buf, size, "%ld", *(const long *)f); break;
    case K_ULONG: snprintf(buf, size, "%lu", *(const unsigned long *)f); break;
    case K_CHOICE: {
        const int v = *(const int *)f;
        int n = 0;
        while (r->choices[n])
            n++;
        snprintf(buf, size, "%s", v >= 0 && v < n ? r->choices[v] : "?");
        break;
    }
    case K_INT:
    case K_BOOL:
    case K_GROUP: snprintf(buf, size, "%d", *(const int *)f); break;
    case K_LIST: r->text(c, buf, size); break;
    default: snprintf(buf, size, "%.*s", (int)r->size, f); break;
    }
}

int cfg_physics_text(const sim_config *c, char *buf, size_t size)
{
    size_t used = 0;
    char v[256];
    buf[0] = '\0';
    for (int i = 0; i < cfg_n_rows; i++) {
        const cfg_row *r = &cfg_rows[i];
        if (!(r->flags & CF_PHYSICS))
            continue;
        physics_value(c, r, v, sizeof v);
        const int n = snprintf(buf + used, size - used, "%s=%s\n", r->path, v);
        if (n < 0 || (size_t)n >= size - used)
            return -1;
        used += (size_t)n;
    }
    return 0;
}

const char *cfg_physics_follows(const char *path)
{
    const int i = cfg_row_find(path);
    return i >= 0 ? cfg_rows[i].follows : NULL;
}

/* The value of `name` in the physics text `text`, as a number (1 when found). */
static int stored_number(const char *text, const char *name, double *v)
{
    const size_t len = strlen(name);
    for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
        if (!strncmp(p, name, len) && p[len] == '=') {
            char *end;
            *v = strtod(p + len + 1, &end);
            return end != p + len + 1;
        }
    return 0;
}

/* A checkpoint of a tribody before units and species ran lj, one species of system.mass,
 * no pairs nor triplets: the defaults, with the mass and the LJ group it recorded. */
int cfg_physics_absent(const char *name, const char *stored, char *buf, size_t size)
{
    const int i = cfg_row_find(name);
    sim_config *c;
    double v;
    if (i < 0 || !(cfg_rows[i].flags & CF_ABSENT_DEFAULT) || !(c = malloc(sizeof *c)))
        return 0;
    cfg_defaults(c);
    if (stored_number(stored, "system.mass", &v))
        c->system.mass = v;
    if (stored_number(stored, "potential.lj", &v))
        c->potential.lj.enabled = v != 0;
    cfg_single_species(c);
    physics_value(c, &cfg_rows[i], buf, size);
    free(c);
    return 1;
}

int cfg_is_physics(const char *path)
{
    const int i = cfg_row_find(path);
    return i >= 0 && (cfg_rows[i].flags & CF_PHYSICS) != 0;
}
