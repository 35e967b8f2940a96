"""tribody — Python face of the tribody library (include/tribody.h), through ctypes and numpy.

    import tribody
    t = tribody.Tribody("examples/sim.cfg", set={"solver.backend": "cpu"})
    t.energy(), t.forces(), t.virial(), t.run(100)

Numbers are in the configuration's units (lj, metal, real). Arrays handed in are used in place
when they already are C-contiguous float64 (int32 for species), else converted once; the views
(`positions`, `velocities`, `forces_view`) are read-only numpy arrays over the library's own
memory, valid until the next call that changes the state. Errors raise TribodyError (bad input:
TribodyInputError, also a ValueError) with the library's one-line message; the library never
exits the interpreter. tribody.ase holds the ASE calculator, tribody.lammps the LAMMPS bridge.
"""
import ctypes

import numpy as np

from . import _lib

__all__ = ["Tribody", "TribodyError", "TribodyInputError", "library_path"]

library_path = _lib.path
_L = _lib.lib
TOTAL, PAIR, TRIPLET = 0, 1, 2
_TERMS = {"total": TOTAL, "pair": PAIR, "triplet": TRIPLET}


class TribodyError(RuntimeError):
    """A failed library call: .code is TRIBODY_ERUNTIME (1) or TRIBODY_EINPUT (2)."""

    def __init__(self, message, code=1):
        super().__init__(message)
        self.code = code


class TribodyInputError(TribodyError, ValueError):
    """Bad input (configuration, arrays, state): the command line's exit status 2."""


def _check(rc):
    if rc != 0:
        msg = _L.tribody_last_error().decode(errors="replace") or "tribody: failed (%d)" % rc
        raise (TribodyInputError if rc == 2 else TribodyError)(msg, rc)


def _set_text(k, v):
    """One --set override "PATH=VALUE" from a key and a Python value."""
    if isinstance(v, bool):
        v = "true" if v else "false"
    elif isinstance(v, (int, np.integer)):
        v = str(int(v))
    elif isinstance(v, (float, np.floating)):
        v = repr(float(v))
        if "e" not in v and "." not in v and "n" not in v:
            v += ".0"
    elif isinstance(v, str):
        if not v.replace("_", "").replace("-", "").replace(".", "").isalnum():
            v = '"%s"' % v.replace('"', '\\"')
    else:
        raise TypeError("tribody: set[%r]: a bool, int, float or str (got %s)" % (k, type(v).__name__))
    return "%s=%s" % (k, v)


def _sets(set):
    if set is None:
        return []
    if isinstance(set, dict):
        return [_set_text(k, v) for k, v in set.items()]
    if isinstance(set, (list, tuple)) and all(isinstance(s, str) for s in set):
        return list(set)
    raise TypeError("tribody: set: a dict {path: value} or a list of \"PATH=VALUE\" strings")


def _real(a, name, shape):
    """a as a C-contiguous float64 array of shape (no copy when it already is one)."""
    a = np.asarray(a)
    if a.dtype.kind not in "fiu":
        raise TypeError("tribody: %s: real numbers expected (got dtype %s)" % (name, a.dtype))
    a = np.ascontiguousarray(a, dtype=np.float64)
    if a.shape != shape:
        raise ValueError("tribody: %s: shape %s expected (got %s)" % (name, shape, a.shape))
    return a


def _dp(a):
    return a.ctypes.data_as(ctypes.POINTER(ctypes.c_double))


def box_of(box, periodic):
    """box[9] (lx ly lz xy xz yz xlo ylo zlo) and periodic[3] as the C API's arrays."""
    b = _real(box, "box", (9,))
    p = np.ascontiguousarray(np.asarray(periodic, dtype=bool).astype(np.int32))
    if p.shape != (3,):
        raise ValueError("tribody: periodic: shape (3,) expected (got %s)" % (p.shape,))
    return b, p


