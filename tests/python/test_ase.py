#!/usr/bin/python3
"""test_ase.py — the Python package and its ASE calculator (python/tribody): forces against
central differences of the ASE energy and the stress against central differences over the
cell, in a rotated triclinic cell; ASE's own LJ + tribody's ATM through SumCalculator against
`tribody eval` of LJ + ATM; velocity Verlet's energy error shrinking as dt^2; Langevin and BFGS
running; bad input raising Python exceptions with the library's message; the calculator's own
state check reporting what ASE's compare_atoms reports and evaluating again."""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tbcheck import REPO, check, done, need, raises  # noqa: E402

need("numpy", "ase")
import numpy as np  # noqa: E402
from ase import units  # noqa: E402
from ase.build import bulk  # noqa: E402
from ase.calculators.lj import LennardJones  # noqa: E402
from ase.calculators.mixing import SumCalculator  # noqa: E402

import tribody  # noqa: E402
from tribody.ase import TribodyCalculator  # noqa: E402

EPS, SIG, NU = 0.0104, 3.4, 45.464884183528227  # argon in eV and Å (tests/lammps/argon_metal.cfg)
RC = 6.5  # below half the width of the cells below


def config(lj=True, atm=True, units_style="metal", extra="", rc=RC, atm_rc=RC):
    pot = []
    if lj:
        pot.append("lj = { shift = true; epsilon = %r; sigma = %r; cutoff = %r; };" % (EPS, SIG, rc))
    pot.append("atm = { nu = %r; cutoff = %r; };" % (NU if atm else 0.0, atm_rc))
    return ('units = "%s"; system = { species = ( { name = "Ar"; mass = 39.948; } ); %s };\n'
            "potential = { %s };\nsolver = { backend = \"cpu\"; precision = \"double\"; };\n"
            % (units_style, extra, " ".join(pot)))


def argon(triclinic, seed):
    """A rattled argon crystal: a rotated triclinic cell (fcc primitive vectors, 5x5x5: half
    its smallest width 7.6 Å) or an orthorhombic 3x3x3 cube (7.9 Å)."""
    if triclinic:
        a = bulk("Ar", "fcc", a=5.26) * (5, 5, 5)
        rng = np.random.default_rng(seed)
        q, _ = np.linalg.qr(rng.normal(size=(3, 3)))  # any rotation, even a reflection
        a.set_cell(a.cell[:] @ q.T, scale_atoms=True)
    else:
        a = bulk("Ar", "fcc", a=5.26, cubic=True) * (3, 3, 3)
    a.rattle(0.05, seed=seed)
    return a


def test_forces_fd():
    atoms = argon(True, 3)
    atoms.calc = TribodyCalculator(text=config())
    f = atoms.get_forces()
    h, worst = 1e-4, 0.0
    for i in (0, 7, 100):
        for d in range(3):
            p = atoms.get_positions()
            p[i, d] += h
            atoms.set_positions(p)
            ep = atoms.get_potential_energy()
            p[i, d] -= 2 * h
            atoms.set_positions(p)
            em = atoms.get_potential_energy()
            p[i, d] += h
            atoms.set_positions(p)
            worst = max(worst, abs(-(ep - em) / (2 * h) - f[i, d]))
    fmax = np.abs(f).max()
    # central difference error h^2 f''' / 6 ~ 1e-8 f; the energy's rounding 1e-16 E / h ~ 1e-12
    check(worst < 1e-6 * fmax, "forces = -dE/dx by central differences in a rotated triclinic "
          "cell of 125 atoms: worst %.3g eV/Å of max |F| %.3g" % (worst, fmax))


