/* obs_stats.c — the summary at the end of a run (obs.h): T, P, density and the energies at every
 * thermo step, their averages and standard errors by block averaging.
 *
 * Blocking (Flyvbjerg & Petersen, J. Chem. Phys. 91, 461 (1989)): level 0 is the series, each
 * next level the means of neighbouring pairs of the one before (a last odd value dropped); at a
 * level of m blocks, SE = sqrt(sum (y - mean)^2 / (m (m - 1))), which grows with the block size
 * B = 2^k until the blocks are longer than the correlation time, then stays. The level taken is
 * the smallest k with B^3 > 2 n (SE_k / SE_0)^4 (Lee, Needs & Drummond, Phys. Rev. B 83, 066706
 * (2011); pyblock's optimal block), among levels of at least 2 blocks; when none meets it, the
 * last such level, marked as not converged (the run is too short for its correlation time). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/check.h"
#include "config/units.h"
#include "solver/io/obs_int.h"
#include "solver/io/output.h"

double obs_block_se(const double *x, int n, int *level, int *ok)
{
    double *y, se0 = (double)NAN, se = (double)NAN;
    int m = n;
    *level = 0;
    *ok = 0;
    if (n < 2 || !(y = malloc((size_t)n * sizeof *y)))
        return (double)NAN;
    memcpy(y, x, (size_t)n * sizeof *y);
    for (int k = 0; m >= 2; k++) {
        double mean = 0.0, ss = 0.0;
        for (int i = 0; i < m; i++)
            mean += y[i];
        mean /= m;
        for (int i = 0; i < m; i++)
            ss += (y[i] - mean) * (y[i] - mean);
        se = sqrt(ss / ((double)m * (m - 1)));
        if (k == 0)
            se0 = se;
        *level = k;
        const double ratio = se0 > 0 ? se / se0 : 0.0, b = ldexp(1.0, k);
        if (b * b * b > 2.0 * n * ratio * ratio * ratio * ratio) {
            *ok = 1;
            break;
        }
        for (int i = 0; i < m / 2; i++)
            y[i] = 0.5 * (y[2 * i] + y[2 * i + 1]);
        m /= 2;
    }
    free(y);
    return se;
}

int obs_stats_sample(obs *o, const sim_state *s)
{
    double row[1 + OBS_STATS], p[7];
    const double ke = sim_kinetic(s);
    if (!o)
        return 0;
    row[0] = (double)s->step;
    row[1] = sim_temperature(s);
    row[2] = sim_pressure(s, p) == 0 ? p[0] : (double)NAN;
    row[3] = sim_density(s);
    row[4] = s->e_pair + s->e_triplet;
    row[5] = ke;
    row[6] = ke + s->e_pair + s->e_triplet;
    return obs_rows_add(&o->stats, row);
}

void obs_stats_report(const obs *o, FILE *f)
{
    const tb_units *u = units_of(o->units);
    const int n = (int)o->stats.n, w = o->stats.width;
    char dens[64];
    const char *name[OBS_STATS] = {"temperature", "pressure", "density", "potential",
                                   "kinetic", "total"};
    const char *unit[OBS_STATS] = {u->temperature, u->pressure, dens, u->energy, u->energy,
                                   u->energy};
    double *col;
    if (n < 2 || !(col = malloc((size_t)n * sizeof *col)))
        return;
    snprintf(dens, sizeof dens, strcmp(u->name, "lj") ? "g/cm^3" : "%s/%s^3", u->mass, u->length);
    fprintf(f, "  averages over %d thermo steps (%.0f .. %.0f), standard errors by block averaging "
               "(docs/config.md):\n    %-12s %-14s %20s %14s %7s\n",
            n, o->stats.v[0], o->stats.v[(size_t)(n - 1) * w], "quantity", "unit", "mean",
            "std. error", "block");
    for (int q = 0; q < OBS_STATS; q++) {
        double mean = 0.0;
        int level, ok;
        for (int i = 0; i < n; i++)
            mean += (col[i] = o->stats.v[(size_t)i * w + 1 + q]);
        mean /= n;
        if (!isfinite(mean))
            continue; /* P and the density of a box without volume */
        const double se = obs_block_se(col, n, &level, &ok);
        fprintf(f, "    %-12s %-14s %20.12g %14.6g %6d%s\n", name[q], unit[q], mean, se, 1 << level,
                ok ? "" : "*");
    }
    fprintf(f, "    (block: the block length in samples; * the error has not converged: the run "
               "is short for its correlation time)\n");
    free(col);
}
