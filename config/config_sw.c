/* config_sw.c — potential.sw: reads the Stillinger-Weber file it names (LAMMPS's .sw format)
 * into sim_config.potential.sw.p, one entry per ordered species triplet, the species matched
 * by element name (system.species), and checks what goes with it (units metal, SW alone).
 *
 * The format, as LAMMPS's pair_style sw reads it: '#' starts a comment; an entry is 3 element
 * names and 11 numbers (epsilon sigma a lambda gamma costheta0 A B p q tol), possibly over
 * several lines (words are gathered until there are 14); an entry naming an element that is
 * not a species is skipped; a negative parameter (costheta0 aside) is illegal; every ordered
 * triplet of the species needs exactly one entry ("ACB" does not stand for "ABC"). Every
 * problem is one line naming the .sw file and its line, or the config line of
 * potential.sw.file, and the setting. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"

#include "config/config_int.h"

#define SW_WORDS 14
#define SW_LINE_MAX 4096

typedef struct sw_reader {
    cfg_ctx *x;
    FILE *f;
    const char *file;
    int line;        /* the line last read */
} sw_reader;

/* Reports a problem at line of the .sw file. */
static void sw_problem(sw_reader *r, int line, const char *fmt, const char *a, const char *b)
{
    char msg[512];
    snprintf(msg, sizeof msg, fmt, a, b);
    cfg_problem_at(r->x, r->file, line, "potential.sw.file", "%s", msg);
}

/* The next entry's 14 words into w (copies into buf), its first line into *first. 1: an
 * entry; 0: the end of the file; -1: a problem (reported). */
static int next_entry(sw_reader *r, char buf[SW_LINE_MAX * 2], char *w[SW_WORDS], int *first)
{
    char line[SW_LINE_MAX];
    int n = 0;
    size_t used = 0;
    *first = 0;
    while (fgets(line, sizeof line, r->f)) {
        r->line++;
        if (!strchr(line, '\n') && !feof(r->f)) {
            sw_problem(r, r->line, "line longer than %s characters%s", "4095", "");
            return -1;
        }
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        for (char *p = strtok(line, " \t\r\n"); p; p = strtok(NULL, " \t\r\n")) {
            const size_t len = strlen(p);
            if (n == 0)
                *first = r->line;
            if (n == SW_WORDS || used + len + 1 > SW_LINE_MAX * 2) {
                sw_problem(r, *first, "malformed entry: more than 14 words (3 elements and 11 "
                                      "numbers) before \"%s\"%s", p, "");
                return -1;
            }
            memcpy(buf + used, p, len + 1);
            w[n++] = buf + used;
            used += len + 1;
        }
        if (n == SW_WORDS)
            return 1;
    }
    if (ferror(r->f)) {
        sw_problem(r, r->line, "read error%s%s", "", "");
        return -1;
    }
    if (n > 0) {
        char got[16];
        snprintf(got, sizeof got, "%d", n);
        sw_problem(r, *first, "malformed entry: the file ends after %s of its 14 words%s", got, "");
        return -1;
    }
    return 0;
}

/* The species index of element name, or -1. */
static int species_of(const sim_config *c, const char *name)
{
    for (int t = 0; t < c->system.n_species; t++)
        if (strcmp(c->system.species[t].name, name) == 0)
            return t;
    return -1;
}

/* Parses the 11 numbers of an entry into e; 0 or -1 (reported). */
static int entry_numbers(sw_reader *r, char *const w[SW_WORDS], int line, cfg_sw_entry *e)
{
    static const char *const names[11] = {"epsilon", "sigma", "a", "lambda", "gamma",
                                          "costheta0", "A", "B", "p", "q", "tol"};
    double v[11];
    for (int k = 0; k < 11; k++) {
        char *end;
        v[k] = strtod(w[3 + k], &end);
        if (end == w[3 + k] || *end || !(v[k] - v[k] == 0.0)) {
            sw_problem(r, line, "malformed entry: %s is not a finite number (got \"%s\")",
                       names[k], w[3 + k]);
            return -1;
        }
        if (v[k] < 0.0 && k != 5) { /* LAMMPS: "Illegal Stillinger-Weber parameter" */
            sw_problem(r, line, "%s must be >= 0 (got %s)", names[k], w[3 + k]);
            return -1;
        }
    }
    /* a sigma of 0 is a leg that never interacts (GaN.sw's Ga Ga N: only (i, j, j) entries
     * are legs), as in LAMMPS */
    *e = (cfg_sw_entry){v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], line};
    return 0;
}

/* Reads the file into c->potential.sw.p; marks the species met in seen[]. 0 or -1. */
static int read_entries(sw_reader *r, int seen[TB_TYPES_MAX])
{
    sim_config *c = r->x->c;
    char buf[SW_LINE_MAX * 2], *w[SW_WORDS];
    int first, got, bad = 0;
    while ((got = next_entry(r, buf, w, &first)) == 1) {
        const int ti = species_of(c, w[0]), tj = species_of(c, w[1]), tk = species_of(c, w[2]);
        cfg_sw_entry e;
        if (entry_numbers(r, w, first, &e) != 0) {
            bad = 1;
            continue;
        }
        if (ti < 0 || tj < 0 || tk < 0)
            continue; /* an element that is not a species: skipped, as LAMMPS does */
        cfg_sw_entry *slot = &c->potential.sw.p[CFG_SW_INDEX(ti, tj, tk)];
        if (slot->line) {
            char prev[16];
            snprintf(prev, sizeof prev, "%d", slot->line);
            sw_problem(r, first, "duplicate entry for %s (first on line %s)", w[0], prev);
            bad = 1;
            continue;
        }
        *slot = e;
        seen[ti] = seen[tj] = seen[tk] = 1;
    }
    return got < 0 || bad ? -1 : 0;
}