def test_stress_fd():
    atoms = argon(True, 5)
    atoms.calc = TribodyCalculator(text=config())
    s = atoms.get_stress(voigt=False)
    cell0 = atoms.cell[:].copy()
    V = atoms.get_volume()
    h, worst = 1e-5, 0.0
    for i, j in ((0, 0), (1, 1), (2, 2), (1, 2), (0, 2), (0, 1)):
        e = []
        for sgn in (1, -1):
            eps = np.eye(3)
            eps[i, j] += sgn * h / 2
            eps[j, i] += sgn * h / 2
            atoms.set_cell(cell0 @ eps, scale_atoms=True)
            e.append(atoms.get_potential_energy())
        atoms.set_cell(cell0, scale_atoms=True)
        fd = (e[0] - e[1]) / (2 * h) / V
        worst = max(worst, abs(fd - s[i, j]))
    smax = np.abs(s).max()
    check(worst < 1e-6 * smax, "stress = (1/V) dE/d(strain) by central differences over the cell "
          "(six components): worst %.3g of max |s| %.3g eV/Å^3" % (worst, smax))
    check(len(atoms.get_stress()) == 6, "stress in six Voigt components")


def eval_frame(tmp, cfg_text, atoms):
    """`tribody eval` of cfg_text on atoms (an extended-XYZ start): energy and forces."""
    c = atoms.cell[:]  # %.17g: ASE's writer keeps 8 decimals, 1e-10 of the energy here
    with open(os.path.join(tmp, "s.xyz"), "w") as f:
        f.write("%d\nLattice=\"%s\" Properties=species:S:1:pos:R:3 pbc=\"T T T\"\n"
                % (len(atoms), " ".join("%.17g" % x for x in c.ravel())))
        for s, p in zip(atoms.get_chemical_symbols(), atoms.get_positions()):
            f.write("%s %.17g %.17g %.17g\n" % (s, p[0], p[1], p[2]))
    with open(os.path.join(tmp, "s.cfg"), "w") as f:
        f.write(cfg_text.replace("system = {", 'system = { init = { type = "xyz"; file = "s.xyz"; '
                                 "temperature = 0.0; }; boundary = \"periodic\";"))
    subprocess.run([os.path.abspath(os.environ.get("TB_BIN", os.path.join(REPO, "build/tribody"))), "eval",
                    "s.cfg", "-o", "e.xyz"], cwd=tmp, check=True, capture_output=True)
    from ase.io import read
    fr = read(os.path.join(tmp, "e.xyz"))
    return fr.info["energy"], fr.arrays["forces"]


def test_sum_calculator():
    atoms = argon(False, 7)
    lj = LennardJones(sigma=SIG, epsilon=EPS, rc=RC)
    atoms.calc = SumCalculator([lj, TribodyCalculator(text=config(lj=False))])
    e, f = atoms.get_potential_energy(), atoms.get_forces()
    with tempfile.TemporaryDirectory() as tmp:
        e_ref, f_ref = eval_frame(tmp, config(), atoms)
    # ASE's LJ sums pairs in another order: agreement to rounding
    check(abs(e - e_ref) < 1e-12 * abs(e_ref), "SumCalculator(ASE LJ, tribody ATM) energy "
          "%.15g eV = tribody eval of LJ + ATM %.15g" % (e, e_ref))
    df = np.abs(f - f_ref).max()
    check(df < 1e-12 * np.abs(f_ref).max() + 1e-14, "SumCalculator forces = tribody eval's: "
          "worst %.3g eV/Å" % df)
    atm = TribodyCalculator(text=config(lj=False)).get_potential_energy(atoms)
    check(abs(atm) > 1e-3 * abs(e), "the ATM part is not negligible (%.6g of %.6g eV)" % (atm, e))


