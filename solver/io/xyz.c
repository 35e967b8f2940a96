/* xyz.c — the first frame of an XYZ or extended-XYZ file in, extended-XYZ frames out (see xyz.h).
 *
 * Extended XYZ (libAtoms/extxyz, as ASE and OVITO read and write it):
 *   line 1    the atom count N
 *   line 2    key=value pairs; a value may be "quoted" (backslash escapes one character) or
 *             {braced}/[bracketed]; a bare key means key=T. Properties=name:type:cols:...
 *             lists the columns of the atom lines, type S (string), R (real), I (integer)
 *             or L (logical); without Properties the file is plain XYZ, "species x y z".
 *   lines 3 .. N+2   one atom per line, whitespace-separated columns.
 * Only the first frame is read; what follows line N+2 is not looked at.
 *
 * Reading keeps one invariant: every message names the file and the 1-based line it is
 * about, so a user can open the file there. Frames are written with %.17g, which strtod
 * reads back to the same double, so a written frame read again is bitwise the same state. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "common/check.h"
#include "config/config.h"
#include "config/units.h"
#include "solver/io/cell.h"
#include "solver/io/lines.h"
#include "solver/io/output.h"
#include "solver/io/xyz.h"

#define XYZ_PROP_MAX 128 /* properties in one Properties= spec */
#define XYZ_ATOM_LINE_MIN 8    /* shortest atom line, "X 0 0 0\n" [bytes] */
#define XYZ_VALUE_MAX 1e15     /* largest |position| or |velocity| accepted [length, velocity] */
#define XYZ_ATOMS_MAX 100000000 /* most atoms in a frame read */
/* ASE's femtosecond in its time unit A sqrt(amu/eV) (ase.units.fs, CODATA 2014, ASE 3.22):
 * an ASE velocity times 1000 fs is in A/ps (metal), times fs in A/fs (real). */
#define XYZ_ASE_FS 0.09822694788464063
#define XYZ_ROW_MAX 512       /* longest row written: 7 + 13 x 25 characters and more [bytes] */
#define XYZ_ROWS_CHUNK 2048   /* rows formatted by one thread at a time */
#define XYZ_CHUNKS 32         /* chunks formatted in one parallel pass (32 MiB of buffers) */

/* One ASE velocity unit, A / (A sqrt(amu/eV)), in the style's velocity unit: 1000 fs in A/ps
 * (metal), fs in A/fs (real); 0 in lj, which ASE's units do not reach (there momenta / mass
 * are taken as sigma/tau, and no momenta are written). */
static double xyz_ase_velocity(int units)
{
    return units == CFG_UNITS_METAL ? 1000.0 * XYZ_ASE_FS
           : units == CFG_UNITS_REAL ? XYZ_ASE_FS
                                     : 0.0;
}

/* One column group of an extended-XYZ atom line. */
typedef struct xyz_prop {
    const char *name; /* points into the parsed comment line */
    char type;        /* S, R, I or L */
    int cols;         /* columns it takes */
    int col0;         /* its first column, 0-based */
} xyz_prop;

typedef io_lines xyz_reader;
#define xyz_getline io_getline

static const char *skip_space(const char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    return s;
}

/* Copies the token at s to *w (NUL-terminated, *w advanced past it) and returns s past the
 * token: a "quoted string", for a value a {braced} or [bracketed] group, else the
 * characters up to whitespace or, for a key, up to '='. An unterminated quote runs to the
 * end of the line: a plain-XYZ comment may hold any text. */
static const char *kv_token(const char *s, int is_key, char **w)
{
    char *o = *w;
    if (*s == '"') {
        for (s++; *s && *s != '"'; s++) {
            if (*s == '\\' && s[1])
                s++;
            *o++ = *s;
        }
        if (*s)
            s++;
    } else if (!is_key && (*s == '{' || *s == '[')) {
        const char close = *s == '{' ? '}' : ']';
        while (*s && *s != close)
            *o++ = *s++;
        if (*s)
            *o++ = *s++;
    } else {
        while (*s && !isspace((unsigned char)*s) && !(is_key && *s == '='))
            *o++ = *s++;
    }
    *o++ = '\0';
    *w = o;
    return s;
}

