# scripts/gpu-check.d/library.sh — scripts/gpu-check's mode `library`: the library (issue 22). Sourced by scripts/gpu-check
# (its variables B, W, S, OUT and its say() are in scope); see its header for what it shows.
#
#  1. scripts/library-gpu-check: the Python API on the GPU against the CPU (initial state, new
#     positions, each term's virial, arrays, a new box, 50 steps; deterministic: bit for bit);
#  2. scripts/bench-library in mixed and double at N = 32768: per-call overhead, and the API
#     force call (and the ASE one) split by phase (set, upload, evaluate, download, check, copy,
#     Python) against `tribody bench --liquid`'s ms/force;
#  3. the LAMMPS bridge: tests/python/test_lammps.py (agreement with pair_style atm), then
#     examples/lammps/atm_gpu.py (LAMMPS + tribody ATM on the GPU, one LAMMPS process) against
#     LAMMPS's pair_style atm under mpirun on every core, steps/s, argon liquid N = 32000.
# ASE and LAMMPS come from the machine when it has them, else from build/carry/ (made by
# scripts/carry-library on a Debian machine, carried with the run: `carry build/carry`):
# unpacked under $W/carry, ASE on PYTHONPATH, LAMMPS's libraries linked into LD_LIBRARY_PATH
# only where this system lacks them (ldconfig -p); examples/python/md_gpu.py (ASE's MD:
# scipy, numpy < 2) in the carried Debian Python runtime (pyrt.tar.xz) where python3 cannot. GPU_CHECK_BACKEND=cpu: a dry run on the CPU
# at N = 2048 (no mpirun reference).
  BE=${GPU_CHECK_BACKEND:-gpu}
  NB=32768; [ "$BE" = cpu ] && NB=2048
  export TRIBODY_LIB=${TRIBODY_LIB:-$PWD/build/libtribody.so}
  [ -n "${TB_LIBDIR:-}" ] && export LD_LIBRARY_PATH="$TB_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  export PYTHONPATH="$PWD/python${PYTHONPATH:+:$PYTHONPATH}"
  CARRY=${TB_CARRY:-build/carry}
  mkdir -p "$W/carry"
  WA=$(cd "$W" && pwd) # absolute: the LAMMPS reference runs in examples/lammps
  if ! python3 -c "import ase" 2>/dev/null && [ -f "$CARRY/ase.tar.xz" ]; then
    tar -C "$W/carry" -xJf "$CARRY/ase.tar.xz" && export PYTHONPATH="$PYTHONPATH:$WA/carry"
    if python3 -c "import numpy, ase; from ase import Atoms; from ase.calculators.calculator import Calculator; print('ASE', ase.__version__, 'numpy', numpy.__version__)" >"$W/ase_import.txt" 2>&1; then
      say "== ASE carried from $CARRY/ase.tar.xz: $(tail -n 1 "$W/ase_import.txt")"
    else
      say "FAIL: the carried ASE does not import: $(tail -n 1 "$W/ase_import.txt")"
    fi
  fi
  LMP=$(command -v lmp || true)
  if ! python3 -c "import lammps" 2>/dev/null && [ -f "$CARRY/lammps.tar.xz" ]; then
    tar -C "$W/carry" -xJf "$CARRY/lammps.tar.xz"
    L="$WA/carry/lammps"
    mkdir -p "$L/need"
    ldconfig -p | awk 'NR > 1 {print $1}' | sort -u >"$W/have_libs.txt"
    for so in "$L"/lib/*; do
      grep -qxF "$(basename "$so")" "$W/have_libs.txt" || ln -sf "$so" "$L/need/"
    done
    export LD_LIBRARY_PATH="$L/need${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    export PYTHONPATH="$PYTHONPATH:$L/python"
    LMP="$L/bin/lmp"
    say "== LAMMPS carried from $CARRY/lammps.tar.xz; libraries this system lacks: $(ls "$L/need" | tr '\n' ' ')"
    missing=$(ldd "$LMP" | awk '/not found/ {print $1}' | tr '\n' ' ')
    [ -n "$missing" ] && say "FAIL: the carried lmp still lacks: $missing"
  fi
  if ! python3 -c "import numpy, tribody" >"$W/import.txt" 2>&1; then
    say "FAIL: python3 cannot import numpy and tribody: $(tail -n 1 "$W/import.txt")"
  else
    say "== the library on the GPU against the CPU (scripts/library-gpu-check)"
    TRIBODY_CHECK_BACKEND=$BE python3 scripts/library-gpu-check >"$W/library.txt" 2>&1
    say "$(grep -c '^PASS' "$W/library.txt") passed, $(grep -c '^FAIL' "$W/library.txt") failed"
    grep '^FAIL\|^Traceback\|^[A-Za-z.]*Error' "$W/library.txt" | head -n 20 | while read -r l; do say "$l"; done
    for p in mixed double; do
      say "== scripts/bench-library --n $NB --backend $BE --precision $p"
      python3 scripts/bench-library --n $NB --backend $BE --precision $p --repeat 20 --bin "$B" \
        >"$W/bench_$p.txt" 2>&1
      while read -r l; do say "$l"; done <"$W/bench_$p.txt"
    done
    # ASE's MD (ase.md) imports scipy (ase.constraints: scipy.linalg; ase.neighborlist:
    # scipy.spatial; ase.optimize.gpmin: scipy.optimize), and ase.build's repeat calls
    # np.product, gone in numpy 2: where this python3 lacks either, the example runs in the
    # carried Debian Python 3.11 with its numpy 1.24 and scipy 1.10 (build/carry/pyrt.tar.xz,
    # scripts/carry-library), its libraries linked only where this system lacks them
    MDPY=
    if python3 -c "import ase.md.verlet, numpy; assert hasattr(numpy, 'product')" 2>/dev/null; then
      MDPY=python3
    elif [ -f "$CARRY/pyrt.tar.xz" ]; then
      tar -C "$W/carry" -xJf "$CARRY/pyrt.tar.xz"
      R="$WA/carry/pyrt"
      mkdir -p "$R/need"
      [ -f "$W/have_libs.txt" ] || ldconfig -p | awk 'NR > 1 {print $1}' | sort -u >"$W/have_libs.txt"
      for so in "$R"/so/*; do
        grep -qxF "$(basename "$so")" "$W/have_libs.txt" || ln -sf "$so" "$R/need/"
      done
      MDPY="env PYTHONHOME=$R PYTHONNOUSERSITE=1 LD_LIBRARY_PATH=$R/need${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} $R/bin/python3.11"
      if $MDPY -c "import sys, numpy, scipy, ase.md.verlet; print('Python', sys.version.split()[0], 'numpy', numpy.__version__, 'scipy', scipy.__version__)" >"$W/pyrt_import.txt" 2>&1; then
        say "== the carried Python runtime: $(tail -n 1 "$W/pyrt_import.txt"); libraries this system lacks: $(ls "$R/need" | tr '\n' ' ')"
      else
        say "FAIL: the carried Python runtime does not import ASE's MD: $(tail -n 1 "$W/pyrt_import.txt")"
        MDPY=
      fi
    fi
    MDA="--cells 10 --steps 200"; [ "$BE" = cpu ] && MDA="--cells 6 --steps 20"
    if [ -n "$MDPY" ]; then
      for p in mixed double; do
        say "== examples/python/md_gpu.py $MDA --backend $BE --precision $p (ASE's velocity Verlet)"
        $MDPY examples/python/md_gpu.py $MDA --backend $BE --precision $p >"$W/md_gpu_$p.txt" 2>&1
        tail -n 12 "$W/md_gpu_$p.txt" | while read -r l; do say "$l"; done
      done
    else
      say "(examples/python/md_gpu.py skipped: ASE's MD needs scipy and numpy < 2, and no $CARRY/pyrt.tar.xz)"
    fi
    if python3 -c "import lammps" 2>/dev/null; then
      say "== tests/python/test_lammps.py (the bridge on the CPU in double against pair_style atm)"
      TB_BIN="$B" python3 tests/python/test_lammps.py >"$W/test_lammps.txt" 2>&1
      say "$(grep -c '^PASS' "$W/test_lammps.txt") passed, $(grep -c '^FAIL' "$W/test_lammps.txt") failed"
      grep '^FAIL\|^Traceback\|^[A-Za-z.]*Error' "$W/test_lammps.txt" | head -n 10 | while read -r l; do say "$l"; done
      M=20; SB=100; SR=10; [ "$BE" = cpu ] && M=6 && SB=5 && SR=2
      say "== LAMMPS + tribody ATM (bridge, $BE, mixed): examples/lammps/atm_gpu.py --m $M --steps $SB"
      python3 examples/lammps/atm_gpu.py --m $M --steps $SB --backend $BE >"$W/atm_gpu.txt" 2>&1
      tail -n 2 "$W/atm_gpu.txt" | while read -r l; do say "$l"; done
      bridge=$(sed -n 's/.*: \([0-9.]*\) steps\/s.*/\1/p' "$W/atm_gpu.txt" | head -n 1)
      np=$(nproc)
      if [ -n "$LMP" ] && command -v mpirun >/dev/null 2>&1; then
        say "== LAMMPS pair_style atm on $np cores: mpirun -np $np lmp -in atm_ref.in -var m $M -var steps $SR"
        (cd examples/lammps && OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 400 \
          mpirun -np "$np" --bind-to core -x LD_LIBRARY_PATH "$LMP" -in atm_ref.in -var m $M \
          -var steps $SR -log none -screen "$WA/atm_ref.txt") >"$W/atm_ref_mpirun.txt" 2>&1
        loop=$(grep -m1 '^Loop time' "$W/atm_ref.txt" 2>/dev/null)
        if [ -n "$loop" ]; then
          ref=$(echo "$loop" | awk '{print $9 / $4}')
          say "$loop: $ref steps/s"
          [ -n "$bridge" ] && say "LAMMPS + tribody ATM ($BE, 1 process): $bridge steps/s; LAMMPS pair_style atm ($np cores): $ref steps/s; ratio $(echo "$bridge $ref" | awk '{printf "%.1f", $1 / $2}')x"
        else
          say "FAIL: mpirun lmp atm_ref.in: $(tail -n 2 "$W/atm_ref_mpirun.txt" | tr '\n' ' ')"
        fi
      else
        say "(no lmp binary or mpirun: the pair_style atm reference on all cores skipped)"
      fi
    else
      say "(no python3-lammps, on the machine or in $CARRY/lammps.tar.xz: the bridge skipped)"
    fi
  fi
  rm -rf "$W/carry" # what was unpacked (up to ~120 MB) is no log: logs.tgz stays small
