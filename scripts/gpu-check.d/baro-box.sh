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
#   sw: Stillinger-Weber silicon (examples/silicon.cfg), mtk and c-rescale iso: the device path
#      taken (TB_WAITS=1), = TB_BARO_BOX=0 bitwise (or 1e-12), vs the CPU (1e-10);
#   7. fault: a box that explodes (pressure -100, period 0.5: step 15) stops the run, exit 1, the
#      step named as the host path names it, the last checkpoint (step 10) kept and equal to the
#      host path's (TB_BARO_BOX=0).
#   C-rescale's box on the device (the default; TB_CRESCALE_DEV=1: integrate.c's crs_step_dev,
#   gpu_mtk.cu's CRS phases) against its host path (TB_CRESCALE_DEV=0, the same binary):
#   crs-waits: TB_WAITS=1, liquid n = 32768 mixed, nve and nose-hoover + c-rescale iso every step,
#      200 steps: the steps without a stream synchronization (all but the fetched ones, builds,
#      early waits);
#   crs-agree: baro.cfg, 200 steps, double, deterministic, nve / langevin / nose-hoover x iso /
#      aniso (every 10): device vs host path (bitwise, or within 1e-12: exp on the device and
#      glibc's may differ in the last bit) and vs the CPU (1e-10); 200 = 79 + restart + 121 on the
#      device path (step 79 rescales from the virial kept by step 78), checkpoint and thermo bitwise;
#   crs-prev: the host path (TB_CRESCALE_DEV=0) vs the build before ($TB_PREV), liquid n = 4000 mixed,
#      deterministic, 100 steps, langevin iso and nve aniso every 5: bitwise expected;
#   crs-mpi: 2 ranks sharing the GPU = 1 rank, deterministic, device path, nve iso, nose-hoover aniso;
#   crs-fault: pressure -1000 (step 20 explodes), checkpoints every 10: exit 1, the step named
#      as the host path names it, the step-10 checkpoint kept (bitwise the host path's or not, said);
#   crs-cost: box all but frozen (period 1e6), n = 32768, 300 steps, mixed: nve alone, + c-rescale
#      every 10 and every 1, host path and device path, the same call.
# BARO_BOX_PARTS picks the parts (default "waits agree prev mpi fault cost static" and the crs-
# ones); C-rescale's alone: BARO_BOX_PARTS="crs-waits crs-agree crs-prev crs-mpi crs-fault crs-cost static".
# GPU_CHECK_BACKEND=cpu: a dry run (the CPU moves no box on a device: the paths are the host's).
BE=${GPU_CHECK_BACKEND:-gpu}
. scripts/gpu-check.d/baro-common.inc
baro_cfg 200 nose-hoover mtk
parts=" ${BARO_BOX_PARTS:-waits agree prev mpi fault cost crs-waits crs-agree crs-prev crs-mpi crs-fault crs-cost static} "
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
crsrun() { # bin n steps type coupling every tag [extra --set ...]: liquid c-rescale run in $W
  local bin=$1 n=$2 st=$3 ty=$4 cp=$5 ev=$6 tag=$7; shift 7
  local tt=(--set integrator.temperature=1.0); [ "$ty" = nve ] && tt=()
  ( cd "$W" && rm -f "lq_$tag.csv" "lq_$tag.tbck" && "$bin" run "$lq" --set solver.backend=$BE \
      --set system.particles=$n --set system.box=$(L $n) --set integrator.steps=$st \
      --set integrator.type=\"$ty\" "${tt[@]}" \
      --set integrator.barostat.type=\"c-rescale\" --set integrator.barostat.pressure=1.0 \
      --set integrator.barostat.period=0.5 --set integrator.barostat.coupling=\"$cp\" \
      --set integrator.barostat.every=$ev \
      --set output.thermo=\"lq_$tag.csv\" --set output.thermo_every=100 --set output.trajectory=\"\" \
      --set output.checkpoint=\"lq_$tag.tbck\" "$@" >"lq_$tag.txt" 2>&1 )
}
crscfg() { # type: $W/crs_TYPE.cfg, baro.cfg's system under c-rescale (nve: no temperature)
  baro_cfg 200 "$1" c-rescale
  if [ "$1" = nve ]; then sed -i '/^integrator/s/ temperature = 1.0;//' "$W/baro.cfg"; fi
  mv "$W/baro.cfg" "$W/crs_$1.cfg"
}
waits_verdict() { # log unit label [note]: TB_WAITS=1's counts of a 200-step run, thermo every 100:
  # PASS when the steps with a stream synchronization are at most the fetched steps (2: thermo at
  # 100 and 200), the list builds and the early bit's waits
  python3 - "$@" <<'PY' | tee -a "$S"
import re, sys
f, unit, label = sys.argv[1:4]
note = sys.argv[4] if len(sys.argv) > 4 else ""
t = open(f).read()
w = re.search(r'box on the device: (\d+) %s after the first, (\d+) without a stream' % unit, t)
k = re.search(r'(\d+) waits asked by the early bit, (\d+) list builds', t)
if not w or not k:
    print('FAIL: %s box on the device: no counts' % label); sys.exit()
steps, zero, early, builds = int(w.group(1)), int(w.group(2)), int(k.group(1)), int(k.group(2))
fetched = 2  # thermo at steps 100 and 200 (the last is after the last step counted)
ok = steps - zero <= fetched + early + builds
print('%s: %s box on the device: %d of %d steps without a stream synchronization; the %d others '
      'are at most the fetched steps (%d), the list builds (%d) and the early bit\'s waits (%d)%s' % (
      'PASS' if ok else 'FAIL', label, zero, steps, steps - zero, fetched, builds, early, note))
PY
}
if [[ "$parts" == *" waits "* ]]; then
  n=32768; [ "$BE" = gpu ] || n=600
  say "== host waits per mtk step (TB_WAITS=1, TB_NBR_SPEC=1), liquid n = $n mixed, 200 steps, thermo every 100 ($BE)"
  for cp in iso tri; do
    for bx in 1 0; do
      TB_WAITS=1 TB_NBR_SPEC=1 TB_BARO_BOX=$bx lqrun "$Bb" $n 200 $cp waits_${cp}_$bx
      f="$W/lq_waits_${cp}_$bx.txt"
      say "waits $cp TB_BARO_BOX=$bx: $(grep 'host waits' "$f" | sed 's/.*TB_WAITS=1), //'); $(grep 'skin test' "$f" | sed 's/.*): //') $(grep -i error "$f" | head -n 1)"
      [ $bx = 1 ] && [ "$BE" = gpu ] || continue  # the CPU moves no box on a device
      waits_verdict "$f" "MTK steps" "mtk $cp"
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
if [[ "$parts" == *" sw "* ]]; then
  # Stillinger-Weber's kernel reads a moving box from device memory too (gpu_sw.cu, MOV)
  si=$(cd examples && pwd)/silicon.cfg
  say "== Stillinger-Weber silicon (examples/silicon.cfg, 512 atoms, 1000 K): mtk iso and c-rescale iso (every step), box on the device vs TB_BARO_BOX=0 and the CPU, 200 steps, double, deterministic ($BE)"
  for ty in mtk c-rescale; do
    for v in dev one cpu; do
      be=$BE; [ $v = cpu ] && be=cpu
      bx=1; [ $v = one ] && bx=0
      ( cd "$W" && rm -f si_${ty}_$v.csv si_${ty}_$v.tbck* && TB_WAITS=1 TB_BARO_BOX=$bx "$Bb" run "$si" \
          --set solver.backend=$be --set solver.precision=\"double\" --set solver.deterministic=true \
          --set integrator.steps=200 --set integrator.temperature=1000.0 \
          --set integrator.temperature_end=1000.0 --set system.init.temperature=1000.0 \
          --set integrator.barostat.type=\"$ty\" --set integrator.barostat.pressure=1.0 \
          --set integrator.barostat.period=0.5 --set integrator.barostat.coupling=\"iso\" \
          $([ $ty = c-rescale ] && echo --set integrator.barostat.every=1) \
          --set output.thermo=\"si_${ty}_$v.csv\" --set output.thermo_every=20 \
          --set output.trajectory=\"\" --set output.checkpoint=\"si_${ty}_$v.tbck\" \
          >si_${ty}_$v.txt 2>&1 ) || say "FAIL: sw $ty $v: $(tail -n 1 "$W/si_${ty}_$v.txt")"
    done
    if [ "$BE" = gpu ]; then
      w=$(grep 'box on the device:' "$W/si_${ty}_dev.txt" | sed 's/.*box on the device: //')
      if [ -n "$w" ] && ! grep -q 'box on the device:' "$W/si_${ty}_one.txt"; then
        say "PASS: sw $ty iso: the box moved on the device (TB_WAITS=1: $w)"
      else say "FAIL: sw $ty iso: the device path was not taken (${w:-no TB_WAITS line for the box on the device})"; fi
    fi
    if cmp -s "$W/si_${ty}_dev.csv" "$W/si_${ty}_one.csv" && cmp -s "$W/si_${ty}_dev.tbck" "$W/si_${ty}_one.tbck"; then
      say "PASS: sw $ty iso: box on the device = TB_BARO_BOX=0, thermo and checkpoint bitwise"
    else say "sw $ty iso: box on the device not bitwise TB_BARO_BOX=0"
      cmp_rows "$W/si_${ty}_dev.csv" "$W/si_${ty}_one.csv" "sw $ty iso box on the device vs TB_BARO_BOX=0" 1e-12; fi
    cmp_rows "$W/si_${ty}_dev.csv" "$W/si_${ty}_cpu.csv" "sw $ty iso box on the device vs CPU" 1e-10
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
if [[ "$parts" == *" crs-waits "* ]]; then
  n=32768; [ "$BE" = gpu ] || n=600
  say "== host waits per c-rescale step (TB_WAITS=1, TB_NBR_SPEC=1), liquid n = $n mixed, nve and nose-hoover + c-rescale iso every step, 200 steps, thermo every 100 ($BE)"
  for ty in nve nose-hoover; do
    TB_WAITS=1 TB_NBR_SPEC=1 TB_CRESCALE_DEV=1 crsrun "$Bb" $n 200 $ty iso 1 cw_$ty
    f="$W/lq_cw_$ty.txt"
    say "c-rescale $ty waits: $(grep 'host waits' "$f" | sed 's/.*TB_WAITS=1), //'); $(grep 'skin test' "$f" | sed 's/.*): //') $(grep -i error "$f" | head -n 1)"
    [ "$BE" = gpu ] || continue
    waits_verdict "$f" "C-rescale rescales" "c-rescale iso ($ty, every step)" ". The host path waits at least 4 times a rescale (kinetic tensor twice, the evaluation, the virial), once more on the step before (the kept virial), and nose-hoover 3 times a step (the chain's kinetic energy twice, the evaluation)"
  done
fi
if [[ "$parts" == *" crs-agree "* ]]; then
  say "== c-rescale, box on the device (TB_CRESCALE_DEV=1) vs the host path and the CPU: baro.cfg, 200 steps, double, deterministic, every 10"
  for ty in nve langevin nose-hoover; do
    crscfg $ty
    for cp in iso aniso; do
      k=${ty}_$cp
      for v in dev host cpu; do
        be=$BE; [ $v = cpu ] && be=cpu
        dv=1; [ $v = dev ] || dv=0
        ( cd "$W" && rm -f thermo.csv* ck.tbck* && TB_WAITS=$dv TB_CRESCALE_DEV=$dv "$Bb" run crs_$ty.cfg --set solver.backend=$be \
            --set solver.deterministic=true --set integrator.barostat.coupling=\"$cp\" >crs_${k}_$v.txt 2>&1
          cp thermo.csv cth_${k}_$v.csv; cp ck.tbck cck_${k}_$v.tbck ) || say "FAIL: c-rescale $k $v: $(tail -n 1 "$W/crs_${k}_$v.txt")"
      done
      if [ "$BE" = gpu ] && ! grep -q "box on the device: [0-9]* C-rescale rescales" "$W/crs_${k}_dev.txt"; then
        say "FAIL: c-rescale $ty $cp: TB_CRESCALE_DEV=1 did not take the device path (no TB_WAITS line for C-rescale's rescales)"
      fi
      if cmp -s "$W/cth_${k}_dev.csv" "$W/cth_${k}_host.csv" && cmp -s "$W/cck_${k}_dev.tbck" "$W/cck_${k}_host.tbck"; then
        say "PASS: c-rescale $ty $cp: box on the device = the host path, thermo and checkpoint bitwise"
      else say "c-rescale $ty $cp: box on the device not bitwise the host path (thermo $(cmp -s "$W/cth_${k}_dev.csv" "$W/cth_${k}_host.csv" && echo same || echo differs)): the rows:"
        cmp_rows "$W/cth_${k}_dev.csv" "$W/cth_${k}_host.csv" "c-rescale $ty $cp box on the device vs the host path" 1e-12; fi
      cmp_rows "$W/cth_${k}_dev.csv" "$W/cth_${k}_cpu.csv" "c-rescale $ty $cp box on the device vs CPU" 1e-10
      ( cd "$W" && rm -f ck*.tbck* tha.csv thb.csv
        set -- --set solver.backend=$BE --set solver.deterministic=true --set integrator.barostat.coupling=\"$cp\"
        export TB_CRESCALE_DEV=1
        "$Bb" run crs_$ty.cfg "$@" --set output.checkpoint=\"cka.tbck\" --set output.thermo=\"tha.csv\" >cra_$k.txt 2>&1
        "$Bb" run crs_$ty.cfg "$@" --set output.checkpoint=\"ckb.tbck\" --set output.thermo=\"thb.csv\" --set integrator.steps=79 >crb_$k.txt 2>&1
        "$Bb" run crs_$ty.cfg "$@" --set output.checkpoint=\"ckb.tbck\" --set output.thermo=\"thb.csv\" --restart ckb.tbck >crc_$k.txt 2>&1 )
      if [ -s "$W/cka.tbck" ] && cmp -s "$W/cka.tbck" "$W/ckb.tbck" && cmp -s "$W/tha.csv" "$W/thb.csv"; then
        say "PASS: c-rescale $ty $cp box on the device, deterministic: 200 steps = 79 + restart + 121, checkpoint and thermo bitwise"
      else say "FAIL: c-rescale $ty $cp restart differs ($(tail -n 2 "$W/crc_$k.txt" | tr '\n' ' '))"; fi
    done
  done
fi
if [[ "$parts" == *" crs-prev "* ]] && [ -n "$Pb" ]; then
  n=4000 st=100; [ "$BE" = gpu ] || { n=600 st=10; }
  say "== c-rescale's host path (TB_CRESCALE_DEV=0) vs the build before ($P), deterministic liquid n = $n mixed, $st steps, every 5"
  for tc in langevin:iso nve:aniso; do
    IFS=: read -r ty cp <<<"$tc"
    crsrun "$Pb" $n $st $ty $cp 5 cp_${ty}_prev --set solver.deterministic=true
    TB_CRESCALE_DEV=0 crsrun "$Bb" $n $st $ty $cp 5 cp_${ty}_new --set solver.deterministic=true
    if [ -s "$W/lq_cp_${ty}_prev.tbck" ] && cmp -s "$W/lq_cp_${ty}_prev.csv" "$W/lq_cp_${ty}_new.csv"; then
      say "PASS: c-rescale $ty $cp mixed: the host path = the build before's, thermo bitwise; checkpoint: $(cmp -l "$W/lq_cp_${ty}_prev.tbck" "$W/lq_cp_${ty}_new.tbck" 2>/dev/null | wc -l) bytes differ"
    else say "FAIL: c-rescale $ty $cp mixed: differs from the build before ($(tail -n 1 "$W/lq_cp_${ty}_new.txt"))"
      cmp_rows "$W/lq_cp_${ty}_new.csv" "$W/lq_cp_${ty}_prev.csv" "c-rescale $ty $cp host path vs the build before" 1e-6; fi
  done
fi
if [[ "$parts" == *" crs-mpi "* ]]; then
  say "== c-rescale: 2 ranks on one GPU (TRIBODY_SHARE_GPUS=1) vs one rank: deterministic, box on the device, 200 steps"
  for tc in nve:iso nose-hoover:aniso; do
    IFS=: read -r ty cp <<<"$tc"
    crscfg $ty
    for r in 1 2; do
      l=env; [ $r = 2 ] && l="env TRIBODY_SHARE_GPUS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun -q --bind-to none -x TB_CRESCALE_DEV -x TB_WAITS -np 2"
      ( cd "$W" && rm -f th_m$r.csv ck_m$r.tbck && TB_WAITS=1 TB_CRESCALE_DEV=1 $l "$Bb" run crs_$ty.cfg --set solver.backend=$BE \
          --set solver.deterministic=true --set integrator.barostat.coupling=\"$cp\" \
          --set output.checkpoint=\"ck_m$r.tbck\" --set output.thermo=\"th_m$r.csv\" >crm${r}_$ty.txt 2>&1 )
    done
    dp=$(grep -c "box on the device: [0-9]* C-rescale rescales" "$W/crm2_$ty.txt")
    if [ -s "$W/ck_m1.tbck" ] && cmp -s "$W/ck_m1.tbck" "$W/ck_m2.tbck" && cmp -s "$W/th_m1.csv" "$W/th_m2.csv"; then
      say "PASS: c-rescale $ty $cp box on the device: 2 ranks = 1 rank, checkpoint and thermo bitwise (ranks that reported the device path: $dp of 2)"
    else say "FAIL: c-rescale $ty $cp 2 ranks differ from 1 ($(tail -n 1 "$W/crm2_$ty.txt"))"; fi
  done
fi
if [[ "$parts" == *" crs-fault "* ]]; then
  say "== c-rescale: an exploding box (pressure -1000: step 20 on the host path), checkpoints every 10, deterministic"
  crscfg nose-hoover
  for v in host dev cpu; do
    be=$BE; [ $v = cpu ] && be=cpu
    dv=1; [ $v = dev ] || dv=0
    ( cd "$W" && rm -f ck_c$v.tbck* && TB_CRESCALE_DEV=$dv "$Bb" run crs_nose-hoover.cfg --set solver.backend=$be \
        --set solver.deterministic=true --set integrator.barostat.pressure=-1000 \
        --set output.checkpoint_every=10 --set output.checkpoint=\"ck_c$v.tbck\" --set output.thermo=\"\" >crf_$v.txt 2>&1
      echo "rc $?" >>crf_$v.txt )
    say "c-rescale fault $v: $(grep -E 'barostat|non-finite' "$W/crf_$v.txt" | tail -n 1) ($(tail -n 1 "$W/crf_$v.txt"))"
  done
  if grep -q "step 20: the barostat's box exploded" "$W/crf_dev.txt" && grep -q "rc 1" "$W/crf_dev.txt" && \
     [ -s "$W/ck_cdev.tbck" ]; then
    say "PASS: c-rescale box on the device: the explosion stops the run (exit 1) naming step 20, as the host path; the last checkpoint (step 10) kept ($(cmp -s "$W/ck_cdev.tbck" "$W/ck_chost.tbck" && echo 'bitwise the host path'"'"'s' || echo 'not bitwise the host path'"'"'s: the rescale of step 9 takes exp on the device'))"
  else say "FAIL: c-rescale box on the device: the exploding box ($(tail -n 2 "$W/crf_dev.txt" | tr '\n' ' '))"; fi
fi
if [[ "$parts" == *" crs-cost "* ]]; then
  n=32768 st=300; [ "$BE" = gpu ] || { n=600 st=10; }
  say "== c-rescale cost per step, box all but frozen (period 1e6): n = $n, $st steps, mixed, nve ($BE): s for the run's steps"
  for k in 1 2; do
    line="take $k:"
    ( cd "$W" && "$Bb" run "$lq" --set solver.backend=$BE --set system.particles=$n --set system.box=$(L $n) \
        --set integrator.steps=$st --set output.thermo=\"\" --set output.trajectory=\"\" \
        --set output.checkpoint=\"\" >lq_cc_nve.txt 2>&1 )
    line="$line nve $(grep -E 'steps of n' "$W/lq_cc_nve.txt" | sed 's/.* in \([0-9.e+-]*\) s.*/\1/')"
    for ev in 10 1; do
      for dv in 0 1; do
        TB_CRESCALE_DEV=$dv crsrun "$Bb" $n $st nve iso $ev cc_${ev}_$dv --set integrator.barostat.period=1e6 \
          --set output.thermo=\"\" --set output.checkpoint=\"\"
        line="$line; every $ev $([ $dv = 1 ] && echo device || echo host) $(grep -E 'steps of n' "$W/lq_cc_${ev}_$dv.txt" | sed 's/.* in \([0-9.e+-]*\) s.*/\1/')$(grep -i error "$W/lq_cc_${ev}_$dv.txt" | head -n 1)"
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