def test_md():
    """An open cluster of 55 atoms, every triplet and every pair (LJ cutoff beyond the cluster):
    cutoffs would add energy steps that no time step removes."""
    from ase.cluster import Icosahedron
    from ase.md.verlet import VelocityVerlet
    from ase.md.velocitydistribution import MaxwellBoltzmannDistribution, Stationary, ZeroRotation
    spread = []
    for dt in (8.0, 4.0):
        atoms = Icosahedron("Ar", 3, latticeconstant=5.26)
        atoms.calc = TribodyCalculator(text=config(rc=40.0, atm_rc=0.0))
        MaxwellBoltzmannDistribution(atoms, temperature_K=30, rng=np.random.default_rng(2))
        Stationary(atoms)
        ZeroRotation(atoms)
        e = []
        md = VelocityVerlet(atoms, timestep=dt * units.fs)
        md.attach(lambda: e.append(atoms.get_total_energy()), interval=1)
        md.run(int(round(200 * 4.0 / dt)))
        spread.append(np.ptp(e))
    ke = 1.5 * len(atoms) * units.kB * 30
    ratio = spread[0] / spread[1]
    check(spread[1] < 1e-3 * ke and 3.0 < ratio < 5.0,
          "VelocityVerlet, 55-atom cluster over 0.8 ps: total energy spread %.3g eV (dt 8 fs), "
          "%.3g eV (4 fs), ratio %.2f ~ 4 (second order), < 1e-3 of the kinetic energy %.3g eV"
          % (spread[0], spread[1], ratio, ke))


def test_langevin_bfgs():
    from ase.md.langevin import Langevin
    from ase.optimize import BFGS
    atoms = argon(False, 13)
    atoms.calc = TribodyCalculator(text=config(), set={"solver.precision": "double"})
    Langevin(atoms, 5 * units.fs, temperature_K=60, friction=0.02, rng=np.random.default_rng(1)).run(30)
    check(np.isfinite(atoms.get_potential_energy()) and atoms.get_temperature() > 5,
          "Langevin runs 30 steps (T = %.1f K)" % atoms.get_temperature())
    atoms = argon(False, 17)
    atoms.calc = TribodyCalculator(text=config())
    f0 = np.abs(atoms.get_forces()).max()
    BFGS(atoms, logfile=None).run(fmax=1e-3, steps=200)
    f1 = np.abs(atoms.get_forces()).max()
    check(f1 < 1e-3 < f0, "BFGS relaxes the rattled crystal: max |F| %.3g -> %.3g eV/Å" % (f0, f1))


def test_bad_input():
    good = argon(False, 1)
    t = tribody.Tribody(text=config(), positions=good.get_positions(),
                        box=[15.78, 15.78, 15.78, 0, 0, 0, 0, 0, 0])
    cases = [
        ("positions of the wrong shape", lambda: t.set_positions(np.zeros((5, 3))), ValueError, "shape"),
        ("positions of complex dtype", lambda: t.set_positions(np.zeros((108, 3), complex)),
         TypeError, "dtype"),
        ("species as floats", lambda: tribody.Tribody(text=config(), positions=np.zeros((3, 3)),
                                                      species=np.zeros(3)), ValueError, "species"),
        ("a NaN position", lambda: t.set_positions(np.full((108, 3), np.nan)), ValueError, "non-finite"),
        ("a missing config file", lambda: tribody.Tribody("/nonexistent.cfg"), tribody.TribodyInputError,
         "/nonexistent.cfg"),
    ]
    bad = good.copy()
    bad[0].symbol = "Kr"
    bad.calc = TribodyCalculator(text=config())
    cases.append(("an Atoms with a species the config lacks", bad.get_potential_energy,
                  ValueError, "Kr"))
    small = bulk("Ar", "fcc", a=5.26, cubic=True) * (2, 2, 2)
    small.calc = TribodyCalculator(text=config())
    cases.append(("a cell narrower than twice the cutoff", small.get_potential_energy,
                  ValueError, "exceeds half"))
    lj = good.copy()
    lj.calc = TribodyCalculator(text=config(units_style="lj"))
    cases.append(("a config in LJ units", lj.get_potential_energy, ValueError, "units"))
    flat = good.copy()
    flat.set_cell([[15.78, 0, 0], [15.78, 0, 0], [0, 0, 15.78]])
    flat.calc = TribodyCalculator(text=config())
    cases.append(("a degenerate periodic cell", flat.get_potential_energy, ValueError,
                  "independent vectors"))
    for what, fn, exc, text in cases:
        ok, msg = raises(fn, exc, text)
        check(ok, "%s raises %s (%s)" % (what, exc.__name__, msg))
    check(np.isfinite(t.energy()), "the handle still evaluates after the failed calls")


