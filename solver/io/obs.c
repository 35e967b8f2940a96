/* obs.c — the observables' trunk (obs.h): setting them up from the configuration and the
 * starting state, their state in a checkpoint, the end of the run (files, plots, report); the
 * parts are obs_rdf.c (g(r)), obs_msd.c (MSD, D) and obs_stats.c (the summary). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/check.h"
#include "config/config.h"
#include "solver/io/obs_int.h"
#include "solver/io/output.h"

int obs_rows_add(obs_rows *r, const double *row)
{
    if (r->n == r->cap) {
        const long cap = r->cap ? 2 * r->cap : 256;
        double *v = realloc(r->v, (size_t)cap * (size_t)r->width * sizeof *v);
        if (!v)
            return tb_error(NULL, 0, "out of memory (observables)");
        r->v = v;
        r->cap = cap;
    }
    memcpy(r->v + (size_t)r->n * (size_t)r->width, row, (size_t)r->width * sizeof *row);
    r->n++;
    return 0;
}

void obs_rows_free(obs_rows *r)
{
    free(r->v);
    r->v = NULL;
    r->n = r->cap = 0;
}

/* csv with its .csv ending (if any) replaced by .png. */
static void png_of(const char *csv, char *png, size_t size)
{
    const size_t len = strlen(csv);
    if (len > 4 && !strcmp(csv + len - 4, ".csv"))
        snprintf(png, size, "%.*s.png", (int)(len - 4), csv);
    else
        snprintf(png, size, "%s.png", csv);
}

int obs_create(obs **out, const sim_config *c, const sim_state *s, double r_max)
{
    obs *o;
    *out = NULL;
    if (!c->output.rdf.enabled && !c->output.msd.enabled)
        return 0;
    if (c->output.rdf.enabled) {
        const double half = box_half_width_d(&s->box);
        char a[32], b[32];
        if (!box_periodic_d(&s->box)) {
            tb_error(c->path, 0, "output.rdf: needs a box with a periodic axis (g(r) is "
                                 "normalised by the volume; the boundary is open)");
            return TB_EXIT_USAGE;
        }
        if (!(r_max > 0) || r_max > half) {
            snprintf(a, sizeof a, "%.17g", r_max);
            snprintf(b, sizeof b, "%.17g", half);
            tb_error(c->path, 0, "output.rdf.r_max: beyond half the smallest periodic width of "
                                 "the box, %s (got %s)", b, a);
            return TB_EXIT_USAGE;
        }
    }
    if (!(o = calloc(1, sizeof *o)))
        return tb_error(NULL, 0, "out of memory (observables)");
    snprintf(o->cfg, sizeof o->cfg, "%s", c->path);
    o->n = s->n;
    o->ntypes = s->ntypes;
    o->units = s->units;
    o->thermo_every = c->output.thermo_every;
    memcpy(o->type_name, s->type_name, sizeof o->type_name);
    for (int i = 0; i < s->n; i++)
        o->count[s->type[i]]++;
    o->stats.width = 1 + OBS_STATS;
    if (c->output.rdf.enabled) {
        const size_t len = (size_t)rdf_npairs(s->ntypes) * (size_t)c->output.rdf.bins;
        o->rdf_on = 1;
        o->rdf_every = c->output.rdf.every;
        o->spec.r_max = r_max;
        o->spec.bins = c->output.rdf.bins;
        o->spec.ntypes = s->ntypes;
        snprintf(o->rdf_file, sizeof o->rdf_file, "%s", c->output.rdf.file);
        png_of(o->rdf_file, o->rdf_png, sizeof o->rdf_png);
        o->counts = calloc(len, sizeof *o->counts);
        o->hv = calloc(len, sizeof *o->hv);
        o->hs = calloc(len, sizeof *o->hs);
        if (!o->counts || !o->hv || !o->hs) {
            obs_destroy(o);
            return tb_error(NULL, 0, "out of memory (output.rdf: %zu bins)", len);
        }
    }
    if (c->output.msd.enabled) {
        const size_t n3 = 3 * (size_t)s->n;
        o->msd_on = 1;
        o->msd_every = c->output.msd.every;
        snprintf(o->msd_file, sizeof o->msd_file, "%s", c->output.msd.file);
        png_of(o->msd_file, o->msd_png, sizeof o->msd_png);
        o->msd.width = 3 + (s->ntypes > 1 ? s->ntypes : 0);
        o->img = calloc(n3, sizeof *o->img);
        o->x0 = malloc(n3 * sizeof *o->x0);
        o->prev = malloc(n3 * sizeof *o->prev);
        if (!o->img || !o->x0 || !o->prev) {
            obs_destroy(o);
            return tb_error(NULL, 0, "out of memory (output.msd)");
        }
        memcpy(o->x0, s->pos, n3 * sizeof *o->x0);
        memcpy(o->prev, s->pos, n3 * sizeof *o->prev);
    }
    *out = o;
    return 0;
}

