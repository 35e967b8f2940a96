/* lammps_data.c — LAMMPS data files, atomic style (see lammps_data.h): the reader behind
 * system.init.type = "lammps" and the writer of output.data. Every error is one line naming
 * the file, the line and system.init.file; nothing is kept from a file that fails. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/check.h"
#include "config/config.h"
#include "config/units.h"
#include "solver/io/lammps_data.h"
#include "solver/io/lines.h"
#include "solver/io/output.h"

#define LD_WORDS 10          /* words of the longest line read (Atoms with image flags: 8) */
#define LD_ATOMS_MAX 10000000 /* system.particles' range */
#define LD_ATOM_LINE_MIN 10  /* shortest Atoms line, "1 1 0 0 0\n" [bytes] */
#define LD_VALUE_MAX 1e15    /* largest |coordinate| or |velocity| accepted */
#define LD_MASS_TOL 1e-5     /* a file's mass against the configured one, relative */

/* One atom of the Atoms section, in the file's order. */
typedef struct ld_atom {
    long long id;
    int k;    /* index in the file's order */
    int line; /* its line */
} ld_atom;

typedef struct ld_file {
    io_lines r;
    const char *setting;
    const sim_config *c;
    long long natoms;
    int ntypes, atoms_line, types_line, tilt_line, box_line[3];
    double lo[3], hi[3], tilt[3];
    ld_atom *atom;  /* [natoms], sorted by id once the Atoms section is read */
    int *type;      /* [natoms] 0-based, file order */
    double *x, *v;  /* [3 natoms] file order */
    int got_atoms, got_vel, masses_line;
    int mass_line[TB_TYPES_MAX]; /* the Masses line of each type, 0: not given */
} ld_file;

/* "tribody: PATH:LINE: system.init.file: message". Returns -1. */
static int ld_err(const ld_file *d, int line, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static int ld_err(const ld_file *d, int line, const char *fmt, ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return tb_error(d->r.path, line, "%s: %s", d->setting, msg);
}

/* Splits line (its comment, from '#', dropped) into at most LD_WORDS words in place; the
 * count, LD_WORDS + 1 when there are more. */
static int split(char *line, char **w)
{
    int n = 0;
    char *h = strchr(line, '#');
    if (h)
        *h = '\0';
    for (char *p = line;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p)
            return n;
        if (n == LD_WORDS)
            return n + 1;
        w[n++] = p;
        while (*p && *p != ' ' && *p != '\t')
            p++;
        if (*p)
            *p++ = '\0';
    }
}

/* A whole word as a finite number within LD_VALUE_MAX. */
static int num(const char *t, double *x)
{
    char *end;
    errno = 0;
    *x = strtod(t, &end);
    return end != t && !*end && isfinite(*x) && fabs(*x) <= LD_VALUE_MAX ? 0 : -1;
}

/* A whole word as an integer. */
static int whole(const char *t, long long *v)
{
    char *end;
    errno = 0;
    *v = strtoll(t, &end, 10);
    return end != t && !*end && !errno ? 0 : -1;
}

/* The next line that holds more than a comment, or NULL (end of file or reported). */
static char *next_content(ld_file *d)
{
    char *line;
    while ((line = io_getline(&d->r))) {
        const char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p && *p != '#')
            return line;
    }
    return NULL;
}

/* A header count that molecular styles use: only 0 is read. */
static int zero_count(ld_file *d, char **w, int n, const char *line_text)
{
    long long v;
    if (whole(w[0], &v) != 0 || v != 0)
        return ld_err(d, d->r.line, "\"%s\": tribody reads atom_style atomic only, which has "
                                    "none (got %s)", line_text, w[0]);
    (void)n;
    return 0;
}

/* The header, after the title line: up to the first section keyword, left in *sec (NULL at
 * the end of the file). */
