#!/usr/bin/python3
"""md_gpu.py — a short ASE molecular-dynamics run with tribody's LJ + ATM on the GPU: liquid
argon (fcc at the liquid's density, melted from 240 K), velocity Verlet in ASE, forces from
tribody through TribodyCalculator.

    make && PYTHONPATH=python /usr/bin/python3 examples/python/md_gpu.py [--cells 10] [--steps 200]
        [--backend gpu|cpu|auto] [--precision mixed|double]
Prints the energies every 20 steps and the time per step; the total energy holds to ~2 parts
in 10^4 of the kinetic energy over 200 steps (one H200, mixed and double alike: -1.84e-4 at
worst, docs/performance-runs.md). ASE's MD imports scipy (ase.constraints); where the python3
has no scipy or numpy 2, scripts/gpu-check library runs this in a carried Debian Python 3.11
(scripts/carry-library's pyrt)."""
import argparse
import os
import time

import numpy as np
from ase import units
from ase.build import bulk
from ase.md.velocitydistribution import MaxwellBoltzmannDistribution, Stationary
from ase.md.verlet import VelocityVerlet

from tribody.ase import TribodyCalculator

ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
ap.add_argument("--cells", type=int, default=10, help="fcc cells per edge (4 cells^3 atoms)")
ap.add_argument("--steps", type=int, default=200)
ap.add_argument("--backend", default="auto")
ap.add_argument("--precision", default="mixed")
a = ap.parse_args()

HERE = os.path.dirname(os.path.abspath(__file__))
lat = (4 / 0.8) ** (1 / 3) * 3.4  # number density 0.8 sigma^-3
atoms = bulk("Ar", "fcc", a=lat, cubic=True) * ((a.cells,) * 3)
atoms.calc = TribodyCalculator(config=os.path.join(HERE, "argon_lj_atm.cfg"),
                               set={"solver.backend": a.backend, "solver.precision": a.precision})
MaxwellBoltzmannDistribution(atoms, temperature_K=240, rng=np.random.default_rng(7))
Stationary(atoms)
md = VelocityVerlet(atoms, timestep=5 * units.fs)
e0 = None
t0 = time.perf_counter()


def report():
    global e0
    ek, ep = atoms.get_kinetic_energy(), atoms.get_potential_energy()
    e0 = ek + ep if e0 is None else e0
    print("step %5d  T %7.2f K  E_pot %14.6f eV  E_tot %14.6f eV  drift %9.2e"
          % (md.nsteps, atoms.get_temperature(), ep, ek + ep, (ek + ep - e0) / ek), flush=True)


md.attach(report, interval=20)
md.run(a.steps)
dt = time.perf_counter() - t0
t = atoms.calc._t
print("%d atoms, %d steps on %s (%s): %.3f ms per step (ASE + tribody)"
      % (len(atoms), a.steps, t.backend, t.precision, 1e3 * dt / a.steps))
