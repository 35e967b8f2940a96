/* bench_ranks.h — the per-rank timers of `tribody bench` (bench_ranks.c). */
#ifndef TB_BENCH_RANKS_H
#define TB_BENCH_RANKS_H

#include <stdio.h>

#include "solver/backend.h"

/* Collective (every rank calls it with its own timers): rank 0 prints one row per rank — wall
 * time, force, sum, integration, list build and the rest, in ms per step (per_step = 1, over
 * t->steps) or per evaluation (over t->evals), and the rank's work share: t->units (named
 * units_name) and t->work (named work_name) — then the sum of the shares against total_work
 * (0: not known). wall: this rank's seconds over the timed calls. csv (rank 0's, or NULL)
 * gets one "# rank,KEY,..." line per rank. The last column: the evaluations that summed the
 * virial (an MD step's evaluation does not; the GPU kernel with it is ~10 % slower). 0 or -1. */
int bench_rank_table(const backend_times *t, double wall, int per_step, const char *units_name,
                     const char *work_name, double total_work, FILE *csv, const char *key);

#endif
