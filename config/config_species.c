/* config_species.c — the species of sim.cfg and what refers to them: system.species,
 * system.init.composition, potential.lj.pairs (with potential.lj.mix) and
 * potential.atm.triplets. Owns their reading (the schema's K_LIST rows only have their type
 * checked as the file is walked: an entry names species that may come later in the file), the
 * checks across them, their physics text, and the one rule of what a species pair or triplet
 * gets (cfg_lj_coeffs, cfg_atm_nu: the shorthand, the entries given, LAMMPS's mixing).
 *
 * Entries are counted from 1 in messages, "system.species[2].mass", as LAMMPS counts types. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libconfig.h>

#include "config/config.h"
#include "config/units.h"

#include "config/config_int.h"

_Static_assert(TB_TYPES_MAX == 8, "config.c's row of system.species says 1 .. 8 species");
_Static_assert(TB_SPECIES_MAX == 8, "the messages say names of 1 .. 7 characters");

/* ---- reading one entry --------------------------------------------------------------------- */

/* "system.species[2].mass" (entry i from 0; member NULL: the entry itself). */
static const char *entry_path(char *buf, size_t size, const char *list, int i, const char *member)
{
    snprintf(buf, size, "%s[%d]%s%s", list, i + 1, member ? "." : "", member ? member : "");
    return buf;
}

/* The entries of list s (named path): 1 .. max of them, else reported (`what`: "species").
 * Returns the count, or -1. */
static int list_count(cfg_ctx *x, const config_setting_t *s, const char *path, int max,
                      const char *what)
{
    const int n = config_setting_length(s);
    if (n < 1)
        cfg_problem(x, s, path, "an empty list (leave the setting out, or give at least one "
                    "entry)");
    else if (n > max)
        cfg_problem(x, s, path, "at most %d %s (got %d)", max, what, n);
    return n < 1 || n > max ? -1 : n;
}

/* Checks that entry e of list `path` is a group (else reported, -1) whose members are among
 * names[] (NULL-terminated): each unknown one is reported, and 1 returned (its known members
 * are still worth checking); 0 when all is well. */
static int entry_group(cfg_ctx *x, const config_setting_t *e, const char *path, int i,
                       const char *const *names, const char *shape)
{
    char p[160], list[128] = "";
    int bad = 0;
    if (config_setting_type(e) != CONFIG_TYPE_GROUP) {
        cfg_problem(x, e, entry_path(p, sizeof p, path, i, NULL), "expected a group %s (got %s)",
                    shape, cfg_type_phrase(config_setting_type(e)));
        return -1;
    }
    for (int k = 0; names[k]; k++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", k ? ", " : "", names[k]);
    for (int j = 0; j < config_setting_length(e); j++) {
        const config_setting_t *m = config_setting_get_elem(e, (unsigned)j);
        const char *name = config_setting_name(m);
        int known = 0;
        for (int k = 0; names[k] && name; k++)
            known |= !strcmp(names[k], name);
        if (!known) {
            cfg_problem(x, m, entry_path(p, sizeof p, path, i, name ? name : "?"),
                        "unknown setting (expected %s)", list);
            bad = 1;
        }
    }
    return bad;
}

/* Member `name` of entry e, a number v with v > lo (strict) or v >= lo, in the lj unit `unit`.
 * Returns 0 with *v set, 1 when absent and not required, or -1 (reported). */
static int entry_number(cfg_ctx *x, const config_setting_t *e, const char *path, int i,
                        const char *name, double lo, int strict, const char *unit, int required,
                        double *v)
{
    const config_setting_t *m = config_setting_get_member(e, name);
    char p[160], u[64], got[32], low[32];
    const char *sp;
    entry_path(p, sizeof p, path, i, name);
    units_name(units_of(x->c->units), unit, u, sizeof u);
    sp = *u ? " " : "";
    if (!m) {
        if (required)
            cfg_problem(x, e, p, "required setting is missing (%s %s%s%s)", strict ? ">" : ">=",
                        cfg_fmt_num(lo, low), sp, u);
        return required ? -1 : 1;
    }
    const int t = config_setting_type(m);
    if (t != CONFIG_TYPE_FLOAT && t != CONFIG_TYPE_INT && t != CONFIG_TYPE_INT64) {
        cfg_problem(x, m, p, "expected a number (got %s)", cfg_type_phrase(t));
        return -1;
    }
    *v = t == CONFIG_TYPE_FLOAT ? config_setting_get_float(m) : (double)cfg_int_value(x, m);
    if (!isfinite(*v) || (strict ? !(*v > lo) : !(*v >= lo))) {
        cfg_problem(x, m, p, "must be %s %s%s%s (got %s)", strict ? ">" : ">=",
                    cfg_fmt_num(lo, low), sp, u, cfg_fmt_num(*v, got));
        return -1;
    }
    if (*v > CFG_FLOAT_MAX) {
        cfg_problem(x, m, p, "must be at most %g in magnitude (got %s)", CFG_FLOAT_MAX,
                    cfg_fmt_num(*v, got));
        return -1;
    }
    return 0;
}

/* A species name: 1 .. 7 letters, digits or _, not starting with a digit (LAMMPS's type
 * labels: a name that reads as a number would be a type). */
static int name_ok(const char *s)
{
    const size_t n = strlen(s);
    if (n < 1 || n > TB_SPECIES_MAX - 1 || isdigit((unsigned char)s[0]))
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)s[i]) && s[i] != '_')
            return 0;
    return 1;
}

