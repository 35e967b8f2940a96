#!/usr/bin/python3
"""slab-data.py — writes examples/slab.xyz, the initial state of examples/slab.cfg with ASE:
an fcc(001) film of 8 x 8 x 6 layers (384 atoms) of LJ argon in reduced units, lattice constant
a = 2^(2/3) = 1.5874 sigma (nearest neighbours at the LJ minimum 2^(1/6) sigma), 5 sigma of
vacuum on each side along z, every atom displaced by a Gaussian of 0.02 sigma (ASE's rattle,
seed 4), periodic in x and y only (pbc = T T F: LAMMPS's boundary p p f).
Run from the repository root: /usr/bin/python3 examples/slab-data.py"""
from ase.build import fcc100
from ase.io import write

film = fcc100("Ar", size=(8, 8, 6), a=2.0 ** (2.0 / 3.0), vacuum=5.0, orthogonal=True)
film.pbc = (True, True, False)
del film.arrays["tags"]
film.rattle(stdev=0.02, seed=4)  # off the perfect lattice, whose forces cancel by symmetry
film.info.clear()
write("examples/slab.xyz", film, format="extxyz")
