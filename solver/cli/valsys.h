/* valsys.h — the independent reference's view (val_system, validate/reference.h) of a
 * configuration and a state: one copy for `tribody validate` and the tests. It lives in
 * solver/cli/, beside `tribody validate`, because validate/ must not see solver/ or config/ (a
 * reference that shares the code it checks proves nothing); this is only the hand-over of the
 * settings. */
#ifndef TB_VALSYS_H
#define TB_VALSYS_H

#include "config/config.h"
#include "validate/reference.h"
#include "solver/state.h"

TB_BEGIN_DECLS

/* Fills v with the potential settings of c and the particles of s at positions pos (s->pos
 * when NULL); v points at pos, so pos must outlive v. */
void val_system_of(const sim_config *c, const sim_state *s, const double *pos, val_system *v);

TB_END_DECLS

#endif
