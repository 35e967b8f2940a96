/* valsys.h — the independent reference's view (val_system, validate/reference.h) of a
 * configuration and a state: one copy for `tribody validate` and the tests. It lives in
 * solver/cli/, beside `tribody validate`, because validate/ must not see solver/ or config/ (a
 * reference that shares the code it checks proves nothing); this is only the hand-over of the
 * settings.
 *
 * One species in a cube or an open cluster: the reference's scalar form (a cube's edge, the
 * config's epsilon, sigma, nu). Anything else takes its general form: the state's box as a
 * val_cell (edges, tilts, per-axis periodicity) and, with several species, the tables of every
 * pair and triplet from the config's own rules (cfg_lj_coeffs, cfg_atm_nu: what the potential
 * unit builds its tables from), copied into the view. */
#ifndef TB_VALSYS_H
#define TB_VALSYS_H

#include "config/config.h"
#include "validate/reference.h"
#include "solver/state.h"

TB_BEGIN_DECLS

/* The reference's system and what its pointers point at. */
typedef struct val_view {
    val_system sys; /* what val_reference takes */
    val_cell cell;
    double lj_eps[TB_TYPES_MAX * TB_TYPES_MAX], lj_sigma[TB_TYPES_MAX * TB_TYPES_MAX],
        lj_rc[TB_TYPES_MAX * TB_TYPES_MAX];
    double nu[TB_TYPES_MAX * TB_TYPES_MAX * TB_TYPES_MAX];
    double sw_p[11 * TB_TYPES_MAX * TB_TYPES_MAX * TB_TYPES_MAX]; /* potential.sw's entries */
    val_sw sw;
} val_view;

/* Fills w with the potential settings of c and the particles of s at positions pos (s->pos
 * when NULL) and returns &w->sys; it points at pos, s->type and w itself, which must outlive
 * it. */
const val_system *val_system_of(const sim_config *c, const sim_state *s, const double *pos,
                                val_view *w);

TB_END_DECLS

#endif