/* The keys of the comment line that the reader uses. */
enum { KEY_PROPERTIES, KEY_LATTICE, KEY_ORIGIN, KEY_PBC, KEY_UNITS, KEY_N };
static const char *const key_names[KEY_N] = {"Properties", "Lattice", "Origin", "pbc", "units"};

/* Finds the values of key_names (any case; the last one given wins) in a comment line,
 * unquoted, in scratch (at least 2 strlen(comment) + 2 bytes): val[k], NULL when absent. */
static void find_keys(const char *comment, char *scratch, char *val[KEY_N])
{
    const char *s = comment;
    char *w = scratch;
    for (int k = 0; k < KEY_N; k++)
        val[k] = NULL;
    for (;;) {
        char *key, *v = NULL;
        s = skip_space(s);
        if (!*s)
            return;
        key = w;
        s = kv_token(s, 1, &w);
        s = skip_space(s);
        if (*s == '=') {
            s = skip_space(s + 1);
            v = w;
            s = kv_token(s, 0, &w);
        }
        for (int k = 0; v && k < KEY_N; k++)
            if (!strcasecmp(key, key_names[k]))
                val[k] = v;
    }
}

/* Splits a Properties value into props[]; returns their count, or -1 after reporting
 * (line 2). spec is cut in place; props[].name points into it. */
static int parse_properties(char *spec, const char *path, xyz_prop *props)
{
    char *field[3 * XYZ_PROP_MAX + 1];
    int nf = 0, np, col = 0;
    char copy[256];

    snprintf(copy, sizeof copy, "%s", spec); /* for messages, before spec is cut */
    for (char *p = spec;;) {
        char *colon = strchr(p, ':');
        if (nf == 3 * XYZ_PROP_MAX)
            return tb_error(path, 2, "Properties=%s: more than %d properties", copy, XYZ_PROP_MAX);
        field[nf++] = p;
        if (!colon)
            break;
        *colon = '\0';
        p = colon + 1;
    }
    if (nf % 3 != 0)
        return tb_error(path, 2,
                        "Properties=%s: expected name:type:columns triplets (got %d fields)",
                        copy, nf);
    np = nf / 3;
    for (int i = 0; i < np; i++) {
        const char *name = field[3 * i], *type = field[3 * i + 1], *cols = field[3 * i + 2];
        char *end;
        long nc;
        if (!*name)
            return tb_error(path, 2, "Properties=%s: property %d has an empty name", copy, i + 1);
        if (strlen(type) != 1 || !strchr("SRIL", type[0]))
            return tb_error(path, 2,
                            "Properties=%s: property %s has type \"%s\" (expected S, R, I or L)",
                            copy, name, type);
        errno = 0;
        nc = strtol(cols, &end, 10);
        if (end == cols || *end || errno || nc < 1 || nc > 1000)
            return tb_error(path, 2,
                            "Properties=%s: property %s has column count \"%s\" (expected a "
                            "positive integer)",
                            copy, name, cols);
        props[i].name = name;
        props[i].type = type[0];
        props[i].cols = (int)nc;
        props[i].col0 = col;
        col += (int)nc;
    }
    return np;
}

static const xyz_prop *find_prop(const xyz_prop *props, int np, const char *name)
{
    for (int i = 0; i < np; i++)
        if (!strcmp(props[i].name, name))
            return &props[i];
    return NULL;
}

/* Cuts line into at most want whitespace-separated tokens; returns how many it found. */
static int split_columns(char *line, char **tok, int want)
{
    int n = 0;
    char *s = line;
    while (n < want) {
        while (isspace((unsigned char)*s))
            s++;
        if (!*s)
            break;
        tok[n++] = s;
        while (*s && !isspace((unsigned char)*s))
            s++;
        if (*s)
            *s++ = '\0';
    }
    return n;
}

/* Reads a finite double from the whole token t: 0, or -1 after reporting where. what names
 * the column for the message ("pos y", "momenta z"). */
static int parse_real(const char *t, double *x, const xyz_reader *r, int col, const char *what)
{
    char *end;
    *x = strtod(t, &end);
    if (end == t || *end)
        return tb_error(r->path, r->line, "column %d (%s): malformed number \"%s\"", col, what, t);
    if (!isfinite(*x))
        return tb_error(r->path, r->line, "column %d (%s): non-finite value \"%s\"", col, what, t);
    if (fabs(*x) > XYZ_VALUE_MAX)
        return tb_error(r->path, r->line, "column %d (%s): value %s is beyond the largest "
                                          "supported magnitude, %g", col, what, t, XYZ_VALUE_MAX);
    return 0;
}

