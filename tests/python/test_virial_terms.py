#!/usr/bin/python3
"""test_virial_terms.py — the virial of each term alone (tribody_virial's TRIBODY_PAIR and
TRIBODY_TRIPLET, Tribody.virial(term)) against LAMMPS in double on the CPU: pair_style
hybrid/overlay lj/cut + atm with `compute pressure NULL pair/hybrid lj/cut` / `... atm` in one
run (tests/lammps/terms/, scripts/lammps-terms), and the two stages of the general reference
(tests/lammps/CASE.ref, scripts/lammps-reference: lj/cut alone, atm alone) for its periodic
cases, to 1e-10 of each term's largest component; the terms summing to the total; a term that
does not run giving zeros and the only one the total; fresh after new positions and a new box;
Stillinger-Weber refused with a message."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tbcheck import REPO, check, done, need, raises  # noqa: E402

need("numpy")
import numpy as np  # noqa: E402

import tribody  # noqa: E402

CPU = {"solver.backend": "cpu", "solver.precision": "double"}


def ref(path):
    d = {}
    for line in open(path):
        w = line.split()
        if w and not w[0].startswith("#") and w[0] != "atom":
            d[w[0]] = w[1:]
    return d


def rel(a, b):
    return float(np.abs(np.asarray(a) - np.asarray(b)).max() / np.abs(np.asarray(b)).max())


# 1. against LAMMPS: hybrid/overlay in one run, and the reference's two stages
cases = [("terms/%s.ref" % c, "%s.cfg" % c, "pressure_lj", "pressure_atm")
         for c in ("argon_metal", "mix_ortho")]
cases += [("%s.ref" % c, "%s.cfg" % c, "pressure_lj", "pressure_atm")
          for c in ("mix_ortho", "tri_two", "argon_metal")]
UNITS_NKTV2P = {"lj": 1.0, "metal": 1.6021765e6}
for refname, cfg, klj, katm in cases:
    r = ref(os.path.join(REPO, "tests", "lammps", refname))
    V = float(r["volume"][0])
    nk = float(r["nktv2p"][0]) if "nktv2p" in r else UNITS_NKTV2P[r["units"][0]]
    want = {t: np.array([float(x) for x in r[k]]) * V / nk for t, k in (("pair", klj), ("triplet", katm))}
    with tribody.Tribody(os.path.join(REPO, "tests", "lammps", cfg), set=CPU) as t:
        got = {k: t.virial(k) for k in ("pair", "triplet", "total")}
    for k in ("pair", "triplet"):
        d = rel(got[k], want[k])
        check(d <= 1e-10, "%s: the %s virial alone %s = LAMMPS's %s to %.2g (<= 1e-10)"
              % (refname, k, np.array2string(got[k][:3], precision=10), k, d))
    s = rel(got["pair"] + got["triplet"], got["total"])
    check(s <= 1e-13, "%s: pair + triplet = the total virial to %.2g (<= 1e-13)" % (refname, s))
    if "pressure_virial" in r:
        w = np.array([float(x) for x in r["pressure_virial"]]) * V / nk
        check(rel(got["total"], w) <= 1e-10, "%s: the total = LAMMPS's hybrid/overlay virial to %.2g"
              % (refname, rel(got["total"], w)))

# 2. fresh after new positions and a new box: the terms of a handle made at them
cfg = os.path.join(REPO, "tests", "lammps", "mix_ortho.cfg")
with tribody.Tribody(cfg, set=CPU) as t:
    w0 = t.virial("triplet")
    x = np.array(t.positions)
    box, per = t.box()
    sp = np.array(t.species)
    x2 = x + np.random.default_rng(3).normal(scale=0.02, size=x.shape)
    t.set_positions(x2)
    w1 = {k: t.virial(k) for k in ("pair", "triplet")}
    b2 = box.copy()
    b2[:3] *= 1.01
    x3 = b2[6:] + (x2 - b2[6:]) * 1.01
    t.set_box(b2)
    t.set_positions(x3)
    w2 = {k: t.virial(k) for k in ("pair", "triplet")}
    with tribody.Tribody(cfg, set=CPU, positions=x2, species=sp, box=box, periodic=per) as u:
        f1 = {k: u.virial(k) for k in ("pair", "triplet")}
    with tribody.Tribody(cfg, set=CPU, positions=x3, species=sp, box=b2, periodic=per) as u:
        f2 = {k: u.virial(k) for k in ("pair", "triplet")}
    check(not np.array_equal(w0, w1["triplet"]) and
          all(np.array_equal(w1[k], f1[k]) and np.array_equal(w2[k], f2[k]) for k in w1),
          "set_positions, set_box: each term's virial the bits of a fresh handle's (moved: %s)"
          % (not np.array_equal(w0, w1["triplet"])))
    t.run(5)
    w3 = {k: t.virial(k) for k in ("pair", "triplet")}
    bx, _ = t.box()
    with tribody.Tribody(cfg, set=CPU, positions=np.array(t.positions), species=sp, box=bx,
                         periodic=per) as u:
        f3 = {k: u.virial(k) for k in ("pair", "triplet")}
    check(all(np.array_equal(w3[k], f3[k]) for k in w3) and
          not np.array_equal(w3["pair"], w2["pair"]),
          "run(5): each term's virial the bits of a fresh handle's at the new positions")

# 3. a term that does not run: zeros; the only one: the total
text = ('units = "lj"; system = { species = ( { name = "Ar"; mass = 1.0; } ); };\n'
        'potential = { lj = { cutoff = 2.5; shift = true; }; atm = { nu = 0.0; }; };\n'
        'solver = { backend = "cpu"; precision = "double"; };\n')
pos = np.array([[0.0, 0, 0], [1.1, 0, 0], [0, 1.2, 0], [0.3, 0.4, 1.0]])
with tribody.Tribody(text=text, positions=pos) as t:
    check(np.array_equal(t.virial("pair"), t.virial("total")) and not t.virial("triplet").any()
          and t.virial("total").any(), "LJ alone: virial('pair') is the total, virial('triplet') zeros")

# 4. Stillinger-Weber: one term of two- and three-body parts: refused, with the reason
with tribody.Tribody(os.path.join(REPO, "tests", "lammps", "sw_si.cfg"), set=CPU) as t:
    ok, msg = raises(lambda: t.virial("pair"), tribody.TribodyInputError, "Stillinger-Weber")
    check(ok and t.virial("total").any(), "SW: virial('pair') raises (%s); the total is there" % msg)
    ok, msg = raises(lambda: t.virial("both"), ValueError, "term")
    check(ok, "virial('both') raises ValueError (%s)" % msg)
done()
