#!/usr/bin/python3
"""atm_correction.py — the Axilrod-Teller-Muto correction to ASE's own Lennard-Jones
calculator: SumCalculator([LennardJones, TribodyCalculator]) on an argon crystal, checked
against `tribody eval` of the same crystal with LJ and ATM both in tribody.

    make && PYTHONPATH=python /usr/bin/python3 examples/python/atm_correction.py
Exit status 0 when the two agree to 1e-10 (relative), 1 otherwise."""
import os
import subprocess
import sys
import tempfile

import numpy as np
from ase.build import bulk
from ase.calculators.lj import LennardJones
from ase.calculators.mixing import SumCalculator

from tribody.ase import TribodyCalculator

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
EPS, SIG, RC = 0.0104, 3.4, 7.5

atoms = bulk("Ar", "fcc", a=5.26, cubic=True) * (4, 4, 4)
atoms.rattle(0.05, seed=1)
atm = TribodyCalculator(config=os.path.join(HERE, "argon_atm.cfg"))
atoms.calc = SumCalculator([LennardJones(sigma=SIG, epsilon=EPS, rc=RC), atm])
e, f = atoms.get_potential_energy(), atoms.get_forces()
e_atm = atm.get_potential_energy(atoms)
print("%d atoms: E(LJ + ATM) = %.12f eV, of which ATM %.12f eV (%.2f %%)"
      % (len(atoms), e, e_atm, 100 * e_atm / e))

# the same with tribody alone: LJ and ATM in one configuration, the crystal as an XYZ start
with tempfile.TemporaryDirectory() as tmp:
    with open(os.path.join(tmp, "s.xyz"), "w") as out:
        out.write('%d\nLattice="%s" Properties=species:S:1:pos:R:3 pbc="T T T"\n'
                  % (len(atoms), " ".join("%.17g" % x for x in atoms.cell[:].ravel())))
        for s, p in zip(atoms.get_chemical_symbols(), atoms.get_positions()):
            out.write("%s %.17g %.17g %.17g\n" % (s, *p))
    cfg = open(os.path.join(HERE, "argon_atm.cfg")).read().replace(
        "system = {", 'system = { boundary = "periodic"; init = { type = "xyz"; file = "s.xyz"; '
        "temperature = 0.0; };").replace(
        "potential = {", "potential = {\n  lj = { shift = true; epsilon = %r; sigma = %r; "
        "cutoff = %r; };" % (EPS, SIG, RC))
    with open(os.path.join(tmp, "lj_atm.cfg"), "w") as out:
        out.write(cfg)
    tb = os.path.abspath(os.environ.get("TB_BIN", os.path.join(ROOT, "build", "tribody")))
    subprocess.run([tb, "eval", "lj_atm.cfg", "-o", "e.xyz"], cwd=tmp, check=True,
                   stdout=subprocess.DEVNULL)
    from ase.io import read
    ref = read(os.path.join(tmp, "e.xyz"))
    e_ref, f_ref = ref.info["energy"], ref.arrays["forces"]
de = abs(e - e_ref) / abs(e_ref)
df = np.abs(f - f_ref).max() / np.abs(f_ref).max()
print("tribody eval of LJ + ATM: E = %.12f eV; relative differences: energy %.2g, forces %.2g"
      % (e_ref, de, df))
sys.exit(0 if de < 1e-10 and df < 1e-10 else 1)