/* Reads the three columns of prop p (0-based first column c0) of one atom into v[3]. */
static int parse_vec3(char **tok, int c0, const char *name, const xyz_reader *r, double v[3])
{
    static const char axis[3] = {'x', 'y', 'z'};
    char what[64];
    for (int d = 0; d < 3; d++) {
        if (name)
            snprintf(what, sizeof what, "%s %c", name, axis[d]);
        else
            snprintf(what, sizeof what, "%c", axis[d]);
        if (parse_real(tok[c0 + d], &v[d], r, c0 + d + 1, what) != 0)
            return -1;
    }
    return 0;
}

/* Checks that property p is a real 3-vector; NULL p passes. */
static int check_vec3(const xyz_prop *p, const char *path)
{
    if (p && (p->cols != 3 || (p->type != 'R' && p->type != 'I')))
        return tb_error(path, 2, "Properties: %s must be R:3 (got %c:%d)", p->name, p->type,
                        p->cols);
    return 0;
}

/* Reads exactly n numbers from the value v of key (spaces, commas or brackets between them)
 * into x: 0, or -1 after reporting (line 2). */
static int parse_numbers(const char *v, const char *key, int n, double *x, const char *path)
{
    int got = 0;
    const char *s = v;
    for (;;) {
        char *end;
        while (*s && (isspace((unsigned char)*s) || strchr(",[]{}", *s)))
            s++;
        if (!*s)
            break;
        if (got == n)
            return tb_error(path, 2, "%s=\"%s\": more than %d numbers", key, v, n);
        x[got] = strtod(s, &end);
        if (end == s || !(*end == '\0' || isspace((unsigned char)*end) || strchr(",[]{}", *end)))
            return tb_error(path, 2, "%s=\"%s\": malformed number", key, v);
        if (!isfinite(x[got]) || fabs(x[got]) > XYZ_VALUE_MAX)
            return tb_error(path, 2, "%s=\"%s\": a value is not finite or beyond %g", key, v,
                            XYZ_VALUE_MAX);
        got++;
        s = end;
    }
    if (got != n)
        return tb_error(path, 2, "%s=\"%s\": expected %d numbers (got %d)", key, v, n, got);
    return 0;
}

/* pbc="T T F": three of T/F, True/False or 1/0 (any case). 0, or -1 after reporting. */
static int parse_pbc(const char *v, int pbc[3], const char *path)
{
    char tok[4][8];
    int n = 0;
    const char *s = v;
    for (;;) {
        size_t len = 0;
        while (*s && (isspace((unsigned char)*s) || strchr(",[]{}", *s)))
            s++;
        if (!*s)
            break;
        while (s[len] && !isspace((unsigned char)s[len]) && !strchr(",[]{}", s[len]))
            len++;
        if (n == 3 || len >= sizeof tok[0])
            return tb_error(path, 2, "pbc=\"%s\": expected three of T or F", v);
        memcpy(tok[n], s, len);
        tok[n++][len] = '\0';
        s += len;
    }
    if (n != 3)
        return tb_error(path, 2, "pbc=\"%s\": expected three of T or F", v);
    for (int a = 0; a < 3; a++) {
        if (!strcasecmp(tok[a], "T") || !strcasecmp(tok[a], "True") || !strcmp(tok[a], "1"))
            pbc[a] = 1;
        else if (!strcasecmp(tok[a], "F") || !strcasecmp(tok[a], "False") || !strcmp(tok[a], "0"))
            pbc[a] = 0;
        else
            return tb_error(path, 2, "pbc=\"%s\": \"%s\" is not T or F", v, tok[a]);
    }
    return 0;
}

/* The type of species name sp on the current line: one of system.species when given, else
 * the file's names in order of first appearance (a new one appended to s's species). -1
 * after reporting. */
