#!/usr/bin/python3
"""atm_gpu.py — LAMMPS with tribody's ATM on the GPU: LAMMPS integrates liquid argon
(argon_liquid.in: LJ, neighbour lists, NVE) and tribody adds the three-body ATM forces,
energy and virial at every step through fix external (tribody.lammps.TribodyFix).

    make && PYTHONPATH=python /usr/bin/python3 examples/lammps/atm_gpu.py [--m 20] [--steps 100]
        [--backend gpu|cpu] [--precision mixed|double] [--bench]
--bench also times the same steps with LAMMPS's own pair_style atm in this process (one CPU
core; for all cores run atm_ref.in under mpirun, as its header says) and prints steps/s of
both. Needs Debian's python3-lammps (one LAMMPS process)."""
import argparse
import os
import time

from tribody.lammps import TribodyFix, open_lammps

HERE = os.path.dirname(os.path.abspath(__file__))
ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
ap.add_argument("--m", type=int, default=20, help="fcc cells per edge: 4 m^3 atoms")
ap.add_argument("--steps", type=int, default=100)
ap.add_argument("--backend", default="gpu")
ap.add_argument("--precision", default="mixed")
ap.add_argument("--bench", action="store_true")
a = ap.parse_args()
os.chdir(HERE)


def timed(lmp, run):
    run(0)  # setup, lists, the first evaluation
    t0 = time.perf_counter()
    run(a.steps)
    dt = time.perf_counter() - t0
    return dt, lmp.get_thermo("pe"), lmp.get_thermo("etotal"), lmp.get_natoms()


lmp = open_lammps(("-log", "none", "-screen", "none", "-var", "m", str(a.m)))
lmp.file("argon_liquid.in")
fix = TribodyFix(lmp, config="atm_gpu.cfg",
                 set={"solver.backend": a.backend, "solver.precision": a.precision})
dt, pe, et, n = timed(lmp, fix.run)
t = fix.tribody
print("LAMMPS + tribody ATM (%s, %s): %d atoms, %d steps in %.3f s: %.2f steps/s; pe %.6f eV, "
      "etotal %.6f eV" % (t.backend, t.precision, n, a.steps, dt, a.steps / dt, pe, et))
if a.bench:
    ref = open_lammps(("-log", "none", "-screen", "none", "-var", "m", str(a.m), "-var",
                       "steps", "0"))
    ref.file("atm_ref.in")
    dr, pr, er, _ = timed(ref, lambda k: ref.command("run %d" % k))
    print("LAMMPS pair_style atm (this process, 1 core): %d steps in %.3f s: %.2f steps/s; "
          "pe %.6f eV, etotal %.6f eV" % (a.steps, dr, a.steps / dr, pr, er))
    print("speed-up of the bridge: %.1fx (one core; divide by the cores of an MPI run of "
          "atm_ref.in for the table)" % (dr / dt))