/* The member "species" of entry e: `count` names of species of c (an array or a list of
 * strings), their indices sorted into t[]. Returns 0 or -1 (reported). */
static int entry_names(cfg_ctx *x, const config_setting_t *e, const char *path, int i, int count,
                       int *t)
{
    static const char *const shape[] = {"", "", "two species names, [\"Ar\", \"Kr\"]",
                                        "three species names, [\"Ar\", \"Ar\", \"Kr\"]"};
    const config_setting_t *m = config_setting_get_member(e, "species");
    const sim_config *c = x->c;
    char p[160], got[64], known[128] = "";
    entry_path(p, sizeof p, path, i, "species");
    if (!m) {
        cfg_problem(x, e, p, "required setting is missing (%s)", shape[count]);
        return -1;
    }
    const int type = config_setting_type(m);
    if (type != CONFIG_TYPE_ARRAY && type != CONFIG_TYPE_LIST)
        snprintf(got, sizeof got, "%s", cfg_type_phrase(type));
    else if (config_setting_length(m) != count)
        snprintf(got, sizeof got, "%d entr%s", config_setting_length(m),
                 config_setting_length(m) == 1 ? "y" : "ies");
    else
        got[0] = '\0';
    for (int k = 0; !got[0] && k < count; k++) {
        const config_setting_t *v = config_setting_get_elem(m, (unsigned)k);
        if (config_setting_type(v) != CONFIG_TYPE_STRING)
            snprintf(got, sizeof got, "%s among them", cfg_type_phrase(config_setting_type(v)));
    }
    if (got[0]) {
        cfg_problem(x, m, p, "expected %s (got %s)", shape[count], got);
        return -1;
    }
    for (int k = 0; k < c->system.n_species; k++)
        snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", k ? ", " : "",
                 c->system.species[k].name);
    for (int k = 0; k < count; k++) {
        const char *name = config_setting_get_string(config_setting_get_elem(m, (unsigned)k));
        if ((t[k] = cfg_species_find(c, name)) < 0) {
            cfg_problem(x, m, p, "unknown species \"%s\" (expected one of: %s)", name, known);
            return -1;
        }
    }
    for (int a = 1; a < count; a++) /* insertion sort: 2 or 3 entries */
        for (int b = a; b > 0 && t[b - 1] > t[b]; b--) {
            const int tmp = t[b];
            t[b] = t[b - 1];
            t[b - 1] = tmp;
        }
    return 0;
}

