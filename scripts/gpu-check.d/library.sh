# scripts/gpu-check.d/library.sh — scripts/gpu-check's mode `library`: the library (issue 22). Sourced by scripts/gpu-check
# (its variables B, W, S, OUT and its say() are in scope); see its header for what it shows.
  export TRIBODY_LIB=${TRIBODY_LIB:-$PWD/build/libtribody.so}
  [ -n "${TB_LIBDIR:-}" ] && export LD_LIBRARY_PATH="$TB_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  export PYTHONPATH="$PWD/python${PYTHONPATH:+:$PYTHONPATH}"
  if ! python3 -c "import numpy, tribody" >"$W/import.txt" 2>&1; then
    say "FAIL: python3 cannot import numpy and tribody: $(tail -n 1 "$W/import.txt")"
  else
    say "== the library on the GPU against the CPU (scripts/library-gpu-check)"
    python3 scripts/library-gpu-check >"$W/library.txt" 2>&1
    say "$(grep -c '^PASS' "$W/library.txt") passed, $(grep -c '^FAIL' "$W/library.txt") failed"
    grep '^FAIL\|Error' "$W/library.txt" | head -n 20 | while read -r l; do say "$l"; done
    for p in mixed double; do
      say "== scripts/bench-library --n 32768 --backend gpu --precision $p"
      python3 scripts/bench-library --n 32768 --backend gpu --precision $p --repeat 20 --bin "$B" \
        >"$W/bench_$p.txt" 2>&1
      while read -r l; do say "$l"; done <"$W/bench_$p.txt"
    done
    if python3 -c "import ase" 2>/dev/null; then
      say "== examples/python/md_gpu.py (ASE velocity Verlet, 4000 atoms)"
      python3 examples/python/md_gpu.py --steps 200 >"$W/md_gpu.txt" 2>&1
      tail -n 3 "$W/md_gpu.txt" | while read -r l; do say "$l"; done
    else
      say "(no ASE: examples/python/md_gpu.py skipped)"
    fi
    if python3 -c "import lammps" 2>/dev/null; then
      say "== examples/lammps/atm_gpu.py --bench (32000 atoms)"
      python3 examples/lammps/atm_gpu.py --m 20 --steps 50 --bench >"$W/atm_gpu.txt" 2>&1
      tail -n 3 "$W/atm_gpu.txt" | while read -r l; do say "$l"; done
    else
      say "(no python3-lammps: examples/lammps/atm_gpu.py skipped)"
    fi
  fi