/* Every species in the file, every ordered triplet with its entry. */
static void check_complete(cfg_ctx *x, const config_setting_t *s, const int seen[TB_TYPES_MAX])
{
    const sim_config *c = x->c;
    const int nt = c->system.n_species;
    for (int t = 0; t < nt; t++)
        if (!seen[t]) {
            cfg_problem(x, s, "potential.sw.file", "species \"%s\" (system.species) is not an "
                        "element of \"%s\"", c->system.species[t].name, c->potential.sw.file);
            return;
        }
    for (int a = 0; a < nt; a++)
        for (int b = 0; b < nt; b++)
            for (int k = 0; k < nt; k++)
                if (!c->potential.sw.p[CFG_SW_INDEX(a, b, k)].line) {
                    cfg_problem(x, s, "potential.sw.file", "\"%s\" has no entry for the triplet "
                                "%s %s %s (every ordered triplet of the species needs one)",
                                c->potential.sw.file, c->system.species[a].name,
                                c->system.species[b].name, c->system.species[k].name);
                    return;
                }
}

/* SW alone: the other terms are refused where given, and ATM's default nu is off. */
static void check_alone(cfg_ctx *x, const config_setting_t *s)
{
    sim_config *c = x->c;
    static const char *const others[] = {"potential.lj", "potential.atm.nu",
                                         "potential.atm.triplets", "potential.atm.cutoff",
                                         "potential.atm.cutoff_triple"};
    for (size_t i = 0; i < sizeof others / sizeof *others; i++)
        if (cfg_given(x, others[i]))
            cfg_problem(x, cfg_given(x, others[i]), others[i], "not used with potential.sw "
                        "(Stillinger-Weber runs alone: its file holds its whole potential)");
    if (c->units != CFG_UNITS_METAL)
        cfg_problem(x, s, "potential.sw.file", "needs units = \"metal\" (a .sw file is in eV "
                    "and Angstrom; got units = \"%s\")", c->units == CFG_UNITS_LJ ? "lj" : "real");
    c->potential.atm.nu = 0.0; /* ATM's default would otherwise run beside it */
    c->potential.atm.cutoff = 0.0;
}

void cfg_read_sw(cfg_ctx *x)
{
    sim_config *c = x->c;
    const config_setting_t *s = cfg_given(x, "potential.sw.file");
    int seen[TB_TYPES_MAX] = {0};
    c->potential.sw.enabled = cfg_given(x, "potential.sw") != NULL;
    memset(c->potential.sw.p, 0, sizeof c->potential.sw.p);
    if (!c->potential.sw.enabled)
        return;
    check_alone(x, s ? s : cfg_given(x, "potential.sw"));
    if (!s) {
        if (!cfg_rejected(x, "potential.sw.file"))
            cfg_problem(x, cfg_given(x, "potential.sw"), "potential.sw.file",
                        "required with potential.sw (the .sw file, LAMMPS's format)");
        return;
    }
    if (cfg_rejected(x, "system.species"))
        return;
    sw_reader r = {x, fopen(c->potential.sw.file, "r"), c->potential.sw.file, 0};
    if (!r.f) {
        cfg_problem(x, s, "potential.sw.file", "cannot read \"%s\"", c->potential.sw.file);
        return;
    }
    const int rc = read_entries(&r, seen);
    fclose(r.f);
    if (rc == 0)
        check_complete(x, s, seen);
    if (rc == 0 && c->system.boundary != CFG_BOUNDARY_OPEN && cfg_given(x, "system.box") &&
        !cfg_rejected(x, "system.box")) { /* the minimum image, as for the other cutoffs */
        const int nt = c->system.n_species;
        double cut = 0.0;
        for (int k = 0; k < nt * nt * nt; k++) {
            const cfg_sw_entry *e = &c->potential.sw.p[CFG_SW_INDEX(k / (nt * nt), k / nt % nt,
                                                                    k % nt)];
            cut = e->a * e->sigma > cut ? e->a * e->sigma : cut;
        }
        if (cut > cfg_box_half_width(c))
            cfg_problem(x, s, "potential.sw.file", "its cutoff a sigma = %g exceeds half the "
                        "smallest periodic width of system.box (%g)", cut, cfg_box_half_width(c));
    }
}

/* The physics text of potential.sw.file: the parameters in effect (not the path, which a
 * restart from another directory names otherwise), as a count and a hash of their bits. */
void cfg_sw_text(const sim_config *c, char *buf, size_t size)
{
    const int nt = c->system.n_species > 1 ? c->system.n_species : 1;
    unsigned long long h = 1469598103934665603ULL;
    if (!c->potential.sw.enabled) {
        snprintf(buf, size, "0");
        return;
    }
    for (int a = 0; a < nt; a++)
        for (int b = 0; b < nt; b++)
            for (int k = 0; k < nt; k++) {
                const cfg_sw_entry *e = &c->potential.sw.p[CFG_SW_INDEX(a, b, k)];
                const double v[11] = {e->epsilon, e->sigma, e->a, e->lambda, e->gamma,
                                      e->costheta0, e->A, e->B, e->p, e->q, e->tol};
                const unsigned char *p = (const unsigned char *)v;
                for (size_t i = 0; i < sizeof v; i++)
                    h = (h ^ p[i]) * 1099511628211ULL;
            }
    snprintf(buf, size, "%d entries, hash %016llx", nt * nt * nt, h);
}