static int species_type(const char *sp, const sim_config *c, sim_state *s, const xyz_reader *r)
{
    if (strlen(sp) > TB_SPECIES_MAX - 1)
        return tb_error(r->path, r->line, "species \"%s\" is longer than %d characters", sp,
                        TB_SPECIES_MAX - 1);
    if (c->system.species_given) {
        char known[TB_TYPES_MAX * (TB_SPECIES_MAX + 2)] = "";
        for (int t = 0; t < c->system.n_species; t++) {
            if (!strcmp(sp, c->system.species[t].name))
                return t;
            snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", t ? ", " : "",
                     c->system.species[t].name);
        }
        return tb_error(r->path, r->line, "species \"%s\" is not one of system.species (%s)", sp,
                        known);
    }
    if (s->ntypes == 1 && strcmp(sp, s->type_name[0]) != 0)
        return tb_error(r->path, r->line, "species \"%s\" after \"%s\": a file of several "
                                          "species needs system.species (their masses and "
                                          "order)", sp, s->type_name[0]);
    if (s->ntypes == 0) /* the one species takes the file's name */
        memcpy(s->type_name[s->ntypes++], sp, strlen(sp) + 1);
    return 0;
}

/* The body of xyz_read once the file is open; returns 0 or -1 after reporting. */
static int xyz_read_open(xyz_reader *r, const char *setting, const sim_config *c, sim_state *s,
                         int *has_vel, int *has_cell)
{
    xyz_prop props[XYZ_PROP_MAX];
    const xyz_prop *p_pos = NULL, *p_vel = NULL, *p_species = NULL;
    static const char *const vel_names[] = {"vel", "velo", "velocities", "momenta"};
    const tb_units *u = units_of(c->units);
    char *line, *end, *scratch = NULL, **tok = NULL, *val[KEY_N];
    double vel_scale = 1.0, lattice[9], origin[3] = {0.0, 0.0, 0.0};
    int pbc[3] = {0, 0, 0};
    io_cell how;
    long count;
    int np = 0, ncols, extended = 0, momenta = 0, names_from_file, rc = -1;

    if (!(line = xyz_getline(r))) {
        if (r->bad)
            return -1;
        if (ferror(r->f))
            return tb_error(r->path, 0, "read error: %s", strerror(errno));
        return tb_error(r->path, 1, "empty file (expected the atom count on line 1)");
    }
    errno = 0;
    count = strtol(line, &end, 10);
    if (end == line || *skip_space(end) || errno || count < 1 || count > XYZ_ATOMS_MAX)
        return tb_error(r->path, 1, "expected the atom count (an integer 1 .. %d), got \"%s\"",
                        XYZ_ATOMS_MAX, line);
    if (c->system.particles > 0 && count != c->system.particles)
        return tb_error(r->path, 1, "%s has %ld atoms but system.particles = %d", setting, count,
                        c->system.particles);

    if (!(line = xyz_getline(r))) {
        if (r->bad)
            return -1;
        if (ferror(r->f))
            return tb_error(r->path, 0, "read error: %s", strerror(errno));
        return tb_error(r->path, r->line,
                        "file ends at line %d, expected a comment line and %ld atom lines",
                        r->line, count);
    }
    if (count > (r->size + 1) / XYZ_ATOM_LINE_MIN)
        return tb_error(r->path, 1, "%ld atoms cannot fit in the file's %lld bytes (an atom line "
                                    "takes at least %d)", count, r->size, XYZ_ATOM_LINE_MIN);
    if (!(scratch = malloc(2 * strlen(line) + 2)))
        return tb_error(r->path, 2, "out of host memory for the comment line");
    find_keys(line, scratch, val);
    if (val[KEY_PROPERTIES]) {
        extended = 1;
        if ((np = parse_properties(val[KEY_PROPERTIES], r->path, props)) < 0)
            goto done;
        p_pos = find_prop(props, np, "pos");
        if (!p_pos) {
            tb_error(r->path, 2, "Properties has no pos property (the positions)");
            goto done;
        }
        for (int i = 0; i < 4 && !p_vel; i++) {
            p_vel = find_prop(props, np, vel_names[i]);
            momenta = i == 3;
        }
        p_species = find_prop(props, np, "species");
        if (check_vec3(p_pos, r->path) != 0 || check_vec3(p_vel, r->path) != 0)
            goto done;
        if (p_species && (p_species->type != 'S' || p_species->cols != 1)) {
            tb_error(r->path, 2, "Properties: species must be S:1 (got %c:%d)",
                     p_species->type, p_species->cols);
            goto done;
        }
    }
    /* Velocities: a frame that names its units (tribody's) is in them, and they must be c's */
    if (val[KEY_UNITS]) {
        if (strcmp(val[KEY_UNITS], u->name) != 0) {
            tb_error(r->path, 2, "units=%s, but the configuration's units are %s (the file was "
                                 "written in other units)", val[KEY_UNITS], u->name);
            goto done;
        }
    }
    /* momenta are always ASE's, whatever the frame's units (tribody writes vel beside them) */
    if (momenta && xyz_ase_velocity(c->units) > 0)
        vel_scale = xyz_ase_velocity(c->units);
    if (val[KEY_LATTICE] && parse_numbers(val[KEY_LATTICE], "Lattice", 9, lattice, r->path) != 0)
        goto done;
    if (val[KEY_ORIGIN] && parse_numbers(val[KEY_ORIGIN], "Origin", 3, origin, r->path) != 0)
        goto done;
    if (val[KEY_PBC]) {
        if (parse_pbc(val[KEY_PBC], pbc, r->path) != 0)
            goto done;
        if (!val[KEY_LATTICE] && (pbc[0] || pbc[1] || pbc[2])) {
            tb_error(r->path, 2, "pbc=\"%s\" has a periodic axis but the frame has no Lattice "
                                 "(the cell)", val[KEY_PBC]);
            goto done;
        }
    } else if (val[KEY_LATTICE]) { /* extended XYZ: a Lattice without pbc is periodic */
        pbc[0] = pbc[1] = pbc[2] = 1;
    }
    ncols = extended ? props[np - 1].col0 + props[np - 1].cols : 4;
    if (!(tok = malloc((size_t)ncols * sizeof *tok))) {
        tb_error(r->path, 2, "out of host memory for %d columns", ncols);
        goto done;
    }
    if (sim_state_alloc(s, (int)count) != 0)
        goto done;
    sim_set_species(s, c);
    names_from_file = !c->system.species_given && (!extended || p_species);
    if (names_from_file)
        s->ntypes = 0;
    /* A cell with a periodic axis is the box; with none it says nothing (open boundaries). */
    memset(&how, 0, sizeof how);
    if (val[KEY_LATTICE] && (pbc[0] || pbc[1] || pbc[2])) {
        char why[256];
        if (cell_to_box(lattice, origin, pbc, &s->box, &how, why, sizeof why) != 0) {
            tb_error(r->path, 2, "Lattice: %s", why);
            goto done;
        }
        *has_cell = 1;
    }

    for (int i = 0; i < (int)count; i++) {
        const char *sp;
        int got;
        if (!(line = xyz_getline(r))) {
            if (r->bad) /* already reported */
                goto done;
            if (ferror(r->f))
                tb_error(r->path, 0, "read error: %s", strerror(errno));
            else
                tb_error(r->path, r->line,
                         "file ends at line %d, expected %ld atom lines (lines 3-%ld)", r->line,
                         count, count + 2);
            goto done;
        }
        got = split_columns(line, tok, ncols);
        if (got < ncols) {
            tb_error(r->path, r->line, "%d columns, expected %d (%s)", got, ncols,
                     extended ? "from Properties" : "species x y z");
            goto done;
        }
        sp = extended ? (p_species ? tok[p_species->col0] : NULL) : tok[0];
        if (sp && (s->type[i] = species_type(sp, c, s, r)) < 0)
            goto done;
        if (parse_vec3(tok, extended ? p_pos->col0 : 1, extended ? "pos" : NULL, r,
                       s->pos + 3 * i) != 0)
            goto done;
        if (p_vel) {
            double *v = s->vel + 3 * i;
            if (parse_vec3(tok, p_vel->col0, p_vel->name, r, v) != 0)
                goto done;
            if (momenta) { /* p / m of the particle's species, as configured */
                const double m = sim_mass(s, i) / u->mvv2e;
                for (int d = 0; d < 3; d++)
                    v[d] = v[d] / m * vel_scale;
                if (!isfinite(v[0]) || !isfinite(v[1]) || !isfinite(v[2])) {
                    tb_error(r->path, r->line, "momenta / mass is not finite (mass %g)", m);
                    goto done;
                }
            }
        }
    }
    if (names_from_file && s->ntypes == 0) /* no species column: the configured one */
        sim_set_species(s, c);
    if (how.rotated) {
        for (int i = 0; i < s->n; i++) {
            cell_rotate(&how, origin, s->pos + 3 * i);
            cell_rotate(&how, NULL, s->vel + 3 * i);
        }
        tb_notice("%s:2: the Lattice is not LAMMPS's restricted triclinic (a along x, b in the "
                  "xy plane): the cell, the positions and the velocities are rotated into it",
                  r->path);
    }
    if (has_vel)
        *has_vel = p_vel != NULL;
    rc = 0;
done:
    free(tok);
    free(scratch);
    return rc;
}

