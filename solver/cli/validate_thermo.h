/* validate_thermo.h — the thermostat rows of `tribody validate` (validate_thermo.c). */
#ifndef TB_VALIDATE_THERMO_H
#define TB_VALIDATE_THERMO_H

#include "config/config.h"
#include "solver/backend.h"
#include "solver/state.h"

/* How a row compares its measurement: at most hi, at least lo, or within [lo, hi]. */
enum { VAL_CMP_LE = 0, VAL_CMP_GE = 1, VAL_CMP_IN = 2 };

/* Adds one row of the validate table; 0 or -1. skip = 1 marks it skipped. */
typedef int (*val_row_fn)(void *ctx, const char *check, const char *map, const char *prec,
                          double measured, int cmp, double lo, double hi, int skip);

/* Langevin temperature and Nose-Hoover conservation on backend ops for the system of c (its
 * trajectory form: open, smooth) starting from s0; rows through add(ctx, ...). 0, or -1
 * (reported) when a run fails. */
int val_thermostat_checks(const backend_ops *ops, const sim_config *c, const sim_state *s0,
                          val_row_fn add, void *ctx);

#endif
