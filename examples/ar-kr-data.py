#!/usr/bin/python3
"""ar-kr-data.py — writes examples/ar-kr.data, the initial state of examples/ar-kr.cfg: 2048
atoms on an fcc lattice (8 x 8 x 8 cubic cells, a = 5.848 A: number density 0.0200 A^-3, a
liquid's), 25 % of the sites Kr (type 2) at random (numpy seed 20), the rest Ar (type 1), in
LAMMPS's atomic style, metal units (A, g/mol). The lattice melts in the first picoseconds at
the example's 120 K. Run from the repository root: /usr/bin/python3 examples/ar-kr-data.py"""
import numpy as np

a, cells = 5.848, 8
basis = np.array([[0, 0, 0], [0, 0.5, 0.5], [0.5, 0, 0.5], [0.5, 0.5, 0]])
grid = np.array([[i, j, k] for i in range(cells) for j in range(cells) for k in range(cells)])
pos = ((grid[:, None, :] + basis[None, :, :]).reshape(-1, 3)) * a
n = len(pos)
types = np.ones(n, dtype=int)
types[np.random.default_rng(20).choice(n, size=n // 4, replace=False)] = 2
L = a * cells
with open("examples/ar-kr.data", "w") as f:
    f.write("LAMMPS data file: Ar-Kr liquid mixture for tribody examples/ar-kr.cfg "
            "(examples/ar-kr-data.py)\n\n")
    f.write(f"{n} atoms\n2 atom types\n\n")
    for ax in "xyz":
        f.write(f"0.0 {L!r} {ax}lo {ax}hi\n")
    f.write("\nMasses\n\n1 39.948\n2 83.798\n\nAtoms # atomic\n\n")
    for i, (t, p) in enumerate(zip(types, pos)):
        f.write(f"{i + 1} {t} {p[0]!r} {p[1]!r} {p[2]!r}\n")
