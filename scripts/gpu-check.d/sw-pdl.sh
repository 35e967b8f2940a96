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
. scripts/gpu-check.d/sw-shared.inc # sw_crystal, sw_bits, sw_bench_part
if [ "$BE" = cpu ]; then NS=512,4096; NSM=512,1000; M=8; ST=20; DS=10; CPUF=--cpu; LQ=2048,4000; LS=2; NL=2048
else NS=97336,110592,287496,1000000,10000000; NSM=97336,110592; M=23; ST=300; DS=200; CPUF=; LQ=32768,1000000; LS=50; NL=4000; fi
TL="timeout ${SW_PDL_PART:-100}" # no part may take the whole call
PARTS=${SW_PDL_PARTS:-bits bench liquid}
sw_crystal $M $DS # $W/si.data, $W/si.cfg, n
if [[ " $PARTS " = *" bits "* ]]; then
sw_bits TB_NBR_SPEC=2 TB_STEP_PDL=0 TB_STEP_FUSE=2
fi

if [[ " $PARTS " = *" bench "* ]]; then
sw_bench_part "the switches" "new:: prev:: dnew:: dprev::" \
  "pdl0:TB_STEP_PDL=0 before:TB_STEP_PDL=0,TB_STEP_FUSE=2 nophase:TB_TIMERS_PHASES=0 nophase0:TB_TIMERS_PHASES=0,TB_STEP_PDL=0 few8:TB_SW_FEW=8 new2:: prev2:: ${SW_PDL_EXTRA:-}"
fi

if [[ " $PARTS " = *" liquid "* ]]; then
say "== bench --liquid (ATM), mixed, n $LQ, $LS steps x 2: prev and new"
sw_liquid_bench
fi
rm -f "$W"/*.xyz "$W"/*.tbck* "$W"/si.data # the logs stay small
