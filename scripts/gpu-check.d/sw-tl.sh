# scripts/gpu-check.d/sw-tl.sh — scripts/gpu-check's mode `sw-tl`: the SW kernel's partial last wave at
# 1e5 atoms of Stillinger-Weber silicon (issue 24, branch h24tl): the centres past
# the full waves as a second launch, groups of 8 or 16 lanes (TB_SW_TAIL=8 / 16; 1: 16 or 8 by the
# rest's size; unset or 0: one launch, the default; TB_SW_TAILR: below how many full waves). Slower:
# off by default (docs/gpu-measured.md). Run 1 of h24tl also had bench --sw's ms/step from steps with
# the per-rank timers off (dropped: a real run pays more than that headline).
# Sourced by scripts/gpu-check (B, W, S, OUT, say in scope); build/tribody-prev (or $TB_PREV) is the
# binary before. Each part has its own time limit (SW_TL_PART s):
#   · bits: deterministic evaluations prev = new (sw_si, sw_gan, the 97336- and 110592-atom crystals;
#     double, mixed; new also with TB_SW_TAIL=8, 16); 200-step deterministic runs of the 97336-atom
#     crystal (thermo, checkpoint) prev = new, also with TB_SW_TAIL=8, 16 and TB_NBR_SPEC=2; the ATM
#     liquid (n 4000, mixed, 200 steps) prev = new
#   · bench --sw mixed n 97336, 110592, 287496, 1e6, 1e7: new, prev, new with TB_SW_TAIL=1; double
#     new and prev; at 97336, 110592 and 1e6 TB_SW_TAIL=8, 16, double TB_SW_TAIL=1 and new / prev again
#   · run: 1000 NVE steps of the 97336- and 110592-atom crystals (mixed), prev and new twice: the
#     real per-step time against bench's headline
# SW_TL_PARTS picks parts. GPU_CHECK_BACKEND=cpu: a dry run of the logic without a GPU (small n).
BE=${GPU_CHECK_BACKEND:-gpu}
P=${TB_PREV:-build/tribody-prev}
[ -x "$P" ] || { say "FAIL: no $P (the binary before the change)"; exit 1; }
. scripts/gpu-check.d/sw-shared.inc # sw_crystal, sw_flat_table, sw_bench_variants
if [ "$BE" = cpu ]; then NS=512,4096; NSM=512,1000,4096; MS="4 5"; ST=20; DS=10; RL=30; CPUF=--cpu; NL=2048
else NS=97336,110592,287496,1000000,10000000; NSM=97336,110592,1000000; MS="23 24"; ST=300; DS=200; RL=1000; CPUF=; NL=4000; fi
TL="timeout ${SW_TL_PART:-100}" # no part may take the whole call
PARTS=${SW_TL_PARTS:-bits bench run}
if [[ " $PARTS " = *" bits "* ]]; then
say "== bitwise, deterministic: evaluations (new also with TB_SW_TAIL=8, 16) and $DS-step runs, prev = new"
same=0; tot=0
for m in $MS; do
  sw_crystal $m $DS; cp "$W/si.cfg" "$W/si$m.cfg"; cp "$W/si.data" "$W/si$m.data"; sed -i "s|$W/si.data|$W/si$m.data|" "$W/si$m.cfg"