int xyz_read(const char *path, const char *setting, const sim_config *c, sim_state *s,
             int *has_vel, int *has_cell)
{
    xyz_reader r;
    int rc, cell = 0;
    memset(s, 0, sizeof *s);
    if (has_vel)
        *has_vel = 0;
    if (has_cell)
        *has_cell = 0;
    if (!setting)
        setting = "the file";
    if (io_lines_open(&r, path, setting) != 0)
        return TB_EXIT_USAGE;
    rc = xyz_read_open(&r, setting, c, s, has_vel, &cell);
    io_lines_close(&r);
    if (rc != 0) {
        sim_state_free(s);
        if (has_vel)
            *has_vel = 0;
        return TB_EXIT_USAGE;
    }
    if (has_cell)
        *has_cell = cell;
    return 0;
}

/* Particle i's row into buf (room: XYZ_ROW_MAX bytes): its length, or -1 (EOVERFLOW) when it
 * does not fit, which %.17g numbers and a name of at most 7 characters never do. */
static int format_row(char *buf, const sim_state *s, int i, int with_forces, double ase_v)
{
    const double *r = s->pos + 3 * i, *v = s->vel + 3 * i;
    const char *sp = s->type_name[s->type[i]][0] ? s->type_name[s->type[i]] : "X";
    int len = snprintf(buf, XYZ_ROW_MAX, "%s %.17g %.17g %.17g %.17g %.17g %.17g", sp, r[0], r[1],
                       r[2], v[0], v[1], v[2]);
    if (with_forces && len >= 0 && len < XYZ_ROW_MAX) {
        const double *F = s->force + 3 * i;
        len += snprintf(buf + len, XYZ_ROW_MAX - len, " %.17g %.17g %.17g", F[0], F[1], F[2]);
    }
    if (ase_v > 0 && len >= 0 && len < XYZ_ROW_MAX) { /* ASE's momenta m v [amu A / ASE time], masses [amu] */
        const double m = sim_mass(s, i) / units_of(s->units)->mvv2e;
        len += snprintf(buf + len, XYZ_ROW_MAX - len, " %.17g %.17g %.17g %.17g", m * v[0] / ase_v,
                        m * v[1] / ase_v, m * v[2] / ase_v, m);
    }
    if (len < 0 || len + 1 >= XYZ_ROW_MAX)
        return -1;
    buf[len++] = '\n';
    return len;
}

