# scripts/gpu-check.d/baro.sh — scripts/gpu-check's mode `baro`: the barostats (issue 21). Sourced
# by scripts/gpu-check (its variables B, W, S, OUT and its say() are in scope); see its header
# for what it shows. GPU_CHECK_BACKEND=cpu: a dry run of this mode's logic without a GPU (the
# "GPU" runs then run on the CPU, the cost lines at small n).
  BE=${GPU_CHECK_BACKEND:-gpu}
  . scripts/gpu-check.d/baro-common.inc
  baro_cfg 300 langevin c-rescale
  say "== c-rescale: GPU vs CPU (double, Langevin), 300 steps; last row: volume, pressure, conserved"
  for cp in iso aniso; do
    for be in $BE cpu; do
      ( cd "$W" && rm -f thermo.csv* ck.tbck* && "$Bb" run baro.cfg --set solver.backend=$be \
          --set integrator.barostat.coupling=\"$cp\" >run_${cp}_$be.txt 2>&1; cp thermo.csv th_${cp}_$be.csv )
    done
    cmp_rows "$W/th_${cp}_$BE.csv" "$W/th_${cp}_cpu.csv" "c-rescale $cp GPU vs CPU" 1e-6
    ( cd "$W" && rm -f thermo.csv* ck*.tbck* tha.csv thb.csv
      "$Bb" run baro.cfg --set solver.backend=$BE --set solver.deterministic=true --set integrator.barostat.coupling=\"$cp\" \
         --set output.checkpoint=\"cka.tbck\" --set output.thermo=\"tha.csv\" >ra.txt 2>&1
      "$Bb" run baro.cfg --set solver.backend=$BE --set solver.deterministic=true --set integrator.barostat.coupling=\"$cp\" \
         --set output.checkpoint=\"ckb.tbck\" --set output.thermo=\"thb.csv\" --set integrator.steps=92 >rb.txt 2>&1
      "$Bb" run baro.cfg --set solver.backend=$BE --set solver.deterministic=true --set integrator.barostat.coupling=\"$cp\" \
         --set output.checkpoint=\"ckb.tbck\" --set output.thermo=\"thb.csv\" --restart ckb.tbck >rc.txt 2>&1 )
    if cmp -s "$W/cka.tbck" "$W/ckb.tbck" && cmp -s "$W/tha.csv" "$W/thb.csv"; then say "PASS: c-rescale $cp $BE deterministic: 300 steps = 92 + restart + 208, checkpoint and thermo bitwise"; else say "FAIL: c-rescale $cp $BE restart differs ($(tail -n 2 "$W/rc.txt" | tr '\n' ' '))"; fi
  done
  # MTK (nose-hoover): iso, aniso and tri, 200 steps (a liquid's shape wanders freely: tri's
  # tilts stay well inside the skew limits over 200 steps); the chaos of 500 atoms over 0.8 tau
  # grows rounding by about 1e3, so double agrees to ~1e-12
  say "== mtk (nose-hoover): GPU vs CPU (double), 200 steps; thermo's last row"
  mtkset='--set integrator.type="nose-hoover" --set integrator.barostat.type="mtk" --set integrator.barostat.period=2.0 --set integrator.steps=200'
  for cp in iso aniso tri; do
    for be in $BE cpu; do
      # shellcheck disable=SC2086
      ( cd "$W" && rm -f thermo.csv* ck.tbck* && "$Bb" run baro.cfg --set solver.backend=$be $mtkset \
          --set integrator.barostat.coupling=\"$cp\" >run_mtk_${cp}_$be.txt 2>&1
        cp thermo.csv th_mtk_${cp}_$be.csv ) || say "FAIL: mtk $cp $be: $(tail -n 1 "$W/run_mtk_${cp}_$be.txt")"
    done
    cmp_rows "$W/th_mtk_${cp}_$BE.csv" "$W/th_mtk_${cp}_cpu.csv" "mtk $cp GPU vs CPU" 1e-10
  done
  for cp in aniso tri; do
    # shellcheck disable=SC2086
    ( cd "$W" && rm -f thermo.csv* ck*.tbck* tha.csv thb.csv
      "$Bb" run baro.cfg --set solver.backend=$BE --set solver.deterministic=true $mtkset --set integrator.barostat.coupling=\"$cp\" \
         --set output.checkpoint=\"cka.tbck\" --set output.thermo=\"tha.csv\" >ra.txt 2>&1
      "$Bb" run baro.cfg --set solver.backend=$BE --set solver.deterministic=true $mtkset --set integrator.barostat.coupling=\"$cp\" \
         --set output.checkpoint=\"ckb.tbck\" --set output.thermo=\"thb.csv\" --set integrator.steps=77 >rb.txt 2>&1
      "$Bb" run baro.cfg --set solver.backend=$BE --set solver.deterministic=true $mtkset --set integrator.barostat.coupling=\"$cp\" \
         --set output.checkpoint=\"ckb.tbck\" --set output.thermo=\"thb.csv\" --restart ckb.tbck >rc.txt 2>&1 )
    if cmp -s "$W/cka.tbck" "$W/ckb.tbck" && cmp -s "$W/tha.csv" "$W/thb.csv"; then say "PASS: mtk $cp $BE deterministic: 200 steps = 77 + restart + 123, checkpoint and thermo bitwise"; else say "FAIL: mtk $cp $BE restart differs ($(tail -n 2 "$W/rc.txt" | tr '\n' ' '))"; fi
  done
  # The cost per step of a barostat on the liquid (examples/liquid.cfg, mixed): nve, nve +
  # c-rescale every 10 (compressibility 1e-9: the barostat does all its work but the box stays
  # put), nose-hoover, nose-hoover + mtk iso (the box moves: its list rebuilds are its cost).
  # Two takes each, interleaved. n = 32768 and 10^6 (GPU); 600 and 864 in a dry run (the ATM
  # cutoff 4.5 needs n >= 584).
  if [ "$BE" = gpu ]; then sizes="32768:300 1000000:100"; else sizes="600:10 864:10"; fi
  for ns in $sizes; do
    n=${ns%%:*} st=${ns##*:}
    say "== the cost of a barostat: n = $n, $st steps each (examples/liquid.cfg, mixed, backend $BE; box for rho 0.8)"
    L=$(python3 -c "print(($n / 0.8) ** (1 / 3))")
    for k in 1 2; do
      for v in nve nve+c-rescale nose-hoover nose-hoover+mtk; do
        set -- --set solver.backend=$BE --set system.particles=$n --set system.box=$L --set integrator.steps=$st \
               --set output.thermo=\"\" --set output.trajectory=\"\" --set output.checkpoint=\"\"
        case $v in
          nve+c-rescale) set -- "$@" --set integrator.barostat.type=\"c-rescale\" --set integrator.barostat.pressure=1.0 \
                           --set integrator.barostat.every=10 --set integrator.barostat.compressibility=1e-9 ;;
          nose-hoover) set -- "$@" --set integrator.type=\"nose-hoover\" --set integrator.temperature=1.0 ;;
          nose-hoover+mtk) set -- "$@" --set integrator.type=\"nose-hoover\" --set integrator.temperature=1.0 \
                             --set integrator.barostat.type=\"mtk\" --set integrator.barostat.pressure=1.0 \
                             --set integrator.barostat.period=2.0 ;;
        esac
        "$B" run examples/liquid.cfg "$@" >"$W/cost_${n}_${v}_$k.txt" 2>&1
        say "cost n=$n $v (take $k): $(grep -E 'steps of n' "$W/cost_${n}_${v}_$k.txt" | sed 's/.* in //') $(grep -i error "$W/cost_${n}_${v}_$k.txt" | head -n 1)"
      done
    done
    python3 - "$W" "$n" <<'PY' | tee -a "$S"
import re, sys, glob
w, n = sys.argv[1], sys.argv[2]
t = {}
for v in ('nve', 'nve+c-rescale', 'nose-hoover', 'nose-hoover+mtk'):
    xs = []
    for k in (1, 2):
        m = re.search(r'steps of n.* in ([0-9.eE+-]+) s', open('%s/cost_%s_%s_%d.txt' % (w, n, v, k)).read())
        if m: xs.append(float(m.group(1)))
    t[v] = min(xs) if xs else float('nan')
a = (t['nve+c-rescale'] / t['nve'] - 1) * 100
b = (t['nose-hoover+mtk'] / t['nose-hoover'] - 1) * 100
print('cost n=%s (best of 2, s): nve %.4g, +c-rescale %.4g (%+.1f %%), nose-hoover %.4g, +mtk %.4g (%+.1f %%); '
      'issue 21 target <= 5 %%: %s' % (n, t['nve'], t['nve+c-rescale'], a, t['nose-hoover'],
      t['nose-hoover+mtk'], b, 'met' if a <= 5 and b <= 5 else 'NOT met'))
PY
  done