/* "Ar-Kr": the species t[0..count) of c, for a message. */
static const char *names_of(const sim_config *c, const int *t, int count, char *buf, size_t size)
{
    buf[0] = '\0';
    for (int k = 0; k < count; k++)
        snprintf(buf + strlen(buf), size - strlen(buf), "%s%s", k ? "-" : "",
                 c->system.species[t[k]].name);
    return buf;
}

/* Reports `path` given together with the list `list` that replaces it. */
static void not_with(cfg_ctx *x, const char *path, const char *list, const char *why)
{
    if (cfg_given(x, path))
        cfg_problem(x, cfg_given(x, path), path, "not used with %s (%s)", list, why);
}

/* ---- system.species ------------------------------------------------------------------------ */

/* system.species into c; 0, or -1 when it was given and is not usable. */
static int read_species(cfg_ctx *x)
{
    static const char *const members[] = {"name", "mass", NULL};
    const char *path = "system.species";
    const config_setting_t *s = cfg_given(x, path);
    sim_config *c = x->c;
    cfg_species sp[TB_TYPES_MAX];
    char p[160];
    int n, bad = 0;
    if (!s)
        return 0;
    if ((n = list_count(x, s, path, TB_TYPES_MAX, "species")) < 0)
        return -1;
    memset(sp, 0, sizeof sp);
    for (int i = 0; i < n; i++) {
        const config_setting_t *e = config_setting_get_elem(s, (unsigned)i), *m;
        const int g = entry_group(x, e, path, i, members, "{ name = \"Ar\"; mass = 39.948; }");
        bad |= g != 0;
        if (g < 0)
            continue;
        entry_path(p, sizeof p, path, i, "name");
        if (!(m = config_setting_get_member(e, "name"))) {
            cfg_problem(x, e, p, "required setting is missing (1 .. 7 letters, digits or _)");
            bad = 1;
        } else if (config_setting_type(m) != CONFIG_TYPE_STRING) {
            cfg_problem(x, m, p, "expected a string (got %s)",
                        cfg_type_phrase(config_setting_type(m)));
            bad = 1;
        } else if (!name_ok(config_setting_get_string(m))) {
            cfg_problem(x, m, p, "must be 1 .. 7 letters, digits or _, not starting with a digit "
                        "(got \"%s\")", config_setting_get_string(m));
            bad = 1;
        } else {
            const char *name = config_setting_get_string(m);
            for (int k = 0; k < i; k++)
                if (!strcmp(sp[k].name, name)) {
                    cfg_problem(x, m, p, "\"%s\" is already the name of system.species[%d]",
                                name, k + 1);
                    bad = 1;
                }
            snprintf(sp[i].name, sizeof sp[i].name, "%s", name);
        }
        if (entry_number(x, e, path, i, "mass", 0.0, 1, "m", 1, &sp[i].mass) != 0)
            bad = 1;
    }
    not_with(x, "system.mass", path, "each species gives its mass");
    if (bad)
        return -1;
    memcpy(c->system.species, sp, sizeof sp);
    c->system.n_species = n;
    c->system.species_given = 1;
    return 0;
}

/* ---- system.init.composition --------------------------------------------------------------- */

