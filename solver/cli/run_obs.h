/* run_obs.h — what `tribody run` does with the observables (solver/io/obs.h): set up from the
 * configuration, the potential and the starting state (or a checkpoint), and sampled in the
 * stepping loop. */
#ifndef TB_RUN_OBS_H
#define TB_RUN_OBS_H

#include "config/config.h"
#include "solver/backend.h"
#include "solver/io/checkpoint.h"
#include "solver/io/obs.h"

/* Makes *o for c and the starting state s (NULL when c asks for no observable); x: the
 * checkpoint a restart read (its OBSV section restored), NULL for a fresh run. The default
 * output.rdf.r_max is the largest cutoff of the terms that run, limited to half the smallest
 * periodic width of s's box. 0, TB_EXIT_USAGE (reported) or -1. */
int run_obs_create(obs **o, const sim_config *c, const sim_state *s, const ckpt_extra *x,
                   const char *restart);

/* Whether step needs the state fetched for the observables: an MSD sample or a summary sample
 * (every thermo step). */
int run_obs_fetch_due(const obs *o, const sim_config *c, long step);

/* At a step: the RDF sample when due (on the backend, from its positions); with the state s
 * fetched (fetched = 1): the images followed, then the MSD and summary samples when due.
 * Rank 0 alone calls it. 0 or -1. */
int run_obs_step(obs *o, const sim_config *c, const backend_ops *ops, backend *b,
                 const sim_state *s, int fetched);

#endif
