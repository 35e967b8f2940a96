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
box() { python3 -c "print(repr(($1 / 0.8) ** (1 / 3)))"; }
if [ "$BE" = cpu ]; then sizes="2048"; steps_for() { echo 20; }; bflag="--cpu --repeat 1"; bsteps=2
else sizes="32768 100000 1000000"; bflag="--repeat 3"; bsteps=40
  steps_for() { case $1 in 32768) echo 400 ;; 100000) echo 200 ;; *) echo 100 ;; esac; }
fi
# one run: prints "ms_per_step setup_s builds"
one_run() { # bin n precision steps
  local bin=$1 n=$2 p=$3 k=$4 t0 t1
  ( cd "$W" && rm -f th_o.csv* tr_o.xyz* ck_o.tbck* .th_o* .tr_o* .ck_o*
    t0=$(date +%s.%N)
    "$OLDPWD/$bin" run "$lq" --set system.particles=$n --set system.box=$(box $n) --set solver.backend=$BE \
      --set solver.precision=$p --set integrator.steps=$k --set output.thermo=\"th_o.csv\" --set output.thermo_every=100 \
      --set output.trajectory=\"tr_o.xyz\" --set output.trajectory_every=1000 --set output.checkpoint=\"ck_o.tbck\" \
      --set output.checkpoint_every=1000 >run_o.txt 2>&1
    t1=$(date +%s.%N)
    cat run_o.txt >>overhead_runs.txt
    python3 - "$t0" "$t1" "$k" run_o.txt <<'PY'
import re, sys
t0, t1, k, f = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
txt = open(f).read()
m = re.search(r'in ([0-9.e+-]+) s', txt); b = re.search(r'built (\d+) times', txt)
if not m: print('nan nan nan'); sys.exit()
w = float(m.group(1)); print('%.4g %.3g %s' % (1e3 * w / k, (t1 - t0) - w, b.group(1) if b else '?'))
PY
  )
}
one_bench() { # bin n precision steps: prints "ms_per_step ms_per_force builds"
  "$1" bench --liquid --n $2 --precisions $3 --steps $4 $bflag >"$W/bench_o.txt" 2>&1
  cat "$W/bench_o.txt" >>"$W/overhead_bench.txt"
  awk -v n=$2 -v p=$3 '$1 == n && $2 == p { print $3, $5, $NF; f = 1 } END { if (!f) print "nan nan nan" }' "$W/bench_o.txt"
}
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
