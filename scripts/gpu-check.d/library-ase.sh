# scripts/gpu-check.d/library-ase.sh — scripts/gpu-check's mode `library-ase`: issue 22's goal of
# an ASE force call within 1.2x of `tribody bench`'s force evaluation (N = 32768 liquid, one
# GPU), this build's library and Python package against a previous build's, alternated. Sourced
# by scripts/gpu-check (its variables B, W, S, OUT and its say() are in scope).
#
# For each precision (mixed, double) and series (1 .. LA_SERIES, 4): scripts/bench-library
# --repeat LA_CALLS (200 ASE / API calls a series; bench's own evaluations: 100) of the
# previous build (TB_PREV_LIB = its libtribody.so, TB_PREV_PYTHON = the folder holding its
# tribody package: python/ of its checkout), then of this one (build/libtribody.so or
# TRIBODY_LIB, python/); without TB_PREV_LIB this build alone. bench-library's own `tribody
# bench --liquid` (binary $B) in each run is the reference; the summary keeps, per run, bench's
# ms/force, the API and ASE force calls' totals and ratios (goal <= 1.2; and the overhead on
# bench's own evaluation, "(bench + overhead) / bench": bench's state evaluates 7-9 % slower
# than the API's), the ASE call's rest split (the caller's set_positions, check_state,
# calculate's Python, tribody's phases, get_forces' copy) and the host passes (numpy against
# the library's threads); then one RATIO line per build and precision, each series' ratio
# and their median. About 1 minute on an H200 with a third build (TB_NEW_ENV).
# ASE from the machine, else from build/carry/ase.tar.xz (TB_CARRY: another folder;
# scripts/carry-library ase). TB_LIBDIR: a folder of the shared libraries the library needs
# (libconfig, GSL, libgomp) put on LD_LIBRARY_PATH. TB_NEW_ENV="VAR=value ...": a third run of
# this build per series with those variables set, labelled new-env (an A/B of a switch in one
# call, e.g. TB_ZEROCOPY=0: the staging copies); TB_NEW_ENV2: a fourth, labelled new-env2 (the
# pieces of a change apart, e.g. TB_ASE_FAST=0 TB_ONE_WAIT=0 and TB_ONE_WAIT=0).
# GPU_CHECK_BACKEND=cpu: a dry run at N = 2048.
  BE=${GPU_CHECK_BACKEND:-gpu}
  NB=32768; RB=${LA_CALLS:-200}; BR=100; NS=${LA_SERIES:-4}; [ "$BE" = cpu ] && NB=2048 && RB=3 && BR=2 && NS=2
  NEW_LIB=${TRIBODY_LIB:-$PWD/build/libtribody.so}
  [ -n "${TB_LIBDIR:-}" ] && export LD_LIBRARY_PATH="$TB_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  CARRY=${TB_CARRY:-build/carry}
  if ! python3 -c "import ase" 2>/dev/null && [ -f "$CARRY/ase.tar.xz" ]; then
    mkdir -p "$W/carry" && tar -C "$W/carry" -xJf "$CARRY/ase.tar.xz"
    export PYTHONPATH="$(cd "$W/carry" && pwd)${PYTHONPATH:+:$PYTHONPATH}"
  fi
  say "== $(python3 -c 'import sys, numpy, ase; print("Python", sys.version.split()[0], "numpy", numpy.__version__, "ASE", ase.__version__)' 2>&1 | tail -n 1); $(nproc) cores; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
  builds="new"
  [ -n "${TB_PREV_LIB:-}" ] && builds="prev new"
  [ -n "${TB_NEW_ENV:-}" ] && builds="$builds new-env"
  [ -n "${TB_NEW_ENV2:-}" ] && builds="$builds new-env2"
  for p in mixed double; do
    for s in $(seq 1 $NS); do
      for v in $builds; do
        if [ "$v" = prev ]; then lib=$TB_PREV_LIB; py=${TB_PREV_PYTHON:-$PWD/python}; else lib=$NEW_LIB; py=$PWD/python; fi
        envs=(); [ "$v" = new-env ] && read -r -a envs <<<"$TB_NEW_ENV"
        [ "$v" = new-env2 ] && read -r -a envs <<<"$TB_NEW_ENV2"
        f="$W/bench_${p}_${s}_$v.txt"
        env "${envs[@]}" TRIBODY_LIB=$lib timeout 120 python3 scripts/bench-library --n $NB --backend $BE \
          --precision $p --repeat $RB --bench-repeat $BR --bin "$B" --python "$py" >"$f" 2>&1
        say "== $v${envs[*]:+ (${envs[*]})}, $p, series $s: scripts/bench-library --n $NB --backend $BE --precision $p --repeat $RB (rc $?)"
        grep -E '^\| `tribody bench --liquid` ms/force \| [0-9.]+ ms|^\| \*\*total|^\| \*\*(API|ASE) force call / bench|^\| \*\*\(bench \+|^\| (set_positions|upload|evaluate \(|download|finiteness|copy of|Python)' "$f" |
          while read -r l; do say "$l"; done
        sed -n '/^| ASE force call, the rest split/,/^$/p; /^| host pass over/,$p' "$f" | grep '^|' | grep -v -- '---' |
          while read -r l; do say "$l"; done
        grep -m3 '^Traceback\|Error' "$f" | while read -r l; do say "FAIL: $l"; done
      done
    done
  done
  # the ratios side by side (ASE / bench of each run: goal <= 1.2), and their median
  med() { [ $# -gt 0 ] && printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {printf "%.2f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}' || echo n/a; }
  for v in $builds; do
    for p in mixed double; do
      r=$(grep -h '^| \*\*ASE force call / bench' "$W"/bench_${p}_*_$v.txt 2>/dev/null | sed 's/.*\*\*\([0-9.]*\)\*\*.*/\1/' | tr '\n' ' ')
      a=$(grep -h '^| \*\*API force call / bench' "$W"/bench_${p}_*_$v.txt 2>/dev/null | sed 's/.*\*\*\([0-9.]*\)\*\*.*/\1/' | tr '\n' ' ')
      o=$(grep -h '^| \*\*(bench + ASE' "$W"/bench_${p}_*_$v.txt 2>/dev/null | sed 's/.*\*\*\([0-9.]*\)\*\*.*/\1/' | tr '\n' ' ')
      say "RATIO $v $p: ASE/bench ${r:-n/a}(median $(med $r)); API/bench ${a:-n/a}(median $(med $a)); (bench + the ASE call's overhead)/bench ${o:-n/a}(median $(med $o))"
    done
  done
  rm -rf "$W/carry"
