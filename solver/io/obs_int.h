/* obs_int.h — what the parts of the observables (obs.c, obs_rdf.c, obs_msd.c, obs_stats.c)
 * share: the accumulators. Not a public interface: obs.h is. */
#ifndef TB_OBS_INT_H
#define TB_OBS_INT_H

#include "solver/io/obs.h"

#define OBS_STATS 6 /* T, P, density, potential, kinetic, total */

/* A growing table of rows of `width` doubles. */
typedef struct obs_rows {
    double *v;
    long n, cap;
    int width;
} obs_rows;

struct obs {
    char cfg[CFG_PATH_MAX];  /* the config, for messages */
    int n, ntypes, units;
    int count[TB_TYPES_MAX]; /* particles of each species */
    char type_name[TB_TYPES_MAX][TB_SPECIES_MAX];
    int thermo_every;
    /* output.rdf */
    int rdf_on, rdf_every;
    rdf_spec spec;
    char rdf_file[CFG_PATH_MAX], rdf_png[CFG_PATH_MAX + 8];
    unsigned long long *counts; /* one sample's histogram, rdf_npairs * bins */
    double *hv;                 /* sum over samples of counts x volume */
    double *hs;                 /* sum over samples of counts */
    long long rdf_samples;
    long long rdf_timed;        /* samples counted in this process (not a checkpoint's) */
    double rdf_seconds;         /* their wall time */
    /* output.msd */
    int msd_on, msd_every;
    char msd_file[CFG_PATH_MAX], msd_png[CFG_PATH_MAX + 8];
    int *img;                   /* [3n] image counts along a, b, c */
    int far_noted;              /* a move of a quarter width between looks was reported */
    double *x0, *prev;          /* [3n] positions at the origin; at the last look */
    obs_rows msd;               /* step, time, msd of all, msd per species (ntypes > 1) */
    /* the summary */
    obs_rows stats;             /* step, then OBS_STATS values */
};

int obs_rows_add(obs_rows *r, const double *row);
void obs_rows_free(obs_rows *r);

/* The parts' files and report lines (0 or -1, reported). */
int obs_rdf_write(const obs *o);
int obs_msd_write(const obs *o, FILE *f);
void obs_stats_report(const obs *o, FILE *f);

/* Draws the columns ycols (1-based, gnuplot's) of the CSV csv against column xcol into png with
 * gnuplot, one line each titled by the header; a notice when gnuplot is missing. 0 or -1. */
int obs_plot(const char *csv, const char *png, const char *title, const char *xlabel,
             const char *ylabel, int xcol, int ncols, const int *ycols);

#endif