def test_state():
    """The calculator's own state check (tribody.ase: a snapshot of positions, numbers, cell
    and pbc instead of ASE's Atoms.copy): each change ASE's compare_atoms reports is reported
    (initial charges and magmoms excepted: the potential does not use them) and evaluates
    again, with the results of a new calculator on the same atoms; no change evaluates
    nothing; a caller's reference to results["forces"] keeps its values."""
    from ase.calculators.calculator import all_changes, compare_atoms
    atoms = argon(False, 5)
    calc = TribodyCalculator(text=config())
    atoms.calc = calc
    atoms.get_forces()

    def evals():
        return calc._t.timings()["evals"]

    def fresh(a):
        b = a.copy()
        b.calc = TribodyCalculator(text=config())
        return b.get_potential_energy(), b.get_forces()

    def in_place(a):
        a.positions[3, 0] += 0.01  # the Atoms' own array, changed under it

    def charges(a):
        a.set_initial_charges(np.linspace(-1, 1, len(a)))

    def magmoms(a):
        a.set_initial_magnetic_moments(np.ones(len(a)))

    def cell(a):
        a.set_cell(a.cell[:] * 1.01, scale_atoms=False)

    def pbc(a):
        a.pbc = (True, True, False)

    def tiny(a):
        a.positions[0, 0] = np.nextafter(a.positions[0, 0], np.inf)  # below ASE's tol 1e-15

    def fewer(a):
        del a[10]

    cases = [("positions moved in place", in_place, ["positions"]),
             ("one ulp of one coordinate", tiny, ["positions"]),
             ("the cell (atoms kept)", cell, ["cell"]),
             ("pbc", pbc, ["pbc"]), ("one atom fewer", fewer, ["positions", "numbers"]),
             ("initial charges", charges, []), ("initial magmoms", magmoms, [])]
    for what, change, want in cases:
        before = atoms.copy()
        n0, e0 = evals(), atoms.get_potential_energy()
        f_held = calc.results["forces"]
        f_kept = f_held.copy()
        change(atoms)
        got = calc.check_state(atoms)
        ase = [c for c in compare_atoms(before, atoms) if c not in calc.ignored_changes]
        # one ulp is below ASE's tolerance (1e-15): reported here, not by ASE
        ulp = what.startswith("one ulp")
        h0 = calc._t
        e, f = atoms.get_potential_energy(), atoms.get_forces()
        e_ref, f_ref = fresh(atoms)
        # numbers or pbc changed: a new handle (its own count), else one evaluation or none
        n = "a new handle" if calc._t is not h0 else evals() - n0
        check(sorted(got) == sorted(want) == sorted(["positions"] if ulp and not ase else ase) and
              n == ("a new handle" if "numbers" in want or "pbc" in want else int(bool(want))) and
              e == e_ref and np.array_equal(f, f_ref) and (e != e0 or not want or ulp) and
              np.array_equal(f_held, f_kept),
              "%s: check_state %s (ASE's compare_atoms: %s), evaluations: %s, energy %.12g eV = a "
              "new calculator's %.12g, forces equal; a held results['forces'] kept its values"
              % (what, got, ase, n, e, e_ref))
    atoms.numbers[0] = 36  # Kr, which the configuration lacks: the same length, a new species
    got = calc.check_state(atoms)
    ase = [c for c in compare_atoms(calc.atoms, atoms) if c not in calc.ignored_changes]
    ok, msg = raises(atoms.get_potential_energy, ValueError, "Kr")
    atoms.numbers[0] = 18
    e, e_ref = atoms.get_potential_energy(), fresh(atoms)[0]
    check(got == ase == ["numbers"] and ok and e == e_ref, "one atom's number changed in place: "
          "check_state %s (ASE's %s), the evaluation raises (%s); changed back: %.12g eV = a new "
          "calculator's %.12g" % (got, ase, msg, e, e_ref))
    n0 = evals()
    e = [atoms.get_potential_energy(), calc.get_potential_energy(), atoms.get_forces()]
    snap = calc.atoms
    check(evals() == n0 and calc.check_state(atoms) == [] and snap is not calc.atoms and
          np.array_equal(snap.positions, atoms.positions) and
          np.array_equal(snap.numbers, atoms.numbers) and np.array_equal(snap.pbc, atoms.pbc) and
          np.array_equal(snap.cell[:], atoms.cell[:]),
          "no change: no evaluation; calc.atoms a new Atoms equal to the atoms computed")
    calc.reset()
    check(calc.atoms is None and calc.check_state(atoms) == list(all_changes) and
          atoms.get_potential_energy() == e[0], "reset(): no atoms, every change, the same energy "
          "evaluated again")