static int read_header(ld_file *d, char **sec)
{
    static const char *const mol[] = {"bonds", "angles", "dihedrals", "impropers", "ellipsoids",
                                      "lines", "triangles", "bodies", NULL};
    static const char *const mol_types[] = {"bond", "angle", "dihedral", "improper", NULL};
    char *line, *w[LD_WORDS + 1], text[128];
    for (int a = 0; a < 3; a++) { /* LAMMPS's defaults */
        d->lo[a] = -0.5;
        d->hi[a] = 0.5;
    }
    while ((line = next_content(d))) {
        const char *p = line;
        int n, known = 0;
        while (*p == ' ' || *p == '\t')
            p++;
        if (!strchr("0123456789+-.", *p)) { /* a section keyword */
            *sec = line;
            return 0;
        }
        snprintf(text, sizeof text, "%s", p);
        if ((n = split(line, w)) > LD_WORDS)
            return ld_err(d, d->r.line, "\"%s\": not a header line", text);
        if (n == 2 && !strcmp(w[1], "atoms")) {
            long long v;
            if (whole(w[0], &v) != 0 || v < 1 || v > LD_ATOMS_MAX)
                return ld_err(d, d->r.line, "\"%s\": the atom count must be an integer 1 .. %d",
                              text, LD_ATOMS_MAX);
            if (v > d->r.size / LD_ATOM_LINE_MIN)
                return ld_err(d, d->r.line, "%lld atoms cannot fit in the file's %lld bytes", v,
                              d->r.size);
            d->natoms = v;
            d->atoms_line = d->r.line;
            continue;
        }
        if (n == 3 && !strcmp(w[1], "atom") && !strcmp(w[2], "types")) {
            long long v;
            const sim_config *c = d->c;
            if (whole(w[0], &v) != 0 || v < 1)
                return ld_err(d, d->r.line, "\"%s\": the type count must be an integer >= 1",
                              text);
            if (v > c->system.n_species) {
                char names[TB_TYPES_MAX * (TB_SPECIES_MAX + 2)] = "";
                for (int t = 0; t < c->system.n_species; t++)
                    snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
                             t ? ", " : "", c->system.species[t].name);
                return ld_err(d, d->r.line, "%lld atom types, but system.species has %d (%s): "
                                            "type i is the i-th species, so give every type a "
                                            "species", v, c->system.n_species, names);
            }
            d->ntypes = (int)v;
            d->types_line = d->r.line;
            continue;
        }
        for (int k = 0; mol[k] && !known; k++)
            known = n == 2 && !strcmp(w[1], mol[k]);
        for (int k = 0; mol_types[k] && !known; k++)
            known = n == 3 && !strcmp(w[1], mol_types[k]) && !strcmp(w[2], "types");
        known = known || (n >= 4 && !strcmp(w[1], "extra"));
        if (known) {
            if (zero_count(d, w, n, text) != 0)
                return -1;
            continue;
        }
        if (n == 4 && w[2][1] == 'l' && w[3][1] == 'h' && !strcmp(w[2] + 2, "o") &&
            !strcmp(w[3] + 2, "i") && w[2][0] == w[3][0] && strchr("xyz", w[2][0])) {
            const int a = w[2][0] - 'x';
            if (num(w[0], &d->lo[a]) != 0 || num(w[1], &d->hi[a]) != 0 ||
                !(d->hi[a] > d->lo[a]))
                return ld_err(d, d->r.line, "\"%s\": %clo %chi must be two numbers with "
                                            "%chi > %clo", text, w[2][0], w[2][0], w[2][0],
                              w[2][0]);
            d->box_line[a] = d->r.line;
            continue;
        }
        if (n == 6 && !strcmp(w[3], "xy") && !strcmp(w[4], "xz") && !strcmp(w[5], "yz")) {
            for (int k = 0; k < 3; k++)
                if (num(w[k], &d->tilt[k]) != 0)
                    return ld_err(d, d->r.line, "\"%s\": xy xz yz must be three numbers", text);
            d->tilt_line = d->r.line;
            continue;
        }
        if ((n == 4 && (!strcmp(w[3], "avec") || !strcmp(w[3], "bvec") ||
                        !strcmp(w[3], "cvec"))) ||
            (n == 5 && !strcmp(w[3], "abc") && !strcmp(w[4], "origin")))
            return ld_err(d, d->r.line, "\"%s\": a general triclinic box is not read; write "
                                        "the restricted form (xlo xhi ... xy xz yz), as "
                                        "LAMMPS's write_data does", text);
        return ld_err(d, d->r.line, "\"%s\": not a header line of atom_style atomic", text);
    }
    *sec = NULL;
    return d->r.bad || ferror(d->r.f) ? ld_err(d, 0, "read error") : 0;
}

