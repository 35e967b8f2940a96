"""tribody.ase — an ASE calculator over the tribody library.

    from tribody.ase import TribodyCalculator
    atoms.calc = TribodyCalculator(config="atm.cfg", set={"solver.precision": "double"})

The configuration gives the potential, the units, the species and the solver; its system
group holds at most `species` (anything else there is not used). The Atoms give the
particles, their species (chemical symbols matched to system.species names) and the cell.

Units: ASE works in eV and Å. A configuration in `units = "metal"` is taken as it is (eV, Å);
one in `units = "real"` (kcal/mol, Å) is converted (energies, forces and stresses times
ase.units.kcal / ase.units.mol); one in `units = "lj"` is refused, since reduced units have no
scale to convert with: write the potential in metal units (docs/config.md).

Properties: energy and free_energy (the same: no electronic entropy), forces, stress (six Voigt
components xx yy zz yz xz xy, eV/Å^3, the configurational part -W/V as ASE's calculators give
it: ASE adds the kinetic part in get_stress(include_ideal_gas=True)). Per-atom energies are not
offered: the engine sums energies per tile, so they would cost a second force path.

A cell of any orientation is handed to tribody as LAMMPS's restricted triclinic box: the cell is
rotated (a along x, b in the xy plane) and its tilts reduced to the same lattice; forces and
stress are rotated back. Periodic axes need a full-rank cell; without any periodic axis the cell
is not used (open boundaries). Each cutoff must be at most half the cell's smallest periodic
width (no periodic images of one particle are summed twice): a smaller cell raises.

The calculator's state (what ASE's Calculator keeps as `self.atoms = atoms.copy()`): a copy of
the positions, numbers, cell and pbc of the last calculation alone, refilled in place; a change
of any of them (bit for bit) evaluates again; initial charges and magmoms are ignored
(ignored_changes: the potential does not use them). `calc.atoms` is a new Atoms of those four
at each access. results["forces"] is reused by the next calculation unless someone else holds
it (ASE's get_forces hands out copies). The passes over (n, 3) arrays (the change check, the
copy get_property hands out) are the library's threaded ones (tribody_same_bytes,
tribody_copy_bytes); the snapshot of new positions is written by the library's set_positions
pass itself (tribody_set_positions_copy: 0.042 -> 0.007 ms); the force call's library calls are
made directly, not through Tribody's converting wrappers. The steady state (an MD or optimiser
step: only the positions changed, a cell in LAMMPS's frame, metal units, periodic along every
axis) takes a shorter path in get_property: the numbers, cell and pbc compared, then two
library calls, tribody_set_positions_changed (the positions' check, their snapshot and
set_positions) and tribody_evaluate (energy, forces, virial, and the copy of the forces handed
out, in one pass); TB_ASE_FAST=0 at the calculator's creation keeps the general path. ASE's,
the calculator's and ctypes' Python in an ASE force call at n = 32768 on an H200 machine:
~0.13 ms (0.19 on the general path; scripts/bench-library's split, docs/performance-runs.md,
"The ASE force call against bench", the fifth round).
"""
import ctypes
import os
import sys

import numpy as np
from ase.calculators.calculator import Calculator, all_changes
from ase import units as ase_units

from . import Tribody, TribodyInputError, _check, _lib

__all__ = ["TribodyCalculator", "lammps_frame"]

_TO_EV = {"metal": 1.0, "real": ase_units.kcal / ase_units.mol}


_L = _lib.lib


def _flat(a, b):
    """a and b C-contiguous arrays of one shape and dtype (the library's passes take them)."""
    return (type(b) is np.ndarray and a.shape == b.shape and a.dtype == b.dtype and
            a.flags.c_contiguous and b.flags.c_contiguous)


_PASS = 65536  # bytes from which an array goes through the library's passes


def _same(a, b):
    """a and b of one shape and equal: bit for bit when both are C-contiguous of one dtype
    (from _PASS bytes in the library's threaded pass, tribody_same_bytes; below it by their
    bytes, a tenth of a numpy comparison's cost for a cell or pbc), element for element
    otherwise (NaN never equal). Bit for bit, a -0.0 replacing 0.0 is a change (an evaluation
    more); a NaN position never reaches a kept snapshot of a calculation (the library refuses
    it)."""
    if _flat(a, b):
        if a.nbytes < _PASS:
            return a.tobytes() == b.tobytes()
        return bool(_L.tribody_same_bytes(a.ctypes.data, b.ctypes.data, a.nbytes))
    return a.shape == np.shape(b) and bool((a == b).all())