def test_views():
    atoms = argon(False, 2)
    t = tribody.Tribody(text=config(), positions=atoms.get_positions(),
                        box=[15.78, 15.78, 15.78, 0, 0, 0, 0, 0, 0])
    v = t.forces_view()
    f = t.forces()
    check(not v.flags.owndata and not v.flags.writeable and np.array_equal(v, f),
          "forces_view is a read-only view of the library's forces, equal to forces()")
    p = np.ascontiguousarray(atoms.get_positions() + 0.01)
    t.set_positions(p)
    check(np.allclose(t.positions, p % 15.78, rtol=0, atol=1e-12), "set_positions: the positions "
          "view shows them (wrapped)")


def test_handout():
    """The snapshot's positions copied in the library's set_positions pass
    (tribody_set_positions_copy): after each move the forces and the energy are a new
    calculator's and the snapshot is the moved positions bit for bit; an array get_forces
    handed out, or a view of one, keeps its values through later calculations."""
    atoms = argon(False, 4)
    calc = TribodyCalculator(text=config())
    atoms.calc = calc
    held = atoms.get_forces()
    kept = held.copy()
    view = atoms.get_forces()[:3]
    vkept = view.copy()
    ok = True
    for k in range(6):
        atoms.positions[k, 1] += 0.02
        f = atoms.get_forces()
        b = atoms.copy()
        b.calc = TribodyCalculator(text=config())
        ok &= (np.array_equal(f, b.get_forces()) and
               atoms.get_potential_energy() == b.get_potential_energy() and
               calc._x.tobytes() == atoms.positions.tobytes())
        del f
    check(ok and np.array_equal(held, kept) and np.array_equal(view, vkept),
          "get_forces after 6 moves: a new calculator's forces and energy, the snapshot the "
          "positions bit for bit; a held array and a held view kept their values")