/* The frame's rows into w, in order. Formatting (%.17g, about 2 us a row) is the cost of a
 * frame: blocks of XYZ_ROWS_CHUNK rows are formatted in parallel (OpenMP) into buffers of their
 * own, XYZ_CHUNKS at a time, then written in their order: the same bytes as one row after the
 * other, 10^6 rows in a fraction of a second on 16 cores instead of about 2 s. 0, or -1 with
 * errno set (out of memory, EOVERFLOW). */
static int write_rows(out_rec *w, const sim_state *s, int with_forces, double ase_v)
{
    const long chunks = ((long)s->n + XYZ_ROWS_CHUNK - 1) / XYZ_ROWS_CHUNK;
    const long nbuf = chunks < XYZ_CHUNKS ? chunks : XYZ_CHUNKS;
    char *buf = nbuf > 0 ? malloc((size_t)nbuf * XYZ_ROWS_CHUNK * XYZ_ROW_MAX) : NULL;
    size_t used[XYZ_CHUNKS];
    int bad = 0;
    if (nbuf > 0 && !buf)
        return errno = ENOMEM, -1;
    for (long c0 = 0; c0 < chunks && !bad && !w->err; c0 += nbuf) {
        const long c1 = c0 + nbuf < chunks ? c0 + nbuf : chunks;
#pragma omp parallel for schedule(dynamic, 1) reduction(| : bad) if (c1 - c0 > 1)
        for (long c = c0; c < c1; c++) {
            char *out = buf + (size_t)(c - c0) * XYZ_ROWS_CHUNK * XYZ_ROW_MAX;
            const long i1 = (c + 1) * XYZ_ROWS_CHUNK < s->n ? (c + 1) * XYZ_ROWS_CHUNK : s->n;
            size_t len = 0;
            for (long i = c * XYZ_ROWS_CHUNK; i < i1 && !bad; i++) {
                const int k = format_row(out + len, s, (int)i, with_forces, ase_v);
                bad |= k < 0;
                len += k < 0 ? 0 : (size_t)k;
            }
            used[c - c0] = len;
        }
        for (long c = c0; c < c1 && !bad; c++)
            out_rec_put(w, buf + (size_t)(c - c0) * XYZ_ROWS_CHUNK * XYZ_ROW_MAX, used[c - c0]);
    }
    free(buf);
    if (bad)
        errno = EOVERFLOW;
    return bad ? -1 : 0;
}

