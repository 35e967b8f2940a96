/* restart.h — what ties a restart to the run it continues: the run id, the settings that
 * define the physics, and the output files that belong to the run.
 *
 * A fresh run draws a 64-bit run id; its checkpoints store it (checkpoint.h, section RUNI)
 * and its files carry it: the thermo CSV as a first line "# tribody run_id=HEX", every
 * trajectory frame as "run_id=HEX" in its comment line. A restart continues (truncates
 * and appends to) only files that carry the checkpoint's id, and keeps the id.
 * The physics settings, the schema rows marked so (config.h, cfg_physics_text), are written
 * as "name=value" lines (floats to 17 digits) into the checkpoint (section PHYS); a restart
 * whose configuration differs in one of them is refused, naming the setting, unless
 * --allow-change names it (or says "all"). A checkpoint of an older tribody records fewer
 * settings: those it records are compared, one newer than units and species reads as its
 * default (cfg_physics_absent), and a notice names the others. */
#ifndef TB_RESTART_H
#define TB_RESTART_H

#include <stddef.h>

#include "config/config.h"

TB_BEGIN_DECLS

/* A new run id, from the system's random source (time and pid when it fails), or the hex
 * number in the environment variable TRIBODY_RUN_ID when that is set and not 0 (for runs
 * whose files must compare byte for byte, as the tests' restart checks do). */
unsigned long long run_id_new(void);

/* The physics settings of c as "name=value\n" lines into buf (size bytes). */
void run_physics(const sim_config *c, char *buf, size_t size);

/* Compares the stored physics text (from checkpoint ckpt) with c's. A setting that differs
 * is refused (TB_EXIT_USAGE, one line per setting naming it, both values and the way to
 * allow it) unless allow ("a,b,..." or "all"; NULL for none) names it; an allowed change is
 * announced; a name in allow that is not a physics setting is refused. Settings the stored
 * text lacks (an older checkpoint) read as their default when they are newer than it
 * (cfg_physics_absent), else are not compared and named in one notice. Returns 0 or
 * TB_EXIT_USAGE. */
int restart_check_physics(const char *ckpt, const char *stored, const sim_config *c,
                          const char *allow);

/* Whether the output `path` (setting `setting` of config cfg) may be continued by a restart
 * of the run `id`: a missing file may (it is started anew); an existing one must carry the
 * run id (traj: in its first frame's comment line; else on its first line). Returns 0, or
 * TB_EXIT_USAGE with one line when the file belongs to another run or to none. */
int restart_check_file(const char *path, const char *setting, const char *cfg,
                       unsigned long long id, int traj);

TB_END_DECLS

#endif
