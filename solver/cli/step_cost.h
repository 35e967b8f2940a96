/* step_cost.h — the estimated time of one force evaluation, checked before step 0 by `run`
 * and `eval` against solver.max_step_seconds, so that an N whose single step would take
 * days is refused in a second instead of computed for years. */
#ifndef TB_STEP_COST_H
#define TB_STEP_COST_H

#include "config/config.h"
#include "solver/backend.h"
#include "solver/state.h"

TB_BEGIN_DECLS

/* Optimistic rates (above every measurement in docs/performance.md), so that a refusal is
 * certain to be right: triplets, pairs or list entry pairs per second. */
#define STEP_COST_CPU_RATE 1e9  /* per OpenMP thread of each rank */
#define STEP_COST_GPU_RATE 1e12 /* per GPU (one per rank) */

/* The estimated seconds of one force evaluation of s under c on the backend ops; *work gets
 * the units of work (triplets + pairs, or list entry pairs) and *lists whether the
 * neighbour-list path runs. */
double step_cost_seconds(const sim_config *c, const sim_state *s, const backend_ops *ops,
                         double *work, int *lists);

/* 0, or TB_EXIT_USAGE after one line when step_cost_seconds exceeds
 * solver.max_step_seconds, naming what makes it cheaper (solver.cull, the cutoffs). */
int step_cost_check(const sim_config *c, const sim_state *s, const backend_ops *ops);

TB_END_DECLS

#endif
