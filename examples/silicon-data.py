#!/usr/bin/python3
"""silicon-data.py — writes examples/silicon.data: diamond silicon, 4 x 4 x 4 conventional cells
(512 atoms) at a = 5.431 A, the LAMMPS data file examples/silicon.cfg starts from.

usage: /usr/bin/python3 examples/silicon-data.py > examples/silicon.data
"""
A, M = 5.431, 4
BASIS = [(0, 0, 0), (0, .5, .5), (.5, 0, .5), (.5, .5, 0),
         (.25, .25, .25), (.25, .75, .75), (.75, .25, .75), (.75, .75, .25)]
atoms = [((cx + u) * A, (cy + v) * A, (cz + w) * A)
         for cx in range(M) for cy in range(M) for cz in range(M) for (u, v, w) in BASIS]
L = M * A
print("# diamond silicon, %d x %d x %d cells, a = %g A (examples/silicon-data.py)\n" % (M, M, M, A))
print("%d atoms\n1 atom types\n" % len(atoms))
for ax in "xyz":
    print("0 %.10g %slo %shi" % (L, ax, ax))
print("\nMasses\n\n1 28.0855\n\nAtoms # atomic\n")
for i, x in enumerate(atoms):
    print("%d 1 %.10g %.10g %.10g" % (i + 1, x[0], x[1], x[2]))
