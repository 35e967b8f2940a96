"""tbcheck.py — the Python tests' harness: one "PASS: ..." / "FAIL: ..." line per check, as
scripts/run-tests counts them (tests/tb_test.h's format), and the exit status: 0 when every
check passed, 1 otherwise. need() skips a whole test program (exit 0, no check line, a notice)
when Debian's numpy, ase or lammps is absent: `make deps` installs them."""
import importlib
import os
import sys

failed = 0
REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def check(ok, what):
    global failed
    print("%s: %s" % ("PASS" if ok else "FAIL", what), flush=True)
    if not ok:
        failed += 1


def need(*modules):
    for m in modules:
        try:
            importlib.import_module(m)
        except ImportError as e:
            print("# SKIPPED: %s needs the Python module %s (%s): `make deps` installs Debian's "
                  "python3-numpy, python3-ase and python3-lammps" % (sys.argv[0], m, e), flush=True)
            sys.exit(0)


def raises(fn, exc, text):
    """(ok, message): fn() raises exc with text in its message."""
    try:
        fn()
    except exc as e:
        return text in str(e), "%s: %s" % (type(e).__name__, e)
    except Exception as e:  # another exception: a failure, named
        return False, "%s: %s" % (type(e).__name__, e)
    return False, "no exception"


def done():
    sys.exit(1 if failed else 0)