void obs_destroy(obs *o)
{
    if (!o)
        return;
    free(o->counts);
    free(o->hv);
    free(o->hs);
    free(o->img);
    free(o->x0);
    free(o->prev);
    obs_rows_free(&o->msd);
    obs_rows_free(&o->stats);
    free(o);
}

const rdf_spec *obs_rdf_spec(const obs *o)
{
    return o && o->rdf_on ? &o->spec : NULL;
}

unsigned long long *obs_rdf_counts(obs *o)
{
    memset(o->counts, 0, (size_t)rdf_npairs(o->ntypes) * (size_t)o->spec.bins * sizeof *o->counts);
    return o->counts;
}

void obs_rdf_add(obs *o, double volume, double seconds)
{
    o->rdf_seconds += seconds;
    o->rdf_timed++;
    const size_t len = (size_t)rdf_npairs(o->ntypes) * (size_t)o->spec.bins;
    for (size_t k = 0; k < len; k++) {
        o->hv[k] += (double)o->counts[k] * volume;
        o->hs[k] += (double)o->counts[k];
    }
    o->rdf_samples++;
}

int obs_paths(const obs *o, const char *path[4], const char *setting[4])
{
    int k = 0;
    if (o && o->rdf_on && o->rdf_file[0]) {
        path[k] = o->rdf_file, setting[k++] = "output.rdf.file";
        if (strcmp(o->rdf_file, "-")) /* stdout has no plot */
            path[k] = o->rdf_png, setting[k++] = "output.rdf.file (its plot)";
    }
    if (o && o->msd_on && o->msd_file[0]) {
        path[k] = o->msd_file, setting[k++] = "output.msd.file";
        if (strcmp(o->msd_file, "-"))
            path[k] = o->msd_png, setting[k++] = "output.msd.file (its plot)";
    }
    return k;
}

int obs_plot(const char *csv, const char *png, const char *title, const char *xlabel,
             const char *ylabel, int xcol, int ncols, const int *ycols)
{
    static int have = -1, cairo;
    FILE *p;
    if (have < 0) {
        have = system("command -v gnuplot >/dev/null 2>&1") == 0;
        cairo = have && system("gnuplot -e 'set terminal pngcairo' >/dev/null 2>&1") == 0;
    }
    if (!have) {
        tb_notice("gnuplot is not installed (Debian: gnuplot-nox): %s not drawn, the data is in %s",
                  png, csv);
        return 0;
    }
    if (!strcmp(csv, "-") || out_backup(png) != 0)
        return csv[0] == '-' ? 0 : -1;
    if (!(p = popen("gnuplot", "w")))
        return tb_error(png, 0, "cannot start gnuplot");
    fprintf(p, "set terminal %s size 900,600\nset output '%s'\nset datafile separator ','\n"
               "set termoption noenhanced\nset key autotitle columnhead\nset title '%s' noenhanced\nset xlabel '%s'\n"
               "set ylabel '%s'\nset grid\nplot ",
            cairo ? "pngcairo" : "png", png, title, xlabel, ylabel);
    for (int i = 0; i < ncols; i++)
        fprintf(p, "%s'%s' using %d:%d with lines lw 2", i ? ", " : "", csv, xcol, ycols[i]);
    fprintf(p, "\n");
    if (pclose(p) != 0)
        return tb_error(png, 0, "gnuplot failed to draw the plot of %s", csv);
    return 0;
}

int obs_finish(obs *o, FILE *f, double wall)
{
    if (!o)
        return 0;
    if (o->rdf_on && obs_rdf_write(o) != 0)
        return -1;
    if (o->rdf_on && o->rdf_timed > 0)
        fprintf(f, "  g(r): %lld samples of %d bins up to %.6g, %.4g ms each (%.4g s in this "
                   "process; the steps took %.4g s)\n", o->rdf_samples, o->spec.bins,
                o->spec.r_max, 1e3 * o->rdf_seconds / (double)o->rdf_timed, o->rdf_seconds, wall);
    if (o->msd_on && obs_msd_write(o, f) != 0)
        return -1;
    obs_stats_report(o, f);
    return 0;
}

/* ---- the checkpoint's section --------------------------------------------------------------- */

#define OBS_MAGIC 0x3153424fu /* "OBS1" */

typedef struct obs_head {
    uint32_t magic;
    int32_t n, ntypes, bins;
    double r_max;
    int64_t rdf_samples, msd_rows, stats_rows;
    int32_t rdf, msd, msd_width, pad;
} obs_head;

static void put(unsigned char **p, const void *v, size_t len)
{
    if (len)
        memcpy(*p, v, len);
    *p += len;
}

