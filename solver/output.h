/* output.h — output files that never lose a user's data, and the thermo CSV.
 *
 * An output path that already exists is never overwritten: out_backup() renames it to
 * PATH.~1~ (or the next free PATH.~k~, GNU numbered-backup style) first and says so.
 * Thermo CSV columns, in reduced LJ units:
 *   step, time [tau], kinetic, pair, triplet, total [epsilon], drift = (E - E0)/|E0|,
 *   temperature [epsilon/k_B]. */
#ifndef TB_OUTPUT_H
#define TB_OUTPUT_H

#include <stdio.h>
#include "state.h"

TB_BEGIN_DECLS

/* If path exists, renames it to the first free path.~k~ and prints a notice. 0 or -1. */
int out_backup(const char *path);

/* out_backup(path), then opens path for writing ("-" is stdout). NULL on failure, reported. */
FILE *out_create(const char *path);

/* Closes f (not stdout), reporting a write error on path. 0 or -1. */
int out_close(FILE *f, const char *path);

/* The CSV header line and one row for the state s. 0 or -1 (a write error, reported). */
int thermo_header(FILE *f, const char *path);
int thermo_row(FILE *f, const char *path, const sim_state *s);

/* Relative energy drift (E - E0)/|E0| (E - E0 when E0 = 0). */
double sim_drift(const sim_state *s);

TB_END_DECLS

#endif
