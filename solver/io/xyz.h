/* xyz.h — XYZ and extended-XYZ files: reading an initial state, writing trajectory frames.
 *
 * Reading takes the first frame. Line 1: the atom count; line 2: a comment, which for
 * extended XYZ holds Properties=name:type:cols:... (types S, R, I, L); when there is no
 * Properties key the columns are "species x y z". Positions come from the `pos` property
 * (plain XYZ: columns 2-4); velocities from a property named vel, velo or velocities, or
 * momenta divided by the mass, as ASE writes them. Other properties are skipped.
 * docs/config.md ("Extended XYZ files") describes the format as read and written.
 *
 * Frames written are extended XYZ that ASE and OVITO read:
 *   Lattice="lx 0 0 xy ly 0 xz yz lz" [Origin="x0 y0 z0"]   (when an axis is periodic)
 *   Properties=species:S:1:pos:R:3:vel:R:3[:forces:R:3][:momenta:R:3:masses:R:1] Time=...
 *   step=... energy=... pbc="T T F" units=metal
 * (momenta and masses in ASE's units, metal and real only, so that ASE's get_velocities()
 * gives the velocities; tribody reads vel, in the style's units)
 * with numbers printed to 17 significant digits, so a frame read back is the same state. */
#ifndef TB_XYZ_H
#define TB_XYZ_H

#include <stdio.h>
#include "solver/state.h"

TB_BEGIN_DECLS

/* Reads the first frame of `path` into s (allocated here for the file's atom count; on
 * failure s is freed). c gives the unit style, system.particles (when > 0 the count the file
 * must hold), system.species and system.mass:
 *   species: with system.species given, each name must be one of them (its type is its index
 *     there); without, the file may name one species, the name of the one species (of
 *     system.mass), and a second name is an error; no species column: the configured one;
 *   velocities: a frame that names its units (units=lj|metal|real, as tribody writes) must
 *     name c's; `vel`, `velo` and `velocities` columns are in c's units, and ASE's `momenta`
 *     (always ASE's) are divided by the particle's configured mass and, in metal and real
 *     units, converted from ASE's velocity unit A/(A sqrt(amu/eV)) (lj: taken as they are):
 *     times 1000 ase.units.fs = 98.22694788464063 into A/ps (metal), ase.units.fs into A/fs
 *     (real);
 *   the cell: Lattice="ax ay az bx by bz cx cy cz", Origin="x y z" (default 0) and pbc="T T F"
 *     (default T T T with a Lattice, F F F without) into s->box when an axis is periodic
 *     (*has_cell = 1), through cell_to_box (cell.h: a general cell is rotated into LAMMPS's
 *     restricted form, positions and velocities with it, with a notice); pbc all F leaves
 *     the box open and the Lattice unused.
 * Sets *has_vel to 1 when velocities were read. On bad input (missing file, wrong atom count,
 * malformed line, missing columns, an unknown species, a bad cell) prints one line
 *     tribody: PATH:LINE: what is wrong
 * and returns TB_EXIT_USAGE; returns 0 on success. `setting` names the config setting that
 * pointed at the file (for example "system.init.file"), quoted in the message. Positions
 * are as read: sim_place (init.h) wraps them. */
struct sim_config;
int xyz_read(const char *path, const char *setting, const struct sim_config *c, sim_state *s,
             int *has_vel, int *has_cell);

/* Writes one frame of s: species (type_name of each particle's type), positions, velocities
 * and (with_forces) forces, with Time, step, energy (total potential), the box and
 * units=<style> (the frame's units, so that it reads back unconverted) in the comment line; periodic
 * frames also carry stress="..." (nine values, row-major), ASE's stress convention for the
 * configurational part: sigma_ab = -W_ab / V [epsilon/sigma^3] (s->virial). extra,
 * when not NULL, is appended to the comment line (key=value pairs). Returns 0 or -1. */
int xyz_write_frame(FILE *f, const sim_state *s, int with_forces, const char *extra);

TB_END_DECLS

#endif