done
for p in double mixed; do
  for c in tests/lammps/sw_si.cfg tests/lammps/sw_gan.cfg $(for m in $MS; do echo "$W/si$m.cfg"; done); do
    rm -f "$W"/bw_*.xyz
    for v in prev: new: t8:TB_SW_TAIL=8 t16:TB_SW_TAIL=16; do
      tag=${v%%:*}; bin=$B; [ $tag = prev ] && bin=$P
      env ${v#*:} $TL "$bin" eval "$c" --set solver.backend=$BE --set solver.precision=$p --set solver.deterministic=true \
        -o "$W/bw_$tag.xyz" >"$W/bw_$tag.txt" 2>&1
      [ $tag = prev ] && continue
      tot=$((tot + 1)); [ -s "$W/bw_$tag.xyz" ] && cmp -s "$W/bw_prev.xyz" "$W/bw_$tag.xyz" && same=$((same + 1))
    done
  done
done
say "$([ $same = $tot ] && echo PASS || echo FAIL): deterministic evaluations = prev bit for bit: $same of $tot (sw_si, sw_gan, crystals of $(for m in $MS; do echo -n "$((8 * m * m * m)) "; done)atoms; double, mixed; new, TB_SW_TAIL=8, 16)"
n=$((8 * ${MS%% *} ** 3)); m1=${MS%% *}
for p in double mixed; do
  for bin in $P "$B"; do
    tag=$([ "$bin" = "$B" ] && echo new || echo prev)
    ( cd "$W" && rm -f thd_$tag.csv* ckd_$tag.tbck* && $TL "$(abs "$bin")" run si$m1.cfg --set solver.precision=$p \
        --set solver.deterministic=true --set integrator.steps=$DS --set output.thermo=\"thd_$tag.csv\" \
        --set output.thermo_every=5 --set output.checkpoint=\"ckd_$tag.tbck\" >rd_$tag.txt 2>&1 )
  done
  b=$(grep -o 'built [0-9]* times' "$W/rd_new.txt" | head -n 1)
  if [ -s "$W/ckd_new.tbck" ] && cmp -s "$W/ckd_prev.tbck" "$W/ckd_new.tbck" && cmp -s "$W/thd_prev.csv" "$W/thd_new.csv"; then
    say "PASS: $DS-step deterministic NVE run of $n atoms ($p, lists $b): thermo and checkpoint prev = new byte for byte"
  else say "FAIL: $DS-step deterministic run of $n atoms ($p): prev and new differ ($(tail -n 1 "$W/rd_new.txt"))"; fi
  for sw in TB_SW_TAIL=8 TB_SW_TAIL=16 TB_NBR_SPEC=2; do
    ( cd "$W" && rm -f thx.csv* ckx.tbck* && env $sw $TL "$(abs "$B")" run si$m1.cfg --set solver.precision=$p \
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
  ( cd "$W" && rm -f thl_$tag.csv* ckl_$tag.tbck* && $TL "$(abs "$bin")" run "$lq" $l4k \
      --set output.thermo=\"thl_$tag.csv\" --set output.thermo_every=5 --set output.trajectory=\"\" \
      --set output.checkpoint=\"ckl_$tag.tbck\" >rl_$tag.txt 2>&1 )
done
if [ -s "$W/ckl_new.tbck" ] && cmp -s "$W/ckl_prev.tbck" "$W/ckl_new.tbck" && cmp -s "$W/thl_prev.csv" "$W/thl_new.csv"; then
  say "PASS: liquid n=$NL mixed deterministic $DS steps: new = prev byte for byte"
else say "FAIL: liquid n=$NL: new and prev differ ($(tail -n 1 "$W/rl_new.txt"))"; fi
fi

if [[ " $PARTS " = *" bench "* ]]; then
say "== bench --sw on $BE, n $NS (mixed, double) and $NSM (the switches), $ST steps: us per atom-step"
variants="new:: prev:: tail1:TB_SW_TAIL=1 dnew:: dprev::"
small="t8:TB_SW_TAIL=8 t16:TB_SW_TAIL=16 dtail1:TB_SW_TAIL=1 new2:: prev2:: ${SW_TL_EXTRA:-}"
sw_bench_variants "$variants" "$small"
for v in $variants $small; do # the per-phase lines (ms per step) of the two smallest n, and 1e7
  tag=${v%%:*}
  [ -f "$W/flat_$tag.txt" ] && awk -v t=$tag '$2 == "mixed" || $2 == "double" { n = $1; h = $3 } /per rank, ms per step:/ { getline; if (++k <= 2 || n + 0 >= 5000000) printf "%-8s n %s, ms per step: headline %s; phases: wall %s force %s sum %s integr %s lists %s other %s\n", t, n, h, $2, $3, $4, $5, $6, $7 }' "$W/flat_$tag.txt" | tee -a "$S"
done
fi

if [[ " $PARTS " = *" run "* ]]; then
say "== a run of the crystal, $RL NVE steps (thermo every 100), mixed, prev and new twice"
for m in $MS; do
  sw_crystal $m $DS; n=$((8 * m * m * m))
  for bin in $P "$B" $P "$B"; do
    tag=$([ "$bin" = "$B" ] && echo new || echo prev)
    ( cd "$W" && $TL "$(abs "$bin")" run si.cfg --set solver.precision=mixed --set integrator.steps=$RL --set output.thermo=\"thr_$tag.csv\" >run_$tag.txt 2>&1 )
    python3 - "$W/run_$tag.txt" $RL $n $tag <<'PY' | tee -a "$S"
import re, sys
txt = open(sys.argv[1]).read(); k = int(sys.argv[2]); n = int(sys.argv[3])
m = re.search(r'in ([0-9.e+-]+) s', txt); b = re.search(r'built (\d+) times', txt)
if not m:
    print("FAIL: run %s: %s" % (sys.argv[4], txt.strip().splitlines()[-1:])); sys.exit()
ms = 1e3 * float(m.group(1)) / k
print("%-5s n %d run %.4f ms/step (%.5f us/atom-step, lists built %s times)" % (sys.argv[4], n, ms, 1e3 * ms / n, b.group(1) if b else "?"))
PY
  done
done
fi
rm -f "$W"/*.xyz "$W"/*.tbck* "$W"/*.data # the logs stay small
