# scripts/gpu-check.d/observables.sh — scripts/gpu-check's mode `observables`: output.rdf and output.msd (issue 21, part 2). Sourced by scripts/gpu-check
# (its variables B, W, S, OUT and its say() are in scope); see its header for what it shows.
#
# 1. The GPU's pair histograms = the CPU's (rdf.csv of one frame, byte for byte): the LAMMPS
#    cases at r_max near half their box (the all-pairs fallback) and at short range (the cells,
#    physics/rdf_cells.h), the ppf slab (cells over an open axis), the liquid after 200 GPU
#    steps at n = 32768 and 10^5 (cells), the Ar-Kr mixture after 200 GPU steps.
# 2. The cost of output.rdf every 100 steps and of output.msd every 100 steps on the liquid of
#    examples/liquid.cfg (mixed) at n = 32768 and 10^6 (box (n / 0.8)^(1/3)): the same run
#    with neither, with rdf, with msd; a g(r) sample against 100 steps (target <= 2 %) and the
#    runs' walls.
# 3. The plots rdf.png and msd.png (gnuplot) come back in $OUT.
#
# A dry run without a GPU (both sides on the CPU, small sizes), e.g.
#   GPU_CHECK_BACKEND=cpu GPU_CHECK_OBS_SAME_N="2048 4000" GPU_CHECK_OBS_COST_N="2048 4000" \
#     GPU_CHECK_OBS_STEPS=200 GPU_CHECK_OBS_PRESTEPS=20 scripts/gpu-check observables
  BE=${GPU_CHECK_BACKEND:-gpu} # cpu: a dry run of this mode's logic on a machine without a GPU
  SAME_N=${GPU_CHECK_OBS_SAME_N:-32768 100000}
  COST_N=${GPU_CHECK_OBS_COST_N:-32768 1000000}
  PRESTEPS=${GPU_CHECK_OBS_PRESTEPS:-200}
  liq_box() { python3 -c "print(repr(($1 / 0.8) ** (1.0 / 3.0)))"; } # liquid.cfg's density
  rdf_same() { # label config [--set ...]: step 0 on $BE and on the CPU, rdf.csv compared
    local label=$1 c=$2; shift 2
    for be in $BE cpu; do
      rm -rf "$W/rdf_$be"; mkdir -p "$W/rdf_$be"
      ( cd "$W/rdf_$be" && "$OLDPWD/$B" run "$c" --set integrator.steps=0 --set solver.backend=$be \
          --set output.rdf.every=1 --set output.thermo=\"\" --set output.trajectory=\"\" \
          --set output.checkpoint=\"\" "$@" >out.txt 2>&1; echo "exit $?" >>out.txt )
      cat "$W/rdf_$be/out.txt" >>"$W/rdf_same.txt"
    done
    if [ -s "$W/rdf_$BE/rdf.csv" ] && cmp -s "$W/rdf_$BE/rdf.csv" "$W/rdf_cpu/rdf.csv"; then
      say "PASS: $label: $BE rdf.csv = CPU rdf.csv ($(grep -c . "$W/rdf_$BE/rdf.csv") lines; $(grep 'g(r):' "$W/rdf_$BE/out.txt" | sed 's/^ *//'); CPU: $(grep 'g(r):' "$W/rdf_cpu/out.txt" | sed 's/^ *//; s/ (.*//'))"
    else
      say "FAIL: $label: $BE and CPU rdf.csv differ or missing ($(tail -n 2 "$W/rdf_$BE/out.txt" | tr '\n' ' '))"
    fi
  }
  say "== output.rdf: $BE histograms = CPU histograms (one frame, rdf.csv byte for byte)"
  for c in mix_ortho tri_two; do
    rdf_same "$c (two species, r_max 2.5: all pairs)" "$PWD/tests/lammps/$c.cfg" --set output.rdf.bins=50 --set output.rdf.r_max=2.5
  done
  rdf_same "mix_ortho (two species, r_max 1.25: cells)" "$PWD/tests/lammps/mix_ortho.cfg" --set output.rdf.bins=25 --set output.rdf.r_max=1.25
  rdf_same "tri_two (triclinic, r_max 1.2: cells)" "$PWD/tests/lammps/tri_two.cfg" --set output.rdf.bins=30 --set output.rdf.r_max=1.2
  rdf_same "slab_ppf (ppf, r_max 1.0: cells over the open z)" "$PWD/tests/lammps/slab_ppf.cfg" --set output.rdf.bins=40 --set output.rdf.r_max=1.0
  for n in $SAME_N; do
    L=$(liq_box $n)
    ( cd "$W" && "$OLDPWD/$B" run "$OLDPWD/examples/liquid.cfg" --set system.particles=$n --set system.box=$L \
        --set solver.backend=$BE --set integrator.steps=$PRESTEPS --set output.thermo=\"\" --set output.trajectory=\"\" \
        --set output.checkpoint=\"\" --set output.data=\"liquid_$n.data\" >pre_$n.txt 2>&1 )
    # the liquid of examples/liquid.cfg read back from its data file (a data file gives the box)
    cat >"$W/liq_$n.cfg" <<CFG
system = { particles = $n; boundary = "periodic"; init = { type = "lammps"; file = "liquid_$n.data"; }; };
potential = { lj = { epsilon = 1.0; sigma = 1.0; cutoff = 2.5; shift = true; };
              atm = { nu = 0.0703; cutoff = 4.5; }; };
solver = { precision = "mixed"; };
CFG
    rdf_same "liquid n=$n after $PRESTEPS $BE steps (cells)" "$W/liq_$n.cfg" --set output.rdf.bins=300
  done
  ( cd "$W" && "$OLDPWD/$B" run "$OLDPWD/examples/ar-kr.cfg" --set solver.backend=$BE --set integrator.steps=$PRESTEPS \
      --set output.thermo=\"\" --set output.trajectory=\"\" --set output.checkpoint=\"\" --set output.data=\"arkr200.data\" >a200.txt 2>&1 )
  rdf_same "Ar-Kr after $PRESTEPS $BE steps" "$PWD/examples/ar-kr.cfg" --set system.init.file=\"$W/arkr200.data\" \
      --set output.rdf.bins=200
  cp "$W/rdf_$BE/rdf.csv" "$OUT/rdf-arkr.csv" 2>/dev/null
  cp "$W/rdf_$BE/rdf.png" "$OUT/rdf-arkr.png" 2>/dev/null

  say "== the cost of output.rdf and output.msd every 100 steps: liquid, mixed, on $BE (none / rdf / msd, same run)"
  for n in $COST_N; do
    L=$(liq_box $n)
    steps=3000 reps=2
    [ $n -gt 100000 ] && steps=300 reps=1
    steps=${GPU_CHECK_OBS_STEPS:-$steps}
    for k in $(seq 1 $reps); do
      for what in none rdf msd; do
        set -- --set system.particles=$n --set system.box=$L --set solver.backend=$BE --set integrator.steps=$steps \
          --set output.thermo_every=$steps --set output.trajectory=\"\" --set output.checkpoint=\"\"
        [ $what = rdf ] && set -- "$@" --set output.rdf.every=100
        [ $what = msd ] && set -- "$@" --set output.msd.every=100
        ( cd "$W" && rm -f thermo.csv* rdf.* msd.* && "$OLDPWD/$B" run "$OLDPWD/examples/liquid.cfg" "$@" >cost_${n}_${what}_$k.txt 2>&1
          echo "exit $?" >>cost_${n}_${what}_$k.txt )
        say "n=$n $what (#$k): $(grep -E 'steps of' "$W/cost_${n}_${what}_$k.txt" | sed 's/^ *//') $(grep -E 'g\(r\):|diffusion|^exit [^0]' "$W/cost_${n}_${what}_$k.txt" | sed 's/^ *//' | tr '\n' ' ')"
        [ $what = rdf ] && cp "$W/rdf.png" "$OUT/rdf-liquid-$n.png" 2>/dev/null
        [ $what = msd ] && cp "$W/msd.png" "$OUT/msd-liquid-$n.png" 2>/dev/null
      done
    done
  done
  python3 - "$W" "$COST_N" <<'PY' | tee -a "$S"
import re, sys, os
w, sizes = sys.argv[1], sys.argv[2].split()
def grab(f, pat):
    if not os.path.exists(f): return None
    m = re.search(pat, open(f).read()); return float(m.group(1)) if m else None
def wall(f): return grab(f, r"steps of .* in ([0-9.e+-]+) s")
def steps(f): return grab(f, r"(\d+) steps of")
def per(f): return grab(f, r"g\(r\): .*?, ([0-9.e+-]+) ms each")
for n in sizes:
    for k in (1, 2):
        f0, fr, fm = ("%s/cost_%s_%s_%d.txt" % (w, n, x, k) for x in ("none", "rdf", "msd"))
        if not os.path.exists(f0): continue
        off, on, msd, ms, st = wall(f0), wall(fr), wall(fm), per(fr), steps(f0)
        if None in (off, on, msd, ms, st):
            print("FAIL: n=%s cost run %d: missing numbers" % (n, k)); continue
        step = off / st * 1e3
        frac = ms / (100 * step) * 100
        print("%s: n=%s #%d: step %.4g ms; g(r) sample %.4g ms = %.3g %% of 100 steps (target <= 2 %%); "
              "run with/without rdf: %.4g / %.4g s (%+.2f %%)"
              % ("PASS" if frac <= 2 else "OVER", n, k, step, ms, frac, on, off, 100 * (on - off) / off))
        print("%s: n=%s #%d: output.msd every 100: run with/without: %.4g / %.4g s (%+.2f %%, target <= 2 %%)"
              % ("PASS" if (msd - off) / off <= 0.02 else "OVER", n, k, msd, off, 100 * (msd - off) / off))
PY
  say "== output.msd: D of the liquid (n=$(echo $COST_N | awk '{print $1}'), the msd run above)"
  grep -E "diffusion|temperature|pressure|density" "$W/cost_$(echo $COST_N | awk '{print $1}')_msd_1.txt" | tee -a "$S"
