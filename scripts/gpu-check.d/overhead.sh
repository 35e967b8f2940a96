# scripts/gpu-check.d/overhead.sh — scripts/gpu-check's mode `overhead` (issue 23, host side): what a
# real `tribody run` of examples/liquid.cfg costs beyond `bench --liquid`, before (build/tribody-prev,
# or $TB_PREV) and after ($B), in one call. Sourced by scripts/gpu-check (B, W, S, OUT, say in scope).
#   · per step: run (thermo every 100, trajectory and checkpoint every 1000) against bench --liquid
#     at N = 32768, 1e5, 1e6 in mixed precision and 32768 in double; the list builds of each
#     (a run from the random start heats up and rebuilds more often than the bench's fcc start)
#   · set-up of the run: process wall time less the stepping time the run's summary prints
#     (configuration, random placement, backend, lists, first evaluation, step-0 outputs)
#   · the non-force share of a bench step, 1 - ms/force / ms/step; 1e7 atoms in bench (new build)
#   · bitwise: deterministic 200-step liquid runs (n = 4000, mixed and double), prev vs new:
#     cmp of the checkpoints and thermo files; and 100 + restart + 100 = 200 (new)
# GPU_CHECK_BACKEND=cpu: a dry run on a machine without a GPU (n = 2048, a few steps).
BE=${GPU_CHECK_BACKEND:-gpu}
P=${TB_PREV:-build/tribody-prev}
[ -x "$P" ] || { say "FAIL: no $P (the binary before the change)"; P=""; }
lq="$PWD/examples/liquid.cfg"
if [ "$BE" = cpu ]; then sizes="2048"; steps_for() { echo 20; }; bflag="--cpu --repeat 1"; bsteps=2
else sizes="32768 100000 1000000"; bflag="--repeat 3"; bsteps=40
  steps_for() { case $1 in 32768) echo 400 ;; 100000) echo 200 ;; *) echo 100 ;; esac; }
fi
. scripts/gpu-check.d/run-vs-bench.inc # box, one_run, one_bench
say "== run vs bench --liquid per step ($BE); set-up = process wall - stepping; builds run / bench"
say "$(printf '%-6s %8s %-6s %10s %10s %7s %9s %11s %9s' build n prec run_ms bench_ms ratio setup_s run/bench_builds non-force)"
for spec in $(for n in $sizes; do echo "$n:mixed"; done) "$(echo $sizes | awk '{print $1}'):double"; do
  n=${spec%%:*}; p=${spec##*:}
  for bin in $P "$B"; do
    read -r rm su rb <<<"$(one_run "$bin" $n $p $(steps_for $n))"
    read -r bm bf bb <<<"$(one_bench "$bin" $n $p $bsteps)"
    r=$(python3 -c "print('%.2f' % ($rm / $bm))" 2>/dev/null || echo nan)
    nf=$(python3 -c "print('%.1f%%' % (100 * (1 - $bf / $bm)))" 2>/dev/null || echo nan)
    say "$(printf '%-6s %8s %-6s %10s %10s %7s %9s %11s %9s' "$([ "$bin" = "$B" ] && echo new || echo prev)" $n $p $rm $bm $r $su "$rb/$bb" $nf)"
  done
done
if [ "$BE" = gpu ]; then
  say "== 1e7 atoms, bench --liquid (new build; 5 steps): ms/step, steps/s, non-force share"
  "$B" bench --liquid --n 10000000 --precisions mixed --steps 5 --repeat 1 >"$W/bench_1e7.txt" 2>&1
  awk '$1 == 10000000 { printf "n=1e7 mixed: %s ms/step (%.2f steps/s), %s ms/force, non-force %.1f%%, builds %s\n", $3, 1000 / $3, $5, 100 * (1 - $5 / $3), $NF }' \
    "$W/bench_1e7.txt" | tee -a "$S"
  grep -qE '^ +10000000 ' "$W/bench_1e7.txt" || say "1e7: $(tail -n 2 "$W/bench_1e7.txt" | tr '\n' ' ')"
fi
say "== bitwise: deterministic 200-step liquid runs (n = 4000), prev vs new; restart 100 + 100 (new)"
nb=4000; kb=200; [ "$BE" = cpu ] && { nb=2048; kb=10; } # the dry run: small and short
l4k="--set system.particles=$nb --set system.box=$(box $nb) --set solver.backend=$BE --set solver.deterministic=true --set integrator.steps=$kb"
for p in mixed double; do
  for bin in $P "$B"; do
    tag=$([ "$bin" = "$B" ] && echo new || echo prev)
    ( cd "$W" && rm -f thb_$tag.csv* ckb_$tag.tbck* && "$OLDPWD/$bin" run "$lq" $l4k --set solver.precision=$p \
        --set output.thermo=\"thb_$tag.csv\" --set output.thermo_every=5 --set output.trajectory=\"\" \
        --set output.checkpoint=\"ckb_$tag.tbck\" >rb_$tag.txt 2>&1 )
  done
  ( cd "$W" && rm -f thr.csv* ckr.tbck* && "$OLDPWD/$B" run "$lq" $l4k --set solver.precision=$p --set output.thermo=\"thr.csv\" \
      --set output.thermo_every=5 --set output.trajectory=\"\" --set output.checkpoint=\"ckr.tbck\" --set integrator.steps=$((kb / 2)) >rr1.txt 2>&1
    "$OLDPWD/$B" run "$lq" $l4k --set solver.precision=$p --set output.thermo=\"thr.csv\" --set output.thermo_every=5 \
      --set output.trajectory=\"\" --set output.checkpoint=\"ckr.tbck\" --restart ckr.tbck >rr2.txt 2>&1 )
  if [ -n "$P" ] && [ -s "$W/ckb_new.tbck" ] && cmp -s "$W/ckb_prev.tbck" "$W/ckb_new.tbck" && cmp -s "$W/thb_prev.csv" "$W/thb_new.csv"; then
    say "PASS: liquid n=$nb $p deterministic $kb steps: new = prev bitwise (checkpoint and thermo)"
  else say "FAIL: liquid n=$nb $p: new and prev differ ($(tail -n 1 "$W/rb_new.txt"))"; fi
  if [ -s "$W/ckr.tbck" ] && cmp -s "$W/ckb_new.tbck" "$W/ckr.tbck" && cmp -s "$W/thb_new.csv" "$W/thr.csv"; then
    say "PASS: liquid n=$nb $p deterministic: $((kb / 2)) + restart + $((kb / 2)) = $kb bitwise"
  else say "FAIL: liquid n=$nb $p restart differs ($(tail -n 1 "$W/rr2.txt"))"; fi
done