static void read_composition(cfg_ctx *x)
{
    const char *path = "system.init.composition";
    const config_setting_t *s = cfg_given(x, path);
    sim_config *c = x->c;
    const int type = c->system.init.type, n = c->system.n_species;
    const int placed = type == CFG_INIT_RANDOM || type == CFG_INIT_LATTICE;
    double f[TB_TYPES_MAX], sum = 0;
    char p[160], got[32];
    int bad = 0;
    if (cfg_rejected(x, "system.init.type") || cfg_rejected(x, path))
        return;
    if (!s) {
        if (placed && n > 1)
            cfg_problem(x, cfg_near_src(x, path), path, "required with %d species and "
                        "system.init.type = \"%s\" (the fraction of each, in the order of "
                        "system.species)", n, cfg_init_name(type));
        return;
    }
    if (!c->system.species_given) {
        cfg_problem(x, s, path, "only used with system.species (the fraction of each species)");
        return;
    }
    if (!placed) {
        cfg_problem(x, s, path, "only used with system.init.type = \"random\" or \"lattice\" (the "
                    "type is %s: the file gives each particle's species)", cfg_init_name(type));
        return;
    }
    if (config_setting_length(s) != n) {
        cfg_problem(x, s, path, "%d fractions for %d species (one per entry of system.species, "
                    "in its order)", config_setting_length(s), n);
        return;
    }
    for (int i = 0; i < n; i++) {
        const config_setting_t *e = config_setting_get_elem(s, (unsigned)i);
        const int t = config_setting_type(e);
        entry_path(p, sizeof p, path, i, NULL);
        if (t != CONFIG_TYPE_FLOAT && t != CONFIG_TYPE_INT && t != CONFIG_TYPE_INT64) {
            cfg_problem(x, e, p, "expected a number (got %s)", cfg_type_phrase(t));
            bad = 1;
            continue;
        }
        f[i] = t == CONFIG_TYPE_FLOAT ? config_setting_get_float(e)
                                      : (double)config_setting_get_int64(e);
        if (!isfinite(f[i]) || f[i] < 0 || f[i] > CFG_FLOAT_MAX) {
            cfg_problem(x, e, p, "must be >= 0 and at most %g (got %s)", CFG_FLOAT_MAX,
                        cfg_fmt_num(f[i], got));
            bad = 1;
            continue;
        }
        sum += f[i];
    }
    if (!bad && !(sum > 0))
        cfg_problem(x, s, path, "the fractions sum to 0 (at least one must be > 0)");
    if (bad || !(sum > 0))
        return;
    for (int i = 0; i < n; i++)
        c->system.init.composition[i] = f[i] / sum;
    c->system.init.n_composition = n;
}

/* ---- potential.lj.pairs, potential.lj.mix -------------------------------------------------- */

static int pair_cmp(const void *a, const void *b)
{
    const cfg_lj_pair *p = a, *q = b;
    return p->t[0] != q->t[0] ? p->t[0] - q->t[0] : p->t[1] - q->t[1];
}

/* A cutoff of an entry against half the box's smallest perpendicular width, as check_box does
 * for potential.lj.cutoff. */
static void pair_cutoff_box(cfg_ctx *x, const config_setting_t *e, const char *p, double rc)
{
    const sim_config *c = x->c;
    char a[32], b[32];
    double half;
    if (c->system.boundary == CFG_BOUNDARY_OPEN || cfg_rejected(x, "system.boundary") ||
        !cfg_given(x, "system.box") || cfg_rejected(x, "system.box"))
        return;
    half = cfg_box_half_width(c);
    if (half > 0 && rc > half)
        cfg_problem(x, config_setting_get_member(e, "cutoff"), p, "%s exceeds half the box (%s = %s)",
                    cfg_fmt_num(rc, a),
                    !c->system.box_group && c->system.boundary == CFG_BOUNDARY_PERIODIC
                        ? "L/2"
                        : "half the smallest periodic width",
                    cfg_fmt_num(half, b));
}