def _copyto(dst, src):
    """np.copyto(dst, src), in the library's threaded pass (tribody_copy_bytes) when both are
    C-contiguous of one shape and dtype."""
    if _flat(dst, src) and dst.nbytes >= _PASS:
        _L.tribody_copy_bytes(dst.ctypes.data, src.ctypes.data, dst.nbytes)
    else:
        dst[...] = src


def _copy(a):
    """a.copy() for a C-contiguous array, in the library's threaded pass."""
    if not a.flags.c_contiguous or a.nbytes < _PASS:
        return a.copy()
    b = np.empty_like(a)
    _L.tribody_copy_bytes(b.ctypes.data, a.ctypes.data, a.nbytes)
    return b


def _widths(a, b, c):
    v = abs(np.dot(a, np.cross(b, c)))
    return min(v / np.linalg.norm(np.cross(b, c)), v / np.linalg.norm(np.cross(c, a)),
               v / np.linalg.norm(np.cross(a, b)))


def lammps_frame(cell):
    """(q, box6): an orthogonal q with cell = L q^T up to a change of basis of the same lattice,
    L lower triangular with a positive diagonal (LAMMPS's restricted triclinic), as lx ly lz
    xy xz yz. The basis is the one of b + i a, c + j a + k b (tilts first reduced to at most half
    an edge) whose smallest perpendicular width is largest: the cutoffs the minimum image allows
    depend on the basis, not only on the lattice. Positions x (rows) are x q in the frame;
    forces f = f' q^T."""
    cell = np.asarray(cell, dtype=float)
    q, r = np.linalg.qr(cell.T)
    d = np.sign(np.diag(r))
    d[d == 0] = 1.0
    q = q * d
    L = (r * d[:, None]).T
    a, b, c = L[0].copy(), L[1].copy(), L[2].copy()
    c -= np.round(c[1] / b[1]) * b
    c -= np.round(c[0] / a[0]) * a
    b -= np.round(b[0] / a[0]) * a
    best = (_widths(a, b, c), b, c)
    for i in (-1, 0, 1):
        for j in (-1, 0, 1):
            for k in (-1, 0, 1):
                b2, c2 = b + i * a, c + j * a + k * b
                w = _widths(a, b2, c2)
                if w > best[0] * (1 + 1e-12):
                    best = (w, b2, c2)
    _, b, c = best
    return q, np.array([a[0], b[1], c[2], b[0], c[0], c[1]])


