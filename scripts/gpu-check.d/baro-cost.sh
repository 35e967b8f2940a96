# scripts/gpu-check.d/baro-cost.sh — scripts/gpu-check's mode `baro-cost` (issue 21): what MTK
# costs per step on the GPU when its box barely moves, so that the runs compared do the same
# work. nose-hoover alone against nose-hoover + mtk iso / aniso / tri with period 1e6 (the
# barostat's mass W ~ period^2: every step does all of MTK's work — the pressure tensor from the
# virial and the kinetic tensor, the box's and the particles' rescale — but the box moves by
# ~1e-12), on examples/liquid.cfg (mixed) at n = 32768 (300 steps, two takes interleaved) and
# 10^6 (100 steps, one take). The stepping time the run prints (set-up excluded).
# Sourced by scripts/gpu-check (B, W, S, OUT, say in scope). GPU_CHECK_BACKEND=cpu: a dry run
# at n = 600 (the ATM cutoff 4.5 needs n >= 584).
BE=${GPU_CHECK_BACKEND:-gpu}
if [ "$BE" = gpu ]; then sizes="32768:300:2 1000000:100:1"; else sizes="600:10:2"; fi
for nsk in $sizes; do
  n=${nsk%%:*} r=${nsk#*:}; st=${r%%:*} takes=${r##*:}
  say "== mtk's cost per step, box frozen (period 1e6): n = $n, $st steps (examples/liquid.cfg, mixed, $BE)"
  L=$(python3 -c "print(($n / 0.8) ** (1 / 3))")
  for k in $(seq 1 $takes); do
    for v in nh iso aniso tri; do
      set -- --set solver.backend=$BE --set system.particles=$n --set system.box=$L --set integrator.steps=$st \
             --set output.thermo=\"\" --set output.trajectory=\"\" --set output.checkpoint=\"\" \
             --set integrator.type=\"nose-hoover\" --set integrator.temperature=1.0
      [ $v != nh ] && set -- "$@" --set integrator.barostat.type=\"mtk\" --set integrator.barostat.pressure=1.0 \
                            --set integrator.barostat.period=1e6 --set integrator.barostat.coupling=\"$v\"
      "$B" run examples/liquid.cfg "$@" >"$W/bcost_${n}_${v}_$k.txt" 2>&1
      say "baro-cost n=$n $v (take $k): $(grep -E 'steps of n' "$W/bcost_${n}_${v}_$k.txt" | sed 's/.* in //') $(grep -i error "$W/bcost_${n}_${v}_$k.txt" | head -n 1)"
    done
  done
  python3 - "$W" "$n" "$takes" <<'PY' | tee -a "$S"
import re, sys
w, n, takes = sys.argv[1], sys.argv[2], int(sys.argv[3])
t = {}
for v in ('nh', 'iso', 'aniso', 'tri'):
    xs = []
    for k in range(1, takes + 1):
        m = re.search(r'steps of n.* in ([0-9.eE+-]+) s', open('%s/bcost_%s_%s_%d.txt' % (w, n, v, k)).read())
        if m: xs.append(float(m.group(1)))
    t[v] = min(xs) if xs else float('nan')
c = {v: (t[v] / t['nh'] - 1) * 100 for v in ('iso', 'aniso', 'tri')}
print('baro-cost n=%s (best of %d, s): nose-hoover %.4g; + mtk iso %.4g (%+.1f %%), aniso %.4g (%+.1f %%), '
      'tri %.4g (%+.1f %%); issue 21 target <= 5 %%: %s' % (n, takes, t['nh'], t['iso'], c['iso'], t['aniso'],
      c['aniso'], t['tri'], c['tri'], 'met' if max(c.values()) <= 5 else 'NOT met'))
PY
done
