# scripts/gpu-check.d/finite.sh — scripts/gpu-check's mode `finite`: the per-step finiteness check
# taken by the step's kick-drift (gpu_fin_check; docs/gpu.md, "A step's finiteness check"). Sourced
# by scripts/gpu-check (B, W, S, OUT, say in scope); build/tribody-prev (or $TB_PREV) is the binary
# before. Parts (FINITE_PARTS, default all):
#   · poison: TB_FIN_POISON=S:P makes particle P's velocity (P < 0: the pair energy) NaN before the
#     check of step S; a 300-step NVE run of a 1728-atom SW crystal (thermo and checkpoint every
#     100) must stop with exit 1 naming that value and step and keeping the checkpoint before it:
#     the kick-drift's check (mixed, double, deterministic), the check of its own (TB_STEP_FUSE=2),
#     the waiting skin test (TB_NBR_SPEC=0), an energy, step 1, a thermo step, the last step; the
#     liquid (LJ + ATM lists, 4000); and no poison: exit 0
#   · launches: finite_kernel launches in that run (Nsight Compute), prev and new
#   · bits: sw_bits (deterministic evaluations and 200-step runs prev = new, also TB_NBR_SPEC=2 and
#     TB_STEP_FUSE=2; the liquid with TB_NBR_SPEC=2), 13824 atoms
#   · runs: real runs (TRIBODY_TIMES' stepping phase, no outputs), prev and new alternating: the SW
#     crystal at 110592 (twice), 10^6 (twice), 9800344 atoms; examples/liquid.cfg at 32768 (twice)
#     and 10^6
# No CPU dry run: the switch and the fused check are the GPU backend's.
P=${TB_PREV:-build/tribody-prev}
[ -x "$P" ] || { say "FAIL: no $P (the binary before the change)"; exit 1; }
BE=gpu
. scripts/gpu-check.d/sw-shared.inc # sw_crystal, sw_bits, abs
PARTS=${FINITE_PARTS:-poison launches bits runs}
NB=$(abs "$B") NP=$(abs "$P")