static void read_pairs(cfg_ctx *x)
{
    static const char *const members[] = {"species", "epsilon", "sigma", "cutoff", NULL};
    const char *path = "potential.lj.pairs";
    const config_setting_t *s = cfg_given(x, path);
    sim_config *c = x->c;
    cfg_lj_pair pr[CFG_LJ_PAIRS_MAX];
    char p[160], a[64], missing[256] = "";
    int n, bad = 0;
    if (!s) {
        if (cfg_given(x, "potential.lj.mix"))
            cfg_problem(x, cfg_given(x, "potential.lj.mix"), "potential.lj.mix", "only used with "
                        "potential.lj.pairs (it mixes the pairs that it does not give)");
        return;
    }
    if ((n = list_count(x, s, path, CFG_LJ_PAIRS_MAX, "pairs")) < 0)
        return;
    for (int i = 0; i < n; i++) {
        const config_setting_t *e = config_setting_get_elem(s, (unsigned)i);
        cfg_lj_pair *q = &pr[i];
        memset(q, 0, sizeof *q);
        const int g = entry_group(x, e, path, i, members,
                                  "{ species = [\"Ar\", \"Kr\"]; epsilon = ...; sigma = ...; }");
        bad |= g != 0;
        if (g < 0) {
            q->t[0] = q->t[1] = -1;
            continue;
        }
        if (entry_names(x, e, path, i, 2, q->t) == 0) {
            for (int k = 0; k < i; k++)
                if (pr[k].t[0] == q->t[0] && pr[k].t[1] == q->t[1]) {
                    cfg_problem(x, e, entry_path(p, sizeof p, path, i, NULL), "the pair %s is "
                                "already %s[%d]", names_of(c, q->t, 2, a, sizeof a), path, k + 1);
                    bad = 1;
                }
        } else {
            q->t[0] = q->t[1] = -1;
            bad = 1;
        }
        bad |= entry_number(x, e, path, i, "epsilon", 0.0, 1, "epsilon", 1, &q->epsilon) != 0;
        bad |= entry_number(x, e, path, i, "sigma", 0.0, 1, "sigma", 1, &q->sigma) != 0;
        const int cut = entry_number(x, e, path, i, "cutoff", 0.0, 1, "sigma", 0, &q->cutoff);
        bad |= cut < 0;
        if (cut == 0)
            pair_cutoff_box(x, e, entry_path(p, sizeof p, path, i, "cutoff"), q->cutoff);
    }
    not_with(x, "potential.lj.epsilon", path, "each entry gives its own");
    not_with(x, "potential.lj.sigma", path, "each entry gives its own");
    if (bad)
        return;
    qsort(pr, (size_t)n, sizeof pr[0], pair_cmp);
    for (int k = 0; k < c->system.n_species; k++) {
        int found = 0;
        for (int i = 0; i < n; i++)
            found |= pr[i].t[0] == k && pr[i].t[1] == k;
        if (!found)
            snprintf(missing + strlen(missing), sizeof missing - strlen(missing), "%s%s-%s",
                     missing[0] ? ", " : "", c->system.species[k].name, c->system.species[k].name);
    }
    if (missing[0]) {
        cfg_problem(x, s, path, "no entry for %s: every species' own pair must be given (the "
                    "pairs of two species that are not given are mixed from them, as LAMMPS "
                    "does)", missing);
        return;
    }
    memcpy(c->potential.lj.pairs, pr, (size_t)n * sizeof pr[0]);
    c->potential.lj.n_pairs = n;
}

/* ---- potential.atm.triplets ---------------------------------------------------------------- */

static int triplet_cmp(const void *a, const void *b)
{
    const cfg_atm_triplet *p = a, *q = b;
    for (int k = 0; k < 3; k++)
        if (p->t[k] != q->t[k])
            return p->t[k] - q->t[k];
    return 0;
}

