# scripts/gpu-check.d/baro-dev.sh — scripts/gpu-check's mode `baro-dev` (issue 21): MTK with its
# Nose-Hoover chain held on the device (gpu_mtk.cu, integrate.c's mtk_step_dev) against the host
# path of before (TB_BARO_HOST=1) and the CPU. Sourced by scripts/gpu-check (B, W, S, say in
# scope). Shows:
#   1. mtk iso / aniso / tri, 200 steps (double, 500 atoms, examples as baro.sh's): the device
#      path against the CPU and against the host path, the last thermo row (volume, pressure,
#      conserved, edges, tilts), PASS under 1e-10 (baro.sh's tolerance);
#   2. deterministic restarts on the device path: 200 steps = 77 + restart + 123, checkpoint and
#      thermo bitwise;
#   3. the cost per step with the box frozen (period 1e6, baro-cost.sh's runs): nose-hoover
#      alone, + mtk iso / aniso / tri on the host path and on the device path, n = 32768 (300
#      steps, two takes interleaved) and 10^6 (100 steps, iso and tri);
#   4. (part mpi) 2 ranks sharing the GPU (mpirun, TRIBODY_SHARE_GPUS=1) against one rank,
#      deterministic, device path, aniso and tri: checkpoint and thermo bitwise;
#   5. (part prev) the host path (TB_BARO_HOST=1) against the build before (TB_PREV, default
#      build/tribody-prev, when there), deterministic mixed liquid n = 4000, iso / aniso / tri:
#      bitwise; and the device path's distance from it.
# BARO_DEV_PARTS picks the parts (default "agree cost mpi prev"; agree = 1 and 2).
# GPU_CHECK_BACKEND=cpu: a dry run (the device path is the GPU's: both paths are then the host's).
BE=${GPU_CHECK_BACKEND:-gpu}
. scripts/gpu-check.d/baro-common.inc
baro_cfg 200 nose-hoover mtk
parts=" ${BARO_DEV_PARTS:-agree cost mpi prev} "
if [[ "$parts" == *" agree "* ]]; then
say "== mtk on the device (nose-hoover), 200 steps, double: device path vs CPU and vs the host path (TB_BARO_HOST=1)"
for cp in iso aniso tri; do
  for v in dev host cpu; do
    be=$BE; [ $v = cpu ] && be=cpu
    hv=0; [ $v = host ] && hv=1
    ( cd "$W" && rm -f thermo.csv* ck.tbck* && TB_BARO_HOST=$hv "$Bb" run baro.cfg --set solver.backend=$be \
        --set integrator.barostat.coupling=\"$cp\" >run_${cp}_$v.txt 2>&1
      cp thermo.csv th_${cp}_$v.csv ) || say "FAIL: mtk $cp $v: $(tail -n 1 "$W/run_${cp}_$v.txt")"
  done
  cmp_rows "$W/th_${cp}_dev.csv" "$W/th_${cp}_cpu.csv" "mtk $cp device path vs CPU" 1e-10
  cmp_rows "$W/th_${cp}_dev.csv" "$W/th_${cp}_host.csv" "mtk $cp device path vs host path (GPU)" 1e-10
  ( cd "$W" && rm -f thermo.csv* ck*.tbck* tha.csv thb.csv
    "$Bb" run baro.cfg --set solver.backend=$BE --set solver.deterministic=true --set integrator.barostat.coupling=\"$cp\" \
       --set output.checkpoint=\"cka.tbck\" --set output.thermo=\"tha.csv\" >ra_$cp.txt 2>&1
    "$Bb" run baro.cfg --set solver.backend=$BE --set solver.deterministic=true --set integrator.barostat.coupling=\"$cp\" \
       --set output.checkpoint=\"ckb.tbck\" --set output.thermo=\"thb.csv\" --set integrator.steps=77 >rb_$cp.txt 2>&1
    "$Bb" run baro.cfg --set solver.backend=$BE --set solver.deterministic=true --set integrator.barostat.coupling=\"$cp\" \
       --set output.checkpoint=\"ckb.tbck\" --set output.thermo=\"thb.csv\" --restart ckb.tbck >rc_$cp.txt 2>&1 )
  if cmp -s "$W/cka.tbck" "$W/ckb.tbck" && cmp -s "$W/tha.csv" "$W/thb.csv"; then
    say "PASS: mtk $cp $BE device path, deterministic: 200 steps = 77 + restart + 123, checkpoint and thermo bitwise"
  else say "FAIL: mtk $cp $BE restart differs ($(tail -n 2 "$W/rc_$cp.txt" | tr '\n' ' '))"; fi
done
fi
# the cost per step, box frozen (period 1e6: all of MTK's work, the box moves by ~1e-12)
if [ "$BE" = gpu ]; then sizes="32768:300:2:iso,aniso,tri 1000000:100:1:iso,tri"; else sizes="600:10:1:iso,tri"; fi
[[ "$parts" == *" cost "* ]] || sizes=""
for nsk in $sizes; do
  IFS=: read -r n st takes cps <<<"$nsk"
  say "== mtk's cost per step, box frozen (period 1e6): n = $n, $st steps (examples/liquid.cfg, mixed, $BE)"
  L=$(python3 -c "print(($n / 0.8) ** (1 / 3))")
  vs="nh"; for cp in ${cps//,/ }; do vs="$vs $cp-host $cp-dev"; done
  for k in $(seq 1 "$takes"); do
    for v in $vs; do
      set -- --set solver.backend=$BE --set system.particles=$n --set system.box=$L --set integrator.steps=$st \
             --set output.thermo=\"\" --set output.trajectory=\"\" --set output.checkpoint=\"\" \
             --set integrator.type=\"nose-hoover\" --set integrator.temperature=1.0
      [ $v != nh ] && set -- "$@" --set integrator.barostat.type=\"mtk\" --set integrator.barostat.pressure=1.0 \
                            --set integrator.barostat.period=1e6 --set integrator.barostat.coupling=\"${v%-*}\"
      hv=0; [ "${v#*-}" = host ] && hv=1
      TB_BARO_HOST=$hv "$B" run examples/liquid.cfg "$@" >"$W/bdev_${n}_${v}_$k.txt" 2>&1
      say "baro-dev n=$n $v (take $k): $(grep -E 'steps of n' "$W/bdev_${n}_${v}_$k.txt" | sed 's/.* in //') $(grep -i error "$W/bdev_${n}_${v}_$k.txt" | head -n 1)"
    done
  done
  python3 - "$W" "$n" "$takes" $vs <<'PY' | tee -a "$S"
import re, sys
w, n, takes, vs = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
t = {}
for v in vs:
    xs = []
    for k in range(1, takes + 1):
        m = re.search(r'steps of n.* in ([0-9.eE+-]+) s', open('%s/bdev_%s_%s_%d.txt' % (w, n, v, k)).read())
        if m: xs.append(float(m.group(1)))
    t[v] = min(xs) if xs else float('nan')
print('baro-dev n=%s (best of %d, s): nose-hoover %.4g; ' % (n, takes, t['nh']) + '; '.join(
    '+ mtk %s host path %.4g (%+.1f %%), device path %.4g (%+.1f %%)' % (
        v[:-5], t[v], (t[v] / t['nh'] - 1) * 100, t[v[:-5] + '-dev'], (t[v[:-5] + '-dev'] / t['nh'] - 1) * 100)
    for v in vs if v.endswith('-host')))
PY
done

# deterministic runs of baro.cfg (200 steps, double) through a launcher: name, coupling, launcher...
det_run() {
  local tag=$1 cp=$2; shift 2
  ( cd "$W" && rm -f "th_$tag.csv" "ck_$tag.tbck" && "$@" "$Bb" run baro.cfg --set solver.backend=$BE \
      --set solver.deterministic=true --set integrator.barostat.coupling=\"$cp\" \
      --set output.checkpoint=\"ck_$tag.tbck\" --set output.thermo=\"th_$tag.csv\" >"run_$tag.txt" 2>&1 )
}
if [[ "$parts" == *" mpi "* ]]; then
  say "== 2 ranks on one GPU (TRIBODY_SHARE_GPUS=1) vs one rank: deterministic, device path, 200 steps"
  for cp in aniso tri; do
    det_run mpi1_$cp $cp env
    det_run mpi2_$cp $cp env TRIBODY_SHARE_GPUS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun -q --bind-to none -np 2
    if [ -s "$W/ck_mpi1_$cp.tbck" ] && cmp -s "$W/ck_mpi1_$cp.tbck" "$W/ck_mpi2_$cp.tbck" && cmp -s "$W/th_mpi1_$cp.csv" "$W/th_mpi2_$cp.csv"; then
      say "PASS: mtk $cp device path: 2 ranks = 1 rank, checkpoint and thermo bitwise"
    else say "FAIL: mtk $cp 2 ranks differ from 1 ($(tail -n 1 "$W/run_mpi2_$cp.txt"))"; fi
  done
fi
P=${TB_PREV:-build/tribody-prev}
if [[ "$parts" == *" prev "* ]] && [ -x "$P" ]; then
  Pb=$(cd "$(dirname "$P")" && pwd)/$(basename "$P")
  ln=4000 lst=100; [ "$BE" = gpu ] || { ln=600 lst=10; }
  say "== the host path (TB_BARO_HOST=1) vs the build before ($P), deterministic, examples/liquid.cfg n = $ln mixed, $lst steps"
  lq=$(cd examples && pwd)/liquid.cfg
  for cp in iso aniso tri; do
    for v in prev host dev; do
      bin=$Bb; [ $v = prev ] && bin=$Pb
      hv=0; [ $v != dev ] && hv=1 # prev's host path too (its default has been the device path since)
      ( cd "$W" && TB_BARO_HOST=$hv "$bin" run "$lq" --set solver.backend=$BE --set solver.deterministic=true \
          --set system.particles=$ln --set system.box=$(python3 -c "print(($ln / 0.8) ** (1 / 3))") \
          --set integrator.steps=$lst --set integrator.type=\"nose-hoover\" --set integrator.temperature=1.0 \
          --set integrator.barostat.type=\"mtk\" --set integrator.barostat.pressure=1.0 --set integrator.barostat.period=2.0 \
          --set integrator.barostat.coupling=\"$cp\" --set output.thermo=\"lq_${cp}_$v.csv\" --set output.thermo_every=5 \
          --set output.trajectory=\"\" --set output.checkpoint=\"lq_${cp}_$v.tbck\" >"lq_${cp}_$v.txt" 2>&1 )
    done
    if [ -s "$W/lq_${cp}_prev.tbck" ] && cmp -s "$W/lq_${cp}_prev.tbck" "$W/lq_${cp}_host.tbck" && cmp -s "$W/lq_${cp}_prev.csv" "$W/lq_${cp}_host.csv"; then
      say "PASS: mtk $cp mixed: host path = the build before, checkpoint and thermo bitwise"
    else say "FAIL: mtk $cp mixed: host path differs from the build before ($(tail -n 1 "$W/lq_${cp}_host.txt"))"; fi
    cmp_rows "$W/lq_${cp}_dev.csv" "$W/lq_${cp}_host.csv" "mtk $cp mixed n=$ln device path vs host path" 1e-6
  done
fi
