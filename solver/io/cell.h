/* cell.h — a cell given by three lattice vectors (extended XYZ's Lattice, ASE's Atoms.cell)
 * turned into the box of solver/box.h, LAMMPS's restricted triclinic: a = (lx, 0, 0),
 * b = (xy, ly, 0), c = (xz, yz, lz).
 *
 * A cell already in that form (a along +x, b in the xy plane with b_y > 0, c_z > 0) is taken
 * as it is, bit for bit. Any other right-handed cell is rotated into it as LAMMPS's
 * "General triclinic" recipe (Howto triclinic) and ASE's lammpsdata Prism do:
 *   lx = |a|, xy = b.a^, ly = |a^ x b|, xz = c.a^, yz = (b.c - xy xz) / ly,
 *   lz = (a x b).c / (lx ly),
 * the rotation having rows a^, (a x b) x a / |..|, (a x b) / |a x b|; the positions and the
 * velocities are rotated with it (cell_rotate). A left-handed or flat cell is refused.
 * Then a tilt beyond LAMMPS's limit (|xy|, |xz| <= lx/2, |yz| <= ly/2) is brought within it
 * by the equivalent lattice vectors of the periodic axes (c - k b, c - k a, b - k a: the same
 * lattice, LAMMPS's box flip). A tilt left on an open axis (xy: y; xz, yz: z), or beyond the
 * limit, is an error. */
#ifndef TB_CELL_H
#define TB_CELL_H

#include <stddef.h>

#include "solver/box.h"

TB_BEGIN_DECLS

/* The cell's conversion: rot (row-major 3x3) maps a vector of the file's frame into the box's. */
typedef struct io_cell {
    double rot[9];
    int rotated; /* 0: the cell was restricted already, rot the identity */
    int reduced; /* 1: a tilt was brought within LAMMPS's limit */
} io_cell;

/* The box of the cell with rows abc[0..2], abc[3..5], abc[6..8], origin lo[3] and per-axis
 * periodicity pbc[3], into *box and *how. 0; or -1 with a reason in why (nothing printed). */
int cell_to_box(const double abc[9], const double lo[3], const int pbc[3], tb_box_d *box,
                io_cell *how, char *why, size_t why_len);

/* Rotates v[3] into the box's frame: a position about the origin lo (lo + rot (v - lo)), or a
 * velocity (lo NULL: rot v). Nothing when the cell was not rotated. */
void cell_rotate(const io_cell *how, const double lo[3], double v[3]);

TB_END_DECLS

#endif