if [[ " $PARTS " = *" poison "* ]]; then
  say "== a NaN before the check of step S (TB_FIN_POISON=S:P), SW crystal, 1728 atoms, 300 NVE steps"
  sw_crystal 6 300
  pois() { # label want-exit want-text [VAR=value ...] -- [run args]
    local label=$1 want=$2 text=$3 envs="" got msg
    shift 3
    while [ "$1" != "--" ]; do envs="$envs $1"; shift; done
    shift
    ( cd "$W" && rm -f th.csv* ck.tbck* && env $envs timeout 120 "$NB" run si.cfg --set output.thermo=\"th.csv\" \
        --set output.checkpoint=\"ck.tbck\" --set output.checkpoint_every=100 "$@" >p.txt 2>&1; echo $? >p.rc )
    got=$(cat "$W/p.rc"); msg=$(grep "tribody:" "$W/p.txt" | head -n 1)
    if [ "$got" = "$want" ] && grep -q -- "$text" "$W/p.txt"; then say "PASS: $label: exit $got: $msg"
    else say "FAIL: $label: exit $got (want $want, '$text'): $msg"; fi
  }
  kept="at step 137 (time 0.137): the run is stopped and the last checkpoint, ck.tbck at step 100, is kept"
  for p in mixed double; do
    pois "the kick-drift's check, $p" 1 "non-finite velocity of particle 5 $kept" TB_FIN_POISON=137:5 -- \
      --set solver.precision=\"$p\"
  done
  pois "the kick-drift's check, deterministic" 1 "non-finite velocity of particle 5 $kept" TB_FIN_POISON=137:5 -- \
    --set solver.deterministic=true
  pois "its own kernel (TB_STEP_FUSE=2)" 1 "non-finite velocity of particle 5 $kept" TB_FIN_POISON=137:5 TB_STEP_FUSE=2 --
  pois "the waiting skin test (TB_NBR_SPEC=0)" 1 "non-finite velocity of particle 5 $kept" TB_FIN_POISON=137:5 TB_NBR_SPEC=0 --
  pois "the pair energy" 1 "non-finite pair energy $kept" TB_FIN_POISON=137:-1 --
  pois "the pair energy at step 1" 1 "non-finite pair energy at step 1 (time 0.001): the run is stopped and no checkpoint" TB_FIN_POISON=1:-1 --
  pois "a thermo step (checked at once)" 1 "non-finite velocity of particle 1727 at step 200 " TB_FIN_POISON=200:1727 --
  pois "the last step" 1 "non-finite velocity of particle 3 at step 300 .*ck.tbck at step 200, is kept" TB_FIN_POISON=300:3 --
  pois "no poison" 0 "energy drift" --
  lq="--set system.particles=4000 --set system.box=$(python3 -c "print(repr((4000 / 0.8) ** (1 / 3)))") --set solver.backend=gpu"
  ( cd "$W" && rm -f thl.csv* && TB_FIN_POISON=77:11 timeout 120 "$NB" run "$D/examples/liquid.cfg" $lq --set integrator.steps=200 \
      --set output.thermo=\"thl.csv\" --set output.thermo_every=10 --set output.trajectory=\"\" --set output.checkpoint=\"\" >pl.txt 2>&1; echo $? >pl.rc )
  if [ "$(cat "$W/pl.rc")" = 1 ] && grep -q "non-finite velocity of particle 11 at step 77 " "$W/pl.txt"; then
    say "PASS: the liquid (LJ + ATM lists, 4000): $(grep tribody: "$W/pl.txt" | head -n 1)"
  else say "FAIL: the liquid: exit $(cat "$W/pl.rc"): $(grep tribody: "$W/pl.txt" | head -n 1)"; fi
fi

if [[ " $PARTS " = *" launches "* ]]; then
  say "== finite_kernel launches in that 300-step run (thermo every 100; Nsight Compute)"
  sw_crystal 6 300
  for b in prev new; do
    bin=$NB; [ $b = prev ] && bin=$NP
    ( cd "$W" && timeout 200 ncu --target-processes all -k regex:finite_kernel --metrics gpu__time_duration.sum --csv \
        "$bin" run si.cfg --set output.thermo=\"th.csv\" >ncu_$b.csv 2>ncu_$b.err )
    say "$b: $(grep -c finite_kernel "$W/ncu_$b.csv") launches of finite_kernel"
  done
fi

if [[ " $PARTS " = *" bits "* ]]; then
  M=12; DS=200; NL=4000; TL="timeout 100"
  sw_crystal $M $DS
  sw_bits TB_NBR_SPEC=2 TB_STEP_FUSE=2
fi

if [[ " $PARTS " = *" runs "* ]]; then
  say "== real runs (the stepping phase of TRIBODY_TIMES=1; no outputs but the last step), mixed, prev / new alternating"
  rr() { # tag binary steps what (the crystal of sw_crystal, or liquid N)
    local tag=$1 bin=$2 k=$3 nn
    if [ "$4" = sw ]; then
      nn=$n; ( cd "$W" && env TRIBODY_TIMES=1 timeout 300 "$bin" run si.cfg --set solver.precision=\"mixed\" \
        --set integrator.steps=$k >r_$tag.txt 2>&1 )
    else
      nn=$4; ( cd "$W" && env TRIBODY_TIMES=1 timeout 300 "$bin" run "$D/examples/liquid.cfg" --set system.particles=$nn \
        --set system.box=$(python3 -c "print(repr(($nn / 0.8) ** (1 / 3)))") --set solver.backend=gpu \
        --set integrator.steps=$k --set output.thermo=\"\" --set output.trajectory=\"\" --set output.checkpoint=\"\" >r_$tag.txt 2>&1 )
    fi
    awk -v k=$k -v n=$nn -v t=$tag '/tribody-time: stepping_start/{a=$3} /tribody-time: stepping /{b=$3}
      END{printf "%-14s n %9d: %8.4f ms/step, %.6f us/atom-step\n", t, n, 1e3*(b-a)/k, 1e6*(b-a)/k/n}' "$W/r_$tag.txt" | tee -a "$S"
    grep -q "energy drift" "$W/r_$tag.txt" || say "FAIL: run $tag: $(grep tribody: "$W/r_$tag.txt" | head -n 1)"
  }
  sw_crystal 24 3000
  for k in 1 2; do rr prev_110592_$k "$NP" 3000 sw; rr new_110592_$k "$NB" 3000 sw; done
  sw_crystal 50 1000
  for k in 1 2; do rr prev_1e6_$k "$NP" 1000 sw; rr new_1e6_$k "$NB" 1000 sw; done
  sw_crystal 107 300
  rr prev_9.8e6 "$NP" 300 sw; rr new_9.8e6 "$NB" 300 sw
  for k in 1 2; do rr lprev_32768_$k "$NP" 600 32768; rr lnew_32768_$k "$NB" 600 32768; done
  rr lprev_1e6 "$NP" 100 1000000; rr lnew_1e6 "$NB" 100 1000000
fi
