/* obs.h — the observables of a run (output.rdf, output.msd and the end-of-run summary):
 * their accumulators, their state in a checkpoint, and their files.
 *
 * g(r) (obs_rdf.c): the backends count pairs into the integer histogram of solver/rdf.h every
 * output.rdf.every steps; each sample is added as counts x the box volume of that sample, so
 * that the average is the mean of each sample's g(r), LAMMPS's `compute rdf` (normalised by
 * the atoms of each species and the volume) averaged as `fix ave/time` does. Written at the end
 * of the run: a CSV with r, g and the coordination number, for all pairs and, with several
 * species, for each species pair (LAMMPS's `compute rdf N * * 1 1 1 2 ...` order).
 *
 * MSD (obs_msd.c): every particle's image count is followed at each fetched state
 * (obs_track): a displacement between two looks larger than the minimum image is taken as a
 * wrap, so the looks must be closer than half the box's smallest width of motion apart (they
 * are at every thermo, MSD, trajectory and checkpoint step). The MSD at a sample is the mean of
 * |x + images - x0|^2 per species, x0 the positions at the start of the run (step 0); the
 * diffusion coefficient D = slope / 6 of a least-squares line through the later half of the
 * samples (Einstein).
 *
 * The summary (obs_stats.c): T, P, density, the potential, kinetic and total energies at every
 * thermo step, averaged, with a standard error from block averaging (Flyvbjerg & Petersen 1989:
 * pairs of neighbouring values averaged level after level; the level taken is the smallest
 * block size B with B^3 > 2 n (SE_B / SE_1)^4, Lee, Needs & Drummond 2011, as pyblock does).
 *
 * A checkpoint carries all of it (obs_save, obs_restore), so a restarted run writes what an
 * uninterrupted one would. */
#ifndef TB_OBS_H
#define TB_OBS_H

#include <stddef.h>
#include <stdio.h>

#include "config/config.h"
#include "solver/rdf.h"
#include "solver/state.h"

TB_BEGIN_DECLS

typedef struct obs obs;

/* Sets up the observables c asks for, for the state s at its start (a fresh run: the MSD's
 * origin). r_max: output.rdf.r_max in effect (the caller's default when not given). Returns 0;
 * TB_EXIT_USAGE (one line naming output.rdf or output.rdf.r_max) when r_max is beyond half the
 * smallest periodic width of s's box or s has no periodic axis; -1 out of memory. *out NULL when
 * c asks for none. */
int obs_create(obs **out, const sim_config *c, const sim_state *s, double r_max);
void obs_destroy(obs *o);

/* The histogram to fill (zeroed, rdf_npairs(ntypes) * bins entries) and its spec; NULL when
 * output.rdf is off. Then obs_rdf_add: the filled histogram is one sample in a box of volume V,
 * which took `seconds` of wall time to count (reported at the end: the cost of g(r)). */
const rdf_spec *obs_rdf_spec(const obs *o);
unsigned long long *obs_rdf_counts(obs *o);
void obs_rdf_add(obs *o, double volume, double seconds);

/* Follows the images with the state just fetched (every fetch). */
void obs_track(obs *o, const sim_state *s);
/* A sample of the MSD (output.msd on), of the summary; at s's step and time. 0 or -1 (memory). */
int obs_msd_sample(obs *o, const sim_state *s);
int obs_stats_sample(obs *o, const sim_state *s);

/* The files (the CSVs and their PNGs), for the checks and locks before step 0: up to 4 paths
 * and the settings they come from; returns how many. */
int obs_paths(const obs *o, const char *path[4], const char *setting[4]);

/* Writes the CSVs and, with gnuplot, the plots; then prints the cost of g(r) against the
 * run's wall time `wall` [s], D and the summary table on f. 0 or -1 (reported). */
int obs_finish(obs *o, FILE *f, double wall);

/* The observables' state for a checkpoint (malloc'd; free it) and back. restore: 0, or
 * TB_EXIT_USAGE with a message naming path when the bytes are not a state of this system;
 * accumulators of other settings (bins, r_max) start anew with a notice. */
int obs_save(const obs *o, unsigned char **buf, size_t *len);
int obs_restore(obs *o, const unsigned char *buf, size_t len, const char *path);

/* ---- parts, for the tests ---- */

/* g(r) and the coordination number of LAMMPS's compute rdf for histograms h[bins] of the
 * LAMMPS kind (ordered pairs: a pair of the same species counted twice) averaged over
 * `samples` samples: hv_sum = the sum over samples of h x V (the box volume), h_sum = of h;
 * icount, jcount, dup as compute_rdf.cpp's (obs_rdf.c). */
void obs_rdf_normalise(const double *hv_sum, const double *h_sum, long long samples, int bins,
                       double r_max, double icount, double jcount, double dup, double *g,
                       double *coord);

/* Standard error of the mean of x[n] by block averaging (above); *level = log2 of the block
 * size taken, *ok = 0 when no level met the criterion (the last level with >= 2 blocks is
 * taken). NaN for n < 2. */
double obs_block_se(const double *x, int n, int *level, int *ok);

/* The MSD samples so far: rows of *width doubles (step, time, MSD of all, of each species when
 * there are several), *n of them. */
const double *obs_msd_rows(const obs *o, long *n, int *width);

/* The least-squares slope of y against t over i = i0 .. n-1. */
double obs_slope(const double *t, const double *y, int stride, int i0, int n);

TB_END_DECLS

#endif
