# scripts/gpu-check.d/baro-box.sh — scripts/gpu-check's mode `baro-box` (issue 21): MTK's box moved
# on the device (gpu_mtk.cu's MTK_MOVE, gpu_mtk_box.cu), no host wait per step, against the path of
# one wait a step (TB_BARO_BOX=0, the same binary), the build before (TB_PREV, default
# build/tribody-prev) and the CPU. Sourced by scripts/gpu-check (B, W, S, say in scope). Shows:
#   1. waits: TB_WAITS=1, liquid n = 32768 mixed, 200 mtk steps (iso, tri), thermo every 100: the
#      steps without a host wait (all but the fetched ones) and without a blocking one;
#   2. agree: baro.cfg (500 atoms, double, 200 steps, deterministic: the GPU's atomics in double
#      otherwise change the last bits from run to run) iso / aniso / tri: the box on the device vs
#      TB_BARO_BOX=0 (bitwise expected: the same box bits) and vs the CPU (1e-10); 200 = 77 +
#      restart + 123, checkpoint and thermo bitwise;
#   3. prev: deterministic liquid n = 4000 mixed, 100 steps, iso / aniso / tri: the box on the device
#      vs the build before's device path, checkpoint and thermo (bitwise expected);
#   4. mpi: 2 ranks sharing the GPU (TRIBODY_SHARE_GPUS=1) = 1 rank, deterministic, aniso, tri;
#   5. cost: box frozen (period 1e6), n = 32768 (300 steps) and 10^6 (100 steps): nose-hoover
#      alone and + mtk iso / tri for prev, TB_BARO_BOX=0 and the box on the device, the same call;
#   6. static: bench --liquid --n 32768 and the dense all-triplets bench (n 8192, lambda), prev vs
#      new, alternated three times.
#   7. fault: a box that explodes (pressure -100, period 0.5: step 15) stops the run, exit 1, the
#      step named as the host path names it, the last checkpoint (step 10) kept and equal to the
#      host path's (TB_BARO_BOX=0).
# BARO_BOX_PARTS picks the parts (default "waits agree prev mpi fault cost static").
# GPU_CHECK_BACKEND=cpu: a dry run (the CPU moves no box on a device: the paths are the host's).
BE=${GPU_CHECK_BACKEND:-gpu}
. scripts/gpu-check.d/baro-common.inc
baro_cfg 200 nose-hoover mtk
parts=" ${BARO_BOX_PARTS:-waits agree prev mpi fault cost static} "
P=${TB_PREV:-build/tribody-prev}
Pb=""; [ -x "$P" ] && Pb=$(cd "$(dirname "$P")" && pwd)/$(basename "$P")
lq=$(cd examples && pwd)/liquid.cfg
L() { python3 -c "print(($1 / 0.8) ** (1 / 3))"; }
lqrun() { # bin n steps coupling tag [period] [extra --set ...]: liquid mtk run in $W, output tagged
  local bin=$1 n=$2 st=$3 cp=$4 tag=$5 per=${6:-2.0}; shift 6 2>/dev/null || shift $#
  ( cd "$W" && rm -f "lq_$tag.csv" "lq_$tag.tbck" && "$bin" run "$lq" --set solver.backend=$BE \
      --set system.particles=$n --set system.box=$(L $n) --set integrator.steps=$st \
      --set integrator.type=\"nose-hoover\" --set integrator.temperature=1.0 \
      --set integrator.barostat.type=\"mtk\" --set integrator.barostat.pressure=1.0 \
      --set integrator.barostat.period=$per --set integrator.barostat.coupling=\"$cp\" \
      --set output.thermo=\"lq_$tag.csv\" --set output.thermo_every=100 --set output.trajectory=\"\" \
      --set output.checkpoint=\"lq_$tag.tbck\" "$@" >"lq_$tag.txt" 2>&1 )
}
if [[ "$parts" == *" waits "* ]]; then
  n=32768; [ "$BE" = gpu ] || n=600
  say "== host waits per mtk step (TB_WAITS=1, TB_NBR_SPEC=1), liquid n = $n mixed, 200 steps, thermo every 100 ($BE)"
  for cp in iso tri; do
    for bx in 1 0; do
      TB_WAITS=1 TB_NBR_SPEC=1 TB_BARO_BOX=$bx lqrun "$Bb" $n 200 $cp waits_${cp}_$bx
      f="$W/lq_waits_${cp}_$bx.txt"
      say "waits $cp TB_BARO_BOX=$bx: $(grep 'host waits' "$f" | sed 's/.*TB_WAITS=1), //'); $(grep 'skin test' "$f" | sed 's/.*): //') $(grep -i error "$f" | head -n 1)"
      [ $bx = 1 ] || continue
      python3 - "$f" "$cp" <<'PY' | tee -a "$S"
import re, sys
t = open(sys.argv[1]).read()
w = re.search(r'box on the device: (\d+) MTK steps after the first, (\d+) without a stream', t)
k = re.search(r'(\d+) waits asked by the early bit, (\d+) list builds', t)
if not w or not k:
    print('FAIL: mtk %s box on the device: no counts' % sys.argv[2]); sys.exit()
steps, zero, early, builds = int(w.group(1)), int(w.group(2)), int(k.group(1)), int(k.group(2))
fetched = 2  # thermo at steps 100 and 200 (the last is after the last MTK_BEGIN counted)
ok = steps - zero <= fetched + early + builds
print('%s: mtk %s box on the device: %d of %d steps without a stream synchronization; the %d others '
      'are at most the fetched steps (%d), the list builds (%d) and the early bit\'s waits (%d)' % (
      'PASS' if ok else 'FAIL', sys.argv[2], zero, steps, steps - zero, fetched, builds, early))
PY
    done
  done
fi
if [[ "$parts" == *" agree "* ]]; then
  say "== mtk, box on the device vs TB_BARO_BOX=0 and the CPU: baro.cfg, 200 steps, double, deterministic"
  for cp in iso aniso tri; do
    for v in dev one cpu; do
      be=$BE; [ $v = cpu ] && be=cpu
      bx=1; [ $v = one ] && bx=0
      ( cd "$W" && rm -f thermo.csv* ck.tbck* && TB_BARO_BOX=$bx "$Bb" run baro.cfg --set solver.backend=$be \
          --set solver.deterministic=true --set integrator.barostat.coupling=\"$cp\" >run_${cp}_$v.txt 2>&1
        cp thermo.csv th_${cp}_$v.csv; cp ck.tbck ck_${cp}_$v.tbck ) || say "FAIL: mtk $cp $v: $(tail -n 1 "$W/run_${cp}_$v.txt")"
    done
    if cmp -s "$W/th_${cp}_dev.csv" "$W/th_${cp}_one.csv" && cmp -s "$W/ck_${cp}_dev.tbck" "$W/ck_${cp}_one.tbck"; then
      say "PASS: mtk $cp: box on the device = TB_BARO_BOX=0, thermo and checkpoint bitwise"
    else say "FAIL: mtk $cp: box on the device differs from TB_BARO_BOX=0"; cmp_rows "$W/th_${cp}_dev.csv" "$W/th_${cp}_one.csv" "mtk $cp box on the device vs TB_BARO_BOX=0" 1e-14; fi
    cmp_rows "$W/th_${cp}_dev.csv" "$W/th_${cp}_cpu.csv" "mtk $cp box on the device vs CPU" 1e-10
    ( cd "$W" && rm -f ck*.tbck* tha.csv thb.csv
      set -- --set solver.backend=$BE --set solver.deterministic=true --set integrator.barostat.coupling=\"$cp\"
      "$Bb" run baro.cfg "$@" --set output.checkpoint=\"cka.tbck\" --set output.thermo=\"tha.csv\" >ra_$cp.txt 2>&1
      "$Bb" run baro.cfg "$@" --set output.checkpoint=\"ckb.tbck\" --set output.thermo=\"thb.csv\" --set integrator.steps=77 >rb_$cp.txt 2>&1
      "$Bb" run baro.cfg "$@" --set output.checkpoint=\"ckb.tbck\" --set output.thermo=\"thb.csv\" --restart ckb.tbck >rc_$cp.txt 2>&1 )
    if [ -s "$W/cka.tbck" ] && cmp -s "$W/cka.tbck" "$W/ckb.tbck" && cmp -s "$W/tha.csv" "$W/thb.csv"; then
      say "PASS: mtk $cp box on the device, deterministic: 200 steps = 77 + restart + 123, checkpoint and thermo bitwise"
    else say "FAIL: mtk $cp restart differs ($(tail -n 2 "$W/rc_$cp.txt" | tr '\n' ' '))"; fi
  done
fi
if [[ "$parts" == *" prev "* ]] && [ -n "$Pb" ]; then
  n=4000 st=100; [ "$BE" = gpu ] || { n=600 st=10; }
  say "== box on the device vs the build before ($P), deterministic liquid n = $n mixed, $st steps"
  for cp in iso aniso tri; do
    lqrun "$Pb" $n $st $cp p_${cp}_prev 2.0 --set solver.deterministic=true
    TB_BARO_BOX=1 lqrun "$Bb" $n $st $cp p_${cp}_new 2.0 --set solver.deterministic=true
    if [ -s "$W/lq_p_${cp}_prev.tbck" ] && cmp -s "$W/lq_p_${cp}_prev.tbck" "$W/lq_p_${cp}_new.tbck" && cmp -s "$W/lq_p_${cp}_prev.csv" "$W/lq_p_${cp}_new.csv"; then
      say "PASS: mtk $cp mixed: box on the device = the build before's device path, checkpoint and thermo bitwise"
    else say "FAIL: mtk $cp mixed: differs from the build before ($(tail -n 1 "$W/lq_p_${cp}_new.txt"))"
      cmp_rows "$W/lq_p_${cp}_new.csv" "$W/lq_p_${cp}_prev.csv" "mtk $cp mixed box on the device vs the build before" 1e-6; fi
  done
fi
if [[ "$parts" == *" mpi "* ]]; then
  say "== 2 ranks on one GPU (TRIBODY_SHARE_GPUS=1) vs one rank: deterministic, box on the device, 200 steps"
  for cp in aniso tri; do
    for r in 1 2; do
      l=env; [ $r = 2 ] && l="env TRIBODY_SHARE_GPUS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun -q --bind-to none -np 2"
      ( cd "$W" && rm -f th_m$r.csv ck_m$r.tbck && $l "$Bb" run baro.cfg --set solver.backend=$BE \
          --set solver.deterministic=true --set integrator.barostat.coupling=\"$cp\" \
          --set output.checkpoint=\"ck_m$r.tbck\" --set output.thermo=\"th_m$r.csv\" >run_m${r}_$cp.txt 2>&1 )
    done
    if [ -s "$W/ck_m1.tbck" ] && cmp -s "$W/ck_m1.tbck" "$W/ck_m2.tbck" && cmp -s "$W/th_m1.csv" "$W/th_m2.csv"; then
      say "PASS: mtk $cp box on the device: 2 ranks = 1 rank, checkpoint and thermo bitwise"
    else say "FAIL: mtk $cp 2 ranks differ from 1 ($(tail -n 1 "$W/run_m2_$cp.txt"))"; fi
  done
fi
if [[ "$parts" == *" fault "* ]]; then
  say "== an exploding box (pressure -100, period 0.5: step 15 on the host path), checkpoints every 10, deterministic"
  for v in host dev cpu; do
    be=$BE; [ $v = cpu ] && be=cpu
    bx=1; [ $v = host ] && bx=0
    ( cd "$W" && rm -f ck_f$v.tbck* && TB_BARO_BOX=$bx "$Bb" run baro.cfg --set solver.backend=$be \
        --set solver.deterministic=true --set integrator.barostat.pressure=-100 --set integrator.barostat.period=0.5 \
        --set output.checkpoint_every=10 --set output.checkpoint=\"ck_f$v.tbck\" --set output.thermo=\"\" >run_f$v.txt 2>&1
      echo "rc $?" >>run_f$v.txt )
    say "fault $v: $(grep -E 'barostat|non-finite' "$W/run_f$v.txt" | tail -n 1) ($(tail -n 1 "$W/run_f$v.txt"))"
  done
  if grep -q "step 15: the barostat's box exploded" "$W/run_fdev.txt" && grep -q "rc 1" "$W/run_fdev.txt" && \
     [ -s "$W/ck_fdev.tbck" ] && cmp -s "$W/ck_fdev.tbck" "$W/ck_fhost.tbck"; then
    say "PASS: box on the device: the explosion stops the run (exit 1) naming step 15, as the host path; the last checkpoint (step 10) kept, bitwise the host path's"
  else say "FAIL: box on the device: the exploding box ($(tail -n 2 "$W/run_fdev.txt" | tr '\n' ' '))"; fi
fi
if [[ "$parts" == *" cost "* ]]; then
  if [ "$BE" = gpu ]; then sizes="32768:300 1000000:100"; else sizes="600:10"; fi
  for nst in $sizes; do
    IFS=: read -r n st <<<"$nst"
    say "== cost per step, box frozen (period 1e6): n = $n, $st steps, mixed ($BE): s for the run's steps"
    line="n=$n"
    for cp in nh iso tri; do
      for v in prev one dev; do
        bin=$Bb; [ $v = prev ] && bin=$Pb; [ -z "$bin" ] && continue
        bx=1; [ $v = one ] && bx=0
        tag=c_${n}_${cp}_$v
        if [ $cp = nh ]; then
          ( cd "$W" && TB_BARO_BOX=$bx "$bin" run "$lq" --set solver.backend=$BE --set system.particles=$n \
              --set system.box=$(L $n) --set integrator.steps=$st --set integrator.type=\"nose-hoover\" \
              --set integrator.temperature=1.0 --set output.thermo=\"\" --set output.trajectory=\"\" \
              --set output.checkpoint=\"\" >"lq_$tag.txt" 2>&1 )
        else
          TB_BARO_BOX=$bx lqrun "$bin" $n $st $cp $tag 1e6 --set output.thermo=\"\" --set output.checkpoint=\"\"
        fi
        line="$line; $cp $v $(grep -E 'steps of n' "$W/lq_$tag.txt" | sed 's/.* in \([0-9.e+-]*\) s.*/\1/')"
      done
    done
    say "$line"
  done
fi
if [[ "$parts" == *" static "* ]] && [ -n "$Pb" ] && [ "$BE" = gpu ]; then
  say "== static box: bench --liquid --n 32768 (ms/step) and the dense all-triplets bench (n 8192, lambda, mixed), prev vs new, alternated"
  for k in 1 2 3; do
    for v in prev new; do
      bin=$Bb; [ $v = prev ] && bin=$Pb
      "$bin" bench --liquid --n 32768 --precisions mixed --steps 200 --repeat 3 >"$W/bl_${v}_$k.txt" 2>&1
      "$bin" bench --n 8192 --maps lambda --precisions mixed --repeat 5 >"$W/bd_${v}_$k.txt" 2>&1
      say "static $v take $k: liquid: $(awk '$1 == 32768 && $2 == "mixed" { print $3 " ms/step, " $5 " ms/force" }' "$W/bl_${v}_$k.txt"); dense: $(grep -E '^ *8192|lambda' "$W/bd_${v}_$k.txt" | tail -n 1)"
    done
  done
fi