def test_fast():
    """The steady state's path (get_property with _fast: tribody_set_positions_changed,
    tribody_evaluate) against the general path (TB_ASE_FAST=0) on the same moves: the same
    energies, forces and stresses bit for bit; it is taken (no calculate()); a move of the
    last atom only (past the head the library compares first), a number, the cell or pbc
    changed in place are each seen; no change evaluates nothing; a NaN position raises and the
    next good positions evaluate again; the Tribody wrappers of the two calls."""
    atoms = bulk("Ar", "fcc", a=5.26, cubic=True) * (4, 4, 4)  # 256 atoms: 6 KiB, past the head
    atoms.rattle(0.05, seed=6)
    calc = TribodyCalculator(text=config())
    os.environ["TB_ASE_FAST"] = "0"
    try:
        ref = TribodyCalculator(text=config())
    finally:
        del os.environ["TB_ASE_FAST"]
    b = atoms.copy()
    atoms.calc, b.calc = calc, ref
    atoms.get_forces(), b.get_forces()
    calls = [0]
    inner = calc.calculate

    def counted(*args, **kw):
        calls[0] += 1
        return inner(*args, **kw)
    calc.calculate = counted

    def same():
        return (atoms.get_potential_energy() == b.get_potential_energy() and
                np.array_equal(atoms.get_forces(), b.get_forces()) and
                np.array_equal(atoms.get_stress(), b.get_stress()))

    def evals():
        return calc._t.timings()["evals"]
    ok, n0 = True, evals()
    rng = np.random.default_rng(6)
    for k in range(5):  # every atom moved, as an MD step
        d = rng.normal(scale=0.01, size=(len(atoms), 3))
        atoms.positions += d
        b.positions += d
        ok &= same()
    g = atoms.get_forces()
    g2 = atoms.get_forces()
    ok &= g is not calc.results["forces"] and g2 is not g and np.array_equal(g, g2)
    g[:] = 0.0
    ok &= np.array_equal(calc.results["forces"], g2) and np.array_equal(atoms.get_forces(), g2)
    check(ok and calls[0] == 0 and evals() - n0 == 5 and calc._fast is not None and
          ref._fast is None, "5 moves of every atom: the steady path (%d calculate() calls, %d "
          "evaluations) gives the general path's energy, forces and stress bit for bit; the "
          "forces handed out are the caller's own (changing them changes no later result)"
          % (calls[0], evals() - n0))
    n0 = evals()
    e0 = atoms.get_potential_energy(), atoms.get_forces()
    check(evals() == n0, "no change: no evaluation (%d)" % (evals() - n0))
    atoms.positions[-1, 2] += 0.01
    b.positions[-1, 2] += 0.01
    ok = same() and evals() == n0 + 1 and calls[0] == 0
    check(ok, "the last atom alone moved in place: one evaluation, the general path's results")
    atoms.numbers[5] = 36
    r1 = raises(atoms.get_potential_energy, ValueError, "Kr")
    atoms.numbers[5] = 18
    ok = same() and calls[0] >= 1
    atoms.cell[0, 0] *= 1.001
    b.cell[0, 0] *= 1.001
    ok &= same()
    check(r1[0] and ok, "a number changed in place raises (%s), changed back and the cell "
          "changed in place: the general path's results" % r1[1])
    for k in range(2):
        d = rng.normal(scale=0.01, size=(len(atoms), 3))
        atoms.positions += d
        b.positions += d
    ok = same()
    good = atoms.positions.copy()
    atoms.positions[250, 1] = np.nan
    r2 = raises(atoms.get_forces, ValueError, "non-finite")
    atoms.positions[:] = good
    check(ok and r2[0] and same() and calc._fast is not None,
          "a NaN position on the steady path raises (%s); the good positions evaluate again "
          "(the general path's results)" % r2[1])
    t = calc._t
    x = np.ascontiguousarray(t.positions.copy())
    c = x.copy()
    e, f, w = t.evaluate()
    check(not t.set_positions_changed(x, c) and np.array_equal(c, x) and
          t.set_positions_changed(x + 0.001, c) and np.array_equal(c, x + 0.001) and
          t.evaluate()[0] == t.energy() and np.array_equal(t.evaluate()[1], t.forces()) and
          np.array_equal(t.evaluate()[2], t.virial()) and t.evaluate()[0] != e,
          "Tribody.set_positions_changed and evaluate: no change when equal; else the copy "
          "written and the energy, forces and virial of energy(), forces(), virial()")


for fn in (test_forces_fd, test_stress_fd, test_sum_calculator, test_md, test_langevin_bfgs,
           test_bad_input, test_views, test_state, test_handout, test_fast):
    try:
        fn()
    except Exception as e:  # a test's own failure is one failed check, the rest still run
        check(False, "%s raised %s: %s" % (fn.__name__, type(e).__name__, e))
done()