int xyz_write_frame(FILE *f, const sim_state *s, int with_forces, const char *extra)
{
    /* One record: a frame that a full disk cuts short is removed whole (out_rec_end), so
     * a trajectory always ends on a whole frame; and it goes straight to the file, so a run
     * that dies leaves every frame it wrote. */
    static out_rec w; /* 64 KiB: not on the stack */
    out_rec_begin(&w, f);
    out_rec_printf(&w, "%d\n", s->n);
    const tb_box_d *b = &s->box;
    if (b->pbc) { /* the cell vectors a, b, c as rows (box.h), and its origin when not 0 */
        out_rec_printf(&w, "Lattice=\"%.17g 0 0 %.17g %.17g 0 %.17g %.17g %.17g\" ", b->l[0], b->xy,
                       b->l[1], b->xz, b->yz, b->l[2]);
        if (b->lo[0] != 0 || b->lo[1] != 0 || b->lo[2] != 0)
            out_rec_printf(&w, "Origin=\"%.17g %.17g %.17g\" ", b->lo[0], b->lo[1], b->lo[2]);
    }
    const double ase_v = xyz_ase_velocity(s->units); /* 0: lj, no ASE momenta */
    out_rec_printf(&w,
                   "Properties=species:S:1:pos:R:3:vel:R:3%s%s Time=%.17g step=%ld energy=%.17g "
                   "pbc=\"%c %c %c\" units=%s",
                   with_forces ? ":forces:R:3" : "", ase_v > 0 ? ":momenta:R:3:masses:R:1" : "",
                   s->time, s->step, s->e_pair + s->e_triplet,
                   b->pbc & 1 ? 'T' : 'F', b->pbc & 2 ? 'T' : 'F', b->pbc & 4 ? 'T' : 'F',
                   units_of(s->units)->name);
    if (b->pbc) {
        /* ASE's stress: the configurational part -W/V, 3x3 row-major (ASE adds the kinetic
         * part itself with get_stress(include_ideal_gas=True)) */
        const double *w9 = s->virial, iv = -1.0 / (b->l[0] * b->l[1] * b->l[2]);
        out_rec_printf(&w, " stress=\"%.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g\"",
                       w9[0] * iv, w9[3] * iv, w9[4] * iv, w9[3] * iv, w9[1] * iv, w9[5] * iv,
                       w9[4] * iv, w9[5] * iv, w9[2] * iv);
    }
    if (extra && *extra)
        out_rec_printf(&w, " %.900s", extra);
    out_rec_printf(&w, "\n");
    if (!w.err && write_rows(&w, s, with_forces, ase_v) != 0)
        w.err = errno ? errno : ENOMEM;
    if (out_rec_end(&w) == 0)
        return 0;
    return tb_error(NULL, 0, "cannot write an XYZ frame: %s",
                    errno ? strerror(errno) : "write error");
}
