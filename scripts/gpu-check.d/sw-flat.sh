# scripts/gpu-check.d/sw-flat.sh — scripts/gpu-check's mode `sw-flat`: Stillinger-Weber's cost per atom
# from 1e5 to 1e7 atoms (issue 24, branches h24flat, h24tail), the switches of one binary beside each
# other and the binary before (build/tribody-prev, or $TB_PREV), in one call. Sourced by
# scripts/gpu-check (B, W, S, OUT, say in scope).
#   · bench --sw, mixed, n 1e5, 3e5, 1e6, 1e7: the default; TB_SW_GRID=1 (the SW kernel persistent
#     at every count, as before h24tail); TB_SW_OPT=0, 1, 2 (the kernel's options: none, the
#     filter's two loads in flight, the 16-byte legs); before (TB_SW_GRID=1 and TB_SW_OPT=0: the
#     kernel before, in this binary); prev. us per atom-step and the most / the least over n for
#     each; at the smallest n only: the default and prev again (two alternations), TB_SW_FEWT=128
#     and 64 (smaller blocks for the few rounds; the other n are persistent, the default's)
#   · a real `tribody run` of the 97336-atom crystal (300 NVE steps, thermo every 100): ms per
#     step against the bench's, new and prev
#   · bitwise: deterministic evaluations (sw_si, sw_gan, sw_mw, the 97336-atom crystal; double and
#     mixed) and 200-step deterministic runs of the crystal (thermo and checkpoint), prev = new;
#     the same runs with TB_NBR_SPEC=2 (every rebuild through a rollback: the v the test kernel
#     keeps), TB_STEP_FUSE=0, TB_SW_GRID=1 and 2 (the persistent wave, one centre per group) and
#     TB_SW_OPT=0 (the kernel's options off) and TB_SW_FEWT=128; unless SW_FLAT_LIQUID=0 (a
#     change that leaves the step code alone), a 200-step liquid run (ATM, n 4000) with
#     TB_NBR_SPEC=2 and
#   · bench --liquid (the ATM liquid; the timers' change is shared step code): prev and new at
#     32768 and 1e5, mixed
# GPU_CHECK_BACKEND=cpu: a dry run of the logic without a GPU (small n, few steps).
BE=${GPU_CHECK_BACKEND:-gpu}
P=${TB_PREV:-build/tribody-prev}
[ -x "$P" ] || { say "FAIL: no $P (the binary before the change)"; P=""; }
. scripts/gpu-check.d/sw-shared.inc # sw_crystal, sw_flat_table, sw_flat_phases
if [ "$BE" = cpu ]; then NS=512,4096; M=8; ST=20; RS=20; DS=10; CPUF=--cpu; LQ=2048; LS=2
else NS=1e5,3e5,1e6,1e7; M=23; ST=300; RS=300; DS=200; CPUF=; LQ="32768 100000"; LS=100; fi
say "== bench --sw on $BE, mixed, n $NS, $ST steps: us per atom-step by switch"
variants="new:: persist:TB_SW_GRID=1 opt0:TB_SW_OPT=0 opt1:TB_SW_OPT=1 opt2:TB_SW_OPT=2 before:TB_SW_GRID=1,TB_SW_OPT=0"
[ -n "$P" ] && variants="$variants prev::"
small="new2:: fewt128:TB_SW_FEWT=128 fewt64:TB_SW_FEWT=64"; [ -n "$P" ] && small="$small prev2::"
for v in $variants $small; do
  tag=${v%%:*}; envs=${v#*:}; envs=${envs%:}; bin=$B; case $tag in prev*) bin=$P ;; esac
  ns=$NS; case " $small " in *" $v "*) ns=${NS%%,*} ;; esac
  env $(echo "$envs" | tr ',' ' ') "$bin" bench --sw $CPUF --n $ns --precisions mixed --steps $ST \
    --csv "$W/flat_$tag.csv" >"$W/flat_$tag.txt" 2>&1 || say "FAIL: bench --sw ($tag): $(tail -n 1 "$W/flat_$tag.txt")"