class Tribody:
    """One simulation: a configuration (file `config` or text `text`, with overrides `set`),
    and either the configuration's own particles or the arrays positions (n, 3), species (n,)
    (indices into system.species, or their names), box (9: lx ly lz xy xz yz xlo ylo zlo) and
    periodic (3 bools)."""

    def __init__(self, config=None, text=None, set=None, positions=None, species=None, box=None,
                 periodic=None, verbose=False):
        self._h = None
        if (config is None) == (text is None):
            raise ValueError("tribody: give a config path or a config text (one of them)")
        _L.tribody_set_verbose(1 if verbose else 0)
        sets = _sets(set)
        c_sets = (ctypes.c_char_p * max(1, len(sets)))(*[s.encode() for s in sets])
        path = config.encode() if config is not None else None
        txt = text.encode() if text is not None else None
        h = ctypes.c_void_p()
        if positions is None:
            if species is not None or box is not None:
                raise ValueError("tribody: species and box go with positions")
            _check(_L.tribody_create(ctypes.byref(h), path, txt, len(sets), c_sets))
        else:
            pos = np.asarray(positions)
            if pos.ndim != 2 or pos.shape[1:] != (3,):
                raise ValueError("tribody: positions: shape (n, 3) expected (got %s)" % (pos.shape,))
            n = pos.shape[0]
            pos = _real(pos, "positions", (n, 3))
            sp = None
            if species is not None:
                sp = np.asarray(species)
                if sp.dtype.kind in "US":
                    raise TypeError("tribody: species names are mapped by tribody.ase; give indices")
                if sp.dtype.kind not in "iu" or sp.shape != (n,):
                    raise ValueError("tribody: species: integer indices of shape (%d,) expected "
                                     "(got %s of shape %s)" % (n, sp.dtype, sp.shape))
                sp = np.ascontiguousarray(sp, dtype=np.int32)
            b = p = None
            if box is not None:
                b, p = box_of(box, periodic if periodic is not None else (True, True, True))
            _check(_L.tribody_create_system(
                ctypes.byref(h), path, txt, len(sets), c_sets, n, _dp(pos),
                sp.ctypes.data_as(ctypes.POINTER(ctypes.c_int)) if sp is not None else None,
                _dp(b) if b is not None else None,
                p.ctypes.data_as(ctypes.POINTER(ctypes.c_int)) if p is not None else None))
        self._h = h
        self.n = _L.tribody_count(h)

    def close(self):
        if self._h is not None:
            _L.tribody_destroy(self._h)
            self._h = None

    def __del__(self):
        try:
            self.close()
        except Exception:  # interpreter shutdown
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _handle(self):
        if self._h is None:
            raise TribodyError("tribody: the handle is closed", 2)
        return self._h

    # ---- facts -------------------------------------------------------------------------
    @property
    def units(self):
        return _L.tribody_units(self._handle()).decode()

    @property
    def backend(self):
        return _L.tribody_backend(self._handle()).decode()

    @property
    def precision(self):
        return _L.tribody_precision(self._handle()).decode()

    @property
    def species_names(self):
        h = self._handle()
        return [_L.tribody_species_name(h, i).decode() for i in range(_L.tribody_species_count(h))]

    @property
    def species_masses(self):
        h = self._handle()
        return [_L.tribody_species_mass(h, i) for i in range(_L.tribody_species_count(h))]

    @property
    def cutoff(self):
        """The largest cutoff of the running terms; 0 when one has none."""
        return _L.tribody_cutoff(self._handle())

    @property
    def step(self):
        return _L.tribody_step(self._handle())

    @property
    def time(self):
        return _L.tribody_time(self._handle())

    def box(self):
        """(box[9], periodic[3]) of the current state."""
        b = np.zeros(9)
        p = np.zeros(3, dtype=np.int32)
        _check(_L.tribody_box(self._handle(), _dp(b), p.ctypes.data_as(ctypes.POINTER(ctypes.c_int))))
        return b, p.astype(bool)

    # ---- views (no copy) ---------------------------------------------------------------
    def _view(self, fn, shape, ctype=ctypes.c_double):
        ptr = fn(self._handle())
        a = np.ctypeslib.as_array(ctypes.cast(ptr, ctypes.POINTER(ctype)), shape=shape)
        a.flags.writeable = False
        return a

    @property
    def positions(self):
        """Read-only view (n, 3) of the positions (wrapped into a periodic box)."""
        return self._view(_L.tribody_positions, (self.n, 3))

    @property
    def velocities(self):
        return self._view(_L.tribody_velocities, (self.n, 3))

    @property
    def species(self):
        return self._view(_L.tribody_species, (self.n,), ctypes.c_int)

    def forces_view(self):
        """Read-only view (n, 3) of the forces, evaluated first when stale."""
        self.compute()
        return self._view(_L.tribody_forces_view, (self.n, 3))

    # ---- state -------------------------------------------------------------------------
    def set_positions(self, pos):
        pos = _real(pos, "positions", (self.n, 3))
        _check(_L.tribody_set_positions(self._handle(), _dp(pos)))

    def set_positions_changed(self, pos, copy):
        """set_positions(pos) unless pos equals copy bit for bit (then nothing: the last
        evaluation stays fresh); copy (C-contiguous float64 (n, 3)) then becomes pos.
        Returns whether pos differed (tribody_set_positions_changed)."""
        pos = _real(pos, "positions", (self.n, 3))
        if (type(copy) is not np.ndarray or copy.dtype != np.float64 or copy.shape != (self.n, 3)
                or not copy.flags.c_contiguous or not copy.flags.writeable):
            raise ValueError("tribody: copy: a writeable C-contiguous float64 array of shape "
                             "(%d, 3)" % self.n)
        c = ctypes.c_int()
        _check(_L.tribody_set_positions_changed(self._handle(), pos.ctypes.data, copy.ctypes.data,
                                                ctypes.addressof(c)))
        return bool(c.value)

    def set_velocities(self, vel):
        vel = _real(vel, "velocities", (self.n, 3))
        _check(_L.tribody_set_velocities(self._handle(), _dp(vel)))

    def set_box(self, box, periodic=None):
        b = _real(box, "box", (9,))
        p = None
        if periodic is not None:
            _, p = box_of(b, periodic)
        _check(_L.tribody_set_box(self._handle(), _dp(b),
                                  p.ctypes.data_as(ctypes.POINTER(ctypes.c_int)) if p is not None else None))

    # ---- evaluations -------------------------------------------------------------------
    def compute(self):
        _check(_L.tribody_compute(self._handle()))

    def energy(self, term="total"):
        """The potential energy: term "total", "pair" (LJ) or "triplet" (ATM)."""
        if term not in _TERMS:
            raise ValueError("tribody: term: one of total, pair, triplet (got %r)" % (term,))
        e = ctypes.c_double()
        _check(_L.tribody_energy(self._handle(), _TERMS[term], ctypes.byref(e)))
        return e.value

    def forces(self, out=None):
        """The forces (n, 3), copied into out (C-contiguous float64) or a new array."""
        if out is None:
            out = np.empty((self.n, 3))
        elif out.dtype != np.float64 or out.shape != (self.n, 3) or not out.flags.c_contiguous:
            raise ValueError("tribody: out: a C-contiguous float64 array of shape (%d, 3)" % self.n)
        _check(_L.tribody_forces(self._handle(), _dp(out)))
        return out

    def evaluate(self, out=None):
        """(energy, forces, virial) of the total in one library call (tribody_evaluate):
        energy(), forces(out) and virial() at once."""
        if out is None:
            out = np.empty((self.n, 3))
        elif out.dtype != np.float64 or out.shape != (self.n, 3) or not out.flags.c_contiguous:
            raise ValueError("tribody: out: a C-contiguous float64 array of shape (%d, 3)" % self.n)
        e, w = ctypes.c_double(), np.zeros(6)
        _check(_L.tribody_evaluate(self._handle(), ctypes.addressof(e), out.ctypes.data, None,
                                   w.ctypes.data))
        return e.value, out, w

    def virial(self, term="total"):
        """W_xx W_yy W_zz W_xy W_xz W_yz [energy] of term "total" (both terms), "pair"
        (Lennard-Jones alone) or "triplet" (ATM alone; a term alone is a second evaluation,
        of that term only: include/tribody.h). The terms sum to the total to rounding."""
        if term not in _TERMS:
            raise ValueError("tribody: term: one of total, pair, triplet (got %r)" % (term,))
        w = np.zeros(6)
        _check(_L.tribody_virial(self._handle(), _TERMS[term], _dp(w)))
        return w

    def pressure(self):
        """P, Pxx, Pyy, Pzz, Pxy, Pxz, Pyz with the kinetic part (LAMMPS's compute pressure)."""
        p = np.zeros(7)
        _check(_L.tribody_pressure(self._handle(), _dp(p)))
        return p

    PHASES = ("set", "upload", "evaluate", "download", "check", "copy")

    def timings(self):
        """Where the evaluations' time went (include/tribody.h, tribody_timings): a dict of
        seconds summed since the handle was made, by phase (PHASES), and "evals"."""
        sec = np.zeros(len(self.PHASES))
        n = ctypes.c_longlong()
        _check(_L.tribody_timings(self._handle(), _dp(sec), ctypes.byref(n)))
        d = dict(zip(self.PHASES, sec.tolist()))
        d["evals"] = n.value
        return d

    def run(self, steps):
        """Advances `steps` steps with the configured integrator."""
        _check(_L.tribody_run(self._handle(), int(steps)))

    def write_checkpoint(self, path):
        _check(_L.tribody_write_checkpoint(self._handle(), str(path).encode()))
