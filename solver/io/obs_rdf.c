/* obs_rdf.c — g(r) from the accumulated pair histograms (obs.h): LAMMPS's normalisation
 * (compute_rdf.cpp), and the CSV and plot written at the end of the run.
 *
 * The histogram of rdf.h counts each unordered pair once by its species pair {a, b}; LAMMPS's
 * histogram of "a b" counts ordered pairs (i of a, j of b) from a half list, so a pair of the
 * same species twice. Its normaliser: icount atoms of the first species, jcount of the second,
 * dup of both (a self pair is excluded): normfac = jcount - dup / icount, and
 *   g = hist / (vfrac normfac icount),  vfrac = 4 pi (r_hi^3 - r_lo^3) / (3 V),
 *   coord(r) = sum of g vfrac normfac up to the bin. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/check.h"
#include "config/units.h"
#include "solver/io/obs_int.h"
#include "solver/io/output.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

void obs_rdf_normalise(const double *hv_sum, const double *h_sum, long long samples, int bins,
                       double r_max, double icount, double jcount, double dup, double *g,
                       double *coord)
{
    const double delr = r_max / bins, constant = 4.0 * M_PI / 3.0;
    const double normfac = icount > 0 ? jcount - dup / icount : 0.0;
    const double per = samples > 0 ? 1.0 / (double)samples : 0.0;
    double ncoord = 0.0;
    for (int k = 0; k < bins; k++) {
        const double lo = k * delr, hi = (k + 1) * delr;
        /* vfrac V = constant (hi^3 - lo^3); hv is the sample mean of hist V */
        const double shell = constant * (hi * hi * hi - lo * lo * lo);
        g[k] = shell * normfac != 0.0 ? hv_sum[k] * per / (shell * normfac * icount) : 0.0;
        /* g vfrac normfac = hist / icount: the neighbours per atom in the shell */
        if (icount > 0)
            ncoord += h_sum[k] * per / icount;
        coord[k] = ncoord;
    }
}

/* The LAMMPS-kind histograms (ordered pairs) of column set m: 0 all pairs, then the species
 * pairs a <= b in rdf_tpair order, into hv[bins], hs[bins], with their counts. */
static void lammps_hist(const obs *o, int m, double *hv, double *hs, double cnt[3])
{
    const int bins = o->spec.bins, np = rdf_npairs(o->ntypes);
    if (m == 0) {
        memset(hv, 0, (size_t)bins * sizeof *hv);
        memset(hs, 0, (size_t)bins * sizeof *hs);
        for (int p = 0; p < np; p++)
            for (int k = 0; k < bins; k++) {
                hv[k] += 2.0 * o->hv[(size_t)p * bins + k];
                hs[k] += 2.0 * o->hs[(size_t)p * bins + k];
            }
        cnt[0] = cnt[1] = cnt[2] = o->n;
        return;
    }
    int a = 0, b = 0;
    for (int p = 0; p < m - 1; p++) /* the (m-1)-th pair a <= b */
        if (++b == o->ntypes)
            b = ++a;
    const double twice = a == b ? 2.0 : 1.0;
    for (int k = 0; k < bins; k++) {
        hv[k] = twice * o->hv[(size_t)(m - 1) * bins + k];
        hs[k] = twice * o->hs[(size_t)(m - 1) * bins + k];
    }
    cnt[0] = o->count[a];
    cnt[1] = o->count[b];
    cnt[2] = a == b ? o->count[a] : 0;
}

int obs_rdf_write(const obs *o)
{
    const int bins = o->spec.bins, sets = 1 + (o->ntypes > 1 ? rdf_npairs(o->ntypes) : 0);
    const tb_units *u = units_of(o->units);
    double *g = malloc((size_t)sets * bins * sizeof *g), *cn = malloc((size_t)sets * bins * sizeof *cn);
    double *hv = malloc((size_t)bins * sizeof *hv), *hs = malloc((size_t)bins * sizeof *hs);
    int cols[1 + (TB_TYPES_MAX * (TB_TYPES_MAX + 1)) / 2], rc = -1;
    FILE *f = NULL;
    if (!g || !cn || !hv || !hs) {
        tb_error(NULL, 0, "out of memory (output.rdf)");
        goto done;
    }
    for (int m = 0; m < sets; m++) {
        double cnt[3];
        lammps_hist(o, m, hv, hs, cnt);
        obs_rdf_normalise(hv, hs, o->rdf_samples, bins, o->spec.r_max, cnt[0], cnt[1], cnt[2],
                          g + (size_t)m * bins, cn + (size_t)m * bins);
    }
    if (!o->rdf_file[0]) { /* output.rdf.file = "": counted, not written */
        rc = 0;
        goto done;
    }
    if (!(f = out_create(o->rdf_file)))
        goto done;
    fprintf(f, "# tribody output.rdf: g(r) averaged over %lld samples, one every %d steps, "
               "normalised as LAMMPS's compute rdf; r_max = %.17g, %d bins\n"
               "# units: r [%s] (bin centre); g: none; coord: particles of the second species "
               "within r of one of the first (LAMMPS's coord)\nr,g,coord",
            o->rdf_samples, o->rdf_every, o->spec.r_max, bins, u->length);
    for (int a = 0; sets > 1 && a < o->ntypes; a++)
        for (int b = a; b < o->ntypes; b++)
            fprintf(f, ",g_%s_%s,coord_%s_%s", o->type_name[a], o->type_name[b],
                    o->type_name[a], o->type_name[b]);
    fputc('\n', f);
    for (int k = 0; k < bins; k++) {
        fprintf(f, "%.17g", (k + 0.5) * (o->spec.r_max / bins));
        for (int m = 0; m < sets; m++)
            fprintf(f, ",%.17g,%.17g", g[(size_t)m * bins + k], cn[(size_t)m * bins + k]);
        fputc('\n', f);
    }
    rc = out_close(f, o->rdf_file);
    f = NULL;
    if (rc == 0 && strcmp(o->rdf_file, "-")) {
        char title[160], xl[64];
        for (int m = 0; m < sets; m++)
            cols[m] = 2 + 2 * m;
        snprintf(title, sizeof title, "g(r), %lld samples", o->rdf_samples);
        snprintf(xl, sizeof xl, "r [%s]", u->length);
        rc = obs_plot(o->rdf_file, o->rdf_png, title, xl, "g(r)", 1, sets, cols);
    }
done:
    if (f)
        fclose(f);
    free(g);
    free(cn);
    free(hv);
    free(hs);
    return rc;
}