/* Masses: "type mass [# name]", every type once. */
static int read_masses(ld_file *d, char *line)
{
    const sim_config *c = d->c;
    char *w[LD_WORDS + 1], *h = strchr(line, '#'), name[32] = "";
    long long t;
    double m;
    if (h && sscanf(h + 1, "%31s", name) != 1)
        name[0] = '\0';
    if (split(line, w) != 2 || whole(w[0], &t) != 0 || num(w[1], &m) != 0)
        return ld_err(d, d->r.line, "Masses: expected \"type mass\"");
    if (t < 1 || t > d->ntypes)
        return ld_err(d, d->r.line, "Masses: type %lld is not one of the %d atom types", t,
                      d->ntypes);
    if (d->mass_line[t - 1])
        return ld_err(d, d->r.line, "Masses: type %lld is given twice (also line %d)", t,
                      d->mass_line[t - 1]);
    d->mass_line[t - 1] = d->r.line;
    const cfg_species *sp = &c->system.species[t - 1];
    if (!(m > 0) || fabs(m - sp->mass) > LD_MASS_TOL * sp->mass)
        return ld_err(d, d->r.line, "Masses: type %lld has mass %.17g, but its species %s has "
                                    "%.17g (%s): they must agree to a relative %g",
                      t, m, sp->name, sp->mass,
                      c->system.species_given ? "system.species" : "system.mass", LD_MASS_TOL);
    if (name[0] && c->system.species_given) {
        const int other = cfg_species_find(c, name);
        if (other >= 0 && other != t - 1)
            return ld_err(d, d->r.line, "Masses: type %lld is labelled %s, but type %lld is "
                                        "system.species[%lld] = %s (types follow "
                                        "system.species in order)", t, name, t, t, sp->name);
    }
    return 0;
}

/* Atoms: "id type x y z [ix iy iz]" (image flags read and not applied). */
static int read_atom(ld_file *d, char *line, long long k)
{
    char *w[LD_WORDS + 1];
    const int n = split(line, w);
    long long id, t, img;
    if (n != 5 && n != 8)
        return ld_err(d, d->r.line, "Atoms: expected \"id type x y z\" or \"id type x y z ix iy "
                                    "iz\" (atom_style atomic; got %d words)", n);
    if (whole(w[0], &id) != 0 || id < 1)
        return ld_err(d, d->r.line, "Atoms: the id \"%s\" is not a positive integer", w[0]);
    if (whole(w[1], &t) != 0 || t < 1 || t > d->ntypes)
        return ld_err(d, d->r.line, "Atoms: type \"%s\" is not one of the %d atom types", w[1],
                      d->ntypes);
    for (int a = 0; a < 3; a++)
        if (num(w[2 + a], d->x + 3 * k + a) != 0)
            return ld_err(d, d->r.line, "Atoms: %c = \"%s\" is not a finite number within %g",
                          'x' + a, w[2 + a], LD_VALUE_MAX);
    for (int a = 5; a < n; a++)
        if (whole(w[a], &img) != 0)
            return ld_err(d, d->r.line, "Atoms: the image flag \"%s\" is not an integer", w[a]);
    d->type[k] = (int)t - 1;
    d->atom[k].id = id;
    d->atom[k].k = (int)k;
    d->atom[k].line = d->r.line;
    return 0;
}

