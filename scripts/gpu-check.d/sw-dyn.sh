# scripts/gpu-check.d/sw-dyn.sh — scripts/gpu-check's mode `sw-dyn`: the SW kernel's centres taken
# from a queue (issue 24: TB_SW_GRID=4, each warp taking the next centres when its last are done),
# in the order of their legs at the last evaluation, most first (gpu_sw_order.cu; TB_SW_ORDER=0:
# the rows' order), against the grid by the rounds (TB_SW_GRID=3, the default before) and
# build/tribody-prev (or $TB_PREV), the binary before. Sourced by scripts/gpu-check (B, W, S, OUT,
# say in scope). Parts (SW_DYN_PARTS, each under its own time limit SW_DYN_PART seconds):
#   · bits: deterministic evaluations (sw_si, sw_gan, the 97336-atom crystal; double, mixed) and
#     200-step deterministic runs of the crystal (thermo, checkpoint) prev = new, also with
#     TB_SW_GRID=3, TB_SW_ORDER=0 and TB_NBR_SPEC=2 (every rebuild a rollback); compute-sanitizer
#     memcheck and racecheck of a 30-step run of sw_gan (the order sorted after its builds)
#   · bench: bench --sw, mixed and double, n 97336, 110592 (the first diamond >= 1e5), 287496, 1e6,
#     1e7, new, TB_SW_ORDER=0 (mixed) and prev; at 97336 and 110592 TB_SW_GRID=3 and TB_SW_ORDER=0
#     (mixed, double) and new / prev again
# GPU_CHECK_BACKEND=cpu: a dry run of the logic without a GPU (small n, few steps).
BE=${GPU_CHECK_BACKEND:-gpu}
P=${TB_PREV:-build/tribody-prev}
[ -x "$P" ] || { say "FAIL: no $P (the binary before the change)"; exit 1; }
. scripts/gpu-check.d/sw-shared.inc # sw_crystal, sw_bits, sw_bench_part
if [ "$BE" = cpu ]; then NS=512,4096; NSM=512,1000; M=8; ST=20; DS=10; CPUF=--cpu; NL=2048
else NS=97336,110592,287496,1000000,10000000; NSM=97336,110592; M=23; ST=300; DS=200; CPUF=; NL=4000; fi
TL="timeout ${SW_DYN_PART:-100}" # no part may take the whole call
PARTS=${SW_DYN_PARTS:-bits bench}
sw_crystal $M $DS # $W/si.data, $W/si.cfg, n
if [[ " $PARTS " = *" bits "* ]]; then
  sw_bits TB_SW_GRID=3 TB_SW_ORDER=0 TB_NBR_SPEC=2
  if command -v compute-sanitizer >/dev/null 2>&1; then
    for tool in memcheck racecheck; do
      $TL compute-sanitizer --tool $tool --error-exitcode 9 "$B" run tests/lammps/sw_gan.cfg --set solver.backend=$BE \
        --set solver.precision=mixed --set integrator.steps=30 --set solver.skin=0.05 >"$W/swdsan_$tool.txt" 2>&1
      say "$([ $? = 0 ] && echo PASS || echo FAIL): sw-dyn compute-sanitizer $tool (a 30-step run of sw_gan, mixed, skin 0.05 A: $(grep -o 'built [0-9]* times' "$W/swdsan_$tool.txt" | head -n 1))"
    done
  fi
fi
if [[ " $PARTS " = *" bench "* ]]; then
  sw_bench_part "the grid by the rounds" "new:: noord:TB_SW_ORDER=0: prev:: dnew:: dprev::" \
    "grid3:TB_SW_GRID=3 dgrid3:TB_SW_GRID=3 dnoord:TB_SW_ORDER=0 new2:: prev2:: ${SW_DYN_EXTRA:-}"
fi
rm -f "$W"/*.xyz "$W"/*.tbck* "$W"/si.data # the logs stay small
