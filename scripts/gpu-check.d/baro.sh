# scripts/gpu-check.d/baro.sh — scripts/gpu-check's mode `baro`: the barostats (issue 21, part 1). Sourced by scripts/gpu-check
# (its variables B, W, S, OUT and its say() are in scope); see its header for what it shows.
  bcfg="$W/baro.cfg"
  cat >"$bcfg" <<CFG
system = { particles = 500; seed = 4; boundary = "periodic"; box = 8.5;
  init = { type = "random"; min_distance = 0.9; temperature = 1.0; }; };
potential = { atm = { nu = 0.0703; cutoff = 2.5; }; lj = { cutoff = 2.5; }; };
integrator = { dt = 0.004; steps = 300; type = "langevin"; temperature = 1.0;
  barostat = { type = "c-rescale"; pressure = 1.0; period = 0.5; }; };
solver = { backend = "gpu"; precision = "double"; };
output = { thermo = "thermo.csv"; thermo_every = 50; trajectory = ""; checkpoint = "ck.tbck"; };
CFG
  Bb=$(cd "$(dirname "$B")" && pwd)/$(basename "$B")
  say "== c-rescale: GPU vs CPU (double, Langevin), 300 steps; last row: volume, pressure, conserved"
  for cp in iso aniso; do
    for be in gpu cpu; do
      ( cd "$W" && rm -f thermo.csv* ck.tbck* && "$Bb" run baro.cfg --set solver.backend=$be \
          --set integrator.barostat.coupling=\"$cp\" >run_${cp}_$be.txt 2>&1; cp thermo.csv th_${cp}_$be.csv )
    done
    python3 - "$W/th_${cp}_gpu.csv" "$W/th_${cp}_cpu.csv" "$cp" <<'PY' | tee -a "$S"
import csv, sys
def last(p):
    rows = [r for r in csv.reader(open(p)) if r and not r[0].startswith('#')]
    h = rows[0]; return {k: float(v) for k, v in zip(h, rows[-1]) if v}
g, c = last(sys.argv[1]), last(sys.argv[2])
d = {k: abs(g[k] - c[k]) / max(abs(c[k]), 1e-300) for k in ('volume', 'pressure', 'conserved', 'lx', 'lz')}
ok = d['volume'] < 1e-6 and d['conserved'] < 1e-6
print(('PASS' if ok else 'FAIL') + ': c-rescale %s GPU vs CPU after 300 steps: volume %.9g vs %.9g (rel %.2g), '
      'pressure rel %.2g, conserved rel %.2g, lx/lz rel %.2g/%.2g' % (sys.argv[3], g['volume'], c['volume'],
      d['volume'], d['pressure'], d['conserved'], d['lx'], d['lz']))
PY
    ( cd "$W" && rm -f thermo.csv* ck*.tbck* tha.csv thb.csv
      "$Bb" run baro.cfg --set solver.deterministic=true --set integrator.barostat.coupling=\"$cp\" \
         --set output.checkpoint=\"cka.tbck\" --set output.thermo=\"tha.csv\" >ra.txt 2>&1
      "$Bb" run baro.cfg --set solver.deterministic=true --set integrator.barostat.coupling=\"$cp\" \
         --set output.checkpoint=\"ckb.tbck\" --set output.thermo=\"thb.csv\" --set integrator.steps=92 >rb.txt 2>&1
      "$Bb" run baro.cfg --set solver.deterministic=true --set integrator.barostat.coupling=\"$cp\" \
         --set output.checkpoint=\"ckb.tbck\" --set output.thermo=\"thb.csv\" --restart ckb.tbck >rc.txt 2>&1 )
    if cmp -s "$W/cka.tbck" "$W/ckb.tbck" && cmp -s "$W/tha.csv" "$W/thb.csv"; then say "PASS: c-rescale $cp GPU deterministic: 300 steps = 92 + restart + 208, checkpoint and thermo bitwise"; else say "FAIL: c-rescale $cp GPU restart differs ($(tail -n 2 "$W/rc.txt" | tr '\n' ' '))"; fi
  done
  # compressibility 1e-9: the barostat does all its work (virial, kinetic per axis, the stretch
  # kernel, the lists' stretched skin test) but the box stays put, so both runs see the same
  # density (at the default 0.1 this liquid expands and the run gets cheaper)
  say "== mtk iso (nose-hoover): GPU vs CPU (double), 300 steps; thermo's last row"
  for be in gpu cpu; do
    ( cd "$W" && rm -f thermo.csv* ck.tbck* && "$Bb" run baro.cfg --set solver.backend=$be \
        --set integrator.type=\"nose-hoover\" --set integrator.barostat.type=\"mtk\" \
        --set integrator.barostat.period=2.0 >run_mtk_$be.txt 2>&1
      cp thermo.csv th_mtk_$be.csv )
    say "mtk $be: $(tail -n 1 "$W/th_mtk_$be.csv" | cut -d, -f1,10,14,18,25)   (step, pressure, conserved, volume, density)"
  done
  say "== the cost of a barostat: nve 1000 steps at n = 32768 (examples/liquid.cfg, mixed), without and with c-rescale every 10 (compressibility 1e-9: the same box)"
  for k in 1 2; do
    for with in no yes; do
      set -- --set integrator.steps=1000 --set output.thermo=\"\" --set output.trajectory=\"\" --set output.checkpoint=\"\"
      [ $with = yes ] && set -- "$@" --set integrator.barostat.type=c-rescale --set integrator.barostat.pressure=1.0 --set integrator.barostat.every=10 --set integrator.barostat.compressibility=1e-9
      "$B" run examples/liquid.cfg "$@" >"$W/cost_${with}_$k.txt" 2>&1
      say "barostat $with (take $k): $(grep -E 'steps of n' "$W/cost_${with}_$k.txt" | sed 's/.* in //') $(grep -i error "$W/cost_${with}_$k.txt" | head -n 1)"
    done
  done