class TribodyCalculator(Calculator):
    """ATM (and LJ, as the configuration says) from tribody: config (a file) or text (a
    configuration), set (overrides: {"solver.precision": "double"} or ["PATH=VALUE", ...])."""

    implemented_properties = ["energy", "free_energy", "forces", "stress"]
    nolabel = True

    def __init__(self, config=None, text=None, set=None, verbose=False, **kwargs):
        Calculator.__init__(self, **kwargs)
        if (config is None) == (text is None):
            raise ValueError("TribodyCalculator: give config (a file) or text (a configuration)")
        self._config, self._text, self._set, self._verbose = config, text, set, verbose
        self._t = None
        self._key = None  # what the handle was made for: numbers' version (_zv), periodic axes
        self._box = None
        self._to_ev = None
        self._frame = None  # (cell, q, box6, q is the identity) of the last cell seen
        self._bufs = {"": np.empty(0)}  # results' arrays, reused (_out); "": its probe
        self._raw = None  # the forces in LAMMPS's frame of a rotated cell
        self._checked = None  # get_property's system_changes, handed to calculate
        # the library's calls of a force evaluation made directly (_evaluate): the positions'
        # pointer while they are the same array, the energy's and the virial's buffers
        self._xp = None
        self._ebuf = ctypes.c_double()
        self._eref = ctypes.byref(self._ebuf)
        self._w = np.zeros(6)
        self._wp = self._w.ctypes.data_as(_lib._pd)
        # the steady state's path (get_property, _fast_eval): what calculate leaves when the
        # next call may take it, else None; the caller's positions and numbers arrays seen last
        # with their addresses (_bind); the library's out-arguments by address
        self._fast = None
        self._src = None
        self._chg = ctypes.c_int()
        self._chgp = ctypes.addressof(self._chg)
        self._ep = ctypes.addressof(self._ebuf)
        self._wa = self._w.ctypes.data
        self._fast_on = os.environ.get("TB_ASE_FAST", "1") != "0"  # 0: the general path only

    # ---- the state of the last calculation ------------------------------------------
    # ASE's Calculator keeps `self.atoms = atoms.copy()` (every array, info, constraints:
    # freed again by the next reset()) and compares it with compare_atoms (isclose, several
    # (n, 3) temporaries); ~0.8 ms a call at n = 32768. The potential depends on positions,
    # numbers, cell and pbc alone, so the calculator keeps those four in arrays of its own,
    # refilled in place (np.copyto) while the number of atoms stays, and compares them bit for
    # bit. They are private: `calc.atoms` hands out a new Atoms made from them (ASE's own code
    # reads it only in get_property(atoms=None) and get_atoms), so no caller can hold them.
    ignored_changes = {"initial_charges", "initial_magmoms"}  # not used by the potential

    @property
    def atoms(self):
        """An Atoms (positions, numbers, cell, pbc) of the last calculation, or None: a new
        object at each access."""
        if not self._snap_valid:
            return None
        from ase import Atoms
        return Atoms(numbers=self._z, positions=self._x, cell=self._cell, pbc=self._pbc)

    @atoms.setter
    def atoms(self, atoms):
        # Calculator.__init__ and reset() set None; calculate() sets the atoms computed. A
        # snapshot set from outside is not the handle's positions: the general path decides
        self._fast = None
        self._keep(atoms, all_changes)

    def _keep(self, atoms, changes, defer=False):
        """The snapshot of atoms (None: none); changes: what differs from the arrays kept
        (all_changes, unless get_property has just compared them: then the positions and
        numbers that check_state found equal are not copied or compared again). defer: the
        positions' copy left to the caller, who makes it in the library's set_positions pass
        (tribody_set_positions_copy); returns the positions array to copy then, else None."""
        if atoms is None:
            self._snap_valid = False
            self._fast = None
            return None
        x, z = atoms.arrays["positions"], atoms.arrays["numbers"]
        later = None
        if getattr(self, "_x", None) is not None and self._x.shape == x.shape:
            if "positions" in changes:
                if defer and _flat(self._x, x):
                    later = x
                else:
                    _copyto(self._x, x)
            # numbers change rarely: compared (one read of each) rather than copied, and their
            # version (_zv) is the handle's key, not a third comparison in calculate
            if "numbers" in changes and not _same(self._z, z):
                _copyto(self._z, z)
                self._zv += 1
            self._cell[...] = atoms.cell.array
            self._pbc[...] = atoms.pbc
        else:
            self._x = np.array(x, dtype=np.float64, order="C")
            self._z = np.array(z)
            self._zv = getattr(self, "_zv", 0) + 1
            self._cell = np.array(atoms.cell.array, dtype=np.float64)
            self._pbc = np.array(atoms.pbc, dtype=bool)
        self._snap_valid = True
        return later

    def check_state(self, atoms, tol=1e-15):
        """What changed since the last calculation, of positions, numbers, cell and pbc (the
        changes ASE's check_state reports but initial_charges and initial_magmoms, which the
        potential does not use: ignored_changes), compared bit for bit: ASE's compare_atoms
        takes differences up to tol = 1e-15 as none, so a change below tol here makes an
        evaluation ASE would have skipped, never the reverse: the results are always of the
        atoms asked for."""
        if not self._snap_valid:
            return list(all_changes)
        a = atoms.arrays
        changes = []
        if not _same(self._x, a["positions"]):
            changes.append("positions")
        if not _same(self._z, a["numbers"]):
            changes.append("numbers")
        if not _same(self._cell, atoms.cell.array):
            changes.append("cell")
        if not _same(self._pbc, atoms.pbc):
            changes.append("pbc")
        return [c for c in changes if c not in self.ignored_changes]

    # ---- the handle --------------------------------------------------------------------
    def _make(self, species, box, periodic, pos):
        t = Tribody(self._config, self._text, self._set, positions=pos, species=species,
                    box=box, periodic=periodic if box is not None else None,
                    verbose=self._verbose)
        if t.units not in _TO_EV:
            style = t.units
            t.close()
            raise TribodyInputError(
                "TribodyCalculator: the configuration says units = \"%s\": ASE needs eV and Å, so "
                "give units = \"metal\" (or \"real\", converted)" % style, 2)
        return t

    def _species(self, numbers, names):
        """system.species indices of the atomic numbers, matched by chemical symbol."""
        from ase.data import chemical_symbols
        idx = {s: i for i, s in enumerate(names)}
        z, inv = np.unique(numbers, return_inverse=True)
        sym = [chemical_symbols[k] for k in z]
        bad = sorted(set(s for s in sym if s not in idx))
        if bad:
            raise TribodyInputError("TribodyCalculator: the Atoms have species %s that the "
                                    "configuration's system.species (%s) does not have"
                                    % (", ".join(bad), ", ".join(names)), 2)
        return np.array([idx[s] for s in sym], dtype=np.int32)[inv.reshape(-1)]

    def _geometry(self):
        """(q or None, box[9] or None, periodic[3], positions in the frame) of the last atoms
        set; q None: no rotation (no periodic axis, or a cell already in LAMMPS's frame)."""
        pbc, pos = self._pbc, self._x
        if pbc.tobytes() == b"\0\0\0":  # no periodic axis (pbc.any(), without numpy's call)
            return None, None, pbc, pos
        cell = self._cell
        # the frame of the last cell again when the cell is the same (an MD step, an
        # optimiser's step): lammps_frame tries 27 bases, a few ms of small numpy calls
        if self._frame is None or not _same(cell, self._frame[0]):
            if abs(np.linalg.det(cell)) < 1e-12 * max(1.0, np.abs(cell).max()) ** 3:
                raise TribodyInputError("TribodyCalculator: periodic axes %s need a cell of three "
                                        "independent vectors (got %s)" % (pbc.tolist(), cell.tolist()), 2)
            q, b6 = lammps_frame(cell)
            self._frame = (cell.copy(), q, np.concatenate([b6, np.zeros(3)]),
                           np.array_equal(q, np.eye(3)))
        _, q, box, ident = self._frame
        # a cell already in LAMMPS's frame (q the identity): x q is x itself (up to the sign of
        # a zero), without an (n, 3) x (3, 3) product, ~1 ms at n = 32768
        return (None if ident else q), box.copy(), pbc, (pos if ident else pos @ q)

    def _set_positions(self, pos):
        """Tribody.set_positions(pos) for the calculator's own positions (the snapshot, or its
        rotation into the frame: C-contiguous float64 (n, 3)), the pointer kept while pos is the
        same array."""
        if self._xp is None or self._xp[0] is not pos:
            self._xp = (pos, pos.ctypes.data_as(_lib._pd))
        _check(_L.tribody_set_positions(self._t._h, self._xp[1]))

    def _out(self, name, shape):
        """The array results[name] is written into: the last calculation's when nothing but
        the calculator holds it, else a new one. ASE's get_property hands out copies; a caller
        who keeps calc.results["forces"] itself (or a view of it) keeps its values: the next
        calculation writes into a new array. Saves a 0.75 MiB allocation, its page faults
        and its release at n = 32768. "Nothing else holds it": CPython's reference count no
        higher than that of an array the calculator never hands out, held and asked the same
        way (the count's own accounting of arguments and locals differs between versions)."""
        self.results.pop(name, None)
        bufs = self._bufs
        b, probe = bufs.get(name), bufs[""]
        if b is None or b.shape != shape or sys.getrefcount(b) > sys.getrefcount(probe):
            b = bufs[name] = np.empty(shape)
        return b

    def calculate(self, atoms=None, properties=("energy",), system_changes=all_changes):
        # Calculator.calculate would keep atoms.copy(): _keep keeps the four arrays
        self._fast = None
        later = None
        if atoms is not None:
            # system_changes of our get_property's own check_state (the same list) are what
            # differs from the snapshot; any other caller's are not trusted (all_changes)
            trusted = system_changes is getattr(self, "_checked", None)
            later = self._keep(atoms, system_changes if trusted else all_changes,
                               defer=self._t is not None)
        elif not self._snap_valid:
            raise ValueError("TribodyCalculator: no atoms to compute (calculate(atoms))")
        self._checked = None
        if later is not None and (self._frame is None or not self._frame[3] or
                                  not _same(self._cell, self._frame[0])):
            _copyto(self._x, later)  # a new or rotated frame: the snapshot is read below
            later = None
        q, box, pbc, pos = self._geometry()
        # the atomic numbers, not the symbols: the same key without n Python strings
        numbers = self._z
        if later is not None and (self._zv != self._key[0] or pbc.tobytes() != self._key[1]):
            _copyto(self._x, later)  # a new handle, made at the snapshot's positions
            later = None
        if self._t is None or self._zv != self._key[0] or pbc.tobytes() != self._key[1]:
            if self._t is not None:
                self._t.close()
                self._t = None
            species = self._species(numbers, self._names())
            self._t = self._make(species, box, pbc, pos)
            self._k = _TO_EV[self._t.units]
            self._key = (self._zv, pbc.tobytes())
            self._box = box
        else:
            if box is not None and not _same(box, self._box):
                self._t.set_box(box)
                self._box = box
            if later is None:
                self._set_positions(pos)
            else:  # pos is the snapshot (_x): filled from the Atoms' positions in the same pass
                self._snap_valid = False  # until the pass has written all of it
                _check(_L.tribody_set_positions_copy(self._t._h, later.ctypes.data, pos.ctypes.data))
                self._snap_valid = True
        h, k = self._t._h, self._k
        # the library's calls themselves: Tribody's wrappers check and convert arrays that are
        # the calculator's own here (C-contiguous float64 of the handle's shape)
        _check(_L.tribody_energy(h, 0, self._eref))
        e = self._ebuf.value * k
        f = self._out("forces", pos.shape)
        if q is None:
            _check(_L.tribody_forces(h, f.ctypes.data_as(_lib._pd)))
        else:  # the frame's forces into a private array, rotated back into f
            if self._raw is None or self._raw.shape != f.shape:
                self._raw = np.empty_like(f)
            np.matmul(self._t.forces(out=self._raw), q.T, out=f)
        if k != 1.0:
            f *= k
        self.results["energy"] = e
        self.results["free_energy"] = e
        self.results["forces"] = f
        if box is not None and pbc.all():
            _check(_L.tribody_virial(h, 0, self._wp))
            w = self._w * k
            V = box[0] * box[1] * box[2]
            if q is None:  # -W / V in Voigt order (xx yy zz yz xz xy; W: xx yy zz xy xz yz),
                # six Python floats: the 3x3 numpy path's small calls cost more than the numbers
                w = w.tolist()
                self.results["stress"] = np.array([-w[0] / V, -w[1] / V, -w[2] / V, -w[5] / V,
                                                   -w[4] / V, -w[3] / V])
            else:
                W = np.array([[w[0], w[3], w[4]], [w[3], w[1], w[5]], [w[4], w[5], w[2]]])
                s = q @ (-W / V) @ q.T
                self.results["stress"] = np.array([s[0, 0], s[1, 1], s[2, 2], s[1, 2], s[0, 2],
                                                   s[0, 1]])
        elif "stress" in properties:
            from ase.calculators.calculator import PropertyNotImplementedError
            raise PropertyNotImplementedError("TribodyCalculator: stress needs a cell periodic "
                                              "along all three axes")
        if (self._fast_on and q is None and k == 1.0 and box is not None and pbc.all() and
                pos is self._x and self._snap_valid):
            # the next get_property may take the steady state's path: (handle, the snapshot's
            # address, its numbers, cell and pbc as bytes, the volume, the positions' shape)
            self._fast = (h, self._x.ctypes.data, self._z, self._cell.tobytes(), pbc.tobytes(),
                          box[0] * box[1] * box[2], pos.shape, self._z.ctypes.data)

    def _bind(self, x, z, fast):
        """(x, its address, z, its address, z's bytes): the caller's positions and numbers
        arrays when the steady state's path can read them (C-contiguous, of the snapshot's
        dtype and shape; kept while the Atoms keep the same arrays: ASE's set_positions writes
        into its array), else None."""
        self._src = None
        if (type(x) is np.ndarray and type(z) is np.ndarray and x.dtype == np.float64 and
                x.shape == fast[6] and x.flags.c_contiguous and z.dtype == fast[2].dtype and
                z.shape == fast[2].shape and z.flags.c_contiguous):
            self._src = (x, x.ctypes.data, z, z.ctypes.data, z.nbytes)
        return self._src

    def _fast_eval(self, fast, g=None):
        """calculate() of the steady state (_fast): the library's one call (tribody_evaluate:
        energy, forces into the reused array and, when g is given, into g in the same pass:
        the copy get_property hands out; virial) and the results."""
        f = self._out("forces", fast[6])
        _check(_L.tribody_evaluate(fast[0], self._ep, f.ctypes.data,
                                   None if g is None else g.ctypes.data, self._wa))
        e, V = self._ebuf.value, fast[5]
        w = self._w.tolist()
        self.results = {"energy": e, "free_energy": e, "forces": f,
                        "stress": np.array([-w[0] / V, -w[1] / V, -w[2] / V, -w[5] / V,
                                            -w[4] / V, -w[3] / V])}

    def get_property(self, name, atoms=None, allow_calculation=True):
        """ASE's Calculator.get_property (3.22: check_state, reset on a change, calculate, a
        copy of an array result for the caller), with the copy made by the library's threaded
        pass (_copy): a single thread's copy of the forces costs 0.05-0.08 ms at n = 32768 on
        an H200 machine, a sixth of the goal's overhead (docs/performance-runs.md).

        The steady state (an MD or optimiser step: the same handle, numbers, cell, pbc and
        arrays as the last calculation, a cell in LAMMPS's frame, metal units, periodic along
        every axis: _fast, left by calculate) takes a shorter path of the same meaning: the
        numbers, cell and pbc compared bit for bit as check_state does, then the positions'
        check, their copy into the snapshot and set_positions in one library call
        (tribody_set_positions_changed); on a change, reset (results dropped; the snapshot is
        already the new positions) and one library call for the results (tribody_evaluate; the
        forces asked for are also written, in the same pass, into the copy handed out).
        Anything else (a change of numbers, cell or pbc, new arrays of another shape or
        dtype) takes ASE's general path below. TB_ASE_FAST=0 in the environment at the
        calculator's creation keeps it on the general path (a measurement's switch)."""
        fast = self._fast
        if fast is not None and atoms is not None and name in self.implemented_properties:
            a = atoms.arrays
            x, z = a["positions"], a["numbers"]
            src = self._src
            if src is None or x is not src[0] or z is not src[2]:
                src = self._bind(x, z, fast)
            if (src is not None and x.shape == fast[6] and z.shape == fast[2].shape and
                    atoms.cell.array.tobytes() == fast[3] and atoms.pbc.tobytes() == fast[4] and
                    _L.tribody_same_bytes(src[3], fast[7], src[4])):
                rc = _L.tribody_set_positions_changed(fast[0], src[1], fast[1], self._chgp)
                if rc:  # refused: the snapshot may be partly written; results of nothing
                    self._snap_valid = False
                    self._fast = None
                    self.results = {}
                    _check(rc)
                if self._chg.value:
                    self.results = {}  # reset(), less its atoms = None: the snapshot is new
                if name not in self.results:
                    if not allow_calculation:
                        return None
                    if name == "forces":  # the copy handed out written with the results'
                        g = np.empty(fast[6])
                        self._fast_eval(fast, g)
                        return g
                    self._fast_eval(fast)
                result = self.results[name]
                return _copy(result) if isinstance(result, np.ndarray) else result
        if name not in self.implemented_properties:
            from ase.calculators.calculator import PropertyNotImplementedError
            raise PropertyNotImplementedError("{} property not implemented".format(name))
        if atoms is None:
            atoms = self.atoms
            system_changes = []
        else:
            system_changes = self.check_state(atoms)
            if system_changes:
                self.reset()
        if name not in self.results:
            if not allow_calculation:
                return None
            self._checked = system_changes  # calculate trusts this list alone (_keep)
            self.calculate(atoms, [name], system_changes)
        if name not in self.results:
            from ase.calculators.calculator import PropertyNotImplementedError
            raise PropertyNotImplementedError("{} not present in this calculation".format(name))
        result = self.results[name]
        return _copy(result) if isinstance(result, np.ndarray) else result

    def _names(self):
        """The configuration's species names (a handle of three distant particles asks it)."""
        if getattr(self, "_names_cache", None) is None:
            far = np.array([[0.0, 0.0, 0.0], [1e3, 0.0, 0.0], [0.0, 1e3, 0.0]])
            with Tribody(self._config, self._text, self._set, positions=far,
                         verbose=self._verbose) as t:
                self._names_cache = t.species_names
        return self._names_cache

    def close(self):
        self._fast = None
        if self._t is not None:
            self._t.close()
            self._t = None
