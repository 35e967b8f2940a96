# scripts/gpu-check.d/sw-pdl.sh — scripts/gpu-check's mode `sw-pdl`: a step's kernel chain at 1e5 atoms
# of Stillinger-Weber silicon (issue 24, branch h24pdl): the skin test in the kick-drift
# (TB_STEP_FUSE=3, the default; 2: its own kernel, before) and programmatic dependent launch of the
# kick-drift, the SW forces and the finalize-kick (TB_STEP_PDL=1, the default; 0: plain launches).
# Sourced by scripts/gpu-check (B, W, S, OUT, say in scope); build/tribody-prev (or $TB_PREV) is the
# binary before. Each part has its own time limit:
#   · bitwise: deterministic evaluations (sw_si, sw_gan, the 97336-atom crystal; double, mixed) and
#     200-step deterministic runs of the crystal (thermo, checkpoint) prev = new, also with
#     TB_NBR_SPEC=2 (every rebuild a rollback: the v the fused test keeps), TB_STEP_PDL=0 and
#     TB_STEP_FUSE=2; a 200-step liquid run (ATM, n 4000, mixed, TB_NBR_SPEC=2) = prev
#   · bench --sw, mixed and double, n 97336, 110592 (the first diamond >= 1e5), 287496, 1e6, 1e7:
#     new and prev; at 97336 and 110592 the switches one by one (TB_STEP_PDL=0, TB_STEP_FUSE=2,
#     TB_TIMERS_PHASES=0 with and without PDL, TB_SW_FEW=8) and new / prev again
#   · bench --liquid --n 32768,1000000 mixed, prev and new
# GPU_CHECK_BACKEND=cpu: a dry run of the logic without a GPU (small n, few steps).
BE=${GPU_CHECK_BACKEND:-gpu}
P=${TB_PREV:-build/tribody-prev}
[ -x "$P" ] || { say "FAIL: no $P (the binary before the change)"; exit 1; }
D=$(pwd)
abs() { case $1 in /*) echo "$1" ;; *) echo "$D/$1" ;; esac; }
. scripts/gpu-check.d/sw-shared.inc # sw_crystal, sw_flat_table
if [ "$BE" = cpu ]; then NS=512,4096; NSM=512,1000; M=8; ST=20; DS=10; CPUF=--cpu; LQ=2048,4000; LS=2; NL=2048
else NS=97336,110592,287496,1000000,10000000; NSM=97336,110592; M=23; ST=300; DS=200; CPUF=; LQ=32768,1000000; LS=50; NL=4000; fi
TL="timeout ${SW_PDL_PART:-100}" # no part may take the whole call
PARTS=${SW_PDL_PARTS:-bits bench liquid}
sw_crystal $M $DS # $W/si.data, $W/si.cfg, n
if [[ " $PARTS " = *" bits "* ]]; then
say "== bitwise, deterministic: evaluations and $DS-step runs of the $n-atom crystal, prev = new"
same=0; tot=0
for p in double mixed; do
  for c in tests/lammps/sw_si.cfg tests/lammps/sw_gan.cfg "$W/si.cfg"; do
    for bin in $P "$B"; do
      tag=$([ "$bin" = "$B" ] && echo new || echo prev); rm -f "$W/bw_$tag.xyz"
      $TL "$bin" eval "$c" --set solver.backend=$BE --set solver.precision=$p --set solver.deterministic=true \
        -o "$W/bw_$tag.xyz" >"$W/bw_$tag.txt" 2>&1
    done
    tot=$((tot + 1)); [ -s "$W/bw_new.xyz" ] && cmp -s "$W/bw_prev.xyz" "$W/bw_new.xyz" && same=$((same + 1))
  done
done
say "$([ $same = $tot ] && echo PASS || echo FAIL): deterministic evaluations prev = new bit for bit: $same of $tot (sw_si, sw_gan, the $n-atom crystal; double, mixed)"
for p in double mixed; do
  for bin in $P "$B"; do
    tag=$([ "$bin" = "$B" ] && echo new || echo prev)
    ( cd "$W" && rm -f thd_$tag.csv* ckd_$tag.tbck* && $TL "$(abs "$bin")" run si.cfg --set solver.precision=$p \
        --set solver.deterministic=true --set integrator.steps=$DS --set output.thermo=\"thd_$tag.csv\" \
        --set output.thermo_every=5 --set output.checkpoint=\"ckd_$tag.tbck\" >rd_$tag.txt 2>&1 )
  done
  b=$(grep -o 'built [0-9]* times' "$W/rd_new.txt" | head -n 1)
  if [ -s "$W/ckd_new.tbck" ] && cmp -s "$W/ckd_prev.tbck" "$W/ckd_new.tbck" && cmp -s "$W/thd_prev.csv" "$W/thd_new.csv"; then
    say "PASS: $DS-step deterministic NVE run of $n atoms ($p, lists $b): thermo and checkpoint prev = new byte for byte"
  else say "FAIL: $DS-step deterministic run of $n atoms ($p): prev and new differ ($(tail -n 1 "$W/rd_new.txt"))"; fi
  for sw in TB_NBR_SPEC=2 TB_STEP_PDL=0 TB_STEP_FUSE=2; do
    ( cd "$W" && rm -f thx.csv* ckx.tbck* && env $sw $TL "$(abs "$B")" run si.cfg --set solver.precision=$p \
        --set solver.deterministic=true --set integrator.steps=$DS --set output.thermo=\"thx.csv\" \
        --set output.thermo_every=5 --set output.checkpoint=\"ckx.tbck\" >rx.txt 2>&1 )
    if [ -s "$W/ckx.tbck" ] && cmp -s "$W/ckd_prev.tbck" "$W/ckx.tbck" && cmp -s "$W/thd_prev.csv" "$W/thx.csv"; then
      say "PASS: the same run with $sw ($(grep -o '[0-9]* rollbacks' "$W/rx.txt" || echo 'no spec report')): prev = new byte for byte"
    else say "FAIL: the same run with $sw differs from prev ($(tail -n 1 "$W/rx.txt"))"; fi
  done
done
lq="$D/examples/liquid.cfg"
l4k="--set system.particles=$NL --set system.box=$(python3 -c "print(repr(($NL / 0.8) ** (1 / 3)))") --set solver.backend=$BE --set solver.deterministic=true --set integrator.steps=$DS --set solver.precision=mixed"
for bin in $P "$B"; do
  tag=$([ "$bin" = "$B" ] && echo new || echo prev)
  ( cd "$W" && rm -f thl_$tag.csv* ckl_$tag.tbck* && TB_NBR_SPEC=$([ $tag = new ] && echo 2 || echo 1) $TL "$(abs "$bin")" run "$lq" $l4k \
      --set output.thermo=\"thl_$tag.csv\" --set output.thermo_every=5 --set output.trajectory=\"\" \
      --set output.checkpoint=\"ckl_$tag.tbck\" >rl_$tag.txt 2>&1 )
done
if [ -s "$W/ckl_new.tbck" ] && cmp -s "$W/ckl_prev.tbck" "$W/ckl_new.tbck" && cmp -s "$W/thl_prev.csv" "$W/thl_new.csv"; then
  say "PASS: liquid n=$NL mixed deterministic $DS steps, new with TB_NBR_SPEC=2 ($(grep -o '[0-9]* rollbacks' "$W/rl_new.txt")) = prev byte for byte"
else say "FAIL: liquid n=$NL: new (TB_NBR_SPEC=2) and prev differ ($(tail -n 1 "$W/rl_new.txt"))"; fi
fi

if [[ " $PARTS " = *" bench "* ]]; then
say "== bench --sw on $BE, n $NS (mixed, double) and $NSM (the switches), $ST steps: us per atom-step"
variants="new:: prev:: dnew:: dprev::"
small="pdl0:TB_STEP_PDL=0 before:TB_STEP_PDL=0,TB_STEP_FUSE=2 nophase:TB_TIMERS_PHASES=0 nophase0:TB_TIMERS_PHASES=0,TB_STEP_PDL=0 few8:TB_SW_FEW=8 new2:: prev2:: ${SW_PDL_EXTRA:-}"
for v in $variants $small; do
  tag=${v%%:*}; envs=${v#*:}; envs=${envs%:}; bin=$B; case $tag in prev*|dprev) bin=$P ;; esac
  ns=$NS; pr=mixed; case " $small " in *" $v "*) ns=$NSM ;; esac
  case $tag in d*) pr=double ;; esac
  env $(echo "$envs" | tr ',' ' ') $TL "$bin" bench --sw $CPUF --n $ns --precisions $pr --steps $ST \
    --csv "$W/flat_$tag.csv" >"$W/flat_$tag.txt" 2>&1 || say "FAIL: bench --sw ($tag): $(tail -n 1 "$W/flat_$tag.txt")"
done
sw_flat_table $variants $small
python3 - "$W" $variants $small <<'PY' | tee -a "$S"
import csv, os, sys
w = sys.argv[1]
for v in sys.argv[2:]:  # most / least over the issue's range (n >= 1e5) and with 97336
    tag = v.split(":")[0]; f = os.path.join(w, "flat_%s.csv" % tag)
    if not os.path.exists(f):
        continue
    us = {int(r["n"]): float(r["us_per_atom_step"]) for r in csv.DictReader(l for l in open(f) if not l.startswith("#"))}
    rng = [u for n, u in us.items() if n >= 100000]
    if len(us) >= 3 and len(rng) >= 2:
        print("%-7s most/least over n >= 1e5: %.3f; with 97336: %.3f" % (tag, max(rng) / min(rng), max(us.values()) / min(us.values())))
PY
for v in $variants $small; do # the per-phase lines of the two smallest n (ms per step)
  tag=${v%%:*}
  [ -f "$W/flat_$tag.txt" ] && awk -v t=$tag '$2 == "mixed" || $2 == "double" { n = $1 } /per rank, ms per step:/ { getline; printf "%-8s n %s, ms per step: wall %s force %s sum %s integr %s lists %s other %s\n", t, n, $2, $3, $4, $5, $6, $7; if (++k == 2) exit }' "$W/flat_$tag.txt" | tee -a "$S"
done
fi

if [[ " $PARTS " = *" liquid "* ]]; then
say "== bench --liquid (ATM), mixed, n $LQ, $LS steps x 2: prev and new"
for bin in $P "$B"; do
  tag=$([ "$bin" = "$B" ] && echo new || echo prev)
  $TL "$bin" bench --liquid $CPUF --n $LQ --precisions mixed --steps $LS --repeat 2 >"$W/liq_$tag.txt" 2>&1
  for nl in ${LQ//,/ }; do
    awk -v t=$tag -v n=$nl '$1 == n && $2 == "mixed" { printf "%-5s liquid n %s mixed: %s ms/step, %s ms/force\n", t, n, $3, $5; exit }' "$W/liq_$tag.txt" | tee -a "$S"
  done
done
fi
rm -f "$W"/*.xyz "$W"/*.tbck* "$W"/si.data # the logs stay small
