# scripts/gpu-check.d/observables.sh — scripts/gpu-check's mode `observables`: output.rdf and output.msd (issue 21, part 2). Sourced by scripts/gpu-check
# (its variables B, W, S, OUT and its say() are in scope); see its header for what it shows.
  rdf_same() { # label config [--set ...]: step 0 on the GPU and the CPU, rdf.csv compared
    local label=$1 c=$2; shift 2
    for be in gpu cpu; do
      rm -rf "$W/rdf_$be"; mkdir -p "$W/rdf_$be"
      ( cd "$W/rdf_$be" && "$OLDPWD/$B" run "$c" --set integrator.steps=0 --set solver.backend=$be \
          --set output.rdf.every=1 --set output.thermo=\"\" --set output.trajectory=\"\" \
          --set output.checkpoint=\"\" "$@" >out.txt 2>&1; echo "exit $?" >>out.txt )
      cat "$W/rdf_$be/out.txt" >>"$W/rdf_same.txt"
    done
    if [ -s "$W/rdf_gpu/rdf.csv" ] && cmp -s "$W/rdf_gpu/rdf.csv" "$W/rdf_cpu/rdf.csv"; then
      say "PASS: $label: GPU rdf.csv = CPU rdf.csv ($(grep -c . "$W/rdf_gpu/rdf.csv") lines; $(grep 'g(r):' "$W/rdf_gpu/out.txt" | sed 's/^ *//'))"
    else
      say "FAIL: $label: GPU and CPU rdf.csv differ or missing ($(tail -n 2 "$W/rdf_gpu/out.txt" | tr '\n' ' '))"
    fi
  }
  say "== output.rdf: GPU histograms = CPU histograms (one frame, rdf.csv byte for byte)"
  for c in mix_ortho tri_two; do
    rdf_same "$c (two species)" "$PWD/tests/lammps/$c.cfg" --set output.rdf.bins=50 --set output.rdf.r_max=2.5
  done
  ( cd "$W" && "$OLDPWD/$B" run "$OLDPWD/examples/liquid.cfg" --set integrator.steps=200 --set output.thermo=\"\" \
      --set output.trajectory=\"\" --set output.checkpoint=\"\" --set output.data=\"liquid200.data\" >l200.txt 2>&1 )
  # the liquid of examples/liquid.cfg read back from its data file (a data file gives the box)
  cat >"$W/liq200.cfg" <<CFG
system = { particles = 32768; boundary = "periodic"; init = { type = "lammps"; file = "liquid200.data"; }; };
potential = { lj = { epsilon = 1.0; sigma = 1.0; cutoff = 2.5; shift = true; };
              atm = { nu = 0.0703; cutoff = 4.5; }; };
solver = { precision = "mixed"; };
CFG
  rdf_same "liquid n=32768 after 200 GPU steps" "$W/liq200.cfg" --set output.rdf.bins=300
  ( cd "$W" && "$OLDPWD/$B" run "$OLDPWD/examples/ar-kr.cfg" --set integrator.steps=200 --set output.thermo=\"\" \
      --set output.trajectory=\"\" --set output.checkpoint=\"\" --set output.data=\"arkr200.data\" >a200.txt 2>&1 )
  rdf_same "Ar-Kr after 200 GPU steps" "$PWD/examples/ar-kr.cfg" --set system.init.file=\"$W/arkr200.data\" \
      --set output.rdf.bins=200
  say "== the cost of g(r) every 100 steps: liquid n = 32768, mixed, 3000 steps (thermo every 1000)"
  for k in 1 2; do
    for rdf in off on; do
      set -- --set integrator.steps=3000 --set output.thermo_every=1000 --set output.trajectory=\"\" --set output.checkpoint=\"\"
      [ $rdf = on ] && set -- "$@" --set output.rdf.every=100
      ( cd "$W" && rm -f thermo.csv* rdf.* && "$OLDPWD/$B" run "$OLDPWD/examples/liquid.cfg" "$@" >cost_${rdf}_$k.txt 2>&1 )
      say "rdf $rdf (#$k): $(grep -E 'steps of' "$W/cost_${rdf}_$k.txt" | sed 's/^ *//') $(grep -E 'g\(r\):' "$W/cost_${rdf}_$k.txt" | sed 's/^ *//')"
    done
  done
  python3 - "$W" <<'PY' | tee -a "$S"
import re, sys, glob
w = sys.argv[1]
def wall(f):
    m = re.search(r"steps of .* in ([0-9.e+-]+) s", open(f).read()); return float(m.group(1)) if m else None
def per(f):
    m = re.search(r"g\(r\): .*?, ([0-9.e+-]+) ms each", open(f).read()); return float(m.group(1)) if m else None
for k in (1, 2):
    off, on = wall(f"{w}/cost_off_{k}.txt"), wall(f"{w}/cost_on_{k}.txt"); ms = per(f"{w}/cost_on_{k}.txt")
    if None in (off, on, ms):
        print("FAIL: cost run", k, "missing numbers"); continue
    step = off / 3000 * 1e3
    frac = ms / (100 * step) * 100
    print("%s: #%d step %.4g ms; g(r) sample %.4g ms = %.3g %% of 100 steps (target <= 2 %%); run with/without: %.4g / %.4g s (%+.2f %%)"
          % ("PASS" if frac <= 2 else "OVER", k, step, ms, frac, on, off, 100 * (on - off) / off))
PY
  say "== output.msd on the GPU: liquid, 2000 steps, MSD every 100"
  ( cd "$W" && rm -f thermo.csv* && "$OLDPWD/$B" run "$OLDPWD/examples/liquid.cfg" --set integrator.steps=2000 \
      --set output.trajectory=\"\" --set output.checkpoint=\"\" --set output.msd.every=100 >msd.txt 2>&1; echo "exit $?" >>msd.txt )
  grep -E "diffusion|exit|temperature|pressure|density" "$W/msd.txt" | tee -a "$S"
  cp "$W"/rdf_gpu/rdf.csv "$OUT/rdf-arkr.csv" 2>/dev/null
  cp "$W"/rdf_gpu/rdf.png "$OUT/rdf-arkr.png" 2>/dev/null