static void read_triplets(cfg_ctx *x)
{
    static const char *const members[] = {"species", "nu", NULL};
    const char *path = "potential.atm.triplets";
    const config_setting_t *s = cfg_given(x, path);
    sim_config *c = x->c;
    cfg_atm_triplet tr[CFG_ATM_TRIPLETS_MAX];
    char p[160], a[64];
    int n, bad = 0;
    if (!s)
        return;
    if ((n = list_count(x, s, path, CFG_ATM_TRIPLETS_MAX, "triplets")) < 0)
        return;
    for (int i = 0; i < n; i++) {
        const config_setting_t *e = config_setting_get_elem(s, (unsigned)i);
        cfg_atm_triplet *q = &tr[i];
        memset(q, 0, sizeof *q);
        const int g = entry_group(x, e, path, i, members,
                                  "{ species = [\"Ar\", \"Ar\", \"Kr\"]; nu = ...; }");
        bad |= g != 0;
        if (g < 0) {
            q->t[0] = q->t[1] = q->t[2] = -1;
            continue;
        }
        if (entry_names(x, e, path, i, 3, q->t) == 0) {
            for (int k = 0; k < i; k++)
                if (!triplet_cmp(&tr[k], q)) {
                    cfg_problem(x, e, entry_path(p, sizeof p, path, i, NULL), "the triplet %s "
                                "is already %s[%d]", names_of(c, q->t, 3, a, sizeof a), path,
                                k + 1);
                    bad = 1;
                }
        } else {
            q->t[0] = q->t[1] = q->t[2] = -1;
            bad = 1;
        }
        bad |= entry_number(x, e, path, i, "nu", 0.0, 0, "epsilon sigma^9", 1, &q->nu) != 0;
    }
    not_with(x, "potential.atm.nu", path, "each entry gives its own; a triplet not given has "
             "nu = 0");
    if (bad)
        return;
    qsort(tr, (size_t)n, sizeof tr[0], triplet_cmp);
    memcpy(c->potential.atm.triplets, tr, (size_t)n * sizeof tr[0]);
    c->potential.atm.n_triplets = n;
    c->potential.atm.triplets_given = 1;
}

void cfg_read_species(cfg_ctx *x)
{
    static const char *const refer[] = {"system.init.composition", "potential.lj.pairs",
                                        "potential.atm.triplets", NULL};
    if (cfg_rejected(x, "system.species") || read_species(x) != 0) {
        x->bad[cfg_row_of("system.species")] = 1;
        for (int i = 0; refer[i]; i++) /* their names cannot be checked: no more lines */
            x->bad[cfg_row_of(refer[i])] |= x->src[cfg_row_of(refer[i])] != NULL;
        return;
    }
    read_composition(x);
    read_pairs(x);
    read_triplets(x);
}

/* ---- what a pair or triplet gets ----------------------------------------------------------- */

int cfg_species_find(const sim_config *c, const char *name)
{
    for (int i = 0; i < c->system.n_species; i++)
        if (!strcmp(c->system.species[i].name, name))
            return i;
    return -1;
}

/* The entry of potential.lj.pairs for (ti, tj), or NULL. */
static const cfg_lj_pair *pair_of(const sim_config *c, int ti, int tj)
{
    const int a = ti < tj ? ti : tj, b = ti < tj ? tj : ti;
    for (int i = 0; i < c->potential.lj.n_pairs; i++)
        if (c->potential.lj.pairs[i].t[0] == a && c->potential.lj.pairs[i].t[1] == b)
            return &c->potential.lj.pairs[i];
    return NULL;
}

/* The coefficients of a given pair, or the shorthand's when it is not given. */
static void pair_given(const sim_config *c, int ti, int tj, double *e, double *s, double *rc)
{
    const cfg_lj_pair *p = pair_of(c, ti, tj);
    *e = p ? p->epsilon : c->potential.lj.epsilon;
    *s = p ? p->sigma : c->potential.lj.sigma;
    *rc = p && p->cutoff > 0 ? p->cutoff : c->potential.lj.cutoff;
}

void cfg_lj_coeffs(const sim_config *c, int ti, int tj, double *epsilon, double *sigma,
                   double *cutoff)
{
    double ei, si, ci, ej, sj, cj;
    if (c->potential.lj.n_pairs == 0 || pair_of(c, ti, tj)) {
        pair_given(c, ti, tj, epsilon, sigma, cutoff);
        return;
    }
    pair_given(c, ti, ti, &ei, &si, &ci); /* LAMMPS's init_one: mix_energy, mix_distance */
    pair_given(c, tj, tj, &ej, &sj, &cj);
    *epsilon = sqrt(ei * ej);
    if (c->potential.lj.mix == CFG_MIX_ARITHMETIC) {
        *sigma = 0.5 * (si + sj);
        *cutoff = 0.5 * (ci + cj);
    } else {
        *sigma = sqrt(si * sj);
        *cutoff = sqrt(ci * cj);
    }
}