static int atom_cmp(const void *a, const void *b)
{
    const ld_atom *p = a, *q = b;
    return (p->id > q->id) - (p->id < q->id);
}

/* The position in the sorted atoms of id, or -1. */
static long long find_atom(const ld_file *d, long long id)
{
    long long lo = 0, hi = d->natoms - 1;
    while (lo <= hi) {
        const long long mid = lo + (hi - lo) / 2;
        if (d->atom[mid].id == id)
            return mid;
        if (d->atom[mid].id < id)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

/* Velocities: "id vx vy vz", each atom once. seen[] by sorted position. */
static int read_velocity(ld_file *d, char *line, unsigned char *seen)
{
    char *w[LD_WORDS + 1];
    long long id, j;
    double v[3];
    if (split(line, w) != 4 || whole(w[0], &id) != 0)
        return ld_err(d, d->r.line, "Velocities: expected \"id vx vy vz\"");
    if ((j = find_atom(d, id)) < 0)
        return ld_err(d, d->r.line, "Velocities: no atom has id %lld", id);
    if (seen[j])
        return ld_err(d, d->r.line, "Velocities: atom %lld is given twice", id);
    seen[j] = 1;
    for (int a = 0; a < 3; a++)
        if (num(w[1 + a], &v[a]) != 0)
            return ld_err(d, d->r.line, "Velocities: v%c = \"%s\" is not a finite number "
                                        "within %g", 'x' + a, w[1 + a], LD_VALUE_MAX);
    memcpy(d->v + 3 * (long long)d->atom[j].k, v, sizeof v);
    return 0;
}

/* The section whose keyword line is sec: reads its lines, leaves the next keyword in *sec. */
static int read_section(ld_file *d, char **sec)
{
    char key[64] = "", style[32] = "", *h = strchr(*sec, '#'), *line;
    long long count = 0;
    int which, kline = d->r.line;
    unsigned char *seen = NULL;
    if (h) {
        if (sscanf(h + 1, "%31s", style) != 1)
            style[0] = '\0';
        *h = '\0';
    }
    { /* the keyword, its spaces trimmed */
        const char *p = *sec;
        size_t len;
        while (*p == ' ' || *p == '\t')
            p++;
        len = strlen(p);
        while (len > 0 && (p[len - 1] == ' ' || p[len - 1] == '\t'))
            len--;
        snprintf(key, sizeof key, "%.*s", (int)(len < sizeof key ? len : sizeof key - 1), p);
    }
    if (!strcmp(key, "Masses"))
        which = 0, count = d->ntypes;
    else if (!strcmp(key, "Atoms"))
        which = 1, count = d->natoms;
    else if (!strcmp(key, "Velocities"))
        which = 2, count = d->natoms;
    else if (!strcmp(key, "Pair Coeffs"))
        which = 3, count = d->ntypes;
    else if (!strcmp(key, "PairIJ Coeffs"))
        which = 3, count = (long long)d->ntypes * (d->ntypes + 1) / 2;
    else
        return ld_err(d, kline, "section \"%s\" is not read (atom_style atomic: Masses, Atoms, "
                                "Velocities; Pair Coeffs and PairIJ Coeffs are skipped, the "
                                "potential is sim.cfg's)", key);
    if (!d->natoms || !d->ntypes)
        return ld_err(d, kline, "%s: the header must give \"N atoms\" and \"M atom types\" "
                                "before the first section", key);
    if ((which == 0 && d->masses_line) || (which == 1 && d->got_atoms) ||
        (which == 2 && d->got_vel))
        return ld_err(d, kline, "section %s is given twice", key);
    if (which == 1 && style[0] && strcmp(style, "atomic"))
        return ld_err(d, kline, "Atoms # %s: tribody reads atom_style atomic only", style);
    if (which == 2 && !d->got_atoms)
        return ld_err(d, kline, "Velocities before Atoms (LAMMPS reads Atoms first)");
    if (which == 2 && !(seen = calloc((size_t)d->natoms, 1)))
        return ld_err(d, kline, "out of host memory");
    for (long long k = 0; k < count; k++) {
        int rc = 0;
        if (!(line = next_content(d))) {
            free(seen);
            if (d->r.bad)
                return -1;
            return ld_err(d, d->r.line, "%s: the file ends after %lld of its %lld lines", key, k,
                          count);
        }
        if (isalpha((unsigned char)line[strspn(line, " \t")])) { /* the next section */
            free(seen);
            for (int t = 0; which == 0 && t < d->ntypes; t++)
                if (!d->mass_line[t])
                    return ld_err(d, kline, "Masses gives no mass for type %d (%s): give every "
                                            "type one, or leave out the section (the "
                                            "configured masses are used)",
                                  t + 1, d->c->system.species[t].name);
            return ld_err(d, d->r.line, "%s: a section keyword after %lld of the section's %lld "
                                        "lines", key, k, count);
        }
        if (which == 0)
            rc = read_masses(d, line);
        else if (which == 1)
            rc = read_atom(d, line, k);
        else if (which == 2)
            rc = read_velocity(d, line, seen);
        if (rc != 0) {
            free(seen);
            return -1;
        }
    }
    free(seen);
    if (which == 0) {
        d->masses_line = kline;
    } else if (which == 1) {
        d->got_atoms = 1;
        qsort(d->atom, (size_t)d->natoms, sizeof *d->atom, atom_cmp);
        for (long long k = 1; k < d->natoms; k++)
            if (d->atom[k].id == d->atom[k - 1].id)
                return ld_err(d, d->atom[k].line > d->atom[k - 1].line ? d->atom[k].line
                                                                      : d->atom[k - 1].line,
                              "Atoms: id %lld is given twice", d->atom[k].id);
    } else if (which == 2) {
        d->got_vel = 1;
    }
    *sec = next_content(d);
    return d->r.bad ? -1 : 0;
}

/* The box of the header with c's periodicity, checked as LAMMPS's read_data and tribody's
 * box need: a tilt only along periodic axes and within |xy|, |xz| <= lx/2, |yz| <= ly/2. */
static int make_box(ld_file *d, tb_box_d *box)
{
    static const char *const tn[3] = {"xy", "xz", "yz"};
    int per[3];
    double l[3];
    cfg_periodic(d->c, per);
    for (int a = 0; a < 3; a++)
        l[a] = d->hi[a] - d->lo[a];
    const double lim[3] = {0.5 * l[0], 0.5 * l[0], 0.5 * l[1]};
    const int axis[3] = {1, 2, 2};
    for (int k = 0; k < 3; k++) {
        if (d->tilt[k] != 0.0 && !per[axis[k]])
            return ld_err(d, d->tilt_line, "%s = %.17g tilts along the open axis %c "
                                           "(system.boundary): a tilt needs its axis periodic "
                                           "(LAMMPS: cannot skew a non-periodic dimension)",
                          tn[k], d->tilt[k], 'x' + axis[k]);
        if (fabs(d->tilt[k]) > lim[k] * (1 + 1e-14))
            return ld_err(d, d->tilt_line, "%s = %.17g is beyond LAMMPS's limit |%s| <= %s/2 = "
                                           "%.17g (write the equivalent box of smaller tilt)",
                          tn[k], d->tilt[k], tn[k], k == 2 ? "ly" : "lx", lim[k]);
    }
    *box = box_make_d(l, d->tilt[0], d->tilt[1], d->tilt[2], d->lo, per);
    return 0;
}

/* The whole file into d; 0 or -1 after reporting. */
static int read_file(ld_file *d)
{
    char *sec;
    if (!io_getline(&d->r)) /* the title */
        return d->r.bad ? -1 : ld_err(d, 1, "the file is empty (a data file starts with a title "
                                            "line, then the header)");
    if (read_header(d, &sec) != 0)
        return -1;
    if (!d->natoms)
        return ld_err(d, d->r.line, "the header gives no \"N atoms\" line");
    if (!d->ntypes)
        return ld_err(d, d->r.line, "the header gives no \"M atom types\" line");
    if (d->c->system.particles > 0 && d->natoms != d->c->system.particles)
        return ld_err(d, d->atoms_line, "%lld atoms, but system.particles = %d (leave it out to "
                                        "take the file's count)", d->natoms,
                      d->c->system.particles);
    d->atom = malloc((size_t)d->natoms * sizeof *d->atom);
    d->type = malloc((size_t)d->natoms * sizeof *d->type);
    d->x = malloc((size_t)d->natoms * 3 * sizeof *d->x);
    d->v = calloc((size_t)d->natoms * 3, sizeof *d->v);
    if (!d->atom || !d->type || !d->x || !d->v)
        return ld_err(d, d->atoms_line, "out of host memory for %lld atoms", d->natoms);
    while (sec)
        if (read_section(d, &sec) != 0)
            return -1;
    if (ferror(d->r.f))
        return ld_err(d, 0, "read error");
    if (!d->got_atoms)
        return ld_err(d, d->r.line, "no Atoms section");
    return 0;
}

int lmp_data_read(const char *path, const char *setting, const sim_config *c, sim_state *s,
                  int *has_vel)
{
    ld_file d;
    tb_box_d box;
    int rc = -1;
    memset(s, 0, sizeof *s);
    memset(&d, 0, sizeof d);
    *has_vel = 0;
    d.setting = setting ? setting : "the file";
    d.c = c;
    if (io_lines_open(&d.r, path, d.setting) != 0)
        return TB_EXIT_USAGE;
    if (read_file(&d) != 0 || make_box(&d, &box) != 0 || sim_state_alloc(s, (int)d.natoms) != 0)
        goto done;
    sim_set_species(s, c);
    s->box = box;
    for (int i = 0; i < s->n; i++) {
        const ld_atom *at = &d.atom[i];
        double *x = s->pos + 3 * i, f[3];
        memcpy(x, d.x + 3 * (long long)at->k, 3 * sizeof *x);
        memcpy(s->vel + 3 * i, d.v + 3 * (long long)at->k, 3 * sizeof *x);
        s->type[i] = d.type[at->k];
        /* LAMMPS loses an atom outside a non-periodic face (read_data: "Did not assign all
         * atoms correctly"); periodic axes are wrapped (sim_place). */
        box_fraction_d(&box, x, f);
        for (int a = 0; a < 3; a++)
            if (!(box.pbc >> a & 1) && (f[a] < 0.0 || f[a] > 1.0)) {
                ld_err(&d, at->line, "Atoms: atom %lld lies outside %clo %chi (%.17g %.17g) "
                                     "along the open axis %c (system.boundary)", at->id,
                       'x' + a, 'x' + a, d.lo[a], d.hi[a], 'x' + a);
                goto done;
            }
    }
    *has_vel = d.got_vel;
    rc = 0;
done:
    io_lines_close(&d.r);
    free(d.atom);
    free(d.type);
    free(d.x);
    free(d.v);
    if (rc != 0) {
        sim_state_free(s);
        memset(s, 0, sizeof *s);
        *has_vel = 0;
        return TB_EXIT_USAGE;
    }
    return 0;
}

/* ---- the writer ---------------------------------------------------------------------------- */

/* hi such that hi - lo is exactly l when a double allows it (fl(lo + l) or a neighbour), so
 * that the reader's hi - lo gives back the box's edge bit for bit. */
static double exact_hi(double lo, double l)
{
    double hi = lo + l;
    for (int k = 0; k < 4 && hi - lo != l; k++)
        hi = nextafter(hi, hi - lo < l ? HUGE_VAL : -HUGE_VAL);
    return hi - lo == l ? hi : lo + l;
}

/* The extent written for each axis: the box's on a periodic axis; on an open one the box's
 * widened to every particle (LAMMPS loses an atom outside a non-periodic face), or, without a
 * box there, the particles' own (at least 1 wide). */
static void extent(const sim_state *s, double lo[3], double hi[3])
{
    for (int a = 0; a < 3; a++) {
        const int per = s->box.pbc >> a & 1, has = s->box.l[a] > 0;
        lo[a] = s->box.lo[a];
        hi[a] = exact_hi(lo[a], s->box.l[a]);
        if (per)
            continue;
        double pmin = HUGE_VAL, pmax = -HUGE_VAL;
        for (int i = 0; i < s->n; i++) {
            pmin = fmin(pmin, s->pos[3 * i + a]);
            pmax = fmax(pmax, s->pos[3 * i + a]);
        }
        if (!has) {
            lo[a] = pmin;
            hi[a] = pmax;
        } else {
            lo[a] = fmin(lo[a], pmin);
            hi[a] = fmax(hi[a], pmax);
        }
        if (!(hi[a] > lo[a])) {
            lo[a] -= 0.5;
            hi[a] += 0.5;
        }
    }
}

static void write_body(out_rec *w, const sim_state *s, const char *title)
{
    const tb_units *u = units_of(s->units);
    double lo[3], hi[3];
    extent(s, lo, hi);
    out_rec_printf(w, "%s\n\n%d atoms\n%d atom types\n\n", title, s->n, s->ntypes);
    for (int a = 0; a < 3; a++)
        out_rec_printf(w, "%.17g %.17g %clo %chi\n", lo[a], hi[a], 'x' + a, 'x' + a);
    if (s->box.tilted)
        out_rec_printf(w, "%.17g %.17g %.17g xy xz yz\n", s->box.xy, s->box.xz, s->box.yz);
    out_rec_printf(w, "\nMasses\n\n");
    for (int t = 0; t < s->ntypes; t++)
        out_rec_printf(w, "%d %.17g # %s\n", t + 1, s->mass[t] / u->mvv2e, s->type_name[t]);
    out_rec_printf(w, "\nAtoms # atomic\n\n");
    for (int i = 0; i < s->n; i++) {
        const double *x = s->pos + 3 * i;
        out_rec_printf(w, "%d %d %.17g %.17g %.17g 0 0 0\n", i + 1, s->type[i] + 1, x[0], x[1],
                       x[2]);
    }
    out_rec_printf(w, "\nVelocities\n\n");
    for (int i = 0; i < s->n; i++) {
        const double *v = s->vel + 3 * i;
        out_rec_printf(w, "%d %.17g %.17g %.17g\n", i + 1, v[0], v[1], v[2]);
    }
}

int lmp_data_write(const char *path, const sim_state *s, const char *title)
{
    char tmp[4096], line1[256];
    FILE *f;
    out_rec *w;
    int rc;
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp)
        return tb_error(path, 0, "output.data: the path is too long");
    if (!title) {
        snprintf(line1, sizeof line1, "LAMMPS data file written by tribody (units %s, step %ld, "
                                      "time %.17g)", units_of(s->units)->name, s->step, s->time);
        title = line1;
    }
    if (!(w = malloc(sizeof *w)))
        return tb_error(path, 0, "output.data: out of host memory");
    if (!(f = fopen(tmp, "w"))) {
        free(w);
        return tb_error(tmp, 0, "output.data: cannot create: %s", strerror(errno));
    }
    out_rec_begin(w, f);
    write_body(w, s, title);
    rc = out_rec_end(w);
    free(w);
    if (rc != 0) {
        tb_error(tmp, 0, "output.data: write error: %s", strerror(errno));
        fclose(f);
        remove(tmp);
        return -1;
    }
    if (out_close(f, tmp) != 0) {
        remove(tmp);
        return -1;
    }
    /* the file appears whole or not at all; an earlier one is kept as PATH.~k~ */
    if (out_backup(path) != 0 || rename(tmp, path) != 0) {
        tb_error(path, 0, "output.data: cannot move %s into place: %s", tmp, strerror(errno));
        remove(tmp);
        return -1;
    }
    return 0;
}
