"""_lib.py — finds and loads libtribody.so and declares the C API of include/tribody.h.

Where the library comes from, first found: $TRIBODY_LIB; build/libtribody.so of the checkout
this package sits in (`make`; so a checkout never takes a stale copy); the copy installed beside
this file (`make python`)."""
import ctypes
import os

_HERE = os.path.dirname(os.path.abspath(__file__))


def _candidates():
    env = os.environ.get("TRIBODY_LIB")
    if env:
        yield env
        return
    yield os.path.join(_HERE, "..", "..", "build", "libtribody.so")
    yield os.path.join(_HERE, "libtribody.so")


def _load():
    tried = []
    for path in _candidates():
        if os.path.exists(path):
            return ctypes.CDLL(os.path.abspath(path)), os.path.abspath(path)
        tried.append(path)
    raise ImportError("tribody: libtribody.so not found (tried %s): run `make` in the "
                      "repository, or set TRIBODY_LIB=/path/to/libtribody.so" % ", ".join(tried))


lib, path = _load()

_d = ctypes.c_double
_i = ctypes.c_int
_pd = ctypes.POINTER(ctypes.c_double)
_pi = ctypes.POINTER(ctypes.c_int)
_h = ctypes.c_void_p
_s = ctypes.c_char_p

_PROTOS = {
    "tribody_api_version": (_i, []),
    "tribody_create": (_i, [ctypes.POINTER(_h), _s, _s, _i, ctypes.POINTER(_s)]),
    "tribody_create_system": (_i, [ctypes.POINTER(_h), _s, _s, _i, ctypes.POINTER(_s), _i,
                                   _pd, _pi, _pd, _pi]),
    "tribody_destroy": (None, [_h]),
    "tribody_set_positions": (_i, [_h, _pd]),
    "tribody_set_positions_copy": (_i, [_h, _h, _h]),
    "tribody_set_positions_changed": (_i, [_h, _h, _h, _h]),
    "tribody_evaluate": (_i, [_h, _h, _h, _h, _h]),
    "tribody_set_velocities": (_i, [_h, _pd]),
    "tribody_set_box": (_i, [_h, _pd, _pi]),
    "tribody_compute": (_i, [_h]),
    "tribody_run": (_i, [_h, ctypes.c_long]),
    "tribody_write_checkpoint": (_i, [_h, _s]),
    "tribody_energy": (_i, [_h, _i, _pd]),
    "tribody_forces": (_i, [_h, _pd]),
    "tribody_virial": (_i, [_h, _i, _pd]),
    "tribody_pressure": (_i, [_h, _pd]),
    "tribody_positions": (_pd, [_h]),
    "tribody_velocities": (_pd, [_h]),
    "tribody_forces_view": (_pd, [_h]),
    "tribody_species": (_pi, [_h]),
    "tribody_count": (_i, [_h]),
    "tribody_step": (ctypes.c_long, [_h]),
    "tribody_time": (_d, [_h]),
    "tribody_box": (_i, [_h, _pd, _pi]),
    "tribody_units": (_s, [_h]),
    "tribody_backend": (_s, [_h]),
    "tribody_precision": (_s, [_h]),
    "tribody_species_count": (_i, [_h]),
    "tribody_species_name": (_s, [_h, _i]),
    "tribody_species_mass": (_d, [_h, _i]),
    "tribody_cutoff": (_d, [_h]),
    "tribody_last_error": (_s, []),
    "tribody_set_verbose": (None, [_i]),
    "tribody_timings": (_i, [_h, _pd, ctypes.POINTER(ctypes.c_longlong)]),
    "tribody_same_bytes": (_i, [_h, _h, ctypes.c_size_t]),
    "tribody_copy_bytes": (None, [_h, _h, ctypes.c_size_t]),
}

API_VERSION = 5  # 2: per-term virials (tribody_virial's term), tribody_timings; 3: host passes;
# 4: tribody_set_positions_copy; 5: tribody_set_positions_changed, tribody_evaluate
lib.tribody_api_version.restype = _i
if lib.tribody_api_version() != API_VERSION:
    raise ImportError("tribody: %s implements API version %d, this package wants %d: rebuild "
                      "with `make`" % (path, lib.tribody_api_version(), API_VERSION))

for _name, (_res, _args) in _PROTOS.items():
    _f = getattr(lib, _name)
    _f.restype = _res
    _f.argtypes = _args