done
sw_flat_table $variants $small
sw_flat_phases new persist opt0 before prev new2 prev2 fewt128 fewt64 # the per-phase line of the smallest point (ms per step)
sw_crystal $M $RS # $W/si.data, $W/si.cfg, n
say "== a run of the $n-atom crystal, $RS NVE steps (thermo every 100), against bench --sw's step (mixed)"
for bin in $P "$B"; do
  tag=$([ "$bin" = "$B" ] && echo new || echo prev)
  ( cd "$W" && "$(abs "$bin")" run si.cfg --set solver.precision=mixed --set output.thermo=\"thr_$tag.csv\" >run_$tag.txt 2>&1 )
  python3 - "$W/run_$tag.txt" "$W/flat_$tag.csv" $RS $n $tag <<'PY' | tee -a "$S"
import csv, re, sys
txt = open(sys.argv[1]).read(); k = int(sys.argv[3]); n = int(sys.argv[4])
m = re.search(r'in ([0-9.e+-]+) s', txt); b = re.search(r'built (\d+) times', txt)
bench = [r for r in csv.DictReader(l for l in open(sys.argv[2]) if not l.startswith("#")) if int(r["n"]) == n]
if not m:
    print("FAIL: run %s: %s" % (sys.argv[5], txt.strip().splitlines()[-1:] )); sys.exit()
ms = 1e3 * float(m.group(1)) / k
bs = float(bench[0]["step_ms"]) if bench else float("nan")
print("%-5s run %.4f ms/step (%.5f us/atom-step, lists built %s times), bench %.4f ms/step: run / bench %.3f" % (
      sys.argv[5], ms, 1e3 * ms / n, b.group(1) if b else "?", bs, ms / bs))
PY
done
say "== bitwise, deterministic: evaluations and $DS-step runs of the crystal, prev = new"
same=0; tot=0
for p in double mixed; do
  for c in tests/lammps/sw_si.cfg tests/lammps/sw_gan.cfg tests/lammps/sw_mw.cfg "$W/si.cfg"; do
    for bin in $P "$B"; do
      tag=$([ "$bin" = "$B" ] && echo new || echo prev); rm -f "$W/bw_$tag.xyz"
      "$bin" eval "$c" --set solver.backend=$BE --set solver.precision=$p --set solver.deterministic=true \
        -o "$W/bw_$tag.xyz" >"$W/bw_$tag.txt" 2>&1
    done
    tot=$((tot + 1)); [ -s "$W/bw_new.xyz" ] && cmp -s "$W/bw_prev.xyz" "$W/bw_new.xyz" && same=$((same + 1))
  done
done
say "$([ $same = $tot ] && echo PASS || echo FAIL): deterministic evaluations prev = new bit for bit: $same of $tot (sw_si, sw_gan, sw_mw, the $n-atom crystal; double, mixed)"
for p in double mixed; do
  for bin in $P "$B"; do
    tag=$([ "$bin" = "$B" ] && echo new || echo prev)
    ( cd "$W" && rm -f thd_$tag.csv* ckd_$tag.tbck* && "$(abs "$bin")" run si.cfg --set solver.precision=$p \
        --set solver.deterministic=true --set integrator.steps=$DS --set output.thermo=\"thd_$tag.csv\" \
        --set output.thermo_every=5 --set output.checkpoint=\"ckd_$tag.tbck\" >rd_$tag.txt 2>&1 )
  done
  b=$(grep -o 'built [0-9]* times' "$W/rd_new.txt" | head -n 1)
  if [ -s "$W/ckd_new.tbck" ] && cmp -s "$W/ckd_prev.tbck" "$W/ckd_new.tbck" && cmp -s "$W/thd_prev.csv" "$W/thd_new.csv"; then
    say "PASS: $DS-step deterministic NVE run of $n atoms ($p, lists $b): thermo and checkpoint prev = new byte for byte"
  else say "FAIL: $DS-step deterministic run of $n atoms ($p): prev and new differ ($(tail -n 1 "$W/rd_new.txt"))"; fi
  for sw in TB_NBR_SPEC=2 TB_STEP_FUSE=0 TB_SW_GRID=1 TB_SW_GRID=2 TB_SW_OPT=0 TB_SW_FEWT=128; do
    ( cd "$W" && rm -f thx.csv* ckx.tbck* && env $sw "$(abs "$B")" run si.cfg --set solver.precision=$p \
        --set solver.deterministic=true --set integrator.steps=$DS --set output.thermo=\"thx.csv\" \
        --set output.thermo_every=5 --set output.checkpoint=\"ckx.tbck\" >rx.txt 2>&1 )
    if [ -s "$W/ckx.tbck" ] && cmp -s "$W/ckd_prev.tbck" "$W/ckx.tbck" && cmp -s "$W/thd_prev.csv" "$W/thx.csv"; then
      say "PASS: the same run with $sw ($(grep -o '[0-9]* rollbacks' "$W/rx.txt" || echo 'no spec report')): prev = new byte for byte"
    else say "FAIL: the same run with $sw differs from prev ($(tail -n 1 "$W/rx.txt"))"; fi
  done
done
if [ "${SW_FLAT_LIQUID:-1}" != 0 ]; then # SW_FLAT_LIQUID=0: not (a change that leaves the step code alone)
  lq="$D/examples/liquid.cfg"; nl=4000; [ "$BE" = cpu ] && nl=2048
  l4k="--set system.particles=$nl --set system.box=$(python3 -c "print(repr(($nl / 0.8) ** (1 / 3)))") --set solver.backend=$BE --set solver.deterministic=true --set integrator.steps=$DS --set solver.precision=mixed"
  for bin in $P "$B"; do
    tag=$([ "$bin" = "$B" ] && echo new || echo prev)
    ( cd "$W" && rm -f thl_$tag.csv* ckl_$tag.tbck* && TB_NBR_SPEC=$([ $tag = new ] && echo 2 || echo 1) "$(abs "$bin")" run "$lq" $l4k \
        --set output.thermo=\"thl_$tag.csv\" --set output.thermo_every=5 --set output.trajectory=\"\" \
        --set output.checkpoint=\"ckl_$tag.tbck\" >rl_$tag.txt 2>&1 )
  done
  if [ -s "$W/ckl_new.tbck" ] && cmp -s "$W/ckl_prev.tbck" "$W/ckl_new.tbck" && cmp -s "$W/thl_prev.csv" "$W/thl_new.csv"; then
    say "PASS: liquid n=$nl mixed deterministic $DS steps, new with TB_NBR_SPEC=2 ($(grep -o '[0-9]* rollbacks' "$W/rl_new.txt")) = prev byte for byte"
  else say "FAIL: liquid n=$nl: new (TB_NBR_SPEC=2) and prev differ ($(tail -n 1 "$W/rl_new.txt"))"; fi
  say "== bench --liquid (ATM liquid; shared step code), mixed, $LS steps: prev and new"
  for nl in $LQ; do
    for bin in $P "$B"; do
      tag=$([ "$bin" = "$B" ] && echo new || echo prev)
      "$bin" bench --liquid $CPUF --n $nl --precisions mixed --steps $LS --repeat 3 >"$W/liq_${tag}_$nl.txt" 2>&1
      awk -v t=$tag -v n=$nl '$1 == n && $2 == "mixed" { printf "%-5s liquid n %s mixed: %s ms/step, %s ms/force\n", t, n, $3, $5; exit }' \
        "$W/liq_${tag}_$nl.txt" | tee -a "$S"
    done
  done
fi
rm -f "$W"/*.xyz "$W"/*.tbck* "$W"/si.data # the logs stay small (the device brings back 16 MiB a file)
