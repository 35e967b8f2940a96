/* xyz.h — XYZ and extended-XYZ files: reading an initial state, writing trajectory frames.
 *
 * Reading takes the first frame. Line 1: the atom count; line 2: a comment, which for
 * extended XYZ holds Properties=name:type:cols:... (types S, R, I, L); when there is no
 * Properties key the columns are "species x y z". Positions come from the `pos` property
 * (plain XYZ: columns 2-4); velocities from a property named vel, velo or velocities, or
 * momenta divided by the mass, as ASE writes them. Other properties are skipped.
 *
 * Frames written are extended XYZ that ASE and OVITO read:
 *   Properties=species:S:1:pos:R:3:vel:R:3[:forces:R:3] Time=... step=... energy=...
 *   pbc="F F F"  (periodic: Lattice="L 0 0 0 L 0 0 0 L" pbc="T T T")
 * with numbers printed to 17 significant digits, so a frame read back is the same state. */
#ifndef TB_XYZ_H
#define TB_XYZ_H

#include <stdio.h>
#include "solver/state.h"

TB_BEGIN_DECLS

/* Reads the first frame of `path` into s (allocated by the caller for n_expected
 * particles, with s->mass set). Sets *has_vel to 1 when velocities were read. On bad input
 * (missing file, wrong atom count, malformed line, missing columns) prints one line
 *     tribody: PATH:LINE: what is wrong
 * and returns TB_EXIT_USAGE; returns 0 on success. `setting` names the config setting that
 * pointed at the file (for example "system.init.file"), quoted in the message. */
int xyz_read(const char *path, const char *setting, int n_expected, sim_state *s, int *has_vel);

/* Writes one frame of s: species, positions, velocities and (with_forces) forces, with
 * Time, step, energy (total potential, epsilon) and the box in the comment line; periodic
 * frames also carry stress="..." (nine values, row-major), ASE's stress convention for the
 * configurational part: sigma_ab = -W_ab / V [epsilon/sigma^3] (s->virial). extra,
 * when not NULL, is appended to the comment line (key=value pairs). Returns 0 or -1. */
int xyz_write_frame(FILE *f, const sim_state *s, int with_forces, const char *extra);

TB_END_DECLS

#endif