int obs_save(const obs *o, unsigned char **buf, size_t *len)
{
    const size_t n3 = 3 * (size_t)o->n, hl = o->rdf_on ? (size_t)rdf_npairs(o->ntypes) * o->spec.bins : 0;
    obs_head h;
    unsigned char *p;
    memset(&h, 0, sizeof h);
    h.magic = OBS_MAGIC;
    h.n = o->n;
    h.ntypes = o->ntypes;
    h.rdf = o->rdf_on;
    h.bins = o->rdf_on ? o->spec.bins : 0;
    h.r_max = o->rdf_on ? o->spec.r_max : 0.0;
    h.rdf_samples = o->rdf_samples;
    h.msd = o->msd_on;
    h.msd_width = o->msd.width;
    h.msd_rows = o->msd.n;
    h.stats_rows = o->stats.n;
    *len = sizeof h + 2 * hl * sizeof(double) +
           (o->msd_on ? n3 * (sizeof(int32_t) + sizeof(double)) : 0) +
           ((size_t)o->msd.n * (size_t)o->msd.width + (size_t)o->stats.n * (size_t)o->stats.width) *
               sizeof(double);
    if (!(*buf = p = malloc(*len)))
        return tb_error(NULL, 0, "out of memory (observables' checkpoint)");
    put(&p, &h, sizeof h);
    put(&p, o->hv, hl * sizeof(double));
    put(&p, o->hs, hl * sizeof(double));
    if (o->msd_on) {
        put(&p, o->img, n3 * sizeof(int32_t));
        put(&p, o->x0, n3 * sizeof(double));
    }
    put(&p, o->msd.v, (size_t)o->msd.n * (size_t)o->msd.width * sizeof(double));
    put(&p, o->stats.v, (size_t)o->stats.n * (size_t)o->stats.width * sizeof(double));
    return 0;
}

/* Takes len bytes from *p (within end) into v (NULL: skipped). 0, or -1 past the end. */
static int get(const unsigned char **p, const unsigned char *end, void *v, size_t len)
{
    if ((size_t)(end - *p) < len)
        return -1;
    if (v && len)
        memcpy(v, *p, len);
    *p += len;
    return 0;
}

/* Appends rows rows of width w from *p to r. 0, -1 past the end or out of memory. */
static int get_rows(const unsigned char **p, const unsigned char *end, obs_rows *r, long rows, int w)
{
    double row[3 + TB_TYPES_MAX + OBS_STATS];
    if (w != r->width || w > (int)(sizeof row / sizeof row[0]))
        return get(p, end, NULL, (size_t)rows * (size_t)w * sizeof(double));
    for (long i = 0; i < rows; i++)
        if (get(p, end, row, (size_t)w * sizeof(double)) != 0 || obs_rows_add(r, row) != 0)
            return -1;
    return 0;
}

int obs_restore(obs *o, const unsigned char *buf, size_t len, const char *path)
{
    const unsigned char *p = buf, *end = buf + len;
    const size_t n3 = 3 * (size_t)o->n;
    obs_head h;
    if (get(&p, end, &h, sizeof h) != 0 || h.magic != OBS_MAGIC || h.n != o->n ||
        h.ntypes != o->ntypes || h.msd_rows < 0 || h.stats_rows < 0 || h.rdf_samples < 0 ||
        h.bins < 0 || h.msd_width < 0 || h.msd_width > 3 + TB_TYPES_MAX) {
        tb_error(path, 0, "the observables' section (OBSV) is not of this system");
        return TB_EXIT_USAGE;
    }
    const size_t hl = h.rdf ? (size_t)rdf_npairs(h.ntypes) * (size_t)h.bins : 0;
    const int same_rdf = o->rdf_on && h.rdf && h.bins == o->spec.bins && h.r_max == o->spec.r_max;
    if (o->rdf_on && !same_rdf)
        tb_notice("%s: g(r) starts anew here (the checkpoint's output.rdf had other settings or "
                  "none)", path);
    if (get(&p, end, same_rdf ? o->hv : NULL, hl * sizeof(double)) != 0 ||
        get(&p, end, same_rdf ? o->hs : NULL, hl * sizeof(double)) != 0)
        goto bad;
    if (same_rdf)
        o->rdf_samples = h.rdf_samples;
    if (h.msd && get(&p, end, o->msd_on ? o->img : NULL, n3 * sizeof(int32_t)) != 0)
        goto bad;
    if (h.msd && get(&p, end, o->msd_on ? o->x0 : NULL, n3 * sizeof(double)) != 0)
        goto bad;
    if (o->msd_on && !h.msd)
        tb_notice("%s: the MSD starts here (the checkpoint's run had no output.msd)", path);
    if (get_rows(&p, end, &o->msd, (long)h.msd_rows, h.msd_width) != 0 ||
        get_rows(&p, end, &o->stats, (long)h.stats_rows, 1 + OBS_STATS) != 0 || p != end)
        goto bad;
    return 0;
bad:
    tb_error(path, 0, "the observables' section (OBSV) is truncated or corrupt");
    return TB_EXIT_USAGE;
}
