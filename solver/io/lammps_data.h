/* lammps_data.h — LAMMPS data files, atomic style: the initial state of
 * system.init.type = "lammps", and output.data, the final state of a run.
 *
 * What is read (LAMMPS's read_data; docs/config.md has the whole story):
 *   line 1            a title, skipped
 *   header            "N atoms", "M atom types", "xlo xhi", "ylo yhi", "zlo zhi" (LAMMPS's
 *                     defaults -0.5 0.5 when absent), "xy xz yz"; the counts of a molecular
 *                     style (bonds, angles, ..., extra ... per atom) only when 0; a general
 *                     triclinic box (avec, bvec, cvec) is refused
 *   Masses            "type mass [# name]", optional; when given, every type once, each mass
 *                     equal to its species' configured one within a relative 1e-5 (LAMMPS's
 *                     write_data may round), the configured mass being the one used; a name
 *                     in the comment that is another species' is an error
 *   Atoms [# atomic]  "id type x y z [ix iy iz]": sorted by id into the state; the image
 *                     flags are read and not applied (periodic axes are wrapped by sim_place);
 *                     an atom outside the box along an open axis is an error (LAMMPS loses it)
 *   Velocities        "id vx vy vz", optional, every atom once
 *   Pair Coeffs, PairIJ Coeffs   skipped: the potential is sim.cfg's
 * Type t is system.species[t - 1] (without system.species, the one species of system.mass):
 * a file of more types than species is an error. The box is the file's (system.box given as
 * well is a config error); each axis is periodic or open as system.boundary says (periodic
 * when not given, LAMMPS's default `boundary p p p`), and a tilt needs its axis periodic and
 * stays within LAMMPS's limits |xy|, |xz| <= lx/2, |yz| <= ly/2. Numbers are in the units of
 * c->units: lengths, masses as configured (the state holds mass * mvv2e), velocities in the
 * style's own (metal: A/ps; real: A/fs), as LAMMPS's. */
#ifndef TB_LAMMPS_DATA_H
#define TB_LAMMPS_DATA_H

#include "solver/state.h"

TB_BEGIN_DECLS

struct sim_config;

/* Reads path into s (allocated here; freed on failure). c->system.particles > 0: the count
 * the file must hold. Sets *has_vel when a Velocities section was read. Returns 0, or
 * TB_EXIT_USAGE after one line "tribody: PATH:LINE: SETTING: what is wrong" (setting: the
 * setting that named the file, "system.init.file"). */
int lmp_data_read(const char *path, const char *setting, const struct sim_config *c,
                  sim_state *s, int *has_vel);

/* Writes s to path as a data file that LAMMPS's read_data reads (atomic style): title,
 * counts, the box (tilts when tilted; an open axis as wide as the box or the particles,
 * whichever is wider, since LAMMPS loses atoms outside a non-periodic face; no box at all: the
 * particles' extent), Masses in the configured unit with "# name" comments, Atoms with image
 * flags 0, Velocities, every number to 17 significant digits, and hi chosen so that hi - lo
 * is the box's edge exactly: lmp_data_read gives the same state bit for bit. Written to
 * PATH.tmp and renamed over path (an existing regular file kept as PATH.~k~ first; callers
 * check the path with out_check_checkpoint). title: line 1 (one line; NULL: tribody's, with
 * the units, step and time). Returns 0, or -1 after one line. */
int lmp_data_write(const char *path, const sim_state *s, const char *title);

TB_END_DECLS

#endif
