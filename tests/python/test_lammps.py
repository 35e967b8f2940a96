#!/usr/bin/python3
"""test_lammps.py — the LAMMPS bridge (python/tribody/lammps.py): in one process, LAMMPS with
LJ and its own `pair_style atm` (tests/lammps/bridge/atm.in) against LAMMPS with LJ and
tribody's ATM through `fix external` (fix.in + atm.cfg, the CPU backend in double): energy,
forces and the pressure tensor of step 0 to 1e-10, and a 200-step NVE trajectory (positions,
velocities, energies) to 1e-8. 108 argon atoms in a triclinic cell, atoms re-sorted by LAMMPS
every 50 steps in the bridge's run (mapped back by atom ID)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tbcheck import REPO, check, done, need, raises  # noqa: E402

need("numpy", "lammps")
import numpy as np  # noqa: E402

from tribody.lammps import TribodyFix, open_lammps  # noqa: E402

os.chdir(os.path.join(REPO, "tests", "lammps", "bridge"))
THERMO = ["pe", "ke", "press", "pxx", "pyy", "pzz", "pxy", "pxz", "pyz"]


def state(lmp):
    """Atom-ID-ordered positions (unwrapped), velocities, forces and the thermo values."""
    n = lmp.get_natoms()
    ids = np.array(lmp.numpy.extract_atom("id")[:n]).reshape(-1)
    order = np.argsort(ids)
    lo, hi, xy, yz, xz, _, _ = lmp.extract_box()
    h = np.array([[hi[0] - lo[0], 0, 0], [xy, hi[1] - lo[1], 0], [xz, yz, hi[2] - lo[2]]])
    img = np.array(lmp.numpy.extract_atom("image")[:n]).reshape(-1).astype(np.int64)
    im = np.stack([(img & 1023) - 512, (img >> 10 & 1023) - 512, (img >> 20) - 512], axis=1)
    x = np.array(lmp.numpy.extract_atom("x")[:n]) + im @ h
    v = np.array(lmp.numpy.extract_atom("v")[:n])
    f = np.array(lmp.numpy.extract_atom("f")[:n])
    return x[order], v[order], f[order], {k: lmp.get_thermo(k) for k in THERMO}


def rel(a, b):
    return np.abs(np.asarray(a) - np.asarray(b)).max() / max(np.abs(np.asarray(b)).max(), 1e-300)


ref = open_lammps()
ref.file("atm.in")
ref.command("run 0")
xr, vr, fr, tr = state(ref)

lmp = open_lammps()
lmp.file("fix.in")
fix = TribodyFix(lmp, config="atm.cfg")
fix.run(0)
xb, vb, fb, tb = state(lmp)

check(fix.calls >= 1 and fix.tribody.backend == "cpu" and fix.tribody.precision == "double",
      "the fix called tribody (%d calls; backend %s, precision %s)"
      % (fix.calls, fix.tribody and fix.tribody.backend, fix.tribody and fix.tribody.precision))
check(abs(tb["pe"] - tr["pe"]) <= 1e-10 * abs(tr["pe"]),
      "step 0: pe with the fix %.17g eV = with pair_style atm %.17g (rel %.2g)"
      % (tb["pe"], tr["pe"], abs(tb["pe"] - tr["pe"]) / abs(tr["pe"])))
check(rel(fb, fr) <= 1e-10, "step 0: forces equal to %.2g of the largest (%.3g eV/A)"
      % (rel(fb, fr), np.abs(fr).max()))
pk = ["press", "pxx", "pyy", "pzz", "pxy", "pxz", "pyz"]
pr, pb = [tr[k] for k in pk], [tb[k] for k in pk]
check(rel(pb, pr) <= 1e-10, "step 0: pressure and its six components equal to %.2g of the "
      "largest (%s bar)" % (rel(pb, pr), ", ".join("%.6g" % p for p in pr)))
e_atm = fix.tribody.energy()
check(abs(e_atm) > 1e-3 * abs(tr["pe"]), "the ATM part is not negligible (%.6g of %.6g eV)"
      % (e_atm, tr["pe"]))

ref.command("run 200")
fix.run(200)
xr, vr, fr, tr = state(ref)
xb, vb, fb, tb = state(lmp)
dx, dv = np.abs(xb - xr).max(), rel(vb, vr)
check(dx <= 1e-8 and dv <= 1e-8, "200 NVE steps: positions within %.2g A, velocities within %.2g "
      "(relative) of pair_style atm's" % (dx, dv))
check(abs(tb["pe"] - tr["pe"]) <= 1e-8 * abs(tr["pe"]) and rel(pb, pr) <= 1e-8,
      "step 200: pe %.15g = %.15g eV, pressure within %.2g" % (tb["pe"], tr["pe"],
                                                               rel([tb[k] for k in pk], [tr[k] for k in pk])))
e0, e1 = tr["pe"] + tr["ke"], tb["pe"] + tb["ke"]
check(abs(e1 - e0) <= 1e-8 * abs(e0), "total energy at step 200 %.15g = %.15g eV" % (e1, e0))

# a unit style that is not the configuration's: the run reports it after
bad = open_lammps()
bad.file("fix.in")
bfix = TribodyFix(bad, text=open("atm.cfg").read().replace('"metal"', '"real"'))
ok, msg = raises(lambda: bfix.run(0), Exception, "units")
check(ok, "LAMMPS in metal units with a config in real units: run() raises (%s)" % msg)
for l in (ref, lmp, bad):
    l.close()
done()