double cfg_lj_cutoff_max(const sim_config *c)
{
    double rc = 0, e, s, r;
    for (int i = 0; i < c->system.n_species; i++)
        for (int j = i; j < c->system.n_species; j++) {
            cfg_lj_coeffs(c, i, j, &e, &s, &r);
            rc = r > rc ? r : rc;
        }
    return c->system.n_species > 0 ? rc : c->potential.lj.cutoff;
}

double cfg_atm_nu(const sim_config *c, int ti, int tj, int tk)
{
    cfg_atm_triplet q = {.t = {ti, tj, tk}};
    if (!c->potential.atm.triplets_given)
        return c->potential.atm.nu;
    for (int a = 1; a < 3; a++)
        for (int b = a; b > 0 && q.t[b - 1] > q.t[b]; b--) {
            const int tmp = q.t[b];
            q.t[b] = q.t[b - 1];
            q.t[b - 1] = tmp;
        }
    for (int i = 0; i < c->potential.atm.n_triplets; i++)
        if (!triplet_cmp(&c->potential.atm.triplets[i], &q))
            return c->potential.atm.triplets[i].nu;
    return 0.0;
}

int cfg_atm_active(const sim_config *c)
{
    if (!c->potential.atm.triplets_given)
        return c->potential.atm.nu > 0;
    for (int i = 0; i < c->potential.atm.n_triplets; i++)
        if (c->potential.atm.triplets[i].nu > 0)
            return 1;
    return 0;
}

/* ---- physics text -------------------------------------------------------------------------- */

/* The longest list written out in the physics text; a longer one is its count and a hash
 * (restart.c reads a value into 256 bytes, a checkpoint holds 4096 bytes of text). */
#define TEXT_LIST_MAX 240

/* full (n entries) into buf: as it is, or as its count and FNV-1a hash when too long. */
static void list_text(const char *full, int n, char *buf, size_t size)
{
    unsigned long long h = 1469598103934665603ULL;
    if (strlen(full) <= TEXT_LIST_MAX) {
        snprintf(buf, size, "%s", full);
        return;
    }
    for (const char *p = full; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ULL;
    snprintf(buf, size, "%d entries, fnv1a %016llx", n, h);
}

void cfg_species_text(const sim_config *c, char *buf, size_t size)
{
    char full[1024] = "", v[32];
    for (int i = 0; i < c->system.n_species; i++)
        snprintf(full + strlen(full), sizeof full - strlen(full), "%s%s %s", i ? ", " : "",
                 c->system.species[i].name, cfg_fmt_num(c->system.species[i].mass, v));
    list_text(full, c->system.n_species, buf, size);
}

void cfg_pairs_text(const sim_config *c, char *buf, size_t size)
{
    char full[8192] = "", e[32], s[32], r[32];
    for (int i = 0; i < c->potential.lj.n_pairs; i++) {
        const cfg_lj_pair *p = &c->potential.lj.pairs[i];
        snprintf(full + strlen(full), sizeof full - strlen(full), "%s%s %s %s %s %s",
                 i ? ", " : "", c->system.species[p->t[0]].name, c->system.species[p->t[1]].name,
                 cfg_fmt_num(p->epsilon, e), cfg_fmt_num(p->sigma, s), cfg_fmt_num(p->cutoff, r));
    }
    list_text(c->potential.lj.n_pairs ? full : "none", c->potential.lj.n_pairs, buf, size);
}

void cfg_triplets_text(const sim_config *c, char *buf, size_t size)
{
    char full[8192] = "", v[32];
    for (int i = 0; i < c->potential.atm.n_triplets; i++) {
        const cfg_atm_triplet *q = &c->potential.atm.triplets[i];
        snprintf(full + strlen(full), sizeof full - strlen(full), "%s%s %s %s %s", i ? ", " : "",
                 c->system.species[q->t[0]].name, c->system.species[q->t[1]].name,
                 c->system.species[q->t[2]].name, cfg_fmt_num(q->nu, v));
    }
    list_text(c->potential.atm.triplets_given ? full : "none", c->potential.atm.n_triplets, buf,
              size);
}
